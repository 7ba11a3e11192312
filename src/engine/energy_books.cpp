// The energy books of a run (EngineState::energies): kinetic, stored, dissipated, the potential
// of the applied loads and the walls' work, from what both engines leave in the contact lists.
#include "engine_state.hpp"

namespace chaindem::detail {
namespace {

// What the contacts hold: the work booked by those whose kernel splits its force (the damping
// work) and by the plastic ones (the work absorbed), the energy stored (also the plastic ones'
// share), and the split ones' damping power of the last evaluation. Each is summed over the
// contacts in list order, pairs then walls, whatever their models: a run whose contacts obey
// copies of one model books the same bits as a run of that model.
struct Books {
  double split_work = 0.0, plastic_work = 0.0, stored = 0.0, plastic_stored = 0.0, power = 0.0;

  template <class KernelT>
  void add(const ContactList& cl, std::size_t c, const PairCoeffs& coeffs) {
    constexpr bool split = kernels::splits_force<KernelT>;
    (split ? split_work : plastic_work) += cl.work[c];
    if (cl.touching[c]) {
      const double u = KernelT::potential(coeffs, cl.state_of(c), cl.overlap[c]);
      stored += u;
      if (!split) plastic_stored += u;
    }
    if (split) power += cl.power[c];
  }
  // Laws that split their force book the damping work itself (each pair's work plus half its
  // current sample, dt/2 power: the trapezoid's last term); plastic laws the work absorbed, of
  // which they still store part.
  double dissipated(double dt) const {
    return (split_work + 0.5 * dt * power) + (plastic_work - plastic_stored);
  }
};

// The books of the contacts of model `only`, or of every contact (only < 0). The kernel is
// dispatched once per list where the contacts visited obey one model, else contact by contact.
Books books_of(const EngineState& st, int only) {
  Books b;
  const bool several = st.models.size() > 1;
  const int fixed = several ? only : 0;  // the model of every contact visited, or -1
  for (const ContactList* cl : {&st.pairs, &st.wall_contacts}) {
    auto add = [&]<class KernelT>(std::size_t c) { b.add<KernelT>(*cl, c, cl->coeffs_of(c)); };
    if (fixed >= 0) {
      with_kernel(st.kernel_of(fixed), [&](auto kernel) {
        for (std::size_t c = 0; c < cl->size(); ++c)
          if (!several || cl->model[c] == fixed) add.template operator()<decltype(kernel)>(c);
      });
    } else {
      for (std::size_t c = 0; c < cl->size(); ++c)
        with_kernel(st.kernel_of(cl->model[c]),
                    [&](auto kernel) { add.template operator()<decltype(kernel)>(c); });
    }
  }
  return b;
}

}  // namespace

EnergyReport EngineState::energies() const {
  const Particles& p = scene.particles;
  EnergyReport e;
  e.kinetic = 0.5 * (p.mass * p.velocity.square().rowwise().sum()).sum();
  double potential = 0.0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const Eigen::Vector3d f = p.load(i) + p.mass(i) * scene.gravity;
    potential -= f.dot(p.position.row(i).transpose().matrix());
  }
  e.external_potential = potential + initial_external;
  const Books b = books_of(*this, -1);
  e.stored = b.stored;
  e.dissipated = retired_dissipated + b.dissipated(settings.time_step);
  e.wall_work = wall_work;
  return e;
}

std::vector<double> EngineState::dissipated_by_model() const {
  std::vector<double> out(models.size());
  for (int m = 0; m < static_cast<int>(models.size()); ++m)
    out[static_cast<std::size_t>(m)] =
        (models.size() == 1 ? retired_dissipated : retired_by_model[static_cast<std::size_t>(m)]) +
        books_of(*this, m).dissipated(settings.time_step);
  return out;
}

std::vector<double> EngineState::stored_energy_by_particle() const {
  std::vector<double> out(static_cast<std::size_t>(scene.particles.size()), 0.0);
  for (const ContactList* cl : {&pairs, &wall_contacts}) {
    const bool wall = cl == &wall_contacts;
    for (std::size_t c = 0; c < cl->size(); ++c) {
      if (!cl->touching[c]) continue;
      // As Books::add sums it, so that the shares add up to energies().stored.
      const double u = with_kernel(kernel_of(cl->model[c]), [&](auto kernel) {
        return decltype(kernel)::potential(cl->coeffs_of(c), cl->state_of(c), cl->overlap[c]);
      });
      const auto i = static_cast<std::size_t>(cl->first_of(c));
      if (wall) {
        out[i] += u;
      } else {
        out[i] += 0.5 * u;
        out[static_cast<std::size_t>(cl->second_of(c))] += 0.5 * u;
      }
    }
  }
  return out;
}

std::int64_t EngineState::impact_velocity_floor_hits() const {
  std::int64_t hits = retired_floor_hits;
  for (const ContactList* cl : {&pairs, &wall_contacts})
    for (const int h : cl->floor_hits) hits += h;
  return hits;
}

}  // namespace chaindem::detail
