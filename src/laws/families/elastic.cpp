// Elastic family: power-law springs (Hooke, Hertz, fitted power laws, areas).
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

constexpr std::array linear_params{linear_stiffness_param};

constexpr std::array hertz_params{hertz_stiffness_param};

constexpr ParamSpec power_law_stiffness{.key = "stiffness",
                                        .unit = "N/m^n",
                                        .description = "stiffness K",
                                        .range = ValueRange::above(0.0)};
constexpr ParamSpec power_law_exponent{.key = "exponent",
                                       .unit = "-",
                                       .description = "elastic exponent n",
                                       .range = ValueRange::above(0.0)};
constexpr std::array power_law_params{power_law_stiffness, power_law_exponent};

constexpr ParamSpec brandlein_stiffness{
    .key = "stiffness",
    .unit = "N/m^1.08",
    .description = "stiffness K (depends on the contact length only)",
    .range = ValueRange::above(0.0)};
constexpr std::array brandlein_params{brandlein_stiffness};

constexpr ParamSpec half_width{.key = "half_width",
                               .unit = "m",
                               .description = "half width a of the contact",
                               .range = ValueRange::above(0.0)};
constexpr std::array plane_plane_params{half_width};

constexpr ParamSpec contact_area{.key = "contact_area",
                                 .unit = "m^2",
                                 .description = "impacting (contact) area A",
                                 .range = ValueRange::above(0.0)};
constexpr ParamSpec mean_radius{.key = "mean_radius",
                                .unit = "m",
                                .description = "average radius r_a from the polygon centre",
                                .range = ValueRange::above(0.0)};
constexpr std::array luo_nahon_area_params{contact_area, mean_radius};

PairCoeffs prepare_linear(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(value_of(p, linear_stiffness_param), 1.0, in);
}

PairCoeffs prepare_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(hertz_k(in, p), 1.5, in);
}

PairCoeffs prepare_power_law(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(value_of(p, power_law_stiffness), value_of(p, power_law_exponent), in);
}

PairCoeffs prepare_brandlein(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(value_of(p, brandlein_stiffness), 1.08, in);
}

// Skrinjar et al. (2018), Eq. 5: K = a / (0.475 (h_i + h_j)) with h = (1 - nu^2)/E, i.e. a E* /
// 0.475.
PairCoeffs prepare_plane_plane(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(value_of(p, half_width) * in.effective_modulus / 0.475, 1.0, in);
}

// Banerjee et al. (2017), Eq. 12: F = 2 E* A delta / (pi r_a).
PairCoeffs prepare_luo_nahon_area(const LawEntry&, const PairInput& in, const LawParams& p) {
  return base(
      2.0 * in.effective_modulus * value_of(p, contact_area) / (pi * value_of(p, mean_radius)), 1.0,
      in);
}

constexpr std::array rows{
    // (a) Elastic
    LawEntry{"hooke", "Linear spring",
             "Banerjee et al. (2017), Eqs. 5-7; Skrinjar et al. (2018), Eq. 1 with n = 1",
             "F = K delta", "none (elastic)", "t_c = pi sqrt(m*/K)", Family::elastic,
             Kernel::linear_spring, TensionPolicy::clamp, linear_params, nullptr, prepare_linear,
             none_stated},
    LawEntry{"hertz", "Hertz (1881), sphere-sphere and sphere-plane",
             "Skrinjar et al. (2018), Eqs. 1-4; Banerjee et al. (2017), Eqs. 1-3 "
             "(`hertz_sphere_sphere`, `hertz_sphere_plane`)",
             "F = K delta^(3/2), K = (4/3) E* sqrt(R*) (R* = R against a plane)", "none (elastic)",
             "t_c = 2.943275 delta_max/v0", Family::elastic, Kernel::hertz, TensionPolicy::clamp,
             hertz_params, nullptr, prepare_hertz, hertz_elastic},
    LawEntry{"power_law", "Generic power law",
             "Skrinjar et al. (2018), Eq. 1; Banerjee et al. (2017), Eq. 62; Autiero et al. "
             "(2022), Tables 2-9, 11",
             "F = K delta^n", "none (elastic)",
             "Autiero et al.'s (2022) fits give K in N/mm^n: K_SI = K_mm 1000^n", Family::elastic,
             Kernel::power_law, TensionPolicy::clamp, power_law_params, nullptr, prepare_power_law,
             none_stated},
    LawEntry{"brandlein", "Brandlein et al. line/rolling contact", "Banerjee et al. (2017), Eq. 8",
             "F = K delta^1.08", "none (elastic)",
             "K depends only on the contact length; no value given", Family::elastic,
             Kernel::power_law, TensionPolicy::clamp, brandlein_params, nullptr, prepare_brandlein,
             none_stated},
    LawEntry{"hertz_plane_plane", "Plane-plane stiffness (Nikravesh)",
             "Skrinjar et al. (2018), Eq. 5",
             "F = K delta, K = a / (0.475 (h_i + h_j)), h = (1 - nu^2)/E", "none (elastic)",
             "exponent not printed: a/h has units N/m, so read as linear (uncertain)",
             Family::elastic, Kernel::linear_spring, TensionPolicy::clamp, plane_plane_params,
             nullptr, prepare_plane_plane, none_stated},
    LawEntry{"luo_nahon_contact_area", "Luo & Nahon polyhedral contact-area law",
             "Banerjee et al. (2017), Eq. 12", "F = 2 E* A delta / (pi r_a)", "none (elastic)",
             "geometry-specific (polyhedra)", Family::elastic, Kernel::linear_spring,
             TensionPolicy::clamp, luo_nahon_area_params, nullptr, prepare_luo_nahon_area,
             none_stated},
};

}  // namespace

std::span<const LawEntry> elastic_laws() {
  return rows;
}

}  // namespace chaindem
