// The energy books of a run (EngineState::energies): kinetic, stored, dissipated, the potential
// of the applied loads and the walls' work, from what both engines leave in the contact lists.
#include "engine_state.hpp"

namespace chaindem::detail {

EnergyReport EngineState::energies() const {
  const Particles& p = scene.particles;
  EnergyReport e;
  e.kinetic = 0.5 * (p.mass * p.velocity.square().rowwise().sum()).sum();
  double potential = 0.0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const Eigen::Vector3d f =
        p.external_force.row(i).transpose().matrix() + p.mass(i) * scene.gravity;
    potential -= f.dot(p.position.row(i).transpose().matrix());
  }
  e.external_potential = potential + initial_external;
  double work = 0.0;
  bool split = false;
  with_kernel(settings.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    split = kernels::splits_force<KernelT>;
    for (const ContactList* cl : {&pairs, &wall_contacts}) {
      const bool shared = cl == &pairs && pairs_share_coeffs;
      for (std::size_t c = 0; c < cl->size(); ++c) {
        work += cl->work[c];
        if (cl->touching[c])
          e.stored += KernelT::potential(cl->coeffs[shared ? 0 : c], cl->state[c], cl->overlap[c]);
      }
    }
  });
  // Laws that split their force book the damping work itself (each pair's work plus half its
  // current sample, dt/2 power: the trapezoid's last term); plastic laws the work absorbed, of
  // which they still store part.
  double current = 0.0;
  if (split)
    for (const ContactList* cl : {&pairs, &wall_contacts})
      for (const double pw : cl->power) current += pw;
  e.dissipated =
      retired_dissipated + (split ? work + 0.5 * settings.time_step * current : work - e.stored);
  e.wall_work = wall_work;
  return e;
}

std::int64_t EngineState::impact_velocity_floor_hits() const {
  std::int64_t hits = retired_floor_hits;
  for (const ContactList* cl : {&pairs, &wall_contacts})
    for (const int h : cl->floor_hits) hits += h;
  return hits;
}

}  // namespace chaindem::detail
