#pragma once
// Units in the form of the H5MD units module (version 1.0, system "SI"): a unit is a list of
// unit factors separated by blanks, each a symbol with an optional signed integer power, every
// symbol once: "m s-1", "kg m s-2", "kg m+2 s-2". The layout's tables write units as people read
// them ("m/s", "N", "J"), and these are what their files carry in each `unit` attribute.

#include <string>
#include <string_view>

namespace chaindem {

/// `readable` ("m/s", "kg m/s", "N", "J", "Pa", "N/m^1.5" is refused) in the H5MD form, derived
/// units (N, J, Pa, W) in base units: "m s-1", "kg m s-1", "kg m s-2", "kg m+2 s-2". Blanks and
/// `*` multiply, `/` divides what follows it, `^k` or a trailing digit gives an integer power;
/// other symbols ("ns") are kept as they are; "%" is the numeric factor "0.01". "" stays "". Throws
/// std::invalid_argument for a unit it cannot write so (a fractional power): a layout that names
/// one is a programming error.
std::string h5md_unit(std::string_view readable);

}  // namespace chaindem
