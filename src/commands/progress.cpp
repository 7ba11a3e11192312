#include "chaindem/commands/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace chaindem {

Progress::Progress(std::ostream* out, std::int64_t total, std::string label, std::string unit,
                   bool keep_last)
    : out_(out),
      total_(std::max<std::int64_t>(total, 1)),
      label_(std::move(label)),
      unit_(std::move(unit)),
      keep_last_(keep_last),
      tty_(out && isatty(STDERR_FILENO) != 0),  // no progress shown (a sweep's case): no call
      start_(Clock::now()),
      last_(start_) {}

void Progress::update(std::int64_t done) {
  if (!out_) return;
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  const bool last = done >= total_;
  // A last line that stays is always drawn; otherwise a terminal line at most every 0.25 s, a
  // plain line every 10 s.
  if (!(last && keep_last_) &&
      std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.25 : 10.0))
    return;
  last_ = now;
  const double elapsed = std::max(std::chrono::duration<double>(now - start_).count(), 1e-9);
  const double rate = static_cast<double>(done) / elapsed;
  const double eta = rate > 0.0 ? static_cast<double>(total_ - done) / rate : 0.0;
  std::ostringstream line;
  line << label_ << ": ";
  if (tty_) {
    const auto width = 30, filled = static_cast<int>(width * std::min(done, total_) / total_);
    line << "[" << std::string(static_cast<std::size_t>(filled), '=')
         << std::string(static_cast<std::size_t>(width - filled), ' ') << "] ";
  }
  line << std::fixed << std::setprecision(1)
       << 100.0 * static_cast<double>(done) / static_cast<double>(total_) << "% (" << done << "/"
       << total_ << " " << unit_ << ", " << std::setprecision(rate < 10 ? 1 : 0) << rate << " "
       << unit_ << "/s, ETA " << std::setprecision(0) << eta << " s)";
  if (tty_)
    *out_ << "\r" << line.str() << (last && keep_last_ ? "\n" : "") << std::flush;
  else
    *out_ << line.str() << std::endl;
  printed_ = !(last && keep_last_);
}

Progress::~Progress() {
  if (out_ && tty_ && printed_) *out_ << "\r" << std::string(100, ' ') << "\r" << std::flush;
}

}  // namespace chaindem
