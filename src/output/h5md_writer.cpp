#include "chaindem/output/h5md_writer.hpp"

#include <hdf5.h>

#include "chaindem/output/hdf5_util.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "background_writer.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/xdmf_writer.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"
#include "series_clocks.hpp"
#include "several_models.hpp"
#include "time_series.hpp"

static_assert(std::is_same_v<hid_t, std::int64_t>,
              "hid_t travels as std::int64_t in the public header");

namespace chaindem {
namespace {

using namespace hdf5;

using output_detail::Clock;
using output_detail::Frame;
using output_detail::SeriesClocks;
using output_detail::TimeSeries;

using layout::contact_columns;
using layout::observable_columns;
using layout::particle_columns;

}  // namespace

void check_run_output(const std::string& path, const std::vector<std::string>& inputs,
                      Existing existing, bool with_xdmf) {
  check_output_path(path, inputs, existing);
  if (!with_xdmf) return;
  const std::string xdmf = xdmf_path_for(path);
  if (std::filesystem::path(xdmf).lexically_normal() ==
      std::filesystem::path(path).lexically_normal())
    throw OutputPathError("output '" + quoted_path(path) +
                          "': the XDMF file written beside it would have the same name; give a "
                          "name that does not end in .xdmf");
  check_output_path(xdmf, inputs, existing, true);
}

struct H5mdWriter::Impl {
  std::mutex* lock = nullptr;  // shared-file mode: held for every HDF5 call
  hid_t parent = -1;           // shared-file mode: the group that receives this run's group
  std::string group_name;

  // What the static part of the file holds, captured when the run starts: a run in a shared
  // file creates its HDF5 objects only when it finishes (or when a long run's buffers spill).
  RunMetadata meta;
  Eigen::ArrayXd radius, mass;
  std::vector<int> species;
  std::vector<std::string> species_names;
  std::int64_t striker = -1, chain_first = 0, chain_count = 0;
  /// output.beads: the particles written, in order; empty: all.
  const std::vector<std::int64_t>& ids() const { return output.particles(); }
  std::vector<std::string> wall_names;
  std::vector<double> wall_normals;
  std::vector<ContactModel> models;  // [k]: model k of the run's settings
  // A run of several contact models also writes each contact's model, the table of models, the
  // energy of each section of the chain and the summary per model.
  bool several = false;
  std::vector<output_detail::ChainSection> sections;  // several models only

  bool created = false;     // every object of the run exists
  bool group_made = false;  // shared file: the run's group exists (perhaps half-filled)
  hid_t root = -1;          // the run's own file, or run_group
  Handle run_group;         // shared file: the group that holds this run
  Handle particles, chain, observables, contacts_group, walls_group;
  // The time series, one per row of the layout's tables; those of quantities not selected stay
  // empty and are not written.
  layout::OutputSelection output;
  SeriesClocks schedule;  // which frames each group is written at, and which clock it shares
  std::array<Clock, SeriesClocks::groups> clocks;  // of the groups that hold one
  /// The group (an HDF5 group) that holds group g's clock: the position's, the first
  /// observable's, /contacts.
  hid_t clock_holder(std::size_t g) {
    hid_t holder = g == SeriesClocks::contacts ? contacts_group.get() : -1;
    for_each_series([&](TimeSeries& ts, Handle&, const char*) {
      if (holder < 0 && ts.group == g) holder = ts.group_.get();
    });
    return holder;
  }
  std::array<TimeSeries, particle_columns.size()> particle_series;
  std::array<TimeSeries, observable_columns.size()> observable_series;
  std::array<TimeSeries, layout::wall_columns.size()> wall_series;  // layout::wall_columns
  TimeSeries section_energy;  // written when `sections` is not empty
  bool walls = false;         // the scene has walls and a wall column is selected
  /// Whether wall column k is written.
  bool wall_written(std::size_t k) const { return walls && output.has(layout::wall_columns[k].id); }
  bool contacts = false;  // /contacts is written (a contact column is selected)
  Growing c_offset, c_first, c_second, c_model;          // c_model: several models only
  std::array<Growing, contact_columns.size()> c_values;  // contact_columns, in order
  /// Every /contacts dataset written.
  std::vector<Growing*> contact_datasets() {
    std::vector<Growing*> all{&c_offset, &c_first, &c_second};
    if (several) all.push_back(&c_model);
    for (std::size_t k = 0; k < contact_columns.size(); ++k)
      if (output.has(contact_columns[k].id)) all.push_back(&c_values[k]);
    return all;
  }
  /// The time series written, in the order the end of a run links and closes them: the file's
  /// order, but for the momentum, closed before the energies. A file is so byte for byte what
  /// earlier versions wrote, where their data were placed as well.
  std::vector<TimeSeries*> closing_order() {
    std::vector<TimeSeries*> all;
    for (std::size_t k = 0; k < particle_columns.size(); ++k)
      if (output.has(particle_columns[k].id)) all.push_back(&particle_series[k]);
    for (const bool energies : {false, true})
      for (std::size_t k = 0; k < observable_columns.size(); ++k)
        if (output.has(observable_columns[k].id) &&
            (std::string_view(observable_columns[k].unit) == "J") == energies)
          all.push_back(&observable_series[k]);
    if (!sections.empty()) all.push_back(&section_energy);
    for (std::size_t k = 0; k < wall_series.size(); ++k)
      if (wall_written(k)) all.push_back(&wall_series[k]);
    return all;
  }
  /// Calls f(series, its parent group, that group's path) for every time series written, in
  /// the order of the file: the particle columns, the observables (the sections' energies last),
  /// the walls' series.
  template <class F>
  void for_each_series(F&& f) {
    for (std::size_t k = 0; k < particle_columns.size(); ++k)
      if (output.has(particle_columns[k].id)) f(particle_series[k], chain, layout::particles_group);
    for (std::size_t k = 0; k < observable_columns.size(); ++k)
      if (output.has(observable_columns[k].id))
        f(observable_series[k], observables, layout::observables_group);
    if (!sections.empty()) f(section_energy, observables, layout::observables_group);
    for (std::size_t k = 0; k < wall_series.size(); ++k)
      if (wall_written(k)) f(wall_series[k], walls_group, layout::walls_group);
  }
  std::int64_t contact_rows = 0;

