"""Builds the Python module with the project's CMake: `pip install --no-build-isolation --no-deps .`
(docs/python.md). CHAINDEM_BUILD_DIR reuses an existing CMake build folder (built with
CHAINDEM_PYTHON=ON, for the same Python) instead of configuring a new one."""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(chaindem VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Builds the extension and copies the package (build/python/chaindem) into the wheel."""

    def build_extension(self, ext):
        folder = os.environ.get("CHAINDEM_BUILD_DIR") or os.path.join(
            os.path.abspath(self.build_temp), "cmake")
        if not os.environ.get("CHAINDEM_BUILD_DIR"):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", folder, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DCHAINDEM_BUILD_TESTS=OFF", "-DCHAINDEM_BUILD_BENCH=OFF",
                                   "-DCHAINDEM_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", folder, "--target", "_core",
                               "-j", str(os.cpu_count() or 1)])
        package = os.path.join(folder, "python", "chaindem")
        target = os.path.join(os.path.abspath(self.build_lib), "chaindem")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target)


setup(version=version(), packages=[], ext_modules=[Extension("chaindem._core", sources=[])],
      cmdclass={"build_ext": CMakeBuild}, zip_safe=False)
