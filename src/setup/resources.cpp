// The set-up's resource step: the memory a run needs, checked against what the machine has
// before anything is allocated (setup_parts.hpp).

#include <chrono>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>

#include "chaindem/output/h5md_writer.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {
namespace {

// Memory this process may still take [bytes]: the kernel's estimate of what is available
// without swapping (MemAvailable), or what the control group still allows, if less; 0 where
// neither can be read.
std::size_t available_memory() {
  std::size_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    std::size_t kib = 0;
    std::string unit;
    meminfo >> kib >> unit;
    if (key == "MemAvailable:") available = kib * 1024;
  }
  auto read = [](const char* path) -> std::optional<std::size_t> {
    std::ifstream in(path);
    std::size_t value = 0;
    if (in >> value) return value;
    return std::nullopt;  // absent, or "max"
  };
  const auto limit = read("/sys/fs/cgroup/memory.max");
  const auto used = read("/sys/fs/cgroup/memory.current");
  if (limit && used && *limit > *used)
    available = available ? std::min(available, *limit - *used) : *limit - *used;
  return available;
}

// available_memory(), read again at most every 0.1 s: a sweep sets up thousands of small cases
// a second, and reading the kernel's figures cost more than setting up one of them.
std::size_t recent_available_memory() {
  using Clock = std::chrono::steady_clock;
  static std::mutex lock;
  static std::optional<Clock::time_point> read_at;
  static std::size_t available = 0;
  const std::lock_guard guard(lock);
  const Clock::time_point now = Clock::now();
  if (!read_at || now - *read_at > std::chrono::milliseconds(100)) {
    available = available_memory();
    read_at = now;
  }
  return available;
}

}  // namespace

// The run must fit in memory before anything is allocated: the simulation (simulation_bytes),
// what building it holds at once (the bodies, their separations, the contact time scales), the
// per-bead results, and the writer's queue of frames plus the three frames it may hold outside
// the queue (being copied, being written, recycled).
std::size_t check_memory(const Case& c, std::size_t particles,
                         const layout::OutputSelection& output) {
  const std::size_t contacts = particles + 1;
  const std::size_t need =
      simulation_bytes(particles, contacts) +
      particles * (sizeof(Body) + sizeof(double) + 4 * sizeof(double)) +
      contacts * sizeof(TimeScalePair) + H5mdWriter::queue_bytes +
      3 * H5mdWriter::frame_bytes(particles, contacts, output, !c.spec().contact_pairs.empty());
  const std::size_t available = recent_available_memory();
  if (available == 0 || need <= available) return need;
  const long long count = c.spec().chain.count;
  std::ostringstream m;
  m << std::setprecision(3) << static_cast<double>(count) << " beads need about "
    << static_cast<double>(need) / 1e9 << " GB (" << need / particles
    << " bytes per bead), more than the " << static_cast<double>(available) / 1e9
    << " GB this machine has available";
  c.fail(c.spec().chain.count, m.str());
}

}  // namespace chaindem::setup
