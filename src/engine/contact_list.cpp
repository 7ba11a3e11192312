// ContactList: a contact list in columns (simulation.hpp).
#include "chaindem/engine/simulation.hpp"

#include <tuple>
#include <utility>

namespace chaindem {

void ContactList::resize(std::size_t n) {
  std::apply([n](auto&... column) { (column.resize(n), ...); }, columns());
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  auto into = columns();
  const auto out = const_cast<ContactList&>(o).columns();  // read only
  [&]<std::size_t... k>(std::index_sequence<k...>) {
    ((std::get<k>(into)[to] = std::get<k>(out)[from]), ...);
  }
  (std::make_index_sequence<std::tuple_size_v<decltype(into)>>{});
}

void ContactList::start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                              const Eigen::Vector3d& n, int m) {
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
  model[k] = static_cast<std::uint8_t>(m);
}

}  // namespace chaindem
