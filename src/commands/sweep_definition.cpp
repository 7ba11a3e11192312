#include "chaindem/commands/sweep_definition.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace chaindem::sweep {
namespace {

std::string format_number(double x) {
  std::ostringstream s;
  s << std::setprecision(12) << x;
  return s.str();
}

// One number of a "start:stop:step" range: a finite number and nothing else. `key` and `text`
// are quoted (quoted_text) as messages show them.
double range_part(const std::string& key, const std::string& text, const std::string& item,
                  const char* role) {
  double x = 0.0;
  if (const NumberText read = read_number(trimmed(item), x); read != NumberText::number)
    throw CaseError("axes." + key + ": '" + text + "': " + role + " " +
                    number_problem(trimmed(item), read) +
                    " (expected start:stop:step, three finite numbers)");
  return x;
}

// "start:stop:step", inclusive: finite numbers, step > 0, stop >= start, at most
// max_axis_values values, each distinct as written.
std::vector<std::string> range_values(const std::string& axis, const std::string& range) {
  const std::string key = quoted_text(axis), text = quoted_text(range);
  std::vector<std::string> items;
  std::stringstream s(range);
  std::string item;
  while (std::getline(s, item, ':')) items.push_back(item);
  if (items.size() != 3) throw CaseError("axes." + key + ": '" + text + "' is not start:stop:step");
  const double start = range_part(key, text, items[0], "start");
  const double stop = range_part(key, text, items[1], "stop");
  const double step = range_part(key, text, items[2], "step");
  if (!(step > 0.0))
    throw CaseError("axes." + key + ": '" + text + "': step " + format_number(step) +
                    " is out of range: allowed > 0");
  if (stop < start)
    throw CaseError("axes." + key + ": '" + text + "': stop " + format_number(stop) +
                    " is below start " + format_number(start));
  // Counted in floating point: the quotient may be far beyond any integer type.
  const double count = std::floor((stop - start) / step + 1e-9) + 1.0;
  if (!(count <= static_cast<double>(max_axis_values)))
    throw CaseError("axes." + key + ": '" + text + "' gives " +
                    (std::isfinite(count) ? format_number(count) + " values"
                                          : std::string("too many values to count")) +
                    ": at most " + std::to_string(max_axis_values) + " allowed per axis");
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.push_back(format_number(start + static_cast<double>(k) * step));
    if (k > 0 && out[k] == out[k - 1])
      throw CaseError("axes." + key + ": '" + text + "': step " + format_number(step) +
                      " is too small for the values' 12 significant digits (" + out[k] +
                      " repeats)");
  }
  return out;
}

// "a, b, c" or "start:stop:step" (inclusive). Every value is checked as the case would check it
// (type, finite, range), so that the message names the axis and the value.
std::vector<std::string> axis_values(const std::string& axis, const std::string& text) {
  const std::string key = quoted_text(axis);  // as messages show it
  std::vector<std::string> out;
  if (text.find(':') != std::string::npos && text.find(',') == std::string::npos) {
    out = range_values(axis, text);
  } else {
    // As every comma list: no empty entry (a trailing comma, as --laws and --beads refuse it).
    out = comma_list("axes." + key, text);
    if (out.size() > max_axis_values)
      throw CaseError("axes." + key + ": more than " + std::to_string(max_axis_values) +
                      " values: at most " + std::to_string(max_axis_values) + " allowed per axis");
    if (out.empty()) throw CaseError("axes." + key + ": no values");
    // Each value is a case of its own: one given twice would run the same case twice.
    std::set<std::string> seen;
    for (const std::string& value : out)
      if (!seen.insert(value).second)
        throw CaseError("axes." + key + ": '" + quoted_text(value) +
                        "' is given twice: each value of an axis is a case of its own");
  }
  for (const auto& value : out)
    if (const std::string problem = check_key_value(axis, value); !problem.empty())
      throw CaseError("axes." + key + ": " + problem);
  return out;
}

