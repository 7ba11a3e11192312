#pragma once
// Every contact-law kernel and the dispatch from a Kernel value to its type. Include this where
// forces are evaluated (engines, two-body impacts); the registry types alone are in law.hpp.

#include "chaindem/laws/kernel_list.hpp"
#include "chaindem/laws/kernel_traits.hpp"
#include "chaindem/laws/law.hpp"

namespace chaindem {

/// Overlap at which the law's elastic force (no damping, fresh history) equals `force` > 0: the
/// static overlap of a pre-compressed contact. Exact for the power laws and the implicit line
/// contacts, a root solve for the other line contacts; the Hertz part for plastic laws.
double elastic_overlap(Kernel kernel, const PairCoeffs& coeffs, double force);

/// F = K delta^n fitted to an implicit line-contact law (Autiero et al. 2022, §2).
struct PowerFit {
  double stiffness;  ///< K [N/m^n]
  double exponent;   ///< n
};
/// Least squares of ln F = ln K + n ln delta over `samples` loads uniformly spaced in
/// [force_min, force_max], delta(F) from the law as printed (kernels::LineContactImplicit
/// coefficients). Autiero et al. (2022) fit 600 loads per unit length in [1, 3000] N/mm.
PowerFit fit_power_law(const PairCoeffs& implicit, double force_min, double force_max, int samples);

/// Calls f(kernel_type{}) with the kernel type for k: the one place where a Kernel value becomes
/// a type, so loops are instantiated per kernel and dispatched once.
template <class F>
decltype(auto) with_kernel(Kernel k, F&& f) {
  switch (k) {
#define CHAINDEM_KERNEL_CASE(name, type) \
  case Kernel::name:                     \
    return f(type{});
    CHAINDEM_KERNELS(CHAINDEM_KERNEL_CASE)
#undef CHAINDEM_KERNEL_CASE
  }
  __builtin_unreachable();  // every enumerator has its case
}

}  // namespace chaindem
