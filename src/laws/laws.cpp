// The registry of normal contact laws. Every law is declared here exactly once; see
// include/chaindem/laws/contact_law.hpp for the conventions; each row names its source, and
// docs/contact-laws.md (generated from the rows) lists them by family.
#include <array>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"

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
    "with contact.impact_velocity = onset only: smallest impact velocity v0 used in the damping "
    "term; contacts that start slower (touching, resting or pre-compressed beads, where v0 -> 0 "
    "makes the damping infinite) use this value and are counted in the run summary",
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

// Group (e): every law takes the yield stress from the materials, or from this parameter.
constexpr ParamSpec yield_stress_param{
    "yield_stress",
    "Pa",
    "yield stress sigma_y (S_y, Y) of the softer body; overrides the materials' yield_stress for "
    "every pair",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "the smaller yield_stress of the two materials ([material.NAME] yield_stress; collide: "
    "--yield-stress)"};
constexpr ParamSpec yield_pressure_ratio_param{
    "yield_pressure_ratio",
    "-",
    "p_y/sigma_y, Hertz pressure at the onset of yield (delta_y = (pi p_y/(2E*))^2 R, not defined "
    "by the row); default 1.6, the Hertz first-yield pressure for nu ~ 0.3 printed in "
    "burgoyne_daraio_2014's row",
    0.0,
    inf,
    false,
    false,
    1.6};
constexpr ParamSpec hardness_ratio_param{
    "hardness_ratio",
    "-",
    "H/sigma_y, hardness over yield stress; default 2.8 (H = 2.8 Y of the Chang-Etsion-Bogy "
    "framework, contact-laws.md kogut_etsion_2002 and jackson_green_2005)",
    0.0,
    inf,
    false,
    false,
    2.8};

constexpr std::array thornton_params{
    yield_stress_param,
    ParamSpec{"limiting_pressure_ratio", "-",
              "p_y/sigma_y, Thornton's limiting contact pressure over the yield stress; default "
              "1: the row prints sigma_y where Thornton has p_y (uncertain; 1.6 would be the "
              "Hertz first-yield value)",
              0.0, inf, false, false, 1.0}};
constexpr std::array stronge_params{
    yield_stress_param,
    ParamSpec{"theta_y", "-",
              "yield coefficient: mean contact pressure theta_y sigma_y at first yield (the "
              "printed F_y is the Hertz load at that mean pressure); delta_p = delta_y (1 + e^(3 "
              "(2.8 - theta_y)))/2 needs theta_y < 2.8; default 1.1, the mean pressure at first "
              "yield 1.1 Y = (2/3) 1.6 Y of Hertz theory (delta_p = 82 delta_y)",
              0.0, 2.8, false, false, 1.1}};
constexpr std::array vu_quoc_zhang_params{
    yield_stress_param, yield_pressure_ratio_param,
    ParamSpec{"k_c", "1/N",
              "K_c, growth of the radius of curvature R^ep = (1 + K_c (F - F_y)) R (empirical; "
              "no value in the sources)",
              0.0, inf, true, false, std::nullopt},
    ParamSpec{"c_a", "m/N",
              "C_a, plastic growth of the contact radius a^p = C_a (F - F_y) (empirical; no value "
              "in the sources)",
              0.0, inf, true, false, std::nullopt}};
constexpr std::array kogut_etsion_params{
    yield_stress_param, hardness_ratio_param,
    ParamSpec{
        "residual_fraction", "-",
        "delta_res/delta_max = omega_res/omega_max after a plastic loading (not in the "
        "sources)",
        0.0, 1.0, true, false, std::nullopt,
        "the finite-element fit 1.02 [1 - ((omega_max + 5.9)/6.9)^(-0.54)] of the "
        "unloading literature of this law (not among the sources; uncertain), capped at 0.99"}};
constexpr std::array jackson_green_params{
    yield_stress_param,
    ParamSpec{"hardness_ratio", "-",
              "H/S_y in the fully plastic term 4 H/(C S_y); default 2.8 (contact-laws.md: the "
              "branches then meet at omega = 1.9 within 0.07 % for nu = 0.3; the original's H is "
              "geometry dependent)",
              0.0, inf, false, false, 2.8}};
constexpr std::array du_wang_params{yield_stress_param};
constexpr std::array brake_params{
    yield_stress_param, yield_pressure_ratio_param, hardness_ratio_param,
    ParamSpec{"pressure_hardness_ratio", "-",
              "p0/H, fully plastic contact pressure over the hardness; default 1 (the row: p0 ~ H)",
              0.0, inf, false, false, 1.0},
    ParamSpec{"plastic_overlap_ratio", "-",
              "delta_p/delta_y, onset of the fully plastic branch (not defined in the sources; "
              "F_p = pi p0 a_p^2 lies below the Hertz curve only for delta_p/delta_y > (9/4) "
              "(p0/p_y)^2, 6.9 with the default pressures)",
              1.0, inf, false, false, std::nullopt}};
constexpr std::array burgoyne_daraio_params{
    yield_stress_param,
    ParamSpec{"c1", "-",
              "p0 = c1 sigma_y, fully plastic contact pressure (empirical; no value in the "
              "sources)",
              0.0, inf, false, false, std::nullopt},
    ParamSpec{"c2", "m^2",
              "c2 of the fully plastic branch p0 pi (2 R delta + c2), the same for every pair "
              "(empirical; no value in the sources; Brake's c = a_p^2 - 2 R delta_p plays this "
              "role)",
              -inf, inf, false, false, std::nullopt},
    ParamSpec{"plastic_overlap_ratio", "-",
              "delta_p/delta_y, onset of the fully plastic branch (empirical; no value in the "
              "sources)",
              1.0, inf, false, false, std::nullopt}};
constexpr std::array ma_liu_params{
    yield_stress_param,
    ParamSpec{"xi", "-",
              "xi: the fully plastic branch starts at delta_p = (xi^2/2) delta_y (no value in the "
              "sources)",
              std::numbers::sqrt2, inf, false, false, std::nullopt},
    ParamSpec{"psi", "-",
              "psi: fully plastic stiffness k1 = 2 pi R psi sigma_y, i.e. mean pressure psi "
              "sigma_y (no value in the sources)",
              0.0, inf, false, false, std::nullopt}};

// Group (f): line contacts of parallel cylinders.
constexpr ParamSpec length_param{
    "length",
    "m",
    "axial contact length L of the cylinders; overrides chain.cylinder_length for every pair",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "chain.cylinder_length (the bodies are cylinders); collide: required"};
constexpr ParamSpec clearance_param{
    "clearance",
    "m",
    "radial clearance dR = R_hole - R_pin of an internal contact (pin in a bore, journal in a "
    "bearing), for every pair; R_pin is the smaller body's radius",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "external contact of convex cylinders, dR = R_i + R_j (a wall: the body's mirror image)"};
constexpr ParamSpec clearance_required{
    "clearance",
    "m",
    "radial clearance dR = R_hole - R_pin of the internal contact (pin in a bore), for every "
    "pair; R_pin is the smaller body's radius",
    0.0,
    inf,
    false,
    false,
    std::nullopt};
constexpr ParamSpec line_restitution_param{
    "restitution",
    "-",
    "c_r of the Lankarani-Nikravesh hysteresis factor 1 + (3/4)(1 - c_r^2) v/v0 applied to the "
    "elastic force (000 §6, example 0.7); 1: undamped, as 000's experiment B",
    0.0,
    1.0,
    false,
    true,
    1.0};
