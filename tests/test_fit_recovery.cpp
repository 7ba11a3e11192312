// Parameter recovery and law ranking on synthetic impacts, a few draws of each of five laws
// (validation/fit_recovery.hpp; bench/fit_recovery runs 100): the generating law's 95 %
// intervals hold the true values, and AICc ranks it first among the five.

#include <gtest/gtest.h>

#include "fit_recovery.hpp"

namespace chaindem::fit::recovery {
namespace {

class FitRecovery : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FitRecovery, IntervalsHoldTheTruthAndTheRankingPicksTheLaw) {
  const std::size_t index = GetParam();
  const Generator g = generators()[index];
  const int draws = 6;
  const Outcome o = run(index, draws, 2026 + index);
  for (std::size_t j = 0; j < g.keys.size(); ++j)  // 95 %: 5.7 expected; 4 or fewer: p < 0.003
    EXPECT_GE(o.covered[j], draws - 1) << g.law << " " << g.keys[j];
  EXPECT_EQ(o.ranked_first, draws) << g.law;
  EXPECT_EQ(o.unfitted, 0) << g.law;
}

INSTANTIATE_TEST_SUITE_P(FiveFamilies, FitRecovery, ::testing::Range<std::size_t>(0, 5),
                         [](const auto& test) { return generators()[test.param].law; });

// A synthetic data set recovered exactly: noise-free values, a tight uncertainty: every
// parameter comes back to 1e-6, whatever law of the five made it.
TEST(FitRecoveryExact, NoiseFreeDataGiveTheParametersBack) {
  for (const Generator& g : generators()) {
    ImpactData d;
    d.velocity = velocities();
    std::vector<std::vector<double>> exact;
    ASSERT_TRUE(model_of(g).predict(g.truth, d.velocity, measured, exact));
    for (std::size_t q = 0; q < measured.size(); ++q) {
      std::vector<double> sigma;
      for (double x : exact[q]) sigma.push_back(1e-3 * x);
      d.series.push_back({measured[q], exact[q], sigma});
    }
    const ImpactModel model = model_of(g);
    const Result r = solve(impact_problem(model, d, parameters_of(g)), {2, 1, 0.95});
    for (std::size_t j = 0; j < g.keys.size(); ++j)
      EXPECT_NEAR(r.values[j] / g.truth[j], 1.0, 1e-6) << g.law << " " << g.keys[j];
    EXPECT_LT(r.rss, 1e-6) << g.law;
  }
}

}  // namespace
}  // namespace chaindem::fit::recovery
