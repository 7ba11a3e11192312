// The set-up's data step: a state read from initial.file in place of the case's own placing of
// the bodies, checked against the case (setup_parts.hpp).

#include <filesystem>
#include <string>

#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {
namespace {

// The bodies the case builds, for messages: "the striker, 20 chain beads and 2 extra particles".
std::string bodies_text(bool striker, Eigen::Index count, std::size_t extra) {
  std::vector<std::string> parts;
  if (striker) parts.emplace_back("the striker");
  parts.push_back(std::to_string(count) + " chain bead" + (count == 1 ? "" : "s"));
  if (extra > 0)
    parts.push_back(std::to_string(extra) + " extra particle" + (extra == 1 ? "" : "s"));
  std::string s;
  for (std::size_t k = 0; k < parts.size(); ++k)
    s += (k == 0 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
  return s;
}

// Without initial.file the case starts from its own set-up, and no frame may be chosen.
void check_no_frame(const Case& c) {
  const InitialSpec& s = c.spec().initial;
  // The default, -1, is what a run records of a case without initial.file: a case written from
  // those records runs.
  if (s.frame != -1)
    c.fail(s.frame, "is " + std::to_string(s.frame) + ", but " + c.key(s.file) +
                        " is not given: the frame is one of an HDF5 " + c.key(s.file) +
                        " (a chaindem output); give " + c.key(s.file) + ", or leave " +
                        c.key(s.frame) + " out");
}

// The data give one body for each the case builds, and the same bodies.
void check_bodies(const Case& c, const InitialState& data, const std::string& path, bool striker,
                  Eigen::Index count, std::size_t extra) {
  const auto& file = c.spec().initial.file;
  const Eigen::Index bodies = (striker ? 1 : 0) + count + static_cast<Eigen::Index>(extra);
  const std::string builds = "the case builds " + std::to_string(bodies) + " bod" +
                             (bodies == 1 ? "y" : "ies") + ": " +
                             bodies_text(striker, count, extra) + ", in this order";
  if (data.size() != bodies) {
    std::string held =
        data.hdf5 ? "frame " + std::to_string(data.frame) + " has " + std::to_string(data.size()) +
                        " bodies"
                  : "has " + std::to_string(data.size()) + " row" + (data.size() == 1 ? "" : "s");
    // Built by appending: g++ 12 warns (-Wrestrict) on a chain of + over these temporaries.
    std::string what = "'";
    what.append(quoted_path(path)).append("' ").append(held).append("; ").append(builds);
    what.append(" (one ").append(data.hdf5 ? "body" : "row").append(" for each)");
    c.fail(file, what);
  }
  // An output of the same number of bodies, but not the same bodies.
  if (data.striker && data.chain_count &&
      ((*data.striker >= 0) != striker || *data.chain_count != count))
    c.fail(file, "'" + quoted_path(path) + "' is the output of a run of " +
                     bodies_text(
                         *data.striker >= 0, *data.chain_count,
                         static_cast<std::size_t>(std::max<Eigen::Index>(
                             0, data.size() - (*data.striker >= 0 ? 1 : 0) - *data.chain_count))) +
                     "; " + builds);
}

}  // namespace

// Body `i` as the data give it: position and velocity, and radius and material where given
// (the mass follows from them).
void set_from_data(Scene& scene, const InitialState& data, Eigen::Index i) {
  Particles& p = scene.particles;
  const auto iu = static_cast<std::size_t>(i);
  const int m = data.material.empty() ? p.material[iu] : data.material[iu];
  const double r = data.radius.size() > 0 ? data.radius(i) : p.radius(i);
  p.set(i, data.position.row(i).matrix().transpose(), data.velocity.row(i).matrix().transpose(), r,
        m, density_of(scene, m), scene.cylinder_length);
  // Only carries that are not zero: the column takes memory only where written.
  if (data.position_carry.rows() > 0)
    for (Eigen::Index k = 0; k < 3; ++k)
      if (data.position_carry(i, k) != 0.0) p.position_carry(i, k) = data.position_carry(i, k);
}

// initial.file: the state of every body the case builds, read and checked against the case, or
// none when the case starts from its own set-up.
std::optional<InitialState> read_initial(const Case& c, RunSetup& run, bool striker,
                                         Eigen::Index count, std::size_t extra) {
  const InitialSpec& s = c.spec().initial;
  if (!s.file || s.file->empty()) {
    check_no_frame(c);
    return std::nullopt;
  }
  const std::string& given = *s.file;
  if (const auto& velocity = c.spec().chain.velocity; velocity)
    c.fail(velocity, "is given, but so is " + c.key(s.file) +
                         ", which gives every body's velocity: give one of them");
  const std::string path = resolve_initial_path(given, c.config().origin());
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    std::string what = "'";  // appended: see check_bodies
    what.append(quoted_path(given)).append("' does not exist");
    if (path != given)
      what.append(" (relative paths are read from the case file's directory: '")
          .append(quoted_path(path))
          .append("')");
    c.fail(s.file, what);
  }
  if (s.frame != -1 && !is_hdf5_path(path))
    c.fail(s.frame, "is " + std::to_string(s.frame) + ", but " + c.key(s.file) + " '" +
                        quoted_path(given) +
                        "' is read as CSV, which holds one state (frames are those of an HDF5 "
                        "output, .h5 or .hdf5): leave " +
                        c.key(s.frame) + " at -1");
  InitialState data;
  try {
    data = read_initial_state(path, s.frame, c.config().materials());
  } catch (const InitialStateError& e) {
    c.config().fail(e.key, e.what());
  }
  run.input_files.push_back(path);
  check_bodies(c, data, path, striker, count, extra);
  return data;
}

