#!/usr/bin/env python3
"""The rendering gallery (docs/gallery/, docs/rendering.md): each scene
rendered by the direct integrator (left) and the path integrator (right).

    PYTHONPATH=build/python python3 examples/python/gallery.py --out docs/gallery

Scenes: a street of a small town under a morning sky and at noon
(Preetham sky and sun), a glass and a metal material ball on a floor under
the sky, and a Cornell-box-like room lit by an emissive ceiling panel. The
direct integrator has no sky: it gets the sun as a directional light and
the background colour plus an ambient term, as sensim renders by default.
Images are tone-mapped here (exposure, sRGB transfer), not by a filter, so
that both halves get the same curve.
"""

import argparse
import math
import os
from typing import Any, Callable, Sequence

import numpy as np

import sensim


def srgb(x: Any) -> Any:
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def aim(eye: Sequence[float], target: Sequence[float]) -> Any:
    """Pose of a camera at eye looking at target (camera X forward, Z up)."""
    d = np.subtract(target, eye, dtype=float)
    d /= np.linalg.norm(d)
    yaw, pitch = math.atan2(d[1], d[0]), -math.asin(d[2])
    cy, sy, cp, sp = math.cos(yaw / 2), math.sin(yaw / 2), math.cos(pitch / 2), math.sin(pitch / 2)
    return (tuple(eye), (cy * cp, -sy * sp, cy * sp, sy * cp))


def render(build: Callable[[sensim.World, str], None], integrator: str, cam: dict[str, Any], spp: int,
           bounces: int) -> Any:
    with sensim.World(seed=7, threads=2, background=(0.0, 0.0, 0.0), ambient=0.0) as w:
        build(w, integrator)
        c = w.camera(integrator=integrator, samples=spp if integrator == "path" else 4,
                     max_bounces=bounces if integrator == "path" else 1, **cam)
        w.advance(0.0)
        f = c.poll()
        assert f is not None, "the camera delivers at t = 0"
        return np.array(f.data, dtype=np.float32)


def town(sun_el: float, sun_az: float) -> Callable[[sensim.World, str], None]:
    def build(w: sensim.World, integrator: str) -> None:
        el, az = math.radians(sun_el), math.radians(sun_az)
        to_sun = (math.cos(el) * math.sin(az), math.cos(el) * math.cos(az), math.sin(el))
        if integrator == "path":
            w.set_environment({"type": "sky", "sun_elevation_deg": sun_el, "sun_azimuth_deg": sun_az,
                               "turbidity": 3})
        else:
            # The sun's horizontal illuminance in the path integrator's units, for a fair comparison.
            w.light("directional", direction=tuple(-v for v in to_sun), intensity=150.0)
        road = w.shape("plane", (200, 200, 0), material={"base_color": [0.18, 0.18, 0.19], "roughness": 0.9})
        w.body(road, static=True)
        rng = np.random.default_rng(3)
        for side in (-1, 1):
            for i in range(6):
                h = float(rng.uniform(6, 18))
                col = [float(v) for v in rng.uniform(0.35, 0.8, 3)]
                b = w.shape("box", (9, 8, h), material={"base_color": col, "roughness": 0.8})
                w.body(b, static=True, pose=((i * 11.0 - 10, side * 12.0, h / 2), (1, 0, 0, 0)))
        for i in range(5):
            cone = w.shape("cone", (0.2, 0, 0.6), material={"base_color": [0.9, 0.35, 0.05]})
            w.body(cone, static=True, pose=((6 + 2.5 * i, 2.5, 0), (1, 0, 0, 0)))
        car = w.shape("box", (4.2, 1.8, 1.4), material={"base_color": [0.6, 0.02, 0.02], "metallic": 1.0,
                                                       "roughness": 0.25})
        w.body(car, static=True, pose=((14, -3.5, 0.7), (1, 0, 0, 0)))
    return build


