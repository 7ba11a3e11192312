// The run's /parameters group: the case's resolved keys, its text, the values derived from it
// and the contact law (output_layout.hpp), written when a run's objects are made.
#include <hdf5.h>

#include <string>
#include <vector>

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "several_models.hpp"

namespace chaindem::output_detail {

using namespace hdf5;

void write_parameters(hid_t root, const RunMetadata& meta, const std::vector<ContactModel>& models,
                      bool several, const std::string& version) {
  std::size_t room = link_room("case_file") + link_room("derived") + link_room("law") +
                     (several ? link_room(layout::contact_models_group) : 0);
  for (const auto& entry : meta.parameters) room += attribute_room(entry.first);
  for (const char* name : {"case_origin", "chaindem_version", "time_step_note"})
    room += attribute_room(name);
  Handle params = group(root, layout::parameters_group, room);
  for (const auto& [key, value] : meta.parameters) attr_string(params.get(), key, value);
  dataset_string(params.get(), "case_file", meta.case_text);
  attr_string(params.get(), "case_origin", meta.case_origin);
  attr_string(params.get(), "chaindem_version", version);
  attr_string(params.get(), "time_step_note", meta.time_step_note);
  std::size_t derived_room = 0;
  for (const auto& entry : meta.derived) derived_room += attribute_room(entry.first, 8);
  Handle derived = group(params.get(), "derived", derived_room);
  for (const auto& [key, value] : meta.derived)
    attr_numbers<double>(derived.get(), key, {value}, H5T_NATIVE_DOUBLE);
  Handle law_group = group(params.get(), "law", law_room(models[0]));
  write_law(law_group.get(), models[0]);
  law_group.close("/parameters/law");
  if (several) write_contact_models(params.get(), models, meta.model_sections);
  derived.close("/parameters/derived");
  params.close("/parameters");
}

}  // namespace chaindem::output_detail
