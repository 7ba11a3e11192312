#pragma once
// Progress of a long command on a stream (standard error): on a terminal one line rewritten in
// place, at most four times a second, with a bar; otherwise a plain line every 10 s, which a log
// file keeps readable. Safe to call from several threads.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>

namespace chaindem {

class Progress {
 public:
  /// `label` starts each line ("run", "sweep"), `unit` names what is counted ("steps",
  /// "cases"); out = nullptr reports nothing. The terminal line is cleared at the end unless
  /// `keep_last` (then the last line stays, with a newline).
  Progress(std::ostream* out, std::int64_t total, std::string label, std::string unit,
           bool keep_last);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();

  /// `done` of the total are done.
  void update(std::int64_t done);
  /// One more is done.
  void add_one() { update(++done_); }

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream* out_;
  std::int64_t total_;
  std::string label_, unit_;
  bool keep_last_, tty_;
  Clock::time_point start_, last_;
  std::atomic<std::int64_t> done_{0};
  std::mutex mutex_;
  bool printed_ = false;
};

}  // namespace chaindem
