#!/usr/bin/env python3
"""Throughput of a Dask sweep: 1000 short simulations on 1 and on 2 workers (docs/python.md).

The spec: the planar 3R arm (EJ §7.1), 0.5 s of RK4 at 1 ms under a torque, 1000 samples
of the initial angle of joint 1. Each worker count gets a fresh LocalCluster on 127.0.0.1
(started before the clock starts); the time is from the first task submitted to the last
row gathered. Prints samples per second and the ratio 2 workers / 1 worker. Also the C++
thread pool of `mechdyn sweep` on the same spec with 1 and 2 threads, if the tool is given.

    PYTHONPATH=build/python /usr/bin/python3 bench/sweep_throughput.py [--samples 1000] [--cli build/apps/mechdyn/mechdyn]

A benchmark, not a test: on a machine shared with other jobs the ratio reflects how much
of the second core the run got (the load average is printed).
"""
import argparse
import os
import pathlib
import subprocess
import tempfile
import time

import numpy as np

import mechdyn

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--cli", default=str(ROOT / "build/apps/mechdyn/mechdyn"))
    args = parser.parse_args()
    spec = {"model": str(ROOT / "examples/models/planar_3dof_arm.yaml"), "duration": 0.5, "step": 0.001,
            "base": {"tau": ["2*sin(3*t)", "0", "0"]},
            "grid": {"q0.joint1": [float(x) for x in np.linspace(-1.0, 1.0, args.samples)]}}
    from distributed import Client, LocalCluster
    rates = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster, Client(cluster) as client:
            mechdyn.sweep.run(spec, client=client)  # warm-up: imports, spec parsed on every worker
            start = time.perf_counter()
            result = mechdyn.sweep.run(spec, client=client)
            elapsed = time.perf_counter() - start
            assert result.ok.all()
            rates[workers] = len(result) / elapsed
            print("dask, %d worker(s): %.2f s, %.0f samples/s" % (workers, elapsed, rates[workers]))
    print("dask ratio 2/1 workers: %.2f" % (rates[2] / rates[1]))
    if os.path.exists(args.cli):
        import yaml
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            yaml.safe_dump(spec, f)
        cli_rates = {}
        for threads in (1, 2):
            start = time.perf_counter()
            subprocess.run([args.cli, "sweep", f.name, "--threads", str(threads)], check=True, capture_output=True)
            elapsed = time.perf_counter() - start
            cli_rates[threads] = args.samples / elapsed
            print("mechdyn sweep, %d thread(s): %.2f s, %.0f samples/s" % (threads, elapsed, cli_rates[threads]))
        print("thread-pool ratio 2/1: %.2f" % (cli_rates[2] / cli_rates[1]))
        os.unlink(f.name)
    print("load average: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
