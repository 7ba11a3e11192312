#include "chaindem/laws/binary_impact.hpp"

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "chaindem/laws/contact_law.hpp"

namespace chaindem {
namespace {

namespace odeint = boost::numeric::odeint;
using Vec2 = std::array<double, 2>;  // delta, v

// One impact under kernel KernelT: the adaptive scheme with dense output on the relative
// coordinate, and what the result books as its steps are accepted.
template <class KernelT>
class Impact {
 public:
  Impact(const PairCoeffs& coeffs, double mass, double v0, const ImpactOptions& o,
         ContactState state)
      : coeffs_(coeffs),
        mass_(mass),
        v0_(v0),
        o_(o),
        state_(state),
        // Scales: the elastic contact of the law's spring at v0.
        t_scale_(elastic_contact_time(coeffs.stiffness, coeffs.exponent, mass, v0)),
        d_scale_(v0 * t_scale_),
        stepper_(odeint::make_dense_output(o.tolerance * d_scale_, o.tolerance, t_scale_ / 400.0,
                                           odeint::runge_kutta_dopri5<Vec2>())) {
    r_.impact_velocity = v0;
    state_.impact_velocity = o.reference_velocity > 0.0 ? o.reference_velocity : v0;
    if (state_.impact_velocity < o.impact_velocity_floor) {
      state_.impact_velocity = o.impact_velocity_floor;
      ++r_.floor_hits;
    }
  }

  ImpactResult run() {
    const double max_time = o_.max_time > 0.0 ? o_.max_time : 100.0 * t_scale_;
    // The right-hand side evaluates the law on a copy of the committed history, so trial points
    // of the adaptive scheme never advance it; accepted steps commit it (commit).
    auto rhs = [this](const Vec2& x, Vec2& dxdt, double) {
      ContactState trial = state_;
      dxdt[0] = x[1];
      dxdt[1] = -force_at(trial, x[0], x[1]) / mass_;
    };
    Vec2 x{0.0, v0_};
    stepper_.initialize(x, 0.0, t_scale_ / 4000.0);
    if (o_.record) r_.history.push_back({0.0, 0.0, v0_, force_at(state_, 0.0, v0_)});
    while (stepper_.current_time() < max_time) {
      if (r_.steps == o_.max_steps) {
        r_.too_many_steps = true;
        break;
      }
      const auto [t0, t1] = stepper_.do_step(rhs);
      ++r_.steps;
      if (!accept(t0, t1)) break;
    }
    return finish();
  }

 private:
  using Stepper =
      decltype(odeint::make_dense_output(1.0, 1.0, 1.0, odeint::runge_kutta_dopri5<Vec2>()));

  // The law's force at (d, v) on history s, with the tension policy; 0 apart.
  double force_at(ContactState& s, double d, double v) const {
    if (d <= 0.0) return 0.0;
    double f = KernelT::force(coeffs_, s, d, v);
    return o_.tension == TensionPolicy::clamp && f < 0.0 ? 0.0 : f;
  }

  // Bisection on the dense output of the last step [lo, hi] for the instant component
  // `component` of the state stops being positive; returns (last time it is, first it is not).
  std::pair<double, double> locate(double lo, double hi, int component) {
    Vec2 mid{};
    for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) {
      const double t = 0.5 * (lo + hi);
      stepper_.calc_state(t, mid);
      (mid[static_cast<std::size_t>(component)] > 0.0 ? lo : hi) = t;
    }
    return std::pair{lo, hi};
  }

  // The step [t0, t1] the scheme has accepted; false when the integration ends with it.
  bool accept(double t0, double t1) {
    const Vec2& now = stepper_.current_state();
    if (!std::isfinite(now[0]) || !std::isfinite(now[1])) {
      r_.not_finite = true;
      return false;
    }
    if (now[0] <= 0.0) {
      separate(t0, t1);
      return false;
    }
    if (approaching_ && now[1] <= 0.0) return turn(t0, t1);
    return commit(t1, now);
  }

  // delta returned to 0 inside [t0, t1]: locate it on the dense output.
  void separate(double t0, double t1) {
    const double hi = locate(t0, t1, 0).second;
    Vec2 mid{};
    stepper_.calc_state(hi, mid);
    r_.separated = true;
    r_.contact_duration = hi;
    r_.separation_velocity = mid[1];
    if (!force_gone_) r_.force_duration = hi;
    if (o_.record) r_.history.push_back({hi, 0.0, mid[1], 0.0});
  }

  // Maximum compression inside [t0, t1]. Laws with a loading history (plastic branches,
  // approach-only damping) switch branch exactly here, so locate it, commit the history at the
  // turning point and restart the scheme from it: no step straddles the switch. False: too deep.
  bool turn(double t0, double t1) {
    const double lo = locate(t0, t1, 1).first;
    Vec2 mid{};
    stepper_.calc_state(lo, mid);
    const double f_turn = force_at(state_, mid[0], mid[1]);
    peak_overlap_ = std::max(peak_overlap_, mid[0]);
    peak_force_ = std::max(peak_force_, f_turn);
    if (o_.record) r_.history.push_back({lo, mid[0], mid[1], f_turn});
    if (mid[0] >= o_.overlap_limit) {
      r_.too_deep = true;
      return false;
    }
    approaching_ = false;
    stepper_.initialize(mid, lo, std::max(t1 - lo, t_scale_ / 4000.0));
    return true;
  }

