"""Sensors: creation from keyword arguments, filters, polling, callbacks,
counters, and physics read back through Python."""

import inspect
import math
import os

import numpy as np
import pytest

import sensim
from conftest import CAM, G, LIDAR, drive, steps

SCHEDULE_KEYS = ["name", "body", "mount", "rate", "phase", "lag", "window", "filters"]

KINDS = {  # kind -> (keyword arguments, raw payload)
    "camera": (dict(CAM, hfov_deg=70, max_bounces=0), "rgb_f32"),
    "lidar": (dict(LIDAR, max_range=50.0, returns="dual"), "beams"),
    "gnss": (dict(satellites=7, hdop=1.2), "gnss"),
    "imu": (dict(earth_rotation=True), "imu"),
    "magnetometer": (dict(mag_model="constant", field_enu_ut=(0, 20, -45)), "mag"),
    "cone": (dict(theta_deg=60, length=20, method="rays", rays=9), "detection"),
    "radar": (dict(preset="ARS408-21-near", cpi=0.05, ray_spacing_deg=1.0), "radar"),
}


def test_kinds_are_the_library_kinds():
    assert sorted(sensim.sensor_kinds()) == sorted(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_from_keywords(world, kind):
    w, car = world
    kw, payload = KINDS[kind]
    s = getattr(w, kind)(body=car, mount=(0, 0, 1), rate=20.0, phase=0.01, lag=0.02, **kw)
    assert s.name == kind and s.kind == kind and s.output_type == payload
    p = s.params
    assert p["name"] == kind and p["rate"] == 20.0 and p["phase"] == 0.01 and p["lag"] == 0.02
    assert p["mount"] == sensim.Pose(((0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0)))
    # The kind's default window (include/sensim/<kind>.h): 0 or one period at 20 Hz.
    # (docs/scenario.md says one period for the magnetometer; magnetometer.h and
    # the library say 0.)
    instant = ("camera", "gnss", "magnetometer")
    assert p["window"] == pytest.approx(0.0 if kind in instant else 0.05)
    assert w.sensor(kind) is s and w.sensors == [s] and s.id == 0
    drive(w, car, [0.0, 0.01, 0.02, 0.03])
    f = s.poll()
    assert f is not None and f.type == payload and f.index == 0
    assert f.t_capture == pytest.approx(0.01) and f.t_deliver == pytest.approx(0.03)
    assert f.sensor == kind and f.sensor_id == s.id and f.window == p["window"]
    assert f.pose.pos == pytest.approx((0.0, 0.0, 1.0))
    assert s.poll() is None  # the next capture (t = 0.06) is not due


def test_kind_specific_values_reach_the_library(world):
    w, car = world
    g = w.gnss(body=car, satellites=7, hdop=1.2, vdop=2.0)
    lid = w.lidar(body=car, mount=(0, 0, 1.8), returns="dual", **LIDAR)
    mag = w.magnetometer(body=car, mag_model="constant", field_enu_ut=(1, 20, -45))
    drive(w, car, [0.0, 0.1])
    r = g.poll().record
    assert (r["satellites"], r["hdop"], r["vdop"]) == (7, 1.2, 2.0)
    assert r["pdop"] == pytest.approx(math.hypot(1.2, 2.0))
    b = lid.poll()
    assert b.returns == 2 and b.count == 16 * 36 * 2
    assert np.allclose(mag.poll().record["field"], np.array([1, 20, -45]) * 1e-6, atol=1e-12)


def test_radar_detects_a_metal_box_face_with_its_dtype():
    # docs/radar.md: a metal box whose near face is 20 m ahead; the near
    # scan resolves range to 0.39 m; noise off.
    with sensim.World(threads=0) as w:
        box = w.shape("box", size=(1, 1, 1), material=dict(radar_specular=1, radar_diffuse=0))
        w.body(mesh=box, pose=((20.5, 0, 0), (1, 0, 0, 0)), instance_id=4, static=True)
        r = w.radar(preset="ARS408-21-near", hfov_deg=20, ray_spacing_deg=0.05, sigma_range=0,
                    sigma_azimuth_deg=0, sigma_elevation_deg=0, sigma_velocity=0)
        w.advance(0.0)
        f = r.poll()
        assert f.type == "radar" and f.count >= 1
        d = f.data
        assert d.dtype == sensim.dtype("radar")
        assert set(d.dtype.names) >= {"range", "azimuth", "elevation", "radial_velocity", "point",
                                      "rcs", "power", "snr", "instance_id", "class_id", "cells"}
        assert np.all(np.abs(d["range"] - 20.0) < 0.39)
        assert np.all(d["radial_velocity"] == 0) and np.all(d["instance_id"] == 4)
        assert np.all(d["snr"] >= 12.0)
    assert "ARS408-21-far" in sensim.radar_presets()


def test_radar_raw_fmcw_frames_are_complex_arrays(tmp_path):
    # docs/radar.md, "Raw FMCW": the cube (chirps, channels, samples) and,
    # after "radar_fft", the range-Doppler map (channels, doppler, range)
    # whose peak is the box face's range bin at 0 m/s.
    with sensim.World(threads=0) as w:
        box = w.shape("box", size=(1, 1, 1), material=dict(radar_specular=1, radar_diffuse=0))
        w.body(mesh=box, pose=((20.5, 0, 0), (1, 0, 0, 0)), static=True)
        keys = dict(preset="ARS408-21-near", hfov_deg=20, ray_spacing_deg=0.5, samples=64, chirps=16, max_range=24,
                    sample_rate=20e6)
        cube = w.radar(name="cube", output_mode="adc", **keys)
        rd = w.radar(name="rd", output_mode="adc", filters=["radar_fft"], **keys)
        w.advance(0.0)
        c, m = cube.poll(), rd.poll()
        assert c.type == "radar_cube" and m.type == "radar_rd"
        assert c.data.dtype == np.complex64 and c.data.shape == (16, 8, 64)
        assert m.data.shape == (8, 16, 64) and m.fmcw["window"] == "hann"
        power = (np.abs(m.data) ** 2).sum(axis=0)
        d, r = np.unravel_index(np.argmax(power), power.shape)
        assert d == 8 and abs(r * m.fmcw["range_bin"] - 20.0) < m.fmcw["range_bin"]
        with pytest.raises(sensim.Error):
            w.radar(name="bad", output_mode="adc", filters=["points"], **keys)
        # .npy files numpy.load reads back as the same arrays
        sensim.write_npy(str(tmp_path / "cube.npy"), c)
        sensim.write_npy(str(tmp_path / "rd.npy"), m)
        assert np.array_equal(np.load(tmp_path / "cube.npy"), c.data)
        assert np.array_equal(np.load(tmp_path / "rd.npy"), m.data)
        sensim.write_png(str(tmp_path / "rd.png"), m)
        assert sensim.read_png(str(tmp_path / "rd.png")).shape == (16, 64, 3)


def test_sensor_lookup_and_did_you_mean(world):
    w, car = world
    a = w.imu(name="imu_front", body=car)
    b = w.gnss(name="antenna", body=car)
    assert w.sensor("imu_front") is a and w.sensor("antenna") is b
    assert w.sensors == [a, b] and (a.id, b.id) == (0, 1)
    with pytest.raises(sensim.NotFound) as ei:
        w.sensor("imu_frnt")
    assert "did you mean 'imu_front'" in str(ei.value)
    with pytest.raises(sensim.NotFound) as ei:
        w.sensor("zzzzzzzz")
    assert "did you mean" not in str(ei.value)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_signature_lists_exactly_the_kind_keys(kind):
    sig = inspect.signature(getattr(sensim.World, kind))
    names = list(sig.parameters)
    assert names[0] == "self"
    own = [n for n in names[1:] if n not in SCHEDULE_KEYS]
    assert [n for n in names[1:] if n in SCHEDULE_KEYS] == SCHEDULE_KEYS
    assert own == list(sensim.sensor_kind_keys(kind))
    for n in names[2:]:
        assert sig.parameters[n].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["rate"].default == 10.0
    assert all(sig.parameters[k].default is None for k in own)
    doc = getattr(sensim.World, kind).__doc__
    assert all(k in doc for k in own)


def test_sensor_names_are_unique(world):
    w, car = world
    w.imu(body=car)
    # A name given twice is refused; unnamed sensors are numbered.
    with pytest.raises(sensim.InvalidArgument, match="already exists"):
        w.imu(name="imu", body=car)
    w.imu(name="imu2", body=car)
    w.imu(body=car)
    w.add_sensor("imu", body=car)
    w.imu(name="imu_4", body=car)
    w.imu(body=car)
    assert [s.name for s in w.sensors] == ["imu", "imu2", "imu_2", "imu_3", "imu_4", "imu_5"]


def test_none_keyword_means_default(world):
    w, car = world
    cam = w.camera(body=car, width=32, height=None, hfov_deg=None, samples=1)
    drive(w, car, [0.0])
    f = cam.poll()
    assert (f.width, f.height) == (32, 480)


def test_builtin_filter_with_dict_params(world):
    """srgb8 with exposure 2 encodes twice the radiance: check against the
    sRGB curve applied to the radiance the chain had before it."""
    w, car = world
    seen = []
    cam = w.camera(body=car, mount=(0, 0, 1.5),
                   filters=[lambda f: seen.append(f.data.copy()), ("srgb8", {"exposure": 2.0})],
                   **CAM)
    assert cam.output_type == "rgba8"
    drive(w, car, [0.0])
    f = cam.poll()
    assert f.type == "rgba8"
    x = 2.0 * seen[0].astype(np.float64)
    enc = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(np.maximum(x, 0), 1 / 2.4) - 0.055)
    expect = np.rint(255 * np.clip(enc, 0, 1)).astype(int)
    diff = np.abs(f.data[..., :3].astype(int) - expect)
    assert diff.max() <= 1 and np.mean(diff == 0) > 0.99
    # And exposure 2 is brighter than exposure 1 where nothing saturates.
    x1 = seen[0].astype(np.float64)
    enc1 = np.rint(255 * np.clip(np.where(x1 <= 0.0031308, 12.92 * x1,
                                          1.055 * np.power(np.maximum(x1, 0), 1 / 2.4) - 0.055),
                                 0, 1))
    assert np.all(expect >= enc1) and np.any(expect > enc1)


