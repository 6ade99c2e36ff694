# Many states per call (docs/python.md "Batches"; evaluation/batch.hpp): numpy (K, n) in,
# numpy out, equal to K single calls bit for bit for any thread count; shapes, errors, the
# reusable workspace, and the GIL released during the batch.
import sys
import threading
import time

import numpy as np
import pytest

import mechdyn
from conftest import random_state


def models(source):
    # The arm (revolute joints) and a floating base (a free joint: quaternions in q).
    return [mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml")),
            mechdyn.load_model(str(source / "examples/models/floating_base.yaml"))]


def random_states(model, count, seed):
    rng = np.random.default_rng(seed)
    Q = np.empty((count, model.nq))
    V = np.empty((count, model.nv))
    A = np.empty((count, model.nv))
    for k in range(count):
        Q[k], V[k], A[k] = random_state(model, rng)
    Tau = rng.uniform(-5.0, 5.0, (count, model.nv))
    return Q, V, A, Tau


@pytest.mark.parametrize("count", [0, 1, 7])
def test_every_batch_function_equals_single_calls(source, count):
    # Catches a state skipped, evaluated on another thread's stale Data, or a row written to
    # another state (a transposed layout would also show: M is symmetric, ∂τ/∂q is not).
    for model in models(source):
        Q, V, A, Tau = random_states(model, count, 3 + count)
        data = mechdyn.Data(model)
        nv = model.nv
        tau = np.array([np.array(mechdyn.rnea(model, data, Q[k], V[k], A[k])) for k in range(count)]).reshape(count, nv)
        ddq = np.array([np.array(mechdyn.aba(model, data, Q[k], V[k], Tau[k])) for k in range(count)]).reshape(count, nv)
        mass = np.array([np.array(mechdyn.crba(model, data, Q[k])) for k in range(count)]).reshape(count, nv, nv)
        rd = [mechdyn.rnea_derivatives(model, data, Q[k], V[k], A[k]) for k in range(count)]
        ad = [mechdyn.aba_derivatives(model, data, Q[k], V[k], Tau[k]) for k in range(count)]
        for threads in (1, 2, 3):
            out = mechdyn.batch_rnea(model, Q, V, A, threads=threads)
            assert out.shape == (count, nv) and out.dtype == np.float64
            np.testing.assert_array_equal(out, tau)
            np.testing.assert_array_equal(mechdyn.batch_aba(model, Q, V, Tau, threads=threads), ddq)
            M = mechdyn.batch_crba(model, Q, threads=threads)
            assert M.shape == (count, nv, nv)
            np.testing.assert_array_equal(M, mass)
            dq, dv = mechdyn.batch_rnea_derivatives(model, Q, V, A, threads=threads)
            assert dq.shape == dv.shape == (count, nv, nv)
            for k in range(count):
                np.testing.assert_array_equal(dq[k], rd[k][0])
                np.testing.assert_array_equal(dv[k], rd[k][1])
            da = mechdyn.batch_aba_derivatives(model, Q, V, Tau, threads=threads)
            assert len(da) == 3 and all(d.shape == (count, nv, nv) for d in da)
            for k in range(count):
                for i in range(3):
                    np.testing.assert_array_equal(da[i][k], ad[k][i])


