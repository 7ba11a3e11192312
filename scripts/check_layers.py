#!/usr/bin/python3
"""The layering check: each layer includes and links only itself and the layers below it.

    /usr/bin/python3 scripts/check_layers.py [--root DIR]

Layers, lowest first (docs/architecture.md): laws, engine, output, setup, fit, commands. A layer's
files are include/chaindem/<layer>/ and src/<layer>/ (private headers there included); a file of
layer L may include chaindem/<M>/... only for M at or below L. The base headers
(include/chaindem/*.hpp and version.hpp.in: text, suggest, version) may be included by every
file and include no layer. src/main.cpp and src/python/ are the top and may include anything;
tests/, bench/ and validation/ are not checked. A quoted include that names a file beside the
including one ("engine_state.hpp", "../engine/scene.hpp") counts as the layer that file is in.

The CMake targets follow the same order: target_link_libraries(chaindem_<L> ...) may name
chaindem_<M> only for M at or below L (and not chaindem_core, which is every layer), and the
sources listed in add_library(chaindem_<L> ...) must be in src/<L>/.

Prints every violation (file:line, what it includes or links, why) and exits 1; exits 0 when
there is none, 2 when the tree cannot be listed.
"""
import argparse
import os
import re
import sys

from repo_tree import repo_files

LAYERS = ["laws", "engine", "output", "setup", "fit", "commands"]
RANK = {layer: k for k, layer in enumerate(LAYERS)}
BASE = "base"  # include/chaindem/*.hpp: below every layer
TOP = "top"  # src/main.cpp, src/python/: above every layer
SOURCE_ENDINGS = (".cpp", ".hpp", ".h", ".cc", ".hpp.in")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of_path(path):
    """The layer of a file by its place in the tree (a path relative to the root, with /), None
    where the check does not apply, or "unknown:<why>" for a place no layer owns."""
    parts = path.split("/")
    if parts[0] == "include" and len(parts) >= 3 and parts[1] == "chaindem":
        if len(parts) == 3:
            return BASE
        return parts[2] if parts[2] in RANK else f"unknown:include/chaindem/{parts[2]}/ is no layer"
    if parts[0] == "src":
        if path == "src/main.cpp" or (len(parts) >= 3 and parts[1] == "python"):
            return TOP
        if len(parts) == 2:
            return f"unknown:{path} is in no layer (only src/main.cpp stands in src/)"
        return parts[1] if parts[1] in RANK else f"unknown:src/{parts[1]}/ is no layer"
    if parts[0] == "include":
        return f"unknown:{path} is outside include/chaindem/"
    return None


def layer_of_include(name):
    """The layer a chaindem/... include names: chaindem/<layer>/x.hpp or the base chaindem/x.hpp."""
    parts = name.split("/")
    if parts[0] != "chaindem" or len(parts) < 2:
        return None
    if len(parts) == 2:
        return BASE
    return parts[1] if parts[1] in RANK else f"unknown:chaindem/{parts[1]}/ is no layer"


def allowed(own, other):
    """Whether a file of layer `own` may use layer `other`; the reason when not."""
    if other is None or own == TOP:
        return True, ""
    if other.startswith("unknown:"):
        return False, other[len("unknown:"):]
    if other == TOP:
        return False, "src/main.cpp and src/python/ are the top: nothing includes them"
    if own == BASE:
        return other == BASE, "a base header includes no layer"
    if other == BASE:
        return True, ""
    if RANK[other] <= RANK[own]:
        return True, ""
    return False, f"{other} is above {own} (layers, lowest first: {', '.join(LAYERS)})"


def check_includes(root, files):
    problems = []
    for path in files:
        if not path.endswith(SOURCE_ENDINGS):
            continue
        own = layer_of_path(path)
        if own is None:
            continue
        if own.startswith("unknown:"):
            problems.append(f"{path}: {own[len('unknown:'):]}")
            continue
        here = os.path.dirname(path)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                bracket, name = m.groups()
                beside = os.path.normpath(os.path.join(here, name)).replace(os.sep, "/")
                if bracket == '"' and os.path.isfile(os.path.join(root, beside)):
                    other = layer_of_path(beside)
                    shown = f'"{name}" ({beside})'
                else:
                    other = layer_of_include(name)
                    shown = f"{bracket}{name}{'>' if bracket == '<' else chr(34)}"
                ok, why = allowed(own, other)
                if not ok:
                    problems.append(f"{path}:{number}: includes {shown}: {why}")
    return problems


def cmake_calls(text, command):
    """(line, arguments) of every call of `command` in a CMake file (comments removed)."""
    text = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), text)
    for m in re.finditer(rf"\b{command}\s*\(([^)]*)\)", text, re.IGNORECASE):
        yield text.count("\n", 0, m.start()) + 1, m.group(1).split()


def check_cmake(root, files):
    problems = []
    target = re.compile(r"^chaindem_(\w+)$")
    for path in files:
        if os.path.basename(path) != "CMakeLists.txt" or path.split("/")[0] in (
                "tests", "bench", "validation"):
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for number, args in cmake_calls(text, "target_link_libraries"):
            m = target.match(args[0]) if args else None
            if not m or m.group(1) not in RANK:
                continue
            own = m.group(1)
            for name in args[1:]:
                n = target.match(name)
                if not n:
                    continue
                other = n.group(1)
                if other == "core":
                    ok, why = False, "chaindem_core is every layer"
                else:
                    ok, why = allowed(own, other if other in RANK
                                      else f"unknown:chaindem_{other} is no layer's target")
                if not ok:
                    problems.append(f"{path}:{number}: chaindem_{own} links {name}: {why}")
        for number, args in cmake_calls(text, "add_library"):
            m = target.match(args[0]) if args else None
            if not m or m.group(1) not in RANK:
                continue
            own = m.group(1)
            folder = os.path.dirname(path)
            for name in args[1:]:
                if not name.endswith(SOURCE_ENDINGS):
                    continue
                if name.startswith("${CMAKE_SOURCE_DIR}/"):
                    source = name[len("${CMAKE_SOURCE_DIR}/"):]
                else:
                    source = os.path.normpath(os.path.join(folder, name.replace(
                        "${CMAKE_CURRENT_SOURCE_DIR}/", ""))).replace(os.sep, "/")
                if layer_of_path(source) != own:
                    problems.append(f"{path}:{number}: chaindem_{own} builds {name}, which is not "
                                    f"in src/{own}/")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="the source tree (default: this script's checkout)")
    a = ap.parse_args()
    try:
        files = repo_files(a.root)
    except RuntimeError as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 2
    problems = check_includes(a.root, files) + check_cmake(a.root, files)
    for p in problems:
        print(p)
    checked = sum(1 for f in files if f.endswith(SOURCE_ENDINGS) and layer_of_path(f))
    if problems:
        print(f"check_layers: {len(problems)} violation(s) in {checked} files; a layer includes "
              f"and links only itself and those below it ({' < '.join(LAYERS)}; "
              "docs/architecture.md)", file=sys.stderr)
        return 1
    print(f"check_layers: {checked} files and the CMake targets follow the layers "
          f"({' < '.join(LAYERS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