constexpr std::array line_params{length_param, clearance_param, line_restitution_param,
                                 impact_velocity_floor_param};
constexpr std::array internal_line_params{length_param, clearance_required, line_restitution_param,
                                          impact_velocity_floor_param};
constexpr std::array radzimovsky_params{
    length_param, clearance_param, line_restitution_param, impact_velocity_floor_param,
    ParamSpec{"log_constant", "-",
              "c of ln(c dR E*/W): 16/b0^2 with b0 = 1.60 (000 Eq. 38) is 6.25, which substitutes "
              "000 Eqs. 38 and 40 into Eq. 37 and reproduces 002's fits; the printed 8/b0^2 "
              "gives 3.125, or 1.7307 with 000's b0 = 2.15 for similar materials (Eq. 39; "
              "16/2.15^2 = 3.4613)",
              0.0, inf, false, false, 6.25}};
constexpr std::array ln_cylindrical_params{
    clearance_param, line_restitution_param, impact_velocity_floor_param,
    ParamSpec{"exponent", "-",
              "n: 1.5 as for spheres (002 Table 11); 000: between 1 and 1.5 for cylinders", 1.0,
              1.5, true, true, 1.5}};
constexpr std::array pereira_internal_params{clearance_required, length_param,
                                             line_restitution_param, impact_velocity_floor_param};
constexpr std::array pereira_external_params{length_param, line_restitution_param,
                                             impact_velocity_floor_param};
constexpr std::array power_fit_params{
    length_param,
    clearance_param,
    ParamSpec{"stiffness", "N/m^n", "K of F = K delta^n (total force), for every contact", 0.0, inf,
              false, false, std::nullopt,
              "fitted per pair to johnson_cylindrical over fit_load_min..fit_load_max (002 §2)"},
    ParamSpec{"exponent", "-", "n of F = K delta^n (give it with stiffness)", 0.0, inf, false,
              false, std::nullopt, "fitted with stiffness"},
    ParamSpec{"fit_load_min", "N/m", "smallest load per unit length W of the fit (002: 1 N/mm)",
              0.0, inf, false, false, 1e3},
    ParamSpec{"fit_load_max", "N/m", "largest load per unit length W of the fit (002: 3000 N/mm)",
              0.0, inf, false, false, 3e6},
    ParamSpec{"hunt_crossley_alpha", "s/m",
              "alpha_HC of 002's damping 1.5 alpha_HC K delta^n v (002: 0.32 s/m); 0: undamped",
              0.0, inf, true, false, 0.0}};

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
// kernels::PlasticPower: restitution, and law[0] = c_r^(-2n), the unloading stiffness factor
// (a pow per unloading otherwise).
PairCoeffs plastic_power(PairCoeffs c, const LawParams& p) {
  c.restitution = p.at("restitution");
  c.law[0] = std::pow(c.restitution * c.restitution, -c.exponent);
  return c;
}
PairCoeffs prepare_plastic_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  return plastic_power(base(hertz_k(in, p), 1.5, in), p);
}
PairCoeffs prepare_plastic_linear(const LawEntry&, const PairInput& in, const LawParams& p) {
  return plastic_power(base(p.at("stiffness"), 1.0, in), p);
}

// ---- Group (f): line contacts ---------------------------------------------------------------

// The contact as two parallel cylinders: E*, dR, R_eq = R_i R_j/dR (internal: R_pin (R_pin +
// dR)/dR), L. A wall contact is the symmetric contact of the body with its mirror image: radii R
// and R, modulus E*/2, at twice the overlap (F_wall(delta) = F_pair(2 delta)); exact for a rigid
// frictionless wall, since the symmetry plane of two identical cylinders neither moves nor
// carries shear. An elastic wall enters through E* = 1/(h_body + h_wall) as for every law, and
// the mirror pair then carries twice that compliance: an approximation. The laws' dR -> infinity
// limit for a flat is singular (delta ~ ln dR).
struct LineGeometry {
  double modulus;    ///< E* [Pa]
  double clearance;  ///< dR [m]
  double eq_radius;  ///< R_eq [m]
  double length;     ///< L [m]
  bool wall;         ///< the mirror pair of a wall contact
};
LineGeometry line_geometry(const LawEntry& law, const PairInput& in, const LawParams& p,
                           bool needs_length = true) {
  const std::string id(law.id);
  const double length = param_or(p, "length", in.contact_length);
  if (needs_length && (!(length > 0.0) || !std::isfinite(length)))
    throw std::invalid_argument(
        "law '" + id +
        "' is a line contact of cylinders: set chain.cylinder_length (the bodies are then "
        "cylinders) or the law parameter length [m] (collide: --set length=...)");
  if (!(in.effective_modulus > 0.0) || !std::isfinite(in.effective_modulus))
    throw std::invalid_argument("law '" + id +
                                "' needs the materials (Young's modulus, Poisson "
                                "ratio): E* must be > 0");
  const bool wall = in.radius_j == 0.0;
  const double ri = in.radius_i, rj = wall ? in.radius_i : in.radius_j;
  if (!(ri > 0.0) || !(rj > 0.0) || !std::isfinite(ri) || !std::isfinite(rj))
    throw std::invalid_argument("law '" + id +
                                "' needs the radii of the bodies (collide: "
                                "--radius)");
  LineGeometry g{wall ? 0.5 * in.effective_modulus : in.effective_modulus, ri + rj,
                 ri * rj / (ri + rj), length, wall};
  if (const auto it = p.find("clearance"); it != p.end()) {
    if (wall)
      throw std::invalid_argument("law '" + id +
                                  "': clearance (an internal contact) cannot apply to a wall "
                                  "contact; remove the walls or the clearance");
    const double pin = std::min(ri, rj);
    g.clearance = it->second;
    g.eq_radius = pin * (pin + g.clearance) / g.clearance;
  }
  return g;
}

