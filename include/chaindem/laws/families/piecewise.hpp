#pragma once
// Piecewise family: a dashpot that acts while approaching only, and the plastic power law with
// its frozen unloading branch.

#include <algorithm>
#include "chaindem/laws/families/elastic.hpp"

namespace chaindem::kernels {

/// Jankowski (2005): the dashpot acts only while the bodies approach.
struct JankowskiPiecewise : Hertz {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    return {c.stiffness * pow15(d), v > 0.0 ? c.damping * std::sqrt(std::sqrt(d)) * v : 0.0};
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {v > 0.0 ? damping_edge(c.damping, 0.25, v) : EdgeTerm{}, elastic_edge(c, v)};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<JankowskiPiecewise>(c, s, d, v);
  }
};

/// Loading K delta^n; unloading from (delta_max, F_max) along
/// F = F_max ((delta - delta_p)/(delta_max - delta_p))^n with delta_p = (1 - c^2) delta_max,
/// i.e. K_u = K c^(-2n); reloading follows the unloading curve up to delta_max. The pair keeps
/// its permanent overlap across separations (re-contact starts on the flattened surfaces).
struct PlasticPower {
  // Its coefficient in PairCoeffs::law: c_r^(-2n), the unloading stiffness over K.
  static constexpr int unload_ratio = 0;
  static double unload_force(const ContactState& s, double n, double d) {
    return d > s.residual_overlap ? s.unload_stiffness * power(d - s.residual_overlap, n) : 0.0;
  }
  /// The unloading branch from the turning point; c.law[unload_ratio] = c_r^(-2n) (prepared once).
  static void freeze(const PairCoeffs& c, ContactState& s) {
    const double c2 = c.restitution * c.restitution;
    s.residual_overlap = (1.0 - c2) * s.max_overlap;
    s.unload_stiffness = c.stiffness * c.law[unload_ratio];
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double) {
    if (d >= s.max_overlap) {  // virgin loading
      s.unloading = 0;
      s.max_overlap = d;
      s.max_force = c.stiffness * power(d, c.exponent);
      return s.max_force;
    }
    if (!s.unloading) {
      s.unloading = 1;
      freeze(c, s);
    }
    return unload_force(s, c.exponent, d);
  }
  /// Loading from delta = 0 on surfaces not yet flattened: K (|v| tau)^n.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState& s, double v) {
    if (s.residual_overlap != 0.0) return {};
    return {power_edge(c.stiffness, c.exponent, v), {}};
  }
  static bool columns_usable(const PairCoeffs& c) { return c.exponent == 1.5; }
  static constexpr bool columns_always_exact = true;
  static bool columns_exact(const PairCoeffs&, const PlasticHistory&, double) { return true; }
  static constexpr unsigned columns_moved =
      PlasticHistory::max_overlap_field | PlasticHistory::max_force_field |
      PlasticHistory::residual_overlap_field | PlasticHistory::unload_stiffness_field |
      PlasticHistory::unloading_field;
  static double force_columns(const PairCoeffs& c, PlasticHistory& h, double d) {
    const bool loading = d >= h.max_overlap;
    const double f_load = c.stiffness * pow15(d);
    const bool freeze_now = !loading & (h.unloading == 0.0);  // freeze(), as selects
    const double c2 = c.restitution * c.restitution;
    const double residual = freeze_now ? (1.0 - c2) * h.max_overlap : h.residual_overlap;
    const double k_u = freeze_now ? c.stiffness * c.law[unload_ratio] : h.unload_stiffness;
    const double x = d > residual ? d - residual : 0.0;
    const double f_unload = d > residual ? k_u * pow15(x) : 0.0;
    h.unloading = loading ? 0.0 : 1.0;
    h.max_overlap = loading ? d : h.max_overlap;
    h.max_force = loading ? f_load : h.max_force;
    h.residual_overlap = residual;
    h.unload_stiffness = k_u;
    return loading ? f_load : f_unload;
  }
  static double potential(const PairCoeffs& c, const ContactState& s, double d) {
    ContactState u = s;
    if (!u.unloading || d >= u.max_overlap) {  // what unloading from here would return
      u.max_overlap = std::max(d, s.max_overlap);
      freeze(c, u);
    }
    return d > u.residual_overlap
               ? u.unload_stiffness * std::pow(d - u.residual_overlap, c.exponent + 1.0) /
                     (c.exponent + 1.0)
               : 0.0;
  }
};

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_PIECEWISE_KERNELS(X) \
  X(jankowski_piecewise, kernels::JankowskiPiecewise) /* dashpot chi delta^(1/4) v while approaching only */ \
  X(plastic_power, kernels::PlasticPower) /* loading K delta^n, frozen power-law unloading */
// clang-format on