// Surface separation between consecutive bodies from data (negative: overlap); entry 0 is
// unused. No two may overlap beyond max_initial_strain.
std::vector<double> data_separations(const Case& c, const Particles& p, const InitialState& data,
                                     Eigen::Index bodies) {
  std::vector<double> separation(static_cast<std::size_t>(bodies), 0.0);
  for (Eigen::Index k = 1; k < bodies; ++k) {
    const double distance = std::sqrt((p.position.row(k) - p.position.row(k - 1)).square().sum());
    const double s = distance - p.radius(k - 1) - p.radius(k);
    const double r_star = p.radius(k - 1) * p.radius(k) / (p.radius(k - 1) + p.radius(k));
    if (beyond_initial_strain(-s, r_star))
      c.fail(c.spec().initial.file, data.where(k) + " overlaps body " + std::to_string(k - 1) +
                                        " by " + overlap_strain_text(-s, r_star) + ": " +
                                        initial_strain_bound_text(r_star));
    separation[static_cast<std::size_t>(k)] = s;
  }
  return separation;
}

// The walls of a state from data: an output's walls where they were at its frame; other walls
// at their gap from the outermost body surface on their side, or, the wall that carries the end
// load under a static overlap, at the overlap carrying it from the body beside it.
void place_walls_on_data(const Case& c, RunSetup& run, const WallSlots& walls,
                         const ChainPlan& chain, bool load_towards_end, const ChainIndices& at,
                         const InitialState& data) {
  Scene& scene = run.scene;
  const Particles& p = scene.particles;
  const auto chain_x = p.position.col(0).head(at.bodies);
  const auto chain_r = p.radius.head(at.bodies);
  for (const auto& [slot, start] : {std::pair{walls.start, true}, std::pair{walls.end, false}}) {
    if (!slot) continue;
    Wall& wall = scene.walls[*slot];
    if (const auto it = data.walls.find(wall.name); it != data.walls.end()) {
      wall.point = it->second;
      continue;
    }
    const Eigen::Index beside = start ? 0 : at.last_bead;
    // The wall's place from the outermost body's, to the last digit of both (its carry): a
    // chain far from the origin keeps its gap to the wall as at the origin.
    Eigen::Index outermost = beside;
    double shift = 0.0;  // from the outermost body's centre
    if (chain.wall_carries(start, load_towards_end)) {
      const double overlap = checked_static_overlap(
          c, prepare_wall(c, run, beside, *slot), chain.end_force,
          "bead " + std::to_string(beside - at.first_bead) + " and " + wall.name);
      shift = start ? overlap - p.radius(beside) : p.radius(beside) - overlap;
    } else {
      const double gap = walls.gap[*slot];
      if (start)
        (chain_x - chain_r).minCoeff(&outermost);
      else
        (chain_x + chain_r).maxCoeff(&outermost);
      shift = start ? -(p.radius(outermost) + gap) : p.radius(outermost) + gap;
    }
    double x = p.position(outermost, 0), below = p.position_carry(outermost, 0);
    add_exactly(x, below, shift);
    wall.point = Eigen::Vector3d(x, 0, 0);
    wall.point_carry = Eigen::Vector3d(below, 0, 0);
  }
}

}  // namespace chaindem::setup
