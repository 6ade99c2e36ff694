#!/usr/bin/python3
"""Each test's time beside its budget, from the last ctest run of a build tree.

Reads BUILD/Testing/Temporary/CTestCostData.txt (the time ctest measured for every test in
its last run) and `ctest --show-only=json-v1` (each test's TIMEOUT and LABELS), and prints
markdown: the slowest tests with their budget and the share of it they used, then every
test program's total. With --check it prints a `test_times: warning:` line for each test
that used more than a third of its budget (a test near its timeout fails on a busy
machine) and exits 1 if any did. docs/testing.md, "Tiers and budgets".

Usage: /usr/bin/python3 scripts/test_times.py [BUILD] [--slowest N] [--check]
"""
import argparse
import json
import os
import subprocess
import sys
from collections import defaultdict


def read_costs(build):
    path = os.path.join(build, "Testing", "Temporary", "CTestCostData.txt")
    costs = {}
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.startswith("---"):
                    break
                parts = line.rsplit(" ", 2)
                if len(parts) == 3:
                    costs[parts[0]] = float(parts[2])
    except OSError as error:
        print("test_times: %s: %s (run ctest in that tree first)" % (path, error.strerror), file=sys.stderr)
        sys.exit(2)
    return costs


def read_tests(build):
    listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                             capture_output=True, text=True)
    try:
        if listing.returncode != 0:
            raise ValueError(listing.stderr.strip().splitlines()[-1] if listing.stderr.strip() else "ctest failed")
        entries = json.loads(listing.stdout)["tests"]
    except (ValueError, KeyError) as error:
        print("test_times: %s: cannot list its tests with ctest: %s" % (build, error), file=sys.stderr)
        sys.exit(2)
    tests = {}
    for test in entries:
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        command = test.get("command") or [test["name"]]
        program = os.path.basename(command[0])
        if program in ("bash", "sh") or program.startswith("python"):
            program = test["name"]  # a script test: its own name
        tests[test["name"]] = {
            "program": program,
            "budget": float(properties.get("TIMEOUT", 1500)),  # ctest's default
            "labels": properties.get("LABELS", []),
        }
    return tests


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", nargs="?", default="build")
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    costs = read_costs(args.build)
    tests = read_tests(args.build)
    rows = [(costs[name], name, info) for name, info in tests.items() if name in costs]
    rows.sort(key=lambda row: -row[0])

    print("| test | label | time (s) | budget (s) | share of budget |")
    print("|---|---|---:|---:|---:|")
    for seconds, name, info in rows[:args.slowest]:
        label = ",".join(info["labels"]) if isinstance(info["labels"], list) else str(info["labels"])
        print("| `%s` | %s | %.2f | %.0f | %.1f %% |" % (name, label, seconds, info["budget"],
                                                      100.0 * seconds / info["budget"]))
    print()
    programs = defaultdict(lambda: [0.0, 0, 0.0])
    for seconds, name, info in rows:
        entry = programs[info["program"]]
        entry[0] += seconds
        entry[1] += 1
        entry[2] = max(entry[2], seconds)
    print("| program | tests | total (s) | slowest test (s) |")
    print("|---|---:|---:|---:|")
    for program, (total, count, slowest) in sorted(programs.items(), key=lambda item: -item[1][0]):
        print("| `%s` | %d | %.2f | %.2f |" % (program, count, total, slowest))
    print()
    print("%d tests timed, %.1f s together" % (len(rows), sum(row[0] for row in rows)))

    if args.check:
        near = [(s, n, i) for s, n, i in rows if s > i["budget"] / 3.0]
        for seconds, name, info in near:
            print("test_times: warning: %s took %.1f s of its %.0f s budget" % (name, seconds, info["budget"]),
                  file=sys.stderr)
        return 1 if near else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
