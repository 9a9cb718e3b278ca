"""sensim.judge: which camera components matter, measured by a detector.

The camera-ablation study's question (docs/ablation.md, docs/judge.md):
which parts of a camera simulation change how a perception algorithm
behaves. A small CenterNet-style detector (model.py) is trained from
scratch per dataset variant, deterministically (train.py), and datasets
are compared by the contextualized performance difference (Elmquist et
al. 2022, contextual.py): Wasserstein-1 between distributions of
per-batch mAP@0.5 over batches of similar content, with bootstrap
intervals, judged against the baseline's own seed-to-seed spread.

    from sensim import judge
    rows = judge.test("out/cones", "out/judge")   # Fig. 23: baseline detector on every variant
    rows = judge.train("out/cones", "out/judge")  # Fig. 24: a detector per variant
    judge.read_dataset("my_real_images")          # images/ + labels/ (YOLO txt), checked

The command line is ``sensim judge test|train DATASET --out DIR`` (or
``python3 -m sensim.judge``); ``--real DIR`` makes a real dataset the
reference (sim-to-real, Fig. 22).
"""

from .ap import average_precision, iou_xywh, mean_ap, precision_envelope_ap  # noqa: F401
from .contextual import content_batches, difference, per_batch_performance, split_by_batches  # noqa: F401
from .errors import JudgeDataError  # noqa: F401
from .experiments import DEFAULTS, Study, dataset_variants  # noqa: F401
from .yolo import Dataset, parse_label_file, read_dataset, write_labels  # noqa: F401


def _experiment(name, dataset_dir, out_dir, variants=None, real=None, log=None, **settings):
    from .report import write_report
    study = Study(dataset_dir, out_dir, variants=variants, real=real, log=log, **settings)
    rows = study.run(name)
    write_report(study, name, rows)
    return rows


def test(dataset_dir, out_dir, variants=None, real=None, log=None, **settings):
    """The testing experiment (experiments.py); writes report_test.md; returns the table's rows."""
    return _experiment("test", dataset_dir, out_dir, variants, real, log, **settings)


def train(dataset_dir, out_dir, variants=None, real=None, log=None, **settings):
    """The training experiment (experiments.py); writes report_train.md; returns the table's rows."""
    return _experiment("train", dataset_dir, out_dir, variants, real, log, **settings)
