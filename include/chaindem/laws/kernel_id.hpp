#pragma once
// The names of the contact-law kernels, without their bodies: what the registry (law.hpp) and
// every file that only names a law's kernel (the case reader, the output, the command line)
// need. kernel_list.hpp pairs each name with its type, family by family, and checks that it
// lists exactly these names in this order; the dispatch from a name to its type (with_kernel)
// is in contact_law.hpp, which only code that evaluates a force includes.
//
// CHAINDEM_KERNEL_NAMES(X): X(name) applied to every kernel, family by family, in the order of
// the families' lists (include/chaindem/laws/families/<family>.hpp).

// clang-format off
#define CHAINDEM_KERNEL_NAMES(X)                                                            \
  /* elastic */ X(linear_spring) X(power_law) X(hertz)                                     \
  /* viscous */ X(linear_viscoelastic) X(viscous_power) X(hertz_viscous_quarter)           \
                X(hertz_mindlin) X(lee_wang_transition)                                    \
  /* hysteresis */ X(hertz_hysteresis) X(linear_hysteresis) X(hertz_v0_root_damping)       \
  /* piecewise */ X(jankowski_piecewise) X(plastic_power)                                  \
  /* elastoplastic */ X(thornton_1997) X(stronge_2000) X(vu_quoc_zhang_2002)               \
                      X(kogut_etsion_2002) X(jackson_green_2005) X(du_wang_2009)           \
                      X(brake_2012) X(burgoyne_daraio_2014) X(ma_liu_2015)                 \
  /* line contact */ X(power_hysteresis) X(line_contact_implicit) X(liu_line_contact)      \
                     X(persson_line_contact)
// clang-format on

namespace chaindem {

/// Which shared kernel evaluates a law: one enumerator per name above.
#define CHAINDEM_KERNEL_ENUMERATOR(name) name,
enum class Kernel { CHAINDEM_KERNEL_NAMES(CHAINDEM_KERNEL_ENUMERATOR) };
#undef CHAINDEM_KERNEL_ENUMERATOR

/// How many kernels there are.
#define CHAINDEM_KERNEL_ONE(name) +1
inline constexpr int kernel_count = 0 CHAINDEM_KERNEL_NAMES(CHAINDEM_KERNEL_ONE);
#undef CHAINDEM_KERNEL_ONE

}  // namespace chaindem
