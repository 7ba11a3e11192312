#!/usr/bin/python3
"""The size check: no file over 800 lines, no C++ function over 100 lines, but the known ones.

    /usr/bin/python3 scripts/check_sizes.py [--root DIR] [--report] [--list]

Counts the lines of every C++ and Python file in src/, include/, tests/, bench/ and validation/
(as `wc -l` does: every line, blank and comment lines included) and the length of every C++
function defined in src/ and include/, from its first line to its closing brace, as Universal
Ctags reports them:

    ctags --fields=+ne -o - --c++-kinds=f --language-force=C++ FILE...

A file over 800 lines or a function over 100 fails the check unless scripts/size_exceptions.txt
lists it. That list only shrinks: each line is a file (`path count`) or a function
(`path:Scope::function count`) over its limit with its size when it was listed, and the check
also fails when a listed one has grown past that size (split it rather than raise the number),
when it is no longer over its limit (delete its line: it cannot return), or when it no longer
exists. A function that is a table (rows of data, one per item; a list of case keys) is listed
as `path:function table`: it may grow, and stays until it is no longer over the limit.

--report prints the ctags command and a table of every file and function over its limit;
--list prints the offenders in the list's format (to write the list of a new tree).
Exit status 0 when the tree keeps the limits, 1 when it does not (each reason printed), 2 when
the list or the tree cannot be read or ctags is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

from repo_tree import repo_files

FILE_LIMIT = 800
FUNCTION_LIMIT = 100
FOLDERS = ("src", "include", "tests", "bench", "validation")
FUNCTION_FOLDERS = ("src", "include")
CPP_ENDINGS = (".cpp", ".hpp", ".h", ".cc", ".hpp.in")
PY_ENDINGS = (".py",)
CTAGS = ["ctags", "--fields=+ne", "-o", "-", "--c++-kinds=f", "--language-force=C++"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def line_count(path):
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def function_name(name, fields):
    """Scope::name without the chaindem namespace and anonymous scopes: CaseConfig::parse."""
    for field in fields:
        kind, _, scope = field.partition(":")
        if kind in ("class", "struct", "namespace", "union", "function") and scope:
            parts = [p for p in scope.split("::") if p != "chaindem" and not p.startswith("__anon")]
            return "::".join(parts + [name])
    return name


def function_lengths(root, files):
    """{path:Scope::function: lines} of every named C++ function defined in the files; a name
    defined twice in a file (overloads) counts as its longest definition."""
    if not files:
        return {}
    out = subprocess.run(CTAGS + files, cwd=root, capture_output=True, text=True, check=True)
    lengths = {}
    for row in out.stdout.splitlines():
        cols = row.split("\t")
        if len(cols) < 4 or cols[0].startswith("__anon"):  # lambdas count in their function
            continue
        fields = dict(f.split(":", 1) for f in cols[3:] if ":" in f)
        if "line" not in fields or "end" not in fields:
            continue
        key = f"{cols[1]}:{function_name(cols[0], cols[3:])}"
        lines = int(fields["end"]) - int(fields["line"]) + 1
        lengths[key] = max(lines, lengths.get(key, 0))
    return lengths


def measure(root):
    """(file lines, function lines) of the tree: {path: lines}, {path:function: lines}."""
    files = [f for f in repo_files(root) if f.split("/")[0] in FOLDERS
             and f.endswith(CPP_ENDINGS + PY_ENDINGS)]
    sizes = {f: line_count(os.path.join(root, f)) for f in files}
    cpp = [f for f in files if f.split("/")[0] in FUNCTION_FOLDERS and f.endswith(CPP_ENDINGS)]
    return sizes, function_lengths(root, cpp)


def read_exceptions(path):
    """{key: count or "table"} from the list; raises ValueError on a line it cannot read."""
    listed = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            m = re.fullmatch(r"(\S+)\s+(\d+|table)", text)
            if not m:
                raise ValueError(f"{path}:{number}: expected `path COUNT`, `path:function COUNT` "
                                 f"or `path:function table`, found {line.strip()!r}")
            if m.group(1) in listed:
                raise ValueError(f"{path}:{number}: {m.group(1)} is listed twice")
            listed[m.group(1)] = m.group(2) if m.group(2) == "table" else int(m.group(2))
    return listed


def offenders(sizes, functions):
    """[(key, lines, limit)] of every file and function over its limit, largest first."""
    rows = [(k, n, FILE_LIMIT) for k, n in sizes.items() if n > FILE_LIMIT]
    rows += [(k, n, FUNCTION_LIMIT) for k, n in functions.items() if n > FUNCTION_LIMIT]
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def check(sizes, functions, listed, list_name):
    problems = []
    over = {k: (n, limit) for k, n, limit in offenders(sizes, functions)}
    for key, (n, limit) in over.items():
        what = "function" if key in functions else "file"
        if key not in listed:
            problems.append(f"{key}: {n} lines, over the {limit}-line limit of a {what}: split it "
                            f"(only the offenders in {list_name} may stay over, and none is added)")
        elif listed[key] != "table" and n > listed[key]:
            problems.append(f"{key}: {n} lines, more than the {listed[key]} it had when "
                            f"{list_name} listed it: split it rather than grow it")
    for key, count in listed.items():
        if key in over:
            continue
        if key in sizes or key in functions:
            n = sizes.get(key, functions.get(key))
            limit = FILE_LIMIT if key in sizes else FUNCTION_LIMIT
            problems.append(f"{key}: {n} lines, within the {limit}-line limit now: delete its "
                            f"line from {list_name} so that it stays within")
        else:
            problems.append(f"{key}: listed in {list_name} but not found: delete its line (or "
                            "name the file or function as it is called now)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=ROOT, help="the source tree (default: this checkout)")
    ap.add_argument("--exceptions", help="the list of known offenders (default: "
                    "ROOT/scripts/size_exceptions.txt)")
    ap.add_argument("--report", action="store_true",
                    help="print the ctags command and every file and function over its limit")
    ap.add_argument("--list", action="store_true",
                    help="print the offenders in the format of the list, and nothing else")
    a = ap.parse_args()
    if shutil.which("ctags") is None:
        print("check_sizes: ctags not found: install Universal Ctags (Debian: universal-ctags; "
              "scripts/setup.sh does)", file=sys.stderr)
        return 2
    try:
        sizes, functions = measure(a.root)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        print(f"check_sizes: {e}", file=sys.stderr)
        return 2
    rows = offenders(sizes, functions)
    if a.list:
        for key, n, _ in rows:
            print(f"{key} {n}")
        return 0
    list_path = a.exceptions or os.path.join(a.root, "scripts", "size_exceptions.txt")
    list_name = os.path.relpath(list_path, a.root) if a.exceptions is None else list_path
    try:
        listed = read_exceptions(list_path)
    except (OSError, ValueError) as e:
        print(f"check_sizes: {e}", file=sys.stderr)
        return 2
    if a.report:
        print("function lengths: " + " ".join(CTAGS) + " FILE... (line: to end:)")
        print(f"{'lines':>6} {'limit':>6}  {'listed':>6}  file or function")
        for key, n, limit in rows:
            print(f"{n:>6} {limit:>6}  {str(listed.get(key, 'no')):>6}  {key}")
        print(f"{len(sizes)} files ({sum(sizes.values())} lines), {len(functions)} functions; "
              f"{sum(1 for r in rows if r[2] == FILE_LIMIT)} files over {FILE_LIMIT} lines, "
              f"{sum(1 for r in rows if r[2] == FUNCTION_LIMIT)} functions over "
              f"{FUNCTION_LIMIT}; {len(listed)} listed in {list_name}")
    problems = check(sizes, functions, listed, list_name)
    for p in problems:
        print(p)
    if problems:
        print(f"check_sizes: {len(problems)} problem(s): files stay within {FILE_LIMIT} lines and "
              f"functions within {FUNCTION_LIMIT}, but those {list_name} lists, which only shrink",
              file=sys.stderr)
        return 1
    print(f"check_sizes: {len(sizes)} files within {FILE_LIMIT} lines and {len(functions)} "
          f"functions within {FUNCTION_LIMIT}, but the {len(listed)} listed in {list_name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
