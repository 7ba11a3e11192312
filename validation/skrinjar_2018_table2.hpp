#pragma once
// Skrinjar, Slavic & Boltezar (2018), Table 2 as printed: the restitution e_N of two 9.2 kg
// spheres (K = 5.2e9 N/m^1.5, m* = 4.6 kg, v0 = 0.3 m/s) under 12 laws at c_r = 0, 0.1, ..., 1,
// with the tolerance to which chaindem reproduces each row (docs/validation.md). Read by
// validate_paper_tables and by the fit tests (the rows read as data).

namespace chaindem::validation {

struct Row000 {
  const char* id;
  double printed[11];
  double tolerance;  // 0: not a target
  const char* note;
};

inline constexpr double skrinjar_2018_stiffness = 5.2e9, skrinjar_2018_mass = 4.6,
                        skrinjar_2018_velocity = 0.3;

inline constexpr Row000 skrinjar_2018_table2[] = {
    {"hertz", {1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00}, 0.005, ""},
    {"hunt_crossley",
     {0.49, 0.52, 0.55, 0.58, 0.62, 0.66, 0.71, 0.77, 0.83, 0.91, 1.00},
     0.005,
     ""},
    {"herbert_mcwhannell",
     {0.49, 0.49, 0.50, 0.52, 0.55, 0.59, 0.65, 0.72, 0.81, 0.90, 1.00},
     0.005,
     ""},
    {"lee_wang", {0.66, 0.69, 0.71, 0.74, 0.77, 0.80, 0.83, 0.87, 0.91, 0.95, 1.00}, 0.005, ""},
    {"anagnostopoulos_skrinjar",
     {1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00},
     0.005,
     "printed (inconsistent) form"},
    {"lankarani_nikravesh",
     {0.66, 0.67, 0.67, 0.68, 0.70, 0.73, 0.76, 0.80, 0.85, 0.91, 1.00},
     0.005,
     ""},
    {"jankowski_skrinjar",
     {0.07, 0.44, 0.63, 0.74, 0.80, 0.85, 0.89, 0.91, 0.94, 0.96, 1.00},
     0.0,
     "not reproducible by any reading"},
    {"zhiying_qishao",
     {0.20, 0.24, 0.28, 0.34, 0.42, 0.50, 0.59, 0.69, 0.80, 0.91, 1.01},
     0.025,
     "paper +0.01..0.023 high"},
    {"gonthier",
     {0.03, 0.12, 0.22, 0.32, 0.42, 0.51, 0.59, 0.68, 0.78, 0.89, 1.01},
     0.025,
     "paper +0.01..0.023 high"},
    {"flores",
     {0.00, 0.09, 0.17, 0.27, 0.38, 0.49, 0.59, 0.70, 0.80, 0.91, 1.01},
     0.025,
     "paper +0.01..0.023 high"},
    {"gharib_hurmuzlu",
     {0.03, 0.12, 0.21, 0.30, 0.37, 0.43, 0.48, 0.52, 0.55, 0.58, 0.61},
     0.025,
     "paper +0.01..0.023 high"},
    {"hu_guo_skrinjar",
     {0.01, 0.15, 0.31, 0.45, 0.56, 0.66, 0.75, 0.82, 0.89, 0.95, 1.00},
     0.005,
     "halved factor"},
};

}  // namespace chaindem::validation
