// Saving and restoring a simulation's state (state_archive.hpp): everything an engine reads at its
// next step, so that a run restored from a checkpoint continues bit for bit as if it had never
// stopped. What the engines derive from the scene at construction (chain geometry, uniform
// coefficients, base forces) is rebuilt by constructing the simulation from the same case; only
// what the steps change is saved here.
#include <cstdint>
#include <tuple>
#include <utility>

#include "chain_engine.hpp"
#include "chaindem/engine/state_archive.hpp"
#include "general_engine.hpp"

namespace chaindem {
namespace detail {
namespace {

// The contact list's columns, numbered in ContactList::columns() order: one record each.
void save_list(StateArchive& a, const std::string& name, const ContactList& list) {
  auto& cl = const_cast<ContactList&>(list);  // columns() is the one list of columns
  std::apply(
      [&](auto&... column) {
        int k = 0;
        (a.put(name + "." + std::to_string(k++), column), ...);
      },
      cl.columns());
}

void restore_list(const StateArchive& a, const std::string& name, ContactList& cl) {
  std::apply(
      [&](auto&... column) {
        int k = 0;
        (a.get(name + "." + std::to_string(k++), column), ...);
      },
      cl.columns());
  const std::size_t n = cl.size();
  std::apply(
      [&](auto&... column) {
        if (((column.size() != cl.rows_of(&column, n)) || ...))
          throw StateArchiveError("checkpoint contact list '" + name +
                                  "' has columns of different lengths");
      },
      cl.columns());
}

std::vector<double> flatten(const std::vector<Eigen::Vector3d>& v) {
  std::vector<double> out;
  for (const Eigen::Vector3d& x : v) out.insert(out.end(), {x.x(), x.y(), x.z()});
  return out;
}

void unflatten(const std::vector<double>& in, std::vector<Eigen::Vector3d>& v) {
  if (in.size() != 3 * v.size())
    throw StateArchiveError("checkpoint: " + std::to_string(in.size() / 3) +
                            " walls saved; this case has " + std::to_string(v.size()));
  for (std::size_t w = 0; w < v.size(); ++w) v[w] = {in[3 * w], in[3 * w + 1], in[3 * w + 2]};
}

}  // namespace

void EngineState::save(StateArchive& a) const {
  const Particles& p = scene.particles;
  a.put_value("particles", static_cast<std::int64_t>(p.size()));
  a.put_array("position", p.position);
  // The chain engine keeps its displacements instead (ChainEngine::save): its carries are zero,
  // and left untouched, taking no memory.
  if (!chain_pairs) a.put_array("position_carry", p.position_carry);
  a.put_array("velocity", p.velocity);
  a.put_array("force", p.force);
  a.put_array("lookahead", lookahead);
  a.put_value("time", time);
  a.put_value("step", step);
  save_list(a, "pairs", pairs);
  save_list(a, "wall_contacts", wall_contacts);
  a.put("wall_offset", flatten(wall_offset));
  a.put_value("retired_dissipated", retired_dissipated);
  a.put("retired_by_model", retired_by_model);
  a.put_value("retired_floor_hits", retired_floor_hits);
  a.put_value("wall_work", wall_work);
  a.put("wall_power", wall_power);
  a.put("validity.strain", validity.strain());
  a.put("validity.speed", validity.speed());
  a.put_value("tracking", static_cast<std::uint8_t>(tracking));
  if (tracking) {
    a.put_array("peak_contact_force", peak_contact_force);
    a.put_array("peak_velocity_x", peak_velocity_x);
  }
}

void EngineState::restore(const StateArchive& a) {
  Particles& p = scene.particles;
  const auto saved = a.get_value<std::int64_t>("particles");
  if (saved != p.size())
    throw StateArchiveError("checkpoint holds " + std::to_string(saved) +
                            " particles; this case has " + std::to_string(p.size()));
  a.get_array("position", p.position);
  if (!chain_pairs) a.get_array("position_carry", p.position_carry);
  a.get_array("velocity", p.velocity);
  a.get_array("force", p.force);
  a.get_array("lookahead", lookahead);
  time = a.get_value<double>("time");
  step = a.get_value<std::int64_t>("step");
  restore_list(a, "pairs", pairs);
  restore_list(a, "wall_contacts", wall_contacts);
  std::vector<double> offsets;
  a.get("wall_offset", offsets);
  unflatten(offsets, wall_offset);
  move_walls(time, step > 0
                       ? settings.time_step
                       : 0.0);  // exact functions of time: the same as saved, and the walls' speeds
  retired_dissipated = a.get_value<double>("retired_dissipated");
  a.get("retired_by_model", retired_by_model);
  if (retired_by_model.size() != models.size())
    throw StateArchiveError("checkpoint: " + std::to_string(retired_by_model.size()) +
                            " contact models saved; this case has " +
                            std::to_string(models.size()));
  retired_floor_hits = a.get_value<std::int64_t>("retired_floor_hits");
  wall_work = a.get_value<double>("wall_work");
  a.get("wall_power", wall_power);
  load_power = driven_load_power();  // a function of the state restored and its time
  std::vector<double> strain, speed;
  a.get("validity.strain", strain);
  a.get("validity.speed", speed);
  if (!validity.restore(strain, speed))
    throw StateArchiveError("checkpoint: the contacts' largest strains are of " +
                            std::to_string(strain.size()) + " kinds; this case has " +
                            std::to_string(validity.kinds()));
  if (a.get_value<std::uint8_t>("tracking") != 0) {
    peak_contact_force.resize(p.size());
    peak_velocity_x.resize(p.size());
    a.get_array("peak_contact_force", peak_contact_force);
    a.get_array("peak_velocity_x", peak_velocity_x);
    tracking = true;
  }
  build_incidence();
}

// The general engine's neighbor structure: when it is rebuilt next depends on the positions at
// the last rebuild, and pairs that left it keep their plastic history here.
void GeneralEngine::save(StateArchive& a) const {
  a.put_value("general.rebuilds", rebuilds_);
  a.put_array("general.reference_position", reference_position_);
  a.put("general.wall_offset_at_rebuild", flatten(wall_offset_at_rebuild_));
  for (const auto& [name, dormant] : {std::pair{"general.dormant_pairs", &dormant_pairs_},
                                      std::pair{"general.dormant_walls", &dormant_walls_}}) {
    // In key order, so that equal states give equal checkpoints.
    std::vector<std::pair<std::uint64_t, ContactState>> sorted(dormant->begin(), dormant->end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::uint64_t> keys;
    std::vector<ContactState> states;
    for (const auto& [key, s] : sorted) {
      keys.push_back(key);
      states.push_back(s);
    }
    a.put(std::string(name) + ".keys", keys);
    a.put(std::string(name) + ".states", states);
  }
}

void GeneralEngine::restore(const StateArchive& a) {
  group_by_model();  // of the restored pairs
  bound_pair_radius();
  rebuilds_ = a.get_value<std::int64_t>("general.rebuilds");
  reference_position_.resize(state_.scene.particles.size(), 3);
  a.get_array("general.reference_position", reference_position_);
  std::vector<double> offsets;
  a.get("general.wall_offset_at_rebuild", offsets);
  wall_offset_at_rebuild_.resize(state_.wall_offset.size());
  unflatten(offsets, wall_offset_at_rebuild_);
  for (const auto& [name, dormant] : {std::pair{"general.dormant_pairs", &dormant_pairs_},
                                      std::pair{"general.dormant_walls", &dormant_walls_}}) {
    std::vector<std::uint64_t> keys;
    std::vector<ContactState> states;
    a.get(std::string(name) + ".keys", keys);
    a.get(std::string(name) + ".states", states);
    if (keys.size() != states.size())
      throw StateArchiveError(std::string("checkpoint record '") + name + "' is inconsistent");
    dormant->clear();
    for (std::size_t k = 0; k < keys.size(); ++k) dormant->emplace(keys[k], states[k]);
  }
}

}  // namespace detail

void Simulation::save_state(StateArchive& a) const {
  a.put_value("engine", static_cast<std::uint8_t>(uses_chain_engine() ? 1 : 0));
  state_->save(a);
  engine_->save(a);
}

void Simulation::restore_state(const StateArchive& a) {
  if (a.get_value<std::uint8_t>("engine") != (uses_chain_engine() ? 1 : 0))
    throw StateArchiveError(std::string("the checkpoint was written by the ") +
                            (uses_chain_engine() ? "general" : "chain") +
                            " engine; this run uses the other one");
  state_->restore(a);
  engine_->restore(a);
}

}  // namespace chaindem
