"""Minimal observation and action spaces with Gymnasium's semantics.

sensim's environments describe what they take and give with these spaces so
that they need nothing beyond NumPy. The classes follow ``gymnasium.spaces``
(version 0.29 / 1.x) in constructor signatures, attribute names and the
meaning of ``sample()``, ``contains()`` and ``seed()``, so code written for
Gymnasium reads them unchanged:

- ``Box(low, high, shape=None, dtype=np.float32, seed=None)``: arrays of a
  fixed shape and dtype between element-wise bounds (``-inf``/``inf`` for
  none); ``low``, ``high``, ``shape``, ``dtype``, ``bounded_below``,
  ``bounded_above``.
- ``Discrete(n, seed=None, start=0)``: the integers ``start .. start+n-1``
  (``np.int64``).
- ``MultiDiscrete(nvec, dtype=np.int64, seed=None, start=None)``: a vector of
  Discretes (what ``batch_space`` makes of a Discrete).
- ``Dict(spaces, seed=None, **spaces_kwargs)``: a mapping of named spaces;
  samples are dicts with the same keys (sorted, as Gymnasium sorts them).

``batch_space(space, n)`` gives the space of ``n`` stacked samples, as
``gymnasium.vector.utils.batch_space`` does. When Gymnasium is installed,
``sensim.env`` uses ``gymnasium.spaces`` instead (same constructor calls), so
Gymnasium's own checkers accept the environments.

Randomness: each space owns a ``numpy.random.Generator`` (PCG64 over a
``SeedSequence``), created lazily from OS entropy or by ``seed(int)``; the
same seed gives the same samples.
"""

from __future__ import annotations

import warnings
from typing import Any, Iterable, Iterator, Mapping

import numpy as np
from numpy.typing import NDArray

__all__ = ["Space", "Box", "Discrete", "MultiDiscrete", "Dict", "batch_space", "np_random"]


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """A PCG64 generator seeded through a SeedSequence, and the seed's entropy.

    Same construction as ``gymnasium.utils.seeding.np_random``: ``seed`` is a
    non-negative int or None (fresh OS entropy)."""
    if seed is not None and not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise ValueError(f"seed must be None or a non-negative int, got {seed!r}")
    seq = np.random.SeedSequence(None if seed is None else int(seed))
    entropy = seq.entropy
    assert isinstance(entropy, int)  # an int when made from an int or from the OS
    return np.random.Generator(np.random.PCG64(seq)), entropy


class Space:
    """Base class: a set of values with a shape, a dtype and a random sampler."""

    def __init__(self, shape: tuple[int, ...] | None = None, dtype: Any = None,
                 seed: int | None = None):
        self._shape = None if shape is None else tuple(int(d) for d in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random: np.random.Generator | None = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self) -> tuple[int, ...] | None:
        """Shape of one sample (``None`` for composite spaces)."""
        return self._shape

    @property
    def np_random(self) -> np.random.Generator:
        """The space's generator, seeded from OS entropy on first use."""
        if self._np_random is None:
            self.seed(None)
        return self._np_random  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def seed(self, seed: int | None = None) -> list[int]:
        """Re-seed the sampler; returns ``[entropy]`` as Gymnasium does."""
        self._np_random, used = np_random(seed)
        return [used]

    def sample(self, mask: Any = None) -> Any:
        raise NotImplementedError

    def contains(self, x: Any) -> bool:
        raise NotImplementedError

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)


def _bound(value: Any, shape: tuple[int, ...], dtype: np.dtype[Any], which: str) -> NDArray[Any]:
    arr = np.asarray(value, dtype=np.float64)
    if arr.shape != () and arr.shape != shape:
        raise ValueError(f"Box {which} has shape {arr.shape}, expected {shape} or a scalar")
    if np.any(np.isnan(arr)):
        raise ValueError(f"Box {which} contains NaN")
    arr = np.broadcast_to(arr, shape).copy()
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        arr = np.clip(arr, info.min, info.max)
    elif dtype.kind == "b":
        arr = np.clip(arr, 0, 1)
    return arr.astype(dtype)


