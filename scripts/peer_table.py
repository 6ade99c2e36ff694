#!/usr/bin/python3
"""Markdown table of bench/bench_peers.cpp's results: mechdyn (explicit and recursive)
beside MuJoCo and Simbody, the ratios mechdyn/MuJoCo and the issue's targets ("met": the
best mechdyn algorithm; "explicit met": the explicit one alone), and the explicit method's
M-based forms (M a + h; M, h, LTDL) with their ratio to MuJoCo.

Usage: peer_table.py results.json
Times are CPU ns per call (the median of the repetitions when there are several).
"""
import sys

from bench_json import load_times

# Fractions of MuJoCo's time that the fastest open-source libraries reach
# (the targets): quantity -> model -> fraction.
TARGETS = {
    "inverse_dynamics": {"five_axis_tree": 0.36, "panda_like_arm": 0.37, "branched_tree_30": 0.40,
                         "serial_chain_50": 0.43},
    "mass_matrix": {"five_axis_tree": 0.44, "panda_like_arm": 0.52, "branched_tree_30": 0.53,
                    "serial_chain_50": 0.72},
    "forward_dynamics": {"five_axis_tree": 0.70, "panda_like_arm": 0.70, "branched_tree_30": 0.81,
                         "serial_chain_50": 0.39},
}
QUANTITIES = ["mass_matrix", "bias_force", "inverse_dynamics", "forward_dynamics"]
LIBRARIES = ["mechdyn_explicit", "mechdyn_recursive", "mujoco", "simbody"]
# The explicit method's M-based forms (M a + h; M, h, LTDL), timed beside the O(n) ones.
EXPLICIT_M = "mechdyn_explicit_m"


def load(path):
    """(context, times by (quantity, library, model), models in order)."""
    context, by_name, names = load_times(path)
    times, models = {}, []
    for name in names:
        parts = name.split("/")
        if len(parts) < 3 or name not in by_name:
            continue
        if parts[2] not in models:
            models.append(parts[2])
        times[(parts[0], parts[1], parts[2])] = by_name[name]
    return context, times, models


def main():
    context, times, models = load(sys.argv[1])
    print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
          f"{context.get('num_cpus', '?')} CPUs, MuJoCo {context.get('mujoco.version', '?')}, "
          f"Simbody: {context.get('simbody', '?')}")
    for model in models:
        print(f"- {model}: {context.get('check.' + model, '')}")
    print()
    print("| model | quantity | explicit ns | recursive ns | MuJoCo ns | Simbody ns | explicit/MuJoCo | "
          "recursive/MuJoCo | best/MuJoCo | target | met | explicit met | explicit M-form ns | M-form/MuJoCo |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|")
    for model in models:
        for quantity in QUANTITIES:
            t = {lib: times.get((quantity, lib, model)) for lib in LIBRARIES}
            if t["mujoco"] is None:
                continue
            cells = [f"{t[lib]:.0f}" if t[lib] is not None else "-" for lib in LIBRARIES]
            ratios = [t[lib] / t["mujoco"] if t[lib] is not None else None
                      for lib in ("mechdyn_explicit", "mechdyn_recursive")]
            present = [r for r in ratios if r is not None]
            best = min(present) if present else None
            target = TARGETS.get(quantity, {}).get(model)
            met = "-" if target is None or best is None else ("yes" if best <= target else "no")
            fmt = lambda r: "-" if r is None else f"{r:.2f}"
            explicit_met = "-" if target is None or ratios[0] is None else ("yes" if ratios[0] <= target else "no")
            m_form = times.get((quantity, EXPLICIT_M, model))
            m_cells = ["-", "-"] if m_form is None else [f"{m_form:.0f}", f"{m_form / t['mujoco']:.2f}"]
            print(f"| {model} | {quantity} | {' | '.join(cells)} | {fmt(ratios[0])} | {fmt(ratios[1])} | "
                  f"{fmt(best)} | {fmt(target)} | {met} | {explicit_met} | {' | '.join(m_cells)} |")


if __name__ == "__main__":
    main()
