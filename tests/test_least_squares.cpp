// The least-squares core of `chaindem fit`: it recovers known parameters, its 95 % intervals
// cover the truth in about 95 % of noise draws, it falls back on profile intervals at a bound,
// and its information criterion prefers the model that made the data.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "chaindem/fit/least_squares.hpp"

namespace chaindem::fit {
namespace {

// y = a exp(-b x) at 20 points, with Gaussian noise of standard deviation `sigma`.
struct Decay {
  std::vector<double> x, y;
  Decay(double a, double b, double sigma, std::mt19937_64& random) {
    std::normal_distribution<double> noise(0.0, sigma);
    for (int i = 0; i < 20; ++i) {
      x.push_back(0.25 * i);
      y.push_back(a * std::exp(-b * x.back()) + noise(random));
    }
  }
  Problem problem(double sigma_given = 0.0) const {
    Problem p;
    p.parameters = {{"a", "-", ValueRange::above_to(0.0, 100.0), 1.0},
                    {"b", "1/s", ValueRange::closed(0.0, 10.0), 0.5}};
    p.residual_count = x.size();
    p.sigma_known = sigma_given > 0.0;
    const double s = sigma_given > 0.0 ? sigma_given : 1.0;
    p.residuals = [this, s](const std::vector<double>& t, std::vector<double>& r) {
      for (std::size_t i = 0; i < x.size(); ++i) r[i] = (y[i] - t[0] * std::exp(-t[1] * x[i])) / s;
      return true;
    };
    return p;
  }
};

TEST(LeastSquares, RecoversTheParametersOfNoiselessData) {
  std::mt19937_64 random(1);
  const Decay d(2.0, 0.7, 0.0, random);
  const Result r = solve(d.problem());
  EXPECT_NEAR(r.values[0], 2.0, 1e-8);
  EXPECT_NEAR(r.values[1], 0.7, 1e-8);
  EXPECT_LT(r.rss, 1e-20);
  EXPECT_EQ(r.starts_converged, 8);
}

// 400 noise draws: each parameter's 95 % interval (covariance, t quantile, scale from the
// residuals; and with the noise known, the normal quantile) covers its true value in 95 % of the
// draws, within 2.5 binomial standard deviations (+-2.7 %). The seed fixes the draws.
TEST(LeastSquares, IntervalsCoverTheTruthAsOftenAsTheyClaim) {
  std::mt19937_64 random(2);
  const int draws = 400;
  std::array<int, 4> covered{};  // a and b, with unknown and with known noise
  for (int k = 0; k < draws; ++k) {
    const Decay d(2.0, 0.7, 0.05, random);
    const Result unknown = solve(d.problem(), {2, 1, 0.95});
    const Result known = solve(d.problem(0.05), {2, 1, 0.95});
    EXPECT_EQ(unknown.intervals[0].method, "covariance");
    for (int j = 0; j < 2; ++j) {
      const double truth = j == 0 ? 2.0 : 0.7;
      covered[j] += unknown.intervals[j].low < truth && truth < unknown.intervals[j].high;
      covered[2 + j] += known.intervals[j].low < truth && truth < known.intervals[j].high;
    }
  }
  for (int c : covered) {
    EXPECT_GE(c, int(0.923 * draws)) << c << " of " << draws;
    EXPECT_LE(c, int(0.977 * draws)) << c << " of " << draws;
  }
}

TEST(LeastSquares, ProfileIntervalAtABound) {
  // y = c at 10 points near the upper end of c's range [0, 1]: the covariance interval (mean
  // 0.99954, standard error 0.00030, t 2.26) would leave the range; the profile interval ends
  // at the bound.
  Problem p;
  p.parameters = {{"c", "-", ValueRange::closed(0.0, 1.0), 0.5}};
  const std::vector<double> y{1.0, 0.999, 1.0, 0.9995, 1.0, 0.997, 1.0, 1.0, 0.9999, 1.0};
  p.residual_count = y.size();
  p.residuals = [&](const std::vector<double>& t, std::vector<double>& r) {
    for (std::size_t i = 0; i < y.size(); ++i) r[i] = y[i] - t[0];
    return true;
  };
  const Result r = solve(p);
  double mean = 0.0;
  for (double v : y) mean += v / double(y.size());
  EXPECT_NEAR(r.values[0], mean, 1e-9);
  EXPECT_EQ(r.intervals[0].method, "profile");
  EXPECT_DOUBLE_EQ(r.intervals[0].high, 1.0);
  EXPECT_LT(r.intervals[0].low, mean);
  EXPECT_GT(r.intervals[0].low, 0.99);
}

TEST(LeastSquares, InformationCriterionPrefersTheModelThatMadeTheData) {
  std::mt19937_64 random(3);
  int simpler_wins = 0;
  for (int k = 0; k < 50; ++k) {
    const Decay d(2.0, 0.7, 0.05, random);
    Problem two = d.problem();
    Problem three = two;  // one more parameter the data do not need: y = a exp(-b x) + c
    three.parameters.push_back({"c", "-", ValueRange::closed(-10.0, 10.0), 0.0});
    three.residuals = [&d](const std::vector<double>& t, std::vector<double>& r) {
      for (std::size_t i = 0; i < d.x.size(); ++i)
        r[i] = d.y[i] - (t[0] * std::exp(-t[1] * d.x[i]) + t[2]);
      return true;
    };
    simpler_wins += solve(two, {2, 1, 0.95}).aicc < solve(three, {2, 1, 0.95}).aicc;
  }
  EXPECT_GE(simpler_wins, 40);
}

TEST(LeastSquares, UnboundedParameterWithoutStartIsRefused) {
  Problem p;
  p.parameters = {{"k", "N/m", ValueRange::above(0.0), std::nullopt}};
  p.residual_count = 1;
  p.residuals = [](const std::vector<double>&, std::vector<double>& r) {
    r[0] = 0.0;
    return true;
  };
  EXPECT_THROW(solve(p), std::invalid_argument);
}

}  // namespace
}  // namespace chaindem::fit