// The number of cases of a grid, checked before anything is allocated: the product of the axes'
// sizes, at most max_cases (checked factor by factor, so it cannot wrap around).
std::size_t grid_size(const std::string& path, const std::vector<Axis>& axes) {
  std::size_t total = 1;
  bool too_many = false;
  std::string product;
  double exact = 1.0;
  for (const auto& a : axes) {
    const std::size_t n = a.values.size();
    product += (product.empty() ? "" : " x ") + std::to_string(n);
    exact *= static_cast<double>(n);
    if (n > max_cases / total)
      too_many = true;
    else
      total *= n;  // at most max_cases
  }
  if (too_many)
    throw CaseError(path + ": the grid of the axes (" + product + " values) gives " +
                    format_number(exact) + " cases: at most " + std::to_string(max_cases) +
                    " allowed per sweep (split it into several sweeps)");
  return total;
}

// Why `key` changes nothing in a sweep's cases, or "" if it does: output settings of `chaindem
// run`, and the threads of a case, which runs on one (results do not depend on it).
std::string changes_nothing(const std::string& key) {
  if (key == key_name(&CaseSpec::output, &OutputSpec::file))
    return "a sweep writes every case into its own file (sweep.output, or -o)";
  if (key == key_name(&CaseSpec::output, &OutputSpec::checkpoint_interval))
    return "it times the checkpoints of `chaindem run`; a sweep checkpoints its file every "
           "--checkpoint-interval seconds";
  if (key == key_name(&CaseSpec::output, &OutputSpec::xdmf))
    return "a sweep's cases are groups of one file, which has no XDMF file (`chaindem run` "
           "writes one)";
  if (key == key_name(&CaseSpec::simulation, &SimulationSpec::threads))
    return "each case of a sweep runs on one thread (--threads spreads the cases over threads), "
           "and no result depends on it";
  return "";
}

// `p` made absolute, its symbolic links resolved as far as it exists. A name the system cannot
// look up (a component longer than the file system allows, a loop of links, a folder that cannot
// be searched) is invalid input naming the key.
std::string resolved_path(const fs::path& p, const std::string& what) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(p, ec);
  if (ec)
    throw CaseError(what + ": '" + quoted_path(p.string()) +
                    "' cannot be resolved: " + ec.message());
  return resolved.string();
}

// The sweep file's keys, as written. A case file given for a sweep file (no [sweep] section,
// and case keys) is refused, saying how to run it.
po::parsed_options sweep_file_options(const std::string& text, const std::string& file) {
  std::istringstream s(text);
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::parse_config_file(s, po::options_description(), true);
  } catch (const po::error& e) {
    throw CaseError(file + ": " + option_error_message(e));
  }
  // A case file given for a sweep file: no [sweep] section, and case keys.
  auto has = [&](auto&& which) {
    return std::any_of(parsed.options.begin(), parsed.options.end(),
                       [&](const auto& opt) { return which(opt.string_key); });
  };
  if (!has([](const std::string& key) { return key.starts_with("sweep."); }) &&
      has([](const std::string& key) {
        return material_of(key).has_value() ||
               std::any_of(case_keys().begin(), case_keys().end(),
                           [&](const KeySpec& k) { return k.key == key; });
      }))
    throw CaseError(
        file + " is a case file, not a sweep file (it has no [sweep] section): `chaindem run " +
        file + "` runs it, and a sweep file names a case as its base (docs/sweeps.md)");
  return parsed;
}

