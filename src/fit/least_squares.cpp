#include "chaindem/fit/least_squares.hpp"

#include <ceres/ceres.h>
#include <glog/logging.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>

namespace chaindem::fit {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Ceres reports a search that stops on a point the model refuses through glog, on stderr;
// chaindem reports its fits itself.
const bool ceres_quiet = [] {
  FLAGS_minloglevel = google::GLOG_FATAL;
  return true;
}();

// The range a search may use: an open end is kept off by a relative margin (a restitution of
// exactly 0 or a stiffness of 0 is outside the law's range).
struct Bounds {
  double lower, upper;
};
Bounds search_bounds(const FreeParameter& p) {
  const ValueRange& r = p.range;
  double scale = 1.0;
  if (p.start) scale = std::max(scale, std::abs(*p.start));
  if (std::isfinite(r.max)) scale = std::max(scale, std::abs(r.max));
  const double margin = 1e-9 * scale;
  return {!r.min_inclusive && std::isfinite(r.min) ? r.min + margin : r.min,
          !r.max_inclusive && std::isfinite(r.max) ? r.max - margin : r.max};
}

// The size of a parameter: Ceres works on the values divided by it, so that a yield stress of
// 4e8 Pa and a restitution of 0.6 are searched alike (its steps and trust region are in the
// units of what it searches).
double parameter_scale(const FreeParameter& p) {
  if (p.start && *p.start != 0.0) return std::abs(*p.start);
  const double largest = std::max(std::isfinite(p.range.min) ? std::abs(p.range.min) : 0.0,
                                  std::isfinite(p.range.max) ? std::abs(p.range.max) : 0.0);
  return largest > 0.0 ? largest : 1.0;
}

// Ceres' view of the model, on the scaled values: every residual finite, or the point is
// refused. Its numerical derivatives step across the bounds (a restitution of 1 + h), where the
// model is not defined: a value outside its range is evaluated at the bound.
struct Cost {
  const Problem* problem;
  std::vector<double> scale;
  std::vector<Bounds> bounds;  // search_bounds of each parameter
  Cost(const Problem* p, std::vector<double> s) : problem(p), scale(std::move(s)) {
    for (const FreeParameter& parameter : p->parameters) bounds.push_back(search_bounds(parameter));
  }
  bool operator()(double const* const* parameters, double* residuals) const {
    std::vector<double> theta(parameters[0], parameters[0] + problem->parameters.size());
    for (std::size_t j = 0; j < theta.size(); ++j)
      theta[j] = std::clamp(theta[j] * scale[j], bounds[j].lower, bounds[j].upper);
    std::vector<double> r(problem->residual_count);
    if (!problem->residuals(theta, r)) return false;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (!std::isfinite(r[i])) return false;
      residuals[i] = r[i];
    }
    return true;
  }
};

// A range wide enough that a search should be spread over its logarithm: a declared positive
// lower end (not an open 0 kept off by a margin) and a finite upper end.
bool logarithmic(const FreeParameter& p) {
  const ValueRange& r = p.range;
  return r.min > 0.0 && std::isfinite(r.max) && r.max / r.min > 100.0;
}

// Another start, drawn over the range (its logarithm for a wide one), or within a decade of the
// first start where the range is unbounded.
std::vector<double> random_start(const Problem& problem, const std::vector<double>& first,
                                 std::mt19937_64& random) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> x;
  for (std::size_t j = 0; j < problem.parameters.size(); ++j) {
    const Bounds b = search_bounds(problem.parameters[j]);
    double v;
    if (std::isfinite(b.lower) && std::isfinite(b.upper))
      v = logarithmic(problem.parameters[j]) ? b.lower * std::pow(b.upper / b.lower, u(random))
                                             : b.lower + (b.upper - b.lower) * u(random);
    else if (first[j] > 0.0)
      v = first[j] * std::pow(10.0, 2.0 * u(random) - 1.0);
    else
      v = first[j] + (2.0 * u(random) - 1.0) * std::max(1.0, std::abs(first[j]));
    x.push_back(std::clamp(v, b.lower, b.upper));
  }
  return x;
}

