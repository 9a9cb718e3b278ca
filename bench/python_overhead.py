#!/usr/bin/env python3
"""What the Python package costs a host, side by side with C in one run.

1. advance + poll with nothing due: the same world as bench_host's idle
   table (one bare body, N IMUs whose first capture lies beyond the run)
   stepped 1 ms at a time, through the package and through C
   (build/bench/bench_host --idle, run here as a subprocess). The Python
   overhead per step is the difference of the medians; the issue's goal is
   under 2 us.
2. A 1280 x 720 camera frame reaching NumPy: the time from the poll to an
   ndarray over the frame's pixels, and proof that it is the library's
   buffer (no copy): the array's base is the Frame, and writing through
   one view shows in another.

    PYTHONPATH=build/python python3 bench/python_overhead.py [--build build] [--quick]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import sensim


def idle_world(nsensors):
    w = sensim.World()
    car = w.body()
    for i in range(nsensors):
        w.imu("imu%d" % i, body=car, rate=100, phase=1e6)  # never due in the run
    return w


def time_python(nsensors, steps, runs=5):
    adv, polled = [], []
    for _ in range(runs):
        w = idle_world(nsensors)
        advance = w.advance
        t0 = time.perf_counter()
        for i in range(steps):
            advance(i * 1e-3)
        adv.append((time.perf_counter() - t0) / steps * 1e9)
        w.close()
        w = idle_world(nsensors)
        advance = w.advance
        polls = [s.poll for s in w.sensors]
        t0 = time.perf_counter()
        for i in range(steps):
            advance(i * 1e-3)
            for p in polls:
                p()
        polled.append((time.perf_counter() - t0) / steps * 1e9)
        w.close()
    return statistics.median(adv), statistics.median(polled)


def time_c(build, quick):
    exe = os.path.join(build, "bench", "bench_host")
    out = subprocess.run([exe, "--idle"] + (["--quick"] if quick else []), check=True,
                         capture_output=True, text=True).stdout
    rows = {}
    for m in re.finditer(r"^\| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", out, re.M):
        rows[int(m.group(1))] = (float(m.group(2)), float(m.group(4)))
    return rows


def frame_to_numpy(runs):
    w = sensim.World(threads=2)
    ground = w.shape("plane", (100, 100, 0))
    w.body(ground, static=True)
    cam = w.camera("cam", mount=((0, 0, 1.5), sensim.quat_from_ypr(0, 0.2, 0)), width=1280,
                   height=720, samples=1, rate=1000)
    t_poll, t_array, t_again = [], [], []
    for k in range(runs):
        w.advance(k * 1e-3)
        t0 = time.perf_counter()
        f = cam.poll()
        t1 = time.perf_counter()
        img = f.data
        t2 = time.perf_counter()
        again = f.data
        t3 = time.perf_counter()
        del again
        t_poll.append((t1 - t0) * 1e6)
        t_array.append((t2 - t1) * 1e6)
        t_again.append((t3 - t2) * 1e6)
        assert img.shape == (720, 1280, 3) and img.dtype == np.float32
        assert img.base is f, "the array must view the frame's own buffer"
        other = f.data
        assert np.shares_memory(img, other)
        img[0, 0, 0] = 12345.0
        assert other[0, 0, 0] == 12345.0
        nbytes = img.nbytes
        del img, other, f  # free this frame here, outside the timed spans
    w.close()
    return (statistics.median(t_poll), statistics.median(t_array), statistics.median(t_again),
            nbytes)


def copy_time(nbytes, runs=20):
    """Median time of np.copy of a buffer the frame's size: what a copying
    binding would add per frame."""
    a = np.ones(nbytes // 4, np.float32)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        b = a.copy()
        ts.append((time.perf_counter() - t0) * 1e6)
        del b
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("SENSIM_BUILD_DIR", "build"))
    ap.add_argument("--quick", action="store_true", help="20 000 steps instead of 200 000")
    args = ap.parse_args()
    steps = 20000 if args.quick else 200000
    c = time_c(args.build, args.quick)
    print("advance + poll with nothing due (%d steps of 1 ms, median of 5 runs), Python %s"
          % (steps, sys.version.split()[0]))
    print("| sensors | C advance | Py advance | C advance + polls | Py advance + polls "
          "| Python overhead per step | ratio Py/C |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (1, 4, 16):
        pa, pp = time_python(n, steps)
        ca, cp = c[n]
        print("| %d | %.0f ns | %.0f ns | %.0f ns | %.0f ns | %.2f us | %.1f |"
              % (n, ca, pa, cp, pp, (pp - cp) / 1000, pp / cp))
    tp, ta, tb, nbytes = frame_to_numpy(5 if args.quick else 20)
    print("\n1280 x 720 rgb_f32 frame (%.1f MB) to NumPy: poll %.1f us, first frame.data %.1f us, "
          "second %.2f us (medians; the first pays for caches the render evicted); a copy of "
          "it takes %.0f us; the array is the frame's buffer (base is the Frame, writes show "
          "through another view): no copy"
          % (nbytes / 1e6, tp, ta, tb, copy_time(nbytes)))


if __name__ == "__main__":
    main()
