// What H5mdWriter and StackedCase copy out of the simulation at an output frame (time_series.hpp).

#include <array>
#include <cstdint>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "several_models.hpp"
#include "time_series.hpp"

namespace chaindem::output_detail {

using layout::contact_columns;
using layout::particle_columns;

// The particle columns written, copied out of the simulation as the file holds them.
void copy_particles(const Particles& p, const layout::OutputSelection& output, Frame& f) {
  const std::vector<std::int64_t>& written = output.particles();
  for (std::size_t k = 0; k < particle_columns.size(); ++k) {
    if (!output.has(particle_columns[k].id)) continue;
    const Vec3Array& source = p.*particle_columns[k].value;
    std::vector<double>& rows = f.particles[k];
    if (!written.empty()) {  // output.beads: the particles named, in order
      const std::size_t d = output.components();
      rows.resize(written.size() * d);
      for (std::size_t j = 0; j < written.size(); ++j)
        for (std::size_t c = 0; c < d; ++c)
          rows[d * j + c] = source(written[j], static_cast<Eigen::Index>(c));
    } else if (output.components() == 1) {  // the x column, contiguous
      rows.assign(source.col(0).data(), source.col(0).data() + source.rows());
    } else {
      rows.resize(static_cast<std::size_t>(source.size()));
      for (Eigen::Index i = 0; i < source.rows(); ++i)
        for (Eigen::Index c = 0; c < 3; ++c)
          rows[static_cast<std::size_t>(3 * i + c)] = source(i, c);
    }
  }
}

// The observables written, the energy of each chain section (`sections`, several contact models)
// and, `walls`, the wall columns written.
void copy_observables(const Simulation& sim, const EnergyReport& e,
                      const layout::OutputSelection& output,
                      const std::vector<ChainSection>& sections, bool walls, Frame& f) {
  double* value = f.observables.data();
  for (const layout::ObservableColumn& c : layout::observable_columns) {
    if (output.has(c.id)) c.value(sim, e, value);
    value += c.components;
  }
  if (!sections.empty()) section_energies(sim, sections, f.sections);
  for (std::size_t k = 0; k < layout::wall_columns.size(); ++k) {
    const bool written = walls && output.has(layout::wall_columns[k].id);
    f.walls[k].resize(written ? 3 * sim.scene().walls.size() : 0);
    if (written) layout::wall_columns[k].values(sim, f.walls[k].data());
  }
}

// The touching contacts, pairs then walls, with the columns written. The simulation waits
// meanwhile: the contacts that touch are listed once, then each column is copied by a loop of
// its own into the frame's buffers, sized once (reused from frame to frame, not grown).
void copy_contacts(const Simulation& sim, const layout::OutputSelection& output, bool several,
                   std::array<std::vector<std::uint32_t>, 2>& touching, Frame& f) {
  const std::array<const ContactList*, 2> lists{&sim.pair_contacts(), &sim.wall_contacts()};
  std::size_t rows = 0;
  for (std::size_t l = 0; l < lists.size(); ++l) {
    const ContactList& cl = *lists[l];
    std::vector<std::uint32_t>& at = touching[l];
    at.resize(cl.size());
    std::size_t n = 0;
    for (std::size_t c = 0; c < cl.size(); ++c) {
      at[n] = static_cast<std::uint32_t>(c);
      n += cl.touching[c] != 0;
    }
    at.resize(n);
    rows += n;
  }
  f.first.resize(rows);
  f.second.resize(rows);
  f.model.resize(several ? rows : 0);
  for (std::size_t k = 0; k < contact_columns.size(); ++k)
    f.contact_values[k].resize(output.has(contact_columns[k].id) ? rows : 0);
  std::size_t row = 0;
  for (std::size_t l = 0; l < lists.size(); ++l) {
    const ContactList& cl = *lists[l];
    const std::uint32_t* at = touching[l].data();
    const std::size_t n = touching[l].size();
    const bool wall = l == 1;  // second < 0: wall -(second + 1)
    for (std::size_t j = 0; j < n; ++j) f.first[row + j] = cl.first_of(at[j]);
    for (std::size_t j = 0; j < n; ++j)
      f.second[row + j] = wall ? -cl.second_of(at[j]) - 1 : cl.second_of(at[j]);
    if (several)
      for (std::size_t j = 0; j < n; ++j) f.model[row + j] = cl.model[at[j]];
    for (std::size_t k = 0; k < contact_columns.size(); ++k)
      if (output.has(contact_columns[k].id))
        contact_columns[k].values(sim, cl, at, n, f.contact_values[k].data() + row);
    row += n;
  }
}

}  // namespace chaindem::output_detail
