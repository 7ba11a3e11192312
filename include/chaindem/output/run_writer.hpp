#pragma once
// What a run hands its output to: each output frame as it is reached, then the summary. A run's
// own file and a case's group in a sweep file are written by H5mdWriter; a case of a sweep that
// stacks its cases' series is a row of the sweep's datasets (StackedCase, stacked_writer.hpp).

#include <cstddef>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem {

class RunWriter {
 public:
  virtual ~RunWriter() = default;
  /// Appends one output frame: the selected quantities of `sim` now, and its energies `e`.
  virtual void write_frame(const Simulation& sim, const EnergyReport& e) = 0;
  /// The run has computed its last frame: the writer may prepare what it holds now, on the
  /// thread that computed the run (a stacked case compresses its rows).
  virtual void computed() {}
  /// Writes what is held and the summary; the output is complete once this returns.
  virtual void finish(const layout::RunSummary& summary) = 0;
  /// The output held in memory, not yet handed to HDF5 [bytes].
  virtual std::size_t buffered_bytes() const = 0;
};

}  // namespace chaindem
