#pragma once
// Every kernel, once, with its type: each family's header lists its kernels (enumerator and
// type, one line each); this joins the lists. The dispatch from a Kernel value to its type
// (with_kernel, contact_law.hpp) is generated from it, so a new kernel is its type, one line in
// its family's header and its name in kernel_id.hpp, where the Kernel enum is declared without
// the kernels' bodies. The check below keeps the two lists in step.
//
// CHAINDEM_KERNELS(X): X(name, type) applied to every kernel, family by family.

#include <cstddef>
#include <iterator>

#include "chaindem/laws/families/elastic.hpp"
#include "chaindem/laws/families/elastoplastic.hpp"
#include "chaindem/laws/families/hysteresis.hpp"
#include "chaindem/laws/families/line_contact.hpp"
#include "chaindem/laws/families/piecewise.hpp"
#include "chaindem/laws/families/viscous.hpp"
#include "chaindem/laws/kernel_id.hpp"

// clang-format off
#define CHAINDEM_KERNELS(X)         \
  CHAINDEM_ELASTIC_KERNELS(X)       \
  CHAINDEM_VISCOUS_KERNELS(X)       \
  CHAINDEM_HYSTERESIS_KERNELS(X)    \
  CHAINDEM_PIECEWISE_KERNELS(X)     \
  CHAINDEM_ELASTOPLASTIC_KERNELS(X) \
  CHAINDEM_LINE_CONTACT_KERNELS(X)
// clang-format on

namespace chaindem::detail {

#define CHAINDEM_KERNEL_LISTED(name, type) Kernel::name,
inline constexpr Kernel listed_kernels[] = {CHAINDEM_KERNELS(CHAINDEM_KERNEL_LISTED)};
#undef CHAINDEM_KERNEL_LISTED

/// True when the families' lists name every kernel of kernel_id.hpp once, in its order (a name
/// missing from kernel_id.hpp does not compile).
consteval bool kernel_lists_agree() {
  if (std::size(listed_kernels) != static_cast<std::size_t>(kernel_count)) return false;
  for (int k = 0; k < kernel_count; ++k)
    if (listed_kernels[k] != static_cast<Kernel>(k)) return false;
  return true;
}
static_assert(kernel_lists_agree(),
              "the families' kernel lists (kernel_list.hpp) and the names in kernel_id.hpp must "
              "name the same kernels in the same order");

}  // namespace chaindem::detail
