// Piecewise family: a dashpot while approaching, and plastic power laws.
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

constexpr std::array plastic_hertz_params{restitution_open, hertz_stiffness_param};

constexpr std::array plastic_linear_params{restitution_open, linear_stiffness_param};

// kernels::PlasticPower: restitution, and unload_ratio = c_r^(-2n), the unloading stiffness factor
// (a pow per unloading otherwise).
PairCoeffs plastic_power(PairCoeffs c, const LawParams& p) {
  c.restitution = value_of(p, restitution_open);
  c.law[kernels::PlasticPower::unload_ratio] = std::pow(c.restitution * c.restitution, -c.exponent);
  return c;
}

PairCoeffs prepare_plastic_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  return plastic_power(base(hertz_k(in, p), 1.5, in), p);
}

PairCoeffs prepare_plastic_linear(const LawEntry&, const PairInput& in, const LawParams& p) {
  return plastic_power(base(value_of(p, linear_stiffness_param), 1.0, in), p);
}

constexpr std::array rows{
    // (d) Piecewise hysteretic laws
    LawEntry{"jankowski_piecewise", "Jankowski (2005), nonlinear viscoelastic pounding",
             "Banerjee et al. (2017), Eq. 36",
             "F = K delta^(3/2) + C delta^(1/4) v while v > 0, F = K delta^(3/2) while v <= 0",
             "C = 2 xi sqrt(K m*), xi = (9 sqrt(5)/2)(1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16))",
             "reading of the garbled Banerjee et al. (2017), Eq. 36 that reproduces Banerjee et "
             "al. (2017), Table 1",
             Family::piecewise, Kernel::jankowski_piecewise, TensionPolicy::clamp,
             viscous_open_params, jankowski_factor, prepare_viscous, hertz_elastic},
    LawEntry{"valles_reinhorn", "Valles & Reinhorn piecewise-linear gap element",
             "Banerjee et al. (2017), Eq. 35",
             "F = K1 delta loading; F = K2 (delta - delta_P) unloading",
             "K2 = K1/c_r^2, delta_P = (1 - c_r^2) delta_max (continuity and energy ratio c_r^2)",
             "e_out = c_r in an isolated impact; reloading follows the unloading line",
             Family::piecewise, Kernel::plastic_power, TensionPolicy::clamp, plastic_linear_params,
             nullptr, prepare_plastic_linear, none_stated},
    LawEntry{"lankarani_nikravesh_plastic", "Lankarani & Nikravesh (1994), permanent indentation",
             "Autiero et al. (2022), §3.8; Banerjee et al. (2017), Eq. 4",
             "F = K delta^n loading; F = F_m ((delta - delta_p)/(delta_m - delta_p))^n unloading",
             "delta_p = (1 - c_r^2) delta_m at the actual turning point",
             "e_out = c_r in an isolated impact; permanent overlap kept across re-contacts",
             Family::piecewise, Kernel::plastic_power, TensionPolicy::clamp, plastic_hertz_params,
             nullptr, prepare_plastic_hertz, hertz_plastic},
    LawEntry{"gharib_hurmuzlu_plastic", "Gharib & Hurmuzlu (2012), permanent indentation",
             "Autiero et al. (2022), §3.12",
             "F = K_c delta^n loading; F = K_r (delta - delta_p)^n unloading",
             "delta_p = (1 - e_w^2) delta_m, K_r = K_c e_w^(-2n) (restitution = e_w)",
             "same curve as lankarani_nikravesh_plastic", Family::piecewise, Kernel::plastic_power,
             TensionPolicy::clamp, plastic_hertz_params, nullptr, prepare_plastic_hertz,
             hertz_plastic},
};

}  // namespace

std::span<const LawEntry> piecewise_laws() {
  return rows;
}

}  // namespace chaindem
