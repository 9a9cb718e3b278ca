"""sensim.judge.experiments: the study's experiments over a sensim dataset.

A dataset folder as `sensim dataset` writes it holds one sub-folder per
camera-stage variant (baseline, lens_pinhole, noise_off, ...), each with
images, YOLO labels and content keys. Every variant is split the same
way (split_by_batches: every 4th content batch is validation), so the
validation images of two variants show the same scenes.

  testing (Fig. 23 of the study): detectors trained on the baseline
      (seeds 0..seeds-1) are evaluated on every variant's validation set;
      each variant's per-batch performance is compared with the
      reference's.
  training (Fig. 24): a detector is trained per variant and evaluated on
      its own validation set and on the reference set; on the reference
      its per-batch performance is compared with the baseline detector's.
  reference: a real dataset (real=DIR: images and YOLO labels), where the
      differences are sim-to-real ones (Fig. 22); without one, the
      baseline's validation set.

The baseline is trained with `seeds` seeds; the seed-to-seed spread is the
largest W1 between two of them on the reference set, and a variant
changed the detector's behaviour when the lower end of its W1's bootstrap
interval lies above that spread.

Every step writes its result under out_dir and is skipped when the result
is there, and training resumes from its last epoch, so a killed study
continues where it stopped when run again (also one job at a time, as
the ranks of `sensim sweep` run it: jobs()).
"""

import csv
import json
import os

import numpy as np

from .contextual import content_batches, difference, per_batch_performance, split_by_batches
from .errors import JudgeDataError
from .training import fit, load_model, predict
from .yolo import read_class_names, read_dataset

DEFAULTS = {"epochs": 15, "batch": 16, "lr": 2e-3, "content_batch": 10, "seeds": 3, "size": 96,
            "n_boot": 1000, "threads": 1}


def dataset_variants(dataset_dir):
    """The variant folders of a sensim dataset (those with an images/ folder), in the ablation table's order."""
    if not os.path.isdir(dataset_dir):
        raise JudgeDataError(f"{dataset_dir}: no such dataset folder")
    names = sorted(d for d in os.listdir(dataset_dir) if os.path.isdir(os.path.join(dataset_dir, d, "images")))
    if "baseline" not in names:
        raise JudgeDataError(f"{dataset_dir}: no baseline/ variant (make it with sensim dataset)")
    # The ablation table's order (baseline first), then any other folder by name.
    from .. import _sensim
    table = list(_sensim.ablation_names())
    return sorted(names, key=lambda n: (table.index(n), "") if n in table else (len(table), n))


