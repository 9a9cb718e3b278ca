"""sensim.Recorder: ROS 2 recordings (MCAP) from a Python host loop.

The recording is read back here through its summary (statistics and
channels, parsed from the MCAP spec's record layouts); the full,
independent check of every message is the npm reader's
(tests/mcap_reader), which reads what `sensim run --mcap` writes with the
same recorder."""

import struct

import numpy as np
import pytest

import sensim


def summary(path):
    """Topics -> message counts, and (start, end) log times, from the
    summary section the footer points at."""
    data = open(path, "rb").read()
    magic = b"\x89MCAP0\r\n"
    assert data[:8] == magic and data[-8:] == magic
    footer = len(data) - 8 - 29
    assert data[footer] == 0x02
    summary_start, = struct.unpack_from("<Q", data, footer + 9)
    assert 0 < summary_start < footer
    pos, topics, counts, times = summary_start, {}, {}, None
    while pos < footer:
        op, length = data[pos], struct.unpack_from("<Q", data, pos + 1)[0]
        body = pos + 9
        if op == 0x04:  # Channel: id, schema id, topic, encoding, metadata
            cid, = struct.unpack_from("<H", data, body)
            n, = struct.unpack_from("<I", data, body + 4)
            topics[cid] = data[body + 8:body + 8 + n].decode()
        elif op == 0x0B:  # Statistics
            (count, _, _, _, _, _, start, end) = struct.unpack_from("<QHIIIIQQ", data, body)
            times = (count, start, end)
            mlen, = struct.unpack_from("<I", data, body + 42)
            for k in range(mlen // 10):
                cid, c = struct.unpack_from("<HQ", data, body + 46 + 10 * k)
                counts[cid] = c
        pos = body + length
    assert times is not None
    return {topics[c]: n for c, n in counts.items()}, times


def rig(tmp_world_seed=3):
    w = sensim.World(seed=tmp_world_seed, threads=1)
    w.body(w.shape("plane", (40, 40, 0)), static=True)
    w.body(w.shape("box", (1, 1, 1)), pose=(6, 0, 0.5), static=True)
    car = w.body()
    cam = w.camera("front cam", body=car, mount=(1, 0, 1.4), width=32, height=24, rate=10,
                   filters=["srgb8"])
    lidar = w.lidar(body=car, mount=(0, 0, 1.8), channels=8, columns=90, rate=10,
                    filters=["points"])
    gnss = w.gnss(body=car, rate=5)
    imu = w.imu(body=car, rate=50)
    return w, car, [cam, lidar, gnss, imu]


def drive(w, car, sensors, rec, steps=51, dt=0.02):
    written = {}
    for k in range(steps):
        t = k * dt
        car.push_state(t, ((2.0 * t, 0, 0), (1, 0, 0, 0)))
        w.advance(t)
        for s in sensors:
            for f in s.poll_all():
                rec.write(s, f)
                written[s.name] = written.get(s.name, 0) + 1
        rec.advance(t)
    return written


def test_a_python_loop_records_every_frame_on_its_topic(tmp_path):
    w, car, sensors = rig()
    path = tmp_path / "run.mcap"
    with sensim.Recorder(str(path), w, tf_rate=25) as rec:
        rec.add_body(car, "base_link")
        written = drive(w, car, sensors, rec)
    counts, (total, start, end) = summary(path)
    assert counts["/front_cam/image_raw"] == written["front cam"] == 11
    assert counts["/front_cam/camera_info"] == written["front cam"]
    # The lidar's first scan (captured at 0) began before time 0: no ROS
    # stamp, not recorded with lidar_time "start" (docs/recording.md).
    assert counts["/lidar/points"] == written["lidar"] - 1
    assert counts["/gnss/fix"] == written["gnss"]
    assert counts["/imu/imu"] == written["imu"] == 51
    assert counts["/tf"] == counts["/base_link/odom"] == 26  # 25 Hz over [0, 1] s
    assert counts["/tf_static"] >= 1
    assert total == sum(counts.values())
    assert start == 0 and end == 1_000_000_000
    w.close()


def test_an_unclosed_or_failed_recording_leaves_no_file(tmp_path):
    w, car, sensors = rig()
    path = tmp_path / "aborted.mcap"
    with pytest.raises(RuntimeError, match="boom"):
        with sensim.Recorder(str(path), w) as rec:
            drive(w, car, sensors, rec, steps=5)
            raise RuntimeError("boom")
    assert rec.closed
    rec2 = sensim.Recorder(str(tmp_path / "dropped.mcap"), w)
    del rec2
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    w.close()


def test_rep105_frame_names_and_odometry_drift_from_python(tmp_path):
    w, car, sensors = rig()
    path = tmp_path / "rep105.mcap"
    with sensim.Recorder(str(path), w, compress=False, map_frame="world", odom_frame="odo",
                         odom_drift={"sigma_xy": 0.05, "sigma_yaw": 0.01}) as rec:
        rec.add_body(car, "base_link")
        drive(w, car, sensors, rec)
    data = open(path, "rb").read()
    # CDR strings (uint32 length with the NUL, then the bytes) of /tf's
    # world -> odo and odo -> base_link, and of the odometry's header.
    assert struct.pack("<I", 6) + b"world\0" in data
    assert struct.pack("<I", 4) + b"odo\0" in data
    counts, _ = summary(path)
    assert counts["/tf"] == counts["/base_link/odom"] == 51
    with pytest.raises(ValueError, match="no key"):
        sensim.Recorder(str(tmp_path / "b.mcap"), w, odom_drift={"sigma": 1.0})
    with pytest.raises(sensim.InvalidArgument, match="sigma_xy"):
        sensim.Recorder(str(tmp_path / "b.mcap"), w, odom_drift={"sigma_xy": -1.0})
    with pytest.raises(sensim.InvalidArgument, match="both 'map'"):
        sensim.Recorder(str(tmp_path / "b.mcap"), w, odom_frame="map")
    w.close()


def test_recorder_misuse_raises(tmp_path):
    w, car, sensors = rig()
    other = sensim.World()
    osensor = other.imu()
    other.advance(0.0)
    with pytest.raises(sensim.IOError):
        sensim.Recorder(str(tmp_path / "no" / "such" / "dir.mcap"), w)
    with pytest.raises(ValueError, match="lidar_time"):
        sensim.Recorder(str(tmp_path / "x.mcap"), w, lidar_time="middle")
    rec = sensim.Recorder(str(tmp_path / "x.mcap"), w)
    with pytest.raises(ValueError, match="another world"):
        rec.write(osensor, osensor.poll())
    with pytest.raises(TypeError):
        rec.write(sensors[0], np.zeros(3))
    rec.close()
    with pytest.raises(sensim.StateError):
        rec.advance(1.0)
    rec3 = sensim.Recorder(str(tmp_path / "y.mcap"), w)
    w.close()
    with pytest.raises(sensim.StateError):
        rec3.advance(0.0)
    other.close()


def test_camera_info_yaml_and_tum_poses_from_python(tmp_path):
    yaml = pytest.importorskip("yaml")
    w, car, sensors = rig()
    cam = sensors[0]
    sensim.write_camera_info_yaml(str(tmp_path / "cam.yaml"), cam)
    info = yaml.safe_load(open(tmp_path / "cam.yaml"))
    fx = (32 / 2) / np.tan(np.pi / 4)  # hfov 90 deg by default
    assert info["image_width"] == 32 and info["image_height"] == 24
    assert info["camera_matrix"]["data"] == pytest.approx([fx, 0, 15.5, 0, fx, 11.5, 0, 0, 1])
    car.push_state(0.0, ((1.5, -2.0, 0), sensim.quat_from_ypr(0.3, 0, 0)))
    w.advance(0.0)
    f = sensors[3].poll()
    sensim.tum_append(str(tmp_path / "poses.txt"), f)
    t, x, y, z, qx, qy, qz, qw = map(float, open(tmp_path / "poses.txt").read().split())
    assert t == f.t_capture
    assert (x, y, z) == f.pose.pos
    assert (qw, qx, qy, qz) == f.pose.rot
    with pytest.raises(sensim.InvalidArgument):
        sensim.write_camera_info_yaml(str(tmp_path / "imu.yaml"), sensors[3])
    w.close()
