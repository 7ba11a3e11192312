#include "chaindem/fit/impact_data.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/chain_record.hpp"  // csv_line, csv_cells
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"

namespace chaindem::fit {
namespace {

constexpr std::pair<const char*, ImpactQuantity> quantities[] = {
    {"restitution", ImpactQuantity::restitution},
    {"peak_force", ImpactQuantity::peak_force},
    {"contact_duration", ImpactQuantity::contact_duration},
    {"max_overlap", ImpactQuantity::max_overlap}};

// Where each column of the header goes: the velocity, a measured quantity, or the uncertainty
// of one (`sigma` with a single quantity, `<quantity>_sigma` with any).
struct Columns {
  std::optional<int> velocity;
  std::vector<int> value;                 // per series
  std::vector<std::optional<int>> sigma;  // per series, where given
};

Columns read_header(const std::vector<std::string>& header, const std::string& where,
                    ImpactData& d) {
  std::vector<std::string> allowed{"velocity", "sigma"};
  for (const auto& [name, q] : quantities) {
    allowed.emplace_back(name);
    allowed.push_back(std::string(name) + "_sigma");
  }
  Columns c;
  std::vector<std::pair<std::string, int>> sigmas;  // quantity name ("" for sigma), column
  for (int k = 0; k < int(header.size()); ++k) {
    const std::string& name = header[std::size_t(k)];
    const bool is_sigma = name == "sigma" || name.ends_with("_sigma");
    const std::string base = name == "sigma" ? ""
                             : is_sigma      ? name.substr(0, name.size() - 6)
                                             : name;
    const auto q = std::find_if(std::begin(quantities), std::end(quantities),
                                [&](const auto& entry) { return base == entry.first; });
    if (name == "velocity") {
      if (c.velocity) throw CaseError(where + ": column 'velocity' appears twice");
      c.velocity = k;
    } else if (q == std::end(quantities) && !(is_sigma && base.empty())) {
      throw CaseError(where + ": unknown column '" + quoted_excerpt(name) + "'" +
                      did_you_mean(name_and_unit(name).first, allowed) +
                      "; the columns are velocity [m/s], any of restitution, peak_force [N], "
                      "contact_duration [s], max_overlap [m], and each one's standard "
                      "uncertainty, <quantity>_sigma (or sigma, with one quantity)");
    } else if (is_sigma) {
      sigmas.emplace_back(base, k);
    } else {
      for (const Series& s : d.series)
        if (s.quantity == q->second)
          throw CaseError(where + ": column '" + name + "' appears twice");
      d.series.push_back({q->second, {}, {}});
      c.value.push_back(k);
    }
  }
  if (!c.velocity || d.series.empty())
    throw CaseError(where +
                    ": the header needs a velocity column and a measured one (restitution, "
                    "peak_force, contact_duration or max_overlap)");
  c.sigma.assign(d.series.size(), std::nullopt);
  for (const auto& [base, k] : sigmas) {
    std::size_t s = 0;
    if (base.empty() && d.series.size() > 1)
      throw CaseError(where +
                      ": with several measured columns, name each one's uncertainty "
                      "<quantity>_sigma, not sigma");
    while (!base.empty() && s < d.series.size() && to_string(d.series[s].quantity) != base) ++s;
    if (s == d.series.size())
      throw CaseError(where + ": column '" + header[std::size_t(k)] + "' is the uncertainty of '" +
                      base + "', which is not measured here");
    if (c.sigma[s])
      throw CaseError(where + ": two uncertainty columns for '" +
                      std::string(to_string(d.series[s].quantity)) + "'");
    c.sigma[s] = k;
  }
  // Without uncertainties the scatter of the points is estimated from the residuals, one
  // variance for all of them: only for one quantity (two have different units).
  const auto given = std::count_if(c.sigma.begin(), c.sigma.end(),
                                   [](const std::optional<int>& k) { return k.has_value(); });
  if (given != 0 && given != std::ptrdiff_t(c.sigma.size()))
    throw CaseError(where + ": give the uncertainty of every measured column or of none");
  if (given == 0 && d.series.size() > 1)
    throw CaseError(where +
                    ": fitting several quantities at once needs each one's uncertainty "
                    "(a <quantity>_sigma column): their residuals are weighed against each other");
  return c;
}

// The SI unit of a measured quantity, as a message writes it.
std::string unit_of(ImpactQuantity q) {
  return q == ImpactQuantity::peak_force         ? "N"
         : q == ImpactQuantity::contact_duration ? "s"
         : q == ImpactQuantity::max_overlap      ? "m"
                                                 : "(restitution has no unit)";
}

// A measured value that no law can give: a negative restitution, one above 1 by more than three
// uncertainties (by anything, without them), a force, duration or overlap that is not positive.
void check_value(ImpactQuantity q, double value, double sigma, const std::string& at) {
  if (q == ImpactQuantity::restitution) {
    if (value < 0.0)
      throw CaseError(at + ": a restitution of " + number_text(value) + " is negative");
    if (value > 1.0 + 3.0 * sigma)
      throw CaseError(at + ": a restitution of " + number_text(value) +
                      " is above 1, which no contact law gives (every law dissipates or "
                      "conserves energy)" +
                      (sigma > 0.0 ? " by more than three uncertainties"
                                   : "; give the points' uncertainty (a sigma column) if it is "
                                     "within the scatter of the measurement"));
  } else if (!(value > 0.0 && value <= most_measured)) {
    throw CaseError(at + ": " + std::string(to_string(q)) + " " + number_text(value) +
                    " is out of range: allowed (0, " + number_text(most_measured) + "] " +
                    unit_of(q));
  }
}

}  // namespace

ImpactData read_impact_data(const std::string& path) {
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw CaseError("--data: '" + quoted_path(path) + "' " + problem);
  std::ifstream in(path);
  if (!in) throw CaseError("--data: cannot read '" + quoted_path(path) + "'");
  std::string line;
  int number = 0;
  std::vector<std::string> header;
  char delimiter = ',';
  while (header.empty() && csv_line(in, line)) {
    ++number;
    // A byte-order mark is how some programs begin UTF-8 files; it is not part of the header.
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    delimiter = csv_delimiter(line);
    header = csv_cells(line, delimiter);
  }
  if (header.empty()) throw CaseError("--data: '" + quoted_path(path) + "' has no header line");
  // A unit in the header may only say what the column's unit is: SI.
  std::string first_measured;  // the first measured quantity: the unit of a bare `sigma`
  for (const std::string& cell : header) {
    const std::string name = name_and_unit(cell).first;
    if (first_measured.empty() && name != "velocity" && name != "sigma" &&
        !name.ends_with("_sigma"))
      first_measured = name;
  }
  for (std::string& cell : header) {
    const auto [name, unit] = name_and_unit(cell);
    if (unit.empty()) continue;
    const std::string base = name == "sigma"            ? first_measured
                             : name.ends_with("_sigma") ? name.substr(0, name.size() - 6)
                                                        : name;
    const bool known =
        base == "velocity" || std::any_of(std::begin(quantities), std::end(quantities),
                                          [&](const auto& entry) { return base == entry.first; });
    if (!known) continue;  // an unknown column: read_header names it
    const std::string si = base == "velocity"           ? "m/s"
                           : base == "peak_force"       ? "N"
                           : base == "contact_duration" ? "s"
                           : base == "max_overlap"      ? "m"
                                                        : "-";
    if (unit != si)
      throw CaseError(quoted_path(path) + ":" + std::to_string(number) + ": column '" +
                      quoted_excerpt(cell) + "': impact data are in SI units, [" + si + "] for " +
                      name);
    cell = name;
  }
  ImpactData d;
  const Columns c = read_header(header, quoted_path(path) + ":" + std::to_string(number), d);
  while (csv_line(in, line)) {
    ++number;
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    const auto cells = csv_cells(line, delimiter);
    const std::string at = quoted_path(path) + ":" + std::to_string(number);
    if (cells.size() != header.size())
      throw CaseError(at + ": " + std::to_string(cells.size()) + " values, the header names " +
                      std::to_string(header.size()));
    auto number_in = [&](int k) {
      return option_number(at + ": " + header[std::size_t(k)], cells[std::size_t(k)]);
    };
    if (cells[std::size_t(*c.velocity)].empty())
      throw CaseError(at +
                      ": velocity: empty cell; every row needs its impact velocity (only a "
                      "measured column may be empty, in a row that does not measure it)");
    const double v = number_in(*c.velocity);
    if (!(v > 0.0 && v <= max_speed))
      throw CaseError(at + ": velocity " + number_text(v) + " m/s is out of range: allowed (0, " +
                      number_text(max_speed) + "] m/s");
    d.velocity.push_back(v);
    bool measured = false;
    for (std::size_t s = 0; s < d.series.size(); ++s) {
      Series& series = d.series[s];
      const bool empty = cells[std::size_t(c.value[s])].empty();
      const double value = empty ? std::nan("") : number_in(c.value[s]);
      double sigma = 0.0;
      if (const std::optional<int> k = c.sigma[s]) {
        sigma = empty && cells[std::size_t(*k)].empty() ? std::nan("") : number_in(*k);
        if (!empty && !(sigma >= least_uncertainty && sigma <= most_uncertainty))
          throw CaseError(at + ": " + header[std::size_t(*k)] + " " + number_text(sigma) +
                          " is out of range: allowed [" + number_text(least_uncertainty) + ", " +
                          number_text(most_uncertainty) + "] " + unit_of(series.quantity) +
                          ", the standard uncertainty of " +
                          std::string(to_string(series.quantity)));
        series.sigma.push_back(sigma);
      }
      if (!empty)
        check_value(series.quantity, value, sigma, at + ": " + header[std::size_t(c.value[s])]);
      series.value.push_back(value);
      measured = measured || !empty;
    }
    if (!measured) throw CaseError(at + ": no measured value in this row");
  }
  for (const Series& s : d.series)
    if (std::none_of(s.value.begin(), s.value.end(), [](double x) { return std::isfinite(x); }))
      throw CaseError(quoted_path(path) + ": column '" + std::string(to_string(s.quantity)) +
                      "' has no values");
  return d;
}

std::vector<ImpactQuantity> ImpactData::quantities() const {
  std::vector<ImpactQuantity> q;
  for (const Series& s : series) q.push_back(s.quantity);
  return q;
}

std::size_t ImpactData::points() const {
  std::size_t n = 0;
  for (const Series& s : series)
    n += std::size_t(
        std::count_if(s.value.begin(), s.value.end(), [](double x) { return std::isfinite(x); }));
  return n;
}

Problem impact_problem(const ImpactModel& model, const ImpactData& data,
                       std::vector<FreeParameter> parameters) {
  if (parameters.size() != model.free_keys().size())
    throw std::invalid_argument("impact_problem: one parameter per free key of the model");
  Problem p;
  p.parameters = std::move(parameters);
  p.residual_count = data.points();
  p.sigma_known = data.weighted();
  p.residuals = [&model, &data, quantities = data.quantities()](const std::vector<double>& theta,
                                                                std::vector<double>& r) {
    std::vector<std::vector<double>> predicted;
    if (!model.predict(theta, data.velocity, quantities, predicted)) return false;
    std::size_t k = 0;
    for (std::size_t q = 0; q < data.series.size(); ++q) {
      const Series& s = data.series[q];
      for (std::size_t i = 0; i < s.value.size(); ++i)
        if (std::isfinite(s.value[i]))
          r[k++] = (s.value[i] - predicted[q][i]) / (s.sigma.empty() ? 1.0 : s.sigma[i]);
    }
    return true;
  };
  return p;
}

std::vector<std::vector<double>> residuals_by_series(const ImpactData& data,
                                                     const std::vector<double>& residuals) {
  std::vector<std::vector<double>> out;
  std::size_t k = 0;
  for (const Series& s : data.series) {
    out.emplace_back(s.value.size(), std::nan(""));
    for (std::size_t i = 0; i < s.value.size(); ++i)
      if (std::isfinite(s.value[i])) out.back()[i] = residuals.at(k++);
  }
  return out;
}

}  // namespace chaindem::fit
