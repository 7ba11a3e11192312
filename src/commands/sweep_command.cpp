#include "chaindem/commands/sweep_command.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/progress.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/io/hdf5_util.hpp"
#include "chaindem/version.hpp"

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
        if (item.find_first_not_of(" \t", used) != std::string::npos)
          throw std::invalid_argument(item);
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
  d.path = fs::weakly_canonical(path).string();
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
      d.base = fs::weakly_canonical(fs::path(path).parent_path() / value).string();
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

// The string value of attribute `name` of `object`, or "" if it has none.
std::string read_string_attr(hid_t object, const char* name) {
  using namespace hdf5;
  if (H5Aexists(object, name) <= 0) return "";
  Handle attr(check(H5Aopen(object, name, H5P_DEFAULT), name), H5Aclose);
  Handle type(check(H5Aget_type(attr.get()), "type"), H5Tclose);
  if (H5Tis_variable_str(type.get()) > 0) {
    char* value = nullptr;
    Handle memtype(check(H5Tcopy(H5T_C_S1), "type"), H5Tclose);
    H5Tset_size(memtype.get(), H5T_VARIABLE);
    H5Tset_cset(memtype.get(), H5T_CSET_UTF8);
    check_status(H5Aread(attr.get(), memtype.get(), &value), name);
    std::string out = value ? value : "";
    H5free_memory(value);
    return out;
  }
  return "";
}

// Results of one finished case, read back from its file.
struct CaseRecord {
  std::string status = "missing";
  std::map<std::string, double> scalars;
  std::map<std::string, std::string> texts;
  std::map<std::string, std::vector<double>> arrays;
};

