"""SensorEnv: a Gymnasium-API driving task observed through sensim's sensors.

The task (a robotics user's "lap the cone course"): a car with a kinematic
bicycle model drives a stadium-shaped course (two 20 m straights joined by
half circles of 10 m radius on the centre line, 102.83 m a lap) lined with
traffic cones 2 m either side of the centre line, optionally with
cylindrical obstacles (barrels) on the track. It sees the course only
through sensim: a 16-channel lidar's range image, a GNSS fix (ENU, with
noise), an IMU sample, its own wheel speed and steering angle, and
optionally a small camera image.

Spaces (all float32 unless said; ``C`` lidar channels, ``K`` columns):

- action ``Box(low=[-0.4, -4.0], high=[0.4, 2.0], shape=(2,), float32)``:
  front-wheel steering angle (rad, positive turns left) and longitudinal
  acceleration (m/s^2). Actions outside the box are clipped to it; a wrong
  shape or a NaN/inf is a ValueError.
- observation ``Dict``:
  ``"lidar"``  ``Box(0, max_range, (C, K))`` range image in metres (0: no
  return within ``max_range``) of a spinning lidar 0.9 m ahead of the car's
  centre and 0.4 m above the ground: row i at elevation 15 - 30 i / (C - 1)
  deg (row 0 the highest), column j at azimuth -180 + 360 j / K deg
  (counter-clockwise from the car's X axis, so column K/2 looks straight
  ahead); the scan spans the step, so a moving car's scan is skewed.
  ``"gnss"``   ``Box(-inf, inf, (3,))`` antenna position east, north, up (m)
  in the course's ENU frame, with Gaussian noise (``gnss_sigma``, m).
  ``"imu"``    ``Box(-inf, inf, (6,))`` specific force x, y, z (m/s^2) and
  angular rate x, y, z (rad/s) in the body frame (X forward, Y left, Z up),
  with sensim's ``imu_noise`` defaults.
  ``"odometry"`` ``Box([0, -0.4], [v_max, 0.4], (2,))`` wheel speed (m/s) and
  steering angle (rad), read from the car's own model (no noise).
  ``"camera"`` (only with ``camera=(W, H)``) ``Box(0, 255, (H, W, 3), uint8)``
  forward camera, sRGB.

Each step lasts ``1 / control_hz`` s (0.1 s); the lidar, GNSS and camera
capture once per step at its end, the IMU at ``imu_rate``; the observation
holds the newest frame of each. Reward: metres of progress along the centre
line in the step (negative when driving backwards) minus
``crash_penalty`` (10) on a collision or on leaving the course. Terminated:
a collision (the car's 2.0 x 1.2 m rectangle touches a cone's base or an
obstacle), leaving the course (the car's centre beyond the cone lines) or
completing ``laps`` laps (the goal). Truncated: after
``max_episode_steps`` steps.

Determinism: the World is built once (in ``__init__``) with seed 0; every
``reset`` restarts it with ``World.reset()``. ``reset(seed=s)`` seeds the
env's ``np_random`` (which draws the start pose) with ``s`` and makes ``s``
(mod 2^53) the World's seed, which keys every sensor's noise; the World is
re-created only when that seed changes. So the same seed and the same
actions give bit-identical observations, rewards and infos, whatever the
thread count. ``reset()`` without a seed keeps the World's seed: the start
pose differs, but sensor noise restarts its streams (the draws of frame k
repeat from episode to episode) unless ``fresh_noise=True``, which
re-creates the World with a seed drawn from ``np_random`` at every reset
(with the default sensors a reset costs about 0.2 ms through
``World.reset()`` and 0.9 ms re-creating the World).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict

import numpy as np
from numpy.typing import NDArray

import sensim as _sm

if TYPE_CHECKING:  # type checkers see sensim's own base and spaces
    _gym: Any = None
    from . import spaces as _spaces
else:
    try:  # Gymnasium's own base class and spaces when it is installed
        import gymnasium as _gym
        from gymnasium import spaces as _spaces
    except ImportError:
        _gym = None
        from . import spaces as _spaces

Obs = Dict[str, NDArray[Any]]
Info = Dict[str, Any]

__all__ = ["SensorEnv", "Course", "EnvBase"]

SEED_MOD = 2 ** 53  # the World's seed range (docs/scenario.md, world.seed)


class _EnvBase:
    """What ``gymnasium.Env`` gives an environment, when it is not installed."""

    metadata: dict[str, Any] = {"render_modes": []}
    render_mode: str | None = None
    spec = None
    _np_random: np.random.Generator | None = None
    _np_random_seed: int | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        if seed is not None:
            self._np_random, self._np_random_seed = _np_random(seed)
        return None

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random, self._np_random_seed = _np_random(None)
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random, self._np_random_seed = value, -1

    @property
    def np_random_seed(self) -> int:
        if self._np_random is None:
            self.np_random
        return self._np_random_seed  # type: ignore[return-value]

    @property
    def unwrapped(self) -> _EnvBase:
        return self

    def close(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def __str__(self) -> str:
        return f"<{type(self).__name__} instance>"


if TYPE_CHECKING:
    EnvBase = _EnvBase
    from .spaces import np_random as _np_random
elif _gym is not None:
    EnvBase = _gym.Env
    from gymnasium.utils.seeding import np_random as _np_random
else:
    EnvBase = _EnvBase
    from .spaces import np_random as _np_random


class Course:
    """A stadium course: straights of ``length`` m along X at y = -/+ ``radius``,
    joined by half circles of ``radius`` m (centre line), cones ``half_width``
    m either side. Arc length s (m) starts mid-way along the y = -radius
    straight and grows counter-clockwise (the driving direction)."""

    def __init__(self, length: float = 20.0, radius: float = 10.0, half_width: float = 2.0,
                 cone_spacing: float = 3.0):
        if not (length >= 0 and radius > half_width > 0 and cone_spacing > 0):
            raise ValueError("course needs length >= 0, radius > half_width > 0, cone_spacing > 0")
        self.length, self.radius, self.half_width = float(length), float(radius), float(half_width)
        self.cone_spacing = float(cone_spacing)

    def perimeter(self, offset: float = 0.0) -> float:
        """Length (m) of the closed curve ``offset`` m outside the centre line."""
        return 2.0 * self.length + 2.0 * math.pi * (self.radius + offset)

    def point(self, s: float, offset: float = 0.0) -> tuple[float, float, float]:
        """(x, y, heading rad) at centre-line arc length s (m), moved
        ``offset`` m outwards along the normal."""
        L, R = self.length, self.radius
        s = s % self.perimeter()
        r = R + offset
        segs = (L / 2, math.pi * R, L, math.pi * R, L / 2)
        if s < segs[0]:
            return s, -r, 0.0
        s -= segs[0]
        if s < segs[1]:
            a = -math.pi / 2 + s / R
            return L / 2 + r * math.cos(a), r * math.sin(a), a + math.pi / 2
        s -= segs[1]
        if s < segs[2]:
            return L / 2 - s, r, math.pi
        s -= segs[2]
        if s < segs[3]:
            a = math.pi / 2 + s / R
            return -L / 2 + r * math.cos(a), r * math.sin(a), a + math.pi / 2
        s -= segs[3]
        return -L / 2 + s, -r, 0.0

    def project(self, x: float, y: float) -> tuple[float, float]:
        """(s, lateral): arc length (m) of the nearest centre-line point and the
        signed distance from it (m, positive outside the course's centre)."""
        L, R = self.length, self.radius
        qx = min(max(x, -L / 2), L / 2)
        dx, dy = x - qx, y
        d = math.hypot(dx, dy)
        lateral = d - R
        if abs(x) <= L / 2:
            s = (x if x >= 0 else self.perimeter() + x) if y < 0 else L / 2 + math.pi * R + (L / 2 - x)
        elif x > L / 2:
            s = L / 2 + R * (math.atan2(dy, dx) + math.pi / 2)
        else:
            a = math.atan2(dy, dx) % (2 * math.pi)
            s = L / 2 + math.pi * R + L + R * (a - math.pi / 2)
        return s % self.perimeter(), lateral

    def cones(self) -> NDArray[np.float64]:
        """(n, 2) positions (m) of the cones on both boundaries."""
        out = []
        for off in (-self.half_width, self.half_width):
            n = max(3, int(round(self.perimeter(off) / self.cone_spacing)))
            for i in range(n):
                x, y, _ = self.point(i * self.perimeter() / n, off)
                out.append((x, y))
        return np.asarray(out, dtype=np.float64)


class SensorEnv(EnvBase):
    """Lap a cone course in a bicycle-model car seen through sensim sensors.

    See the module's docstring for the task, spaces and determinism.

    Parameters (units SI):
      max_episode_steps  steps before truncation (300 = 30 s).
      control_hz         steps per second (10); lidar, GNSS and camera rate.
      substeps           model integration steps (and body state pushes) per step.
      lidar_channels, lidar_columns, max_range
                         the lidar's grid and reach (m); elevations -15..15 deg.
      imu_rate           Hz, a multiple of control_hz.
      gnss_sigma         GNSS noise, east/north/up standard deviation (m).
      camera             None or (width, height) px: adds obs["camera"].
      render_mode        None or "rgb_array" (the camera's image; a 160 x 120
                         camera is added when ``camera`` is None).
      obstacles          (s m, lateral m) barrels (radius 0.3 m) on the course.
      laps               laps to the goal.
      crash_penalty      reward subtracted on collision / leaving the course.
      threads            the World's worker threads.
      fresh_noise        new sensor-noise seed at every reset (re-creates the World).
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 10}

    WHEELBASE = 1.6           # m, front to rear axle
    LR = 0.8                  # m, centre of mass to rear axle
    CAR_LENGTH, CAR_WIDTH = 2.0, 1.2   # m, collision rectangle about the centre of mass
    CONE_RADIUS, CONE_HEIGHT = 0.15, 0.5
    BARREL_RADIUS, BARREL_HEIGHT = 0.3, 1.0
    STEER_MAX = 0.4           # rad
    ACCEL_MIN, ACCEL_MAX = -4.0, 2.0   # m/s^2
    V_MAX = 10.0              # m/s
    ORIGIN = (47.3769, 8.5417, 408.0)  # WGS84 of the course's centre

    def __init__(self, *, max_episode_steps: int = 300, control_hz: float = 10.0,
                 substeps: int = 5, lidar_channels: int = 16, lidar_columns: int = 180,
                 max_range: float = 30.0, imu_rate: float = 50.0,
                 gnss_sigma: tuple[float, float, float] = (0.3, 0.3, 0.6),
                 camera: tuple[int, int] | None = None, render_mode: str | None = None,
                 obstacles: tuple[tuple[float, float], ...] = (), laps: int = 1,
                 crash_penalty: float = 10.0, threads: int = 1, fresh_noise: bool = False,
                 course: Course | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if max_episode_steps < 1 or substeps < 1 or laps < 1:
            raise ValueError("max_episode_steps, substeps and laps must be >= 1")
        ratio = imu_rate / control_hz
        if ratio < 1 or abs(ratio - round(ratio)) > 1e-9:
            raise ValueError(f"imu_rate ({imu_rate} Hz) must be a multiple of control_hz ({control_hz} Hz)")
        self.render_mode = render_mode
        self.max_episode_steps = int(max_episode_steps)
        self.control_hz, self.substeps = float(control_hz), int(substeps)
        self.lidar_shape = (int(lidar_channels), int(lidar_columns))
        self.max_range, self.imu_rate = float(max_range), float(imu_rate)
        self.gnss_sigma = tuple(float(v) for v in gnss_sigma)
        self.camera_size = None if camera is None else (int(camera[0]), int(camera[1]))
        self.laps, self.crash_penalty = int(laps), float(crash_penalty)
        self.threads, self.fresh_noise = int(threads), bool(fresh_noise)
        self.course = course or Course()
        self.obstacles = np.asarray([self.course.point(s, lat)[:2] for s, lat in obstacles],
                                    dtype=np.float64).reshape(-1, 2)
        self._cones = self.course.cones()
        self._obstacle_xy = np.concatenate([self._cones, self.obstacles])
        self._obstacle_r = np.concatenate([np.full(len(self._cones), self.CONE_RADIUS),
                                           np.full(len(self.obstacles), self.BARREL_RADIUS)])
        self.action_space = _spaces.Box(
            low=np.array([-self.STEER_MAX, self.ACCEL_MIN], dtype=np.float32),
            high=np.array([self.STEER_MAX, self.ACCEL_MAX], dtype=np.float32), dtype=np.float32)
        obs = {
            "lidar": _spaces.Box(0.0, self.max_range, self.lidar_shape, np.float32),
            "gnss": _spaces.Box(-np.inf, np.inf, (3,), np.float32),
            "imu": _spaces.Box(-np.inf, np.inf, (6,), np.float32),
            "odometry": _spaces.Box(np.array([0.0, -self.STEER_MAX], np.float32),
                                    np.array([self.V_MAX, self.STEER_MAX], np.float32),
                                    dtype=np.float32),
        }
        if self.camera_size is not None:
            w, h = self.camera_size
            obs["camera"] = _spaces.Box(0, 255, (h, w, 3), np.uint8)
        self.observation_space = _spaces.Dict(obs)
        self.world: _sm.World | None = None
        self.world_seed = 0
        self._build_world(0)
        self._state = np.zeros(4)      # x m, y m, yaw rad, speed m/s
        self._steer = 0.0
        self._k = -1                   # steps taken in the episode; -1: needs reset
        self._t = 0.0                  # s, the episode's time
        self._image: NDArray[np.uint8] | None = None  # the camera's newest image (render)
        self._done = True

    # ---- the world ------------------------------------------------------------

    def _build_world(self, seed: int) -> None:
        """(Re)create the World with every mesh, body and sensor; seed keys the noise."""
        if self.world is not None:
            self.world.close()
        self.world_seed = int(seed)
        w = _sm.World(seed=self.world_seed, threads=self.threads, origin=self.ORIGIN,
                      background=(0.45, 0.62, 0.9), ambient=0.6)
        w.light("directional", direction=(-0.4, -0.3, -1.0), intensity=2.6, color=(1.0, 0.97, 0.9))
        span = 2 * (self.course.length / 2 + self.course.radius + self.course.half_width) + 20
        floor = w.shape("plane", size=(span, span, 1.0),
                        material=dict(base_color=(0.32, 0.32, 0.3), reflectance=0.2))
        w.body(floor, static=True, class_id=1)
        cone = w.shape("cone", size=(self.CONE_RADIUS, self.CONE_RADIUS, self.CONE_HEIGHT),
                       segments=16, material=dict(base_color=(0.95, 0.3, 0.02), reflectance=0.7))
        for x, y in self._cones:
            w.body(cone, pose=(float(x), float(y), 0.0), static=True, class_id=2)
        if len(self.obstacles):
            barrel = w.shape("cylinder", size=(self.BARREL_RADIUS, self.BARREL_RADIUS, self.BARREL_HEIGHT),
                             segments=16, material=dict(base_color=(0.1, 0.2, 0.8), reflectance=0.5))
            for x, y in self.obstacles:
                w.body(barrel, pose=(float(x), float(y), 0.0), static=True, class_id=3)
        x0, y0, yaw0 = self.course.point(0.0)
        self.car = w.body(None, pose=_pose(x0, y0, yaw0), static=False, class_id=4)
        hz = self.control_hz
        self.lidar = w.lidar(name="lidar", body=self.car, mount=(0.9, 0.0, 0.4), rate=hz,
                             channels=self.lidar_shape[0], columns=self.lidar_shape[1],
                             elev_min_deg=-15.0, elev_max_deg=15.0, min_range=0.3,
                             max_range=self.max_range,
                             filters=[("range_noise", {"sigma": 0.02}), "range_image"])
        self.gnss = w.gnss(name="gnss", body=self.car, mount=(0.0, 0.0, 1.0), rate=hz,
                           filters=[("gnss_noise", {"sigma": list(self.gnss_sigma)})])
        self.imu = w.imu(name="imu", body=self.car, mount=(0.0, 0.0, 0.3), rate=self.imu_rate,
                         filters=["imu_noise"])
        self.camera: _sm.Sensor | None = None
        size = self.camera_size or ((160, 120) if self.render_mode == "rgb_array" else None)
        if size is not None:
            pitch = 0.12  # rad, nose down
            self.camera = w.camera(name="camera", body=self.car,
                                   mount=((0.3, 0.0, 1.1), (math.cos(pitch / 2), 0.0, math.sin(pitch / 2), 0.0)),
                                   rate=hz, width=size[0], height=size[1], hfov_deg=90.0, samples=1,
                                   filters=["srgb8"])
        self.world = w

    # ---- Gymnasium API --------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, Info]:
        """Start an episode at t = 0; returns (observation, info).

        ``options``: {"s": m, "lateral": m, "heading": rad}: the start's arc
        length along the centre line (default 0, the middle of the first
        straight), its offset from the centre line (positive outwards, as
        info["lateral"]) and its heading error from the course's direction
        (positive to the left); np_random draws the last two otherwise,
        uniform in +-0.5 m and +-0.1 rad."""
        self._begin_reset(seed, options)
        self._live_world().advance(0.0)
        return self._finish_reset()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, Info]:
        """Apply ``action`` for 1 / control_hz s; returns
        (observation, reward, terminated, truncated, info)."""
        t = self._begin_step(action)
        self._live_world().advance(t)
        return self._finish_step()

    def render(self) -> NDArray[np.uint8] | None:
        """The camera's newest image, (H, W, 3) uint8 sRGB, for render_mode
        "rgb_array"; None without a render mode."""
        if self.render_mode is None:
            return None
        return None if self._image is None else self._image.copy()

    def close(self) -> None:
        """Close the World (later calls raise sensim.StateError)."""
        if self.world is not None and not self.world.closed:
            self.world.close()

    def _live_world(self) -> _sm.World:
        if self.world is None:
            raise _sm.StateError("the environment has no World")
        return self.world

    # ---- the halves of reset and step (VectorEnv advances many worlds at once) --

    def _begin_reset(self, seed: int | None, options: dict[str, Any] | None) -> float:
        opts = dict(options or {})
        unknown = set(opts) - {"s", "lateral", "heading"}
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: 's', 'lateral', 'heading'")
        super().reset(seed=seed)
        if seed is not None:
            new_seed = int(seed) % SEED_MOD
        elif self.fresh_noise:
            new_seed = int(self.np_random.integers(SEED_MOD))
        else:
            new_seed = self.world_seed
        if new_seed != self.world_seed or self.world is None or self.world.closed:
            self._build_world(new_seed)
        else:
            self.world.reset()
        lateral = float(opts.get("lateral", self.np_random.uniform(-0.5, 0.5)))
        heading = float(opts.get("heading", self.np_random.uniform(-0.1, 0.1)))
        x, y, yaw = self.course.point(float(opts.get("s", 0.0)), lateral)
        self._state = np.array([x, y, yaw + heading, 0.0])
        self._steer = 0.0
        self._k = 0
        self._progress = 0.0
        self._s, _ = self.course.project(x, y)
        self._hold: Obs = {}
        for key, space in self.observation_space.spaces.items():
            assert space.shape is not None and space.dtype is not None
            self._hold[key] = np.zeros(space.shape, space.dtype)
        self._image = None
        self._push(0.0, 0.0, 0.0, self._state)
        self._t = 0.0
        return 0.0

    def _finish_reset(self) -> tuple[Obs, Info]:
        self._done = False
        obs = self._observe()
        return obs, self._info(False, False, False)

    def _begin_step(self, action: Any) -> float:
        if self._done:
            raise _sm.StateError("step() called before reset() or after the episode ended; call reset()")
        steer, accel = self._check_action(action)
        self._steer = steer
        self._integrate(steer, accel)
        return self._t

    def _finish_step(self) -> tuple[Obs, float, bool, bool, Info]:
        obs = self._observe()
        s, lateral = self.course.project(self._state[0], self._state[1])
        ds = (s - self._s + self.course.perimeter() / 2) % self.course.perimeter() - self.course.perimeter() / 2
        self._s = s
        self._progress += ds
        collision = self._collides()
        off_course = abs(lateral) > self.course.half_width
        goal = self._progress >= self.laps * self.course.perimeter()
        terminated = bool(collision or off_course or goal)
        truncated = bool(self._k >= self.max_episode_steps)
        reward = float(ds - (self.crash_penalty if (collision or off_course) else 0.0))
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, self._info(collision, off_course, goal, lateral)

    # ---- model, sensors, checks -------------------------------------------------

    def _check_action(self, action: Any) -> tuple[float, float]:
        try:
            a = np.asarray(action, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise ValueError(f"action must be 2 numbers [steering rad, acceleration m/s^2]: {e}") from None
        if a.shape != (2,):
            raise ValueError(f"action must have shape (2,) [steering rad, acceleration m/s^2], got shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"action must be finite, got steering={a[0]!r} rad, acceleration={a[1]!r} m/s^2")
        steer, accel = float(a[0]), float(a[1])
        return (min(max(steer, -self.STEER_MAX), self.STEER_MAX),
                min(max(accel, self.ACCEL_MIN), self.ACCEL_MAX))

    def _integrate(self, steer: float, accel: float) -> None:
        """Kinematic bicycle model about the centre of mass (slip angle
        beta = atan(lr / L tan steer)), midpoint rule, one body push per substep."""
        n, hz = self.substeps, self.control_hz
        beta = math.atan(self.LR / self.WHEELBASE * math.tan(steer))
        x, y, yaw, v = self._state
        k = self._k
        for j in range(1, n + 1):
            t = (k * n + j) / (hz * n) if j < n else (k + 1) / hz
            h = 1.0 / (hz * n)
            v1 = min(max(v + accel * h, 0.0), self.V_MAX)
            a_eff = (v1 - v) / h
            vm = 0.5 * (v + v1)
            rate = vm * math.sin(beta) / self.LR
            ym = yaw + 0.5 * rate * h
            x += vm * math.cos(ym + beta) * h
            y += vm * math.sin(ym + beta) * h
            yaw += rate * h
            v = v1
            self._push(t, a_eff, beta, (x, y, yaw, v))
        self._state = np.array([x, y, yaw, v])
        self._k = k + 1
        self._t = (k + 1) / hz

    def _push(self, t: float, accel: float, beta: float, state: Any) -> None:
        x, y, yaw, v = (float(c) for c in state)
        rate = v * math.sin(beta) / self.LR
        c, s = math.cos(yaw + beta), math.sin(yaw + beta)
        self.car.push_state(t, _pose(x, y, yaw), vel=(v * c, v * s, 0.0), ang_vel=(0.0, 0.0, rate),
                            acc=(accel * c - v * rate * s, accel * s + v * rate * c, 0.0),
                            ang_acc=(0.0, 0.0, accel * math.sin(beta) / self.LR))

    def _observe(self) -> Obs:
        hold = self._hold
        f = self.lidar.latest()
        if f is not None:
            hold["lidar"] = np.clip(np.asarray(f.data, dtype=np.float32), 0.0, self.max_range)
        f = self.gnss.latest()
        if f is not None:
            hold["gnss"] = np.asarray(f.record["enu"], dtype=np.float32).copy()
        f = self.imu.latest()
        if f is not None:
            r = f.record
            hold["imu"] = np.concatenate([r["accel"], r["gyro"]]).astype(np.float32)
        hold["odometry"] = np.array([self._state[3], self._steer], dtype=np.float32)
        if self.camera is not None:
            f = self.camera.latest()
            if f is not None:
                self._image = np.ascontiguousarray(np.asarray(f.data)[:, :, :3], dtype=np.uint8)
                if "camera" in hold:
                    hold["camera"] = self._image
        return {k: v.copy() for k, v in hold.items()}

    def _collides(self) -> bool:
        """Does the car's rectangle touch a cone's base circle or a barrel?"""
        x, y, yaw = self._state[:3]
        d = self._obstacle_xy - (x, y)
        c, s = math.cos(yaw), math.sin(yaw)
        lx = d[:, 0] * c + d[:, 1] * s
        ly = -d[:, 0] * s + d[:, 1] * c
        ex = np.maximum(np.abs(lx) - self.CAR_LENGTH / 2, 0.0)
        ey = np.maximum(np.abs(ly) - self.CAR_WIDTH / 2, 0.0)
        return bool(np.any(ex * ex + ey * ey <= self._obstacle_r ** 2))

    def _info(self, collision: bool, off_course: bool, goal: bool, lateral: float | None = None) -> Info:
        x, y, yaw, v = self._state
        if lateral is None:
            lateral = self.course.project(x, y)[1]
        return {"t": self._t, "progress": float(self._progress), "lateral": float(lateral),
                "speed": float(v), "pose": np.array([x, y, yaw]), "collision": bool(collision),
                "off_course": bool(off_course), "goal": bool(goal), "world_seed": self.world_seed}


def _pose(x: float, y: float, yaw: float) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
    """A sensim pose (pos, quat w x y z) at height 0 with heading yaw (rad)."""
    return ((float(x), float(y), 0.0), (math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)))
