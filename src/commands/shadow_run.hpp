#pragma once
// The time-discretisation error of a run, estimated while it runs (simulation.error_estimate;
// docs/engine.md, "Accuracy of a run"): a second simulation of the same case at half the step
// follows it, and at every output frame both velocities are compared. The schemes are second
// order, so the run's own error is four thirds of the difference (Richardson: u(dt) - u =
// (u(dt) - u(dt/2)) 2^2 / (2^2 - 1)). The finer step, not a coarser one, because the coarser run's
// error is the run's times 2^2 only where both are in the asymptotic range, and contact events
// (a clamped force's kink, a slow re-contact) put the error of a chain's run off that law at
// either step: the difference from a finer run is mostly the run's own error whatever its law.
// Not a library interface: the case runner's.

#include <optional>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/engine/state_archive.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem {

class ShadowRun {
 public:
  /// The shadow of a run of `scene` (copied) with `settings` at half their step.
  ShadowRun(Scene scene, SimulationSettings settings);
  /// At an output frame of `run`: brings the shadow to the same instant and compares the two.
  void at_frame(const Simulation& run);
  /// The estimate into `summary` (error_estimate, final_error_estimate); none when no frame was
  /// compared or the shadow failed.
  void finish(layout::RunSummary& summary) const;
  /// The time the shadow took so far [s]: not the run's (its summary's wall_time leaves it out).
  double seconds() const { return seconds_; }
  /// Into a run's checkpoint: the shadow's state and the comparisons so far.
  void save(StateArchive& a) const;
  /// From a checkpoint save() wrote into; one without the shadow (it had failed) leaves the run
  /// without an estimate. Throws StateArchiveError for a damaged one.
  void restore(const StateArchive& a);

 private:
  std::optional<Simulation> shadow_;
  double largest_difference_ = 0.0, last_difference_ = 0.0;
  double largest_speed_ = 0.0;
  int compared_ = 0;
  double seconds_ = 0.0;
};

}  // namespace chaindem
