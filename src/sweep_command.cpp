#include "chaindem/sweep_command.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "chaindem/case_runner.hpp"
#include "chaindem/version.hpp"
#include "hdf5_util.hpp"

#ifdef CHAINDEM_WITH_MPI
#include <mpi.h>
#endif

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace chaindem {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct Axis {
  std::string key;                  // case key, section.name
  std::vector<std::string> values;  // as text
};

struct SweepDefinition {
  std::string path, text;
  std::string base;  // base case file, resolved against the sweep file's folder
  std::string combine = "grid";
  std::string output;
  std::vector<std::string> fixed;  // "key=value" applied to every case
  std::vector<Axis> axes;
  std::vector<std::vector<std::string>> cases;  // per case: the axis values
};

std::string format_number(double x) {
  std::ostringstream s;
  s << std::setprecision(12) << x;
  return s.str();
}

// "a, b, c" or "start:stop:step" (inclusive).
std::vector<std::string> axis_values(const std::string& key, const std::string& text) {
  std::vector<std::string> out;
  if (text.find(':') != std::string::npos && text.find(',') == std::string::npos) {
    std::vector<double> parts;
    std::stringstream s(text);
    std::string item;
    while (std::getline(s, item, ':')) {
      try {
        std::size_t used = 0;
        parts.push_back(std::stod(item, &used));
      } catch (const std::exception&) {
        throw CaseError("axes." + key + ": '" + text + "' is not start:stop:step");
      }
    }
    if (parts.size() != 3 || !(parts[2] > 0) || parts[1] < parts[0])
      throw CaseError("axes." + key + ": '" + text + "' is not start:stop:step with step > 0");
    const auto n = static_cast<long>(std::floor((parts[1] - parts[0]) / parts[2] + 1e-9)) + 1;
    if (n > 1000000) throw CaseError("axes." + key + ": more than 1e6 values");
    for (long k = 0; k < n; ++k)
      out.push_back(format_number(parts[0] + static_cast<double>(k) * parts[2]));
    return out;
  }
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    const auto e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  if (out.empty()) throw CaseError("axes." + key + ": no values");
  return out;
}

SweepDefinition read_sweep(const std::string& path, const std::vector<std::string>& extra_fixed) {
  SweepDefinition d;
  d.path = path;
  std::ifstream in(path);
  if (!in) throw CaseError("cannot read sweep file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  d.text = text.str();
  std::istringstream s(d.text);
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::parse_config_file(s, po::options_description(), true);
  } catch (const po::error& e) {
    throw CaseError(path + ": " + e.what());
  }
  std::set<std::string> seen;
  for (const auto& opt : parsed.options) {
    const std::string& key = opt.string_key;
    const std::string value = opt.value.empty() ? "" : opt.value.front();
    if (!seen.insert(key).second) throw CaseError(path + ": key '" + key + "' is given twice");
    if (key == "sweep.base") {
      d.base = (fs::path(path).parent_path() / value).string();
    } else if (key == "sweep.combine") {
      if (value != "grid" && value != "zip")
        throw CaseError(path + ": sweep.combine: '" + value + "' is not grid or zip");
      d.combine = value;
    } else if (key == "sweep.output") {
      d.output = value;
    } else if (key.rfind("set.", 0) == 0) {
      d.fixed.push_back(key.substr(4) + "=" + value);
    } else if (key.rfind("axes.", 0) == 0) {
      d.axes.push_back({key.substr(5), axis_values(key.substr(5), value)});
    } else {
      throw CaseError(path + ": unknown key '" + key +
                      "' (sections: [sweep] base, combine, output; [set] and [axes] case keys)");
    }
  }
  if (d.base.empty()) throw CaseError(path + ": sweep.base is missing (the base case file)");
  d.fixed.insert(d.fixed.end(), extra_fixed.begin(), extra_fixed.end());
  if (d.output.empty()) d.output = fs::path(path).stem().string() + ".h5";

  // Cases: the full grid (first axis slowest) or the axes zipped.
  if (d.axes.empty()) {
    d.cases.push_back({});
  } else if (d.combine == "zip") {
    const std::size_t n = d.axes.front().values.size();
    for (const auto& a : d.axes)
      if (a.values.size() != n)
        throw CaseError(path + ": axes." + a.key + ": " + std::to_string(a.values.size()) +
                        " values, but zipped axes need the same count (" + std::to_string(n) + ")");
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<std::string> c;
      for (const auto& a : d.axes) c.push_back(a.values[k]);
      d.cases.push_back(c);
    }
  } else {
    std::size_t total = 1;
    for (const auto& a : d.axes) total *= a.values.size();
    if (total > 10000000) throw CaseError(path + ": more than 1e7 cases");
    for (std::size_t k = 0; k < total; ++k) {
      std::vector<std::string> c(d.axes.size());
      std::size_t rest = k;
      for (std::size_t a = d.axes.size(); a-- > 0;) {
        c[a] = d.axes[a].values[rest % d.axes[a].values.size()];
        rest /= d.axes[a].values.size();
      }
      d.cases.push_back(c);
    }
  }
  return d;
}

