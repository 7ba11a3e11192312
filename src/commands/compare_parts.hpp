#pragma once
// The parts of `chaindem compare` (docs/compare.md), shared by its source files:
// - compare_command.cpp: the command line, the plan, running the laws;
// - compare_sampling.cpp: reference data on equal terms: each law's run read at the data's own
//   times, as `fit` reads it, and the metrics of both sides taken from those samples alike (a
//   peak is the largest sample, an arrival the first sample past the threshold, a final value
//   the last sample), with how finely the sampling resolves each metric;
// - compare_report.cpp: the /comparison group, the table and the JSON.
// Not a library interface: the command's own.

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "chaindem/laws/law.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/setup/chain_record.hpp"

namespace chaindem::compare_detail {

/// Per chain bead: one value per metric of layout::comparison_metrics (NaN where there is none).
using Metrics = std::map<std::string, std::vector<double>>;

/// The metrics of `record`'s samples, for a chain of `beads` beads: from velocities the peak,
/// the final value and the arrival (the first sample whose magnitude reaches `arrival_speed`);
/// from forces the peak. NaN for every bead the record does not measure.
Metrics sampled_metrics(const ChainRecord& record, long long beads, double arrival_speed);

/// How finely a record's sampling resolves the metrics.
struct Resolution {
  double interval = 0.0;  ///< median spacing of the samples [s]
  /// Per chain bead: the samples that span its pulse (those at or above half its peak), NaN
  /// where it is not measured.
  std::vector<double> samples_per_pulse;
  /// Per metric and bead, the most the sampling can shift it, in % of its value: a peak by an
  /// eighth of the second difference of the samples around it (a smooth peak between two
  /// samples), an arrival by the spacing before it; a final value not at all.
  Metrics bound;
};
Resolution sampling_resolution(const ChainRecord& record, long long beads, double arrival_speed);

/// The case `case_path` (with `sets` and `unset`) under `law` (of [contact.`pair`], or of
/// [contact] when empty) read at `data`'s times and beads, as a record of the same quantity;
/// nullopt when the run fails at some time (diverges).
std::optional<ChainRecord> run_at_samples(const std::string& case_path,
                                          const std::vector<std::string>& sets,
                                          const std::vector<std::string>& unset,
                                          const LawEntry& law, const std::string& pair,
                                          const ChainRecord& data);

/// |x - reference| / |reference| in %, NaN when either is NaN or the reference is 0.
inline double relative_error_percent(double x, double reference) {
  if (std::isnan(x) || std::isnan(reference) || reference == 0.0)
    return std::numeric_limits<double>::quiet_NaN();
  return 100.0 * std::abs(x - reference) / std::abs(reference);
}

// What the command line gives.
struct CompareInput {
  std::string case_path, laws_text, reference_law, reference_data, quantity = "velocity", output,
                                                                   beads_text;
  std::string pair;  // A.B: the laws are those of [contact.A.B]; empty: of [contact]
  std::vector<std::string> sets, unset;
  int threads = 1;  // --threads, or the OpenMP default (command_threads)
  bool json = false, beads_given = false, quantity_given = false;
  bool force = false;  // replace the output if it exists

  // The reference as the printed results name it.
  const std::string& reference_name() const {
    return reference_law.empty() ? reference_data : reference_law;
  }
  // The key each run sets to its law.
  std::string law_key() const {
    return pair.empty() ? key_name(&CaseSpec::contact, &ContactSpec::law)
                        : pair_key_name(pair, &PairContactSpec::law);
  }
};

// What is settled before anything runs; invalid input is found here, not after the runs.
struct ComparePlan {
  std::vector<std::string> laws;                    // compared, in the order given
  std::vector<std::string> run_laws;                // laws, then a reference law not among them
  std::vector<std::vector<std::string>> overrides;  // the case keys of each run law
  long long first = 0, beads = 0;                   // the chain's first particle and its beads
  double arrival_speed = 0.0;
  double duration = 0.0;                   // of the runs [s]
  std::vector<std::string> notes;          // parameters some laws do not take, ignored
  std::vector<long long> shown;            // the beads of the table
  std::optional<Metrics> given_reference;  // a reference that is not a run
  // --reference-data: the data, whose times every law's run is read at, and how finely they
  // resolve each metric.
  std::optional<ChainRecord> record;
  compare_detail::Resolution resolution;
};

// Per run law: why it failed (empty if it did not), and what its numbers depend on: its v0
// policy and the contacts that began at the floor; with reference data, its metrics at the
// data's times.
struct LawRuns {
  std::vector<std::string> failures, policy;
  std::vector<double> floor_hits, floor;
  std::vector<Metrics> sampled;
};

// Each compared law's metrics against the reference's.
struct Errors {
  Metrics reference;
  std::vector<Metrics> metrics;  // per compared law
  // Per metric, per law: the mean error and the number of beads it is over (where both the
  // law and the reference have a value).
  std::map<std::string, std::vector<double>> mean_error, compared;

  double at(std::size_t law, const std::string& metric, long long bead) const {
    const auto b = static_cast<std::size_t>(bead);
    return relative_error_percent(metrics[law].at(metric)[b], reference.at(metric)[b]);
  }
};

/// The /comparison group `cmp`: the reference, each law's values and errors, and the policies
/// they depend on; with reference data, how finely they resolve each metric. Fills the mean
/// errors of `errors`.
void write_comparison(hid_t cmp, const CompareInput& in, const ComparePlan& plan,
                      const LawRuns& runs, Errors& errors);
/// With reference data: a warning on `err` for each metric whose two best laws differ by less
/// than the data's sampling can shift it.
void warn_unresolved(std::ostream& err, const ComparePlan& plan, const Errors& errors);
void print_json(std::ostream& out, const CompareInput& in, const ComparePlan& plan,
                const LawRuns& runs, const Errors& errors);
void print_table(std::ostream& out, const CompareInput& in, const ComparePlan& plan,
                 const LawRuns& runs, const Errors& errors);

}  // namespace chaindem::compare_detail
