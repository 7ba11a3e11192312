#pragma once
// The initial state of a run from data (initial.file, initial.frame): the positions and
// velocities, and optionally the radii and materials, of every body the case builds, read from
// a CSV file or from one frame of a chaindem HDF5 output. docs/engine.md, "Starting from data".

#include <Eigen/Core>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/engine/scene.hpp"
#include "chaindem/setup/case_file.hpp"

namespace chaindem {

/// Invalid initial-state data: the message names the file, the line and column (CSV) or the
/// dataset and frame (HDF5), and what is allowed; `key` is the case key to blame
/// (initial.file, or initial.frame for a frame out of range).
struct InitialStateError : CaseError {
  InitialStateError(std::string key_, const std::string& what) : CaseError(what), key(key_) {}
  std::string key;
};

/// One state per body, in the order of the run's particles (/particles/chain of its output):
/// the striker, if any, the chain beads, then the extra particles.
struct InitialState {
  std::string file;      ///< the file read, as resolved (quoted in messages)
  bool hdf5 = false;     ///< an HDF5 output (else CSV)
  long long frame = -1;  ///< HDF5: the frame read, from 0
  long long frames = 0;  ///< HDF5: the frames of the file
  Vec3Array position;    ///< [m]
  /// CSV: what each position's text holds below the double's last digit
  /// (Particles::position_carry); empty: none [m]
  Vec3Array position_carry;
  Vec3Array velocity;     ///< [m/s]
  Eigen::ArrayXd radius;  ///< [m]; empty: the case's radii
  /// Index into the case's materials (CaseConfig::materials(), the order of Scene::materials);
  /// empty: the case's materials.
  std::vector<int> material;
  std::vector<long long> line;  ///< CSV: the line of each body's row (from 1)
  /// HDF5: each wall of the run, by name, where it was at the frame.
  std::map<std::string, Eigen::Vector3d> walls;
  /// HDF5: the run's striker and chain bead count (attributes of /particles/chain), if recorded.
  std::optional<long long> striker, chain_count;

  Eigen::Index size() const { return position.rows(); }
  /// Where body `i` is in the data, for messages: "'F', line 7 (body 5)" or "'F', frame 3,
  /// body 5".
  std::string where(Eigen::Index i) const;
};

/// The path `value` of initial.file names: as given when absolute, else relative to the directory
/// of the case file `case_origin`.
std::string resolve_initial_path(const std::string& value, const std::string& case_origin);

/// True when `path` is read as an HDF5 file: its name ends in .h5 or .hdf5, or it begins with the
/// HDF5 signature.
bool is_hdf5_path(const std::string& path);

/// Reads the state of every body from `path` (resolved): a CSV file, or frame `frame` of an HDF5
/// output (negative: from the end). `materials`: the case's material names, in the order of
/// Scene::materials. Every value is checked (finite, radius within [min_radius, max_radius],
/// speed at most max_speed, material defined); throws InitialStateError at the first problem.
/// The HDF5 calls are serialised within the process.
InitialState read_initial_state(const std::string& path, long long frame,
                                const std::vector<std::string>& materials);

}  // namespace chaindem
