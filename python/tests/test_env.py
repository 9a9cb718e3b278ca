"""sensim.env.SensorEnv: Gymnasium API conformance, determinism, termination.

Run: PYTHONPATH=build/python python3 -m pytest python/tests/test_env.py"""

import math

import numpy as np
import pytest

sensim = pytest.importorskip("sensim")
from sensim.env import Course, SensorEnv  # noqa: E402

SMALL = dict(lidar_channels=16, lidar_columns=90, max_episode_steps=50)
STRAIGHT = np.array([0.0, 2.0], dtype=np.float32)  # no steering, full throttle


def check_obs(env, obs):
    assert isinstance(obs, dict) and set(obs) == set(env.observation_space.spaces)
    for key, space in env.observation_space.spaces.items():
        assert isinstance(obs[key], np.ndarray), key
        assert obs[key].dtype == space.dtype and obs[key].shape == space.shape, key
    assert obs in env.observation_space


def rollout(env, seed, actions, options=None):
    obs, info = env.reset(seed=seed, options=options)
    out = [obs]
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        out.append(obs)
        out.append(r)
    return out


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    return a == b


def test_spaces_are_described_exactly():
    env = SensorEnv(**SMALL)
    a = env.action_space
    assert a.shape == (2,) and a.dtype == np.float32
    assert np.allclose(a.low, [-0.4, -4.0]) and np.allclose(a.high, [0.4, 2.0])
    o = env.observation_space
    assert list(o.spaces) == ["gnss", "imu", "lidar", "odometry"]
    assert o["lidar"].shape == (16, 90) and o["lidar"].dtype == np.float32
    assert o["lidar"].low.min() == 0.0 and o["lidar"].high.max() == np.float32(30.0)
    assert o["gnss"].shape == (3,) and o["imu"].shape == (6,) and o["odometry"].shape == (2,)
    assert env.metadata["render_modes"] == ["rgb_array"] and env.render_mode is None
    env.close()


def test_reset_and_step_follow_the_gymnasium_api():
    env = SensorEnv(**SMALL)
    obs, info = env.reset(seed=3)
    check_obs(env, obs)
    assert isinstance(info, dict) and info["t"] == 0.0 and info["world_seed"] == 3
    env.action_space.seed(0)
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        check_obs(env, obs)
        assert type(reward) is float and type(terminated) is bool and type(truncated) is bool
        assert isinstance(info, dict)
    assert info["t"] == pytest.approx(0.3)
    # the sensors see the course: the lidar has returns, GNSS is near the truth,
    # the IMU feels gravity (specific force up, m/s^2)
    assert (obs["lidar"] > 0).sum() > 100
    assert np.hypot(*(obs["gnss"][:2] - info["pose"][:2])) < 3.0
    assert 9.0 < obs["imu"][2] < 10.6
    env.close()


def test_same_seed_is_bit_identical_and_other_seeds_differ():
    actions = [np.array([0.05 * math.sin(k), 1.0], np.float32) for k in range(6)]
    env = SensorEnv(**SMALL)
    first = rollout(env, 11, actions)
    again = rollout(env, 11, actions)                 # World.reset() path
    other = SensorEnv(**SMALL, threads=2)
    fresh = rollout(other, 11, actions)               # another World, same seed, 2 workers
    assert all(same(a, b) for a, b in zip(first, again))
    assert all(same(a, b) for a, b in zip(first, fresh))
    differ = rollout(env, 12, actions)
    assert not same(first[0], differ[0])
    assert not np.array_equal(first[-2]["gnss"], differ[-2]["gnss"])
    # the seed fixes the sensor noise, not only the start pose
    a = rollout(env, 5, actions, options={"lateral": 0.0, "heading": 0.0})
    b = rollout(env, 6, actions, options={"lateral": 0.0, "heading": 0.0})
    assert not np.array_equal(a[0]["gnss"], b[0]["gnss"])
    env.close()
    other.close()


def test_what_the_seed_controls():
    env = SensorEnv(**SMALL)
    assert env.world_seed == 0
    _, info = env.reset(seed=2 ** 53 + 9)
    assert info["world_seed"] == 9                    # the World's seed is seed mod 2^53
    world = env.world
    _, info = env.reset()                             # no seed: same World, same noise key
    assert info["world_seed"] == 9 and env.world is world
    env.reset(seed=9)
    assert env.world is world                         # same seed: World.reset(), no rebuild
    env.close()
    fresh = [SensorEnv(**dict(SMALL, fresh_noise=True)) for _ in range(2)]
    seeds = []
    for e in fresh:
        e.reset(seed=4)
        seeds.append([e.reset()[1]["world_seed"] for _ in range(2)])
        e.close()
    assert seeds[0] == seeds[1] and len({4, *seeds[0]}) == 3   # new, but reproducible


def test_truncated_exactly_at_the_step_limit():
    env = SensorEnv(**dict(SMALL, max_episode_steps=4))
    env.reset(seed=0, options={"lateral": 0.0, "heading": 0.0})
    flags = [env.step([0.0, 0.5])[2:4] for _ in range(4)]
    assert flags == [(False, False)] * 3 + [(False, True)]
    with pytest.raises(sensim.StateError, match="reset"):
        env.step([0.0, 0.0])
    env.close()


