// Line-contact family: parallel cylinders, elastic laws times the hysteresis factor.
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "chaindem/text.hpp"
#include "common.hpp"

namespace chaindem {
namespace {

// Group (f): line contacts of parallel cylinders.
constexpr ParamSpec length_param{
    .key = "length",
    .unit = "m",
    .description =
        "axial contact length L of the cylinders; overrides chain.cylinder_length for every pair",
    .range = ValueRange::above(0.0),
    .default_text = "chain.cylinder_length (the bodies are cylinders); collide: required"};

constexpr ParamSpec clearance_param{
    .key = "clearance",
    .unit = "m",
    .description =
        "radial clearance dR = R_hole - R_pin of an internal contact (pin in a bore, journal in a "
        "bearing), for every pair; R_pin is the smaller body's radius",
    .range = ValueRange::above(0.0),
    .default_text =
        "external contact of convex cylinders, dR = R_i + R_j (a wall: the body's mirror image)"};

// Read through clearance_param (line_geometry): the same key, without the external default.
constexpr ParamSpec clearance_required{
    .key = clearance_param.key,
    .unit = "m",
    .description =
        "radial clearance dR = R_hole - R_pin of the internal contact (pin in a bore), for every "
        "pair; R_pin is the smaller body's radius",
    .range = ValueRange::above(0.0)};

// The key factor() reads.
constexpr ParamSpec line_restitution_param{
    .key = restitution_closed.key,
    .unit = "-",
    .description =
        "c_r of the Lankarani-Nikravesh hysteresis factor 1 + (3/4)(1 - c_r^2) v/v0 applied to the "
        "elastic force (Skrinjar et al. 2018, §6, example 0.7); 1: undamped, as Skrinjar et al.'s "
        "(2018) experiment B",
    .range = ValueRange::above_to(0.0, 1.0),
    .default_value = 1.0};

constexpr std::array line_params{length_param, clearance_param, line_restitution_param,
                                 impact_velocity_floor_param};

constexpr std::array internal_line_params{length_param, clearance_required, line_restitution_param,
                                          impact_velocity_floor_param};

constexpr ParamSpec log_constant{
    .key = "log_constant",
    .unit = "-",
    .description =
        "c of ln(c dR E*/W): 16/b0^2 with b0 = 1.60 (Skrinjar et al. 2018, Eq. 38) is 6.25, which "
        "substitutes Skrinjar et al. (2018), Eqs. "
        "38 and 40 into Eq. 37 and reproduces Autiero et al.'s (2022) fits; the printed 8/b0^2 "
        "gives "
        "3.125, or 1.7307 "
        "with Skrinjar et al.'s (2018) b0 = 2.15 for similar materials (Eq. 39; 16/2.15^2 = "
        "3.4613)",
    .range = ValueRange::above(0.0),
    .default_value = 6.25};
constexpr std::array radzimovsky_params{length_param, clearance_param, line_restitution_param,
                                        impact_velocity_floor_param, log_constant};

constexpr ParamSpec ln_cylindrical_exponent{.key = "exponent",
                                            .unit = "-",
                                            .description =
                                                "n: 1.5 as for spheres (Autiero et al. 2022, Table "
                                                "11); Skrinjar et al. (2018): between 1 and "
                                                "1.5 for cylinders",
                                            .range = ValueRange::closed(1.0, 1.5),
                                            .default_value = 1.5};
constexpr std::array ln_cylindrical_params{clearance_param, line_restitution_param,
                                           impact_velocity_floor_param, ln_cylindrical_exponent};

constexpr std::array pereira_internal_params{clearance_required, length_param,
                                             line_restitution_param, impact_velocity_floor_param};

constexpr std::array pereira_external_params{length_param, line_restitution_param,
                                             impact_velocity_floor_param};

constexpr ParamSpec power_fit_stiffness{
    .key = "stiffness",
    .unit = "N/m^n",
    .description = "K of F = K delta^n (total force), for every contact",
    .range = ValueRange::above(0.0),
    .default_text =
        "fitted per pair to johnson_cylindrical over "
        "fit_load_min..fit_load_max (Autiero et al. 2022, §2)"};
constexpr ParamSpec power_fit_exponent{.key = "exponent",
                                       .unit = "-",
                                       .description = "n of F = K delta^n (give it with stiffness)",
                                       .range = ValueRange::above(0.0),
                                       .default_text = "fitted with stiffness"};
constexpr ParamSpec fit_load_min{
    .key = "fit_load_min",
    .unit = "N/m",
    .description = "smallest load per unit length W of the fit (Autiero et al. 2022: 1 N/mm)",
    .range = ValueRange::above(0.0),
    .default_value = 1e3};
constexpr ParamSpec fit_load_max{
    .key = "fit_load_max",
    .unit = "N/m",
    .description = "largest load per unit length W of the fit (Autiero et al. 2022: 3000 N/mm)",
    .range = ValueRange::above(0.0),
    .default_value = 3e6};
constexpr ParamSpec hunt_crossley_alpha{
    .key = "hunt_crossley_alpha",
    .unit = "s/m",
    .description =
        "alpha_HC of Autiero et al.'s (2022) damping 1.5 alpha_HC "
        "K delta^n v (Autiero et al. 2022: 0.32 s/m); 0: undamped",
    .range = ValueRange::at_least(0.0),
    .default_value = 0.0};
constexpr std::array power_fit_params{length_param,       clearance_param, power_fit_stiffness,
                                      power_fit_exponent, fit_load_min,    fit_load_max,
                                      hunt_crossley_alpha};

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
  const double length = find_value(p, length_param).value_or(in.contact_length);
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
  if (const auto clearance = find_value(p, clearance_param)) {
    if (wall)
      throw std::invalid_argument("law '" + id +
                                  "': clearance (an internal contact) cannot apply to a wall "
                                  "contact; remove the walls or the clearance");
    const double pin = std::min(ri, rj);
    g.clearance = *clearance;
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
  using K = kernels::ImplicitLineElastic;
  c.law[K::compliance] = a;
  c.law[K::inverse_reach] = std::exp(-k) / (a * b);
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
                       value_of(p, log_constant) * g.clearance * g.modulus, 2.0 / 3.0);
}

// h_i + h_j = 1/E* (Skrinjar et al.'s (2018) h_k = (1 - nu_k^2)/E_k, no factor pi); R read as the
// curvature 1/R_eq.
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
  c.law[kernels::LiuLineElastic::load_scale] = q;
  c.law[kernels::LiuLineElastic::clearance] = dr;
  c.damping = factor(law, p);
  return c;
}

