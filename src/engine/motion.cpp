// Prescribed motion (motion.hpp): constant velocity, sums of harmonics with a smooth ramp,
// tables of samples joined by straight lines or the modified Akima interpolant, and the slider
// of a slider-crank.
#include "chaindem/engine/motion.hpp"

#include <algorithm>
#include <boost/math/interpolators/makima.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace chaindem {

struct Motion::Table {
  std::vector<double> time, displacement;
  Interpolation interpolation = Interpolation::linear;
  std::optional<boost::math::interpolators::makima<std::vector<double>>> makima;
  double end_velocity = 0.0;  // the velocity the motion keeps past the last sample

  // Index k of the interval [time[k], time[k + 1]] holding t (t within the table).
  std::size_t interval(double t) const {
    const auto it = std::upper_bound(time.begin(), time.end(), t);
    const auto k = static_cast<std::size_t>(std::max<std::ptrdiff_t>(it - time.begin(), 1)) - 1;
    return std::min(k, time.size() - 2);
  }
  double slope(std::size_t k) const {
    return (displacement[k + 1] - displacement[k]) / (time[k + 1] - time[k]);
  }
  double within(double t) const {
    if (makima) return (*makima)(t);
    const std::size_t k = interval(t);
    return displacement[k] + slope(k) * (t - time[k]);
  }
  double velocity_within(double t) const {
    if (makima) return makima->prime(t);
    return slope(interval(t));
  }
};

namespace {

// The ramp r(tau) = 10 tau^3 - 15 tau^4 + 6 tau^5 and dr/dtau, tau in [0, 1].
double ramp_value(double tau) {
  return tau * tau * tau * (10.0 + tau * (-15.0 + 6.0 * tau));
}
double ramp_slope(double tau) {
  const double u = tau * (1.0 - tau);
  return 30.0 * u * u;
}
// The largest dr/dtau, at tau = 1/2.
constexpr double ramp_steepest = 1.875;

}  // namespace

Motion Motion::constant_velocity(double velocity) {
  Motion m;
  m.velocity_ = velocity;
  return m;
}

Motion Motion::harmonics(std::vector<Harmonic> terms, double ramp) {
  if (!(ramp >= 0.0) || !std::isfinite(ramp))
    throw std::invalid_argument("Motion: the ramp must be a finite time >= 0");
  for (const Harmonic& h : terms)
    if (!std::isfinite(h.amplitude) || !std::isfinite(h.phase) || !(h.frequency >= 0.0) ||
        !std::isfinite(h.frequency))
      throw std::invalid_argument(
          "Motion: a harmonic needs a finite amplitude and phase and a "
          "finite frequency >= 0");
  Motion m;
  m.kind_ = Kind::harmonics;
  m.terms_ = std::move(terms);
  m.ramp_ = ramp;
  if (ramp == 0.0)
    for (const Harmonic& h : m.terms_) m.start_ += h.amplitude * std::sin(h.phase);
  return m;
}

Motion Motion::table(std::vector<double> time, std::vector<double> displacement,
                     Interpolation interpolation) {
  const std::size_t least = interpolation == Interpolation::makima ? 4 : 2;
  if (time.size() != displacement.size() || time.size() < least)
    throw std::invalid_argument(
        "Motion: a table needs as many displacements as times, and at "
        "least " +
        std::to_string(least) + " samples");
  if (time[0] != 0.0 || displacement[0] != 0.0)
    throw std::invalid_argument("Motion: a table starts at t = 0 with s = 0");
  for (std::size_t k = 0; k < time.size(); ++k) {
    if (!std::isfinite(time[k]) || !std::isfinite(displacement[k]))
      throw std::invalid_argument("Motion: a table's samples must be finite");
    if (k > 0 && !(time[k] > time[k - 1]))
      throw std::invalid_argument("Motion: a table's times must increase strictly");
  }
  auto t = std::make_shared<Table>();
  t->time = std::move(time);
  t->displacement = std::move(displacement);
  t->interpolation = interpolation;
  if (interpolation == Interpolation::makima) {
    std::vector<double> x = t->time, y = t->displacement;
    t->makima.emplace(std::move(x), std::move(y));
  }
  t->end_velocity = t->velocity_within(t->time.back());
  Motion m;
  m.kind_ = Kind::table;
  m.table_ = std::move(t);
  return m;
}

Motion Motion::slider_crank(const Crank& crank) {
  const Crank& k = crank;
  if (!std::isfinite(k.radius) || !(k.radius > 0.0) || !std::isfinite(k.speed) ||
      !std::isfinite(k.angle) || !std::isfinite(k.offset) || !std::isfinite(k.rod))
    throw std::invalid_argument(
        "Motion: a slider-crank needs a finite crank radius > 0, speed, angle and offset, and a "
        "finite rod length");
  if (!(std::abs(k.offset) + k.radius < k.rod))
    throw std::invalid_argument(
        "Motion: a slider-crank's rod must be longer than the crank radius plus the offset");
  if (k.side != 1 && k.side != -1)
    throw std::invalid_argument("Motion: a slider-crank's side is +1 or -1");
  Motion m;
  m.kind_ = Kind::slider_crank;
  m.crank_ = k;
  const Rod r = m.rod_at(0.0);
  m.start_ = k.radius * std::cos(k.angle) + k.side * r.root;
  return m;
}