@pytest.mark.parametrize("threads", [0, 2])
def test_python_filter_in_place(make_world, threads):
    w, car = make_world(threads=threads)
    calls, before = [], {}

    def halve(frame):
        calls.append((frame.type, frame.index, frame.sensor_id))
        before[frame.index] = frame.data.copy()
        frame.data[...] *= 0.5

    cam = w.camera(body=car, mount=(0, 0, 1.5), rate=10, **CAM)
    cam.add_filter(halve)
    assert cam.output_type == "rgb_f32"
    drive(w, car, steps(2, 0.1))
    fs = cam.poll_all()
    assert [f.index for f in fs] == [0, 1]
    assert sorted(calls) == [("rgb_f32", 0, cam.id), ("rgb_f32", 1, cam.id)]
    for f in fs:
        assert np.array_equal(f.data, before[f.index] * np.float32(0.5))
        assert f.data.max() > 0


def test_python_filter_declared_payloads(world):
    w, car = world
    lid = w.lidar(body=car, mount=(0, 0, 1.8), **LIDAR)
    counted = []
    lid.add_filter("points")
    lid.add_filter(lambda f: counted.append(len(f.data)), input="points", name="count")
    with pytest.raises(sensim.PayloadTypeError):
        lid.add_filter(lambda f: None, input="beams")
    drive(w, car, [0.0, 0.1])
    fs = lid.poll_all()
    assert counted == [f.count for f in fs] and len(fs) == 2
    assert all(f.type == "points" for f in fs)


