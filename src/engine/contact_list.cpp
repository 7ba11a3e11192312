// ContactList: a contact list in columns (simulation.hpp).
#include "chaindem/engine/simulation.hpp"

namespace chaindem {

void ContactList::resize(std::size_t n) {
  first.resize(n);
  second.resize(n);
  coeffs.resize(n);
  state.resize(n);
  overlap.resize(n);
  force.resize(n);
  nx.resize(n);
  ny.resize(n);
  nz.resize(n);
  touching.resize(n);
  work.resize(n);
  power.resize(n);
  floor_hits.resize(n);
  onset_rate.resize(n);
  end_rate.resize(n);
  onset_step.resize(n);
  end_step.resize(n);
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  first[to] = o.first[from];
  second[to] = o.second[from];
  coeffs[to] = o.coeffs[from];
  state[to] = o.state[from];
  overlap[to] = o.overlap[from];
  force[to] = o.force[from];
  nx[to] = o.nx[from];
  ny[to] = o.ny[from];
  nz[to] = o.nz[from];
  touching[to] = o.touching[from];
  work[to] = o.work[from];
  power[to] = o.power[from];
  floor_hits[to] = o.floor_hits[from];
  onset_rate[to] = o.onset_rate[from];
  end_rate[to] = o.end_rate[from];
  onset_step[to] = o.onset_step[from];
  end_step[to] = o.end_step[from];
}

void ContactList::start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                              const Eigen::Vector3d& n) {
  first[k] = i;
  second[k] = j;
  coeffs[k] = c;
  state[k] = ContactState{};
  touching[k] = 0;
  work[k] = power[k] = 0.0;
  floor_hits[k] = 0;
  onset_rate[k] = end_rate[k] = 0.0;
  onset_step[k] = end_step[k] = -1;
  overlap[k] = std::max(0.0, delta0);
  force[k] = 0.0;
  nx[k] = n.x();
  ny[k] = n.y();
  nz[k] = n.z();
}

}  // namespace chaindem
