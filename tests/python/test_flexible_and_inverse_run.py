# mechdyn.simulate_inverse (evaluation/simulate.hpp) and mechdyn.simulate_flexible
# (evaluation/flexible_run.hpp): Python gets the tree inverse run and the flexible-body run
# of `mechdyn simulate`, the very library runs the CLI writes as CSV.
# Catches: a binding that drops friction, the reactions or the rigid reference, rows in
# the wrong shape or order, a run that differs from the CLI's.
import io
import math
import subprocess

import numpy as np
import pytest

import mechdyn


def cli_csv(cli, *args):
    out = subprocess.run([cli, "simulate", *args], capture_output=True, text=True, check=True).stdout
    header = out.splitlines()[0].split(",")
    rows = np.genfromtxt(io.StringIO(out), delimiter=",", skip_header=1, ndmin=2)
    return {name: rows[:, i] for i, name in enumerate(header)}


def test_inverse_run_with_friction_equals_the_cli(source, cli):
    path = str(source / "examples/models/five_axis_tree_coulomb_viscous.yaml")
    accelerations = ["sin(3*t)", "1", "0", "cos(t)", "-1"]
    csv = cli_csv(cli, path, "--mode", "inverse", "--accelerations", ",".join(accelerations), "--duration", "0.2",
                  "--step", "0.01")
    model = mechdyn.load_model(path)
    r = mechdyn.simulate_inverse(model, accelerations=accelerations, duration=0.2, step=0.01)
    assert len(r) == 21
    assert r.q.shape == (21, 5) and r.tau.shape == (21, 5)
    assert r.reaction_force.shape == (21, model.num_bodies, 3)
    np.testing.assert_array_equal(r.t, csv["t_s"])
    for j, name in enumerate(model.joint_names):
        np.testing.assert_allclose(r.q[:, j], csv[f"q_{name}_rad"], rtol=0, atol=1e-14)
        np.testing.assert_allclose(r.tau[:, j], csv[f"tau_{name}_N_m"], rtol=0, atol=1e-13)
        np.testing.assert_allclose(r.friction[:, j], csv[f"friction_{name}_N_m"], rtol=0, atol=1e-13)
        for c, axis in enumerate("xyz"):
            np.testing.assert_allclose(r.reaction_force[:, j, c], csv[f"reaction_{name}_f{axis}_N"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.kinetic_energy, csv["kinetic_energy_J"], rtol=0, atol=1e-13)
    np.testing.assert_allclose(r.potential_energy, csv["potential_energy_J"], rtol=0, atol=1e-13)
    assert np.max(np.abs(r.friction)) > 0  # friction present, and in tau
    # A callable a(t) gives the same run as its expressions.
    again = mechdyn.simulate_inverse(model, accelerations=lambda t: [math.sin(3 * t), 1, 0, math.cos(t), -1],
                                     duration=0.2, step=0.01)
    np.testing.assert_allclose(again.tau, r.tau, rtol=0, atol=1e-12)


def test_inverse_run_refuses_a_model_with_loops(source):
    model = mechdyn.load_model(str(source / "examples/models/four_bar.yaml"))
    with pytest.raises(mechdyn.ModelError):
        mechdyn.simulate_inverse(model, duration=0.01)


def test_flexible_run_equals_the_cli(source, cli):
    path = str(source / "examples/models/flexible_arm.yaml")
    csv = cli_csv(cli, path, "--tau", "sin(t),-0.2", "--duration", "0.02", "--step", "0.001", "--integrator", "hht")
    model = mechdyn.load_model(path)
    r = mechdyn.simulate_flexible(model, tau=["sin(t)", "-0.2"], duration=0.02, step=0.001, integrator="hht")
    assert len(r) == 21
    assert r.q.shape == (21, model.nq) and r.v.shape == (21, model.nv)
    assert r.markers.shape == (21, len(model.marker_names), 3)
    np.testing.assert_array_equal(r.t, csv["t_s"])
    q_columns = [name for name in csv if name.startswith("q_") or name.startswith("e_")]
    assert len(q_columns) == model.nq
    for i, name in enumerate(q_columns):
        np.testing.assert_allclose(r.q[:, i], csv[name], rtol=0, atol=1e-15)
    for m, marker in enumerate(model.marker_names):
        for c, axis in enumerate("xyz"):
            np.testing.assert_allclose(r.markers[:, m, c], csv[f"marker_{marker}_{axis}_m"], rtol=0, atol=1e-15)
            np.testing.assert_allclose(r.deviation[:, m, c], csv[f"deviation_{marker}_{axis}_m"], rtol=0, atol=1e-15)
    for p, name in enumerate(r.actuated):
        np.testing.assert_allclose(r.effort[:, p], csv[f"effort_{name}_N_m"], rtol=0, atol=1e-15)
    for key, column in [("constraint_violation", "constraint_violation"), ("newton_iterations", "newton_iterations"),
                        ("kinetic_energy", "kinetic_energy_J"), ("gravity_energy", "gravity_energy_J"),
                        ("strain_energy", "strain_energy_J")]:
        np.testing.assert_allclose(getattr(r, key), csv[column], rtol=0, atol=1e-15)
    assert np.all(np.isnan(r.rigid_effort))  # forward: no rigid efforts
    assert r.warnings == []


def test_flexible_position_driven_follows_the_motion(source):
    model = mechdyn.load_model(str(source / "examples/models/flexible_arm.yaml"))
    motion = lambda t: ([0.3 * math.sin(2 * t), 0.0], [0.6 * math.cos(2 * t), 0.0], [-1.2 * math.sin(2 * t), 0.0])
    r = mechdyn.simulate_flexible(model, motion=motion, duration=0.05, step=0.001, every=10)
    assert len(r) == 6
    np.testing.assert_allclose(r.q[:, 0], 0.3 * np.sin(2 * r.t), rtol=0, atol=1e-15)
    assert np.all(np.isfinite(r.effort)) and np.all(np.isfinite(r.rigid_effort))
    off = mechdyn.simulate_flexible(model, motion=motion, duration=0.05, step=0.001, every=10, rigid_reference=False)
    assert np.all(np.isnan(off.deviation)) and np.all(np.isnan(off.rigid_effort))
    np.testing.assert_array_equal(off.effort, r.effort)  # the reference does not touch the run
    with pytest.raises(mechdyn.InvalidArgument):
        mechdyn.simulate_flexible(model, motion=motion, integrator="rk4")
