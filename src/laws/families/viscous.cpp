// Viscous family: Hertz (or a power law) plus a dashpot without the impact velocity.
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

constexpr ParamSpec eta1_param{.key = "eta1",
                               .unit = "Pa s",
                               .description = "viscous material constant eta_1",
                               .range = ValueRange::at_least(0.0)};
constexpr ParamSpec eta2_param{.key = "eta2",
                               .unit = "Pa s",
                               .description = "viscous material constant eta_2",
                               .range = ValueRange::at_least(0.0)};
constexpr std::array viscoelastic_sphere_params{eta1_param, eta2_param, hertz_stiffness_param};

// The empirical chi of the m = 0.65 and m = 1 laws: one key, its unit set by m.
constexpr ParamSpec chi_m065{.key = "damping_coefficient",
                             .unit = "N s/m^1.65",
                             .description = "empirical damping coefficient chi",
                             .range = ValueRange::at_least(0.0)};
constexpr std::array m065_params{chi_m065, hertz_stiffness_param};

constexpr ParamSpec chi_m1{.key = "damping_coefficient",
                           .unit = "N s/m^2",
                           .description = "empirical damping coefficient chi",
                           .range = ValueRange::at_least(0.0)};
constexpr std::array m1_params{chi_m1, hertz_stiffness_param};

constexpr ParamSpec lee_herrmann_xi{
    .key = "xi",
    .unit = "1/(m s)",
    .description = "damping constant xi, chi = m* xi (Banerjee et al. 2017 print 5e2)",
    .range = ValueRange::at_least(0.0),
    .default_value = 500.0};
constexpr std::array lee_herrmann_params{lee_herrmann_xi, hertz_stiffness_param};

constexpr ParamSpec transition_width{.key = "transition_width",
                                     .unit = "m",
                                     .description = "width epsilon of the transition zone",
                                     .range = ValueRange::above(0.0)};
constexpr ParamSpec transition_shape{
    .key = "shape",
    .unit = "-",
    .description = "curve-shape parameter q (Autiero et al. 2022: typically 2, 3 or 4)",
    .range = ValueRange::above(0.0),
    .default_value = 2.0};
constexpr std::array lee_wang_transition_params{restitution_open, transition_width,
                                                transition_shape, hertz_stiffness_param};

// The software form keeps |beta| and m* and builds S_n inside the kernel.
PairCoeffs prepare_hertz_mindlin(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p);
  c.damping_exponent = 0.25;
  return c;
}

// Brilliantov / Kuwabara-Kono (CJTAM review, Table 2 row 1; Banerjee et al. 2017, HV4):
// chi = (K/2) (3 eta2 - eta1)^2 / (3 eta2 + 2 eta1) (1 - nu^2)(1 - 2 nu) / (E nu^2).
PairCoeffs prepare_viscoelastic_spheres(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  const double eta1 = value_of(p, eta1_param), eta2 = value_of(p, eta2_param),
               nu = in.poisson_ratio;
  if (!(nu > 0.0) || !(in.youngs_modulus > 0.0))
    throw std::invalid_argument("this law needs materials with E > 0 and nu > 0");
  c.damping = 0.5 * c.stiffness * (3 * eta2 - eta1) * (3 * eta2 - eta1) / (3 * eta2 + 2 * eta1) *
              (1 - nu * nu) * (1 - 2 * nu) / (in.youngs_modulus * nu * nu);
  c.damping_exponent = 0.5;
  return c;
}

// chi is the row's damping coefficient, whose unit depends on m.
template <int m_times_100, const ParamSpec& chi>
PairCoeffs prepare_empirical_viscous(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = value_of(p, chi);
  c.damping_exponent = m_times_100 / 100.0;
  return c;
}

PairCoeffs prepare_lee_herrmann(const LawEntry&, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = in.effective_mass * value_of(p, lee_herrmann_xi);
  c.damping_exponent = 1.0;
  return c;
}

