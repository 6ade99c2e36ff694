#!/usr/bin/env python3
"""Per-call overhead of the Python bindings (docs/python.md, docs/benchmarks.md).

For small models, the time of one Python call (mechdyn.rnea(model, data, q, v, a), ...)
against the same C++ call repeated in a C++ loop (mechdyn._mechdyn._time_cpp_calls: no
Python in between), both in this process, interleaved, best of several rounds. The
difference is the binding's overhead per call: argument checks, the GIL release and
reacquisition, the result view. If MuJoCo's Python bindings import (`import mujoco`), the
same models go to MuJoCo through mechdyn's MJCF export and the nearest MuJoCo calls are
timed from Python the same way (rnea ↔ mj_rne with flg_acc = 1 into a preallocated array,
crba ↔ mj_crb, forward_kinematics ↔ mj_kinematics, aba ↔ mj_forward, which does more), with
the ratio of the two Python call times; the issue's target is mechdyn ≤ 2× MuJoCo. Debian 12
has no python3-mujoco, so on the project's machines that table cannot be made.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [--rounds 7] [--calls 20000]

A benchmark, not a test: wall-clock on a shared machine varies; compare the columns of
one run, not runs on different days.
"""
import argparse
import os
import pathlib
import time

import numpy as np

import mechdyn

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODELS = ["examples/models/planar_3dof_arm.yaml", "examples/models/five_axis_tree.yaml",
          "examples/models/panda_7dof.yaml"]


def python_per_call(call, calls):
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls


def mujoco_table(args):
    """The same call shapes through MuJoCo's Python bindings (only where `import mujoco` works)."""
    import mujoco
    print("\n| model | nv | mechdyn call | MuJoCo call | mechdyn Python (ns) | MuJoCo Python (ns) | mechdyn/MuJoCo |")
    print("|---|---|---|---|---|---|---|")
    for path in MODELS:
        model = mechdyn.load_model(str(ROOT / path))
        data = mechdyn.Data(model)
        m = mujoco.MjModel.from_xml_string(model.to_string("mjcf"))
        d = mujoco.MjData(m)
        rng = np.random.default_rng(1)
        q = rng.uniform(-1, 1, model.nq)
        v = rng.uniform(-1, 1, model.nv)
        a = rng.uniform(-1, 1, model.nv)
        if m.nq != model.nq or m.nv != model.nv:
            print("| %s | skipped: MuJoCo's model has nq=%d nv=%d |" % (os.path.basename(path), m.nq, m.nv))
            continue
        d.qpos[:], d.qvel[:], d.qacc[:] = q, v, a
        mujoco.mj_forward(m, d)
        d.qacc[:] = a
        out = np.zeros(m.nv)
        cases = [("rnea", lambda: mechdyn.rnea(model, data, q, v, a), "mj_rne", lambda: mujoco.mj_rne(m, d, 1, out)),
                 ("crba", lambda: mechdyn.crba(model, data, q), "mj_crb", lambda: mujoco.mj_crb(m, d)),
                 ("forward_kinematics", lambda: mechdyn.forward_kinematics(model, data, q, v), "mj_kinematics",
                  lambda: mujoco.mj_kinematics(m, d)),
                 ("aba", lambda: mechdyn.aba(model, data, q, v, a), "mj_forward", lambda: mujoco.mj_forward(m, d))]
        for name, ours, theirs_name, theirs in cases:
            py, mj = [], []
            for _ in range(args.rounds):
                py.append(python_per_call(ours, args.calls))
                mj.append(python_per_call(theirs, args.calls))
            p, t = min(py) * 1e9, min(mj) * 1e9
            print("| %s | %d | %s | %s | %.0f | %.0f | %.2f |" % (os.path.basename(path), model.nv, name, theirs_name,
                                                                 p, t, p / t))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    try:
        import mujoco  # noqa: F401
        have_mujoco = True
    except ImportError:
        have_mujoco = False
    print("| model | nv | function | Python call (ns) | C++ call (ns) | overhead (ns) | ratio |")
    print("|---|---|---|---|---|---|---|")
    for path in MODELS:
        model = mechdyn.load_model(str(ROOT / path))
        data = mechdyn.Data(model)
        rng = np.random.default_rng(1)
        q = rng.uniform(-1, 1, model.nq)
        v = rng.uniform(-1, 1, model.nv)
        a = rng.uniform(-1, 1, model.nv)
        cases = [("rnea", lambda: mechdyn.rnea(model, data, q, v, a), a),
                 ("aba", lambda: mechdyn.aba(model, data, q, v, a), a),
                 ("crba", lambda: mechdyn.crba(model, data, q), a),
                 ("forward_kinematics", lambda: mechdyn.forward_kinematics(model, data, q, v), a)]
        for name, call, x in cases:
            py, cpp = [], []
            for _ in range(args.rounds):
                py.append(python_per_call(call, args.calls))
                cpp.append(mechdyn._mechdyn._time_cpp_calls(name, model, data, q, v, x, args.calls))
            p, c = min(py) * 1e9, min(cpp) * 1e9
            print("| %s | %d | %s | %.0f | %.0f | %.0f | %.2f |" % (os.path.basename(path), model.nv, name, p, c, p - c,
                                                                 p / c))
    if have_mujoco:
        mujoco_table(args)
    else:
        print("\nMuJoCo's Python bindings: not importable on this interpreter (Debian 12 ships only the C library).")


if __name__ == "__main__":
    main()
