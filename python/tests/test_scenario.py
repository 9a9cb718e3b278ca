"""sensim.Scenario: a scenario file run through Python must give what
`sensim run` gives, and every misuse must raise, never crash."""
import filecmp
import gc
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import sensim
from sensim import _sensim as ext

ROOT = Path(__file__).resolve().parents[2]
CART = ROOT / "examples" / "cart.json"


def sensim_cli():
    """The `sensim` program built next to this package (build/sensim)."""
    here = Path(sensim.__file__).resolve().parent  # build/python/sensim
    cands = [here.parents[1] / "sensim", ROOT / "build" / "sensim"]
    if os.environ.get("SENSIM_BUILD_DIR"):  # set by ctest
        cands.insert(0, Path(os.environ["SENSIM_BUILD_DIR"]) / "sensim")
    for cand in cands:
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    found = shutil.which("sensim")
    if not found:
        pytest.skip("the sensim program is not built")
    return found


def same_tree(a, b):
    """Every file under a and b, byte for byte (names and contents)."""
    fa = sorted(p.relative_to(a) for p in Path(a).rglob("*") if p.is_file())
    fb = sorted(p.relative_to(b) for p in Path(b).rglob("*") if p.is_file())
    assert fa == fb
    assert fa, "nothing was written"
    match, mismatch, errors = filecmp.cmpfiles(a, b, [str(p) for p in fa], shallow=False)
    assert not mismatch and not errors, (mismatch, errors)


def test_run_writes_files_byte_identical_to_the_cli(tmp_path):
    cli_out, py_out = tmp_path / "cli", tmp_path / "py"
    subprocess.run([sensim_cli(), "run", str(CART), "--out", str(cli_out), "--threads", "2"],
                   check=True, capture_output=True)
    with ext.Scenario(CART, threads=2) as s:
        summary = s.run(py_out)
    same_tree(cli_out, py_out)
    # The summary counts what was written: a PCD per scan, a CSV row per fix / sample.
    assert summary["frames"]["lidar"] == len(list((py_out / "lidar").glob("*.pcd")))
    rows = (py_out / "imu" / "imu.csv").read_text().count("\n") - 1
    assert summary["frames"]["imu"] == rows
    assert summary["sensors"] == 3 and summary["sim_time"] == pytest.approx(3.0)


def test_run_records_the_mcap_the_cli_records(tmp_path):
    cli_mcap, py_mcap = tmp_path / "cli.mcap", tmp_path / "py.mcap"
    subprocess.run([sensim_cli(), "run", str(CART), "--out", str(tmp_path / "cli"), "--mcap", str(cli_mcap),
                    "--lidar-time", "end"], check=True, capture_output=True)
    with ext.Scenario(CART) as s:
        s.run(tmp_path / "py", mcap=py_mcap, lidar_time="end")
    data = py_mcap.read_bytes()
    assert data[:8] == data[-8:] == b"\x89MCAP0\r\n"
    assert data == cli_mcap.read_bytes()
    assert (tmp_path / "py" / "lidar" / "poses.txt").is_file()


@pytest.mark.parametrize("kw, match", [
    ({"lidar_time": "end"}, "give mcap= too"),
    ({"mcap": "x.mcap", "lidar_time": "middle"}, "lidar_time 'middle'"),
    ({"mcap": ""}, "mcap must name a file"),
])
def test_run_refuses_bad_recording_arguments(tmp_path, kw, match):
    kw = {k: (str(tmp_path / v) if k == "mcap" and v else v) for k, v in kw.items()}
    with ext.Scenario(CART) as s:
        with pytest.raises(ValueError, match=match):
            s.run(tmp_path / "out", **kw)
        s.run(None)  # the refusal ran nothing: the scenario still runs
    assert not (tmp_path / "out").exists()


def test_from_string_with_base_dir_runs_like_the_file(tmp_path):
    text = CART.read_text()
    with ext.Scenario.from_string(text, base_dir=CART.parent, source="cart.json") as s:
        assert s.duration == 3.0 and s.step == pytest.approx(0.001)
        s.run(tmp_path / "a")
    with ext.Scenario(CART) as s:
        s.run(tmp_path / "b")
    same_tree(tmp_path / "a", tmp_path / "b")


def test_step_to_and_polling_gives_the_samples_run_writes(tmp_path):
    with ext.Scenario(CART) as s:
        s.run(tmp_path)
    table = ext.table_read(tmp_path / "imu" / "imu.csv")
    with ext.Scenario(CART) as s:
        imu = s.world.sensor("imu")
        frames = []
        n = int(round(s.duration / s.step))
        for k in range(n + 1):
            s.step_to(k * s.step)
            frames += imu.poll_all()
    assert len(frames) == len(table["t"])
    acc = np.array([f.record["accel"] for f in frames])
    gyro = np.array([f.record["gyro"] for f in frames])
    assert np.array_equal(np.array([f.t_capture for f in frames]), table["t"])
    assert np.array_equal(acc, np.column_stack([table["ax"], table["ay"], table["az"]]))
    assert np.array_equal(gyro, np.column_stack([table["gx"], table["gy"], table["gz"]]))


