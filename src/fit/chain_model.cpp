#include "chaindem/fit/chain_model.hpp"

#include <cmath>
#include <stdexcept>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/setup/scene_builder.hpp"
#include "chaindem/text.hpp"

namespace chaindem::fit {
namespace {

// The measured quantity of each bead in `beads` (chain indices) now: its velocity along x, or
// the largest normal force among its touching contacts (0 when it touches nothing), as
// `chaindem compare` reads a run's peak force.
void sample(const Simulation& sim, RecordQuantity quantity, const std::vector<long long>& beads,
            std::vector<double>& out) {
  const Eigen::Index first = sim.scene().chain_first;
  out.assign(beads.size(), 0.0);
  if (quantity == RecordQuantity::velocity) {
    for (std::size_t b = 0; b < beads.size(); ++b)
      out[b] = sim.particles().velocity(first + beads[b], 0);
    return;
  }
  std::vector<double> largest(static_cast<std::size_t>(sim.particles().size()), 0.0);
  auto book = [&](std::size_t particle, double force) {
    largest[particle] = std::max(largest[particle], std::abs(force));
  };
  const ContactList& pairs = sim.pair_contacts();
  for (std::size_t c = 0; c < pairs.size(); ++c)
    if (pairs.touching[c]) {
      book(std::size_t(pairs.first_of(c)), pairs.force[c]);
      book(std::size_t(pairs.second_of(c)), pairs.force[c]);
    }
  const ContactList& walls = sim.wall_contacts();
  for (std::size_t c = 0; c < walls.size(); ++c)
    if (walls.touching[c]) book(std::size_t(walls.first[c]), walls.force[c]);
  for (std::size_t b = 0; b < beads.size(); ++b) out[b] = largest[std::size_t(first + beads[b])];
}

}  // namespace

ChainModel::ChainModel(std::string case_path, std::vector<std::string> overrides,
                       std::vector<std::string> unset, const LawEntry& law,
                       std::vector<std::string> free, int threads, std::string pair)
    : case_path_(std::move(case_path)),
      overrides_(std::move(overrides)),
      unset_(std::move(unset)),
      law_(law),
      free_(std::move(free)),
      threads_(threads),
      pair_(std::move(pair)) {
  for (const std::string& key : free_)
    if (!law_.find_param(key))
      throw LawParamError(key,
                          "'" + key + "' is not a parameter of law '" + std::string(law_.id) + "'");
  overrides_.push_back((pair_.empty() ? key_name(&CaseSpec::contact, &ContactSpec::law)
                                      : pair_key_name(pair_, &PairContactSpec::law)) +
                       "=" + std::string(law_.id));
  overrides_.push_back(key_name(&CaseSpec::simulation, &SimulationSpec::threads) + "=" +
                       std::to_string(threads_));
}

ChainModel::Extent ChainModel::check(const std::vector<double>& values) const {
  const CaseConfig cfg = CaseConfig::load(case_path_, overrides(values), unset_);
  const RunSetup run = build_run(cfg, {.ignore_foreign_law_params = true});
  refuse_accuracy(cfg, run, "fit");
  return {run.scene.chain_count, double(run.steps) * run.settings.time_step};
}

std::vector<std::string> ChainModel::overrides(const std::vector<double>& values) const {
  std::vector<std::string> all = overrides_;
  for (std::size_t k = 0; k < free_.size(); ++k)
    all.push_back((pair_.empty() ? contact_param_key(free_[k]) : pair_param_key(pair_, free_[k])) +
                  "=" + number_text(values.at(k)));
  return all;
}

bool ChainModel::predict(const std::vector<double>& values, const ChainRecord& record,
                         std::vector<std::vector<double>>& out) const {
  RunSetup run;
  try {
    run = build_run(CaseConfig::load(case_path_, overrides(values), unset_),
                    {.ignore_foreign_law_params = true});
  } catch (const CaseError&) {
    return false;  // a value outside the law's range: the search steps back
  }
  out.assign(record.beads.size(), std::vector<double>(record.time.size(), std::nan("")));
  try {
    Simulation sim(std::move(run.scene), run.settings);
    const double dt = sim.time_step();
    // The samples at the two steps around the time asked for: `before` at step n, `after` at
    // step n + 1, the simulation at n + 1.
    std::vector<double> before, after;
    sample(sim, record.quantity, record.beads, after);
    for (std::size_t k = 0; k < record.time.size(); ++k) {
      const double t = std::max(record.time[k], 0.0);  // before the start: the initial state
      const auto n = static_cast<std::int64_t>(std::floor(t / dt));
      if (sim.step_count() < n) {
        sim.advance(n - sim.step_count());
        sample(sim, record.quantity, record.beads, after);
      }
      if (sim.step_count() == n) {
        before = after;
        sim.step();
        sample(sim, record.quantity, record.beads, after);
      }
      const double w = t / dt - double(n);
      for (std::size_t b = 0; b < record.beads.size(); ++b) {
        out[b][k] = before[b] + w * (after[b] - before[b]);
        if (!std::isfinite(out[b][k])) return false;
      }
    }
  } catch (const std::runtime_error&) {
    return false;  // the integration stopped (an overlap of a radius): not a usable point
  } catch (const std::invalid_argument&) {
    return false;  // a state the engine refuses to start from (not finite)
  }
  return true;
}

Problem chain_problem(const ChainModel& model, const ChainRecord& record,
                      std::vector<FreeParameter> parameters, double sigma) {
  if (parameters.size() != model.free_keys().size())
    throw std::invalid_argument("chain_problem: one parameter per free key of the model");
  Problem p;
  p.parameters = std::move(parameters);
  p.residual_count = record.beads.size() * record.time.size();
  p.sigma_known = sigma > 0.0;
  p.residuals = [&model, &record, sigma](const std::vector<double>& theta, std::vector<double>& r) {
    std::vector<std::vector<double>> predicted;
    if (!model.predict(theta, record, predicted)) return false;
    std::size_t k = 0;
    for (std::size_t b = 0; b < record.beads.size(); ++b) {
      const std::vector<double>& measured = record.columns[std::size_t(record.beads[b])];
      for (std::size_t i = 0; i < measured.size(); ++i)
        r[k++] = (measured[i] - predicted[b][i]) / (sigma > 0.0 ? sigma : 1.0);
    }
    return true;
  };
  return p;
}

}  // namespace chaindem::fit
