"""sensim: sensor simulation for robotics on the CPU, from Python.

A World holds meshes, lights, bodies and sensors; the host pushes body
states and advances the clock; sensors deliver Frames whose arrays are
NumPy views of the library's memory (no copy). See docs/python.md.

    import sensim
    with sensim.World(seed=7) as w:
        ground = w.shape("plane", (50, 50, 0))
        w.body(ground, static=True)
        car = w.body()
        lidar = w.lidar(body=car, mount=(0, 0, 1.8), preset="VLP-16", filters=["points"])
        for k in range(11):
            t = k * 0.01
            car.push_state(t, ((t, 0, 0), (1, 0, 0, 0)))
            w.advance(t)
        cloud = lidar.poll().data     # structured array: x y z intensity time ring return
"""

from ._sensim import (  # noqa: F401  (the public API)
    Error, InvalidArgument, OutOfMemory, NotFound, IOError, ParseError, PayloadTypeError,
    StateError, BackendError,
    Pose, Frame, Body, Mesh, Texture, Sensor, FilterChain,
    filter_names, lidar_presets, sensor_kinds, sensor_kind_keys, payload_names, payload_info,
    dtype, quat_from_ypr, quat_from_axis_angle, quat_rotate, quat_slerp, pose_compose,
    pose_apply, advance_all, status_str, suggest,
)
from .world import World  # noqa: F401

__version__ = "0.1.0"
