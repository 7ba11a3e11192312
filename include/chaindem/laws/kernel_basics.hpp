#pragma once
// What every kernel is built from: the force split into parts, edge terms, the plastic history
// as columns, and x^(3/2).
//
// Kernels. Each provides
//   force(c, s, d, v)      total force before the tension policy [N]; plastic kernels also
//                          advance the pair's loading history in s
//   potential(c, s, d)     energy the contact would return on unloading from here [J]
// Kernels without a loading history split their force in two (the engine books the work of the
// second part as dissipated energy, so an undamped law dissipates exactly nothing):
//   parts(c, s, d, v)      {elastic, damping}: the conservative part F_e(delta), whose integral
//                          is potential(), and the velocity-dependent rest; force = their sum
//   conservative           (constant, optional) true when the damping part is always 0
//   edge_terms(c, s, v)    (optional) the leading terms a tau^p, p < 2, of the force of a contact
//                          that begins (or ends) at approach rate v: F(|v| tau, v) -> sum a tau^p
//                          as the time tau from the edge goes to 0. Sampled at steps, such a term
//                          is integrated to O(dt^(1+p)) only; the engine adds what the samples
//                          miss (EdgeTerm; edge_impulse.hpp, docs/engine.md).
// They are pure inline functions of the coefficients, the pair's history and (delta, v).

#include <array>
#include <cmath>
#include "chaindem/laws/pair.hpp"

namespace chaindem::kernels {

/// A leading term a tau^p of a contact force at the edge of a contact (its first touch or its
/// separation), where tau is the time from the edge and 0 <= p < 2; a = 0: none.
struct EdgeTerm {
  double a = 0.0;              ///< [N / s^p]
  double p = 1.0;              ///< exponent
  double damping_share = 0.0;  ///< the part of a that is damping force (its work is dissipated)
};
/// The (at most two) leading terms of a kernel at an edge, the one of smallest p first.
using EdgeTerms = std::array<EdgeTerm, 2>;

/// K (|v| tau)^n, the edge term of an elastic power law (none from n = 2 on: O(dt^3)).
inline EdgeTerm power_edge(double stiffness, double exponent, double v) {
  if (!(exponent < 2.0)) return {};
  return {stiffness * std::pow(std::abs(v), exponent), exponent, 0.0};
}
/// The edge term chi (|v| tau)^m v of a damping term chi delta^m v.
inline EdgeTerm damping_edge(double coefficient, double exponent, double v) {
  if (!(exponent < 2.0) || coefficient == 0.0) return {};
  return {coefficient * std::pow(std::abs(v), exponent) * v, exponent, 1.0};
}

/// A force split into its conservative and its velocity-dependent part.
struct Parts {
  double elastic;  ///< F_e(delta) [N]
  double damping;  ///< the rest, zero at v = 0 [N]
};

/// force() of a kernel that provides parts().
template <class KernelT>
inline double sum_of_parts(const PairCoeffs& c, ContactState& s, double d, double v) {
  const Parts p = KernelT::parts(c, s, d, v);
  return p.elastic + p.damping;
}

inline double pow15(double d) {
  return d * std::sqrt(d);
}

/// x^n, with the Hertz exponent as x sqrt(x): std::pow costs ~10 times more, and the vectorised
/// history loops (force_columns below) compute x sqrt(x) too.
inline double power(double x, double n) {
  return n == 1.5 ? pow15(x) : std::pow(x, n);
}

/// A plastic kernel's history (ContactState without v0) as plain numbers, the flags as 0 or 1:
/// what an engine keeping the history in columns, one array per field, loads and stores per pair.
/// Kernels that can be evaluated on it provide
///   columns_usable(c)        the coefficients allow it at all (plastic_power: n = 3/2)
///   columns_exact(c, h, d)   force_columns reproduces force() at this state and overlap, bit for
///                            bit, history included (else the engine calls force())
///   force_columns(c, h, d)   force() without branches, so that a loop over pairs vectorises
///   columns_moved            the fields force_columns may change (Field bits): the engine
///                            stores only those (the loop is bound by its stores)
///   columns_always_exact     columns_exact is true for every state
struct PlasticHistory {
  double max_overlap, max_force, residual_overlap, unload_stiffness, unload_exponent;
  double unloading, regime;
  enum Field : unsigned {
    max_overlap_field = 1,
    max_force_field = 2,
    residual_overlap_field = 4,
    unload_stiffness_field = 8,
    unload_exponent_field = 16,
    unloading_field = 32,
    regime_field = 64
  };

  static PlasticHistory of(const ContactState& s) {
    return {s.max_overlap,
            s.max_force,
            s.residual_overlap,
            s.unload_stiffness,
            s.unload_exponent,
            static_cast<double>(s.unloading),
            static_cast<double>(s.regime)};
  }
  void store(ContactState& s) const {
    s.max_overlap = max_overlap;
    s.max_force = max_force;
    s.residual_overlap = residual_overlap;
    s.unload_stiffness = unload_stiffness;
    s.unload_exponent = unload_exponent;
    s.unloading = static_cast<int>(unloading);
    s.regime = static_cast<int>(regime);
  }
};

}  // namespace chaindem::kernels
