// The registry of normal contact laws. Every law is declared here exactly once; see
// include/chaindem/contact_law.hpp for the conventions and ../shared/reference/contact-laws.md
// for the source of each formula (section letters below follow that document).
#include <array>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "chaindem/binary_impact.hpp"
#include "chaindem/contact_law.hpp"

namespace chaindem {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double pi = std::numbers::pi;

// ---- Parameter declarations --------------------------------------------------------------------

constexpr ParamSpec hertz_stiffness_param{
    "stiffness",
    "N/m^1.5",
    "Hertz stiffness K; overrides (4/3) E* sqrt(R*) from the materials for every pair",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "(4/3) E* sqrt(R*) from the materials"};
constexpr ParamSpec linear_stiffness_param{
    "stiffness", "N/m", "linear spring stiffness K", 0.0, inf, false, false, std::nullopt};
constexpr ParamSpec impact_velocity_floor_param{
    "impact_velocity_floor",
    "m/s",
    "smallest impact velocity v0 used in the damping term; contacts that start slower (touching, "
    "resting or pre-compressed beads, where v0 -> 0 makes the damping infinite) use this value "
    "and are counted in the run summary",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "automatic: 1 % of the case's largest relative speed (collide: none); the automatic time "
    "step keeps damping at the floor stable"};
constexpr ParamSpec restitution_closed{
    "restitution", "-",         "target coefficient of restitution c_r", 0.0, 1.0, true,
    true,          std::nullopt};
constexpr ParamSpec restitution_open{
    "restitution", "-",         "target coefficient of restitution c_r", 0.0, 1.0, false,
    true,          std::nullopt};

constexpr std::array linear_params{linear_stiffness_param};
constexpr std::array hertz_params{hertz_stiffness_param};
constexpr std::array power_law_params{
    ParamSpec{"stiffness", "N/m^n", "stiffness K", 0.0, inf, false, false, std::nullopt},
    ParamSpec{"exponent", "-", "elastic exponent n", 0.0, inf, false, false, std::nullopt}};
constexpr std::array brandlein_params{ParamSpec{"stiffness", "N/m^1.08",
                                                "stiffness K (depends on the contact length only)",
                                                0.0, inf, false, false, std::nullopt}};
constexpr std::array plane_plane_params{ParamSpec{"half_width", "m", "half width a of the contact",
                                                  0.0, inf, false, false, std::nullopt}};
constexpr std::array luo_nahon_area_params{
    ParamSpec{"contact_area", "m^2", "impacting (contact) area A", 0.0, inf, false, false,
              std::nullopt},
    ParamSpec{"mean_radius", "m", "average radius r_a from the polygon centre", 0.0, inf, false,
              false, std::nullopt}};

constexpr std::array kelvin_voigt_params{
    linear_stiffness_param, ParamSpec{"damping_coefficient", "N s/m", "dashpot coefficient D", 0.0,
                                      inf, true, false, std::nullopt}};
constexpr std::array kv_restitution_params{restitution_open, linear_stiffness_param};
constexpr std::array goyal_params{
    ParamSpec{"restitution", "-", "target coefficient of restitution c_r", 0.0183156388887342, 1.0,
              false, true, std::nullopt},
    linear_stiffness_param};

constexpr std::array viscous_closed_params{restitution_closed, hertz_stiffness_param};
constexpr std::array viscous_open_params{restitution_open, hertz_stiffness_param};
constexpr std::array viscoelastic_sphere_params{
    ParamSpec{"eta1", "Pa s", "viscous material constant eta_1", 0.0, inf, true, false,
              std::nullopt},
    ParamSpec{"eta2", "Pa s", "viscous material constant eta_2", 0.0, inf, true, false,
              std::nullopt},
    hertz_stiffness_param};
constexpr std::array m065_params{
    ParamSpec{"damping_coefficient", "N s/m^1.65", "empirical damping coefficient chi", 0.0, inf,
              true, false, std::nullopt},
    hertz_stiffness_param};
constexpr std::array m1_params{
    ParamSpec{"damping_coefficient", "N s/m^2", "empirical damping coefficient chi", 0.0, inf, true,
              false, std::nullopt},
    hertz_stiffness_param};
constexpr std::array lee_herrmann_params{
    ParamSpec{"xi", "1/(m s)", "damping constant xi, chi = m* xi (001 prints 5e2)", 0.0, inf, true,
              false, 500.0},
    hertz_stiffness_param};
constexpr std::array lee_wang_transition_params{
    restitution_open,
    ParamSpec{"transition_width", "m", "width epsilon of the transition zone", 0.0, inf, false,
              false, std::nullopt},
    ParamSpec{"shape", "-", "curve-shape parameter q (002: typically 2, 3 or 4)", 0.0, inf, false,
              false, 2.0},
    hertz_stiffness_param};

constexpr std::array hysteresis_closed_params{restitution_closed, hertz_stiffness_param,
                                              impact_velocity_floor_param};
constexpr std::array hysteresis_open_params{restitution_open, hertz_stiffness_param,
                                            impact_velocity_floor_param};
constexpr std::array hu_et_al_params{
    ParamSpec{"restitution", "-", "target coefficient of restitution c_r", 0.021226, 1.0, false,
              true, std::nullopt},
    hertz_stiffness_param, impact_velocity_floor_param};
constexpr std::array linear_hysteresis_params{restitution_closed, linear_stiffness_param,
                                              impact_velocity_floor_param};
constexpr std::array plastic_hertz_params{restitution_open, hertz_stiffness_param};
constexpr std::array plastic_linear_params{restitution_open, linear_stiffness_param};

// ---- Coefficient preparation, one function per kernel family ------------------------------------

double param_or(const LawParams& p, std::string_view key, double fallback) {
  const auto it = p.find(key);
  return it == p.end() ? fallback : it->second;
}
double hertz_k(const PairInput& in, const LawParams& p) {
  return param_or(p, "stiffness", hertz_stiffness(in.effective_modulus, in.effective_radius));
}
double factor(const LawEntry& law, const LawParams& p) {
  return law.damping_factor(p.at("restitution"));
}

PairCoeffs base(double k, double n, const PairInput& in) {
  PairCoeffs c;
  c.stiffness = k;
  c.exponent = n;
  c.effective_mass = in.effective_mass;
  return c;
}

PairCoeffs prepare_linear(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(p.at("stiffness"), 1.0, in);
}
PairCoeffs prepare_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(hertz_k(in, p), 1.5, in);
}
PairCoeffs prepare_power_law(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(p.at("stiffness"), p.at("exponent"), in);
}
PairCoeffs prepare_brandlein(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(p.at("stiffness"), 1.08, in);
}
// 000 Eq. 5: K = a / (0.475 (h_i + h_j)) with h = (1 - nu^2)/E, i.e. a E* / 0.475.
PairCoeffs prepare_plane_plane(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(p.at("half_width") * in.effective_modulus / 0.475, 1.0, in);
}
// 001 Eq. 12: F = 2 E* A delta / (pi r_a).
PairCoeffs prepare_luo_nahon_area(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(2.0 * in.effective_modulus * p.at("contact_area") / (pi * p.at("mean_radius")), 1.0,
              in);
}

