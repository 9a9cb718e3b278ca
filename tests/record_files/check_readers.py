#!/usr/bin/env python3
"""tests/record_files/check_readers.py: the files `sensim run` writes beside
each sensor's frames, read by the readers their users have.

  camera_info.yaml  PyYAML's yaml.safe_load (how ROS 2's Python calibration
                    tools and camera_info_manager_py read it): every key, K,
                    D, R and P against include/sensim/camera.h's definitions
                    computed here, reals as Python floats (ROS 2 message
                    classes refuse ints in float64 arrays); then, when it was
                    built, read_camera_info (yaml-cpp as ROS's C++ parser,
                    and OpenCV's cv::FileStorage), which must read the same.
  poses.txt         TUM lines: 8 floats, times strictly increasing, unit
                    quaternions, as many as the sensor's frames.

usage: check_readers.py SENSIM TMPDIR [READ_CAMERA_INFO]
Prints "N passed, N failed" and exits 1 on any failure, 77 (skipped)
without PyYAML."""
import math
import os
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("skipped: PyYAML is missing (apt-get install python3-yaml)")
    sys.exit(77)

SCENARIO = """{"world": {"threads": 0}, "duration": 0.2, "step": 0.01,
 "meshes": [{"name": "box", "shape": {"kind": "box", "size": [1, 1, 1]}}],
 "bodies": [{"name": "box", "mesh": "box", "static": true, "pose": {"position": [3, 0, 0]}},
            {"name": "cart", "motion": {"type": "circle", "center": [0, 0, 0.5], "radius": 2,
                                        "speed": 1}}],
 "sensors": [
  {"name": "pin", "type": "camera", "body": "cart", "rate": 10, "width": 40, "height": 30,
   "hfov_deg": 70, "samples": 1, "filters": [{"name": "quantize"}]},
  {"name": "bc", "type": "camera", "body": "cart", "rate": 10, "width": 40, "height": 30,
   "samples": 1, "lens": "brown_conrady", "fx": 30.5, "fy": 31.25, "cx": 19.75, "cy": 14.5,
   "dist": [-0.2, 0.05, 0.001, -0.0005, 1e-6], "filters": [{"name": "quantize"}]},
  {"name": "kb", "type": "camera", "body": "cart", "rate": 10, "width": 40, "height": 30,
   "samples": 1, "lens": "kannala_brandt", "fx": 12, "fy": 12, "cx": 19.5, "cy": 14.5,
   "dist": [0.01, -0.002, 0.0003, -4e-5], "filters": [{"name": "quantize"}]},
  {"name": "wide", "type": "camera", "body": "cart", "rate": 10, "width": 40, "height": 30,
   "samples": 1, "lens": "fov", "hfov_deg": 90, "filters": [{"name": "quantize"}]},
  {"name": "ds", "type": "camera", "body": "cart", "rate": 10, "width": 40, "height": 30,
   "hfov_deg": 70, "samples": 1,
   "filters": [{"name": "downsample", "params": {"factor": 2}}, {"name": "quantize"}]},
  {"name": "imu", "type": "imu", "body": "cart", "rate": 50}]}
"""

