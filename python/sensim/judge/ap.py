"""sensim.judge.ap: average precision of detections, per class, and mAP.

The PASCAL VOC measure from 2010 on (Everingham et al., "The PASCAL
Visual Object Classes (VOC) Challenge", IJCV 88(2), 2010, section 4.2):
per class, detections of every image are ranked by score; each is a true
positive when its IoU with a not yet matched ground-truth box of its
class in its image is at least the threshold (the best-overlapping box
is the one tried), else a false positive (a second detection of a box
already found is a false positive). AP is the area under the precision-
recall curve after precision is made monotone (p(r) = max over r' >= r),
summed exactly at the recall steps ("all points"). A class without
ground truth has no AP (NaN) and is left out of mAP, as in VOC and COCO.
"""

import numpy as np


def iou_xywh(a, b):
    """IoU of boxes a (n, 4) and b (m, 4), each (cx, cy, w, h): an (n, m) array."""
    a = np.asarray(a, dtype=np.float64).reshape(-1, 4)
    b = np.asarray(b, dtype=np.float64).reshape(-1, 4)
    ax0, ay0, ax1, ay1 = a[:, 0] - a[:, 2] / 2, a[:, 1] - a[:, 3] / 2, a[:, 0] + a[:, 2] / 2, a[:, 1] + a[:, 3] / 2
    bx0, by0, bx1, by1 = b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2
    iw = np.clip(np.minimum(ax1[:, None], bx1[None]) - np.maximum(ax0[:, None], bx0[None]), 0, None)
    ih = np.clip(np.minimum(ay1[:, None], by1[None]) - np.maximum(ay0[:, None], by0[None]), 0, None)
    inter = iw * ih
    union = (a[:, 2] * a[:, 3])[:, None] + (b[:, 2] * b[:, 3])[None] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def precision_envelope_ap(tp, npos):
    """AP from true-positive flags in score order and the number of ground-truth boxes."""
    if npos == 0:
        return float("nan")
    tp = np.asarray(tp, dtype=np.float64)
    if tp.size == 0:
        return 0.0
    ctp = np.cumsum(tp)
    cfp = np.cumsum(1 - tp)
    recall = ctp / npos
    precision = ctp / (ctp + cfp)
    # Monotone envelope from the right, then the area at each recall step.
    mrec = np.concatenate(([0.0], recall))
    mpre = np.concatenate(([0.0], precision))
    for i in range(len(mpre) - 2, -1, -1):
        mpre[i] = max(mpre[i], mpre[i + 1])
    steps = np.nonzero(mrec[1:] != mrec[:-1])[0] + 1
    return float(np.sum((mrec[steps] - mrec[steps - 1]) * mpre[steps]))


def average_precision(detections, truths, nclasses, iou_threshold=0.5):
    """Per-class AP over a set of images.

    detections[i]: array (k, 6) of image i: class, cx, cy, w, h, score.
    truths[i]: array (g, 5) of image i: class, cx, cy, w, h.
    Returns an array (nclasses,), NaN for a class without ground truth.
    """
    if len(detections) != len(truths):
        raise ValueError("average_precision: as many detection lists as truth lists")
    ap = np.full(nclasses, np.nan)
    for c in range(nclasses):
        npos = 0
        scored = []  # (score, image, box)
        gts = []
        for i, (d, g) in enumerate(zip(detections, truths)):
            g = np.asarray(g, dtype=np.float64).reshape(-1, 5)
            gc = g[g[:, 0] == c, 1:5]
            gts.append(gc)
            npos += len(gc)
            d = np.asarray(d, dtype=np.float64).reshape(-1, 6)
            for row in d[d[:, 0] == c]:
                scored.append((row[5], i, row[1:5]))
        if npos == 0:
            continue
        # Stable sort on score, highest first: ties keep image order.
        order = sorted(range(len(scored)), key=lambda k: -scored[k][0])
        used = [np.zeros(len(g), dtype=bool) for g in gts]
        tp = np.zeros(len(order))
        for r, k in enumerate(order):
            _, i, box = scored[k]
            if len(gts[i]) == 0:
                continue
            ious = iou_xywh(box, gts[i])[0]
            j = int(np.argmax(ious))
            if ious[j] >= iou_threshold and not used[i][j]:
                used[i][j] = True
                tp[r] = 1
        ap[c] = precision_envelope_ap(tp, npos)
    return ap


def mean_ap(ap):
    """mAP: the mean of the classes that have an AP (NaN if none has)."""
    ap = np.asarray(ap, dtype=np.float64)
    ok = ~np.isnan(ap)
    return float(ap[ok].mean()) if ok.any() else float("nan")
