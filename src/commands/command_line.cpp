#include "chaindem/commands/command_line.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <system_error>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/suggest.hpp"

namespace po = boost::program_options;

namespace chaindem {

po::variables_map parse_command_line(const std::vector<std::string>& args,
                                     const po::options_description& options,
                                     std::string* positional, std::string_view command,
                                     std::vector<std::string>* positionals) {
  po::options_description all;
  all.add(options);
  po::positional_options_description pos;
  if (positionals) {
    po::options_description hidden;
    hidden.add_options()("positional-argument", po::value(positionals)->composing());
    all.add(hidden);
    pos.add("positional-argument", -1);
  } else if (positional) {
    po::options_description hidden;
    hidden.add_options()("positional-argument", po::value(positional));
    all.add(hidden);
    pos.add("positional-argument", 1);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& o : options.options())
      if (!o->long_name().empty()) names.push_back("--" + o->long_name());
    throw Refusal(option_error_message(e) + did_you_mean(e.get_option_name(), names) +
                  " (`chaindem " + std::string(command) + " --help` lists the options)");
  } catch (const po::too_many_positional_options_error&) {
    // The first argument that is not an option (nor an option's value) beyond those taken.
    std::size_t taken = positional ? 1 : 0;
    std::string stray;
    for (std::size_t k = 0; k < args.size() && stray.empty(); ++k) {
      if (args[k].starts_with("-")) {
        const std::string name = args[k].substr(args[k].find_first_not_of('-'));
        const auto* o = options.find_nothrow(name.substr(0, name.find('=')), false);
        if (o && o->semantic()->max_tokens() > 0 && name.find('=') == std::string::npos) ++k;
        continue;
      }
      if (taken > 0)
        --taken;
      else
        stray = args[k];
    }
    throw Refusal("unexpected argument '" + quoted_text(stray) + "': " +
                  (positional ? "the command takes one file" : "the command takes no argument") +
                  " (`chaindem " + std::string(command) + " --help`)");
  } catch (const po::error& e) {
    throw Refusal(option_error_message(e));
  }
  return vm;
}

std::vector<std::string> comma_list(const std::string& option, const std::string& text,
                                    const std::string& allowed) {
  std::vector<std::string> entries;
  if (trimmed(text).empty()) return entries;
  for (std::size_t from = 0;;) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    entries.push_back(trimmed(text.substr(from, comma - from)));
    if (entries.back().empty())
      throw CaseError(option + " '" + quoted_text(text) + "': an empty entry (entries are " +
                      "separated by single commas)" + (allowed.empty() ? "" : "; " + allowed));
    if (comma == text.size()) return entries;
    from = comma + 1;
  }
}

int command_threads(const po::variables_map& options) {
  if (!options.count("threads")) return default_threads();
  const int threads = options["threads"].as<int>();
  if (threads < 1 || threads > max_threads)
    throw CaseError("--threads: " + std::to_string(threads) + " is out of range: allowed 1 to " +
                    std::to_string(max_threads));
  return threads;
}

void add_force_option(po::options_description& options, bool* force) {
  options.add_options()("force", po::bool_switch(force),
                        "replace the output file if it exists (refused otherwise)");
}

std::string default_output_path(const std::string& input, std::string_view suffix,
                                const std::vector<std::string>& overrides,
                                const std::vector<std::string>& unset) {
  std::string name = std::filesystem::path(input).stem().string();
  auto add = [&name](std::string_view prefix, const std::string& change) {
    name += prefix;
    for (const char ch : change)
      name += std::isalnum(static_cast<unsigned char>(ch)) || (ch && std::strchr(".=+-", ch)) ? ch
                                                                                              : '-';
  };
  for (const std::string& o : overrides) add("_", o);
  for (const std::string& u : unset) add("_-", u);
  if (name.size() > 100) {  // FNV-1a of the whole name keeps cut names apart
    std::uint32_t hash = 2166136261u;
    for (const char ch : name) hash = (hash ^ static_cast<unsigned char>(ch)) * 16777619u;
    char tail[10];
    std::snprintf(tail, sizeof tail, "-%08x", hash);
    name = name.substr(0, 91) + tail;
  }
  const std::filesystem::path folder = "out";
  std::error_code ec;
  std::filesystem::create_directory(folder, ec);  // a failure shows when the output is checked
  name += suffix;
  return (folder / name).string();
}

std::string failure_text(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) ? "memory ran out" : e.what();
}

}  // namespace chaindem
