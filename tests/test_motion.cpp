// Prescribed motion (engine/motion.hpp) against its definitions: velocities against the
// derivative of the displacement, the ramp's continuity, tables through their samples and
// straight lines, makima's largest speed against dense sampling.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "chaindem/engine/motion.hpp"

using chaindem::Motion;

namespace {

// The velocity as the central difference of the displacement, step h.
double derivative(const Motion& m, double t, double h) {
  return (m.displacement(t + h) - m.displacement(t - h)) / (2.0 * h);
}

}  // namespace

TEST(Motion, VelocityIsTheDerivativeOfTheDisplacement) {
  const Motion two = Motion::harmonics({{2e-5, 1000.0, 0.0}, {5e-6, 2700.0, 1.0}}, 2e-3);
  for (double t : {1e-4, 7e-4, 1e-3, 1.9e-3, 2.5e-3, 9e-3})
    EXPECT_NEAR(two.velocity(t), derivative(two, t, 1e-9), 1e-6 * two.largest_speed(1e-2)) << t;
  const Motion line = Motion::constant_velocity(-0.25);
  EXPECT_DOUBLE_EQ(line.displacement(2.0), -0.5);
  EXPECT_DOUBLE_EQ(line.velocity(2.0), -0.25);
}

// With a ramp the motion starts at rest at its centre and joins the pure oscillation about that
// centre at the ramp's end with the same displacement and velocity. Without one it starts where
// it is (s(0) = 0 whatever the phase) and oscillates about -A sin(phi).
TEST(Motion, RampStartsFromRestWithoutAJump) {
  const double ramp = 1e-3, shift = 1e-5 * std::sin(0.7);
  const Motion ramped = Motion::harmonics({{1e-5, 2000.0, 0.7}}, ramp);
  const Motion pure = Motion::harmonics({{1e-5, 2000.0, 0.7}}, 0.0);
  EXPECT_EQ(ramped.displacement(0.0), 0.0);
  EXPECT_EQ(ramped.velocity(0.0), 0.0);
  EXPECT_EQ(pure.displacement(0.0), 0.0);
  EXPECT_NE(pure.velocity(0.0), 0.0);
  EXPECT_NEAR(ramped.displacement(ramp * (1 - 1e-12)), pure.displacement(ramp) + shift, 1e-15);
  EXPECT_NEAR(ramped.velocity(ramp * (1 - 1e-12)), pure.velocity(ramp), 1e-9);
  EXPECT_NEAR(ramped.displacement(2 * ramp), pure.displacement(2 * ramp) + shift, 1e-20);
  EXPECT_NEAR(pure.displacement(0.25 / 2000.0),
              1e-5 * std::sin(0.7 + 0.5 * std::numbers::pi) - shift, 1e-20);
  // Its speed stays within the bound the time step takes.
  double most = 0.0;
  for (int k = 0; k <= 20000; ++k) most = std::max(most, std::abs(ramped.velocity(k * 1e-7)));
  EXPECT_LE(most, ramped.largest_speed(2e-3));
  EXPECT_GT(most, 0.5 * ramped.largest_speed(2e-3));
}

TEST(Motion, LinearTablePassesThroughItsSamples) {
  const Motion m =
      Motion::table({0.0, 1e-3, 3e-3}, {0.0, 2e-6, -2e-6}, Motion::Interpolation::linear);
  EXPECT_EQ(m.displacement(1e-3), 2e-6);
  EXPECT_DOUBLE_EQ(m.displacement(2e-3), 0.0);
  EXPECT_DOUBLE_EQ(m.velocity(0.5e-3), 2e-3);
  EXPECT_DOUBLE_EQ(m.velocity(2e-3), -2e-3);
  // Past the last sample, on at the last velocity.
  EXPECT_DOUBLE_EQ(m.displacement(4e-3), -4e-6);
  EXPECT_DOUBLE_EQ(m.largest_speed(1.0), 2e-3);
}