// Kelvin-Voigt family: C = factor(c_r) sqrt(K m*).
PairCoeffs prepare_kv(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(p.at("stiffness"), 1.0, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  return c;
}
PairCoeffs prepare_kelvin_voigt(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(p.at("stiffness"), 1.0, in);
  c.damping = p.at("damping_coefficient");
  return c;
}
// 000 Table 1's Anagnostopoulos as printed: F = K delta + chi delta v, chi = factor sqrt(K m*),
// with the Hertz K used as given (the printed law is dimensionally inconsistent).
PairCoeffs prepare_anagnostopoulos_s000(const LawEntry& law, const PairInput& in,
                                        const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.0, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.damping_exponent = 1.0;
  return c;
}

// Viscous laws with chi = factor(c_r) sqrt(K m*).
PairCoeffs prepare_viscous(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.damping_exponent = 0.25;
  return c;
}
// The software form keeps |beta| and m* and builds S_n inside the kernel.
PairCoeffs prepare_hertz_mindlin(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p);
  c.damping_exponent = 0.25;
  return c;
}
// Brilliantov / Kuwabara-Kono (004 Table 2 row 1, 001 HV4):
// chi = (K/2) (3 eta2 - eta1)^2 / (3 eta2 + 2 eta1) (1 - nu^2)(1 - 2 nu) / (E nu^2).
PairCoeffs prepare_viscoelastic_spheres(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  const double eta1 = p.at("eta1"), eta2 = p.at("eta2"), nu = in.poisson_ratio;
  if (!(nu > 0.0) || !(in.youngs_modulus > 0.0))
    throw std::invalid_argument("this law needs materials with E > 0 and nu > 0");
  c.damping = 0.5 * c.stiffness * (3 * eta2 - eta1) * (3 * eta2 - eta1) / (3 * eta2 + 2 * eta1) *
              (1 - nu * nu) * (1 - 2 * nu) / (in.youngs_modulus * nu * nu);
  c.damping_exponent = 0.5;
  return c;
}
template <int m_times_100>
PairCoeffs prepare_empirical_viscous(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = p.at("damping_coefficient");
  c.damping_exponent = m_times_100 / 100.0;
  return c;
}
PairCoeffs prepare_lee_herrmann(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = in.effective_mass * p.at("xi");
  c.damping_exponent = 1.0;
  return c;
}
PairCoeffs prepare_lee_wang_transition(const LawEntry& law, const PairInput& in,
                                       const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.length = p.at("transition_width");
  c.shape = p.at("shape");
  return c;
}

// Hysteresis family: alpha = factor(c_r).
PairCoeffs prepare_hysteresis(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p);
  c.damping_exponent = 1.5;
  return c;
}
PairCoeffs prepare_linear_hysteresis(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(p.at("stiffness"), 1.0, in);
  c.damping = factor(law, p);
  c.damping_exponent = 1.0;
  return c;
}
PairCoeffs prepare_plastic_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.restitution = p.at("restitution");
  return c;
}
PairCoeffs prepare_plastic_linear(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(p.at("stiffness"), 1.0, in);
  c.restitution = p.at("restitution");
  return c;
}

// ---- Damping factors as functions of the restitution --------------------------------------------

double log_decrement_ratio(double c) {
  return -restitution_beta(c);
}  // xi of the linear oscillator

