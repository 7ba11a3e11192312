#pragma once
// Restitution predictors (the restitution predictors, include/chaindem/laws/restitution.hpp) and
// the non-smooth reference laws (group (h)).
//
// Group (g): closed-form predictions of the coefficient of restitution c_r from material data and
// impact velocity. They can supply c_r to the laws of groups (b)-(d), or check the restitution a
// simulation produces. Each predictor is declared exactly once, as a RestitutionPredictor in the
// registry (src/laws/restitution.cpp): identifier (as in docs/contact-laws.md), citation (paper and
// table row), formula, validity, inputs with units and ranges, and the function that evaluates
// it. The same formulas are also available as plain typed functions below.
//
// Group (h): Newton's and Poisson's instantaneous impact laws for two bodies along the line of
// centres, the exact target of every compliant law in an isolated binary collision.
//
// SI units everywhere (one exception, documented on herbert_mcwhannell_cor: the formula needs
// mm/s, the function takes m/s and converts). Every function throws std::invalid_argument, with
// a message naming the offending parameter and its allowed range, when an input is missing,
// non-finite or out of range, or when the printed formula leaves [0, 1] where the reference says
// to reject that.

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "chaindem/laws/law.hpp"

namespace chaindem {

// ---- Registry -----------------------------------------------------------------------------------

/// One input of a predictor: key, unit, description and allowed range. The same record as the
/// contact laws' parameters; predictors have no defaults (every input is required).
using PredictorParam = ParamSpec;

/// Inputs of a predictor, by key (PredictorParam::key). Not a hot path.
using PredictorInputs = std::map<std::string, double, std::less<>>;

struct RestitutionPredictor {
  std::string_view id;     ///< identifier, as in docs/contact-laws.md
  std::string_view title;  ///< short human name
  std::string_view
      citation;  ///< paper and table row, e.g. "CJTAM review, Table 4 row 2 (Thornton 1997)"
  std::string_view formula;   ///< plain-text formula, with the reading used where it matters
  std::string_view validity;  ///< where the formula applies and what happens outside
  std::span<const PredictorParam> params;
  /// Evaluates the predictor. Throws std::invalid_argument for a missing or out-of-range input
  /// (keys not in `params` are ignored here; predict() rejects them).
  double (*evaluate)(const PredictorInputs&);

