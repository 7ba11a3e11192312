// Prints postprocess/chaindem_post/layout.py, the Python reader's names of the output layout,
// from the one declaration of it (output/output_layout.hpp). The test output_layout_python
// compares the file with what this prints; after a change of the layout:
//     build/tests/chaindem_layout_py > postprocess/chaindem_post/layout.py
#include <iostream>

#include "chaindem/output/output_layout.hpp"

int main() {
  std::cout << chaindem::layout::layout_python();
  return std::cout ? 0 : 1;
}
