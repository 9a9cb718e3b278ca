"""The package as a whole: what it exports, and that its docs are there."""

import inspect

import numpy as np
import pytest

import sensim
from sensim import sensors as sensor_tables


def test_every_public_name_is_documented():
    undocumented = []
    for name in dir(sensim):
        if name.startswith("_"):
            continue
        obj = getattr(sensim, name)
        if callable(obj) and not (getattr(obj, "__doc__", None) or "").strip():
            undocumented.append(name)
    assert undocumented == []


def test_keyword_tables_list_exactly_the_library_keys():
    for kind in sensim.sensor_kinds():
        documented = [k for k, _ in sensor_tables.KEYS[kind]]
        assert sorted(documented) == sorted(sensim.sensor_kind_keys(kind)), kind
        doc = getattr(sensim.World, kind).__doc__
        for key in documented:
            assert "    %s: " % key in doc


def test_kind_methods_have_real_signatures():
    sig = inspect.signature(sensim.World.lidar)
    assert list(sig.parameters)[:3] == ["self", "name", "body"]
    assert sig.parameters["preset"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["rate"].default == 10.0


def test_payload_dtypes_match_the_library_sizes():
    for name in sensim.payload_names():
        info = sensim.payload_info(name)
        dt = sensim.dtype(name)
        per_element = dt.itemsize * (info["channels"] if info["sample"] != "struct" else 1)
        assert per_element == info["element_size"], name
    assert sensim.dtype("points").names == ("x", "y", "z", "intensity", "time", "ring", "return",
                                            "class_id", "instance_id")


def test_pose_algebra_agrees_with_numpy():
    q = sensim.quat_from_ypr(0.3, -0.2, 0.1)
    v = np.array([1.0, 2.0, 3.0])
    w, x, y, z = q
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                  [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                  [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    np.testing.assert_allclose(sensim.quat_rotate(q, v), r @ v, atol=1e-12)
    pose = ((1.0, -2.0, 0.5), q)
    np.testing.assert_allclose(sensim.pose_apply(pose, v), r @ v + [1.0, -2.0, 0.5], atol=1e-12)
    both = sensim.pose_compose(pose, pose)
    np.testing.assert_allclose(sensim.pose_apply(both, v),
                               sensim.pose_apply(pose, sensim.pose_apply(pose, v)), atol=1e-12)
    with pytest.raises(ValueError, match="unit"):
        sensim.pose_apply(((0, 0, 0), (2, 0, 0, 0)), v)
