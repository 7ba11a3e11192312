#include "chaindem/output/stacked_writer.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "chaindem/output/chunk_writer.hpp"
#include "series_clocks.hpp"
#include "several_models.hpp"
#include "time_series.hpp"

namespace chaindem {

using namespace hdf5;
using layout::observable_columns;
using layout::particle_columns;
using output_detail::SeriesClocks;

namespace {

constexpr std::size_t groups = SeriesClocks::groups;

// Which groups a run writes series of: particles whenever it writes frames; observables as a
// run's file has them; never contacts (a stacked sweep has none).
std::array<bool, groups> groups_written(const StackedShape& s) {
  const bool observables =
      layout::writes_observables(s.output, !s.walls.empty(), !s.section_beads.empty());
  return {s.output.writes_frames(), observables && s.output.writes_frames(), false};
}

template <class T>
std::string values_text(const std::vector<T>& values) {
  std::string text;
  for (const auto& v : values) {
    if constexpr (std::is_same_v<T, std::string>)
      text += (text.empty() ? "" : ", ") + v;
    else
      text += (text.empty() ? "" : ", ") + std::to_string(v);
  }
  return "(" + text + ")";
}

// The chunk of a stacked dataset whose case rows are `row` (dims after the first): one case's
// row, split along its leading dimensions when it passes 1 MiB of doubles, so that a case is
// written, and read, by whole chunks.
std::vector<hsize_t> row_chunk(const std::vector<hsize_t>& row) {
  constexpr hsize_t most = hsize_t{1} << 17;
  std::vector<hsize_t> chunk(row.size() + 1, 1);
  hsize_t elements = 1;
  for (std::size_t d = row.size(); d-- > 0;) {
    chunk[d + 1] = std::clamp<hsize_t>(most / elements, 1, std::max<hsize_t>(row[d], 1));
    elements *= chunk[d + 1];
  }
  return chunk;
}

}  // namespace

StackedShape stacked_shape(const Scene& scene, const layout::OutputSelection& output,
                           std::int64_t steps, std::int64_t output_every, int models,
                           Compression compression) {
  StackedShape s;
  s.compression = compression;
  s.output = output;
  s.particles = static_cast<std::int64_t>(output.particle_count(scene.particles.size()));
  s.striker = scene.striker.value_or(-1);
  s.chain_first = scene.chain_first;
  s.chain_count = scene.chain_count;
  s.materials = scene.materials.size();
  for (const Wall& w : scene.walls) s.walls.push_back(w.name);
  if (models > 1)
    for (const output_detail::ChainSection& c : output_detail::chain_sections(scene)) {
      s.section_starts.push_back(c.first_bead);
      s.section_beads.push_back(c.beads);
    }
  const std::array<bool, groups> written = groups_written(s);
  for (std::size_t g = 0; g < groups; ++g)
    if (written[g])
      s.frames[g] = layout::frames_written(steps, output_every,
                                           output.every(static_cast<layout::SeriesGroup>(g)));
  return s;
}

std::string shape_difference(const StackedShape& shape, const StackedShape& first) {
  const auto differs = [](const std::string& what, const auto& mine, const auto& theirs) {
    return what + " " + mine + ", the first case " + theirs;
  };
  if (shape.particles != first.particles)
    return differs("it writes the series of", std::to_string(shape.particles) + " particles",
                   std::to_string(first.particles));
  for (std::size_t g = 0; g < groups; ++g)
    if (shape.frames[g] != first.frames[g])
      return differs(g == 0 ? "its particles' series have" : "its observables have",
                     std::to_string(shape.frames[g]) + " frames", std::to_string(first.frames[g]));
  if (shape.output != first.output)
    return "it writes other quantities, particles or components than the first case "
           "(output.quantities, output.beads, the chain's axis)";
  if (shape.striker != first.striker || shape.chain_first != first.chain_first ||
      shape.chain_count != first.chain_count)
    return (shape.striker < 0) != (first.striker < 0)
               ? "it has a striker where the first case has "
                 "none, or none where the first case has one"
               : "its chain is another part of its particles";
  if (shape.compression != first.compression)
    return "its output.compression is not the first case's";
  if (shape.materials != first.materials)
    return differs("it has", std::to_string(shape.materials) + " materials",
                   std::to_string(first.materials));
  if (shape.walls != first.walls)
    return differs("its walls are", values_text(shape.walls), values_text(first.walls));
  if (shape.section_beads != first.section_beads || shape.section_starts != first.section_starts)
    return differs("the beads of its chain's sections are", values_text(shape.section_beads),
                   values_text(first.section_beads));
  return "";
}

// ---- the datasets --------------------------------------------------------------------------

namespace {

// A dataset of /stacked and how a case's row is stored in it.
struct StackedSet {
  Handle h;
  std::string name;
  std::vector<hsize_t> row, chunk;         // a case's row; its chunk (the case dimension first)
  Compression filter = Compression::none;  // of its chunks
  hid_t get() const { return h.get(); }
  void close(const std::string& what) { h.close(what); }
  void release() { h.release(); }
};

}  // namespace

struct StackedFile::Datasets {
  std::size_t cases = 0;
  StackedSet written;  // uint8 per case: 1 once its row is written
  std::array<StackedSet, groups> step, time;
  std::array<StackedSet, particle_columns.size()> particle;
  std::array<StackedSet, observable_columns.size()> observable;
  StackedSet section_energy;
  std::array<StackedSet, layout::wall_columns.size()> wall;  // layout::wall_columns
  StackedSet radius, mass, species, species_names, wall_normal;
  std::vector<StackedSet*> all() {
    std::vector<StackedSet*> every{&written, &section_energy, &radius,     &mass,
                                   &species, &species_names,  &wall_normal};
    for (StackedSet& h : wall) every.push_back(&h);
    for (auto* set : {&step, &time})
      for (StackedSet& h : *set) every.push_back(&h);
    for (StackedSet& h : particle) every.push_back(&h);
    for (StackedSet& h : observable) every.push_back(&h);
    return every;
  }
};

namespace {

// Dataset `name` of `parent` with a row per case of shape `row`, opened if the file has it (a
// sweep run again into its partial file), else created: chunks of a case's row (row_chunk),
// compressed when the whole dataset passes 64 KiB, rows never written holding `fill` (NaN, -1).
template <class T>
StackedSet rows_dataset(hid_t parent, const std::string& name, std::size_t cases,
                        const std::vector<hsize_t>& row, hid_t type, const std::string& unit,
                        Compression compression, T fill) {
  StackedSet set{Handle(), name, row, row_chunk(row), Compression::none};
  std::vector<hsize_t> dims{cases};
  dims.insert(dims.end(), row.begin(), row.end());
  hsize_t elements = 1;
  for (const hsize_t d : dims) elements *= d;
  if (elements * H5Tget_size(type) >= (64u << 10)) set.filter = compression;
  if (H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0) {
    set.h = Handle(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "dataset " + name), H5Dclose);
    return set;
  }
  Handle space(
      check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "space"),
      H5Sclose);
  Handle plist(check(H5Pcopy(dataset_creation()), "plist"), H5Pclose);
  check_status(H5Pset_chunk(plist.get(), static_cast<int>(set.chunk.size()), set.chunk.data()),
               "chunk");
  // The filters of a run's series, in the order ChunkWriter applies them.
  if (set.filter != Compression::none) check_status(H5Pset_shuffle(plist.get()), "shuffle");
  if (set.filter == Compression::lzf)
    check_status(H5Pset_filter(plist.get(), lzf_filter_id, H5Z_FLAG_OPTIONAL, 0, nullptr), "lzf");
  else if (set.filter == Compression::gzip)
    check_status(H5Pset_deflate(plist.get(), deflate_level), "deflate");
  if constexpr (!std::is_same_v<T, std::nullptr_t>)
    check_status(H5Pset_fill_value(plist.get(), type, &fill), "fill value");
  set.h = Handle(check(H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT, plist.get(),
                                  H5P_DEFAULT),
                       "dataset " + name),
                 H5Dclose);
  attr_unit(set.get(), unit);
  return set;
}

