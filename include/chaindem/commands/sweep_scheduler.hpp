#pragma once
// How a sweep's cases are run: over MPI ranks (Ranks), in an order that keeps every thread and
// the one HDF5 writer busy (CaseOrder), their output written by whichever thread is free
// (WriteQueue).

#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/commands/case_runner.hpp"

namespace chaindem::sweep {

// The MPI ranks of this run. MPI starts only when a launcher (mpirun, mpiexec, srun) started
// the process: a plain `chaindem sweep` then skips MPI_Init, which costs ~0.4 s (hardware
// discovery) and would be pure serial overhead. CHAINDEM_MPI=1 forces it. Without MPI in the
// build, one rank.
class Ranks {
 public:
  int rank = 0, size = 1;
  Ranks();
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;
  bool active() const { return active_; }
  int max(int x) const;  ///< the largest x over the ranks
  int sum(int x) const;  ///< the sum of x over the ranks
  void barrier() const;
  /// Moves `text` from rank `owner` to rank 0 (other ranks do nothing).
  void gather_string(int owner, std::string& text) const;

 private:
  bool active_ = false;
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

}  // namespace chaindem::sweep
