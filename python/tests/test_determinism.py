"""Determinism: the same seed gives bit-identical frames across worlds,
resets and thread counts, and the Python API gives the numbers the C
library's own scenario runner (the sensim CLI) writes."""

import json
import os
import subprocess

import numpy as np
import pytest

import sensim
from conftest import CAM, G, LIDAR, assert_frames_equal, build_world, steps

TIMES = steps(11, 0.01)


def rig(seed=7, threads=2, noise=True):
    """A noisy camera, lidar, GNSS and IMU on a moving car."""
    w, car = build_world(seed=seed, threads=threads)
    cam_f = [("image_noise", {"sigma": 0.05})] if noise else []
    lid_f = [("range_noise", {"sigma": 0.02}), "points"] if noise else ["points"]
    gnss_f = ["gnss_noise"] if noise else []
    imu_f = [("imu_noise", {"accel_noise_density": 0.01, "gyro_noise_density": 0.001})] \
        if noise else []
    w.camera(body=car, mount=(0, 0, 1.5), rate=50, filters=cam_f, **CAM)
    w.lidar(body=car, mount=(0, 0, 1.8), rate=50, filters=lid_f, **LIDAR)
    w.gnss(body=car, rate=50, filters=gnss_f)
    w.imu(body=car, rate=100, filters=imu_f)
    return w, car


def run(w, car):
    """Drive along +X at 1 m/s; the frames of every sensor, by sensor name."""
    out = {s.name: [] for s in w.sensors}
    for t in TIMES:
        car.push_state(t, ((t, 0, 0), (1, 0, 0, 0)), vel=(1, 0, 0), ang_vel=(0, 0, 0),
                       acc=(0, 0, 0), ang_acc=(0, 0, 0))
        w.advance(t)
        for s in w.sensors:
            out[s.name] += s.poll_all()
    return out


def assert_runs_equal(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert len(a[name]) == len(b[name]) > 0, name
        for fa, fb in zip(a[name], b[name]):
            assert_frames_equal(fa, fb)


def test_same_seed_two_worlds_bit_identical():
    w1, c1 = rig()
    w2, c2 = rig()
    assert_runs_equal(run(w1, c1), run(w2, c2))
    w1.close()
    w2.close()


def test_same_seed_after_reset_bit_identical():
    w, car = rig()
    first = run(w, car)
    w.reset()
    second = run(w, car)
    assert_runs_equal(first, second)
    w.close()


def test_thread_count_does_not_change_frames():
    w0, c0 = rig(threads=0)
    w2, c2 = rig(threads=2)
    w4, c4 = rig(threads=4)
    r0 = run(w0, c0)
    assert_runs_equal(r0, run(w2, c2))
    assert_runs_equal(r0, run(w4, c4))
    for w in (w0, w2, w4):
        w.close()


def test_different_seeds_differ_with_noise():
    w1, c1 = rig(seed=7)
    w2, c2 = rig(seed=8)
    a, b = run(w1, c1), run(w2, c2)
    for name in a:
        fa, fb = a[name][-1], b[name][-1]
        assert fa.data.tobytes() != fb.data.tobytes(), name
    w1.close()
    w2.close()
    # Without noise filters the seed does not matter for the IMU and GNSS.
    w1, c1 = rig(seed=7, noise=False)
    w2, c2 = rig(seed=8, noise=False)
    a, b = run(w1, c1), run(w2, c2)
    for name in ("gnss", "imu"):
        for fa, fb in zip(a[name], b[name]):
            assert_frames_equal(fa, fb)
    w1.close()
    w2.close()


def test_filter_chain_seed_and_stream():
    rgb = np.full((6, 8, 3), 0.5, dtype=np.float32)
    out = []
    for seed, stream in ((1, 0), (1, 0), (2, 0), (1, 1)):
        ch = sensim.FilterChain("rgb_f32")
        ch.add("image_noise", {"sigma": 0.1})
        out.append(ch.run(sensim.Frame.from_array(rgb, "rgb_f32"), seed=seed,
                          stream=stream).data.copy())
    assert np.array_equal(out[0], out[1])
    assert not np.array_equal(out[0], out[2]) and not np.array_equal(out[0], out[3])
    assert abs(out[0].std() - 0.1) < 0.03


# ---- agreement with the C library's scenario runner -------------------------------

SCENARIO = {
    "world": {"seed": 11, "threads": 2, "origin": [48.1, 11.5, 520.0]},
    "duration": 0.5,
    "step": 0.005,
    "meshes": [
        {"name": "ground", "shape": {"kind": "plane", "size": [60, 60, 0]}},
        {"name": "wall", "shape": {"kind": "box", "size": [0.5, 20, 4]}},
    ],
    "bodies": [
        {"name": "ground", "mesh": "ground", "static": True},
        {"name": "wall", "mesh": "wall", "pose": {"position": [12, 0, 2]}, "static": True},
        {"name": "rig", "motion": {"type": "line", "start": [0, 0, 1], "velocity": [2, 0, 0]}},
    ],
    "sensors": [
        {"name": "imu", "type": "imu", "body": "rig", "rate": 100,
         "filters": [{"name": "imu_noise", "params": {"accel_noise_density": 0.002}}],
         "output": {"format": "csv"}},
        {"name": "gnss", "type": "gnss", "body": "rig", "rate": 10,
         "mount": {"position": [0, 0, 0.5]},
         "filters": [{"name": "gnss_noise"}], "output": {"format": "csv"}},
        {"name": "lidar", "type": "lidar", "body": "rig", "rate": 10, "preset": "VLP-16",
         "columns": 90,
         "filters": [{"name": "range_noise", "params": {"sigma": 0.01}}, {"name": "points"}],
         "output": {"format": "pcd"}},
    ],
}

# PCD binary records: x y z intensity ring time return label instance, packed
# little-endian (31 bytes).
PCD_DTYPE = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("intensity", "<f4"),
                      ("ring", "<u2"), ("time", "<f4"), ("return", "u1"),
                      ("label", "<u4"), ("instance", "<u4")])


