#!/usr/bin/env python3
"""A vectorised RL-style rollout: N cone-course worlds stepped together.

sensim.vector.VectorEnv steps N SensorEnv worlds per call (one
sensim.advance_all per step) and returns stacked observations. The policy
is either uniform random actions or a "follow the gap" heuristic a robotics
user would write first: steer towards the farthest free lidar direction
ahead and hold 4 m/s. Finished episodes are reset automatically; the
script prints the environment steps per second and every episode's return.

    PYTHONPATH=build/python python3 examples/python/rollout.py --envs 4 --steps 300
"""

import argparse
import time

import numpy as np

from sensim.vector import VectorEnv

TARGET_SPEED = 4.0  # m/s


def gap_policy(obs, columns, rows=(7, 8), fov_deg=70.0):
    """Steer (rad) towards the widest-open azimuth within +-fov_deg ahead,
    using the near-horizontal lidar rows; accelerate towards TARGET_SPEED."""
    ranges = obs["lidar"][:, list(rows), :]                       # (N, rows, K), m
    free = np.where(ranges > 0, ranges, 30.0).min(axis=1)        # nearest hit per column
    az = -180.0 + np.arange(columns) * 360.0 / columns            # deg, column azimuths
    ahead = np.abs(az) <= fov_deg
    smooth = np.apply_along_axis(lambda r: np.convolve(r, np.ones(5) / 5, mode="same"), 1, free)
    smooth[:, ~ahead] = -1.0
    best = np.radians(az[np.argmax(smooth, axis=1)])
    steer = np.clip(0.8 * best, -0.4, 0.4)
    accel = np.clip(1.5 * (TARGET_SPEED - obs["odometry"][:, 0]), -4.0, 2.0)
    return np.stack([steer, accel], axis=1).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=4, help="worlds stepped together")
    ap.add_argument("--steps", type=int, default=300, help="vector steps (each 0.1 s per world)")
    ap.add_argument("--policy", choices=("gap", "random"), default="gap")
    ap.add_argument("--threads", type=int, default=1, help="worker threads per world")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.envs < 1 or args.steps < 1:
        ap.error("--envs and --steps must be >= 1")
    columns = 180
    envs = VectorEnv(args.envs, lidar_columns=columns, max_episode_steps=200, threads=args.threads)
    envs.action_space.seed(args.seed)
    obs, _ = envs.reset(seed=args.seed)
    returns = np.zeros(args.envs)
    finished = []
    t0 = time.perf_counter()
    for _ in range(args.steps):
        act = envs.action_space.sample() if args.policy == "random" else gap_policy(obs, columns)
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
    for i, ret, why in finished:
        print(f"  env {i}: episode return {ret:7.2f} ({why})")
    if not finished:
        print(f"  no episode finished; running returns {np.round(returns, 2).tolist()}")


if __name__ == "__main__":
    main()
