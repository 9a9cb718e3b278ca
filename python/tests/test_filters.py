"""Filters: built-ins by name with dict (or JSON) parameters, Python
callables, payload checks, standalone FilterChain."""

import numpy as np
import pytest

import sensim
from conftest import CAM, G, LIDAR, drive


def test_filter_names_and_presets():
    names = sensim.filter_names()
    for n in ("srgb8", "depth", "labels", "points", "organized", "range_image", "birdseye",
              "image_noise", "range_noise", "gnss_noise", "imu_noise", "mag_noise"):
        assert n in names
    assert len(set(names)) == len(names)
    assert "VLP-16" in sensim.lidar_presets()
    assert sensim.suggest("srbg8", names) == "srgb8"
    assert sensim.suggest("qqqqqq", names) is None


def test_filter_forms_in_the_filters_list(world):
    w, car = world
    marks = []
    cam = w.camera(body=car, mount=(0, 0, 1.5),
                   filters=["image_noise", ("image_noise", {"sigma": 0.0}),
                            lambda f: marks.append(f.type), ("srgb8", '{"exposure": 1.5}')],
                   **CAM)
    assert cam.output_type == "rgba8"
    drive(w, car, [0.0])
    assert cam.poll().type == "rgba8" and marks == ["rgb_f32"]


def test_numpy_values_as_params(world):
    w, car = world
    g = w.gnss(body=car, filters=[("gnss_noise", {"sigma": np.array([0.0, 0.0, 0.0]),
                                                  "mean": np.array([1.0, -2.0, np.float32(0.5)])})])
    cam = w.camera(body=car, **CAM)
    cam.add_filter("srgb8", {"exposure": np.float32(2.0)})
    drive(w, car, [0.0])
    r = g.poll().record
    assert np.allclose(r["enu"], (1.0, -2.0, 0.5))     # a pure offset: sigma 0
    with pytest.raises(TypeError):
        w.imu(name="i2", body=car, filters=[("imu_noise", {"accel_noise_density": object()})])


def test_camera_plane_filters(world):
    w, car = world
    planes = {}  # sensor id -> its planes before the filter (the sensors run in parallel)

    def keep(f):
        planes[f.sensor_id] = (f.depth.copy(), f.labels.copy())

    d = w.camera(name="d", body=car, mount=(0, 0, 1.5), filters=[keep, "depth"], **CAM)
    lab = w.camera(name="l", body=car, mount=(0, 0, 1.5), filters=[keep, "labels"], **CAM)
    drive(w, car, [0.0])
    fd, fl = d.poll(), lab.poll()
    assert fd.type == "depth_f32" and np.array_equal(fd.data, planes[d.id][0])
    assert fl.type == "labels" and np.array_equal(fl.data, planes[lab.id][1])
    assert {1, 2} <= set(np.unique(fl.data["class_id"]).tolist())


def test_lidar_output_filters(world):
    w, car = world
    kw = dict(body=car, mount=(0, 0, 1.8), **LIDAR)
    beams = w.lidar(name="beams", **kw)
    pts = w.lidar(name="pts", filters=["points"], **kw)
    org = w.lidar(name="org", filters=["organized"], **kw)
    rim = w.lidar(name="rim", filters=["range_image"], **kw)
    bev = w.lidar(name="bev", filters=["points", ("birdseye", {"size_px": 32})], **kw)
    drive(w, car, [0.0, 0.1])
    fb, fp, fo, fr, fe = (s.poll() for s in (beams, pts, org, rim, bev))
    assert fb.type == "beams" and fb.data.dtype == sensim.dtype("beams") and fb.count == 16 * 36
    assert fp.type == "points" and fp.data.ndim == 1
    assert fp.count == np.count_nonzero(fb.data["range"] > 0)
    # Organised: rings x columns, NaN where there is no return.
    assert fo.type == "points" and fo.data.shape == (16, 36) and fo.height == 16
    hit = ~np.isnan(fo.data["x"])
    assert np.count_nonzero(hit) == fp.count
    assert fr.type == "depth_f32" and fr.data.shape == (16, 36) and fr.data.dtype == np.float32
    assert fe.type == "rgba8" and fe.data.shape == (32, 32, 4)
    # The points lie at the ranges of their beams.
    r = np.sqrt(fp.data["x"] ** 2 + fp.data["y"] ** 2 + fp.data["z"] ** 2)
    assert np.allclose(np.sort(r), np.sort(fb.data["range"][fb.data["range"] > 0]), atol=1e-4)