PairCoeffs prepare_persson(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p);
  const double scale = g.wall ? 0.5 : 1.0;  // u(2 delta; dR) = u(delta; dR/2), C unchanged
  const double dr = g.clearance * scale;
  PairCoeffs c = base(g.length * g.modulus * g.clearance * pi / (4.0 * dr), 1.0, in);
  using K = kernels::PerssonLineElastic;
  c.law[K::load_scale] = g.length * g.modulus * g.clearance * pi;
  c.law[K::clearance] = dr;
  c.law[K::last_exact] = 16.0 * dr;
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

// (4/3) E* sqrt(R_eq) delta^n: total force, no L (Skrinjar et al. 2018, Eq. 46; Autiero et al.
// 2022, Table 11's K scale so).
PairCoeffs prepare_ln_cylindrical(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const LineGeometry g = line_geometry(law, in, p, false);
  return line_power(law, in, p, g, 4.0 / 3.0 * g.modulus * std::sqrt(g.eq_radius),
                    value_of(p, ln_cylindrical_exponent));
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
                                rounded_text(dr) + " mm is outside");
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

// Autiero et al.'s (2022) surrogate with its damping: K delta^n + 1.5 alpha_HC K delta^n v (kernel
// ViscousPower).
PairCoeffs prepare_cylindrical_power_fit(const LawEntry& law, const PairInput& in,
                                         const LawParams& p) {
  const auto stiffness = find_value(p, power_fit_stiffness),
             exponent = find_value(p, power_fit_exponent);
  if (stiffness.has_value() != exponent.has_value())
    throw std::invalid_argument("law '" + std::string(law.id) +
                                "': give stiffness and exponent together, or neither (then both "
                                "are fitted to johnson_cylindrical)");
  PairCoeffs c;
  if (stiffness) {
    c = base(*stiffness, *exponent, in);
  } else {
    const LineGeometry g = line_geometry(law, in, p);
    const double lo = value_of(p, fit_load_min), hi = value_of(p, fit_load_max);
    if (!(hi > lo))
      throw std::invalid_argument("law '" + std::string(law.id) +
                                  "': fit_load_max must exceed fit_load_min");
    const PairCoeffs johnson =
        line_implicit(law, in, {{std::string(line_restitution_param.key), 1.0}}, g,
                      1.0 / (pi * g.modulus), 4.0 * pi * g.modulus * g.clearance, -1.0);
    // The fit must stay below Johnson's peak load 4 pi E* dR/e^2, where delta(W) turns back.
    const double peak = g.length * 4.0 * pi * g.modulus * g.clearance * std::exp(-2.0);
    if (hi * g.length > peak)
      throw std::invalid_argument("law '" + std::string(law.id) +
                                  "': fit_load_max exceeds johnson_cylindrical's peak "
                                  "load per unit length 4 pi E* dR/e^2 = " +
                                  rounded_text(peak / g.length) + " N/m");
    const PowerFit fit = fit_power_law(johnson, lo * g.length, hi * g.length, 600);
    c = base(fit.stiffness, fit.exponent, in);
  }
  c.damping = 1.5 * value_of(p, hunt_crossley_alpha) * c.stiffness;
  c.damping_exponent = c.exponent;
  return c;
}

