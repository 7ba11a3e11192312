#include "several_models.hpp"

#include <type_traits>

#include "chaindem/output/hdf5_util.hpp"

namespace chaindem::output_detail {

using namespace hdf5;

void write_law(hid_t group, const ContactModel& model) {
  const LawEntry& law = *model.law;
  attr_string(group, "id", std::string(law.id));
  attr_string(group, "citation", std::string(law.citation));
  attr_string(group, "formula", std::string(law.formula));
  attr_string(group, "damping", std::string(law.damping));
  attr_string(group, "tension", std::string(to_string(model.tension)));
  for (const auto& [key, value] : model.params)
    attr_numbers<double>(group, key, {value}, H5T_NATIVE_DOUBLE);
}

std::size_t law_room(const ContactModel& model) {
  std::size_t room = 0;
  for (const char* name : {"id", "citation", "formula", "damping", "tension"})
    room += attribute_room(name);
  for (const auto& entry : model.params) room += attribute_room(entry.first, 8);
  return room;
}

void write_contact_models(hid_t parameters, const std::vector<ContactModel>& models,
                          const std::vector<std::string>& sections) {
  std::size_t room = 0;
  for (std::size_t k = 0; k < models.size(); ++k) room += link_room(std::to_string(k));
  Handle all = group(parameters, layout::contact_models_group, room);
  for (std::size_t k = 0; k < models.size(); ++k) {
    const std::string name = std::to_string(k);
    Handle g = group(all.get(), name,
                     law_room(models[k]) + attribute_room(layout::model_section_attribute));
    write_law(g.get(), models[k]);
    // A writer given no sections (a run built without a case) names the model by its number.
    attr_string(g.get(), layout::model_section_attribute,
                k < sections.size() ? sections[k] : "model " + name);
    g.close(name);
  }
  all.close(layout::contact_models_group);
}

std::vector<ChainSection> chain_sections(const Scene& scene) {
  std::vector<ChainSection> out;
  const Particles& p = scene.particles;
  for (Eigen::Index b = 0; b < scene.chain_count; ++b) {
    const int material = p.material[static_cast<std::size_t>(scene.chain_first + b)];
    if (out.empty() || out.back().material != material) out.push_back({b, 0, material});
    ++out.back().beads;
  }
  return out;
}

void write_section_attributes(hid_t series, const std::vector<ChainSection>& sections,
                              const std::vector<std::string>& material_names) {
  std::vector<std::int64_t> first, beads;
  std::vector<std::string> material;
  for (const ChainSection& s : sections) {
    first.push_back(s.first_bead);
    beads.push_back(s.beads);
    const auto m = static_cast<std::size_t>(s.material);
    material.push_back(m < material_names.size() ? material_names[m] : std::to_string(m));
  }
  attr_numbers<std::int64_t>(series, layout::section_first_bead_attribute, first, H5T_NATIVE_INT64);
  attr_numbers<std::int64_t>(series, layout::section_beads_attribute, beads, H5T_NATIVE_INT64);
  attr_strings(series, layout::section_material_attribute, material);
}

void section_energies(const Simulation& sim, const std::vector<ChainSection>& sections,
                      std::vector<double>& out) {
  const Particles& p = sim.particles();
  const Eigen::Index first = sim.scene().chain_first;
  const std::vector<double> stored = sim.stored_energy_by_particle();
  out.assign(sections.size(), 0.0);
  for (std::size_t s = 0; s < sections.size(); ++s)
    for (std::int64_t b = 0; b < sections[s].beads; ++b) {
      const Eigen::Index i = first + sections[s].first_bead + b;
      out[s] +=
          0.5 * p.mass(i) * p.velocity.row(i).square().sum() + stored[static_cast<std::size_t>(i)];
    }
}

void write_model_summary(hid_t summary, const std::vector<layout::ModelSummary>& models) {
  Handle g = group(summary, layout::summary_models_group);
  const auto rows = static_cast<hsize_t>(models.size());
  for (const layout::ModelSummaryColumn& column : layout::model_summary_columns)
    std::visit(
        [&](auto field) {
          using T = std::remove_cvref_t<decltype(models[0].*field)>;
          std::vector<T> values;
          for (const layout::ModelSummary& m : models) values.push_back(m.*field);
          if constexpr (std::is_same_v<T, std::string>)
            dataset_strings(g.get(), column.name, values);
          else if constexpr (std::is_same_v<T, double>)
            dataset_fixed(g.get(), column.name, {rows}, values.data(), H5T_NATIVE_DOUBLE,
                          column.unit);
          else
            dataset_fixed(g.get(), column.name, {rows}, values.data(), H5T_NATIVE_INT64,
                          column.unit);
        },
        column.field);
  g.close(layout::summary_models_group);
}

}  // namespace chaindem::output_detail
