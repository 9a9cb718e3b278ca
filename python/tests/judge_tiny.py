"""The perception judge end to end, tiny (ctest judge_tiny, issue 27).

Two hundred and forty 96 x 96 images of two cone classes from
examples/judge_cones.json with its lens made a wide-angle fisheye
(Kannala-Brandt, fx 36 px: about 150 degrees across), rendered by
`sensim dataset` as the baseline and lens_pinhole variants, and the
baseline once more with another world seed (another draw of the noise:
the same dataset as far as a detector may tell). Then `sensim judge test`
trains the baseline detector with 3 seeds for 8 epochs and compares.
Checks:
  - the training loss falls (last epoch below half the first);
  - mAP@0.5 on the detector's own validation set is above 0.5;
  - the dataset against itself (the re-seeded baseline): the mean
    per-batch difference's bootstrap interval holds 0, and it is not
    beyond the seed-to-seed spread;
  - the pinhole of the same focal length against the fisheye is detected
    as different: its W1's interval lies above the spread and above the
    re-seeded baseline's interval.
Usage: judge_tiny.py SENSIM_PROGRAM EXAMPLES_DIR WORK_DIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import time


def run(*args):
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL if "dataset" in args else None)


def scenario(examples, path, seed):
    with open(os.path.join(examples, "judge_cones.json")) as fp:
        text = fp.read()
    s = json.loads(text[text.index("{"):])  # after the leading // comments
    cam = s["sensors"][0]
    cam.pop("hfov_deg", None)
    cam.update(lens="kannala_brandt", fx=36, fy=36, cx=47.5, cy=47.5)
    s["world"]["seed"] = seed
    with open(path, "w") as fp:
        json.dump(s, fp)


def main(sensim, examples, work):
    t0 = time.monotonic()
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    data = os.path.join(work, "data")
    for seed, variants, out in ((7, "baseline,lens_pinhole", data), (8, "baseline", os.path.join(work, "reseed"))):
        path = os.path.join(work, f"wide_{seed}.json")
        scenario(examples, path, seed)
        run(sensim, "dataset", path, "--out", out, "--frames", "240", "--variants", variants, "--threads", "2")
    os.rename(os.path.join(work, "reseed", "baseline"), os.path.join(data, "baseline_reseed"))
    t_data = time.monotonic() - t0
    study = os.path.join(work, "study")
    run(sensim, "judge", "test", data, "--out", study, "--epochs", "8", "--content-batch", "6", "--boot", "500")
    t_all = time.monotonic() - t0
    with open(os.path.join(study, "models", "baseline_s0", "history.csv")) as fp:
        hist = list(csv.DictReader(fp))
    with open(os.path.join(study, "test_differences.csv")) as fp:
        rows = {r["variant"]: r for r in csv.DictReader(fp) if r["metric"] == "map"}
    f = {k: {c: float(v) for c, v in r.items() if c not in ("variant", "metric", "beyond_spread", "own_val_map")}
         for k, r in rows.items()}
    loss0, loss1, val_map = float(hist[0]["loss"]), float(hist[-1]["loss"]), float(hist[-1]["val_map"])
    same, lens = f["baseline_reseed"], f["lens_pinhole"]
    print(f"data {t_data:.1f} s, all {t_all:.1f} s; loss {loss0:.3f} -> {loss1:.3f}; own-val mAP {val_map:.3f}")
    print(f"re-seeded baseline: W1 {same['w1']:.4f} [{same['w1_lo']:.4f}, {same['w1_hi']:.4f}], mean diff "
          f"{same['mean_diff']:.4f} [{same['diff_lo']:.4f}, {same['diff_hi']:.4f}]; spread {same['spread']:.4f}")
    print(f"lens_pinhole: W1 {lens['w1']:.4f} [{lens['w1_lo']:.4f}, {lens['w1_hi']:.4f}], mean diff "
          f"{lens['mean_diff']:.4f}; mAP {lens['map_ref']:.3f} -> {lens['map_variant']:.3f}")
    failures = []
    if not loss1 < 0.5 * loss0:
        failures.append(f"loss did not fall by half: {loss0} -> {loss1}")
    if not val_map > 0.5:
        failures.append(f"own-val mAP {val_map} <= 0.5")
    if not same["diff_lo"] <= 0 <= same["diff_hi"]:
        failures.append("the dataset against itself: the mean difference's interval misses 0")
    if rows["baseline_reseed"]["beyond_spread"] != "False":
        failures.append("the dataset against itself is beyond the seed spread")
    if rows["lens_pinhole"]["beyond_spread"] != "True" or not lens["w1_lo"] > same["w1_hi"]:
        failures.append("pinhole vs wide-angle lens not detected as different")
    with open(os.path.join(study, "report_test.md")) as fp:
        report = fp.read()
    if "lens_pinhole" not in report.strip().splitlines()[-1]:
        failures.append("the report's closing line does not name lens_pinhole")
    for m in failures:
        print("FAILED:", m)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