Motion::Rod Motion::rod_at(double t) const {
  const Crank& k = crank_;
  const double phi = k.angle + k.speed * t;
  const double y = k.offset + k.radius * std::sin(phi);
  return {y, k.radius * k.speed * std::cos(phi), std::sqrt((k.rod - y) * (k.rod + y))};
}

double Motion::obliquity(double t) const {
  return kind_ == Kind::slider_crank ? rod_at(t).root / crank_.rod : 1.0;
}

double Motion::obliquity_rate(double t) const {
  if (kind_ != Kind::slider_crank) return 0.0;
  const Rod r = rod_at(t);
  return -r.y * r.rate / (crank_.rod * r.root);
}

Motion Motion::scaled(double factor) const {
  Motion m = *this;
  m.velocity_ *= factor;
  m.scale_ *= factor;
  return m;
}

double Motion::displacement(double t) const {
  return kind_ == Kind::constant ? velocity_ * t : scale_ * (shape(t) - start_);
}

double Motion::velocity(double t) const {
  return kind_ == Kind::constant ? velocity_ : scale_ * shape_rate(t);
}

double Motion::shape(double t) const {
  switch (kind_) {
    case Kind::constant:
      return velocity_ * t;
    case Kind::harmonics: {
      double h = 0.0;
      for (const Harmonic& k : terms_)
        h += k.amplitude * std::sin(2.0 * std::numbers::pi * k.frequency * t + k.phase);
      return t < ramp_ ? ramp_value(t / ramp_) * h : h;
    }
    case Kind::slider_crank: {
      const Rod r = rod_at(t);
      const double phi = crank_.angle + crank_.speed * t;
      return crank_.radius * std::cos(phi) + crank_.side * r.root;
    }
    case Kind::table: {
      const double last = table_->time.back();
      if (t <= last) return table_->within(std::max(t, 0.0));
      return table_->displacement.back() + table_->end_velocity * (t - last);
    }
  }
  return 0.0;
}

double Motion::shape_rate(double t) const {
  switch (kind_) {
    case Kind::constant:
      return velocity_;
    case Kind::harmonics: {
      double h = 0.0, rate = 0.0;
      for (const Harmonic& k : terms_) {
        const double w = 2.0 * std::numbers::pi * k.frequency, arg = w * t + k.phase;
        h += k.amplitude * std::sin(arg);
        rate += k.amplitude * w * std::cos(arg);
      }
      if (!(t < ramp_)) return rate;
      const double tau = t / ramp_;
      return ramp_slope(tau) / ramp_ * h + ramp_value(tau) * rate;
    }
    case Kind::table:
      return t <= table_->time.back() ? table_->velocity_within(std::max(t, 0.0))
                                      : table_->end_velocity;
    case Kind::slider_crank: {
      const Rod r = rod_at(t);
      const double phi = crank_.angle + crank_.speed * t;
      return -crank_.radius * crank_.speed * std::sin(phi) - crank_.side * r.y * r.rate / r.root;
    }
  }
  return 0.0;
}

double Motion::largest_speed(double duration) const {
  switch (kind_) {
    case Kind::constant:
      return std::abs(velocity_);
    case Kind::harmonics: {
      double amplitudes = 0.0, rates = 0.0;
      for (const Harmonic& k : terms_) {
        amplitudes += std::abs(k.amplitude);
        rates += std::abs(k.amplitude) * 2.0 * std::numbers::pi * k.frequency;
      }
      return std::abs(scale_) * (rates + (ramp_ > 0.0 ? ramp_steepest / ramp_ * amplitudes : 0.0));
    }
    case Kind::table: {
      const Table& tb = *table_;
      double most = duration > tb.time.back() ? std::abs(tb.end_velocity) : 0.0;
      // Each interval the run reaches: its slope, or the largest of the interpolant's velocity,
      // a quadratic on each interval (a cubic Hermite piece), found from its values at the ends
      // and the middle: at an end or at the vertex.
      for (std::size_t k = 0; k + 1 < tb.time.size() && tb.time[k] < duration; ++k) {
        if (!tb.makima) {
          most = std::max(most, std::abs(tb.slope(k)));
          continue;
        }
        const double a = tb.time[k], b = tb.time[k + 1];
        const double q0 = tb.velocity_within(a), qm = tb.velocity_within(0.5 * (a + b)),
                     q1 = tb.velocity_within(b);
        most = std::max({most, std::abs(q0), std::abs(q1)});
        // q(tau) = A tau^2 + B tau + q0 on tau in [0, 1].
        const double A = 2.0 * q0 - 4.0 * qm + 2.0 * q1, B = -3.0 * q0 + 4.0 * qm - q1;
        if (A != 0.0) {
          const double vertex = -B / (2.0 * A);
          if (vertex > 0.0 && vertex < 1.0)
            most = std::max(most, std::abs((A * vertex + B) * vertex + q0));
        }
      }
      return std::abs(scale_) * most;
    }
    case Kind::slider_crank: {
      const Crank& k = crank_;
      const double y = std::abs(k.offset) + k.radius;
      return std::abs(scale_ * k.radius * k.speed) *
             (1.0 + y / std::sqrt((k.rod - y) * (k.rod + y)));
    }
  }
  return 0.0;
}

