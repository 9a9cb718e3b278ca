#!/usr/bin/env python3
"""Many small worlds stepped together, as RL rollouts do: world-steps per
second for each way of spending the machine's cores, side by side in one
run.

Each world: a ground plane, six boxes, a car carrying a 16-channel lidar
with 360 columns at 10 Hz (the "points" filter), stepped 0.1 s at a time
so every step captures and delivers one scan. The knobs: the worlds' own
worker threads (World(threads=...)) and advance_all's threads (worlds
advanced side by side).

    PYTHONPATH=build/python python3 bench/python_many_worlds.py [--worlds 8] [--steps 100]
"""

import argparse
import time

import sensim


def make(seed, world_threads):
    w = sensim.World(seed=seed, threads=world_threads)
    w.body(w.shape("plane", (50, 50, 0)), static=True)
    for i in range(6):
        w.body(w.shape("box", (1, 1, 1)), pose=(5 + i, i, 0.5), static=True)
    car = w.body()
    lidar = w.lidar(body=car, mount=(0, 0, 1.8), channels=16, columns=360, filters=["points"])
    return w, car, lidar


def run(nworlds, steps, world_threads, threads):
    envs = [make(s, world_threads) for s in range(nworlds)]
    worlds = [e[0] for e in envs]
    points = 0
    t0 = time.perf_counter()
    for k in range(steps):
        t = k * 0.1
        for _, car, _ in envs:
            car.push_state(t, (t, 0, 0))
        sensim.advance_all(worlds, t, threads=threads)
        for _, _, lidar in envs:
            points += lidar.poll().count
    dt = time.perf_counter() - t0
    for w in worlds:
        w.close()
    return nworlds * steps / dt, points


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--steps", type=int, default=100)
    args = ap.parse_args()
    print("%d worlds, %d steps of 0.1 s, one 16 x 360 lidar scan per world-step"
          % (args.worlds, args.steps))
    print("| World(threads=) | advance_all(threads=) | world-steps/s | ratio to 0 / 1 |")
    print("|---:|---:|---:|---:|")
    base = None
    for wt, at in ((0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)):
        rate, points = run(args.worlds, args.steps, wt, at)
        base = base or rate
        print("| %d | %d | %.0f | %.2f |" % (wt, at, rate, rate / base))


if __name__ == "__main__":
    main()
