// Fitting a law to binary-impact measurements: synthetic restitution data made by a law with
// known parameters and 2 % noise; the fit's 95 % interval holds the true value in about 95 % of
// the noise draws, for a hysteresis law (two impacts per evaluation, whatever the points) and
// an elastoplastic one (one impact per point).

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "chaindem/fit/impact_model.hpp"
#include "chaindem/fit/least_squares.hpp"
#include "fit_recovery.hpp"
#include "skrinjar_2018_table2.hpp"

namespace chaindem::fit {
namespace {

using recovery::steel_on_wall;  // a steel sphere of radius 5 mm on a steel wall

// Restitution at 20 impact velocities from `low` to `high` made by `model` at `truth`, each
// with 2 % Gaussian noise.
struct Data {
  std::vector<double> velocity, restitution;
};
Data synthetic(const ImpactModel& model, double truth, double low, double high,
               std::mt19937_64& random) {
  Data d;
  for (int i = 0; i < 20; ++i) d.velocity.push_back(low * std::pow(high / low, i / 19.0));
  EXPECT_TRUE(model.predict({truth}, d.velocity, ImpactQuantity::restitution, d.restitution));
  std::normal_distribution<double> noise(0.0, 0.02);
  for (double& e : d.restitution) e *= 1.0 + noise(random);
  return d;
}

Problem restitution_problem(const ImpactModel& model, const Data& d, FreeParameter parameter) {
  Problem p;
  p.parameters = {std::move(parameter)};
  p.residual_count = d.velocity.size();
  p.residuals = [&model, &d](const std::vector<double>& theta, std::vector<double>& r) {
    std::vector<double> e;
    if (!model.predict(theta, d.velocity, ImpactQuantity::restitution, e)) return false;
    for (std::size_t i = 0; i < e.size(); ++i) r[i] = d.restitution[i] - e[i];
    return true;
  };
  return p;
}

TEST(FitImpacts, HysteresisRestitutionIsRecoveredWithinItsInterval) {
  const LawEntry& law = *find_law("hunt_crossley");
  const ImpactModel model(law, steel_on_wall(), {}, {}, {"restitution"});
  std::mt19937_64 random(11);
  const int draws = 40;
  int covered = 0;
  for (int k = 0; k < draws; ++k) {
    const Data d = synthetic(model, 0.6, 0.1, 3.0, random);
    const Result r =
        solve(restitution_problem(model, d, {"restitution", "-", ValueRange::closed(0, 1), 0.5}),
              {4, 1, 0.95});
    covered += r.intervals[0].low < 0.6 && 0.6 < r.intervals[0].high;
  }
  EXPECT_GE(covered, 34) << covered << " of " << draws;  // 95 %: 38 expected, 34 is -2.9 sd
}

// The restitution of a hysteresis law does not depend on the impact velocity: predict() takes
// the slowest and the fastest impact's for every point (two impacts per evaluation, not one per
// point; its speed is in bench/fit_speed.py). Each point's own impact gives the same value.
TEST(FitImpacts, HysteresisShortcutEqualsAnImpactPerPoint) {
  const ImpactModel model(*find_law("hunt_crossley"), steel_on_wall(), {}, {}, {"restitution"});
  std::vector<double> velocities;
  for (int i = 0; i < 20; ++i) velocities.push_back(0.1 * std::pow(30.0, i / 19.0));
  std::vector<double> shortcut, alone;
  ASSERT_TRUE(model.predict({0.6}, velocities, ImpactQuantity::restitution, shortcut));
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    ASSERT_TRUE(model.predict({0.6}, {velocities[i]}, ImpactQuantity::restitution, alone));
    EXPECT_NEAR(shortcut[i], alone[0], 1e-9 * alone[0]) << velocities[i] << " m/s";
  }
}

TEST(FitImpacts, ElastoplasticYieldStressIsRecoveredWithinItsInterval) {
  const LawEntry& law = *find_law("thornton_1997");
  const ImpactModel model(law, steel_on_wall(), {}, {}, {"yield_stress"});
  std::mt19937_64 random(12);
  const int draws = 12;  // each fit integrates ~1000 plastic impacts
  int covered = 0;
  for (int k = 0; k < draws; ++k) {
    const Data d = synthetic(model, 4e8, 0.2, 5.0, random);
    const Result r =
        solve(restitution_problem(model, d, {"yield_stress", "Pa", ValueRange::above(0), 2e8}),
              {2, 1, 0.95});
    EXPECT_NEAR(r.values[0], 4e8, 0.1 * 4e8);
    covered += r.intervals[0].low < 4e8 && 4e8 < r.intervals[0].high;
  }
  EXPECT_GE(covered, 9) << covered << " of " << draws;  // 95 %: P(fewer than 9) = 0.2 %
}

// Skrinjar et al. (2018), Table 2, read as data: each printed e_N, with the row's tolerance as
// its uncertainty, gives back the c_r of its column: the fitted c_r's 95 % interval holds it, and
// the fitted law reproduces the printed value within the tolerance.
TEST(FitImpacts, SkrinjarTableRowsGiveBackTheirRestitution) {
  using namespace validation;
  int fits = 0;
  for (const Row000& row : skrinjar_2018_table2) {
    const LawEntry& law = *find_law(row.id);
    const ParamSpec* restitution = law.find_param("restitution");
    if (row.tolerance == 0.0 || !restitution) continue;  // not a target, or nothing to fit
    ImpactOptions options;
    options.tension = law.tension;  // as validate_paper_tables reproduces the table
    const ImpactModel model(law, PairInput{0.0, 0.0, skrinjar_2018_mass}, options,
                            {{"stiffness", skrinjar_2018_stiffness}}, {"restitution"});
    for (int i = 1; i <= 10; ++i) {
      const double c_r = i / 10.0, printed = row.printed[i];
      Problem p;
      p.parameters = {{"restitution", "-", restitution->range, 0.5}};
      p.residual_count = 1;
      p.sigma_known = true;
      p.residuals = [&](const std::vector<double>& theta, std::vector<double>& r) {
        std::vector<double> e;
        if (!model.predict(theta, {skrinjar_2018_velocity}, ImpactQuantity::restitution, e))
          return false;
        r[0] = (printed - e[0]) / row.tolerance;
        return true;
      };
      const Result r = solve(p, {4, 1, 0.95});
      ++fits;
      EXPECT_LE(std::abs(r.residuals[0]), 1.0) << row.id << " at c_r = " << c_r;
      EXPECT_LE(r.intervals[0].low, c_r) << row.id << " at c_r = " << c_r;
      EXPECT_GE(r.intervals[0].high, c_r) << row.id << " at c_r = " << c_r;
    }
  }
  EXPECT_GE(fits, 80);
}

TEST(FitImpacts, ParameterOutsideTheLawIsRefused) {
  const LawEntry& law = *find_law("hunt_crossley");
  EXPECT_THROW(ImpactModel(law, steel_on_wall(), {}, {}, {"yield_stress"}), LawParamError);
}

}  // namespace
}  // namespace chaindem::fit