// Each key of the file into `d`: [sweep] base (resolved against the folder of `path`), combine,
// output and keep; [set] keys, fixed for every case; [axes], the swept keys and their values.
void read_sweep_keys(const po::parsed_options& parsed, const std::string& path,
                     const std::string& file, SweepDefinition& d) {
  std::set<std::string> seen;
  for (const auto& opt : parsed.options) {
    const std::string& key = opt.string_key;
    const std::string value = opt.value.empty() ? "" : opt.value.front();
    // Its [set] and [axes] keys and values become lines of each case.
    if (key.starts_with("set.") || key.starts_with("axes."))
      check_setting(file + " [" + key.substr(0, key.find('.')) + "]", key.substr(key.find('.') + 1),
                    value);
    if (!seen.insert(key).second)
      throw CaseError(file + ": key '" + quoted_text(key) + "' is given twice");
    if (key == "sweep.base") {
      d.base = resolved_path(fs::path(path).parent_path() / value, file + ": sweep.base");
    } else if (key == "sweep.combine") {
      if (value != "grid" && value != "zip")
        throw CaseError(file + ": sweep.combine: '" + quoted_text(value) + "' is not grid or zip");
      d.combine = value;
    } else if (key == "sweep.keep") {
      if (value != "cases" && value != "table" && value != "stacked")
        throw CaseError(file + ": sweep.keep: '" + quoted_text(value) +
                        "' is not cases, table or stacked (cases: a group per case and the "
                        "summary; table: the summary only; stacked: the summary and the cases' "
                        "series, a row per case)");
      d.keep = value == "cases" ? Keep::cases : value == "table" ? Keep::table : Keep::stacked;
    } else if (key == "sweep.output") {
      d.output = value;
    } else if (key.rfind("set.", 0) == 0) {
      d.fixed.push_back(key.substr(4) + "=" + value);
      d.fixed_sources.push_back(file + " [set]");
    } else if (key.rfind("axes.", 0) == 0) {
      try {
        d.axes.push_back({key.substr(5), axis_values(key.substr(5), value)});
      } catch (const CaseError& e) {
        throw CaseError(file + ": " + e.what());
      }
    } else {
      throw CaseError(
          file + ": unknown key '" + quoted_text(key) +
          "' (sections: [sweep] base, combine, output, keep; [set] and [axes] case keys)");
    }
  }
}

// Each key once: in [set], in [axes] or with --set. A key that changes nothing in a sweep
// would give cases that differ in name only.
void check_each_key_once(const SweepDefinition& d, const std::string& file) {
  std::map<std::string, std::string> given;  // key: where
  auto check_key = [&](const std::string& key, const std::string& where) {
    if (const std::string why = changes_nothing(key); !why.empty())
      throw CaseError(where + " " + quoted_text(key) +
                      ": the key changes nothing in a sweep: " + why);
    if (const auto [it, added] = given.emplace(key, where); !added)
      throw CaseError(it->second + " and " + where + ": " + quoted_text(key) +
                      " is given in both; a key is set for every case or swept, once");
  };
  for (std::size_t k = 0; k < d.fixed.size(); ++k)
    check_key(trimmed(d.fixed[k].substr(0, d.fixed[k].find('='))), d.fixed_sources[k]);
  for (const Axis& a : d.axes) check_key(a.key, file + " [axes]");
}

// The cases, each the values of the axes: the full grid (first axis slowest) or the axes
// zipped.
std::vector<std::vector<std::string>> sweep_cases(const SweepDefinition& d,
                                                  const std::string& file) {
  std::vector<std::vector<std::string>> cases;
  if (d.axes.empty()) {
    cases.push_back({});
  } else if (d.combine == "zip") {
    const std::size_t n = d.axes.front().values.size();
    for (const auto& a : d.axes)
      if (a.values.size() != n)
        throw CaseError(file + ": axes." + quoted_text(a.key) + ": " +
                        std::to_string(a.values.size()) +
                        " values, but zipped axes need the same count (" + std::to_string(n) + ")");
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<std::string> c;
      for (const auto& a : d.axes) c.push_back(a.values[k]);
      cases.push_back(c);
    }
  } else {
    const std::size_t total = grid_size(file, d.axes);
    cases.reserve(total);
    for (std::size_t k = 0; k < total; ++k) {
      std::vector<std::string> c(d.axes.size());
      std::size_t rest = k;
      for (std::size_t a = d.axes.size(); a-- > 0;) {
        c[a] = d.axes[a].values[rest % d.axes[a].values.size()];
        rest /= d.axes[a].values.size();
      }
      cases.push_back(c);
    }
  }
  return cases;
}

}  // namespace

