#!/usr/bin/python3
"""Keys and values given apart from a case file's lines that would make lines, sections or keys
of their own.

    test_malformed_injection.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import unittest

from malformed_harness import (COLLIDE_ARGS, COMPARE_HERTZ, REFERENCE_CSV, SPEEDS, check_rows, main,
                               sweep_file)

# Keys and values given apart from a case file's lines (--set, --unset, a sweep's [set] and
# [axes], fit's --set): each becomes a line `key=value` of the case, so none may hold a line
# break or a control character, nor its key '=', '#', ';', '[', ']' or a blank, which would make
# lines, sections or keys of their own; nor its value '#', which would cut it short.
KEY_RULE = "a key is section.name, without '=', '#', ';', '[', ']', blanks or control characters"
IMPACTS_CSV = "velocity,restitution\n0.1,0.9\n0.2,0.85\n0.4,0.8\n"
FIT_IMPACTS = ["fit", "--data", "d.csv", "--laws", "kuwabara_kono", "--mass", "1", "--wall",
               "--set", "stiffness=1e9"]


def key_row(name, args, files, where, key, what):
    """A row refusing `key` (as the message quotes it) given by `where` (--set, s.ini [axes])
    for holding `what`."""
    return (name, args, files, 2, [f"{where} '{key}': the key holds {what}", KEY_RULE])


def value_row(name, args, files, where, key, value, what):
    """A row refusing the value `value` (as quoted) of `key` given by `where`."""
    return (name, args, files, 2, [f"{where} '{key}': the value '{value}'", what])


INJECTION = [
    value_row("--set value that adds a section and a key",
              ["run", "{case}", "-o", "o.h5", "--set",
               "simulation.duration=1e-5\n[chain]\ncount=3"], {}, "--set",
              "simulation.duration", "1e-5\\x0A[chain]\\x0Acount=3",
              "is not text: it holds a line break (\\x0A)"),
    value_row("--set value with a carriage return", ["run", "{case}", "-o", "o.h5", "--set",
                                                     "chain.count=3\rchain.count=4"], {},
              "--set", "chain.count", "3\\x0Dchain.count=4", "a line break (\\x0D)"),
    value_row("--set value with a vertical tab", ["run", "{case}", "-o", "o.h5", "--set",
                                                  "output.file=a\vb.h5"], {}, "--set",
              "output.file", "a\\x0Bb.h5", "a control character (\\x0B)"),
    value_row("--set value cut short by a comment", ["run", "{case}", "-o", "o.h5", "--set",
                                                     "output.file=run#3.h5"], {}, "--set",
              "output.file", "run#3.h5", "holds '#', which begins a comment"),
    key_row("--set key with a comment", ["run", "{case}", "-o", "o.h5", "--set",
                                         "simulation.duration#x=2e-5"], {}, "--set",
            "simulation.duration#x", "'#'"),
    key_row("--set key with a blank", ["run", "{case}", "-o", "o.h5", "--set",
                                       "simulation.duration 2=2e-5"], {}, "--set",
            "simulation.duration 2", "a blank"),
    key_row("--set key that opens a section", ["run", "{case}", "-o", "o.h5", "--set",
                                               "[chain]count=3"], {}, "--set", "[chain]count",
            "'['"),
    key_row("--set key with a semicolon", ["run", "{case}", "-o", "o.h5", "--set",
                                           "chain;count=3"], {}, "--set", "chain;count", "';'"),
    key_row("--set key with a line break", ["run", "{case}", "-o", "o.h5", "--set",
                                            "simulation.duration\nchain.count=3"], {}, "--set",
            "simulation.duration\\x0Achain.count", "a line break (\\x0A)"),
    key_row("--unset key with a line break", ["run", "{case}", "-o", "o.h5", "--unset",
                                              "striker.velocity\n[chain]"], {}, "--unset",
            "striker.velocity\\x0A[chain]", "a line break (\\x0A)"),
    key_row("--unset key with '='", ["run", "{case}", "-o", "o.h5", "--unset",
                                     "chain.count=3"], {}, "--unset", "chain.count=3", "'='"),
    value_row("compare --set value with a line break",
              COMPARE_HERTZ + ["-o", "c.h5", "--set", "chain.count=3\n[x]"], {}, "--set",
              "chain.count", "3\\x0A[x]", "a line break (\\x0A)"),
    key_row("sweep --set key with a line break", ["sweep", "s.ini", "--set",
                                                  "chain.count\n[x]=3"], SPEEDS, "--set",
            "chain.count\\x0A[x]", "a line break (\\x0A)"),
    key_row("sweep file [set] key with a blank", ["sweep", "s.ini"],
            {"s.ini": sweep_file("striker.velocity = 0.5, 1", "chain count = 3")},
            "s.ini [set]", "chain count", "a blank"),
    key_row("sweep file [axes] key with a semicolon", ["sweep", "s.ini"],
            {"s.ini": sweep_file("chain;count = 3, 4")}, "s.ini [axes]", "chain;count", "';'"),
    key_row("sweep file [axes] key with a bracket", ["sweep", "s.ini"],
            {"s.ini": sweep_file("chain.count] = 3, 4")}, "s.ini [axes]", "chain.count]",
            "']'"),
    value_row("sweep file [set] value with an escape", ["sweep", "s.ini"],
              {"s.ini": sweep_file("striker.velocity = 0.5, 1",
                                   "contact.law = hertz\x1b[2J")},
              "s.ini [set]", "contact.law", "hertz\\x1B[2J", "a control character (\\x1B)"),
    key_row("fit --set key with a line break", FIT_IMPACTS + ["--set", "eta1\n=1"],
            {"d.csv": IMPACTS_CSV}, "--set", "eta1\\x0A", "a line break (\\x0A)"),
    key_row("fit --start key with '['", FIT_IMPACTS + ["--start", "eta1[0]=1"],
            {"d.csv": IMPACTS_CSV}, "--start", "eta1[0]", "'['"),
    value_row("fit --case --set value with a line break",
              ["fit", "--case", "{case}", "--data", "r.csv", "--laws", "hertz", "--set",
               "simulation.duration=1e-5\n[chain]\ncount=3"], {"r.csv": REFERENCE_CSV}, "--set",
              "simulation.duration", "1e-5\\x0A[chain]\\x0Acount=3", "a line break (\\x0A)"),
    key_row("collide --set key with a blank", COLLIDE_ARGS + ["--set", "restitution 2=0.5"], {},
            "--set", "restitution 2", "a blank"),
]

TABLE = INJECTION


class MalformedInjection(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)


if __name__ == "__main__":
    main()
