"""Files and formats from Python: what the writers write must be what the
library's own run writes, PNGs must read back as written, and bad input
must raise."""
import math
from pathlib import Path

import numpy as np
import pytest

import sensim
from sensim import _sensim as ext

ROOT = Path(__file__).resolve().parents[2]
CART = ROOT / "examples" / "cart.json"
GOLDEN = ROOT / "tests" / "data" / "golden"


@pytest.fixture(scope="module")
def cart(tmp_path_factory):
    """The cart scenario run to files, and the same scenario stepped by hand
    with every delivered frame kept, by sensor."""
    out = tmp_path_factory.mktemp("cart")
    with ext.Scenario(CART) as s:
        s.run(out)
    frames = {"lidar": [], "gnss": [], "imu": []}
    with ext.Scenario(CART) as s:
        sensors = {name: s.world.sensor(name) for name in frames}
        for k in range(int(round(s.duration / s.step)) + 1):
            s.step_to(k * s.step)
            for name, sn in sensors.items():
                frames[name] += sn.poll_all()
    return out, frames


def test_write_pcd_matches_the_run_and_ply_holds_the_points(cart, tmp_path):
    out, frames = cart
    scans = sorted((out / "lidar").glob("*.pcd"))
    assert len(scans) == len(frames["lidar"])
    for f, written in zip(frames["lidar"][:3], scans):
        ext.write_pcd(tmp_path / "a.pcd", f, binary=False)  # the scenario asks for pcd_ascii
        assert (tmp_path / "a.pcd").read_bytes() == written.read_bytes()
    f = frames["lidar"][0]
    ext.write_ply(tmp_path / "a.ply", f)
    data = (tmp_path / "a.ply").read_bytes()
    head, body = data.split(b"end_header\n", 1)
    assert b"element vertex %d" % f.count in head
    # x y z intensity (float32) ring (uint16) time (float32) return (uint8)
    # label instance (uint32): 31 bytes a point
    rec = np.frombuffer(body, dtype=np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"),
                                              ("intensity", "<f4"), ("ring", "<u2"),
                                              ("time", "<f4"), ("return", "u1"),
                                              ("label", "<u4"), ("instance", "<u4")]))
    assert len(rec) == f.count
    assert np.array_equal(rec["x"], f.data["x"]) and np.array_equal(rec["ring"], f.data["ring"])
    assert np.array_equal(rec["label"], f.data["class_id"])
    assert np.array_equal(rec["instance"], f.data["instance_id"])
    assert np.all(rec["instance"] > 0)  # every point lies on some body
    ext.write_ply(tmp_path / "b.ply", f, binary=False)
    assert (tmp_path / "b.ply").read_text().splitlines()[1] == "format ascii 1.0"


def test_csv_writer_matches_the_run(cart, tmp_path):
    out, frames = cart
    for name in ("imu", "gnss"):
        path = tmp_path / f"{name}.csv"
        with ext.CsvWriter(path, name) as w:
            assert w.type == name and not w.closed
            assert not path.exists()  # the file appears when closed
            for f in frames[name]:
                w.append(f)
        assert w.closed
        assert path.read_bytes() == (out / name / f"{name}.csv").read_bytes()


def test_csv_writer_errors(cart, tmp_path):
    _, frames = cart
    with pytest.raises(sensim.PayloadTypeError):
        ext.CsvWriter(tmp_path / "x.csv", "rgb_f32")  # no CSV layout
    with pytest.raises(sensim.NotFound):
        ext.CsvWriter(tmp_path / "x.csv", "no_such_payload")
    w = ext.CsvWriter(tmp_path / "imu.csv", "imu")
    with pytest.raises(sensim.PayloadTypeError):
        w.append(frames["gnss"][0])
    with pytest.raises(TypeError):
        w.append(None)
    w.close()
    with pytest.raises(sensim.StateError):
        w.append(frames["imu"][0])
    with pytest.raises(sensim.IOError):
        ext.CsvWriter(tmp_path / "no" / "such" / "dir.csv", "imu")


@pytest.mark.parametrize("ptype,dtype,channels,scale", [
    ("rgba8", np.uint8, 4, 255.0), ("gray8", np.uint8, 1, 255.0),
    ("gray16", np.uint16, 1, 65535.0), ("rgb16", np.uint16, 3, 65535.0)])
def test_write_png_reads_back_as_the_frame(tmp_path, ptype, dtype, channels, scale):
    rng = np.random.default_rng(3)
    shape = (7, 5, channels) if channels > 1 else (7, 5)
    img = rng.integers(0, int(scale) + 1, size=shape).astype(dtype)
    f = sensim.Frame.from_array(img, ptype)
    ext.write_png(tmp_path / "a.png", f)
    back = ext.read_png(tmp_path / "a.png")
    assert back.dtype == np.float32 and back.shape[:2] == (7, 5)
    want = img.reshape(7, 5, channels)[:, :, :3]  # alpha is dropped on reading
    assert back.shape[2] == want.shape[2]
    assert np.array_equal(np.rint(back.astype(np.float64) * scale).astype(dtype), want)


def test_read_png_of_golden_files_and_stats(tmp_path):
    img = ext.read_png(GOLDEN / "rgba8.png")
    assert img.ndim == 3 and img.shape[2] == 3 and 0 <= img.min() and img.max() <= 1
    mean, std = ext.image_stats_pngs([GOLDEN / "rgba8.png"])
    flat = img.reshape(-1, 3).astype(np.float64)
    assert np.allclose(mean, flat.mean(axis=0), atol=1e-6)
    assert np.allclose(std, flat.std(axis=0), atol=1e-6)
    w = (0.2126, 0.7152, 0.0722)
    m1, s1 = ext.image_stats_pngs([GOLDEN / "rgba8.png"], weights=w)
    lum = flat @ np.array(w)
    assert m1 == pytest.approx(lum.mean(), abs=1e-6) and s1 == pytest.approx(lum.std(), abs=1e-6)


