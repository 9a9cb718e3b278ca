"""sensim.judge.model: a small anchor-free detector, CenterNet-style.

Objects as points (X. Zhou, D. Wang, P. Krähenbühl, "Objects as Points",
arXiv 1904.07850, 2019): the network predicts, on a grid at 1/4 of the
image's resolution, a heat map per class whose peaks are object centres,
and at each cell the box's size and the centre's sub-cell offset.

Backbone: three stride-2 stages of 3x3 convolutions with batch norm and
ReLU (16, 32, 64 channels: 1/2, 1/4, 1/8), the 1/8 stage upsampled
(nearest) and added to the 1/4 stage (a feature pyramid's top-down path,
Lin et al., CVPR 2017), a 3x3 fusion layer and one 1x1 layer for the three
heads. About 70 k parameters and 30 MFLOP per 96 x 96 image: small enough
to train from scratch on a CPU in minutes.

Loss (section 3 of the paper): the penalty-reduced pixel-wise focal loss
on the heat map (alpha 2, beta 4, after Law and Deng's CornerNet), whose
targets are Gaussians around each centre; L1 losses on size (weight 0.1)
and offset (weight 1) at the centre cells only.
"""

import math

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

STRIDE = 4


def _conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """Heat map (nclasses), size (2) and offset (2) maps at stride 4."""

    def __init__(self, nclasses, width=16):
        super().__init__()
        w = width
        self.nclasses = nclasses
        self.s1 = _conv(3, w, 2)
        self.s2 = nn.Sequential(_conv(w, 2 * w, 2), _conv(2 * w, 2 * w))
        self.s3 = nn.Sequential(_conv(2 * w, 4 * w, 2), _conv(4 * w, 4 * w))
        self.lat = nn.Conv2d(4 * w, 2 * w, 1)
        self.fuse = _conv(2 * w, 2 * w)
        # One shared 1x1 layer gives the three heads: heat (nclasses), size (2), offset (2).
        self.head = nn.Conv2d(2 * w, nclasses + 4, 1)
        # Start the heat map at p = 0.1 everywhere (the paper's -2.19 bias) so
        # the focal loss does not begin with a flood of confident negatives.
        with torch.no_grad():
            self.head.bias[:nclasses].fill_(-math.log((1 - 0.1) / 0.1))

    def forward(self, x):
        f2 = self.s2(self.s1(x))
        f3 = self.s3(f2)
        f = self.fuse(f2 + F.interpolate(self.lat(f3), size=f2.shape[-2:], mode="nearest"))
        y = self.head(f)
        c = self.nclasses
        return y[:, :c], y[:, c:c + 2], y[:, c + 2:]


def gaussian_sigma(w, h):
    """Spread of a centre's target (grid cells) for a box w x h (cells).

    A simplification of the paper's size-adaptive radius: a sixth of the
    box's geometric mean size (so the Gaussian's 3-sigma disc stays inside
    the box), at least 0.5 cell.
    """
    return max(math.sqrt(w * h) / 6.0, 0.5)


def encode_targets(boxes_list, nclasses, size):
    """Training targets for a batch: heat (B, C, G, G), size and offset (B, 2, G, G), mask (B, G, G).

    boxes_list[i]: array (k, 5) class, cx, cy, w, h (normalised). Size is
    in grid cells; where two centres share a cell the later box wins.
    """
    g = size // STRIDE
    b = len(boxes_list)
    heat = np.zeros((b, nclasses, g, g), dtype=np.float32)
    wh = np.zeros((b, 2, g, g), dtype=np.float32)
    off = np.zeros((b, 2, g, g), dtype=np.float32)
    mask = np.zeros((b, g, g), dtype=np.float32)
    ys, xs = np.mgrid[0:g, 0:g]
    for i, boxes in enumerate(boxes_list):
        for c, cx, cy, bw, bh in np.asarray(boxes).reshape(-1, 5):
            px, py = cx * g, cy * g  # centre in cells (cell j spans [j, j + 1))
            ix, iy = min(int(px), g - 1), min(int(py), g - 1)
            s = gaussian_sigma(bw * g, bh * g)
            gauss = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * s * s)).astype(np.float32)
            heat[i, int(c)] = np.maximum(heat[i, int(c)], gauss)
            wh[i, :, iy, ix] = (bw * g, bh * g)
            off[i, :, iy, ix] = (px - ix, py - iy)
            mask[i, iy, ix] = 1
    return torch.from_numpy(heat), torch.from_numpy(wh), torch.from_numpy(off), torch.from_numpy(mask)


def focal_loss(logits, target):
    """Penalty-reduced focal loss (Zhou et al. eq. 1), normalised by the number of centres."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg
    npos = pos.sum()
    return -(pos_loss.sum() + neg_loss.sum()) / torch.clamp(npos, min=1.0)


def detector_loss(outputs, targets):
    """Total loss and its parts (heat, size, offset) for a batch."""
    heat_l, size_p, off_p = outputs
    heat_t, wh_t, off_t, mask = targets
    lh = focal_loss(heat_l, heat_t)
    m = mask.unsqueeze(1)
    n = torch.clamp(mask.sum(), min=1.0)
    ls = (torch.abs(size_p - wh_t) * m).sum() / n
    lo = (torch.abs(off_p - off_t) * m).sum() / n
    return lh + 0.1 * ls + lo, (lh.item(), ls.item(), lo.item())


@torch.no_grad()
def decode(outputs, top_k=50, threshold=0.01):
    """Detections per image: arrays (k, 6) class, cx, cy, w, h (normalised), score.

    Peaks are cells that equal the maximum of their 3x3 neighbourhood (the
    paper's max-pool non-maximum suppression), the top_k of them above
    threshold.
    """
    heat_l, size_p, off_p = outputs
    heat = torch.sigmoid(heat_l)
    peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).float()
    b, c, g, _ = heat.shape
    out = []
    for i in range(b):
        scores, idx = peaks[i].reshape(-1).topk(min(top_k, c * g * g))
        keep = scores > threshold
        scores, idx = scores[keep], idx[keep]
        cls = idx // (g * g)
        cell = idx % (g * g)
        iy, ix = cell // g, cell % g
        ox, oy = off_p[i, 0, iy, ix], off_p[i, 1, iy, ix]
        w, h = size_p[i, 0, iy, ix].clamp(min=0.1), size_p[i, 1, iy, ix].clamp(min=0.1)
        cx = (ix.float() + ox) / g
        cy = (iy.float() + oy) / g
        det = torch.stack([cls.float(), cx, cy, w / g, h / g, scores], dim=1)
        out.append(det.numpy().astype(np.float64))
    return out