// Kelvin-Voigt restitution with the F = 0 end rule (001 Eq. 17), continued for xi > 1.
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
double anagnostopoulos_s000_factor(double c) {
  const double l = std::log(c);
  return c <= 0.0 ? 0.0 : 2.0 * -l / (pi * pi + l * l);
}
double tsuji_factor(double c) {
  return std::sqrt(5.0) * log_decrement_ratio(c);
}
double beta_magnitude(double c) {
  return log_decrement_ratio(c);
}
double lee_wang_transition_factor(double c) {
  return 2.0 * log_decrement_ratio(c);
}
// Jankowski's damping ratio, 001 Eq. 36 in the reading that reproduces 001 Table 1.
double jankowski_xi(double c) {
  return 4.5 * std::sqrt(5.0) * (1.0 - c * c) / (c * (c * (9.0 * pi - 16.0) + 16.0));
}
double jankowski_factor(double c) {
  return 2.0 * jankowski_xi(c);
}

// Exact restitution identity of the hysteresis family (contact-laws.md §0.5):
// root alpha of (1 + c) alpha = ln((1 + alpha)/(1 - alpha c)) on (0, 1/c).
double gonthier_exact_alpha(double c) {
  if (c >= 1.0) return 0.0;
  auto g = [c](double a) { return (1.0 + c) * a - std::log((1.0 + a) / (1.0 - a * c)); };
  // g > 0 near 0 and -> -inf as alpha -> 1/c, but only within exp(-(1 + c)/c) of 1/c: below
  // c ~ 0.0014 the root equals 1/c to machine precision.
  const double hi = 1.0 / c * (1.0 - std::numeric_limits<double>::epsilon());
  if (g(hi) >= 0.0) return hi;
  double lo = std::min(0.5 * (1.0 - c * c) / c, 0.5 * hi);
  while (g(lo) <= 0.0) lo *= 0.5;
  boost::math::tools::eps_tolerance<double> tol(52);
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(g, lo, hi, g(lo), g(hi), tol, iterations);
  return 0.5 * (a + b);
}

// equivalent_oscillator_viscous (docs/equivalent-oscillator.md): chi = 2 xi sqrt(k_t m*) with
// the tangent stiffness k_t = 1.5 K delta^(1/2), i.e. chi delta^(1/4) v with chi =
// 2 sqrt(1.5) xi sqrt(K m*). xi is calibrated so that an isolated impact with the force clamped
// at zero (no tension, as real contacts) returns exactly c_r. Solved once per c_r and cached.
double clamped_quarter_restitution(double damping_factor) {
  static const LawEntry* tsuji = find_law("tsuji");
  PairCoeffs c;
  c.stiffness = 1.0;
  c.exponent = 1.5;
  c.damping = damping_factor;
  c.damping_exponent = 0.25;
  c.effective_mass = 1.0;
  ImpactOptions o;
  o.tension = TensionPolicy::clamp;
  o.tolerance = 1e-12;
  return simulate_impact(*tsuji, c, 1.0, 1.0, o).restitution;
}
double equivalent_oscillator_factor(double c) {
  if (c >= 1.0) return 0.0;
  static std::mutex mutex;
  static std::map<double, double> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(c); it != cache.end()) return it->second;
  // The linearised (equal damping ratio) estimate brackets the calibrated value.
  const double estimate = 2.0 * std::sqrt(1.5) * log_decrement_ratio(c);
  auto g = [c](double f) { return clamped_quarter_restitution(f) - c; };
  double lo = 0.25 * estimate, hi = 4.0 * estimate + 1.0;
  while (g(hi) > 0.0) hi *= 2.0;
  boost::math::tools::eps_tolerance<double> tol(36);
  std::uintmax_t iterations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(g, lo, hi, tol, iterations);
  return cache[c] = 0.5 * (a + b);
}

// ---- The registry ------------------------------------------------------------------------------

// Laws sharing the hysteresis kernel differ only by this row: identifier, citation, alpha(c_r).
constexpr LawEntry hysteresis(std::string_view id, std::string_view title, std::string_view cite,
                              std::string_view alpha_text, std::string_view notes,
                              double (*alpha)(double), bool singular_at_zero) {
  return {id,
          title,
          cite,
          "F = K delta^(3/2) (1 + alpha v/v0)",
          alpha_text,
          notes,
          Family::hysteresis,
          Kernel::hertz_hysteresis,
          TensionPolicy::clamp,
          singular_at_zero ? std::span<const ParamSpec>(hysteresis_open_params)
                           : std::span<const ParamSpec>(hysteresis_closed_params),
          alpha,
          prepare_hysteresis};
}

constexpr std::string_view hysteresis_note =
    "e_out from the exact identity (1 + e) alpha = ln((1 + alpha)/(1 - alpha e)) (contact-laws.md "
    "§0.5); no tension in an isolated impact";

