#!/usr/bin/env python3
"""Table of bench/bench_many_loops.cpp (Google Benchmark JSON): time per call of the
sparse augmented-Lagrangian dynamics, the dense range-space dynamics, one ALI3-P step and
MuJoCo's mj_step on the IFToMM N-four-bar against N, with the fitted slope of
log(time) against log(N) over N ≥ 20 (1.0: linear); then the A02 runs (N = 40, 10 s) with
their CPU time and error against the exact one-DOF motion.

Usage: many_loops_table.py RESULTS.json
"""
import json
import math
import re
import sys


def main():
    if len(sys.argv) != 2:
        print("usage: many_loops_table.py RESULTS.json", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        print(f"many_loops_table.py: {sys.argv[1]}: {error}", file=sys.stderr)
        return 2
    series, runs = {}, []
    for b in report.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        m = re.match(r"mechdyn::bench::(\w+)/(\d+)", name)
        if not m:
            continue
        kind, n = m.group(1), int(m.group(2))
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        if kind == "a02_run":
            runs.append((n, b["cpu_time"] * scale * 1e-9, b.get("error_m", float("nan"))))
        else:
            series.setdefault(kind, {})[n] = b["cpu_time"] * scale
    kinds = [k for k in ("al_dynamics", "range_space_dynamics", "ali3p_step", "mujoco_step") if k in series]
    if not kinds:
        print("many_loops_table.py: no N-four-bar results in the file", file=sys.stderr)
        return 2
    ns = sorted({n for k in kinds for n in series[k]})
    print("| N | nv | " + " | ".join(f"{k} µs" for k in kinds) + " |")
    print("|---|---|" + "---|" * len(kinds))
    for n in ns:
        cells = [f"{series[k][n] / 1e3:.2f}" if n in series[k] else "" for k in kinds]
        print(f"| {n} | {2 * n + 1} | " + " | ".join(cells) + " |")
    slopes = {}
    for k in kinds:
        points = [(math.log(n), math.log(t)) for n, t in series[k].items() if n >= 20]
        if len(points) >= 2:
            mx = sum(p[0] for p in points) / len(points)
            my = sum(p[1] for p in points) / len(points)
            sxx = sum((p[0] - mx) ** 2 for p in points)
            slopes[k] = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx
    print("| slope (N ≥ 20) | | " + " | ".join(f"{slopes[k]:.2f}" if k in slopes else "" for k in kinds) + " |")
    if runs:
        print()
        print("| A02 N-four-bar, N = 40, 10 s, ali3p | CPU s | max error of crank 0's tip (m), precision 1e-3 |")
        print("|---|---|---|")
        for h, cpu, error in sorted(runs, reverse=True):
            print(f"| h = {h} ms | {cpu:.3f} | {error:.2e} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
