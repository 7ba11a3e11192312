"""The module installs into a virtual environment offline, as docs/python.md says (pip with
Debian's setuptools, no build isolation), here reusing the test build's CMake folder."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CHAINDEM_BUILD_DIR")


@pytest.mark.skipif(not BUILD, reason="CHAINDEM_BUILD_DIR (the CMake build folder) not given")
def test_pip_installs_into_a_virtual_environment(tmp_path):
    source = tmp_path / "source"  # what pip reads of the project, so that it writes nothing here
    source.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "CMakeLists.txt"):
        shutil.copy(os.path.join(ROOT, name), source / name)
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env)], check=True)
    python = str(env / "bin" / "python")
    r = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", str(source)], capture_output=True, text=True,
                       env=dict(os.environ, CHAINDEM_BUILD_DIR=BUILD, PYTHONPATH=""))
    assert r.returncode == 0, r.stdout + r.stderr
    check = ("import chaindem, sys; r = chaindem.run(sys.argv[1]); "
             "print(chaindem.__file__); print(r.velocity.shape)")
    r = subprocess.run([python, "-c", check, os.path.join(ROOT, "cases", "default.ini")],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=""),
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    where, shape = r.stdout.splitlines()
    assert where.startswith(str(env)), where
    assert shape == "(501, 21, 1)"  # a chain on the x axis: x alone