const std::array laws{
    // (a) Elastic
    LawEntry{"hooke", "Linear spring", "001 Eqs. 5-7; 000 Eq. 1 with n = 1", "F = K delta",
             "none (elastic)", "t_c = pi sqrt(m*/K)", Family::elastic, Kernel::linear_spring,
             TensionPolicy::clamp, linear_params, nullptr, prepare_linear},
    LawEntry{"hertz", "Hertz (1881), sphere-sphere and sphere-plane",
             "000 Eqs. 1-4; 001 Eqs. 1-3 (`hertz_sphere_sphere`, `hertz_sphere_plane`)",
             "F = K delta^(3/2), K = (4/3) E* sqrt(R*) (R* = R against a plane)", "none (elastic)",
             "t_c = 2.943275 delta_max/v0", Family::elastic, Kernel::hertz, TensionPolicy::clamp,
             hertz_params, nullptr, prepare_hertz},
    LawEntry{"power_law", "Generic power law", "000 Eq. 1; 001 Eq. 62; 002 Tables 2-9, 11",
             "F = K delta^n", "none (elastic)", "002 fits give K in N/mm^n: K_SI = K_mm 1000^n",
             Family::elastic, Kernel::power_law, TensionPolicy::clamp, power_law_params, nullptr,
             prepare_power_law},
    LawEntry{"brandlein", "Brandlein et al. line/rolling contact", "001 Eq. 8", "F = K delta^1.08",
             "none (elastic)", "K depends only on the contact length; no value given",
             Family::elastic, Kernel::power_law, TensionPolicy::clamp, brandlein_params, nullptr,
             prepare_brandlein},
    LawEntry{"hertz_plane_plane", "Plane-plane stiffness (Nikravesh)", "000 Eq. 5",
             "F = K delta, K = a / (0.475 (h_i + h_j)), h = (1 - nu^2)/E", "none (elastic)",
             "exponent not printed: a/h has units N/m, so read as linear (uncertain)",
             Family::elastic, Kernel::linear_spring, TensionPolicy::clamp, plane_plane_params,
             nullptr, prepare_plane_plane},
    LawEntry{"luo_nahon_contact_area", "Luo & Nahon polyhedral contact-area law", "001 Eq. 12",
             "F = 2 E* A delta / (pi r_a)", "none (elastic)", "geometry-specific (polyhedra)",
             Family::elastic, Kernel::linear_spring, TensionPolicy::clamp, luo_nahon_area_params,
             nullptr, prepare_luo_nahon_area},

    // (b) Linear viscoelastic (Kelvin-Voigt family)
    LawEntry{"kelvin_voigt", "Kelvin-Voigt spring-dashpot", "000 Eq. 6; 001 Eq. 14; 002 §1",
             "F = K delta + D v", "D given",
             "000 Table 1 prints chi delta v; Eq. 6 (used) has no delta in the damping term",
             Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::clamp,
             kelvin_voigt_params, nullptr, prepare_kelvin_voigt},
    LawEntry{"anagnostopoulos", "Anagnostopoulos (1988), building pounding", "001 Eq. 15",
             "F = K delta + C v", "C = 2 xi sqrt(K m*), xi = -ln c_r / sqrt(pi^2 + ln^2 c_r)",
             "exact inverse of the end-at-delta=0 relation: e_out = c_r with tension allowed",
             Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::allow,
             kv_restitution_params, anagnostopoulos_factor, prepare_kv},
    LawEntry{"anagnostopoulos_s000", "Anagnostopoulos as printed in 000 Table 1", "000 Table 1",
             "F = K delta + chi delta v", "chi = 2 (-ln c_r) / (pi^2 + ln^2 c_r) sqrt(K m*)",
             "dimensionally inconsistent; reproduces only 000 Table 2's all-1.00 row (K used as "
             "given, in N/m^1.5)",
             Family::linear_viscoelastic, Kernel::viscous_power, TensionPolicy::allow,
             viscous_open_params, anagnostopoulos_s000_factor, prepare_anagnostopoulos_s000},
    LawEntry{
        "goyal", "Goyal et al. (1994)", "001 Eq. 16", "F = K delta + C v",
        "C = 2 xi sqrt(K m*), xi root of c_r = exp(-(4 xi/sqrt(1-xi^2)) atan(sqrt(1-xi^2)/xi))",
        "001 prints C = xi/2M omega; read 2 xi M omega. With the F = 0 end, e_out = sqrt(c_r)",
        Family::linear_viscoelastic, Kernel::linear_viscoelastic, TensionPolicy::clamp,
        goyal_params, goyal_factor, prepare_kv},
    LawEntry{
        "brogliato", "Brogliato Kelvin-Voigt restitution relation", "001 Eqs. 16-17",
        "F = K delta + C v",
        "C = 2 xi sqrt(K m*), xi root of c_r = exp(-(2 xi/sqrt(1-xi^2)) atan(sqrt(1-xi^2)/xi)) "
        "(overdamped continuation below c_r = e^-2)",
        "exact with the F = 0 end rule: e_out = c_r", Family::linear_viscoelastic,
        Kernel::linear_viscoelastic, TensionPolicy::clamp, kv_restitution_params, brogliato_factor,
        prepare_kv},

    // (c) Viscous: no impact velocity in the damping term
    LawEntry{"kuwabara_kono", "Kuwabara & Kono (1987)", "004 Table 2 row 1; 001 HV1",
             "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = (K/2) (3 eta2 - eta1)^2/(3 eta2 + 2 eta1) (1 - nu^2)(1 - 2 nu)/(E nu^2)",
             "prefactor 1/2 as printed (uncertain: 1/3 in common versions); E, nu: mean of the "
             "two bodies; restitution falls with v0 (1 - e ~ v0^(1/5))",
             Family::viscous, Kernel::viscous_power, TensionPolicy::clamp,
             viscoelastic_sphere_params, nullptr, prepare_viscoelastic_spheres},
    LawEntry{"brilliantov", "Brilliantov et al. (1996), viscoelastic spheres",
             "000 Table 1; 001 HV4", "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = K (3 eta2 - eta1)^2 (1 - nu^2)(1 - 2 nu) / [2 (3 eta2 + 2 eta1) E nu^2]",
             "same expression as 004's Kuwabara-Kono row; 000's 1/K and (1 - nu) are misprints",
             Family::viscous, Kernel::viscous_power, TensionPolicy::clamp,
             viscoelastic_sphere_params, nullptr, prepare_viscoelastic_spheres},
    LawEntry{"tsuji", "Tsuji, Tanaka & Ishida (1992)", "004 Table 2 row 2; 000 Table 1; 001 HV2",
             "F = K delta^(3/2) + chi delta^(1/4) v",
             "chi = sqrt(5) |ln c_r| / sqrt(pi^2 + ln^2 c_r) sqrt(K m*)",
             "e_out = c_r exactly with tension allowed, independent of v0; higher when clamped",
             Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp,
             viscous_closed_params, tsuji_factor, prepare_viscous},
    LawEntry{
        "edem_hertz_mindlin",
        "Hertz-Mindlin normal damping of commercial DEM (EDEM, LIGGGHTS model hertz)",
        "004 abstract and Table 6",
        "F = (4/3) E* sqrt(R*) delta^(3/2) - 2 sqrt(5/6) beta sqrt(S_n m*) v, "
        "S_n = 2 E* sqrt(R* delta)",
        "beta = ln c_r / sqrt(ln^2 c_r + pi^2)",
        "algebraically identical to tsuji; LIGGGHTS allows tension by default (limitForce off)",
        Family::viscous, Kernel::hertz_mindlin, TensionPolicy::clamp, viscous_closed_params,
        beta_magnitude, prepare_hertz_mindlin},
    LawEntry{
        "equivalent_oscillator_viscous",
        "Viscous law of the equivalent linear oscillator (chaindem's derivation of 004's proposal)",
        "004 abstract and Table 6 (formula lost); docs/equivalent-oscillator.md",
        "F = K delta^(3/2) + 2 xi sqrt(k_t m*) v, k_t = (3/2) K delta^(1/2)",
        "xi(c_r) such that an isolated impact with F >= 0 returns exactly c_r (one solve per "
        "c_r)",
        "no v0 and restitution independent of v0 (delta^(1/4) damping); exact without tension",
        Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp, viscous_open_params,
        equivalent_oscillator_factor, prepare_viscous},
    LawEntry{"jankowski_viscous", "Jankowski damping as a symmetric viscous law",
             "004 Table 2 row 3", "F = K delta^(3/2) + chi delta^(1/4) v",
             "chi = 9 sqrt(5) (1 - c_r^2) / (c_r (c_r (9 pi - 16) + 16)) sqrt(K m*)",
             "as printed, without Jankowski's approach-only switch: over-dissipates; use "
             "jankowski_piecewise for physics",
             Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp,
             viscous_open_params, jankowski_factor, prepare_viscous},
    LawEntry{"lee_wang_transition", "Lee-Wang damping function 2 (transition function)",
             "004 Table 2 row 4; 002 §3.4", "F = K delta^(3/2) + T(delta) D v",
             "D = 2 |ln c_r| sqrt(K m*/(pi^2 + ln^2 c_r)); T = exp(-2q (eps - delta)/eps) for "
             "delta < eps, 1 above",
             "D v with a Hertz K is not a force dimensionally (uncertain, as printed in 004); "
             "force jump D e^(-2q) v0 at onset",
             Family::viscous, Kernel::lee_wang_transition, TensionPolicy::clamp,
             lee_wang_transition_params, lee_wang_transition_factor, prepare_lee_wang_transition},
    LawEntry{"schwager_poschel", "Schwager & Poschel (1998)", "004 Table 2; 000 Table 1",
             "F = K delta^(3/2) + chi delta^0.65 v", "chi empirical (given)",
             "attribution of m = 0.65 differs between sources", Family::viscous,
             Kernel::viscous_power, TensionPolicy::clamp, m065_params, nullptr,
             prepare_empirical_viscous<65>},
    LawEntry{"bordbar_hyppanen", "Bordbar & Hyppanen (2007)", "001 HV5; 000 Table 1",
             "F = K delta^(3/2) + chi delta^0.65 v", "chi empirical (given)",
             "units of chi uncertain in the sources", Family::viscous, Kernel::viscous_power,
             TensionPolicy::clamp, m065_params, nullptr, prepare_empirical_viscous<65>},
    LawEntry{"lee_herrmann", "Lee & Herrmann (1993)", "000 Table 1; 001 HV3; 004 Table 2",
             "F = K delta^(3/2) + m* xi delta v", "xi given (001: 5e2)",
             "units and magnitude of xi given only as 5e2", Family::viscous, Kernel::viscous_power,
             TensionPolicy::clamp, lee_herrmann_params, nullptr, prepare_lee_herrmann},
    LawEntry{"ristow", "Ristow (1992)", "000 Table 1; 004 Table 2",
             "F = K delta^(3/2) + chi delta v", "chi empirical (given)", "", Family::viscous,
             Kernel::viscous_power, TensionPolicy::clamp, m1_params, nullptr,
             prepare_empirical_viscous<100>},
    LawEntry{"schafer", "Schafer et al. (1996)", "000 Table 1", "F = K delta^(3/2) + chi delta v",
             "chi empirical (given)", "", Family::viscous, Kernel::viscous_power,
             TensionPolicy::clamp, m1_params, nullptr, prepare_empirical_viscous<100>},

    // (d) Hysteresis: alpha(c_r) per row, one kernel.
    hysteresis(
        "hunt_crossley", "Hunt & Crossley (1975)",
        "000 Eqs. 7-9; 001 Eq. 24; 002 §3.2; 004 Table 1", "alpha = 3 (1 - c_r)/2", hysteresis_note,
        [](double c) { return 1.5 * (1.0 - c); }, false),
    hysteresis(
        "marhefka_orin", "Marhefka & Orin (1999)", "002 §3.9",
        "alpha = 3 (1 - c_r^2) / (2 (1 + c_r^3))",
        "third-order expansion of the exact identity; equals herbert_mcwhannell",
        [](double c) { return 1.5 * (1.0 - c * c) / (1.0 + c * c * c); }, false),
    hysteresis(
        "herbert_mcwhannell", "Herbert & McWhannell (1977)",
        "000 Eqs. 10-11; 002 §3.3; 004 Table 1", "alpha = 6 (1 - c_r) / ((2 c_r - 1)^2 + 3)",
        "reproduces 000 Table 2",
        [](double c) { return 6.0 * (1.0 - c) / ((2.0 * c - 1.0) * (2.0 * c - 1.0) + 3.0); },
        false),
    hysteresis(
        "herbert_mcwhannell_s001", "Herbert-McWhannell as printed in 001", "001 Eq. 25",
        "alpha = 6 (1 - c_r) / ((c_r - 1)^2 + 3)", "reproduces 001 Table 1 (misprinted form)",
        [](double c) { return 6.0 * (1.0 - c) / ((c - 1.0) * (c - 1.0) + 3.0); }, false),
    hysteresis(
        "lee_wang", "Lee & Wang (1983)", "000 Eqs. 12-13; 001 Eq. 26; 002 §3.4; 004 T1",
        "alpha = 3 (1 - c_r)/4", hysteresis_note, [](double c) { return 0.75 * (1.0 - c); }, false),
    hysteresis(
        "lankarani_nikravesh", "Lankarani & Nikravesh (1990)",
        "000 Eqs. 14-18; 001 Eq. 27; 002 §3.6; 004 Table 1", "alpha = 3 (1 - c_r^2)/4",
        "valid for v0 <= 1e-5 sqrt(E/rho) and c_r near 1",
        [](double c) { return 0.75 * (1.0 - c * c); }, false),
    hysteresis(
        "gonthier", "Gonthier, McPhee, Lange, Piedboeuf (2004)",
        "000 Eqs. 20-23; 001 Eq. 28; 002 §3.10; 004 Table 1", "alpha = (1 - c_r^2)/c_r",
        hysteresis_note, [](double c) { return (1.0 - c * c) / c; }, true),
    hysteresis("gonthier_exact", "Exact restitution factor (Gonthier)",
               "002 §3.10; 001 Eqs. 29, 32, 34",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               "e_out = c_r exactly in an isolated impact; one root solve per c_r",
               gonthier_exact_alpha, true),
    hysteresis("zhang_sharf", "Zhang & Sharf (alias of gonthier_exact)", "001 Eq. 29",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               "001 prints 2 c_r for (1 + c_r), which has no root", gonthier_exact_alpha, true),
    hysteresis("luo_nahon", "Luo & Nahon (alias of gonthier_exact)", "001 Eq. 32",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               "001's verdict that it fails is not supported: the relation is exact",
               gonthier_exact_alpha, true),
    hysteresis("khatiwada", "Khatiwada, Chouw & Butterworth (alias of gonthier_exact)",
               "001 Eq. 34", "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               hysteresis_note, gonthier_exact_alpha, true),
    hysteresis(
        "zhiying_qishao", "Qin Zhiying & Lu Qishao (2006)",
        "000 Eqs. 24-25; 001 Eq. 30; 004 Table 1", "alpha = 3 (1 - c_r^2) e^(2 (1 - c_r)) / 4",
        "000 Table 2 is 0.01-0.02 high",
        [](double c) { return 0.75 * (1.0 - c * c) * std::exp(2.0 * (1.0 - c)); }, false),
    hysteresis(
        "flores", "Flores, Machado, Silva & Martins (2011)",
        "000 Eqs. 26-28; 002 §3.11; 004 Table 1", "alpha = 8 (1 - c_r)/(5 c_r)",
        "000 Eq. 26 prints (1 - c_r); read (1 + c_r) per 002",
        [](double c) { return 1.6 * (1.0 - c) / c; }, true),
    hysteresis(
        "ye_li_zhu", "Ye, Li & Zhu (2009)", "001 Eq. 31", "alpha = 8 (1 - c_r)/(5 c_r)",
        "identical to flores", [](double c) { return 1.6 * (1.0 - c) / c; }, true),
    hysteresis(
        "gharib_hurmuzlu", "Gharib & Hurmuzlu (2012)",
        "000 Table 1; 001 Eq. 33; 002 §3.12; 004 Table 1", "alpha = 1/c_r",
        "alpha(1) = 1: e_out = 0.5936 at c_r = 1", [](double c) { return 1.0 / c; }, true),
    hysteresis(
        "hu_guo", "Hu & Guo (2015)", "000 Eqs. 29-30; 002 §3.13; 004 Table 1",
        "alpha = 3 (1 - c_r)/(2 c_r)", "self-consistent derivation (002)",
        [](double c) { return 1.5 * (1.0 - c) / c; }, true),
    hysteresis(
        "hu_guo_s000", "Hu-Guo factor that reproduces 000 Table 2", "000 Table 2",
        "alpha = 3 (1 - c_r)/(4 c_r)", "half the published factor; as in the DyS code",
        [](double c) { return 0.75 * (1.0 - c) / c; }, true),
    LawEntry{"hu_et_al", "Hu, Hu, Jian, Liu, Wan (2011)", "004 Table 1",
             "F = K delta^(3/2) (1 + alpha v/v0)", "alpha = -6.6626 ln c_r / (3.85238 + ln c_r)",
             "singular at c_r = exp(-3.85238) = 0.02123", Family::hysteresis,
             Kernel::hertz_hysteresis, TensionPolicy::clamp, hu_et_al_params,
             [](double c) { return -6.6626 * std::log(c) / (3.85238 + std::log(c)); },
             prepare_hysteresis},
    hysteresis(
        "shen", "Shen, Xiang, Wang, Jiang, Wei (2018)", "004 Table 1",
        "alpha = 3 (1 - c_r)/(2 c_r^0.89)", hysteresis_note,
        [](double c) { return 1.5 * (1.0 - c) / std::pow(c, 0.89); }, true),
    hysteresis(
        "carvalho_martins", "Carvalho & Martins (2019)", "004 Table 1",
        "alpha = 3 (1 - c_r)(11 - c_r) / (2 (1 + 9 c_r))",
        "closest closed form to the exact factor",
        [](double c) { return 1.5 * (1.0 - c) * (11.0 - c) / (1.0 + 9.0 * c); }, false),
    hysteresis(
        "safaeifar_farshidianfar", "Safaeifar & Farshidianfar (2020)", "004 Table 1",
        "alpha = 5 (1 - c_r)/(4 c_r)", hysteresis_note,
        [](double c) { return 1.25 * (1.0 - c) / c; }, true),
    hysteresis(
        "zhang_et_al_2020", "Zhang, Li, Zhao, He (2020)", "004 Table 1",
        "alpha = 3 (1 - c_r) / (2 (0.618 e^(-3.25 c_r) + 0.899 e^(0.09025 c_r)) c_r)",
        hysteresis_note,
        [](double c) {
          return 1.5 * (1.0 - c) /
                 ((0.618 * std::exp(-3.25 * c) + 0.899 * std::exp(0.09025 * c)) * c);
        },
        true),
    hysteresis(
        "zhao_et_al_2021", "Zhao, Liu, Li, Wu (2021)", "004 Table 1",
        "alpha = 4 (1 - c_r)/(1.302 c_r)",
        "as printed; the original's normal-friction term is not in 004's row",
        [](double c) { return 4.0 * (1.0 - c) / (1.302 * c); }, true),
    LawEntry{"khulief_shabana", "Khulief & Shabana (1985-87)", "002 §3.5",
             "F = K delta (1 + alpha v/v0)", "alpha = 3 (1 - c_r^2)/4",
             "linear spring with indentation-proportional damping; 002 Eq. 71 garbled, read "
             "mu = 3 K (1 - c_r^2)/(4 v0)",
             Family::hysteresis, Kernel::linear_hysteresis, TensionPolicy::clamp,
             linear_hysteresis_params, [](double c) { return 0.75 * (1.0 - c * c); },
             prepare_linear_hysteresis},
    LawEntry{"jankowski_s000", "Jankowski as printed in 000 Table 1 (not reproducible)",
             "000 Table 1", "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = 2 (-ln c_r)/sqrt(pi^2 + ln^2 c_r) K/v0",
             "as printed the bodies never separate; 000 Table 2's row is not reproduced by any "
             "reading",
             Family::hysteresis, Kernel::hertz_v0_root_damping, TensionPolicy::allow,
             hysteresis_open_params, [](double c) { return 2.0 * log_decrement_ratio(c); },
             prepare_hysteresis},

    // (d) Piecewise hysteretic laws
    LawEntry{"jankowski_piecewise", "Jankowski (2005), nonlinear viscoelastic pounding",
             "001 Eq. 36",
             "F = K delta^(3/2) + C delta^(1/4) v while v > 0, F = K delta^(3/2) while v <= 0",
             "C = 2 xi sqrt(K m*), xi = (9 sqrt(5)/2)(1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16))",
             "reading of the garbled 001 Eq. 36 that reproduces 001 Table 1", Family::piecewise,
             Kernel::jankowski_piecewise, TensionPolicy::clamp, viscous_open_params,
             jankowski_factor, prepare_viscous},
    LawEntry{"valles_reinhorn", "Valles & Reinhorn piecewise-linear gap element", "001 Eq. 35",
             "F = K1 delta loading; F = K2 (delta - delta_P) unloading",
             "K2 = K1/c_r^2, delta_P = (1 - c_r^2) delta_max (continuity and energy ratio c_r^2)",
             "e_out = c_r in an isolated impact; reloading follows the unloading line",
             Family::piecewise, Kernel::plastic_power, TensionPolicy::clamp, plastic_linear_params,
             nullptr, prepare_plastic_linear},
    LawEntry{"lankarani_nikravesh_plastic", "Lankarani & Nikravesh (1994), permanent indentation",
             "002 §3.8; 001 Eq. 4",
             "F = K delta^n loading; F = F_m ((delta - delta_p)/(delta_m - delta_p))^n unloading",
             "delta_p = (1 - c_r^2) delta_m at the actual turning point",
             "e_out = c_r in an isolated impact; permanent overlap kept across re-contacts",
             Family::piecewise, Kernel::plastic_power, TensionPolicy::clamp, plastic_hertz_params,
             nullptr, prepare_plastic_hertz},
    LawEntry{"gharib_hurmuzlu_plastic", "Gharib & Hurmuzlu (2012), permanent indentation",
             "002 §3.12", "F = K_c delta^n loading; F = K_r (delta - delta_p)^n unloading",
             "delta_p = (1 - e_w^2) delta_m, K_r = K_c e_w^(-2n) (restitution = e_w)",
             "same curve as lankarani_nikravesh_plastic", Family::piecewise, Kernel::plastic_power,
             TensionPolicy::clamp, plastic_hertz_params, nullptr, prepare_plastic_hertz},
};

constexpr std::array unimplemented{
    UnimplementedLaw{"sphere_contact_area", "001 Eqs. 63-66",
                     "as printed the force has units of N/m; 001 calls it case-specific"},
    UnimplementedLaw{"luo_nahon_overlap", "001 Eq. 13",
                     "uses delta_max, not delta: not a force law F(delta); units of tau'_max "
                     "unstated"},
    UnimplementedLaw{"liu_spherical_joint", "001 Eq. 11", "K undefined and the text garbled"},
    UnimplementedLaw{"marhefka_orin simplified variant", "002 §3.9",
                     "singular at c_r = 1/3, negative below; marhefka_orin implements the full "
                     "form"},
    UnimplementedLaw{"dubowsky_freudenstein_impact_pair", "002 §3.1",
                     "a two-mass clearance system model, not a force law; any chaindem law can "
                     "serve as its g(X_r)"},
};

}  // namespace

