#pragma once
// The time series H5mdWriter writes and the frames it hands to its writing thread. Private to
// src/output/.

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_layout.hpp"
#include "series_clocks.hpp"

namespace chaindem::output_detail {

// An H5MD time-dependent element: a group with step, time and value. The elements of a group of
// series (SeriesClocks) are sampled at the same frames, so only the first holds step and time
// datasets; the others get hard links to them when the run finishes (H5MD allows the sharing).
// That halves the datasets a run creates, which is what a sweep's many small cases spend their
// serialised HDF5 time on.
struct TimeSeries {
  std::string name;
  hdf5::Handle group_;
  hdf5::Growing value;
  std::size_t group = 0;  // its SeriesClocks group
  TimeSeries() = default;
  TimeSeries(std::string name_, std::vector<hsize_t> shape, const std::string& unit, hsize_t frames,
             std::mutex* lock, Compression compression, std::size_t group_of_series)
      : name(std::move(name_)),
        value(-1, "value", std::move(shape), hdf5::Scalar::float64, unit, frames, lock,
              compression),
        group(group_of_series) {}
  void open(hid_t parent) {
    group_ = hdf5::group(parent, name);
    value.attach(group_.get());
  }
};

// One output frame, copied out of the simulation: the selected quantities (the others stay
// empty).
struct Frame {
  std::int64_t step = 0;
  double time = 0.0;
  std::array<bool, SeriesClocks::groups> due{};  // the groups written at this frame
  // Per particle column: N x D, particle-major as the file holds them (copied so from the
  // simulation's columns, so that writing needs no second N x 3 buffer).
  std::array<std::vector<double>, layout::particle_columns.size()> particles;
  std::array<double, layout::observable_values> observables{};  // column after column
  // Per wall column (layout::wall_columns): walls x 3; empty when not written.
  std::array<std::vector<double>, layout::wall_columns.size()> walls;
  std::vector<std::int32_t> first, second;
  std::vector<std::int32_t> model;  // several contact models: each contact's
  std::array<std::vector<double>, layout::contact_columns.size()> contact_values;  // per column
  std::vector<double> sections;  // several contact models: the energy of each chain section

  std::size_t bytes() const {
    std::size_t doubles = sections.size();
    for (const auto& v : walls) doubles += v.size();
    for (const auto& v : particles) doubles += v.size();
    for (const auto& v : contact_values) doubles += v.size();
    return 8 * doubles + 4 * (first.size() + second.size() + model.size());
  }
};

// The particle columns `output` selects, copied out of the simulation as the file holds them
// (frame_copy.cpp).
void copy_particles(const Particles& p, const layout::OutputSelection& output, Frame& f);
struct ChainSection;
// The observables `output` selects, the energy of each of `sections` (several contact models)
// and, `walls` (the scene has walls), the wall columns `output` selects (frame_copy.cpp).
void copy_observables(const Simulation& sim, const EnergyReport& e,
                      const layout::OutputSelection& output,
                      const std::vector<ChainSection>& sections, bool walls, Frame& f);
// The touching contacts, pairs then walls, with the columns `output` selects and, `several`
// contact models, each contact's model. `touching`: the caller's buffers, reused.
void copy_contacts(const Simulation& sim, const layout::OutputSelection& output, bool several,
                   std::array<std::vector<std::uint32_t>, 2>& touching, Frame& f);

}  // namespace chaindem::output_detail
