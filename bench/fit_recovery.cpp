// Parameter recovery and law ranking over many noise draws (validation/fit_recovery.hpp): for
// each of five laws, one per family, the share of draws whose 95 % intervals hold the true
// parameters and the share that AICc ranks the generating law first among the five.
//
//   build/bench/fit_recovery [DRAWS (default 100)] [SEED (default 2026)] [LAW (default all)]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fit_recovery.hpp"

int main(int argc, char** argv) {
  using namespace chaindem::fit::recovery;
  const int draws = argc > 1 ? std::atoi(argv[1]) : 100;
  const unsigned long seed = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2026;
  if (draws < 1) {
    std::fprintf(stderr, "usage: fit_recovery [DRAWS >= 1] [SEED]\n");
    return 2;
  }
  const auto all = generators();
  std::printf(
      "%d noise draws per law (2 %% noise on restitution, peak force and contact "
      "duration at 10 velocities), seed %lu\n\n",
      draws, seed);
  std::printf(
      "| law that made the data | parameter | true value | 95 %% interval holds it | "
      "ranked first by AICc | otherwise first | seconds per draw (5 fits) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (argc > 3 && all[i].law != argv[3]) continue;
    const Outcome o = run(i, draws, seed + i);
    std::string others;
    for (std::size_t c = 0; c < all.size(); ++c)
      if (c != i && o.wins[c])
        others += (others.empty() ? "" : ", ") + all[c].law + " " + std::to_string(o.wins[c]);
    if (o.unfitted)
      others += (others.empty() ? "" : ", ") + std::string("its own law not fitted ") +
                std::to_string(o.unfitted);
    for (std::size_t j = 0; j < all[i].keys.size(); ++j)
      std::printf(
          "| %s | %s | %g | %d of %d | %s | %s | %s |\n", j ? "" : all[i].law.c_str(),
          all[i].keys[j].c_str(), all[i].truth[j], o.covered[j], o.draws,
          j ? "" : (std::to_string(o.ranked_first) + " of " + std::to_string(o.draws)).c_str(),
          j ? "" : (others.empty() ? "-" : others.c_str()),
          j ? "" : std::to_string(o.seconds / o.draws).c_str());
    std::fflush(stdout);
  }
  return 0;
}