std::vector<std::string> case_overrides(const SweepDefinition& d, std::size_t k) {
  std::vector<std::string> o = d.fixed;
  for (std::size_t a = 0; a < d.axes.size(); ++a) o.push_back(d.axes[a].key + "=" + d.cases[k][a]);
  o.push_back("simulation.threads=1");  // parallelism is across cases
  return o;
}

std::string case_label(const SweepDefinition& d, std::size_t k) {
  std::string s = "case " + std::to_string(k);
  for (std::size_t a = 0; a < d.axes.size(); ++a)
    s += (a ? ", " : " (") + d.axes[a].key + "=" + d.cases[k][a];
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
  return s.str();
}

// Results of one finished case, read back from its file.
struct CaseRecord {
  std::string status = "missing";
  std::map<std::string, double> scalars;
  std::map<std::string, std::vector<double>> arrays;
};

CaseRecord read_case(const std::string& path) {
  using namespace hdf5;
  CaseRecord r;
  Handle file(check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + path), H5Fclose);
  Handle summary(check(H5Gopen2(file.get(), "summary", H5P_DEFAULT), "summary of " + path),
                 H5Gclose);
  H5O_info_t info;
  check_status(H5Oget_info(summary.get(), &info), "summary info");
  for (hsize_t a = 0; a < info.num_attrs; ++a) {
    Handle attr(check(H5Aopen_by_idx(summary.get(), ".", H5_INDEX_NAME, H5_ITER_INC, a, H5P_DEFAULT,
                                     H5P_DEFAULT),
                      "attribute"),
                H5Aclose);
    char name[256] = {};
    H5Aget_name(attr.get(), sizeof(name), name);
    double value = nan;
    check_status(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value), "read attribute");
    r.scalars[name] = value;
  }
  for (const char* name : {"max_contact_force", "arrival_beads", "arrival_time"}) {
    Handle d(check(H5Dopen2(summary.get(), name, H5P_DEFAULT), name), H5Dclose);
    Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
    const auto n = H5Sget_simple_extent_npoints(space.get());
    std::vector<double> v(static_cast<std::size_t>(n));
    if (n > 0)
      check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                   name);
    r.arrays[name] = v;
  }
  r.status = "ok";
  return r;
}

void write_string_column(hid_t group, const std::string& name,
                         const std::vector<std::string>& values) {
  using namespace hdf5;
  Handle type(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  check_status(H5Tset_size(type.get(), H5T_VARIABLE), "string size");
  check_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "charset");
  const hsize_t n = values.size();
  Handle space(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle d(check(H5Dcreate2(group, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT),
                 "dataset " + name),
           H5Dclose);
  std::vector<const char*> p;
  for (const auto& v : values) p.push_back(v.c_str());
  if (n > 0)
    check_status(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()), name);
}

bool numeric(const std::vector<std::string>& values) {
  for (const auto& v : values) {
    try {
      std::size_t used = 0;
      std::stod(v, &used);
      if (used != v.size()) return false;
    } catch (const std::exception&) {
      return false;
    }
  }
  return true;
}