def test_properties_bodies_and_warnings():
    with ext.Scenario(CART) as s:
        bodies = s.bodies
        assert [b["name"] for b in bodies] == ["ground", "wall_east", "wall_north", "cart", "ball"]
        cart = bodies[3]
        assert cart["has_motion"] and not cart["static"]
        assert bodies[0]["static"] and not bodies[0]["has_motion"]
        assert isinstance(cart["body"], sensim.Body)
        s.step_to(1.0)
        pos = cart["body"].state_at(1.0)["pose"].pos
        assert pos[0] == pytest.approx(1.5, abs=1e-9)  # waypoint (t = 1 s, x = 1.5 m)
        assert s.warnings == []
        assert [x.name for x in s.world.sensors] == ["lidar", "gnss", "imu"]
        assert s.world is s.world  # one World object per scenario


def test_warning_of_a_camera_writing_nothing():
    text = """{"duration": 0.2, "bodies": [{"name": "b"}],
               "sensors": [{"name": "cam", "type": "camera", "body": "b", "rate": 10,
                            "width": 16, "height": 12}]}"""
    with ext.Scenario.from_string(text) as s:
        assert len(s.warnings) == 1 and "'cam'" in s.warnings[0]


def test_progress_is_called_and_its_exception_is_raised_after_the_run(tmp_path):
    seen = []
    with ext.Scenario(CART) as s:
        s.run(None, progress=lambda t, d: seen.append((t, d)))
    assert seen == [(1.0, 3.0), (2.0, 3.0), (3.0, 3.0)]

    class Stop(Exception):
        pass

    calls = []

    def bad(t, d):
        calls.append(t)
        raise Stop("from progress")

    with ext.Scenario(CART) as s:
        with pytest.raises(Stop):
            s.run(tmp_path, progress=bad)
        assert calls == [1.0]  # not called again after it raised
        assert (tmp_path / "imu" / "imu.csv").is_file()  # the run itself completed


def test_load_errors_raise_the_status_exception(tmp_path):
    with pytest.raises(sensim.NotFound):
        ext.Scenario(tmp_path / "missing.json")
    with pytest.raises(sensim.ParseError) as e:
        ext.Scenario.from_string('{"duration": 1, ', source="broken.json")
    assert "broken.json" in str(e.value) and e.value.status == -5
    with pytest.raises(sensim.ParseError):
        ext.Scenario.from_string('{"duration": 1, "bodys": []}')  # unknown key
    with pytest.raises(sensim.InvalidArgument):
        ext.Scenario(ROOT / "tests" / "data" / "bad_rate.json")
    with pytest.raises(TypeError):
        ext.Scenario(None)
    with pytest.raises(TypeError):
        ext.Scenario.from_string(42)
    with pytest.raises(ValueError):
        ext.Scenario(CART, threads=-1)


def test_closed_scenario_and_its_world_raise_state_error():
    s = ext.Scenario(CART)
    w = s.world
    imu = w.sensor("imu")
    body = s.bodies[3]["body"]
    s.step_to(0.5)
    frame = imu.poll()
    s.close()
    s.close()  # twice is fine
    assert s.closed and w.closed
    for call in (lambda: s.run(None), lambda: s.step_to(1.0), lambda: s.duration,
                 lambda: s.world, lambda: s.bodies, lambda: w.advance(1.0), lambda: imu.poll(),
                 lambda: body.push_state(1.0, None), lambda: ext.noise_calib_scenario(s, "imu", 2)):
        with pytest.raises(sensim.StateError):
            call()
    assert frame.record["accel"][2] > 9  # a frame taken before outlives the scenario


def test_world_keeps_the_scenario_alive():
    w = ext.Scenario(CART).world  # the Scenario object itself is dropped here
    gc.collect()
    w.advance(0.0)
    assert [x.name for x in w.sensors] == ["lidar", "gnss", "imu"]
    with pytest.raises(sensim.StateError):
        w.close()  # the scenario owns the world


def test_scenario_runs_once_and_not_after_stepping(tmp_path):
    with ext.Scenario(CART) as s:
        s.run(None)
        with pytest.raises(sensim.StateError):
            s.run(None)
    with ext.Scenario(CART) as s:
        s.step_to(0.1)
        with pytest.raises(sensim.StateError):
            s.run(None)
        with pytest.raises(sensim.StateError):
            s.step_to(0.05)  # time going back
    with ext.Scenario(CART) as s:
        with pytest.raises(TypeError):
            s.run(tmp_path, progress=5)
        with pytest.raises(TypeError):
            s.step_to("soon")


def test_calls_from_frame_callbacks_and_other_threads_are_refused():
    import threading
    with ext.Scenario(CART) as s:
        imu = s.world.sensor("imu")
        refused = []

        def cb(sensor, frame):
            for call in (lambda: s.step_to(2.0), s.close, lambda: s.run(None)):
                try:
                    call()
                except sensim.StateError:
                    refused.append(1)

        imu.set_callback(cb)
        s.step_to(0.1)
        assert refused and len(refused) % 3 == 0  # every re-entrant call, every frame
        imu.set_callback(None)
        s.step_to(0.2)  # the scenario is still whole

    started, proceed, errors = threading.Event(), threading.Event(), []
    with ext.Scenario(CART) as s:
        w = s.world

        def progress(t, d):
            if t == 1.0:
                started.set()
                proceed.wait(30)

        th = threading.Thread(target=lambda: s.run(None, progress=progress))
        th.start()
        assert started.wait(30)
        for call in (s.close, lambda: s.step_to(5.0), lambda: w.advance(5.0), lambda: s.bodies):
            try:
                call()
            except sensim.StateError as e:
                errors.append(e)
        proceed.set()
        th.join(60)
        assert len(errors) == 4 and not s.closed
