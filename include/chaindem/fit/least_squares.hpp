#pragma once
// Bounded nonlinear least squares for fitting contact laws to measurements (docs/fit.md): Ceres
// Solver's Levenberg-Marquardt from several starts, the covariance at the optimum, profile
// likelihood intervals where the covariance is unreliable, and the information criteria that
// rank models with different numbers of parameters.
//
// A model is a residual function r(theta): (data - prediction) / sigma per point, sigma the
// point's uncertainty when the data give one (then the fit is a chi-square fit), 1 otherwise (a
// least-squares fit whose scale, the variance of a point, is estimated from the residuals).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "chaindem/value_range.hpp"

namespace chaindem::fit {

/// A parameter the fit adjusts: its range (a law parameter's, from the registry, narrowed by
/// the user's bounds) and where a search may start.
struct FreeParameter {
  std::string key;
  std::string unit;
  ValueRange range;             ///< its ends may be infinite
  std::optional<double> start;  ///< the first start (a default, or the user's guess)
};

/// r(theta) into `residuals` (already sized); false where the model cannot be evaluated there
/// (an impact that never separates): the search then steps back.
using ResidualFunction =
    std::function<bool(const std::vector<double>& theta, std::vector<double>& residuals)>;

struct Problem {
  std::vector<FreeParameter> parameters;
  std::size_t residual_count = 0;
  ResidualFunction residuals;
  bool sigma_known = false;  ///< residuals are divided by the data's uncertainties
};

struct Options {
  int starts = 8;          ///< the first at the parameters' starts, the others drawn at random
  std::uint64_t seed = 1;  ///< of the random starts: a fit is reproducible
  double confidence = 0.95;
};

/// A confidence interval and how it was obtained: "covariance" (estimate +- t SE), "profile"
/// (where the profile likelihood ratio reaches its quantile; an end at a bound of the
/// parameter's range means the data do not bound it there) or "bootstrap" (percentiles of
/// refits to resampled residuals, bootstrap()).
struct Interval {
  double low = 0.0, high = 0.0;
  std::string method;
};

struct Result {
  std::vector<double> values;           ///< the best fit
  std::vector<double> standard_errors;  ///< from the covariance (NaN where it is unreliable)
  std::vector<Interval> intervals;
  std::vector<double> residuals;  ///< at the best fit
  Eigen::MatrixXd covariance;     ///< of the values (scaled by `scale`); empty if singular
  double rss = 0.0;               ///< sum of squared residuals
  std::size_t points = 0, parameters = 0;
  double scale = 1.0;  ///< variance of a point: 1 with known sigma, else rss / (n - k)
  double aicc = 0.0;   ///< Akaike's criterion with the small-sample correction
  double bic = 0.0;    ///< Schwarz's criterion
  int starts_converged = 0;
  std::string note;  ///< why an interval is a profile one, a start failed, ...
};

/// Where the first search starts: each parameter's start, else the middle of its range (of its
/// logarithm for a range of decades). Throws std::invalid_argument for a parameter with neither
/// a start nor a bounded range.
std::vector<double> first_start(const std::vector<FreeParameter>& parameters);

/// Residual bootstrap: how many refits, and how the residuals are resampled. The problem's
/// residual function must allow calls from several threads at once when `threads` > 1.
struct BootstrapOptions {
  int samples = 0;  ///< refits; 0: none
  /// Consecutive residuals resampled together (a moving-block bootstrap): 1 for independent
  /// points; longer for residuals correlated along a sequence (a time series), so that each
  /// resample keeps their correlation over that length.
  std::size_t block = 1;
  /// Lengths of the sequences the residuals form, in order (their sum is the problem's
  /// residual count); a block never spans two. Empty: one sequence.
  std::vector<std::size_t> sequences;
  std::uint64_t seed = 1;
  /// Refits at once (OpenMP; inside an active parallel region they run on its thread). The
  /// intervals do not depend on it: each refit draws from its own seeded generator.
  int threads = 1;
};

/// Percentile intervals at `confidence` of each parameter from `options.samples` refits of
/// `problem`, each to the best fit's prediction plus the best fit's residuals resampled in
/// blocks (r*(theta) = r(theta) - r(best) + e*, e* the resampled residuals scaled by
/// sqrt(n / (n - k)), since fitted residuals scatter less than the errors), each refit started
/// at the best fit. `refits` (if given) receives how many of the samples converged; with fewer
/// than ten, the intervals are NaN.
std::vector<Interval> bootstrap(const Problem& problem, const Result& best, double confidence,
                                const BootstrapOptions& options, int* refits = nullptr);

/// A block length for bootstrap() that keeps the residuals' correlation: twice their
/// correlation length (1 + rho) / (1 - rho), rho their lag-one autocorrelation pooled over the
/// `sequences` (empty: one), at least 1 and at most a quarter of the shortest sequence.
std::size_t suggested_block(const std::vector<double>& residuals,
                            const std::vector<std::size_t>& sequences);

/// Fits `problem`. Throws std::invalid_argument when a parameter has no finite place to start
/// (an unbounded range and no start), std::runtime_error when no start converges.
Result solve(const Problem& problem, const Options& options = {});

}  // namespace chaindem::fit
