#!/usr/bin/env python3
"""A car with a camera, a lidar, GNSS and an IMU, driven by a Python dynamics loop.

The host loop is this script: at 100 Hz it integrates a kinematic bicycle
model that follows a stadium course lined with cones (pure pursuit on the
centre line at 5 m/s), pushes the car's state (pose, velocity, angular rate,
acceleration) to sensim, advances the world and polls every sensor. At the
end it draws one figure with matplotlib (Agg, no display): the last camera
image, the lidar scans in a bird's-eye view (world frame), the GNSS track
against the true path, and the IMU's specific force and yaw rate.

    PYTHONPATH=build/python python3 examples/python/vehicle.py --out out/python_vehicle.png

Units: metres, seconds, radians (degrees only where named _deg).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any, Tuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

import sensim  # noqa: E402
from sensim.env import Course  # noqa: E402

DT = 0.01          # s, host step (100 Hz)
WHEELBASE, LR = 1.6, 0.8   # m
SPEED = 5.0        # m/s, target
LOOKAHEAD = 4.0    # m, pure pursuit

Array = NDArray[np.float64]
Scan = Tuple[sensim.Pose, Array]


def yaw_quat(yaw: float) -> tuple[float, float, float, float]:
    """(w, x, y, z) of a rotation by yaw (rad) about +Z."""
    return (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2))


def build_world(course: Course, seed: int) -> tuple[sensim.World, sensim.Body, dict[str, sensim.Sensor]]:
    """Ground, cones, a light and the car with its four sensors."""
    w = sensim.World(seed=seed, threads=2, origin=(47.3769, 8.5417, 408.0),
                     background=(0.45, 0.62, 0.9), ambient=0.6)
    w.light("directional", direction=(-0.4, -0.3, -1.0), intensity=2.6)
    floor = w.shape("plane", size=(80.0, 60.0, 1.0),
                    material=dict(base_color=(0.32, 0.32, 0.3), reflectance=0.2))
    w.body(floor, static=True, class_id=1)
    cone = w.shape("cone", size=(0.15, 0.15, 0.5), segments=16,
                   material=dict(base_color=(0.95, 0.3, 0.02), reflectance=0.7))
    for x, y in course.cones():
        w.body(cone, pose=(float(x), float(y), 0.0), static=True, class_id=2)
    x0, y0, yaw0 = course.point(0.0)
    car = w.body(None, pose=((x0, y0, 0.0), yaw_quat(yaw0)), static=False)
    pitch = 0.12
    sensors = {
        "camera": w.camera(name="camera", body=car, rate=10.0, width=160, height=120, hfov_deg=90.0,
                           samples=4, mount=((0.3, 0.0, 1.1), (math.cos(pitch / 2), 0.0, math.sin(pitch / 2), 0.0)),
                           filters=["srgb8"]),
        "lidar": w.lidar(name="lidar", body=car, rate=10.0, preset="VLP-16", columns=450, max_range=40.0,
                         mount=(0.9, 0.0, 0.4), filters=["points"]),
        "gnss": w.gnss(name="gnss", body=car, rate=10.0, mount=(0.0, 0.0, 1.0),
                       filters=[("gnss_noise", {"sigma": [0.3, 0.3, 0.6]})]),
        "imu": w.imu(name="imu", body=car, rate=100.0, mount=(0.0, 0.0, 0.3), filters=["imu_noise"]),
    }
    return w, car, sensors


def pure_pursuit(course: Course, x: float, y: float, yaw: float) -> float:
    """Steering angle (rad) towards the centre line LOOKAHEAD m ahead."""
    s, _ = course.project(x, y)
    tx, ty, _ = course.point(s + LOOKAHEAD)
    alpha = math.atan2(ty - y, tx - x) - yaw
    return math.atan2(2.0 * WHEELBASE * math.sin(alpha), LOOKAHEAD)


def run(steps: int, seed: int) -> tuple[Course, Array, Array, Array, list[Scan], NDArray[Any] | None]:
    course = Course()
    w, car, sensors = build_world(course, seed)
    x, y, yaw = course.point(0.0)
    v = 0.0
    truth: list[tuple[float, float, float]] = []
    gnss: list[tuple[float, ...]] = []
    imu: list[tuple[float, ...]] = []
    scans: list[Scan] = []
    image: NDArray[Any] | None = None
    for k in range(steps + 1):
        t = k * DT
        steer = max(-0.4, min(0.4, pure_pursuit(course, x, y, yaw)))
        accel = max(-4.0, min(2.0, 1.5 * (SPEED - v)))
        beta = math.atan(LR / WHEELBASE * math.tan(steer))
        rate = v * math.sin(beta) / LR
        c, s = math.cos(yaw + beta), math.sin(yaw + beta)
        car.push_state(t, ((x, y, 0.0), yaw_quat(yaw)), vel=(v * c, v * s, 0.0), ang_vel=(0.0, 0.0, rate),
                       acc=(accel * c - v * rate * s, accel * s + v * rate * c, 0.0), ang_acc=(0.0, 0.0, 0.0))
        w.advance(t)
        truth.append((t, x, y))
        for f in sensors["gnss"].poll_all():
            gnss.append((f.t_capture, *f.record["enu"][:2]))
        for f in sensors["imu"].poll_all():
            r = f.record
            imu.append((f.t_capture, *r["accel"], *r["gyro"]))
        for f in sensors["lidar"].poll_all():
            scans.append((f.pose, np.stack([f.data["x"], f.data["y"], f.data["z"]], axis=1)))
        last = sensors["camera"].latest()
        if last is not None:
            image = np.asarray(last.data)[:, :, :3]
        # explicit Euler to the next host step (the pushed state holds at t)
        x += v * c * DT
        y += v * s * DT
        yaw += rate * DT
        v = max(0.0, v + accel * DT)
    w.close()
    return course, np.array(truth), np.array(gnss), np.array(imu), scans, image


def to_world(pose: sensim.Pose, pts: Array) -> Array:
    """Points (n, 3) in the sensor frame at `pose` -> world frame."""
    (px, py, pz), (qw, qx, qy, qz) = pose
    r = np.array([[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
                  [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
                  [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)]])
    return np.asarray(pts @ r.T + (px, py, pz), dtype=np.float64)


def plot(path: str, course: Course, truth: Array, gnss: Array, imu: Array, scans: list[Scan],
         image: NDArray[Any] | None) -> None:
    fig, ax = plt.subplots(2, 2, figsize=(11, 8.5))
    a = ax[0, 0]
    if image is not None:
        a.imshow(image)
    a.set_title("camera (last frame, 160 x 120)")
    a.axis("off")
    a = ax[0, 1]
    for pose, pts in scans[-20:]:
        wp = to_world(pose, pts)
        keep = wp[:, 2] > 0.05           # drop ground returns
        a.scatter(wp[keep, 0], wp[keep, 1], s=1, c=wp[keep, 2], cmap="viridis", vmin=0, vmax=0.5)
    cones = course.cones()
    a.plot(cones[:, 0], cones[:, 1], "+", color="tab:orange", ms=4, label="cones (truth)")
    a.plot(truth[:, 1], truth[:, 2], "k-", lw=0.8, label="car")
    a.set_aspect("equal")
    a.set_title("lidar, last 20 scans above ground (world frame)")
    a.set_xlabel("east [m]")
    a.set_ylabel("north [m]")
    a.legend(loc="upper right", fontsize=8)
    a = ax[1, 0]
    a.plot(truth[:, 1], truth[:, 2], "k-", lw=1, label="truth")
    if len(gnss):
        a.plot(gnss[:, 1], gnss[:, 2], ".", color="tab:red", ms=3, label="GNSS (ENU, noisy)")
    a.set_aspect("equal")
    a.set_title("GNSS track vs truth")
    a.set_xlabel("east [m]")
    a.set_ylabel("north [m]")
    a.legend(fontsize=8)
    a = ax[1, 1]
    if len(imu):
        a.plot(imu[:, 0], imu[:, 1], lw=0.7, label="f_x [m/s^2]")
        a.plot(imu[:, 0], imu[:, 2], lw=0.7, label="f_y [m/s^2]")
        a.plot(imu[:, 0], imu[:, 6], lw=0.7, label="yaw rate [rad/s]")
    a.set_title("IMU (100 Hz)")
    a.set_xlabel("t [s]")
    a.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--out", default="out/python_vehicle.png", help="figure path (PNG)")
    ap.add_argument("--steps", type=int, default=1500, help="host steps of 10 ms (default 15 s)")
    ap.add_argument("--seed", type=int, default=1, help="the World's seed (sensor noise)")
    args = ap.parse_args()
    if args.steps < 1:
        ap.error("--steps must be >= 1")
    t0 = time.perf_counter()
    course, truth, gnss, imu, scans, image = run(args.steps, args.seed)
    wall = time.perf_counter() - t0
    plot(args.out, course, truth, gnss, imu, scans, image)
    err = np.hypot(*(gnss[:, 1:3] - np.array([np.interp(gnss[:, 0], truth[:, 0], truth[:, i]) for i in (1, 2)]).T).T)
    print(f"{args.steps} steps ({args.steps * DT:.2f} s simulated) in {wall:.2f} s wall; "
          f"{len(scans)} scans, {len(gnss)} fixes (horizontal error rms {np.sqrt(np.mean(err ** 2)):.2f} m), "
          f"{len(imu)} IMU samples; figure {args.out}")


if __name__ == "__main__":
    main()
