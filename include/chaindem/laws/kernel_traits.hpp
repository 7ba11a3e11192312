#pragma once
// What a kernel declares about itself, as compile-time traits the engines dispatch on.

#include "chaindem/laws/kernel_basics.hpp"

namespace chaindem::kernels {

/// True for kernels that read the impact velocity v0 (the hysteresis family).
template <class KernelT>
inline constexpr bool reads_impact_velocity = requires {
  KernelT::uses_impact_velocity;
};

/// True for kernels without a loading history: their force is parts(), a function of the
/// coefficients, delta, v and, for the hysteresis family, v0 and the damping origin. Engines may
/// evaluate them in vectorised loops and book their damping work as dissipation.
template <class KernelT>
inline constexpr bool splits_force = requires(const PairCoeffs& c, const ContactState& s) {
  KernelT::parts(c, s, 0.0, 0.0);
};

/// True for kernels whose force depends on (coefficients, delta, v) alone.
template <class KernelT>
inline constexpr bool history_free = splits_force<KernelT> && !reads_impact_velocity<KernelT>;

/// True for kernels whose only history is v0 and the damping origin (the hysteresis family): an
/// engine may evaluate them like history-free ones, given those.
template <class KernelT>
inline constexpr bool reads_only_impact_velocity =
    splits_force<KernelT>&& reads_impact_velocity<KernelT>;

/// True for kernels that declare the leading terms of their force at a contact's edges
/// (edge_terms).
template <class KernelT>
inline constexpr bool has_edge_term = requires(const PairCoeffs& c, const ContactState& s) {
  KernelT::edge_terms(c, s, 0.0);
};

/// True for kernels whose damping part is always zero.
template <class KernelT>
consteval bool is_conservative() {
  if constexpr (requires { KernelT::conservative; })
    return KernelT::conservative;
  else
    return false;
}
template <class KernelT>
inline constexpr bool conservative = is_conservative<KernelT>();

/// True for kernels whose elastic force is the power law K delta^n of their coefficients
/// `stiffness` and `exponent` (its contact time and static overlap in closed form). Kernels
/// whose elastic part is another curve declare `power_law = false`: for them K and n are only a
/// scale, and the time step and the static overlap are found from the curve itself.
template <class KernelT>
consteval bool has_power_law_elastic() {
  if constexpr (requires { KernelT::power_law; })
    return KernelT::power_law;
  else
    return true;
}
template <class KernelT>
inline constexpr bool power_law_elastic = has_power_law_elastic<KernelT>();

/// True for kernels an engine may evaluate on their history kept in columns (PlasticHistory).
template <class KernelT>
inline constexpr bool history_in_columns = requires(const PairCoeffs& c, PlasticHistory& h) {
  KernelT::force_columns(c, h, 0.0);
};

}  // namespace chaindem::kernels
