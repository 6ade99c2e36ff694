#!/usr/bin/env python3
"""Mode shapes of the linearisation case studies (docs/linearisation.md,
docs/benchmarks.md "Linearisation: case studies") to PNG.

    /usr/bin/python3 scripts/plot_mode_shapes.py OUT_DIR

Reads OUT_DIR/<case>_static.json (`mechdyn static --json`: the equilibrium `q` and the
markers' world positions) and OUT_DIR/<case>_modes.json (`mechdyn modes --json`: each
mode's `shapes[k].markers[m].displacement`, the markers' displacement per unit modal
amplitude, zᵀ M z = 1) written by scripts/linearisation_examples.sh, and draws, per case,
one panel per mode: the equilibrium (black, the markers joined in the order of CASES below,
with the ground points) and the equilibrium plus and minus the scaled displacement (blue,
red; the scale makes the largest marker displacement 15 % of the drawing's size; linear
modes are drawn straight, the arcs of a swing are not). Writes OUT_DIR/modes_<case>.png.
Needs Debian's matplotlib (python3-matplotlib).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# case: (title, plane axes, chain: marker names or fixed world points joined in order)
CASES = {
    "four_bar_spring": ("IFToMM four-bar with a diagonal spring (crank free)", (0, 1),
                        [(0.0, 0.0, 0.0), "B", "C", (1.0, 0.0, 0.0)]),
    "elastic_pendulum": ("pendulum on a spring", (0, 1), [(0.0, 0.0, 0.0), "bob"]),
    "servo_arm": ("2-link arm under PD joint servos (t = 0)", (0, 1), [(0.0, 0.0, 0.0), "elbow", "tip"]),
    "rrru_hanging": ("rigid 3-RRRU hanging, actuators free (end effector only, projected on x-z)", (0, 2),
                     [(0.0, 0.0, 0.0), "end_effector"]),
}
AXIS = "xyz"


def load(path):
    with open(path, encoding="utf-8") as stream:
        return json.load(stream)


def chain_points(chain, positions, displacement=None, scale=0.0):
    points = []
    for item in chain:
        if isinstance(item, str):
            p = list(positions[item])
            if displacement is not None:
                p = [a + scale * d for a, d in zip(p, displacement[item])]
            points.append(p)
        else:
            points.append(list(item))
    return points


def plot_case(out, case):
    title, (i, j), chain = CASES[case]
    static_path, modes_path = (os.path.join(out, f"{case}_{kind}.json") for kind in ("static", "modes"))
    if not (os.path.exists(static_path) and os.path.exists(modes_path)):
        return None
    static, modes = load(static_path), load(modes_path)
    positions = {m["name"]: m["position"] for m in static["markers"]}
    shapes = modes["shapes"]
    if not shapes:
        return None
    rest = chain_points(chain, positions)
    size = max(max(abs(p[i]) for p in rest), max(abs(p[j]) for p in rest), 0.1)
    fig, axes = plt.subplots(1, len(shapes), figsize=(max(6.0, 4.2 * len(shapes)), 4.8), squeeze=False)
    for ax, shape in zip(axes[0], shapes):
        displacement = {m["name"]: m["displacement"] for m in shape["markers"]}
        largest = max(max(abs(c) for c in d) for d in displacement.values())
        scale = 0.15 * size / largest if largest > 0 else 0.0
        for sign, colour in ((1.0, "tab:blue"), (-1.0, "tab:red")):
            moved = chain_points(chain, positions, displacement, sign * scale)
            ax.plot([p[i] for p in moved], [p[j] for p in moved], "o--", color=colour, lw=1.2, ms=4,
                    label=f"{'+' if sign > 0 else '-'}{scale:.3g} x shape")
        ax.plot([p[i] for p in rest], [p[j] for p in rest], "o-", color="black", lw=2, ms=5, label="equilibrium")
        ax.set_title(f"{shape['frequency']:.6g} Hz")
        ax.set_xlabel(f"{AXIS[i]} (m)")
        ax.set_ylabel(f"{AXIS[j]} (m)")
        ax.set_aspect("equal", adjustable="datalim")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle(f"{title}\nmode shapes (mechdyn modes)", fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, f"modes_{case}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for case in CASES:
        path = plot_case(argv[1], case)
        print(path if path else f"{case}: no modes file or no mode (nothing drawn)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