// Rank 0: every case file into one HDF5 file, plus the sweep definition and the summary table.
void merge(const SweepDefinition& d, const fs::path& work, const std::string& output,
           const std::vector<CaseRecord>& records) {
  using namespace hdf5;
  const std::string partial = output + ".partial";
  {
    Handle file(check(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                      "cannot create '" + partial + "'"),
                H5Fclose);
    const hid_t f = file.get();
    {
      Handle h5md = group(f, "h5md");
      attr_numbers<int>(h5md.get(), "version", {1, 1}, H5T_NATIVE_INT);
      Handle author = group(h5md.get(), "author");
      const char* user = std::getenv("USER");
      attr_fixed_strings(author.get(), "name", {user ? user : "unknown"}, true);
      Handle creator = group(h5md.get(), "creator");
      attr_fixed_strings(creator.get(), "name", {"chaindem"}, true);
      attr_fixed_strings(creator.get(), "version", {version}, true);
    }
    {
      Handle sweep = group(f, "sweep");
      dataset_string(sweep.get(), "sweep_file", d.text);
      std::ifstream base(d.base);
      std::stringstream base_text;
      base_text << base.rdbuf();
      dataset_string(sweep.get(), "base_case_file", base_text.str());
      attr_string(sweep.get(), "base", d.base);
      attr_string(sweep.get(), "combine", d.combine);
      std::vector<std::string> fixed = d.fixed;
      if (fixed.empty()) fixed.push_back("");
      attr_strings(sweep.get(), "fixed", fixed);
      Handle axes = group(sweep.get(), "axes");
      for (const auto& a : d.axes) write_string_column(axes.get(), a.key, a.values);
    }
    Handle cases = group(f, "cases");
    for (std::size_t k = 0; k < d.cases.size(); ++k) {
      if (records[k].status != "ok") continue;
      const std::string src_path = (work / (case_name(k) + ".h5")).string();
      Handle src(check(H5Fopen(src_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + src_path),
                 H5Fclose);
      Handle dst = group(cases.get(), case_name(k));
      for (const char* name :
           {"h5md", "particles", "observables", "contacts", "walls", "parameters", "summary"})
        if (H5Lexists(src.get(), name, H5P_DEFAULT) > 0)
          check_status(H5Ocopy(src.get(), name, dst.get(), name, H5P_DEFAULT, H5P_DEFAULT),
                       "copy " + src_path + ":/" + name);
    }
    // The summary table: one row per case.
    Handle summary = group(f, "summary");
    const auto n = static_cast<hsize_t>(d.cases.size());
    std::vector<std::int64_t> index(d.cases.size());
    for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::int64_t>(k);
    dataset_fixed(summary.get(), "case", {n}, index.data(), H5T_NATIVE_INT64);
    for (std::size_t a = 0; a < d.axes.size(); ++a) {
      std::vector<std::string> column;
      for (const auto& c : d.cases) column.push_back(c[a]);
      if (numeric(column)) {
        std::vector<double> x;
        for (const auto& v : column) x.push_back(std::stod(v));
        dataset_fixed(summary.get(), d.axes[a].key, {n}, x.data(), H5T_NATIVE_DOUBLE);
      } else {
        write_string_column(summary.get(), d.axes[a].key, column);
      }
    }
    std::set<std::string> scalar_names;
    for (const auto& r : records)
      for (const auto& [name, value] : r.scalars) scalar_names.insert(name);
    for (const auto& name : scalar_names) {
      std::vector<double> column;
      for (const auto& r : records) {
        const auto it = r.scalars.find(name);
        column.push_back(it == r.scalars.end() ? nan : it->second);
      }
      dataset_fixed(summary.get(), name, {n}, column.data(), H5T_NATIVE_DOUBLE);
    }
    for (const char* name : {"max_contact_force", "arrival_beads", "arrival_time"}) {
      std::size_t width = 1;
      for (const auto& r : records)
        if (r.arrays.count(name)) width = std::max(width, r.arrays.at(name).size());
      std::vector<double> table(d.cases.size() * width, nan);
      for (std::size_t k = 0; k < records.size(); ++k)
        if (records[k].arrays.count(name)) {
          const auto& v = records[k].arrays.at(name);
          std::copy(v.begin(), v.end(), table.begin() + static_cast<long>(k * width));
        }
      dataset_fixed(summary.get(), name, {n, static_cast<hsize_t>(width)}, table.data(),
                    H5T_NATIVE_DOUBLE);
    }
    std::vector<std::string> status;
    for (const auto& r : records) status.push_back(r.status);
    write_string_column(summary.get(), "status", status);
    attr_string(f, "chaindem_status", "complete");
  }
  fs::rename(partial, output);
}

class SweepProgress {
 public:
  SweepProgress(std::ostream* out, std::size_t total)
      : out_(out),
        total_(total),
        tty_(isatty(STDERR_FILENO) != 0),
        start_(Clock::now()),
        last_(start_) {}
  void done_one() {
    const std::size_t done = ++done_;
    if (!out_) return;
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    if (done != total_ && std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.25 : 10.0))
      return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = static_cast<double>(done) / std::max(elapsed, 1e-9);
    const double eta = static_cast<double>(total_ - done) / std::max(rate, 1e-9);
    std::ostringstream line;
    if (tty_) {
      const int width = 30,
                filled = static_cast<int>(width * done / std::max<std::size_t>(total_, 1));
      line << "\r[" << std::string(static_cast<std::size_t>(filled), '=')
           << std::string(static_cast<std::size_t>(width - filled), ' ') << "] ";
    } else {
      line << "sweep: ";
    }
    line << done << "/" << total_ << " cases, " << std::fixed << std::setprecision(1) << rate
         << " cases/s, ETA " << std::setprecision(0) << eta << " s";
    *out_ << line.str() << (tty_ ? (done == total_ ? "\n" : "") : "\n") << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream* out_;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
  bool tty_;
  Clock::time_point start_, last_;
  std::mutex mutex_;
};

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  int rank = 0, ranks = 1;
#ifdef CHAINDEM_WITH_MPI
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  struct Finalize {
    ~Finalize() { MPI_Finalize(); }
  } finalize;
  auto all_max = [](int x) {
    int y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return y;
  };
#else
  auto all_max = [](int x) { return x; };
#endif
  std::ostream* log = rank == 0 ? &err : nullptr;

  po::options_description desc("chaindem sweep options");
  std::string sweep_path, output;
  std::vector<std::string> sets;
  int threads = 0;
  bool quiet = false, keep = false;
  desc.add_options()("help,h", "this help")(
      "output,o", po::value(&output), "output HDF5 file (default: sweep.output, or SWEEP.h5)")(
      "threads", po::value(&threads), "OpenMP threads (default: OMP_NUM_THREADS or all cores)")(
      "set", po::value(&sets)->composing(), "a case key for every case: --set section.key=value")(
      "keep-cases", po::bool_switch(&keep), "keep the per-case files after the merge")(
      "quiet,q", po::bool_switch(&quiet), "no progress");
  po::options_description hidden;
  hidden.add_options()("sweep", po::value(&sweep_path));
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("sweep", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    if (log) *log << "chaindem sweep: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    if (rank == 0)
      out << "usage: chaindem sweep SWEEP.ini [-o OUT.h5] [--threads N] [--set key=value ...]\n"
             "       mpirun -np R chaindem sweep SWEEP.ini   (when built with "
             "-DCHAINDEM_MPI=ON)\n\n"
             "SWEEP.ini:\n"
             "  [sweep]  base = CASE.ini (relative to SWEEP.ini); combine = grid | zip;\n"
             "           output = OUT.h5\n"
             "  [set]    case keys for every case, e.g. chain.count = 10\n"
             "  [axes]   one swept case key per line: a list 'a, b, c' or a range\n"
             "           'start:stop:step' (inclusive), e.g. contact.restitution = 0.1:1:0.1\n\n"
             "Runs every case single-threaded, in parallel over OpenMP threads (and MPI ranks),\n"
             "each into OUT.h5.cases/case-NNNNNN.h5; rerunning the same command skips finished\n"
             "cases. Then writes OUT.h5: /cases/case-NNNNNN (the layout of `chaindem run`),\n"
             "/sweep (the definition) and /summary (one row per case). docs/sweeps.md.\n\n"
          << desc;
    return 0;
  }
  if (sweep_path.empty()) {
    if (log) *log << "chaindem sweep: missing SWEEP.ini\n";
    return 2;
  }

  // Read and validate every case before running any.
  SweepDefinition d;
  try {
    d = read_sweep(sweep_path, sets);
    if (!output.empty()) d.output = output;
    for (std::size_t k = 0; k < d.cases.size(); ++k) {
      try {
        build_run(CaseConfig::load(d.base, case_overrides(d, k)));
      } catch (const CaseError& e) {
        throw CaseError(case_label(d, k) + ": " + e.what());
      }
    }
  } catch (const CaseError& e) {
    if (log) *log << "chaindem sweep: invalid input: " << e.what() << "\n";
    return 2;
  }

  const fs::path work = d.output + ".cases";
  const std::string sig = signature(d);
  int setup_error = 0;
  if (rank == 0) {
    std::error_code ec;
    fs::create_directories(work, ec);
    const fs::path sig_file = work / "sweep-signature.txt";
    if (fs::exists(sig_file)) {
      std::ifstream in(sig_file);
      std::stringstream old;
      old << in.rdbuf();
      if (old.str() != sig) {
        err << "chaindem sweep: " << work.string()
            << " holds cases of a different sweep (the sweep file, base case, overrides or "
               "chaindem version changed); remove it or choose another output\n";
        setup_error = 2;
      }
    } else {
      std::ofstream(sig_file) << sig;
    }
  }
#ifdef CHAINDEM_WITH_MPI
  MPI_Bcast(&setup_error, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  if (setup_error) return setup_error;

  // This rank's cases that are not finished yet.
  std::vector<std::size_t> todo;
  std::size_t finished = 0;
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    if (fs::exists(work / (case_name(k) + ".h5"))) {
      ++finished;
      continue;
    }
    if (k % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank)) todo.push_back(k);
  }
  if (log && !quiet)
    *log << "chaindem sweep: " << d.cases.size() << " cases, " << finished << " already finished, "
         << d.cases.size() - finished << " to run on " << ranks << " rank(s)" << std::endl;

  install_stop_handlers();
  const volatile std::sig_atomic_t& stop_signal = *stop_flag();
  if (threads <= 0) threads = omp_get_max_threads();
  SweepProgress progress(quiet ? nullptr : log, todo.size());
  std::vector<std::string> failures(d.cases.size());
  int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : failed)
  for (std::size_t t = 0; t < todo.size(); ++t) {
    const std::size_t k = todo[t];
    if (stop_signal) continue;
    try {
      const CaseConfig cfg = CaseConfig::load(d.base, case_overrides(d, k));
      run_to_file(cfg, build_run(cfg), (work / (case_name(k) + ".h5")).string(),
                  RunControl{nullptr, stop_flag()});
      progress.done_one();
    } catch (const Interrupted&) {
    } catch (const std::exception& e) {
      failures[k] = e.what();
      ++failed;
      progress.done_one();
    }
  }
  const int interrupted = all_max(stop_signal);
  if (interrupted) {
    if (log)
      *log << "chaindem sweep: interrupted by signal " << interrupted
           << "; finished cases are kept in " << work.string()
           << ", run the same command to resume\n";
    return 128 + interrupted;
  }
