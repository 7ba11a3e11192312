#include "chaindem/commands/sweep_scheduler.hpp"

#include <cstdlib>
#include <string_view>

#ifdef CHAINDEM_WITH_MPI
#include <mpi.h>
#endif
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

namespace chaindem::sweep {

#ifdef CHAINDEM_WITH_MPI
namespace {
bool launched_by_mpi() {
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
  };
  if (set("CHAINDEM_MPI")) return std::string_view(std::getenv("CHAINDEM_MPI")) != "0";
  // Open MPI, PMIx and PMI (MPICH, Intel MPI, srun --mpi=pmi2), MVAPICH, Hydra and Cray ALPS
  // launchers; srun of several tasks.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                           "MV2_COMM_WORLD_SIZE", "MPI_LOCALNRANKS", "ALPS_APP_PE"})
    if (set(name)) return true;
  return set("SLURM_STEP_NUM_TASKS") && std::atoi(std::getenv("SLURM_STEP_NUM_TASKS")) > 1;
}

// Open MPI keeps part of what it allocates (in MPI_Init, and on the first use of a plugin) until
// the process ends, much of it in plugins it unloads first, where a leak report cannot even name
// the allocation. Under AddressSanitizer (scripts/sanitize.sh) what the MPI calls allocate is
// left out of the leak check, so that a leak reported is one of chaindem's.
struct MpiAllocationsNotLeaks {
#ifdef __SANITIZE_ADDRESS__
  __lsan::ScopedDisabler disabled;
#endif
};

int reduce(bool active, int x, MPI_Op op) {
  if (!active) return x;
  [[maybe_unused]] const MpiAllocationsNotLeaks not_leaks;
  int y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD);
  return y;
}
}  // namespace

Ranks::Ranks() : active_(launched_by_mpi()) {
  if (!active_) return;
  int provided = 0;
  [[maybe_unused]] const MpiAllocationsNotLeaks not_leaks;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
}
Ranks::~Ranks() {
  [[maybe_unused]] const MpiAllocationsNotLeaks not_leaks;
  if (active_) MPI_Finalize();
}
int Ranks::max(int x) const {
  return reduce(active_, x, MPI_MAX);
}
int Ranks::sum(int x) const {
  return reduce(active_, x, MPI_SUM);
}
void Ranks::barrier() const {
  [[maybe_unused]] const MpiAllocationsNotLeaks not_leaks;
  if (active_) MPI_Barrier(MPI_COMM_WORLD);
}
void Ranks::gather_string(int owner, std::string& text) const {
  if (!active_ || owner == 0) return;
  [[maybe_unused]] const MpiAllocationsNotLeaks not_leaks;
  if (rank == owner) {
    const int len = static_cast<int>(text.size());
    MPI_Send(&len, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (len) MPI_Send(text.data(), len, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
  } else if (rank == 0) {
    int len = 0;
    MPI_Recv(&len, 1, MPI_INT, owner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    text.resize(static_cast<std::size_t>(len));
    if (len) MPI_Recv(text.data(), len, MPI_CHAR, owner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}
#else
Ranks::Ranks() = default;
Ranks::~Ranks() = default;
int Ranks::max(int x) const {
  return x;
}
int Ranks::sum(int x) const {
  return x;
}
void Ranks::barrier() const {}
void Ranks::gather_string(int, std::string&) const {}
#endif

}  // namespace chaindem::sweep