// The sum of squared residuals at `x`; NaN where the model cannot be evaluated.
double sum_of_squares(const Problem& problem, const std::vector<double>& x) {
  std::vector<double> r(problem.residual_count);
  if (!problem.residuals(x, r)) return nan;
  double rss = 0.0;
  for (double e : r) rss += e * e;
  return std::isfinite(rss) ? rss : nan;
}

// One local search from `x` (updated in place), the parameters in `fixed` held (fewer than
// all); the final sum of squared residuals, or NaN when the search found nothing usable.
double local_fit(const Problem& problem, std::vector<double>& x,
                 const std::vector<int>& fixed = {}) {
  std::vector<double> scale, u;
  for (std::size_t j = 0; j < x.size(); ++j) {
    scale.push_back(parameter_scale(problem.parameters[j]));
    u.push_back(x[j] / scale[j]);
  }
  ceres::Problem::Options problem_options;
  ceres::Problem ceres_problem(problem_options);
  auto* cost =
      new ceres::DynamicNumericDiffCostFunction<Cost, ceres::CENTRAL>(new Cost(&problem, scale));
  cost->AddParameterBlock(static_cast<int>(x.size()));
  cost->SetNumResiduals(static_cast<int>(problem.residual_count));
  ceres_problem.AddResidualBlock(cost, nullptr, u.data());
  for (std::size_t j = 0; j < x.size(); ++j) {
    const Bounds b = search_bounds(problem.parameters[j]);
    if (std::isfinite(b.lower))
      ceres_problem.SetParameterLowerBound(u.data(), int(j), b.lower / scale[j]);
    if (std::isfinite(b.upper))
      ceres_problem.SetParameterUpperBound(u.data(), int(j), b.upper / scale[j]);
  }
  if (!fixed.empty())
    ceres_problem.SetManifold(u.data(), new ceres::SubsetManifold(int(x.size()), fixed));
  ceres::Solver::Options options;
  options.linear_solver_type = ceres::DENSE_QR;
  options.max_num_iterations = 200;
  options.function_tolerance = 1e-12;
  options.parameter_tolerance = 1e-12;
  options.gradient_tolerance = 1e-14;
  options.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(options, &ceres_problem, &summary);
  if (!summary.IsSolutionUsable()) return nan;
  for (std::size_t j = 0; j < x.size(); ++j) {  // within the range, not a rounding past it
    const Bounds b = search_bounds(problem.parameters[j]);
    x[j] = std::clamp(u[j] * scale[j], b.lower, b.upper);
  }
  return 2.0 * summary.final_cost;  // Ceres minimises half the sum of squares
}

// The covariance of the values at `x`, unscaled ((J^T J)^-1); empty when J^T J is singular.
Eigen::MatrixXd unscaled_covariance(const Problem& problem, const std::vector<double>& x) {
  std::vector<double> scale, u;
  for (std::size_t j = 0; j < x.size(); ++j) {
    scale.push_back(parameter_scale(problem.parameters[j]));
    u.push_back(x[j] / scale[j]);
  }
  ceres::Problem ceres_problem;
  auto* cost =
      new ceres::DynamicNumericDiffCostFunction<Cost, ceres::CENTRAL>(new Cost(&problem, scale));
  cost->AddParameterBlock(static_cast<int>(x.size()));
  cost->SetNumResiduals(static_cast<int>(problem.residual_count));
  ceres_problem.AddResidualBlock(cost, nullptr, u.data());
  ceres::Covariance::Options options;
  options.algorithm_type = ceres::DENSE_SVD;
  options.min_reciprocal_condition_number = 1e-14;
  ceres::Covariance covariance(options);
  const std::vector<std::pair<const double*, const double*>> blocks{{u.data(), u.data()}};
  if (!covariance.Compute(blocks, &ceres_problem)) return {};
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> c(x.size(), x.size());
  if (!covariance.GetCovarianceBlock(u.data(), u.data(), c.data())) return {};
  const Eigen::VectorXd s = Eigen::Map<const Eigen::VectorXd>(scale.data(), Eigen::Index(x.size()));
  return s.asDiagonal() * Eigen::MatrixXd(c) * s.asDiagonal();  // back to the values' units
}

