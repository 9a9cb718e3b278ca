"""World: parameters, clock, meshes, lights, bodies, advance_all, the GIL."""

import math
import threading
import time

import numpy as np
import pytest

import sensim
from conftest import CAM, G, assert_frames_equal, build_world, drive, steps


def test_params_and_clock():
    with sensim.World(seed=42, threads=0, origin=(10.0, 20.0, 30.0), gravity=9.0,
                      background=(0.1, 0.2, 0.3), ambient=0.25) as w:
        p = w.params
        assert p["seed"] == 42 and p["threads"] == 0 and p["origin"] == (10.0, 20.0, 30.0)
        assert p["gravity"] == 9.0 and p["ambient"] == 0.25
        assert p["background"] == pytest.approx((0.1, 0.2, 0.3))
        assert w.time == -math.inf and not w.closed
        w.advance(0.5)
        assert w.time == 0.5
        w.advance(0.5)   # the same time again is fine
        w.reset()
        assert w.time == -math.inf
        assert "sensors" in repr(w)
    assert "closed" in repr(w)
    d = sensim.World().params
    assert d["seed"] == 1 and d["threads"] == 2 and d["gravity"] == G
    assert d["weather"] == {"fog_visibility": 0.0, "rain_rate": 0.0, "snow_rate": 0.0}


def test_weather_is_set_checked_and_changed():
    with sensim.World(threads=0, weather={"rain_rate": 10, "fog_visibility": 500}) as w:
        assert w.params["weather"] == {"fog_visibility": 500.0, "rain_rate": 10.0, "snow_rate": 0.0}
        w.set_weather(snow_rate=1.5)   # the whole weather: keys left out are clear
        assert w.params["weather"] == {"fog_visibility": 0.0, "rain_rate": 0.0, "snow_rate": 1.5}
        with pytest.raises(sensim.InvalidArgument, match="rain_rate"):
            w.set_weather(rain_rate=-1)
        assert w.params["weather"]["snow_rate"] == 1.5   # unchanged by the refused call
        with pytest.raises(ValueError, match="unknown key"):
            w.set_weather(hail=1)
        with pytest.raises(TypeError):
            w.set_weather(3)
    with pytest.raises(sensim.InvalidArgument, match="snow_rate"):
        sensim.World(weather={"snow_rate": 100})
    with pytest.raises(TypeError):
        sensim.World(weather=5)


def test_gravity_defaults_to_normal_gravity_at_the_origin():
    with sensim.World(origin=(60.0, 10.0, 1000.0)) as w:
        assert abs(w.params["gravity"] - 9.816093205983) < 1e-9  # WGS84, TR8350.2 eqs. 4-1, 4-3
    with sensim.World(origin=(60.0, 10.0, 1000.0), gravity="normal") as w:
        assert abs(w.params["gravity"] - 9.816093205983) < 1e-9
    for bad in ("standard", -1.0, float("nan")):
        with pytest.raises(ValueError):
            sensim.World(gravity=bad)


def test_gravity_reaches_the_imu():
    with sensim.World(gravity=3.5) as w:
        car = w.body()
        imu = w.imu(body=car)
        drive(w, car, [0.0])
        assert np.allclose(imu.poll().record["accel"], (0, 0, 3.5), atol=1e-12)


def test_background_seen_by_a_camera():
    with sensim.World(background=(0.25, 0.5, 0.75), ambient=0.0) as w:
        car = w.body()
        up = sensim.quat_from_ypr(0, -math.pi / 2, 0)   # looking at the empty sky
        cam = w.camera(body=car, mount=((0, 0, 1), up), **CAM)
        drive(w, car, [0.0])
        f = cam.poll()
        assert np.allclose(f.data.reshape(-1, 3), (0.25, 0.5, 0.75))
        assert np.all(f.labels["class_id"] == 0) and np.all(f.normals == 0)