Handle open_or_make_group(hid_t parent, const std::string& name) {
  if (H5Lexists(parent, name.c_str(), H5P_DEFAULT) > 0)
    return Handle(check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), name), H5Gclose);
  return group(parent, name);
}

// Writes `data` as row `k` of `dataset` (of memory type `type`; `transfer`: the transfer
// list, string_transfer for strings, whose conversion buffer HDF5 would otherwise make of 1 MiB).
void write_row(const StackedSet& dataset, std::size_t k, const void* data, hid_t type,
               hid_t transfer = H5P_DEFAULT) {
  Handle space(check(H5Dget_space(dataset.get()), "space"), H5Sclose);
  std::vector<hsize_t> dims(dataset.row);
  dims.insert(dims.begin(), 0);  // the case dimension: its size does not matter to select_rows
  const Handle memory = select_rows(space.get(), dims, k, 1);
  check_status(H5Dwrite(dataset.get(), type, memory.get(), space.get(), transfer, data),
               "write a case's row");
}

// The path under /stacked of the element that holds group g's clock (as in a run's file: the
// position's for the particles, the first observable's for the observables).
std::string clock_element(std::size_t g, const StackedShape& s) {
  if (g == SeriesClocks::particles)
    return std::string(layout::particles_group) + "/" + particle_columns[0].name;
  for (const layout::ObservableColumn& c : observable_columns)
    if (s.output.has(c.id)) return std::string(layout::observables_group) + "/" + c.name;
  if (!s.section_beads.empty())
    return std::string(layout::observables_group) + "/" + layout::section_energy.name;
  for (const layout::WallColumn& c : layout::wall_columns)
    if (s.output.has(c.id)) return std::string(layout::walls_group) + "/" + c.name;
  throw std::logic_error("StackedFile: the observables' group has no series");
}

}  // namespace

