# The GIL is released during the C++ work, so Python threads run mechdyn calls in
# parallel (one Data per thread). Measured so that a loaded machine cannot fail it:
# not wall-clock speed-up, but (1) a Python thread makes progress while another thread
# is inside a long C++ call, and (2) two calls on two threads overlap in time. With the
# GIL held through the call, (1) counts ~0 iterations and (2) finds the calls disjoint.
import threading
import time

import numpy as np

import mechdyn


def long_simulation(model):
    return mechdyn.simulate(model, tau=["0.3*sin(t)"] * model.nv, duration=2.0, step=1e-3, every=100)


def test_python_thread_runs_during_a_cpp_call(source):
    model = mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml"))
    done = threading.Event()
    inside = threading.Event()
    result = {}

    def worker():
        inside.set()
        result["run"] = long_simulation(model)
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait()
    counted = 0
    while not done.is_set():
        counted += 1  # pure Python: needs the GIL
    thread.join()
    # 14000 ABA-free RK4 evaluations take > 50 ms even on a fast machine; a Python loop
    # runs > 1e5 iterations in that time. Holding the GIL, the loop would run only
    # between the thread's start and its entry into C++ (a few hundred at most).
    assert counted > 20000, counted
    assert result["run"].q.shape[0] == 21


def test_two_threads_overlap_and_match_the_serial_results(source):
    model = mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml"))
    serial = long_simulation(model)
    spans, runs = [None, None], [None, None]
    barrier = threading.Barrier(2)

    def worker(k):
        barrier.wait()
        start = time.perf_counter()
        runs[k] = long_simulation(model)  # its own Data inside simulate
        spans[k] = (start, time.perf_counter())

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (s0, e0), (s1, e1) = spans
    overlap = min(e0, e1) - max(s0, s1)
    # Both calls were inside C++ at the same time for most of the shorter one.
    assert overlap > 0.5 * min(e0 - s0, e1 - s1), spans
    for run in runs:  # separate Data: the same numbers as one thread alone
        assert np.array_equal(run.q, serial.q)


def test_threads_on_separate_data_evaluate_concurrently(source):
    # Many short calls from two threads, each with its own Data: results equal the
    # serial ones (no shared scratch between Data objects).
    model = mechdyn.load_model(str(source / "tests/data/robots/wam.urdf"))
    rng = np.random.default_rng(1)
    qs = rng.uniform(-1, 1, (200, model.nq))
    reference = [mechdyn.crba(model, mechdyn.Data(model), q).copy() for q in qs]
    out = [[None] * len(qs) for _ in range(2)]

    def worker(k):
        data = mechdyn.Data(model)
        for i, q in enumerate(qs):
            out[k][i] = mechdyn.crba(model, data, q).copy()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(2):
        for i in range(len(qs)):
            assert np.array_equal(out[k][i], reference[i])
