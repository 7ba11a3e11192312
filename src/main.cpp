// chaindem: the program. The commands are rows of a table (commands/command_registry.hpp); here,
// only what the process owns: its standard error, guarded, and HDF5's error printing.
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include "chaindem/commands/command_registry.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/text.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  const TerminalGuard guard(std::cerr);
  hdf5::quiet_errors();     // this thread's; every other thread that calls HDF5 turns off its own
  load_filter_libraries();  // files to read may be LZF-compressed
  return run_command_line({argv + 1, argv + argc}, std::cout, std::cerr);
}
