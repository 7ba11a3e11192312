#pragma once
// One head-on collision of two bodies (or a body and a wall) under any contact law, integrated
// on the relative coordinate m* delta'' = -F(delta, delta') with an adaptive Dormand-Prince
// scheme (Boost.Odeint, dense output). Used by `chaindem collide`, the validation of the papers'
// tables and the calibration of laws whose damping is defined by a restitution target.

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/laws/law.hpp"

namespace chaindem {

struct ImpactOptions {
  TensionPolicy tension = TensionPolicy::allow;
  /// For laws with v0 in the damping term. An impact from apart reaches its largest approach
  /// rate at first touch, so the onset, peak and energy policies all give v0 = the approach
  /// velocity (raised to impact_velocity_floor, the onset policy's, if below it); a
  /// reference_velocity > 0 replaces it (the reference policy) [m/s].
  double impact_velocity_floor = 0.0;
  double reference_velocity = 0.0;
  bool record = false;       ///< keep the (t, delta, v, F) history
  double tolerance = 1e-11;  ///< relative and absolute (scaled) error per step
  double max_time = 0.0;     ///< give up after this time [s]; 0: 100 elastic durations
  /// Stop once the overlap reaches this (a radius: no law holds beyond it) [m]
  double overlap_limit = std::numeric_limits<double>::infinity();
  /// Give up after this many accepted steps. An impact takes a few hundred; a law whose
  /// damping or plastic branch is far faster than its spring for the bodies can need millions
  /// of ever shorter ones, and would run for minutes.
  std::int64_t max_steps = 1'000'000;
};

struct ImpactSample {
  double time, overlap, rate, force;
};

struct ImpactResult {
  bool separated = false;            ///< false: the bodies never returned to delta = 0
  double impact_velocity = 0.0;      ///< v0, approach rate at contact start [m/s]
  double separation_velocity = 0.0;  ///< approach rate when delta returns to 0 (< 0) [m/s]
  double restitution = 0.0;          ///< e_out = -separation_velocity / v0
  double peak_force = 0.0;           ///< [N]
  double min_force = 0.0;            ///< most tensile force (< 0 only with tension allowed) [N]
  double max_overlap = 0.0;          ///< [m]
  double contact_duration = 0.0;     ///< time until delta returns to 0 [s]
  double force_duration = 0.0;       ///< time until the force vanishes for good [s]
  double separation_overlap = 0.0;   ///< overlap at which the force vanished (F = 0 end) [m]
  double impulse = 0.0;              ///< integral of F dt = m* (v0 - v_end) [N s]
  double dissipated_energy = 0.0;    ///< m* (v0^2 - v_end^2)/2 [J]
  ContactState final_state;          ///< pair history after the impact (plastic laws)
  int floor_hits = 0;
  /// The integration stopped before the bodies separated: the overlap reached
  /// ImpactOptions::overlap_limit (too_deep), the state or the force stopped being a finite
  /// number (not_finite), or it took ImpactOptions::max_steps (too_many_steps).
  /// contact_duration and separation_velocity are then the time and the approach rate where it
  /// stopped.
  bool too_deep = false, not_finite = false, too_many_steps = false;
  std::int64_t steps = 0;  ///< accepted integration steps
  std::vector<ImpactSample> history;
};

/// Integrates one impact at approach speed v0 > 0 from delta = 0. `state` carries the pair's
/// history (a second impact on a plastically deformed pair starts from the first one's state).
ImpactResult simulate_impact(const LawEntry& law, const PairCoeffs& coeffs, double effective_mass,
                             double v0, const ImpactOptions& options,
                             const ContactState& state = {});

/// The restitution one impact from apart returns under `law` with its parameter restitution =
/// `c_r`, for the registry's reference bodies: two steel spheres (E = 200 GPa, nu = 0.3, rho =
/// 7800 kg/m^3, R = 5 mm, yield stress 1 GPa) meeting at 1 m/s, parallel cylinders 10 mm long for
/// the line contacts, every other parameter at its default. What c_r means differs from law to
/// law: some return it exactly, others more or less (docs/contact-laws.md). nullopt for a law
/// without a restitution parameter, one that needs another parameter without default, or an
/// impact that does not end.
std::optional<double> reference_restitution(const LawEntry& law, double c_r);
/// The values of c_r reference_restitution_text() shows.
inline constexpr std::array reference_restitutions{0.1, 0.5, 0.9};
/// What the law returns for the reference bodies at each of reference_restitutions, in words
/// ("one impact from apart (...): c_r = 0.1 gives e = 0.381, ..."), or "" for a law without a
/// restitution parameter (or whose impact reference_restitution cannot give).
std::string reference_restitution_text(const LawEntry& law);

}  // namespace chaindem
