#pragma once
// output.beads: which particles a run's per-particle series hold, in the words a case gives them.

#include <cstdint>
#include <string>
#include <vector>

namespace chaindem {

/// The particle indices the words of output.beads name, increasing and each once; empty when they
/// name every particle (`all`, or a list that covers them). A word is `all`, `striker`, a chain
/// bead `K` (from 0; negative counts from the end, -1 the last), or a range `A:B` or `A:B:S` of
/// chain beads A to B inclusive, every S-th (S >= 1), whose ends may be negative (`0:-1:10`:
/// every tenth bead from the first, up to the last). `striker` < 0: the run has none; chain bead
/// k is particle chain_first + k; `particles` counts every particle of the run. Throws
/// std::invalid_argument naming the word that is none of these, or a bead outside the chain.
std::vector<std::int64_t> output_particles(const std::vector<std::string>& words,
                                           std::int64_t striker, std::int64_t chain_first,
                                           std::int64_t chain_count, std::int64_t particles);

}  // namespace chaindem
