# Python bindings of the analytical derivatives (mechdyn.rnea_derivatives,
# mechdyn.aba_derivatives; docs/derivatives.md). The library itself is checked on random
# trees of every joint type in tests/properties/test_dynamics_derivatives.cpp; here the
# binding: right arguments, right buffers, right orientation (row i = derivative of
# component i), and the same numbers as `mechdyn eval --derivatives`.
import json
import subprocess

import numpy as np

import mechdyn
from conftest import random_state

PANDA = "examples/models/panda_7dof.yaml"  # revolute only: q ⊕ dq = q + dq
H = 1e-6  # centred differences: error ~ h² |f'''| + ε |f| κ(M) / h; allowance 1e-6 (1 + |matrix|max)


def centred(f, x, j):
    plus, minus = x.copy(), x.copy()
    plus[j] += H
    minus[j] -= H
    return (np.array(f(plus)) - np.array(f(minus))) / (2 * H)


def test_inverse_and_forward_derivatives_match_finite_differences(source):
    # Catches a binding that swaps q and v, returns the transpose (columns for rows), or a
    # view of the wrong Data matrix.
    model = mechdyn.load_model(str(source / PANDA))
    data, scratch = mechdyn.Data(model), mechdyn.Data(model)
    rng = np.random.default_rng(3)
    q, v, a = random_state(model, rng)
    dtau_dq, dtau_dv = (x.copy() for x in mechdyn.rnea_derivatives(model, data, q, v, a))
    tau = 2.0 * a
    da_dq, da_dv, da_dtau = (x.copy() for x in mechdyn.aba_derivatives(model, data, q, v, tau))
    for analytic, f, x in [
        (dtau_dq, lambda y: mechdyn.rnea(model, scratch, y, v, a).copy(), q),
        (dtau_dv, lambda y: mechdyn.rnea(model, scratch, q, y, a).copy(), v),
        (da_dq, lambda y: mechdyn.aba(model, scratch, y, v, tau).copy(), q),
        (da_dv, lambda y: mechdyn.aba(model, scratch, q, y, tau).copy(), v),
        (da_dtau, lambda y: mechdyn.aba(model, scratch, q, v, y).copy(), tau),
    ]:
        fd = np.column_stack([centred(f, x, j) for j in range(model.nv)])
        # the whole matrix's scale: an exactly zero column (the first axis is vertical, so
        # gravity does not depend on q₁) carries only the difference's rounding noise
        assert np.abs(analytic - fd).max() <= 1e-6 * (1 + np.abs(fd).max())
    M = mechdyn.crba(model, scratch, q)
    assert np.allclose(da_dtau @ M, np.eye(model.nv), rtol=0, atol=1e-10)


def test_same_numbers_as_the_command_line(source, cli):
    # Catches the CLI and the binding running different code or printing fewer digits.
    model = mechdyn.load_model(str(source / PANDA))
    data = mechdyn.Data(model)
    q, v, a = random_state(model, np.random.default_rng(5))
    fmt = lambda x: ",".join(repr(float(e)) for e in x)
    out = subprocess.run([cli, "eval", str(source / PANDA), "--q", fmt(q), "--v", fmt(v), "--a", fmt(a),
                          "--tau", fmt(a), "--derivatives", "--json"], check=True, capture_output=True,
                         text=True).stdout
    printed = json.loads(out)
    dtau_dq, dtau_dv = mechdyn.rnea_derivatives(model, data, q, v, a)
    assert np.array_equal(np.array(printed["dtau_dq"]), dtau_dq)
    assert np.array_equal(np.array(printed["dtau_dv"]), dtau_dv)
    da_dq, da_dv, da_dtau = mechdyn.aba_derivatives(model, data, q, v, a)
    assert np.array_equal(np.array(printed["da_dq"]), da_dq)
    assert np.array_equal(np.array(printed["da_dtau"]), da_dtau)


def test_singular_mass_matrix_raises_solver_error(source):
    # Catches a crash or NaN at a singular M (the lunar-rover rocker: docs/dynamics.md).
    model = mechdyn.load_model(str(source / "examples/models/lunar_rover_rocker.yaml"))
    data = mechdyn.Data(model)
    zeros = np.zeros(model.nv)
    try:
        mechdyn.aba_derivatives(model, data, model.neutral_configuration(), zeros, zeros)
    except mechdyn.SolverError as error:
        assert "joint" in str(error) or "coordinate" in str(error)
    else:
        raise AssertionError("no SolverError")


