#!/usr/bin/env python3
"""aba_derivatives against mechdyn's own ABA, from mechdyn_bench_peers JSON runs (issue 29).

Usage: scripts/aba_derivative_ratios.py RUN.json [RUN.json ...]
Each RUN.json is one run of
  mechdyn_bench_peers '--benchmark_filter=(forward_dynamics/mechdyn_recursive|fd_derivatives/mechdyn_analytical|id_derivatives/mechdyn_analytical)/'
    --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true --benchmark_min_time=0.2 --benchmark_format=json
Within a run, each time is the median CPU time of its repetitions and the ratio is
aba_derivatives / aba of that run (the two timed in the same process, interleaved); the
table gives the median over the runs of each ratio and of each time, and the growth of
aba_derivatives from the 10-chain to the 50-chain.
"""
import collections
import json
import statistics
import sys

MODELS = ["five_axis_tree", "panda_like_arm", "branched_tree_30", "serial_chain_5", "serial_chain_10",
          "serial_chain_20", "serial_chain_50"]


def load(path):
    times = collections.defaultdict(list)
    for row in json.load(open(path))["benchmarks"]:
        if row.get("run_type") != "iteration":
            continue
        quantity, method, model = row["run_name"].split("/")[:3]
        times[(quantity, method, model)].append(row["cpu_time"])
    return {key: statistics.median(values) for key, values in times.items()}


def main(paths):
    runs = [load(path) for path in paths]
    print(f"| model | ABA ns | rnea_derivatives ns | aba_derivatives ns | aba_derivatives / ABA (runs) | median |")
    print("|---|---:|---:|---:|---|---:|")
    for model in MODELS:
        aba = [run[("forward_dynamics", "mechdyn_recursive", model)] for run in runs]
        rnea = [run[("id_derivatives", "mechdyn_analytical", model)] for run in runs]
        fd = [run[("fd_derivatives", "mechdyn_analytical", model)] for run in runs]
        ratios = [f / a for f, a in zip(fd, aba)]
        print(f"| {model} | {statistics.median(aba):.0f} | {statistics.median(rnea):.0f} | {statistics.median(fd):.0f} | "
              f"{' / '.join(f'{r:.2f}' for r in ratios)} | **{statistics.median(ratios):.2f}** |")
    growth = [run[("fd_derivatives", "mechdyn_analytical", "serial_chain_50")] /
              run[("fd_derivatives", "mechdyn_analytical", "serial_chain_10")] for run in runs]
    print(f"\naba_derivatives, 50-chain / 10-chain: {' / '.join(f'{g:.1f}' for g in growth)}, "
          f"median **{statistics.median(growth):.1f}**")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