// Laws of group (f) differ by their kernel, parameters and geometry; all damp with the
// Lankarani-Nikravesh factor of Skrinjar et al. (2018), §6 (no damping at the default restitution
// 1).
constexpr std::string_view line_damping =
    "alpha = 3 (1 - c_r^2)/4 on F_elastic (1 + alpha v/v0) (Lankarani-Nikravesh factor of Skrinjar "
    "et al. 2018, "
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
          prepare,
          none_stated};
}

constexpr std::array rows{
    // (f) Cylindrical line-contact laws: two parallel cylinders of length L, external (dR = R_i
    // + R_j) or internal (dR = clearance); elastic force times the LN hysteresis factor.
    line_law("hertz_cylindrical", "Hertz line contact (formula credited to C.-S. Liu et al. 2007)",
             "Skrinjar et al. (2018), Eq. 33", "delta = (2W/(pi E*)) (ln(pi E* dR/W) - 1), W = F/L",
             "peak W* = pi E* dR/e^2, delta* = 2 dR/e^2 = 0.2707 dR; validity (Skrinjar et al. "
             "2018): large "
             "clearance, small force",
             Kernel::line_contact_implicit, line_params, prepare_hertz_cylindrical),
    line_law("johnson_cylindrical", "Johnson, Contact Mechanics",
             "Skrinjar et al. (2018), Eq. 36; Autiero et al. (2022), Table 1; Pereira et al. "
             "(2013), Eq. 1",
             "delta = (W/(pi E*)) (ln(4 pi E* dR/W) - 1), W = F/L",
             "delta is the total approach far from the contact (Pereira et al. 2013); peak W* = 4 "
             "pi E* dR/e^2, "
             "delta* = 4 dR/e^2 = 0.5413 dR (Pereira et al. 2013, Eq. 8: 1743 N/mm at dR = 5 um, "
             "E* = 205 GPa); "
             "Skrinjar et al. (2018): 'the best values in most engineering applications'",
             Kernel::line_contact_implicit, line_params, prepare_johnson_cylindrical),
    line_law("radzimovsky", "Radzimovsky (1953), via Roark's formulas",
             "Skrinjar et al. (2018), Eqs. 37-41; Autiero et al. (2022), Table 1 and §4",
             "delta = (W/(pi E*)) (2/3 + ln(c dR E*/W)), W = F/L",
             "the dR form of Skrinjar et al. (2018), Eq. 41; misprint: Skrinjar et al. (2018) and "
             "Autiero et al. (2022) print c = 8/b0^2 = 3.125, "
             "substituting Eqs. 38 and 40 into Eq. 37 gives 16/b0^2 = 6.25 (b0 = 1.60), which "
             "reproduces Autiero et al.'s (2022) fits (default; log_constant); peak W* = c dR E* "
             "e^(-1/3), delta* "
             "= c dR e^(-1/3)/pi = 1.4255 dR",
             Kernel::line_contact_implicit, radzimovsky_params, prepare_radzimovsky),
    line_law("goldsmith_cylindrical", "Goldsmith (1960), internal contact",
             "Skrinjar et al. (2018), Eq. 42 and Table 4; Autiero et al. (2022), Table 1",
             "delta = F (h_i + h_j)/L [ln(L/(F R (h_i + h_j))) + 1] (m = 1)",
             "readings (uncertain): R the relative curvature 1/R_eq = dR/(R_i R_j) (the only "
             "reading in which m = 1 makes the log dimensionless), h_i + h_j = 1/E* (Skrinjar et "
             "al.'s (2018) h, no "
             "factor pi); i.e. delta = (W/E*)(ln(E* R_eq/W) + 1); Autiero et al.'s (2022) "
             "Goldsmith fits are not "
             "reproducible (docs/validation.md#autiero-fits); external contact allowed 'with extra "
             "caution' (Skrinjar et al. 2018); peak F* = L R_eq E*, delta* = R_eq",
             Kernel::line_contact_implicit, line_params, prepare_goldsmith_cylindrical),
    line_law("dubowsky_freudenstein_cylindrical", "Dubowsky & Freudenstein (1971), pin in bore",
             "Skrinjar et al. (2018), Eq. 43; Autiero et al. (2022), Table 1 and §3.1",
             "delta = F (h_i + h_j)/L [ln(L^3 (R_i - R_j)/(F R_i R_j (h_i + h_j))) + 1]",
             "internal contact only (clearance required); h_i + h_j = 1/E* (Skrinjar et al.'s "
             "(2018) form; Autiero et al.'s (2022) "
             "variant equals it only if Skrinjar et al.'s (2018) h is pi times Autiero et al.'s "
             "(2022), uncertain); i.e. delta = "
             "(W/E*)(ln(L^2 E*/(W R_eq)) + 1); peak delta* = L^2 dR/(R_i R_j)",
             Kernel::line_contact_implicit, internal_line_params, prepare_dubowsky_freudenstein),
    line_law("esdu_78035", "ESDU-78035 Tribology Series (1978), journal bearings",
             "Skrinjar et al. (2018), Eq. 44; Autiero et al. (2022), Table 1",
             "delta = F (h_i + h_j)/L [ln(4 L (R_i - R_j)/(F (h_i + h_j))) + 1]",
             "h_i + h_j = 1/E* (Skrinjar et al.'s (2018) form; uncertain: with the pi convention "
             "it is Johnson with "
             "+1); i.e. delta = (W/E*)(ln(4 E* dR/W) + 1); Autiero et al.'s (2022) ESDU fits are "
             "not reproducible; "
             "peak F* = 4 L dR E*, delta* = 4 dR",
             Kernel::line_contact_implicit, line_params, prepare_esdu_78035),
    line_law(
        "liu_cylindrical", "C.-S. Liu et al. (2007), Winkler-foundation model from FEM",
        "Skrinjar et al. (2018), Eq. 45; Pereira et al. (2013), Eq. 7; Banerjee et al. (2017), "
        "Eqs. 9-10",
        "F = L (1/2) pi delta E* [delta/(2 (dR + delta))]^(1/2)",
        "misprint: Pereira et al. (2013) print the exponent 3/2; 1/2 (Skrinjar et al. 2018) is the "
        "reading under which Pereira et al.'s (2013) "
        "own comparisons with Persson hold; explicit, no root solve; FEM range: clearances "
        "0.1-5 mm, overlaps 0.02-0.2 mm; softer than Johnson and Pereira (Pereira et al. 2013)",
        Kernel::liu_line_contact, line_params, prepare_liu_cylindrical),
    line_law("lankarani_nikravesh_cylindrical",
             "Lankarani & Nikravesh (1990) Hertz form for cylinders",
             "Skrinjar et al. (2018), Eq. 46; Autiero et al. (2022), Table 1 and Table 11",
             "F = (4/3) E* R_eq^(1/2) delta^n",
             "total force, no length (Autiero et al. 2022, Table 11's K scale as R_eq^(1/2), "
             "within 1.3 % of "
             "(4/(3 pi)) E* R_eq^(1/2) in N/mm units: the origin of that factor is uncertain); n "
             "= 1.5 as for spheres (Autiero et al. 2022), 1 to 1.5 for cylinders (Skrinjar et al. "
             "2018); R = R_eq (Skrinjar et al. 2018, Eq. 40, "
             "presumed)",
             Kernel::power_hysteresis, ln_cylindrical_params, prepare_ln_cylindrical),
    line_law("pereira_2011", "Pereira, Ramalho, Ambrosio enhanced model, internal (first set)",
             "Pereira et al. (2013), Eqs. 4-5; Autiero et al. (2022), Table 1",
             "F = ((a dR + b) L E*/dR) delta^n, a = 0.49, b = 0.10, n = Y dR^(-0.005); Y = 1.56 "
             "[ln(1000 dR)]^(-0.192) (dR < 0.75 mm), 0.0028 dR + 1.083 (dR >= 0.75 mm)",
             "empirical in mm and N/mm^2 (evaluated so and converted); misprints: exponent "
             "-0.192 (Pereira et al. 2013 print +0.192, continuous only with the minus), 1.083 "
             "(Autiero et al. 2022 print "
             "1.1083); fitted for dR in [0.005, 10) mm, outside is an error; Pereira et al. "
             "(2013), Eq. 5's damping "
             "is the LN factor (restitution)",
             Kernel::power_hysteresis, pereira_internal_params, prepare_pereira_2011),
    line_law("pereira_2015_internal", "Pereira enhanced model, internal contact (second set)",
             "Skrinjar et al. (2018), Eqs. 47-48 and Table 3; Autiero et al. (2022), Table 1",
             "F = ((a dR + b) L E*/dR) delta^n (1 + (3/4)(1 - c_r^2) v/v0), a = 0.965, b = "
             "0.0965, n = Y dR^(-0.005); Y = 1.51 [ln(1000 dR)]^(-0.151) (dR <= 0.34954 mm), "
             "0.0151 dR + 1.151 (above)",
             "empirical in mm and N/mm^2; misprint: read 1.51 [ln(1000 dR)]^(-0.151) (continuous "
             "at 0.34954 mm); fitted for dR in [0.005, 10] mm, outside is an error",
             Kernel::power_hysteresis, pereira_internal_params, prepare_pereira_2015_internal),
    line_law("pereira_2015_external", "Pereira enhanced model, external contact",
             "Skrinjar et al. (2018), Table 3; Autiero et al. (2022), Table 1",
             "F = ((a dR + b) L E*/dR) delta^n, a = 0.39, b = 0.85, n = 1.094, dR = R_i + R_j",
             "empirical in mm and N/mm^2; the set's clearance range (0.005-10 mm) is not stated "
             "for external contact: applicability to touching cylinders of a chain (dR = 2R) is "
             "uncertain",
             Kernel::power_hysteresis, pereira_external_params, prepare_pereira_2015_external),
    line_law("persson", "Persson model (via Ciavarella-Decuzzi, as presented by C.-S. Liu et al.)",
             "Pereira et al. (2013), Eqs. 6 and 9; Skrinjar et al. (2018), Table 4 (misprinted)",
             "F = L E* dR pi (b^2 + 1) b^2/(2 - [log10(b^2 + 1) + 2 b^4]), b = tan(eps/2), eps = "
             "arccos(dR/(dR + delta))",
             "b^2 = delta/(2 dR + delta) exactly (no trigonometry); small delta: F -> L pi E* "
             "delta/4, independent of dR; valid for b < 0.9623 (eps < 87.8°, Pereira et al. 2013, "
             "Eq. 9, log10); "
             "past delta = 16 dR (eps = 86.6°, where Pereira et al. (2013) report the "
             "inconsistency) the force "
             "continues along its tangent; misprint: Skrinjar et al. (2018), Table 4's denominator "
             "2(dR + delta); "
             "meant for small clearance and large contact angle",
             Kernel::persson_line_contact, line_params, prepare_persson),
    LawEntry{"cylindrical_power_fit", "Power-law surrogate of an implicit cylindrical law",
             "Autiero et al. (2022), §2 and Tables 2-9, 11",
             "F = K delta^n + 1.5 alpha_HC K delta^n v",
             "alpha_HC given (Autiero et al.'s (2022) simulation: 0.32 s/m); none by default",
             "K, n given (e.g. Autiero et al.'s (2022) tables converted to N/m^n, times L for the "
             "per-length fits), "
             "or fitted per pair to johnson_cylindrical as Autiero et al. (2022) do: log-log least "
             "squares over "
             "600 loads per unit length uniformly spaced in [fit_load_min, fit_load_max] "
             "(reproduces Autiero et al. (2022), Table 4); Autiero et al. (2022) report it two "
             "orders of magnitude faster than "
             "iterating",
             Family::cylindrical, Kernel::viscous_power, TensionPolicy::clamp, power_fit_params,
             nullptr, prepare_cylindrical_power_fit, none_stated},
};

}  // namespace

std::span<const LawEntry> line_contact_laws() {
  return rows;
}

}  // namespace chaindem
