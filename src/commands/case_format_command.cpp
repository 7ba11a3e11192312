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
  try {
    po::options_description desc("chaindem case-format options");
    desc.add_options()("help,h", "this help");
    if (parse_command_line(args, desc, nullptr, "case-format").count("help"))
      out << "usage: chaindem case-format\nPrints the reference of every case-file key "
             "(docs/case-format.md).\n\n"
          << desc;
    else
      out << case_format_markdown();
    return exit_done;
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem case-format", &err});
  }
}

}  // namespace chaindem
