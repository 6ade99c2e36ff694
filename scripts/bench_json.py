"""Reading Google Benchmark JSON output (--benchmark_out_format=json) for the table
scripts (peer_table.py, closed_chain_table.py, codegen_table.py)."""
import json

_SCALE = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load_times(path):
    """(context, times, names): CPU ns per call by run name (the median of the repetitions
    when the run has several), and the run names in order of first appearance."""
    with open(path) as f:
        report = json.load(f)
    times, medians, names = {}, {}, []
    for b in report.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if name not in names:
            names.append(name)
        ns = b["cpu_time"] * _SCALE[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = ns
        else:
            times.setdefault(name, ns)
    times.update(medians)
    return report.get("context", {}), times, names


def load_counters(path, counter):
    """The user counter `counter` of each run name that has it (first value seen)."""
    with open(path) as f:
        report = json.load(f)
    values = {}
    for b in report.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if counter in b and name not in values:
            values[name] = b[counter]
    return values
