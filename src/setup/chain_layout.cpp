// The set-up's layout step: materials, striker, beads, walls and extra particles, made from the
// case, placed along +x and checked (setup_parts.hpp).

#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "chaindem/engine/huge_pages.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {
namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The material `key` names; an unknown one is an error that lists those defined.
int material_of(const Case& c, const MaterialIndex& materials, const std::string& key,
                const std::string& name) {
  const auto it = materials.find(name);
  const std::vector<std::string>& defined = c.config().materials();
  if (it == materials.end())
    c.config().fail(key, "material '" + quoted_text(name) + "' is not defined (defined: " +
                             (defined.empty() ? std::string("none; add a [material.") +
                                                    quoted_text(name) + "] section"
                                              : joined(defined)) +
                             ")");
  return it->second;
}

// "beads 3 and 4": the contact of body k with the one before it ("the striker and bead 0").
std::string beads_text(const ChainIndices& at, Eigen::Index k) {
  const Eigen::Index bead = k - at.first_bead;
  return bead == 0 ? "the striker and bead 0"
                   : "beads " + std::to_string(bead - 1) + " and " + std::to_string(bead);
}

// Refuses chain.overlap, `overlap` beyond max_initial_strain of the contact's R*, and says what
// it would be in millimetres when that is within it.
[[noreturn]] void refuse_overlap(const Case& c, double overlap, double r_star,
                                 const std::string& between) {
  const double given = c.spec().chain.overlap;
  std::string what = "overlap " + overlap_strain_text(overlap, r_star) + " (" + between +
                     "): " + initial_strain_bound_text(r_star);
  if (!beyond_initial_strain(given * 1e-3, r_star))
    what += "; did you mean " + number_text(given) + " mm = " + rounded_text(given * 1e-3) +
            " m? Case files are in SI units";
  c.fail(c.spec().chain.overlap, what);
}

}  // namespace

MaterialIndex add_materials(const Case& c, Scene& scene) {
  MaterialIndex index;
  for (const auto& [name, spec] : c.spec().materials) {
    index[name] = static_cast<int>(scene.materials.size());
    scene.materials.push_back(
        {name, spec.youngs_modulus, spec.poisson_ratio, spec.density, spec.yield_stress});
  }
  return index;
}

ChainPlan read_chain(const Case& c, const MaterialIndex& materials, Scene& scene) {
  const ChainSpec& s = c.spec().chain;
  ChainPlan chain;
  chain.count = static_cast<Eigen::Index>(s.count);
  // A list is a pattern repeated along the chain, which may end within it (a dimer chain of an
  // odd count ends with the kind it starts with); entries the chain never reaches are not what
  // the list says.
  auto along_chain = [&](const auto& field, const auto& list) {
    const std::string key = c.key(field);
    if (list.period() > chain.count)
      c.config().fail(key, std::to_string(list.period()) + " entries for a chain of " +
                               std::to_string(chain.count) + " beads (" + c.key(s.count) +
                               "): allowed 1 to " + std::to_string(chain.count) +
                               " entries, a pattern repeated along the chain (one: every bead; " +
                               std::to_string(chain.count) + ": one per bead)");
    try {
      return list.resolved(chain.count);
    } catch (const std::invalid_argument& e) {
      c.config().fail(key, e.what());
    }
  };
  chain.radii = along_chain(s.radii, s.radii);
  chain.velocity = s.velocity ? along_chain(s.velocity, *s.velocity) : parse_bead_numbers("0");
  const std::string materials_key = c.key(s.materials);
  chain.materials = along_chain(s.materials, s.materials).map([&](const std::string& name) {
    return material_of(c, materials, materials_key, name);
  });
  chain.taper = s.taper;
  chain.gap = s.gap;
  chain.overlap = s.overlap;
  chain.end_force = s.end_force;
  chain.static_overlap = s.static_overlap;
  chain.held_by_walls = s.held_by_walls;
  if (chain.held_by_walls && !chain.static_overlap)
    c.fail(s.held_by_walls, "= walls needs " + c.key(s.static_overlap) +
                                " = true (the walls start at the overlaps that carry " +
                                c.key(s.end_force) + ")");
  scene.cylinder_length = s.cylinder_length;
  if (chain.gap > 0 && chain.overlap > 0)
    c.fail(s.overlap, "cannot be combined with " + c.key(s.gap) + " > 0");
  if (chain.static_overlap && !(chain.end_force > 0))
    c.fail(s.static_overlap,
           "needs " + c.key(s.end_force) + " > 0 (the force the overlap carries)");
  if (chain.static_overlap && (chain.gap > 0 || chain.overlap > 0))
    c.fail(s.static_overlap, "cannot be combined with " + c.key(s.gap) + " or " + c.key(s.overlap));
  return chain;
}

