"""A deforming body driven by an analytic wave: a 20 x 20 m sheet of
water whose height is z = A sin(k x - w t), its vertices pushed each
10 ms step with Body.push_vertices, seen by a VLP-16 2 m above it. Each
lidar point's height, at the point's own firing time, matches the wave's
to the sheet's tessellation error (the wave is sampled at 0.25 m).

    PYTHONPATH=build/python python3 examples/python/wave.py
"""
import math
from typing import Any, Tuple

import numpy as np
from numpy.typing import NDArray

import sensim

AMPLITUDE = 0.2          # m
WAVELENGTH = 8.0         # m
PERIOD = 2.0             # s
SIDE, CELLS = 20.0, 80   # sheet side (m) and cells along each side
MAST = 2.0               # lidar height above the still surface, m


def sheet() -> Tuple[NDArray[np.float32], NDArray[np.uint32]]:
    """Vertices (n, 3) of the flat sheet and its triangles (m, 3)."""
    s = np.linspace(-SIDE / 2, SIDE / 2, CELLS + 1, dtype=np.float32)
    x, y = np.meshgrid(s, s, indexing="ij")
    v = np.stack([x.ravel(), y.ravel(), np.zeros(x.size, np.float32)], axis=1).astype(np.float32)
    i = np.arange(CELLS + 1)
    a = (i[:-1, None] * (CELLS + 1) + i[None, :-1]).ravel()
    b, c, d = a + CELLS + 1, a + CELLS + 2, a + 1
    tri = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)]).astype(np.uint32)
    return v, tri


def height(x: NDArray[Any], t: "float | NDArray[Any]") -> NDArray[np.float64]:
    k, w = 2 * math.pi / WAVELENGTH, 2 * math.pi / PERIOD
    return np.asarray(AMPLITUDE * np.sin(k * x - w * t), dtype=np.float64)


def run(duration: float = 1.0, step: float = 0.01) -> Tuple[float, int]:
    """Drive the wave for `duration` s; returns the largest difference (m)
    between a lidar point's height and the wave's at that point and time,
    and the number of points checked."""
    w = sensim.World(seed=1, threads=2)
    v0, tri = sheet()
    water = w.body(w.mesh(v0, tri, material={"reflectance": 0.2}), class_id=4)
    mast = w.body(pose=((0, 0, MAST), (1, 0, 0, 0)), static=True)
    lid = w.lidar(body=mast, filters=["points"], preset="VLP-16", columns=360)
    worst, checked = 0.0, 0
    try:
        n = int(round(duration / step))
        for j in range(n + 1):
            t = j * step
            v = v0.copy()
            v[:, 2] = height(v0[:, 0], t)
            water.push_state(t, ((0, 0, 0), (1, 0, 0, 0)))
            water.push_vertices(t, v)
            w.advance(t)
            f = lid.poll()
            if f is None or t < 0.2:
                continue
            p = f.data
            on_sheet = (np.abs(p["x"]) < 9) & (np.abs(p["y"]) < 9) & (p["z"] < -1.0)
            p = p[on_sheet]
            z = p["z"] + MAST                       # world height of each point
            want = height(p["x"], f.t_capture + p["time"])
            worst = max(worst, float(np.max(np.abs(z - want))))
            checked += len(p)
    finally:
        w.close()
    return worst, checked


if __name__ == "__main__":
    err, n = run()
    print(f"{n} lidar points on the wave; largest height error {err * 1000:.1f} mm")
