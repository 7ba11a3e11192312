#pragma once
// `chaindem sweep SWEEP.ini`: a base case plus axes over any case keys, run in parallel
// (OpenMP threads, and MPI ranks when built with CHAINDEM_MPI), collected in one HDF5 file.
//
// Each case runs single-threaded; finished cases go into OUT.h5.partial as they complete, each
// in its own group, while the others keep computing (HDF5 calls hold one lock, computation
// does not; frames are buffered in memory in between). A killed sweep keeps its finished cases:
// rerunning the same command reopens the partial file, drops any half-written case and runs the
// rest; the file is renamed OUT.h5 only when every case is in it and the summary is written.
// With MPI each rank writes its own OUT.h5.rankR-of-N.partial and rank 0 merges them at the end
// (per-rank files rather than parallel HDF5: Debian's HDF5 is the serial build, and a rank never
// waits for another until the merge).

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 invalid input, 1 a case failed, 128+signal).
int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
