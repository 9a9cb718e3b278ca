"""World.add_instances: one static body holding many placements of a mesh
is seen by a lidar and a camera as the same placements made one body each
(ids per placement), from (n, 7) poses or (n, 4, 4) transforms; bad input
is refused with the world unchanged."""
import math

import numpy as np
import pytest

import sensim

N = 24


def placements():
    """(n, 7) poses on a ring 6-14 m out, each turned about Z, and the same
    as (n, 4, 4) transforms."""
    a = 2 * math.pi * np.arange(N) / N
    yaw = 0.7 * np.arange(N)
    r = 6.0 + 8.0 * (np.arange(N) % 5) / 5
    p7 = np.column_stack([r * np.cos(a), r * np.sin(a), np.zeros(N), np.cos(yaw / 2), np.zeros(N), np.zeros(N),
                          np.sin(yaw / 2)])
    m = np.zeros((N, 4, 4))
    m[:, 0, 0] = m[:, 1, 1] = np.cos(yaw)
    m[:, 0, 1], m[:, 1, 0] = -np.sin(yaw), np.sin(yaw)
    m[:, 2, 2] = m[:, 3, 3] = 1.0
    m[:, :3, 3] = p7[:, :3]
    return p7, m


def scan(kind):
    """Lidar points and the camera's label plane of the ring, placed as
    `kind`: 'bodies', 'seven' or 'matrix'."""
    w = sensim.World(seed=3, threads=0)
    try:
        box = w.shape("box", (1.0, 2.0, 3.0))
        p7, m = placements()
        cls, ids = 3 + np.arange(N) % 4, 500 + np.arange(N)
        if kind == "bodies":
            for k in range(N):
                w.body(box, pose=tuple(p7[k]), class_id=int(cls[k]), instance_id=int(ids[k]), static=True)
        else:
            g = w.add_instances(box, p7 if kind == "seven" else m, class_ids=cls, instance_ids=ids)
            assert g.instance_count == N
        mast = w.body(pose=(0, 0, 1), static=True)
        lid = w.lidar(body=mast, preset="VLP-16", columns=360)
        cam = w.camera(body=mast, width=64, height=24, samples=1, filters=["labels"])
        w.advance(0.0)
        b, c = lid.poll().data, cam.poll().data
        return b.copy(), np.array(c).copy()
    finally:
        w.close()


def test_placements_are_seen_as_the_same_bodies_with_their_ids():
    ref_b, ref_c = scan("bodies")
    assert np.count_nonzero(ref_b["range"]) > 100
    assert set(np.unique(ref_b["instance_id"])) - {0} <= set(range(500, 500 + N))
    for kind in ("seven", "matrix"):
        b, c = scan(kind)
        assert np.allclose(b["range"], ref_b["range"], atol=1e-4)
        assert np.array_equal(b["instance_id"], ref_b["instance_id"])
        assert np.array_equal(b["class_id"], ref_b["class_id"])
        assert np.array_equal(c, ref_c)


def test_bad_placements_are_refused_and_the_world_unchanged():
    w = sensim.World(seed=1, threads=0)
    other = sensim.World(seed=1, threads=0)
    try:
        box = w.shape("box", (1, 1, 1))
        p7, m = placements()
        with pytest.raises(ValueError, match="belongs to another world"):
            w.add_instances(other.shape("box", (1, 1, 1)), p7)
        with pytest.raises(ValueError, match=r"shape \(n, 7\)"):
            w.add_instances(box, p7[:, :6])
        sheared = m.copy()
        sheared[3, 0, 1] += 0.1
        with pytest.raises(ValueError, match="poses.3.: the rotation is not orthonormal"):
            w.add_instances(box, sheared)
        bad = p7.copy()
        bad[5, 1] = np.nan
        with pytest.raises(sensim.InvalidArgument, match="placement 5"):
            w.add_instances(box, bad)
        with pytest.raises(sensim.InvalidArgument, match="n = 0"):
            w.add_instances(box, p7[:0])
        with pytest.raises(ValueError, match=r"class_ids\[2\]: 70000 is outside"):
            w.add_instances(box, p7, class_ids=np.where(np.arange(N) == 2, 70000, 1))
        with pytest.raises(ValueError, match=r"instance_ids\[0\]: 0 is outside"):
            w.add_instances(box, p7, instance_ids=np.arange(N))
        with pytest.raises(ValueError, match="3 ids for 24 poses"):
            w.add_instances(box, p7, instance_ids=[1, 2, 3])
        with pytest.raises(sensim.InvalidArgument, match="albedo_jitter"):
            w.add_instances(box, p7, albedo_jitter=0.9)
        g = w.add_instances(box, p7, albedo_jitter=0.1, fast_bvh=True)
        assert g.instance_count == N and w.body().instance_count == 0
    finally:
        w.close()
        other.close()
