#!/usr/bin/python3
"""A FIFO given as an input file: opening it would wait for a writer that never comes. Each is
refused before it is opened, within the timeout, naming it.

    test_malformed_fifo_inputs.py CHAINDEM_BINARY SOURCE_DIR  (harness: malformed_harness.py)
"""
import os
import subprocess
import tempfile
import unittest

from malformed_harness import CASE, CHAINDEM, COMPARE_HERTZ, REFERENCE_CSV, WITH_CASE, main


class MalformedFifoInputs(unittest.TestCase):
    def refuses_fifo(self, args, files, fragment, fifo="f"):
        """`chaindem ARGS` in a directory with `files` and a FIFO named `fifo` exits 2 at once,
        its message holding `fragment` and "is a FIFO, not a regular file"."""
        with tempfile.TemporaryDirectory() as tmp:
            for file, content in files.items():
                with open(os.path.join(tmp, file), "w") as f:
                    f.write(content)
            os.mkfifo(os.path.join(tmp, fifo))
            before = sorted(os.listdir(tmp))
            argv = [a.format(case=CASE) for a in args]
            r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                               timeout=30)
            self.assertEqual(r.returncode, 2, f"{argv}\n{r.stderr}")
            self.assertIn(fragment.format(tmp=os.path.realpath(tmp)) +
                          " is a FIFO, not a regular file", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), before, "left files behind")

    def test_fifo_as_case_file(self):
        self.refuses_fifo(["run", "f", "-o", "o.h5"], {}, "case file 'f'")

    def test_fifo_as_sweep_file(self):
        self.refuses_fifo(["sweep", "f", "-o", "o.h5"], {}, "sweep file 'f'")

    def test_fifo_as_sweep_base(self):
        self.refuses_fifo(["sweep", "s.ini", "-o", "o.h5"],
                          {"s.ini": "[sweep]\nbase = f\n[axes]\nstriker.velocity = 0.5, 1\n"},
                          "s.ini: sweep.base: '{tmp}/f'")

    def test_fifo_as_compare_reference_data(self):
        self.refuses_fifo(COMPARE_HERTZ[:4] + ["--reference-data", "f", "-o", "c.h5"], {},
                          "--reference-data 'f'")

    def test_fifo_as_fit_data(self):
        self.refuses_fifo(["fit", "--data", "f", "--laws", "kuwabara_kono", "--mass", "1",
                           "--wall", "--set", "stiffness=1e9"], {}, "--data: 'f'")

    def test_fifo_as_fit_case(self):
        self.refuses_fifo(["fit", "--case", "f", "--data", "r.csv", "--laws", "kuwabara_kono"],
                          {"r.csv": REFERENCE_CSV}, "case file 'f'")

    def test_fifo_as_initial_state(self):
        self.refuses_fifo(["run", "case.ini", "-o", "o.h5", "--set", "initial.file=f"],
                          WITH_CASE, "--set initial.file: 'f'")

    def test_fifo_as_restart_checkpoint(self):
        self.refuses_fifo(["run", "case.ini", "-o", "o.h5", "--restart"], WITH_CASE,
                          "'o.h5.checkpoint' (a run's checkpoint, from which --restart continues "
                          "it)", fifo="o.h5.checkpoint")


if __name__ == "__main__":
    main()
