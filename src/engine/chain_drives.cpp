// The chain engine's prescribed drives (chain_engine.hpp): where the walls are and how the driven
// loads change at each step of a pass, exact functions of time, and the work both do.
#include "chain_engine.hpp"

namespace chaindem::detail {

// A driven load acts on its particle through the particle's base force, set before each gather
// to the base without it plus its change at the step's end time: one store per loaded particle
// and step, none in the particle loops. Only the range that gathers the particle reads or writes
// it, step after step, whatever the thread.
void ChainEngine::set_driven_loads(std::size_t begin, std::size_t end, std::int64_t step) {
  const std::vector<DrivenLoad>& loads = state_.scene.driven_loads;
  for (std::size_t l = 0; l < loads.size(); ++l) {
    const auto i = static_cast<std::size_t>(loads[l].particle);
    if (i < begin || i >= end) continue;
    const double change = step < 0 ? loads[l].at(state_.time).x()
                                   : pass_load_[static_cast<std::size_t>(step) * loads.size() + l];
    base_force_x_[i] = load_base_[l] + change;
  }
}

// The power of each driven load's change once its particle has its velocity at the step's end.
void ChainEngine::note_load_power(std::size_t begin, std::size_t end, std::int64_t step) {
  const std::vector<DrivenLoad>& loads = state_.scene.driven_loads;
  if (step < 0) return;  // at construction: EngineState's load_power
  const double* v = state_.scene.particles.velocity.col(0).data();
  for (std::size_t l = 0; l < loads.size(); ++l) {
    const auto i = static_cast<std::size_t>(loads[l].particle);
    if (i < begin || i >= end) continue;
    const std::size_t at = static_cast<std::size_t>(step) * loads.size() + l;
    pass_load_power_[at] = pass_load_[at] * v[i];
  }
}

// Where each wall is at each step of a pass of `pass_steps` steps, how fast it moves along its
// normal, its mean speed over the step and its contacts' obliquity (pass_wall_point_,
// pass_wall_drive_), at the step's end time (n + s + 1) dt, and the walls' powers of the pass
// zeroed; the state's walls are left where the pass ends.
void ChainEngine::place_walls(std::size_t pass_steps) {
  const double dt = state_.settings.time_step;
  const std::size_t walls = state_.scene.walls.size();
  pass_wall_point_.resize(pass_steps * walls);
  pass_wall_drive_.resize(pass_steps * walls);
  pass_wall_power_.assign(pass_steps * state_.wall_contacts.size(), 0.0);
  for (std::size_t w = 0; w < walls; ++w) {
    // A wall at rest (most walls) is where it was: its place is copied, not evaluated, which
    // matters on short chains, where a step costs tens of nanoseconds.
    const Wall& wall = state_.scene.walls[w];
    const bool at_rest = wall.at_rest();
    for (std::size_t s = 0; s < pass_steps; ++s) {
      if (!at_rest) {  // the state's walls are left where the pass ends
        const double t = static_cast<double>(state_.step + static_cast<std::int64_t>(s) + 1) * dt;
        state_.wall_offset[w] = state_.wall_offset_at(w, t);
        state_.wall_drive[w] = state_.wall_drive_at(w, t, dt);
      }
      pass_wall_point_[s * walls + w] = state_.wall_point(w);
      pass_wall_drive_[s * walls + w] = state_.wall_drive[w];
    }
  }
}

// The driven loads' changes at each step's end time (n + s + 1) dt, exact functions of time as
// the walls' places are, and their powers zeroed.
void ChainEngine::place_loads(std::size_t pass_steps) {
  const std::vector<DrivenLoad>& loads = state_.scene.driven_loads;
  const double dt = state_.settings.time_step;
  pass_load_.resize(pass_steps * loads.size());
  pass_load_power_.assign(pass_steps * loads.size(), 0.0);
  for (std::size_t s = 0; s < pass_steps; ++s) {
    const double t = static_cast<double>(state_.step + static_cast<std::int64_t>(s) + 1) * dt;
    for (std::size_t l = 0; l < loads.size(); ++l)
      pass_load_[s * loads.size() + l] = loads[l].at(t).x();
  }
}

// The work of the walls and of the driven loads' changes over the pass_steps steps of a pass, step
// by step: the trapezoidal rule on the power before and after each (nothing to add while no wall
// moves along its normal and no load is driven).
void ChainEngine::book_wall_work(std::size_t pass_steps) {
  EngineState& st = state_;
  const std::size_t wall_contacts = st.wall_contacts.size(), loads = st.scene.driven_loads.size();
  const double half = 0.5 * st.settings.time_step;
  double power_before = 0.0;
  for (const double w : st.wall_power) power_before += w;
  if (loads > 0) power_before += st.load_power;
  const bool moving = st.walls_move() || loads > 0;
  for (std::size_t s = 0; s < pass_steps && moving; ++s) {
    std::fill(st.wall_power.begin(), st.wall_power.end(), 0.0);
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const auto w = static_cast<std::size_t>(st.wall_contacts.second[c]);
      st.wall_power[w] += pass_wall_power_[s * wall_contacts + c];
    }
    double power_after = 0.0;
    for (const double w : st.wall_power) power_after += w;
    if (loads > 0) {
      st.load_power = 0.0;
      for (std::size_t l = 0; l < loads; ++l) st.load_power += pass_load_power_[s * loads + l];
      power_after += st.load_power;
    }
    st.wall_work += half * (power_before + power_after);
    power_before = power_after;
  }
}

}  // namespace chaindem::detail
