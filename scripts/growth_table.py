#!/usr/bin/python3
"""The growth table of docs/benchmarks.md "Growth from 5 to 1000 bodies" (issue 29 item 4)
from bench/bench_growth.cpp's JSON output:

    build/bench/mechdyn_bench_growth --benchmark_out=growth.json --benchmark_out_format=json \\
        --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
    /usr/bin/python3 scripts/growth_table.py growth.json

Per family (serial chain, binary tree) and algorithm: mechdyn's and MuJoCo's CPU time per
call in µs at each n (the median of the repetitions when there are several), the ratio
mechdyn / MuJoCo at each n, and the fitted slope p of t ∝ n^p (least squares of log t
against log n) over 5–1000 and over 100–1000 (the asymptotic one). A slope is given only
when every n of its range was timed; MuJoCo's finite differences stop where one call takes
more than 50 ms (the context line "mujoco_fd_cap" says where), and their slope is then the
one over the n that were timed, that range given beside it.
"""
import math
import sys

from bench_json import load_times

ALGORITHMS = ["rnea", "crba", "aba", "rnea_derivatives", "aba_derivatives"]
MUJOCO_NAMES = {"rnea": "mj_rne (inverse dynamics)", "crba": "mj_crb + mj_fullM", "aba": "mj_forward",
                "rnea_derivatives": "centred finite differences of inverse dynamics",
                "aba_derivatives": "centred finite differences of forward dynamics"}
FAMILIES = ["serial_chain", "binary_tree"]
SIZES = [5, 10, 20, 50, 100, 200, 500, 1000]  # bench_growth.cpp's kSizes
RANGES = [(5, 1000), (100, 1000)]


def slope(points):
    """Least-squares slope of log t against log n."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def fmt_time(ns):
    if ns is None:
        return "-"
    us = ns / 1e3
    return f"{us:.3g}" if us < 1000 else f"{us:,.0f}"


def fmt_ratio(r):
    return f"{r:.2f}" if r >= 0.1 else f"{r:.2g}"


def main(path):
    context, times, _ = load_times(path)
    cells = {}  # (algorithm, library, family, n) -> ns
    for name, ns in times.items():
        parts = name.split("/")
        if len(parts) < 4 or not parts[3].isdigit():
            continue
        cells[(parts[0], parts[1], parts[2], int(parts[3]))] = ns
    sizes = sorted({key[3] for key in cells})
    print(f"growth: CPU µs per call, commit {context.get('mechdyn.commit', '?')}, CPU {context.get('mechdyn.cpu', '?')}, "
          f"{context.get('num_cpus', '?')} CPUs, MuJoCo {context.get('mujoco.version', '?')}, "
          "load average " + " ".join(f"{x:.2f}" for x in context.get("load_avg", [])) + " (at the start)")
    for family in FAMILIES:
        if any(key[2] == family for key in cells):
            print(f"- MuJoCo's finite differences, {family}: {context.get('mujoco_fd_cap.' + family, '?')}")
    checks = [(k, v) for k, v in context.items() if k.startswith("check.")]
    worst = max((float(v.split("worst relative ")[1].split(" ")[0]) for _, v in checks
                 if "worst relative " in v), default=None)
    if checks:
        print(f"- agreement checked at every n before timing ({len(checks)} models, the lines check.* of the JSON "
              f"context); the worst relative difference of M, RNEA, ABA from MuJoCo: {worst:.1e}")
    print()
    header = " | ".join(str(n) for n in sizes)
    slopes = " | ".join(f"slope {a}–{b}" for a, b in RANGES)
    print(f"| family | algorithm | row | {header} | {slopes} |")
    print("|---|---|---|" + "---:|" * len(sizes) + "---:|" * len(RANGES))
    for family in FAMILIES:
        for algorithm in ALGORITHMS:
            rows = {lib: [cells.get((algorithm, lib, family, n)) for n in sizes] for lib in ("mechdyn", "mujoco")}
            if all(t is None for t in rows["mechdyn"]):
                continue
            for lib in ("mechdyn", "mujoco"):
                fitted = []
                for a, b in RANGES:
                    points = [(n, t) for n, t in zip(sizes, rows[lib]) if a <= n <= b and t is not None]
                    if [n for n, _ in points] == [n for n in SIZES if a <= n <= b]:
                        fitted.append(f"{slope(points):.2f}")
                    elif len(points) >= 3:  # a capped row: the slope over what was timed, its range said
                        fitted.append(f"{slope(points):.2f} ({points[0][0]}–{points[-1][0]})")
                    else:
                        fitted.append("-")
                print(f"| {family} | {algorithm} | {lib} µs | " + " | ".join(fmt_time(t) for t in rows[lib]) +
                      " | " + " | ".join(fitted) + " |")
            ratios = ["-" if m is None or j is None else fmt_ratio(m / j) for m, j in zip(rows["mechdyn"], rows["mujoco"])]
            print(f"| {family} | {algorithm} | mechdyn/MuJoCo | " + " | ".join(ratios) + " |" + " |" * len(RANGES))
    print()
    print("MuJoCo's counterparts: " + "; ".join(f"{a}: {MUJOCO_NAMES[a]}" for a in ALGORITHMS) + ".")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