PairCoeffs prepare_lee_wang_transition(const LawEntry& law, const PairInput& in,
                                       const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.length = value_of(p, transition_width);
  c.shape = value_of(p, transition_shape);
  return c;
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

constexpr std::array rows{
    // (c) Viscous: no impact velocity in the damping term
    LawEntry{"kuwabara_kono", "Kuwabara & Kono (1987)",
             "CJTAM review, Table 2 row 1; Banerjee et al. (2017), HV1",
             "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = (K/2) (3 eta2 - eta1)^2/(3 eta2 + 2 eta1) (1 - nu^2)(1 - 2 nu)/(E nu^2)",
             "prefactor 1/2 as printed (uncertain: 1/3 in common versions); E, nu: mean of the "
             "two bodies; restitution falls with v0 (1 - e ~ v0^(1/5))",
             Family::viscous, Kernel::viscous_power, TensionPolicy::clamp,
             viscoelastic_sphere_params, nullptr, prepare_viscoelastic_spheres, hertz_elastic},
    LawEntry{"brilliantov", "Brilliantov et al. (1996), viscoelastic spheres",
             "Skrinjar et al. (2018), Table 1; Banerjee et al. (2017), HV4",
             "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = K (3 eta2 - eta1)^2 (1 - nu^2)(1 - 2 nu) / [2 (3 eta2 + 2 eta1) E nu^2]",
             "same expression as the CJTAM review's Kuwabara-Kono row; Skrinjar et al.'s (2018) "
             "1/K and (1 - nu) are misprints",
             Family::viscous, Kernel::viscous_power, TensionPolicy::clamp,
             viscoelastic_sphere_params, nullptr, prepare_viscoelastic_spheres, hertz_elastic},
    LawEntry{
        "tsuji", "Tsuji, Tanaka & Ishida (1992)",
        "CJTAM review, Table 2 row 2; Skrinjar et al. (2018), Table 1; Banerjee et al. (2017), HV2",
        "F = K delta^(3/2) + chi delta^(1/4) v",
        "chi = sqrt(5) |ln c_r| / sqrt(pi^2 + ln^2 c_r) sqrt(K m*)",
        "e_out = c_r exactly with tension allowed, independent of v0; higher when clamped",
        Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp, viscous_closed_params,
        tsuji_factor, prepare_viscous, hertz_elastic},
    LawEntry{
        "edem_hertz_mindlin",
        "Hertz-Mindlin normal damping of commercial DEM (EDEM, LIGGGHTS model hertz)",
        "CJTAM review, abstract and Table 6",
        "F = (4/3) E* sqrt(R*) delta^(3/2) - 2 sqrt(5/6) beta sqrt(S_n m*) v, "
        "S_n = 2 E* sqrt(R* delta)",
        "beta = ln c_r / sqrt(ln^2 c_r + pi^2)",
        "algebraically identical to tsuji; LIGGGHTS allows tension by default (limitForce off)",
        Family::viscous, Kernel::hertz_mindlin, TensionPolicy::clamp, viscous_closed_params,
        beta_magnitude, prepare_hertz_mindlin, hertz_elastic},
    LawEntry{"equivalent_oscillator_viscous",
             "Viscous law of the equivalent linear oscillator (chaindem's derivation of the CJTAM "
             "review's proposal)",
             "CJTAM review, abstract and Table 6 (formula lost); docs/equivalent-oscillator.md",
             "F = K delta^(3/2) + 2 xi sqrt(k_t m*) v, k_t = (3/2) K delta^(1/2)",
             "xi(c_r) such that an isolated impact with F >= 0 returns exactly c_r (one solve per "
             "c_r)",
             "no v0 and restitution independent of v0 (delta^(1/4) damping); exact without tension",
             Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp,
             viscous_open_params, equivalent_oscillator_factor, prepare_viscous, hertz_elastic},
    LawEntry{"jankowski_viscous", "Jankowski damping as a symmetric viscous law",
             "CJTAM review, Table 2 row 3", "F = K delta^(3/2) + chi delta^(1/4) v",
             "chi = 9 sqrt(5) (1 - c_r^2) / (c_r (c_r (9 pi - 16) + 16)) sqrt(K m*)",
             "as printed, without Jankowski's approach-only switch: over-dissipates; use "
             "jankowski_piecewise for physics",
             Family::viscous, Kernel::hertz_viscous_quarter, TensionPolicy::clamp,
             viscous_open_params, jankowski_factor, prepare_viscous, hertz_elastic},
    LawEntry{"lee_wang_transition", "Lee-Wang damping function 2 (transition function)",
             "CJTAM review, Table 2 row 4; Autiero et al. (2022), §3.4",
             "F = K delta^(3/2) + T(delta) D v",
             "D = 2 |ln c_r| sqrt(K m*/(pi^2 + ln^2 c_r)); T = exp(-2q (eps - delta)/eps) for "
             "delta < eps, 1 above",
             "D v with a Hertz K is not a force dimensionally (uncertain, as printed in the CJTAM "
             "review); "
             "force jump D e^(-2q) v0 at onset",
             Family::viscous, Kernel::lee_wang_transition, TensionPolicy::clamp,
             lee_wang_transition_params, lee_wang_transition_factor, prepare_lee_wang_transition,
             hertz_elastic},
    LawEntry{"schwager_poschel", "Schwager & Poschel (1998)",
             "CJTAM review, Table 2; Skrinjar et al. (2018), Table 1",
             "F = K delta^(3/2) + chi delta^0.65 v", "chi empirical (given)",
             "attribution of m = 0.65 differs between sources", Family::viscous,
             Kernel::viscous_power, TensionPolicy::clamp, m065_params, nullptr,
             prepare_empirical_viscous<65, chi_m065>, hertz_elastic},
    LawEntry{"bordbar_hyppanen", "Bordbar & Hyppanen (2007)",
             "Banerjee et al. (2017), HV5; Skrinjar et al. (2018), Table 1",
             "F = K delta^(3/2) + chi delta^0.65 v", "chi empirical (given)",
             "units of chi uncertain in the sources", Family::viscous, Kernel::viscous_power,
             TensionPolicy::clamp, m065_params, nullptr, prepare_empirical_viscous<65, chi_m065>,
             hertz_elastic},
    LawEntry{"lee_herrmann", "Lee & Herrmann (1993)",
             "Skrinjar et al. (2018), Table 1; Banerjee et al. (2017), HV3; CJTAM review, Table 2",
             "F = K delta^(3/2) + m* xi delta v", "xi given (Banerjee et al. 2017: 5e2)",
             "units and magnitude of xi given only as 5e2", Family::viscous, Kernel::viscous_power,
             TensionPolicy::clamp, lee_herrmann_params, nullptr, prepare_lee_herrmann,
             hertz_elastic},
    LawEntry{"ristow", "Ristow (1992)", "Skrinjar et al. (2018), Table 1; CJTAM review, Table 2",
             "F = K delta^(3/2) + chi delta v", "chi empirical (given)", "", Family::viscous,
             Kernel::viscous_power, TensionPolicy::clamp, m1_params, nullptr,
             prepare_empirical_viscous<100, chi_m1>, hertz_elastic},
    LawEntry{"schafer", "Schafer et al. (1996)", "Skrinjar et al. (2018), Table 1",
             "F = K delta^(3/2) + chi delta v", "chi empirical (given)", "", Family::viscous,
             Kernel::viscous_power, TensionPolicy::clamp, m1_params, nullptr,
             prepare_empirical_viscous<100, chi_m1>, hertz_elastic},
};

}  // namespace

std::span<const LawEntry> viscous_laws() {
  return rows;
}

}  // namespace chaindem
