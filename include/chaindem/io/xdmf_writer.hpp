#pragma once
// An XDMF file beside a run's HDF5 file, so ParaView (and VisIt) open the bead trajectories
// directly: a temporal collection of point clouds whose positions, velocities, forces and radii
// are hyperslabs of the H5MD datasets (no data is copied).

#include <cstdint>
#include <string>
#include <vector>

namespace chaindem {

/// Writes `xdmf_path` describing `h5_path` (referenced by its file name, so keep them together).
void write_xdmf(const std::string& h5_path, const std::string& xdmf_path,
                const std::vector<double>& frame_times, std::int64_t particles);

/// The XDMF path for an HDF5 output path: the same name with .xdmf.
std::string xdmf_path_for(const std::string& h5_path);

}  // namespace chaindem
