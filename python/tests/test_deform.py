"""Deforming bodies through the Python API (Body.push_vertices): the
analytic wave of examples/python/wave.py seen by a lidar point by point at
each point's own time, and bad pushes refused with the body usable."""
import os
import sys

import numpy as np
import pytest

import sensim

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
import wave  # noqa: E402


def test_wave_heights_match_the_analytic_wave_per_point():
    # The sheet is sampled every 0.25 m: linear interpolation of a sine of
    # amplitude 0.2 m and wavelength 8 m errs by at most A (k h)^2 / 8 =
    # 0.24 mm across a cell, and the 10 ms keyframes by A (w dt)^2 / 8 =
    # 0.25 mm in time; float32 vertices and hit distances add ~0.1 mm.
    err, n = wave.run(duration=0.6)
    assert n > 3000  # four scans of the sheet
    assert err < 2e-3


def test_bad_vertex_pushes_are_refused_and_the_body_stays_usable():
    w = sensim.World(seed=1, threads=0)
    try:
        v0, tri = wave.sheet()
        body = w.body(w.mesh(v0, tri))
        with pytest.raises(ValueError, match="6562 vertices pushed, but its mesh has 6561"):
            body.push_vertices(0.0, np.vstack([v0, v0[:1]]))
        bad = v0.copy()
        bad[5, 2] = np.nan
        with pytest.raises(ValueError, match="vertex 5"):
            body.push_vertices(0.0, bad)
        with pytest.raises(ValueError, match="shape"):
            body.push_vertices(0.0, v0[:, :2])
        body.push_vertices(0.0, v0)
        with pytest.raises(sensim.StateError):
            body.push_vertices(0.0, v0)  # not after the last time
        body.push_vertices(0.1, v0)
    finally:
        w.close()
