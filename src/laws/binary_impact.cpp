#include "chaindem/laws/binary_impact.hpp"

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <stdexcept>

#include "chaindem/laws/contact_law.hpp"

namespace chaindem {
namespace {

namespace odeint = boost::numeric::odeint;
using Vec2 = std::array<double, 2>;  // delta, v

template <class KernelT>
ImpactResult integrate(const PairCoeffs& coeffs, double mass, double v0, const ImpactOptions& o,
                       ContactState state) {
  const bool clamp = o.tension == TensionPolicy::clamp;
  auto force_at = [&](ContactState& s, double d, double v) {
    if (d <= 0.0) return 0.0;
    double f = KernelT::force(coeffs, s, d, v);
    return clamp && f < 0.0 ? 0.0 : f;
  };

  ImpactResult r;
  r.impact_velocity = v0;
  state.impact_velocity = o.reference_velocity > 0.0 ? o.reference_velocity : v0;
  if (state.impact_velocity < o.impact_velocity_floor) {
    state.impact_velocity = o.impact_velocity_floor;
    ++r.floor_hits;
  }
  double peak_overlap = 0.0, peak_force = 0.0;

  // Scales: the elastic contact of the law's spring at v0.
  const double t_scale = elastic_contact_time(coeffs.stiffness, coeffs.exponent, mass, v0);
  const double d_scale = v0 * t_scale;
  const double max_time = o.max_time > 0.0 ? o.max_time : 100.0 * t_scale;

  // The right-hand side evaluates the law on a copy of the committed history, so trial points of
  // the adaptive scheme never advance it; accepted steps commit it below.
  auto rhs = [&](const Vec2& x, Vec2& dxdt, double) {
    ContactState trial = state;
    dxdt[0] = x[1];
    dxdt[1] = -force_at(trial, x[0], x[1]) / mass;
  };
  auto stepper = odeint::make_dense_output(o.tolerance * d_scale, o.tolerance, t_scale / 400.0,
                                           odeint::runge_kutta_dopri5<Vec2>());
  Vec2 x{0.0, v0};
  stepper.initialize(x, 0.0, t_scale / 4000.0);
  if (o.record) r.history.push_back({0.0, 0.0, v0, force_at(state, 0.0, v0)});

  bool force_gone = false;
  bool approaching = true;
  // Bisection on the dense output of the last step [lo, hi] for the instant component
  // `component` of the state stops being positive; returns (last time it is, first it is not).
  auto locate = [&](double lo, double hi, int component) {
    Vec2 mid{};
    for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) {
      const double t = 0.5 * (lo + hi);
      stepper.calc_state(t, mid);
      (mid[static_cast<std::size_t>(component)] > 0.0 ? lo : hi) = t;
    }
    return std::pair{lo, hi};
  };
  while (stepper.current_time() < max_time) {
    if (r.steps == o.max_steps) {
      r.too_many_steps = true;
      break;
    }
    const auto [t0, t1] = stepper.do_step(rhs);
    ++r.steps;
    const Vec2& now = stepper.current_state();
    if (!std::isfinite(now[0]) || !std::isfinite(now[1])) {
      r.not_finite = true;
      break;
    }
    if (now[0] <= 0.0) {
      // delta returned to 0 inside [t0, t1]: locate it on the dense output.
      const double hi = locate(t0, t1, 0).second;
      Vec2 mid{};
      stepper.calc_state(hi, mid);
      r.separated = true;
      r.contact_duration = hi;
      r.separation_velocity = mid[1];
      if (!force_gone) r.force_duration = hi;
      if (o.record) r.history.push_back({hi, 0.0, mid[1], 0.0});
      break;
    }
    if (approaching && now[1] <= 0.0) {
      // Maximum compression inside [t0, t1]. Laws with a loading history (plastic branches,
      // approach-only damping) switch branch exactly here, so locate it, commit the history at
      // the turning point and restart the scheme from it: no step straddles the switch.
      const double lo = locate(t0, t1, 1).first;
      Vec2 mid{};
      stepper.calc_state(lo, mid);
      const double f_turn = force_at(state, mid[0], mid[1]);
      peak_overlap = std::max(peak_overlap, mid[0]);
      peak_force = std::max(peak_force, f_turn);
      if (o.record) r.history.push_back({lo, mid[0], mid[1], f_turn});
      if (mid[0] >= o.overlap_limit) {
        r.too_deep = true;
        break;
      }
      approaching = false;
      stepper.initialize(mid, lo, std::max(t1 - lo, t_scale / 4000.0));
      continue;
    }
    // Commit the history at the accepted point and record extremes.
    const double f = force_at(state, now[0], now[1]);
    if (!std::isfinite(f)) {
      r.not_finite = true;
      break;
    }
    peak_overlap = std::max(peak_overlap, now[0]);
    peak_force = std::max(peak_force, f);
    r.min_force = std::min(r.min_force, f);
    if (!force_gone && f == 0.0 && now[1] < 0.0) {
      force_gone = true;  // separated at F = 0 while still overlapped (clamp or plastic)
      r.force_duration = t1;
      r.separation_overlap = now[0];
    } else if (f != 0.0) {
      force_gone = false;
    }
    if (o.record) r.history.push_back({t1, now[0], now[1], f});
    if (now[0] >= o.overlap_limit) {
      r.too_deep = true;
      break;
    }
  }
  if (!r.separated) {
    r.contact_duration = r.force_duration = stepper.current_time();
    r.separation_velocity = stepper.current_state()[1];
  }
  r.peak_force = peak_force;
  r.max_overlap = peak_overlap;
  r.restitution = r.separated ? -r.separation_velocity / v0 : 0.0;
  const double v_end = r.separation_velocity;
  r.impulse = mass * (v0 - v_end);
  r.dissipated_energy = 0.5 * mass * (v0 * v0 - v_end * v_end);
  r.final_state = state;
  return r;
}

}  // namespace

ImpactResult simulate_impact(const LawEntry& law, const PairCoeffs& coeffs, double effective_mass,
                             double v0, const ImpactOptions& options, const ContactState& state) {
  if (!(v0 > 0.0) || !std::isfinite(v0))
    throw std::invalid_argument("impact velocity must be > 0 m/s");
  if (!(effective_mass > 0.0)) throw std::invalid_argument("effective mass must be > 0 kg");
  return with_kernel(law.kernel, [&](auto kernel) {
    return integrate<decltype(kernel)>(coeffs, effective_mass, v0, options, state);
  });
}

}  // namespace chaindem
