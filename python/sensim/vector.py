"""VectorEnv: N SensorEnv worlds stepped together, with stacked observations.

Follows Gymnasium's vector API (``gymnasium.vector.VectorEnv``, 1.x):
``num_envs``, ``single_observation_space``, ``single_action_space``, the
batched ``observation_space`` / ``action_space``, ``reset(seed=, options=)``
-> (obs, infos) and ``step(actions)`` -> (obs, rewards, terminations,
truncations, infos), where obs is a dict of arrays with a leading axis of
``num_envs``, rewards float64 (N,), terminations and truncations bool (N,),
and infos a dict of arrays with a boolean mask ``"_key"`` for each ``key``
(Gymnasium's layout).

Stepping: each sub-env integrates its car and pushes its body states in
Python, then ``sensim.advance_all(worlds, t)`` advances the worlds whose
target time is t in one C call with the GIL released; worlds at different
times (after an autoreset) take one call per distinct time. Each advance
waits for its world's captures (the sensors have no lag), so the call
advances ``advance_threads`` (default min(2, CPUs)) shares of the worlds
side by side (``advance_all(..., threads=k)``), keeping the cores busy.

Autoreset (``autoreset_mode``, Gymnasium's names):
- ``"NextStep"`` (default, Gymnasium 1.x's default): a sub-env that
  terminated or was truncated at step t is reset by step t+1, which ignores
  its action and returns the reset observation with reward 0 and
  terminated = truncated = False.
- ``"SameStep"``: it is reset within the same step: the returned observation
  is the reset's; the last observation and info of the finished episode are
  in ``infos["final_obs"]`` and ``infos["final_info"]`` (object arrays, masks
  ``"_final_obs"``, ``"_final_info"``).

Seeds: ``reset(seed=s)`` seeds sub-env i with s + i (a list gives one seed
each); each sub-env's determinism contract is SensorEnv's.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, Sequence

import numpy as np
from numpy.typing import NDArray

import sensim as _sm
from .env import Obs, SensorEnv

if TYPE_CHECKING:
    from .spaces import batch_space as _batch_space
else:
    try:
        from gymnasium.vector.utils import batch_space as _batch_space
    except ImportError:
        from .spaces import batch_space as _batch_space

Infos = Dict[str, Any]

__all__ = ["VectorEnv", "NEXT_STEP", "SAME_STEP"]

NEXT_STEP = "NextStep"
SAME_STEP = "SameStep"


class VectorEnv:
    """``num_envs`` SensorEnvs (built from ``env_fns``, or as
    ``SensorEnv(**env_kwargs)``) stepped as one batch. Every sub-env must have
    the same spaces.

    ``advance_threads``: threads sensim.advance_all advances the Worlds on,
    each taking a share (default min(2, CPUs)); with no sensor lag each
    advance waits for its World's captures, so a second thread keeps a
    second core busy; 1 advances them one after another."""

    def __init__(self, num_envs: int | None = None, *,
                 env_fns: Sequence[Callable[[], SensorEnv]] | None = None,
                 autoreset_mode: str = NEXT_STEP, advance_threads: int | None = None,
                 **env_kwargs: Any):
        if env_fns is None:
            if num_envs is None or int(num_envs) < 1:
                raise ValueError("num_envs must be >= 1 (or give env_fns)")
            env_fns = [lambda: SensorEnv(**env_kwargs)] * int(num_envs)
        elif env_kwargs or (num_envs is not None and num_envs != len(env_fns)):
            raise ValueError("give either env_fns or num_envs with SensorEnv keyword arguments")
        mode = getattr(autoreset_mode, "value", autoreset_mode)
        if mode not in (NEXT_STEP, SAME_STEP):
            raise ValueError(f"autoreset_mode must be {NEXT_STEP!r} or {SAME_STEP!r}, got {autoreset_mode!r}")
        self.autoreset_mode = mode
        if advance_threads is None:
            advance_threads = min(2, os.cpu_count() or 1)
        if int(advance_threads) < 1:
            raise ValueError(f"advance_threads must be >= 1, got {advance_threads!r}")
        self.advance_threads = int(advance_threads)
        self.envs = [fn() for fn in env_fns]
        self.num_envs = len(self.envs)
        first = self.envs[0]
        for e in self.envs[1:]:
            if e.observation_space != first.observation_space or e.action_space != first.action_space:
                raise ValueError("every sub-environment must have the same observation and action spaces")
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = _batch_space(first.observation_space, self.num_envs)
        self.action_space = _batch_space(first.action_space, self.num_envs)
        self.metadata = dict(first.metadata, autoreset_mode=mode)
        self.render_mode = first.render_mode
        self.spec = None
        self.closed = False
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._started = False

    # ---- Gymnasium vector API ----------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, Infos]:
        """Reset every sub-env (each gets ``options``); returns (obs dict of
        (N, ...) arrays, infos)."""
        seeds = self._seeds(seed)
        for env, s in zip(self.envs, seeds):
            env._begin_reset(s, options)
        self._advance([0.0] * self.num_envs)
        results = [env._finish_reset() for env in self.envs]
        self._autoreset[:] = False
        self._started = True
        return self._stack([r[0] for r in results]), _stack_infos([r[1] for r in results])

    def step(self, actions: Any) -> tuple[Obs, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], Infos]:
        """Step every sub-env with its row of ``actions`` (shape (N, 2));
        returns (obs, rewards (N,) float64, terminations (N,) bool,
        truncations (N,) bool, infos)."""
        if not self._started:
            raise _sm.StateError("VectorEnv.step() called before reset()")
        acts = np.asarray(actions)
        want = (self.num_envs,) + tuple(self.single_action_space.shape or ())
        if acts.shape != want:
            raise ValueError(f"actions must have shape {want} (one row per sub-environment), got {acts.shape}")
        resetting = self._autoreset.copy()
        for i, env in enumerate(self.envs):        # check every row before any car moves
            if not resetting[i]:
                try:
                    env._check_action(acts[i])
                except ValueError as e:
                    raise ValueError(f"sub-environment {i}: {e}") from None
        times = []
        for i, env in enumerate(self.envs):
            times.append(env._begin_reset(None, None) if resetting[i] else env._begin_step(acts[i]))
        self._advance(times)
        obs: list[Obs] = [{} for _ in self.envs]
        rew = np.zeros(self.num_envs)
        term = np.zeros(self.num_envs, dtype=bool)
        trunc = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in self.envs]
        for i, env in enumerate(self.envs):
            if resetting[i]:
                obs[i], infos[i] = env._finish_reset()
            else:
                obs[i], rew[i], term[i], trunc[i], infos[i] = env._finish_step()
        done = term | trunc
        if self.autoreset_mode == SAME_STEP and done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i], final_info[i] = obs[i], infos[i]
                self.envs[i]._begin_reset(None, None)
            self._advance([0.0 if d else None for d in done])
            for i in np.flatnonzero(done):
                obs[i], infos[i] = self.envs[i]._finish_reset()
            out = _stack_infos(infos)
            out.update(final_obs=final_obs, _final_obs=done.copy(),
                       final_info=final_info, _final_info=done.copy())
            self._autoreset[:] = False
            return self._stack(obs), rew, term, trunc, out
        self._autoreset = done if self.autoreset_mode == NEXT_STEP else np.zeros_like(done)
        return self._stack(obs), rew, term, trunc, _stack_infos(infos)

    def render(self) -> tuple[NDArray[np.uint8] | None, ...]:
        """Each sub-env's render() (camera images for render_mode "rgb_array")."""
        return tuple(env.render() for env in self.envs)

    def close(self) -> None:
        """Close every sub-env's World."""
        if not self.closed:
            for env in self.envs:
                env.close()
            self.closed = True

    @property
    def unwrapped(self) -> "VectorEnv":
        return self

    def __enter__(self) -> "VectorEnv":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # ---- helpers --------------------------------------------------------------------

    def _seeds(self, seed: Any) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)):
            return [int(seed) + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed list has {len(seeds)} entries, expected num_envs = {self.num_envs}")
        return seeds

    def _advance(self, times: Sequence[float | None]) -> None:
        """Advance each sub-env's World to its time (None: leave it): one
        sensim.advance_all call per distinct time, its Worlds in
        advance_threads shares advanced side by side."""
        groups: dict[float, list[_sm.World]] = {}
        for env, t in zip(self.envs, times):
            if t is not None:
                groups.setdefault(t, []).append(env._live_world())
        for t, worlds in groups.items():
            _sm.advance_all(worlds, t, threads=self.advance_threads)

    def _stack(self, obs: list[Obs]) -> Obs:
        return {k: np.stack([o[k] for o in obs]) for k in self.single_observation_space.spaces}


def _stack_infos(infos: list[dict[str, Any]]) -> dict[str, Any]:
    """Gymnasium's vector info layout: info[key] an array over the sub-envs
    (numbers and bools typed, arrays stacked, anything else an object array),
    info["_" + key] a bool mask of the sub-envs that set it; nested dicts alike."""
    n = len(infos)
    out: dict[str, Any] = {}
    keys: list[str] = []
    for info in infos:
        keys += [k for k in info if k not in keys]
    for key in keys:
        mask = np.array([key in info for info in infos])
        vals: list[Any] = [info.get(key) for info in infos]
        first = next(v for v, m in zip(vals, mask) if m)
        if isinstance(first, dict):
            arr: Any = _stack_infos([v if isinstance(v, dict) else {} for v in vals])
        elif isinstance(first, (bool, np.bool_)):
            arr = np.array([bool(v) if m else False for v, m in zip(vals, mask)])
        elif isinstance(first, (int, np.integer)):
            arr = np.array([int(v) if m else 0 for v, m in zip(vals, mask)], dtype=np.int64)
        elif isinstance(first, (float, np.floating)):
            arr = np.array([float(v) if m else 0.0 for v, m in zip(vals, mask)])
        elif isinstance(first, np.ndarray) and all(
                (not m) or (isinstance(v, np.ndarray) and v.shape == first.shape) for v, m in zip(vals, mask)):
            arr = np.zeros((n,) + first.shape, dtype=first.dtype)
            for i, (v, m) in enumerate(zip(vals, mask)):
                if m:
                    arr[i] = v
        else:
            arr = np.full(n, None, dtype=object)
            for i, (v, m) in enumerate(zip(vals, mask)):
                if m:
                    arr[i] = v
        out[key] = arr
        out["_" + key] = mask
    return out
