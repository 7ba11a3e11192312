// ContactList: a contact list in columns (simulation.hpp).
#include "chaindem/engine/simulation.hpp"

#include "chaindem/engine/huge_pages.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace chaindem {

namespace {

template <class Column>
inline constexpr bool is_zeroed = false;
template <class T>
inline constexpr bool is_zeroed<ZeroedColumn<T>> = true;

// Columns written in every row are advised huge pages before their first write; the zeroed ones,
// written in few rows, are not: a huge page maps 2 MiB around the first row written in it.
template <class Column>
void resize_column(Column& column, std::size_t n) {
  if constexpr (is_zeroed<Column>)
    column.resize(n);
  else
    resize_on_huge_pages(column, n);
}

}  // namespace

std::size_t ContactList::bytes_per_entry(bool zeroed) const {
  auto& self = const_cast<ContactList&>(*this);  // columns() is the one list of columns
  return std::apply(
      [&](auto&... column) {
        const auto bytes = [&](auto& c) -> std::size_t {
          using Column = std::remove_reference_t<decltype(c)>;
          const bool per_entry = !is_shared(&c) && !is_derived(&c);
          return per_entry && (zeroed || !is_zeroed<Column>) ? sizeof(typename Column::value_type)
                                                             : 0;
        };
        return (bytes(column) + ...);
      },
      self.columns());
}

void ContactList::resize(std::size_t n) {
  std::apply([&](auto&... column) { (resize_column(column, rows_of(&column, n)), ...); },
             columns());
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  const auto shares = [](const ContactList& l) {
    return l.shared_coeffs || l.shared_state || l.shared_normal || l.chain_indices;
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
  if (chain_indices) {
    if (i != first_of(k) || j != second_of(k))
      throw std::logic_error("ContactList::start_entry: a pair other than its index gives");
  } else {
    first[k] = i;
    second[k] = j;
  }
  if (!shared_coeffs || k == 0) coeffs[k] = c;
  if (!shared_state || k == 0) state[k] = ContactState{};
  touching[k] = 0;
  work[k] = power[k] = 0.0;
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
  if (m != 0) model[k] = static_cast<std::uint8_t>(m);  // a new entry's is 0
}

}  // namespace chaindem
