// The set-up's plausibility step (setup_parts.hpp): initial overlaps beyond the range of the
// contact laws are refused.

#include <string>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {

std::string overlap_strain_text(double overlap, double r_star) {
  return rounded_text(overlap) + " m, a strain delta/R* = " + rounded_text(overlap / r_star, 3) +
         " of the contact's effective radius R* = " + rounded_text(r_star) + " m";
}

std::string initial_strain_bound_text(double r_star) {
  return "the contact laws hold for overlaps small against the radius: allowed delta/R* up to " +
         number_text(max_initial_strain) + " (" + rounded_text(max_initial_strain * r_star) +
         " m here)";
}

namespace {

// The largest load whose static overlap on `contact` is within max_initial_strain: the overlap
// grows with the load, so halving from `force` and then bisecting finds it.
double largest_static_load(const PreparedContact& contact, double force) {
  const double most = max_initial_strain * contact.input.effective_radius;
  double low = force;
  while (low > 0.0 && static_overlap_of(contact, low) > most) low /= 2.0;
  double high = 2.0 * low;
  for (int k = 0; k < 60 && low > 0.0; ++k) {
    const double mid = 0.5 * (low + high);
    (static_overlap_of(contact, mid) > most ? high : low) = mid;
  }
  return low;
}

}  // namespace

double checked_static_overlap(const Case& c, const PreparedContact& contact, double force,
                              const std::string& between) {
  const double overlap = static_overlap_of(contact, force);
  const double r_star = contact.input.effective_radius;
  if (!beyond_initial_strain(overlap, r_star)) return overlap;
  const ChainSpec& s = c.spec().chain;
  c.fail(s.end_force, "is " + number_text(force) + " N, held by the static overlap (" +
                          c.key(s.static_overlap) + ") of " + between + ", " +
                          overlap_strain_text(overlap, r_star) +
                          ": the load is beyond the range of the contact law, which holds for "
                          "overlaps small against the radius: allowed delta/R* up to " +
                          number_text(max_initial_strain) + ", a load of at most " +
                          rounded_text(largest_static_load(contact, force), 3) + " N here");
}

}  // namespace chaindem::setup