SweepDefinition read_sweep(const std::string& path, const std::vector<std::string>& extra_fixed) {
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw CaseError("sweep file '" + quoted_path(path) + "' " + problem);
  std::ifstream in(path);
  if (!in) throw CaseError("cannot read sweep file '" + quoted_path(path) + "'");
  std::stringstream text;
  text << in.rdbuf();
  SweepDefinition d = parse_sweep(text.str(), path, extra_fixed);
  // The base case is read for every case and for the sweep's signature: refused here, once.
  if (const std::string problem = input_file_problem(d.base); !problem.empty())
    throw CaseError(quoted_path(path) + ": sweep.base: '" + quoted_path(d.base) + "' " + problem);
  return d;
}

SweepDefinition parse_sweep(const std::string& text, const std::string& path,
                            const std::vector<std::string>& extra_fixed) {
  const std::string file = quoted_path(path);  // as messages name it
  SweepDefinition d;
  d.path = resolved_path(path, "sweep file");
  d.name = file;
  d.text = text_lines(text);
  read_sweep_keys(sweep_file_options(d.text, file), path, file, d);
  if (d.base.empty()) throw CaseError(file + ": sweep.base is missing (the base case file)");
  d.fixed_sources.resize(d.fixed.size(), file + " [set]");
  for (const std::string& setting : extra_fixed) {
    const auto [key, value] = split_setting("--set", setting);
    // --set overrides the file's [set], as run's --set overrides its case file; a key swept in
    // [axes], or given twice with --set, is still refused (check_each_key_once).
    const auto same = std::find_if(d.fixed.begin(), d.fixed.end(), [&](const std::string& f) {
      return trimmed(f.substr(0, f.find('='))) == key;
    });
    const auto at = static_cast<std::size_t>(same - d.fixed.begin());
    if (same != d.fixed.end() && d.fixed_sources[at] != "--set") {
      *same = key + "=" + value;
      d.fixed_sources[at] = "--set";
      continue;
    }
    d.fixed.push_back(key + "=" + value);
    d.fixed_sources.push_back("--set");
  }
  check_each_key_once(d, file);
  d.cases = sweep_cases(d, file);
  return d;
}

std::vector<std::string> case_overrides(const SweepDefinition& d, std::size_t k) {
  std::vector<std::string> o = d.fixed;
  for (std::size_t a = 0; a < d.axes.size(); ++a) o.push_back(d.axes[a].key + "=" + d.cases[k][a]);
  // Parallelism is across cases.
  o.push_back(key_name(&CaseSpec::simulation, &SimulationSpec::threads) + "=1");
  return o;
}

std::vector<std::string> case_sources(const SweepDefinition& d) {
  std::vector<std::string> s = d.fixed_sources;
  s.resize(d.fixed.size() + d.axes.size(), d.name + " [axes]");
  s.push_back("the sweep (one thread per case)");
  return s;
}

std::string case_label(const SweepDefinition& d, std::size_t k) {
  std::string s = "case " + std::to_string(k);
  for (std::size_t a = 0; a < d.axes.size(); ++a)
    s += (a ? ", " : " (") + quoted_text(d.axes[a].key) + "=" + quoted_text(d.cases[k][a]);
  return d.axes.empty() ? s : s + ")";
}

std::string case_name(std::size_t k) {
  std::ostringstream s;
  s << "case-" << std::setw(6) << std::setfill('0') << k;
  return s.str();
}

// What identifies a sweep: a rerun may resume only the same sweep.
std::string signature(const SweepDefinition& d) {
  std::ifstream base(d.base);
  std::stringstream s;
  s << "chaindem " << version << "\n"
    << d.text << "\n--- base " << d.base << "\n"
    << base.rdbuf() << "\n--- overrides\n";
  for (const auto& f : d.fixed) s << f << "\n";
  if (!d.unset.empty()) s << "--- unset\n";  // a sweep without --unset keeps its signature
  for (const auto& key : d.unset) s << key << "\n";
  return s.str();
}

}  // namespace chaindem::sweep
