// `chaindem sweep`: the command. Its parts: the sweep's definition (sweep_definition.hpp), its
// file (sweep_file.hpp) and how its cases are scheduled (sweep_scheduler.hpp); here, the phases
// of a run: validate every case, open (or reopen) the partial file, run, collect.
#include "chaindem/commands/sweep_command.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/progress.hpp"
#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/commands/sweep_file.hpp"
#include "chaindem/commands/sweep_scheduler.hpp"
#include "chaindem/commands/sweep_validation.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/journaled_file.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/side_files.hpp"
#include "chaindem/output/stacked_writer.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace chaindem {
namespace {

using namespace sweep;
using Clock = std::chrono::steady_clock;

struct SweepOptions {
  std::string sweep_path, output;
  std::vector<std::string> sets, unset;
  int threads = 1;                   // --threads, or the OpenMP default (command_threads)
  double checkpoint_interval = 5.0;  // seconds between checkpoints of the partial file
  bool quiet = false;
  bool force = false;  // replace the output if it exists
};

// The options; false when the command ends here (--help). Throws what refuses them.
bool parse_options(const std::vector<std::string>& args, std::ostream& out, int rank,
                   SweepOptions& o) {
  po::options_description desc("chaindem sweep options");
  desc.add_options()("help,h", "this help")(
      "output,o", po::value(&o.output),
      "output HDF5 file (default: sweep.output, else out/SWEEP[_KEY=VALUE...].h5)")(
      "threads", po::value(&o.threads),
      ("OpenMP threads: 1 to " + std::to_string(max_threads) +
       " (default: OMP_NUM_THREADS or all cores)")
          .c_str())("set", po::value(&o.sets)->composing(),
                    "a case key for every case: --set section.key=value")(
      "unset", po::value(&o.unset)->composing(),
      "remove a key the base case gives, from every case: --unset section.key")(
      "checkpoint-interval", po::value(&o.checkpoint_interval),
      "seconds between checkpoints of the partial file, to which a killed sweep returns: "
      "0.01 to 1e9 (default 5)")("quiet,q", po::bool_switch(&o.quiet), "no progress");
  add_force_option(desc, &o.force);
  const po::variables_map vm = parse_command_line(args, desc, &o.sweep_path, "sweep");
  if (vm.count("help")) {
    if (rank == 0)
      out << "usage: chaindem sweep SWEEP.ini [-o OUT.h5] [--threads N] [--set key=value ...]\n"
             "       mpirun -np R chaindem sweep SWEEP.ini   (when built with "
             "-DCHAINDEM_MPI=ON)\n\n"
             "SWEEP.ini:\n"
             "  [sweep]  base = CASE.ini (relative to SWEEP.ini); combine = grid | zip;\n"
             "           output = OUT.h5; keep = cases | table (table: /summary alone)\n"
             "  [set]    case keys for every case, e.g. chain.count = 10\n"
             "  [axes]   one swept case key per line: a list 'a, b, c' or a range\n"
             "           'start:stop:step' (inclusive), e.g. contact.restitution = 0.1:1:0.1\n"
             "           at most "
          << max_axis_values << " values per axis and " << max_cases
          << " cases per sweep\n\n"
             "Runs every case single-threaded, in parallel over OpenMP threads (and MPI ranks),\n"
             "into OUT.h5.partial; rerunning the same command after an interruption keeps the\n"
             "finished cases. OUT.h5 holds /cases/case-NNNNNN (the layout of `chaindem run`;\n"
             "not with keep = table), /sweep (the definition) and /summary (one row per case).\n"
             "docs/sweeps.md.\n\n"
          << desc;
    return false;
  }
  if (o.sweep_path.empty()) throw Refusal("missing SWEEP.ini");
  o.threads = command_threads(vm);
  if (!(o.checkpoint_interval >= 0.01 && o.checkpoint_interval <= 1e9))
    throw CaseError("--checkpoint-interval: " + number_text(o.checkpoint_interval) +
                    " s is outside the allowed range 0.01 to 1e9 s");
  return true;
}

// This rank's partial file: OUT.h5.partial with one rank, else OUT.h5.rankR-of-N.partial, merged
// by rank 0 at the end. A rerun of the same command reopens it and keeps the complete cases
// (`done`), dropping any a kill interrupted. `problem` says why it cannot be used, and `status`
// is the command's exit status then: 2 when it holds another sweep's cases (the command line
// names a file that is not this sweep's), 1 when it cannot be created or read.
struct PartialFile {
  std::string path;
  hdf5::Handle file, cases;
  std::unique_ptr<StackedFile> stacked;  // sweep.keep = stacked: its datasets
  std::set<std::size_t> done;
  std::string problem;
  int status = 0;
};

// A new partial file with the sweep's definition, kept for a rerun once the definition is on
// disk; until then a failure removes it (PartialOutput).
void create_partial(PartialFile& p, const SweepDefinition& d, const std::string& sig) {
  using namespace hdf5;
  try {
    PartialOutput created(d.output, d.existing, p.path);
    const hid_t f = created.create_hdf5(journaled_file_access());
    try {
      write_definition(f, d, sig);
    } catch (const std::exception& e) {
      throw created.error(e.what());
    }
    created.flush();
    try {
      journal_checkpoint(f);  // a kill from here on leaves at least the definition
    } catch (const std::exception& e) {
      throw created.error(e.what());
    }
    p.file = Handle(created.keep_partial(), H5Fclose);
    if (d.keep == Keep::cases)
      p.cases = Handle(check(H5Gopen2(p.file.get(), "cases", H5P_DEFAULT), "cases"), H5Gclose);
  } catch (const OutputError& e) {
    p.cases.reset();
    p.file.reset();
    p.problem = e.what();
    p.status = 1;
  }
}

// The partial file of an earlier attempt at this sweep: its complete cases, for this rank (none
// for a sweep that keeps only its table: its rows are written at the end).
void reopen_partial(PartialFile& p, const SweepDefinition& d, const std::string& sig, int rank,
                    int ranks) {
  using namespace hdf5;
  // Opened through its journal: a file a kill left is returned to its last checkpoint first.
  const hid_t id = H5Fopen(p.path.c_str(), H5F_ACC_RDWR, journaled_file_access());
  if (id < 0) {
    // What to do depends on why: a folder that may not be written is no reason to delete the
    // finished cases, and a damaged or foreign journal says itself what to do.
    const std::string reason = error_reason();
    const bool permission = reason.find("Permission denied") != std::string::npos ||
                            reason.find("Read-only file system") != std::string::npos;
    p.problem = quoted_path(p.path) + " cannot be reopened (" + reason + ")" +
                (permission ? ": let this user write the file and its folder, and run again"
                 : reason.find("journal") != std::string::npos
                     ? ""
                     : ": delete it (and its journal) to start over");
    p.status = 1;
    return;
  }
  p.file = Handle(id, H5Fclose);
  Handle sweep_group(H5Gopen2(id, "sweep", H5P_DEFAULT), H5Gclose);
  if (sweep_group.get() < 0 || read_string_attr(sweep_group.get(), "signature") != sig) {
    p.problem = quoted_path(p.path) +
                " holds cases of a different sweep (the sweep file, base case, overrides or "
                "chaindem version changed); remove it or choose another output";
    p.status = 2;
    return;
  }
  if (d.keep != Keep::cases) return;
  p.cases = Handle(check(H5Gopen2(id, "cases", H5P_DEFAULT), "cases"), H5Gclose);
  const Handle& cases = p.cases;
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const std::string name = case_name(k);
    if (H5Lexists(cases.get(), name.c_str(), H5P_DEFAULT) <= 0) continue;
    Handle g(check(H5Gopen2(cases.get(), name.c_str(), H5P_DEFAULT), name), H5Gclose);
    const bool complete = read_string_attr(g.get(), "chaindem_status") == "complete";
    g.reset();
    if (complete && k % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank))
      p.done.insert(k);
    else if (!complete)
      H5Ldelete(cases.get(), name.c_str(), H5P_DEFAULT);
  }
}