# (size, model, K, D) each camera must have, from camera.h; "ds" delivers
# images halved by its chain, which the intrinsics follow (pixel centres
# at integers: cx' = (cx + 0.5) / 2 - 0.5).
F_PIN = 20 / math.tan(math.radians(70) / 2)
EXPECTED = {
    "pin": ((40, 30), "plumb_bob", [F_PIN, 0, 19.5, 0, F_PIN, 14.5, 0, 0, 1], [0.0] * 5),
    "bc": ((40, 30), "plumb_bob", [30.5, 0, 19.75, 0, 31.25, 14.5, 0, 0, 1],
           [-0.2, 0.05, 0.001, -0.0005, 1e-6]),
    "kb": ((40, 30), "equidistant", [12, 0, 19.5, 0, 12, 14.5, 0, 0, 1], [0.01, -0.002, 0.0003, -4e-5]),
    "ds": ((20, 15), "plumb_bob", [F_PIN / 2, 0, 9.5, 0, F_PIN / 2, 7.0, 0, 0, 1], [0.0] * 5),
}
FRAMES = {"pin": 3, "bc": 3, "kb": 3, "wide": 3, "ds": 3, "imu": 11}

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def main():
    sensim, tmp = sys.argv[1], sys.argv[2]
    reader = sys.argv[3] if len(sys.argv) > 3 else None
    if not reader:
        print("note: read_camera_info was not built: yaml-cpp and OpenCV are not checked")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    scenario = os.path.join(tmp, "cameras.json")
    with open(scenario, "w") as fp:
        fp.write(SCENARIO)
    out = os.path.join(tmp, "out")
    run = subprocess.run([sensim, "run", scenario, "--out", out], capture_output=True, text=True)
    if run.returncode != 0:
        print("FAIL: sensim run:", run.stderr)
        return 1

    for name, ((width, height), model, K, D) in EXPECTED.items():
        path = os.path.join(out, name, "camera_info.yaml")
        with open(path) as fp:
            c = yaml.safe_load(fp)
        check(set(c) == {"image_width", "image_height", "camera_name", "camera_matrix", "distortion_model",
                         "distortion_coefficients", "rectification_matrix", "projection_matrix"},
              f"{name}: keys {sorted(c)}")
        check(c["image_width"] == width and c["image_height"] == height, f"{name}: size")
        check(c["camera_name"] == name, f"{name}: camera_name {c['camera_name']!r}")
        check(c["distortion_model"] == model, f"{name}: model {c['distortion_model']}")
        mats = {"camera_matrix": (3, 3, K), "distortion_coefficients": (1, len(D), D),
                "rectification_matrix": (3, 3, [1, 0, 0, 0, 1, 0, 0, 0, 1]),
                "projection_matrix": (3, 4, K[0:3] + [0] + K[3:6] + [0] + K[6:9] + [0])}
        for key, (rows, cols, want) in mats.items():
            m = c[key]
            check(m["rows"] == rows and m["cols"] == cols, f"{name}.{key}: shape {m['rows']}x{m['cols']}")
            check(all(type(v) is float for v in m["data"]), f"{name}.{key}: not all floats: {m['data']}")
            check(m["data"] == [float(v) for v in want], f"{name}.{key}: {m['data']} != {want}")
        if reader:
            r = subprocess.run([reader, path], capture_output=True, text=True)
            check(r.returncode == 0, f"{name}: read_camera_info: {r.stderr.strip()}")
            for row in r.stdout.splitlines():
                f = row.split(" ")
                check(f[1:5] == [str(width), str(height), name, model], f"{name}: {f[0]} read {f[1:5]}")
                i = f.index("K")
                check([float(v) for v in f[i + 1:i + 10]] == c["camera_matrix"]["data"],
                      f"{name}: {f[0]} K {f[i + 1:i + 10]}")
                i, j = f.index("D"), f.index("R")
                check([float(v) for v in f[i + 1:j]] == c["distortion_coefficients"]["data"],
                      f"{name}: {f[0]} D {f[i + 1:j]}")
    # The FOV lens, which ROS has no model for: exactly as sensim's "fov"
    # (D = [hfov / 2]), and beside it the nearest ROS model with its error
    # in a comment line, which every reader skips.
    with open(os.path.join(out, "wide", "camera_info.yaml")) as fp:
        c = yaml.safe_load(fp)
    check(c["distortion_model"] == "fov" and len(c["distortion_coefficients"]["data"]) == 1,
          f"wide: model {c['distortion_model']} D {c['distortion_coefficients']['data']}")
    fit_path = os.path.join(out, "wide", "camera_info_fit.yaml")
    with open(fit_path) as fp:
        text = fp.read()
    check("least-squares fit of sensim's fov lens" in text, "wide: camera_info_fit.yaml states its fit")
    fit = yaml.safe_load(text)
    check(fit["distortion_model"] in ("plumb_bob", "equidistant"), f"wide fit: model {fit['distortion_model']}")
    if reader:
        r = subprocess.run([reader, fit_path], capture_output=True, text=True)
        check(r.returncode == 0, f"wide fit: read_camera_info: {r.stderr.strip()}")
        for row in r.stdout.splitlines():
            check(row.split(" ")[4] == fit["distortion_model"], f"wide fit: {row.split(' ')[0]} read {row}")

    for name, frames in FRAMES.items():
        with open(os.path.join(out, name, "poses.txt")) as fp:
            lines = fp.read().splitlines()
        check(lines[0].startswith("# timestamp tx ty tz qx qy qz qw"), f"{name}: header {lines[0]!r}")
        rows = [[float(v) for v in line.split(" ")] for line in lines[1:]]
        check(len(rows) == frames and all(len(r) == 8 for r in rows), f"{name}: {len(rows)} poses")
        check(all(a[0] < b[0] for a, b in zip(rows, rows[1:])), f"{name}: times not increasing")
        check(all(abs(math.hypot(*r[4:8]) - 1) < 1e-12 for r in rows), f"{name}: quaternions not unit")
        # The cart circles at 1 m/s on a radius of 2 m: its sensors stay on the circle.
        check(all(abs(math.hypot(r[1], r[2]) - 2) < 1e-9 for r in rows), f"{name}: poses off the circle")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