// Makes (or opens) the datasets of /stacked, group by group, into `d`.
struct StackedFile::Builder {
  Datasets& d;
  const StackedShape& s;
  std::size_t cases;
  std::vector<std::pair<std::string, Handle>> elements;  // path under /stacked, its group

  StackedSet doubles(hid_t parent, const std::string& name, const std::vector<hsize_t>& row,
                     const char* unit) const {
    return rows_dataset(parent, name, cases, row, H5T_NATIVE_DOUBLE, unit, s.compression,
                        std::numeric_limits<double>::quiet_NaN());
  }
  // The group of a time-dependent element, `name` in `parent` (at `path`), kept for its clock.
  hid_t element(hid_t parent, const std::string& path, const std::string& name) {
    elements.emplace_back(path + "/" + name, open_or_make_group(parent, name));
    return elements.back().second.get();
  }
  hid_t element_group(const std::string& path) const {
    for (const auto& [p, h] : elements)
      if (p == path) return h.get();
    throw std::logic_error("StackedFile: no element " + path);
  }

  void particles(hid_t root) {
    const auto n = static_cast<hsize_t>(s.particles);
    Handle particles = open_or_make_group(root, "particles");
    Handle chain = open_or_make_group(particles.get(), "chain");
    if (H5Aexists(chain.get(), layout::striker_attribute) <= 0)
      for (const auto& [name, value] : {std::pair{layout::striker_attribute, s.striker},
                                        {layout::chain_first_attribute, s.chain_first},
                                        {layout::chain_count_attribute, s.chain_count}})
        attr_numbers<std::int64_t>(chain.get(), name, {value}, H5T_NATIVE_INT64);
    d.radius =
        doubles(chain.get(), layout::particle_radius.name, {n}, layout::particle_radius.unit);
    d.mass = doubles(chain.get(), layout::particle_mass.name, {n}, layout::particle_mass.unit);
    d.species = rows_dataset(chain.get(), layout::particle_species.name, cases, {n},
                             H5T_NATIVE_INT32, "", s.compression, std::int32_t{-1});
    if (!s.output.particles().empty() &&
        H5Lexists(chain.get(), layout::particle_id, H5P_DEFAULT) <= 0)  // output.beads
      dataset_fixed(chain.get(), layout::particle_id, {n}, s.output.particles().data(),
                    H5T_NATIVE_INT64);
    d.species_names =
        rows_dataset(chain.get(), layout::species_names_attribute, cases, {s.materials},
                     utf8_string_type(), "", Compression::none, nullptr);
    const std::vector<hsize_t> row{hsize_t(s.frames[0]), n, s.output.components()};
    for (std::size_t k = 0; k < particle_columns.size(); ++k)
      if (s.output.has(particle_columns[k].id))
        d.particle[k] =
            doubles(element(chain.get(), layout::particles_group, particle_columns[k].name),
                    layout::value_dataset, row, particle_columns[k].unit);
  }

