#!/usr/bin/python3
"""Markdown table of bench/bench_closed_chains.cpp's results: mechdyn's constrained
forward dynamics beside MuJoCo's mj_forward with the loops as equality constraints,
the ratio mechdyn/MuJoCo against the target (at most 1.0), then mechdyn's other
closed-chain timings (RK4 step with projection, closed-chain inverse dynamics).

Usage: closed_chain_table.py results.json
Times are CPU ns per call (the median of the repetitions when there are several).
"""
import sys

from bench_json import load_times

TARGET = 1.0  # mechdyn / MuJoCo per constrained forward-dynamics evaluation, at most


def main():
    context, times, names = load_times(sys.argv[1])
    print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
          f"{context.get('num_cpus', '?')} CPUs, MuJoCo {context.get('mujoco.version', '?')}")
    for key in sorted(k for k in context if k.startswith("check.")):
        print(f"- {key[len('check.'):]}: {context[key]}")
    print()
    print("| model | mechdyn constrained_forward_dynamics ns | MuJoCo mj_forward ns | mechdyn/MuJoCo | target | met |")
    print("|---|---:|---:|---:|---:|---|")
    models = []
    for name in names:
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "constrained_forward_dynamics" and parts[2] not in models:
            models.append(parts[2])
    for model in models:
        ours = times.get(f"constrained_forward_dynamics/mechdyn/{model}")
        theirs = times.get(f"constrained_forward_dynamics/mujoco/{model}")
        cell = lambda t: "-" if t is None else f"{t:.0f}"
        ratio, met = "-", "-"
        if ours is not None and theirs is not None:
            ratio = f"{ours / theirs:.2f}"
            met = "yes" if ours / theirs <= TARGET else "no"
        print(f"| {model} | {cell(ours)} | {cell(theirs)} | {ratio} | {TARGET:.1f} | {met} |")
    others = [n for n in names if not n.startswith("constrained_forward_dynamics/") and n in times]
    if others:
        print()
        print("| mechdyn, closed chains | ns per call |")
        print("|---|---:|")
        for name in others:
            print(f"| {name} | {times[name]:.0f} |")


if __name__ == "__main__":
    main()