// delta = a F (ln(b/F) + k) from the law per unit length, delta = A W (ln(B/W) + k), W = F/L.
PairCoeffs line_implicit(const LawEntry& law, const PairInput& in, const LawParams& p,
                         const LineGeometry& g, double A, double B, double k) {
  double a = A / g.length;
  const double b = B * g.length;
  if (g.wall) a *= 0.5;  // the wall sees half the mirror pair's overlap at the same force
  PairCoeffs c = base(1.0 / a, 1.0, in);
  c.law = {a, std::exp(-k) / (a * b), 0.0};
  c.damping = law.damping_factor ? factor(law, p) : 0.0;
  return c;
}
PairCoeffs prepare_hertz_cylindrical(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 2.0 / (pi * g.modulus), pi * g.modulus * g.clearance, -1.0);
}
PairCoeffs prepare_johnson_cylindrical(const LawEntry& law, const PairInput& in,
                                       const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 1.0 / (pi * g.modulus), 4.0 * pi * g.modulus * g.clearance,
                       -1.0);
}
PairCoeffs prepare_radzimovsky(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 1.0 / (pi * g.modulus),
                       p.at("log_constant") * g.clearance * g.modulus, 2.0 / 3.0);
}
// h_i + h_j = 1/E* (000's h_k = (1 - nu_k^2)/E_k, no factor pi); R read as the curvature 1/R_eq.
PairCoeffs prepare_goldsmith_cylindrical(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 1.0 / g.modulus, g.modulus * g.eq_radius, 1.0);
}
PairCoeffs prepare_dubowsky_freudenstein(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 1.0 / g.modulus,
                       g.length * g.length * g.modulus / g.eq_radius, 1.0);
}
PairCoeffs prepare_esdu_78035(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  return line_implicit(law, in, p, g, 1.0 / g.modulus, 4.0 * g.modulus * g.clearance, 1.0);
}
PairCoeffs prepare_liu_cylindrical(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  double q = g.length * 0.5 * pi * g.modulus / std::numbers::sqrt2, dr = g.clearance;
  if (g.wall) q *= 2.0, dr *= 0.5;  // F(2 delta; q, dR) = F(delta; 2q, dR/2)
  PairCoeffs c = base(q / std::sqrt(dr), 1.5, in);
  c.law = {q, dr, 0.0};
  c.damping = factor(law, p);
  return c;
}
PairCoeffs prepare_persson(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  const double scale = g.wall ? 0.5 : 1.0;  // u(2 delta; dR) = u(delta; dR/2), C unchanged
  const double dr = g.clearance * scale;
  PairCoeffs c = base(g.length * g.modulus * g.clearance * pi / (4.0 * dr), 1.0, in);
  c.law = {g.length * g.modulus * g.clearance * pi, dr, 16.0 * dr};
  c.damping = factor(law, p);
  return c;
}
// Power laws in delta: the wall contact K (2 delta)^n.
PairCoeffs line_power(const LawEntry& law, const PairInput& in, const LawParams& p,
                      const LineGeometry& g, double k, double n) {
  PairCoeffs c = base(g.wall ? k * std::pow(2.0, n) : k, n, in);
  c.damping = factor(law, p);
  return c;
}
// (4/3) E* sqrt(R_eq) delta^n: total force, no L (000 Eq. 46; 002 Table 11's K scale so).
PairCoeffs prepare_ln_cylindrical(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p, false);
  return line_power(law, in, p, g, 4.0 / 3.0 * g.modulus * std::sqrt(g.eq_radius),
                    p.at("exponent"));
}
// Pereira's enhanced model is empirical in mm and N/mm^2: K = (a dR + b) L E*/dR [N/mm^n],
// times 1000^n for N/m^n.
PairCoeffs pereira(const LawEntry& law, const PairInput& in, const LawParams& p, double a, double b,
                   double (*exponent)(double)) {
  const LineGeometry g = line_geometry(law, in, p);
  const double dr = g.clearance * 1e3, length = g.length * 1e3, modulus = g.modulus * 1e-6;
  const double n = exponent(dr);
  if (!(n > 0.0))
    throw std::invalid_argument("law '" + std::string(law.id) +
                                "' is fitted for radial clearances 0.005-10 mm; clearance "
                                "= " +
                                std::to_string(dr) + " mm is outside");
  return line_power(law, in, p, g, (a * dr + b) * length * modulus / dr * std::pow(1e3, n), n);
}
// n = Y dR^(-0.005), dR in mm; 0 outside the fitted clearances.
double pereira_2011_exponent(double dr) {
  if (dr < 0.005 || dr >= 10.0) return 0.0;
  const double y = dr < 0.75 ? 1.56 * std::pow(std::log(1000.0 * dr), -0.192) : 0.0028 * dr + 1.083;
  return y * std::pow(dr, -0.005);
}
double pereira_2015_exponent(double dr) {
  if (dr < 0.005 || dr > 10.0) return 0.0;
  const double y =
      dr <= 0.34954 ? 1.51 * std::pow(std::log(1000.0 * dr), -0.151) : 0.0151 * dr + 1.151;
  return y * std::pow(dr, -0.005);
}
PairCoeffs prepare_pereira_2011(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return pereira(law, in, p, 0.49, 0.10, pereira_2011_exponent);
}
PairCoeffs prepare_pereira_2015_internal(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  return pereira(law, in, p, 0.965, 0.0965, pereira_2015_exponent);
}
PairCoeffs prepare_pereira_2015_external(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  return pereira(law, in, p, 0.39, 0.85, [](double) { return 1.094; });
}
// 002's surrogate with its damping: K delta^n + 1.5 alpha_HC K delta^n v (kernel ViscousPower).
PairCoeffs prepare_cylindrical_power_fit(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  const bool k_given = p.count("stiffness") != 0, n_given = p.count("exponent") != 0;
  if (k_given != n_given)
    throw std::invalid_argument("law '" + std::string(law.id) +
                                "': give stiffness and exponent together, or neither (then both "
                                "are fitted to johnson_cylindrical)");
  PairCoeffs c;
  if (k_given) {
    c = base(p.at("stiffness"), p.at("exponent"), in);
  } else {
    const LineGeometry g = line_geometry(law, in, p);
    const double lo = p.at("fit_load_min"), hi = p.at("fit_load_max");
    if (!(hi > lo))
      throw std::invalid_argument("law '" + std::string(law.id) +
                                  "': fit_load_max must exceed fit_load_min");
    const PairCoeffs johnson =
        line_implicit(law, in, {{"restitution", 1.0}}, g, 1.0 / (pi * g.modulus),
                      4.0 * pi * g.modulus * g.clearance, -1.0);
    // The fit must stay below Johnson's peak load 4 pi E* dR/e^2, where delta(W) turns back.
    const double peak = g.length * 4.0 * pi * g.modulus * g.clearance * std::exp(-2.0);
    if (hi * g.length > peak)
      throw std::invalid_argument("law '" + std::string(law.id) +
                                  "': fit_load_max exceeds johnson_cylindrical's peak "
                                  "load per unit length 4 pi E* dR/e^2 = " +
                                  std::to_string(peak / g.length) + " N/m");
    const PowerFit fit = fit_power_law(johnson, lo * g.length, hi * g.length, 600);
    c = base(fit.stiffness, fit.exponent, in);
  }
  c.damping = 1.5 * p.at("hunt_crossley_alpha") * c.stiffness;
  c.damping_exponent = c.exponent;
  return c;
}

// ---- Group (e): elastoplastic laws --------------------------------------------------------------

// The yield stress of the pair: the law parameter if given, else the materials'.
double yield_stress_of(const LawEntry& law, const PairInput& in, const LawParams& p) {
  if (!(in.effective_modulus > 0.0) || !(in.effective_radius > 0.0) ||
      !std::isfinite(in.effective_modulus) || !std::isfinite(in.effective_radius))
    throw std::invalid_argument("law '" + std::string(law.id) +
                                "' needs the materials (Young's modulus, Poisson ratio) and the "
                                "radii: E* and R* must be > 0");
  const double s = param_or(p, "yield_stress", in.yield_stress);
  if (!(s > 0.0) || !std::isfinite(s))
    throw std::invalid_argument(
        "law '" + std::string(law.id) +
        "' needs a yield stress: give the materials a yield_stress ([material.NAME] "
        "yield_stress; collide: --yield-stress) or set the law parameter yield_stress [Pa]");
  return s;
}
// Hertz K and R, and the yield onset at the Hertz pressure p_y (contact-laws.md group (e),
// "Hertz yield onset"): delta_y = (pi p_y/(2E*))^2 R, F_y = K delta_y^(3/2).
PairCoeffs elastoplastic_base(const PairInput& in, double p_y) {
  PairCoeffs c = base(hertz_stiffness(in.effective_modulus, in.effective_radius), 1.5, in);
  c.radius = in.effective_radius;
  const double r = pi * p_y / (2.0 * in.effective_modulus);
  c.yield_overlap = r * r * c.radius;
  c.yield_force = c.stiffness * std::pow(c.yield_overlap, 1.5);
  return c;
}

