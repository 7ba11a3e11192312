#pragma once
// What the output of a run of several contact models adds (output_layout.hpp, "a run of several
// contact models"): the models with their laws, the chain's sections and the energy each holds,
// and the summary per model. H5mdWriter writes them; private to src/output/.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem::output_detail {

/// The run's /summary group under `root`: the summary's scalars and words as attributes, its
/// per-bead arrays as datasets, and (`several` contact models) the summary per model.
void write_summary(hid_t root, const layout::RunSummary& summary, bool several);

/// The run's /parameters group under `root`: the case's keys, its text (case_file), where it
/// was read from, chaindem's `version`, the time step's note, /parameters/derived, the law of the
/// first contact model (/parameters/law) and (`several`) every model.
void write_parameters(hid_t root, const RunMetadata& meta, const std::vector<ContactModel>& models,
                      bool several, const std::string& version);

/// The attributes of /parameters/law, of a contact model: id, citation, formula, damping,
/// tension, then every law parameter by name.
void write_law(hid_t group, const ContactModel& model);
/// The bytes write_law(group, model) puts in the group's header (hdf5::group(..., room)).
std::size_t law_room(const ContactModel& model);

/// /parameters/contact_models/K for every model K, with its law and its case section.
void write_contact_models(hid_t parameters, const std::vector<ContactModel>& models,
                          const std::vector<std::string>& sections);

/// A maximal run of consecutive chain beads of one material.
struct ChainSection {
  std::int64_t first_bead = 0;  ///< chain bead (0: the first after the striker)
  std::int64_t beads = 0;
  int material = 0;
};
/// The sections of the scene's chain, in chain order.
std::vector<ChainSection> chain_sections(const Scene& scene);

/// The attributes of /observables/section_energy: per section its first bead, its bead count
/// and its material's name.
void write_section_attributes(hid_t series, const std::vector<ChainSection>& sections,
                              const std::vector<std::string>& material_names);

/// The energy each section holds now into `out` (one value per section): the kinetic energy of
/// its beads and their shares of the stored energy.
void section_energies(const Simulation& sim, const std::vector<ChainSection>& sections,
                      std::vector<double>& out);

/// /summary/models: a dataset per column of layout::model_summary_columns, a row per model.
void write_model_summary(hid_t summary, const std::vector<layout::ModelSummary>& models);

}  // namespace chaindem::output_detail
