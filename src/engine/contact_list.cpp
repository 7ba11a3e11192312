// ContactList: a contact list in columns (simulation.hpp).
#include "chaindem/engine/simulation.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace chaindem {

void ContactList::resize(std::size_t n) {
  auto fit = [&](auto& column) {
    if constexpr (std::is_same_v<std::remove_reference_t<decltype(column)>,
                                 std::vector<PairCoeffs>>)
      column.resize(shared_coeffs ? std::min<std::size_t>(n, 1) : n);
    else
      column.resize(n);
  };
  std::apply([&](auto&... column) { (fit(column), ...); }, columns());
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  if (shared_coeffs || o.shared_coeffs)  // the general engine's lists, which hold every record
    throw std::logic_error("ContactList::copy_entry: a list of shared coefficients");
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
  coeffs[shared_coeffs ? 0 : k] = c;
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
