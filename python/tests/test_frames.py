"""Frames: zero-copy NumPy views, shapes and dtypes of every payload."""

import numpy as np
import pytest

import sensim
from conftest import CAM, LIDAR, base_frame, drive

POINT_FIELDS = ("x", "y", "z", "intensity", "time", "ring", "return", "class_id", "instance_id")


def one_frame(w, car, sensor):
    drive(w, car, [0.0])
    f = sensor.poll()
    assert f is not None
    return f


def test_camera_views_are_zero_copy_and_writable(world):
    w, car = world
    cam = w.camera(body=car, mount=(0, 0, 1.5), **CAM)
    f = one_frame(w, car, cam)
    views = {"data": f.data, "depth": f.depth, "labels": f.labels, "normals": f.normals}
    for name, v in views.items():
        assert v is not None, name
        assert v.base is f, name                 # the Frame owns the memory
        assert not v.flags.owndata, name
        assert v.flags.writeable and v.flags.c_contiguous, name
    # Two views of one plane share memory; a write through one shows in the other.
    d1, d2 = f.data, f.data
    assert d1 is not d2 and np.shares_memory(d1, d2)
    d1[0, 0, 0] = 123.5
    assert d2[0, 0, 0] == np.float32(123.5) and f.data[0, 0, 0] == np.float32(123.5)
    dep = f.depth
    dep[1, 2] = -7.0
    assert f.depth[1, 2] == -7.0
    # Distinct planes do not overlap.
    assert not np.shares_memory(f.data, f.depth)
    assert not np.shares_memory(f.depth, f.normals)


def test_camera_shapes_and_dtypes(world):
    w, car = world
    cam = w.camera(body=car, mount=(0, 0, 1.5), **CAM)
    f = one_frame(w, car, cam)
    assert (f.type, f.width, f.height, f.count) == ("rgb_f32", 64, 48, 64 * 48)
    assert f.data.shape == (48, 64, 3) and f.data.dtype == np.float32
    assert f.depth.shape == (48, 64) and f.depth.dtype == np.float32
    assert f.labels.shape == (48, 64)
    assert f.labels.dtype.names == ("class_id", "instance_id")
    assert f.labels.dtype == sensim.dtype("labels")
    assert f.normals.shape == (48, 64, 3) and f.normals.dtype == np.float32
    assert f.trajectory is None and f.record is None
    assert f.sensor == "camera" and f.sensor_id == cam.id and f.unit == "radiance"
    # The camera sees the ground (class 1) and the box (class 2) ahead.
    assert {1, 2} <= set(np.unique(f.labels["class_id"]).tolist())


def test_rgba8_and_other_image_payloads(world):
    w, car = world
    cams = {
        "rgba8": w.camera(name="c8", body=car, filters=["srgb8"], **CAM),
        "depth_f32": w.camera(name="cd", body=car, filters=["depth"], **CAM),
        "labels": w.camera(name="cl", body=car, filters=["labels"], **CAM),
    }
    drive(w, car, [0.0])
    expect = {"rgba8": ((48, 64, 4), np.uint8), "depth_f32": ((48, 64), np.float32)}
    for t, cam in cams.items():
        f = cam.poll()
        assert f.type == t == cam.output_type
        if t in expect:
            assert f.data.shape == expect[t][0] and f.data.dtype == expect[t][1]
        else:
            assert f.data.shape == (48, 64) and f.data.dtype == sensim.dtype("labels")
        assert base_frame(f.data) is f
        if t == "rgba8":
            assert np.all(f.data[..., 3] == 255)  # opaque alpha


def test_points_dtype_and_lidar_views(world):
    w, car = world
    lid = w.lidar(body=car, mount=(0, 0, 1.8), filters=["points"], **LIDAR)
    drive(w, car, [0.0, 0.05, 0.1])
    f = lid.poll()
    dt = f.data.dtype
    assert dt.names == POINT_FIELDS and dt.itemsize == 32
    assert dt["class_id"] == np.uint16 and dt["instance_id"] == np.uint32
    assert dt == sensim.dtype("points")
    assert f.type == "points" and f.data.ndim == 1 and len(f.data) == f.count > 0
    assert base_frame(f.data) is f and f.data.flags.writeable
    tr = f.trajectory
    assert tr is not None and tr.dtype == np.float64 and tr.shape[1] == 7 and tr.shape[0] >= 2
    assert base_frame(tr) is f and tr.flags.writeable
    assert np.allclose(np.linalg.norm(tr[:, 3:], axis=1), 1.0)
    # Each point is where its ring and range put it: z below the sensor for
    # the ground returns, rings within the VLP-16's 16.
    assert f.data["ring"].max() < 16
    assert np.all(f.data["time"] <= 0)
    x = f.data["x"]
    x[0] = 99.0
    assert f.data["x"][0] == 99.0


