// Hysteresis family: F_e (1 + alpha v/v0), one row per alpha(c_r).
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

constexpr std::array hysteresis_closed_params{restitution_closed, hertz_stiffness_param,
                                              impact_velocity_floor_param};

constexpr std::array hysteresis_open_params{restitution_open, hertz_stiffness_param,
                                            impact_velocity_floor_param};

// Hu et al.'s alpha is singular at c_r = exp(-3.85238).
constexpr ParamSpec hu_et_al_restitution = only_above(restitution_closed, 0.021226);
constexpr std::array hu_et_al_params{hu_et_al_restitution, hertz_stiffness_param,
                                     impact_velocity_floor_param};

constexpr std::array linear_hysteresis_params{restitution_closed, linear_stiffness_param,
                                              impact_velocity_floor_param};

// Hysteresis family: alpha = factor(c_r).
PairCoeffs prepare_hysteresis(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p);
  c.damping_exponent = 1.5;
  return c;
}

PairCoeffs prepare_linear_hysteresis(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(value_of(p, linear_stiffness_param), 1.0, in);
  c.damping = factor(law, p);
  c.damping_exponent = 1.0;
  return c;
}

// Exact restitution identity of the hysteresis family (docs/validation.md#restitution-identity):
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

// Lankarani and Nikravesh state where their law holds: impacts far slower than the elastic
// waves, and c_r near 1, which chaindem reads as the c_r down to which an isolated impact
// returns c_r within 0.05 (docs/validation.md, "The hysteresis family and its exact identity":
// 0.8471 at c_r = 0.8, 0.7960 at 0.7).
constexpr LawValidity lankarani_nikravesh_validity{
    .strain = hertz_small_strain,
    .impact_speed = {1e-5,
                     "Lankarani and Nikravesh (1990), as Skrinjar et al. (2018), Eq. 19, state it"},
    .yield_pressure = hertz_first_yield,
    .restitution = ValueRange::closed(0.8, 1.0),
    .restitution_source =
        "Lankarani and Nikravesh (1990): c_r near 1, read as the c_r for which an isolated impact "
        "returns c_r within 0.05"};

// Laws sharing the hysteresis kernel differ only by this row: identifier, citation, alpha(c_r),
// and where they hold (Hertz's elastic contact, unless the law states more).
constexpr LawEntry hysteresis(std::string_view id, std::string_view title, std::string_view cite,
                              std::string_view alpha_text, std::string_view notes,
                              double (*alpha)(double), bool singular_at_zero,
                              const LawValidity& validity = hertz_elastic) {
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
          prepare_hysteresis,
          validity};
}

constexpr std::string_view hysteresis_note =
    "e_out from the exact identity (1 + e) alpha = ln((1 + alpha)/(1 - alpha e)) "
    "(docs/validation.md); no tension in an isolated impact";

