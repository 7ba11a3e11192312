#!/usr/bin/python3
"""Messages: what they quote of the input never acts on the terminal, and reads as it was
given where it is text (UTF-8); numbers they compute are short; a file named by mistake is quoted
by an excerpt of its first line, and named; text that shows as nothing is escaped.

    test_malformed_messages.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os
import subprocess
import tempfile
import unittest

from malformed_harness import (BODIES, CASE, CASE_TEXT, CHAINDEM, SOURCE, check_rows, initial_row,
                               main, run_row)

# Messages: what they quote of the input never acts on the terminal, and reads as it was given
# where it is text (UTF-8); numbers they compute are short; a file named by mistake is quoted by
# an excerpt of its first line, and named.
ESC = "\x1b[2J"  # "clear the screen", as a terminal obeys it
SHOWN = "\\x1B[2J"  # as a message shows it
PASSWD_LINE = ("root:x:0:0:root:/root:/bin/bash:" * 16)[:500]
PASSWD = {"pw": PASSWD_LINE + "\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"}
EXCERPT = "'root:x:0:0:root:/root:/bin/bash:...'"  # its first 32 characters
SWEEP_OF_ESC = f"[sweep]\nbase = {ESC}base.ini\n"
MESSAGES = [
    ("-o with a control character", ["run", "{case}", "-o", ESC + "/o.h5"], {}, 2,
     [f"output '{SHOWN}/o.h5': the directory '{SHOWN}' does not exist"]),
    ("case file name with a control character", ["run", ESC + "c.ini", "-o", "out.h5"],
     {ESC + "c.ini": CASE_TEXT.replace("count = 20", "count = 0")}, 2,
     [f"{SHOWN}c.ini: chain.count: 0 is out of range"]),
    ("missing case file with a control character", ["run", ESC + "none.ini"], {}, 2,
     [f"cannot read case file '{SHOWN}none.ini'"]),
    ("case file name not UTF-8", ["run", "\udcff.ini"], {}, 2,
     ["cannot read case file '\\xFF.ini'"]),
    ("case file name in UTF-8", ["run", "\u00b5.ini"], {}, 2,
     ["cannot read case file '\u00b5.ini'"]),
    ("sweep file name with a control character", ["sweep", ESC + "s.ini"],
     {ESC + "s.ini": SWEEP_OF_ESC.replace(f"base = {ESC}base.ini", "combine = mixed")}, 2,
     [f"{SHOWN}s.ini: sweep.combine: 'mixed' is not grid or zip"]),
    ("missing sweep file with a control character", ["sweep", ESC + "none.ini"], {}, 2,
     [f"cannot read sweep file '{SHOWN}none.ini'"]),
    ("sweep base with a control character", ["sweep", "s.ini"], {"s.ini": SWEEP_OF_ESC}, 2,
     ["cannot read case file '", f"{SHOWN}base.ini'"]),
    ("sweep value with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\ncombine = {ESC}\n"}, 2,
     [f"sweep.combine: '{SHOWN}' is not grid or zip"]),
    ("sweep axis with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\n[axes]\nchain.{ESC} = 1, 2\n"}, 2,
     [f"s.ini [axes] 'chain.{SHOWN}': the key holds a control character (\\x1B)"]),
    ("sweep line with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\n{ESC}\n"}, 2, [f"invalid line '{SHOWN}'"]),
    ("--unset with a control character", ["run", "{case}", "--unset", ESC + "x"], {}, 2,
     [f"--unset '{SHOWN}x': the key holds a control character (\\x1B)"]),
    ("compare --laws with a control character",
     ["compare", "{case}", "--laws", ESC + "hertz", "--reference", "hertz"], {}, 2,
     [f"--laws: '{SHOWN}hertz' is not a law of chaindem"]),
    ("compare --reference with a control character",
     ["compare", "{case}", "--laws", "hertz", "--reference", ESC + "hertz"], {}, 2,
     [f"--reference: '{SHOWN}hertz' is not a law of chaindem"]),
    ("compare --reference-data with a control character",
     ["compare", "{case}", "--laws", "hertz", "--reference-data", ESC + "r.csv"],
     {ESC + "r.csv": "time,b0\n0,fast\n"}, 2,
     [f"--reference-data '{SHOWN}r.csv', line 2, column 2 ('b0'): 'fast' is not a number"]),
    ("collide --velocity with a control character",
     ["collide", "--law", "hertz", *BODIES, "--velocity", ESC], {}, 2,
     [f"the argument ('{SHOWN}') for option '--velocity' is invalid"]),
    ("models of a law with a control character", ["models", ESC], {}, 2,
     [f"unknown law '{SHOWN}'"]),
    ("models of a law with a C1 control character", ["models", "\u009b2J"], {}, 2,
     ["unknown law '\\xC2\\x9B2J'"]),
    ("models of a law that reverses the text", ["models", "hertz\u202e"], {}, 2,
     ["unknown law 'hertz\\xE2\\x80\\xAE'"]),
    ("unknown command with a control character", [ESC], {}, 2,
     [f"unknown command '{SHOWN}'"]),
    ("unknown option with a control character", ["run", "{case}", "--" + ESC], {}, 2,
     [f"unrecognised option '--{SHOWN}'"]),
    ("option value with a control character", ["sweep", "s.ini", "--threads", ESC], {}, 2,
     [f"the argument ('{SHOWN}') for option '--threads' is invalid"]),
    ("fit --data with a control character", ["fit", "--data", ESC + "d.csv", "--laws", "hertz",
                                             *BODIES], {}, 2,
     [f"--data: cannot read '{SHOWN}d.csv'"]),
    initial_row("initial.file in UTF-8", None, ["initial.file: '\u00b5.csv' does not exist"],
                file="\u00b5.csv"),
    # Numbers a message computes, in short scientific form (no run of 20 digits: the harness).
    run_row("run of 1e300 s", ["simulation.duration=1e300"], 2,
            ["--set simulation.duration: needs 2.092e+306 steps of", "at most 1e12 allowed"]),
    run_row("time step of 1e-300 s", ["simulation.time_step=1e-300"], 2,
            ["--set simulation.time_step: needs 1e+297 steps of 1e-300 s"]),
    run_row("1e300 steps per contact", ["simulation.steps_per_contact=1e300"], 2,
            ["simulation.duration: needs ", "e+301 steps of", "s (automatic)"]),
    run_row("Young's modulus of 1e300 Pa", ["material.steel.youngs_modulus=1e300"], 2,
            ["material.steel.youngs_modulus: 1e+300 Pa", "would need 6.31e+118 steps"]),
    run_row("end force of 1e300 N", ["chain.end_force=1e300"], 2,
            ["simulation.duration: needs ", " steps of ", "s (automatic)"]),
    run_row("end force of 1e300 N held by a static overlap",
            ["chain.end_force=1e300", "chain.static_overlap=true"], 2,
            ["--set chain.end_force: is 1e+300 N, held by the static overlap "
             "(chain.static_overlap) of beads 0 and 1, 2.651e+193 m, a strain delta/R* = "
             "1.06e+196", "allowed delta/R* up to 0.02, a load of at most 2.59e+03 N here"]),
    run_row("chain overlap of 1e300 m", ["chain.overlap=1e300"], 2,
            ["--set chain.overlap: overlap 1e+300 m, a strain delta/R* = 4e+302 of the "
             "contact's effective radius R* = 0.0025 m (beads 0 and 1)",
             "allowed delta/R* up to 0.02 (5e-05 m here)"]),
    # A file named by mistake (here a password file): its name, and 32 characters of its line.
    initial_row("initial.file that is a password file", PASSWD["pw"],
                ["'pw', line 1, column 1", "unknown column " + EXCERPT], file="pw"),
    ("sweep base that is a password file", ["sweep", "s.ini"],
     {**PASSWD, "s.ini": "[sweep]\nbase = pw\n"}, 2,
     ["pw: the options configuration file contains an invalid line " + EXCERPT]),
    ("fit data that is a password file", ["fit", "--data", "pw", "--laws", "hertz", *BODIES],
     PASSWD, 2, ["pw:1: unknown column " + EXCERPT]),
    ("compare reference data that is a password file",
     ["compare", "{case}", "--laws", "hertz", "--reference-data", "pw"], PASSWD, 2,
     ["--reference-data 'pw', line 1, column 1 (" + EXCERPT + ")"]),
]

# Text that shows as nothing or as another text: escaped, so that a message does not name a key
# that looks like the one the user meant; and an empty -o, which is no output file.
INVISIBLE = [
    run_row("a key that begins with a byte-order mark", ["\ufeffchain.count=3"], 2,
            ["unknown key '\\xEF\\xBB\\xBFchain.count'"]),
    run_row("a value that ends in a line separator", ["chain.count=3\u2028"], 2,
            ["'3\\xE2\\x80\\xA8' is not a number"]),
    run_row("a key with a zero-width space", ["chain.\u200bcount=3"], 2,
            ["'chain.\\xE2\\x80\\x8Bcount'"]),
    ("run -o empty", ["run", "{case}", "-o", ""], {}, 2, ["-o is empty"]),
]

TABLE = MESSAGES + INVISIBLE


class MalformedMessages(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_password_file_is_quoted_by_an_excerpt(self):
        """A file named as input by mistake: the message names it and quotes a short excerpt of
        its first line, never the line."""
        rows = [row for row in MESSAGES if "password file" in row[0]]
        self.assertEqual(len(rows), 4)
        for name, args, files, _, fragments in rows:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                for file, text in files.items():
                    with open(os.path.join(tmp, file), "w") as f:
                        f.write(text)
                argv = [a.format(case=CASE, src=SOURCE) for a in args]
                r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                for fragment in fragments:  # the file named, and the excerpt
                    self.assertIn(fragment, r.stderr)
                self.assertNotIn(PASSWD_LINE[:33], r.stderr)
                self.assertNotIn("daemon", r.stderr)
                self.assertLess(len(r.stderr), 400, r.stderr)

    def test_stdout_quotes_paths(self):
        """The summary names its case and output as messages do: no control character."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "case.ini"), "w") as f:
                f.write(CASE_TEXT)
            r = subprocess.run([CHAINDEM, "run", "case.ini", "-o", "\x1b[2Jo.h5", "--set",
                                "simulation.duration=2e-5"], cwd=tmp, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("-> \\x1B[2Jo.h5", r.stdout)
            self.assertFalse([c for c in r.stdout if ord(c) < 32 and c not in "\n\t"])


if __name__ == "__main__":
    main()