// Striker: present when its velocity is given.
bool has_striker(const Case& c) {
  const StrikerSpec& s = c.spec().striker;
  if (!s.velocity)
    for (const std::string& key : {c.key(s.material), c.key(s.radius)})
      if (c.config().given(key))
        c.fail(s.velocity, "is missing, but " + key + " is given (the velocity adds the striker)");
  return s.velocity && s.enabled;
}

// Parses "material radius x y z vx vy vz; ..." records.
std::vector<ExtraParticle> parse_extra(const Case& c) {
  const std::optional<std::string>& particles = c.spec().extra.particles;
  std::vector<ExtraParticle> out;
  if (!particles) return out;
  std::stringstream all(*particles);
  std::string record;
  while (std::getline(all, record, ';')) {
    std::istringstream r(record);
    std::vector<std::string> fields;
    for (std::string field; r >> field;) fields.push_back(field);
    if (fields.empty()) continue;  // empty record
    if (fields.size() > 8)
      c.fail(particles, "record '" + quoted_text(record) + "' has extra fields");
    ExtraParticle e;
    e.material = fields[0];
    double* numbers[] = {&e.radius, &e.x.x(), &e.x.y(), &e.x.z(), &e.v.x(), &e.v.y(), &e.v.z()};
    for (std::size_t k = 0; k < 7; ++k) {
      const NumberText read = k + 1 < fields.size() ? read_number(fields[k + 1], *numbers[k])
                                                    : NumberText::not_a_number;
      if (read != NumberText::number)
        c.fail(particles,
               "record '" + quoted_text(record) + "' is not 'material radius x y z vx vy vz'" +
                   (k + 1 < fields.size() ? ": " + number_problem(fields[k + 1], read) : ""));
    }
    std::ostringstream bounds;
    bounds << "record '" << quoted_text(record) << "': ";
    if (!(e.radius >= min_radius && e.radius <= max_radius)) {
      bounds << "radius " << e.radius << " m outside [" << min_radius << ", " << max_radius
             << "] m";
      c.fail(particles, bounds.str());
    }
    if (!(e.v.norm() <= max_speed)) {
      bounds << "speed " << e.v.norm() << " m/s above " << max_speed << " m/s";
      c.fail(particles, bounds.str());
    }
    out.push_back(e);
  }
  return out;
}

// The striker and the beads, left to right along +x.
std::vector<Body> chain_bodies(const Case& c, const MaterialIndex& materials,
                               const ChainPlan& chain, bool striker) {
  const StrikerSpec& s = c.spec().striker;
  std::vector<Body> bodies;
  reserve_on_huge_pages(bodies, static_cast<std::size_t>(chain.count) + (striker ? 1 : 0));
  if (striker) {
    const int m = s.material ? material_of(c, materials, c.key(s.material), *s.material)
                             : chain.materials.at(0);
    bodies.push_back({s.radius.value_or(chain.radii.at(0)), m, *s.velocity});
  }
  for (Eigen::Index k = 0; k < chain.count; ++k) {
    const double r = chain.taper == 1.0
                         ? chain.radii.at(k)  // the same, without a power per bead
                         : chain.radii.at(k) * std::pow(chain.taper, static_cast<double>(k));
    if (!(r >= min_radius && r <= max_radius)) {  // chain.radii is in range: the taper took it out
      std::ostringstream m;
      m << chain.taper << " makes bead " << k << " radius " << r << " m, outside [" << min_radius
        << ", " << max_radius << "] m";
      c.fail(c.spec().chain.taper, m.str());
    }
    bodies.push_back({r, chain.materials.at(k), chain.velocity.at(k)});
  }
  return bodies;
}

