"""Lifetimes: arrays stay valid after later polls, reset, close and del;
calls through a closed world or a destroyed body raise StateError."""

import gc
import os

import numpy as np
import pytest

import sensim
from conftest import CAM, G, LIDAR, build_world, drive, steps


def same_records(a, b):
    """Structured arrays equal field by field, bit for bit (padding bytes,
    which NumPy's copy does not carry, left out)."""
    return a.shape == b.shape and all(a[n].tobytes() == b[n].tobytes() for n in a.dtype.names)


def churn():
    """Allocate and free memory of a frame's size, so a freed frame buffer
    would be reused and overwritten."""
    for _ in range(20):
        junk = np.full(64 * 48 * 3 * 4, 0xAB, dtype=np.uint8)
        del junk


def test_arrays_outlive_next_poll(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    lid = w.lidar(body=car, mount=(0, 0, 1.8), filters=["points"], **LIDAR)
    drive(w, car, [0.0])
    data = cam.poll().data
    assert cam.poll_all() == []  # one frame, already taken
    pts = lid.poll().data
    snap = (data.copy(), pts.copy())
    drive(w, car, [0.1, 0.2], pose=((1, 0, 0), (1, 0, 0, 0)))
    newer = cam.poll_all() + lid.poll_all()
    assert len(newer) == 4
    churn()
    assert np.array_equal(data, snap[0])
    assert same_records(pts, snap[1])


def test_arrays_outlive_reset_close_and_del():
    w, car = build_world()
    cam = w.camera(body=car, **CAM)
    imu = w.imu(body=car)
    drive(w, car, [0.0])
    f = cam.poll()
    data, depth, labels, normals = f.data, f.depth, f.labels, f.normals
    rec = imu.poll().data
    ref = [a.copy() for a in (data, depth, labels, normals, rec)]
    w.reset()
    churn()
    assert all(np.array_equal(a, b) for a, b in zip((data, depth, labels, normals, rec), ref))
    w.close()
    churn()
    assert all(np.array_equal(a, b) for a, b in zip((data, depth, labels, normals, rec), ref))
    del f, w, car, cam, imu
    gc.collect()
    churn()
    assert all(np.array_equal(a, b) for a, b in zip((data, depth, labels, normals, rec), ref))
    data[...] = 1.0  # still writable memory of its own
    assert np.all(data == 1.0)


def test_view_keeps_frame_alive_after_del():
    w, car = build_world()
    lid = w.lidar(body=car, mount=(0, 0, 1.8), filters=["points"], **LIDAR)
    drive(w, car, [0.0, 0.1])
    f = lid.poll()
    traj = f.trajectory
    ref = (f.data.copy(), traj.copy())
    view = f.data[::2]           # a view of a view: base chain ends at the Frame
    ref_view = view.copy()
    del f, lid
    w.close()
    del w, car
    gc.collect()
    churn()
    assert np.array_equal(traj, ref[1])
    assert same_records(view, ref_view)


def test_frames_from_callbacks_outlive_advance(world):
    w, car = world
    cam = w.camera(body=car, rate=20, **CAM)
    kept = []
    cam.set_callback(lambda s, f: kept.append((f, f.data, f.data.copy())))
    drive(w, car, steps(5, 0.05))
    assert len(kept) == 5
    w.reset()
    churn()
    for f, view, ref in kept:
        assert np.array_equal(view, ref)
        assert np.shares_memory(view, f.data)


STASH = []  # a module global, as a user's script would keep frames


def test_python_filter_that_stashes_its_frame():
    stash = STASH
    del stash[:]

    def keeper(frame):
        stash.append(frame)
        stash.append(frame.data)
        frame.data[...] = 0.25   # the change reaches the rest of the chain

    def check(frame):
        assert np.all(frame.data == 0.25)
        frame.data[:, :, 0] = 0.5

    w, car = build_world()
    cam = w.camera(body=car, filters=[keeper, check], **CAM)
    drive(w, car, steps(3, 0.1))
    fs = cam.poll_all()
    assert len(fs) == 3
    for f in fs:
        assert np.all(f.data[:, :, 0] == 0.5) and np.all(f.data[:, :, 1:] == 0.25)
    w.close()
    del w, car, cam, fs
    gc.collect()
    churn()
    # The stashed frames and arrays are Python's own, intact.
    assert len(stash) == 6
    for f, arr in zip(STASH[::2], STASH[1::2]):
        assert f.type == "rgb_f32"
        assert arr.shape == (48, 64, 3)
        assert np.all(arr == 0.25) and np.all(f.data == 0.25)
        # What Python kept is not what the chain went on with.
        assert np.shares_memory(arr, f.data)


def reuse_freed(nbytes):
    """Allocate (and fill with 0xAB) blocks of exactly `nbytes`, so that a
    buffer of that size freed just before is handed out again and
    overwritten: a view still pointing at it then reads 0xAB bytes."""
    blocks = [np.full(nbytes, 0xAB, dtype=np.uint8) for _ in range(8)]
    del blocks


def test_filter_changing_payload_with_alloc(world):
    w, car = world

    seen = []

    def to_gray(frame):
        rgb = frame.data.copy()
        seen.append(rgb)
        frame.alloc("gray_f32", frame.width, frame.height)
        frame.data[...] = rgb.mean(axis=2)
        frame.data[0, 0] = 42.0

    cam = w.camera(body=car, mount=(0, 0, 1.5), **CAM)
    cam.add_filter(to_gray, output="gray_f32")
    assert cam.output_type == "gray_f32"
    drive(w, car, [0.0])
    f = cam.poll()
    assert f.type == "gray_f32" and f.data.shape == (48, 64) and f.data.dtype == np.float32
    assert f.data[0, 0] == 42.0
    # The planes ride along; the grey image is the mean of the radiance.
    assert f.depth.shape == (48, 64) and f.labels.shape == (48, 64)
    expect = seen[0].mean(axis=2)
    expect[0, 0] = 42.0
    assert np.array_equal(f.data, expect)
    assert np.ptp(expect) > 0


def test_view_taken_before_alloc_stays_valid():
    """Frame.alloc replaces the payload; a view of the old one keeps
    showing the old data (the buffer is kept until the Frame dies). Before
    the fix it was freed under the view: reuse_freed makes that visible
    (except under ASan, whose quarantine hides reuse)."""
    f = sensim.Frame.from_array(np.full((48, 64, 3), 0.5, dtype=np.float32), "rgb_f32")
    view = f.data
    ref = view.copy()
    f.alloc("gray_f32", 64, 48)
    reuse_freed(ref.nbytes)
    intact = bool(np.array_equal(view, ref))  # (no repr of the stale view on failure)
    assert intact
    assert f.data.shape == (48, 64) and not np.shares_memory(f.data, view)
    f.data[...] = 3.0
    assert np.all(view == 0.5)


def test_filter_reads_a_view_across_alloc(world):
    """The natural way to write a payload-changing filter: read the old
    payload through a view after alloc() replaced it, and keep the view."""
    w, car = world
    kept, copies = [], []

    def to_gray(frame):
        rgb = frame.data
        copies.append(rgb.copy())
        kept.append(rgb)
        frame.alloc("gray_f32", frame.width, frame.height)
        reuse_freed(rgb.nbytes)
        frame.data[...] = rgb.mean(axis=2)

    cam = w.camera(body=car, mount=(0, 0, 1.5), **CAM)
    cam.add_filter(to_gray, output="gray_f32")
    cam.add_filter(lambda f: None, input="gray_f32")
    drive(w, car, [0.0])
    f = cam.poll()
    churn()
    assert f.type == "gray_f32"
    same = bool(np.array_equal(kept[0], copies[0]))
    assert same
    assert np.array_equal(f.data, copies[0].mean(axis=2))


def test_view_taken_before_chain_run_stays_valid():
    """FilterChain.run may replace the payload (srgb8 frees the radiance);
    a view taken before keeps the old data."""
    f = sensim.Frame.from_array(np.full((48, 64, 3), 0.5, dtype=np.float32), "rgb_f32")
    view = f.data
    ref = view.copy()
    ch = sensim.FilterChain("rgb_f32")
    ch.add("srgb8")
    ch.run(f)
    assert f.type == "rgba8"
    reuse_freed(ref.nbytes)
    intact = bool(np.array_equal(view, ref))
    assert intact


def test_closed_world_raises_state_error():
    w, car = build_world()
    cam = w.camera(body=car, **CAM)
    mesh = w.shape("box", (1, 1, 1))
    drive(w, car, [0.0])
    assert w.closed is False
    w.close()
    assert w.closed is True
    calls = [
        lambda: w.advance(1.0), lambda: w.reset(), lambda: w.time, lambda: w.params,
        lambda: w.sensors, lambda: w.sensor("camera"), lambda: w.shape("box", (1, 1, 1)),
        lambda: w.body(), lambda: w.camera(**CAM), lambda: w.light(),
        lambda: cam.poll(), lambda: cam.poll_all(), lambda: cam.latest(), lambda: cam.kind,
        lambda: cam.params, lambda: cam.frames_captured, lambda: cam.add_filter("srgb8"),
        lambda: cam.set_callback(None), lambda: cam.set_overrun(2),
        lambda: car.push_state(1.0, (0, 0, 0)), lambda: car.state_at(0.0),
        lambda: car.keyframe_count, lambda: car.destroy(), lambda: mesh.triangle_count,
        lambda: sensim.advance_all([w], 1.0),
    ]
    for i, call in enumerate(calls):
        with pytest.raises(sensim.StateError) as ei:
            call()
        assert ei.value.status == -7, i
    assert car.alive is False
    w.close()   # closing twice is harmless
    with pytest.raises(sensim.StateError):
        with w:  # and a closed world is not entered again
            pass
    assert cam.name == "camera"  # the name is kept for messages


def test_context_manager_closes():
    with build_world()[0] as w:
        assert not w.closed
        cam = w.imu()
    assert w.closed
    with pytest.raises(sensim.StateError):
        cam.poll()


def test_destroyed_body(world):
    w, car = world
    b = w.body(w.shape("box", (1, 1, 1)))
    assert b.alive
    b.destroy()
    assert not b.alive
    for call in (lambda: b.push_state(0.0, (0, 0, 0)), lambda: b.state_at(0.0),
                 lambda: b.keyframe_count, b.destroy):
        with pytest.raises(sensim.StateError):
            call()
    with pytest.raises(sensim.StateError):
        w.camera(body=b, **CAM)
    assert w.sensors == []


def test_destroying_a_ridden_body_is_refused(world):
    w, car = world
    imu = w.imu(body=car, rate=10)
    with pytest.raises(sensim.StateError) as ei:
        car.destroy()
    assert ei.value.status == -7 and "imu" in str(ei.value)
    assert car.alive
    # The body and its sensor still work.
    drive(w, car, [0.0, 0.1], pose=((0, 0, 0), (1, 0, 0, 0)))
    fs = imu.poll_all()
    assert [f.index for f in fs] == [0, 1]
    assert np.allclose(fs[1].record["accel"], (0, 0, G))


def test_world_kept_alive_by_its_sensors():
    w, car = build_world()
    imu = w.imu(body=car)
    del w
    gc.collect()
    world = imu.world
    assert not world.closed
    drive(world, car, [0.0])
    assert imu.poll().index == 0
    world.close()


def test_world_in_a_reference_cycle_with_frames_in_flight():
    """A world reachable only through a cycle (a callback that refers to the
    world), with captures running Python filters still in flight, is
    collected without a crash, and its frames' arrays stay valid."""
    kept = []
    for _ in range(3):
        w, car = build_world(threads=2)
        cam = w.camera(body=car, rate=100, lag=0.05, filters=[lambda f: None], **CAM)
        imu = w.imu(body=car, rate=100)
        imu.set_callback(lambda s, f, w=w: kept.append((f.data, w.time)))
        drive(w, car, steps(8, 0.01))
        assert cam.frames_captured == 8 and cam.frames_delivered < 8
        del w, car, cam, imu
        gc.collect()
    churn()
    assert len(kept) == 24
    assert all(np.allclose(d[0]["accel"], (0, 0, G)) for d, _ in kept)


def test_open_worlds_are_closed_at_interpreter_exit(tmp_path):
    """A script that leaves a world open, with a Python filter and a frame
    callback and captures in flight, exits cleanly."""
    import subprocess
    import sys
    script = tmp_path / "leave_open.py"
    script.write_text(
        "import sensim\n"
        "w = sensim.World(threads=2)\n"
        "car = w.body()\n"
        "cam = w.camera(body=car, width=64, height=48, samples=1, rate=100, lag=0.05,\n"
        "               filters=[lambda f: f.data.__setitem__(Ellipsis, 1.0)])\n"
        "imu = w.imu(body=car, rate=100)\n"
        "imu.set_callback(lambda s, f: None)\n"
        "for k in range(8):\n"
        "    car.push_state(k * 0.01, (0, 0, 0))\n"
        "    w.advance(k * 0.01)\n"
        "print('done', cam.frames_captured)\n")
    env = dict(__import__("os").environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(sensim.__file__)) + os.pathsep + \
        env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                       env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "done 8"


def test_failed_filters_leave_no_sensor(world):
    w, car = world
    with pytest.raises(sensim.PayloadTypeError):
        w.camera(name="cam", body=car, filters=["srgb8", "srgb8"], **CAM)
    with pytest.raises(TypeError):
        w.camera(name="cam2", body=car, filters=["srgb8", 42], **CAM)
    assert w.sensors == []
    cam = w.camera(name="cam", body=car, filters=["srgb8"], **CAM)  # the name is free
    assert cam.output_type == "rgba8"


def test_alloc_to_a_new_size_drops_the_old_planes(world):
    w, car = world

    def upscale(frame):
        frame.alloc("rgb_f32", 128, 96)

    cam = w.camera(body=car, filters=[upscale], **CAM)
    drive(w, car, [0.0])
    f = cam.poll()
    assert f.data.shape == (96, 128, 3)
    # The 64 x 48 planes no longer describe the image: like the built-in
    # "downsample", a size change must drop them (the views are only
    # created here, never read, as they would read past the buffers).
    dropped = [getattr(f, p) is None for p in ("depth", "labels", "normals")]
    assert dropped == [True, True, True]


def turning(t):
    """The car turning on the spot, so the box and the sky move through the
    image from frame to frame."""
    yaw = 0.7 * t / 0.1
    return ((0, 0, 0), (np.cos(yaw / 2), 0, 0, np.sin(yaw / 2))), (0, 0, 0)


def camera_frames(keep, threads):
    """Eight frames of a camera with the ISP chain and a lidar, as bytes of
    every array. keep=False drops each Frame at once, so its buffers go back
    to its sensor and the next frames reuse them; keep=True holds every
    Frame to the end, so every frame's buffers are new."""
    w, car = build_world(threads=threads)
    cam = w.camera(body=car, filters=["image_sensor", "noise_emva1288", "cfa", "adc", "demosaic",
                                      "white_balance", "ccm", "auto_exposure", "tone", "quantize"],
                   **CAM)
    lid = w.lidar(body=car, mount=(0, 0, 1.8), filters=["points"], **LIDAR)
    out, kept = [], []
    for t in steps(8, 0.1):
        drive(w, car, [t], moving=turning)
        for s in (cam, lid):
            f = s.poll()
            arrays = [f.data] + ([f.depth, f.labels, f.normals] if s is cam else [f.trajectory])
            out.append(b"".join(a.tobytes() for a in arrays))
            if keep:
                kept.append(f)
            del f, arrays
    w.close()
    return out


def test_dropped_frames_feed_their_sensor_and_frames_stay_identical():
    ref = camera_frames(keep=True, threads=0)
    assert camera_frames(keep=False, threads=0) == ref
    assert camera_frames(keep=False, threads=2) == ref


def test_an_array_keeps_its_buffer_from_the_sensor_while_later_frames_come():
    w, car = build_world()
    cam = w.camera(body=car, **CAM)
    drive(w, car, [0.0], moving=turning)
    depth = cam.poll().depth  # the Frame lives on in the array only
    ref = depth.copy()
    drive(w, car, [0.1, 0.2, 0.3], moving=turning)
    later = [f.depth.copy() for f in cam.poll_all()]
    assert len(later) == 3 and not all(np.array_equal(d, ref) for d in later)
    churn()
    assert np.array_equal(depth, ref)
    w.close()


def test_frames_dying_after_their_world_is_closed_or_gone_free_their_buffers():
    w, car = build_world()
    cam = w.camera(body=car, **CAM)
    drive(w, car, [0.0, 0.1])
    a, b = cam.poll(), cam.poll()
    w.close()
    del a  # the world is closed: freed, not given to the destroyed sensor
    w2, car2 = build_world()
    cam2 = w2.camera(body=car2, **CAM)
    drive(w2, car2, [0.0])
    c = cam2.poll()
    del w2, car2, cam2
    gc.collect()  # the World object is gone: c's weak reference says so
    del b, c
    gc.collect()
