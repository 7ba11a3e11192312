#pragma once
// The chain engine: a line of beads whose pair c joins beads c and c + 1 for the whole run,
// advanced in cache-sized passes of several steps (docs/engine.md, "Chain engine").

#include "engine_state.hpp"

namespace chaindem::detail {

class ChainEngine final : public Engine {
 public:
  /// Builds the chain's contacts (the state must form a chain: forms_chain) and evaluates the
  /// forces of step 0.
  explicit ChainEngine(EngineState& state);
  /// n steps in passes of equal length; if a contact overlaps by a radius, the message names the
  /// step and the state is the pass's end.
  void advance(std::int64_t n) override;
  void watch_changed() override;
  bool vectorised_pairs() const override;
  std::int64_t neighbor_rebuilds() const override { return 1; }  // built once

 private:
  struct ChainPass;
  struct ChainRange;
  void build_contacts();
  /// The contact and particle forces at construction.
  void evaluate_contacts(const ContactRules& rules);
  void run_pass(std::int64_t steps, std::int64_t log_offset);
  void book_wall_work(std::size_t pass_steps);
  [[noreturn]] void report_fault(const ChainPass& pass, std::int64_t steps);
  template <class KernelT, bool vector_pairs>
  void run_range(ChainPass& pass, const ChainRange& r);
  template <class KernelT>
  void advance_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass);
  template <class KernelT>
  void advance_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass& pass);
  struct VectorPairs;
  template <class KernelT>
  void plastic_block(const VectorPairs& vp, std::size_t b0, std::size_t b1);
  template <class KernelT>
  void split_force_block(const VectorPairs& vp, std::size_t b0, std::size_t b1);
  template <class KernelT>
  void book_touch_changes(const VectorPairs& vp, std::size_t b0, std::size_t b1,
                          const std::uint8_t* changed);
  /// Whether the law runs on the vectorised pair loop (advance_pairs_vector).
  template <class KernelT>
  bool vectorised() const;
  /// Loads the histories into columns when the vectorised loop keeps them there; the returned
  /// guard stores them back into the pairs' states (also when a step throws).
  struct ColumnsGuard;
  ColumnsGuard load_history_columns();
  void gather(std::size_t begin, std::size_t end, double closing_kick);

  EngineState& state_;
  std::vector<double> radius_sum_;    ///< r_c + r_(c+1)
  std::vector<double> base_force_x_;  ///< external force + m g along x, per particle
  bool zero_base_force_ = false;      ///< base_force_x_ is all zero
  bool uniform_mass_ = false;         ///< every particle has the same mass
  double min_radius_ = 0.0;           ///< bounds every overlap of the chain
  /// Every pair has the same coefficients and radius sum (a uniform chain): history-free laws
  /// then run a vectorised loop that evaluates every pair.
  bool uniform_pairs_ = false;
  /// Laws that read only v0, on the vectorised loop: each pair's v0 and damping origin
  /// (ContactState::impact_velocity, damping_origin, origin_overlap, origin_force,
  /// origin_energy) as columns, the working copy of the pairs' states during advance().
  std::vector<double> pair_impact_velocity_, pair_damping_origin_, pair_origin_overlap_,
      pair_origin_force_, pair_origin_energy_;
  bool any_damping_origin_ = false;  ///< some pair started pre-compressed with a static origin
  /// Plastic laws on the vectorised loop: the pairs' histories as columns (PlasticHistory's
  /// fields, one array each), the working copy of the pairs' states during advance().
  struct HistoryColumns {
    std::vector<double> max_overlap, max_force, residual_overlap, unload_stiffness, unload_exponent,
        unloading, regime;
    void load(const std::vector<ContactState>& states);
    void store(std::vector<ContactState>& states) const;
    kernels::PlasticHistory get(std::size_t c) const;
    void set(std::size_t c, const kernels::PlasticHistory& h);
  } plastic_columns_;
  /// Pair index of each watched pair (none: the particles are not neighbours in the chain).
  std::vector<std::optional<std::size_t>> watched_chain_pair_;
  std::vector<Eigen::Vector3d> pass_wall_point_;  ///< during a pass: [step * walls + w]
  std::vector<double> pass_wall_force_;           ///< during a pass: [step * wall contacts + c]
};

}  // namespace chaindem::detail