class Box(Space):
    """Arrays of ``shape`` and ``dtype`` with ``low <= x <= high`` element-wise.

    ``low`` and ``high`` are scalars or arrays of ``shape`` (when ``shape`` is
    None it is taken from whichever bound is an array); ``-inf``/``inf`` mean
    unbounded (integer dtypes clip them to the dtype's range)."""

    def __init__(self, low: Any, high: Any, shape: Iterable[int] | None = None,
                 dtype: Any = np.float32, seed: int | None = None):
        dtype = np.dtype(dtype)
        if dtype.kind not in "fiub":
            raise TypeError(f"Box dtype must be a numeric dtype, got {dtype}")
        if shape is None:
            for b in (low, high):
                if np.ndim(b) > 0:
                    shape = np.shape(b)
                    break
            else:
                shape = ()
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise ValueError(f"Box shape must be non-negative, got {shape}")
        self.low = _bound(low, shape, dtype, "low")
        self.high = _bound(high, shape, dtype, "high")
        if np.any(self.low > self.high):
            raise ValueError("Box low must be <= high everywhere")
        lo64 = np.asarray(low, dtype=np.float64)
        hi64 = np.asarray(high, dtype=np.float64)
        self.bounded_below = np.broadcast_to(-np.inf < lo64, shape).copy()
        self.bounded_above = np.broadcast_to(np.inf > hi64, shape).copy()
        self.low_repr = _short_repr(self.low)
        self.high_repr = _short_repr(self.high)
        super().__init__(shape, dtype, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape  # type: ignore[return-value]

    def is_bounded(self, manner: str = "both") -> bool:
        """Whether every element is bounded below, above or both."""
        below = bool(np.all(self.bounded_below))
        above = bool(np.all(self.bounded_above))
        if manner == "both":
            return below and above
        if manner == "below":
            return below
        if manner == "above":
            return above
        raise ValueError(f"manner is not in {{'below', 'above', 'both'}}, got {manner!r}")

    def sample(self, mask: Any = None) -> NDArray[Any]:
        """A random element: uniform where bounded on both sides, exponential
        tails where bounded on one side, normal where unbounded (Gymnasium's
        rule); integers are drawn uniformly from ``low .. high``."""
        if mask is not None:
            raise ValueError("Box.sample cannot be masked")
        rng = self.np_random
        high = self.high.astype(np.float64)
        low = self.low.astype(np.float64)
        assert self.dtype is not None  # a Box always has one
        if self.dtype.kind in "iub":
            high = high + 1.0
        out = np.empty(self.shape, dtype=np.float64)
        ub = ~self.bounded_below & ~self.bounded_above
        lb = self.bounded_below & ~self.bounded_above
        ab = ~self.bounded_below & self.bounded_above
        bb = self.bounded_below & self.bounded_above
        out[ub] = rng.normal(size=ub[ub].shape)
        out[lb] = rng.exponential(size=lb[lb].shape) + low[lb]
        out[ab] = high[ab] - rng.exponential(size=ab[ab].shape)
        out[bb] = rng.uniform(low=low[bb], high=high[bb], size=bb[bb].shape)
        if self.dtype.kind in "iub":
            out = np.floor(out)
        return out.astype(self.dtype)

    def contains(self, x: Any) -> bool:
        """True for an array (or array-like) of the shape, a dtype that casts
        safely to the space's, and every element within the bounds (NaN is
        never within them)."""
        if not isinstance(x, np.ndarray):
            warnings.warn("Casting input x to numpy array.", stacklevel=2)
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape
                    and np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self) -> str:
        return f"Box({self.low_repr}, {self.high_repr}, {self.shape}, {self.dtype})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, Box) and self.shape == other.shape
                and self.dtype == other.dtype and np.allclose(self.low, other.low)
                and np.allclose(self.high, other.high))


def _short_repr(arr: NDArray[Any]) -> str:
    if arr.size and np.min(arr) == np.max(arr):
        return str(arr.flat[0])
    return str(arr)