// The likelihood ratio statistic of the sum of squares `rss` against the best `best`.
double likelihood_ratio(const Result& r, double rss, bool sigma_known) {
  return sigma_known ? rss - r.rss : double(r.points) * std::log(rss / r.rss);
}

// Where the profile of parameter j crosses `quantile`, going up (direction +1) or down from the
// best fit; the bound of the range when it never does.
double profile_end(const Problem& problem, const Result& r, std::size_t j, int direction,
                   double quantile) {
  const Bounds b = search_bounds(problem.parameters[j]);
  const double best = r.values[j];
  const double end = direction > 0 ? b.upper : b.lower;
  // The statistic with parameter j at v and the others at their best for it.
  auto statistic = [&](double v) {
    std::vector<double> x = r.values;
    x[j] = v;
    const double rss = problem.parameters.size() == 1 ? sum_of_squares(problem, x)
                                                      : local_fit(problem, x, {int(j)});
    return std::isnan(rss) ? std::numeric_limits<double>::infinity()
                           : likelihood_ratio(r, rss, problem.sigma_known);
  };
  double step = std::isfinite(r.standard_errors[j]) && r.standard_errors[j] > 0.0
                    ? r.standard_errors[j]
                    : 1e-3 * std::max(std::abs(best), 1e-12);
  double inside = best, outside = best;
  for (int k = 0; k < 60; ++k) {
    double v = best + direction * step;
    if ((direction > 0 && v >= end) || (direction < 0 && v <= end)) {
      if (!std::isfinite(end) || statistic(end) <= quantile) return end;
      outside = end;
      break;
    }
    if (statistic(v) > quantile) {
      outside = v;
      break;
    }
    inside = v;
    step *= 2.0;
    if (k == 59) return end;
  }
  for (int k = 0; k < 40; ++k) {  // bisection between the last value inside and the first out
    const double middle = 0.5 * (inside + outside);
    (statistic(middle) > quantile ? outside : inside) = middle;
  }
  return 0.5 * (inside + outside);
}

}  // namespace

std::vector<double> first_start(const std::vector<FreeParameter>& parameters) {
  std::vector<double> x;
  for (const FreeParameter& p : parameters) {
    const Bounds b = search_bounds(p);
    if (p.start)
      x.push_back(std::clamp(*p.start, b.lower, b.upper));
    else if (std::isfinite(b.lower) && std::isfinite(b.upper))
      x.push_back(logarithmic(p) ? std::sqrt(b.lower * b.upper) : 0.5 * (b.lower + b.upper));
    else
      throw std::invalid_argument("parameter '" + p.key +
                                  "' has an unbounded range and no default: give it a start");
  }
  return x;
}

