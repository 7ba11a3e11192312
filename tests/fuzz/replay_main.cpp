// Replays fuzzing inputs without libFuzzer: each file named on the command line, and each file in
// a folder named there, goes once through LLVMFuzzerTestOneInput (tests/fuzz/fuzz_inputs.cpp),
// which aborts on a finding. The test suite runs it on tests/fuzz/corpus.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: fuzz_corpus_replay FILE_OR_FOLDER...\n";
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int a = 1; a < argc; ++a) {
    const fs::path arg = argv[a];
    if (fs::is_directory(arg)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());  // the same order on every run
      if (files.empty()) {
        std::cerr << "fuzz_corpus_replay: " << arg << " holds no files\n";
        return 2;
      }
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else {
      inputs.push_back(arg);
    }
  }
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "fuzz_corpus_replay: cannot read " << path << "\n";
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::cerr << "replaying " << path.filename().string() << " (" << bytes.size() << " bytes)\n";
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "fuzz_corpus_replay: " << inputs.size() << " inputs, no finding\n";
  return 0;
}