  // Commits the history at the accepted point `now` (time t1) and records the extremes; false
  // when the force is not finite or the overlap reaches the limit.
  bool commit(double t1, const Vec2& now) {
    const double f = force_at(state_, now[0], now[1]);
    if (!std::isfinite(f)) {
      r_.not_finite = true;
      return false;
    }
    peak_overlap_ = std::max(peak_overlap_, now[0]);
    peak_force_ = std::max(peak_force_, f);
    r_.min_force = std::min(r_.min_force, f);
    if (!force_gone_ && f == 0.0 && now[1] < 0.0) {
      force_gone_ = true;  // separated at F = 0 while still overlapped (clamp or plastic)
      r_.force_duration = t1;
      r_.separation_overlap = now[0];
    } else if (f != 0.0) {
      force_gone_ = false;
    }
    if (o_.record) r_.history.push_back({t1, now[0], now[1], f});
    if (now[0] >= o_.overlap_limit) {
      r_.too_deep = true;
      return false;
    }
    return true;
  }

  // The result, from where the integration ended.
  ImpactResult finish() {
    if (!r_.separated) {
      r_.contact_duration = r_.force_duration = stepper_.current_time();
      r_.separation_velocity = stepper_.current_state()[1];
    }
    r_.peak_force = peak_force_;
    r_.max_overlap = peak_overlap_;
    r_.restitution = r_.separated ? -r_.separation_velocity / v0_ : 0.0;
    const double v_end = r_.separation_velocity;
    r_.impulse = mass_ * (v0_ - v_end);
    r_.dissipated_energy = 0.5 * mass_ * (v0_ * v0_ - v_end * v_end);
    r_.final_state = state_;
    return std::move(r_);
  }

  const PairCoeffs& coeffs_;
  const double mass_, v0_;
  const ImpactOptions& o_;
  ContactState state_;  // the committed history
  ImpactResult r_;
  double peak_overlap_ = 0.0, peak_force_ = 0.0;
  const double t_scale_, d_scale_;  // the elastic contact's duration and depth at v0
  Stepper stepper_;
  bool force_gone_ = false;  // the force vanished while the bodies still overlap
  bool approaching_ = true;  // before the maximum compression
};

}  // namespace

ImpactResult simulate_impact(const LawEntry& law, const PairCoeffs& coeffs, double effective_mass,
                             double v0, const ImpactOptions& options, const ContactState& state) {
  if (!(v0 > 0.0) || !std::isfinite(v0))
    throw std::invalid_argument("impact velocity must be > 0 m/s");
  if (!(effective_mass > 0.0)) throw std::invalid_argument("effective mass must be > 0 kg");
  return with_kernel(law.kernel, [&](auto kernel) {
    return Impact<decltype(kernel)>(coeffs, effective_mass, v0, options, state).run();
  });
}

std::optional<double> reference_restitution(const LawEntry& law, double c_r) {
  if (!law.find_param("restitution")) return std::nullopt;
  constexpr double radius = 0.005, density = 7800.0, length = 0.01, speed = 1.0;
  const BodyMaterial steel{200e9, 0.3, 1e9};
  PairInput pair = mixed_materials(steel, steel);
  const bool line = law.family == Family::cylindrical;
  const double mass = line ? density * std::numbers::pi * radius * radius * length
                           : density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  pair.effective_radius = radius / 2.0;
  pair.effective_mass = mass / 2.0;
  pair.radius_i = pair.radius_j = radius;
  pair.contact_length = line ? length : 0.0;
  LawParams params;
  try {
    params = resolve_law_params(law, {{"restitution", c_r}});
  } catch (const LawParamError&) {
    return std::nullopt;  // another parameter is required
  }
  ImpactOptions options;
  options.tension = law.tension;
  options.overlap_limit = radius;
  try {
    const ImpactResult r =
        simulate_impact(law, law.prepare(law, pair, params), pair.effective_mass, speed, options);
    if (!r.separated || r.too_deep || r.not_finite || r.too_many_steps) return std::nullopt;
    return r.restitution;
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // parameters the law cannot take for these bodies
  }
}

std::string reference_restitution_text(const LawEntry& law) {
  std::ostringstream text;
  text << std::setprecision(3) << std::fixed;
  bool exact = true, any = false;
  for (const double c_r : reference_restitutions) {
    const std::optional<double> e = reference_restitution(law, c_r);
    if (!e) return "";
    any = true;
    exact = exact && std::abs(*e - c_r) <= 5e-4;
    text << (c_r == reference_restitutions[0] ? "" : ", ") << "c_r = " << std::setprecision(1)
         << c_r << " gives e = " << std::setprecision(3) << *e;
  }
  if (!any) return "";
  return std::string(law.family == Family::cylindrical
                         ? "one impact from apart of two steel cylinders (radius 5 mm, 10 mm "
                           "long) at 1 m/s: "
                         : "one impact from apart of two steel spheres (radius 5 mm) at 1 m/s: ") +
         text.str() + (exact ? " (the law returns its c_r)" : " (the law does not return its c_r)");
}

}  // namespace chaindem
