"""sensim.vector.VectorEnv (Gymnasium's vector API) and the Python examples.

Run: PYTHONPATH=build/python python3 -m pytest python/tests/test_vector.py"""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

sensim = pytest.importorskip("sensim")
from sensim.env import SensorEnv  # noqa: E402
from sensim.vector import VectorEnv  # noqa: E402

SMALL = dict(lidar_channels=16, lidar_columns=60, max_episode_steps=50)
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def test_batched_spaces_and_return_types():
    with VectorEnv(3, **SMALL) as envs:
        assert envs.num_envs == 3
        assert envs.single_action_space.shape == (2,) and envs.action_space.shape == (3, 2)
        assert envs.observation_space["lidar"].shape == (3, 16, 60)
        assert envs.single_observation_space["lidar"].shape == (16, 60)
        obs, infos = envs.reset(seed=5)
        assert obs in envs.observation_space
        assert np.array_equal(infos["world_seed"], [5, 6, 7]) and infos["_world_seed"].all()
        envs.action_space.seed(1)
        obs, rew, term, trunc, infos = envs.step(envs.action_space.sample())
        assert obs in envs.observation_space
        for key, space in envs.observation_space.spaces.items():
            assert obs[key].shape == space.shape and obs[key].dtype == space.dtype
        assert rew.shape == (3,) and rew.dtype == np.float64
        assert term.shape == trunc.shape == (3,) and term.dtype == trunc.dtype == np.bool_
        assert infos["pose"].shape == (3, 3) and infos["collision"].dtype == np.bool_
        with pytest.raises(ValueError, match=r"shape \(3, 2\)"):
            envs.step(np.zeros((2, 2), np.float32))
        bad = np.zeros((3, 2), np.float32)
        bad[1, 0] = np.nan
        with pytest.raises(ValueError, match="sub-environment 1: action must be finite"):
            envs.step(bad)
        _, _, _, _, after = envs.step(np.zeros((3, 2), np.float32))
        assert after["t"].tolist() == pytest.approx([0.2] * 3)     # no car moved on the bad step


@pytest.mark.parametrize("advance_threads", [1, 2])
def test_vector_equals_single_envs_bit_for_bit(advance_threads):
    rng = np.random.default_rng(0)
    actions = rng.uniform([-0.1, 0.0], [0.1, 2.0], size=(5, 3, 2)).astype(np.float32)
    with VectorEnv(3, advance_threads=advance_threads, **SMALL) as envs:
        obs, _ = envs.reset(seed=20)
        vec = [obs] + [envs.step(a)[0] for a in actions]
    for i in range(3):
        env = SensorEnv(**SMALL)
        single = [env.reset(seed=20 + i)[0]] + [env.step(a[i])[0] for a in actions]
        env.close()
        for v, s in zip(vec, single):
            assert all(np.array_equal(v[k][i], s[k]) for k in s)


def make(limit):
    return lambda: SensorEnv(**dict(SMALL, max_episode_steps=limit))


def test_autoreset_next_step():
    with VectorEnv(env_fns=[make(2), make(3)]) as envs:
        assert envs.metadata["autoreset_mode"] == "NextStep"
        envs.reset(seed=0)
        go = np.tile([0.0, 2.0], (2, 1)).astype(np.float32)
        envs.step(go)
        _, rew, term, trunc, infos = envs.step(go)
        assert trunc.tolist() == [True, False] and not term.any()
        obs, rew, term, trunc, infos = envs.step(go)       # env 0 resets, env 1 ends
        assert rew[0] == 0.0 and not term[0] and not trunc[0] and trunc[1]
        assert infos["t"][0] == 0.0 and infos["t"][1] == pytest.approx(0.3)
        assert obs["odometry"][0, 0] == 0.0 and obs["odometry"][1, 0] > 0.0
        obs, rew, term, trunc, infos = envs.step(go)       # env 0 steps again, env 1 resets
        assert infos["t"].tolist() == pytest.approx([0.1, 0.0]) and rew[1] == 0.0


def test_autoreset_same_step():
    with VectorEnv(env_fns=[make(2), make(3)], autoreset_mode="SameStep") as envs:
        envs.reset(seed=0)
        go = np.tile([0.0, 2.0], (2, 1)).astype(np.float32)
        envs.step(go)
        obs, rew, term, trunc, infos = envs.step(go)
        assert trunc.tolist() == [True, False]
        assert infos["_final_obs"].tolist() == [True, False] and infos["final_obs"][1] is None
        final = infos["final_obs"][0]
        assert final["odometry"][0] > 0.0 and infos["final_info"][0]["t"] == pytest.approx(0.2)
        assert infos["t"][0] == 0.0 and obs["odometry"][0, 0] == 0.0   # already reset
        assert rew[0] > 0.0
        obs, rew, term, trunc, infos = envs.step(go)
        assert infos["t"].tolist() == pytest.approx([0.1, 0.0]) and trunc.tolist() == [False, True]


def run_example(name, *args, tmp_path):
    package_root = str(pathlib.Path(sensim.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=path)
    res = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                         text=True, timeout=120, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_vehicle_example_writes_its_figure(tmp_path):
    out = tmp_path / "vehicle.png"
    text = run_example("vehicle.py", "--steps", "60", "--out", str(out), tmp_path=tmp_path)
    assert out.stat().st_size > 20000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "60 steps" in text and "7 scans" in text and "61 IMU samples" in text


def test_rollout_example_reports_speed(tmp_path):
    text = run_example("rollout.py", "--envs", "2", "--steps", "15", tmp_path=tmp_path)
    assert "2 envs x 15 steps = 30 env steps" in text and "steps/s" in text