def test_joint_reaction_derivatives_match_finite_differences(source):
    # Catches the binding returning force and torque rows in another order than
    # joint_reactions, or ∂/∂q and ∂/∂v swapped.
    model = mechdyn.load_model(str(source / PANDA))
    data, scratch = mechdyn.Data(model), mechdyn.Data(model)
    q, v, a = random_state(model, np.random.default_rng(11))
    dq, dv = mechdyn.joint_reaction_derivatives(model, data, q, v, a)
    assert dq.shape == (6 * model.num_bodies, model.nv)

    def reactions(qq, vv):
        force, torque = mechdyn.joint_reactions(model, scratch, qq, vv, a)
        return np.hstack([force, torque]).ravel().copy()

    for analytic, f, x in [(dq, lambda y: reactions(y, v), q), (dv, lambda y: reactions(q, y), v)]:
        fd = np.column_stack([centred(f, x, j) for j in range(model.nv)])
        assert np.abs(analytic - fd).max() <= 1e-6 * (1 + np.abs(fd).max())


def test_closed_chain_derivatives_match_finite_differences(source, cli):
    # mechdyn.closed_chain_inverse_dynamics_derivatives on the three-loop mechanism: the
    # total derivatives of the actuated effort against centred differences of
    # mechdyn.closed_chain_inverse_dynamics (crank moved, passive coordinates re-assembled
    # from the guess), and the same numbers as `mechdyn eval --derivatives`'s
    # closed_chain_derivatives. Catches a binding that returns the spanning tree's
    # derivatives, a transposed or stale array, or a state not completed.
    path = str(source / "examples/models/three_loop_mechanism.yaml")
    model = mechdyn.load_model(path)
    data, scratch = mechdyn.Data(model), mechdyn.Data(model)
    q = mechdyn.assemble(model, scratch, model.neutral_configuration())["q"]
    v = np.zeros(model.nv)
    a = np.zeros(model.nv)
    result = mechdyn.closed_chain_inverse_dynamics_derivatives(model, data, q, v, a)
    (k,) = result["coordinates"]  # one actuated coordinate: the crank J1''
    v[k], a[k] = 0.8, -1.2
    result = mechdyn.closed_chain_inverse_dynamics_derivatives(model, data, q, v, a)
    assert result["dtau_dq"].shape == (1, 1) and result["coordinate_map"].shape == (model.nv, 1)

    def tau_a(qq, vv, aa):
        return mechdyn.closed_chain_inverse_dynamics(model, scratch, qq, vv, aa)["tau"][k]

    h = 1e-5
    step = np.zeros(model.nv)
    step[k] = h
    fd_q = (tau_a(q + step, v, a) - tau_a(q - step, v, a)) / (2 * h)  # revolute only: q ⊕ dq = q + dq
    fd_v = (tau_a(q, v + step, a) - tau_a(q, v - step, a)) / (2 * h)
    fd_a = (tau_a(q, v, a + step) - tau_a(q, v, a - step)) / (2 * h)
    for analytic, fd in [(result["dtau_dq"], fd_q), (result["dtau_dv"], fd_v), (result["dtau_da"], fd_a)]:
        assert abs(analytic[0, 0] - fd) <= 1e-6 * (1 + abs(fd))
    assert abs(result["tau"][0] - tau_a(q, v, a)) <= 1e-12 * (1 + abs(result["tau"][0]))
    numbers = lambda x: ",".join(repr(float(y)) for y in x)  # noqa: E731
    out = subprocess.run([cli, "eval", path, "--q", numbers(q), "--v", numbers(v), "--a", numbers(a),
                          "--derivatives", "--json"], check=True, capture_output=True, text=True).stdout
    printed = json.loads(out)["closed_chain_derivatives"]
    for key in ("dtau_dq", "dtau_dv", "dtau_da", "tau"):
        assert np.allclose(np.array(printed[key]), result[key], rtol=1e-12, atol=1e-12), key