def read_pcd(path):
    raw = open(path, "rb").read()
    head, sep, body = raw.partition(b"DATA binary\n")
    assert sep, path
    fields = dict(line.split(b" ", 1) for line in head.splitlines() if b" " in line)
    assert fields[b"FIELDS"] == b"x y z intensity ring time return label instance"
    n = int(fields[b"POINTS"])
    pts = np.frombuffer(body, dtype=PCD_DTYPE)
    assert len(pts) == n and PCD_DTYPE.itemsize == 31
    viewpoint = [float(v) for v in fields[b"VIEWPOINT"].split()]
    return pts, viewpoint


def python_run():
    """The scenario above built and stepped through the Python API: the same
    creation order (sensor ids key the random streams), and the line
    motion's state as the runner pushes it (scenario_motion.c): position
    start + v t, heading 0, velocity v, zero acceleration, at t = k step."""
    s = SCENARIO
    w = sensim.World(seed=11, threads=2, origin=(48.1, 11.5, 520.0))
    ground = w.shape("plane", (60, 60, 0))
    wall = w.shape("box", (0.5, 20, 4))
    w.body(ground, static=True)
    w.body(wall, pose=(12, 0, 2), static=True)
    rig_body = w.body()
    w.imu(name="imu", body=rig_body, rate=100,
          filters=[("imu_noise", {"accel_noise_density": 0.002})])
    w.gnss(name="gnss", body=rig_body, rate=10, mount=(0, 0, 0.5), filters=["gnss_noise"])
    w.lidar(name="lidar", body=rig_body, rate=10, preset="VLP-16", columns=90,
            filters=[("range_noise", {"sigma": 0.01}), "points"])
    out = {x.name: [] for x in w.sensors}
    nsteps = int(s["duration"] / s["step"] + 1e-9)
    for k in range(nsteps + 1):
        t = k * s["step"]
        rig_body.push_state(t, ((0 + 2.0 * t, 0 + 0.0 * t, 1 + 0.0 * t), (1, 0, 0, 0)),
                            vel=(2, 0, 0), ang_vel=(0, 0, 0), acc=(0, 0, 0), ang_acc=(0, 0, 0))
        w.advance(t)
        for x in w.sensors:
            out[x.name] += x.poll_all()
    w.close()
    return out