Result solve(const Problem& problem, const Options& options) {
  const std::size_t k = problem.parameters.size();
  const std::size_t n = problem.residual_count;
  Result r;
  r.points = n;
  r.parameters = k;
  const std::vector<double> first = first_start(problem.parameters);
  std::mt19937_64 random(options.seed);
  double best = std::numeric_limits<double>::infinity();
  for (int s = 0; s < std::max(options.starts, 1); ++s) {
    std::vector<double> x = s == 0 ? first : random_start(problem, first, random);
    const double rss = k == 0 ? nan : local_fit(problem, x);
    if (std::isnan(rss)) continue;
    ++r.starts_converged;
    if (rss < best) {
      best = rss;
      r.values = x;
    }
  }
  if (r.values.empty())
    throw std::runtime_error(
        "no start of the search reached a point where the model could be evaluated (its "
        "impacts never end, or its runs fail, wherever the search went)");
  r.residuals.assign(n, nan);
  if (!problem.residuals(r.values, r.residuals))  // it was evaluated there by the search
    throw std::runtime_error("the model cannot be evaluated at its best fit");
  r.rss = 0.0;
  for (double e : r.residuals) r.rss += e * e;

  // Covariance, scaled by the variance of a point when the data give no uncertainties.
  const double dof = double(n) - double(k);
  r.scale = problem.sigma_known ? 1.0 : (dof > 0 ? r.rss / dof : nan);
  const Eigen::MatrixXd c = unscaled_covariance(problem, r.values);
  if (c.size() > 0 && std::isfinite(r.scale)) r.covariance = c * r.scale;
  const double q_interval =
      problem.sigma_known || dof < 1
          ? boost::math::quantile(boost::math::normal(), 0.5 + options.confidence / 2)
          : boost::math::quantile(boost::math::students_t(dof), 0.5 + options.confidence / 2);
  const double q_profile = boost::math::quantile(boost::math::chi_squared(1.0), options.confidence);
  for (std::size_t j = 0; j < k; ++j) {
    const double se = r.covariance.size() ? std::sqrt(r.covariance(j, j)) : nan;
    r.standard_errors.push_back(se);
    const Bounds b = search_bounds(problem.parameters[j]);
    Interval i{r.values[j] - q_interval * se, r.values[j] + q_interval * se, "covariance"};
    // Where the covariance says nothing, or its interval leaves the range (the estimate near a
    // bound, where the quadratic approximation fails): the profile likelihood.
    if (!std::isfinite(se) || i.low < b.lower || i.high > b.upper) {
      i = {profile_end(problem, r, j, -1, q_profile), profile_end(problem, r, j, +1, q_profile),
           "profile"};
    }
    r.intervals.push_back(i);
  }

  // Information criteria: with unknown sigma, the variance of a point is one more parameter.
  const double nn = double(n);
  const double kk = problem.sigma_known ? double(k) : double(k) + 1.0;
  const double minus_2_log_l =
      problem.sigma_known ? r.rss : nn * (std::log(2.0 * M_PI * r.rss / nn) + 1.0);
  r.aicc = minus_2_log_l + 2.0 * kk +
           (nn - kk - 1.0 > 0.0 ? 2.0 * kk * (kk + 1.0) / (nn - kk - 1.0)
                                : std::numeric_limits<double>::infinity());
  r.bic = minus_2_log_l + kk * std::log(nn);
  return r;
}

std::size_t suggested_block(const std::vector<double>& residuals,
                            const std::vector<std::size_t>& sequences) {
  const std::vector<std::size_t> lengths =
      sequences.empty() ? std::vector<std::size_t>{residuals.size()} : sequences;
  double lag0 = 0.0, lag1 = 0.0;
  std::size_t first = 0, shortest = residuals.size();
  for (const std::size_t length : lengths) {
    double mean = 0.0;
    for (std::size_t i = first; i < first + length; ++i) mean += residuals.at(i) / double(length);
    for (std::size_t i = first; i < first + length; ++i) {
      lag0 += (residuals[i] - mean) * (residuals[i] - mean);
      if (i + 1 < first + length) lag1 += (residuals[i] - mean) * (residuals[i + 1] - mean);
    }
    first += length;
    shortest = std::min(shortest, length);
  }
  const double rho = lag0 > 0.0 ? std::clamp(lag1 / lag0, 0.0, 0.99) : 0.0;
  const double block = std::ceil(2.0 * (1.0 + rho) / (1.0 - rho));
  return std::max<std::size_t>(1, std::min(std::size_t(block), shortest / 4));
}

