"""setuptools' half of the sensim wheel: the C part is built by CMake.

pip (`pip install .`) and `python -m build` call setuptools (pyproject.toml);
setuptools' build_py copies python/sensim/*.py, the stubs and py.typed;
this file's build_ext does what a C extension's build would, through the
project's own CMake build instead of setuptools' compiler driver:

  1. configure CMakeLists.txt in the build's temporary folder for the
     running interpreter (-DPython3_EXECUTABLE=sys.executable; Release, no
     tests, benchmarks or MPI; ccache when it is on PATH),
  2. build the extension target (it pulls in libsensim and libsensim_tools),
  3. `cmake --install --component sensim_wheel`: the extension and the two
     libraries' soname files, with RPATH $ORIGIN (python/CMakeLists.txt),
  4. copy them into the wheel's sensim/ folder.

Environment (all optional):
  SENSIM_CMAKE_ARGS   more -D options for step 1, split like a shell line
  SENSIM_WHEEL_BUILD_DIR  an already configured and built CMake tree to take the
                      binaries from (steps 2-4 only; the venv install test
                      uses its own build tree so that it compiles nothing)
  CMAKE_BUILD_PARALLEL_LEVEL  jobs for step 2 (default: the CPU count)
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def cmake_version():
    """The version in CMakeLists.txt's project() line: one version for C and Python."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(sensim\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("setup.py: no project(sensim VERSION x.y.z) in CMakeLists.txt")
    return m.group(1)


def run(cmd):
    print("setup.py:", " ".join(shlex.quote(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True)


class CMakeBuild(build_ext):
    """build_ext through CMake; the one Extension only names the module."""

    def run(self):
        if self.inplace:
            raise RuntimeError("sensim: in-place builds are not supported; use PYTHONPATH=build/python "
                               "with the CMake build (docs/python.md)")
        cmake = shutil.which("cmake")
        if not cmake:
            raise RuntimeError("sensim: building the wheel needs CMake >= 3.18 (Debian: apt-get install cmake) "
                               "and the C library's build dependencies (README.md)")
        tree = os.environ.get("SENSIM_WHEEL_BUILD_DIR")
        if tree:
            tree = os.path.abspath(tree)
            if not os.path.isfile(os.path.join(tree, "CMakeCache.txt")):
                raise RuntimeError("SENSIM_WHEEL_BUILD_DIR=%s is not a configured CMake build tree" % tree)
        else:
            tree = os.path.join(os.path.abspath(self.build_temp), "cmake")
            args = [cmake, "-S", ROOT, "-B", tree,
                    "-DCMAKE_BUILD_TYPE=Release",
                    "-DPython3_EXECUTABLE=" + sys.executable,
                    "-DSENSIM_BUILD_PYTHON=ON", "-DSENSIM_BUILD_TESTS=OFF",
                    "-DSENSIM_BUILD_BENCH=OFF", "-DSENSIM_WITH_MPI=OFF"]
            if shutil.which("ccache"):
                args += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
            args += shlex.split(os.environ.get("SENSIM_CMAKE_ARGS", ""))
            run(args)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        run([cmake, "--build", tree, "--target", "sensim_python", "-j", jobs])
        stage = os.path.join(os.path.abspath(self.build_temp), "stage")
        shutil.rmtree(stage, ignore_errors=True)
        run([cmake, "--install", tree, "--component", "sensim_wheel", "--prefix", stage])
        self.copy_binaries(os.path.join(stage, "sensim"))

    def copy_binaries(self, staged):
        """The extension and the libraries' soname files (a zip has no links)."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        names = sorted(os.listdir(staged)) if os.path.isdir(staged) else []
        ext = [n for n in names if n.startswith("_sensim.")]
        if ext != ["_sensim" + suffix]:
            raise RuntimeError("sensim: the CMake build made %s, but this interpreter (%s) loads _sensim%s: "
                               "configure it with -DPython3_EXECUTABLE=%s"
                               % (ext or "no extension", sys.executable, suffix, sys.executable))
        # libsensim.so.0 -> libsensim.so.0.1.0: keep the soname, as a file.
        libs = [n for n in names if re.fullmatch(r"lib\w+\.so\.\d+", n)]
        if sorted(libs) != ["libsensim.so.0", "libsensim_tools.so.0"]:
            raise RuntimeError("sensim: unexpected libraries in the CMake install: %s" % names)
        out = os.path.join(os.path.abspath(self.build_lib), "sensim")
        os.makedirs(out, exist_ok=True)
        for n in ext + libs:
            dst = os.path.join(out, n)
            if os.path.lexists(dst):
                os.remove(dst)
            shutil.copy2(os.path.join(staged, n), dst)  # follows the soname link

    def get_outputs(self):
        out = os.path.join(self.build_lib, "sensim")
        return [os.path.join(out, "_sensim" + sysconfig.get_config_var("EXT_SUFFIX")),
                os.path.join(out, "libsensim.so.0"), os.path.join(out, "libsensim_tools.so.0")]


# With SENSIM_WHEEL_BUILD_DIR, setuptools' own scratch (build/, the
# egg-info) goes into that tree too, so that a build leaves the sources as
# they were (the install test runs next to other builds of the same tree).
options = {}
if os.environ.get("SENSIM_WHEEL_BUILD_DIR"):
    scratch = os.path.join(os.path.abspath(os.environ["SENSIM_WHEEL_BUILD_DIR"]), "pip-build")
    os.makedirs(scratch, exist_ok=True)
    options = {"build": {"build_base": scratch}, "egg_info": {"egg_base": scratch}}

setup(
    version=cmake_version(),
    options=options,
    ext_modules=[Extension("sensim._sensim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
