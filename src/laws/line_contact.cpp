// Out-of-line parts of the cylindrical line-contact kernels (docs/contact-laws.md, cylindrical line
// contact): the Lambert W of the implicit laws, the stored energy of Liu's and Persson's laws, the
// static overlap of any law, and the power-law fit of Autiero et al. (2022).
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/lambert_w.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "chaindem/laws/contact_law.hpp"

namespace chaindem {

namespace kernels {

// Boost's default policy throws on a subnormal z (an overlap of ~1e-308 m), and nothing may
// throw inside the engine's parallel loops: there y = L1 + ln L1, L1 = ln(-1/z), the leading
// terms of the asymptotic series (relative error ~ ln(L1)/L1^2 < 0.2 %, on forces ~1e-300 N).
double minus_lambert_wm1(double z) {
  if (z > -std::numeric_limits<double>::min()) {
    const double l1 = std::log(-1.0 / z);
    return l1 + std::log(l1);
  }
  return -boost::math::lambert_wm1(z);
}

// int_0^d x^(3/2) (r + x)^(-1/2) dx. Closed form s (2d - 3r)/4 + (3 r^2/4) asinh(sqrt(d/r)),
// s = sqrt(d (r + d)); its terms cancel to O((d/r)^2) relative, so small d/r takes the binomial
// series d^2 sqrt(d/r) sum_k binom(-1/2, k) (d/r)^k/(k + 5/2) instead (r = d/dR < 0.1: 16
// terms reach 1e-16).
double liu_line_contact_potential(double q, double clearance, double d) {
  const double r = clearance, x = d / r;
  if (x < 0.1) {
    double term = 1.0, sum = 0.0;
    for (int k = 0; k < 40 && std::abs(term) > 1e-18; ++k) {
      sum += term / (k + 2.5);
      term *= -x * (2.0 * k + 1.0) / (2.0 * k + 2.0);
    }
    return q * d * d * std::sqrt(x) * sum;
  }
  const double s = std::sqrt(d * (r + d));
  return q * (0.25 * s * (2.0 * d - 3.0 * r) + 0.75 * r * r * std::asinh(std::sqrt(x)));
}

// The curve integrated by one 61-point Gauss-Kronrod rule (analytic in delta on [0, 16 dR]: u is
// rational in it and the pole of the load lies at 25 dR), plus the tangent continuation past
// delta_c. An adaptive rule at 1e-13 recursed to its depth limit on rounding noise (a thousand
// times slower, and the engine evaluates the stored energy at every output frame).
double PerssonLineElastic::potential(const PairCoeffs& c, const ContactState&, double d) {
  if (!(d > 0.0)) return 0.0;
  const double dc = c.law[last_exact], end = std::min(d, dc);
  const double u = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      [&](double x) { return curve(c, x); }, 0.0, end, 0);
  if (d <= dc) return u;
  const double x = d - dc;
  return u + curve(c, dc) * x + 0.5 * slope(c, dc) * x * x;
}

}  // namespace kernels

double elastic_overlap(Kernel kernel, const PairCoeffs& coeffs, double force) {
  if (!(force > 0.0)) return 0.0;
  return with_kernel(kernel, [&](auto k) {
    using KernelT = decltype(k);
    if constexpr (requires { KernelT::overlap_at(coeffs, force); }) {
      return KernelT::overlap_at(coeffs, force);
    } else if constexpr (!kernels::power_law_elastic<KernelT>) {
      // Increasing elastic force: bracket from the power-law estimate, then toms748.
      auto g = [&](double d) { return KernelT::elastic(coeffs, d) - force; };
      double hi = std::pow(force / coeffs.stiffness, 1.0 / coeffs.exponent);
      while (g(hi) < 0.0) hi *= 2.0;
      boost::math::tools::eps_tolerance<double> tol(50);
      std::uintmax_t iterations = 200;
      const auto [a, b] = boost::math::tools::toms748_solve(g, 0.0, hi, tol, iterations);
      return 0.5 * (a + b);
    } else {
      return std::pow(force / coeffs.stiffness, 1.0 / coeffs.exponent);
    }
  });
}

PowerFit fit_power_law(const PairCoeffs& implicit, double force_min, double force_max,
                       int samples) {
  if (!(force_min > 0.0) || !(force_max > force_min) || samples < 2)
    throw std::invalid_argument("power-law fit: needs 0 < force_min < force_max and >= 2 samples");
  // Least squares of ln F = ln K + n ln delta over loads uniformly spaced in [min, max].
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < samples; ++i) {
    const double f = force_min + (force_max - force_min) * i / (samples - 1);
    const double x = std::log(kernels::LineContactImplicit::overlap_at(implicit, f));
    const double y = std::log(f);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = samples;
  const double exponent = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {std::exp((sy - exponent * sx) / n), exponent};
}

}  // namespace chaindem
