"""Tiles through the Python API (World.add_tile): the near tile is read
once the lidar runs and its wall is seen, the far one is never read, a
tile whose file is gone raises from the advance that needs it (naming the
file) and the world goes on; bad bounds are refused."""
import os

import numpy as np
import pytest

import sensim


def _wall(path, x):
    with open(path, "w", encoding="ascii") as f:
        f.write(f"v {x} -10 0\nv {x} 10 0\nv {x} 10 6\nv {x} -10 6\nf 1 3 2\nf 1 4 3\n")


def test_tiles_load_in_reach_and_fail_cleanly(tmp_path):
    near, far, gone = (str(tmp_path / n) for n in ("near.obj", "far.obj", "gone.obj"))
    _wall(near, 20.0)
    _wall(far, 300.0)
    _wall(gone, 100.0)
    w = sensim.World(seed=1, threads=0)
    try:
        car = w.body()
        lidar = w.add_sensor("lidar", body=car, preset="VLP-16", max_range=40.0, rate=10.0)
        t_near = w.add_tile(near, (19, -10, 0, 21, 10, 6), class_id=7)
        t_far = w.add_tile(far, (299, -10, 0, 301, 10, 6))
        t_gone = w.add_tile(gone, (99, -10, 0, 101, 10, 6))
        assert isinstance(t_near, sensim.Tile) and t_near.state == "pending"
        car.push_state(0.0, ((0, 0, 1), (1, 0, 0, 0)))
        w.advance(0.0)
        beams = lidar.poll().data
        assert np.count_nonzero((beams["range"] > 0) & (beams["class_id"] == 7)) > 100
        assert t_near.state == "loaded" and t_near.in_range
        assert t_far.state == "pending" and not t_far.in_range
        os.remove(gone)
        car.push_state(0.1, ((80, 0, 1), (1, 0, 0, 0)))
        with pytest.raises(sensim.NotFound, match="gone.obj"):
            w.advance(0.1)
        assert lidar.poll() is not None  # the step's capture went on
        assert t_gone.state == "failed" and "gone.obj" in t_gone.error
        car.push_state(0.2, ((80, 0, 1), (1, 0, 0, 0)))
        w.advance(0.2)  # not tried again
        assert lidar.poll() is not None
    finally:
        w.close()


@pytest.mark.parametrize("bounds", [(0, 0, 0, 1, float("nan"), 1), (0, 2, 0, 1, 1, 1), (0, 0, 0, 1, 1)])
def test_bad_bounds_are_refused(bounds):
    w = sensim.World(seed=1, threads=0)
    try:
        with pytest.raises((sensim.InvalidArgument, ValueError)):
            w.add_tile("x.obj", bounds)
    finally:
        w.close()
