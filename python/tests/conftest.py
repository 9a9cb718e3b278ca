"""Shared fixtures of the sensim core test suite.

Worlds are kept small so the whole suite runs in seconds: 64 x 48 cameras
with one sample per pixel, lidars with a few dozen columns. Every world a
test makes through `make_world` is closed when the test ends.
"""

import os

import numpy as np
import pytest

import sensim

G = 9.7803253359  # the default: WGS84 normal gravity at the default origin (equator, 0 m)
IDENTITY = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))

# Small sensors: keyword arguments for World.camera / World.lidar.
CAM = dict(width=64, height=48, samples=1)
LIDAR = dict(preset="VLP-16", columns=36)


def build_world(seed=1, threads=2, box=True, **params):
    """A world with a 60 m ground plane (class 1), a 1 m box standing 4 m
    ahead on +X (class 2) and a bare dynamic "car" body (class 3) that
    carries sensors. Returns (world, car)."""
    w = sensim.World(seed=seed, threads=threads, **params)
    ground = w.shape("plane", (60, 60, 0), material={"reflectance": 0.3})
    w.body(ground, static=True, class_id=1)
    if box:
        crate = w.shape("box", (1, 1, 1), material={"base_color": (0.8, 0.2, 0.2),
                                                   "reflectance": 0.7})
        w.body(crate, pose=(4, 0, 0.5), static=True, class_id=2)
    car = w.body(class_id=3)
    return w, car


@pytest.fixture
def make_world():
    """make_world(seed=1, threads=2, box=True, **World params) -> (world, car)."""
    made = []

    def factory(**kw):
        w, car = build_world(**kw)
        made.append(w)
        return w, car

    yield factory
    for w in made:
        w.close()


@pytest.fixture
def world(make_world):
    """(world, car) from make_world with its defaults."""
    return make_world()


def drive(w, car, times, pose=IDENTITY, moving=None):
    """Push the car's state and advance the world at each time of `times`.
    `moving(t)` -> (pose, vel) overrides the fixed `pose` (held at rest)."""
    for t in times:
        if moving is None:
            car.push_state(t, pose, vel=(0, 0, 0), ang_vel=(0, 0, 0), acc=(0, 0, 0),
                           ang_acc=(0, 0, 0))
        else:
            p, v = moving(t)
            car.push_state(t, p, vel=v, ang_vel=(0, 0, 0), acc=(0, 0, 0), ang_acc=(0, 0, 0))
        w.advance(t)


def steps(n, dt):
    """[0, dt, 2 dt, ...] computed as k * dt (as the scenario runner does)."""
    return [k * dt for k in range(n)]


@pytest.fixture(scope="session")
def build_dir():
    """The CMake build folder (ctest sets SENSIM_BUILD_DIR; default ./build)."""
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "build")
    return os.path.abspath(os.environ.get("SENSIM_BUILD_DIR", default))


def assert_frames_equal(a, b):
    """Two frames are bit-identical: header, payload and planes."""
    assert (a.type, a.index, a.width, a.height, a.count) == (b.type, b.index, b.width, b.height,
                                                             b.count)
    assert a.t_capture == b.t_capture and a.t_deliver == b.t_deliver
    assert a.pose == b.pose
    if a.data.dtype.names:
        for n in a.data.dtype.names:  # field by field: padding bytes are no data
            assert a.data[n].tobytes() == b.data[n].tobytes(), n
    else:
        assert a.data.tobytes() == b.data.tobytes()
    for plane in ("depth", "labels", "normals", "trajectory"):
        pa, pb = getattr(a, plane), getattr(b, plane)
        assert (pa is None) == (pb is None), plane
        if pa is not None and pa.dtype.names:
            for n in pa.dtype.names:
                assert pa[n].tobytes() == pb[n].tobytes(), (plane, n)
        elif pa is not None:
            assert pa.tobytes() == pb.tobytes(), plane


def base_frame(arr):
    """Follow an array's .base chain to the first object that is not an array."""
    b = arr
    while isinstance(b, np.ndarray):
        b = b.base
    return b