  void observables(hid_t root) {
    Handle group = open_or_make_group(root, layout::observables_group);
    const auto frames = static_cast<hsize_t>(s.frames[SeriesClocks::observables]);
    for (std::size_t k = 0; k < observable_columns.size(); ++k) {
      const layout::ObservableColumn& c = observable_columns[k];
      if (!s.output.has(c.id)) continue;
      std::vector<hsize_t> row{frames};
      if (c.components > 1) row.push_back(c.components);
      d.observable[k] = doubles(element(group.get(), layout::observables_group, c.name),
                                layout::value_dataset, row, c.unit);
    }
    if (s.section_beads.empty()) return;
    const hid_t e = element(group.get(), layout::observables_group, layout::section_energy.name);
    d.section_energy = doubles(e, layout::value_dataset, {frames, s.section_beads.size()},
                               layout::section_energy.unit);
    if (H5Aexists(e, layout::section_beads_attribute) <= 0) {
      attr_numbers<std::int64_t>(e, layout::section_first_bead_attribute, s.section_starts,
                                 H5T_NATIVE_INT64);
      attr_numbers<std::int64_t>(e, layout::section_beads_attribute, s.section_beads,
                                 H5T_NATIVE_INT64);
    }
  }

  // The walls' names and normals, and (`series`: the observables' group is written) the wall
  // columns selected.
  void walls(hid_t root, bool series) {
    const hsize_t walls = s.walls.size();
    Handle group = open_or_make_group(root, layout::walls_group);
    if (H5Aexists(group.get(), layout::wall_names_attribute) <= 0)
      attr_strings(group.get(), layout::wall_names_attribute, s.walls);
    d.wall_normal = doubles(group.get(), layout::wall_normal.name, {walls, 3}, "");
    for (std::size_t k = 0; k < layout::wall_columns.size(); ++k) {
      const layout::WallColumn& c = layout::wall_columns[k];
      if (series && s.output.has(c.id))
        d.wall[k] =
            doubles(element(group.get(), layout::walls_group, c.name), layout::value_dataset,
                    {hsize_t(s.frames[SeriesClocks::observables]), walls, 3}, c.unit);
    }
  }

  // Each group's clock in its first element; the other elements of the groups that share it
  // get hard links to it, as in a run's file.
  void clocks(const SeriesClocks& clocks) {
    for (std::size_t g = 0; g < groups; ++g) {
      if (!clocks.holds_clock(g)) continue;
      const hid_t holder = element_group(clock_element(g, s));
      const auto frames = static_cast<hsize_t>(s.frames[g]);
      d.step[g] = rows_dataset(holder, layout::step_dataset, cases, {frames}, H5T_NATIVE_INT64, "",
                               s.compression, std::int64_t{-1});
      d.time[g] = doubles(holder, layout::time_dataset, {frames}, "s");
    }
    for (const auto& [path, h] : elements) {
      const std::size_t g =
          path.rfind(layout::particles_group, 0) == 0 ? SeriesClocks::particles : 1;
      const hid_t holder = element_group(clock_element(clocks.leader(g), s));
      if (holder == h.get()) continue;
      for (const char* name : {layout::step_dataset, layout::time_dataset})
        if (H5Lexists(h.get(), name, H5P_DEFAULT) <= 0)
          check_status(H5Lcreate_hard(holder, name, h.get(), name, H5P_DEFAULT, H5P_DEFAULT),
                       std::string("link ") + name);
    }
  }
};

