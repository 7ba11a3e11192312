#pragma once
// The two bodies of a binary impact as the command line gives them (`chaindem collide`, and the
// impact data of `chaindem fit`): masses or radii and materials, or a body against a wall,
// spheres or parallel cylinders. Every number is checked against the range of the case key of
// the same quantity (docs/case-format.md).

#include <boost/program_options.hpp>
#include <string>
#include <string_view>

#include "chaindem/laws/law.hpp"

namespace chaindem {

struct Body {
  double youngs_modulus = 0, poisson_ratio = 0, density = 0, radius = 0, mass = 0, yield = 0;
};

struct ImpactBodies {
  Body a, b;
  bool wall = false;    ///< body 2 is a rigid, fixed plane
  double length = 0.0;  ///< > 0: parallel cylinders of this axial length [m]
};

/// --mass, --radius, --youngs-modulus, --poisson-ratio, --density, --yield-stress and their
/// body-2 forms (suffix 2), --wall and --length, into `bodies`.
void add_body_options(boost::program_options::options_description& desc, ImpactBodies& bodies);

/// Every body option given is finite and in its range. Throws CaseError naming the option.
void check_body_numbers(const boost::program_options::variables_map& vm);
/// No body option contradicts another: --wall with body 2's mass or radius, a mass with a
/// density, a material without --youngs-modulus. Throws CaseError naming them.
void check_body_combinations(const ImpactBodies& bodies,
                             const boost::program_options::variables_map& vm);

/// The contact of the two bodies (or the body and the wall), its effective mass included; body
/// 2 takes body 1's material and radius where not given. Throws CaseError when a body has no
/// mass.
PairInput contact_pair(const ImpactBodies& bodies, const boost::program_options::variables_map& vm);

/// The allowed range of a case key (or of a [material.NAME] key) with its unit, as messages and
/// the help give it: "(0, 10000] m/s".
std::string allowed_range(std::string_view key);

/// The range check of the case key `key` on the value of option --`option`; throws CaseError.
void check_keyed_option(const boost::program_options::variables_map& vm, const std::string& option,
                        std::string_view key);

}  // namespace chaindem