PartialFile open_partial(const SweepDefinition& d, int rank, int ranks) {
  PartialFile p;
  p.path = ranks == 1 ? d.output + ".partial"
                      : d.output + ".rank" + std::to_string(rank) + "-of-" + std::to_string(ranks) +
                            ".partial";
  try {
    // A rank's own files, which check_output_path does not know (one rank's are the output's).
    refuse_unless_regular(p.path, d.output, side_file_role(".partial"));
    refuse_unless_regular(hdf5::journal_path(p.path), d.output, side_file_role(".partial.journal"));
    const std::string sig = signature(d);
    // A kill before the file's first checkpoint (its definition on disk) leaves it empty.
    if (fs::exists(p.path)) hdf5::recover_journal(p.path);
    if (!fs::exists(p.path) || fs::file_size(p.path) == 0)
      create_partial(p, d, sig);
    else
      reopen_partial(p, d, sig, rank, ranks);
  } catch (const OutputPathError& e) {
    p.problem = e.what();
    p.status = 2;
  } catch (const std::exception& e) {
    p.cases.reset();
    p.file.reset();
    p.problem = quoted_path(p.path) + ": " + failure_text(e);
    p.status = 1;
  }
  return p;
}

// The partial file's checkpoints (journaled_file.hpp): one is due `interval` after the last,
// once a case has been written since, and a thread of its own takes it, so that cases finished
// while a long one computes wait no longer than that. HDF5 calls hold `h5`, as every write.
class Checkpoints {
 public:
  Checkpoints(hid_t file, std::string path, std::mutex& h5, double interval,
              std::function<void(const std::string&)> failed)
      : file_(file),
        path_(std::move(path)),
        h5_(h5),
        interval_(
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval))),
        failed_(std::move(failed)),
        thread_([this] { run(); }) {}
  ~Checkpoints() {
    {
      std::lock_guard guard(lock_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  Checkpoints(const Checkpoints&) = delete;
  Checkpoints& operator=(const Checkpoints&) = delete;

  /// A case's group is complete in the file.
  void case_written() {
    {
      std::lock_guard guard(lock_);
      ++written_;
    }
    wake_.notify_one();
  }
  /// Cases in the file at its last checkpoint, of those written by this run.
  std::size_t at_last_checkpoint() {
    std::lock_guard guard(lock_);
    return at_checkpoint_;
  }
  /// A checkpoint now, if a case was written since the last (the end of the run phase: every
  /// case is then in one before the summary is written). False when it failed.
  bool take() {
    {
      std::lock_guard guard(lock_);
      if (written_ == at_checkpoint_ || failed_once_) return !failed_once_;
    }
    return checkpoint();
  }

 private:
  // Sleeps until a case is written, then until an interval after the last checkpoint; never
  // spins (a long case may compute for hours without a write).
  void run() {
    hdf5::quiet_errors();  // this thread's own HDF5 error stack, as every thread's
    auto last = Clock::now();
    std::unique_lock guard(lock_);
    while (!stop_ && !failed_once_) {
      if (written_ == at_checkpoint_) {
        wake_.wait(guard, [&] { return stop_ || written_ != at_checkpoint_; });
        continue;
      }
      if (Clock::now() < last + interval_) {
        wake_.wait_until(guard, last + interval_, [&] { return stop_; });
        continue;
      }
      guard.unlock();
      checkpoint();
      guard.lock();
      last = Clock::now();
    }
  }

  // Flushes the file and makes that its checkpoint, no write in between (`h5` held).
  bool checkpoint() {
    std::lock_guard file(h5_);
    std::size_t written = 0;
    {
      std::lock_guard count(lock_);
      written = written_;
    }
    try {
      hdf5::check_status(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush " + path_);
      hdf5::journal_checkpoint(file_);  // a kill returns the file to here
    } catch (const std::exception& e) {
      std::lock_guard count(lock_);
      failed_once_ = true;  // the file is given up: no more checkpoints
      failed_(e.what());
      return false;
    }
    std::lock_guard count(lock_);
    at_checkpoint_ = written;
    return true;
  }

  hid_t file_;
  std::string path_;
  std::mutex& h5_;
  Clock::duration interval_;
  std::function<void(const std::string&)> failed_;
  std::mutex lock_;
  std::condition_variable wake_;
  bool stop_ = false, failed_once_ = false;
  std::size_t written_ = 0, at_checkpoint_ = 0;
  std::thread thread_;  // last: it starts once the rest is set
};

// With CHAINDEM_SWEEP_TIMING=1, how long each phase of the sweep took, on stderr (rank 0's).
class PhaseClock {
 public:
  explicit PhaseClock(std::ostream* log)
      : log_(std::getenv("CHAINDEM_SWEEP_TIMING") != nullptr ? log : nullptr) {}
  /// Where the times go; null: nowhere.
  std::ostream* log() const { return log_; }
  /// The phase `name` ends now.
  void operator()(const char* name) {
    const auto now = Clock::now();
    if (log_)
      *log_ << "sweep timing: " << name << " "
            << std::chrono::duration<double>(now - start_).count() << " s\n";
    start_ = now;
  }

 private:
  std::ostream* log_;
  Clock::time_point start_ = Clock::now();
};

// What running the cases left: per case, its summary row (cases run now) or why it failed; and
// the time the phases took, for CHAINDEM_SWEEP_TIMING.
struct RunOutcome {
  std::vector<std::string> failures;
  std::vector<CaseRecord> records;
  double writing = 0.0;      // seconds writing finished cases (one writer at a time)
  double last_writes = 0.0;  // seconds writing what was queued when the last case finished
  std::vector<std::array<double, 2>> thread_time;  // per thread: computing, in push()
  // The first write to the file that failed (a full disk), with its case: the file is then
  // given up. HDF5 cannot be trusted with a file whose writes failed (closing it can crash),
  // so nothing more is written to it, and no more cases run.
  std::string write_failure;
  std::size_t checkpointed = 0;  // cases of this run in the file at its last checkpoint
};

// Computes case k (its set-up kept from validation, or built now) and lets go of its input: the
// run, its output in memory, for `cases_group` or a row of `stacked` (whose HDF5 calls hold
// `h5`); or, when the sweep keeps only its table, none, and its summary row in `record`.
std::optional<PendingRun> compute_case(ValidSweep& v, std::size_t k, hid_t cases_group,
                                       StackedFile* stacked, std::mutex& h5,
                                       const std::map<std::string, std::string>& labels,
                                       CaseRecord& record) {
  const CaseConfig& cfg = *v.configs[k];
  RunSetup setup = v.setups[k] ? std::move(*v.setups[k]) : build_run(cfg);
  v.setups[k].reset();
  const RunControl control{nullptr, stop_flag()};
  std::optional<PendingRun> run;
  if (v.d.keep == Keep::cases)
    run = run_to_group(cfg, std::move(setup), cases_group, case_name(k), &h5, control, labels);
  else if (stacked)
    run = run_to_stacked(cfg, std::move(setup), *stacked, k, &h5, control);
  else
    record = {"ok", run_summary_only(cfg, std::move(setup), control)};
  v.configs[k].reset();
  return run;
}

// Runs `todo` (this rank's unfinished cases, longest first) on `threads` threads into
// /cases of `partial`. A finished case is queued for writing (WriteQueue), its group labelled
// with this invocation's id; every --checkpoint-interval (5 s) after a case was written, the file
// is flushed (a flush costs more as the file grows) and that becomes its checkpoint
// (Checkpoints): a later kill, even SIGKILL at any instant, leaves a file that reopens with every
// case written before the checkpoint. A sweep that keeps only its table runs its cases without a
// writer and keeps their summary rows in memory for the summary (`cases_group` is then none).
RunOutcome run_cases(ValidSweep& v, PartialFile& partial, hid_t cases_group,
                     const std::vector<std::size_t>& todo, const SweepOptions& o,
                     Progress& progress) {
  const int threads = o.threads;
  const std::size_t n = v.d.cases.size();
  RunOutcome r;
  r.failures.resize(n);
  r.records.resize(n);
  r.thread_time.assign(static_cast<std::size_t>(threads), {0.0, 0.0});
  // Which run of the command computed a case (the resume test reads it).
  std::ostringstream invocation_id;
  invocation_id << getpid() << "-" << std::chrono::system_clock::now().time_since_epoch().count();
  const std::map<std::string, std::string> invocation_label{
      {"sweep_invocation", invocation_id.str()}};
  const volatile std::sig_atomic_t& stop_signal = *stop_flag();
  std::mutex h5;
  std::mutex failure_lock;
  std::atomic<bool> write_failed{false};
  auto fail_write = [&](std::optional<std::size_t> k, const std::string& what) {
    std::lock_guard lock(failure_lock);
    if (k) r.failures[*k] = what;
    if (r.write_failure.empty())
      r.write_failure = (k ? case_label(v.d, *k) + ": " : "checkpoint: ") + what;
    write_failed = true;
  };
  Checkpoints checkpoints(partial.file.get(), partial.path, h5, o.checkpoint_interval,
                          [&](const std::string& what) { fail_write(std::nullopt, what); });
  CaseOrder order(todo, v.cost);
  WriteQueue<FinishedCase> writes(
      [&](FinishedCase& c) {
        const auto write_start = Clock::now();
        struct Clocked {
          double& total;
          Clock::time_point start;
          ~Clocked() { total += std::chrono::duration<double>(Clock::now() - start).count(); }
        } clocked{r.writing, write_start};
        if (write_failed) {
          r.failures[c.index] = "not written: an earlier write to the file failed";
          return;
        }
        try {
          c.run.commit();
        } catch (const hdf5::Error& e) {
          fail_write(c.index, e.what());
          return;
        } catch (const std::exception& e) {
          r.failures[c.index] =
              failure_text(e);  // its half-written group goes with the dropped run
          return;
        }
        order.written(std::chrono::duration<double>(Clock::now() - write_start).count());
        checkpoints.case_written();
        // The summary row, as written (and as read_case would read it back).
        CaseRecord& record = r.records[c.index];
        record.summary = c.run.summary();
        record.status = "ok";
      },
      std::size_t{256} << 20);
  auto seconds_since = [](Clock::time_point& start) {
    const auto now = Clock::now();
    return std::chrono::duration<double>(now - std::exchange(start, now)).count();
  };
#pragma omp parallel num_threads(threads)
  {
    hdf5::quiet_errors();  // each thread computes cases and writes those queued (WriteQueue)
    auto& clock = r.thread_time[static_cast<std::size_t>(omp_get_thread_num())];
    while (const std::optional<std::size_t> next = order.next(writes.empty())) {
      if (stop_signal || write_failed) break;
      const std::size_t k = *next;
      auto start = Clock::now();
      try {
        std::optional<PendingRun> run = compute_case(v, k, cases_group, partial.stacked.get(), h5,
                                                     invocation_label, r.records[k]);
        const double seconds = seconds_since(start);
        clock[0] += seconds;
        order.computed(k, seconds);
        if (run) {
          // Its frames, and a case's fixed share (writer state, metadata, summary).
          const std::size_t bytes = run->buffered_bytes() + (std::size_t{64} << 10);
          writes.push({k, std::move(*run)}, bytes);
          clock[1] += seconds_since(start);
        }
      } catch (const Interrupted&) {
      } catch (const hdf5::Error& e) {  // a long run writes while it computes
        fail_write(k, e.what());
      } catch (const std::exception& e) {
        r.failures[k] = failure_text(e);
      }
      progress.add_one();
    }
  }
  auto drain_start = Clock::now();
  writes.drain(true);  // cases finished before a stop signal are kept too
  r.last_writes = seconds_since(drain_start);
  if (!write_failed) checkpoints.take();
  r.checkpointed = checkpoints.at_last_checkpoint();
  return r;
}

// A partial file whose writes failed is given up unclosed (HDF5 1.10 can crash closing such a
// file). If it held finished cases at its last checkpoint (`kept`), it stays, with its journal,
// for a resume: the journal returns it to that checkpoint. Otherwise `output` removes it. Returns
// the message, naming the file, `reason` and what was kept.
std::string give_up(PartialOutput& output, hdf5::Handle& cases_group, std::size_t kept,
                    const std::string& reason) {
  cases_group.release();
  const std::string message = output.error(reason).what();
  if (kept == 0) return message;
  output.keep_partial();
  return message + "; the " + std::to_string(kept) +
         " finished case(s) of its last checkpoint are kept in " +
         quoted_path(output.partial_path()) +
         " (and its journal): make room and run the same command to resume";
}

// Rank 0, into its open `file`: the other ranks' cases (`sources`, their open `rank_files`: their
// groups, or their rows of the `stacked` datasets), the summaries of cases run earlier read back,
// /summary and the status. Returns the failed cases.
int write_collected(const SweepDefinition& d, hid_t file, StackedFile* stacked,
                    const std::vector<std::string>& rank_files,
                    const std::vector<hdf5::Handle>& sources, RunOutcome& r, int ranks,
                    std::ostream& err, PhaseClock& phase) {
  using namespace hdf5;
  for (int rank = 1; rank < ranks; ++rank) {
    const std::string& other = rank_files[static_cast<std::size_t>(rank - 1)];
    const hid_t src = sources[static_cast<std::size_t>(rank - 1)].get();
    if (stacked) {
      std::vector<std::size_t> theirs;
      for (std::size_t k = static_cast<std::size_t>(rank); k < d.cases.size();
           k += static_cast<std::size_t>(ranks))
        theirs.push_back(k);
      stacked->copy_rows(src, theirs);
      continue;
    }
    for (std::size_t k = static_cast<std::size_t>(rank); k < d.cases.size();
         k += static_cast<std::size_t>(ranks)) {
      const std::string name = "cases/" + case_name(k);
      if (H5Lexists(src, "cases", H5P_DEFAULT) > 0 &&
          H5Lexists(src, name.c_str(), H5P_DEFAULT) > 0 &&
          H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0)
        check_status(H5Ocopy(src, name.c_str(), file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                     "copy " + quoted_path(other) + ":/" + name);
    }
  }
  int failed_cases = 0;
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const std::string name = "cases/" + case_name(k);
    if (r.records[k].status == "ok") continue;  // run by this process: its summary is at hand
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) > 0) {
      r.records[k] = read_case(file, name);
    } else {
      r.records[k].status = "failed: " + r.failures[k];
      ++failed_cases;
      err << "chaindem sweep: " << case_label(d, k) << " failed: " << r.failures[k] << "\n";
    }
  }
  phase("collect");
  // A summary from an earlier attempt (killed while closing) is rewritten.
  if (H5Lexists(file, "summary", H5P_DEFAULT) > 0) H5Ldelete(file, "summary", H5P_DEFAULT);
  write_summary(file, d, r.records);
  if (H5Aexists(file, "chaindem_status") > 0) H5Adelete(file, "chaindem_status");
  attr_string(file, "chaindem_status", "complete");
  return failed_cases;
}

// Rank 0: takes the other ranks' cases into its file, completes it (write_collected) and commits
// it (PartialOutput): it gets its final name only once every write, its close and the rename
// succeeded. An other rank's file that cannot be opened leaves this rank's for a rerun; a failure
// writing this rank's file removes it. Returns the failed cases.
int collect(const SweepDefinition& d, PartialFile& partial, hdf5::Handle& cases_group,
            RunOutcome& r, int ranks, std::ostream& err, PhaseClock& phase) {
  using namespace hdf5;
  std::vector<std::string> rank_files;
  std::vector<Handle> sources;
  for (int rank = 1; rank < ranks; ++rank) {
    const std::string other =
        d.output + ".rank" + std::to_string(rank) + "-of-" + std::to_string(ranks) + ".partial";
    rank_files.push_back(other);
    sources.emplace_back(
        check(H5Fopen(other.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + quoted_path(other)),
        H5Fclose);
  }
  PartialOutput output(d.output, d.existing, partial.path);
  output.adopt_hdf5(partial.file.release());
  int failed_cases = 0;
  try {
    failed_cases = write_collected(d, output.file(), partial.stacked.get(), rank_files, sources, r,
                                   ranks, err, phase);
    cases_group.close("/cases");
    if (partial.stacked) partial.stacked->close();
    output.flush();  // the last writes that can fail on a full disk, before the commit
  } catch (const std::exception& e) {
    if (partial.stacked) partial.stacked->abandon();
    throw OutputError(give_up(output, cases_group, partial.done.size() + r.checkpointed, e.what()));
  }
  sources.clear();
  output.commit();
  for (const auto& f : rank_files) fs::remove(f);
  phase("summary and close");
  return failed_cases;
}

// Rank 0 is the output's one writer for the whole sweep (OutputLock): another sweep or run on it
// is refused before anything is opened, whatever the ranks of either, and a partial file this
// sweep finds is no other living process's. Every rank learns whether it was refused (Refusal;
// rank 0 says why).
std::unique_ptr<OutputLock> lock_output(const std::string& output, const Ranks& mpi) {
  std::unique_ptr<OutputLock> lock;
  std::string refused;
  if (mpi.rank == 0) try {
      lock = std::make_unique<OutputLock>(output);
    } catch (const OutputPathError& e) {
      refused = e.what();
    }
  if (mpi.max(refused.empty() ? 0 : 1)) throw Refusal(refused);
  return lock;
}

// This rank's cases that are not finished yet, longest first; `log` (rank 0's, unless quiet)
// tells how many the sweep has and runs.
std::vector<std::size_t> cases_to_run(const ValidSweep& v, const PartialFile& partial,
                                      const Ranks& mpi, std::ostream* log) {
  const std::size_t cases = v.d.cases.size();
  std::vector<std::size_t> todo;
  for (std::size_t k = mpi.rank; k < cases; k += static_cast<std::size_t>(mpi.size))
    if (!partial.done.count(k)) todo.push_back(k);
  std::stable_sort(todo.begin(), todo.end(),
                   [&](std::size_t a, std::size_t b) { return v.cost[a] > v.cost[b]; });
  const int finished = mpi.sum(static_cast<int>(partial.done.size()));
  if (log)
    *log << "chaindem sweep: " << cases << " cases, " << finished << " already finished, "
         << cases - static_cast<std::size_t>(finished) << " to run on " << mpi.size
         << (mpi.active() ? " MPI rank(s)" : " rank(s)") << std::endl;
  return todo;
}

void report_timing(std::ostream& log, const RunOutcome& r) {
  log << "sweep timing: of which writing finished cases " << r.writing << " s\n";
  for (std::size_t t = 0; t < r.thread_time.size(); ++t)
    log << "sweep timing: thread " << t << " computing " << r.thread_time[t][0]
        << " s, writing or waiting to write " << r.thread_time[t][1] << " s\n";
  log << "sweep timing: writing what was queued when the last case finished " << r.last_writes
      << " s\n";
}

// The exit status of a sweep that cannot go on after running its cases, if it cannot: a write
// to a rank's file failed (1: that file given up, every other kept intact for a rerun, as when
// interrupted), or a signal stopped the sweep (128 + the signal: the finished cases kept).
std::optional<int> stopped_early(PartialFile& partial, RunOutcome& r, const SweepDefinition& d,
                                 const Ranks& mpi, std::ostream& err) {
  hdf5::Handle& cases_group = partial.cases;
  if (mpi.max(r.write_failure.empty() ? 0 : 1)) {
    if (!r.write_failure.empty()) {  // this rank's file is given up
      if (partial.stacked) partial.stacked->abandon();
      PartialOutput given_up(d.output, d.existing, partial.path);
      given_up.adopt_hdf5(partial.file.release());
      err << "chaindem sweep: error: "
          << give_up(given_up, cases_group, partial.done.size() + r.checkpointed, r.write_failure)
          << "\n";
    } else {  // intact: kept for a rerun, as when interrupted
      partial.stacked.reset();
      cases_group.reset();
      partial.file.reset();
    }
    return exit_failed;
  }
  const int interrupted = mpi.max(*stop_flag());
  if (!interrupted) return std::nullopt;
  partial.stacked.reset();
  cases_group.reset();
  partial.file.reset();
  if (mpi.rank == 0 && d.keep == Keep::cases)
    err << "chaindem sweep: interrupted by signal " << interrupted << "; the finished cases are "
        << "kept in " << quoted_path(mpi.size == 1 ? partial.path : d.output + ".rank*.partial")
        << ", run the same command to resume\n";
  else if (mpi.rank == 0)
    err << "chaindem sweep: interrupted by signal " << interrupted
        << "; a sweep that keeps its table alone or stacks its cases (sweep.keep = "
        << (d.keep == Keep::table ? "table" : "stacked")
        << ") keeps no case until the last has run: run the same command to run them again\n";
  return exit_on_signal + interrupted;
}

// A rank but the first: its file, closed (each step checked) and kept for rank 0 to collect, or
// removed if that fails. False then.
bool close_for_collection(const SweepDefinition& d, PartialFile& partial, int rank,
                          std::ostream& err) {
  PartialOutput mine(d.output, d.existing, partial.path);
  mine.adopt_hdf5(partial.file.release());
  try {
    try {
      partial.cases.close("/cases");
      if (partial.stacked) partial.stacked->close();
    } catch (const std::exception& e) {
      throw mine.error(e.what());
    }
    mine.close_hdf5();
    mine.keep_partial();
  } catch (const OutputError& e) {
    err << "chaindem sweep: rank " << rank << ": error: " << e.what() << "\n";
    return false;
  }
  return true;
}

// The sweep, validated and its output locked: each rank runs its cases into its partial file,
// and rank 0 collects them into the output.
int run_sweep(ValidSweep& v, const SweepOptions& o, const Ranks& mpi, std::ostream& out,
              std::ostream& err, PhaseClock& phase) {
  const SweepDefinition& d = v.d;
  const int rank = mpi.rank, ranks = mpi.size;
  std::ostream* log = rank == 0 ? &err : nullptr;
  hdf5::quiet_errors();
  PartialFile partial = open_partial(d, rank, ranks);
  if (const int status = mpi.max(partial.status)) {
    if (!partial.problem.empty())
      err << "chaindem sweep: " << (partial.status == 1 ? "error: " : "") << partial.problem
          << "\n";
    return status;
  }
  int stacked_failed = 0;
  if (v.shape) try {
      partial.stacked = std::make_unique<StackedFile>(partial.file.get(), d.cases.size(), *v.shape);
    } catch (const std::exception& e) {
      err << "chaindem sweep: error: " << quoted_path(partial.path) << ": " << failure_text(e)
          << "\n";
      stacked_failed = 1;
    }
  if (mpi.max(stacked_failed)) return exit_failed;
  phase("validate and open");

  const std::vector<std::size_t> todo = cases_to_run(v, partial, mpi, o.quiet ? nullptr : log);
  install_stop_handlers();
  Progress progress(o.quiet ? nullptr : log, static_cast<std::int64_t>(todo.size()), "sweep",
                    "cases", true);
  RunOutcome r = run_cases(v, partial, partial.cases.get(), todo, o, progress);
  phase("run cases");
  if (phase.log()) report_timing(*phase.log(), r);
  if (const std::optional<int> status = stopped_early(partial, r, d, mpi, err)) return *status;
  // Failure messages travel to rank 0, one string per case; so do the summary rows of a sweep
  // that keeps no case group, which rank 0 could not read from the other ranks' files.
  for (std::size_t k = 0; k < d.cases.size(); ++k) {
    const int owner = static_cast<int>(k % static_cast<std::size_t>(ranks));
    if (owner == 0) continue;
    mpi.gather_string(owner, r.failures[k]);
    if (d.keep == Keep::cases) continue;
    CaseRecord& record = r.records[k];
    std::string row = rank == owner && record.summary ? summary_bytes(*record.summary) : "";
    mpi.gather_string(owner, row);
    if (rank == 0 && !row.empty()) record = {"ok", summary_from_bytes(row)};
  }
  const bool closed = rank == 0 || close_for_collection(d, partial, rank, err);
  mpi.barrier();  // every rank's file is closed and complete, or removed
  if (rank != 0) {
    bool any_failed = !closed;
    for (const auto& f : r.failures) any_failed = any_failed || !f.empty();
    return any_failed ? exit_failed : exit_done;
  }
  int failed_cases = 0;
  try {
    failed_cases = collect(d, partial, partial.cases, r, ranks, err, phase);
  } catch (const std::exception& e) {  // the cases ran: whatever stops the collection fails it
    err << "chaindem sweep: error: " << failure_text(e) << "\n";
    return exit_failed;
  }
  if (!o.quiet)
    out << "chaindem sweep " << quoted_path(o.sweep_path) << " -> " << quoted_path(d.output) << ": "
        << d.cases.size() << " cases (" << d.cases.size() - static_cast<std::size_t>(failed_cases)
        << " ok, " << failed_cases << " failed)\n";
  return failed_cases ? exit_failed : exit_done;  // failed cases have status rows "failed: ..."
}

}  // namespace

int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Ranks mpi;
  std::ostream* log = mpi.rank == 0 ? &err : nullptr;  // what every rank would say, said once
  PhaseClock phase(log);
  SweepOptions o;
  ValidSweep v;
  std::unique_ptr<OutputLock> lock;
  FailureReport report{"chaindem sweep", log, " while reading and checking the cases"};
  try {
    if (!parse_options(args, out, mpi.rank, o)) return exit_done;  // --help
    v = validate_sweep(
        {o.sweep_path, o.sets, o.unset, o.output, o.force, o.threads, mpi.rank, mpi.size});
    report.under_way = {};
    if (log)
      for (const std::string& note : v.notes) *log << "chaindem sweep: note: " << note << "\n";
    check_output_path(v.d.output, {o.sweep_path, v.d.base}, v.d.existing);
    lock = lock_output(v.d.output, mpi);
  } catch (...) {
    return report_failure(std::current_exception(), report);
  }
  return run_sweep(v, o, mpi, out, err, phase);
}

}  // namespace chaindem
