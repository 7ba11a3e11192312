#!/usr/bin/python3
"""The repository checks themselves (scripts/check_layers.py, check_sizes.py, check_format.sh)
on small made-up trees: each must fail on a tree that breaks its rule, naming the file, line and
reason, and pass on one that keeps it, so that none can pass whatever the tree holds.

Run by ctest with Debian's /usr/bin/python3:
    test_checks.py SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

SOURCE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "."
SCRIPTS = os.path.join(SOURCE, "scripts")

# A tree that keeps the layers: a law, an engine file over it, a command over both, a private
# header of the engine, a base header, and the CMake targets in order.
LAYERED = {
    "include/chaindem/text.hpp": "#include <string>\n",
    "include/chaindem/laws/law.hpp": '#include "chaindem/text.hpp"\n',
    "include/chaindem/engine/scene.hpp": '#include "chaindem/laws/law.hpp"\n',
    "src/engine/engine_state.hpp": '#include "chaindem/engine/scene.hpp"\n',
    "src/engine/scene.cpp": '#include "engine_state.hpp"\n#include <vector>\n',
    "src/commands/run.cpp": ('#include "chaindem/engine/scene.hpp"\n'
                             '#include "chaindem/laws/law.hpp"\n'),
    "src/main.cpp": '#include "chaindem/commands/run.hpp"\n',
    "tests/test_anything.cpp": '#include "chaindem/commands/run.hpp"\n',
    "CMakeLists.txt": textwrap.dedent("""\
        add_library(chaindem_laws STATIC src/laws/law.cpp)
        add_library(chaindem_engine STATIC
          src/engine/scene.cpp  # the scene
        )
        target_link_libraries(chaindem_engine PUBLIC chaindem_laws)
        target_link_libraries(chaindem_commands PUBLIC chaindem_engine Ceres::ceres)
        """),
}


def write_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def run(script, root, *args):
    command = ["bash"] if script.endswith(".sh") else [sys.executable]
    return subprocess.run(command + [script, *args], capture_output=True, text=True, cwd=root)


class Layers(unittest.TestCase):
    def check(self, changes):
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, {**LAYERED, **changes})
            return run(os.path.join(SCRIPTS, "check_layers.py"), root, "--root", root)

    def assert_violation(self, changes, *fragments):
        r = self.check(changes)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        for fragment in fragments:
            self.assertIn(fragment, r.stdout)

    def test_a_tree_in_order_passes(self):
        r = self.check({})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_law_including_the_engine_fails(self):
        self.assert_violation(
            {"include/chaindem/laws/law.hpp":
             '#include <cmath>\n#include "chaindem/engine/scene.hpp"\n'},
            'include/chaindem/laws/law.hpp:2: includes "chaindem/engine/scene.hpp"',
            "engine is above laws")

    def test_an_angle_include_counts_too(self):
        self.assert_violation({"src/engine/scene.cpp": "#include <chaindem/commands/run.hpp>\n"},
                              "src/engine/scene.cpp:1: includes <chaindem/commands/run.hpp>",
                              "commands is above engine")

    def test_a_private_header_counts_as_its_layer(self):
        # A law reaching an engine's private header by a relative path.
        self.assert_violation(
            {"src/laws/law.cpp": '#include "../engine/engine_state.hpp"\n'},
            'src/laws/law.cpp:1: includes "../engine/engine_state.hpp" '
            '(src/engine/engine_state.hpp)',
            "engine is above laws")

    def test_a_base_header_includes_no_layer(self):
        self.assert_violation({"include/chaindem/text.hpp": '#include "chaindem/laws/law.hpp"\n'},
                              "include/chaindem/text.hpp:1", "a base header includes no layer")

    def test_nothing_includes_the_program(self):
        self.assert_violation({"src/python/module.cpp": "\n", "src/commands/run.cpp":
                               '#include "../python/module.cpp"\n'},
                              "src/commands/run.cpp:1", "are the top")

    def test_a_folder_that_is_no_layer_fails(self):
        self.assert_violation({"src/io/reader.cpp": "\n"}, "src/io/ is no layer")
        self.assert_violation({"src/engine/scene.cpp": '#include "chaindem/io/reader.hpp"\n'},
                              "chaindem/io/ is no layer")

    def test_an_upward_link_fails(self):
        cmake = LAYERED["CMakeLists.txt"] + \
            "target_link_libraries(chaindem_laws PUBLIC\n  chaindem_fit)\n"
        self.assert_violation({"CMakeLists.txt": cmake},
                              "CMakeLists.txt:7: chaindem_laws links chaindem_fit",
                              "fit is above laws")

    def test_a_layer_linking_everything_fails(self):
        cmake = LAYERED["CMakeLists.txt"] + \
            "target_link_libraries(chaindem_fit PRIVATE chaindem_core)\n"
        self.assert_violation({"CMakeLists.txt": cmake}, "chaindem_fit links chaindem_core")

    def test_a_source_in_another_layers_library_fails(self):
        cmake = LAYERED["CMakeLists.txt"].replace("src/laws/law.cpp", "src/engine/scene.cpp")
        self.assert_violation(
            {"CMakeLists.txt": cmake},
            "chaindem_laws builds src/engine/scene.cpp, which is not in src/laws/")


def sized(lines):
    return "".join(f"# line {k}\n" for k in range(lines))


def function(name, lines):
    """A C++ function of `lines` lines, opening brace to closing brace."""
    body = "".join(f"  x += {k};\n" for k in range(lines - 3))
    return f"int {name}(int x) {{\n{body}  return x;\n}}\n"


class Sizes(unittest.TestCase):
    def check(self, files, listed):
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, {**files, "scripts/size_exceptions.txt": listed})
            return run(os.path.join(SCRIPTS, "check_sizes.py"), root, "--root", root)

    def assert_fails(self, files, listed, *fragments):
        r = self.check(files, listed)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        for fragment in fragments:
            self.assertIn(fragment, r.stdout)

    def test_within_the_limits_passes(self):
        r = self.check({"src/a.py": sized(800), "src/laws/a.cpp": function("f", 100),
                        "tests/t.cpp": function("long_test", 300)}, "")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_file_over_800_lines_fails(self):
        self.assert_fails({"tests/cli/t.py": sized(801)}, "",
                          "tests/cli/t.py: 801 lines, over the 800-line limit of a file")

    def test_a_function_over_100_lines_fails(self):
        self.assert_fails({"src/laws/a.cpp": "#include <x>\n" + function("g", 101)}, "",
                          "src/laws/a.cpp:g: 101 lines, over the 100-line limit of a function")

    def test_a_listed_offender_passes_and_may_not_grow(self):
        files = {"src/laws/a.cpp": function("g", 120), "bench/b.py": sized(900)}
        r = self.check(files, "src/laws/a.cpp:g 120\nbench/b.py 900  # a comment\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_fails(files, "src/laws/a.cpp:g 119\nbench/b.py 900\n",
                          "src/laws/a.cpp:g: 120 lines, more than the 119")

    def test_a_listed_one_within_the_limit_must_leave_the_list(self):
        self.assert_fails({"src/laws/a.cpp": function("g", 90)}, "src/laws/a.cpp:g 120\n",
                          "src/laws/a.cpp:g: 90 lines, within the 100-line limit now")

    def test_a_listed_one_that_is_gone_must_leave_the_list(self):
        self.assert_fails({}, "src/old.cpp 1000\n", "src/old.cpp: listed in")

    def test_a_table_may_grow(self):
        r = self.check({"src/setup/keys.cpp": function("keys", 300)},
                       "src/setup/keys.cpp:keys table\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


FORMATTED = "int f() {\n  return 1;\n}\n"
UNFORMATTED = "int  f( ){return 1;}\n"


class Format(unittest.TestCase):
    def check(self, files):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "scripts"))
            shutil.copy(os.path.join(SCRIPTS, "check_format.sh"), os.path.join(root, "scripts"))
            shutil.copy(os.path.join(SOURCE, ".clang-format"), root)
            write_tree(root, files)
            return run(os.path.join(root, "scripts", "check_format.sh"), root)

    def test_formatted_files_pass(self):
        r = self.check({"src/laws/a.cpp": FORMATTED, "include/chaindem/v.hpp.in": FORMATTED})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("2 C++ files follow", r.stdout)

    def test_an_unformatted_file_fails_and_is_named(self):
        r = self.check({"src/laws/a.cpp": FORMATTED, "src/laws/b.cpp": UNFORMATTED})
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("src/laws/b.cpp:1:", r.stderr)
        self.assertIn("1 of 2 files do not follow", r.stderr)
        self.assertNotIn("src/laws/a.cpp", r.stderr)

    def test_an_unformatted_template_fails_and_is_named(self):
        r = self.check({"src/laws/a.cpp": FORMATTED, "include/chaindem/v.hpp.in": UNFORMATTED})
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("include/chaindem/v.hpp.in:1:", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
