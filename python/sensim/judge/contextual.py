"""sensim.judge.contextual: the contextualized performance difference.

Elmquist, Serban and Negrut, "A performance contextualization approach to
validating camera models for robot simulation" (arXiv 2208.01022, 2022):
a detector's performance is measured per batch of images of similar
content, not over a whole dataset, and two datasets are compared by the
distance between their distributions of per-batch performance. Here a
batch is `batch_size` images consecutive in their content key (frame
index, so the same camera poses in every variant of a sensim dataset),
performance is mAP@0.5 and each class's AP over the batch, and the
distance is the exact 1-D Wasserstein-1 of the C tools
(sensim.wasserstein1, tools/wasserstein.c).

Uncertainty: a percentile bootstrap over batches (Efron and Tibshirani,
"An Introduction to the Bootstrap", 1993, ch. 13): the batches of each
set are resampled with replacement (the same indices for both when the
sets are paired, batch by batch, as two variants of one dataset are)
and the statistic recomputed. Besides W1 (>= 0, so its interval never
holds 0 for two different sets of batches) the signed mean difference of
paired batches is given with its interval, which holds 0 when the two
sets perform alike.
"""

import numpy as np

from .ap import average_precision, mean_ap


def _wasserstein1(a, b):
    from .. import _sensim  # the exact W1 of tools/wasserstein.c
    return _sensim.wasserstein1(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))


def content_order(data):
    """Image indices in content-key order: by frame (then name) when keys have one, else by name."""
    def key(i):
        k = data.keys[i]
        if k is not None and k.get("frame", "") != "":
            return (0, int(k["frame"]), data.names[i])
        return (1, 0, data.names[i])
    return sorted(range(len(data)), key=key)


def content_batches(data, batch_size):
    """Lists of image indices, `batch_size` consecutive images in content order each
    (a last, shorter batch is dropped so every batch weighs the same)."""
    if batch_size < 1:
        raise ValueError("content_batches: batch_size must be >= 1")
    order = content_order(data)
    return [order[s:s + batch_size] for s in range(0, len(order) - batch_size + 1, batch_size)]


def split_by_batches(data, batch_size, val_every=4):
    """(train, val) index lists: every val_every-th content batch is validation, so the
    validation set spans the whole sequence and is the same frames in every variant."""
    order = content_order(data)
    train, val = [], []
    for s in range(0, len(order), batch_size):
        (val if (s // batch_size) % val_every == val_every - 1 else train).extend(order[s:s + batch_size])
    return train, val


def per_batch_performance(detections, truths, batches, nclasses):
    """Array (nbatches, 1 + nclasses): mAP@0.5 then each class's AP, per batch (NaN where undefined)."""
    out = np.full((len(batches), 1 + nclasses), np.nan)
    for b, idx in enumerate(batches):
        ap = average_precision([detections[i] for i in idx], [truths[i] for i in idx], nclasses)
        out[b, 0] = mean_ap(ap)
        out[b, 1:] = ap
    return out


def _paired_ok(a, b):
    ok = ~np.isnan(a) & ~np.isnan(b)
    return a[ok], b[ok]


def difference(perf_a, perf_b, paired=True, n_boot=1000, level=0.95, seed=0):
    """Contextualized difference of two per-batch performance columns.

    perf_a, perf_b: 1-D arrays of per-batch values (NaN: the batch has no
    ground truth of that class; left out, pairwise when paired). Returns a
    dict: w1, w1_lo, w1_hi (bootstrap interval), mean_diff (b - a),
    diff_lo, diff_hi, n_a, n_b; NaN values when a side has no batch.
    """
    a = np.asarray(perf_a, dtype=np.float64)
    b = np.asarray(perf_b, dtype=np.float64)
    if paired:
        if a.shape != b.shape:
            raise ValueError("difference: paired sets need the same batches")
        a, b = _paired_ok(a, b)
    else:
        a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    res = {"n_a": len(a), "n_b": len(b)}
    if len(a) == 0 or len(b) == 0:
        res.update(w1=np.nan, w1_lo=np.nan, w1_hi=np.nan, mean_diff=np.nan, diff_lo=np.nan, diff_hi=np.nan)
        return res
    rng = np.random.default_rng(seed)
    w1s, ds = np.empty(n_boot), np.empty(n_boot)
    for k in range(n_boot):
        ia = rng.integers(0, len(a), len(a))
        ib = ia if paired else rng.integers(0, len(b), len(b))
        w1s[k] = _wasserstein1(a[ia], b[ib])
        ds[k] = b[ib].mean() - a[ia].mean()
    q = [(1 - level) / 2 * 100, (1 + level) / 2 * 100]
    res["w1"] = _wasserstein1(a, b)
    res["w1_lo"], res["w1_hi"] = (float(v) for v in np.percentile(w1s, q))
    res["mean_diff"] = float(b.mean() - a.mean())
    res["diff_lo"], res["diff_hi"] = (float(v) for v in np.percentile(ds, q))
    return res
