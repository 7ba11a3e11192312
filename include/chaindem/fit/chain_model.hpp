#pragma once
// What a law predicts of a measured chain history, as a function of the parameters a fit
// adjusts (docs/fit.md, "Chain histories"): the case is run under the law, exactly as `chaindem
// run` runs it, and each measured bead's velocity (or largest contact force) is read at the
// record's times, interpolated linearly between the two time steps around each.

#include <string>
#include <vector>

#include "chaindem/fit/least_squares.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/setup/chain_record.hpp"

namespace chaindem::fit {

class ChainModel {
 public:
  /// The case `case_path` with `overrides` ("section.key=value", as --set gives them) and the
  /// keys `unset` removed, run under `law` (its [contact] keys that the law does not take are
  /// ignored); `free`: the keys of [contact] the fit adjusts, in the order of the values
  /// predict() takes; `threads`: of each run's force loops; `pair`: "A.B" when the law and the
  /// free keys are those of the [contact.A.B] section instead, every other contact keeping its
  /// own. Throws LawParamError naming a key the law does not have.
  ChainModel(std::string case_path, std::vector<std::string> overrides,
             std::vector<std::string> unset, const LawEntry& law, std::vector<std::string> free,
             int threads = 1, std::string pair = "");

  /// The number of chain beads and the run's duration [s].
  struct Extent {
    long long beads;
    double duration;
  };
  /// Builds the run with the free parameters at `values` and returns its extent; throws
  /// CaseError naming what the case lacks for the law (a parameter it needs and does not give)
  /// or what is out of range.
  Extent check(const std::vector<double>& values) const;

  /// The record's quantity for each of its beads (out[b][k], b in record.beads order) at each of
  /// its times, the free parameters at `values`. Simulates up to the record's last time, past
  /// the case's duration if it goes on. False when the values are outside the law's ranges or
  /// the integration fails (diverges): the fit steps back.
  bool predict(const std::vector<double>& values, const ChainRecord& record,
               std::vector<std::vector<double>>& out) const;

  const LawEntry& law() const { return law_; }
  const std::vector<std::string>& free_keys() const { return free_; }

 private:
  std::vector<std::string> overrides(const std::vector<double>& values) const;

  std::string case_path_;
  std::vector<std::string> overrides_, unset_;
  const LawEntry& law_;
  std::vector<std::string> free_;
  int threads_;
  std::string pair_;  // "A.B" of the section fitted; empty: [contact]
};

/// The fit of `model`'s free parameters (`parameters`, in the order of its free keys) to
/// `record`: one residual per measured value, bead after bead, (measured - predicted) / sigma
/// with `sigma` > 0 the uncertainty of every value (in SI units), unweighted with 0. The problem
/// refers to `model` and `record`, which must outlive it.
Problem chain_problem(const ChainModel& model, const ChainRecord& record,
                      std::vector<FreeParameter> parameters, double sigma = 0.0);

}  // namespace chaindem::fit
