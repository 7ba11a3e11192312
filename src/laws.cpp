// The registry of normal contact laws. Every law is declared here exactly once; see
// include/chaindem/contact_law.hpp for the conventions and ../shared/reference/contact-laws.md
// for the source of each formula.
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "chaindem/contact_law.hpp"

namespace chaindem {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// ---- Parameter declarations shared by several laws ---------------------------------------------

constexpr ParamSpec hertz_stiffness_param{
    "stiffness",
    "N/m^1.5",
    "Hertz stiffness K; overrides (4/3) E* sqrt(R*) from the materials for every pair",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "(4/3) E* sqrt(R*) from the materials"};

constexpr ParamSpec impact_velocity_floor_param{
    "impact_velocity_floor",
    "m/s",
    "smallest impact velocity v0 used in alpha v/v0; contacts that start slower (touching, "
    "resting or pre-compressed beads, where v0 -> 0 makes the damping infinite) use this value "
    "and are counted in the run summary",
    0.0,
    inf,
    false,
    false,
    std::nullopt,
    "automatic: max over pairs of alpha F_max dt / m*, the slowest onset whose damping an explicit "
    "step still integrates stably (F_max: Hertz peak force at the case's largest relative speed)"};

constexpr std::array hooke_params{ParamSpec{"stiffness", "N/m", "linear spring stiffness K", 0.0,
                                            inf, false, false, std::nullopt}};
constexpr std::array hertz_params{hertz_stiffness_param};

constexpr ParamSpec restitution_closed{
    "restitution", "-",         "target coefficient of restitution c_r", 0.0, 1.0, true,
    true,          std::nullopt};
constexpr ParamSpec restitution_open{
    "restitution", "-",         "target coefficient of restitution c_r", 0.0, 1.0, false,
    true,          std::nullopt};

constexpr std::array viscous_params{restitution_closed, hertz_stiffness_param};
constexpr std::array hysteresis_params_closed{restitution_closed, hertz_stiffness_param,
                                              impact_velocity_floor_param};
constexpr std::array hysteresis_params_open{restitution_open, hertz_stiffness_param,
                                            impact_velocity_floor_param};

// ---- Coefficient preparation, one function per kernel family ------------------------------------

double param_or(const LawParams& p, std::string_view key, double fallback) {
  const auto it = p.find(key);
  return it == p.end() ? fallback : it->second;
}

double hertz_k(const PairInput& in, const LawParams& p) {
  return param_or(p, "stiffness", hertz_stiffness(in.effective_modulus, in.effective_radius));
}

PairCoeffs prepare_hooke(const LawEntry&, const PairInput&, const LawParams& p) {
  return {.stiffness = p.at("stiffness"), .exponent = 1.0, .damping = 0.0, .aux = 0.0};
}

PairCoeffs prepare_hertz(const LawEntry&, const PairInput& in, const LawParams& p) {
  return {.stiffness = hertz_k(in, p), .exponent = 1.5, .damping = 0.0, .aux = 0.0};
}

// chi = factor(c_r) sqrt(K m*)
PairCoeffs prepare_viscous(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double k = hertz_k(in, p);
  const double factor = law.damping_factor(p.at("restitution"));
  return {.stiffness = k,
          .exponent = 1.5,
          .damping = factor * std::sqrt(k * in.effective_mass),
          .aux = 0.0};
}

// The software form keeps |beta| and m* and builds S_n inside the kernel.
PairCoeffs prepare_hertz_mindlin(const LawEntry&, const PairInput& in, const LawParams& p) {
  return {.stiffness = hertz_k(in, p),
          .exponent = 1.5,
          .damping = -restitution_beta(p.at("restitution")),
          .aux = in.effective_mass};
}

PairCoeffs prepare_hysteresis(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return {.stiffness = hertz_k(in, p),
          .exponent = 1.5,
          .damping = law.damping_factor(p.at("restitution")),
          .aux = 0.0};
}

// ---- Damping factors ---------------------------------------------------------------------------

// Tsuji (004 Table 2, row 2): chi = sqrt(5) |ln c| / sqrt(pi^2 + ln^2 c) sqrt(K m*).
double tsuji_factor(double c) {
  return std::sqrt(5.0) * -restitution_beta(c);
}
// Hysteresis factors alpha(c_r), contact-laws.md group (d) table.
double hunt_crossley_alpha(double c) {
  return 1.5 * (1.0 - c);
}
double lankarani_nikravesh_alpha(double c) {
  return 0.75 * (1.0 - c * c);
}
double flores_alpha(double c) {
  return 8.0 * (1.0 - c) / (5.0 * c);
}

// ---- The registry ------------------------------------------------------------------------------

constexpr std::array laws{
    LawEntry{"hooke", "Linear spring",
             "001 Eqs. 5-7; 000 Eq. 1 with n = 1 (contact-laws.md `hooke`)", "F = K delta",
             "none (elastic)", Family::elastic, Kernel::linear_spring, hooke_params, nullptr,
             prepare_hooke},
    LawEntry{"hertz", "Hertz (1881), sphere-sphere and sphere-plane",
             "000 Eqs. 1-4; 001 Eqs. 1-3 (contact-laws.md `hertz_sphere_sphere`, "
             "`hertz_sphere_plane`)",
             "F = K delta^(3/2), K = (4/3) E* sqrt(R*) (R* = R against a plane)", "none (elastic)",
             Family::elastic, Kernel::hertz, hertz_params, nullptr, prepare_hertz},
    LawEntry{"tsuji", "Tsuji, Tanaka & Ishida (1992)",
             "004 Table 2 row 2; 000 Table 1; 001 HV2 (contact-laws.md `tsuji`)",
             "F = K delta^(3/2) + chi delta^(1/4) v",
             "chi = sqrt(5) |ln c_r| / sqrt(pi^2 + ln^2 c_r) sqrt(K m*)", Family::viscous,
             Kernel::hertz_viscous_quarter, viscous_params, tsuji_factor, prepare_viscous},
    LawEntry{"edem_hertz_mindlin",
             "Hertz-Mindlin normal damping of commercial DEM (EDEM, "
             "LIGGGHTS model hertz)",
             "004 abstract and Table 6 (contact-laws.md `edem_hertz_mindlin`)",
             "F = (4/3) E* sqrt(R*) delta^(3/2) - 2 sqrt(5/6) beta sqrt(S_n m*) v, "
             "S_n = 2 E* sqrt(R* delta)",
             "beta = ln c_r / sqrt(ln^2 c_r + pi^2)", Family::viscous, Kernel::hertz_mindlin,
             viscous_params, tsuji_factor, prepare_hertz_mindlin},
    LawEntry{"hunt_crossley", "Hunt & Crossley (1975)",
             "000 Eqs. 7-9; 001 Eq. 24; 002 §3.2; 004 Table 1",
             "F = K delta^(3/2) (1 + alpha v/v0)", "alpha = 3 (1 - c_r) / 2", Family::hysteresis,
             Kernel::hertz_hysteresis, hysteresis_params_closed, hunt_crossley_alpha,
             prepare_hysteresis},
    LawEntry{"lankarani_nikravesh", "Lankarani & Nikravesh (1990)",
             "000 Eqs. 14-18; 001 Eq. 27; 002 §3.6; 004 Table 1",
             "F = K delta^(3/2) (1 + alpha v/v0)", "alpha = 3 (1 - c_r^2) / 4", Family::hysteresis,
             Kernel::hertz_hysteresis, hysteresis_params_closed, lankarani_nikravesh_alpha,
             prepare_hysteresis},
    LawEntry{"flores", "Flores, Machado, Silva & Martins (2011)",
             "000 Eqs. 26-28; 002 §3.11; 004 Table 1", "F = K delta^(3/2) (1 + alpha v/v0)",
             "alpha = 8 (1 - c_r) / (5 c_r)", Family::hysteresis, Kernel::hertz_hysteresis,
             hysteresis_params_open, flores_alpha, prepare_hysteresis},
};

}  // namespace