CaseRecord read_case(hid_t file, const std::string& case_group) {
  using namespace hdf5;
  CaseRecord r;
  const std::string path = case_group + "/summary";
  Handle summary(check(H5Gopen2(file, path.c_str(), H5P_DEFAULT), path), H5Gclose);
  H5O_info_t info;
  check_status(H5Oget_info(summary.get(), &info), "summary info");
  for (hsize_t a = 0; a < info.num_attrs; ++a) {
    Handle attr(check(H5Aopen_by_idx(summary.get(), ".", H5_INDEX_NAME, H5_ITER_INC, a, H5P_DEFAULT,
                                     H5P_DEFAULT),
                      "attribute"),
                H5Aclose);
    char name[256] = {};
    H5Aget_name(attr.get(), sizeof(name), name);
    Handle type(check(H5Aget_type(attr.get()), "type"), H5Tclose);
    if (H5Tget_class(type.get()) == H5T_STRING) {
      r.texts[name] = read_string_attr(summary.get(), name);
      continue;
    }
    double value = nan;
    check_status(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value), "read attribute");
    r.scalars[name] = value;
  }
  for (const char* name : {"max_contact_force", "peak_velocity", "arrival_beads", "arrival_time"}) {
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

// A new sweep file: H5MD metadata, the sweep definition (with the signature a resume checks),
// and the group the cases go into.
void write_definition(hid_t f, const SweepDefinition& d, const std::string& signature) {
  using namespace hdf5;
  write_h5md_metadata(f, version);
  Handle sweep = group(f, "sweep");
  dataset_string(sweep.get(), "sweep_file", d.text);
  std::ifstream base(d.base);
  std::stringstream base_text;
  base_text << base.rdbuf();
  dataset_string(sweep.get(), "base_case_file", base_text.str());
  attr_string(sweep.get(), "base", d.base);
  attr_string(sweep.get(), "combine", d.combine);
  attr_string(sweep.get(), "signature", signature);
  std::vector<std::string> fixed = d.fixed;
  if (fixed.empty()) fixed.push_back("");
  attr_strings(sweep.get(), "fixed", fixed);
  Handle axes = group(sweep.get(), "axes");
  for (const auto& a : d.axes) write_string_column(axes.get(), a.key, a.values);
  group(f, "cases");
}

// The summary table: one row per case, read back from the cases' own /summary groups.
void write_summary(hid_t f, const SweepDefinition& d, const std::vector<CaseRecord>& records) {
  using namespace hdf5;
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
  std::set<std::string> text_names;
  for (const auto& r : records)
    for (const auto& [name, value] : r.texts) text_names.insert(name);
  for (const auto& name : text_names) {
    std::vector<std::string> column;
    for (const auto& r : records) {
      const auto it = r.texts.find(name);
      column.push_back(it == r.texts.end() ? "" : it->second);
    }
    write_string_column(summary.get(), name, column);
  }
  for (const char* name : {"max_contact_force", "peak_velocity", "arrival_beads", "arrival_time"}) {
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
}

// The MPI ranks of this run. MPI starts only when a launcher (mpirun, mpiexec, srun) started
// the process: a plain `chaindem sweep` then skips MPI_Init, which costs ~0.4 s (hardware
// discovery) and would be pure serial overhead. CHAINDEM_MPI=1 forces it.
class Ranks {
 public:
  int rank = 0, size = 1;
#ifdef CHAINDEM_WITH_MPI
  Ranks() : active_(launched_by_mpi()) {
    if (!active_) return;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  ~Ranks() {
    if (active_) MPI_Finalize();
  }
  int max(int x) const {
    return reduce(x, MPI_MAX);
  }
  int sum(int x) const {
    return reduce(x, MPI_SUM);
  }
  void barrier() const {
    if (active_) MPI_Barrier(MPI_COMM_WORLD);
  }
  /// Moves `text` from rank `owner` to rank 0 (other ranks do nothing).
  void gather_string(int owner, std::string& text) const {
    if (!active_ || owner == 0) return;
    if (rank == owner) {
      const int len = static_cast<int>(text.size());
      MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
      if (len) MPI_Send(text.data(), len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
      int len = 0;
      MPI_Recv(&len, 1, MPI_INT, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      text.resize(static_cast<std::size_t>(len));
      if (len) MPI_Recv(text.data(), len, MPI_CHAR, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }

 private:
  static bool launched_by_mpi() {
    auto set = [](const char* name) {
      const char* value = std::getenv(name);
      return value != nullptr && *value != '\0';
    };
    if (set("CHAINDEM_MPI")) return std::string_view(std::getenv("CHAINDEM_MPI")) != "0";
    // Open MPI, PMIx and PMI (MPICH, Intel MPI, srun --mpi=pmi2), MVAPICH, Hydra and Cray ALPS
    // launchers; srun of several tasks.
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                             "MV2_COMM_WORLD_SIZE", "MPI_LOCALNRANKS", "ALPS_APP_PE"})
      if (set(name)) return true;
    return set("SLURM_STEP_NUM_TASKS") && std::atoi(std::getenv("SLURM_STEP_NUM_TASKS")) > 1;
  }
  int reduce(int x, MPI_Op op) const {
    if (!active_) return x;
    int y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD);
    return y;
  }
  bool active_;

 public:
  bool active() const {
    return active_;
  }
#else
  bool active() const {
    return false;
  }
  int max(int x) const {
    return x;
  }
  int sum(int x) const {
    return x;
  }
  void barrier() const {}
  void gather_string(int, std::string&) const {}
#endif
};

// Which case a free thread runs next. Longest first (cost: steps x particles), so that no thread
// is left computing a long case at the end while the others idle; but when the writer has
// nothing queued, a thread takes the shortest case left if that case computes in less time than
// a case takes to write (both measured as the sweep goes). Such cases, all left for the end,
// would queue up behind the one writer (HDF5 is serial) while the other threads wait at the
// end: a sweep of small cases whose output takes about as long to write as to compute left one
// of two threads idle for a fifth of the run. Fed to the writer whenever it would otherwise
// wait, they keep it busy from the start. A sweep whose cases compute for much longer than they
// take to write runs longest first throughout.
class CaseOrder {
 public:
  /// `todo`: case indices, longest first.
  CaseOrder(std::vector<std::size_t> todo, const std::vector<double>& cost)
      : todo_(std::move(todo)), cost_(cost), back_(todo_.size()) {}

  std::optional<std::size_t> next(bool writer_idle) {
    std::lock_guard lock(mutex_);
    if (front_ == back_) return std::nullopt;
    const bool feed_writer = writer_idle && written_ > 0 && computed_cost_ > 0.0 &&
                             cost_[todo_[back_ - 1]] * computed_seconds_ / computed_cost_ <
                                 writing_seconds_ / static_cast<double>(written_);
    return feed_writer ? todo_[--back_] : todo_[front_++];
  }
  void computed(std::size_t k, double seconds) {
    std::lock_guard lock(mutex_);
    computed_cost_ += cost_[k];
    computed_seconds_ += seconds;
  }
  void written(double seconds) {
    std::lock_guard lock(mutex_);
    ++written_;
    writing_seconds_ += seconds;
  }

 private:
  std::mutex mutex_;
  std::vector<std::size_t> todo_;
  const std::vector<double>& cost_;
  std::size_t front_ = 0, back_;
  double computed_cost_ = 0.0, computed_seconds_ = 0.0, writing_seconds_ = 0.0;
  std::size_t written_ = 0;
};

// A case that has been computed, waiting for its output to be written.
struct FinishedCase {
  std::size_t index;
  PendingRun run;
};

// Finished cases wait here for their (serialised) HDF5 writes. The thread that queues a case
// writes everything queued if no other thread is writing, and otherwise goes back to computing:
// no thread sits idle waiting for the file while another writes, which is what kept two threads
// from doubling the throughput of small cases. Only past `limit` queued bytes (memory) does a
// thread wait its turn to write. The bound is in bytes, not cases: a sweep of small cases whose
// writes take about as long as their computation queues dozens of them at times, and a bound of
// a few cases made the computing threads wait for the writer for a third of the run.
template <class Job>
class WriteQueue {
 public:
  WriteQueue(std::function<void(Job&)> write, std::size_t limit)
      : write_(std::move(write)), limit_(limit) {}

  void push(Job job, std::size_t bytes) {
    bool full = false;
    {
      std::lock_guard lock(queue_mutex_);
      jobs_.push_back({std::move(job), bytes});
      queued_bytes_ += bytes;
      full = queued_bytes_ > limit_;
    }
    drain(full);
  }

  /// Nothing is queued: the writer is idle or writes its last job.
  bool empty() {
    std::lock_guard lock(queue_mutex_);
    return jobs_.empty();
  }

  /// Writes what is queued; `wait`: also when another thread is writing (after it).
  void drain(bool wait) {
    std::unique_lock writer(writer_mutex_, std::defer_lock);
    if (wait)
      writer.lock();
    else if (!writer.try_lock())
      return;
    for (;;) {
      std::optional<Queued> queued;
      {
        std::lock_guard lock(queue_mutex_);
        if (jobs_.empty()) {
          // Released while the queue is locked: a job queued from here on finds the writer
          // free (released after the queue, a job queued in between would wait for the next).
          writer.unlock();
          return;
        }
        queued.emplace(std::move(jobs_.front()));
        jobs_.pop_front();
      }
      write_(queued->job);
      std::lock_guard lock(queue_mutex_);
      queued_bytes_ -= queued->bytes;
    }
  }

 private:
  struct Queued {
    Job job;
    std::size_t bytes;
  };
  std::function<void(Job&)> write_;
  std::size_t limit_;
  std::mutex queue_mutex_, writer_mutex_;
  std::deque<Queued> jobs_;
  std::size_t queued_bytes_ = 0;
};

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Ranks mpi;
  const int rank = mpi.rank, ranks = mpi.size;
  auto all_max = [&](int x) { return mpi.max(x); };
  std::ostream* log = rank == 0 ? &err : nullptr;

  po::options_description desc("chaindem sweep options");
  std::string sweep_path, output;
  std::vector<std::string> sets;
  int threads = 0;
  bool quiet = false;
  desc.add_options()("help,h", "this help")(
      "output,o", po::value(&output), "output HDF5 file (default: sweep.output, or SWEEP.h5)")(
      "threads", po::value(&threads), "OpenMP threads (default: OMP_NUM_THREADS or all cores)")(
      "set", po::value(&sets)->composing(), "a case key for every case: --set section.key=value")(
      "quiet,q", po::bool_switch(&quiet), "no progress");
  const auto parsed = parse_command_line(args, desc, &sweep_path, "sweep", log);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
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
             "into OUT.h5.partial; rerunning the same command after an interruption keeps the\n"
             "finished cases. OUT.h5 holds /cases/case-NNNNNN (the layout of `chaindem run`),\n"
             "/sweep (the definition) and /summary (one row per case). docs/sweeps.md.\n\n"
          << desc;
    return 0;
  }
  if (sweep_path.empty()) {
    if (log) *log << "chaindem sweep: missing SWEEP.ini\n";
    return 2;
  }

  // CHAINDEM_SWEEP_TIMING=1 prints how long each phase took (stderr).
  const bool timing = std::getenv("CHAINDEM_SWEEP_TIMING") != nullptr;
  auto phase_start = std::chrono::steady_clock::now();
  auto phase = [&](const char* name) {
    const auto now = std::chrono::steady_clock::now();
    if (timing && log)
      *log << "sweep timing: " << name << " "
           << std::chrono::duration<double>(now - phase_start).count() << " s\n";
    phase_start = now;
  };
  // Read and validate every case before running any.
  SweepDefinition d;
  std::vector<double> cost;
  std::vector<std::optional<CaseConfig>> configs;  // parsed once, kept for the run
  try {
    d = read_sweep(sweep_path, sets);
    if (!output.empty()) d.output = output;
    // In parallel; the first invalid case (lowest index) is reported. Each case's cost
    // (steps x particles) orders the work, longest first, so no thread is left with one long
    // case at the end.
    cost.assign(d.cases.size(), 0.0);
    configs.resize(d.cases.size());
    std::vector<std::string> invalid(d.cases.size());
    const int validate_threads = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 8) num_threads(validate_threads)
    for (std::size_t k = 0; k < d.cases.size(); ++k) {
      try {
        configs[k] = CaseConfig::load(d.base, case_overrides(d, k));
        const RunSetup run = build_run(*configs[k]);
        cost[k] = static_cast<double>(run.steps) * static_cast<double>(run.scene.particles.size());
      } catch (const CaseError& e) {
        invalid[k] = case_label(d, k) + ": " + e.what();
      }
    }
    for (const auto& message : invalid)
      if (!message.empty()) throw CaseError(message);
  } catch (const CaseError& e) {
    if (log) *log << "chaindem sweep: invalid input: " << e.what() << "\n";
    return 2;
  }

  // Each rank writes its cases into its own file: OUT.h5.partial with one rank, else
  // OUT.h5.rankR-of-N.partial, merged by rank 0 at the end. A rerun of the same command reopens
  // it and keeps the cases that completed.
  using namespace hdf5;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const std::string sig = signature(d);
  const std::string mine = ranks == 1 ? d.output + ".partial"
                                      : d.output + ".rank" + std::to_string(rank) + "-of-" +
                                            std::to_string(ranks) + ".partial";
  std::mutex h5;
  Handle file;
  std::set<std::size_t> done;
  std::string problem;
  if (fs::exists(mine)) {
    const hid_t id = H5Fopen(mine.c_str(), H5F_ACC_RDWR, file_access());
    if (id < 0) {
      problem = mine + " cannot be reopened (killed while writing?); delete it to start over";
    } else {
      file = Handle(id, H5Fclose);
      Handle sweep_group(H5Gopen2(id, "sweep", H5P_DEFAULT), H5Gclose);
      if (sweep_group.get() < 0 || read_string_attr(sweep_group.get(), "signature") != sig) {
        problem = mine +
                  " holds cases of a different sweep (the sweep file, base case, overrides or "
                  "chaindem version changed); remove it or choose another output";
      } else {
        // Keep the complete cases, drop any a kill interrupted.
        Handle cases(check(H5Gopen2(id, "cases", H5P_DEFAULT), "cases"), H5Gclose);
        for (std::size_t k = 0; k < d.cases.size(); ++k) {
          const std::string name = case_name(k);
          if (H5Lexists(cases.get(), name.c_str(), H5P_DEFAULT) <= 0) continue;
          Handle g(check(H5Gopen2(cases.get(), name.c_str(), H5P_DEFAULT), name), H5Gclose);
          const bool complete = read_string_attr(g.get(), "chaindem_status") == "complete";
          g.reset();
          if (complete && k % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank))
            done.insert(k);
          else if (!complete)
            H5Ldelete(cases.get(), name.c_str(), H5P_DEFAULT);
        }
      }
    }
  } else {
    file = Handle(check(H5Fcreate(mine.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, file_access()),
                        "cannot create '" + mine + "'"),
                  H5Fclose);
    write_definition(file.get(), d, sig);
    H5Fflush(file.get(), H5F_SCOPE_GLOBAL);
  }
  if (all_max(problem.empty() ? 0 : 1)) {
    if (!problem.empty()) err << "chaindem sweep: " << problem << "\n";
    return 2;
  }
  Handle cases_group(check(H5Gopen2(file.get(), "cases", H5P_DEFAULT), "cases"), H5Gclose);

  phase("validate and open");
  // This rank's cases that are not finished yet.
  std::vector<std::size_t> todo;
  for (std::size_t k = rank; k < d.cases.size(); k += static_cast<std::size_t>(ranks))
    if (!done.count(k)) todo.push_back(k);
  std::stable_sort(todo.begin(), todo.end(),
                   [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
  const int finished = mpi.sum(static_cast<int>(done.size()));
  if (log && !quiet)
    *log << "chaindem sweep: " << d.cases.size() << " cases, " << finished << " already finished, "
         << d.cases.size() - static_cast<std::size_t>(finished) << " to run on " << ranks
         << (mpi.active() ? " MPI rank(s)" : " rank(s)") << std::endl;

  // Which run of the command computed a case (the resume test reads it).
  std::ostringstream session_id;
  session_id << getpid() << "-" << std::chrono::system_clock::now().time_since_epoch().count();
  const std::string session = session_id.str();
  const std::map<std::string, std::string> session_label{{"sweep_session", session}};

  install_stop_handlers();
  const volatile std::sig_atomic_t& stop_signal = *stop_flag();
  if (threads <= 0) threads = omp_get_max_threads();
  Progress progress(quiet ? nullptr : log, static_cast<std::int64_t>(todo.size()), "sweep", "cases",
                    true);
  std::vector<std::string> failures(d.cases.size());
  std::vector<CaseRecord> records(d.cases.size());  // of the cases run now
  auto last_flush = std::chrono::steady_clock::now();
  // A finished case is queued for writing; see WriteQueue. Its group is labelled with this
  // session's id; at most every 5 s, the write flushes the file (a flush costs more as the file
  // grows): a later kill, even SIGKILL, finds a readable file with every case finished before the
  // last flush.
  double writing = 0.0;  // seconds spent writing finished cases (one writer at a time)
  CaseOrder order(todo, cost);
  WriteQueue<FinishedCase> writes(
      [&](FinishedCase& c) {
        const auto write_start = std::chrono::steady_clock::now();
        struct Clocked {
          double& total;
          std::chrono::steady_clock::time_point start;
          ~Clocked() {
            total +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          }
        } clocked{writing, write_start};
        try {
          c.run.commit();
        } catch (const std::exception& e) {
          failures[c.index] = e.what();  // its half-written group goes with the dropped run
          return;
        }
        order.written(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count());
        try {
          std::lock_guard lock(h5);
          const auto now = std::chrono::steady_clock::now();
          if (now - last_flush > std::chrono::seconds(5)) {
            check_status(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "flush " + mine);
            last_flush = now;
          }
          // The summary row, as written (and as read_case would read it back).
          CaseRecord& record = records[c.index];
          record.scalars = c.run.summary().scalars;
          record.texts = c.run.summary().texts;
          record.arrays = summary_arrays(c.run.summary());
          record.status = "ok";
        } catch (const std::exception& e) {
          failures[c.index] = e.what();
        }
      },
      std::size_t{256} << 20);
  // Per thread: seconds computing cases, and seconds in push() (writing, or waiting to).
  std::vector<std::array<double, 2>> thread_time(static_cast<std::size_t>(threads), {0.0, 0.0});
  auto seconds_since = [](std::chrono::steady_clock::time_point& start) {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(start, now)).count();
  };
#pragma omp parallel num_threads(threads)
  {
    auto& clock = thread_time[static_cast<std::size_t>(omp_get_thread_num())];
    while (const std::optional<std::size_t> next = order.next(writes.empty())) {
      if (stop_signal) break;
      const std::size_t k = *next;
      auto start = std::chrono::steady_clock::now();
      try {
        const CaseConfig& cfg = *configs[k];
        PendingRun run = run_to_group(cfg, build_run(cfg), cases_group.get(), case_name(k), &h5,
                                      RunControl{nullptr, stop_flag()}, session_label);
        configs[k].reset();
        const double seconds = seconds_since(start);
        clock[0] += seconds;
        order.computed(k, seconds);
        // Its frames, and a case's fixed share (writer state, metadata, summary).
        const std::size_t bytes = run.buffered_bytes() + (std::size_t{64} << 10);
        writes.push({k, std::move(run)}, bytes);
        clock[1] += seconds_since(start);
      } catch (const Interrupted&) {
      } catch (const std::exception& e) {
        failures[k] = e.what();
      }
      progress.add_one();
    }
  }
  auto drain_start = std::chrono::steady_clock::now();
  writes.drain(true);  // cases finished before a stop signal are kept too
  const double last_writes = seconds_since(drain_start);
  phase("run cases");
  if (timing && log) {
    *log << "sweep timing: of which writing finished cases " << writing << " s\n";
    for (std::size_t t = 0; t < thread_time.size(); ++t)
      *log << "sweep timing: thread " << t << " computing " << thread_time[t][0]
           << " s, writing or waiting to write " << thread_time[t][1] << " s\n";
    *log << "sweep timing: writing what was queued when the last case finished " << last_writes
         << " s\n";
  }
  const int interrupted = all_max(stop_signal);
  if (interrupted) {
    cases_group.reset();
    file.reset();
    if (log)
      *log << "chaindem sweep: interrupted by signal " << interrupted << "; the finished cases are "
           << "kept in " << (ranks == 1 ? mine : d.output + ".rank*.partial")
           << ", run the same command to resume\n";
    return 128 + interrupted;
  }
  // Failure messages travel to rank 0, one string per case.
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const int owner = static_cast<int>(k % static_cast<std::size_t>(ranks));
    if (owner != 0) mpi.gather_string(owner, failures[k]);
  }
  if (rank != 0) {
    cases_group.reset();
    file.reset();
  }
  mpi.barrier();  // every rank's file is closed and complete
  if (rank != 0) {
    bool any_failed = false;
    for (const auto& f : failures) any_failed = any_failed || !f.empty();
    return any_failed ? 1 : 0;
  }

  int failed_cases = 0;
  try {
    // Rank 0 takes the other ranks' cases into its file.
    std::vector<std::string> rank_files;
    for (int r = 1; r < ranks; ++r) {
      const std::string other =
          d.output + ".rank" + std::to_string(r) + "-of-" + std::to_string(ranks) + ".partial";
      rank_files.push_back(other);
      Handle src(check(H5Fopen(other.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + other),
                 H5Fclose);
      for (std::size_t k = static_cast<std::size_t>(r); k < d.cases.size();
           k += static_cast<std::size_t>(ranks)) {
        const std::string name = "cases/" + case_name(k);
        if (H5Lexists(src.get(), "cases", H5P_DEFAULT) > 0 &&
            H5Lexists(src.get(), name.c_str(), H5P_DEFAULT) > 0 &&
            H5Lexists(file.get(), name.c_str(), H5P_DEFAULT) <= 0)
          check_status(
              H5Ocopy(src.get(), name.c_str(), file.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
              "copy " + other + ":/" + name);
      }
    }
    for (std::size_t k = 0; k < d.cases.size(); ++k) {
      const std::string name = "cases/" + case_name(k);
      if (records[k].status == "ok") continue;  // run by this process: its summary is at hand
      if (H5Lexists(file.get(), name.c_str(), H5P_DEFAULT) > 0) {
        records[k] = read_case(file.get(), name);
      } else {
        records[k].status = "failed: " + failures[k];
        ++failed_cases;
        err << "chaindem sweep: " << case_label(d, k) << " failed: " << failures[k] << "\n";
      }
    }
    phase("collect");
    // A summary from an earlier attempt (killed while closing) is rewritten.
    if (H5Lexists(file.get(), "summary", H5P_DEFAULT) > 0)
      H5Ldelete(file.get(), "summary", H5P_DEFAULT);
    write_summary(file.get(), d, records);
    if (H5Aexists(file.get(), "chaindem_status") > 0) H5Adelete(file.get(), "chaindem_status");
    attr_string(file.get(), "chaindem_status", "complete");
    cases_group.reset();
    file.reset();
    fs::rename(mine, d.output);
    for (const auto& f : rank_files) fs::remove(f);
    phase("summary and close");
  } catch (const std::exception& e) {
    err << "chaindem sweep: error: " << e.what() << "\n";
    return 1;
  }
  if (!quiet)
    out << "chaindem sweep " << sweep_path << " -> " << d.output << ": " << d.cases.size()
        << " cases (" << d.cases.size() - static_cast<std::size_t>(failed_cases) << " ok, "
        << failed_cases << " failed)\n";
  return failed_cases ? 1 : 0;  // failed cases have status rows "failed: ..." in /summary
}

}  // namespace chaindem
