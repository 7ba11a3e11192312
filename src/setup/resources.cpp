// The set-up's resource step: the memory a run needs, checked against what the machine has
// before anything is allocated (setup_parts.hpp).

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/xdmf_writer.hpp"
#include "chaindem/text.hpp"  // bytes_text
#include "setup_parts.hpp"

namespace chaindem {
namespace setup {
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

// The program itself: its code, its libraries (HDF5, the C++ and OpenMP runtimes) and what they
// allocate at start, as the resident size of a run of a few beads measures it.
constexpr std::size_t program_bytes = std::size_t{24} << 20;

// How fast the writer's thread compresses and writes frames [bytes/s], and how fast the steps
// go at most [s per bead and step] (the chain engine on two threads): what decides whether frames
// wait in its queue.
constexpr double write_rate = 150e6;
constexpr double fastest_step = 1e-9;

// What a run holds at its peak besides the simulation (simulation_bytes), for `particles`
// particles and `frames` frames of `frame` bytes, one every `every` steps, whose per-particle
// series hold `components` numbers per particle (3, or 1 for x alone).
std::size_t run_bytes(std::size_t particles, std::size_t frame, std::int64_t frames,
                      std::int64_t every, std::size_t components) {
  // The writer's copy of the radii, masses and species. (The per-bead results the summary takes
  // when the run ends are copied once the simulation has freed its memory: not at the peak.)
  const std::size_t per_particle = 2 * sizeof(double) + sizeof(int);
  // Frames: the one the writer's thread writes and the one the run copies out meanwhile (held),
  // and those waiting in its queue: the share of the frames that the steps between two of them take
  // less time to make than the writer takes to write one, up to H5mdWriter::queue_bytes (a
  // bound, which a run of fewer or sparser frames does not reach). Each dataset buffers its
  // rows up to Growing::spill_bytes before writing them, and on to the end of a row of chunks,
  // and compressing a frame's largest dataset takes about twice its rows.
  const auto count = static_cast<std::size_t>(std::max<std::int64_t>(frames, 1));
  // In flight beside the rows buffered below: the frame being written while the run copies out
  // the next, both only when there is a next (a run of two frames holds one, the first frame's
  // rows already in the buffers).
  const std::size_t held = std::min<std::size_t>(count - 1, 2) * frame;
  const double making = static_cast<double>(every) * static_cast<double>(particles) * fastest_step;
  const double writing = static_cast<double>(frame) / write_rate;
  const double waiting = writing > making ? 1.0 - making / writing : 0.0;
  const auto queued = static_cast<std::size_t>(
      std::min(waiting * static_cast<double>((count - std::min<std::size_t>(count, 2)) * frame),
               static_cast<double>(H5mdWriter::queue_bytes)));
  // The three per-particle series (N x D doubles a frame) hold the most.
  const std::size_t row = particles * components * sizeof(double);
  const std::size_t block = hdf5::chunk_shape({particles, components}, count, sizeof(double))[0] *
                            std::max<std::size_t>(row, 1);
  // Where chunks are single frames of at least spill_bytes, frames go to the file from where
  // they are; the estimate keeps spill_bytes there, as it always had.
  const std::size_t spill =
      block >= hdf5::Growing::spill_bytes && block == row
          ? hdf5::Growing::spill_bytes
          : std::min(count * row, (hdf5::Growing::spill_bytes + block - 1) / block * block);
  const std::size_t buffered = std::min(count * frame, 3 * spill);
  return program_bytes + particles * per_particle + held + queued + buffered + 2 * frame / 3;
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

// The run must fit in memory before anything is allocated: the simulation (simulation_bytes), what
// the run adds (run_bytes), and what building it holds at once (the bodies and their
// separations), for a run of two frames at least. The engine is not known yet: a case whose
// particles are the chain alone, laid out along the x axis, is taken for the chain engine's
// (which estimated_peak_memory confirms once the chain is built), any other for the general
// engine's, which takes more; its pairs share their coefficients where every bead and the
// striker are alike.
std::size_t check_memory(const Case& c, const RunSetup& run, const ChainPlan& plan,
                         std::size_t particles, const layout::OutputSelection& output) {
  const CaseSpec& spec = c.spec();
  const bool chain = spec.simulation.engine != SimulationSettings::EngineChoice::general &&
                     !spec.extra.particles && !spec.initial.file &&
                     spec.gravity.acceleration[1] == 0.0 && spec.gravity.acceleration[2] == 0.0;
  const auto uniform = [](const auto& list) {
    return list.period() == 1 && list.set_apart.empty();
  };
  // Chains pressed together have all their pairs touch at the start; others only those that
  // the rounding of their positions makes overlap, which the estimate that follows the chain's
  // construction counts (estimated_peak_memory).
  const bool pressed = plan.overlap > 0.0 || plan.static_overlap;
  SimulationShape shape{
      .chain = chain, .on_x_axis = chain, .pairs_touching_at_start = pressed ? particles : 0};
  shape.shared_coeffs = uniform(plan.radii) && uniform(plan.materials) && plan.taper == 1.0 &&
                        !spec.striker.radius && !spec.striker.material;
  shape.shared_state = no_model_keeps_state(run.settings);
  const std::size_t contacts = particles + 1;
  // The error estimate's second simulation (estimates_error, for a run of its own).
  const ErrorEstimate estimate = spec.simulation.error_estimate;
  const bool shadow = estimate == ErrorEstimate::on ||
                      (estimate == ErrorEstimate::automatic &&
                       particles <= static_cast<std::size_t>(auto_error_estimate_particles));
  const std::size_t need = simulation_bytes(particles, contacts, shape) * (shadow ? 2 : 1) +
                           particles * (sizeof(Body) + sizeof(double)) +
                           run_bytes(particles,
                                     H5mdWriter::frame_bytes(particles, contacts, output,
                                                             !c.spec().contact_pairs.empty()),
                                     2, 1, output.components());
  const std::size_t available = recent_available_memory();
  if (available == 0 || need <= available) return need;
  const long long count = c.spec().chain.count;
  std::ostringstream m;
  m << std::setprecision(3) << static_cast<double>(count) << " beads need about "
    << static_cast<double>(need) / 1e9 << " GB (" << need / particles << " bytes per bead"
    << (shadow ? ", with the error estimate's second simulation" : "") << "), more than the "
    << static_cast<double>(available) / 1e9 << " GB this machine has available";
  c.fail(c.spec().chain.count, m.str());
}

}  // namespace setup

namespace {

// How many contacts `run` tracks: the chain engine's pairs join neighbours; the general engine's
// candidates are about as many.
std::size_t tracked_contacts(const RunSetup& run) {
  const auto particles = static_cast<std::size_t>(run.scene.particles.size());
  return steps_on_chain_engine(run) ? particles - 1 + run.scene.walls.size() : particles + 1;
}

// xdmf_bytes, which writes the XDMF text of one and of two frames to measure them: some ten
// microseconds, a good part of setting up a small case, which a sweep would spend on every case.
// Its value depends on its arguments only: the last few are remembered (per thread: a sweep sets
// its cases up on several).
std::size_t remembered_xdmf_bytes(std::int64_t frames, std::int64_t particles,
                                  const layout::OutputSelection& output) {
  struct Entry {
    std::int64_t frames = -1, particles = -1;
    layout::OutputSelection output;
    std::size_t bytes = 0;
  };
  thread_local std::array<Entry, 4> recent;
  thread_local std::size_t next = 0;
  for (const Entry& e : recent)
    if (e.frames == frames && e.particles == particles && e.output == output) return e.bytes;
  Entry& e = recent[next];
  next = (next + 1) % recent.size();
  e = {frames, particles, output, xdmf_bytes(frames, particles, output)};
  return e.bytes;
}

// Bytes of one output frame of `run`, before compression.
std::size_t frame_bytes(const RunSetup& run) {
  return H5mdWriter::frame_bytes(static_cast<std::size_t>(run.scene.particles.size()),
                                 tracked_contacts(run), run.output, run.settings.model_count() > 1);
}

}  // namespace

namespace setup {

double output_interval_within_budget(const Case& c, RunSetup& run) {
  const OutputSpec& s = c.spec().output;
  const double interval = requested_output_interval(s, run.duration);
  if (s.interval != 0.0) return interval;  // given: checked against the budget once planned
  const auto frames = static_cast<double>(std::llround(run.duration / interval)) + 1.0;
  if (!run.output.writes_frames()) return interval;  // no frame: nothing to budget
  const auto xdmf = s.xdmf ? remembered_xdmf_bytes(2, run.scene.particles.size(), run.output) -
                                 remembered_xdmf_bytes(1, run.scene.particles.size(), run.output)
                           : 0;
  const double per_frame = static_cast<double>(frame_bytes(run) + xdmf);
  const double fit = std::floor(s.max_file_size / per_frame);
  if (frames <= fit) return interval;
  if (fit < 2.0) return interval;  // not even the first and last frames: refused once planned
  std::ostringstream note;
  note << "automatic: " << static_cast<long long>(fit) << " frames instead of "
       << static_cast<long long>(frames) << ", so that the output stays within "
       << c.key(s.max_file_size) << " = " << bytes_text(s.max_file_size);
  run.output_interval_note = note.str();
  return run.duration / (fit - 1.0);
}

void check_output_budget(const Case& c, const RunSetup& run) {
  const OutputSpec& s = c.spec().output;
  const RunSetup::OutputEstimate& e = run.estimate;
  const double total = static_cast<double>(e.hdf5_bytes + e.xdmf_bytes);
  if (total <= s.max_file_size) return;
  std::ostringstream m;
  m << "is " << bytes_text(s.max_file_size) << ", but the output would take up to "
    << bytes_text(total) << " (" << e.frames << " frames of " << run.scene.particles.size()
    << " particles, before compression";
  if (e.xdmf_bytes > 0)
    m << ", of which " << bytes_text(static_cast<double>(e.xdmf_bytes)) << " XDMF";
  m << "): raise it, or write fewer frames (" << c.key(s.interval) << ", or 0 for an interval "
    << "within the budget), or less (" << c.key(s.contacts) << " = false, " << c.key(s.xdmf)
    << " = false)";
  c.fail(s.max_file_size, m.str());
}

}  // namespace setup

namespace {

// What the simulation of `run` will share and hold (ChainEngine::build_contacts).
// The neighbours of a chain that overlap at the start, by the rounding of the positions of
// beads that just touch too: the chain engine's first evaluation is their first touch.
std::size_t pairs_touching_at_start(const Particles& p) {
  const double* x = p.position.col(0).data();
  const double* r = p.radius.data();
  std::size_t touching = 0;
  for (Eigen::Index i = 0; i + 1 < p.size(); ++i)
    touching += (r[i] + r[i + 1]) - (x[i + 1] - x[i]) > 0.0;
  return touching;
}

SimulationShape simulation_shape(const RunSetup& run) {
  const Particles& p = run.scene.particles;
  SimulationShape shape;
  shape.chain = steps_on_chain_engine(run);
  // Equal bodies make equal pairs, which share their coefficients.
  shape.shared_coeffs =
      p.size() > 0 && (p.radius == p.radius(0)).all() && (p.mass == p.mass(0)).all() &&
      std::all_of(p.material.begin(), p.material.end(), [&](int m) { return m == p.material[0]; });
  shape.shared_state = no_model_keeps_state(run.settings);
  shape.loads = p.external_force.rows() > 0;
  shape.on_x_axis =
      shape.chain && p.size() > 0 && p.position(0, 1) == 0.0 && p.position(0, 2) == 0.0;
  if (shape.chain) shape.pairs_touching_at_start = pairs_touching_at_start(p);
  return shape;
}

}  // namespace

std::size_t automatic_components(const RunSetup& run) {
  const Vec3Array& x = run.scene.particles.position;
  return steps_on_chain_engine(run) && x(0, 1) == 0.0 && x(0, 2) == 0.0 ? 1 : 3;
}

RunSetup::OutputEstimate estimate_output(const RunSetup& run) {
  RunSetup::OutputEstimate e;
  const std::int64_t particles = run.scene.particles.size();
  e.frames = run.output.writes_frames() ? layout::frames_written(run.steps, run.output_every) : 0;
  e.hdf5_bytes = static_cast<std::size_t>(e.frames) * frame_bytes(run) + (std::size_t{64} << 10);
  e.xdmf_bytes = writes_xdmf(run) ? remembered_xdmf_bytes(e.frames, particles, run.output) : 0;
  SimulationShape saved = simulation_shape(run);
  saved.on_x_axis = false;  // a checkpoint holds the zeros that memory does not
  saved.pairs_touching_at_start.reset();
  e.checkpoint_bytes =
      simulation_bytes(static_cast<std::size_t>(particles), tracked_contacts(run), saved);
  return e;
}

std::size_t estimated_peak_memory(const RunSetup& run) {
  const auto particles = static_cast<std::size_t>(run.scene.particles.size());
  const std::size_t contacts = tracked_contacts(run);
  // The chain engine's history columns: plastic laws keep seven doubles per pair, the laws that
  // read v0 five.
  std::size_t history = 0;
  if (steps_on_chain_engine(run))
    for (int k = 0; k < run.settings.model_count(); ++k)
      history = std::max(history, with_kernel(run.settings.model(k).law->kernel, [](auto kernel) {
                           using KernelT = decltype(kernel);
                           return kernels::history_in_columns<KernelT>           ? std::size_t{7}
                                  : kernels::reads_only_impact_velocity<KernelT> ? std::size_t{5}
                                                                                 : std::size_t{0};
                         }));
  const std::int64_t frames = layout::frames_written(run.steps, run.output_every);
  const std::size_t frame = frame_bytes(run);
  const std::size_t simulation = simulation_bytes(particles, contacts, simulation_shape(run)) +
                                 contacts * history * sizeof(double);
  // The second simulation of the error estimate, at half the step, as `chaindem run` runs it.
  const std::size_t shadow = estimates_error(run, true) ? simulation : 0;
  return simulation + shadow +
         setup::run_bytes(particles, frame, frames, run.output_every, run.output.components());
}

}  // namespace chaindem
