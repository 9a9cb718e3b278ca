"""The ctest `python_venv_install`: sensim installed with pip as a user would.

    python3 venv_install.py SOURCE_DIR BUILD_DIR

Makes a fresh venv in BUILD_DIR/pyvenv (--system-site-packages, for NumPy),
runs `pip install --no-build-isolation --no-index .` on SOURCE_DIR (offline;
SENSIM_WHEEL_BUILD_DIR=BUILD_DIR so the wheel's binaries come from this
build tree and nothing is compiled again, setup.py), then, from another
folder, with no PYTHONPATH or LD_LIBRARY_PATH, imports sensim from the venv
and runs a short world: the package, its stubs and py.typed, and libsensim
must all come from the venv's site-packages. The venv stays for the mypy
test (`python_mypy_examples`), which checks the examples against it.
"""

import os
import shutil
import subprocess
import sys
import tempfile

CHECK = r'''
import os, sys
import numpy as np
import sensim
pkg = os.path.dirname(sensim.__file__)
assert pkg.startswith(sys.prefix), (pkg, sys.prefix)
for f in ("py.typed", "_sensim.pyi", "libsensim.so.0", "libsensim_tools.so.0"):
    assert os.path.isfile(os.path.join(pkg, f)), f
# The libraries the process loaded: the venv's copies, found through RPATH.
maps = open("/proc/self/maps").read()
libs = {line.split()[-1] for line in maps.splitlines() if "libsensim" in line}
assert libs and all(p.startswith(pkg) for p in libs), libs
with sensim.World(seed=3, threads=1) as w:
    ground = w.shape("plane", (40, 40, 0))
    w.body(ground, static=True)
    car = w.body()
    lidar = w.lidar(body=car, mount=(0, 0, 1.5), preset="VLP-16", columns=360, rate=10,
                    filters=["points"])
    car.push_state(0.0, ((0, 0, 0), (1, 0, 0, 0)))
    w.advance(0.0)
    cloud = lidar.poll().data
# Points are in the sensor frame: the beams that hit the plane z = 0 end
# 1.5 m below the lidar.
hit = cloud[np.isfinite(cloud["z"])]
assert len(hit) > 1000, len(hit)
assert np.abs(hit["z"] + 1.5).max() < 0.05, np.abs(hit["z"] + 1.5).max()
print("sensim %s from %s: %d points" % (sensim.__version__, pkg, len(hit)))
'''


def main():
    src, build = (os.path.abspath(a) for a in sys.argv[1:3])
    venv = os.path.join(build, "pyvenv")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
    py = os.path.join(venv, "bin", "python")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "PYTHONHOME", "SENSIM_BUILD_DIR")}
    env["SENSIM_WHEEL_BUILD_DIR"] = build
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-cache-dir",
                    src], check=True, env=env)
    del env["SENSIM_WHEEL_BUILD_DIR"]
    with tempfile.TemporaryDirectory() as elsewhere:
        subprocess.run([py, "-c", CHECK], check=True, env=env, cwd=elsewhere)


if __name__ == "__main__":
    main()
