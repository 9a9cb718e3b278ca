"""Errors: each C status raises its class, which is also the builtin a
Python user would catch; messages are sensim's."""

import math

import numpy as np
import pytest

import sensim
from conftest import CAM, drive

STATUS = {  # class name -> (C status, builtin base or None)
    "InvalidArgument": (-1, ValueError),
    "OutOfMemory": (-2, MemoryError),
    "NotFound": (-3, LookupError),
    "IOError": (-4, OSError),
    "ParseError": (-5, ValueError),
    "PayloadTypeError": (-6, TypeError),
    "StateError": (-7, None),
    "BackendError": (-8, None),
}


@pytest.mark.parametrize("name", sorted(STATUS))
def test_exception_hierarchy(name):
    cls = getattr(sensim, name)
    status, builtin = STATUS[name]
    assert issubclass(cls, sensim.Error) and issubclass(sensim.Error, RuntimeError)
    if builtin is not None:
        assert issubclass(cls, builtin)
    else:
        assert not issubclass(cls, (ValueError, LookupError, TypeError, OSError))
    assert sensim.status_str(status) not in ("", "unknown")


def raises(cls, status, fn):
    with pytest.raises(cls) as ei:
        fn()
    assert type(ei.value) is cls
    assert ei.value.status == status
    return str(ei.value)


def test_unknown_sensor_key_suggests_the_right_one(world):
    w, car = world
    msg = raises(sensim.ParseError, -5, lambda: w.camera(body=car, widht=64))
    assert "widht" in msg and "did you mean 'width'" in msg
    msg = raises(sensim.ParseError, -5, lambda: w.add_sensor("lidar", name="l", colums=10))
    assert "did you mean 'columns'" in msg
    assert w.sensors == []  # nothing half-made


