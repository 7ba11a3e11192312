// ContactList: a contact list in columns (simulation.hpp).
#include "chaindem/engine/simulation.hpp"

#include "chaindem/engine/huge_pages.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace chaindem {

void ContactList::resize(std::size_t n) {
  std::apply([&](auto&... column) { (resize_on_huge_pages(column, rows_of(&column, n)), ...); },
             columns());
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  const auto shares = [](const ContactList& l) {
    return l.shared_coeffs || l.shared_state || l.shared_normal;
  };
  if (shares(*this) || shares(o))  // the general engine's lists, which hold every record
    throw std::logic_error("ContactList::copy_entry: a list of shared columns");
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
  if (!shared_coeffs || k == 0) coeffs[k] = c;
  if (!shared_state || k == 0) state[k] = ContactState{};
  touching[k] = 0;
  work[k] = power[k] = 0.0;
  floor_hits[k] = 0;
  onset_rate[k] = end_rate[k] = 0.0;
  onset_step[k] = end_step[k] = -1;
  overlap[k] = std::max(0.0, delta0);
  force[k] = 0.0;
  if (shared_normal && k > 0) {
    if (n != normal_of(0))
      throw std::logic_error("ContactList::start_entry: a normal other than the shared one");
  } else {
    nx[k] = n.x();
    ny[k] = n.y();
    nz[k] = n.z();
  }
  model[k] = static_cast<std::uint8_t>(m);
}

}  // namespace chaindem
