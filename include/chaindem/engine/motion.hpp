#pragma once
// Prescribed motion along a line: how far a driven wall, load or body has moved from its place
// at t = 0, and how fast, as exact functions of time. The engines evaluate them at each step's
// time n dt, so a driven boundary follows its path to rounding however many steps a run takes
// (an offset accumulated step by step would drift by the rounding of every step).

#include <memory>
#include <string>
#include <vector>

namespace chaindem {

/// A motion s(t) along a line, s in metres from the place at t = 0 (or, for harmonic motion,
/// from the centre of the oscillation), t in seconds from the start of the run.
class Motion {
 public:
  /// One harmonic term: amplitude [m], frequency [Hz], phase [rad]: A sin(2 pi f t + phi).
  struct Harmonic {
    double amplitude = 0.0;
    double frequency = 0.0;
    double phase = 0.0;
  };
  /// How a table's samples are joined: straight lines (velocity constant between samples) or
  /// the modified Akima interpolant (Akima 1970, as Boost's makima: continuous velocity, no
  /// overshoot at flat stretches).
  enum class Interpolation { linear, makima };

  /// At rest (s = 0): a wall that does not move.
  Motion() = default;
  /// s = v t.
  static Motion constant_velocity(double velocity);
  /// s = r(t) sum_k A_k sin(2 pi f_k t + phi_k), where r rises from 0 to 1 over `ramp` seconds
  /// as 10 tau^3 - 15 tau^4 + 6 tau^5 (tau = t / ramp), whose first two derivatives vanish at
  /// both ends: with a ramp the motion starts from rest at its centre, and reaches the pure
  /// oscillation at t = ramp without a jump in velocity or acceleration. ramp = 0: no ramp, and
  /// s = sum_k A_k (sin(2 pi f_k t + phi_k) - sin phi_k), so that s(0) = 0 whatever the phases.
  static Motion harmonics(std::vector<Harmonic> terms, double ramp);
  /// s interpolated in a table of (t, s) samples, t strictly increasing from 0, s(0) = 0; past
  /// the last sample the motion continues at the last sample's velocity.
  static Motion table(std::vector<double> time, std::vector<double> displacement,
                      Interpolation interpolation);

  double displacement(double t) const;  ///< s(t) [m]
  double velocity(double t) const;      ///< ds/dt [m/s]
  /// A bound on the speed the motion reaches over [0, duration] [m/s] (for the time step and the
  /// impact speeds it can cause): exact for constant and table motion (the largest over the
  /// intervals the run reaches), for harmonics the sum of the terms' A 2 pi f, plus, with a
  /// ramp, 1.875 sum |A| / ramp (the ramp's steepest slope times the largest displacement).
  double largest_speed(double duration) const;
  /// The longest time step that resolves the motion: a harmonic's period or the ramp, whichever
  /// is shorter, over `steps_per_period`; a table's shortest interval between samples (every
  /// sample met by a step); infinity for constant velocity.
  /// Only the table's intervals that begin before `duration` count.
  double longest_step(double steps_per_period, double duration) const;
  /// The shortest period of a harmonic motion; infinity for the others.
  double shortest_period() const;
  /// The same motion with s multiplied by `factor` (a motion given along +x, for a wall whose
  /// normal is -x).
  Motion scaled(double factor) const;
  /// True when the motion is s = v t (or rest): the engines' constant-velocity walls.
  bool is_constant_velocity() const { return kind_ == Kind::constant; }
  /// True when s = 0 at every t.
  bool at_rest() const { return kind_ == Kind::constant && velocity_ == 0.0; }
  /// A word for messages and the output's parameters: "at rest", "constant velocity 0.1 m/s",
  /// "2 harmonics, ramp 0.01 s", "table of 120 samples (makima)".
  std::string describe() const;

 private:
  enum class Kind { constant, harmonics, table };
  struct Table;
  double shape(double t) const;       // harmonics and tables, before scale_
  double shape_rate(double t) const;  // its derivative
  Kind kind_ = Kind::constant;
  double velocity_ = 0.0;  // constant
  std::vector<Harmonic> terms_;
  double ramp_ = 0.0;
  double scale_ = 1.0;                  // harmonics and tables: s = scale_ x what they give
  double start_ = 0.0;                  // harmonics without a ramp: their value at t = 0, taken off
  std::shared_ptr<const Table> table_;  // immutable, shared by copies
};

}  // namespace chaindem
