# mechdyn.simulate_closed_chain (evaluation/closed_chain_run.hpp): Python gets the
# closed-chain runs of `mechdyn simulate` with reactions, cut-joint forces and warnings.
# Catches: the binding dropping the integrator or the mode, rows in the wrong shape, the
# N-four-bar leaving its branch, a near-singular crossing not reported, inverse mode not
# reproducing the prescribed actuated motion.
import math

import numpy as np
import pytest

import mechdyn


def n_four_bar(n):
    # IFToMM A02 (tests/support/n_four_bar.hpp): 1 m, 1 kg bars, crank i on the ground at x = i.
    rod = "    mass: 1.0\n    com: [0.5, 0, 0]\n    inertia: {diag: [0, 0.0833333333333333, 0.0833333333333333]}\n"
    text = "mechdyn: 1\nname: nfb\ngravity: [0, -9.81, 0]\nbodies:\n"
    for i in range(n + 1):
        act = "" if i == 0 else ", actuated: false"
        text += f"  - name: crank{i}\n    parent: ground\n    joint: {{type: revolute, axis: [0, 0, 1], origin: [{i}, 0, 0]{act}}}\n" + rod
        if i < n:
            text += f"  - name: coupler{i}\n    parent: crank{i}\n    joint: {{type: revolute, axis: [0, 0, 1], origin: [1, 0, 0], actuated: false}}\n" + rod
    text += "loops:\n"
    for i in range(n):
        text += f"  - {{name: loop{i}, type: planar-revolute, a: {{body: coupler{i}, point: [1, 0, 0]}}, b: {{body: crank{i + 1}, point: [1, 0, 0]}}, axis: [0, 0, 1]}}\n"
    return mechdyn.parse_model_string(text, "<n_four_bar>")


def reference_angle(n, t_end, h=1e-4):
    # The exact one-degree-of-freedom reduction, RK4 with a fine step.
    inertia, weight = (n + 1) / 3.0 + n, 9.81 * ((n + 1) / 2.0 + n)
    f = lambda x: -weight * math.cos(x) / inertia
    th, w = math.pi / 2, -1.0
    for _ in range(int(round(t_end / h))):
        k1t, k1w = w, f(th)
        k2t, k2w = w + 0.5 * h * k1w, f(th + 0.5 * h * k1t)
        k3t, k3w = w + 0.5 * h * k2w, f(th + 0.5 * h * k2t)
        k4t, k4w = w + h * k3w, f(th + h * k3t)
        th += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
        w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w)
    return th


def test_ali3p_n_four_bar_on_its_branch_with_warnings():
    n = 3
    model = n_four_bar(n)
    q0 = np.array([math.pi / 2, -math.pi / 2] * n + [math.pi / 2])
    v0 = np.array([-1.0, 1.0] * n + [-1.0])
    r = mechdyn.simulate_closed_chain(model, q0, v0, integrator="ali3p", duration=3.0, step=0.01, every=10)
    assert r.q.shape == (31, model.nq)
    assert r.cut_force.shape == (31, n, 3)
    assert r.reaction_force.shape == (31, model.num_bodies, 3)
    cranks = r.q[:, 0::2]
    assert np.max(np.abs(cranks - cranks[:, :1])) < 1e-6  # the parallelogram branch
    th = reference_angle(n, 3.0)
    assert math.hypot(math.cos(r.q[-1, 0]) - math.cos(th), math.sin(r.q[-1, 0]) - math.sin(th)) < 1e-3
    assert np.max(r.closure_residual) < 1e-8
    assert r.near_singular_episodes >= 2  # θ = 0 at ≈ 0.72 s, θ = −π at ≈ 2.7 s
    assert any("near-singular configuration from t = 0.7" in w for w in r.warnings)


def test_ali3p_adaptive_controls_its_error():
    n = 2
    model = n_four_bar(n)
    q0 = np.array([math.pi / 2, -math.pi / 2] * n + [math.pi / 2])
    v0 = np.array([-1.0, 1.0] * n + [-1.0])
    kw = dict(integrator="ali3p", duration=3.0, step=0.1)
    th = reference_angle(n, 3.0)
    tip = lambda r: math.hypot(math.cos(r.q[-1, 0]) - math.cos(th), math.sin(r.q[-1, 0]) - math.sin(th))
    assert tip(mechdyn.simulate_closed_chain(model, q0, v0, adaptive=True, rtol=1e-6, atol=1e-9, **kw)) < 1e-3
    assert tip(mechdyn.simulate_closed_chain(model, q0, v0, **kw)) > 5e-3  # 0.1 s as a fixed step (7.9e-3 m at 3 s)
    with pytest.raises(Exception, match="adaptive"):
        mechdyn.simulate_closed_chain(model, q0, v0, integrator="rk4", adaptive=True)


def test_inverse_mode_reproduces_the_prescribed_crank(source):
    model = mechdyn.load_model(str(source / "examples/models/slider_crank.yaml"))
    r = mechdyn.simulate_closed_chain(model, mode="inverse", accelerations=["2"], v0=np.array([1.0, 0, 0]),
                                      duration=0.5, step=0.01)
    # θ(t) = θ0 + t + t² (θ̈ = 2, θ̇(0) = 1): the crank coordinate follows it exactly (Simpson).
    assert np.allclose(r.q[:, 0] - r.q[0, 0], r.t + r.t ** 2, atol=1e-12)
    assert np.all(np.isfinite(r.tau))
    assert np.max(r.closure_residual) < 1e-9


def test_bad_arguments_raise():
    model = n_four_bar(1)
    with pytest.raises(Exception, match="integrator"):
        mechdyn.simulate_closed_chain(model, integrator="euler")
    with pytest.raises(Exception, match="mode"):
        mechdyn.simulate_closed_chain(model, mode="sideways")
