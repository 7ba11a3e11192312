// The keys of [output] (case_key_entry.hpp): what a run writes, where, how often and within
// what budget.

#include <string>
#include <vector>

#include "case_key_entry.hpp"

namespace chaindem::case_key_detail {

namespace {

// output.particles_interval, output.observables_interval, output.contacts_interval.
void output_group_interval_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::output;
  const auto group_interval = [&](double OutputSpec::*field, const char* name, const char* what) {
    return key(s, field, name,
               {.unit = "s",
                .description = std::string("interval between the frames that hold ") + what +
                               ", a whole number of output frames (0: every frame); the last "
                               "frame always holds them",
                .range = Range::at_least(0),
                .default_value = "0"});
  };
  k.push_back(group_interval(&OutputSpec::particles_interval, "output.particles_interval",
                             "the positions, velocities and forces"));
  k.push_back(group_interval(&OutputSpec::observables_interval, "output.observables_interval",
                             "the energies, the momentum and the walls' positions and forces"));
  k.push_back(
      group_interval(&OutputSpec::contacts_interval, "output.contacts_interval", "the contacts"));
}

}  // namespace

void output_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::output;
  k.push_back(key(s, &OutputSpec::file, "output.file",
                  {.description = "HDF5 output file (default: out/CASE.h5, named after the case "
                                  "file and the command line's changes, docs/output-format.md; "
                                  "`run -o` overrides)",
                   .changes_no_result = true},
                  ValueKind::text));
  k.push_back(key(s, &OutputSpec::interval, "output.interval",
                  {.unit = "s",
                   .description = "time between output frames (0: duration/200); an automatic "
                                  "time step is shortened so that frames fall on it, a given one "
                                  "gives frames every whole number of steps, which the run's "
                                  "summary says when it differs",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &OutputSpec::every, "output.every",
                  {.description = "steps between output frames, instead of output.interval (0: "
                                  "frames by the interval)",
                   .range = Range::closed(0, 1e12),
                   .default_value = "0"}));
  output_group_interval_keys(k);
  k.push_back(key(s, &OutputSpec::quantities, "output.quantities",
                  {.description = "the time series written: all, or some of position (always "
                                  "written), velocity, force, the energies (energies: all of "
                                  "them; kinetic_energy, stored_energy, ...), momentum, "
                                  "wall_position, wall_force, the contacts' (contacts: all of "
                                  "them; overlap, normal_force, approach_rate, impact_velocity), "
                                  "or none (no frame: the summary, parameters and particles "
                                  "alone)",
                   .default_value = "all"}));
  k.push_back(key(s, &OutputSpec::beads, "output.beads",
                  {.description = "whose positions, velocities and forces are written: all, or "
                                  "some of striker, chain beads K (from 0; negative from the end) "
                                  "and ranges A:B or A:B:S (beads A to B inclusive, every S-th; "
                                  "0:-1:10 is every tenth bead); the series then hold those "
                                  "particles, in order, and /particles/chain/id their indices",
                   .default_value = "all"}));
  k.push_back(
      key(s, &OutputSpec::contacts, "output.contacts",
          {.description = "write the per-contact overlap and force", .default_value = "true"}));
  k.push_back(word_key(
      s, &OutputSpec::compression, "output.compression",
      {{"gzip", Compression::gzip}, {"lzf", Compression::lzf}, {"none", Compression::none}},
      {.description = "filter of the output's large datasets: gzip (shuffle + deflate, built into "
                      "every HDF5), lzf (faster, larger files; needs the HDF5 LZF plugin, Debian "
                      "package hdf5-plugin-lzf), none (largest files); every value is stored "
                      "exactly (docs/output-format.md)",
       .default_value = "gzip",
       .changes_no_result = true}));
  k.push_back(word_key(
      s, &OutputSpec::dimension, "output.dimension",
      {{"auto", OutputDimension::automatic}, {"3", OutputDimension::three}},
      {.description = "components of the positions, velocities and forces written: auto (x alone "
                      "for a chain on the x axis, whose y and z stay zero; x, y and z otherwise), "
                      "3 (always x, y and z) (docs/output-format.md)",
       .default_value = "auto",
       .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::max_file_size, "output.max_file_size",
                  {.unit = "bytes",
                   .description = "the largest output (HDF5 before compression, and XDMF) a run "
                                  "may write: a run that would write more is refused before it "
                                  "starts, and an automatic output.interval (0) writes fewer "
                                  "frames to stay within it",
                   .range = Range::closed(1e6, 1e15),
                   .default_value = "4e9",
                   .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::xdmf, "output.xdmf",
                  {.description = "write NAME.xdmf beside the output NAME.h5, for ParaView (about "
                                  "200 bytes of XML per frame and vector)",
                   .default_value = "true",
                   .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::arrival_beads, "output.arrival_beads",
                  {.description = "chain beads (0-based; negative counts from the end) whose "
                                  "pulse arrival time goes to the summary",
                   .range = Range::closed(-1e9, 1e9),
                   .default_value = "0 -1"}));
  k.push_back(key(s, &OutputSpec::arrival_threshold, "output.arrival_threshold",
                  {.description = "the pulse has arrived at a bead when its speed first reaches "
                                  "this fraction of the largest initial speed (striker or wall)",
                   .range = Range::above_to(0, 1),
                   .default_value = "0.1"}));
  k.push_back(key(s, &OutputSpec::checkpoint_interval, "output.checkpoint_interval",
                  {.unit = "s",
                   .description = "wall-clock time between checkpoints of `chaindem run` (0: a "
                                  "checkpoint only on SIGTERM or SIGHUP); the output is then "
                                  "written so that it stays readable up to the last checkpoint "
                                  "if the run is killed; continue with `run --restart`",
                   .range = Range::closed(0, 1e9),
                   .default_value = "0",
                   .changes_no_result = true}));
}

}  // namespace chaindem::case_key_detail
