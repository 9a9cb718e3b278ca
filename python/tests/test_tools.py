"""The evaluation tools from Python, checked against closed forms, NumPy's
own statistics and the tools' published geometry; bad input must raise."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

import sensim
from sensim import _sensim as ext

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"


# ---- signals ------------------------------------------------------------------

def test_allan_deviation_of_white_noise_follows_sigma_over_sqrt_tau():
    n, tau0, sigma = 200_000, 0.01, 0.5
    y = np.random.default_rng(7).normal(0.0, sigma, (n, 2))
    r = ext.allan_deviation(y, tau0)
    m, tau, adev = r["m"], r["tau"], r["adev"]
    assert adev.shape == (len(m), 2) and np.allclose(tau, m * tau0)
    keep = n / m >= 100  # enough averages for the estimate to be meaningful
    expected = sigma * np.sqrt(tau0 / tau[keep])
    # Overlapping estimator: about 3n / (2m) equivalent degrees of freedom,
    # so the relative standard deviation of adev is about sqrt(m / (3 n));
    # 5 of those is the tolerance.
    tol = 5 * np.sqrt(m[keep] / (3 * n))
    for c in range(2):
        assert np.all(np.abs(adev[keep, c] / expected - 1) < tol)
        one = ext.allan_deviation(y[:, c], tau0, ms=m)  # columns are independent 1-D runs
        assert np.array_equal(one["adev"], adev[:, c])
    lines = ext.allan_fit_lines(tau, adev[:, 0])
    # N is the white-noise line at tau = 1 s: sigma sqrt(tau0)
    assert lines["n"] == pytest.approx(sigma * math.sqrt(tau0), rel=0.05)
    assert lines["slope_n"] == pytest.approx(-0.5, abs=0.2)
    f = ext.allan_log_factors(n, 5)
    assert f[0] == 1 and f[-1] <= (n - 1) // 2 and np.all(np.diff(f) > 0)


def test_allan_errors():
    with pytest.raises(sensim.InvalidArgument):
        ext.allan_deviation([1.0, 2.0], 0.01)
    with pytest.raises(sensim.InvalidArgument):
        ext.allan_deviation(np.zeros(100), 0.01, ms=[60])  # m > (n - 1) / 2
    with pytest.raises(ValueError):
        ext.allan_deviation(np.zeros(100), 0.0)
    with pytest.raises(TypeError):
        ext.allan_deviation(None, 0.01)
    with pytest.raises(ValueError):
        ext.allan_deviation(np.zeros((4, 4, 4)), 0.01)
    with pytest.raises(ValueError):
        ext.allan_fit_lines([1, 2, 3], [1, 2])


def test_wiener_entropy_and_wasserstein():
    x = np.random.default_rng(1).normal(size=1 << 16)
    # 2 exp(-gamma / 2) / sqrt(pi) for white Gaussian noise
    white = 2 * math.exp(-0.5772156649 / 2) / math.sqrt(math.pi)
    assert ext.wiener_entropy(x) == pytest.approx(white, abs=0.01)
    k = np.arange(1024)
    assert ext.wiener_entropy(np.sin(2 * np.pi * 8 * k / 1024)) < 1e-6
    assert ext.wasserstein1([0.0, 1.0, 2.0], [0.5, 1.5, 2.5]) == pytest.approx(0.5)
    assert ext.wasserstein1([0.0], [0.0, 1.0]) == pytest.approx(0.5)
    with pytest.raises(sensim.InvalidArgument):
        ext.wiener_entropy([1.0, float("nan"), 2.0, 3.0])
    with pytest.raises(sensim.InvalidArgument):
        ext.wasserstein1([], [1.0])


# ---- noise calibration ----------------------------------------------------------

def test_noise_calibration_recovers_a_poisson_gaussian_model(tmp_path):
    rng = np.random.default_rng(11)
    s1, s2, n = 0.02, 0.005, 40
    scene = np.linspace(0.05, 0.9, 4000)
    stack = scene + rng.normal(size=(n, scene.size)) * np.sqrt(s1**2 * scene + s2**2)
    fit = ext.noise_calib_fit(stack.reshape(n, 40, 100))  # frames may be images
    assert fit.nframes == n and fit.nvalues == scene.size and fit.nbins_used == 32
    # within 5 of the fit's own standard errors
    assert abs(fit.a - s1**2) < 5 * fit.a_std and abs(fit.b - s2**2) < 5 * fit.b_std
    assert fit.s1 == pytest.approx(math.sqrt(fit.a))
    bins = fit.bins
    assert bins["count"].sum() + fit.nrejected == scene.size
    assert np.all(np.diff(bins["mean"]) > 0)
    # the same fit from the moments NumPy computes
    fm = ext.noise_calib_fit_moments(stack.mean(axis=0), stack.var(axis=0, ddof=1), n)
    assert fm.a == pytest.approx(fit.a, rel=1e-6) and fm.b == pytest.approx(fit.b, rel=1e-6)
    fit.plot_png(tmp_path / "ptc.png", title="photon transfer")
    assert ext.read_png(tmp_path / "ptc.png").shape == (500, 800, 3)
    with pytest.raises(sensim.InvalidArgument):
        ext.noise_calib_fit(stack[:1])  # one frame
    with pytest.raises(sensim.InvalidArgument):
        ext.noise_calib_fit(np.full((4, 100), 0.5))  # no range of intensities
    with pytest.raises(sensim.NotFound):
        ext.noise_calib_pngs(tmp_path / "missing")
    with pytest.raises(sensim.InvalidArgument):
        ext.noise_calib_pngs(tmp_path)  # one PNG only
    with ext.Scenario(ROOT / "examples" / "cart.json") as s:
        with pytest.raises(sensim.InvalidArgument):  # bodies move
            ext.noise_calib_scenario(s, "lidar", 4)


# ---- VEPD and the EKF judge -------------------------------------------------------

def make_run(rng, n=200, dim=2, bias=0.0):
    t = np.arange(n) * 0.05
    truth = np.column_stack([np.cos(t), np.sin(t)])[:, :dim] * 2
    est = truth + rng.normal(0, 0.1, truth.shape) + bias
    return {"t": t, "v_est": est, "v_true": truth}


def test_vepd_metrics_against_numpy(tmp_path):
    rng = np.random.default_rng(5)
    a = [make_run(rng) for _ in range(3)]
    b = [make_run(rng, bias=0.2) for _ in range(4)]
    m = ext.vepd_run_metrics(a[0])
    err = a[0]["v_est"] - a[0]["v_true"]
    assert m["rmse"] == pytest.approx(math.sqrt(np.mean(np.sum(err**2, axis=1))), rel=1e-12)
    assert m["h_est"] == pytest.approx(ext.wiener_entropy(np.linalg.norm(a[0]["v_est"], axis=1)))
    assert m["h_diff"] == pytest.approx(abs(m["h_est"] - m["h_true"]))
    r = ext.vepd(a, b)
    ra = [x["rmse"] for x in r["metrics_a"]]
    rb = [x["rmse"] for x in r["metrics_b"]]
    ha = [x["h_diff"] for x in r["metrics_a"]]
    hb = [x["h_diff"] for x in r["metrics_b"]]
    assert r["w1"] == pytest.approx(ext.wasserstein1(ra, rb))
    assert r["w2"] == pytest.approx(ext.wasserstein1(ha, hb))
    assert r["vepd"] == pytest.approx((r["w1"] + r["w2"]) / 2)
    assert r["rmse_mean"] == pytest.approx((np.mean(ra), np.mean(rb)))
    assert ext.vepd(a, a)["vepd"] == 0.0
    ext.vepd_run_write(tmp_path / "run_000.csv", a[1])
    ext.vepd_run_write(tmp_path / "run_001.csv", (a[2]["t"], a[2]["v_est"][:, 0], a[2]["v_true"][:, 0]))
    back = ext.vepd_run_read(tmp_path / "run_000.csv")
    for k in ("t", "v_est", "v_true"):
        assert np.array_equal(back[k], a[1][k])  # numbers read back exactly
    runs = ext.vepd_runs_read_dir(tmp_path)
    assert len(runs) == 2 and runs[1]["v_est"].shape == (200,)
    with pytest.raises(sensim.NotFound):
        ext.vepd_run_read(tmp_path / "missing.csv")
    with pytest.raises(KeyError):
        ext.vepd_run_metrics({"t": a[0]["t"]})
    with pytest.raises(ValueError):
        ext.vepd_run_metrics((a[0]["t"][:10], a[0]["v_est"], a[0]["v_true"]))
    with pytest.raises(sensim.InvalidArgument):
        ext.vepd_run_metrics((a[0]["t"][::-1], a[0]["v_est"], a[0]["v_true"]))  # time going back


def test_ekf_propagates_a_held_state_in_closed_form():
    e = ext.EKF(output_rate=10.0)
    assert not e.started
    with pytest.raises(sensim.StateError):
        e.estimate(0.0)
    e.start(0.0, (1.0, 2.0, 0.5, 3.0), (0.1, 0.1, 0.01, 0.1))
    assert e.started
    s = e.estimate(2.0)  # no input: straight at 3 m/s along psi = 0.5 rad
    assert s["x"] == pytest.approx((1 + 6 * math.cos(0.5), 2 + 6 * math.sin(0.5), 0.5, 3.0), abs=1e-9)
    assert s["vel"] == pytest.approx((3 * math.cos(0.5), 3 * math.sin(0.5)), abs=1e-12)
    assert s["P"].shape == (4, 4) and np.allclose(s["P"], s["P"].T)
    with pytest.raises(sensim.StateError):
        e.imu(1.0, 0.0, 0.0)  # before the filter's time
    with pytest.raises(TypeError):
        ext.EKF(no_such_parameter=1.0)


def test_ekf_run_over_a_scenario():
    with ext.Scenario(ROOT / "examples" / "cart.json") as s:
        gnss, imu = s.world.sensor("gnss"), s.world.sensor("imu")
        fixes, samples = [], []
        for k in range(int(round(s.duration / s.step)) + 1):
            s.step_to(k * s.step)
            fixes += gnss.poll_all()
            samples += imu.poll_all()
    rows = np.array([(f.t_capture, f.record["accel"][0], f.record["gyro"][2]) for f in samples])
    out = ext.ekf_run(rows, fixes, output_rate=20.0)
    t = out["t"]
    assert len(t) > 10 and out["x"].shape == (len(t), 4) and out["P"].shape == (len(t), 4, 4)
    assert np.allclose(np.diff(t), 0.05) and t[0] == fixes[0].t_capture
    assert np.allclose(out["vel"][:, 0], out["x"][:, 3] * np.cos(out["x"][:, 2]))
    with pytest.raises(sensim.PayloadTypeError):
        ext.ekf_run(rows, samples[:2])
    with pytest.raises(ValueError):
        ext.ekf_run(rows[:, :2], fixes)


# ---- images ------------------------------------------------------------------------

def test_image_statistics_against_numpy(tmp_path):
    rng = np.random.default_rng(2)
    img = rng.random((24, 32, 3)).astype(np.float32)
    mean, std = ext.image_moments(img)
    flat = img.reshape(-1, 3).astype(np.float64)
    assert np.allclose(mean, flat.mean(axis=0)) and np.allclose(std, flat.std(axis=0))
    s = ext.ImageSetStats(nbins=32)
    s.add(img)
    s.add(img[:, :, 1])  # a grey image counts as equal R, G, B
    assert s.nimages == 2 and s.channels == 3 and s.npixels == 2 * 24 * 32
    both = np.concatenate([flat, np.repeat(flat[:, 1:2], 3, axis=1)])
    assert np.allclose(s.mean, both.mean(axis=0)) and np.allclose(s.std, both.std(axis=0))
    assert np.allclose(s.min, both.min(axis=0)) and np.allclose(s.max, both.max(axis=0))
    hist = np.stack([np.histogram(both[:, c], bins=32, range=(0, 1))[0] for c in range(3)])
    assert np.array_equal(s.hist, hist)
    shifted = ext.ImageSetStats(nbins=32)
    shifted.add(np.clip(img * 0.5, 0, 1))
    assert s.w1(s) == 0.0 and s.w1(shifted, 0) > 0.1
    text = s.report_text(shifted, "sim", "real")
    assert "sim" in text and "real" in text
    s.report_png(tmp_path / "hist.png", shifted)
    assert (tmp_path / "hist.png").is_file()
    ext.image_write_png(tmp_path / "a.png", img, bits=16)
    ext.image_write_png(tmp_path / "b.png", img[:, :, 0])
    assert ext.list_pngs(tmp_path) == [str(tmp_path / n) for n in ("a.png", "b.png", "hist.png")]
    back = ext.read_png(tmp_path / "a.png")
    assert np.allclose(back, img, atol=0.5 / 65535 + 1e-7)  # 16-bit rounding
    with pytest.raises(sensim.NotFound):
        ext.ImageSetStats.from_dir(tmp_path / "missing")
    with pytest.raises(sensim.InvalidArgument):
        s.add(np.full((2, 2), np.nan))
    with pytest.raises(ValueError):
        ext.image_moments(np.zeros((4, 4, 2)))  # 2 channels
    with pytest.raises(TypeError):
        s.w1("not a set")


def test_augmentations_match_their_formulas_and_leave_the_input():
    rng = np.random.default_rng(4)
    img = rng.random((16, 20, 3)).astype(np.float32)
    keep = img.copy()
    g = ext.augment_gains(img, (0.5, 1.0, 2.0))
    assert np.allclose(g, img * np.array([0.5, 1.0, 2.0], np.float32))
    raw = ext.augment_cfa(img, "RGGB")[:, :, 0]
    assert np.array_equal(raw[0::2, 0::2], img[0::2, 0::2, 0]) and np.array_equal(raw[1::2, 1::2], img[1::2, 1::2, 2])
    assert np.array_equal(raw[0::2, 1::2], img[0::2, 1::2, 1])
    flat = np.ones((16, 20, 3), np.float32) * np.array([0.2, 0.5, 0.7], np.float32)
    assert np.allclose(ext.augment_mosaic(flat, "BGGR", "bilinear")[2:-2, 2:-2], flat[2:-2, 2:-2], atol=1e-5)
    n1 = ext.augment_noise(img, 0.0, 0.01, seed=3)
    assert np.array_equal(n1, ext.augment_noise(img, 0.0, 0.01, seed=3))
    assert not np.array_equal(n1, ext.augment_noise(img, 0.0, 0.01, seed=4))
    d = (n1 - img).ravel().astype(np.float64)
    assert abs(d.std() - 0.01) < 5 * 0.01 / math.sqrt(2 * d.size)
    m, s = ext.image_moments(img)
    ref_m, ref_s = (0.3, 0.4, 0.5), (0.1, 0.05, 0.2)
    out = ext.augment_match_stats(img, m, s, ref_m, ref_s)
    m2, s2 = ext.image_moments(out)
    assert np.allclose(m2, ref_m, atol=1e-5) and np.allclose(s2, ref_s, atol=1e-5)
    assert ext.gray_world_gains((0.2, 0.4, 0.5)) == pytest.approx((2.0, 1.0, 0.8))
    assert np.array_equal(img, keep)  # no augmentation changed its input
    with pytest.raises(sensim.InvalidArgument):
        ext.augment_noise(img, -1.0, 0.01)
    with pytest.raises(sensim.InvalidArgument):
        ext.augment_cfa(img[:, :, 0])  # colour images only
    with pytest.raises(TypeError):
        ext.augment_gains(None, (1, 1, 1))


def test_pinhole_distort_map_is_the_identity():
    img = np.random.default_rng(9).random((20, 30, 3)).astype(np.float32)
    d = ext.DistortMap({"lens": "pinhole", "hfov_deg": 60}, 30, 20)
    assert d.size == (30, 20)
    assert d.source(7, 11) == pytest.approx((7.0, 11.0), abs=1e-9)
    assert np.allclose(d.apply(img), img, atol=1e-5)
    with pytest.raises(ValueError):
        d.source(30, 0)
    with pytest.raises(sensim.ParseError):
        ext.DistortMap({"lens": "pinhole", "no_such_key": 1}, 30, 20)
    with pytest.raises(sensim.InvalidArgument):
        d.apply(np.zeros((10, 10, 3)))  # not the map's size


# ---- pictures -------------------------------------------------------------------------

def test_colour_maps():
    assert ext.colormap_viridis(0.0) == (68, 1, 84) and ext.colormap_viridis(1.0) == (253, 231, 37)
    t = np.linspace(-0.5, 1.5, 41).reshape(41, 1)
    arr = ext.colormap_viridis(t)
    assert arr.shape == (41, 1, 3) and arr.dtype == np.uint8
    assert all(tuple(arr[i, 0]) == ext.colormap_viridis(float(t[i, 0])) for i in range(41))
    assert ext.label_color(0) == (0, 0, 0)
    assert ext.label_color(7) == ext.label_color(7 + 255) != ext.label_color(8)
    with pytest.raises(ValueError):
        ext.label_color(np.array([-1]))


def test_previews_plots_and_sheets_follow_their_geometry(tmp_path):
    depth = np.full((30, 40), 40.0, np.float32)
    depth[0, 0] = np.nan
    ext.depth_preview(depth, tmp_path / "d.png", min_range=0.0, max_range=80.0)
    pic = np.rint(ext.read_png(tmp_path / "d.png") * 255).astype(int)
    assert pic.shape == (240, 40 + 180, 3)  # (width + panel) x max(height, 240)
    assert np.all(np.abs(pic[10, 10] - ext.colormap_viridis(0.5)) <= 1)
    assert tuple(pic[0, 0]) == (0, 0, 0)  # no return
    ids = np.zeros((30, 40), np.int64)
    ids[5:10, 5:10] = 3
    ext.label_preview(ids, tmp_path / "l.png")
    lab = np.rint(ext.read_png(tmp_path / "l.png") * 255).astype(int)
    assert tuple(lab[7, 7]) == ext.label_color(3) and tuple(lab[0, 0]) == (0, 0, 0)
    p = ext.Plot(640, 480, title="t", log_y=True)
    p.line([1, 2, 3], [1, 10, 100], color=(200, 0, 0), legend="a")
    p.write_png(tmp_path / "p.png")
    assert ext.read_png(tmp_path / "p.png").shape == (480, 640, 3)
    info = ext.contact_sheet(tmp_path, tmp_path / "sheet.png", cols=2, cell_width=100)
    assert info["files"] == 3 and info["frames"] == 3 and info["cols"] == 2 and info["rows"] == 2
    pad, cap, title = 8, 18, 30  # SENSIM_CONTACT_PAD, _CAPTION_H, _TITLE_H
    assert info["width"] == pad + 2 * (100 + pad)
    assert info["height"] == title + 2 * (info["cell_h"] + cap + pad)
    assert ext.read_png(tmp_path / "sheet.png").shape[:2] == (info["height"], info["width"])
    bi = ext.birdseye_figure(np.zeros((64, 64, 4), np.uint8), tmp_path / "b.png", range=20.0)
    assert ext.read_png(tmp_path / "b.png").shape[:2] == (bi["height"], bi["width"])
    with pytest.raises(sensim.InvalidArgument):
        ext.Plot(10, 10)
    with pytest.raises(ValueError):
        p.line([1, 2], [1])
    with pytest.raises(sensim.InvalidArgument):
        ext.depth_preview(depth, tmp_path / "x.png", min_range=5.0, max_range=1.0)
    with pytest.raises(ValueError):
        ext.birdseye_figure(np.zeros((64, 32, 4), np.uint8), tmp_path / "y.png")
    with pytest.raises(ValueError):
        ext.birdseye_figure(np.zeros((64, 64, 4), np.uint8), tmp_path / "y.png", color="rainbow")
    with pytest.raises(sensim.NotFound):
        ext.contact_sheet(tmp_path / "missing", tmp_path / "z.png")


# ---- tables and ablation ----------------------------------------------------------------

def test_table_read_and_ablation_edit():
    with pytest.raises(sensim.InvalidArgument):  # the golden file has a nan
        ext.table_read(GOLDEN / "imu.csv")
    t = ext.table_read(GOLDEN / "imu.csv", allow_nonfinite=True)
    header = (GOLDEN / "imu.csv").read_text().splitlines()[0].split(",")
    assert list(t) == header
    data = np.loadtxt(GOLDEN / "imu.csv", delimiter=",", skiprows=1, ndmin=2)
    for i, name in enumerate(header):
        assert np.array_equal(t[name], data[:, i], equal_nan=True)
    names = ext.ablation_names()
    assert names[0] == "baseline" and "noise_off" in names
    # What the papers report, from sensim's one record of each (tools/published.c): the
    # camera component study has an entry per variant, in order; the words are its abstract's.
    cam = ext.published("camera_components")
    assert list(cam["variants"]) == names
    assert "arXiv:2211.08599" in cam["cite"] and "Section I" in cam["unread"]
    assert any("far greater impact" in c for c in cam["claims"])
    assert "scene-level" in cam["variants"]["wb_ideal"][1] and cam["variants"]["noise_off"][1] is None
    vepd = ext.published("vepd")
    assert "arXiv:2403.11000" in vepd["cite"] and vepd["variants"] == {}
    assert any("40 real-world experiments" in c for c in vepd["claims"])
    with pytest.raises(sensim.NotFound):
        ext.published("no_such_paper")
    with pytest.raises(TypeError):
        ext.published(3)
    text = (ROOT / "examples" / "ablation.json").read_text()
    edited, notes = ext.ablation_edit(text, "noise_off", frames=2)
    doc = json.loads(edited)  # strict JSON
    filters = [f["name"] if isinstance(f, dict) else f for s in doc["sensors"] for f in s.get("filters", [])]
    assert not any("noise" in f for f in filters) and notes
    with pytest.raises(sensim.NotFound):
        ext.ablation_edit(text, "no_such_variant")
    with pytest.raises(sensim.ParseError):
        ext.ablation_edit("{", "baseline")
    with pytest.raises(sensim.NotFound):
        ext.table_read(GOLDEN / "missing.csv")


# ---- sensim.tools (Python conveniences) ------------------------------------------------

def test_imu_allan_of_a_scenario_recording_matches_the_array_tool():
    from sensim import tools
    text = """{"duration": 20.0, "step": 0.005, "bodies": [{"name": "b", "pose": {"position": [0, 0, 1]}}],
               "sensors": [{"name": "imu", "type": "imu", "body": "b", "rate": 200,
                            "filters": [{"name": "imu_noise"}]}]}"""
    with ext.Scenario.from_string(text) as s:
        imu = s.world.sensor("imu")
        frames = []
        for k in range(int(round(s.duration / s.step)) + 1):
            s.step_to(k * s.step)
            frames += imu.poll_all()
    r = tools.imu_allan(frames)
    gyro = np.array([f.record["gyro"] for f in frames])
    direct = ext.allan_deviation(gyro, 1 / 200)
    assert np.array_equal(r["gyro"], direct["adev"]) and np.allclose(r["tau"], direct["tau"])
    assert r["accel"].shape == r["gyro"].shape
    assert all(line["n"] > 0 for line in r["gyro_lines"])  # the filter's white noise shows
    with pytest.raises(ValueError):
        tools.imu_allan(frames[::-1])  # not in order
    stack = tools.frame_stack([sensim.Frame.from_array(np.full((4, 5), 255, np.uint8), "gray8")] * 3)
    assert stack.shape == (3, 4, 5) and np.all(stack == 1.0)
    with pytest.raises(sensim.PayloadTypeError):
        tools.frame_stack(frames[:2])


def test_vepd_experiment_and_simulated_runs():
    variants = [{"name": "gauss", "filters": ["gnss_noise"]},
                {"name": "missing", "filters": [("no_such_filter", {"sigma": 1})]}]
    r = ext.vepd_experiment(runs=2, duration=3.0, variants=variants, seed=4)
    assert list(r) == ["gauss", "missing"] and list(r["gauss"]) == ["straight", "circle", "half_sine"]
    for cell in r["gauss"].values():
        assert cell["status"] == 0 and cell["vepd"] == pytest.approx((cell["w1"] + cell["w2"]) / 2)
    for cell in r["missing"].values():  # a filter that is not built in leaves its cells out
        assert cell["status"] == -3 and math.isnan(cell["vepd"])
    v = variants[0]
    a = ext.vepd_simulate_run(v, "circle", 5, params={"duration": 3.0})
    b = ext.vepd_simulate_run(v, "circle", 5, params={"duration": 3.0})
    c = ext.vepd_simulate_run(v, "circle", 6, params={"duration": 3.0})
    assert a["v_est"].ndim == 1 and np.all(np.diff(a["t"]) > 0)
    assert np.array_equal(a["v_est"], b["v_est"]) and not np.array_equal(a["v_est"], c["v_est"])
    assert np.allclose(a["v_true"], 2.0, atol=1e-6)  # the circle is driven at 2 m/s
    with pytest.raises(sensim.NotFound):
        ext.vepd_simulate_run(v, "figure_eight")
    # The paper's all-bins entropy by default; the fluctuation bins on request
    # give the same W1 (RMSE) and another W2.
    f = ext.vepd_experiment(runs=2, duration=3.0, variants=variants[:1], seed=4, entropy_bins="fluctuation")
    for m, cell in f["gauss"].items():
        assert cell["w1"] == r["gauss"][m]["w1"] and cell["w2"] != r["gauss"][m]["w2"]
    with pytest.raises(ValueError):
        ext.vepd_experiment(entropy_bins="dc")
    with pytest.raises(TypeError):
        ext.vepd_experiment(no_such_parameter=1)
    with pytest.raises(TypeError):
        ext.vepd_experiment(variants=[{"filters": ["gnss_noise"]}])  # no name
