#pragma once
// Measured binary impacts as a fit reads them (docs/fit.md): the impact velocities and, for
// each measured quantity, its value at each velocity and each value's uncertainty; and the
// least-squares problem of fitting a law's impacts to them.

#include <string>
#include <vector>

#include "chaindem/fit/impact_model.hpp"
#include "chaindem/fit/least_squares.hpp"

namespace chaindem::fit {

/// One measured quantity: its value at each of the data's velocities (NaN where that impact
/// did not measure it) and each value's standard uncertainty (empty: none given).
struct Series {
  ImpactQuantity quantity;
  std::vector<double> value, sigma;
};

struct ImpactData {
  std::vector<double> velocity;  ///< [m/s]
  std::vector<Series> series;    ///< at least one; all with uncertainties or none

  bool weighted() const { return !series.empty() && !series.front().sigma.empty(); }
  std::vector<ImpactQuantity> quantities() const;
  std::size_t points() const;  ///< the measured values, over all series
};

/// Reads measured impacts from a CSV file (docs/fit.md, "The data"): a header naming the
/// columns (velocity, the measured quantities, their uncertainties `<quantity>_sigma`, or
/// `sigma` with one quantity), then one row per impact; an empty cell is a quantity that row
/// does not measure. Throws CaseError naming the file, the line and the column.
ImpactData read_impact_data(const std::string& path);

/// The fit of `model`'s free parameters (`parameters`, in the order of its free keys) to
/// `data`: one residual per measured value, series after series, (measured - predicted) /
/// sigma, or unweighted without uncertainties; one impact per velocity per evaluation. The
/// problem refers to `model` and `data`, which must outlive it.
Problem impact_problem(const ImpactModel& model, const ImpactData& data,
                       std::vector<FreeParameter> parameters);

/// A problem's residuals per series, NaN where a velocity's impact did not measure it.
std::vector<std::vector<double>> residuals_by_series(const ImpactData& data,
                                                     const std::vector<double>& residuals);

}  // namespace chaindem::fit