namespace chaindem::fit {
namespace {

// y = a exp(-b x) at `n` points over [0, 5], its noise an AR(1) sequence e_i = phi e_(i-1) +
// w_i of stationary standard deviation `sigma` (phi = 0: independent points).
struct CorrelatedDecay {
  std::vector<double> x, y;
  CorrelatedDecay(int n, double phi, double sigma, std::mt19937_64& random) {
    std::normal_distribution<double> w(0.0, sigma * std::sqrt(1.0 - phi * phi));
    double e = std::normal_distribution<double>(0.0, sigma)(random);
    for (int i = 0; i < n; ++i) {
      x.push_back(5.0 * i / (n - 1));
      y.push_back(2.0 * std::exp(-0.7 * x.back()) + e);
      e = phi * e + w(random);
    }
  }
  Problem problem() const {
    Problem p;
    p.parameters = {{"a", "-", ValueRange::above_to(0.0, 100.0), 1.0},
                    {"b", "1/s", ValueRange::closed(0.0, 10.0), 0.5}};
    p.residual_count = x.size();
    p.residuals = [this](const std::vector<double>& t, std::vector<double>& r) {
      for (std::size_t i = 0; i < x.size(); ++i) r[i] = y[i] - t[0] * std::exp(-t[1] * x[i]);
      return true;
    };
    return p;
  }
};

struct Coverage {
  int covariance = 0, bootstrap = 0;
};

// `draws` data sets: how often b's covariance interval and its bootstrap interval (`block`)
// hold the true 0.7.
Coverage coverage(int draws, int n, double phi, std::size_t block, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Coverage c;
  for (int k = 0; k < draws; ++k) {
    const CorrelatedDecay d(n, phi, 0.05, random);
    const Problem p = d.problem();
    const Result r = solve(p, {1, 1, 0.95});
    c.covariance += r.intervals[1].low <= 0.7 && 0.7 <= r.intervals[1].high;
    int refits = 0;
    const auto b = bootstrap(p, r, 0.95, {200, block, {}, std::uint64_t(k) + 1}, &refits);
    EXPECT_EQ(refits, 200);
    c.bootstrap += b[1].low <= 0.7 && 0.7 <= b[1].high;
  }
  return c;
}

// Independent points: the bootstrap's 95 % intervals cover as often as they claim, like the
// covariance's (200 draws: within +-2.5 binomial standard deviations, 91 to 99 %).
TEST(Bootstrap, CoversAsOftenAsItClaimsOnIndependentPoints) {
  const Coverage c = coverage(200, 20, 0.0, 1, 3);
  EXPECT_GE(c.bootstrap, 182);
  EXPECT_LE(c.bootstrap, 198);
  EXPECT_GE(c.covariance, 182);
}

// Correlated residuals (AR(1), phi = 0.7: errors that last several samples, as a time series
// do): the covariance's intervals, which take the points as independent, hold the truth in
// about half the draws (55 of 100 here); blocks of 15 residuals give back most of the coverage
// (84; a block bootstrap still falls a little short when the correlation spans a few percent
// of the record).
TEST(Bootstrap, BlocksKeepCorrelatedResidualsHonest) {
  const Coverage c = coverage(100, 300, 0.7, 15, 4);
  EXPECT_LT(c.covariance, 70);
  EXPECT_GE(c.bootstrap, 80);
  EXPECT_GE(c.bootstrap - c.covariance, 20);
  const Coverage independent_blocks = coverage(100, 300, 0.7, 1, 4);
  EXPECT_LT(independent_blocks.bootstrap, 70);  // blocks of one: as blind as the covariance
}

// A block never spans two sequences, and the sequences must add up to the residuals.
TEST(Bootstrap, RefusesSequencesThatDoNotAddUp) {
  std::mt19937_64 random(5);
  const CorrelatedDecay d(20, 0.0, 0.05, random);
  const Problem p = d.problem();
  const Result r = solve(p, {1, 1, 0.95});
  EXPECT_THROW(bootstrap(p, r, 0.95, {20, 3, {10, 5}, 1}), std::invalid_argument);
  EXPECT_NO_THROW(bootstrap(p, r, 0.95, {20, 3, {10, 10}, 1}));
}

}  // namespace
}  // namespace chaindem::fit

namespace chaindem::fit {
namespace {

// The refits may run on several threads: each draws from its own generator, so the intervals
// are the same bits on one thread or two.
TEST(Bootstrap, SameIntervalsOnAnyThreadCount) {
  std::mt19937_64 random(6);
  const Decay d(2.0, 0.7, 0.05, random);
  const Problem p = d.problem();
  const Result r = solve(p, {1, 1, 0.95});
  int one_refits = 0, two_refits = 0;
  const auto one = bootstrap(p, r, 0.95, {200, 1, {}, 7, 1}, &one_refits);
  const auto two = bootstrap(p, r, 0.95, {200, 1, {}, 7, 2}, &two_refits);
  EXPECT_EQ(one_refits, two_refits);
  for (std::size_t j = 0; j < one.size(); ++j) {
    EXPECT_EQ(one[j].low, two[j].low);
    EXPECT_EQ(one[j].high, two[j].high);
  }
}

}  // namespace
}  // namespace chaindem::fit