StackedFile::StackedFile(hid_t file, std::size_t cases, const StackedShape& shape)
    : sets_(std::make_unique<Datasets>()), shape_(shape) {
  Datasets& d = *sets_;
  d.cases = cases;
  Handle root = open_or_make_group(file, layout::stacked_group);
  const bool again = H5Lexists(root.get(), layout::stacked_written, H5P_DEFAULT) > 0;
  d.written = rows_dataset(root.get(), layout::stacked_written, cases, {}, H5T_NATIVE_UINT8, "",
                           Compression::none, std::uint8_t{0});
  if (again) {  // the cases run again, each marked written when it is
    const std::vector<std::uint8_t> none(cases, 0);
    check_status(
        H5Dwrite(d.written.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, none.data()),
        "write stacked/written");
  }
  const std::array<bool, groups> written = groups_written(shape_);
  Builder make{d, shape_, cases, {}};
  make.particles(root.get());
  if (written[SeriesClocks::observables]) make.observables(root.get());
  if (!shape_.walls.empty()) make.walls(root.get(), written[SeriesClocks::observables]);
  make.clocks(SeriesClocks(shape_.output, written, 1, 1));
}

StackedFile::~StackedFile() = default;

void StackedFile::abandon() {
  for (StackedSet* h : sets_->all()) h->release();
}

void StackedFile::close() {
  for (StackedSet* h : sets_->all())
    if (h->get() >= 0) h->close("dataset " + h->name);
}