  std::unique_ptr<BackgroundWriter<Frame>>
      background;  // own file: frames are written on this thread

  Impl(const RunMetadata& m, const Simulation& sim, const layout::OutputSelection& selection,
       std::mutex* l);
  void append(const Frame& f);  // the frame into the time series' buffers (HDF5 when spilling)
  // The simulation thread's: which contacts of the pairs [0] and of the walls [1] touch.
  std::array<std::vector<std::uint32_t>, 2> touching;
  std::size_t buffered_bytes() const;
  void create();  // the file's objects; holds the lock if shared
  void create_particles(hid_t f);
  /// Every time-dependent dataset with its path under the run's root and the rows of it that
  /// hold `frames` frames and `contact_rows` contact rows (the offsets' first row is written at
  /// construction).
  struct Series {
    std::string path;
    Growing* data;
    hsize_t begin, end;
  };
  std::vector<Series> series(std::int64_t frames, std::int64_t contact_rows);
  void flush_series();   // every buffered row to its dataset, creating the datasets
  void close_series();   // every dataset closed, each close checked
  void reopen(hid_t f);  // the groups again, in the file reopened at the end of a SWMR run
  void close_objects();  // every object this run opened, each close checked
  // The end of the run: the queued frames, the summary and the status written, and every
  // object closed, each close checked.
  void end(const layout::RunSummary& summary);
};

H5mdWriter::Impl::Impl(const RunMetadata& m, const Simulation& sim,
                       const layout::OutputSelection& selection, std::mutex* l)
    : lock(l), meta(m), output(selection), contacts(selection.has_contacts()) {
  const Particles& p = sim.particles();
  const Scene& scene = sim.scene();
  radius = p.radius;
  mass = p.mass;
  species = p.material;
  if (!ids().empty()) {  // the constants of the particles written, as the series hold them
    const auto written = static_cast<Eigen::Index>(ids().size());
    radius.resize(written);
    mass.resize(written);
    species.resize(ids().size());
    for (Eigen::Index j = 0; j < written; ++j) {
      const auto i = static_cast<Eigen::Index>(ids()[static_cast<std::size_t>(j)]);
      radius(j) = p.radius(i);
      mass(j) = p.mass(i);
      species[static_cast<std::size_t>(j)] = p.material[static_cast<std::size_t>(i)];
    }
  }
  for (const auto& mat : scene.materials) species_names.push_back(mat.name);
  striker = scene.striker.value_or(-1);  // the file's "no striker"
  chain_first = scene.chain_first;
  chain_count = scene.chain_count;
  for (const auto& w : scene.walls) {
    wall_names.push_back(w.name);
    wall_normals.insert(wall_normals.end(), {w.normal.x(), w.normal.y(), w.normal.z()});
  }
  for (int k = 0; k < sim.settings().model_count(); ++k) models.push_back(sim.settings().model(k));
  several = models.size() > 1;
  if (several) sections = output_detail::chain_sections(scene);
  // x alone is the whole vector only where the chain engine keeps y and z at zero.
  if (output.components() == 1 && !(sim.uses_chain_engine() && (p.position.col(1) == 0.0).all() &&
                                    (p.position.col(2) == 0.0).all()))
    throw std::logic_error("H5mdWriter: x alone is written only for a chain on the x axis");

  const auto n = static_cast<hsize_t>(radius.size());  // the particles written
  const auto frames = static_cast<hsize_t>(std::max<std::int64_t>(meta.expected_frames, 1));
  const Compression z = meta.compression;
  for (std::size_t k = 0; k < particle_columns.size(); ++k)
    if (output.has(particle_columns[k].id))
      particle_series[k] =
          TimeSeries(particle_columns[k].name, {n, output.components()}, particle_columns[k].unit,
                     frames, lock, z, SeriesClocks::particles);
  for (std::size_t k = 0; k < observable_columns.size(); ++k) {
    const layout::ObservableColumn& c = observable_columns[k];
    if (!output.has(c.id)) continue;
    std::vector<hsize_t> shape;
    if (c.components > 1) shape.push_back(c.components);
    observable_series[k] =
        TimeSeries(c.name, shape, c.unit, frames, lock, z, SeriesClocks::observables);
  }
  walls = !wall_names.empty() &&
          std::any_of(layout::wall_columns.begin(), layout::wall_columns.end(),
                      [&](const layout::WallColumn& c) { return output.has(c.id); });
  for (std::size_t k = 0; k < wall_series.size(); ++k)
    if (wall_written(k))
      wall_series[k] =
          TimeSeries(layout::wall_columns[k].name, {wall_names.size(), 3},
                     layout::wall_columns[k].unit, frames, lock, z, SeriesClocks::observables);
  if (!sections.empty())
    section_energy =
        TimeSeries(layout::section_energy.name, {sections.size()}, layout::section_energy.unit,
                   frames, lock, z, SeriesClocks::observables);
  if (contacts) {
    c_offset = Growing(-1, layout::contact_offset.name, {}, Scalar::int64, "", frames, lock, z);
    const std::int64_t zero = 0;
    c_offset.append(&zero, 1);
    c_first = Growing(-1, layout::contact_first.name, {}, Scalar::int32, "", 4096, lock, z);
    c_second = Growing(-1, layout::contact_second.name, {}, Scalar::int32, "", 4096, lock, z);
    if (several)
      c_model = Growing(-1, layout::contact_model.name, {}, Scalar::int32, "", 4096, lock, z);
    for (std::size_t k = 0; k < contact_columns.size(); ++k)
      if (output.has(contact_columns[k].id))
        c_values[k] = Growing(-1, contact_columns[k].name, {}, Scalar::float64,
                              contact_columns[k].unit, 4096, lock, z);
  }
  const bool any_observable =
      layout::writes_observables(output, !wall_names.empty(), !sections.empty());
  schedule = SeriesClocks(output, {output.writes_frames(), any_observable, contacts}, meta.steps,
                          meta.output_every);
  for (std::size_t g = 0; g < SeriesClocks::groups; ++g)
    if (schedule.holds_clock(g)) clocks[g] = Clock(frames, lock, z);
}

std::size_t H5mdWriter::Impl::buffered_bytes() const {
  std::size_t total = section_energy.value.buffered_bytes();
  for (const TimeSeries& ts : wall_series) total += ts.value.buffered_bytes();
  for (const Clock& c : clocks) total += c.step.buffered_bytes() + c.time.buffered_bytes();
  for (const TimeSeries& ts : particle_series) total += ts.value.buffered_bytes();
  for (const TimeSeries& ts : observable_series) total += ts.value.buffered_bytes();
  for (const Growing* g : {&c_offset, &c_first, &c_second, &c_model}) total += g->buffered_bytes();
  for (const Growing& g : c_values) total += g.buffered_bytes();
  return total;
}

std::size_t H5mdWriter::buffered_bytes() const {
  return impl_ ? impl_->buffered_bytes() : 0;
}

H5mdWriter::H5mdWriter(std::string path, Existing existing, const RunMetadata& meta,
                       const Simulation& sim, const layout::OutputSelection& output, bool swmr)
    : impl_(std::make_unique<Impl>(meta, sim, output, nullptr)),
      output_(std::make_unique<PartialOutput>(path, existing)),
      path_(std::move(path)),
      swmr_(swmr),
      xdmf_(meta.xdmf),
      output_selection_(output) {
  impl_->root = output_->create_hdf5(swmr ? hdf5::swmr_file_access() : hdf5::file_access());
  particles_ = sim.particles().size();
  try {
    impl_->create();
    if (swmr) {  // SWMR writing adds no object: every dataset is made first
      impl_->flush_series();
      check_status(H5Fstart_swmr_write(impl_->root), "start SWMR writing");
    }
  } catch (const std::exception& e) {
    throw output_->error(e.what());
  }
  Impl* m = impl_.get();
  impl_->background =
      std::make_unique<BackgroundWriter<Frame>>([m](const Frame& f) { m->append(f); }, queue_bytes);
}

H5mdWriter::H5mdWriter(std::int64_t parent, std::string group_name, const RunMetadata& meta,
                       const Simulation& sim, const layout::OutputSelection& output,
                       std::mutex* lock)
    : impl_(std::make_unique<Impl>(meta, sim, output, lock)),
      path_(std::move(group_name)),
      parent_(parent),
      output_selection_(output) {
  impl_->parent = parent;
  impl_->group_name = path_;
  particles_ = sim.particles().size();
}

// /particles/chain: its box, series and the particles' constants (create()).
void H5mdWriter::Impl::create_particles(hid_t f) {
  const auto n = static_cast<hsize_t>(radius.size());
  const std::string_view chain_path = layout::particles_group;  // particles/chain
  const std::size_t slash = chain_path.find('/');
  particles = group(f, std::string(chain_path.substr(0, slash)));
  std::size_t room = link_room("box") + link_room(layout::particle_id);
  for (const char* name :
       {layout::striker_attribute, layout::chain_first_attribute, layout::chain_count_attribute})
    room += attribute_room(name, 8);
  for (const layout::ParticleColumn& c : particle_columns) room += link_room(c.name);
  for (const auto& d : {layout::particle_mass, layout::particle_radius, layout::particle_species})
    room += link_room(d.name);
  chain = group(particles.get(), std::string(chain_path.substr(slash + 1)), room);
  {
    Handle box = group(chain.get(), "box");
    const auto dimension = static_cast<int>(output.components());
    attr_numbers<int>(box.get(), "dimension", {dimension}, H5T_NATIVE_INT);
    attr_fixed_strings(box.get(), "boundary",
                       std::vector<std::string>(output.components(), "none"));
    box.close("box");
  }
  for (std::size_t k = 0; k < particle_columns.size(); ++k) {
    if (!output.has(particle_columns[k].id)) continue;
    particle_series[k].open(chain.get());
  }
  using layout::particle_mass, layout::particle_radius, layout::particle_species;
  dataset_fixed(chain.get(), particle_radius.name, {n}, radius.data(), H5T_NATIVE_DOUBLE,
                particle_radius.unit);
  dataset_fixed(chain.get(), particle_mass.name, {n}, mass.data(), H5T_NATIVE_DOUBLE,
                particle_mass.unit);
  dataset_fixed(chain.get(), particle_species.name, {n}, species.data(), H5T_NATIVE_INT);
  if (!ids().empty())  // H5MD's id element: the run's index of each particle written
    dataset_fixed(chain.get(), layout::particle_id, {n}, ids().data(), H5T_NATIVE_INT64);
  if (!species_names.empty()) {  // the names of the indices, on the dataset that holds them
    Handle s(check(H5Dopen2(chain.get(), particle_species.name, H5P_DEFAULT), "species"), H5Dclose);
    attr_strings(s.get(), layout::species_names_attribute, species_names);
    s.close("species");
  }
  // Written once: a long chain's copies need not wait for the end of the run.
  radius.resize(0);
  mass.resize(0);
  species = {};
  attr_numbers<std::int64_t>(chain.get(), layout::striker_attribute, {striker}, H5T_NATIVE_INT64);
  attr_numbers<std::int64_t>(chain.get(), layout::chain_first_attribute, {chain_first},
                             H5T_NATIVE_INT64);
  attr_numbers<std::int64_t>(chain.get(), layout::chain_count_attribute, {chain_count},
                             H5T_NATIVE_INT64);
}

void H5mdWriter::Impl::create() {
  quiet_errors();
  if (parent >= 0) {
    std::size_t room = attribute_room("chaindem_status");
    for (const auto& label : meta.labels) room += attribute_room(label.first);
    for (const char* name :
         {"particles", layout::observables_group, layout::walls_group, layout::contacts_group,
          layout::parameters_group, layout::summary_group})
      room += link_room(name);
    run_group = group(parent, group_name, room);
    root = run_group.get();
    group_made = true;  // from here a failure must remove it (see the destructor)
  }
  const hid_t f = root;
  if (parent < 0) write_h5md_metadata(f, version);  // a shared file has it once, at its root

  create_particles(f);

  std::size_t room = link_room(layout::section_energy.name);
  for (const layout::ObservableColumn& c : observable_columns) room += link_room(c.name);
  observables = group(f, layout::observables_group, room);
  for (std::size_t k = 0; k < observable_columns.size(); ++k)
    if (output.has(observable_columns[k].id)) observable_series[k].open(observables.get());
  if (!sections.empty()) {
    section_energy.open(observables.get());
    output_detail::write_section_attributes(section_energy.group_.get(), sections, species_names);
  }

  room = attribute_room(layout::wall_names_attribute, 8 + 16 * wall_names.size()) +
         link_room(layout::wall_normal.name);
  for (const layout::WallColumn& c : layout::wall_columns) room += link_room(c.name);
  walls_group = group(f, layout::walls_group, room);
  if (!wall_names.empty()) {
    attr_strings(walls_group.get(), layout::wall_names_attribute, wall_names);
    dataset_fixed(walls_group.get(), layout::wall_normal.name, {wall_names.size(), 3},
                  wall_normals.data(), H5T_NATIVE_DOUBLE);
  }
  for (std::size_t k = 0; k < wall_series.size(); ++k)
    if (wall_written(k)) wall_series[k].open(walls_group.get());

  if (contacts) {
    room = attribute_room("layout") + link_room(layout::step_dataset) +
           link_room(layout::time_dataset);
    for (const Growing* c : contact_datasets()) room += link_room(c->name());
    contacts_group = group(f, layout::contacts_group, room);
    const hid_t g = contacts_group.get();
    attr_string(g, "layout",
                "ragged: frame k holds rows offset[k] .. offset[k+1]-1; second < 0 is wall "
                "-(second+1); only touching contacts are listed");
    for (Growing* c : contact_datasets()) c->attach(g);
  }
  for (std::size_t k = 0; k < SeriesClocks::groups; ++k)
    if (schedule.holds_clock(k)) {  // the first element of its group holds its step and time
      clocks[k].step.attach(clock_holder(k));
      clocks[k].time.attach(clock_holder(k));
    }

  output_detail::write_parameters(f, meta, models, several, version);
  created = true;
}

std::vector<H5mdWriter::Impl::Series> H5mdWriter::Impl::series(std::int64_t frames,
                                                               std::int64_t rows) {
  const auto c = static_cast<hsize_t>(rows);
  if (!output.writes_frames()) return {};
  // Group g holds these rows of its series after `frames` frames.
  auto k = [&](std::size_t g) { return static_cast<hsize_t>(schedule.rows(g, frames)); };
  std::vector<Series> all;
  std::array<std::string, SeriesClocks::groups> holder;  // the path of each clock's element
  holder[SeriesClocks::contacts] = std::string(layout::contacts_group) + "/";
  for_each_series([&](TimeSeries& ts, Handle&, const char* in) {
    const std::string element = std::string(in) + "/" + ts.name + "/";
    if (holder[ts.group].empty()) holder[ts.group] = element;
    all.push_back({element + layout::value_dataset, &ts.value, 0, k(ts.group)});
  });
  std::vector<Series> clock_series;
  for (std::size_t g = 0; g < SeriesClocks::groups; ++g)
    if (schedule.holds_clock(g)) {
      clock_series.push_back({holder[g] + layout::step_dataset, &clocks[g].step, 0, k(g)});
      clock_series.push_back({holder[g] + layout::time_dataset, &clocks[g].time, 0, k(g)});
    }
  all.insert(all.begin(), clock_series.begin(), clock_series.end());
  if (contacts) {
    const std::string in = std::string(layout::contacts_group) + "/";
    const hsize_t frames_of_contacts = k(SeriesClocks::contacts);
    all.push_back({in + layout::contact_offset.name, &c_offset, 1, frames_of_contacts + 1});
    all.push_back({in + layout::contact_first.name, &c_first, 0, c});
    all.push_back({in + layout::contact_second.name, &c_second, 0, c});
    if (several) all.push_back({in + layout::contact_model.name, &c_model, 0, c});
    for (std::size_t m = 0; m < contact_columns.size(); ++m)
      if (output.has(contact_columns[m].id))
        all.push_back({in + contact_columns[m].name, &c_values[m], 0, c});
  }
  return all;
}

void H5mdWriter::Impl::flush_series() {
  for (const Series& s : series(0, 0)) s.data->flush();
}

void H5mdWriter::Impl::close_series() {
  for (const Series& s : series(0, 0)) s.data->close();
}

void H5mdWriter::Impl::reopen(hid_t f) {
  root = f;
  auto open = [](hid_t in, const std::string& name) {
    return Handle(check(H5Gopen2(in, name.c_str(), H5P_DEFAULT), "open " + name), H5Gclose);
  };
  chain = open(f, layout::particles_group);
  observables = open(f, layout::observables_group);
  walls_group = open(f, layout::walls_group);
  for_each_series(
      [&](TimeSeries& ts, Handle& in, const char*) { ts.group_ = open(in.get(), ts.name); });
  if (contacts) contacts_group = open(f, layout::contacts_group);
}

void H5mdWriter::Impl::close_objects() {
  for_each_series([](TimeSeries& ts, Handle&, const char*) { ts.group_.close(ts.name); });
  contacts_group.close("/contacts");
  walls_group.close("/walls");
  observables.close("/observables");
  chain.close("/particles/chain");
  particles.close("/particles");
  run_group.close(group_name);
}

H5mdWriter::~H5mdWriter() {
  if (finished_) return;
  if (parent_ >= 0) {  // shared file: remove the unfinished run's group, if it got one
    if (!impl_) return;
    std::mutex* lock = impl_->lock;
    std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
    const bool made = impl_->group_made;
    impl_.reset();
    if (made) H5Ldelete(parent_, path_.c_str(), H5P_DEFAULT);
    return;
  }
  if (impl_) impl_->background.reset();  // stop the writing thread (its frames are dropped)
  impl_.reset();
  output_.reset();  // removes the partial file
}

void H5mdWriter::write_frame(const Simulation& sim, const EnergyReport& e) {
  Impl& m = *impl_;
  if (!m.output.writes_frames()) return;  // output.quantities = none: the summary alone
  ++frames_;
  // The simulation waits while this runs: plain copies into reused buffers, nothing else.
  Frame f = m.background ? m.background->recycled() : Frame{};
  f.step = sim.step_count();
  f.time = sim.time();
  for (std::size_t g = 0; g < SeriesClocks::groups; ++g) f.due[g] = m.schedule.due(g, f.step);
  if (f.due[SeriesClocks::particles]) {
    frame_times_.push_back(sim.time());  // the XDMF file's frames
    output_detail::copy_particles(sim.particles(), m.output, f);
  }
  for (auto& w : f.walls) w.clear();
  if (f.due[SeriesClocks::observables])
    output_detail::copy_observables(sim, e, m.output, m.sections, m.walls, f);
  if (m.contacts && f.due[SeriesClocks::contacts]) {
    output_detail::copy_contacts(sim, m.output, m.several, m.touching, f);
  } else {
    for (auto& v : f.contact_values) v.clear();
    f.first.clear();
    f.second.clear();
    f.model.clear();
  }
  if (!m.background) {
    m.append(f);
    return;
  }
  try {
    m.background->push(std::move(f));  // rethrows what failed on the writing thread
  } catch (const std::exception& failure) {
    throw output_->error(failure.what());
  }
}

void H5mdWriter::Impl::append(const Frame& f) {
  for (std::size_t g = 0; g < SeriesClocks::groups; ++g)
    if (schedule.holds_clock(g) && f.due[g]) clocks[g].append(f.step, f.time);
  if (f.due[SeriesClocks::particles])
    for (std::size_t k = 0; k < particle_columns.size(); ++k)
      if (output.has(particle_columns[k].id))
        particle_series[k].value.append(f.particles[k].data(), 1);
  if (f.due[SeriesClocks::observables]) {
    const double* value = f.observables.data();
    for (std::size_t k = 0; k < observable_columns.size(); ++k) {
      if (output.has(observable_columns[k].id)) observable_series[k].value.append(value, 1);
      value += observable_columns[k].components;
    }
    if (!sections.empty()) section_energy.value.append(f.sections.data(), 1);
    for (std::size_t k = 0; k < wall_series.size(); ++k)
      if (wall_written(k)) wall_series[k].value.append(f.walls[k].data(), 1);
  }

  // A long run in a shared file gets its HDF5 objects once its buffers would spill.
  if (!created && buffered_bytes() >= Growing::spill_bytes) {
    std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
    create();
  }

  if (contacts && f.due[SeriesClocks::contacts]) {
    const hsize_t rows = f.first.size();
    c_first.append(f.first.data(), rows);
    c_second.append(f.second.data(), rows);
    if (several) c_model.append(f.model.data(), rows);
    for (std::size_t k = 0; k < contact_columns.size(); ++k)
      if (output.has(contact_columns[k].id)) c_values[k].append(f.contact_values[k].data(), rows);
    contact_rows += static_cast<std::int64_t>(rows);
    c_offset.append(&contact_rows, 1);
  }
}

void H5mdWriter::Impl::end(const layout::RunSummary& summary) {
  if (background) {  // every queued frame is written, then HDF5 is ours again
    background->finish();
    background.reset();
  }
  std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
  quiet_errors();
  if (!created) create();
  if (output.writes_frames()) {
    for (std::size_t g = 0; g < SeriesClocks::groups; ++g)
      if (schedule.holds_clock(g)) {
        clocks[g].step.close();
        clocks[g].time.close();
      }
    const std::vector<TimeSeries*> series = closing_order();
    std::vector<std::pair<hid_t, hid_t>> sharing;  // (the clock's holder, an element sharing it)
    for (TimeSeries* ts : series)
      if (const hid_t holder = clock_holder(schedule.leader(ts->group)); ts->group_.get() != holder)
        sharing.emplace_back(holder, ts->group_.get());
    if (contacts && !schedule.holds_clock(SeriesClocks::contacts))
      sharing.emplace_back(clock_holder(schedule.leader(SeriesClocks::contacts)),
                           contacts_group.get());
    for (const auto& [holder, g] : sharing)
      for (const char* name : {layout::step_dataset, layout::time_dataset})
        check_status(H5Lcreate_hard(holder, name, g, name, H5P_DEFAULT, H5P_DEFAULT),
                     std::string("link ") + name);
    for (TimeSeries* ts : series) ts->value.close();
  }
  if (contacts)
    for (Growing* g : contact_datasets()) g->close();
  output_detail::write_summary(root, summary, several);
  for (const auto& [key, value] : meta.labels) attr_string(root, key, value);
  attr_string(root, "chaindem_status", "complete");
  close_objects();
}

void H5mdWriter::finish(const layout::RunSummary& summary) {
  if (!output_) {  // a group of a shared file, which its owner commits
    impl_->end(summary);
    impl_.reset();
    finished_ = true;
    return;
  }
  try {
    if (swmr_) {  // SWMR writing adds no object; the end of the run adds some
      impl_->background->finish();
      impl_->background.reset();
      impl_->close_series();
      impl_->close_objects();
      impl_->reopen(output_->reopen_hdf5());
    }
    impl_->end(summary);
  } catch (const std::exception& e) {
    throw output_->error(e.what());
  }
  impl_.reset();
  // The XDMF file names the HDF5 file relative to itself: the two stay together.
  const std::string h5_name = std::filesystem::path(path_).filename().string();
  if (xdmf_)
    output_->add_companion(xdmf_path_for(path_), [&](std::ostream& x) {
      write_xdmf(x, h5_name, frame_times_, particles_, output_selection_);
    });
  output_->commit();
  finished_ = true;
}

OutputPosition H5mdWriter::sync() {
  Impl& m = *impl_;
  try {
    m.background->finish();  // every queued frame handed to HDF5; rethrows a write error
    m.background.reset();
    m.flush_series();
    output_->sync();
  } catch (const OutputError&) {
    throw;
  } catch (const std::exception& e) {
    throw output_->error(e.what());
  }
  Impl* writer = impl_.get();
  m.background = std::make_unique<BackgroundWriter<Frame>>(
      [writer](const Frame& f) { writer->append(f); }, queue_bytes);
  return {frames_, m.contact_rows};
}

void H5mdWriter::continue_from(const std::string& previous, OutputPosition at) {
  Impl& m = *impl_;
  quiet_errors();
  // A file a killed SWMR writer left can be read in SWMR mode only; one closed properly either way.
  hid_t id = H5Fopen(previous.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, swmr_file_access());
  if (id < 0) id = H5Fopen(previous.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  // The partial file is input of the restart: one that is damaged, cut short or another file is
  // refused before anything is written to the new one.
  const std::string refused = "the partial output '" + quoted_path(output_->partial_path()) +
                              "' that the checkpoint continues ";
  const std::string over = " (run with --discard-checkpoint instead of --restart to start over)";
  if (id < 0) throw CheckpointError(refused + "cannot be read: " + error_reason() + over);
  Handle file(id, H5Fclose);
  try {
    for (const Impl::Series& s : m.series(at.frames, at.contact_rows)) {
      const hid_t d = H5Dopen2(id, s.path.c_str(), H5P_DEFAULT);
      if (d < 0) throw Error("it has no dataset " + s.path + ": it is not this run's output");
      Handle dataset(d, H5Dclose);
      if (const std::string problem = s.data->cannot_append_from(d, s.end); !problem.empty())
        throw Error(problem + ": it is not this run's output up to the checkpoint");
    }
  } catch (const std::exception& e) {
    throw CheckpointError(refused + "cannot be continued: " + e.what() + over);
  }
  try {
    for (const Impl::Series& s : m.series(at.frames, at.contact_rows)) {
      Handle d(check(H5Dopen2(id, s.path.c_str(), H5P_DEFAULT), s.path), H5Dclose);
      s.data->append_from(d.get(), s.begin, s.end);
      if (s.data == &m.clocks[SeriesClocks::particles].time) {  // for the XDMF file
        frame_times_.resize(
            static_cast<std::size_t>(m.schedule.rows(SeriesClocks::particles, at.frames)));
        Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
        const hsize_t start = 0, count = frame_times_.size();
        if (count > 0) {
          check_status(
              H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr),
              "select");
          Handle memory(check(H5Screate_simple(1, &count, nullptr), "space"), H5Sclose);
          check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                               frame_times_.data()),
                       "read time");
        }
      }
    }
  } catch (const std::exception& e) {
    throw output_->error("reading the frames before the checkpoint from " + quoted_path(previous) +
                         ": " + e.what());
  }
  m.contact_rows = at.contact_rows;
  frames_ = at.frames;
  file.close(previous);
}

