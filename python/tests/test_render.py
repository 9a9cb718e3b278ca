"""The path integrator through Python: the white furnace (a Lambertian
sphere of albedo rho in a uniform environment of radiance L renders rho L
to 1 %), the environment and material keywords, and bad input."""

import math

import numpy as np
import pytest

import sensim

L = 2.0


def furnace(rho, threads=2):
    with sensim.World(seed=3, threads=threads, background=(0, 0, 0), ambient=0.0,
                      environment={"type": "uniform", "radiance": [L, L, L]}) as w:
        ball = w.shape("sphere", (1, 0, 0), segments=48,
                       material={"base_color": [rho] * 3, "specular": 0.0, "roughness": 1.0})
        w.body(ball, static=True)
        # 4 m away the sphere spans 14.5 deg: a 14 deg view sees only the sphere.
        cam = w.camera(mount=((-4, 0, 0), (1, 0, 0, 0)), width=48, height=48, hfov_deg=14,
                       samples=16, integrator="path", max_bounces=8)
        w.advance(0.0)
        f = cam.poll()
        assert (f.depth > 0).all()
        return f.data.reshape(-1, 3).astype(np.float64)


@pytest.mark.parametrize("rho", [1.0, 0.5, 0.18])
def test_white_furnace_holds_within_one_percent(rho):
    px = furnace(rho)
    mean = px.mean(axis=0)
    sem = px.std(axis=0) / math.sqrt(len(px))
    assert (sem < 0.0025 * rho * L).all()
    assert np.allclose(mean, rho * L, rtol=0.01), mean


def test_path_frames_do_not_depend_on_thread_count():
    assert np.array_equal(furnace(0.5, threads=0), furnace(0.5, threads=2))


def test_environment_keywords_and_errors():
    with sensim.World(threads=0) as w:
        w.set_environment({"type": "sky", "sun_elevation_deg": 30, "sun_azimuth_deg": 120, "turbidity": 2.5})
        w.set_environment(None)
        with pytest.raises(sensim.Error, match="turbidity"):
            w.set_environment({"type": "sky", "turbidity": 20})
        with pytest.raises(sensim.Error, match="uniform"):
            w.set_environment({"type": "unifrom"})
        with pytest.raises(sensim.Error, match="integrator"):
            w.camera(integrator="photon")
        with pytest.raises(sensim.Error, match="ior"):
            w.shape("box", (1, 1, 1), material={"ior": 0.0})
        with pytest.raises(sensim.Error, match="emission"):
            w.shape("box", (1, 1, 1), material={"emission": [1, -1, 0]})
        w.shape("box", (1, 1, 1), material={"emission": [1, 2, 3], "ior": 1.33, "transmission": 1.0,
                                            "thin_walled": True, "specular": 0.5})
    with pytest.raises(sensim.Error, match="radiance"):
        sensim.World(environment={"type": "uniform", "radiance": [1, -1, 1]})


def test_area_light_keywords_and_errors():
    with sensim.World(threads=0) as w:
        w.light("rect", position=(0, 0, 3), edge_u=(1, 0, 0), edge_v=(0, -1, 0), intensity=2.0)
        w.light("disc", position=(0, 0, 3), direction=(0, 0, -1), radius=0.5)
        w.light("point", position=(1, 1, 2), radius=0.2)
        w.light("directional", angular_diameter_deg=0.53)
        with pytest.raises(sensim.Error, match="edge_u x edge_v"):
            w.light("rect", position=(0, 0, 3))
        with pytest.raises(sensim.Error, match="radius"):
            w.light("disc", direction=(0, 0, -1))
        with pytest.raises(sensim.Error, match="angular_diameter"):
            w.light("directional", angular_diameter_deg=40)