// The modified Akima interpolant passes through the samples and reproduces a straight line.
TEST(Motion, MakimaTableThroughSamplesAndStraightLines) {
  const std::vector<double> t{0.0, 1e-3, 2.5e-3, 3e-3, 5e-3};
  std::vector<double> line, wave;
  for (double x : t) {
    line.push_back(0.1 * x);
    wave.push_back(1e-5 * std::sin(1000.0 * x));
  }
  const Motion straight = Motion::table(t, line, Motion::Interpolation::makima);
  for (double x : {0.3e-3, 1.7e-3, 2.9e-3, 4.2e-3}) {
    EXPECT_NEAR(straight.displacement(x), 0.1 * x, 1e-18) << x;
    EXPECT_NEAR(straight.velocity(x), 0.1, 1e-12) << x;
  }
  const Motion m = Motion::table(t, wave, Motion::Interpolation::makima);
  for (std::size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(m.displacement(t[k]), wave[k], 1e-20);
  EXPECT_NEAR(m.velocity(2e-3), derivative(m, 2e-3, 1e-9), 1e-8);
}

// The largest speed of a makima table is the largest of its velocity, found exactly (dense
// sampling never exceeds it and comes within 1e-6 of it), and past the last sample the table
// moves on at its last velocity.
TEST(Motion, MakimaLargestSpeedAndExtrapolation) {
  std::vector<double> t{0.0}, s{0.0};
  unsigned seed = 12345;
  auto uniform = [&] {  // deterministic, in [0, 1)
    seed = seed * 1103515245u + 12345u;
    return static_cast<double>((seed >> 8) & 0xffffff) / 16777216.0;
  };
  for (int k = 1; k < 9; ++k) {
    t.push_back(t.back() + 1e-4 * (0.5 + uniform()));
    s.push_back(1e-5 * (uniform() - 0.5));
  }
  const Motion m = Motion::table(t, s, Motion::Interpolation::makima);
  const double bound = m.largest_speed(t.back());
  double most = 0.0;
  for (int k = 0; k <= 200000; ++k)
    most = std::max(most, std::abs(m.velocity(t.back() * k / 200000.0)));
  EXPECT_LE(most, bound * (1 + 1e-12));
  EXPECT_GT(most, bound * (1 - 1e-6));
  const double last = t.back(), v = m.velocity(last);
  EXPECT_NEAR(m.displacement(last + 1e-3), s.back() + v * 1e-3, 1e-18);
  EXPECT_EQ(m.velocity(last + 1e-3), v);
}

// The largest |s| (a driven load's largest change, for the time step) against dense sampling:
// reached by makima between samples, and a bound for harmonics.
TEST(Motion, LargestDisplacementAgainstSampling) {
  const Motion m = Motion::table({0.0, 1e-4, 2e-4, 3e-4, 4e-4, 5e-4},
                                 {0.0, 1.0, 3.0, 2.0, -2.5, -1.0}, Motion::Interpolation::makima);
  const Motion two = Motion::harmonics({{2.0, 1000.0, 0.5}, {0.5, 2700.0, 1.0}}, 0.0);
  for (const Motion* motion : {&m, &two}) {
    const double end = motion == &m ? 5e-4 : 1e-2, bound = motion->largest_displacement(end);
    double most = 0.0;
    for (int k = 0; k <= 200000; ++k)
      most = std::max(most, std::abs(motion->displacement(end * k / 200000.0)));
    EXPECT_LE(most, bound * (1 + 1e-12));
    EXPECT_GT(most, bound * (motion == &m ? 1 - 1e-6 : 0.5));
  }
  EXPECT_GT(m.largest_displacement(5e-4), 3.0);  // makima overshoots the sample 3 here
}

TEST(Motion, RefusesWhatItCannotFollow) {
  EXPECT_THROW(Motion::harmonics({{1e-5, -1.0, 0.0}}, 0.0), std::invalid_argument);
  EXPECT_THROW(Motion::harmonics({{1e-5, 10.0, 0.0}}, -1.0), std::invalid_argument);
  EXPECT_THROW(Motion::table({0.0, 1e-3, 1e-3}, {0.0, 1e-6, 2e-6}, Motion::Interpolation::linear),
               std::invalid_argument);
  EXPECT_THROW(Motion::table({1e-3, 2e-3}, {0.0, 1e-6}, Motion::Interpolation::linear),
               std::invalid_argument);
  EXPECT_THROW(Motion::table({0.0, 1e-3, 2e-3}, {0.0, 1e-6, 0.0}, Motion::Interpolation::makima),
               std::invalid_argument);
}
