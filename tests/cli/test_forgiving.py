#!/usr/bin/python3
"""A forgiving command line: suggestions for mistyped names, switching laws from the command
line, --unset, errors blamed where they were made, no stray argument ignored, no NaN printed,
and measured data read as researchers write it (a subset of beads, units, other separators).

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_forgiving.py CHAINDEM_BINARY SOURCE_DIR
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
DEFAULT_CASE = os.path.join(SOURCE, "cases", "default.ini")
with open(DEFAULT_CASE) as _f:
    CASE_TEXT = _f.read()


def chaindem(*args, cwd=None):
    return subprocess.run([CHAINDEM, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


# (name, arguments, exit status, fragments the message must hold, fragments it must not hold).
# "{case}" is the default case; "{tmp}" a fresh directory.
TABLE = [
    ("mistyped command", ["rn"], 2, ["unknown command 'rn'; did you mean 'run'?"], []),
    ("mistyped option", ["run", "{case}", "--ouput", "{tmp}/o.h5"], 2,
     ["unrecognised option '--ouput'; did you mean '--output'?"], []),
    ("mistyped key in --set", ["run", "{case}", "--set", "contact.lw=hertz"], 2,
     ["--set: unknown key 'contact.lw'; did you mean 'contact.law'?"], []),
    ("mistyped key in --unset", ["run", "{case}", "--unset", "contact.restitutio"], 2,
     ["--unset: unknown key 'contact.restitutio'; did you mean 'contact.restitution'?"], []),
    ("mistyped law, blamed on --set", ["run", "{case}", "--set", "contact.law=hertzz"], 2,
     ["--set contact.law: 'hertzz' is not a law of chaindem; did you mean 'hertz'?",
      "`chaindem models --list` lists the 74 laws"],
     ["default.ini", "hunt_crossley"]),  # no list of every law, no blame on the file
    ("a law by its name in EDEM", ["run", "{case}", "--set", "contact.law=hertz_mindlin"], 2,
     ["'hertz_mindlin' is not a law of chaindem: for EDEM's Hertz-Mindlin (no slip) normal "
      "force give 'edem_hertz_mindlin'"], []),
    ("a law by its short name in compare", ["compare", "{case}", "--laws", "hertz,hm",
                                            "--reference", "hertz",
                                            "-o", "{tmp}/c.h5"], 2,
     ["--laws: 'hm' is not a law of chaindem: for Hertz-Mindlin of EDEM and LIGGGHTS give "
      "'edem_hertz_mindlin'"], []),
    ("a law by its name in LAMMPS, in fit", ["fit", "--data", "{tmp}/none.csv",
                                             "--laws", "linear_spring_dashpot"], 2,
     ["--laws: 'linear_spring_dashpot' is not a law of chaindem: for the linear "
      "spring-dashpot give 'kelvin_voigt'"], []),
    ("a published law chaindem does not implement",
     ["run", "{case}", "--set", "contact.law=sphere_contact_area"], 2,
     ["'sphere_contact_area' is not a law of chaindem: Banerjee et al. (2017), Eqs. 63-66, not "
      "implemented: as printed the force has units of N/m"], []),
    ("a law by the name it had before", ["run", "{case}", "-o", "{tmp}/o.h5", "--quiet",
                                          "--set", "contact.law=hu_guo_s000"], 0,
     ["law 'hu_guo_s000' is now called 'hu_guo_skrinjar'"], []),
    ("mistyped law in models", ["models", "lankarani_nikravsh"], 2,
     ["unknown law 'lankarani_nikravsh'; did you mean 'lankarani_nikravesh'?"], []),
    ("a value out of range, blamed on --set", ["run", "{case}", "--set", "chain.count=0"], 2,
     ["--set chain.count: 0 is out of range"], ["default.ini"]),
    ("a parameter given with a law that lacks it",
     ["run", "{case}", "--set", "contact.law=hertz", "--set", "contact.restitution=0.5"], 2,
     ["--set contact.restitution: is not a parameter of law 'hertz'"], []),
    ("stray argument to case-format", ["case-format", "extra"], 2,
     ["unexpected argument 'extra': the command takes no argument"], []),
    ("unknown option of case-format", ["case-format", "--bogus"], 2,
     ["unrecognised option '--bogus'"], []),
    ("a second case file", ["run", "{case}", "{case}"], 2,
     ["unexpected argument", "the command takes one file"], []),
    ("--markdown with law names", ["models", "hertz", "--markdown"], 2,
     ["--markdown prints the whole reference; give no law names"], []),
    ("--unset of a key --set sets",
     ["run", "{case}", "--set", "contact.restitution=0.5", "--unset", "contact.restitution"], 2,
     ["--unset contact.restitution: the command line also sets it with --set"], []),
    ("--unset of a required key", ["run", "{case}", "--unset", "chain.count"], 2,
     ["chain.count: is missing"], []),
]

# The command line itself: a command without its file, options that exclude each other, an
# option of another command, and what a law refuses of the bodies collide gives it, each
# reported by the command that meets it, in one form per kind of refusal.
STEEL_SPHERES = ["--radius", "0.005", "--youngs-modulus", "200e9", "--poisson-ratio", "0.3",
                 "--density", "7800", "--velocity", "1"]
COMMAND_LINE = [
    ("run without a case file", ["run"], 2,
     ["chaindem run: missing CASE.ini\n", "usage:\n", "  chaindem sweep SWEEP.ini"], []),
    ("run -q without a case file", ["run", "-q"], 2, ["chaindem run: missing CASE.ini"], []),
    ("sweep without a sweep file", ["sweep", "--threads", "1"], 2,
     ["chaindem sweep: missing SWEEP.ini"], []),
    ("run with --restart and --discard-checkpoint",
     ["run", "{case}", "-o", "{tmp}/o.h5", "--restart", "--discard-checkpoint"], 2,
     ["chaindem: invalid input: --restart continues the checkpoint and --discard-checkpoint "
      "deletes it: give one of them"], []),
    ("an option of a command given to another", ["models", "--threads", "2"], 2,
     ["chaindem models: unrecognised option '--threads'", "`chaindem models --help`"], []),
    ("a line contact without a length in collide",
     ["collide", "--law", "hertz_cylindrical", *STEEL_SPHERES], 2,
     ["chaindem collide: invalid input: law 'hertz_cylindrical' is a line contact of cylinders",
      "--set length="], []),
    ("an elastoplastic law without a yield stress in collide",
     ["collide", "--law", "thornton_1997", *STEEL_SPHERES], 2,
     ["chaindem collide: invalid input: law 'thornton_1997' needs a yield stress",
      "--yield-stress"], []),
]
TABLE += COMMAND_LINE


class Messages(unittest.TestCase):
    def test_table(self):
        self.assertGreaterEqual(len(TABLE), 12)
        for name, args, status, wanted, unwanted in TABLE:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                args = [a.replace("{case}", DEFAULT_CASE).replace("{tmp}", tmp) for a in args]
                r = chaindem(*args)
                self.assertEqual(r.returncode, status, r.stderr)
                for w in wanted:
                    self.assertIn(w, r.stderr)
                for u in unwanted:
                    self.assertNotIn(u, r.stderr)
                if status:
                    self.assertEqual(os.listdir(tmp), [])  # nothing written

    def test_models_prints_the_laws_named(self):
        r = chaindem("models", "hunt_crossley", "tsuji")
        self.assertEqual(r.returncode, 0, r.stderr)
        laws = re.findall(r"^(\w+)  \[", r.stdout, re.M)
        self.assertEqual(laws, ["hunt_crossley", "tsuji"])
        listed = chaindem("models", "--list", "hertz").stdout.splitlines()
        self.assertEqual([l.split("\t")[0] for l in listed], ["hertz"])

    def test_case_format_help(self):
        r = chaindem("case-format", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("usage: chaindem case-format", r.stdout)


class SwitchingLaws(unittest.TestCase):
    def test_law_from_the_command_line_ignores_the_file_parameters_it_lacks(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "hertz.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", out, "--set", "contact.law=hertz")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("note: " + DEFAULT_CASE + ": contact.restitution = 0.9 is not a "
                          "parameter of law 'hertz': ignored", r.stderr)
            with h5py.File(out, "r") as f:
                params = f["parameters"].attrs
                self.assertEqual(params["contact.law"], "hertz")
                self.assertNotIn("contact.restitution", params)  # recorded as it ran
            # The same as a case file written for Hertz from the start.
            text = open(DEFAULT_CASE).read().replace("law = edem_hertz_mindlin", "law = hertz")
            text = re.sub(r"\nrestitution = .*", "", text)
            case = os.path.join(tmp, "hertz.ini")
            with open(case, "w") as f:
                f.write(text)
            again = os.path.join(tmp, "again.h5")
            r = chaindem("run", case, "-o", again, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as a, h5py.File(again, "r") as b:
                np.testing.assert_array_equal(a["particles/chain/velocity/value"][:],
                                              b["particles/chain/velocity/value"][:])

    def test_unset_applies_the_default(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", out, "--quiet",
                         "--unset", "output.interval")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                self.assertEqual(f["parameters"].attrs["output.interval"], "0")  # the default
                # duration/200 rounded to whole steps: about 200 frames, not the file's 501
                self.assertTrue(195 <= f["particles/chain/position/value"].shape[0] <= 215)

    def test_compare_notes_the_parameters_a_law_lacks(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = chaindem("compare", DEFAULT_CASE, "--laws", "hertz,edem_hertz_mindlin",
                         "--reference", "hunt_crossley", "-o", os.path.join(tmp, "c.h5"),
                         "--set", "simulation.duration=2e-4")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr.count("contact.restitution = 0.9 is not a parameter of "
                                            "law 'hertz': ignored"), 1)


    def test_sweep_over_laws_with_different_parameters(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "laws.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {DEFAULT_CASE}\n[set]\nsimulation.duration = 1e-4\n"
                        "[axes]\ncontact.law = hertz, hunt_crossley\n")
            out = os.path.join(tmp, "laws.h5")
            r = chaindem("sweep", sweep, "-o", out, "--threads", "2", "--quiet",
                         "--unset", "output.interval")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr.count("contact.restitution = 0.9 is not a parameter of "
                                            "law 'hertz': ignored"), 1)
            with h5py.File(out, "r") as f:
                for name in f["cases"]:
                    group = f["cases"][name]
                    self.assertEqual(group["parameters"].attrs["output.interval"], "0")


class Printed(unittest.TestCase):
    def test_no_nan_reaches_the_terminal_for_the_shipped_cases(self):
        with tempfile.TemporaryDirectory() as tmp:
            for case in sorted(glob.glob(os.path.join(SOURCE, "cases", "*.ini"))):
                with self.subTest(os.path.basename(case)):
                    r = chaindem("run", case, "-o", os.path.join(tmp, "o.h5"), "--force")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertNotRegex(r.stdout + r.stderr, r"(?i)\bnan\b")

    def test_run_summary_states_both_gaps(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = chaindem("run", DEFAULT_CASE, "-o", os.path.join(tmp, "o.h5"),
                         "--set", "chain.gap=1e-5", "--set", "striker.gap=2e-5")
            self.assertIn("gaps               striker to first bead 2e-05 m, between beads "
                          "1e-05 m", r.stdout)
        self.assertIn("not between the striker and the first bead",
                      chaindem("run", "--help").stdout)

    def test_collide_dimensionless_prints_no_si_units(self):
        r = chaindem("collide", "--law", "hunt_crossley", "--restitution", "0.5",
                     "--dimensionless")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("dimensionless: lengths in units of", r.stdout)
        for unit in (" m\n", " N\n", " s\n", " J ", "m/s"):
            self.assertNotIn(unit, r.stdout)
        si = chaindem("collide", "--law", "hunt_crossley", "--restitution", "0.5",
                      "--velocity", "1", "--mass", "1", "--wall", "--stiffness", "1").stdout
        self.assertIn("maximum overlap", si)
        self.assertRegex(si, r"maximum overlap +[0-9.e+-]+ m\n")


class MeasuredData(unittest.TestCase):
    """compare --reference-data on the data of a run: all beads, a subset, other units and
    separators give the same errors for the beads they share."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = os.path.join(cls.tmp.name, "measured.h5")
        r = chaindem("run", DEFAULT_CASE, "-o", out, "--quiet", "--set", "contact.law=hertz")
        assert r.returncode == 0, r.stderr
        with h5py.File(out, "r") as f:
            cls.time = f["particles/chain/position/time"][:]
            first = int(f["particles/chain"].attrs["chain_first"])
            cls.v = f["particles/chain/velocity/value"][:, first:, 0]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def write(self, name, header, rows):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(header + "\n" + "\n".join(rows) + "\n")
        return path

    def compare(self, csv):
        out = os.path.join(self.tmp.name, "cmp.h5")
        if os.path.exists(out):
            os.remove(out)
        r = chaindem("compare", DEFAULT_CASE, "--laws", "edem_hertz_mindlin",
                     "--reference-data", csv, "-o", out, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_subset_units_and_separators(self):
        beads = [0, 7, 19]
        rows = [",".join([repr(t)] + [repr(self.v[k, b]) for b in beads])
                for k, t in enumerate(self.time)]
        subset = self.compare(self.write("subset.csv", "time,bead0,bead7,bead19", rows))
        errors = json.loads(subset)["errors"]["edem_hertz_mindlin"]
        peak = errors["peak_velocity"]
        self.assertTrue(all(peak[b] is not None for b in beads), peak)
        self.assertTrue(all(peak[b] is None for b in range(20) if b not in beads), peak)

        ms = [";".join([repr(t * 1e3)] + [repr(self.v[k, b] * 1e3) for b in beads])
              for k, t in enumerate(self.time)]
        other = self.compare(self.write("ms.csv", "time [ms];b0 [mm/s];b7 [mm/s];b19 [mm/s]",
                                        ms))
        again = json.loads(other)["errors"]["edem_hertz_mindlin"]["peak_velocity"]
        np.testing.assert_allclose([again[b] for b in beads], [peak[b] for b in beads],
                                   rtol=1e-9)

        tabs = [r.replace(",", "\t") for r in rows]
        tabbed = self.compare(self.write("tab.csv", "time\tbead0\tbead7\tbead19", tabs))
        self.assertEqual(json.loads(tabbed)["errors"],
                         json.loads(subset)["errors"])

    def test_beads_without_data_print_no_nan(self):
        rows = [",".join([repr(t), repr(self.v[k, 0])]) for k, t in enumerate(self.time)]
        csv = self.write("one.csv", "time,bead0", rows)
        r = chaindem("compare", DEFAULT_CASE, "--laws", "edem_hertz_mindlin", "--reference-data",
                     csv, "--beads", "0,5", "-o", os.path.join(self.tmp.name, "one.h5"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotRegex(r.stdout, r"(?i)\bnan\b")
        self.assertRegex(r.stdout, r"edem_hertz_mindlin +[0-9.]+ +1 +[0-9.]+ +-\n")

    def test_milliseconds_without_a_unit_are_refused_with_the_reason(self):
        rows = [",".join([repr(t * 1e3), repr(self.v[k, 3])]) for k, t in enumerate(self.time)]
        csv = self.write("ms_plain.csv", "time,bead3", rows)
        r = chaindem("compare", DEFAULT_CASE, "--laws", "hertz", "--reference-data", csv,
                     "-o", os.path.join(self.tmp.name, "x.h5"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("times as long as the run", r.stderr)
        self.assertIn("name it in the header, e.g. 'time [ms]'", r.stderr)


# Text as editors and spreadsheets save it: with a UTF-8 byte-order mark, CR LF line ends, or a
# lone CR at each line's end (old Mac OS). Each text input reads every one of them as the plain
# text: the same run, sweep, comparison or fit.
VARIANTS = {
    "byte-order mark": lambda text: b"\xef\xbb\xbf" + text,
    "CR LF line ends": lambda text: text.replace(b"\n", b"\r\n"),
    "CR line ends": lambda text: text.replace(b"\n", b"\r"),
    "byte-order mark and CR line ends": lambda text: b"\xef\xbb\xbf" + text.replace(b"\n", b"\r"),
}
SHORT = ["--set", "simulation.duration=2e-5"]


def h5_arrays(path, group, names=None):
    """The datasets `names` (default: all) of `group` of an HDF5 file, by name."""
    with h5py.File(path, "r") as f:
        return {name: f[group][name][()] for name in (names or f[group].keys())}


class TextAsEditorsWriteIt(unittest.TestCase):
    def read_alike(self, varied, files, args, result):
        """`chaindem ARGS` in a directory holding `files` ({name: text}) gives the same
        result(directory, stdout) ({name: array or value}) when the file `varied` is written in
        each of VARIANTS as when it is plain text."""
        def outcome(variant):
            with tempfile.TemporaryDirectory() as tmp:
                for name, text in files.items():
                    data = text.encode()
                    with open(os.path.join(tmp, name), "wb") as f:
                        f.write(variant(data) if name == varied else data)
                r = chaindem(*args, cwd=tmp)
                self.assertEqual(r.returncode, 0, r.stderr)
                return result(tmp, r.stdout)
        plain = outcome(lambda text: text)
        self.assertTrue(plain)
        for name, variant in VARIANTS.items():
            with self.subTest(name):
                got = outcome(variant)
                self.assertEqual(sorted(got), sorted(plain))
                for key, value in plain.items():
                    np.testing.assert_array_equal(got[key], value, err_msg=key)

    def test_case_file(self):
        self.read_alike("case.ini", {"case.ini": CASE_TEXT},
                        ["run", "case.ini", "-o", "o.h5", "--quiet", *SHORT],
                        lambda tmp, out: h5_arrays(os.path.join(tmp, "o.h5"), "particles/chain",
                                                   ["velocity/value", "position/value"]))

    def test_sweep_file(self):
        sweep = ("[sweep]\nbase = case.ini\n[set]\nsimulation.duration = 2e-5\n"
                 "[axes]\nstriker.velocity = 0.5, 1\n")
        self.read_alike("s.ini", {"case.ini": CASE_TEXT, "s.ini": sweep},
                        ["sweep", "s.ini", "-o", "s.h5", "--quiet"],
                        lambda tmp, out: h5_arrays(os.path.join(tmp, "s.h5"), "summary",
                                                   ["striker.velocity", "peak_velocity",
                                                    "max_contact_force"]))

    def test_sweep_base_case(self):
        sweep = "[sweep]\nbase = case.ini\n[axes]\nstriker.velocity = 0.5, 1\n"
        self.read_alike("case.ini", {"case.ini": CASE_TEXT, "s.ini": sweep},
                        ["sweep", "s.ini", "-o", "s.h5", "--quiet", *SHORT],
                        lambda tmp, out: h5_arrays(os.path.join(tmp, "s.h5"), "summary",
                                                   ["peak_velocity", "max_contact_force"]))

    def test_initial_state_csv(self):
        state = "# x and vx of the striker and the 20 beads\nx [m],vx [m/s]\n" + "".join(
            f"{0.005 + 0.0101 * k!r},{0.7 if k == 0 else 0.01 * k!r}\n" for k in range(21))
        self.read_alike("s.csv", {"case.ini": CASE_TEXT, "s.csv": state},
                        ["run", "case.ini", "-o", "o.h5", "--quiet", "--set",
                         "initial.file=s.csv", *SHORT],
                        lambda tmp, out: h5_arrays(os.path.join(tmp, "o.h5"), "particles/chain",
                                                   ["velocity/value", "position/value"]))

    def test_compare_reference_data(self):
        record = "time [ms]," + ",".join(f"bead{k}" for k in range(20)) + "\n" + "".join(
            f"{t * 0.005!r}," + ",".join(f"{0.01 * k * t!r}" for k in range(20)) + "\n"
            for t in range(4))
        self.read_alike("r.csv", {"r.csv": record},
                        ["compare", DEFAULT_CASE, "--laws", "hertz", "--reference-data", "r.csv",
                         "-o", "c.h5", *SHORT],
                        lambda tmp, out: h5_arrays(os.path.join(tmp, "c.h5"), "comparison"))

    def test_fit_data(self):
        data = ("# restitution of a steel bead on a wall\nvelocity,restitution,sigma\n"
                "0.1,0.93,0.01\n0.3,0.9,0.01\n\n1,0.86,0.02\n3,0.82,0.02\n")
        self.read_alike("d.csv", {"d.csv": data},
                        ["fit", "--data", "d.csv", "--laws", "tsuji,hunt_crossley", "--json",
                         "--radius", "0.005", "--youngs-modulus", "2e11", "--poisson-ratio",
                         "0.3", "--density", "7800", "--wall"],
                        lambda tmp, out: {"result": json.dumps(json.loads(out))})


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
