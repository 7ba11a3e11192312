"""The layout of chaindem's output files: groups, datasets and their units, the run
summary's values, and what sweep, compare and collide write (docs/output-format.md).

Generated from include/chaindem/output/output_layout.hpp, which the writer reads too; do not
edit. After a change there: build/tests/chaindem_layout_py > postprocess/chaindem_post/layout.py
(a test compares the two).
"""

# A run's groups, under its file's root or its group of a sweep or compare file.
PARTICLES = "particles/chain"
OBSERVABLES = "observables"
WALLS = "walls"
CONTACTS = "contacts"
PARAMETERS = "parameters"
SUMMARY = "summary"
# The datasets of a time series (an H5MD element): frames' step and time, and values.
STEP, TIME, VALUE = "step", "time", "value"

# PARTICLES/<name>/VALUE, frames x particles x D (D: the box's dimension, 1 or 3): name -> unit.
PARTICLE_COLUMNS = {"position": "m", "velocity": "m/s", "force": "N"}
# PARTICLES/<name>, one value per particle: name -> unit.
PARTICLE_CONSTANTS = {"radius": "m", "mass": "kg", "species": ""}
SPECIES_NAMES, STRIKER, CHAIN_FIRST, CHAIN_COUNT = "species_names", "striker", "chain_first", "chain_count"
# The particle index of each row of the series (output.beads); absent: every particle.
PARTICLE_ID = "id"

# OBSERVABLES/<name>/VALUE, frames (x components): name -> (unit, components).
OBSERVABLE_COLUMNS = {
    "dissipated_energy": ("J", 1),
    "energy_balance": ("J", 1),
    "external_potential_energy": ("J", 1),
    "kinetic_energy": ("J", 1),
    "stored_energy": ("J", 1),
    "wall_work": ("J", 1),
    "momentum": ("kg m/s", 3),
}
# The energies among them [J], by name.
ENERGIES = ["dissipated_energy", "energy_balance", "external_potential_energy", "kinetic_energy", "stored_energy", "wall_work"]

# WALLS: attribute WALL_NAMES, WALL_NORMAL (walls x 3), WALL_POSITION/VALUE and
# WALL_FORCE/VALUE (frames x walls x 3; the force each wall exerts on the particles).
WALL_NAMES, WALL_NORMAL = "names", "normal"
WALL_POSITION, WALL_POSITION_UNIT = "position", "m"
WALL_FORCE, WALL_FORCE_UNIT = "force", "N"

# CONTACTS: rows OFFSET[k] .. OFFSET[k+1]-1 are frame k's; FIRST and SECOND the particles
# (SECOND < 0 is wall -(SECOND+1)); per row: name -> unit.
OFFSET, FIRST, SECOND = "offset", "first", "second"
CONTACT_COLUMNS = {"overlap": "m", "normal_force": "N", "approach_rate": "m/s", "impact_velocity": "m/s"}

# SUMMARY attributes: name -> (unit, type); the file holds float64.
SUMMARY_SCALARS = {
    "dissipated_energy": ("J", float),
    "energy_balance_error": ("", float),
    "energy_balance_error_max": ("", float),
    "error_estimate": ("", float),
    "external_potential_energy": ("J", float),
    "final_error_estimate": ("", float),
    "first_bead_final_velocity": ("m/s", float),
    "first_isolated_impact_velocity": ("m/s", float),
    "first_isolated_restitution": ("", float),
    "impact_velocity_floor": ("m/s", float),
    "impact_velocity_floor_hits": ("", int),
    "initial_energy": ("J", float),
    "isolated_contacts": ("", int),
    "isolated_restitution_max": ("", float),
    "isolated_restitution_mean": ("", float),
    "isolated_restitution_min": ("", float),
    "kinetic_energy": ("J", float),
    "largest_contact_force": ("N", float),
    "last_bead_final_velocity": ("m/s", float),
    "left_validity": ("", int),
    "neighbor_rebuilds": ("", int),
    "ns_per_bead_step": ("ns", float),
    "simulated_time": ("s", float),
    "steps": ("", int),
    "stored_energy": ("J", float),
    "striker_final_velocity": ("m/s", float),
    "striker_rebound_ratio": ("", float),
    "time_step": ("s", float),
    "wall_time": ("s", float),
    "wall_work": ("J", float),
}
# SUMMARY string attributes.
SUMMARY_TEXTS = ["impact_velocity", "integrator"]
# SUMMARY datasets, per chain bead (arrival_*: per watched bead): name -> unit.
SUMMARY_ARRAYS = {"arrival_beads": "", "arrival_time": "s", "max_contact_force": "N", "peak_velocity": "m/s"}
# SUMMARY/SUMMARY_VALIDITY/<name>, one row per kind of contact that touched, against its
# law's stated validity: name -> unit.
SUMMARY_VALIDITY = "validity"
VALIDITY_SUMMARY_COLUMNS = {"model": "", "law": "", "contacts": "", "largest_strain": "", "strain_bound": "", "largest_impact_speed": "m/s", "impact_speed_bound": "m/s", "largest_pressure": "Pa", "pressure_bound": "Pa", "left": "", "exceeded": ""}