std::string_view to_string(Family f) {
  switch (f) {
    case Family::elastic:
      return "elastic";
    case Family::linear_viscoelastic:
      return "linear viscoelastic";
    case Family::viscous:
      return "viscous";
    case Family::hysteresis:
      return "hysteresis";
    case Family::piecewise:
      return "piecewise hysteretic";
  }
  return "?";
}

std::string_view to_string(TensionPolicy t) {
  return t == TensionPolicy::clamp ? "clamp" : "allow";
}

std::string ParamSpec::range_text() const {
  std::ostringstream s;
  s << (min_inclusive ? '[' : '(') << min << ", ";
  if (std::isinf(max))
    s << "inf)";
  else
    s << max << (max_inclusive ? ']' : ')');
  return s.str();
}

const ParamSpec* LawEntry::find_param(std::string_view key) const {
  for (const auto& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

bool LawEntry::uses_impact_velocity() const {
  return kernel == Kernel::hertz_hysteresis || kernel == Kernel::linear_hysteresis ||
         kernel == Kernel::hertz_v0_root_damping;
}

std::span<const LawEntry> all_laws() {
  return laws;
}

const LawEntry* find_law(std::string_view id) {
  for (const auto& law : laws)
    if (law.id == id) return &law;
  return nullptr;
}

std::span<const UnimplementedLaw> unimplemented_laws() {
  return unimplemented;
}

double restitution_beta(double restitution) {
  if (restitution <= 0.0) return -1.0;
  const double l = std::log(restitution);
  return l / std::sqrt(l * l + pi * pi);
}

double elastic_contact_time(double stiffness, double exponent, double effective_mass,
                            double speed) {
  const double n = exponent;
  const double delta_max =
      std::pow((n + 1.0) * effective_mass * speed * speed / (2.0 * stiffness), 1.0 / (n + 1.0));
  const double a = 1.0 / (n + 1.0);
  const double beta = std::exp(std::lgamma(a) + std::lgamma(0.5) - std::lgamma(a + 0.5));
  return 2.0 * delta_max / speed * beta / (n + 1.0);
}

std::string laws_markdown() {
  std::ostringstream md;
  md << "# Contact laws\n\n"
        "<!-- Generated by `chaindem models --markdown`; a test checks this file against the "
        "registry. -->\n\n"
        "Every normal contact law chaindem implements, from its registry (src/laws.cpp). "
        "Identifiers, formulas and readings follow `../shared/reference/contact-laws.md`; "
        "conventions: overlap delta > 0 in contact, approach rate v > 0 while compressing, "
        "v0 the approach rate at first touch, F > 0 repulsive. Parameters go in the case's "
        "`[contact]` section.\n";
  Family family = Family::elastic;
  bool first = true;
  for (const auto& law : laws) {
    if (first || law.family != family) {
      family = law.family;
      first = false;
      md << "\n## " << to_string(family) << "\n";
    }
    md << "\n### `" << law.id << "` - " << law.title << "\n\n"
       << "- source: " << law.citation << "\n"
       << "- force: `" << law.formula << "`\n"
       << "- damping: " << law.damping << "\n"
       << "- tension: " << to_string(law.tension) << " by default\n";
    if (!law.notes.empty()) md << "- notes: " << law.notes << "\n";
    for (const auto& p : law.params) {
      md << "- `" << p.key << "` [" << p.unit << "] " << p.range_text() << ", ";
      if (p.default_value)
        md << "default " << *p.default_value;
      else if (!p.default_text.empty())
        md << "default: " << p.default_text;
      else
        md << "required";
      md << ": " << p.description << "\n";
    }
  }
  md << "\n## Not implemented\n\n| identifier | source | reason |\n|---|---|---|\n";
  for (const auto& u : unimplemented)
    md << "| `" << u.id << "` | " << u.source << " | " << u.reason << " |\n";
  return md.str();
}

}  // namespace chaindem