def test_noise_filters_change_records(world):
    w, car = world
    clean = w.imu(name="clean", body=car)
    noisy = w.imu(name="noisy", body=car, filters=[("imu_noise", {"accel_noise_density": 0.05})])
    mag = w.magnetometer(body=car, filters=["mag_noise"])
    drive(w, car, [0.0])
    a, b = clean.poll().record["accel"], noisy.poll().record["accel"]
    assert np.allclose(a, (0, 0, G)) and not np.allclose(a, b, atol=1e-6)
    assert np.abs(a - b).max() < 5.0
    assert mag.poll().type == "mag"


def test_python_filter_names_in_errors_and_name_override(world):
    w, car = world

    def fail(frame):
        raise RuntimeError("nope")

    cam = w.camera(body=car, **CAM)
    cam.add_filter(fail, name="my-stage")
    with pytest.raises(sensim.Error, match="my-stage.*RuntimeError: nope"):
        drive(w, car, [0.0])


def test_python_filter_takes_no_params(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    with pytest.raises(TypeError):
        cam.add_filter(lambda f: None, {"a": 1})
    with pytest.raises(TypeError):
        cam.add_filter(42)
    with pytest.raises(sensim.NotFound):
        cam.add_filter(lambda f: None, input="rgb_f33")


def test_standalone_chain():
    ch = sensim.FilterChain("rgb_f32")
    assert ch.output == "rgb_f32"
    with pytest.raises(sensim.PayloadTypeError):
        ch.add("points")
    with pytest.raises(sensim.NotFound):
        ch.add("nope")
    ch.add("image_noise", {"sigma": 0.0})
    calls = []

    def scale(frame):
        calls.append(frame.type)
        frame.data[...] *= 0.5

    ch.add(scale)
    ch.add("srgb8", '{"exposure": 2}')
    assert ch.output == "rgba8"
    rgb = np.full((4, 4, 3), 0.25, dtype=np.float32)
    f = sensim.Frame.from_array(rgb, "rgb_f32", index=3, t_capture=1.5)
    assert (f.index, f.t_capture, f.sensor) == (3, 1.5, None)
    ch.run(f)
    assert calls == ["rgb_f32"] and f.type == "rgba8"
    # 0.25 * 0.5 * 2 = 0.25 linear -> sRGB 137.
    assert np.all(f.data[..., :3] == 137) and np.all(f.data[..., 3] == 255)
    with pytest.raises(sensim.PayloadTypeError):
        ch.run(f)   # it is rgba8 now


def test_chain_cannot_run_a_frame_inside_a_filter():
    errors = []

    def nested(frame):
        try:
            sensim.FilterChain(frame.type).run(frame)
        except sensim.StateError as e:
            errors.append(e)

    ch = sensim.FilterChain("gray_f32")
    ch.add(nested)
    f = sensim.Frame.from_array(np.zeros((2, 3), np.float32), "gray_f32")
    ch.run(f)
    assert len(errors) == 1 and errors[0].status == -7


def test_from_array_checks():
    with pytest.raises(ValueError):
        sensim.Frame.from_array(np.zeros((4, 4)), "rgb_f32")      # missing channels
    with pytest.raises(ValueError):
        sensim.Frame.from_array(np.zeros((4, 4, 3)), "imu")       # records are 1-D
    with pytest.raises(sensim.InvalidArgument):
        sensim.Frame.from_array(np.zeros((4, 4, 3)), "rgb_f32", unit="lux")
    with pytest.raises(sensim.NotFound):
        sensim.Frame.from_array(np.zeros((4, 4, 3)), "rgb")
    rec = np.zeros(1, dtype=sensim.dtype("imu"))
    rec["accel"] = (1, 2, 3)
    f = sensim.Frame.from_array(rec, "imu")
    assert f.type == "imu" and tuple(f.record["accel"]) == (1, 2, 3)
    g = sensim.Frame.from_array(np.ones((3, 5)), "gray_f32", unit="signal")
    assert g.unit == "signal" and g.data.dtype == np.float32 and g.data.shape == (3, 5)
