// Case to scene: build_run calls the set-up's steps in order (setup_parts.hpp lists them and
// their files), then chooses the engine and the output.

#include "chaindem/setup/scene_builder.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "chaindem/setup/output_beads.hpp"
#include "chaindem/text.hpp"  // number_text
#include "setup_parts.hpp"

namespace chaindem {
namespace setup {
namespace {

// The time series the output writes: output.quantities, without the contacts' when
// output.contacts is false.
layout::OutputSelection output_selection(const Case& c) {
  const OutputSpec& s = c.spec().output;
  layout::OutputSelection selection;
  try {
    selection = layout::selection_of(s.quantities);
  } catch (const std::invalid_argument& e) {
    c.fail(s.quantities, e.what());
  }
  if (!s.contacts)
    for (const layout::ContactColumn& column : layout::contact_columns)
      selection = selection.without(column.id);
  return selection;
}

// The interval of each group of series (output.particles_interval, ...): a whole number of the
// output frames, which the run writes every run.output_every steps.
void set_group_intervals(const Case& c, RunSetup& run) {
  const OutputSpec& s = c.spec().output;
  const double frame = static_cast<double>(run.output_every) * run.settings.time_step;
  const std::pair<const double*, layout::SeriesGroup> groups[] = {
      {&s.particles_interval, layout::SeriesGroup::particles},
      {&s.observables_interval, layout::SeriesGroup::observables},
      {&s.contacts_interval, layout::SeriesGroup::contacts}};
  for (const auto& [interval, group] : groups) {
    if (*interval == 0.0) continue;
    const double frames = *interval / frame;
    const auto whole = std::llround(frames);
    if (whole >= 1 && std::abs(frames - static_cast<double>(whole)) <= 1e-9 * frames) {
      run.output = run.output.with_every(group, whole);
      continue;
    }
    const double below = std::max(1.0, std::floor(frames)), above = below + 1.0;
    c.fail(*interval, "is " + number_text(*interval) +
                          " s, not a whole number of output frames, which come every " +
                          number_text(frame) + " s (" + std::to_string(run.output_every) +
                          " steps of " + number_text(run.settings.time_step) + " s): give " +
                          number_text(below * frame) + " or " + number_text(above * frame) +
                          " s, or 0 for every frame");
  }
}

// Output frames and file, and the beads watched for the pulse's arrival.
void set_output(const Case& c, RunSetup& run) {
  const OutputSpec& s = c.spec().output;
  const SimulationSettings& settings = run.settings;
  if (s.every > 0 && s.interval > 0.0)
    c.fail(s.every, "is " + std::to_string(s.every) + " and " + c.key(s.interval) + " is " +
                        number_text(s.interval) +
                        ": frames come by one of them; set the other to 0");
  if (s.every > 0) {  // frames every so many steps: their interval follows
    run.output_every = static_cast<std::int64_t>(s.every);
    run.output_interval = static_cast<double>(s.every) * settings.time_step;
    run.output_interval_note.clear();
  } else {
    run.output_every =
        std::max<std::int64_t>(1, std::llround(run.output_interval / settings.time_step));
  }
  set_group_intervals(c, run);
  // A filter that is a plugin may be missing: refused here, before anything runs.
  if (const std::string problem = compression_unavailable(s.compression); !problem.empty())
    c.fail(s.compression, problem);
  if (s.file) {
    run.output_file = *s.file;
    if (run.output_file.empty()) c.fail(s.file, "is empty");
  }
  // Checked here, with the rest of the case, so that a run or a sweep refuses a bead outside the
  // chain before anything runs.
  const long long count = run.scene.chain_count;
  for (const double b : s.arrival_beads) {
    auto bead = [b] {
      std::ostringstream text;
      text << b;
      return text.str();
    };
    if (b != std::floor(b)) c.fail(s.arrival_beads, "bead " + bead() + " is not a whole number");
    const double k = b < 0 ? static_cast<double>(count) + b : b;
    if (k < 0 || k >= static_cast<double>(count))
      c.fail(s.arrival_beads, "bead " + bead() + " is not in the chain of " +
                                  std::to_string(count) + " beads (0.." +
                                  std::to_string(count - 1) + ", or -1..-" + std::to_string(count) +
                                  " from the end)");
    run.arrival_beads.push_back(static_cast<long long>(k));
  }
}

// Neighbour skin, threads and engine.
void set_engine(const Case& c, RunSetup& run) {
  const SimulationSpec& s = c.spec().simulation;
  SimulationSettings& settings = run.settings;
  settings.skin = s.skin;
  if (settings.skin == 0.0) settings.skin = 0.2 * run.scene.particles.radius.minCoeff();
  settings.threads = s.threads;
  if (settings.threads == 0) settings.threads = default_threads();
  settings.engine = s.engine;
  if (settings.engine == SimulationSettings::EngineChoice::chain && !forms_chain(run.scene))
    c.fail(s.engine,
           "is chain, but the particles do not form a chain on the x axis (extra particles "
           "off the axis, or gravity across it): use auto or general");
}

// Where the bodies and walls are, as the time step needs it.
struct Layout {
  std::vector<double> separation;  ///< of consecutive bodies (negative: overlap); [0] unused
  WallSlots walls;
  ChainIndices at{};
  bool from_data = false;  ///< initial.file placed the bodies
};

// The bodies and walls, placed: by the case, or from data (initial.file); loads and extra
// particles; every placement checked.
Layout lay_out(const Case& c, RunSetup& run, const MaterialIndex& materials, const ChainPlan& chain,
               bool striker) {
  Scene& scene = run.scene;
  Layout layout;
  WallSlots& walls = layout.walls;
  ChainIndices& at = layout.at;
  std::vector<double>& separation = layout.separation;
  const std::vector<ExtraParticle> extra = parse_extra(c);
  check_memory(c, run, chain,
               static_cast<std::size_t>(chain.count) + (striker ? 1 : 0) + extra.size(),
               output_selection(c));
  const std::vector<Body> bodies = chain_bodies(c, materials, chain, striker);
  at = add_bodies(scene, bodies, extra.size(), striker, chain.count);
  // A state from data replaces the bodies' set-up: their places, velocities, and where given
  // radii and materials.
  const std::optional<InitialState> initial =
      read_initial(c, run, striker, chain.count, extra.size());
  const InitialState* data = initial ? &*initial : nullptr;
  if (data)
    for (Eigen::Index k = 0; k < at.bodies; ++k) set_from_data(scene, *data, k);
  walls = add_walls(c, materials, scene);
  for (const WallSpec* w : {&c.spec().wall_start, &c.spec().wall_end})  // read, never written
    if (w->enabled && w->motion == WallMotion::table && w->table)
      run.input_files.push_back(resolve_initial_path(*w->table, c.config().origin()));
  if (const ChainSpec& s = c.spec().chain;
      s.end_force_motion == WallMotion::table && s.end_force_table)
    run.input_files.push_back(resolve_initial_path(*s.end_force_table, c.config().origin()));
  // The end load pushes the last bead towards the start, against wall_start; with only wall_end,
  // it pushes the first bead towards the end instead (a striker then hits the loaded chain).
  const bool load_towards_end = walls.end && !walls.start;
  if (chain.static_overlap) check_load_wall(c, walls, striker, load_towards_end);
  if (data) {
    separation = data_separations(c, scene.particles, *data, at.bodies);
    place_walls_on_data(c, run, walls, chain, load_towards_end, at, *data);
  } else {
    separation = surface_separations(c, run, chain, at, striker);
    const double x = place_bodies(scene.particles, separation, at.bodies);
    place_walls(c, run, walls, chain, load_towards_end, at, x);
  }
  apply_loads(c, scene, chain.end_force, load_towards_end, at);
  add_extra_particles(c, materials, scene, extra, at.bodies, data);
  check_wall_sides(c, scene, at.bodies, data);
  check_extent(c, scene, striker, at.bodies, data != nullptr);
  layout.from_data = data != nullptr;
  return layout;
}

// The largest load an end contact may carry over the run: end_force, and the largest change of
// its drive (the contact time scales count it at its static overlap).
double largest_end_load(const RunSetup& run, const ChainPlan& chain) {
  double load = chain.end_force;
  for (const DrivenLoad& l : run.scene.driven_loads)
    load += l.motion.largest_displacement(run.duration);
  return load;
}

}  // namespace
}  // namespace setup

void refuse_accuracy(const CaseConfig& cfg, const RunSetup& run, std::string_view command) {
  if (!(run.spec.simulation.accuracy > 0.0)) return;
  cfg.fail("simulation.accuracy",
           "chooses the step of a run of its own (`chaindem run`, chaindem.run()) from a first "
           "run; `chaindem " +
               std::string(command) +
               "` runs its cases at the step they give: use simulation.steps_per_contact");
}

RunSetup build_run(const CaseConfig& cfg, const BuildOptions& options) {
  using namespace setup;
  const Case c(cfg);
  RunSetup run;
  run.spec = c.spec();
  Scene& scene = run.scene;
  SimulationSettings& settings = run.settings;
  const MaterialIndex materials = add_materials(c, scene);
  settings.law = &resolve_law(c, settings.law_params, options.ignore_foreign_law_params, run);
  settings.tension = c.spec().contact.tension.value_or(settings.law->tension);
  resolve_contact_table(c, materials, options.ignore_foreign_law_params, run);
  const ChainPlan chain = read_chain(c, materials, scene);
  const bool striker = has_striker(c);
  const Layout layout = lay_out(c, run, materials, chain, striker);

  set_engine(c, run);
  run.chain_engine =
      settings.engine != SimulationSettings::EngineChoice::general &&
      (settings.engine == SimulationSettings::EngineChoice::chain || forms_chain(scene));
  run.duration = c.spec().simulation.duration;
  const std::vector<TimeScalePair> time_scale_pairs = contact_time_scales(
      c, run, layout.separation, layout.walls, largest_end_load(run, chain), layout.at);
  check_gravity(c, scene, run.duration);
  const double speed = largest_relative_speed(scene, run.duration);
  set_contact_policies(c, settings, speed);
  const auto speed_key = [&] { return fastest_key(c, scene, run.duration, layout.from_data); };
  add_plausibility_notes(c, run, speed, speed_key);
  run.output = output_selection(c);
  try {
    const auto striker_index = scene.striker ? static_cast<std::int64_t>(*scene.striker) : -1;
    run.output = run.output.with_particles(output_particles(c.spec().output.beads, striker_index,
                                                            scene.chain_first, scene.chain_count,
                                                            scene.particles.size()));
  } catch (const std::invalid_argument& e) {
    c.fail(c.spec().output.beads, e.what());
  }
  if (c.spec().output.dimension == OutputDimension::automatic)
    run.output = run.output.with_components(automatic_components(run));
  run.output_interval = output_interval_within_budget(c, run);
  choose_time_step(c, run, time_scale_pairs, speed, speed_key, options.steps_per_contact);
  set_output(c, run);
  run.memory_estimate = estimated_peak_memory(run);
  run.estimate = estimate_output(run);
  check_output_budget(c, run);
  return run;
}

}  // namespace chaindem
