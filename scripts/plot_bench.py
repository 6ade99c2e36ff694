#!/usr/bin/python3
"""PNG plot of time per call against chain length n, from bench/bench_peers.cpp's
JSON results: one panel per quantity, one line per library (serial chains only).

Usage: plot_bench.py results.json out.png
Needs Debian's python3-matplotlib (scripts/install-deps.sh). The numbers are not
committed; this script is.
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from peer_table import DYNAMICS as QUANTITIES, load  # noqa: E402

LABELS = {"mechdyn_explicit": "mechdyn explicit", "mechdyn_recursive": "mechdyn recursive",
          "mechdyn_generated": "mechdyn generated code", "mujoco": "MuJoCo", "simbody": "Simbody"}
LIBRARIES = list(LABELS)


def main():
    context, times, _, _ = load(sys.argv[1])
    fig, axes = plt.subplots(1, len(QUANTITIES), figsize=(4.2 * len(QUANTITIES), 3.8), sharex=True)
    for ax, quantity in zip(axes, QUANTITIES):
        for library in LIBRARIES:
            points = sorted((int(m.group(1)), ns) for (q, lib, model), ns in times.items()
                            if q == quantity and lib == library
                            for m in [re.fullmatch(r"serial_chain_(\d+)", model)] if m)
            if points:
                ax.plot([p[0] for p in points], [p[1] / 1000.0 for p in points], marker="o",
                        label=LABELS[library])
        ax.set_title(quantity.replace("_", " "))
        ax.set_xlabel("bodies n (serial chain)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks([5, 10, 20, 50])
        ax.set_xticklabels(["5", "10", "20", "50"])
        ax.minorticks_off()
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("µs per call (CPU)")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"mechdyn vs peers, commit {context.get('mechdyn.commit', '?')}, "
                 f"{context.get('mechdyn.cpu', '?')}", fontsize=9)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)
    print(f"plot: {sys.argv[2]}")


if __name__ == "__main__":
    main()