void H5mdWriter::keep_partial() {
  sync();
  Impl& m = *impl_;
  try {
    m.background->finish();
    m.background.reset();
    m.close_series();
    m.close_objects();
  } catch (const std::exception& e) {
    throw output_->error(e.what());
  }
  Handle file(output_->keep_partial(), H5Fclose);
  try {
    file.close(output_->partial_path());
  } catch (const std::exception& e) {
    throw output_->error(e.what());
  }
  impl_.reset();
  finished_ = true;
}

std::size_t H5mdWriter::frame_bytes(std::size_t particles, std::size_t contacts,
                                    const layout::OutputSelection& output, bool several_models) {
  // As Frame::bytes counts a frame that write_frame filled: the N x D particle columns, and the
  // contacts' pairs, models and columns (not the few energies of the chain's sections).
  std::size_t per_particle = 0, per_contact = 0;
  for (const layout::ParticleColumn& c : particle_columns)
    if (output.has(c.id)) per_particle += output.components() * sizeof(double);
  if (output.has_contacts()) {
    per_contact = (several_models ? 3 : 2) * sizeof(std::int32_t);
    for (const layout::ContactColumn& c : contact_columns)
      if (output.has(c.id)) per_contact += sizeof(double);
  }
  // A group written every k-th frame: a k-th of its bytes per frame, on average.
  return per_particle * output.particle_count(particles) /
             static_cast<std::size_t>(output.every(layout::SeriesGroup::particles)) +
         per_contact * contacts /
             static_cast<std::size_t>(output.every(layout::SeriesGroup::contacts));
}

}  // namespace chaindem