// The bodies become the first particles, all at the origin until they are placed; room is made
// for `extra` particles after them.
ChainIndices add_bodies(Scene& scene, const std::vector<Body>& bodies, std::size_t extra,
                        bool striker, Eigen::Index count) {
  Particles& p = scene.particles;
  p.resize(static_cast<Eigen::Index>(bodies.size() + extra));
  for (std::size_t k = 0; k < bodies.size(); ++k)
    p.set(static_cast<Eigen::Index>(k), Eigen::Vector3d::Zero(),
          Eigen::Vector3d(bodies[k].velocity, 0, 0), bodies[k].radius, bodies[k].material,
          density_of(scene, bodies[k].material), scene.cylinder_length);
  if (striker) scene.striker = 0;
  scene.chain_first = striker ? 1 : 0;
  scene.chain_count = count;
  const auto n_bodies = static_cast<Eigen::Index>(bodies.size());
  return {n_bodies, scene.chain_first, n_bodies - 1};
}

WallSlots add_walls(const Case& c, const MaterialIndex& materials, Scene& scene) {
  WallSlots slots;
  for (const auto& [name, spec, slot, normal] :
       {std::tuple{"wall_start", &c.spec().wall_start, &slots.start, 1.0},
        std::tuple{"wall_end", &c.spec().wall_end, &slots.end, -1.0}}) {
    if (!spec->enabled) continue;  // its other keys may stay: enabling is one switch
    if (!spec->material) c.fail(spec->material, "is missing (the wall is enabled)");
    Wall wall;
    wall.name = name;
    wall.material = material_of(c, materials, c.key(spec->material), *spec->material);
    wall.normal = Eigen::Vector3d(normal, 0, 0);
    wall.velocity = Eigen::Vector3d(spec->velocity, 0, 0);
    wall.motion = wall_motion(c, *spec, normal, c.spec().simulation.duration);
    *slot = scene.walls.size();
    scene.walls.push_back(wall);
    slots.gap.push_back(spec->gap);
  }
  return slots;
}

// A static overlap needs a wall to carry the end force, on the side the load pushes towards.
void check_load_wall(const Case& c, const WallSlots& walls, bool striker, bool load_towards_end) {
  const ChainSpec& s = c.spec().chain;
  if (s.held_by_walls) {
    if (!walls.start || !walls.end)
      c.fail(s.held_by_walls,
             "= walls needs both walls enabled (wall_start.enabled and "
             "wall_end.enabled): they squeeze the chain between them");
    if (striker)
      c.fail(s.held_by_walls,
             "= walls leaves no room for a striker: wall_start touches bead 0 "
             "(disable the striker, or drive wall_start)");
    return;
  }
  if (!load_towards_end && !walls.start)
    c.fail(s.static_overlap, "needs a wall that carries " + c.key(s.end_force) +
                                 ": wall_start (the load pushes the last bead towards it) or "
                                 "wall_end alone (the load pushes the first bead towards it)");
  if (!load_towards_end && striker)
    c.fail(s.static_overlap,
           "with a striker the load must push towards wall_end: enable wall_end only");
}

