#!/usr/bin/python3
"""Log-log plot of bench_scale's moving-bodies tables (docs/performance.md,
"Scale"): capture time of the OS1-128 (after issue 32t, and before it:
the moving part rebuilt with every car, from the same run's before/after
table when the output has one) and the host loop's push + advance per
step against the number of moving bodies.

    build/bench/bench_scale --blocks 24 --moving 0,10,100,1000,10000 > scale.txt
    python3 bench/plot_scale.py scale.txt docs/img/bench_scale.svg
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def table_rows(path, header):
    """Cells of the first table whose header line starts with `header`."""
    rows, inside = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not inside and line.startswith(header):
                inside = True
                continue
            if inside and line.startswith("|--"):
                continue
            if inside and line.startswith("|"):
                rows.append([x.strip() for x in line.strip().strip("|").split("|")])
            elif inside:
                break
    return rows


def moving_rows(path):
    """(bodies, capture ms, host ms/step) of the moving-cars table."""
    return [(int(c[0]), float(c[1]), float(c[3])) for c in table_rows(path, "| moving bodies | capture ms")]


def before_rows(path):
    """(bodies, capture ms) with the moving part rebuilt with every car."""
    rows = table_rows(path, "| moving bodies | rebuilt")
    return [(int(c[0]), float(c[1].split()[0])) for c in rows]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_scale.py BENCH_OUTPUT.txt OUT.svg")
    rows = [r for r in moving_rows(sys.argv[1]) if r[0] > 0]
    if not rows:
        sys.exit("no moving-bodies table with nonzero counts in " + sys.argv[1])
    n = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(n, [r[1] for r in rows], "o-", label="OS1-128 capture, ms")
    before = [r for r in before_rows(sys.argv[1]) if r[0] > 0]
    if before:
        ax.loglog([r[0] for r in before], [r[1] for r in before], "^--",
                  label="capture before 32t (rebuilt, every car), ms")
    ax.loglog(n, [r[2] for r in rows], "s-", label="host push_state (all) + advance, ms/step")
    ax.loglog(n, [rows[0][2] * x / n[0] for x in n], ":", color="grey", label="linear in the bodies")
    ax.set_xlabel("moving bodies")
    ax.set_ylabel("CPU time, ms")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2])


if __name__ == "__main__":
    main()