  const PredictorParam* find_param(std::string_view key) const;
  /// evaluate(), after rejecting any input key the predictor does not declare.
  double predict(const PredictorInputs& inputs) const;
};

/// All predictors, in the order of the restitution predictors,
/// include/chaindem/laws/restitution.hpp.
std::span<const RestitutionPredictor> all_restitution_predictors();
/// The predictor with this identifier, or nullptr.
const RestitutionPredictor* find_restitution_predictor(std::string_view id);

// ---- Typed functions (group (g)) ----------------------------------------------------------------

/// Yield (first-yield) impact velocity of a binary Hertz impact (the restitution predictors,
/// include/chaindem/laws/restitution.hpp, "Note (algebra): yield velocity"): the relative speed
/// whose kinetic energy 1/2 m* V_y^2 equals the Hertz elastic energy (8/15) E* sqrt(R*)
/// delta_y^(5/2) at the yield overlap delta_y = (pi p_y/(2 E*))^2 R*. For a sphere of density rho
/// on a rigid flat this is V_y = (pi^2/sqrt(40)) sqrt(p_y^5/(E*^4 rho)) = 1.5605 sqrt(p_y^5/(E*^4
/// rho)) [m/s]. effective_modulus E* [Pa], effective_radius R* [m], effective_mass m* [kg],
/// yield_pressure p_y [Pa] (the limiting contact pressure, e.g. Thornton's p_y or Jackson-Green's C
/// S_y).
double yield_velocity(double effective_modulus, double effective_radius, double effective_mass,
                      double yield_pressure);

/// Chang & Ling (1992), CJTAM review, Table 4 row 1: c_r from the maximum compression w_m [m], the
/// critical elastic deformation w_c [m], E* [Pa], R [m], yield strength Y [Pa] and Poisson's ratio
/// (K = 1.282 + 1.158 nu). Reading: the bracket [w_c w_m (2 - w_c/w_m)] is raised to 5/4, not
/// the printed 3/2 (dimensionally inconsistent); 5/4 (docs/validation.md#predictors)
/// makes the ratio dimensionless and gives c_r = 1 at w_m = w_c. w_m <= w_c (no plastic work)
/// returns 1. Throws if the inputs make the formula exceed 1 (w_c inconsistent with Y, E*, R).
double chang_ling_1992_cor(double max_deformation, double critical_deformation,
                           double effective_modulus, double effective_radius, double yield_strength,
                           double poisson_ratio);

/// Thornton (1997), CJTAM review, Table 4 row 2: c_r from the impact velocity V_l [m/s] and the
/// yield velocity V_y [m/s] (see yield_velocity()); 1 for V_l <= V_y.
double thornton_1997_cor(double impact_velocity, double yield_velocity);

/// Wu, Li & Thornton (2005), CJTAM review, Table 4 row 3, as printed: 2.08 (V1/V_c)^0.156 for V1 <
/// V_f, 0.62 (V1 S_y/(V_c E*))^(-1/2) for V1 >= V_f. The printed formula exceeds 1 over most of its
/// range (uncertain, not usable without the original paper: docs/validation.md#predictors); any
/// result above 1 throws std::invalid_argument. V1 impact velocity, V_c velocity of first plastic
/// deformation, V_f critical velocity [m/s]; S_y yield stress, E* [Pa].
double wu_2005_cor(double impact_velocity, double plastic_onset_velocity, double critical_velocity,
                   double yield_stress, double effective_modulus);

/// Weir & Tallon (2005), CJTAM review, Table 4 row 4:
/// c_r = 3.1 (S_y/E*)^(5/8) (R1/R)^(3/8) (c0/v0)^(1/4), c0 = sqrt(E/rho) with Young's modulus E
/// as printed (E vs E* is uncertain). Plastic regime only; the result is clipped to 1.
double weir_tallon_2005_cor(double impact_velocity, double yield_stress, double effective_modulus,
                            double youngs_modulus, double density, double radius_r1, double radius);

/// Jackson, Green & Marghitu (2010), CJTAM review, Table 4 row 5: c_r from the impact velocity
/// normalised by the yield velocity, V1 = v0/V_y in (0, 1000], and the yield strain eps_y = S_y/E*.
/// Throws if the last branch becomes negative (large eps_y).
double jackson_2010_cor(double normalised_velocity, double yield_strain);

/// Ma & Liu (2015), CJTAM review, Table 4 row 6:
/// c_r = 0.81 E*^(-1/3) (R_p^e)^(-1/6) k1^(5/12) m^(-1/12) v0^(-1/6), with R_p^e the unloading
/// radius of curvature [m], k1 = 2 pi R psi sigma_y the fully plastic stiffness [N/m], m the
/// (effective) mass [kg]. Fully plastic regime; clipped to 1 (implementation choice, as for
/// Weir-Tallon: the power law diverges as v0 -> 0, where the impact is nearly elastic).
double ma_liu_2015_cor(double impact_velocity, double effective_modulus, double unloading_radius,
                       double plastic_stiffness, double effective_mass);

/// Hunt & Crossley linear relation (Autiero et al. 2022, §3.2): e = 1 - alpha_hc v0, alpha_hc
/// [s/m], v0 [m/s]. Throws when e < 0 (v0 > 1/alpha_hc).
double hunt_crossley_cor(double alpha_hc, double impact_velocity);

/// Herbert & McWhannell (Autiero et al. 2022, §3.3): e = 1 - 0.026 v0^(1/3) with v0 in mm/s; this
/// function takes v0 in m/s and converts. Throws when e < 0 (v0 > 56.9 m/s).
double herbert_mcwhannell_cor(double impact_velocity);

/// Lee & Wang linear fit (Autiero et al. 2022, §3.4): e = alpha0 - alpha1 v0, alpha0 in (0, 1],
/// alpha1 [s/m]. Throws when e < 0.
double lee_wang_cor(double alpha0, double alpha1, double impact_velocity);

// ---- Non-smooth reference (group (h)) -----------------------------------------------------------

/// Result of an instantaneous binary impact along the line of centres.
struct BinaryImpactOutcome {
  double velocity_i;         ///< post-impact velocity of body i [m/s]
  double velocity_j;         ///< post-impact velocity of body j [m/s]
  double impulse;            ///< normal impulse magnitude Lambda >= 0 (on j: +Lambda) [N s]
  double dissipated_energy;  ///< kinetic energy lost, 1/2 m* v0^2 (1 - c_r^2) [J]
};

/// Newton's (stereo-mechanical) impact law, Banerjee et al. (2017), Eqs. 37-43. One dimension along
/// the line of centres, positive from i towards j, so the approach rate is v0 = velocity_i -
/// velocity_j. Lambda = (1 + c_r) m* v0, post-impact approach rate -c_r v0. A fixed or moving wall
/// is mass_j = +infinity (its velocity is unchanged; mass_i may be the infinite one instead).
/// Bodies that are not approaching (v0 <= 0) get Lambda = 0 (complementarity, Banerjee et al.
/// (2017), Eq. 38). Throws for c_r outside [0, 1], masses not > 0 (or both infinite), non-finite
/// velocities.
BinaryImpactOutcome newton_restitution(double mass_i, double mass_j, double velocity_i,
                                       double velocity_j, double restitution);

/// Poisson's impact law, Banerjee et al. (2017), Eqs. 44-51: compression impulse m* v0 (brings the
/// approach rate to zero), then expansion impulse c_r times it. Same arguments and outcome as
/// newton_restitution, to which it is identical for a single frictionless contact (Banerjee et al.
/// 2017, Eq. 43 = Eq. 51).
BinaryImpactOutcome poisson_restitution(double mass_i, double mass_j, double velocity_i,
                                        double velocity_j, double restitution);

}  // namespace chaindem
