// `chaindem models`: the law registry as a user reads it, a law at a time or as a list.
#include "chaindem/commands/models_command.hpp"

#include <boost/program_options.hpp>
#include <iomanip>
#include <ostream>

#include "chaindem/laws/binary_impact.hpp"

#include "chaindem/commands/command_line.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {

namespace {

// The laws named, in the order given; none named: every law. An unknown name is refused with the
// closest identifiers.
std::vector<const LawEntry*> named_laws(const std::vector<std::string>& names) {
  std::vector<const LawEntry*> chosen;
  for (const std::string& name : names) {
    const LawEntry* law = find_law(name);
    if (!law) {
      std::vector<std::string> ids;
      for (const auto& l : all_laws()) ids.emplace_back(l.id);
      throw Refusal("unknown law '" + quoted_text(name) + "'" + did_you_mean(name, ids) +
                    " (`chaindem models --list` lists the " + std::to_string(ids.size()) +
                    " laws)");
    }
    chosen.push_back(law);
  }
  if (chosen.empty())
    for (const auto& law : all_laws()) chosen.push_back(&law);
  return chosen;
}

// --list: a line per law, its identifier, family and required parameters, tab separated.
void print_law_list(std::ostream& out, const std::vector<const LawEntry*>& laws) {
  for (const LawEntry* entry : laws) {
    const LawEntry& law = *entry;
    out << law.id << "\t" << to_string(law.family) << "\t";
    std::string required;
    for (const auto& p : law.params) {
      if (p.default_value || !p.default_text.empty()) continue;
      if (!required.empty()) required += ',';
      required += p.key;
    }
    out << (required.empty() ? "-" : required) << "\n";
  }
}

// Each law in full: source, formulas, and every parameter with its unit, range and default.
void print_laws(std::ostream& out, const std::vector<const LawEntry*>& laws) {
  for (const LawEntry* entry : laws) {
    const LawEntry& law = *entry;
    out << law.id << "  [" << to_string(law.family) << "]  " << law.title << "\n"
        << "    source:  " << law.citation << "\n"
        << "    force:   " << law.formula << "\n"
        << "    damping: " << law.damping << "\n"
        << "    tension: " << to_string(law.tension) << " by default\n";
    if (!law.notes.empty()) out << "    notes:   " << law.notes << "\n";
    out << "    holds:   " << validity_text(law.validity) << "\n";
    for (const auto& p : law.params) {
      out << "    contact." << std::left << std::setw(22) << p.key << std::setw(9) << p.unit << " "
          << std::setw(12) << p.range_text() << " default ";
      if (p.default_value)
        out << *p.default_value;
      else if (!p.default_text.empty())
        out << p.default_text;
      else
        out << "required";
      out << "\n        " << p.description << "\n";
    }
    if (const std::string e = reference_restitution_text(law); !e.empty())
      out << "    restitution achieved: " << e << "\n";
    out << "\n";
  }
}

}  // namespace

int models_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    po::options_description desc("chaindem models options");
    bool markdown = false, list = false;
    desc.add_options()("help,h", "this help")("markdown", po::bool_switch(&markdown),
                                              "print docs/contact-laws.md")(
        "list", po::bool_switch(&list), "one line per law: id, family, required parameters");
    std::vector<std::string> names;
    const po::variables_map vm = parse_command_line(args, desc, nullptr, "models", &names);
    const std::vector<const LawEntry*> laws = named_laws(names);
    if (markdown && !names.empty())
      throw Refusal("--markdown prints the whole reference; give no law names");
    if (markdown) {
      out << laws_markdown();
    } else if (list) {
      print_law_list(out, laws);
    } else if (vm.count("help")) {
      out << "usage: chaindem models [LAW ...]\nLists every contact law, or the laws named: "
             "identifier, citation, formula, damping and parameters (unit, allowed range, "
             "default).\n\n"
          << desc;
    } else {
      print_laws(out, laws);
    }
    return exit_done;
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem models", &err});
  }
}

}  // namespace chaindem