def test_collision_with_an_obstacle_terminates():
    env = SensorEnv(**dict(SMALL, obstacles=((8.0, 0.0),)))
    env.reset(seed=1, options={"lateral": 0.0, "heading": 0.0})
    history = []
    for k in range(40):
        obs, reward, terminated, truncated, info = env.step(STRAIGHT)
        history.append((obs, info))
        if terminated:
            break
    assert terminated and info["collision"] and not info["off_course"] and not truncated
    # the car's front (1 m ahead of its centre) reached the barrel (radius 0.3 m) at s = 8 m
    assert 6.5 < info["progress"] < 7.0
    assert reward < -9.0
    # five steps earlier the lidar (0.9 m ahead of the centre) saw the barrel's face
    # straight ahead in its near-horizontal rows (+-1 deg), a bit farther than it
    # is at the scan's end since the front column fires mid-scan while driving
    obs, info = history[-6]
    dist = 8.0 - 0.3 - (info["progress"] + 0.9)
    front = obs["lidar"][7:9, 44:47]
    seen = front[front > 0].min()
    assert dist - 0.1 < seen < dist + 0.1 * info["speed"] + 0.1
    env.close()


def test_leaving_the_course_terminates():
    env = SensorEnv(**SMALL)
    gap = 1.5 * env.course.perimeter() / 38             # between the 2nd and 3rd outer cones
    env.reset(seed=2, options={"s": gap, "lateral": 0.0, "heading": -math.pi / 2})  # facing out
    for k in range(40):
        obs, reward, terminated, truncated, info = env.step(STRAIGHT)
        if terminated:
            break
    assert terminated and info["off_course"] and not info["collision"]
    assert info["lateral"] > 2.0 and reward < -9.0
    env.close()


def test_progress_reward_and_the_course():
    course = Course()
    assert course.perimeter() == pytest.approx(40 + 20 * math.pi)
    s, lat = course.project(*course.point(57.0, 1.25)[:2])
    assert s == pytest.approx(57.0) and lat == pytest.approx(1.25)
    env = SensorEnv(**SMALL)
    env.reset(seed=4, options={"lateral": 0.0, "heading": 0.0})
    total = 0.0
    for _ in range(10):
        _, reward, terminated, _, info = env.step(STRAIGHT)
        total += reward
    assert not terminated
    # 1 s at 2 m/s^2 from rest: 1 m along the straight
    assert info["progress"] == pytest.approx(1.0, abs=1e-6) and total == pytest.approx(1.0, abs=1e-6)
    assert info["speed"] == pytest.approx(2.0)
    env.close()


def test_bad_actions_raise_value_errors_naming_the_problem():
    env = SensorEnv(**SMALL)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\).*got shape \(3,\)"):
        env.step([0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="finite.*steering=nan"):
        env.step([float("nan"), 0.0])
    with pytest.raises(ValueError, match="2 numbers"):
        env.step(["left", 0.0])
    obs = env.step([3.0, 50.0])[0]                   # out of the box: clipped
    assert obs["odometry"][1] == np.float32(0.4)     # rad
    assert obs["odometry"][0] == pytest.approx(0.2)  # 2 m/s^2 for 0.1 s from rest
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"lateal": 1.0})
    with pytest.raises(ValueError, match="render_mode"):
        SensorEnv(render_mode="human")
    env.close()


def test_camera_observation_and_render():
    env = SensorEnv(**dict(SMALL, camera=(64, 48)), render_mode="rgb_array")
    obs, _ = env.reset(seed=0, options={"lateral": 0.0, "heading": 0.0})
    check_obs(env, obs)
    img = obs["camera"]
    assert img.shape == (48, 64, 3) and img.dtype == np.uint8
    assert img.std() > 5.0                           # sky, ground and cones, not a blank
    assert np.array_equal(env.render(), img)
    obs = env.step(STRAIGHT)[0]
    assert np.array_equal(env.render(), obs["camera"])
    env.close()
    with pytest.raises(sensim.StateError):
        env.step(STRAIGHT)


def test_what_gymnasiums_env_checker_checks():
    """gymnasium.utils.env_checker.check_env when Gymnasium is installed;
    otherwise its reset-seed and step checks, restated."""
    env = SensorEnv(**SMALL)
    try:
        from gymnasium.utils.env_checker import check_env
    except ImportError:
        check_env = None
    if check_env is not None:
        check_env(env, skip_render_check=True)
    obs1, _ = env.reset(seed=123)
    state = env.unwrapped._np_random.bit_generator.state
    obs2, info = env.reset(seed=123)
    assert same(obs1, obs2) and env.unwrapped._np_random.bit_generator.state == state
    env.reset(seed=456)
    assert env.unwrapped._np_random.bit_generator.state != state
    obs, info = env.reset(options={})
    assert obs in env.observation_space and isinstance(info, dict)
    env.reset(seed=7)
    env.action_space.seed(7)
    first = env.step(env.action_space.sample())
    env.reset(seed=7)
    env.action_space.seed(7)
    second = env.step(env.action_space.sample())
    assert same(first[0], second[0]) and first[1:4] == second[1:4]
    assert all(np.array_equal(first[4][k], second[4][k]) for k in first[4])
    env.close()
    env.close()                                       # closing twice is allowed