// Surface separation between consecutive bodies (negative: overlap); entry 0 is unused.
std::vector<double> surface_separations(const Case& c, const RunSetup& run, const ChainPlan& chain,
                                        const ChainIndices& at, bool striker) {
  const Scene& scene = run.scene;
  const Particles& p = scene.particles;
  std::vector<double> separation;
  resize_on_huge_pages(separation, static_cast<std::size_t>(at.bodies));
  ContactPreparer contacts;
  for (Eigen::Index k = 1; k < at.bodies; ++k) {
    const bool after_striker = k == at.first_bead && striker;
    double s = after_striker ? c.spec().striker.gap : chain.gap - chain.overlap;
    if (chain.static_overlap && k > at.first_bead)
      s = -checked_static_overlap(c, contacts.pair(c, run, k - 1, k), chain.end_force,
                                  beads_text(at, k));
    else if (const double r_star = p.radius(k - 1) * p.radius(k) / (p.radius(k - 1) + p.radius(k));
             beyond_initial_strain(-s, r_star))
      refuse_overlap(c, -s, r_star, beads_text(at, k));  // the gaps are >= 0: chain.overlap's
    separation[static_cast<std::size_t>(k)] = s;
  }
  return separation;
}

// Places the bodies along x, the first body's surface at x = 0; returns the last one's centre.
double place_bodies(Particles& p, const std::vector<double>& separation, Eigen::Index bodies) {
  double x = p.radius(0);
  for (Eigen::Index k = 0; k < bodies; ++k) {
    if (k > 0) x += p.radius(k - 1) + separation[static_cast<std::size_t>(k)] + p.radius(k);
    p.position(k, 0) = x;
  }
  return x;
}

// Each wall at its gap from the body beside it, or, the wall that carries the end load under a
// static overlap, at the overlap carrying it. `x`: the last body's centre.
void place_walls(const Case& c, RunSetup& run, const WallSlots& walls, const ChainPlan& chain,
                 bool load_towards_end, const ChainIndices& at, double x) {
  Scene& scene = run.scene;
  if (walls.start) {  // first body surface at x = 0
    const double s = chain.wall_carries(true, load_towards_end)
                         ? -checked_static_overlap(c, prepare_wall(c, run, 0, *walls.start),
                                                   chain.end_force, "bead 0 and wall_start")
                         : walls.gap[*walls.start];
    scene.walls[*walls.start].point = Eigen::Vector3d(-s, 0, 0);
  }
  if (walls.end) {
    const double s =
        chain.wall_carries(false, load_towards_end)
            ? -checked_static_overlap(
                  c, prepare_wall(c, run, at.last_bead, *walls.end), chain.end_force,
                  "bead " + std::to_string(at.last_bead - at.first_bead) + " and wall_end")
            : walls.gap[*walls.end];
    scene.walls[*walls.end].point =
        Eigen::Vector3d(x + scene.particles.radius(at.last_bead) + s, 0, 0);
  }
}

// The end force on the end bead the load pushes from, its drive along the same line, and
// gravity.
void apply_loads(const Case& c, Scene& scene, double end_force, bool load_towards_end,
                 const ChainIndices& at) {
  const Eigen::Index bead = load_towards_end ? at.first_bead : at.last_bead;
  const double along = load_towards_end ? 1.0 : -1.0;
  if (!c.spec().chain.held_by_walls)  // else the walls carry it
    scene.particles.set_load(bead, {along * end_force, 0.0, 0.0});
  if (Motion drive = end_load_motion(c, c.spec().simulation.duration); !drive.at_rest())
    scene.driven_loads.push_back({bead, {along, 0.0, 0.0}, std::move(drive)});
  const auto& g = c.spec().gravity.acceleration;
  scene.gravity = Eigen::Vector3d(g[0], g[1], g[2]);
}

