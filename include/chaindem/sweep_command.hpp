#pragma once
// `chaindem sweep SWEEP.ini`: a base case plus axes over any case keys, run in parallel
// (OpenMP threads, and MPI ranks when built with CHAINDEM_MPI), collected in one HDF5 file.
//
// Each case runs single-threaded into its own file under OUT.h5.cases/ (written as .partial and
// renamed when complete, so a killed sweep leaves only finished cases behind); a rerun of the
// same command skips them. When every case is done, rank 0 merges the case files into OUT.h5:
// /cases/case-NNNNNN (each the layout of `chaindem run`), /sweep (definition) and /summary (one
// row per case). Per-case files rather than parallel HDF5: any rank or thread writes only its own
// file, nothing is shared until the merge, and resuming needs no bookkeeping beyond the files.

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 invalid input, 1 a case failed, 128+signal).
int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
