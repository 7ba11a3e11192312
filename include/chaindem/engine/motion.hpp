#pragma once
// Prescribed motion along a line: how far a driven wall, load or body has moved from its place
// at t = 0, and how fast, as exact functions of time. The engines evaluate them at each step's
// time n dt, so a driven boundary follows its path to rounding however many steps a run takes
// (an offset accumulated step by step would drift by the rounding of every step). A driven load
// (Scene::DrivenLoad) reads a Motion as a function of time in newtons: its "displacement" is then
// the change of the load, its "velocity" the load's rate.

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
  /// The slider of a slider-crank: a crank of radius r turning at the constant rate omega from
  /// the angle phi0 (rad, from the line of stroke), its pin at (r cos phi, e + r sin phi), drives
  /// through a rod of length l (pivot offset e from the line of stroke) a slider on the line of
  /// stroke at X = r cos phi + side sqrt(l^2 - (e + r sin phi)^2), side +1 or -1 (the slider
  /// beyond the pivot along +x, or before it). s = X(t) - X(0), exact. Needs |e| + r < l.
  /// Its obliquity is cos beta = sqrt(l^2 - y^2) / l, beta the rod's angle to the line of stroke.
  struct Crank {
    double radius = 0.0;  ///< r [m]
    double speed = 0.0;   ///< omega [rad/s]
    double angle = 0.0;   ///< phi0 [rad]
    double rod = 0.0;     ///< l [m]
    double offset = 0.0;  ///< e [m]
    int side = 1;         ///< +1 or -1
  };
  static Motion slider_crank(const Crank& crank);

  double displacement(double t) const;  ///< s(t) [m]
  double velocity(double t) const;      ///< ds/dt [m/s]
  /// A bound on the speed the motion reaches over [0, duration] [m/s] (for the time step and the
  /// impact speeds it can cause): exact for constant and table motion (the largest over the
  /// intervals the run reaches), for harmonics the sum of the terms' A 2 pi f, plus, with a
  /// ramp, 1.875 sum |A| / ramp (the ramp's steepest slope times the largest displacement); for
  /// a slider-crank r omega (1 + y / sqrt(l^2 - y^2)), y = |e| + r.
  double largest_speed(double duration) const;
  /// The longest time step that resolves the motion: a harmonic's period or the ramp, whichever
  /// is shorter, over `steps_per_period`; a table's shortest interval between samples (every
  /// sample met by a step); a crank's turn over `steps_per_period`; infinity for constant
  /// velocity. Only the table's intervals that begin before `duration` count.
  double longest_step(double steps_per_period, double duration) const;
  /// A bound on |s| over [0, duration]: for harmonics the sum of |A| (and, without a ramp, the
  /// |sum A sin phi| taken off); for a table the largest |s| of its interpolant over the intervals
  /// the run reaches (and past the last sample, where the run goes on); |v| duration at constant
  /// velocity; for a slider-crank twice the crank's radius.
  double largest_displacement(double duration) const;
  /// The shortest period of a harmonic motion; infinity for the others.
  double shortest_period() const;
  /// The obliquity n(t) in (0, 1] of the contacts of a wall on this path, and dn/dt [1/s]: a
  /// contact's normal makes the angle acos n with the wall's, so that its normal overlap is n
  /// times the overlap along the wall's normal, and the bodies feel n times its force. For a
  /// slider-crank, cos beta (the rod pushes along itself); 1 and 0 for every other motion.
  double obliquity(double t) const;
  double obliquity_rate(double t) const;
  /// True when the obliquity is not 1 at every t (a slider-crank).
  bool oblique() const { return kind_ == Kind::slider_crank; }
  /// The same motion with s multiplied by `factor` (a motion given along +x, for a wall whose
  /// normal is -x); the obliquity is not a displacement and stays as it is.
  Motion scaled(double factor) const;
  /// True when the motion is s = v t (or rest): the engines' constant-velocity walls.
  bool is_constant_velocity() const { return kind_ == Kind::constant; }
  /// True when s = 0 at every t.
  bool at_rest() const { return kind_ == Kind::constant && velocity_ == 0.0; }
  /// A word for messages and the output's parameters: "at rest", "constant velocity 0.1 m/s",
  /// "2 harmonics, ramp 0.01 s", "table of 120 samples (makima)", "slider-crank, crank 0.04 m at
  /// 75.4 rad/s, rod 0.0601 m".
  std::string describe() const;

 private:
  enum class Kind { constant, harmonics, table, slider_crank };
  struct Table;
  double shape(double t) const;       // harmonics and tables, before scale_
  double shape_rate(double t) const;  // its derivative
  // The crank's pin height y = e + r sin phi and its rate at t, and sqrt(l^2 - y^2).
  struct Rod {
    double y, rate, root;
  };
  Rod rod_at(double t) const;
  Kind kind_ = Kind::constant;
  double velocity_ = 0.0;  // constant
  std::vector<Harmonic> terms_;
  double ramp_ = 0.0;
  double scale_ = 1.0;  // harmonics and tables: s = scale_ x what they give
  // harmonics without a ramp and slider-cranks: their value at t = 0, taken off
  double start_ = 0.0;
  std::shared_ptr<const Table> table_;  // immutable, shared by copies
  Crank crank_;                         // slider_crank
};

}  // namespace chaindem