@pytest.fixture(scope="module")
def cli_run(build_dir, tmp_path_factory):
    exe = os.path.join(build_dir, "sensim")
    if not os.access(exe, os.X_OK):
        pytest.skip("the sensim CLI is not built (%s)" % exe)
    tmp = tmp_path_factory.mktemp("scenario")
    path = tmp / "scenario.json"
    path.write_text(json.dumps(SCENARIO, indent=1))
    out = tmp / "out"
    subprocess.run([exe, "run", str(path), "--out", str(out), "--force"], check=True,
                   capture_output=True, timeout=120)
    return out


@pytest.fixture(scope="module")
def py_run():
    return python_run()


def test_cli_imu_csv_equals_python_frames(cli_run, py_run):
    # CSV numbers are written with the fewest digits that read back
    # exactly (docs/scenario.md), so the comparison is exact.
    lines = (cli_run / "imu" / "imu.csv").read_text().splitlines()
    assert lines[0] == "t,ax,ay,az,gx,gy,gz"
    csv = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    frames = py_run["imu"]
    py = np.array([[f.t_capture, *f.record["accel"], *f.record["gyro"]] for f in frames])
    assert csv.shape == py.shape == (51, 7)
    assert np.array_equal(csv, py)
    # The noise filter did act: not the ideal (0, 0, g).
    assert np.abs(py[:, 3] - G).max() > 1e-4


def test_cli_gnss_csv_equals_python_frames(cli_run, py_run):
    lines = (cli_run / "gnss" / "gnss.csv").read_text().splitlines()
    header = lines[0].split(",")
    assert header[:4] == ["t_capture", "lat", "lon", "height"] and len(header) == 20
    csv = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    rows = []
    for f in py_run["gnss"]:
        r = f.record
        c = r["cov_enu"]
        rows.append([f.t_capture, r["lat"], r["lon"], r["height"], *r["enu"], *r["vel_enu"],
                     c[0, 0], c[1, 1], c[2, 2], r["fix_type"], r["speed"], r["course"],
                     r["hdop"], r["vdop"], r["pdop"], r["satellites"]])
    py = np.array(rows)
    assert csv.shape == py.shape == (6, 20)
    assert np.array_equal(csv, py)


def test_cli_lidar_pcd_equals_python_frames(cli_run, py_run):
    files = sorted(n for n in os.listdir(cli_run / "lidar") if n.endswith(".pcd"))
    frames = py_run["lidar"]
    assert files == ["scan_%06d.pcd" % f.index for f in frames] and len(files) == 6
    for f, name in zip(frames, files):
        pts, viewpoint = read_pcd(cli_run / "lidar" / name)
        assert len(pts) == f.count > 100
        # the file's label and instance are the frame's class_id and instance_id
        frame_field = {"label": "class_id", "instance": "instance_id"}
        for field in PCD_DTYPE.names:
            assert np.array_equal(pts[field], f.data[frame_field.get(field, field)]), (name, field)
        assert np.allclose(viewpoint, [*f.pose.pos, *f.pose.rot])


def test_cli_poses_txt_holds_python_frames_poses_exactly(cli_run, py_run):
    # poses.txt (TUM: t tx ty tz qx qy qz qw) loses no bit of the frames' poses.
    for name in ("lidar", "gnss"):
        lines = (cli_run / name / "poses.txt").read_text().splitlines()
        assert lines[0].startswith("#")
        rows = [[float(v) for v in line.split(" ")] for line in lines[1:]]
        frames = py_run[name]
        assert len(rows) == len(frames) > 0
        for row, f in zip(rows, frames):
            w, x, y, z = f.pose.rot
            assert row == [f.t_capture, *f.pose.pos, x, y, z, w], name