std::string_view to_string(Family f) {
  switch (f) {
    case Family::elastic:
      return "elastic";
    case Family::viscous:
      return "viscous";
    case Family::hysteresis:
      return "hysteresis";
  }
  return "?";
}

std::string ParamSpec::range_text() const {
  std::ostringstream s;
  s << (min_inclusive ? '[' : '(') << min << ", ";
  if (std::isinf(max))
    s << "inf)";
  else
    s << max << (max_inclusive ? ']' : ')');
  return s.str();
}

const ParamSpec* LawEntry::find_param(std::string_view key) const {
  for (const auto& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

std::span<const LawEntry> all_laws() {
  return laws;
}

const LawEntry* find_law(std::string_view id) {
  for (const auto& law : laws)
    if (law.id == id) return &law;
  return nullptr;
}

double restitution_beta(double restitution) {
  if (restitution <= 0.0) return -1.0;
  const double l = std::log(restitution);
  return l / std::sqrt(l * l + std::numbers::pi * std::numbers::pi);
}

double elastic_contact_time(double stiffness, double exponent, double effective_mass,
                            double speed) {
  const double n = exponent;
  const double delta_max =
      std::pow((n + 1.0) * effective_mass * speed * speed / (2.0 * stiffness), 1.0 / (n + 1.0));
  const double a = 1.0 / (n + 1.0);
  const double beta = std::exp(std::lgamma(a) + std::lgamma(0.5) - std::lgamma(a + 0.5));
  return 2.0 * delta_max / speed * beta / (n + 1.0);
}

}  // namespace chaindem
