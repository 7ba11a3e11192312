// chaindem command line: run, models, case-format.
#include <boost/program_options.hpp>
#include <iomanip>
#include <iostream>
#include <new>
#include <streambuf>

#include "chaindem/commands/collide_command.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/compare_command.hpp"
#include "chaindem/commands/fit_command.hpp"
#include "chaindem/commands/run_command.hpp"
#include "chaindem/commands/sweep_command.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace po = boost::program_options;
using namespace chaindem;

namespace {

// Standard error as it reaches the terminal: every write passes through terminal_text, so that
// no message, whatever it quotes, can act on the terminal. Unbuffered and without state: the
// stream below (stdio's) orders the writes of several threads.
class TerminalGuard : public std::streambuf {
 public:
  explicit TerminalGuard(std::ostream& stream) : stream_(stream), below_(stream.rdbuf(this)) {}
  ~TerminalGuard() override { stream_.rdbuf(below_); }
  TerminalGuard(const TerminalGuard&) = delete;
  TerminalGuard& operator=(const TerminalGuard&) = delete;

 protected:
  std::streamsize xsputn(const char* text, std::streamsize n) override {
    const std::string shown = terminal_text({text, static_cast<std::size_t>(n)});
    const auto size = static_cast<std::streamsize>(shown.size());
    return below_->sputn(shown.data(), size) == size ? n : 0;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char one = traits_type::to_char_type(c);
    return xsputn(&one, 1) == 1 ? c : traits_type::eof();
  }
  int sync() override { return below_->pubsync(); }