def test_points_carry_the_class_and_instance_of_the_body_hit():
    """Semantic lidar: each point's class_id and instance_id are those of
    the body its coordinates lie on. The lidar stands 1.8 m above the
    ground (class 1) with a 1 m box (class 2, instance 77) 4 m ahead: a
    point on the ground plane (z = -1.8 in the sensor frame) outside the
    box's footprint is the ground's; a point above the ground inside the
    box's volume is the box's; nothing else is there to be hit."""
    w = sensim.World(seed=3, threads=2)
    ground = w.shape("plane", (60, 60, 0), material={"reflectance": 0.3})
    g = w.body(ground, static=True, class_id=1, instance_id=5)
    crate = w.shape("box", (1, 1, 1), material={"reflectance": 0.7})
    w.body(crate, pose=(4, 0, 0.5), static=True, class_id=2, instance_id=77)
    car = w.body(class_id=3)
    try:
        lid = w.lidar(body=car, mount=(0, 0, 1.8), filters=["points"], preset="VLP-16", columns=360)
        drive(w, car, [0.0, 0.05, 0.1])
        f = lid.poll()
        p = f.data
        assert len(p) > 1000
        on_ground = np.abs(p["z"] + 1.8) < 0.01
        in_box = ((np.abs(p["x"] - 4.0) <= 0.501) & (np.abs(p["y"]) <= 0.501)
                  & (p["z"] >= -1.801) & (p["z"] <= -0.799))
        assert np.all(on_ground | in_box)          # nothing else in the scene
        ground_only = on_ground & ~in_box
        box_only = in_box & (p["z"] > -1.79)
        assert ground_only.sum() > 500 and box_only.sum() > 20
        assert np.all(p["class_id"][ground_only] == 1) and np.all(p["instance_id"][ground_only] == 5)
        assert np.all(p["class_id"][box_only] == 2) and np.all(p["instance_id"][box_only] == 77)
        # The raw beams carry them too: the returns' ids in order, 0 for a miss.
        raw = w.lidar("raw", body=car, mount=(0, 0, 1.8), preset="VLP-16", columns=360)
        drive(w, car, [0.2])
        b = raw.poll().data
        hit = b["range"] > 0
        assert np.all(b["class_id"][~hit] == 0) and np.all(b["instance_id"][~hit] == 0)
        assert set(np.unique(b["instance_id"][hit])) == {5, 77}
        # A range image's label plane: (rings, columns) of the same ids,
        # 0 where the image holds no range.
        ri = w.lidar("ri", body=car, mount=(0, 0, 1.8), preset="VLP-16", columns=360,
                     filters=["range_image"])
        drive(w, car, [0.3])
        fr = ri.poll()
        assert fr.type == "depth_f32" and fr.labels.shape == fr.data.shape == (16, 360)
        lab = fr.labels
        assert np.all((lab["instance_id"] == 0) == (fr.data == 0))
        assert set(np.unique(lab["instance_id"][fr.data > 0])) == {5, 77}
        assert np.all(lab["class_id"][lab["instance_id"] == 5] == 1)
        assert np.all(lab["class_id"][lab["instance_id"] == 77] == 2)
    finally:
        w.close()


def test_record_payloads(world):
    w, car = world
    sensors = {
        "gnss": w.gnss(body=car), "imu": w.imu(body=car),
        "mag": w.magnetometer(body=car), "detection": w.cone(body=car, mount=(0, 0, 0.5)),
    }
    drive(w, car, [0.0])
    for t, s in sensors.items():
        f = s.poll()
        assert f.type == t == s.output_type
        assert f.count == 1 and f.data.shape == (1,)
        assert f.data.dtype == sensim.dtype(t)
        assert base_frame(f.data) is f
        rec = f.record
        assert isinstance(rec, np.void) and rec.dtype == sensim.dtype(t)
        assert rec.tobytes() == f.data[0].tobytes()
    assert sensors["gnss"].poll() is None  # one frame per capture, taken once


