"""What a Python user expects of the package (issue 31): seeds that never
wrap, Pose(pos, rot), errors naming shapes and refusing complex input,
numbered default sensor names, reprs, and a Python filter's exception
chained as the cause of the error it leads to, with the world's behaviour
after it defined (the frame is dropped and counted, the sensor goes on)."""

import traceback

import numpy as np
import pytest

import sensim

from conftest import CAM, IDENTITY


# ---- seeds -------------------------------------------------------------------

@pytest.mark.parametrize("seed", [-1, 2 ** 64, 2 ** 64 + 5, 2 ** 80, -(2 ** 70)])
def test_seeds_outside_uint64_are_refused_not_wrapped(seed):
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*64\)"):
        sensim.World(seed=seed)
    chain = sensim.FilterChain("gray_f32")
    frame = sensim.Frame.from_array(np.zeros((2, 2), np.float32), "gray_f32")
    with pytest.raises(ValueError, match="seed"):
        chain.run(frame, seed=seed)
    with pytest.raises(ValueError, match="seed"):
        sensim.augment_noise(np.zeros((2, 2), np.float32), 0.1, 0.0, seed=seed)


@pytest.mark.parametrize("seed", [1.0, "3", None])
def test_seeds_that_are_not_ints_are_refused(seed):
    with pytest.raises(TypeError, match="seed must be an int"):
        sensim.World(seed=seed)


def test_the_whole_uint64_range_is_a_seed():
    for seed in (0, 5, 2 ** 63, 2 ** 64 - 1, np.uint64(2 ** 64 - 1)):
        with sensim.World(seed=seed) as w:
            assert w.params["seed"] == int(seed)


# ---- Pose ----------------------------------------------------------------------

def test_pose_is_built_as_documented():
    p = sensim.Pose((1, 2, 3), (1, 0, 0, 0))
    assert p.pos == (1.0, 2.0, 3.0) and p.rot == (1.0, 0.0, 0.0, 0.0)
    assert sensim.Pose(pos=(1, 2, 3), rot=(1, 0, 0, 0)) == p
    assert sensim.Pose((1, 2, 3)) == p                       # rotation: identity
    assert sensim.Pose(p) == p and sensim.Pose(((1, 2, 3), (1, 0, 0, 0))) == p
    assert sensim.Pose((1, 2, 3, 1, 0, 0, 0)) == p
    pos, rot = p                                              # still a pair
    assert isinstance(p, tuple) and pos == p.pos and rot == p.rot
    assert repr(p) == "sensim.Pose(pos=(1.0, 2.0, 3.0), rot=(1.0, 0.0, 0.0, 0.0))"
    # What comes back from the library is the same type.
    assert type(sensim.pose_compose(p, IDENTITY)) is sensim.Pose


@pytest.mark.parametrize("args, err, match", [
    (((1, 2), (1, 0, 0, 0)), ValueError, r"Pose\.pos: expected 3 numbers"),
    (((1, 2, 3), (2, 0, 0, 0)), ValueError, "must be unit"),
    (((1, 2, float("nan")), (1, 0, 0, 0)), ValueError, "must be finite"),
    ((None,), TypeError, "pos must be"),
    (((1, 2, 3), (1, 0, 0, 0), 5), TypeError, "at most 2"),
])
def test_pose_refuses_what_no_pose_argument_takes(args, err, match):
    with pytest.raises(err, match=match):
        sensim.Pose(*args)


# ---- meshes ----------------------------------------------------------------------

def test_vertex_arrays_of_the_wrong_shape_are_named_by_their_shape():
    with sensim.World() as w:
        with pytest.raises(ValueError, match=r"vertices: expected shape \(n, 3\), got \(5, 4\)"):
            w.mesh(np.zeros((5, 4)), [[0, 1, 2]])
        with pytest.raises(ValueError, match=r"got \(2, 3, 3\)"):
            w.mesh(np.zeros((2, 3, 3)), [[0, 1, 2]])
        with pytest.raises(ValueError, match=r"indices: expected shape \(n, 3\), got \(4,\)"):
            w.mesh(np.zeros((3, 3)), [0, 1, 2, 0])
        with pytest.raises(ValueError, match=r"tri_reflectance: expected shape \(n,\), got \(1, 2\)"):
            w.mesh(np.zeros((3, 3)), [[0, 1, 2]], tri_reflectance=np.zeros((1, 2)))


def test_complex_arrays_are_refused_not_cast():
    with sensim.World() as w, _no_warning():
        with pytest.raises(TypeError, match="vertices: complex values are refused"):
            w.mesh(np.zeros((3, 3), complex), [[0, 1, 2]])
        with pytest.raises(TypeError, match="uvs: complex"):
            w.mesh(np.zeros((3, 3)), [[0, 1, 2]], uvs=np.zeros((3, 2), np.complex64))
        with pytest.raises(TypeError, match="complex"):
            w.mesh(np.zeros((3, 3)), np.array([[0, 1, 2]], complex))


class _no_warning:
    """No warning (a ComplexWarning before this issue) may be issued inside."""

    def __enter__(self):
        import warnings
        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


# ---- sensor names, limits ------------------------------------------------------------

def test_unnamed_sensors_are_numbered_by_kind(make_world):
    w, car = make_world()
    names = [w.camera(body=car, **CAM).name, w.camera(body=car, **CAM).name,
             w.lidar(body=car, columns=8).name, w.camera(body=car, **CAM).name,
             w.add_sensor("camera", body=car, **CAM).name]
    assert names == ["camera", "camera_2", "lidar", "camera_3", "camera_4"]


