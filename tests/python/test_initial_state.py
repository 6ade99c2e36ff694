# mechdyn.consistent_initial_state (constraints/initial_state.hpp): the binding keeps the
# stated rate and reports an adjustment with the C++ numbers' meaning.
# Catches: the binding dropping the kept sets (the actuated default used instead), the
# adjustments not returned, a SolverError not raised as mechdyn.SolverError.
import math

import numpy as np
import pytest

import mechdyn


def test_slider_crank_kept_crank_rate_and_closed_form(source):
    # x(θ) = r cos θ + sqrt(l² − (r sin θ − e)²), r = 0.1, l = 0.3, e = 0.03
    # (examples/models/slider_crank.yaml); at θ = 0, ẋ = r e ω / sqrt(l² − e²).
    model = mechdyn.load_model(str(source / "examples/models/slider_crank.yaml"))
    data = mechdyn.Data(model)
    r = mechdyn.consistent_initial_state(model, data, np.zeros(3), np.array([6.0, 0.0, 0.0]))
    assert r["v"][0] == 6.0
    assert r["adjustments"] == []
    assert r["kept_velocities"] == [0]
    assert abs(r["v"][2] - 0.1 * 0.03 * 6.0 / math.sqrt(0.09 - 0.0009)) <= 1e-12
    assert r["velocity_residual"] <= 1e-12


def test_four_bar_over_determined_request_is_adjusted(source):
    # Crank and rocker at 1 rad/s: the least change s (1, ρ), s = (1 + ρ)/(1 + ρ²), with
    # ρ = ω4/ω2 = a sin(θ2 − θ3) / (c sin(θ4 − θ3)) (Norton §6.7).
    model = mechdyn.load_model(str(source / "examples/models/four_bar.yaml"))
    data = mechdyn.Data(model)
    r = mechdyn.consistent_initial_state(model, data, model.initial_configuration(), np.array([1.0, 0.0, 1.0]),
                                         kept_velocities=[0, 2])
    q = r["q"]
    t2, t3, t4 = q[0], q[0] + q[1], q[2]
    rho = 0.1 * math.sin(t2 - t3) / (0.3 * math.sin(t4 - t3))
    s = (1 + rho) / (1 + rho * rho)
    names = [a["name"] for a in r["adjustments"]]
    assert names == ["crank", "rocker"]
    assert abs(r["adjustments"][0]["used"] - s) <= 1e-9
    assert abs(r["adjustments"][1]["used"] - s * rho) <= 1e-9
    assert r["adjustments"][0]["given"] == 1.0
    with pytest.raises(mechdyn.SolverError, match="impossible initial velocity"):
        mechdyn.consistent_initial_state(model, data, model.initial_configuration(), np.array([1.0, 0.0, 1.0]),
                                         kept_velocities=[0, 2], allow_velocity_adjustment=False)
