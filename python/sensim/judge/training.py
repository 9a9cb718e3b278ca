"""sensim.judge.training: training from scratch, deterministic and resumable.

Seeds: torch, NumPy and the shuffling generator come from one seed, and
torch.use_deterministic_algorithms(True) makes every kernel reproducible,
so a seed and a thread count give the same weights run after run. After
each epoch the state (weights, optimiser, epoch, history) is written
atomically to checkpoint.pt; a run killed at any point restarts from the
last finished epoch and ends with the same weights as an uninterrupted
one (the shuffling generator's state is saved with it).
"""

import csv
import os
import random

import numpy as np
import torch

from .ap import average_precision, mean_ap
from .model import Detector, decode, detector_loss, encode_targets
from .progress import Progress


def set_determinism(seed, threads=None):
    """Seed every generator and make torch's kernels deterministic."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    if threads:
        torch.set_num_threads(int(threads))


def to_tensor(images):
    """uint8 (N, H, W, 3) -> float (N, 3, H, W) in [0, 1]."""
    return torch.from_numpy(np.ascontiguousarray(images)).permute(0, 3, 1, 2).float().div_(255.0)


@torch.no_grad()
def predict(model, images, batch=64):
    """Detections (list of arrays (k, 6)) of every image."""
    model.eval()
    out = []
    for s in range(0, len(images), batch):
        out.extend(decode(model(to_tensor(images[s:s + batch]))))
    return out


def evaluate(model, data):
    """(mAP@0.5, per-class AP) of a model on a Dataset."""
    ap = average_precision(predict(model, data.images), data.boxes, data.nclasses)
    return mean_ap(ap), ap


def _atomic_save(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def fit(train, out_dir, seed=0, epochs=30, batch=16, lr=2e-3, val=None, threads=None, log=None, width=16,
        stop_after=None):
    """Train a Detector on `train` (a Dataset) into out_dir; resumes from its checkpoint.

    stop_after: train at most this many epochs in this call and return
    (model, history) without model.pt (a time budget, or a kill in tests);
    the next call continues from the checkpoint.

    Writes out_dir/checkpoint.pt after every epoch, and at the end
    model.pt and history.csv (epoch, loss, heat, size, offset, val_map).
    Returns (model, history) where history is a list of dicts.
    """
    os.makedirs(out_dir, exist_ok=True)
    set_determinism(seed, threads)
    model = Detector(train.nclasses, width=width)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(seed)
    history, start = [], 0
    ckpt = os.path.join(out_dir, "checkpoint.pt")
    if os.path.exists(ckpt):
        state = torch.load(ckpt)
        if state.get("seed") != seed or state.get("n") != len(train):
            raise ValueError(f"{ckpt}: a checkpoint of another run (seed {state.get('seed')}, "
                             f"{state.get('n')} images); remove it or use another folder")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        gen.set_state(state["gen"])
        history, start = state["history"], state["epoch"]
    size = train.images.shape[1]
    steps = (len(train) + batch - 1) // batch
    total = epochs * steps
    end = epochs if stop_after is None else min(epochs, start + stop_after)
    for epoch in range(start, end):
        model.train()
        perm = torch.randperm(len(train), generator=gen).numpy()
        flips = torch.rand(len(train), generator=gen).numpy() < 0.5
        bar = Progress(steps, f"epoch {epoch + 1}/{epochs}", stream=log)
        sums = np.zeros(4)
        for s in range(steps):
            idx = perm[s * batch:(s + 1) * batch]
            imgs = train.images[idx].copy()
            boxes = [train.boxes[i].copy() for i in idx]
            for k, i in enumerate(idx):  # horizontal flip: mirror the image and the boxes' centres
                if flips[i]:
                    imgs[k] = imgs[k][:, ::-1]
                    if len(boxes[k]):
                        boxes[k][:, 1] = 1.0 - boxes[k][:, 1]
            # Cosine decay of the learning rate over the whole run (Loshchilov and
            # Hutter, SGDR, ICLR 2017, without restarts), a function of the step alone
            # so a resumed run follows the same schedule.
            k = epoch * steps + s
            for g in opt.param_groups:
                g["lr"] = lr * 0.5 * (1 + np.cos(np.pi * k / total))
            out = model(to_tensor(imgs))
            loss, parts = detector_loss(out, encode_targets(boxes, train.nclasses, size))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums += (loss.item(), *parts)
            bar.update(1, loss=float(sums[0] / (s + 1)))
        bar.close()
        rec = {"epoch": epoch + 1, "loss": sums[0] / steps, "heat": sums[1] / steps, "size": sums[2] / steps,
               "offset": sums[3] / steps, "val_map": float("nan")}
        if val is not None:
            rec["val_map"] = evaluate(model, val)[0]
        history.append(rec)
        _atomic_save({"model": model.state_dict(), "opt": opt.state_dict(), "gen": gen.get_state(),
                      "epoch": epoch + 1, "history": history, "seed": seed, "n": len(train)}, ckpt)
    if end < epochs:
        return model, history
    _atomic_save({"model": model.state_dict(), "nclasses": train.nclasses, "width": width,
                  "class_names": train.class_names, "size": size}, os.path.join(out_dir, "model.pt"))
    with open(os.path.join(out_dir, "history.csv"), "w", newline="") as fp:
        w = csv.DictWriter(fp, fieldnames=list(history[0].keys()) if history else ["epoch"])
        w.writeheader()
        w.writerows(history)
    return model, history


def load_model(path):
    """A Detector saved by fit (out_dir/model.pt), in eval mode."""
    state = torch.load(path)
    model = Detector(state["nclasses"], width=state["width"])
    model.load_state_dict(state["model"])
    model.eval()
    return model
