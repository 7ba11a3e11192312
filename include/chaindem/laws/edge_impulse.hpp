#pragma once
// The impulse that sampling a contact force at time steps misses at the edge of a contact.
//
// Velocity Verlet gives a contact the impulse dt sum_k F(t_k): the force sampled at the steps,
// each sample weighted by one step (half in the closing half kick, half in the next opening
// one). Where the force is smooth this is the integral of F to O(dt^2) over the contact. Where it
// starts with a jump or an unbounded slope, F ~ a tau^p with p < 1 at time tau after the first
// touch (a dashpot C v: p = 0; damping proportional to delta^(1/4) v, as in the commercial DEM
// codes: p = 1/4), the samples near the edge miss O(dt^(1+p)) of it at every contact, and the
// trajectories converge at that order only. The generalised Euler-Maclaurin formula for
// integrands with an algebraic end-point singularity (Navot 1961) gives the missing part: with
// the first sample at theta dt after the edge (0 < theta <= 1),
//   dt sum_k a ((k + theta) dt)^p = integral + a dt^(1+p) zeta(-p, theta) + (smooth terms),
// zeta the Hurwitz zeta function. Adding -a dt^(1+p) zeta(-p, theta) where a contact begins
// (or, mirrored, where one ends with such a force) restores second order.
#include <cmath>

namespace chaindem {

/// Hurwitz zeta(-p, a) for 0 <= p < 1 and 0 <= a <= 1 (the analytic continuation; zeta(0, a) =
/// 1/2 - a), by the Euler-Maclaurin formula with ten terms and four Bernoulli corrections:
/// relative error below 1e-12.
inline double hurwitz_zeta_negative(double p, double a) {
  constexpr int terms = 10;
  double sum = 0.0;
  for (int k = 0; k < terms; ++k) sum += k + a > 0.0 ? std::pow(k + a, p) : (p == 0.0 ? 1.0 : 0.0);
  const double x = terms + a, s = -p;
  sum += std::pow(x, 1.0 - s) / (s - 1.0) + 0.5 * std::pow(x, -s);
  // sum_j B_2j / (2j)! s (s + 1) ... (s + 2j - 2) x^(-s - 2j + 1)
  constexpr double bernoulli[] = {1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0};
  double factorial = 1.0, rising = s;
  for (int j = 1; j <= 4; ++j) {
    factorial *= (2.0 * j - 1.0) * (2.0 * j);
    sum += bernoulli[j - 1] / factorial * rising * std::pow(x, -s - 2.0 * j + 1.0);
    rising *= (s + 2.0 * j - 1.0) * (s + 2.0 * j);
  }
  return sum;
}

/// The impulse the samples miss for a force a tau^p whose first sample (nearest the edge) lies
/// theta dt from it: -a dt^(1+p) zeta(-p, theta) [N s].
inline double edge_impulse(double a, double p, double dt, double theta) {
  return -a * std::pow(dt, 1.0 + p) * hurwitz_zeta_negative(p, theta);
}

}  // namespace chaindem
