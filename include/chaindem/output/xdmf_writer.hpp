#pragma once
// An XDMF file beside a run's HDF5 file, so ParaView (and VisIt) open the bead trajectories
// directly: a temporal collection of point clouds whose positions, velocities, forces and radii
// are hyperslabs of the H5MD datasets (no data is copied).

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "chaindem/output/output_layout.hpp"

namespace chaindem {

/// Writes to `x` the XDMF file of a run's HDF5 file, which it names `h5_file_name` (a name
/// relative to the XDMF file: keep the two together). H5mdWriter writes it beside the run's
/// file and commits the two together. The first particle column (position) places the points;
/// the other particle columns in `output` are their vectors; `particles` counts the run's, of
/// which the file holds those `output` selects (scalars along x, at (x, 0, 0), when
/// the file holds x alone).
void write_xdmf(std::ostream& x, const std::string& h5_file_name,
                const std::vector<double>& frame_times, std::int64_t particles,
                const layout::OutputSelection& output);

/// The size of that file for `frames` frames of `particles` particles [bytes], within a few
/// percent: what a run states before it starts.
std::size_t xdmf_bytes(std::int64_t frames, std::int64_t particles,
                       const layout::OutputSelection& output);

/// The XDMF path for an HDF5 output path: the same name with .xdmf.
std::string xdmf_path_for(const std::string& h5_path);

}  // namespace chaindem