def test_meshes_shapes_and_textures(world):
    w, _ = world
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], dtype=np.float64)
    m = w.mesh(tri, [[0, 1, 2], [1, 3, 2]], uvs=[[0, 0], [1, 0], [0, 1], [1, 1]],
               tri_reflectance=[0.1, 0.9], material={"base_color": (1, 0, 0), "roughness": 0.3})
    assert m.triangle_count == 2 and m.world is w
    for kind, size in (("box", (1, 2, 3)), ("sphere", 0.5), ("cylinder", (0.5, 0, 2)),
                       ("cone", (0.5, 0, 1)), ("plane", (4, 4, 0))):
        assert w.shape(kind, size, segments=8).triangle_count > 0
    assert w.shape("plane", (4, 4, 0)).triangle_count == 2
    assert w.shape("box", (1, 1, 1)).triangle_count == 12
    tex = w.texture(np.random.default_rng(0).random((8, 8, 3)))
    w.shape("box", (1, 1, 1), material={"texture": tex})
    with pytest.raises(ValueError):
        w.texture(np.zeros((8, 8, 4)))
    other = sensim.World()
    try:
        with pytest.raises(ValueError):
            other.body(m)                       # a mesh of another world
        with pytest.raises(ValueError):
            other.shape("box", (1, 1, 1), material={"texture": tex})
    finally:
        other.close()


def test_lights(world):
    w, _ = world
    w.light()
    w.light("point", position=(0, 0, 5), intensity=20.0, color=(1, 0.9, 0.8))
    w.light("spot", position=(0, 0, 5), direction=(0, 0, -1), spot_inner=0.2, spot_outer=0.4,
            cast_shadows=False)
    with pytest.raises(sensim.InvalidArgument):
        w.light("sun")
    with pytest.raises(sensim.InvalidArgument):
        w.light("spot", spot_inner=0.5, spot_outer=0.1)


def test_light_changes_the_image():
    frames = []
    for with_light in (False, True):
        w, car = build_world(ambient=0.1)
        if with_light:
            w.light("directional", direction=(0, 0, -1), intensity=3.0)
        cam = w.camera(body=car, mount=(0, 0, 1.5), **CAM)
        drive(w, car, [0.0])
        frames.append(cam.poll())
        w.close()
    dark, lit = frames
    ground = dark.labels["class_id"] == 1
    assert lit.data[ground].mean() > 2 * dark.data[ground].mean()
    assert np.array_equal(dark.depth, lit.depth)


def test_pose_forms(world):
    w, car = world
    q = sensim.quat_from_ypr(0.3, 0, 0)
    forms = [((1, 2, 3), q), [1, 2, 3, *q], sensim.Pose(((1, 2, 3), q)),
             np.array([1, 2, 3, *q])]
    for i, pose in enumerate(forms):
        b = w.body(pose=pose)
        p = b.state_at(0.0)["pose"]
        assert isinstance(p, sensim.Pose)
        assert p.pos == pytest.approx((1, 2, 3)) and p.rot == pytest.approx(q), i
    assert w.body(pose=(4, 5, 6)).state_at(0.0)["pose"] == ((4, 5, 6), (1, 0, 0, 0))
    assert w.body().state_at(0.0)["pose"] == ((0, 0, 0), (1, 0, 0, 0))


def test_body_state_interpolation(world):
    w, car = world
    car.push_state(0.0, ((0, 0, 0), (1, 0, 0, 0)))
    car.push_state(1.0, ((2, 0, 0), sensim.quat_from_ypr(math.pi / 2, 0, 0)))
    s = car.state_at(0.5)
    assert s["pose"].pos == pytest.approx((1, 0, 0))
    assert s["pose"].rot == pytest.approx(sensim.quat_from_ypr(math.pi / 4, 0, 0))
    assert s["vel"] == pytest.approx((2, 0, 0))
    assert car.keyframe_count == 2
    car.push_state(2.0, (3, 0, 0), vel=(1, 0, 0), ang_vel=(0, 0, 0.5))
    assert car.state_at(2.0)["ang_vel"] == (0, 0, 0.5)
    assert car.state_at(5.0)["pose"].pos == (3, 0, 0)   # clamped to the track


