"""sensim.spaces: Gymnasium's semantics for Box, Discrete, Dict and batching.

Run: PYTHONPATH=build/python python3 -m pytest python/tests/test_spaces.py
(spaces.py is pure Python: without the built package it is loaded from the
source tree, so these tests need no extension)."""

import importlib.util
import pathlib
import warnings

import numpy as np
import pytest

try:
    from sensim import spaces
except ImportError:  # the extension is not built: load the pure-Python file
    _path = pathlib.Path(__file__).resolve().parents[1] / "sensim" / "spaces.py"
    _spec = importlib.util.spec_from_file_location("sensim_spaces", _path)
    spaces = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(spaces)


def test_box_bounds_shape_dtype_and_contains():
    box = spaces.Box(low=-1.0, high=np.array([1.0, 2.0, 3.0]), dtype=np.float32)
    assert box.shape == (3,) and box.dtype == np.float32
    assert box.low.dtype == np.float32 and np.array_equal(box.low, [-1, -1, -1])
    assert box.is_bounded("both")
    assert box.contains(np.array([0.0, 2.0, -1.0], dtype=np.float32))
    assert not box.contains(np.array([0.0, 2.1, 0.0], dtype=np.float32))      # above high
    assert not box.contains(np.array([np.nan, 0.0, 0.0], dtype=np.float32))   # NaN
    assert not box.contains(np.zeros(4, dtype=np.float32))                    # shape
    assert not box.contains(np.zeros(3, dtype=np.float64))                    # unsafe cast
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert [0.5, 0.5, 0.5] in box                                         # list is cast
    with pytest.raises(ValueError, match="low must be <= high"):
        spaces.Box(1.0, 0.0, shape=(2,))
    with pytest.raises(ValueError, match="shape"):
        spaces.Box(np.zeros(2), np.ones(3))


def test_box_sample_seeded_in_bounds_and_reproducible():
    box = spaces.Box(low=np.array([-2.0, 0.0, -np.inf, -np.inf]),
                     high=np.array([3.0, np.inf, 1.0, np.inf]), dtype=np.float32)
    assert not box.is_bounded() and box.is_bounded("below") is False
    box.seed(7)
    a = [box.sample() for _ in range(200)]
    box.seed(7)
    b = [box.sample() for _ in range(200)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert all(x in box for x in a) and all(x.dtype == np.float32 for x in a)
    first = np.array([x[0] for x in a])
    assert first.min() < -1.0 and first.max() > 2.0          # uniform fills [-2, 3]
    box.seed(8)
    assert not np.array_equal(box.sample(), a[0])
    img = spaces.Box(0, 255, shape=(4, 5, 3), dtype=np.uint8, seed=1)
    s = img.sample()
    assert s.dtype == np.uint8 and s.shape == (4, 5, 3) and s in img


def test_discrete():
    d = spaces.Discrete(3, start=-1, seed=0)
    draws = {int(d.sample()) for _ in range(100)}
    assert draws == {-1, 0, 1}
    assert isinstance(d.sample(), np.int64)
    assert d.contains(1) and d.contains(np.int32(-1)) and d.contains(np.array(0))
    assert not d.contains(2) and not d.contains(0.5) and not d.contains(np.array([0]))
    mask = np.array([0, 1, 0], dtype=np.int8)
    assert all(d.sample(mask) == 0 for _ in range(10))
    with pytest.raises(ValueError):
        spaces.Discrete(0)


def test_dict_sorted_keys_seed_and_contains():
    sp = spaces.Dict({"b": spaces.Box(-1, 1, (2,)), "a": spaces.Discrete(4)}, seed=3)
    assert list(sp.keys()) == ["a", "b"] and len(sp) == 2 and isinstance(sp["b"], spaces.Box)
    x = sp.sample()
    assert set(x) == {"a", "b"} and x in sp
    sp.seed(3)
    y = sp.sample()
    assert y["a"] == x["a"] and np.array_equal(y["b"], x["b"])
    assert {"a": 0, "b": np.zeros(2, np.float32), "c": 1} not in sp      # extra key
    assert {"a": 9, "b": np.zeros(2, np.float32)} not in sp               # bad value
    with pytest.raises(TypeError):
        spaces.Dict({"a": 3})


def test_batch_space():
    sp = spaces.Dict({"x": spaces.Box(-1.0, np.array([1.0, 2.0])), "k": spaces.Discrete(5)})
    b = spaces.batch_space(sp, 3)
    assert b["x"].shape == (3, 2) and np.array_equal(b["x"].high[2], [1.0, 2.0])
    assert isinstance(b["k"], spaces.MultiDiscrete) and b["k"].shape == (3,)
    s = b.sample()
    assert s in b and s["x"].shape == (3, 2)
    with pytest.raises(ValueError):
        spaces.batch_space(sp, 0)
