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
        cloud = lidar.poll().data     # structured array: x y z intensity time ring return class_id instance_id
"""

from ._sensim import (  # noqa: F401  (the public API)
    Error, InvalidArgument, OutOfMemory, NotFound, IOError, ParseError, PayloadTypeError,
    StateError, BackendError, FilterError,
    Pose, Frame, Body, Mesh, Texture, Tile, Sensor, FilterChain,
    filter_names, lidar_presets, radar_presets, sensor_kinds, sensor_kind_keys, payload_names, payload_info,
    dtype, quat_from_ypr, quat_from_axis_angle, quat_rotate, quat_slerp, pose_compose,
    pose_apply, advance_all, status_str, suggest,
    # scenarios and writers (python/src/scenario.c, io.c)
    Scenario, CsvWriter, write_png, write_npy, write_pcd, write_ply, read_png, mkdirs, image_stats_pngs,
    nmea_gga, nmea_rmc, nmea_gsa, nmea_append, nmea_checksum, utc_from_civil,
    utc_parse_iso8601, geodetic_to_ecef, ecef_to_geodetic, enu_to_geodetic, geodetic_to_enu,
    NMEA_DEFAULT_UTC_START,
    # the evaluation tools (python/src/tools*.c; sensim.tools adds Frame conveniences)
    NoiseFit, EKF, ImageSetStats, DistortMap, Plot, Sweep,
    allan_deviation, allan_log_factors, allan_fit_lines, wiener_entropy, wasserstein1,
    noise_calib_fit, noise_calib_fit_moments, noise_calib_pngs, noise_calib_scenario,
    table_read, ablation_names, ablation_edit, ablate_run, published, vepd_run_metrics, vepd,
    vepd_run_read, vepd_run_write, vepd_runs_read_dir, ekf_run, vepd_experiment,
    vepd_simulate_run, image_moments, augment_noise, augment_cfa, augment_mosaic,
    gray_world_gains, augment_gains, augment_match_stats, list_pngs, image_write_png,
    colormap_viridis, label_color, depth_preview, depth_preview_png, label_preview,
    label_preview_png, contact_sheet, birdseye_figure, birdseye_figure_png,
    # ROS 2 recordings (python/src/record.c, docs/recording.md)
    Recorder, write_camera_info_yaml, tum_append,
)
from .world import World  # noqa: F401
from . import env, spaces, tools, vector  # noqa: F401,E402


# The public API (also what `from sensim import *` gives, and what type
# checkers take as re-exported).
__all__ = [
    "Error", "InvalidArgument", "OutOfMemory", "NotFound", "IOError", "ParseError",
    "PayloadTypeError", "StateError", "BackendError", "FilterError", "Pose", "Frame", "Body",
    "Mesh", "Texture", "Tile", "Sensor", "FilterChain", "filter_names", "lidar_presets",
    "radar_presets", "sensor_kinds", "sensor_kind_keys", "payload_names", "payload_info",
    "dtype", "quat_from_ypr", "quat_from_axis_angle", "quat_rotate", "quat_slerp",
    "pose_compose", "pose_apply", "advance_all", "status_str", "suggest", "Scenario",
    "CsvWriter", "write_png", "write_npy", "write_pcd", "write_ply", "read_png", "mkdirs",
    "image_stats_pngs", "nmea_gga", "nmea_rmc", "nmea_gsa", "nmea_append", "nmea_checksum",
    "utc_from_civil", "utc_parse_iso8601", "geodetic_to_ecef", "ecef_to_geodetic",
    "enu_to_geodetic", "geodetic_to_enu", "NMEA_DEFAULT_UTC_START", "NoiseFit", "EKF",
    "ImageSetStats", "DistortMap", "Plot", "Sweep", "allan_deviation", "allan_log_factors",
    "allan_fit_lines", "wiener_entropy", "wasserstein1", "noise_calib_fit",
    "noise_calib_fit_moments", "noise_calib_pngs", "noise_calib_scenario", "table_read",
    "ablation_names", "ablation_edit", "ablate_run", "published", "vepd_run_metrics", "vepd",
    "vepd_run_read", "vepd_run_write", "vepd_runs_read_dir", "ekf_run", "vepd_experiment",
    "vepd_simulate_run", "image_moments", "augment_noise", "augment_cfa", "augment_mosaic",
    "gray_world_gains", "augment_gains", "augment_match_stats", "list_pngs", "image_write_png",
    "colormap_viridis", "label_color", "depth_preview", "depth_preview_png", "label_preview",
    "label_preview_png", "contact_sheet", "birdseye_figure", "birdseye_figure_png", "Recorder",
    "write_camera_info_yaml", "tum_append", "World", "env", "spaces", "tools", "vector",
]

__version__ = "0.1.0"