PairCoeffs prepare_thornton(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return elastoplastic_base(in, p.at("limiting_pressure_ratio") * yield_stress_of(law, in, p));
}
PairCoeffs prepare_stronge(const LawEntry& law, const PairInput& in, const LawParams& p) {
  // F_y = pi theta_y sigma_y R^2 (3 pi/4)^2 (theta_y sigma_y/E*)^2 as printed: the Hertz load at
  // which the mean pressure 4 E* a/(3 pi R) reaches theta_y sigma_y, i.e. the yield onset with
  // the peak pressure p_y = (3/2) theta_y sigma_y. delta_y = (F_y/K)^(2/3) (value continuity).
  const double theta = p.at("theta_y");
  PairCoeffs c = elastoplastic_base(in, 1.5 * theta * yield_stress_of(law, in, p));
  c.law[0] = theta;
  c.plastic_overlap = 0.5 * c.yield_overlap * (1.0 + std::exp(3.0 * (2.8 - theta)));
  c.plastic_force = 2.8 * c.yield_force / theta * (2.0 * c.plastic_overlap / c.yield_overlap - 1.0);
  return c;
}
PairCoeffs prepare_vu_quoc_zhang(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = elastoplastic_base(in, p.at("yield_pressure_ratio") * yield_stress_of(law, in, p));
  const double kc = p.at("k_c"), ca = p.at("c_a");
  c.law[0] = kc;
  c.law[1] = ca;
  // The root solve needs delta(F) increasing on the elastoplastic branch:
  // d ln(delta)/dF > 0  <=>  2 (a_e' + C_a)(1 + K_c x) > K_c (a_e + C_a x), x = F - F_y,
  // a_e = R^(1/2) (F/K)^(1/3). Checked from F_y to 1e12 F_y (it holds for large F whenever
  // C_a > 0 or K_c = 0).
  for (int k = 0; k <= 240; ++k) {
    const double f = c.yield_force * std::pow(10.0, k / 20.0), x = f - c.yield_force;
    const double ae = std::sqrt(c.radius) * std::cbrt(f / c.stiffness);
    if (!(2.0 * (ae / (3.0 * f) + ca) * (1.0 + kc * x) > kc * (ae + ca * x))) {
      std::ostringstream m;
      m << "law 'vu_quoc_zhang_2002': k_c = " << kc << " 1/N is too large for c_a = " << ca
        << " m/N: the overlap delta(F) of the elastoplastic branch decreases near F = " << f
        << " N (F_y = " << c.yield_force
        << " N), so F(delta) is not unique; the root solve needs 2 (a_e/(3F) + C_a)(1 + K_c (F - "
           "F_y)) > K_c (a_e + C_a (F - F_y)) with a_e = (3 R F/(4 E*))^(1/3): reduce k_c or "
           "increase c_a";
      throw std::invalid_argument(m.str());
    }
  }
  return c;
}
PairCoeffs prepare_kogut_etsion(const LawEntry& law, const PairInput& in, const LawParams& p) {
  // Critical pressure K H (Chang-Etsion-Bogy), K = 0.454 + 0.41 nu, H = (H/Y) Y.
  const double k = 0.454 + 0.41 * in.poisson_ratio;
  PairCoeffs c = elastoplastic_base(in, k * p.at("hardness_ratio") * yield_stress_of(law, in, p));
  c.law[0] = param_or(p, "residual_fraction", -1.0);
  c.plastic_overlap = 6.0 * c.yield_overlap;
  c.plastic_force = 1.40 * c.yield_force * std::pow(6.0, 1.263);
  return c;
}
PairCoeffs prepare_jackson_green(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double cc = 1.295 * std::exp(0.736 * in.poisson_ratio);
  PairCoeffs c = elastoplastic_base(in, cc * yield_stress_of(law, in, p));
  c.law[0] = 4.0 * p.at("hardness_ratio") / cc;
  return c;
}
PairCoeffs prepare_du_wang(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return elastoplastic_base(in, (1.0 + pi / 2.0) * yield_stress_of(law, in, p));
}
PairCoeffs prepare_brake(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p);
  PairCoeffs c = elastoplastic_base(in, p.at("yield_pressure_ratio") * sy);
  const double p0 = p.at("pressure_hardness_ratio") * p.at("hardness_ratio") * sy;
  const double a_p = 3.0 * pi * c.radius * p0 / (4.0 * in.effective_modulus);
  c.plastic_overlap = p.at("plastic_overlap_ratio") * c.yield_overlap;
  c.plastic_force = pi * p0 * a_p * a_p;
  c.law[0] = 2.0 * in.effective_modulus * std::sqrt(c.radius * c.yield_overlap);  // F'_y
  c.law[1] = 2.0 * pi * c.radius * p0;                                            // F'_p
  return c;
}
PairCoeffs prepare_burgoyne_daraio(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p);
  PairCoeffs c = elastoplastic_base(in, 1.6 * sy);
  const double p0 = p.at("c1") * sy;
  c.plastic_overlap = p.at("plastic_overlap_ratio") * c.yield_overlap;
  c.plastic_force = p0 * pi * (2.0 * c.radius * c.plastic_overlap + p.at("c2"));
  c.law[0] = 2.0 * pi * c.radius * p0;
  if (!(c.plastic_force > 0.0)) {
    std::ostringstream m;
    m << "law 'burgoyne_daraio_2014': c2 = " << p.at("c2") << " m^2 makes the force at delta_p "
      << "negative: it needs c2 > -2 R delta_p = " << -2.0 * c.radius * c.plastic_overlap
      << " m^2 for R = " << c.radius << " m";
    throw std::invalid_argument(m.str());
  }
  return c;
}
PairCoeffs prepare_ma_liu(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p), xi = p.at("xi"), psi = p.at("psi");
  const double p_y = 1.61 * sy;
  PairCoeffs c = elastoplastic_base(in, p_y);
  const double l = std::log(xi * xi / 2.0), r = c.radius;
  c.law[0] = pi * r * (p_y * (1.0 + l) - 2.0 * psi * sy) / l;  // c1
  c.law[1] = pi * r * (2.0 * psi * sy - p_y) / l;              // c2
  c.law[2] = 2.0 * pi * r * psi * sy;                          // k1
  c.plastic_overlap = xi * xi / 2.0 * c.yield_overlap;
  c.plastic_force =
      c.plastic_overlap * (c.law[0] + c.law[1] * l) + c.yield_force - c.law[0] * c.yield_overlap;
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

// Laws of group (f) differ by their kernel, parameters and geometry; all damp with the
// Lankarani-Nikravesh factor of 000 §6 (no damping at the default restitution 1).
constexpr std::string_view line_damping =
    "alpha = 3 (1 - c_r^2)/4 on F_elastic (1 + alpha v/v0) (Lankarani-Nikravesh factor of 000 "
    "§6); the default c_r = 1 is undamped";