std::vector<Interval> bootstrap(const Problem& problem, const Result& best, double confidence,
                                const BootstrapOptions& options, int* refits) {
  const std::size_t n = problem.residual_count, k = problem.parameters.size();
  // Each sequence is resampled from its own blocks: every run of `block` consecutive residuals
  // within it (a sequence shorter than a block is one block).
  struct Sequence {
    std::size_t first, length, block;
  };
  std::vector<Sequence> sequences;
  std::size_t first = 0;
  for (const std::size_t length :
       options.sequences.empty() ? std::vector<std::size_t>{n} : options.sequences) {
    if (length > 0)
      sequences.push_back(
          {first, length, std::max<std::size_t>(1, std::min(options.block, length))});
    first += length;
  }
  if (first != n || sequences.empty())
    throw std::invalid_argument("bootstrap: the sequences do not add up to the residuals");
  // Fitted residuals scatter less than the errors they stand for (the fit absorbs k of the n
  // degrees of freedom): drawn ones are scaled up by sqrt(n / (n - k)).
  const double inflation = n > k ? std::sqrt(double(n) / double(n - k)) : 1.0;
  // Each refit draws from its own generator, seeded by the sample's number: the refits may run
  // on any number of threads and give the same intervals.
  std::vector<std::vector<double>> refit(std::size_t(std::max(options.samples, 0)));
#pragma omp parallel for schedule(dynamic) num_threads(std::max(options.threads, 1))
  for (int s = 0; s < options.samples; ++s) {
    std::seed_seq seeds{std::uint32_t(options.seed), std::uint32_t(options.seed >> 32),
                        std::uint32_t(s)};
    std::mt19937_64 random(seeds);
    std::vector<double> drawn;
    for (const Sequence& q : sequences) {
      std::uniform_int_distribution<std::size_t> pick(q.first, q.first + q.length - q.block);
      const std::size_t end = drawn.size() + q.length;
      while (drawn.size() < end) {
        const auto from = std::ptrdiff_t(pick(random));
        drawn.insert(drawn.end(), best.residuals.begin() + from,
                     best.residuals.begin() + from + std::ptrdiff_t(q.block));
      }
      drawn.resize(end);
    }
    Problem resampled = problem;
    resampled.residuals = [&problem, &best, &drawn, inflation](const std::vector<double>& theta,
                                                               std::vector<double>& r) {
      if (!problem.residuals(theta, r)) return false;
      for (std::size_t i = 0; i < r.size(); ++i) r[i] += inflation * drawn[i] - best.residuals[i];
      return true;
    };
    std::vector<double> x = best.values;
    try {
      if (!std::isnan(local_fit(resampled, x))) refit[std::size_t(s)] = x;
    } catch (...) {  // a refit that fails is not counted (no exception leaves the loop)
    }
  }
  std::vector<std::vector<double>> values(k);
  int converged = 0;
  for (const std::vector<double>& x : refit) {
    if (x.empty()) continue;
    ++converged;
    for (std::size_t j = 0; j < k; ++j) values[j].push_back(x[j]);
  }
  if (refits) *refits = converged;
  std::vector<Interval> out;
  for (std::vector<double>& v : values) {
    if (v.size() < 10) {
      out.push_back({nan, nan, "bootstrap"});
      continue;
    }
    std::sort(v.begin(), v.end());
    // The empirical quantile at p, interpolated between order statistics.
    auto quantile = [&v](double p) {
      const double at = p * double(v.size() - 1);
      const auto below = std::size_t(std::floor(at));
      const std::size_t above = std::min(below + 1, v.size() - 1);
      return v[below] + (at - double(below)) * (v[above] - v[below]);
    };
    out.push_back({quantile(0.5 - confidence / 2), quantile(0.5 + confidence / 2), "bootstrap"});
  }
  return out;
}

}  // namespace chaindem::fit
