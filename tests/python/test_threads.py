# The GIL is released during the C++ work, so Python threads run mechdyn calls in
# parallel (one Data per thread). Measured so that a loaded machine cannot fail it (no
# wall-clock speed-up, which needs a free second core): a Python thread keeps making
# progress while another thread is inside a long C++ call. Held through the call, the GIL
# would let the counting loop run at most one switch interval (5 ms) of that call.
import sys
import threading
import time

import numpy as np

import mechdyn


def long_simulation(model):
    # 20000 RK4 steps of the 7-DoF arm: 80000 forward dynamics, ~0.15–1 s.
    return mechdyn.simulate(model, tau=["0.3*sin(t)"] * model.nv, duration=20.0, step=1e-3, every=2000)


def loop_rate(seconds=0.05):
    """Iterations per second of the counting loop below, alone."""
    stop = time.perf_counter() + seconds
    count = 0
    while time.perf_counter() < stop:
        count += 1
    return count / seconds


def test_python_thread_runs_during_a_cpp_call(source):
    model = mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml"))
    rate = loop_rate()
    done = threading.Event()
    result = {}

    def worker():
        result["run"] = long_simulation(model)
        done.set()

    thread = threading.Thread(target=worker)
    start = time.perf_counter()
    thread.start()
    counted = 0
    while not done.is_set():
        time.perf_counter()  # the same loop body as loop_rate
        counted += 1
    elapsed = time.perf_counter() - start
    thread.join()
    switch = sys.getswitchinterval()
    # Released: the loop shares the machine with the C++ thread for the whole call (at
    # least a tenth of its solo rate even on a loaded machine). Held: it runs only until
    # the worker enters C++, at most about one switch interval.
    assert elapsed > 10 * switch, "the call was too short to tell: %.3f s" % elapsed
    assert counted > 0.1 * rate * elapsed, (counted, rate, elapsed)
    assert counted > 4 * rate * switch, (counted, rate, switch)
    assert result["run"].q.shape[0] == 11


def test_threads_with_their_own_data_give_the_serial_results(source):
    # Two threads in C++ at the same time (the GIL released), each with its own Data:
    # the same numbers as one thread alone. Catches scratch shared between Data objects
    # or a Model written by an evaluation.
    model = mechdyn.load_model(str(source / "tests/data/robots/wam.urdf"))
    rng = np.random.default_rng(1)
    qs = rng.uniform(-1, 1, (300, model.nq))
    vs = rng.uniform(-1, 1, (300, model.nv))
    reference = []
    serial = mechdyn.Data(model)
    for q, v in zip(qs, vs):
        reference.append((mechdyn.crba(model, serial, q).copy(), mechdyn.aba(model, serial, q, v, v).copy()))
    out = [[None] * len(qs) for _ in range(2)]
    barrier = threading.Barrier(2)

    def worker(k):
        data = mechdyn.Data(model)
        barrier.wait()
        for i, (q, v) in enumerate(zip(qs, vs)):
            out[k][i] = (mechdyn.crba(model, data, q).copy(), mechdyn.aba(model, data, q, v, v).copy())

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(2):
        for i in range(len(qs)):
            assert np.array_equal(out[k][i][0], reference[i][0]) and np.array_equal(out[k][i][1], reference[i][1])
    runs = [None, None]

    def simulate(k):
        runs[k] = long_simulation(mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml")))

    threads = [threading.Thread(target=simulate, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(runs[0].q, runs[1].q)