double Motion::largest_displacement(double duration) const {
  switch (kind_) {
    case Kind::constant:
      return std::abs(velocity_) * duration;
    case Kind::harmonics: {
      double amplitudes = 0.0;
      for (const Harmonic& k : terms_) amplitudes += std::abs(k.amplitude);
      return std::abs(scale_) * (amplitudes + std::abs(start_));
    }
    case Kind::table: {
      const Table& tb = *table_;
      double most = 0.0;
      // Each interval the run reaches: its ends, and for makima where the interpolant's velocity
      // (a quadratic in tau, as in largest_speed) vanishes within it.
      for (std::size_t k = 0; k + 1 < tb.time.size() && tb.time[k] < duration; ++k) {
        most = std::max({most, std::abs(tb.displacement[k]), std::abs(tb.displacement[k + 1])});
        if (!tb.makima) continue;
        const double a = tb.time[k], b = tb.time[k + 1];
        const double q0 = tb.velocity_within(a), qm = tb.velocity_within(0.5 * (a + b)),
                     q1 = tb.velocity_within(b);
        const double A = 2.0 * q0 - 4.0 * qm + 2.0 * q1, B = -3.0 * q0 + 4.0 * qm - q1;
        double roots[2] = {-1.0, -1.0};
        if (A != 0.0) {
          const double d = B * B - 4.0 * A * q0;
          if (d >= 0.0) {
            roots[0] = (-B - std::sqrt(d)) / (2.0 * A);
            roots[1] = (-B + std::sqrt(d)) / (2.0 * A);
          }
        } else if (B != 0.0) {
          roots[0] = -q0 / B;
        }
        for (const double tau : roots)
          if (tau > 0.0 && tau < 1.0) most = std::max(most, std::abs(tb.within(a + tau * (b - a))));
      }
      if (duration > tb.time.back())
        most = std::max(most, std::abs(tb.displacement.back()) +
                                  std::abs(tb.end_velocity) * (duration - tb.time.back()));
      return std::abs(scale_) * most;
    }
    case Kind::slider_crank:
      return std::abs(scale_) * 2.0 * crank_.radius;
  }
  return 0.0;
}

double Motion::shortest_period() const {
  double period = std::numeric_limits<double>::infinity();
  if (kind_ == Kind::harmonics)
    for (const Harmonic& k : terms_)
      if (k.frequency > 0.0) period = std::min(period, 1.0 / k.frequency);
  return period;
}

double Motion::longest_step(double steps_per_period, double duration) const {
  double step = std::numeric_limits<double>::infinity();
  if (kind_ == Kind::harmonics) {
    for (const Harmonic& k : terms_)
      if (k.frequency > 0.0) step = std::min(step, 1.0 / k.frequency / steps_per_period);
    if (ramp_ > 0.0) step = std::min(step, ramp_ / steps_per_period);
  } else if (kind_ == Kind::table) {
    for (std::size_t k = 0; k + 1 < table_->time.size() && table_->time[k] < duration; ++k)
      step = std::min(step, table_->time[k + 1] - table_->time[k]);
  } else if (kind_ == Kind::slider_crank && crank_.speed != 0.0) {
    step = 2.0 * std::numbers::pi / std::abs(crank_.speed) / steps_per_period;
  }
  return step;
}

std::string Motion::describe() const {
  std::ostringstream s;
  switch (kind_) {
    case Kind::constant:
      if (velocity_ == 0.0) return "at rest";
      s << "constant velocity " << velocity_ << " m/s";
      break;
    case Kind::harmonics:
      s << terms_.size() << (terms_.size() == 1 ? " harmonic" : " harmonics");
      if (ramp_ > 0.0) s << ", ramp " << ramp_ << " s";
      break;
    case Kind::table:
      s << "table of " << table_->time.size() << " samples ("
        << (table_->makima ? "makima" : "linear") << ")";
      break;
    case Kind::slider_crank:
      s << "slider-crank, crank " << crank_.radius << " m at " << crank_.speed << " rad/s, rod "
        << crank_.rod << " m";
      break;
  }
  return s.str();
}

}  // namespace chaindem