def test_callbacks_receive_every_frame_in_order(world):
    w, car = world
    imu = w.imu(body=car, rate=200)
    gnss = w.gnss(body=car, rate=50, lag=0.01)
    got = []
    imu.set_callback(lambda s, f: got.append((s.name, f.index, f.t_deliver)))
    gnss.set_callback(lambda s, f: got.append((s.name, f.index, f.t_deliver)))
    drive(w, car, steps(21, 0.005))
    assert imu.poll() is None and gnss.poll() is None
    assert [i for n, i, _ in got if n == "imu"] == list(range(21))
    assert [i for n, i, _ in got if n == "gnss"] == list(range(5))
    # Delivery order: by t_deliver, then sensor id.
    keys = [(t, 0 if n == "imu" else 1) for n, _, t in got]
    assert keys == sorted(keys)
    assert imu.frames_delivered == 21 and gnss.frames_delivered == 5
    # Back to polling.
    imu.set_callback(None)
    drive(w, car, [0.105])
    assert imu.poll().index == 21


def test_poll_all_latest_and_counters(world):
    w, car = world
    imu = w.imu(body=car, rate=100)
    assert (imu.frames_captured, imu.frames_delivered, imu.frames_queued) == (0, 0, 0)
    drive(w, car, steps(10, 0.01))
    assert imu.frames_captured == 10 and imu.frames_delivered == 10 and imu.frames_queued == 10
    assert imu.frames_skipped == 0
    fs = imu.poll_all()
    assert [f.index for f in fs] == list(range(10)) and imu.frames_queued == 0
    assert imu.poll_all() == [] and imu.latest() is None
    drive(w, car, [0.1, 0.11, 0.12])
    last = imu.latest()
    assert last.index == 12 and imu.frames_queued == 0 and imu.poll() is None
    assert imu.frames_delivered == 13