def test_unknown_names(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    msg = raises(sensim.NotFound, -3, lambda: cam.add_filter("srgb9"))
    assert "srgb8" in msg
    raises(sensim.NotFound, -3, lambda: w.add_sensor("sonar"))
    raises(sensim.NotFound, -3, lambda: sensim.sensor_kind_keys("sonar"))
    raises(sensim.NotFound, -3, lambda: sensim.dtype("pints"))
    msg = raises(sensim.NotFound, -3, lambda: w.lidar(name="l", preset="VLP-17"))
    assert "VLP-16" in msg
    # A NotFound is a LookupError.
    with pytest.raises(LookupError):
        w.sensor("nope")


def test_filter_payload_mismatch(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    msg = raises(sensim.PayloadTypeError, -6, lambda: cam.add_filter("points"))
    assert "rgb_f32" in msg and "beams" in msg
    with pytest.raises(TypeError):
        cam.add_filter("imu_noise")
    # Through filters=: the position in the list is named, the class kept.
    msg = raises(sensim.PayloadTypeError, -6,
                 lambda: w.camera(name="c2", body=car, filters=["srgb8", "srgb8"], **CAM))
    assert "filters[1]" in msg
    assert cam.output_type == "rgb_f32"  # the chain is unchanged


def test_bad_filter_params(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    msg = raises(sensim.InvalidArgument, -1, lambda: cam.add_filter("srgb8", {"exposur": 2}))
    assert "did you mean 'exposure'" in msg
    raises(sensim.InvalidArgument, -1, lambda: cam.add_filter("srgb8", {"exposure": -1}))
    with pytest.raises(ValueError):
        cam.add_filter("srgb8", {"exposure": float("nan")})
    with pytest.raises(TypeError):
        cam.add_filter("srgb8", [1, 2])


def test_values_out_of_range(world):
    w, car = world
    raises(sensim.InvalidArgument, -1, lambda: w.gnss(body=car, satellites=200))
    raises(sensim.InvalidArgument, -1, lambda: w.imu(body=car, rate=-1))
    raises(sensim.InvalidArgument, -1, lambda: w.camera(body=car, width=0))


def test_nan_pose_is_value_error(world):
    w, car = world
    before = car.keyframe_count
    with pytest.raises(ValueError):
        car.push_state(0.0, (math.nan, 0, 0))
    with pytest.raises(ValueError):
        car.push_state(0.0, ((0, 0, 0), (math.nan, 0, 0, 0)))
    with pytest.raises(ValueError):
        w.body(pose=(0, math.inf, 0))
    with pytest.raises(ValueError):
        w.camera(body=car, mount=(0, 0, math.nan), **CAM)
    assert car.keyframe_count == before  # nothing was pushed


def test_bad_pose_messages_show_the_number(world):
    w, car = world
    with pytest.raises(ValueError) as ei:
        car.push_state(0.0, (math.nan, 0, 0))
    assert "%" not in str(ei.value) and "nan" in str(ei.value)
    with pytest.raises(ValueError) as ei:
        car.push_state(0.0, ((0, 0, 0), (1, 1, 0, 0)))
    assert "%" not in str(ei.value) and "1.41421356" in str(ei.value)


def test_non_unit_quaternion(world):
    w, car = world
    with pytest.raises(ValueError, match="unit"):
        car.push_state(0.0, ((0, 0, 0), (1, 1, 0, 0)))
    with pytest.raises(ValueError, match="unit"):
        car.push_state(0.0, (0, 0, 0, 0.5, 0, 0, 0))
    with pytest.raises(ValueError):
        w.body(pose=((0, 0, 0), (0, 0, 0, 0)))
    # Unit to 1e-6 is accepted (7-sequence form).
    car.push_state(0.0, (1, 2, 3, 1 + 1e-8, 0, 0, 0))
    assert car.state_at(0.0)["pose"].pos == (1.0, 2.0, 3.0)


def test_malformed_pose_shapes(world):
    w, car = world
    with pytest.raises(ValueError):
        car.push_state(0.0, (0, 0, 0, 0))
    with pytest.raises(TypeError):
        car.push_state(0.0, (0, 0))  # a pair whose position is not a sequence
    with pytest.raises(ValueError):
        car.push_state(0.0, (0, 0, 0, 1))
    with pytest.raises(TypeError):
        car.push_state(0.0, 5)
    with pytest.raises(ValueError):
        car.push_state(0.0, (0, 0, 0), vel=(1, 0, 0))  # vel without ang_vel


def test_time_going_back_is_state_error(world):
    w, car = world
    w.camera(body=car, **CAM)
    drive(w, car, [0.0, 0.1])
    msg = raises(sensim.StateError, -7, lambda: w.advance(0.05))
    assert "0.05" in msg
    raises(sensim.StateError, -7, lambda: car.push_state(0.05, (0, 0, 0)))
    # Pushes must increase strictly.
    car.push_state(0.2, (0, 0, 0))
    raises(sensim.StateError, -7, lambda: car.push_state(0.2, (0, 0, 0)))
    assert w.time == 0.1
    raises(sensim.InvalidArgument, -1, lambda: w.advance(math.nan))


def test_filter_after_first_capture_is_state_error(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    drive(w, car, [0.0])
    raises(sensim.StateError, -7, lambda: cam.add_filter("srgb8"))
    raises(sensim.StateError, -7, lambda: cam.add_filter(lambda f: None))


def test_bad_mesh_arrays(world):
    w, _ = world
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float32)
    with pytest.raises(ValueError):
        w.mesh(np.zeros((3, 2)), [[0, 1, 2]])            # vertices not (N, 3)
    with pytest.raises(ValueError):
        w.mesh(tri, [[0, 1]])                            # indices not (M, 3)
    with pytest.raises(ValueError):
        w.mesh(tri, [[0, -1, 2]])                        # negative index
    with pytest.raises(ValueError):
        w.mesh(tri, [[0, 1, 2 ** 40]])                   # beyond uint32
    msg = raises(sensim.InvalidArgument, -1, lambda: w.mesh(tri, [[0, 1, 3]]))
    assert "3" in msg                                   # index past the vertices
    raises(sensim.InvalidArgument, -1,
           lambda: w.mesh([[0, 0, math.nan], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]))
    with pytest.raises(ValueError):
        w.mesh(tri, [[0, 1, 2]], uvs=np.zeros((2, 2)))   # uvs rows != vertices
    with pytest.raises(ValueError):
        w.mesh(tri, [[0, 1, 2]], tri_reflectance=[0.5, 0.5])
    m = w.mesh(tri, np.array([[0, 1, 2]], dtype=np.int64))
    assert m.triangle_count == 1


def test_bad_material_and_shape(world):
    w, _ = world
    msg = raises(sensim.InvalidArgument, -1,
                 lambda: w.shape("box", (1, 1, 1), material={"roughnes": 0.5}))
    assert "did you mean 'roughness'" in msg
    msg = raises(sensim.InvalidArgument, -1, lambda: w.shape("boxx", (1, 1, 1)))
    assert "box" in msg
    raises(sensim.InvalidArgument, -1, lambda: w.shape("box", (0, 1, 1)))


def test_python_filter_exception_surfaces_from_advance(world):
    w, car = world

    def exploding_filter(frame):
        raise KeyError("kaboom 42")

    cam = w.camera(body=car, filters=[exploding_filter], **CAM)
    with pytest.raises(sensim.Error) as ei:
        drive(w, car, [0.0])
    msg = str(ei.value)
    assert "exploding_filter" in msg and "KeyError" in msg and "kaboom 42" in msg
    assert "camera" in msg
    assert cam.poll() is None


def test_python_filter_wrong_output_type(world):
    w, car = world

    def liar(frame):
        pass  # declares gray_f32 but leaves rgb_f32

    cam = w.camera(body=car, **CAM)
    cam.add_filter(liar, output="gray_f32", name="liar")
    assert cam.output_type == "gray_f32"
    with pytest.raises(sensim.PayloadTypeError) as ei:
        drive(w, car, [0.0])
    assert "liar" in str(ei.value) and "rgb_f32" in str(ei.value)


def test_callback_exception_is_reraised_by_advance(world):
    w, car = world
    imu = w.imu(body=car, rate=100)
    seen = []

    class Boom(Exception):
        pass

    def cb(sensor, frame):
        seen.append(frame.index)
        raise Boom("from the callback")

    imu.set_callback(cb)
    with pytest.raises(Boom, match="from the callback"):
        drive(w, car, [0.0])
    assert seen == [0]
    # The error was reported once; the world goes on.
    imu.set_callback(None)
    drive(w, car, [0.01])
    assert imu.poll().index == 1
    with pytest.raises(TypeError):
        imu.set_callback(42)


def test_set_overrun_policy_checked(world):
    w, car = world
    cam = w.camera(body=car, **CAM)
    raises(sensim.InvalidArgument, -1, lambda: cam.set_overrun(2, "drop"))
    raises(sensim.InvalidArgument, -1, lambda: cam.set_overrun(5000))
