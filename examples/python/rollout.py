#!/usr/bin/env python3
"""A vectorised RL-style rollout: N cone-course worlds stepped together.

sensim.vector.VectorEnv steps N SensorEnv worlds per call (one
sensim.advance_all per step) and returns stacked observations. The policy
is either uniform random actions or the heuristic a robotics user would
write first: find the cones in the lidar's range image, steer towards the
midpoint between the left and right cone lines ahead, and hold 4 m/s. Finished episodes are reset automatically; the
script prints the environment steps per second and every episode's return.

    PYTHONPATH=build/python python3 examples/python/rollout.py --envs 4 --steps 300
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Mapping

import numpy as np
from numpy.typing import NDArray

from sensim.vector import VectorEnv

TARGET_SPEED = 4.0  # m/s


def cone_policy(obs: Mapping[str, NDArray[Any]], columns: int, channels: int = 16,
                rows: tuple[int, ...] = (7, 8), window: tuple[float, float] = (1.0, 7.0),
                half_width: float = 2.0, wheelbase: float = 1.6) -> NDArray[np.float32]:
    """The heuristic a robotics user writes first: find the cones in the lidar's
    near-horizontal rows (+1 and -1 deg, which do not reach the ground), sort
    them into left and right of the arc the car is driving (its steering
    angle's curvature), steer by pure pursuit towards the midpoint between
    the two cone lines ahead, and accelerate towards TARGET_SPEED. Units: m, rad."""
    az = np.radians(-180.0 + np.arange(columns) * 360.0 / columns)   # column azimuths
    el = np.radians(np.linspace(15.0, -15.0, channels))[list(rows)]  # row 0 is the highest
    actions = np.zeros((len(obs["lidar"]), 2), dtype=np.float32)
    for i, image in enumerate(obs["lidar"]):
        r = image[list(rows)]
        hit = r > 0
        x = (r * np.cos(el)[:, None] * np.cos(az))[hit]
        y = (r * np.cos(el)[:, None] * np.sin(az))[hit]
        kappa = np.tan(obs["odometry"][i, 1]) / wheelbase             # 1/m, the arc driven now
        dy = y - 0.5 * kappa * x * x                                  # offset from that arc
        ahead = (x > window[0]) & (x < window[1]) & (np.abs(dy) < 2 * half_width)
        left, right = ahead & (dy > 0), ahead & (dy < 0)
        if left.any() and right.any():
            off = 0.5 * (dy[left].mean() + dy[right].mean())
        elif left.any():
            off = dy[left].mean() - half_width
        elif right.any():
            off = dy[right].mean() + half_width
        else:
            off = 0.0
        tx = 0.5 * (window[0] + window[1])
        ty = 0.5 * kappa * tx * tx + off
        steer = np.arctan2(2.0 * wheelbase * ty, tx * tx + ty * ty)   # pure pursuit
        actions[i] = (np.clip(steer, -0.4, 0.4),
                      np.clip(1.5 * (TARGET_SPEED - obs["odometry"][i, 0]), -4.0, 2.0))
    return actions


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=4, help="worlds stepped together")
    ap.add_argument("--steps", type=int, default=300, help="vector steps (each 0.1 s per world)")
    ap.add_argument("--policy", choices=("cones", "random"), default="cones")
    ap.add_argument("--threads", type=int, default=1, help="worker threads per world")
    ap.add_argument("--advance-threads", type=int, default=2,
                    help="threads sensim.advance_all advances shares of the worlds on")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.envs < 1 or args.steps < 1:
        ap.error("--envs and --steps must be >= 1")
    columns = 180
    envs = VectorEnv(args.envs, lidar_columns=columns, max_episode_steps=300, threads=args.threads,
                     advance_threads=args.advance_threads)
    envs.action_space.seed(args.seed)
    obs, _ = envs.reset(seed=args.seed)
    returns = np.zeros(args.envs)
    finished: list[tuple[int, float, str]] = []
    t0 = time.perf_counter()
    for _ in range(args.steps):
        act = envs.action_space.sample() if args.policy == "random" else cone_policy(obs, columns)
        obs, rew, term, trunc, info = envs.step(act)
        returns += rew
        for i in np.flatnonzero(term | trunc):
            why = "goal" if info["goal"][i] else "crash" if term[i] else "time limit"
            finished.append((i, returns[i], why))
            returns[i] = 0.0
    wall = time.perf_counter() - t0
    envs.close()
    print(f"{args.envs} envs x {args.steps} steps = {args.envs * args.steps} env steps in {wall:.2f} s: "
          f"{args.envs * args.steps / wall:.0f} steps/s ({args.steps / wall:.0f} vector steps/s), "
          f"policy {args.policy}")
    if finished:
        counts = {why: sum(1 for f in finished if f[2] == why) for why in ("goal", "crash", "time limit")}
        print(f"{len(finished)} episodes finished ({', '.join(f'{n} {w}' for w, n in counts.items())}), "
              f"mean return {np.mean([f[1] for f in finished]):.2f} (m of progress, -10 a crash):")
        for i, ret, why in finished[:16]:
            print(f"  env {i}: episode return {ret:7.2f} ({why})")
        if len(finished) > 16:
            print(f"  ... and {len(finished) - 16} more")
    else:
        print(f"no episode finished; running returns {np.round(returns, 2).tolist()}")


if __name__ == "__main__":
    main()