// Extra particles off the chain, as the case or the data give them; none may sit deep inside
// another sphere.
void add_extra_particles(const Case& c, const MaterialIndex& materials, Scene& scene,
                         const std::vector<ExtraParticle>& extra, Eigen::Index bodies,
                         const InitialState* data) {
  const CaseSpec& s = c.spec();
  Particles& p = scene.particles;
  const std::string extra_key = c.key(s.extra.particles);  // once: a lookup walks the keys
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const int m = material_of(c, materials, extra_key, extra[k].material);
    const Eigen::Index e = bodies + static_cast<Eigen::Index>(k);
    p.set(e, extra[k].x, extra[k].v, extra[k].radius, m, density_of(scene, m),
          scene.cylinder_length);
    if (data) set_from_data(scene, *data, e);
    for (Eigen::Index j = 0; j < e; ++j) {
      const double dist = std::sqrt((p.position.row(e) - p.position.row(j)).square().sum());
      if (p.radius(e) + p.radius(j) - dist < 0.5 * std::min(p.radius(e), p.radius(j))) continue;
      if (data)
        c.fail(s.initial.file, data->where(e) + " (extra particle " + std::to_string(k) +
                                   ") overlaps body " + std::to_string(j) +
                                   " by half its radius or more");
      c.fail(s.extra.particles, "sphere " + std::to_string(k) + " overlaps particle " +
                                    std::to_string(j) + " by half its radius or more");
    }
  }
}

// A particle may not start behind a wall (an infinite plane: it would never meet the chain), nor
// pressed into one by half its radius or more, as for two spheres.
// Bodies from data are all checked.
void check_wall_sides(const Case& c, const Scene& scene, Eigen::Index bodies,
                      const InitialState* data) {
  const Particles& p = scene.particles;
  for (Eigen::Index e = data ? 0 : bodies; e < p.size(); ++e)
    for (const Wall& wall : scene.walls) {
      const double distance =
          (p.position.row(e).transpose().matrix() - wall.point).dot(wall.normal);
      if (distance >= 0.5 * p.radius(e)) {
        // A body from data may not start pressed into a wall beyond the laws' range either.
        if (const double overlap = p.radius(e) - distance;
            data && beyond_initial_strain(overlap, p.radius(e)))
          c.fail(c.spec().initial.file, data->where(e) + " is pressed into " + wall.name + " by " +
                                            overlap_strain_text(overlap, p.radius(e)) + ": " +
                                            initial_strain_bound_text(p.radius(e)));
        continue;
      }
      std::ostringstream m;
      if (data)
        m << data->where(e);
      else
        m << "sphere " << e - bodies;
      m << " at x = " << p.position(e, 0) << " m is "
        << (distance < 0.0 ? "behind " : "pressed by half its radius or more into ") << wall.name
        << " (the wall's face is at x = " << wall.point.x() << " m and faces "
        << (wall.normal.x() > 0.0 ? "+x" : "-x") << ")";
      if (data) c.fail(c.spec().initial.file, m.str());
      c.fail(c.spec().extra.particles, m.str());
    }
}

// Every body within max_extent_in_radii smallest radii of the origin, where doubles still
// resolve the overlaps; the message names the key that put a body further out.
void check_extent(const Case& c, const Scene& scene, bool striker, Eigen::Index bodies,
                  bool from_data) {
  const CaseSpec& s = c.spec();
  const Particles& p = scene.particles;
  const double r_min = p.radius.minCoeff();
  const double limit = max_extent_in_radii * r_min;
  double extent = p.position.abs().maxCoeff();
  for (const Wall& wall : scene.walls) extent = std::max(extent, wall.point.cwiseAbs().maxCoeff());
  if (extent <= limit) return;
  std::string key = c.key(s.chain.count);  // a long chain, if no single gap or particle is to blame
  if (p.size() > bodies && p.position.bottomRows(p.size() - bodies).abs().maxCoeff() > limit)
    key = c.key(s.extra.particles);
  if (from_data) key = c.key(s.initial.file);
  for (const double* gap : {&s.chain.gap, &s.wall_start.gap, &s.wall_end.gap, &s.striker.gap})
    if ((gap != &s.striker.gap || striker) && *gap > 0.1 * limit) key = c.key(*gap);
  std::ostringstream m;
  m << "places a body " << extent << " m from the origin, beyond " << limit << " m ("
    << max_extent_in_radii << " times the smallest radius, " << r_min
    << " m), where double-precision positions no longer resolve the overlaps of the contacts";
  c.config().fail(key, m.str());
}

}  // namespace chaindem::setup