def test_static_body_refuses_pushes(world):
    w, _ = world
    b = w.body(w.shape("box", (1, 1, 1)), pose=(1, 0, 0), static=True)
    with pytest.raises(sensim.Error):
        b.push_state(0.0, (0, 0, 0))
    assert b.state_at(0.0)["pose"].pos == (1, 0, 0)
    with pytest.raises(ValueError):
        w.body(class_id=70000)


def test_reset_puts_bodies_back_and_zeroes_counters(world):
    w, car = world
    imu = w.imu(body=car, rate=100)
    drive(w, car, steps(5, 0.01), pose=(1, 2, 3))
    assert imu.frames_captured == 5
    w.reset()
    assert imu.frames_captured == 0 and imu.frames_delivered == 0 and imu.frames_queued == 0
    assert imu.poll() is None
    assert car.state_at(0.0)["pose"].pos == (0, 0, 0)
    drive(w, car, [0.0])
    assert imu.poll().index == 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_advance_all_equals_advancing_each(threads):
    def make(seed):
        w, car = build_world(seed=seed)
        w.camera(body=car, mount=(0, 0, 1.5), filters=[("image_noise", {"sigma": 0.05})], **CAM)
        w.imu(body=car, rate=100, filters=[("imu_noise", {"accel_noise_density": 0.01})])
        return w, car

    batch = [make(s) for s in (1, 2, 3)]
    single = [make(s) for s in (1, 2, 3)]
    for t in steps(11, 0.01):
        pose = ((t, 0, 0), (1, 0, 0, 0))
        for (w, car) in batch + single:
            car.push_state(t, pose, vel=(1, 0, 0), ang_vel=(0, 0, 0))
        sensim.advance_all([w for w, _ in batch], t, threads=threads)
        for w, _ in single:
            w.advance(t)
    for (wb, _), (ws, _) in zip(batch, single):
        assert wb.time == ws.time == 0.1
        for sb, ss in zip(wb.sensors, ws.sensors):
            fb, fs = sb.poll_all(), ss.poll_all()
            assert len(fb) == len(fs) > 0
            for a, b in zip(fb, fs):
                assert_frames_equal(a, b)
    assert batch[0][0].sensors[1].frames_captured == 11
    for w, _ in batch + single:
        w.close()


def test_advance_all_errors():
    w1, c1 = build_world()
    w2, c2 = build_world()
    drive(w2, c2, [1.0])
    with pytest.raises(sensim.StateError) as ei:
        sensim.advance_all([w1, w2], 0.5)     # w2 is already at 1.0
    assert "world 1" in str(ei.value)
    assert w1.time == 0.5 and w2.time == 1.0  # worlds before the failure advanced
    with pytest.raises(TypeError):
        sensim.advance_all([w1, "w2"], 2.0)
    assert w1.time == 0.5                      # nothing advanced on a type error
    sensim.advance_all((), 3.0)
    with pytest.raises(ValueError):
        sensim.advance_all([w1], 3.0, threads=0)
    w1.close()
    w2.close()


@pytest.mark.parametrize("threads", [1, 2])
def test_advance_all_reraises_callback_error(threads):
    worlds = [build_world(), build_world()]
    seen = []
    for i, (w, car) in enumerate(worlds):
        imu = w.imu(body=car)
        if i == 1:   # the second world's callback fails (on a share thread with threads=2)
            imu.set_callback(lambda s, f: 1 / 0)
        else:
            imu.set_callback(lambda s, f: seen.append(f.index))
        car.push_state(0.0, (0, 0, 0))
    with pytest.raises(ZeroDivisionError):
        sensim.advance_all([w for w, _ in worlds], 0.0, threads=threads)
    assert seen == [0] and all(w.time == 0.0 for w, _ in worlds)
    for w, _ in worlds:
        w.close()


