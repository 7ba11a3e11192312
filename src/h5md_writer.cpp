#include "chaindem/h5md_writer.hpp"

#include <hdf5.h>

#include "hdf5_util.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "chaindem/version.hpp"
#include "chaindem/xdmf_writer.hpp"

static_assert(std::is_same_v<hid_t, std::int64_t>,
              "hid_t travels as std::int64_t in the public header");

namespace chaindem {
namespace {

using namespace hdf5;

// An H5MD time-dependent element: group with step, time and value.
struct TimeSeries {
  Handle group_;
  Growing step, time, value;
  TimeSeries() = default;
  TimeSeries(hid_t parent, const std::string& name, std::vector<hsize_t> shape,
             const std::string& unit, hsize_t frames, std::mutex* lock)
      : group_(group(parent, name)),
        step(group_.get(), "step", {}, H5T_NATIVE_INT64, "", frames, lock),
        time(group_.get(), "time", {}, H5T_NATIVE_DOUBLE, "s", frames, lock),
        value(group_.get(), "value", std::move(shape), H5T_NATIVE_DOUBLE, unit, frames, lock) {}
  void append(std::int64_t s, double t, const double* v) {
    step.append(&s, 1);
    time.append(&t, 1);
    value.append(v, 1);
  }
  void close() {
    step.close();
    time.close();
    value.close();
  }
};

}  // namespace

struct H5mdWriter::Impl {
  std::mutex* lock = nullptr;  // shared-file mode: held for every HDF5 call
  Handle file;                 // the file, or the group that holds this run
  Handle particles, chain, observables, contacts_group, walls_group;
  TimeSeries position, velocity, force;
  std::map<std::string, TimeSeries> energy;
  TimeSeries momentum;
  TimeSeries wall_position;
  bool contacts = false;
  Growing c_step, c_time, c_offset, c_first, c_second, c_overlap, c_force, c_rate, c_v0;
  std::int64_t contact_rows = 0;
  std::vector<double> buffer;
};

H5mdWriter::H5mdWriter(std::string path, const RunMetadata& meta, const Simulation& sim,
                       bool write_contacts)
    : impl_(std::make_unique<Impl>()), path_(std::move(path)), partial_path_(path_ + ".partial") {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions with our message
  impl_->file =
      Handle(check(H5Fcreate(partial_path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                   "cannot create '" + partial_path_ + "'"),
             H5Fclose);
  create(meta, sim, write_contacts);
}

H5mdWriter::H5mdWriter(std::int64_t parent, std::string group_name, const RunMetadata& meta,
                       const Simulation& sim, bool write_contacts, std::mutex* lock)
    : impl_(std::make_unique<Impl>()), path_(std::move(group_name)), parent_(parent) {
  std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  impl_->lock = lock;
  impl_->file = group(parent, path_);
  create(meta, sim, write_contacts);
}

void H5mdWriter::create(const RunMetadata& meta, const Simulation& sim, bool write_contacts) {
  Impl& m = *impl_;
  const hid_t f = m.file.get();

  write_h5md_metadata(f, version);

  const Particles& p = sim.particles();
  const auto n = static_cast<hsize_t>(p.size());
  particles_ = p.size();
  const auto frames = static_cast<hsize_t>(std::max<std::int64_t>(meta.expected_frames, 1));
  m.particles = group(f, "particles");
  m.chain = group(m.particles.get(), "chain");
  {
    Handle box = group(m.chain.get(), "box");
    attr_numbers<int>(box.get(), "dimension", {3}, H5T_NATIVE_INT);
    attr_fixed_strings(box.get(), "boundary", {"none", "none", "none"});
  }
  m.position = TimeSeries(m.chain.get(), "position", {n, 3}, "m", frames, m.lock);
  m.velocity = TimeSeries(m.chain.get(), "velocity", {n, 3}, "m/s", frames, m.lock);
  m.force = TimeSeries(m.chain.get(), "force", {n, 3}, "N", frames, m.lock);
  dataset_fixed(m.chain.get(), "radius", {n}, p.radius.data(), H5T_NATIVE_DOUBLE, "m");
  dataset_fixed(m.chain.get(), "mass", {n}, p.mass.data(), H5T_NATIVE_DOUBLE, "kg");
  dataset_fixed(m.chain.get(), "species", {n}, p.material.data(), H5T_NATIVE_INT);
  std::vector<std::string> material_names;
  for (const auto& mat : sim.scene().materials) material_names.push_back(mat.name);
  if (!material_names.empty()) attr_strings(m.chain.get(), "species_names", material_names);
  attr_numbers<std::int64_t>(m.chain.get(), "striker", {sim.scene().striker}, H5T_NATIVE_INT64);
  attr_numbers<std::int64_t>(m.chain.get(), "chain_first", {sim.scene().chain_first},
                             H5T_NATIVE_INT64);
  attr_numbers<std::int64_t>(m.chain.get(), "chain_count", {sim.scene().chain_count},
                             H5T_NATIVE_INT64);

  m.observables = group(f, "observables");
  for (const char* name : {"kinetic_energy", "stored_energy", "dissipated_energy",
                           "external_potential_energy", "wall_work", "energy_balance"})
    m.energy.emplace(name, TimeSeries(m.observables.get(), name, {}, "J", frames, m.lock));
  m.momentum = TimeSeries(m.observables.get(), "momentum", {3}, "kg m/s", frames, m.lock);

  const auto n_walls = static_cast<hsize_t>(sim.scene().walls.size());
  m.walls_group = group(f, "walls");
  sim_walls_empty_ = n_walls == 0;
  if (n_walls > 0) {
    std::vector<std::string> names;
    std::vector<double> normals;
    for (const auto& w : sim.scene().walls) {
      names.push_back(w.name);
      normals.insert(normals.end(), {w.normal.x(), w.normal.y(), w.normal.z()});
    }
    attr_strings(m.walls_group.get(), "names", names);
    dataset_fixed(m.walls_group.get(), "normal", {n_walls, 3}, normals.data(), H5T_NATIVE_DOUBLE);
    m.wall_position =
        TimeSeries(m.walls_group.get(), "position", {n_walls, 3}, "m", frames, m.lock);
  }

  m.contacts = write_contacts;
  if (write_contacts) {
    m.contacts_group = group(f, "contacts");
    const hid_t g = m.contacts_group.get();
    attr_string(g, "layout",
                "ragged: frame k holds rows offset[k] .. offset[k+1]-1; second < 0 is wall "
                "-(second+1); only touching contacts are listed");
    m.c_step = Growing(g, "step", {}, H5T_NATIVE_INT64, "", frames, m.lock);
    m.c_time = Growing(g, "time", {}, H5T_NATIVE_DOUBLE, "s", frames, m.lock);
    m.c_offset = Growing(g, "offset", {}, H5T_NATIVE_INT64, "", frames, m.lock);
    const std::int64_t zero = 0;
    m.c_offset.append(&zero, 1);
    m.c_first = Growing(g, "first", {}, H5T_NATIVE_INT32, "", 4096, m.lock);
    m.c_second = Growing(g, "second", {}, H5T_NATIVE_INT32, "", 4096, m.lock);
    m.c_overlap = Growing(g, "overlap", {}, H5T_NATIVE_DOUBLE, "m", 4096, m.lock);
    m.c_force = Growing(g, "normal_force", {}, H5T_NATIVE_DOUBLE, "N", 4096, m.lock);
    m.c_rate = Growing(g, "approach_rate", {}, H5T_NATIVE_DOUBLE, "m/s", 4096, m.lock);
    m.c_v0 = Growing(g, "impact_velocity", {}, H5T_NATIVE_DOUBLE, "m/s", 4096, m.lock);
  }

  {  // /parameters
    Handle params = group(f, "parameters");
    for (const auto& [key, value] : meta.parameters) attr_string(params.get(), key, value);
    dataset_string(params.get(), "case_file", meta.case_text);
    attr_string(params.get(), "case_origin", meta.case_origin);
    attr_string(params.get(), "chaindem_version", version);
    attr_string(params.get(), "time_step_note", meta.time_step_note);
    Handle derived = group(params.get(), "derived");
    for (const auto& [key, value] : meta.derived)
      attr_numbers<double>(derived.get(), key, {value}, H5T_NATIVE_DOUBLE);
    Handle law = group(params.get(), "law");
    const LawEntry& entry = *sim.settings().law;
    attr_string(law.get(), "id", std::string(entry.id));
    attr_string(law.get(), "citation", std::string(entry.citation));
    attr_string(law.get(), "formula", std::string(entry.formula));
    attr_string(law.get(), "damping", std::string(entry.damping));
    attr_string(law.get(), "tension",
                sim.settings().tension == TensionPolicy::clamp ? "clamp" : "allow");
    for (const auto& [key, value] : sim.settings().law_params)
      attr_numbers<double>(law.get(), key, {value}, H5T_NATIVE_DOUBLE);
  }
}

H5mdWriter::~H5mdWriter() {
  if (finished_) return;
  if (parent_ >= 0) {  // shared file: remove the unfinished run's group
    std::mutex* lock = impl_->lock;
    std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
    impl_.reset();
    H5Ldelete(parent_, path_.c_str(), H5P_DEFAULT);
    return;
  }
  impl_.reset();  // close the file before removing it
  std::error_code ec;
  std::filesystem::remove(partial_path_, ec);
}

void H5mdWriter::write_frame(const Simulation& sim) {
  Impl& m = *impl_;
  const Particles& p = sim.particles();
  const std::int64_t step = sim.step_count();
  const double t = sim.time();
  frame_times_.push_back(t);
  const auto n = static_cast<std::size_t>(p.size());
  auto write_vectors = [&](TimeSeries& ts, const Vec3Array& a) {
    m.buffer.resize(3 * n);
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) m.buffer[3 * i + c] = a(static_cast<Eigen::Index>(i), c);
    ts.append(step, t, m.buffer.data());
  };
  write_vectors(m.position, p.position);
  write_vectors(m.velocity, p.velocity);
  write_vectors(m.force, p.force);

  const EnergyReport e = sim.energies();
  const std::map<std::string, double> values{
      {"kinetic_energy", e.kinetic},       {"stored_energy", e.stored},
      {"dissipated_energy", e.dissipated}, {"external_potential_energy", e.external_potential},
      {"wall_work", e.wall_work},          {"energy_balance", e.balance()}};
  for (auto& [name, series] : m.energy) series.append(step, t, &values.at(name));
  const Eigen::Vector3d mom = sim.momentum();
  m.momentum.append(step, t, mom.data());

  if (!sim.scene().walls.empty()) {
    std::vector<double> w;
    for (std::size_t k = 0; k < sim.scene().walls.size(); ++k) {
      const Eigen::Vector3d x = sim.wall_point(k);
      w.insert(w.end(), {x.x(), x.y(), x.z()});
    }
    m.wall_position.append(step, t, w.data());
  }

  if (m.contacts) {
    std::vector<std::int32_t> first, second;
    std::vector<double> overlap, force, rate, v0;
    auto collect = [&](const ContactList& cl, bool wall) {
      for (std::size_t c = 0; c < cl.size(); ++c) {
        if (!cl.state[c].touching) continue;
        first.push_back(cl.first[c]);
        second.push_back(wall ? -cl.second[c] - 1 : cl.second[c]);
        overlap.push_back(cl.overlap[c]);
        force.push_back(cl.force[c]);
        rate.push_back(cl.rate[c]);
        v0.push_back(cl.state[c].impact_velocity);
      }
    };
    collect(sim.pair_contacts(), false);
    collect(sim.wall_contacts(), true);
    const hsize_t rows = first.size();
    m.c_first.append(first.data(), rows);
    m.c_second.append(second.data(), rows);
    m.c_overlap.append(overlap.data(), rows);
    m.c_force.append(force.data(), rows);
    m.c_rate.append(rate.data(), rows);
    m.c_v0.append(v0.data(), rows);
    m.contact_rows += static_cast<std::int64_t>(rows);
    m.c_step.append(&step, 1);
    m.c_time.append(&t, 1);
    m.c_offset.append(&m.contact_rows, 1);
  }
}

void H5mdWriter::finish(const std::map<std::string, double>& summary,
                        const std::map<std::string, std::vector<double>>& arrays) {
  Impl& m = *impl_;
  std::unique_lock guard = m.lock ? std::unique_lock(*m.lock) : std::unique_lock<std::mutex>();
  for (TimeSeries* ts : {&m.position, &m.velocity, &m.force, &m.momentum}) ts->close();
  for (auto& [name, series] : m.energy) series.close();
  if (!sim_walls_empty_) m.wall_position.close();
  if (m.contacts)
    for (Growing* g : {&m.c_step, &m.c_time, &m.c_offset, &m.c_first, &m.c_second, &m.c_overlap,
                       &m.c_force, &m.c_rate, &m.c_v0})
      g->close();
  {
    Handle s = group(m.file.get(), "summary");
    for (const auto& [key, value] : summary)
      attr_numbers<double>(s.get(), key, {value}, H5T_NATIVE_DOUBLE);
    for (const auto& [key, values] : arrays)
      dataset_fixed(s.get(), key, {static_cast<hsize_t>(values.size())}, values.data(),
                    H5T_NATIVE_DOUBLE);
  }
  attr_string(m.file.get(), "chaindem_status", "complete");
  if (parent_ < 0) check_status(H5Fflush(m.file.get(), H5F_SCOPE_GLOBAL), "flush");
  impl_.reset();  // closes every object (and the file, unless it is shared)
  if (parent_ < 0) {
    std::filesystem::rename(partial_path_, path_);
    write_xdmf(path_, xdmf_path_for(path_), frame_times_, particles_);
  }
  finished_ = true;
}

}  // namespace chaindem