constexpr std::array rows{
    // (d) Hysteresis: alpha(c_r) per row, one kernel.
    hysteresis(
        "hunt_crossley", "Hunt & Crossley (1975)",
        "Skrinjar et al. (2018), Eqs. 7-9; Banerjee et al. (2017), Eq. 24; Autiero et al. (2022), "
        "§3.2; CJTAM review, Table 1",
        "alpha = 3 (1 - c_r)/2", hysteresis_note, [](double c) { return 1.5 * (1.0 - c); }, false),
    hysteresis(
        "marhefka_orin", "Marhefka & Orin (1999)", "Autiero et al. (2022), §3.9",
        "alpha = 3 (1 - c_r^2) / (2 (1 + c_r^3))",
        "third-order expansion of the exact identity; equals herbert_mcwhannell",
        [](double c) { return 1.5 * (1.0 - c * c) / (1.0 + c * c * c); }, false),
    hysteresis(
        "herbert_mcwhannell", "Herbert & McWhannell (1977)",
        "Skrinjar et al. (2018), Eqs. 10-11; Autiero et al. (2022), §3.3; CJTAM review, Table 1",
        "alpha = 6 (1 - c_r) / ((2 c_r - 1)^2 + 3)", "reproduces Skrinjar et al. (2018), Table 2",
        [](double c) { return 6.0 * (1.0 - c) / ((2.0 * c - 1.0) * (2.0 * c - 1.0) + 3.0); },
        false),
    hysteresis(
        "herbert_mcwhannell_banerjee", "Herbert-McWhannell as printed in Banerjee et al. (2017)",
        "Banerjee et al. (2017), Eq. 25", "alpha = 6 (1 - c_r) / ((c_r - 1)^2 + 3)",
        "reproduces Banerjee et al. (2017), Table 1 (misprinted form)",
        [](double c) { return 6.0 * (1.0 - c) / ((c - 1.0) * (c - 1.0) + 3.0); }, false),
    hysteresis(
        "lee_wang", "Lee & Wang (1983)",
        "Skrinjar et al. (2018), Eqs. 12-13; Banerjee et al. (2017), Eq. 26; Autiero et al. "
        "(2022), §3.4; CJTAM review, Table 1",
        "alpha = 3 (1 - c_r)/4", hysteresis_note, [](double c) { return 0.75 * (1.0 - c); }, false),
    hysteresis(
        "lankarani_nikravesh", "Lankarani & Nikravesh (1990)",
        "Skrinjar et al. (2018), Eqs. 14-18; Banerjee et al. (2017), Eq. 27; Autiero et al. "
        "(2022), §3.6; CJTAM review, Table 1",
        "alpha = 3 (1 - c_r^2)/4", "valid for v0 <= 1e-5 sqrt(E/rho) and c_r near 1",
        [](double c) { return 0.75 * (1.0 - c * c); }, false, lankarani_nikravesh_validity),
    hysteresis(
        "gonthier", "Gonthier, McPhee, Lange, Piedboeuf (2004)",
        "Skrinjar et al. (2018), Eqs. 20-23; Banerjee et al. (2017), Eq. 28; Autiero et al. "
        "(2022), §3.10; CJTAM review, Table 1",
        "alpha = (1 - c_r^2)/c_r", hysteresis_note, [](double c) { return (1.0 - c * c) / c; },
        true),
    hysteresis("gonthier_exact", "Exact restitution factor (Gonthier)",
               "Autiero et al. (2022), §3.10; Banerjee et al. (2017), Eqs. 29, 32, 34",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               "e_out = c_r exactly in an isolated impact; one root solve per c_r",
               gonthier_exact_alpha, true),
    hysteresis("zhang_sharf", "Zhang & Sharf (alias of gonthier_exact)",
               "Banerjee et al. (2017), Eq. 29",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
               "Banerjee et al. (2017) print 2 c_r for (1 + c_r), which has no root",
               gonthier_exact_alpha, true),
    hysteresis(
        "luo_nahon", "Luo & Nahon (alias of gonthier_exact)", "Banerjee et al. (2017), Eq. 32",
        "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))",
        "Banerjee et al.'s (2017) verdict that it fails is not supported: the relation is exact",
        gonthier_exact_alpha, true),
    hysteresis("khatiwada", "Khatiwada, Chouw & Butterworth (alias of gonthier_exact)",
               "Banerjee et al. (2017), Eq. 34",
               "alpha root of (1 + c_r) alpha = ln((1 + alpha)/(1 - alpha c_r))", hysteresis_note,
               gonthier_exact_alpha, true),
    hysteresis(
        "zhiying_qishao", "Qin Zhiying & Lu Qishao (2006)",
        "Skrinjar et al. (2018), Eqs. 24-25; Banerjee et al. (2017), Eq. 30; CJTAM review, Table 1",
        "alpha = 3 (1 - c_r^2) e^(2 (1 - c_r)) / 4",
        "Skrinjar et al. (2018), Table 2 is 0.01-0.02 high",
        [](double c) { return 0.75 * (1.0 - c * c) * std::exp(2.0 * (1.0 - c)); }, false),
    hysteresis(
        "flores", "Flores, Machado, Silva & Martins (2011)",
        "Skrinjar et al. (2018), Eqs. 26-28; Autiero et al. (2022), §3.11; CJTAM review, Table 1",
        "alpha = 8 (1 - c_r)/(5 c_r)",
        "Skrinjar et al. (2018), Eq. 26 prints (1 - c_r); read (1 + c_r) per Autiero et al. (2022)",
        [](double c) { return 1.6 * (1.0 - c) / c; }, true),
    hysteresis(
        "ye_li_zhu", "Ye, Li & Zhu (2009)", "Banerjee et al. (2017), Eq. 31",
        "alpha = 8 (1 - c_r)/(5 c_r)", "identical to flores",
        [](double c) { return 1.6 * (1.0 - c) / c; }, true),
    hysteresis(
        "gharib_hurmuzlu", "Gharib & Hurmuzlu (2012)",
        "Skrinjar et al. (2018), Table 1; Banerjee et al. (2017), Eq. 33; Autiero et al. (2022), "
        "§3.12; CJTAM review, Table 1",
        "alpha = 1/c_r", "alpha(1) = 1: e_out = 0.5936 at c_r = 1",
        [](double c) { return 1.0 / c; }, true),
    hysteresis(
        "hu_guo", "Hu & Guo (2015)",
        "Skrinjar et al. (2018), Eqs. 29-30; Autiero et al. (2022), §3.13; CJTAM review, Table 1",
        "alpha = 3 (1 - c_r)/(2 c_r)", "self-consistent derivation (Autiero et al. 2022)",
        [](double c) { return 1.5 * (1.0 - c) / c; }, true),
    hysteresis(
        "hu_guo_skrinjar", "Hu-Guo factor that reproduces Skrinjar et al. (2018), Table 2",
        "Skrinjar et al. (2018), Table 2", "alpha = 3 (1 - c_r)/(4 c_r)",
        "half the published factor; as in the DyS code",
        [](double c) { return 0.75 * (1.0 - c) / c; }, true),
    LawEntry{"hu_et_al", "Hu, Hu, Jian, Liu, Wan (2011)", "CJTAM review, Table 1",
             "F = K delta^(3/2) (1 + alpha v/v0)", "alpha = -6.6626 ln c_r / (3.85238 + ln c_r)",
             "singular at c_r = exp(-3.85238) = 0.02123", Family::hysteresis,
             Kernel::hertz_hysteresis, TensionPolicy::clamp, hu_et_al_params,
             [](double c) { return -6.6626 * std::log(c) / (3.85238 + std::log(c)); },
             prepare_hysteresis, hertz_elastic},
    hysteresis(
        "shen", "Shen, Xiang, Wang, Jiang, Wei (2018)", "CJTAM review, Table 1",
        "alpha = 3 (1 - c_r)/(2 c_r^0.89)", hysteresis_note,
        [](double c) { return 1.5 * (1.0 - c) / std::pow(c, 0.89); }, true),
    hysteresis(
        "carvalho_martins", "Carvalho & Martins (2019)", "CJTAM review, Table 1",
        "alpha = 3 (1 - c_r)(11 - c_r) / (2 (1 + 9 c_r))",
        "closest closed form to the exact factor",
        [](double c) { return 1.5 * (1.0 - c) * (11.0 - c) / (1.0 + 9.0 * c); }, false),
    hysteresis(
        "safaeifar_farshidianfar", "Safaeifar & Farshidianfar (2020)", "CJTAM review, Table 1",
        "alpha = 5 (1 - c_r)/(4 c_r)", hysteresis_note,
        [](double c) { return 1.25 * (1.0 - c) / c; }, true),
    hysteresis(
        "zhang_et_al_2020", "Zhang, Li, Zhao, He (2020)", "CJTAM review, Table 1",
        "alpha = 3 (1 - c_r) / (2 (0.618 e^(-3.25 c_r) + 0.899 e^(0.09025 c_r)) c_r)",
        hysteresis_note,
        [](double c) {
          return 1.5 * (1.0 - c) /
                 ((0.618 * std::exp(-3.25 * c) + 0.899 * std::exp(0.09025 * c)) * c);
        },
        true),
    hysteresis(
        "zhao_et_al_2021", "Zhao, Liu, Li, Wu (2021)", "CJTAM review, Table 1",
        "alpha = 4 (1 - c_r)/(1.302 c_r)",
        "as printed; the original's normal-friction term is not in the CJTAM review's row",
        [](double c) { return 4.0 * (1.0 - c) / (1.302 * c); }, true),
    LawEntry{"khulief_shabana", "Khulief & Shabana (1985-87)", "Autiero et al. (2022), §3.5",
             "F = K delta (1 + alpha v/v0)", "alpha = 3 (1 - c_r^2)/4",
             "linear spring with indentation-proportional damping; Autiero et al. (2022), Eq. 71 "
             "garbled, read "
             "mu = 3 K (1 - c_r^2)/(4 v0)",
             Family::hysteresis, Kernel::linear_hysteresis, TensionPolicy::clamp,
             linear_hysteresis_params, [](double c) { return 0.75 * (1.0 - c * c); },
             prepare_linear_hysteresis, none_stated},
    LawEntry{"jankowski_skrinjar",
             "Jankowski as printed in Skrinjar et al. (2018), Table 1 (not reproducible)",
             "Skrinjar et al. (2018), Table 1", "F = K delta^(3/2) + chi delta^(1/2) v",
             "chi = 2 (-ln c_r)/sqrt(pi^2 + ln^2 c_r) K/v0",
             "as printed the bodies never separate; Skrinjar et al. (2018), Table 2's row is not "
             "reproduced by any "
             "reading",
             Family::hysteresis, Kernel::hertz_v0_root_damping, TensionPolicy::allow,
             hysteresis_open_params, [](double c) { return 2.0 * log_decrement_ratio(c); },
             prepare_hysteresis, hertz_elastic},
};

}  // namespace

std::span<const LawEntry> hysteresis_laws() {
  return rows;
}

}  // namespace chaindem
