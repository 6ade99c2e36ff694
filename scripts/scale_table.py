#!/usr/bin/python3
"""The scale table of docs/benchmarks.md ("Scale"): time and peak memory of
`mechdyn eval --json` and of 1000 `mechdyn simulate` steps on chains and binary trees of
n = 10 ... 10,000 bodies, with the fitted log-log slopes.

    /usr/bin/python3 scripts/scale_table.py [BUILD_DIR] [--sizes 10,100,1000,3000,10000] [--callgrind]

Models: scripts/generate_scale_models.py (written to BUILD_DIR/scale-models). Each run
goes through /usr/bin/time -v (wall time, user + system CPU time, maximum resident set
size). eval prints M (nv^2 numbers) to /dev/null; its size in bytes is counted in a
second, untimed run through a pipe. simulate runs 1000 RK4 steps of 1 ms (forward
dynamics, zero efforts, from q = 0) with --every 1000 (rows at t = 0 and t = 1 s) into a
file; the energy drift T + V between them is reported as a sanity check of the run.
Slopes are least-squares fits of log(y) against log(n) over n >= 1000 (and over
n >= 100 in brackets): 1 is linear, 2 quadratic.
--callgrind adds the instructions of one RK4 step (valgrind --tool=callgrind, collecting
inside Rk4Integrator::step only, 10 steps, divided by 10): a count that other programs on
the machine do not disturb, unlike the times (docs/benchmarks.md, "Method").
"""
import csv
import math
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)


def timed(command, stdout):
    """Runs `command` under /usr/bin/time -v; returns (wall s, cpu s, max RSS MB)."""
    result = subprocess.run(["/usr/bin/time", "-v"] + command, stdout=stdout, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(command), result.stderr[-2000:]))
    fields = {}
    for line in result.stderr.splitlines():
        if ":" in line:
            key, _, value = line.strip().rpartition(": ")
            fields[key] = value
    wall = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"]
    seconds = 0.0
    for part in wall.split(":"):
        seconds = seconds * 60 + float(part)
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    rss = float(fields["Maximum resident set size (kbytes)"]) / 1024.0
    return seconds, cpu, rss


def slope(ns, ys, smallest):
    points = [(math.log(n), math.log(y)) for n, y in zip(ns, ys) if n >= smallest and y > 0]
    if len(points) < 2:
        return float("nan")
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


RK4_STEP = ("mechdyn::Rk4Integrator::step(double, double, {0}, {0}, {0})"
            .format("Eigen::Ref<Eigen::Matrix<double, -1, 1, 0, -1, 1>, 0, Eigen::InnerStride<1> >"))


def step_instructions(mechdyn, model, scratch):
    """Instructions of one RK4 step of `mechdyn simulate` (mean of 10)."""
    out = os.path.join(scratch, "callgrind.out")
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--toggle-collect=" + RK4_STEP,
                             mechdyn, "simulate", model, "--duration", "0.01", "--every", "10", "--output",
                             os.path.join(scratch, "callgrind.csv")], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("callgrind run failed:\n" + result.stderr[-2000:])
    for line in result.stderr.splitlines():
        if "I   refs:" in line:
            return int(line.split(":")[1].replace(",", "")) / 10.0
    sys.exit("no instruction count in:\n" + result.stderr[-2000:])


def main():
    args = sys.argv[1:]
    callgrind = "--callgrind" in args
    if callgrind:
        args.remove("--callgrind")
    sizes = [10, 100, 1000, 3000, 10000]
    if "--sizes" in args:
        i = args.index("--sizes")
        sizes = [int(s) for s in args[i + 1].split(",")]
        del args[i:i + 2]
    build = args[0] if args else os.path.join(repo, "build")
    mechdyn = os.path.join(build, "apps", "mechdyn", "mechdyn")
    models = os.path.join(build, "scale-models")
    subprocess.run(["/usr/bin/python3", os.path.join(here, "generate_scale_models.py"), models] + [str(n) for n in sizes],
                   check=True)
    rows = {}
    for shape in ("chain", "tree"):
        for n in sizes:
            model = os.path.join(models, "%s_%d.yaml" % (shape, n))
            with open(os.devnull, "w") as null:
                eval_wall, eval_cpu, eval_rss = timed([mechdyn, "eval", model, "--json"], null)
            wc = subprocess.run("%s eval %s --json | wc -c" % (mechdyn, model), shell=True, capture_output=True, text=True,
                                check=True)
            json_bytes = int(wc.stdout.split()[0])
            out = os.path.join(models, "%s_%d.csv" % (shape, n))
            with open(os.devnull, "w") as null:
                sim_wall, sim_cpu, sim_rss = timed([mechdyn, "simulate", model, "--duration", "1", "--step", "1e-3",
                                                    "--every", "1000", "--output", out], null)
            table = list(csv.reader(open(out)))
            k = table[0].index("kinetic_energy_J")
            first, last = table[1], table[-1]
            energy0 = float(first[k]) + float(first[k + 1])
            energy1 = float(last[k]) + float(last[k + 1])
            scale = max(abs(float(last[k])), abs(float(last[k + 1])), 1e-300)
            rows[(shape, n)] = (eval_wall, eval_cpu, eval_rss, json_bytes, sim_wall, sim_cpu, sim_rss,
                                abs(energy1 - energy0) / scale)
            print("%s %d done" % (shape, n), file=sys.stderr)
    print("| model | n | eval --json wall s | eval CPU s | eval max RSS MB | JSON MB | 1000 steps wall s "
          "| 1000 steps CPU s | simulate max RSS MB | \\|Δ(T+V)\\| / T |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for shape in ("chain", "tree"):
        for n in sizes:
            r = rows[(shape, n)]
            print("| %s | %d | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1e |" %
                  (shape, n, r[0], r[1], r[2], r[3] / 1e6, r[4], r[5], r[6], r[7]))
    print()
    print("| model | eval CPU | eval RSS | JSON bytes | simulate CPU | simulate RSS |")
    print("|---|---:|---:|---:|---:|---:|")
    for shape in ("chain", "tree"):
        cols = []
        for index in (1, 2, 3, 5, 6):
            ys = [rows[(shape, n)][index] for n in sizes]
            cols.append("%.2f (%.2f)" % (slope(sizes, ys, 1000), slope(sizes, ys, 100)))
        print("| %s slope n >= 1000 (n >= 100) | %s |" % (shape, " | ".join(cols)))
    if not callgrind:
        return
    print()
    print("| model | n | instructions per RK4 step | per body |")
    print("|---|---:|---:|---:|")
    counts = {}
    for shape in ("chain", "tree"):
        for n in [n for n in sizes if n >= 100]:
            counts[(shape, n)] = step_instructions(mechdyn, os.path.join(models, "%s_%d.yaml" % (shape, n)), models)
            print("| %s | %d | %.0f | %.0f |" % (shape, n, counts[(shape, n)], counts[(shape, n)] / n))
            sys.stdout.flush()
    for shape in ("chain", "tree"):
        ns = [n for n in sizes if n >= 100]
        print("\n%s: slope of instructions per step, n >= 100: %.3f" % (shape, slope(ns, [counts[(shape, n)] for n in ns], 100)))


if __name__ == "__main__":
    main()