class Discrete(Space):
    """The integers ``start, start+1, ..., start+n-1`` (samples are np.int64)."""

    def __init__(self, n: int, seed: int | None = None, start: int = 0):
        if not isinstance(n, (int, np.integer)) or n <= 0:
            raise ValueError(f"Discrete n must be a positive int, got {n!r}")
        self.n = np.int64(n)
        self.start = np.int64(start)
        super().__init__((), np.int64, seed)

    def sample(self, mask: Any = None) -> np.int64:
        """A uniformly drawn element (``mask``: int8 array of n, 1 = allowed)."""
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.n,) or mask.dtype != np.int8:
                raise ValueError(f"mask must be an int8 array of shape ({self.n},)")
            allowed = np.flatnonzero(mask == 1)
            if allowed.size == 0:
                return self.start
            return np.int64(self.start + self.np_random.choice(allowed))
        return np.int64(self.start + self.np_random.integers(self.n))

    def contains(self, x: Any) -> bool:
        """True for a Python int or an integer NumPy scalar / 0-d array in range."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            v = np.int64(x)
        elif isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.integer) and x.shape == ():
            v = np.int64(x)
        else:
            return False
        return bool(self.start <= v < self.start + self.n)

    def __repr__(self) -> str:
        return f"Discrete({self.n})" if self.start == 0 else f"Discrete({self.n}, start={self.start})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start


class MultiDiscrete(Space):
    """Independent integers ``start[i] .. start[i]+nvec[i]-1`` in one array."""

    def __init__(self, nvec: Any, dtype: Any = np.int64, seed: int | None = None,
                 start: Any = None):
        self.nvec = np.array(nvec, dtype=dtype, copy=True)
        if np.any(self.nvec <= 0):
            raise ValueError("MultiDiscrete nvec must be positive")
        self.start = (np.zeros_like(self.nvec) if start is None
                      else np.broadcast_to(np.asarray(start, dtype=dtype), self.nvec.shape).copy())
        super().__init__(self.nvec.shape, dtype, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape  # type: ignore[return-value]

    def sample(self, mask: Any = None) -> NDArray[Any]:
        if mask is not None:
            raise ValueError("this MultiDiscrete does not support masks")
        draw = self.np_random.random(self.nvec.shape) * self.nvec
        out: NDArray[Any] = (np.floor(draw).astype(self.dtype) + self.start).astype(self.dtype)
        return out

    def contains(self, x: Any) -> bool:
        if isinstance(x, Iterable) and not isinstance(x, np.ndarray):
            x = np.asarray(x)
        if not isinstance(x, np.ndarray) or x.shape != self.shape or x.dtype.kind not in "iu":
            return False
        return bool(np.all(x >= self.start) and np.all(x - self.start < self.nvec))

    def __repr__(self) -> str:
        return f"MultiDiscrete({self.nvec})"

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, MultiDiscrete) and np.array_equal(self.nvec, other.nvec)
                and np.array_equal(self.start, other.start))


class Dict(Space, Mapping[str, Space]):
    """Named sub-spaces; an element is a dict with exactly the same keys.

    Keys are sorted when they are comparable (Gymnasium's rule, so the order
    of a flattened sample does not depend on how the mapping was written)."""

    def __init__(self, spaces: Mapping[str, Space] | None = None, seed: int | None = None,
                 **spaces_kwargs: Space):
        items = dict(spaces or {})
        items.update(spaces_kwargs)
        try:
            items = dict(sorted(items.items()))
        except TypeError:
            pass
        for key, space in items.items():
            if not isinstance(space, Space):
                raise TypeError(f"Dict value for {key!r} must be a Space, got {type(space).__name__}")
        self.spaces: dict[str, Space] = items
        super().__init__(None, None, None)
        if seed is not None:
            self.seed(seed)

    @property
    def is_np_flattenable(self) -> bool:
        return all(s.is_np_flattenable for s in self.spaces.values())

    def seed(self, seed: int | Mapping[str, int] | None = None) -> list[int]:
        """Seed every sub-space: an int seeds this space and derives one
        sub-seed per key from it; a dict gives each key its own seed."""
        if isinstance(seed, Mapping):
            if set(seed) != set(self.spaces):
                raise ValueError(f"seed keys {sorted(seed)} differ from the space's {list(self.spaces)}")
            out: list[int] = []
            for key, space in self.spaces.items():
                out += space.seed(seed[key])
            return out
        if seed is None:
            out = []
            for space in self.spaces.values():
                out += space.seed(None)
            return out
        out = super().seed(seed)
        subseeds = self.np_random.integers(np.iinfo(np.int32).max, size=len(self.spaces))
        for space, sub in zip(self.spaces.values(), subseeds):
            out += space.seed(int(sub))
        return out

    def sample(self, mask: Any = None) -> dict[str, Any]:
        if mask is not None:
            return {k: s.sample(mask[k]) for k, s in self.spaces.items()}
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        return (isinstance(x, Mapping) and set(x.keys()) == set(self.spaces.keys())
                and all(x[k] in s for k, s in self.spaces.items()))

    def __getitem__(self, key: str) -> Space:
        return self.spaces[key]

    def __setitem__(self, key: str, value: Space) -> None:
        if not isinstance(value, Space):
            raise TypeError(f"Dict value for {key!r} must be a Space")
        self.spaces[key] = value

    def __iter__(self) -> Iterator[str]:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Dict) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]


def batch_space(space: Space, n: int = 1) -> Space:
    """The space of ``n`` samples of ``space`` stacked on a new first axis.

    Box -> Box of shape ``(n, *shape)``, Discrete -> MultiDiscrete of n,
    MultiDiscrete -> MultiDiscrete ``(n, *shape)``, Dict -> Dict of batched
    sub-spaces, as in ``gymnasium.vector.utils.batch_space``."""
    if not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"n must be a positive int, got {n!r}")
    seed = int(space.np_random.integers(np.iinfo(np.int32).max)) if space._np_random is not None else None
    if isinstance(space, Box):
        low = np.repeat(space.low[None], n, axis=0)
        high = np.repeat(space.high[None], n, axis=0)
        return Box(low=low, high=high, dtype=space.dtype, seed=seed)
    if isinstance(space, Discrete):
        return MultiDiscrete(np.full((n,), space.n, dtype=space.dtype), dtype=space.dtype,
                             seed=seed, start=np.full((n,), space.start, dtype=space.dtype))
    if isinstance(space, MultiDiscrete):
        return MultiDiscrete(np.repeat(space.nvec[None], n, axis=0), dtype=space.dtype, seed=seed,
                             start=np.repeat(space.start[None], n, axis=0))
    if isinstance(space, Dict):
        return Dict({k: batch_space(s, n) for k, s in space.spaces.items()}, seed=seed)
    raise TypeError(f"cannot batch a {type(space).__name__}")