def test_lag_delays_delivery(world):
    w, car = world
    g = w.gnss(body=car, rate=10, lag=0.25)
    drive(w, car, steps(3, 0.1))
    assert g.poll() is None and g.frames_captured == 3 and g.frames_delivered == 0
    drive(w, car, [0.25])
    f = g.poll()
    assert f.index == 0 and f.t_capture == 0.0 and f.t_deliver == 0.25


def test_set_overrun(world):
    w, car = world
    cam = w.camera(body=car, rate=100, **CAM)
    cam.set_overrun(1, "wait")
    cam.set_overrun(max_inflight=2, policy="skip")
    cam.set_overrun(0)  # keeps the bound
    drive(w, car, steps(5, 0.01))
    fs = cam.poll_all()
    assert cam.frames_captured + cam.frames_skipped == 5
    assert len(fs) == cam.frames_delivered == cam.frames_captured


# ---- physics through Python -------------------------------------------------------


def test_imu_at_rest_reads_plus_g(make_world):
    w, car = make_world(box=False)
    level = w.imu(name="level", body=car, rate=100)
    rolled = w.imu(name="rolled", body=car, rate=100,
                   mount=((0, 0, 0), sensim.quat_from_ypr(0, 0, math.pi / 2)))
    pose = ((3, -2, 1), sensim.quat_from_ypr(0.7, 0, 0))
    drive(w, car, steps(11, 0.01), pose=pose)
    for f in level.poll_all():
        assert np.abs(f.record["accel"] - (0, 0, G)).max() < 1e-9
        assert np.abs(f.record["gyro"]).max() < 1e-12
    # Rolled +90 deg about X: the sensor's +Y points up.
    f = rolled.poll_all()[-1]
    assert np.abs(f.record["accel"] - (0, G, 0)).max() < 1e-9


def test_imu_reads_pushed_acceleration(make_world):
    w, car = make_world(box=False)
    imu = w.imu(body=car, rate=100)
    for t in steps(11, 0.01):
        car.push_state(t, ((0.5 * t * t, 0, 0), (1, 0, 0, 0)), vel=(t, 0, 0), ang_vel=(0, 0, 0.3),
                       acc=(1.0, 0, 0), ang_acc=(0, 0, 0))
        w.advance(t)
    f = imu.poll_all()[-1]
    assert np.allclose(f.record["accel"], (1.0, 0, G), atol=1e-9)
    assert np.allclose(f.record["gyro"], (0, 0, 0.3), atol=1e-12)


def test_lidar_range_to_a_wall():
    w = sensim.World(seed=1)
    try:
        wall = w.shape("box", (0.2, 40, 20))
        w.body(wall, pose=(10.1, 0, 0), static=True)   # its front face at x = 10 m
        car = w.body()
        res = 0.01
        lid = w.lidar(body=car, mount=(0, 0, 1), channels=1, elevations_deg=[0], columns=9,
                      hfov_deg=40, start_azimuth_deg=-20, range_resolution=res)
        drive(w, car, [0.0, 0.1])
        b = lid.poll().data
        assert len(b) == 9 and np.all(b["range"] > 0)
        assert np.all(np.abs(b["azimuth"]) <= math.radians(20) + 1e-6)
        # The wall is 10 m ahead: range = 10 / cos(azimuth).
        assert np.all(np.abs(b["range"] * np.cos(b["azimuth"]) - 10.0) <= res)
        assert np.all(np.abs(b["range"] - 10.0 / np.cos(b["azimuth"])) <= res)
    finally:
        w.close()


