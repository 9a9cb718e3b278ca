"""Sweeps from Python (sensim.Sweep, docs/sweep.md): any scheduler gets the
files `sensim sweep` writes alone: runs executed in another order, or two
at a time on threads, reduce to the same bytes; reruns skip; bad files
raise; a failing run is recorded, not raised."""
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import sensim

# A plane, a body driving east and a GNSS and an IMU on it: 0.5 s per run.
SCENARIO = {
    "world": {"seed": 1},
    "duration": 0.5,
    "meshes": [{"name": "ground", "shape": {"kind": "plane", "size": [20, 20, 0]}}],
    "bodies": [
        {"name": "ground", "mesh": "ground", "static": True},
        {"name": "cart", "motion": {"type": "line", "start": [0, 0, 0], "velocity": [1, 0, 0]}},
    ],
    "sensors": [
        {"name": "gnss", "type": "gnss", "body": "cart", "rate": 10,
         "filters": [{"name": "gnss_noise", "params": {"sigma": [0.5, 0.5, 1.0]}}],
         "output": {"format": "csv"}},
        {"name": "imu", "type": "imu", "body": "cart", "rate": 100,
         "filters": [{"name": "imu_noise"}], "output": {"format": "csv"}},
    ],
}


def sweep_text(sigmas=(0.2, 0.5), rate=100):
    return json.dumps({
        "name": "py",
        "scenario": SCENARIO,
        "axes": [
            {"seeds": {"first": 3, "count": 2}},
            {"name": "sigma", "pointer": "/sensors/0/filters/0/params/sigma",
             "values": [[s, s, 2 * s] for s in sigmas]},
            {"name": "imu_rate", "variants": [{"name": "r%d" % rate, "set": {"/sensors/1/rate": rate}}]},
        ],
    })


def tree(root):
    """Every file under root (relative path -> bytes)."""
    root = Path(root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_sweep_lists_its_runs():
    s = sensim.Sweep(text=sweep_text(), source="py.json")
    assert (s.name, s.kind, len(s), s.threads) == ("py", "scenario", 4, 0)
    assert s.label(1) == "seed=3 sigma=[0.5,0.5,1] imu_rate=r100"
    assert s.run_dir(3) == "run_0003"
    with pytest.raises(IndexError):
        s.label(4)


def test_any_order_and_two_threads_give_the_serial_bytes(tmp_path):
    serial, backwards, pooled = tmp_path / "serial", tmp_path / "backwards", tmp_path / "pooled"
    s = sensim.Sweep(text=sweep_text(), source="py.json")
    assert s.run(serial) == {"runs": 4, "ok": 4, "failed": 0, "missing": 0, "skipped": 0}

    s.prepare(backwards)
    records = [None] * len(s)
    for i in reversed(range(len(s))):
        records[i] = s.execute(backwards, i)
    assert s.reduce(backwards, records) == {"runs": 4, "ok": 4, "failed": 0, "missing": 0}

    s.prepare(pooled)
    with ThreadPoolExecutor(max_workers=2) as pool:
        records = list(pool.map(lambda i: s.execute(pooled, i), range(len(s))))
    s.reduce(pooled, records)

    want = tree(serial)
    assert tree(backwards) == want and tree(pooled) == want
    # The runs differ where their seeds and sigmas say they should.
    gnss = [want["run_%04d/gnss/gnss.csv" % i] for i in range(4)]
    assert len(set(gnss)) == 4
    rows = (serial / "summary.csv").read_text().splitlines()
    assert rows[0] == "run,status,seed,sigma,imu_rate,world_seed,sim_time,frames_gnss,frames_imu,error"
    assert rows[1] == 'run_0000,ok,3,"[0.2,0.2,0.4]",r100,3,0.5,6,51,'


def test_rerun_skips_complete_runs_and_redoes_changed_ones(tmp_path):
    s = sensim.Sweep(text=sweep_text(), source="py.json")
    s.run(tmp_path)
    manifest = json.loads((tmp_path / "run_0002" / "manifest.json").read_text())
    assert manifest["parameters"] == {"seed": 4, "sigma": [0.2, 0.2, 0.4], "imu_rate": "r100"}
    assert s.complete(tmp_path, 2) == (tmp_path / "run_0002" / "manifest.json").read_text()
    assert s.run(tmp_path)["skipped"] == 4
    # A changed value makes runs stale: those with it are redone, the rest kept.
    t = sensim.Sweep(text=sweep_text(sigmas=(0.2, 0.7)), source="py.json")
    assert [t.complete(tmp_path, i) is not None for i in range(4)] == [True, False, True, False]
    assert t.run(tmp_path)["skipped"] == 2


def test_a_failing_run_is_recorded_and_the_others_run(tmp_path):
    s = sensim.Sweep(text=sweep_text(sigmas=(0.2, -1.0)), source="py.json")
    r = s.run(tmp_path)
    assert (r["ok"], r["failed"]) == (2, 2)
    m = json.loads((tmp_path / "run_0001" / "manifest.json").read_text())
    assert m["status"] == "failed" and "sigma" in m["error"]
    assert "results" not in m


def test_bad_sweeps_raise(tmp_path):
    with pytest.raises(sensim.ParseError, match="unknown key 'axis'; did you mean 'axes'"):
        sensim.Sweep(text=json.dumps({"scenario": SCENARIO, "axis": []}))
    bad_pointer = json.dumps({"scenario": SCENARIO, "axes": [
        {"name": "x", "pointer": "/sensors/7/rate", "values": [1]}]})
    with pytest.raises(sensim.InvalidArgument, match="run_0000.*axes\\[0\\] 'x'"):
        sensim.Sweep(text=bad_pointer)
    with pytest.raises(sensim.NotFound):
        sensim.Sweep(tmp_path / "missing.json")
    with pytest.raises(TypeError):
        sensim.Sweep()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(sensim.StateError, match="not empty"):
        sensim.Sweep(text=sweep_text()).prepare(tmp_path / "other")
    s = sensim.Sweep(text=sweep_text())
    with pytest.raises(sensim.InvalidArgument):
        s.threads = 2000
    with pytest.raises(ValueError, match="3 records for 4 runs"):
        s.reduce(tmp_path / "r", [None] * 3)