def test_lidar_columns_limit_is_one_number(make_world):
    w, car = make_world()
    with pytest.raises(sensim.InvalidArgument, match=r"\[1, 1000000\]"):
        w.lidar(body=car, columns=1_000_001)
    with pytest.raises(sensim.InvalidArgument, match=r"\[1, 1000000\]"):
        w.lidar(body=car, columns=0)


# ---- reprs ------------------------------------------------------------------------------

def test_reprs_say_what_a_handle_is():
    w = sensim.World()
    box = w.shape("box", (1, 1, 1))
    assert repr(box) == "<sensim.Mesh box, 12 triangles>"
    tri = w.mesh(np.eye(3), [[0, 1, 2]])
    assert repr(tri) == "<sensim.Mesh from arrays, 3 vertices, 1 triangles>"
    b = w.body(box, class_id=2, static=True)
    assert repr(b) == "<sensim.Body with mesh, class_id=2, static, 1 keyframe>"
    car = w.body()
    car.push_state(0.0, IDENTITY)
    car.push_state(0.1, IDENTITY)
    assert repr(car) == "<sensim.Body no mesh, class_id=0, %d keyframes>" % car.keyframe_count
    assert car.keyframe_count >= 2
    tex = w.texture(np.zeros((4, 8, 3)))
    assert repr(tex) == "<sensim.Texture 8x4>"
    car.destroy()
    assert repr(car) == "<sensim.Body no mesh, class_id=0 (destroyed)>"
    w.close()
    assert repr(box) == "<sensim.Mesh box (world closed)>"
    chain = sensim.FilterChain("rgb_f32")
    assert repr(chain) == "<sensim.FilterChain rgb_f32, no filters>"
    chain.add("srgb8")

    def mine(frame):
        pass

    chain.add(mine)
    chain.add(mine, name="other")
    assert repr(chain) == "<sensim.FilterChain rgb_f32 -> rgba8: srgb8, mine, other>"


# ---- exceptions in Python filters -------------------------------------------------------

def lookup(frame):
    table = {}
    return table["missing"]  # the line the traceback must show


def test_a_filter_exception_is_the_cause_with_its_traceback(make_world):
    w, car = make_world()
    imu = w.imu(body=car, rate=10, filters=[lookup])
    car.push_state(0.0, IDENTITY)
    with pytest.raises(sensim.FilterError, match="python filter 'lookup': KeyError: 'missing'") as info:
        w.advance(0.0)
    err = info.value
    assert isinstance(err, sensim.Error) and not isinstance(err, ValueError)
    assert isinstance(err.__cause__, KeyError) and err.__cause__.args == ("missing",)
    assert err.__suppress_context__
    frames = traceback.extract_tb(err.__cause__.__traceback__)
    assert frames[-1].name == "lookup" and 'table["missing"]' in frames[-1].line
    text = "".join(traceback.format_exception(err))
    assert "direct cause" in text and 'table["missing"]' in text
    assert imu.frames_failed == 1


def test_after_a_filter_fails_the_frame_is_dropped_and_the_sensor_goes_on(make_world):
    w, car = make_world(threads=2)
    calls = []

    def flaky(frame):
        calls.append(frame.index)
        if frame.index in (1, 2):
            raise RuntimeError("bad frame %d" % frame.index)

    imu = w.imu(body=car, rate=10, lag=0.05, filters=[flaky])
    failures = []
    got = []
    for k in range(60):
        t = k * 0.01
        car.push_state(t, IDENTITY)
        try:
            w.advance(t)
        except sensim.FilterError as e:
            failures.append((k, str(e.__cause__)))
        got += [f.index for f in imu.poll_all()]
        assert w.time == t  # a failed advance still moved the clock
    # Each failure is raised once, by the advance reaching that frame's
    # delivery time (t_k + lag), with that frame's exception as its cause.
    assert [msg for _, msg in failures] == ["bad frame 1", "bad frame 2"]
    due = [next(j for j in range(60) if j * 0.01 >= i / 10 + 0.05) for i in (1, 2)]
    assert [k for k, _ in failures] == due
    assert got == [0, 3, 4, 5]
    assert (imu.frames_captured, imu.frames_delivered, imu.frames_failed) == (6, 4, 2)
    w.reset()
    assert imu.frames_failed == 0


def test_advance_all_and_filter_chain_chain_the_cause_too(make_world):
    w, car = make_world()
    w.imu(body=car, rate=10, filters=[lookup])
    car.push_state(0.0, IDENTITY)
    with pytest.raises(sensim.FilterError, match="world 0") as info:
        sensim.advance_all([w], 0.0)
    assert isinstance(info.value.__cause__, KeyError)
    chain = sensim.FilterChain("gray_f32")
    chain.add(lookup)
    frame = sensim.Frame.from_array(np.zeros((2, 2), np.float32), "gray_f32")
    with pytest.raises(sensim.FilterError) as info:
        chain.run(frame)
    assert isinstance(info.value.__cause__, KeyError)


def test_a_frame_callback_exception_keeps_its_traceback(make_world):
    w, car = make_world()
    imu = w.imu(body=car, rate=10)
    imu.set_callback(lambda sensor, frame: lookup(frame))
    car.push_state(0.0, IDENTITY)
    with pytest.raises(KeyError) as info:
        w.advance(0.0)
    names = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "lookup" in names