double line_alpha(double c) {
  return 0.75 * (1.0 - c * c);
}
constexpr LawEntry line_law(std::string_view id, std::string_view title, std::string_view cite,
                            std::string_view formula, std::string_view notes, Kernel kernel,
                            std::span<const ParamSpec> params,
                            PairCoeffs (*prepare)(const LawEntry&, const PairInput&,
                                                  const LawParams&)) {
  return {id,
          title,
          cite,
          formula,
          line_damping,
          notes,
          Family::cylindrical,
          kernel,
          TensionPolicy::clamp,
          params,
          line_alpha,
          prepare};
}

constexpr std::string_view elastoplastic_damping =
    "none: energy is lost in the loading/unloading hysteresis, so the restitution falls with the "
    "impact velocity and is not an input";

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

    // (e) Quasi-static elastoplastic laws (004 Table 3); K = (4/3) E* sqrt(R), R = R*.
    LawEntry{"thornton_1997", "Thornton (1997), elastic-perfectly plastic spheres",
             "004 Table 3 row 1 (ref. 135); predictor thornton_1997_cor",
             "F = K delta^(3/2) (delta < delta_y); F = F_y + pi p_y R (delta - delta_y); unloading "
             "F = (4/3) E* sqrt(R_p) (delta - delta_p)^(3/2), R_p = (4E*/(3F_max)) ((2F_max + "
             "F_y)/(2 pi p_y))^(3/2)",
             elastoplastic_damping,
             "reading: p_y = limiting_pressure_ratio sigma_y (the row prints sigma_y for "
             "Thornton's limiting pressure; uncertain); delta_y = (pi p_y/(2E*))^2 R and F_y = "
             "pi^3 p_y^3 "
             "R^2/(6E*^2) (yield onset, not printed): loading continuous in value and slope; R_p "
             "= R at F_max = F_y; permanent overlap delta_p from continuity at (delta_max, F_max) "
             "(not printed)",
             Family::elastoplastic, Kernel::thornton_1997, TensionPolicy::clamp, thornton_params,
             nullptr, prepare_thornton},
    LawEntry{"stronge_2000", "Stronge (2000)", "004 Table 3 row 2 (ref. 63)",
             "x = 2 delta/delta_y - 1: F = K delta^(3/2) (delta < delta_y); F = F_y x [1 + "
             "ln(x)/(3 theta_y)] (delta_y <= delta < delta_p); F = (2.8 F_y/theta_y) x (delta >= "
             "delta_p); unloading F = (4/3) E* sqrt(R_bar) (delta - delta_f)^(3/2), R_bar = (2 "
             "delta_c/delta_y - 1)^(1/2) R",
             elastoplastic_damping,
             "F_y = pi theta_y sigma_y R^2 (3 pi/4)^2 (theta_y sigma_y/E*)^2 as printed; reading: "
             "this is exactly the Hertz load at the mean pressure theta_y sigma_y (peak 1.5 "
             "theta_y sigma_y; the factor 3.375 contact-laws.md notes is (3/2)^3), so delta_y = "
             "(F_y/K)^(2/3) by value continuity and the fully plastic branch has the mean "
             "pressure 2.8 sigma_y; delta_p = delta_y (1 + e^(3 (2.8 - theta_y)))/2 (value "
             "continuity); the slope jumps up at delta_y (2 (1 + 1/(3 theta_y)) F_y/delta_y vs "
             "1.5 F_y/delta_y), so the loading curve rises above every Hertzian unloading branch "
             "through the origin and impacts that end just past delta_y return more energy than "
             "they absorb (a property of the law: restitution up to 1.08 for delta_max < 3.1 "
             "delta_y at theta_y = 1.1); "
             "misprint: delta_f, not delta_r, is the residual overlap, delta_r = delta_c - "
             "delta_f = (3F_c/(4E* sqrt(R_bar)))^(2/3)",
             Family::elastoplastic, Kernel::stronge_2000, TensionPolicy::clamp, stronge_params,
             nullptr, prepare_stronge},
    LawEntry{"vu_quoc_zhang_2002", "Vu-Quoc & Zhang (2002), force-driven elastoplastic model",
             "004 Table 3 row 3 (refs. 147-148)",
             "delta(F) = (a^ep)^2/R^ep, a^ep = a^e + C_a (F - F_y), a^e = (3RF/(4E*))^(1/3), R^ep "
             "= (1 + K_c (F - F_y)) R for F > F_y, Hertz below; unloading F = (4E*/(3R)) a_e^3, "
             "a_e = ((C_R)_max R (delta - delta_r))^(1/2)",
             elastoplastic_damping,
             "force-driven: F(delta) by a bracketed toms748 root solve per evaluation, warm "
             "started from F_max; reading: the row's E is Young's modulus of identical spheres "
             "(E/(1 - nu^2) = 2E*), R = R* and its delta the approach of one centre (half the "
             "overlap), so the elastic branch is exactly Hertz (with E*, R* and the overlap as "
             "printed it would be sqrt(2)/(1 - nu^2) times Hertz); F_y = K delta_y^(3/2) with p_y "
             "= yield_pressure_ratio sigma_y (not printed); unloading as printed, R (not R^ep) in "
             "the prefactor: K (C_R)_max^(3/2) (delta - delta_r)^(3/2); the missing square root "
             "in a_e restored; delta_r from continuity; K_c, C_a for which delta(F) is not "
             "increasing are rejected",
             Family::elastoplastic, Kernel::vu_quoc_zhang_2002, TensionPolicy::clamp,
             vu_quoc_zhang_params, nullptr, prepare_vu_quoc_zhang},
    LawEntry{"kogut_etsion_2002", "Kogut & Etsion (2002), sphere on a rigid flat",
             "004 Table 3 row 4 (ref. 139; unloading ref. 142)",
             "omega = delta/delta_y: F = K delta^(3/2) (omega < 1); F = 1.03 F_c omega^1.425 (1 "
             "<= omega < 6); F = 1.40 F_c omega^1.263 (omega >= 6); unloading F = F_max ((omega - "
             "omega_res)/(omega_max - omega_res))^n_p, n_p = 1.5 omega_max^(-0.0331)",
             elastoplastic_damping,
             "reading (not printed): critical pressure K H with K = 0.454 + 0.41 nu and H = "
             "hardness_ratio Y, delta_y = (pi K H/(2E*))^2 R, F_c = K_H delta_y^(3/2); the loading "
             "curve jumps as published (+3.0 % at omega = 1, +1.7 % at omega = 6; an impact "
             "ending just past omega = 1 returns slightly more energy than it absorbed, "
             "restitution up to 1.002); fitted up to "
             "omega = 110, continued above; omega_res is not in the sources (from the unloading "
             "paper, ref. 142): residual_fraction, or by default the finite-element fit 1.02 [1 - "
             "((omega_max + 5.9)/6.9)^(-0.54)] (uncertain; continued above omega = 110, capped at "
             "0.99); written for a sphere on a rigid flat, "
             "used with E* and R* for two bodies",
             Family::elastoplastic, Kernel::kogut_etsion_2002, TensionPolicy::clamp,
             kogut_etsion_params, nullptr, prepare_kogut_etsion},
    LawEntry{
        "jackson_green_2005", "Jackson & Green (2005), hemisphere against a rigid flat",
        "004 Table 3 row 5 (ref. 138; unloading ref. 162); predictor jackson_2010_cor",
        "omega = delta/delta_y: F = K delta^(3/2) (omega <= 1.9); F = F_c {exp(-omega^(5/12)/4) "
        "omega^(3/2) + (4H/(C S_y)) [1 - exp(-omega^(5/9)/25)] omega}; unloading F = (4/3) E* "
        "sqrt(R_b) (delta - delta_r)^(3/2), R_b = R cos(a_c/R)",
        elastoplastic_damping,
        "C = 1.295 exp(0.736 nu); reading (not printed): delta_y = (pi C S_y/(2E*))^2 R, F_c "
        "= K delta_y^(3/2); branch mismatch 0.07 % at omega = 1.9 (H/S_y = 2.8, nu = 0.3); "
        "elastic, no residual overlap, up to delta_max = 1.9 delta_y; readings: sqrt(R_b) "
        "for the printed sqrt(R), a_c = (R delta_max)^(1/2), the Hertz contact radius at "
        "delta_max (not printed; uncertain), delta_r from continuity; H constant (geometry "
        "dependent in the original)",
        Family::elastoplastic, Kernel::jackson_green_2005, TensionPolicy::clamp,
        jackson_green_params, nullptr, prepare_jackson_green},
    LawEntry{"du_wang_2009", "Du & Wang (2009), elastoplastic impact of two spheres",
             "004 Table 3 row 6 (ref. 143)",
             "F = K delta^(3/2) (delta <= delta_e); F = pi R p_p delta - p_p^3 pi^3 R^2/(12 E*^2) "
             "(delta > delta_e), p_p = (1 + pi/2) sigma_y; unloading F = K (delta - "
             "delta_res)^(3/2)",
             elastoplastic_damping,
             "misprint: the second condition is delta > delta_e (printed <=); delta_e = (pi "
             "p_p/(2E*))^2 R makes value and slope continuous (not printed); delta_res = "
             "delta_max - (F_max/K)^(2/3) (unloading radius unchanged)",
             Family::elastoplastic, Kernel::du_wang_2009, TensionPolicy::clamp, du_wang_params,
             nullptr, prepare_du_wang},
    LawEntry{"brake_2012", "Brake (2012), analytical elastic-perfectly plastic model",
             "004 Table 3 row 7 (ref. 146)",
             "F = K delta^(3/2) (delta < delta_y); cubic Hermite between (delta_y, F_y, F'_y) and "
             "(delta_p, F_p, F'_p); F = pi p0 (2R delta + c) (delta >= delta_p); unloading F = "
             "(4/3) E* sqrt(R_b) (delta - delta_bar)^(3/2), R_b = R + delta_m/2",
             elastoplastic_damping,
             "misprints read as: Delta F'_y s in the cubic, F_p = pi p0 a_p^2 (printed pi p0 a_p), "
             "fully plastic pi p0 (2R delta + c) (printed 4R delta), exponent 2/3 in delta_bar; "
             "a_p = 3 pi R p0/(4E*), c = a_p^2 - 2R delta_p, F'_y = 2E* sqrt(R delta_y), F'_p = 2 "
             "pi R p0: value and slope continuous at both ends; delta_y, delta_p not in the "
             "sources: delta_y from the yield-onset relation with p_y = yield_pressure_ratio "
             "sigma_y, delta_p = plastic_overlap_ratio delta_y; p0 = pressure_hardness_ratio H, H "
             "= hardness_ratio sigma_y; F_p is the Hertz force at (9/4)(p0/p_y)^2 delta_y: for a "
             "smaller delta_p the loading curve rises above Hertz, for a larger one the cubic "
             "sags (not monotone once delta_p - delta_y > 3 (F_p - F_y)/F'_p) and the steeper "
             "fully plastic branch approaches Hertz again, so the restitution is not monotone in "
             "v0 and can exceed 1 (e.g. near 20 V_y at delta_p = 10 delta_y with the default "
             "pressures; delta_p of the original paper needed)",
             Family::elastoplastic, Kernel::brake_2012, TensionPolicy::clamp, brake_params, nullptr,
             prepare_brake},
    LawEntry{"burgoyne_daraio_2014", "Burgoyne & Daraio (2014), elastoplastic spheres",
             "004 Table 3 row 8 (ref. 144)",
             "F = K delta^(3/2) (delta < delta_y); F = delta (alpha + beta ln delta) (delta_y <= "
             "delta < delta_p); F = p0 pi (2R delta + c2) (delta >= delta_p); unloading F = "
             "(4/3) E* sqrt(R_p) (delta - delta_r)^(3/2), R_p = (4E*/(3F_max)) ((2F_max + "
             "F_y)/(2 pi p_y))^(3/2)",
             elastoplastic_damping,
             "p_y = 1.6 sigma_y: delta_y = (1.6 pi sigma_y/(2E*))^2 R, F_y = (R/E*)^2 (1.6 pi "
             "sigma_y)^3/6; p0 = c1 sigma_y; alpha, beta as printed put the middle branch through "
             "(delta_y, F_y) and (delta_p, F_p) (value continuity only; F does not depend on the "
             "length unit); misprint: exponent 3/2 restored in R_p; delta_p = "
             "plastic_overlap_ratio delta_y; the original's strain-rate dependence is not in the "
             "row; with k = F/delta, the slope at delta_y exceeds the Hertz slope when k_p/k_y > 1 "
             "+ ln(delta_p/delta_y)/2, and impacts ending just past delta_y then gain energy",
             Family::elastoplastic, Kernel::burgoyne_daraio_2014, TensionPolicy::clamp,
             burgoyne_daraio_params, nullptr, prepare_burgoyne_daraio},
    LawEntry{"ma_liu_2015", "Ma & Liu (2015), elastoplastic spheres",
             "004 Table 3 row 9 (ref. 113); predictor ma_liu_2015_cor",
             "F = K delta^(3/2) (delta < delta_y); F = delta (c1 + c2 ln(delta/delta_y)) + c3 "
             "(delta_y <= delta < delta_p); F = F_p + k1 (delta - delta_p); unloading F = (4/3) "
             "E* sqrt(R_u) (delta - delta_r)^(3/2), R_u = R^e = F^e R/F_max (delta_max < delta_p) "
             "or R_p^e = F_p^e R/F_ep (fully plastic)",
             elastoplastic_damping,
             "p_y = 1.61 sigma_y, delta_y = (pi p_y/(2E*))^2 R, F_y = pi^3 R^2 p_y^3/(6E*^2); k1 = "
             "2 pi R psi sigma_y; c1, c2, c3 as printed; readings: delta_c = delta_y and delta_p "
             "= (xi^2/2) delta_y (implied by F_p): value and slope continuous (pi R p_y at "
             "delta_y, k1 at delta_p); the unloading branch is chosen by delta_max (printed in "
             "terms of delta); reading (differs from contact-laws.md, which reads F^e = K "
             "delta_y^(3/2) = F_y and leaves F_ep undefined): F^e = K delta_max^(3/2), the Hertz "
             "force at delta_max, and F_ep = F_p, so R_u = R (Hertz force)/(loading force): R at "
             "delta_y, continuous at delta_p, constant in the fully plastic regime (as the "
             "explicit v0^(-1/6) of ma_liu_2015_cor needs); with F^e = F_y, R^e < R and "
             "continuity would need a negative residual overlap (energy gain) after every "
             "elastoplastic impact; delta_r from continuity",
             Family::elastoplastic, Kernel::ma_liu_2015, TensionPolicy::clamp, ma_liu_params,
             nullptr, prepare_ma_liu},

    // (f) Cylindrical line-contact laws: two parallel cylinders of length L, external (dR = R_i
    // + R_j) or internal (dR = clearance); elastic force times the LN hysteresis factor.
    line_law("hertz_cylindrical", "Hertz line contact (formula credited to C.-S. Liu et al. 2007)",
             "000 Eq. 33", "delta = (2W/(pi E*)) (ln(pi E* dR/W) - 1), W = F/L",
             "peak W* = pi E* dR/e^2, delta* = 2 dR/e^2 = 0.2707 dR; validity (000): large "
             "clearance, small force",
             Kernel::line_contact_implicit, line_params, prepare_hertz_cylindrical),
    line_law("johnson_cylindrical", "Johnson, Contact Mechanics",
             "000 Eq. 36; 002 Table 1; 003 Eq. 1",
             "delta = (W/(pi E*)) (ln(4 pi E* dR/W) - 1), W = F/L",
             "delta is the total approach far from the contact (003); peak W* = 4 pi E* dR/e^2, "
             "delta* = 4 dR/e^2 = 0.5413 dR (003 Eq. 8: 1743 N/mm at dR = 5 um, E* = 205 GPa); "
             "000: 'the best values in most engineering applications'",
             Kernel::line_contact_implicit, line_params, prepare_johnson_cylindrical),
    line_law("radzimovsky", "Radzimovsky (1953), via Roark's formulas",
             "000 Eqs. 37-41; 002 Table 1 and §4",
             "delta = (W/(pi E*)) (2/3 + ln(c dR E*/W)), W = F/L",
             "the dR form of 000 Eq. 41; misprint: 000 and 002 print c = 8/b0^2 = 3.125, "
             "substituting Eqs. 38 and 40 into Eq. 37 gives 16/b0^2 = 6.25 (b0 = 1.60), which "
             "reproduces 002's fits (default; log_constant); peak W* = c dR E* e^(-1/3), delta* "
             "= c dR e^(-1/3)/pi = 1.4255 dR",
             Kernel::line_contact_implicit, radzimovsky_params, prepare_radzimovsky),
    line_law("goldsmith_cylindrical", "Goldsmith (1960), internal contact",
             "000 Eq. 42 and Table 4; 002 Table 1",
             "delta = F (h_i + h_j)/L [ln(L/(F R (h_i + h_j))) + 1] (m = 1)",
             "readings (uncertain): R the relative curvature 1/R_eq = dR/(R_i R_j) (the only "
             "reading in which m = 1 makes the log dimensionless), h_i + h_j = 1/E* (000's h, no "
             "factor pi); i.e. delta = (W/E*)(ln(E* R_eq/W) + 1); 002's Goldsmith fits are not "
             "reproducible (validation-targets.md §5.2); external contact allowed 'with extra "
             "caution' (000); peak F* = L R_eq E*, delta* = R_eq",
             Kernel::line_contact_implicit, line_params, prepare_goldsmith_cylindrical),
    line_law("dubowsky_freudenstein_cylindrical", "Dubowsky & Freudenstein (1971), pin in bore",
             "000 Eq. 43; 002 Table 1 and §3.1",
             "delta = F (h_i + h_j)/L [ln(L^3 (R_i - R_j)/(F R_i R_j (h_i + h_j))) + 1]",
             "internal contact only (clearance required); h_i + h_j = 1/E* (000's form; 002's "
             "variant equals it only if 000's h is pi times 002's, uncertain); i.e. delta = "
             "(W/E*)(ln(L^2 E*/(W R_eq)) + 1); peak delta* = L^2 dR/(R_i R_j)",
             Kernel::line_contact_implicit, internal_line_params, prepare_dubowsky_freudenstein),
    line_law("esdu_78035", "ESDU-78035 Tribology Series (1978), journal bearings",
             "000 Eq. 44; 002 Table 1",
             "delta = F (h_i + h_j)/L [ln(4 L (R_i - R_j)/(F (h_i + h_j))) + 1]",
             "h_i + h_j = 1/E* (000's form; uncertain: with the pi convention it is Johnson with "
             "+1); i.e. delta = (W/E*)(ln(4 E* dR/W) + 1); 002's ESDU fits are not reproducible; "
             "peak F* = 4 L dR E*, delta* = 4 dR",
             Kernel::line_contact_implicit, line_params, prepare_esdu_78035),
    line_law("liu_cylindrical", "C.-S. Liu et al. (2007), Winkler-foundation model from FEM",
             "000 Eq. 45; 003 Eq. 7; 001 Eqs. 9-10",
             "F = L (1/2) pi delta E* [delta/(2 (dR + delta))]^(1/2)",
             "misprint: 003 prints the exponent 3/2; 1/2 (000) is the reading under which 003's "
             "own comparisons with Persson hold; explicit, no root solve; FEM range: clearances "
             "0.1-5 mm, overlaps 0.02-0.2 mm; softer than Johnson and Pereira (003)",
             Kernel::liu_line_contact, line_params, prepare_liu_cylindrical),
    line_law("lankarani_nikravesh_cylindrical",
             "Lankarani & Nikravesh (1990) Hertz form for cylinders",
             "000 Eq. 46; 002 Table 1 and Table 11", "F = (4/3) E* R_eq^(1/2) delta^n",
             "total force, no length (002 Table 11's K scale as R_eq^(1/2), within 1.3 % of "
             "(4/(3 pi)) E* R_eq^(1/2) in N/mm units: the origin of that factor is uncertain); n "
             "= 1.5 as for spheres (002), 1 to 1.5 for cylinders (000); R = R_eq (000 Eq. 40, "
             "presumed)",
             Kernel::power_hysteresis, ln_cylindrical_params, prepare_ln_cylindrical),
    line_law("pereira_2011", "Pereira, Ramalho, Ambrosio enhanced model, internal (first set)",
             "003 Eqs. 4-5; 002 Table 1",
             "F = ((a dR + b) L E*/dR) delta^n, a = 0.49, b = 0.10, n = Y dR^(-0.005); Y = 1.56 "
             "[ln(1000 dR)]^(-0.192) (dR < 0.75 mm), 0.0028 dR + 1.083 (dR >= 0.75 mm)",
             "empirical in mm and N/mm^2 (evaluated so and converted); misprints: exponent "
             "-0.192 (003 prints +0.192, continuous only with the minus), 1.083 (002 prints "
             "1.1083); fitted for dR in [0.005, 10) mm, outside is an error; 003 Eq. 5's damping "
             "is the LN factor (restitution)",
             Kernel::power_hysteresis, pereira_internal_params, prepare_pereira_2011),
    line_law("pereira_2015_internal", "Pereira enhanced model, internal contact (second set)",
             "000 Eqs. 47-48 and Table 3; 002 Table 1",
             "F = ((a dR + b) L E*/dR) delta^n (1 + (3/4)(1 - c_r^2) v/v0), a = 0.965, b = "
             "0.0965, n = Y dR^(-0.005); Y = 1.51 [ln(1000 dR)]^(-0.151) (dR <= 0.34954 mm), "
             "0.0151 dR + 1.151 (above)",
             "empirical in mm and N/mm^2; misprint: read 1.51 [ln(1000 dR)]^(-0.151) (continuous "
             "at 0.34954 mm); fitted for dR in [0.005, 10] mm, outside is an error",
             Kernel::power_hysteresis, pereira_internal_params, prepare_pereira_2015_internal),
    line_law("pereira_2015_external", "Pereira enhanced model, external contact",
             "000 Table 3; 002 Table 1",
             "F = ((a dR + b) L E*/dR) delta^n, a = 0.39, b = 0.85, n = 1.094, dR = R_i + R_j",
             "empirical in mm and N/mm^2; the set's clearance range (0.005-10 mm) is not stated "
             "for external contact: applicability to touching cylinders of a chain (dR = 2R) is "
             "uncertain",
             Kernel::power_hysteresis, pereira_external_params, prepare_pereira_2015_external),
    line_law("persson", "Persson model (via Ciavarella-Decuzzi, as presented by C.-S. Liu et al.)",
             "003 Eqs. 6 and 9; 000 Table 4 (misprinted)",
             "F = L E* dR pi (b^2 + 1) b^2/(2 - [log10(b^2 + 1) + 2 b^4]), b = tan(eps/2), eps = "
             "arccos(dR/(dR + delta))",
             "b^2 = delta/(2 dR + delta) exactly (no trigonometry); small delta: F -> L pi E* "
             "delta/4, independent of dR; valid for b < 0.9623 (eps < 87.8°, 003 Eq. 9, log10); "
             "past delta = 16 dR (eps = 86.6°, where 003 reports the inconsistency) the force "
             "continues along its tangent; misprint: 000 Table 4's denominator 2(dR + delta); "
             "meant for small clearance and large contact angle",
             Kernel::persson_line_contact, line_params, prepare_persson),
    LawEntry{"cylindrical_power_fit", "Power-law surrogate of an implicit cylindrical law",
             "002 §2 and Tables 2-9, 11", "F = K delta^n + 1.5 alpha_HC K delta^n v",
             "alpha_HC given (002's simulation: 0.32 s/m); none by default",
             "K, n given (e.g. 002's tables converted to N/m^n, times L for the per-length fits), "
             "or fitted per pair to johnson_cylindrical as 002 does: log-log least squares over "
             "600 loads per unit length uniformly spaced in [fit_load_min, fit_load_max] "
             "(reproduces 002 Table 4); 002 reports it two orders of magnitude faster than "
             "iterating",
             Family::cylindrical, Kernel::viscous_power, TensionPolicy::clamp, power_fit_params,
             nullptr, prepare_cylindrical_power_fit},
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