# A run of several contact models (a run of one has none of these): CONTACTS/MODEL, each
# row's model K; PARAMETERS/CONTACT_MODELS/K, its law's attributes and MODEL_SECTION, the
# case's section; OBSERVABLES/SECTION_ENERGY/VALUE, frames x sections of the chain, with
# per section the attributes SECTION_FIRST_BEAD, SECTION_BEADS and SECTION_MATERIAL;
# SUMMARY/SUMMARY_MODELS/<name>, one row per model: name -> unit.
MODEL = "model"
CONTACT_MODELS, MODEL_SECTION = "contact_models", "section"
SECTION_ENERGY, SECTION_ENERGY_UNIT = "section_energy", "J"
SECTION_FIRST_BEAD, SECTION_BEADS, SECTION_MATERIAL = "first_bead", "beads", "material"
SUMMARY_MODELS = "models"
MODEL_SUMMARY_COLUMNS = {"section": "", "law": "", "dissipated_energy": "J", "isolated_contacts": "", "isolated_restitution_mean": "", "isolated_restitution_min": "", "isolated_restitution_max": ""}

# A sweep's file: SWEEP (its definition: SWEEP_AXES/<key>, the values of each axis, and
# SWEEP_FILE, its text), CASES/case-NNNNNN (the runs), SUMMARY (one row per case:
# SWEEP_CASE, the axes, the summary's values, SWEEP_STATUS).
SWEEP, SWEEP_AXES, SWEEP_FILE = "sweep", "axes", "sweep_file"
CASES, SWEEP_CASE, SWEEP_STATUS = "cases", "case", "status"
# Or (sweep.keep = stacked) STACKED: the groups of a run, a row per case in each dataset,
# and STACKED_WRITTEN (1 where the case's row is written).
STACKED, STACKED_WRITTEN = "stacked", "written"

# A compare file: COMPARISON/<prefix><metric><suffix>: metric -> (unit, words).
COMPARISON = "comparison"
COMPARISON_METRICS = {
    "peak_velocity": ("m/s", "peak velocity"),
    "peak_force": ("N", "peak force"),
    "arrival_time": ("s", "pulse arrival time"),
    "final_velocity": ("m/s", "final velocity"),
}
REFERENCE_PREFIX = "reference_"
ERROR_PERCENT, MEAN_ERROR_PERCENT, BEADS_COMPARED = "_error_percent", "_mean_error_percent", "_beads_compared"
# With reference data: M_SAMPLING_BOUND (beads, %), SAMPLE_INTERVAL (attribute, s),
# SAMPLES_PER_PULSE (beads).
SAMPLING_BOUND, SAMPLE_INTERVAL, SAMPLES_PER_PULSE = "_sampling_bound_percent", "sample_interval", "samples_per_pulse"

# A collide -o file: one impact's samples: name -> unit.
LOOP_COLUMNS = {"time": "s", "overlap": "m", "approach_rate": "m/s", "force": "N"}
