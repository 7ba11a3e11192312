#pragma once
// Why the engine stopped a run, as data: what went wrong, with which bodies, at which step, and
// the quantity against its limit. The message (what()) says it in terms of the scene (particles,
// walls, steps); the layer that built the run from a case adds what to change there, by the
// case's keys (case_fault_text, commands/case_runner.hpp).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace chaindem {

struct EngineFault : std::runtime_error {
  enum class Kind {
    too_deep,  ///< a contact's overlap reached the limit: no contact law holds there
    diverged,  ///< a quantity stopped being a finite number: the integration diverged
  };
  /// The quantity that went wrong: a contact's overlap, or a particle's position, velocity or
  /// force.
  enum class Quantity { overlap, position, velocity, force };
  struct Facts {
    Kind kind;
    Quantity quantity;
    int particle;                       ///< the particle, or the first particle of the pair
    std::optional<int> other_particle;  ///< the second particle of a pair
    std::optional<std::size_t> wall;    ///< the wall of a wall contact
    std::int64_t step;                  ///< the step that went wrong (0: the state at the start)
    double time;                        ///< the simulated time of that step [s]
    /// The overlap [m], or the norm of the position [m], velocity [m/s] or force [N].
    double value;
    /// What the value must stay below: the smaller radius of the bodies in contact [m], or
    /// infinity for a particle's position, velocity or force.
    double limit;
  };
  Facts facts;

  EngineFault(const Facts& f, const std::string& message) : std::runtime_error(message), facts(f) {}
};

}  // namespace chaindem