namespace kernels::ep {

// F(delta) on Vu-Quoc & Zhang's elastoplastic branch: the root of delta(F) = d, bracketed between
// max(F_y, lower_bound) (the force at a smaller overlap: F_max at delta_max when loading) and a
// value grown until delta(F) >= d. delta(F) is increasing (checked in prepare_vu_quoc_zhang).
double vu_quoc_zhang_force(const PairCoeffs& c, double d, double lower_bound) {
  auto g = [&](double f) { return VuQuocZhang::overlap(c, f) - d; };
  const double lo = std::max(c.yield_force, lower_bound);
  const double g_lo = g(lo);
  if (g_lo >= 0.0) return lo;
  // delta grows at least like F^(2/3) near the elastic branch: start there.
  double hi = lo * std::max(1.5, std::pow(d / (g_lo + d), 1.5));
  double g_hi = g(hi);
  while (g_hi < 0.0) {
    hi *= 2.0;
    g_hi = g(hi);
  }
  if (g_hi == 0.0) return hi;
  boost::math::tools::eps_tolerance<double> tol(50);
  std::uintmax_t iterations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(g, lo, hi, g_lo, g_hi, tol, iterations);
  return 0.5 * (a + b);
}

}  // namespace kernels::ep

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
    case Family::elastoplastic:
      return "elastoplastic";
    case Family::cylindrical:
      return "cylindrical line contact";
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
  // The kernels whose history is v0 are exactly those with v0 in the damping term.
  return with_kernel(kernel,
                     [](auto k) { return kernels::reads_only_impact_velocity<decltype(k)>; });
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