def test_reading_and_writing_errors(tmp_path, cart):
    _, frames = cart
    with pytest.raises(sensim.NotFound):
        ext.read_png(tmp_path / "missing.png")
    (tmp_path / "not.png").write_text("hello")
    with pytest.raises(sensim.ParseError):
        ext.read_png(tmp_path / "not.png")
    with pytest.raises(sensim.PayloadTypeError):  # float images are not PNG payloads
        ext.write_png(tmp_path / "f.png", sensim.Frame.from_array(np.zeros((2, 2, 3)), "rgb_f32"))
    assert not (tmp_path / "f.png").exists()
    with pytest.raises(sensim.PayloadTypeError):
        ext.write_pcd(tmp_path / "g.pcd", frames["gnss"][0])
    with pytest.raises(TypeError):
        ext.write_png(tmp_path / "n.png", None)
    with pytest.raises(TypeError):
        ext.write_png(None, frames["lidar"][0])
    with pytest.raises(sensim.IOError):
        ext.write_pcd(tmp_path / "missing" / "a.pcd", frames["lidar"][0])
    with pytest.raises(sensim.NotFound):
        ext.image_stats_pngs([tmp_path / "missing.png"])
    with pytest.raises(TypeError):
        ext.image_stats_pngs(str(tmp_path / "one.png"))


def checksum_ok(sentence):
    body, star, tail = sentence.strip().partition("*")
    return body.startswith("$") and star and int(tail, 16) == ext.nmea_checksum(body[1:])


def hhmmss(seconds_of_day):
    cs = int(round(seconds_of_day * 100))
    h, rest = divmod(cs, 360000)
    m, rest = divmod(rest, 6000)
    return "%02d%02d%05.2f" % (h, m, rest / 100)


def test_nmea_sentences_of_a_fix(cart, tmp_path):
    _, frames = cart
    f = frames["gnss"][3]
    gga = ext.nmea_gga(f)
    rmc = ext.nmea_rmc(f, talker="GN")
    gsa = ext.nmea_gsa(f)
    assert gga.startswith("$GPGGA,") and rmc.startswith("$GNRMC,") and gsa.startswith("$GPGSA,")
    assert all(s.endswith("\r\n") and checksum_ok(s) for s in (gga, rmc, gsa))
    # UTC of t_capture after utc_start (default 2026-01-01T00:00:00Z), as hhmmss.ss
    t = f.t_capture
    assert t > 0
    assert gga.split(",")[1] == hhmmss(t)
    later = ext.nmea_gga(f, utc_start="2026-03-04T05:06:07Z")
    assert later.split(",")[1] == hhmmss(5 * 3600 + 6 * 60 + 7 + t)
    assert ext.nmea_gga(f, utc_start=ext.utc_parse_iso8601("2026-03-04T05:06:07Z")) == later
    path = tmp_path / "fix.nmea"
    ext.nmea_append(path, f)
    ext.nmea_append(path, f)
    assert path.read_bytes().decode() == (gga + ext.nmea_rmc(f) + gsa) * 2
    with pytest.raises(sensim.PayloadTypeError):
        ext.nmea_gga(frames["imu"][0])
    with pytest.raises(ValueError):
        ext.nmea_gga(f, talker="GPS")
    with pytest.raises(sensim.InvalidArgument):
        ext.nmea_gga(f, utc_start="yesterday")
    with pytest.raises(sensim.PayloadTypeError):
        ext.nmea_append(tmp_path / "x.nmea", frames["imu"][0])


def test_geodesy_and_time():
    a = 6378137.0
    b = a * (1 - 1 / 298.257223563)
    assert ext.geodetic_to_ecef((0, 0, 0)) == pytest.approx((a, 0, 0), abs=1e-6)
    assert ext.geodetic_to_ecef((90, 0, 0)) == pytest.approx((0, 0, b), abs=1e-6)
    llh = (37.4275, -122.1697, 30.0)
    back = ext.ecef_to_geodetic(ext.geodetic_to_ecef(llh))
    assert back == pytest.approx(llh, abs=1e-9)
    origin = (37.4275, -122.1697, 30.0)
    enu = (100.0, -50.0, 2.0)
    assert ext.geodetic_to_enu(origin, ext.enu_to_geodetic(origin, enu)) == pytest.approx(enu, abs=1e-6)
    assert ext.geodetic_to_enu(origin, origin) == pytest.approx((0, 0, 0), abs=1e-9)
    with pytest.raises(TypeError):
        ext.geodetic_to_ecef(None)
    with pytest.raises((TypeError, ValueError)):
        ext.geodetic_to_ecef((1, 2))
    assert ext.utc_from_civil(2026, 1, 1) == 1767225600.0 == ext.NMEA_DEFAULT_UTC_START
    assert ext.utc_from_civil(1970, 1, 2, 0, 0, 1.5) == 86401.5
    assert ext.utc_parse_iso8601("2026-01-01T00:00:01.25Z") == 1767225601.25
    with pytest.raises(sensim.InvalidArgument):
        ext.utc_from_civil(2026, 13, 1)
    with pytest.raises(TypeError):
        ext.utc_parse_iso8601(None)


def test_mkdirs(tmp_path):
    ext.mkdirs(tmp_path / "a" / "b" / "c")
    assert (tmp_path / "a" / "b" / "c").is_dir()
    ext.mkdirs(tmp_path / "a" / "b" / "c")  # existing folders are fine
    (tmp_path / "file").write_text("x")
    with pytest.raises(sensim.Error):
        ext.mkdirs(tmp_path / "file" / "sub")
