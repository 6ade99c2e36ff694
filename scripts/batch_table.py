#!/usr/bin/env python3
"""The batch table of docs/benchmarks.md "Batch" from mechdyn_bench_batch's JSON output.

    build/bench/mechdyn_bench_batch --benchmark_out=batch.json --benchmark_out_format=json \\
        --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
    python3 scripts/batch_table.py batch.json [more.json ...]

Several files (runs of the same benchmarks, e.g. taken in the quiet moments of a shared
machine): each number is the median over the files.

ns per state = 1 / items_per_second (wall clock; the median when repeated); speed-up =
single / batch-2 (target >= 1.8 on 2 cores); batch-1 / single (target <= 1.0); CPU batch-2 /
single: the process's CPU time per state (all threads, spinning included) on 2 threads over
1 — near 1 when the threads add no work, whatever the load.
"""
import json
import statistics
import sys


def main(paths):
    per_state_runs, cpu_runs = {}, {}
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        for key, value in read(report, "time").items():
            per_state_runs.setdefault(key, []).append(value)
        for key, value in read(report, "cpu").items():
            cpu_runs.setdefault(key, []).append(value)
    per_state = {k: statistics.median(v) for k, v in per_state_runs.items()}
    cpu_per_state = {k: statistics.median(v) for k, v in cpu_runs.items()}
    runs = len(paths)
    print_table(report, per_state, cpu_per_state, runs)


def read(report, what):
    out = {}
    for b in report["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or "items_per_second" not in b:
            continue
        algorithm, model, states, mode = b["run_name"].split("/")[:4]
        key = (algorithm, model, int(states), mode)
        if what == "time":
            out[key] = 1e9 / b["items_per_second"]
        else:
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            out[key] = b["cpu_time"] * scale / int(states)
    return out


def print_table(report, per_state, cpu_per_state, runs):
    context = report.get("context", {})
    print("batch: ns per state (wall clock), %s, commit %s, load average %s%s" % (
        context.get("mechdyn.cpu", "?"), context.get("mechdyn.commit", "?"), context.get("load_avg", "?"),
        "" if runs == 1 else ", median of %d runs" % runs))
    print()
    print("| algorithm | model | K | single ns/state | batch-1 ns/state | batch-2 ns/state | speed-up single/batch-2 "
          "| batch-1/single | CPU batch-2/single |")
    print("|---|---|---|---|---|---|---|---|---|")
    order = ["rnea", "aba", "crba", "rnea_derivatives", "aba_derivatives", "step"]
    for (algorithm, model, states, mode) in sorted(per_state, key=lambda k: (order.index(k[0]) if k[0] in order else 99,
                                                                            k[1] != "panda_like_arm", k[2])):
        if mode != "single":
            continue
        single = per_state[(algorithm, model, states, "single")]
        one = per_state.get((algorithm, model, states, "batch1"), float("nan"))
        two = per_state.get((algorithm, model, states, "batch2"), float("nan"))
        cpu = cpu_per_state.get((algorithm, model, states, "batch2"), float("nan")) / \
            cpu_per_state[(algorithm, model, states, "single")]
        print("| %s | %s | %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |" % (
            algorithm, model, states, single, one, two, single / two, one / single, cpu))


if __name__ == "__main__":
    main(sys.argv[1:])
