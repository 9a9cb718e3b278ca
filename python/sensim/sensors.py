"""The sensor kinds' keyword arguments: names, units and meanings.

Each kind's keys are the keys of its entry in a scenario file
(docs/scenario.md), with units in their names where the C struct would use
radians (``hfov_deg``) and SI otherwise. The tables below document them;
``tests/test_sensors.py`` checks that they list exactly the keys the C
library takes (``sensim.sensor_kind_keys(kind)``), so the keyword arguments
and their docs cannot drift from the library.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, TypeVar

from . import _sensim

_T = TypeVar("_T", bound=type)

SCHEDULE = (
    ("name", "str: the sensor's name (frames, output folders); default the kind, numbered from the second on (camera, camera_2, ...)"),
    ("body", "Body carrying the sensor; None: fixed in the world"),
    ("mount", "pose of the sensor frame in the body frame (X forward, Y left, Z up)"),
    ("rate", "Hz, captures at t_k = phase + k / rate [10]"),
    ("phase", "s, time of capture 0 [0]"),
    ("lag", "s, delivery delay after capture [0]"),
    ("window", "s, collection window ending at the capture; None: the kind's default"),
    ("filters", "sequence of filter names, (name, params dict) pairs or Python callables"),
)

KEYS = {
    "camera": (
        ("width", "px, >= 1 [640]"),
        ("height", "px, >= 1 [480]"),
        ("hfov_deg", "deg in (0, 180), horizontal field of view [90]"),
        ("samples", "rays per pixel (a perfect square is stratified) [4]"),
        ("fx", "px, focal length (give with fy) [from hfov_deg]"),
        ("fy", "px, focal length (give with fx)"),
        ("cx", "px, principal point (with fx, fy) [(width - 1) / 2]"),
        ("cy", "px, principal point (with fx, fy) [(height - 1) / 2]"),
        ("lens", "'pinhole', 'fov', 'brown_conrady', 'kannala_brandt', 'rational', 'division' ['pinhole']"),
        ("dist", "distortion coefficients, OpenCV order (k1 k2 p1 p2 k3 | k1 k2 p1 p2 k3 k4 k5 k6 | k1..k4 | lambda)"),
        ("vignetting", "bool, cos^4 fall-off [False]"),
        ("vignetting_poly", "[a1, a2, a3], extra illumination 1 + a1 r^2 + a2 r^4 + a3 r^6"),
        ("lateral_ca", "[r, g, b], per-channel radial scale (lateral chromatic aberration)"),
        ("exposure_time", "s, per-row exposure (motion blur) [0]"),
        ("line_time", "s between row starts (rolling shutter); 0: global [0]"),
        ("depth_along_ray", "bool: depth along the ray instead of the optical axis [False]"),
        ("max_bounces", "direct: mirror reflections per ray, 0..8; path: scattering events, 0..64 [1]"),
        ("fog_visibility", "m, meteorological visibility (Koschmieder); 0: none [0]"),
        ("f_number", "thin-lens depth of field, N; 0: none [0]"),
        ("aperture", "m, aperture diameter instead of f_number; 0: none [0]"),
        ("focus_distance", "m, distance of the plane in focus (with f_number or aperture)"),
        ("pixel_pitch", "m, sensor pixel size, with f_number [3.45e-6]"),
        ("integrator", "'direct' or 'path' (path tracing, docs/rendering.md) ['direct']"),
    ),
    "lidar": (
        ("preset", "'VLP-16', 'HDL-32E', 'HDL-64E', 'OS1-64', 'OS1-128': datasheet tables"),
        ("pattern", "'spinning' or 'grid' ['spinning']"),
        ("channels", "beams per column, 1..256 [16]"),
        ("elev_min_deg", "deg, lowest channel of a uniform table [-15]"),
        ("elev_max_deg", "deg, highest channel of a uniform table [15]"),
        ("elevations_deg", "deg per channel, in firing order"),
        ("azimuth_offsets_deg", "deg per channel, offset from the column azimuth"),
        ("firing_offsets", "s per channel, firing delay inside a column"),
        ("columns", "azimuth steps per scan [1800]"),
        ("hfov_deg", "deg in (0, 360], azimuth swept [360]"),
        ("start_azimuth_deg", "deg, first column, CCW from +X [-180]"),
        ("clockwise", "bool, spin direction seen from above [False]"),
        ("min_range", "m, blanking [0.1]"),
        ("max_range", "m [100]"),
        ("divergence_deg", "deg, full beam divergence, one number or [h, v] [0]"),
        ("beam_shape", "'circular', 'elliptical', 'rectangular'"),
        ("subrays", "rays per beam over the footprint, 1..1024 [1]"),
        ("returns", "'strongest', 'first', 'last', 'mean', 'dual' ['strongest']"),
        ("range_resolution", "m, hits closer merge into one return [0.1]"),
        ("detection_range", "m, where a reflectance-0.8 target is just detected [100]"),
        ("intensity_bits", "quantisation of intensity, 1..16 [8]"),
        ("extinction", "1/m, atmospheric extinction (two-way) [0]"),
        ("fog_visibility", "m, Koschmieder visibility; 0: none [0]"),
    ),
    "gnss": (
        ("satellites", "nominal mode: satellites reported, 0..99 [10]"),
        ("hdop", "nominal mode: horizontal dilution of precision reported [0.9]"),
        ("vdop", "nominal mode: vertical dilution of precision reported [1.5]"),
        ("mode", "'nominal' or 'satellites' (fix from a simulated GPS constellation) ['nominal']"),
        ("ephemeris", "satellites mode: path of a RINEX 3 navigation file or a YUMA almanac (required)"),
        ("utc_start", "ISO 8601 UTC of world time 0, 'YYYY-MM-DDThh:mm:ssZ' [the file's first toe]"),
        ("leap_seconds", "s, GPS time - UTC, 0..100 [the file's, else 18]"),
        ("max_ephemeris_age", "s, a record is used this close to its toe; 0: its fit interval / 2 [0]"),
        ("elevation_mask_deg", "deg in [0, 90): lower satellites are not tracked [5]"),
        ("visibility", "bool: ray-trace each line of sight against the world [True]"),
        ("multipath", "bool: track a blocked satellite over one specular reflection [True]"),
        ("ionosphere", "bool: Klobuchar delay in the pseudoranges [True]"),
        ("troposphere", "bool: Saastamoinen delay in the pseudoranges [True]"),
        ("correct_ionosphere", "bool: the receiver removes the broadcast Klobuchar model [False]"),
        ("correct_troposphere", "bool: the receiver removes the Saastamoinen model [False]"),
        ("iono_alpha", "[a0, a1, a2, a3], Klobuchar alpha, s/semicircle^n [the file's GPSA]"),
        ("iono_beta", "[b0, b1, b2, b3], Klobuchar beta, s/semicircle^n [the file's GPSB]"),
        ("humidity", "relative humidity of the standard atmosphere, [0, 1] [0.5]"),
        ("range_sigma", "m, white noise on each pseudorange [0.5]"),
        ("range_rate_sigma", "m/s, white noise on each range rate [0.05]"),
        ("reported_sigma", "m, pseudorange sigma of the reported covariance; 0: none [range_sigma]"),
    ),
    "imu": (
        ("earth_rotation", "bool: gyro senses the Earth's rate, accelerometer Coriolis [False]"),
    ),
    "magnetometer": (
        ("mag_model", "'dipole' or 'constant' ['dipole']"),
        ("field_enu", "T, constant field in world ENU"),
        ("field_enu_ut", "uT, constant field in world ENU [(0, 20, -45)]"),
        ("gauss_nt", "nT, dipole Gauss coefficients [g10, g11, h11] [IGRF-13 2020.0]"),
        ("ref_radius", "m, reference radius of the dipole model [6371200]"),
    ),
    "cone": (
        ("theta_deg", "deg in (0, 180), full horizontal angle [90]"),
        ("phi_deg", "deg in (0, 180), full vertical angle [90]"),
        ("length", "m, > 0, reach of the cone [10]"),
        ("method", "'lines', 'exact' or 'rays' ['exact']"),
        ("lines", "lines of the lines method, 2..100000 [10]"),
        ("rays", "rays per axis of the rays method, 2..1024 [65]"),
        ("published_speed", "bool, the published speed-difference method [True]"),
    ),
    "radar": (
        ("preset", "'ARS408-21-far', 'ARS408-21-near': datasheet figures (docs/radar.md)"),
        ("frequency", "Hz, carrier [76.5e9]"),
        ("tx_power", "W, transmitted power [0.01]"),
        ("antenna_gain", "dBi, one-way gain [31.3]"),
        ("losses", "dB, system losses [fit: 10 dBsm at max_range at threshold]"),
        ("noise_figure", "dB [12]"),
        ("bandwidth", "Hz, swept bandwidth: range resolution c / 2B [83.7e6]"),
        ("cpi", "s, coherent processing interval: velocity resolution lambda / 2 cpi [0.0191]"),
        ("hfov_deg", "deg in (0, 180), horizontal field of view [18]"),
        ("vfov_deg", "deg in (0, 180), vertical field of view [14]"),
        ("azimuth_resolution_deg", "deg, azimuth cell [1.6]"),
        ("ray_spacing_deg", "deg, at most azimuth_resolution_deg / 2 [0.2]"),
        ("min_range", "m, blanking [0.2]"),
        ("max_range", "m [250]"),
        ("min_velocity", "m/s, slowest radial velocity reported [-111.1]"),
        ("max_velocity", "m/s, fastest radial velocity reported [55.6]"),
        ("snr_threshold", "dB, detection threshold on a cell's SNR [12]"),
        ("max_bounces", "specular bounces per ray, 1..8 [3]"),
        ("sigma_range", "m, noise on range [0.4]"),
        ("sigma_azimuth_deg", "deg, noise on azimuth [0.1]"),
        ("sigma_elevation_deg", "deg, noise on elevation [1]"),
        ("sigma_velocity", "m/s, noise on radial velocity [0.0278]"),
        ("beam_width_az_deg", "deg, one-way 3 dB azimuth beam width, 0 uniform [hfov_deg]"),
        ("beam_width_el_deg", "deg, one-way 3 dB elevation beam width, 0 uniform [vfov_deg]"),
        ("output_mode", "'detections', 'adc' (radar_cube) or 'range_doppler' (radar_rd) ['detections']"),
        ("sample_rate", "Hz, complex ADC rate, >= 2 S max_range / c [10e6]"),
        ("samples", "ADC samples per chirp [256]"),
        ("chirps", "chirp loops per frame (Doppler bins) [256]"),
        ("chirp_slope", "Hz/s; 0: bandwidth sample_rate / samples [0]"),
        ("chirp_interval", "s between chirps; 0: cpi / (chirps tx) [0]"),
        ("tx", "transmitters, TDM-MIMO [2]"),
        ("rx", "receive channels [4]"),
        ("fft_window", "'rect', 'hann', 'hamming', 'blackman': range and Doppler FFT window ['hann']"),
    ),
}

SUMMARY = {
    "camera": "A camera: rgb_f32 linear radiance with depth, label and normal planes "
              "(docs/camera_pipeline.md for the filters that make a real camera's output).",
    "lidar": "A time-of-flight lidar, spinning or grid: beams (add the 'points' filter for a "
             "cloud; docs/lidar.md).",
    "gnss": "A GNSS receiver: one fix per frame, nominal or computed from a simulated GPS "
            "constellation (mode='satellites'; docs/gnss.md for both and the error filters).",
    "imu": "An IMU: specific force and angular rate per frame (the 'imu_noise' filter adds "
           "its errors, docs/imu.md).",
    "magnetometer": "A magnetometer: the magnetic flux density in the sensor frame, T.",
    "cone": "A cone (radar-like) sensor: the nearest object in its field of view (docs/cone.md).",
    "radar": "A ray-traced 77 GHz automotive radar: detections with range, angles, radial "
             "velocity, RCS and SNR (docs/radar.md).",
}


def _doc(kind: str) -> str:
    lines = [SUMMARY[kind], "", "Schedule (every kind):"]
    lines += ["    %s: %s" % kv for kv in SCHEDULE]
    lines += ["", "The %s's own keys (docs/scenario.md; None or absent: the default "
              "in brackets):" % kind]
    lines += ["    %s: %s" % kv for kv in KEYS[kind]]
    lines += ["", "Returns the new Sensor. Unknown keys raise sensim.ParseError with a "
              "suggestion; values out of range raise sensim.InvalidArgument."]
    return "\n".join(lines)


def _make(kind: str) -> Callable[..., _sensim.Sensor]:
    def create(self: _sensim.World, name: str | None = None, **kwargs: Any) -> _sensim.Sensor:
        return self.add_sensor(kind, name=name, **kwargs)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
              inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)]
    defaults = {"body": None, "mount": None, "rate": 10.0, "phase": 0.0, "lag": 0.0,
                "window": None, "filters": ()}
    for key, _ in SCHEDULE[1:]:
        params.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY,
                                        default=defaults[key]))
    for key, _ in KEYS[kind]:
        params.append(inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=None))
    create.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    create.__name__ = create.__qualname__ = kind
    create.__doc__ = _doc(kind)
    return create


def install(cls: _T) -> _T:
    """Give World one creation method per sensor kind (camera, lidar, ...)."""
    missing = set(_sensim.sensor_kinds()) - set(KEYS)
    if missing:
        raise ImportError("sensim: no keyword table for sensor kinds %s" % sorted(missing))
    for kind in KEYS:
        setattr(cls, kind, _make(kind))
    return cls
