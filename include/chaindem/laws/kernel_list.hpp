#pragma once
// Every kernel, once: each family's header lists its kernels (enumerator and type, one line
// each); this joins the lists. The Kernel enum (law.hpp) and the dispatch from a Kernel value to
// its type (with_kernel, contact_law.hpp) are generated from it, so a new kernel is its type and
// one line in its family's header.
//
// CHAINDEM_KERNELS(X): X(name, type) applied to every kernel, family by family.

#include "chaindem/laws/families/elastic.hpp"
#include "chaindem/laws/families/elastoplastic.hpp"
#include "chaindem/laws/families/hysteresis.hpp"
#include "chaindem/laws/families/line_contact.hpp"
#include "chaindem/laws/families/piecewise.hpp"
#include "chaindem/laws/families/viscous.hpp"

// clang-format off
#define CHAINDEM_KERNELS(X)         \
  CHAINDEM_ELASTIC_KERNELS(X)       \
  CHAINDEM_VISCOUS_KERNELS(X)       \
  CHAINDEM_HYSTERESIS_KERNELS(X)    \
  CHAINDEM_PIECEWISE_KERNELS(X)     \
  CHAINDEM_ELASTOPLASTIC_KERNELS(X) \
  CHAINDEM_LINE_CONTACT_KERNELS(X)
// clang-format on