#ifdef CHAINDEM_WITH_MPI
  MPI_Barrier(MPI_COMM_WORLD);
  // Failure messages travel as one string per case to rank 0.
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const int owner = static_cast<int>(k % static_cast<std::size_t>(ranks));
    if (owner == 0) continue;
    if (rank == owner) {
      const int len = static_cast<int>(failures[k].size());
      MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      if (len) MPI_Send(failures[k].data(), len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
      int len = 0;
      MPI_Recv(&len, 1, MPI_INT, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      failures[k].resize(static_cast<std::size_t>(len));
      if (len)
        MPI_Recv(failures[k].data(), len, MPI_CHAR, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  failed = all_max(failed);
#endif
  if (rank != 0) return failed ? 1 : 0;

  // Merge: read every case back, write OUT.h5, remove the per-case files.
  std::vector<CaseRecord> records(d.cases.size());
  int failed_cases = 0;
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const fs::path f = work / (case_name(k) + ".h5");
    if (fs::exists(f)) {
      records[k] = read_case(f.string());
    } else {
      records[k].status = "failed: " + failures[k];
      ++failed_cases;
      err << "chaindem sweep: " << case_label(d, k) << " failed: " << failures[k] << "\n";
    }
  }
  try {
    merge(d, work, d.output, records);
  } catch (const std::exception& e) {
    err << "chaindem sweep: error: " << e.what() << "\n";
    return 1;
  }
  if (!keep && failed_cases == 0) fs::remove_all(work);
  if (!quiet)
    out << "chaindem sweep " << sweep_path << " -> " << d.output << ": " << d.cases.size()
        << " cases (" << d.cases.size() - failed_cases << " ok, " << failed_cases << " failed)\n";
  return failed_cases ? 1 : 0;
}

}  // namespace chaindem
