"""python3 -m sensim.judge (also `sensim judge`): the study's experiments.

  test DATASET --out DIR    baseline detectors evaluated on every variant
  train DATASET --out DIR   a detector per variant, evaluated on the reference
  job DATASET --out DIR --variant V --seed S
                            one training of a study (what a sweep rank runs)

Exit status: 0 success, 1 bad data or a failed step (the message names the
file), 2 bad usage.
"""

import argparse
import os
import sys

from . import JudgeDataError, Study, test, train
from .experiments import DEFAULTS


def _parser():
    p = argparse.ArgumentParser(prog="sensim judge", description="Which camera components change a detector's "
                                "behaviour: the camera-ablation study's experiments (docs/judge.md).")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, hlp in (("test", "a baseline detector evaluated on every variant (Fig. 23)"),
                      ("train", "a detector per variant, evaluated on the reference (Fig. 24)"),
                      ("job", "one training of a study: --variant and --seed (a sweep's run)")):
        s = sub.add_parser(name, help=hlp)
        s.add_argument("dataset", help="a sensim dataset folder (sensim dataset --out)")
        s.add_argument("--out", required=True, help="the study's folder (new, or this study's to resume)")
        s.add_argument("--real", help="a real dataset (images/, labels/, classes.txt): the reference")
        s.add_argument("--variants", help="comma-separated variants (default: every one of the dataset)")
        s.add_argument("--epochs", type=int, default=DEFAULTS["epochs"])
        s.add_argument("--seeds", type=int, default=DEFAULTS["seeds"], help="baseline seeds for the spread")
        s.add_argument("--batch", type=int, default=DEFAULTS["batch"], help="training batch size")
        s.add_argument("--lr", type=float, default=DEFAULTS["lr"])
        s.add_argument("--content-batch", type=int, default=DEFAULTS["content_batch"],
                       help="images per content batch")
        s.add_argument("--size", type=int, default=DEFAULTS["size"], help="input size (images are resized)")
        s.add_argument("--boot", type=int, default=DEFAULTS["n_boot"], help="bootstrap resamples")
        s.add_argument("--threads", type=int, default=DEFAULTS["threads"], help="torch threads")
        if name == "job":
            s.add_argument("--variant", required=True)
            s.add_argument("--seed", type=int, required=True)
            s.add_argument("--record", help="write {epochs, val_map} of the finished training here (JSON)")
    return p


def main(argv=None):
    a = _parser().parse_args(argv)
    for k, lo in (("epochs", 1), ("seeds", 2), ("batch", 1), ("content_batch", 1), ("size", 16), ("boot", 10),
                  ("threads", 1)):
        if getattr(a, k) < lo:
            print(f"sensim judge: --{k.replace('_', '-')} must be >= {lo}", file=sys.stderr)
            return 2
    if a.size % 8:
        print("sensim judge: --size must be a multiple of 8", file=sys.stderr)
        return 2
    settings = dict(epochs=a.epochs, seeds=a.seeds, batch=a.batch, lr=a.lr, content_batch=a.content_batch,
                    size=a.size, n_boot=a.boot, threads=a.threads)
    variants = a.variants.split(",") if a.variants else None
    try:
        if a.cmd == "job":
            st = Study(a.dataset, a.out, variants=variants, real=a.real, **settings)
            if a.variant not in st.variants:
                raise JudgeDataError(f"{a.dataset}: no variant {a.variant} in the study ({', '.join(st.variants)})")
            d = st.train(a.variant, a.seed)
            print(d)
            if a.record:
                import csv
                import json
                with open(os.path.join(d, "history.csv")) as fp:
                    hist = list(csv.DictReader(fp))
                with open(a.record + ".tmp", "w") as fp:
                    json.dump({"epochs": len(hist), "val_map": float(hist[-1]["val_map"]) if hist else None}, fp)
                os.replace(a.record + ".tmp", a.record)
            return 0
        rows = (test if a.cmd == "test" else train)(a.dataset, a.out, variants=variants, real=a.real, **settings)
    except (JudgeDataError, ValueError) as e:
        print(f"sensim judge: {e}", file=sys.stderr)
        return 1
    beyond = [r["variant"] for r in rows if r["metric"] == "map" and r["beyond_spread"]]
    print(f"wrote {a.out}/report_{a.cmd}.md; beyond the seed spread: {', '.join(beyond) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
