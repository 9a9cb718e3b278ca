"""sensim.judge.report: the study's Markdown report and plots (matplotlib).

  report_<experiment>.md      the table of differences for mAP and per
                              class, each variant beside what the camera
                              component study says of its component, the
                              study's own block (sensim.published: its
                              numbers could not be read, which the block
                              says) and a closing line naming the
                              components that changed the detector's
                              behaviour beyond the seed-to-seed spread
  <experiment>_w1.png         W1 per variant with its bootstrap interval
                              and the spread as a line
  models/<m>/loss.png         training loss and validation mAP per epoch
"""

import csv
import os

import numpy as np


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_history(history_csv, png, title):
    """Loss (left axis) and validation mAP@0.5 (right axis) per epoch."""
    with open(history_csv, newline="") as fp:
        rows = list(csv.DictReader(fp))
    if not rows:
        return
    plt = _plt()
    ep = [int(r["epoch"]) for r in rows]
    fig, ax = plt.subplots(figsize=(5, 3.2), dpi=100)
    ax.plot(ep, [float(r["loss"]) for r in rows], "o-", color="tab:blue", label="training loss")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss", color="tab:blue")
    ax2 = ax.twinx()
    ax2.plot(ep, [float(r["val_map"]) for r in rows], "s-", color="tab:orange", label="validation mAP@0.5")
    ax2.set_ylabel("validation mAP@0.5", color="tab:orange")
    ax2.set_ylim(0, 1)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


def plot_differences(rows, png, title, metric="map"):
    """W1 of each variant (bars, with the bootstrap interval) and the seed spread (dashed)."""
    rs = [r for r in rows if r["metric"] == metric and r["variant"] != "baseline"]
    if not rs:
        return
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4, 0.8 * len(rs) + 1.5), 3.4), dpi=100)
    x = np.arange(len(rs))
    w1 = np.array([r["w1"] for r in rs])
    lo = np.array([r["w1_lo"] for r in rs])
    hi = np.array([r["w1_hi"] for r in rs])
    colors = ["tab:red" if r["beyond_spread"] else "tab:gray" for r in rs]
    ax.bar(x, w1, color=colors, yerr=[np.clip(w1 - lo, 0, None), np.clip(hi - w1, 0, None)], capsize=3)
    ax.axhline(rs[0]["spread"], color="k", linestyle="--", label="baseline seed-to-seed spread")
    ax.set_xticks(x)
    ax.set_xticklabels([r["variant"] for r in rs], rotation=35, ha="right")
    ax.set_ylabel(f"W1 of per-batch {metric}")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png)
    plt.close(fig)


def _f(v):
    return "—" if v is None or v == "" or (isinstance(v, float) and not np.isfinite(v)) else f"{v:.3f}"


def study_lines(variants):
    """The camera component study beside the report (sensim.published, the one record the
    commands print too): a column cell per variant and the study's block as Markdown."""
    from .. import _sensim  # tools/published.c
    p = _sensim.published("camera_components")
    cells = {}
    for v in variants:
        paper, finding = p["variants"].get(v, ("not in the study", None))
        cells[v] = f"{paper}: {finding or 'its own result not read'}"
    block = [f"Beside the camera component study: {p['cite']}.", "",
             f"- read from: {p['read_from']}"]
    if p["unread"]:
        block.append(f"- **not printed**: {p['unread']}")
    block += ["- what it states instead:"] + [f"  - {c}" for c in p["claims"]]
    block.append(f"- what differs: {p['differs']}")
    return cells, block


def write_report(study, experiment, rows):
    """report_<experiment>.md and its plot under the study's folder; returns the report's path."""
    out = study.out_dir
    ref = "the real set" if study.real else "the baseline's validation set (no real set was given)"
    what = ("a detector trained on the baseline (seed 0), evaluated on each variant's validation set "
            "and on the reference" if experiment == "test" else
            "a detector trained per variant (seed 0), evaluated on the reference, against the baseline's")
    png = f"{experiment}_w1.png"
    plot_differences(rows, os.path.join(out, png), f"{experiment}: W1 of per-batch mAP@0.5 vs reference")
    lines = [f"# Perception judge: {experiment} experiment", "",
             f"Dataset `{study.dataset_dir}`; reference: {ref}. Each row compares {what}: the distributions of "
             f"mAP@0.5 over content batches of {study.s['content_batch']} images, by Wasserstein-1 with a 95 % "
             f"bootstrap interval ({study.s['n_boot']} resamples), and the mean per-batch difference (variant − "
             f"reference) with its interval. Spread: the largest W1 between the baseline's {study.s['seeds']} "
             "seeds on the reference. Settings: " + ", ".join(f"{k} {study.s[k]}" for k in sorted(study.s)) + ".",
             "", "| variant | mAP ref | mAP variant | " + ("own-val mAP | " if experiment == "train" else "")
             + "W1 [95 % CI] | mean diff [95 % CI] | spread | beyond spread | the study |",
             "|---|---|---|" + ("---|" if experiment == "train" else "") + "---|---|---|---|---|"]
    cells, block = study_lines([r["variant"] for r in rows])
    for r in rows:
        if r["metric"] != "map":
            continue
        own = f" {_f(r.get('own_val_map'))} |" if experiment == "train" else ""
        lines.append(f"| {r['variant']} | {_f(r['map_ref'])} | {_f(r['map_variant'])} |{own} {_f(r['w1'])} "
                     f"[{_f(r['w1_lo'])}, {_f(r['w1_hi'])}] | {_f(r['mean_diff'])} [{_f(r['diff_lo'])}, "
                     f"{_f(r['diff_hi'])}] | {_f(r['spread'])} | {'**yes**' if r['beyond_spread'] else 'no'} | "
                     f"{cells[r['variant']]} |")
    lines += ["", "Per class (AP@0.5 per batch):", "",
              "| variant | class | AP ref | AP variant | W1 [95 % CI] | spread | beyond |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["metric"] == "map":
            continue
        lines.append(f"| {r['variant']} | {r['metric'][3:]} | {_f(r['map_ref'])} | {_f(r['map_variant'])} | "
                     f"{_f(r['w1'])} [{_f(r['w1_lo'])}, {_f(r['w1_hi'])}] | {_f(r['spread'])} | "
                     f"{'**yes**' if r['beyond_spread'] else 'no'} |")
    beyond = [r["variant"] for r in rows if r["metric"] == "map" and r["beyond_spread"]]
    lines += [""] + block + ["", f"![W1 per variant]({png})", "",
              ("**Components that changed the detector's behaviour beyond the baseline's seed-to-seed spread "
               f"(mAP@0.5): {', '.join(beyond)}.**" if beyond else
               "**No component changed the detector's behaviour beyond the baseline's seed-to-seed spread "
               "(mAP@0.5).**"), ""]
    path = os.path.join(out, f"report_{experiment}.md")
    with open(path + ".tmp", "w", encoding="utf-8") as fp:
        fp.write("\n".join(lines))
    os.replace(path + ".tmp", path)
    return path