std::string laws_markdown() {
  std::ostringstream md;
  md << "# Contact laws\n\n"
        "<!-- Generated by `chaindem models --markdown`; a test checks this file against the "
        "registry. -->\n\n"
        "Every normal contact law chaindem implements, from its registry (src/laws/laws.cpp). "
        "Each entry gives its source papers, formula and the reading chaindem takes where a "
        "source is ambiguous or misprinted; "
        "conventions: overlap delta > 0 in contact, approach rate v > 0 while compressing, "
        "v0 the impact velocity (the approach rate at first touch for an impact from apart; "
        "docs/engine.md, \"Impact velocity\", for contacts in a chain), F > 0 repulsive. "
        "Parameters go in the case's "
        "`[contact]` section.\n";
  Family family = Family::elastic;
  bool first = true;
  for (const auto& law : laws) {
    if (first || law.family != family) {
      family = law.family;
      first = false;
      md << "\n## " << to_string(family) << "\n";
      if (family == Family::elastoplastic)
        md << "\nQuasi-static elastoplastic laws of 004 Table 3 (contact-laws.md group (e)). No "
              "damping term: energy is lost between the loading curve and the unloading branch "
              "frozen at the turning point (delta_max, F_max). State machine: loading while "
              "delta >= delta_max; unloading and reloading on the frozen branch, F = 0 at and "
              "below the residual overlap delta_res; loading again past delta_max; unloading "
              "from the elastic branch is elastic (delta_res = 0). Where continuity would give "
              "delta_res < 0, delta_res = 0 and the branch is scaled through (delta_max, F_max); "
              "a later plastic loading never reduces delta_res (the branch is scaled likewise). "
              "The pair keeps its plastic history across separations: a later contact starts on "
              "the flattened surfaces (no force up to delta_res). Every law needs a yield stress: "
              "the materials' yield_stress or the law parameter yield_stress.\n";
      if (family == Family::cylindrical)
        md << "\nLine contacts of two parallel cylinders of axial length L (contact-laws.md "
              "group (f)): W = F/L is the load per unit length, E* = 1/(h_i + h_j) with h = (1 - "
              "nu^2)/E, dR = R_i + R_j for an external contact (neighbouring cylinders of a "
              "chain) or the radial clearance of an internal one (law parameter clearance: pin "
              "in a bore), R_eq = R_i R_j/dR. L is chain.cylinder_length (the bodies are "
              "cylinders, mass rho pi R^2 L) or the law parameter length. The implicit laws "
              "delta = a F (ln(b/F) + k) are inverted in closed form with the Lambert function "
              "W_-1 (no iteration, exact to rounding); past their peak delta* (where delta(F) "
              "turns back and no force exists) the force continues along the secant F = "
              "delta/a through the peak, which is continuous and conserves energy. A wall "
              "contact is half of the symmetric contact of the body with its mirror image "
              "(radii R and R, modulus E*/2, twice the overlap): exact for a rigid frictionless "
              "wall (E* of the pair with the wall: 1/(h_body + h_wall), h_wall = 0 for a rigid "
              "one; an elastic wall's compliance is then counted twice, an approximation), where "
              "the laws' own flat limit dR -> infinity diverges. Every law but the "
              "power fit damps with the Lankarani-Nikravesh factor of 000 §6 (restitution, "
              "default 1: undamped).\n";
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