def test_step_is_one_rk4_step_of_each_state(source):
    model = models(source)[1]  # the free joint: quaternions renormalised after the step
    Q, V, _, Tau = random_states(model, 5, 11)
    h = 1e-3
    q1, v1 = mechdyn.batch_step(model, Q, V, Tau, h, threads=1)
    assert q1.shape == (5, model.nq) and v1.shape == (5, model.nv)
    q2, v2 = mechdyn.batch_step(model, Q, V, Tau, h, threads=2)
    np.testing.assert_array_equal(q1, q2)
    np.testing.assert_array_equal(v1, v2)
    for k in range(5):
        # One state alone gives the same numbers (no state reads another's).
        qk, vk = mechdyn.batch_step(model, Q[k:k + 1], V[k:k + 1], Tau[k:k + 1], h, threads=1)
        np.testing.assert_array_equal(qk[0], q1[k])
        np.testing.assert_array_equal(vk[0], v1[k])
        # The library's simulation, one RK4 step of ABA under the same constant efforts.
        run = mechdyn.simulate(model, q0=Q[k], v0=V[k], tau=Tau[k], duration=h, step=h, integrator="rk4",
                               method="recursive")
        np.testing.assert_allclose(q1[k], run.q[-1], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(v1[k], run.v[-1], rtol=1e-12, atol=1e-12)


def test_inputs_that_are_not_c_ordered_float64_give_the_same_numbers(source):
    model = models(source)[0]
    Q, V, A, _ = random_states(model, 6, 5)
    expected = mechdyn.batch_rnea(model, Q, V, A, threads=1)
    np.testing.assert_array_equal(
        mechdyn.batch_rnea(model, np.asfortranarray(Q), V[::1], A.tolist(), threads=2), expected)
    wide = np.zeros((12, model.nv))
    wide[::2] = V  # a strided view: converted once
    np.testing.assert_array_equal(mechdyn.batch_rnea(model, Q, wide[::2], A), expected)
    # Integers are converted (a = 0: gravity and velocity terms only).
    np.testing.assert_array_equal(mechdyn.batch_rnea(model, Q, V, np.zeros((6, model.nv), dtype=np.int64)),
                                  mechdyn.batch_rnea(model, Q, V, np.zeros((6, model.nv))))


def test_a_workspace_is_reused_and_checked(source):
    arm, base = models(source)
    Q, V, A, _ = random_states(arm, 4, 2)
    workspace = mechdyn.BatchWorkspace(arm, threads=2)
    assert workspace.threads == 2
    first = mechdyn.batch_rnea(arm, Q, V, A, workspace=workspace)
    np.testing.assert_array_equal(mechdyn.batch_rnea(arm, Q, V, A, workspace=workspace), first)
    np.testing.assert_array_equal(first, mechdyn.batch_rnea(arm, Q, V, A, threads=1))
    with pytest.raises(mechdyn.InvalidArgument, match="workspace was made for model"):
        mechdyn.batch_crba(base, random_states(base, 2, 1)[0], workspace=workspace)
    with pytest.raises(mechdyn.InvalidArgument, match="threads = 3 but the workspace has 2"):
        mechdyn.batch_rnea(arm, Q, V, A, threads=3, workspace=workspace)
    assert mechdyn.BatchWorkspace(arm).threads >= 1  # 0: one per core
    with pytest.raises(mechdyn.InvalidArgument, match="threads must be"):
        mechdyn.BatchWorkspace(arm, threads=-1)


def test_broken_input_raises_invalid_argument_naming_it(source):
    model = models(source)[0]
    Q, V, A, Tau = random_states(model, 4, 7)
    with pytest.raises(mechdyn.InvalidArgument, match=r"Q must be a 2-D array of shape \(K, nq\)"):
        mechdyn.batch_rnea(model, Q[0], V, A)  # one state as a 1-D array
    with pytest.raises(ValueError, match=r"V must be a 2-D array .* = \(4, 7\).*got an array of shape \(3, 7\)"):
        mechdyn.batch_aba(model, Q, V[:3], Tau)
    with pytest.raises(mechdyn.InvalidArgument, match=r"Tau must be .*shape \(4, 6\)"):
        mechdyn.batch_aba(model, Q, V, Tau[:, :6])
    with pytest.raises(TypeError, match="A must be"):
        mechdyn.batch_rnea(model, Q, V, np.array([["a"] * 7] * 4))
    bad = V.copy()
    bad[2, 5] = np.nan
    with pytest.raises(mechdyn.InvalidArgument, match=r"batch_aba_derivatives: v of state 2 is not finite"):
        mechdyn.batch_aba_derivatives(model, Q, bad, Tau)
    with pytest.raises(mechdyn.InvalidArgument, match="step size"):
        mechdyn.batch_step(model, Q, V, Tau, 0.0)
    with pytest.raises(mechdyn.InvalidArgument, match="threads must be"):
        mechdyn.batch_crba(model, Q, threads=-2)


def test_a_state_that_blows_up_raises_solver_error(source):
    model = models(source)[0]
    Q, V, _, Tau = random_states(model, 4, 8)
    Tau[3] = 1e300  # finite, but the step overflows (in the second thread's chunk)
    with pytest.raises(mechdyn.SolverError):
        mechdyn.batch_step(model, Q, V, Tau, 0.1, threads=2)


def loop_rate(seconds=0.05):
    stop = time.perf_counter() + seconds
    count = 0
    while time.perf_counter() < stop:
        count += 1
    return count / seconds


def test_python_thread_runs_during_a_batch(source):
    # Released: a Python loop keeps counting while another thread is inside a long batch
    # (as tests/python/test_threads.py for simulate). Held, it would run at most about one
    # switch interval of the call. No wall-clock speed-up is asserted (the machine may be loaded).
    model = models(source)[0]
    Q, V, _, Tau = random_states(model, 20000, 1)
    rate = loop_rate()
    done = threading.Event()
    result = {}

    def worker():
        for _ in range(5):  # 5 × 20000 states × (ABA derivatives): ~0.2–1 s
            result["da"] = mechdyn.batch_aba_derivatives(model, Q, V, Tau, threads=1)
        done.set()

    thread = threading.Thread(target=worker)
    start = time.perf_counter()
    thread.start()
    counted = 0
    while not done.is_set():
        time.perf_counter()
        counted += 1
    elapsed = time.perf_counter() - start
    thread.join()
    switch = sys.getswitchinterval()
    assert elapsed > 10 * switch, "the call was too short to tell: %.3f s" % elapsed
    assert counted > 0.1 * rate * elapsed, (counted, rate, elapsed)
    assert counted > 4 * rate * switch, (counted, rate, switch)
    assert result["da"][2].shape == (20000, model.nv, model.nv)