def test_dtype_itemsizes_match_payload_info():
    for name in sensim.payload_names():
        info = sensim.payload_info(name)
        dt = sensim.dtype(name)
        if info["sample"] == "struct":
            assert dt.itemsize == info["element_size"], name
            assert info["channels"] == 1
        else:
            # Images: the dtype is one sample; an element (pixel) is its channels.
            assert dt.itemsize * info["channels"] == info["element_size"], name
            assert dt == {"u8": np.uint8, "u16": np.uint16, "f32": np.float32}[info["sample"]]
    assert sensim.dtype("imu").names == ("accel", "gyro", "accel_var", "gyro_var")
    assert sensim.dtype("imu").itemsize == 96
    assert sensim.dtype("gnss")["cov_enu"].shape == (3, 3)
    assert sensim.dtype("beams").names == ("range", "intensity", "azimuth", "elevation", "time",
                                           "ring", "return", "class_id", "instance_id")


def test_frame_copy_is_independent(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    f = one_frame(w, car, cam)
    c = f.copy()
    assert c.data.tobytes() == f.data.tobytes() and c.depth.tobytes() == f.depth.tobytes()
    assert not np.shares_memory(c.data, f.data)
    c.data[...] = -1
    assert not np.any(f.data == -1)
    assert (c.index, c.t_capture, c.sensor) == (f.index, f.t_capture, f.sensor)


def test_from_array_and_standalone_chain():
    rgb = np.linspace(0, 1, 4 * 5 * 3, dtype=np.float32).reshape(4, 5, 3)
    f = sensim.Frame.from_array(rgb, "rgb_f32")
    assert f.type == "rgb_f32" and (f.width, f.height) == (5, 4)
    assert np.array_equal(f.data, rgb) and not np.shares_memory(f.data, rgb)
    ch = sensim.FilterChain("rgb_f32")
    ch.add("srgb8", {"exposure": 0.5})
    assert ch.output == "rgba8"
    assert ch.run(f) is f
    assert f.type == "rgba8" and f.data.shape == (4, 5, 4)
    x = 0.5 * rgb.astype(np.float64)
    enc = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    expect = np.rint(255 * np.clip(enc, 0, 1))
    assert np.abs(f.data[..., :3].astype(int) - expect).max() <= 1
    assert np.all(f.data[..., 3] == 255)


def test_empty_point_cloud():
    with sensim.World() as w:
        car = w.body()
        pts = w.lidar(name="pts", body=car, filters=["points"], **LIDAR)
        org = w.lidar(name="org", body=car, filters=["organized"], **LIDAR)
        drive(w, car, [0.0])
        f, o = pts.poll(), org.poll()
        assert f.count == 0 and f.data.shape == (0,) and f.data.dtype == sensim.dtype("points")
        assert o.data.shape == (16, 36) and np.all(np.isnan(o.data["x"]))


@pytest.mark.parametrize("unit, chain, payload, shape, dtype", [
    ("signal", ["tone", "quantize16"], "rgb16", (6, 8, 3), np.uint16),
    ("signal", ["tone", "quantize"], "rgba8", (6, 8, 4), np.uint8),
    ("signal", ["tone", "grayscale"], "gray_f32", (6, 8), np.float32),
    ("signal", ["tone", "grayscale", "quantize_gray"], "gray8", (6, 8), np.uint8),
    ("signal", ["tone", "grayscale", "quantize_gray16"], "gray16", (6, 8), np.uint16),
    ("radiance", ["image_sensor", "cfa"], "raw_f32", (6, 8), np.float32),
    ("radiance", ["image_sensor", "cfa", "adc", "raw16"], "raw16", (6, 8), np.uint16),
])
def test_every_image_payload_shape(unit, chain, payload, shape, dtype):
    rgb = np.random.default_rng(1).random((6, 8, 3)).astype(np.float32) * 0.5
    ch = sensim.FilterChain("rgb_f32")
    for name in chain:
        ch.add(name)
    f = ch.run(sensim.Frame.from_array(rgb, "rgb_f32", unit=unit))
    assert f.type == payload == ch.output
    assert f.data.shape == shape and f.data.dtype == dtype and f.data.base is f
    info = sensim.payload_info(payload)
    assert f.data.itemsize * (shape[2] if len(shape) == 3 else 1) == info["element_size"]
    if payload.startswith("raw"):
        assert f.cfa == "rggb" and f.unit in ("electrons", "signal") and f.gain == 1.0
