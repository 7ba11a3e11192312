// Kelvin-Voigt family: a linear spring and a linear dashpot, calibrated to c_r.
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

constexpr ParamSpec dashpot_coefficient{.key = "damping_coefficient",
                                        .unit = "N s/m",
                                        .description = "dashpot coefficient D",
                                        .range = ValueRange::at_least(0.0)};
constexpr std::array kelvin_voigt_params{linear_stiffness_param, dashpot_coefficient};

constexpr std::array kv_restitution_params{restitution_open, linear_stiffness_param};

// Goyal's relation has no root xi < 1 for c_r <= e^-4.
constexpr ParamSpec goyal_restitution = only_above(restitution_closed, 0.0183156388887342);
constexpr std::array goyal_params{goyal_restitution, linear_stiffness_param};

// Kelvin-Voigt family: C = factor(c_r) sqrt(K m*).
PairCoeffs prepare_kv(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(value_of(p, linear_stiffness_param), 1.0, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  return c;
}

PairCoeffs prepare_kelvin_voigt(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(value_of(p, linear_stiffness_param), 1.0, in);
  c.damping = value_of(p, dashpot_coefficient);
  return c;
}

// Skrinjar et al. (2018), Table 1's Anagnostopoulos as printed: F = K delta + chi delta v, chi =
// factor sqrt(K m*), with the Hertz K used as given (the printed law is dimensionally
// inconsistent).
PairCoeffs prepare_anagnostopoulos_skrinjar(const LawEntry& law, const PairInput& in,
                                            const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.0, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.damping_exponent = 1.0;
  return c;
}

// Kelvin-Voigt restitution with the F = 0 end rule (Banerjee et al. 2017, Eq. 17), continued for xi
// > 1.
double kv_restitution_force_end(double xi, double exponent_factor) {
  if (xi == 1.0) return std::exp(-exponent_factor);
  if (xi < 1.0) {
    const double s = std::sqrt(1.0 - xi * xi);
    return std::exp(-exponent_factor * xi / s * std::atan(s / xi));
  }
  const double s = std::sqrt(xi * xi - 1.0);
  return std::exp(-exponent_factor * xi / s * std::atanh(s / xi));
}

// Root of kv_restitution_force_end(xi) = c (decreasing in xi): one solve per c_r, never per step.
double kv_damping_ratio(double c, double exponent_factor, double xi_max) {
  if (c >= 1.0) return 0.0;
  auto g = [&](double xi) { return kv_restitution_force_end(xi, exponent_factor) - c; };
  boost::math::tools::eps_tolerance<double> tol(50);
  std::uintmax_t iterations = 200;
  const auto [lo, hi] =
      boost::math::tools::toms748_solve(g, 1e-12, xi_max, g(1e-12), g(xi_max), tol, iterations);
  return 0.5 * (lo + hi);
}

double brogliato_factor(double c) {
  return 2.0 * kv_damping_ratio(c, 2.0, 1e6);
}

double goyal_factor(double c) {
  return 2.0 * kv_damping_ratio(c, 4.0, 1.0 - 1e-15);
}

double anagnostopoulos_factor(double c) {
  return 2.0 * log_decrement_ratio(c);
}

double anagnostopoulos_skrinjar_factor(double c) {
  const double l = std::log(c);
  return c <= 0.0 ? 0.0 : 2.0 * -l / (pi * pi + l * l);
}

constexpr std::array rows{
    // (b) Linear viscoelastic (Kelvin-Voigt family)
    LawEntry{
        "kelvin_voigt", "Kelvin-Voigt spring-dashpot",
        "Skrinjar et al. (2018), Eq. 6; Banerjee et al. (2017), Eq. 14; Autiero et al. (2022), §1",
        "F = K delta + D v", "D given",
        "Skrinjar et al. (2018), Table 1 prints chi delta v; Eq. 6 (used) has no delta in the "
        "damping term",
        Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::clamp,
        kelvin_voigt_params, nullptr, prepare_kelvin_voigt, none_stated},
    LawEntry{"anagnostopoulos", "Anagnostopoulos (1988), building pounding",
             "Banerjee et al. (2017), Eq. 15", "F = K delta + C v",
             "C = 2 xi sqrt(K m*), xi = -ln c_r / sqrt(pi^2 + ln^2 c_r)",
             "exact inverse of the end-at-delta=0 relation: e_out = c_r with tension allowed",
             Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::allow,
             kv_restitution_params, anagnostopoulos_factor, prepare_kv, none_stated},
    LawEntry{"anagnostopoulos_skrinjar",
             "Anagnostopoulos as printed in Skrinjar et al. (2018), Table 1",
             "Skrinjar et al. (2018), Table 1", "F = K delta + chi delta v",
             "chi = 2 (-ln c_r) / (pi^2 + ln^2 c_r) sqrt(K m*)",
             "dimensionally inconsistent; reproduces only Skrinjar et al. (2018), Table 2's "
             "all-1.00 row (K used as "
             "given, in N/m^1.5)",
             Family::linear_viscoelastic, Kernel::viscous_power, TensionPolicy::allow,
             viscous_open_params, anagnostopoulos_skrinjar_factor, prepare_anagnostopoulos_skrinjar,
             none_stated},
    LawEntry{
        "goyal", "Goyal et al. (1994)", "Banerjee et al. (2017), Eq. 16", "F = K delta + C v",
        "C = 2 xi sqrt(K m*), xi root of c_r = exp(-(4 xi/sqrt(1-xi^2)) atan(sqrt(1-xi^2)/xi))",
        "Banerjee et al. (2017) print C = xi/2M omega; read 2 xi M omega. With the F = 0 end, "
        "e_out = sqrt(c_r)",
        Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::clamp,
        goyal_params, goyal_factor, prepare_kv, none_stated},
    LawEntry{
        "brogliato", "Brogliato Kelvin-Voigt restitution relation",
        "Banerjee et al. (2017), Eqs. 16-17", "F = K delta + C v",
        "C = 2 xi sqrt(K m*), xi root of c_r = exp(-(2 xi/sqrt(1-xi^2)) atan(sqrt(1-xi^2)/xi)) "
        "(overdamped continuation below c_r = e^-2)",
        "exact with the F = 0 end rule: e_out = c_r", Family::linear_viscoelastic,
        Kernel::linear_viscoelastic, TensionPolicy::clamp, kv_restitution_params, brogliato_factor,
        prepare_kv, none_stated},
};

}  // namespace

std::span<const LawEntry> kelvin_voigt_laws() {
  return rows;
}

}  // namespace chaindem
