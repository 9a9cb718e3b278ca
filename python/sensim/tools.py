"""sensim.tools: conveniences over the evaluation tools of the extension.

The tools themselves (allan_deviation, noise_calib_fit, vepd, ekf_run,
ImageSetStats, the augmentations, previews, plots, ...) are functions and
types of ``sensim``; this module adds what takes sensim's own objects
(Frames of a sensor) instead of bare arrays.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
from numpy.typing import NDArray

from . import _sensim

__all__ = ["imu_allan", "frame_stack"]


def imu_allan(frames: Iterable[_sensim.Frame], per_decade: int = 10) -> dict[str, Any]:
    """Allan deviation of an IMU recording, per axis, with its noise lines.

    frames: a sequence of imu Frames of one sensor, in order, at a constant
    rate (a static recording: hours of it for the random-walk line).
    Returns a dict:
      tau          averaging times, s (nm,)
      gyro, accel  Allan deviation per axis, rad/s and m/s^2 (nm, 3)
      gyro_lines, accel_lines
                   per axis, allan_fit_lines' dict: n (angle / velocity
                   random walk, rad/s/sqrt(Hz) and m/s^2/sqrt(Hz)) and k
                   (rate random walk, rad/s^2/sqrt(Hz) and m/s^3/sqrt(Hz)),
                   NaN where the curve has no such region.
    """
    frames = list(frames)
    if len(frames) < 3:
        raise ValueError("imu_allan: at least 3 imu frames")
    t = np.array([f.t_capture for f in frames], dtype=np.float64)
    dt = np.diff(t)
    tau0 = float(np.median(dt))
    if not tau0 > 0 or np.max(np.abs(dt - tau0)) > 1e-6 * tau0 + 1e-12:
        raise ValueError("imu_allan: the frames must be evenly spaced in time, in order")
    recs = [f.record for f in frames]  # PayloadTypeError for a frame that is not one record
    gyro = np.array([r["gyro"] for r in recs], dtype=np.float64)
    accel = np.array([r["accel"] for r in recs], dtype=np.float64)
    g = _sensim.allan_deviation(gyro, tau0, per_decade=per_decade)
    a = _sensim.allan_deviation(accel, tau0, ms=g["m"])
    return {
        "tau": g["tau"],
        "gyro": g["adev"],
        "accel": a["adev"],
        "gyro_lines": [_sensim.allan_fit_lines(g["tau"], g["adev"][:, i]) for i in range(3)],
        "accel_lines": [_sensim.allan_fit_lines(a["tau"], a["adev"][:, i]) for i in range(3)],
    }


def frame_stack(frames: Iterable[_sensim.Frame]) -> NDArray[Any]:
    """Stack image Frames of one camera into an (N, H, W[, C]) float array.

    For noise_calib_fit and ImageSetStats: float payloads (rgb_f32,
    gray_f32, raw_f32) as they are; 8- and 16-bit payloads scaled to [0, 1]
    by their full scale, as noise calibration of a scenario's camera does.
    """
    frames = list(frames)
    if not frames:
        raise ValueError("frame_stack: no frames")
    arrays = []
    for f in frames:
        d = f.data
        if d is None or d.dtype.names:
            e = _sensim.PayloadTypeError("frame_stack: %s frames are not images" % f.type)
            e.status = -6  # SENSIM_ETYPE, as the extension's own errors carry it
            raise e
        d = np.asarray(d)
        if d.dtype == np.uint8:
            d = d.astype(np.float32) / 255.0
        elif d.dtype == np.uint16:
            d = d.astype(np.float32) / 65535.0
        arrays.append(d)
    if any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("frame_stack: the frames differ in size")
    return np.stack(arrays)
