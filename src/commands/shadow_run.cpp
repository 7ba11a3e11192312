#include "shadow_run.hpp"

#include <array>
#include <chrono>
#include <stdexcept>

namespace chaindem {

ShadowRun::ShadowRun(Scene scene, SimulationSettings settings) {
  settings.time_step *= 0.5;
  shadow_.emplace(std::move(scene), settings);
}

void ShadowRun::at_frame(const Simulation& run) {
  if (!shadow_) return;
  const auto start = std::chrono::steady_clock::now();
  try {
    shadow_->advance(2 * run.step_count() - shadow_->step_count());
  } catch (const std::exception&) {  // failed where the run did not: no estimate
    shadow_.reset();
    return;
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Vec3Array& v = run.particles().velocity;
  const Vec3Array& w = shadow_->particles().velocity;
  const double difference = (v - w).matrix().rowwise().norm().maxCoeff();
  largest_speed_ = std::max(largest_speed_, v.matrix().rowwise().norm().maxCoeff());
  largest_difference_ = std::max(largest_difference_, difference);
  last_difference_ = difference;
  ++compared_;
}

namespace {
constexpr const char* shadow_prefix = "shadow.";  // the shadow's records in the run's archive
constexpr const char* books = "shadow_comparisons";
}  // namespace

void ShadowRun::save(StateArchive& a) const {
  if (!shadow_) return;
  StateArchive own;
  shadow_->save_state(own);
  for (const auto& [name, bytes] : own.records()) a.set_record(shadow_prefix + name, bytes);
  a.put_value(books, std::array{largest_difference_, last_difference_, largest_speed_,
                                static_cast<double>(compared_), seconds_});
}

void ShadowRun::restore(const StateArchive& a) {
  if (!shadow_) return;
  if (!a.contains(books)) {  // the shadow had failed before the checkpoint
    shadow_.reset();
    return;
  }
  StateArchive own;
  const std::string prefix = shadow_prefix;
  for (const auto& [name, bytes] : a.records())
    if (name.rfind(prefix, 0) == 0) own.set_record(name.substr(prefix.size()), bytes);
  shadow_->restore_state(own);
  const auto saved = a.get_value<std::array<double, 5>>(books);
  largest_difference_ = saved[0];
  last_difference_ = saved[1];
  largest_speed_ = saved[2];
  compared_ = static_cast<int>(saved[3]);
  seconds_ = saved[4];
}

void ShadowRun::finish(layout::RunSummary& summary) const {
  if (!shadow_ || compared_ == 0 || !(largest_speed_ > 0.0)) return;
  // Richardson's factor for a second-order scheme and a shadow at half the step: the run's error
  // is four thirds of the difference (the shadow's is a third of it).
  constexpr double richardson = 4.0 / 3.0;
  summary.error_estimate = richardson * largest_difference_ / largest_speed_;
  summary.final_error_estimate = richardson * last_difference_ / largest_speed_;
}

}  // namespace chaindem
