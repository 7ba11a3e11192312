#pragma once
// The general engine: spheres in 3D, their pairs found by a neighbor search with a skin,
// velocity Verlet over every particle (docs/engine.md).

#include "engine_state.hpp"

namespace chaindem::detail {

class GeneralEngine final : public Engine {
 public:
  /// Finds the candidate contacts and evaluates the forces of step 0.
  explicit GeneralEngine(EngineState& state);
  void advance(std::int64_t n) override;
  std::int64_t neighbor_rebuilds() const override { return rebuilds_; }
  void save(StateArchive& archive) const override;
  void restore(const StateArchive& archive) override;

 private:
  void step();
  /// Contact forces (pairs, walls, separations in list order) and particle forces.
  void compute_forces();
  /// The force of every pair, or of the pairs `group` lists (group_pairs_); notes in `deep` the
  /// first pair gone too deep (too_deep).
  template <class KernelT>
  void evaluate_pairs(const ContactRules& rules, FirstFault& deep,
                      const std::vector<std::size_t>* group = nullptr);
  /// Sorts the pairs by model into group_pairs_, if they obey several.
  void group_by_model();
  /// least_radius_ of the pairs.
  void bound_pair_radius();
  void gather_forces(bool first);
  /// The driven loads' changes, added to the forces gather_forces summed (Scene::driven_loads).
  void add_driven_loads(bool first);
  /// The pairs' strains at this evaluation, and the impact speed of pair c at its first touch,
  /// into the validity tallies.
  void watch_strains();
  [[gnu::cold, gnu::noinline]] void note_onset(std::size_t c) const;
  /// A new candidate list, keeping the history of the pairs in both lists.
  void rebuild_neighbors();
  /// Whether two surfaces may have closed the skin since the last rebuild.
  bool skin_crossed() const;

  EngineState& state_;
  std::int64_t rebuilds_ = 0;
  Vec3Array reference_position_;  ///< positions at the last neighbor rebuild
  std::vector<Eigen::Vector3d> wall_offset_at_rebuild_;
  /// Plastic histories of pairs outside the neighbor structure, by (first << 32 | second).
  std::unordered_map<std::uint64_t, ContactState> dormant_pairs_, dormant_walls_;
  /// The model every contact obeys (-1: they obey several), and then the pairs of each model,
  /// group_pairs_[m] for model m, in list order.
  int common_model_ = 0;
  std::vector<std::vector<std::size_t>> group_pairs_;
  /// The kind of every pair when the particles are of one material, else -1; then their R* if
  /// they have one radius, else 0, and the smallest R* of the pairs (bound_pair_radius).
  int one_kind_ = -1;
  double one_radius_ = 0.0, least_radius_ = 0.0;
};

}  // namespace chaindem::detail
