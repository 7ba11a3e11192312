#pragma once
// The H5MD writer's background thread (h5md_writer.cpp): frames are queued by the simulation
// thread and written by this one.

#include <pthread.h>
#include <sched.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"

namespace chaindem {

/// A thread that writes the frames of a run's own file, so that copying into HDF5's buffers,
/// compression and disk writes overlap the stepping. The simulation thread only copies a frame
/// out and queues it; it waits only when more than `limit` bytes are queued. HDF5 is then called
/// from this thread alone until finish() stops it. `Frame` has bytes(), what it holds.
template <class Frame>
class BackgroundWriter {
 public:
  BackgroundWriter(std::function<void(const Frame&)> write, std::size_t limit)
      : write_(std::move(write)), limit_(limit), thread_([this] { run(); }) {}
  ~BackgroundWriter() { stop(false); }  // a run that did not finish: its frames are not wanted

  void push(Frame f) {
    std::unique_lock lock(mutex_);
    rethrow();
    room_.wait(lock, [&] { return queued_ < limit_ || frames_.empty() || error_; });
    rethrow();
    queued_ += f.bytes();
    frames_.push_back(std::move(f));
    work_.notify_one();
  }
  /// A written frame whose buffers can be reused (no allocation, no page faults), or a new one.
  Frame recycled() {
    std::lock_guard lock(mutex_);
    if (spare_.empty()) return Frame{};
    Frame f = std::move(spare_.back());
    spare_.pop_back();
    return f;
  }
  /// Writes what is queued, stops the thread; rethrows a write error.
  void finish() {
    stop(true);
    std::unique_lock lock(mutex_);
    rethrow();
  }

 private:
  void run() {
    // The writer yields to the computing threads (SCHED_IDLE: a waking compute thread preempts
    // it at once): when they use every core, frames are written in the time left, or when the
    // queue is full, or at the end of the run. Best effort.
    sched_param idle{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
    hdf5::quiet_errors();
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return !frames_.empty() || stopping_; });
      if (frames_.empty()) return;
      Frame f = std::move(frames_.front());
      frames_.pop_front();
      queued_ -= f.bytes();
      room_.notify_all();
      if (error_) continue;  // after an error, frames are dropped
      lock.unlock();
      try {
        write_(f);
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        room_.notify_all();
        continue;
      }
      lock.lock();
      if (spare_.size() < 2) spare_.push_back(std::move(f));
    }
  }
  void stop(bool drain) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      if (!drain) frames_.clear();
    }
    work_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void rethrow() {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  std::function<void(const Frame&)> write_;
  std::size_t limit_;
  std::mutex mutex_;
  std::condition_variable work_, room_;
  std::deque<Frame> frames_;
  std::vector<Frame> spare_;
  std::size_t queued_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace chaindem