class Study:
    """One study's data, settings and output folder (see the module docstring)."""

    def __init__(self, dataset_dir, out_dir, variants=None, real=None, log=None, **settings):
        unknown = set(settings) - set(DEFAULTS)
        if unknown:
            raise TypeError(f"unknown settings {sorted(unknown)}; known: {sorted(DEFAULTS)}")
        self.s = dict(DEFAULTS, **settings)
        self.dataset_dir = dataset_dir
        self.out_dir = out_dir
        self.real = real
        self.log = log
        all_variants = dataset_variants(dataset_dir)
        if variants:
            bad = [v for v in variants if v not in all_variants]
            if bad:
                raise JudgeDataError(f"{dataset_dir}: no variant {bad[0]} (has {', '.join(all_variants)})")
            variants = ["baseline"] + [v for v in variants if v != "baseline"]
        self.variants = variants or all_variants
        self.class_names = read_class_names(os.path.join(dataset_dir, "baseline"))
        self._data = {}
        self._claim_out_dir()

    def _claim_out_dir(self):
        """Mark out_dir as this study's (study.json); refuse a folder holding anything else.

        Several processes (a sweep's ranks) may start one study at once: the
        mark is created with a hard link, which only one of them wins, and
        every one then compares its settings with the mark's.
        """
        mark = os.path.join(self.out_dir, "study.json")
        me = {"dataset": os.path.abspath(self.dataset_dir), "real": self.real and os.path.abspath(self.real),
              "variants": self.variants, **{k: self.s[k] for k in sorted(self.s) if k != "threads"}}
        if not os.path.exists(mark):
            others = [n for n in (os.listdir(self.out_dir) if os.path.isdir(self.out_dir) else [])
                      if not n.startswith("study.json")]
            if others and not os.path.exists(mark):
                raise JudgeDataError(f"{self.out_dir}: not empty and not a study's folder; give a new folder "
                                     "(nothing is overwritten)")
            os.makedirs(self.out_dir, exist_ok=True)
            tmp = f"{mark}.{os.getpid()}.tmp"
            with open(tmp, "w") as fp:
                json.dump(me, fp, indent=1)
            try:
                os.link(tmp, mark)
            except FileExistsError:
                pass
            finally:
                os.remove(tmp)
        with open(mark) as fp:
            old = json.load(fp)
        if old != me:
            diff = sorted(k for k in set(old) | set(me) if old.get(k) != me.get(k))
            raise JudgeDataError(f"{mark}: {self.out_dir} holds a study with other settings ({', '.join(diff)}); "
                                 "give a new folder (nothing is overwritten)")

    # ---- data -------------------------------------------------------------

    def data(self, name):
        """The Dataset of a variant, or 'real'."""
        if name not in self._data:
            root = self.real if name == "real" else os.path.join(self.dataset_dir, name)
            self._data[name] = read_dataset(root, self.s["size"], self.class_names)
        return self._data[name]

    def split(self, name):
        d = self.data(name)
        tr, va = split_by_batches(d, self.s["content_batch"])
        if not tr or not va:
            raise JudgeDataError(f"{d.root}: {len(d)} images are too few for a training and a validation set "
                                 f"of content batches of {self.s['content_batch']}")
        return d.subset(tr), d.subset(va)

    def reference(self):
        """Name of the reference set: 'real' when given, else the baseline's validation set."""
        return "real" if self.real else "baseline"

    def eval_set(self, name):
        """The set a detector is evaluated on: all of the real set, a variant's validation split."""
        return self.data("real") if name == "real" else self.split(name)[1]

    # ---- steps ------------------------------------------------------------

    def model_dir(self, variant, seed):
        return os.path.join(self.out_dir, "models", f"{variant}_s{seed}")

    def train(self, variant, seed):
        """Train (or resume, or find done) the detector of a variant and seed; its folder."""
        d = self.model_dir(variant, seed)
        if not os.path.exists(os.path.join(d, "model.pt")):
            tr, va = self.split(variant)
            s = self.s
            fit(tr, d, seed=seed, epochs=s["epochs"], batch=s["batch"], lr=s["lr"], val=va, threads=s["threads"],
                log=self.log)
            from .report import plot_history
            plot_history(os.path.join(d, "history.csv"), os.path.join(d, "loss.png"), f"{variant}, seed {seed}")
        return d

    def perf(self, variant, seed, on):
        """Per-batch performance of detector (variant, seed) on set `on` (cached as CSV)."""
        path = os.path.join(self.out_dir, "perf", f"{variant}_s{seed}__on__{on}.csv")
        if os.path.exists(path):
            return np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        model = load_model(os.path.join(self.train(variant, seed), "model.pt"))
        data = self.eval_set(on)
        batches = content_batches(data, self.s["content_batch"])
        if not batches:
            raise JudgeDataError(f"{data.root}: fewer images than one content batch ({self.s['content_batch']})")
        perf = per_batch_performance(predict(model, data.images), data.boxes, batches, data.nclasses)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        header = ",".join(["map"] + [f"ap_{c}" for c in self.class_names])
        tmp = path + ".tmp"
        np.savetxt(tmp, perf, delimiter=",", header=header, comments="", fmt="%.9g")
        os.replace(tmp, path)
        return perf

    def compare(self, pa, pb, paired):
        """difference() for mAP and each class: a list of dicts with a 'metric' key."""
        out = []
        for j, metric in enumerate(["map"] + [f"ap_{c}" for c in self.class_names]):
            r = difference(pa[:, j], pb[:, j], paired=paired, n_boot=self.s["n_boot"], seed=j)
            r["metric"] = metric
            out.append(r)
        return out

    def seed_spread(self, on):
        """Largest W1 (per metric) between two baseline seeds evaluated on `on`."""
        perfs = [self.perf("baseline", s, on) for s in range(self.s["seeds"])]
        spread = np.zeros(perfs[0].shape[1])
        for i in range(len(perfs)):
            for j in range(i + 1, len(perfs)):
                for k, r in enumerate(self.compare(perfs[i], perfs[j], paired=True)):
                    if np.isfinite(r["w1"]):
                        spread[k] = max(spread[k], r["w1"])
        return spread

    # ---- the experiments --------------------------------------------------

    def jobs(self, experiment):
        """The study's trainings as (variant, seed) pairs: the units `sensim sweep` hands out."""
        base = [("baseline", s) for s in range(self.s["seeds"])]
        if experiment == "test":
            return base
        return base + [(v, 0) for v in self.variants if v != "baseline"]

    def run(self, experiment):
        """Run (or finish) the experiment 'test' or 'train'; the table as a list of row dicts."""
        if experiment not in ("test", "train"):
            raise ValueError(f"experiment {experiment!r}: 'test' or 'train'")
        for v, s in self.jobs(experiment):
            self.train(v, s)
        ref = self.reference()
        spread = self.seed_spread(ref)
        rows = []
        for v in self.variants:
            if experiment == "test":
                # the baseline detector on the variant's data against it on the reference
                pa, pb = self.perf("baseline", 0, ref), self.perf("baseline", 0, v)
                paired = ref != "real"
                own = None
            else:
                # the variant's detector against the baseline's, both on the reference
                pa, pb = self.perf("baseline", 0, ref), self.perf(v, 0, ref)
                paired = True
                own = np.nanmean(self.perf(v, 0, v)[:, 0])
            for k, r in enumerate(self.compare(pa, pb, paired)):
                r.update(variant=v, spread=float(spread[k]), map_ref=float(np.nanmean(pa[:, k])),
                         map_variant=float(np.nanmean(pb[:, k])))
                if own is not None and k == 0:
                    r["own_val_map"] = float(own)
                r["beyond_spread"] = bool(v != "baseline" and np.isfinite(r["w1_lo"]) and r["w1_lo"] > spread[k])
                rows.append(r)
        self._write_table(experiment, rows)
        return rows

    def _write_table(self, experiment, rows):
        os.makedirs(self.out_dir, exist_ok=True)
        keys = ["variant", "metric", "w1", "w1_lo", "w1_hi", "mean_diff", "diff_lo", "diff_hi", "spread",
                "map_ref", "map_variant", "own_val_map", "beyond_spread", "n_a", "n_b"]
        path = os.path.join(self.out_dir, f"{experiment}_differences.csv")
        with open(path + ".tmp", "w", newline="") as fp:
            w = csv.DictWriter(fp, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({k: r.get(k, "") for k in keys})
        os.replace(path + ".tmp", path)