def balls(w: sensim.World, integrator: str) -> None:
    if integrator == "path":
        w.set_environment({"type": "sky", "sun_elevation_deg": 35, "sun_azimuth_deg": 200, "turbidity": 2.5})
    else:
        el, az = math.radians(35), math.radians(200)
        w.light("directional", direction=(-math.cos(el) * math.sin(az), -math.cos(el) * math.cos(az),
                                          -math.sin(el)), intensity=150.0)
    floor = w.shape("plane", (40, 40, 0), material={"base_color": [0.6, 0.6, 0.6], "roughness": 0.7})
    w.body(floor, static=True)
    glass = w.shape("sphere", (1, 0, 0), segments=96,
                    material={"base_color": [1, 1, 1], "transmission": 1.0, "roughness": 0.0, "ior": 1.5})
    w.body(glass, static=True, pose=((0, -1.3, 1), (1, 0, 0, 0)))
    metal = w.shape("sphere", (1, 0, 0), segments=96,
                    material={"base_color": [0.95, 0.64, 0.54], "metallic": 1.0, "roughness": 0.3})
    w.body(metal, static=True, pose=((0, 1.3, 1), (1, 0, 0, 0)))


def room(w: sensim.World, integrator: str) -> None:
    white = {"base_color": [0.73, 0.73, 0.73], "roughness": 1.0, "specular": 0.0}
    red = {"base_color": [0.63, 0.06, 0.05], "roughness": 1.0, "specular": 0.0}
    green = {"base_color": [0.12, 0.45, 0.15], "roughness": 1.0, "specular": 0.0}
    s = 2.0
    walls = [  # (material, centre, rotation quaternion: the plane's +Z normal turned inwards)
        (white, (0, 0, 0), (1, 0, 0, 0)),                              # floor
        (white, (0, 0, s), (0, 1, 0, 0)),                              # ceiling
        (white, (s / 2, 0, s / 2), (math.sqrt(0.5), 0, -math.sqrt(0.5), 0)),  # back wall
        (red, (0, -s / 2, s / 2), (math.sqrt(0.5), -math.sqrt(0.5), 0, 0)),   # left wall
        (green, (0, s / 2, s / 2), (math.sqrt(0.5), math.sqrt(0.5), 0, 0)),   # right wall
    ]
    for mat, c, q in walls:
        m = w.shape("plane", (s, s, 0), material=mat)
        w.body(m, static=True, pose=(c, q))
    if integrator == "path":
        lamp = w.shape("plane", (0.5, 0.5, 0), material={"base_color": [0, 0, 0], "specular": 0.0,
                                                         "emission": [17.0, 12.0, 4.0]})
        w.body(lamp, static=True, pose=((0, 0, s - 0.01), (0, 1, 0, 0)))
    else:
        w.light("point", position=(0, 0, s - 0.05), intensity=4.0, color=(1.0, 0.75, 0.3))
    tall = w.shape("box", (0.6, 0.6, 1.2), material=white)
    w.body(tall, static=True, pose=((0.35, -0.35, 0.6), (math.cos(0.2), 0, 0, math.sin(0.2))))
    short = w.shape("box", (0.6, 0.6, 0.6), material=white)
    w.body(short, static=True, pose=((-0.3, 0.4, 0.3), (math.cos(-0.15), 0, 0, math.sin(-0.15))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/gallery")
    ap.add_argument("--width", type=int, default=320)
    ap.add_argument("--spp", type=int, default=64)
    a = ap.parse_args()
    W, H = a.width, a.width * 3 // 4
    os.makedirs(a.out, exist_ok=True)
    scenes = [
        ("town_morning", town(12, 100), dict(mount=aim((-18, 0, 1.6), (20, 0, 4))), 0.012, 4),
        ("town_noon", town(65, 170), dict(mount=aim((-18, 0, 1.6), (20, 0, 4))), 0.012, 4),
        ("material_balls", balls, dict(mount=aim((-7, 0, 2.2), (0, 0, 0.9)), hfov_deg=50), 0.012, 8),
        ("cornell_room", room, dict(mount=aim((-3.4, 0, 1.0), (0, 0, 1.0)), hfov_deg=45), 0.9, 6),
    ]
    for name, build, cam, exposure, bounces in scenes:
        cam = dict(cam, width=W, height=H)
        halves = [render(build, i, cam, a.spp, bounces) for i in ("direct", "path")]
        img = np.concatenate([srgb(exposure * h) for h in halves], axis=1)
        path = os.path.join(a.out, name + ".png")
        sensim.image_write_png(path, img)
        print(path, "mean radiance direct %.3g, path %.3g" % (halves[0].mean(), halves[1].mean()))


if __name__ == "__main__":
    main()
