#include "chaindem/output/output_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "chaindem/suggest.hpp"

namespace chaindem::layout {
namespace {

constexpr bool by_name(const char* a, const char* b) {
  return std::string_view(a) < std::string_view(b);
}
// The file writes the summary's values by name, and has since its first version (a map did):
// the tables keep that order, so that a file is written exactly as before.
static_assert(std::is_sorted(summary_scalars.begin(), summary_scalars.end(),
                             [](const auto& a, const auto& b) { return by_name(a.name, b.name); }));
static_assert(std::is_sorted(summary_texts.begin(), summary_texts.end(),
                             [](const auto& a, const auto& b) { return by_name(a.name, b.name); }));
static_assert(std::is_sorted(summary_arrays.begin(), summary_arrays.end(),
                             [](const auto& a, const auto& b) { return by_name(a.name, b.name); }));
// Each quantity is its table's row: Quantity q is row q - first of its table.
constexpr bool rows_in_order() {
  std::size_t q = 0;
  for (const auto& c : particle_columns)
    if (static_cast<std::size_t>(c.id) != q++) return false;
  for (const auto& c : observable_columns)
    if (static_cast<std::size_t>(c.id) != q++) return false;
  for (const auto& c : wall_columns)
    if (static_cast<std::size_t>(c.id) != q++) return false;
  for (const auto& c : contact_columns)
    if (static_cast<std::size_t>(c.id) != q++) return false;
  return q == quantity_count;
}
static_assert(rows_in_order(), "Quantity lists the rows of the tables, in their order");
static_assert(particle_columns[0].id == Quantity::position);

// Python's text of a C++ string of the tables (names and units: plain ASCII).
std::string py(std::string_view s) {
  std::string quoted(1, '"');  // not "\"" + ...: GCC 12 warns about it falsely (-Wrestrict)
  quoted += s;
  quoted += '"';
  return quoted;
}

}  // namespace

std::string_view quantity_name(Quantity q) {
  for (const auto& c : particle_columns)
    if (c.id == q) return c.name;
  for (const auto& c : observable_columns)
    if (c.id == q) return c.name;
  for (const auto& c : wall_columns)
    if (c.id == q) return c.name;
  for (const auto& c : contact_columns)
    if (c.id == q) return c.name;
  return "";
}

std::string value_path(Quantity q) {
  const std::string name(quantity_name(q));
  for (const auto& c : contact_columns)
    if (c.id == q) return std::string(contacts_group) + "/" + name;
  const char* group = particles_group;
  for (const auto& c : wall_columns)
    if (c.id == q) group = walls_group;
  for (const auto& c : observable_columns)
    if (c.id == q) group = observables_group;
  return std::string(group) + "/" + name + "/" + value_dataset;
}

OutputSelection OutputSelection::all() {
  OutputSelection s;
  s.bits_.set();
  return s;
}

OutputSelection OutputSelection::none() {
  return OutputSelection();
}

OutputSelection OutputSelection::with(Quantity q) const {
  OutputSelection s = *this;
  s.bits_.set(static_cast<std::size_t>(q));
  s.bits_.set(static_cast<std::size_t>(Quantity::position));
  return s;
}

OutputSelection OutputSelection::with_every(SeriesGroup g, std::int64_t frames) const {
  if (frames < 1) throw std::invalid_argument("a group of series is written every frame or less");
  OutputSelection s = *this;
  s.every_[static_cast<std::size_t>(g)] = frames;
  return s;
}

OutputSelection OutputSelection::with_particles(std::vector<std::int64_t> particles) const {
  OutputSelection s = *this;
  s.particles_ = std::move(particles);
  return s;
}

OutputSelection OutputSelection::with_components(std::size_t components) const {
  if (components != 1 && components != 3)
    throw std::invalid_argument("a particle vector is written with 1 or 3 components");
  OutputSelection s = *this;
  s.components_ = static_cast<std::uint8_t>(components);
  return s;
}

OutputSelection OutputSelection::without(Quantity q) const {
  if (q == Quantity::position)
    throw std::invalid_argument("the output's positions cannot be left out: they hold its frames");
  OutputSelection s = *this;
  s.bits_.reset(static_cast<std::size_t>(q));
  return s;
}

bool OutputSelection::has_contacts() const {
  return std::any_of(contact_columns.begin(), contact_columns.end(),
                     [&](const ContactColumn& c) { return has(c.id); });
}

std::vector<std::string> quantity_words() {
  std::vector<std::string> words{"all", "energies", "contacts", "none"};
  for (const auto& c : particle_columns) words.emplace_back(c.name);
  for (const auto& c : observable_columns) words.emplace_back(c.name);
  for (const auto& c : wall_columns) words.push_back(std::string("wall_") + c.name);
  for (const auto& c : contact_columns) words.emplace_back(c.name);
  return words;
}

OutputSelection selection_of(const std::vector<std::string>& words) {
  if (std::find(words.begin(), words.end(), "none") != words.end()) {
    if (words.size() > 1)
      throw std::invalid_argument(
          "'none' (no frame) stands alone: it cannot be given with other "
          "quantities");
    return OutputSelection::none();
  }
  std::bitset<quantity_count> bits;
  bits.set(static_cast<std::size_t>(Quantity::position));
  auto add = [&bits](Quantity q) { bits.set(static_cast<std::size_t>(q)); };
  for (const std::string& w : words) {
    bool known = true;
    if (w == "all") {
      bits.set();
    } else if (w == "energies") {
      for (const auto& c : observable_columns)
        if (std::string_view(c.unit) == "J") add(c.id);
    } else if (w == "contacts") {
      for (const auto& c : contact_columns) add(c.id);
    } else {  // one quantity, by its name
      known = false;
      auto match = [&](const auto& columns) {
        for (const auto& c : columns)
          if (w == c.name) {
            add(c.id);
            known = true;
          }
      };
      match(particle_columns);
      match(observable_columns);
      match(contact_columns);
      for (const auto& c : wall_columns)  // wall_position, wall_force
        if (w == std::string("wall_") + c.name) {
          add(c.id);
          known = true;
        }
    }
    if (!known) {
      std::string message = "'" + w + "' is not a quantity";
      message.append(did_you_mean(w, quantity_words())).append(" (allowed: ");
      for (const std::string& a : quantity_words()) message.append(a).append(", ");
      message.resize(message.size() - 2);
      throw std::invalid_argument(message + ")");
    }
  }
  OutputSelection s = OutputSelection::all();
  for (std::size_t k = 0; k < quantity_count; ++k)
    if (!bits.test(k)) s = s.without(static_cast<Quantity>(k));
  return s;
}

bool writes_observables(const OutputSelection& output, bool walls, bool sections) {
  bool any = sections;
  for (const WallColumn& c : wall_columns) any = any || (walls && output.has(c.id));
  for (const ObservableColumn& c : observable_columns) any = any || output.has(c.id);
  return any;
}

OutputSelection case_output(bool contacts) {
  OutputSelection s = OutputSelection::all();
  if (!contacts)
    for (const ContactColumn& c : contact_columns) s = s.without(c.id);
  return s;
}

std::optional<double> value_of(const SummaryScalar& scalar, const RunSummary& s) {
  return std::visit(
      [&](auto field) -> std::optional<double> {
        using F = decltype(field);
        if constexpr (std::is_same_v<F, double EnergyReport::*>)
          return s.energy.*field;
        else if constexpr (std::is_same_v<F, std::int64_t RunSummary::*>)
          return static_cast<double>(s.*field);
        else
          return s.*field;
      },
      scalar.field);
}

void set_value(const SummaryScalar& scalar, RunSummary& s, double value) {
  std::visit(
      [&](auto field) {
        using F = decltype(field);
        if constexpr (std::is_same_v<F, double EnergyReport::*>)
          s.energy.*field = value;
        else if constexpr (std::is_same_v<F, std::int64_t RunSummary::*>)
          s.*field = std::llround(value);
        else
          s.*field = value;
      },
      scalar.field);
}

bool is_integer(const SummaryScalar& scalar) {
  return std::holds_alternative<std::int64_t RunSummary::*>(scalar.field);
}

bool is_integer(const SummaryArray& array) {
  return std::holds_alternative<std::vector<long long> RunSummary::*>(array.field);
}

std::vector<double> values_of(const SummaryArray& array, const RunSummary& s) {
  return std::visit(
      [&](auto field) {
        const auto& v = s.*field;
        return std::vector<double>(v.begin(), v.end());
      },
      array.field);
}

void set_values(const SummaryArray& array, RunSummary& s, const std::vector<double>& values) {
  std::visit(
      [&](auto field) {
        auto& v = s.*field;
        v.clear();
        for (const double x : values) v.push_back(static_cast<std::decay_t<decltype(v[0])>>(x));
      },
      array.field);
}

namespace {

// layout_python's parts, in the order of layout.py.

// `{"name": "unit", ...}` of rows with a name and a unit, on one line.
template <typename Rows>
void print_units(std::ostream& p, const Rows& rows) {
  p << "{";
  bool first = true;
  for (const auto& row : rows) {
    p << (first ? "" : ", ") << py(row.name) << ": " << py(row.unit);
    first = false;
  }
  p << "}\n";
}

void print_groups(std::ostream& p) {
  p << R"("""The layout of chaindem's output files: groups, datasets and their units, the run
summary's values, and what sweep, compare and collide write (docs/output-format.md).

Generated from include/chaindem/output/output_layout.hpp, which the writer reads too; do not
edit. After a change there: build/tests/chaindem_layout_py > postprocess/chaindem_post/layout.py
(a test compares the two).
"""

# A run's groups, under its file's root or its group of a sweep or compare file.
)";
  p << "PARTICLES = " << py(particles_group) << "\n"
    << "OBSERVABLES = " << py(observables_group) << "\n"
    << "WALLS = " << py(walls_group) << "\n"
    << "CONTACTS = " << py(contacts_group) << "\n"
    << "PARAMETERS = " << py(parameters_group) << "\n"
    << "SUMMARY = " << py(summary_group) << "\n"
    << "# The datasets of a time series (an H5MD element): frames' step and time, and values.\n"
    << "STEP, TIME, VALUE = " << py(step_dataset) << ", " << py(time_dataset) << ", "
    << py(value_dataset) << "\n\n";
}

void print_particles(std::ostream& p) {
  p << "# PARTICLES/<name>/VALUE, frames x particles x D (D: the box's dimension, 1 or 3): name -> "
       "unit.\n"
    << "PARTICLE_COLUMNS = ";
  print_units(p, particle_columns);
  p << "# PARTICLES/<name>, one value per particle: name -> unit.\n"
    << "PARTICLE_CONSTANTS = ";
  print_units(p, std::array{particle_radius, particle_mass, particle_species});
  p << "SPECIES_NAMES, STRIKER, CHAIN_FIRST, CHAIN_COUNT = " << py(species_names_attribute) << ", "
    << py(striker_attribute) << ", " << py(chain_first_attribute) << ", "
    << py(chain_count_attribute) << "\n"
    << "# The particle index of each row of the series (output.beads); absent: every particle.\n"
    << "PARTICLE_ID = " << py(particle_id) << "\n\n";
}

void print_observables(std::ostream& p) {
  p << "# OBSERVABLES/<name>/VALUE, frames (x components): name -> (unit, components).\n"
    << "OBSERVABLE_COLUMNS = {\n";
  for (const ObservableColumn& c : observable_columns)
    p << "    " << py(c.name) << ": (" << py(c.unit) << ", " << c.components << "),\n";
  p << "}\n"
    << "# The energies among them [J], by name.\n"
    << "ENERGIES = [";
  bool first = true;
  for (const ObservableColumn& c : observable_columns)
    if (std::string_view(c.unit) == "J") {
      p << (first ? "" : ", ") << py(c.name);
      first = false;
    }
  p << "]\n\n";
}

void print_walls_and_contacts(std::ostream& p) {
  p << "# WALLS: attribute WALL_NAMES, WALL_NORMAL (walls x 3), WALL_POSITION/VALUE and\n"
       "# WALL_FORCE/VALUE (frames x walls x 3; the force each wall exerts on the particles).\n"
    << "WALL_NAMES, WALL_NORMAL = " << py(wall_names_attribute) << ", " << py(wall_normal.name)
    << "\n"
    << "WALL_POSITION, WALL_POSITION_UNIT = " << py(wall_position_column.name) << ", "
    << py(wall_position_column.unit) << "\n"
    << "WALL_FORCE, WALL_FORCE_UNIT = " << py(wall_force_column.name) << ", "
    << py(wall_force_column.unit) << "\n\n";

  p << "# CONTACTS: rows OFFSET[k] .. OFFSET[k+1]-1 are frame k's; FIRST and SECOND the particles\n"
    << "# (SECOND < 0 is wall -(SECOND+1)); per row: name -> unit.\n"
    << "OFFSET, FIRST, SECOND = " << py(contact_offset.name) << ", " << py(contact_first.name)
    << ", " << py(contact_second.name) << "\n"
    << "CONTACT_COLUMNS = ";
  print_units(p, contact_columns);
  p << "\n";
}

void print_summary(std::ostream& p) {
  p << "# SUMMARY attributes: name -> (unit, type); the file holds float64.\n"
    << "SUMMARY_SCALARS = {\n";
  for (const SummaryScalar& s : summary_scalars)
    p << "    " << py(s.name) << ": (" << py(s.unit) << ", " << (is_integer(s) ? "int" : "float")
      << "),\n";
  p << "}\n"
    << "# SUMMARY string attributes.\n"
    << "SUMMARY_TEXTS = [";
  for (std::size_t k = 0; k < summary_texts.size(); ++k)
    p << (k ? ", " : "") << py(summary_texts[k].name);
  p << "]\n"
    << "# SUMMARY datasets, per chain bead (arrival_*: per watched bead): name -> unit.\n"
    << "SUMMARY_ARRAYS = ";
  print_units(p, summary_arrays);
  p << "# SUMMARY/SUMMARY_VALIDITY/<name>, one row per kind of contact that touched, against its\n"
    << "# law's stated validity: name -> unit.\n"
    << "SUMMARY_VALIDITY = " << py(summary_validity_group) << "\n"
    << "VALIDITY_SUMMARY_COLUMNS = ";
  print_units(p, validity_summary_columns);
  p << "\n";
}

void print_several_models(std::ostream& p) {
  p << "# A run of several contact models (a run of one has none of these): CONTACTS/MODEL, each\n"
    << "# row's model K; PARAMETERS/CONTACT_MODELS/K, its law's attributes and MODEL_SECTION, the\n"
    << "# case's section; OBSERVABLES/SECTION_ENERGY/VALUE, frames x sections of the chain, with\n"
    << "# per section the attributes SECTION_FIRST_BEAD, SECTION_BEADS and SECTION_MATERIAL;\n"
    << "# SUMMARY/SUMMARY_MODELS/<name>, one row per model: name -> unit.\n"
    << "MODEL = " << py(contact_model.name) << "\n"
    << "CONTACT_MODELS, MODEL_SECTION = " << py(contact_models_group) << ", "
    << py(model_section_attribute) << "\n"
    << "SECTION_ENERGY, SECTION_ENERGY_UNIT = " << py(section_energy.name) << ", "
    << py(section_energy.unit) << "\n"
    << "SECTION_FIRST_BEAD, SECTION_BEADS, SECTION_MATERIAL = " << py(section_first_bead_attribute)
    << ", " << py(section_beads_attribute) << ", " << py(section_material_attribute) << "\n"
    << "SUMMARY_MODELS = " << py(summary_models_group) << "\n"
    << "MODEL_SUMMARY_COLUMNS = ";
  print_units(p, model_summary_columns);
  p << "\n";
}

void print_sweep_compare_collide(std::ostream& p) {
  p << "# A sweep's file: SWEEP (its definition: SWEEP_AXES/<key>, the values of each axis, and\n"
    << "# SWEEP_FILE, its text), CASES/case-NNNNNN (the runs), SUMMARY (one row per case:\n"
    << "# SWEEP_CASE, the axes, the summary's values, SWEEP_STATUS).\n"
    << "SWEEP, SWEEP_AXES, SWEEP_FILE = " << py(sweep_group) << ", " << py(sweep_axes_group) << ", "
    << py(sweep_file_dataset) << "\n"
    << "CASES, SWEEP_CASE, SWEEP_STATUS = " << py(cases_group) << ", " << py(sweep_case_column)
    << ", " << py(sweep_status_column) << "\n"
    << "# Or (sweep.keep = stacked) STACKED: the groups of a run, a row per case in each dataset,\n"
    << "# and STACKED_WRITTEN (1 where the case's row is written).\n"
    << "STACKED, STACKED_WRITTEN = " << py(stacked_group) << ", " << py(stacked_written) << "\n\n";

  p << "# A compare file: COMPARISON/<prefix><metric><suffix>: metric -> (unit, words).\n"
    << "COMPARISON = " << py(comparison_group) << "\n"
    << "COMPARISON_METRICS = {\n";
  for (const ComparisonMetric& m : comparison_metrics)
    p << "    " << py(m.name) << ": (" << py(m.unit) << ", " << py(m.words) << "),\n";
  p << "}\n"
    << "REFERENCE_PREFIX = " << py(reference_prefix) << "\n"
    << "ERROR_PERCENT, MEAN_ERROR_PERCENT, BEADS_COMPARED = " << py(error_percent_suffix) << ", "
    << py(mean_error_percent_suffix) << ", " << py(beads_compared_suffix) << "\n"
    << "# With reference data: M_SAMPLING_BOUND (beads, %), SAMPLE_INTERVAL (attribute, s),\n"
    << "# SAMPLES_PER_PULSE (beads).\n"
    << "SAMPLING_BOUND, SAMPLE_INTERVAL, SAMPLES_PER_PULSE = " << py(sampling_bound_suffix) << ", "
    << py(sample_interval_attribute) << ", " << py(samples_per_pulse_dataset) << "\n\n";

  p << "# A collide -o file: one impact's samples: name -> unit.\n"
    << "LOOP_COLUMNS = ";
  print_units(p, loop_columns);
}

}  // namespace

std::string layout_python() {
  std::ostringstream p;
  print_groups(p);
  print_particles(p);
  print_observables(p);
  print_walls_and_contacts(p);
  print_summary(p);
  print_several_models(p);
  print_sweep_compare_collide(p);
  return p.str();
}

}  // namespace chaindem::layout
