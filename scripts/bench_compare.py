#!/usr/bin/python3
"""Regression check between two Google Benchmark JSON files of the same benchmark program
(docs/benchmarks.md, "Regressions"; issue 29 item 4: a regression of more than 5 % in any
cell is a defect unless the note says why).

Usage: bench_compare.py OLD.json NEW.json [--threshold 0.05]

Benchmarks are matched by run name; each time is the CPU time per call, the median of the
repetitions when the file has aggregates (scripts/bench_json.py), else the first
iteration row. Prints a markdown table of every benchmark in either file with the ratio
new/old, marks "SLOWER" each cell whose ratio exceeds 1 + threshold (and "faster" each
below 1 − threshold), lists the benchmarks found in one file only, and exits with status 1
when any cell is slower by more than the threshold, 0 otherwise (2: bad usage).
"""
import argparse
import sys

from bench_json import load_times


def fmt_ns(ns):
    if ns is None:
        return "-"
    return f"{ns:.1f}" if ns < 100 else f"{ns:,.0f}"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--threshold", type=float, default=0.05,
                        help="relative slow-down above which a cell is flagged (default 0.05)")
    args = parser.parse_args(argv)
    if not args.threshold >= 0:
        parser.error("--threshold must be a non-negative number")
    old_context, old, old_names = load_times(args.old)
    new_context, new, new_names = load_times(args.new)

    def describe(context):
        load = " ".join(f"{x:.2f}" for x in context.get("load_avg", []))
        return (f"commit {context.get('mechdyn.commit', '?')}, {context.get('date', '?')}, "
                f"CPU {context.get('mechdyn.cpu', '?')}, load average {load or '?'}")

    print(f"old: {args.old}: {describe(old_context)}")
    print(f"new: {args.new}: {describe(new_context)}")
    if old_context.get("mechdyn.cpu") != new_context.get("mechdyn.cpu"):
        print("warning: the two files name different CPUs: their ratios say nothing about the code")
    print()
    print(f"| benchmark | old ns | new ns | new/old | more than {args.threshold:.0%} |")
    print("|---|---:|---:|---:|---|")
    slower, only_old, only_new = [], [], []
    for name in old_names + [n for n in new_names if n not in old_names]:
        if name not in old and name not in new:
            continue  # error rows
        if name not in new:
            only_old.append(name)
            continue
        if name not in old:
            only_new.append(name)
            continue
        r = new[name] / old[name]
        mark = ""
        if r > 1.0 + args.threshold:
            mark = "SLOWER"
            slower.append((name, r))
        elif r < 1.0 - args.threshold:
            mark = "faster"
        print(f"| {name} | {fmt_ns(old[name])} | {fmt_ns(new[name])} | {r:.3f} | {mark} |")
    print()
    if only_old:
        print("only in the old file: " + ", ".join(only_old))
    if only_new:
        print("only in the new file: " + ", ".join(only_new))
    if slower:
        print(f"{len(slower)} cell(s) slower by more than {args.threshold:.0%}: "
              + ", ".join(f"{name} ({r:.3f})" for name, r in slower)
              + ". Each is a defect unless the closing note says why.")
        return 1
    print(f"no cell slower by more than {args.threshold:.0%} ({sum(1 for n in old if n in new)} compared).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
