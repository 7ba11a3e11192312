// The output layout's tables against the files the writer makes: every quantity they declare is
// in the file where they say, with their unit and shape, holding what its name says; the run
// summary reads back as written; a selection leaves out what it does not select.
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_layout.hpp"
#include "chaindem/output/xdmf_writer.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

namespace fs = std::filesystem;
using namespace layout;

// A striker between two walls (test_support.hpp): every kind of quantity has values.
struct WrittenRun {
  std::string path;
  std::vector<EnergyReport> energies;  // at each frame
  std::size_t particles = 0, frames = 0;
};

RunSummary distinct_summary() {
  RunSummary s;
  s.steps = 12;
  s.time_step = 1e-7;
  s.simulated_time = 1.2e-6;
  s.wall_time = 0.5;
  s.ns_per_bead_step = 3.25;
  s.first_bead_final_velocity = 0.125;
  s.last_bead_final_velocity = -0.25;
  s.largest_contact_force = 42.0;
  s.energy = {1.0, 2.0, 3.0, 4.0, 5.0};
  s.initial_energy = 6.0;
  s.energy_balance_error = 1e-9;
  s.energy_balance_error_max = 2e-9;
  s.isolated_contacts = 7;
  s.isolated_restitution_mean = 0.5;
  s.isolated_restitution_min = 0.25;
  s.isolated_restitution_max = 0.75;
  s.first_isolated_restitution = 0.625;
  s.impact_velocity_floor_hits = 3;
  s.impact_velocity_floor = 1e-3;  // the striker's values stay empty
  s.neighbor_rebuilds = 9;
  s.impact_velocity = "onset";
  s.integrator = "lammps";
  s.max_contact_force = {10.0};
  s.peak_velocity = {0.5};
  s.arrival_beads = {0};
  s.arrival_time = {std::nan("")};
  return s;
}

WrittenRun write_run(const std::string& name, const OutputSelection& output,
                     const RunSummary& summary = distinct_summary()) {
  WrittenRun r;
  r.path = (fs::temp_directory_path() / ("chaindem_layout_" + name + ".h5")).string();
  Simulation sim = test::simulation_from(test::bead_between_walls());
  RunMetadata meta;
  meta.case_origin = "test.ini";
  H5mdWriter writer(r.path, Existing::refuse, meta, sim, output);
  auto touching = [&] {
    for (const ContactList* cl : {&sim.pair_contacts(), &sim.wall_contacts()})
      for (const auto t : cl->touching)
        if (t) return true;
    return false;
  };
  for (int frame = 0; frame < 5; ++frame) {
    // The first frame at the start; the others once the striker has reached the bead.
    for (int chunk = 0; frame > 0 && (chunk == 0 || !touching()) && chunk < 100000; ++chunk)
      sim.advance(10);
    r.energies.push_back(sim.energies());
    writer.write_frame(sim, r.energies.back());
  }
  writer.finish(summary);
  r.particles = static_cast<std::size_t>(sim.particles().size());
  r.frames = r.energies.size();
  return r;
}