 private:
  std::ostream& stream_;
  std::streambuf* below_;
};

const char* usage =
    "chaindem - discrete-element simulator for granular chains\n\n"
    "usage:\n"
    "  chaindem run CASE.ini [-o OUT.h5] [--set section.key=value ...] [--quiet]\n"
    "               [--restart | --discard-checkpoint]\n"
    "  chaindem sweep SWEEP.ini [-o OUT.h5] [--threads N]  many cases in parallel (OpenMP, MPI)\n"
    "  chaindem compare CASE.ini --laws A,B (--reference LAW | --reference-data CSV)\n"
    "  chaindem collide --law ID ...  one head-on impact under any law (see collide --help)\n"
    "  chaindem fit --data CSV --laws A,B ...  fit laws to measured impacts, ranked (docs/fit.md)\n"
    "  chaindem models [LAW ...] [--markdown|--list]  the contact laws and their parameters\n"
    "  chaindem case-format       print the case-file reference (docs/case-format.md)\n"
    "  chaindem COMMAND --help    help for one command\n"
    "  chaindem --version\n";

int models(const std::vector<std::string>& args) {
  po::options_description desc("chaindem models options");
  bool markdown = false, list = false;
  desc.add_options()("help,h", "this help")("markdown", po::bool_switch(&markdown),
                                            "print docs/contact-laws.md")(
      "list", po::bool_switch(&list), "one line per law: id, family, required parameters");
  std::vector<std::string> names;
  const auto parsed = parse_command_line(args, desc, nullptr, "models", &std::cerr, &names);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  // The laws asked for by name, in the order given; none: every law.
  std::vector<const LawEntry*> chosen;
  for (const std::string& name : names) {
    const LawEntry* law = find_law(name);
    if (!law) {
      std::vector<std::string> ids;
      for (const auto& l : all_laws()) ids.emplace_back(l.id);
      std::cerr << "chaindem models: unknown law '" << quoted_text(name) << "'"
                << did_you_mean(name, ids) << " (`chaindem models --list` lists the " << ids.size()
                << " laws)\n";
      return 2;
    }
    chosen.push_back(law);
  }
  if (chosen.empty())
    for (const auto& law : all_laws()) chosen.push_back(&law);
  if (markdown && !names.empty()) {
    std::cerr << "chaindem models: --markdown prints the whole reference; give no law names\n";
    return 2;
  }
  if (markdown) {
    std::cout << laws_markdown();
    return 0;
  }
  if (list) {
    for (const LawEntry* entry : chosen) {
      const LawEntry& law = *entry;
      std::cout << law.id << "\t" << to_string(law.family) << "\t";
      std::string required;
      for (const auto& p : law.params) {
        if (p.default_value || !p.default_text.empty()) continue;
        if (!required.empty()) required += ',';
        required += p.key;
      }
      std::cout << (required.empty() ? "-" : required) << "\n";
    }
    return 0;
  }
  if (vm.count("help")) {
    std::cout << "usage: chaindem models [LAW ...]\nLists every contact law, or the laws named: "
                 "identifier, citation, formula, damping and parameters (unit, allowed range, "
                 "default).\n\n"
              << desc;
    return 0;
  }
  for (const LawEntry* entry : chosen) {
    const LawEntry& law = *entry;
    std::cout << law.id << "  [" << to_string(law.family) << "]  " << law.title << "\n"
              << "    source:  " << law.citation << "\n"
              << "    force:   " << law.formula << "\n"
              << "    damping: " << law.damping << "\n"
              << "    tension: " << to_string(law.tension) << " by default\n";
    if (!law.notes.empty()) std::cout << "    notes:   " << law.notes << "\n";
    for (const auto& p : law.params) {
      std::cout << "    contact." << std::left << std::setw(22) << p.key << std::setw(9) << p.unit
                << " " << std::setw(12) << p.range_text() << " default ";
      if (p.default_value)
        std::cout << *p.default_value;
      else if (!p.default_text.empty())
        std::cout << p.default_text;
      else
        std::cout << "required";
      std::cout << "\n        " << p.description << "\n";
    }
    std::cout << "\n";
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  po::options_description desc("chaindem run options");
  RunOptions o;
  desc.add_options()("help,h", "this help")("output,o", po::value(&o.output),
                                            "output HDF5 file (default: output.file of the case)")(
      "set", po::value(&o.overrides)->composing(),
      "override a case key: --set section.key=value (repeatable; wins over the file)")(
      "unset", po::value(&o.unset)->composing(),
      "remove a key the case file gives: --unset section.key (repeatable; its default "
      "applies)")("quiet,q", po::bool_switch(&o.quiet), "no progress and no summary")(
      "restart", po::bool_switch(&o.restart),
      "continue from the checkpoint OUT.h5.checkpoint that an interrupted run of the same case "
      "left (SIGTERM, or output.checkpoint_interval); the result is bitwise the uninterrupted "
      "run's")("discard-checkpoint", po::bool_switch(&o.discard_checkpoint),
               "start over although OUT.h5.checkpoint holds this case's interrupted run (deletes "
               "it and OUT.h5.partial; without --restart or this, such a run is refused)");
  const auto parsed = parse_command_line(args, desc, &o.case_path, "run", &std::cerr);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    std::cout << "usage: chaindem run CASE.ini [-o OUT.h5] [--set section.key=value ...]\n\n"
                 "Runs one case and writes an H5MD/HDF5 file (docs/output-format.md). Case keys "
                 "(docs/case-format.md):\n";
    for (const auto& k : case_keys())
      std::cout << "  " << std::left << std::setw(30) << k.key << " " << k.unit << "  "
                << k.description << "\n";
    std::cout << "  material.NAME.{youngs_modulus,poisson_ratio,density,yield_stress}\n\n" << desc;
    return 0;
  }
  if (o.case_path.empty()) {
    std::cerr << "chaindem run: missing CASE.ini\n" << usage;
    return 2;
  }
  if (vm.count("output") && o.output.empty()) {  // not the case's output.file, silently
    std::cerr << "chaindem run: invalid output: -o is empty: give the output file, or leave -o "
                 "out to write the case's output.file\n";
    return 2;
  }
  return run_case(o, std::cout, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  const TerminalGuard guard(std::cerr);
  hdf5::quiet_errors();  // this thread's; every other thread that calls HDF5 turns off its own
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << usage;
    return 2;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  try {
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << usage;
      return 0;
    }
    if (command == "--version") {
      std::cout << "chaindem " << version << "\n";
      return 0;
    }
    if (command == "run") return run(args);
    if (command == "models") return models(args);
    if (command == "collide") return collide_command(args, std::cout, std::cerr);
    if (command == "sweep") return sweep_command(args, std::cout, std::cerr);
    if (command == "compare") return compare_command(args, std::cout, std::cerr);
    if (command == "fit") return fit_command(args, std::cout, std::cerr);
    if (command == "case-format") {
      po::options_description desc("chaindem case-format options");
      desc.add_options()("help,h", "this help");
      const auto parsed = parse_command_line(args, desc, nullptr, "case-format", &std::cerr);
      if (!parsed) return 2;
      if (parsed->count("help")) {
        std::cout << "usage: chaindem case-format\nPrints the reference of every case-file key "
                     "(docs/case-format.md).\n\n"
                  << desc;
        return 0;
      }
      std::cout << case_format_markdown();
      return 0;
    }
  } catch (const std::bad_alloc&) {  // not the input's fault: the machine's, or its limits'
    std::cerr << "chaindem " << command << ": error: memory ran out\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "chaindem: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "chaindem: unknown command '" << quoted_text(command) << "'"
            << did_you_mean(command,
                            {"run", "sweep", "compare", "collide", "fit", "models", "case-format"})
            << "\n"
            << usage;
  return 2;
}