def test_gil_released_during_advance():
    """A Python thread keeps counting while the main thread is inside one
    long advance (a large camera frame rendered on the calling thread)."""
    w, car = build_world(threads=0)
    w.camera(body=car, mount=(0, 0, 1.5), width=960, height=720, samples=4)
    car.push_state(0.0, (0, 0, 0))
    count = [0]
    stop = threading.Event()
    inside = threading.Event()

    def counter():
        inside.wait()
        while not stop.is_set():
            count[0] += 1

    th = threading.Thread(target=counter)
    th.start()
    try:
        inside.set()
        t0 = time.perf_counter()
        before = count[0]
        w.advance(0.0)
        during = count[0] - before
        elapsed = time.perf_counter() - t0
    finally:
        stop.set()
        th.join()
        w.close()
    assert elapsed > 0.02, "the frame was too quick to tell"
    # With the GIL held for the whole advance the counter could only move in
    # the switch interval (5 ms) before the call; it counts for the whole call.
    assert during > 10_000, (during, elapsed)


def test_another_thread_is_refused_while_a_world_advances():
    """One thread at a time calls into a world: while the host thread is
    inside advance (here held inside a Python filter), a call from another
    thread raises StateError instead of racing the library."""
    w, car = build_world(threads=0)
    inside, tried = threading.Event(), threading.Event()

    def hold(frame):
        inside.set()
        tried.wait(10)   # releases the GIL while it waits

    w.camera(body=car, filters=[hold], **CAM)
    car.push_state(0.0, (0, 0, 0))
    errors = []

    def other():
        inside.wait(10)
        try:
            w.advance(5.0)
        except sensim.StateError as e:
            errors.append(e)
        finally:
            tried.set()

    th = threading.Thread(target=other)
    th.start()
    w.advance(0.0)
    th.join()
    assert len(errors) == 1 and "another thread" in str(errors[0])
    assert w.time == 0.0
    w.close()


def test_callback_may_not_advance_reset_or_close_its_world():
    w, car = build_world()
    imu = w.imu(body=car, rate=100)
    for call in (lambda: w.advance(1.0), w.reset, w.close):
        def cb(s, f, call=call):
            call()
        imu.set_callback(cb)
        t = w.time + 0.01 if w.time > -1 else 0.0
        car.push_state(t, (0, 0, 0))
        with pytest.raises(sensim.StateError, match="callback"):
            w.advance(t)
        assert not w.closed and w.time == t
    # Other worlds may be stepped from a callback.
    other, ocar = build_world()
    imu.set_callback(lambda s, f: drive(other, ocar, [f.t_capture]))
    drive(w, car, [0.05])
    assert other.time == 0.05
    other.close()
    w.close()


def test_advance_all_refuses_a_world_listed_twice():
    w, car = build_world()
    car.push_state(0.0, (0, 0, 0))
    with pytest.raises(ValueError, match="twice"):
        sensim.advance_all([w, w], 0.0)
    assert w.time == -math.inf
    w.close()


def test_advance_all_leaves_no_stale_callback_errors():
    """The first callback error is raised; the others of the same call are
    not left on their worlds to surface from a later, unrelated advance."""
    (a, ca), (b, cb) = build_world(), build_world()
    try:
        for w, car, tag in ((a, ca, "A"), (b, cb, "B")):
            def raise_first(s, f, tag=tag):
                if f.index == 0:
                    raise KeyError(tag)
            w.imu(body=car, rate=100).set_callback(raise_first)
            car.push_state(0.0, (0, 0, 0))
        with pytest.raises(KeyError, match="A"):
            sensim.advance_all([a, b], 0.0)
        # B's frame 0 error belongs to that advance_all; B's next step is clean.
        cb.push_state(0.01, (0, 0, 0))
        b.advance(0.01)
    finally:
        a.close()
        b.close()