struct File {
  hdf5::Handle handle;
  explicit File(const std::string& path)
      : handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose) {}
  bool has(const std::string& path) const {
    std::size_t at = 0;
    while ((at = path.find('/', at + 1)) != std::string::npos)
      if (H5Lexists(handle.get(), path.substr(0, at).c_str(), H5P_DEFAULT) <= 0) return false;
    return H5Lexists(handle.get(), path.c_str(), H5P_DEFAULT) > 0;
  }
  std::vector<hsize_t> shape(const std::string& path) const {
    hdf5::Handle d(H5Dopen2(handle.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    hdf5::Handle space(H5Dget_space(d.get()), H5Sclose);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
  }
  std::vector<double> values(const std::string& path) const {
    hdf5::Handle d(H5Dopen2(handle.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    hdf5::Handle space(H5Dget_space(d.get()), H5Sclose);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
    H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    return v;
  }
  std::string unit(const std::string& path) const {
    hdf5::Handle d(H5Dopen2(handle.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    if (H5Aexists(d.get(), "unit") <= 0) return "";
    return hdf5::read_string_attr(d.get(), "unit");
  }
  // The names of the members of a group.
  std::set<std::string> members(const std::string& path) const {
    std::set<std::string> out;
    H5Literate_by_name(
        handle.get(), path.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
        [](hid_t, const char* name, const H5L_info_t*, void* names) {
          static_cast<std::set<std::string>*>(names)->insert(name);
          return herr_t{0};
        },
        &out, H5P_DEFAULT);
    return out;
  }
};

TEST(OutputLayout, EveryDeclaredQuantityIsWhereTheTablesSay) {
  const WrittenRun r = write_run("all", OutputSelection::all());
  File f(r.path);
  const hsize_t frames = r.frames, n = r.particles;
  for (const ParticleColumn& c : particle_columns) {
    const std::string path = value_path(c.id);
    EXPECT_EQ(path, std::string("particles/chain/") + c.name + "/value");
    ASSERT_TRUE(f.has(path)) << path;
    EXPECT_EQ(f.shape(path), (std::vector<hsize_t>{frames, n, 3})) << path;
    EXPECT_EQ(f.unit(path), h5md_unit(c.unit)) << path;
  }
  std::set<std::string> observables;
  for (const ObservableColumn& c : observable_columns) {
    const std::string path = value_path(c.id);
    ASSERT_TRUE(f.has(path)) << path;
    std::vector<hsize_t> shape{frames};
    if (c.components > 1) shape.push_back(c.components);
    EXPECT_EQ(f.shape(path), shape) << path;
    EXPECT_EQ(f.unit(path), h5md_unit(c.unit)) << path;
    observables.insert(c.name);
  }
  EXPECT_EQ(f.members(observables_group), observables);  // nothing the tables do not declare
  std::set<std::string> wall_series{"normal"};
  for (const WallColumn& c : wall_columns) {
    const std::string path = value_path(c.id);
    EXPECT_EQ(path, std::string("walls/") + c.name + "/value");
    ASSERT_TRUE(f.has(path)) << path;
    EXPECT_EQ(f.shape(path), (std::vector<hsize_t>{frames, 2, 3})) << path;
    EXPECT_EQ(f.unit(path), h5md_unit(c.unit)) << path;
    wall_series.insert(c.name);
  }
  EXPECT_EQ(f.members(walls_group), wall_series);  // nothing the tables do not declare
  const hsize_t rows = f.shape("contacts/first").at(0);
  EXPECT_GT(rows, 0u);
  std::set<std::string> contacts{"step", "time", "offset", "first", "second"};
  for (const ContactColumn& c : contact_columns) {
    const std::string path = value_path(c.id);
    ASSERT_TRUE(f.has(path)) << path;
    EXPECT_EQ(f.shape(path), std::vector<hsize_t>{rows}) << path;
    EXPECT_EQ(f.unit(path), h5md_unit(c.unit)) << path;
    contacts.insert(c.name);
  }
  EXPECT_EQ(f.members(contacts_group), contacts);
  fs::remove(r.path);
  fs::remove(xdmf_path_for(r.path));
}

TEST(OutputLayout, EachEnergyHoldsTheEnergyItIsNamedFor) {
  const WrittenRun r = write_run("energies", OutputSelection::all());
  File f(r.path);
  // Named by the energy books' own fields, so that a row with another's value shows.
  const std::vector<std::pair<std::string, double EnergyReport::*>> fields{
      {"kinetic_energy", &EnergyReport::kinetic},
      {"stored_energy", &EnergyReport::stored},
      {"dissipated_energy", &EnergyReport::dissipated},
      {"external_potential_energy", &EnergyReport::external_potential},
      {"wall_work", &EnergyReport::wall_work}};
  for (const auto& [name, field] : fields) {
    const std::vector<double> written = f.values("observables/" + name + "/value");
    ASSERT_EQ(written.size(), r.frames);
    for (std::size_t k = 0; k < r.frames; ++k)
      EXPECT_EQ(written[k], r.energies[k].*field) << name << " frame " << k;
  }
  const std::vector<double> balance = f.values("observables/energy_balance/value");
  for (std::size_t k = 0; k < r.frames; ++k) EXPECT_EQ(balance[k], r.energies[k].balance());
  // The run moves energy between the terms: equal values would not tell rows apart.
  EXPECT_NE(r.energies.back().kinetic, r.energies.back().stored);
  fs::remove(r.path);
  fs::remove(xdmf_path_for(r.path));
}

TEST(OutputLayout, TheSummaryReadsBackAsWritten) {
  const RunSummary s = distinct_summary();
  const WrittenRun r = write_run("summary", OutputSelection::all(), s);
  File f(r.path);
  std::set<std::string> expected;
  for (const SummaryScalar& scalar : summary_scalars)
    if (value_of(scalar, s)) expected.insert(scalar.name);
  for (const SummaryText& text : summary_texts) expected.insert(text.name);
  std::set<std::string> attributes;
  hdf5::Handle g(H5Gopen2(f.handle.get(), "summary", H5P_DEFAULT), H5Gclose);
  H5Aiterate2(
      g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* names) {
        static_cast<std::set<std::string>*>(names)->insert(name);
        return herr_t{0};
      },
      &attributes);
  EXPECT_EQ(attributes, expected);  // the striker's values, which it lacks, are not written
  EXPECT_EQ(attributes.count("striker_final_velocity"), 0u);

  const RunSummary back = read_run_summary(f.handle.get(), ".");
  for (const SummaryScalar& scalar : summary_scalars) {
    const std::optional<double> a = value_of(scalar, s), b = value_of(scalar, back);
    ASSERT_EQ(a.has_value(), b.has_value()) << scalar.name;
    if (a) {
      EXPECT_TRUE(*a == *b || (std::isnan(*a) && std::isnan(*b))) << scalar.name;
    }
  }
  EXPECT_EQ(back.steps, 12);
  EXPECT_EQ(back.energy.wall_work, 5.0);
  EXPECT_EQ(back.impact_velocity, "onset");
  EXPECT_EQ(back.integrator, "lammps");
  EXPECT_EQ(back.max_contact_force, s.max_contact_force);
  EXPECT_EQ(back.arrival_beads, s.arrival_beads);
  EXPECT_TRUE(std::isnan(back.arrival_time.at(0)));
  fs::remove(r.path);
  fs::remove(xdmf_path_for(r.path));
}

TEST(OutputLayout, ASelectionLeavesOutWhatItDoesNotSelect) {
  const OutputSelection without_contacts = case_output(false);
  EXPECT_EQ(case_output(true), OutputSelection::all());
  EXPECT_FALSE(without_contacts.has_contacts());
  EXPECT_TRUE(without_contacts.has(Quantity::velocity));
  const WrittenRun r = write_run("selection", without_contacts.without(Quantity::force));
  File f(r.path);
  EXPECT_FALSE(f.has("contacts"));
  EXPECT_FALSE(f.has(value_path(Quantity::force)));
  EXPECT_TRUE(f.has(value_path(Quantity::velocity)));
  // Every written series still shares the frames' step and time.
  EXPECT_EQ(f.shape("particles/chain/velocity/time"), std::vector<hsize_t>{r.frames});
  fs::remove(r.path);
  fs::remove(xdmf_path_for(r.path));

  // A frame in memory: 8 bytes per component of each selected particle column, and per contact
  // its two indices (4 bytes each) and one number per selected contact column.
  EXPECT_EQ(H5mdWriter::frame_bytes(10, 4, OutputSelection::all()),
            10 * 3 * 3 * 8 + 4 * (2 * 4 + contact_columns.size() * 8));
  EXPECT_EQ(H5mdWriter::frame_bytes(10, 4, without_contacts.without(Quantity::force)),
            10u * 2 * 3 * 8);
  // Of several contact models: each contact's model too (4 bytes).
  EXPECT_EQ(H5mdWriter::frame_bytes(10, 4, OutputSelection::all(), true),
            10 * 3 * 3 * 8 + 4 * (3 * 4 + contact_columns.size() * 8));
  EXPECT_THROW(OutputSelection::all().without(Quantity::position), std::invalid_argument);
}

TEST(OutputLayout, TheWallsSeriesAreSelectedByTheirOwnWords) {
  const OutputSelection forces = selection_of({"wall_force"});
  EXPECT_TRUE(forces.has(Quantity::wall_force));
  EXPECT_FALSE(forces.has(Quantity::wall_position));
  EXPECT_FALSE(forces.has(Quantity::wall_work));  // an observable whose name begins alike
  const OutputSelection work = selection_of({"wall_work"});
  EXPECT_TRUE(work.has(Quantity::wall_work));
  EXPECT_FALSE(work.has(Quantity::wall_force));
  EXPECT_TRUE(writes_observables(forces, true, false));
  EXPECT_FALSE(writes_observables(forces, false, false));  // no wall: nothing of the group
  // The walls' force alone holds the observables' clock in its element.
  const WrittenRun r = write_run("wall_force", forces);
  File f(r.path);
  EXPECT_TRUE(f.has(value_path(Quantity::wall_force)));
  EXPECT_FALSE(f.has(value_path(Quantity::wall_position)));
  EXPECT_EQ(f.shape("walls/force/time"), std::vector<hsize_t>{r.frames});
  fs::remove(r.path);
  fs::remove(xdmf_path_for(r.path));
}

}  // namespace
// Units as the H5MD units module writes them: base units, signed integer powers, each symbol
// once; derived units expanded. Every unit of the layout's tables has that form.
// Every group of a case that a sweep writes into its file has its header in one block: made
// large enough for its attributes and links at once, not grown a block at a time (each block
// another object for HDF5 to cache, write and free).
TEST(OutputLayout, EachGroupOfACaseHasItsHeaderInOneBlock) {
  const std::string path = (fs::temp_directory_path() / "chaindem_layout_blocks.h5").string();
  hdf5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::file_access()),
                    H5Fclose);
  ASSERT_GE(file.get(), 0);
  Simulation sim = test::simulation_from(test::bead_between_walls());
  RunMetadata meta;  // about as many keys as a case resolves, with names as long
  for (int k = 0; k < 60; ++k)
    meta.parameters["section_" + std::to_string(k) + ".some_key_name"] = std::to_string(k);
  for (const char* key : {"time_step", "steps", "output_interval", "contact_time", "frames"})
    meta.derived[key] = 1.0;
  meta.labels["sweep_invocation"] = "invocation";
  std::mutex lock;
  H5mdWriter writer(file.get(), "case-000000", meta, sim, OutputSelection::all(), &lock);
  for (int frame = 0; frame < 3; ++frame) {
    sim.advance(10);
    writer.write_frame(sim, sim.energies());
  }
  writer.finish(distinct_summary());
  std::vector<std::pair<std::string, unsigned>> blocks;  // (group, blocks of its header)
  H5Ovisit2(
      file.get(), H5_INDEX_NAME, H5_ITER_INC,
      [](hid_t, const char* name, const H5O_info_t* info, void* out) {
        if (info->type == H5O_TYPE_GROUP && std::string(name) != ".")
          static_cast<decltype(blocks)*>(out)->emplace_back(name, info->hdr.nchunks);
        return herr_t{0};
      },
      &blocks, H5O_INFO_HDR);
  EXPECT_GE(blocks.size(), 15u);  // the case, its parameters, summary, series, ...
  for (const auto& [name, chunks] : blocks) EXPECT_EQ(chunks, 1u) << name;
  file.reset();
  fs::remove(path);
}

TEST(OutputLayout, UnitsInTheFormOfTheH5mdUnitsModule) {
  EXPECT_EQ(h5md_unit("m/s"), "m s-1");
  EXPECT_EQ(h5md_unit("N"), "kg m s-2");
  EXPECT_EQ(h5md_unit("J"), "kg m+2 s-2");
  EXPECT_EQ(h5md_unit("kg m/s"), "kg m s-1");
  EXPECT_EQ(h5md_unit("Pa"), "kg m-1 s-2");
  EXPECT_EQ(h5md_unit("N/m"), "kg s-2");  // m cancels
  EXPECT_EQ(h5md_unit("kg/m^3"), "kg m-3");
  EXPECT_EQ(h5md_unit("m2"), "m+2");
  EXPECT_EQ(h5md_unit("ns"), "ns");
  EXPECT_EQ(h5md_unit("%"), "0.01");
  EXPECT_EQ(h5md_unit(""), "");
  EXPECT_THROW(h5md_unit("N/m^1.5"), std::invalid_argument);  // no fractional power
  std::vector<const char*> units;
  for (const auto& c : particle_columns) units.push_back(c.unit);
  for (const auto& c : observable_columns) units.push_back(c.unit);
  for (const auto& c : contact_columns) units.push_back(c.unit);
  for (const auto& c : summary_scalars) units.push_back(c.unit);
  for (const auto& c : summary_arrays) units.push_back(c.unit);
  for (const auto& c : comparison_metrics) units.push_back(c.unit);
  for (const auto& c : loop_columns) units.push_back(c.unit);
  for (const char* unit : units) EXPECT_NO_THROW(h5md_unit(unit)) << unit;
}

}  // namespace chaindem
