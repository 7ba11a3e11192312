// `chaindem case-format`: the case-file reference, generated from the keys the case reader
// knows.
#include "chaindem/commands/case_format_command.hpp"

#include <boost/program_options.hpp>
#include <ostream>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/setup/case_file.hpp"

namespace po = boost::program_options;

namespace chaindem {

int case_format_command(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
  po::options_description desc("chaindem case-format options");
  desc.add_options()("help,h", "this help");
  const auto parsed = parse_command_line(args, desc, nullptr, "case-format", &err);
  if (!parsed) return 2;
  if (parsed->count("help")) {
    out << "usage: chaindem case-format\nPrints the reference of every case-file key "
           "(docs/case-format.md).\n\n"
        << desc;
    return 0;
  }
  out << case_format_markdown();
  return 0;
}

}  // namespace chaindem