def test_gnss_enu_is_the_pushed_position(make_world):
    w, car = make_world(origin=(48.1, 11.5, 520.0))
    g = w.gnss(body=car, mount=(0.5, 0, 0.2), rate=10)
    yaw90 = sensim.quat_from_ypr(math.pi / 2, 0, 0)
    drive(w, car, steps(3, 0.1), pose=((3, -2, 1.5), yaw90))
    for f in g.poll_all():
        r = f.record
        # The antenna sits 0.5 m ahead of the car, which faces +Y (north).
        assert np.abs(r["enu"] - (3, -1.5, 1.7)).max() < 1e-9
        assert np.abs(r["vel_enu"]).max() < 1e-9
        assert r["fix_type"] == 1 and tuple(r["origin"]) == (48.1, 11.5, 520.0)
        assert r["lat"] == pytest.approx(48.1 - 1.5 / 111_200, abs=2e-6)
        assert r["height"] == pytest.approx(521.7, abs=1e-3)


def test_gnss_moving_velocity(make_world):
    w, car = make_world(box=False)
    g = w.gnss(body=car, rate=10)
    drive(w, car, steps(3, 0.1), moving=lambda t: (((2 * t, 0, 0), (1, 0, 0, 0)), (2, 0, 0)))
    r = g.poll_all()[-1].record
    assert r["enu"] == pytest.approx((0.4, 0, 0), abs=1e-12)
    assert r["vel_enu"] == pytest.approx((2, 0, 0), abs=1e-12)
    assert r["speed"] == pytest.approx(2.0) and r["course"] == pytest.approx(90.0)


def test_gnss_satellites_mode_from_keywords(make_world):
    # The satellites mode from Python's keywords (the scenario keys): with
    # no errors the least-squares fix is the antenna, and the DOPs and the
    # satellite count are the constellation's (docs/gnss.md).
    eph = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "gnss",
                       "brdc1820.10_0000_gps.rnx")
    w, car = make_world(box=False, origin=(47.3769, 8.5417, 408.0))
    g = w.gnss(body=car, mount=(0.5, 0, 1.5), rate=10, mode="satellites", ephemeris=eph,
               utc_start="2010-07-01T00:30:00Z", elevation_mask_deg=10, range_sigma=0,
               range_rate_sigma=0, troposphere=False, iono_alpha=[1e-8, 0, 0, 0],
               iono_beta=[9e4, 0, 0, 0], correct_ionosphere=True)
    drive(w, car, steps(3, 0.1), pose=((3, -2, 0), (1, 0, 0, 0)))
    for f in g.poll_all():
        r = f.record
        assert r["fix_type"] == 1 and 6 <= r["satellites"] <= 12
        assert np.abs(r["enu"] - (3.5, -2, 1.5)).max() < 1e-3
        assert 0.5 < r["hdop"] < 3 and r["pdop"] == pytest.approx(math.hypot(r["hdop"], r["vdop"]))
    with pytest.raises(sensim.Error):
        w.gnss(name="bad", mode="satellites", ephemeris=eph, hdop=1.0)


def test_camera_depth_over_a_plane(make_world):
    w, car = make_world(box=False)
    h, W, H, hfov = 2.0, 64, 48, 60.0
    down = sensim.quat_from_ypr(0, math.pi / 2, 0)   # positive pitch turns +X down
    axis = w.camera(name="axis", body=car, mount=((0, 0, h), down), hfov_deg=hfov, **CAM)
    ray = w.camera(name="ray", body=car, mount=((0, 0, h), down), hfov_deg=hfov,
                   depth_along_ray=True, **CAM)
    drive(w, car, [0.0])
    fa, fr = axis.poll(), ray.poll()
    # Along the optical axis every pixel sees the plane at h.
    assert np.abs(fa.depth - h).max() < 1e-5
    # Along the ray: h / cos(angle off the axis), within half a pixel of jitter.
    fx = (W / 2) / math.tan(math.radians(hfov) / 2)
    u, v = np.meshgrid(np.arange(W), np.arange(H))
    expect = h * np.sqrt(1 + ((u - (W - 1) / 2) / fx) ** 2 + ((v - (H - 1) / 2) / fx) ** 2)
    assert np.abs(fr.depth - expect).max() < 0.75 * h / fx
    assert fr.depth[0, 0] > h + 0.3        # far from the axis-depth answer in the corners
    # Everything seen is the ground (class 1), normals point back up at the camera.
    assert np.all(fa.labels["class_id"] == 1)
    assert np.allclose(fa.normals.reshape(-1, 3) @ np.array([-1.0, 0, 0]), 1.0, atol=1e-4)