void StackedFile::copy_rows(hid_t source, const std::vector<std::size_t>& cases) {
  // The rows the other rank wrote, dataset by dataset: read as the file stores them (the
  // strings as pointers HDF5 allocates, then frees) and written into this file's.
  Handle from_written(
      check(H5Dopen2(source,
                     (std::string(layout::stacked_group) + "/" + layout::stacked_written).c_str(),
                     H5P_DEFAULT),
            "stacked/written"),
      H5Dclose);
  std::vector<std::uint8_t> done(sets_->cases);
  check_status(
      H5Dread(from_written.get(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, done.data()),
      "read stacked/written");
  for (StackedSet* mine : sets_->all()) {
    if (mine->get() < 0) continue;
    char name[1024];
    if (H5Iget_name(mine->get(), name, sizeof name) <= 0) throw Error("a dataset without name");
    Handle theirs(check(H5Dopen2(source, name, H5P_DEFAULT), name), H5Dclose);
    Handle file_type(check(H5Dget_type(theirs.get()), "type"), H5Tclose);
    Handle type(check(H5Tget_native_type(file_type.get(), H5T_DIR_ASCEND), "type"), H5Tclose);
    Handle space(check(H5Dget_space(theirs.get()), "space"), H5Sclose);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    std::size_t row_bytes = H5Tget_size(type.get());
    for (std::size_t d = 1; d < dims.size(); ++d) row_bytes *= dims[d];
    std::vector<char> row(row_bytes);
    for (const std::size_t k : cases) {
      if (k >= done.size() || !done[k]) continue;
      const Handle memory = select_rows(space.get(), dims, k, 1);
      check_status(
          H5Dread(theirs.get(), type.get(), memory.get(), space.get(), H5P_DEFAULT, row.data()),
          std::string("read ") + name);
      write_row(*mine, k, row.data(), type.get(), string_transfer(2));
      if (H5Tdetect_class(type.get(), H5T_STRING) > 0 && H5Tis_variable_str(type.get()) > 0)
        H5Dvlen_reclaim(type.get(), memory.get(), H5P_DEFAULT, row.data());
    }
  }
}

// ---- one case ------------------------------------------------------------------------------

struct StackedCase::Rows {
  layout::OutputSelection output;
  SeriesClocks schedule;
  std::vector<output_detail::ChainSection> sections;
  bool walls = false;
  output_detail::Frame frame;  // reused
  std::array<std::vector<std::int64_t>, groups> steps;
  std::array<std::vector<double>, groups> times;
  std::array<std::vector<double>, particle_columns.size()> particles;
  std::array<std::vector<double>, observable_columns.size()> observables;
  std::vector<double> section_energy;
  std::array<std::vector<double>, layout::wall_columns.size()> wall;  // layout::wall_columns
  std::vector<double> radius, mass, wall_normal;
  std::vector<std::int32_t> species;
  std::vector<std::string> species_names;
};

StackedCase::StackedCase(StackedFile& file, std::size_t index, const Simulation& sim,
                         const layout::OutputSelection& output, std::int64_t steps,
                         std::int64_t output_every, Compression compression, std::mutex* lock)
    : file_(file), index_(index), lock_(lock), rows_(std::make_unique<Rows>()) {
  const Scene& scene = sim.scene();
  const StackedShape shape =
      stacked_shape(scene, output, steps, output_every, sim.settings().model_count(), compression);
  if (const std::string d = shape_difference(shape, file.shape()); !d.empty())
    throw std::logic_error("StackedCase: " + d);
  Rows& r = *rows_;
  r.output = output;
  r.schedule = SeriesClocks(output, groups_written(shape), steps, output_every);
  if (!shape.section_beads.empty()) r.sections = output_detail::chain_sections(scene);
  r.walls = !scene.walls.empty();
  const Particles& p = sim.particles();
  const std::vector<std::int64_t>& ids = output.particles();
  for (std::int64_t j = 0; j < shape.particles; ++j) {
    const Eigen::Index i = ids.empty() ? j : ids[static_cast<std::size_t>(j)];
    r.radius.push_back(p.radius(i));
    r.mass.push_back(p.mass(i));
    r.species.push_back(p.material[static_cast<std::size_t>(i)]);
  }
  for (const Material& m : scene.materials) r.species_names.push_back(m.name);
  for (const Wall& w : scene.walls)
    r.wall_normal.insert(r.wall_normal.end(), {w.normal.x(), w.normal.y(), w.normal.z()});
}

StackedCase::~StackedCase() = default;

void StackedCase::write_frame(const Simulation& sim, const EnergyReport& e) {
  Rows& r = *rows_;
  if (!r.output.writes_frames()) return;
  output_detail::Frame& f = r.frame;
  const std::int64_t step = sim.step_count();
  for (std::size_t g = 0; g < groups; ++g)
    if (r.schedule.holds_clock(g) && r.schedule.due(g, step)) {
      r.steps[g].push_back(step);
      r.times[g].push_back(sim.time());
    }
  if (r.schedule.due(SeriesClocks::particles, step)) {
    output_detail::copy_particles(sim.particles(), r.output, f);
    for (std::size_t k = 0; k < particle_columns.size(); ++k)
      r.particles[k].insert(r.particles[k].end(), f.particles[k].begin(), f.particles[k].end());
  }
  if (r.schedule.written(SeriesClocks::observables) &&
      r.schedule.due(SeriesClocks::observables, step)) {
    output_detail::copy_observables(sim, e, r.output, r.sections, r.walls, f);
    const double* value = f.observables.data();
    for (std::size_t k = 0; k < observable_columns.size(); ++k) {
      if (r.output.has(observable_columns[k].id))
        r.observables[k].insert(r.observables[k].end(), value,
                                value + observable_columns[k].components);
      value += observable_columns[k].components;
    }
    r.section_energy.insert(r.section_energy.end(), f.sections.begin(), f.sections.end());
    for (std::size_t k = 0; k < r.wall.size(); ++k)
      r.wall[k].insert(r.wall[k].end(), f.walls[k].begin(), f.walls[k].end());
  }
}

std::size_t StackedCase::buffered_bytes() const {
  const Rows& r = *rows_;
  std::size_t doubles = r.section_energy.size();
  for (const auto& v : r.wall) doubles += v.size();
  for (const auto& v : r.particles) doubles += v.size();
  for (const auto& v : r.observables) doubles += v.size();
  for (const auto& v : r.times) doubles += 2 * v.size();
  return 8 * doubles;
}

// Each dataset's row of this case: the data, and (once computed) the chunks compressed.
struct StackedCase::Payload {
  StackedSet* set;
  const void* data;
  Scalar type;
  std::unique_ptr<ChunkWriter> packed;  // its chunks, compressed as the dataset's filters would
};

void StackedCase::gather_payloads() {
  Rows& r = *rows_;
  StackedFile::Datasets& d = *file_.sets_;
  const auto add = [&](StackedSet& set, const auto& values, Scalar type) {
    if (set.get() >= 0) payloads_.push_back({&set, values.data(), type, nullptr});
  };
  for (std::size_t g = 0; g < groups; ++g) {
    add(d.step[g], r.steps[g], Scalar::int64);
    add(d.time[g], r.times[g], Scalar::float64);
  }
  for (std::size_t k = 0; k < particle_columns.size(); ++k)
    add(d.particle[k], r.particles[k], Scalar::float64);
  for (std::size_t k = 0; k < observable_columns.size(); ++k)
    add(d.observable[k], r.observables[k], Scalar::float64);
  add(d.section_energy, r.section_energy, Scalar::float64);
  for (std::size_t k = 0; k < r.wall.size(); ++k) add(d.wall[k], r.wall[k], Scalar::float64);
  add(d.radius, r.radius, Scalar::float64);
  add(d.mass, r.mass, Scalar::float64);
  add(d.species, r.species, Scalar::int32);
  add(d.wall_normal, r.wall_normal, Scalar::float64);
}

void StackedCase::computed() {
  Rows& r = *rows_;
  const StackedShape& s = file_.shape();
  // Every row must fill its dataset's: a run that wrote other frames than its shape says is a
  // defect, not a case to store.
  for (std::size_t g = 0; g < groups; ++g)
    if (file_.sets_->step[g].get() >= 0 &&
        r.steps[g].size() != static_cast<std::size_t>(s.frames[g]))
      throw std::logic_error("StackedCase: " + std::to_string(r.steps[g].size()) +
                             " frames written of " + std::to_string(s.frames[g]));
  gather_payloads();
  // Compressed here, on the thread that computed the case, in parallel with the others: the
  // file's one writer then only stores the chunks (ChunkWriter; no HDF5 call is made here).
  for (Payload& p : payloads_)
    if (p.set->filter != Compression::none &&
        ChunkWriter::suits(p.set->row, p.set->chunk, p.set->filter)) {
      p.packed =
          std::make_unique<ChunkWriter>(p.set->row, p.set->chunk, size_of(p.type), p.set->filter);
      p.packed->keep(p.set->name, static_cast<const char*>(p.data), 1);
    }
}

void StackedCase::finish(const layout::RunSummary&) {
  if (payloads_.empty()) computed();
  Rows& r = *rows_;
  StackedFile::Datasets& d = *file_.sets_;
  std::vector<const char*> names;
  for (const std::string& name : r.species_names) names.push_back(name.c_str());
  std::unique_lock guard = lock_ ? std::unique_lock(*lock_) : std::unique_lock<std::mutex>();
  quiet_errors();
  for (Payload& p : payloads_)
    if (p.packed)
      p.packed->write_kept(p.set->get(), p.set->name, index_, nullptr);
    else
      write_row(*p.set, index_, p.data, native_type(p.type));
  write_row(d.species_names, index_, names.data(), utf8_string_type(),
            string_transfer(names.size()));
  const std::uint8_t one = 1;
  write_row(d.written, index_, &one, H5T_NATIVE_UINT8);
  payloads_.clear();
}

}  // namespace chaindem
