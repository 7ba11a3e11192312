#pragma once
// Elastic family: the elastic parts every other family composes with, as kernels of their own.

#include "chaindem/laws/kernel_basics.hpp"

namespace chaindem::kernels {

// ---- Elastic parts ------------------------------------------------------------------------------
// Each provides elastic(c, d), the force at overlap d > 0, and potential(c, s, d). As kernels of
// their own they are the elastic laws.

struct LinearSpring {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * d; }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 1.0, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.5 * c.stiffness * d * d;
  }
};

struct PowerLaw {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) {
    return c.stiffness * std::pow(d, c.exponent);
  }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, c.exponent, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return c.stiffness * std::pow(d, c.exponent + 1.0) / (c.exponent + 1.0);
  }
};

struct Hertz {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * pow15(d); }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 1.5, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.4 * c.stiffness * d * pow15(d);
  }
};

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_ELASTIC_KERNELS(X) \
  X(linear_spring, kernels::LinearSpring) /* F = K delta */ \
  X(power_law, kernels::PowerLaw) /* F = K delta^n */ \
  X(hertz, kernels::Hertz) /* F = K delta^(3/2) */
// clang-format on
