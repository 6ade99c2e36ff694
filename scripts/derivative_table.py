#!/usr/bin/python3
"""Markdown table of bench/bench_derivatives.cpp's results: mechdyn's analytical
derivatives of inverse and forward dynamics beside a centred finite difference of
mechdyn's own RNEA/ABA and MuJoCo's finite differences, with the issue's target
(analytical <= 0.1 x mechdyn's finite difference on the 7-DoF arm and the 30-body tree).

Usage: derivative_table.py results.json
Times are CPU ns per call (the median of the repetitions when there are several).
"""
import sys

from bench_json import load_times

TARGET = 0.1
TARGET_MODELS = ("panda_like_arm", "branched_tree_30")
CASES = [  # quantity, one evaluation of the function itself
    ("id_derivatives", "inverse_dynamics/mechdyn_rnea"),
    ("fd_derivatives", "forward_dynamics/mechdyn_aba"),
]


def main():
    context, by_name, names = load_times(sys.argv[1])
    print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
          f"MuJoCo {context.get('mujoco.version', '?')}; Pinocchio: {context.get('pinocchio', '?')}")
    models = []
    for name in names:
        parts = name.split("/")
        if len(parts) == 3 and parts[2] not in models:
            models.append(parts[2])
    for model in models:
        print(f"- {model}: {context.get('check.' + model, '')}")
    print()
    print("| model | derivatives of | analytical ns | (one call of the function) | mechdyn FD ns | MuJoCo FD ns "
          "| MuJoCo transitionFD ns | analytical/mechdyn FD | analytical/MuJoCo FD | target | met |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for model in models:
        for quantity, single in CASES:
            def t(method):
                return by_name.get(f"{quantity}/{method}/{model}")
            analytical, own_fd, mujoco_fd = t("mechdyn_analytical"), t("mechdyn_finite_difference"), \
                t("mujoco_finite_difference")
            transition = t("mujoco_transition_fd")
            one = by_name.get(f"{single}/{model}")
            if analytical is None:
                continue
            ratio_own = analytical / own_fd if own_fd else None
            ratio_mj = analytical / mujoco_fd if mujoco_fd else None
            targeted = model in TARGET_MODELS
            met = "" if not targeted or ratio_own is None else ("yes" if ratio_own <= TARGET else "no")
            label = "inverse dynamics" if quantity == "id_derivatives" else "forward dynamics"
            fmt = lambda x: "" if x is None else f"{x:.0f}"
            rfmt = lambda x: "" if x is None else f"{x:.3f}"
            print(f"| {model} | {label} | {fmt(analytical)} | {fmt(one)} | {fmt(own_fd)} | {fmt(mujoco_fd)} | "
                  f"{fmt(transition)} | {rfmt(ratio_own)} | {rfmt(ratio_mj)} | {TARGET if targeted else ''} | {met} |")


if __name__ == "__main__":
    main()
