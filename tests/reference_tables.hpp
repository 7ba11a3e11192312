#pragma once
// Reference data that more than one test reads, written once: the damping factors alpha(c_r) of
// the hysteresis laws, and the material and parameters of the elastoplastic laws. Each table
// names where its values come from; none of it is read from the library, so the tests that use
// it stay independent of the implementation.

#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "chaindem/laws/law.hpp"

namespace chaindem::test {

// ---- Hysteresis family: damping factor alpha(c_r) ----------------------------------------------

/// The damping factor alpha(c_r) of every hysteresis law with a closed form, in
/// F = K delta^n (1 + alpha v/v0), typed from docs/contact-laws.md, hysteresis (each row's source
/// in its comment). gonthier_exact and its aliases zhang_sharf, luo_nahon and khatiwada have no
/// closed form: their alpha is the root of the exact identity (identity_restitution in
/// test_support.hpp).
inline const std::map<std::string, double (*)(double), std::less<>> hysteresis_alpha_formulas{
    // Hunt & Crossley (1975)
    {"hunt_crossley", [](double c) { return 3 * (1 - c) / 2; }},
    // Marhefka & Orin (1999)
    {"marhefka_orin", [](double c) { return 3 * (1 - c * c) / (2 * (1 + c * c * c)); }},
    // Herbert & McWhannell (1977)
    {"herbert_mcwhannell", [](double c) { return 6 * (1 - c) / ((2 * c - 1) * (2 * c - 1) + 3); }},
    // Herbert & McWhannell (1977) as printed in Banerjee et al. (2017) (Eq. 25)
    {"herbert_mcwhannell_banerjee", [](double c) { return 6 * (1 - c) / ((c - 1) * (c - 1) + 3); }},
    // Lee & Wang (1983)
    {"lee_wang", [](double c) { return 3 * (1 - c) / 4; }},
    // Lankarani & Nikravesh (1990)
    {"lankarani_nikravesh", [](double c) { return 3 * (1 - c * c) / 4; }},
    // Gonthier, McPhee, Lange & Piedboeuf (2004)
    {"gonthier", [](double c) { return (1 - c * c) / c; }},
    // Qin Zhiying & Lu Qishao (2006)
    {"zhiying_qishao", [](double c) { return 3 * (1 - c * c) * std::exp(2 * (1 - c)) / 4; }},
    // Flores, Machado, Silva & Martins (2011)
    {"flores", [](double c) { return 8 * (1 - c) / (5 * c); }},
    // Ye, Li & Zhu (2009)
    {"ye_li_zhu", [](double c) { return 8 * (1 - c) / (5 * c); }},
    // Gharib & Hurmuzlu (2012)
    {"gharib_hurmuzlu", [](double c) { return 1 / c; }},
    // Hu & Guo (2015)
    {"hu_guo", [](double c) { return 3 * (1 - c) / (2 * c); }},
    // Hu & Guo (2015), the factor that reproduces Skrinjar et al. (2018), Table 2
    {"hu_guo_skrinjar", [](double c) { return 3 * (1 - c) / (4 * c); }},
    // Hu, Hu, Jian, Liu & Wan (2011)
    {"hu_et_al", [](double c) { return -6.6626 * std::log(c) / (3.85238 + std::log(c)); }},
    // Shen, Xiang, Wang, Jiang & Wei (2018)
    {"shen", [](double c) { return 3 * (1 - c) / (2 * std::pow(c, 0.89)); }},
    // Carvalho & Martins (2019)
    {"carvalho_martins", [](double c) { return 3 * (1 - c) * (11 - c) / (2 * (1 + 9 * c)); }},
    // Safaeifar & Farshidianfar (2020)
    {"safaeifar_farshidianfar", [](double c) { return 5 * (1 - c) / (4 * c); }},
    // Zhang, Li, Zhao & He (2020)
    {"zhang_et_al_2020",
     [](double c) {
       return 3 * (1 - c) / (2 * (0.618 * std::exp(-3.25 * c) + 0.899 * std::exp(0.09025 * c)) * c);
     }},
    // Zhao, Liu, Li & Wu (2021)
    {"zhao_et_al_2021", [](double c) { return 4 * (1 - c) / (1.302 * c); }},
    // Khulief & Shabana (1985-87)
    {"khulief_shabana", [](double c) { return 3 * (1 - c * c) / 4; }},
};

/// alpha(c_r) of the hysteresis law `id` from hysteresis_alpha_formulas.
inline double hysteresis_alpha(std::string_view id, double c_r) {
  const auto row = hysteresis_alpha_formulas.find(id);
  if (row == hysteresis_alpha_formulas.end())
    throw std::out_of_range("no damping-factor formula for " + std::string(id));
  return row->second(c_r);
}

// ---- Elastoplastic family: material and parameters ---------------------------------------------

/// A material as the case files give it.
struct Material {
  double youngs_modulus;  ///< [Pa]
  double poisson_ratio;   ///< [-]
  double density;         ///< [kg/m^3]
  double yield_stress;    ///< [Pa]
};

/// The steel of the elastoplastic tests: E = 200 GPa, nu = 0.3, rho = 7800 kg/m^3,
/// sigma_y = 1 GPa. Generic values of these tests; no source prints them.
inline constexpr Material elastoplastic_steel{200e9, 0.3, 7800.0, 1e9};

/// A number as case-file text, every digit kept (the shortest text that reads back exactly).
inline std::string ini_number(double x) {
  char text[32];
  const auto [end, error] = std::to_chars(text, text + sizeof text, x);
  if (error != std::errc()) throw std::runtime_error("ini_number: no room");
  return std::string(text, end);
}

/// Parameters as case-file lines, "key = value" each.
inline std::string ini_lines(const LawParams& params) {
  std::string out;
  for (const auto& [key, value] : params) out += key + " = " + ini_number(value) + "\n";
  return out;
}

/// `m` as the case-file section [material.<name>].
inline std::string material_section(const std::string& name, const Material& m) {
  return "[material." + name + "]\n" +
         ini_lines({{"youngs_modulus", m.youngs_modulus},
                    {"poisson_ratio", m.poisson_ratio},
                    {"density", m.density},
                    {"yield_stress", m.yield_stress}});
}

/// One elastoplastic law of docs/contact-laws.md, elastoplastic (CJTAM review, Table 3) and what
/// the tests give it.
struct ElastoplasticLaw {
  std::string id;
  /// Fixed parameters beyond the registry's defaults.
  LawParams params;
  /// Parameters with dimensions set from each test's own pair (not in `params`); a law with any
  /// runs only where a test computes them.
  std::vector<std::string> pair_params;
};

/// Every elastoplastic law, in the registry's order (ElastoplasticRegistry checks that none
/// is missing). The sources give no values for the parameters below; these are the tests' choices.
inline const std::vector<ElastoplasticLaw> elastoplastic_laws{
    // Thornton (1997)
    {"thornton_1997", {}, {}},
    // Stronge (2000)
    {"stronge_2000", {}, {}},
    // Vu-Quoc & Zhang (2002): K_c and C_a, set from the pair's yield force (no values in the
    // sources).
    {"vu_quoc_zhang_2002", {}, {"k_c", "c_a"}},
    // Kogut & Etsion (2002)
    {"kogut_etsion_2002", {}, {}},
    // Jackson & Green (2005)
    {"jackson_green_2005", {}, {}},
    // Du & Wang (2009)
    {"du_wang_2009", {}, {}},
    // Brake (2012): delta_p = 10 delta_y keeps the cubic monotone with the default pressures.
    {"brake_2012", {{"plastic_overlap_ratio", 10.0}}, {}},
    // Burgoyne & Daraio (2014) with Brake's fully plastic constants: p0 = 2.8 sigma_y,
    // delta_p = 10 delta_y, and c2 = a_p^2 - 2 R delta_p from the pair.
    {"burgoyne_daraio_2014", {{"c1", 2.8}, {"plastic_overlap_ratio", 10.0}}, {"c2"}},
    // Ma & Liu (2015): xi = 8 (delta_p = 32 delta_y), psi = 1.5.
    {"ma_liu_2015", {{"xi", 8.0}, {"psi", 1.5}}, {}},
};

/// The row of elastoplastic_laws for `id`.
inline const ElastoplasticLaw& elastoplastic_law(std::string_view id) {
  for (const ElastoplasticLaw& l : elastoplastic_laws)
    if (l.id == id) return l;
  throw std::out_of_range("no elastoplastic law " + std::string(id));
}

}  // namespace chaindem::test
