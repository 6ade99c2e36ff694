# Screw theory and flexible bodies from Python: mechdyn.screw_axis / screw_rank /
# reciprocal_screws against closed forms and numpy's own linear algebra (an independent
# computation), and mechdyn.static_equilibrium / natural_frequencies against the CLI's
# `mechdyn static --json` / `mechdyn modes --json` (the contract other programs read);
# broken arguments raise mechdyn.InvalidArgument naming the argument.
import json
import subprocess

import numpy as np
import pytest

import mechdyn

SWAP = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])  # ℵ


def twist_about(direction, point, pitch, rate=1.0):
    # A screw motion: rotation `rate` about the line (direction, point) with translation
    # pitch·rate along it; v at the origin = point × ω + pitch ω (Murray–Li–Sastry §2.3).
    w = rate * np.asarray(direction, float) / np.linalg.norm(direction)
    return np.concatenate([w, np.cross(point, w) + pitch * w])


def test_screw_axis_recovers_line_pitch_and_magnitude():
    # Catches a swapped line/moment half, a sign error in r = a × b / |a|², or a pitch
    # scaled by the magnitude.
    axis = mechdyn.screw_axis(twist_about([0, 0, 1], [1.0, 2.0, 0.0], 0.5, rate=2.0))
    assert axis["kind"] == "finite"
    assert axis["pitch"] == pytest.approx(0.5, abs=1e-14)
    assert axis["magnitude"] == pytest.approx(2.0, abs=1e-14)
    np.testing.assert_allclose(axis["direction"], [0, 0, 1], atol=1e-14)
    np.testing.assert_allclose(axis["point"], [1.0, 2.0, 0.0], atol=1e-14)
    slide = mechdyn.screw_axis([0, 0, 0, 3.0, 0, 4.0])  # a pure translation: infinite pitch
    assert slide["kind"] == "infinite" and slide["magnitude"] == pytest.approx(5.0)
    np.testing.assert_allclose(slide["direction"], [0.6, 0, 0.8], atol=1e-15)
    assert mechdyn.screw_axis(np.zeros(6))["kind"] == "zero"


def test_reciprocal_screws_do_no_work_and_complete_the_rank():
    # Three revolutes about parallel z axes (a planar chain) span ωz, vx, vy: rank 3, and the
    # reciprocal wrenches (fz, mx, my) do no work on them. Checked with numpy's SVD.
    rng = np.random.default_rng(4)
    twists = np.column_stack([twist_about([0, 0, 1], p, 0.0) for p in rng.uniform(-1, 1, (3, 3))])
    assert mechdyn.screw_rank(twists) == 3 == np.linalg.matrix_rank(twists)
    wrenches = mechdyn.reciprocal_screws(twists)
    assert wrenches.shape == (6, 3)
    np.testing.assert_allclose(twists.T @ SWAP @ wrenches, 0.0, atol=1e-12)
    assert np.linalg.matrix_rank(np.column_stack([twists, SWAP @ wrenches])) == 6
    # Random general screws: the reciprocal system has dimension 6 − k.
    general = rng.normal(size=(6, 4))
    recip = mechdyn.reciprocal_screws(general, reference_point=[0.1, 0.2, 0.3], length=0.5)
    assert recip.shape == (6, 2)
    np.testing.assert_allclose(general.T @ SWAP @ recip, 0.0, atol=1e-12)
    assert np.linalg.matrix_rank(recip) == 2


def test_screw_arguments_are_checked():
    with pytest.raises(mechdyn.InvalidArgument, match="screws"):
        mechdyn.screw_rank(np.zeros((5, 2)))
    with pytest.raises(mechdyn.InvalidArgument, match="not finite"):
        mechdyn.reciprocal_screws(np.full((6, 1), np.nan))
    with pytest.raises(mechdyn.InvalidArgument, match="length"):
        mechdyn.screw_rank(np.eye(6), length=0.0)
    with pytest.raises(mechdyn.InvalidArgument, match="screw"):
        mechdyn.screw_axis([1.0, 2.0])


def cli_json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def test_flexible_static_and_modes_equal_the_cli(source, cli):
    # The binding must call the same computation as the CLI with the same start and the same
    # held/locked joints: catches a wrong start configuration or locked set.
    path = str(source / "examples/models/flexible_arm.yaml")
    model = mechdyn.load_model(path)
    eq = mechdyn.static_equilibrium(model)
    ref = cli_json(cli, "static", path)
    np.testing.assert_allclose(eq["q"], ref["q"], rtol=0, atol=1e-12)
    for name, row in zip(eq["marker_names"], eq["markers"]):
        np.testing.assert_allclose(row, next(m["position"] for m in ref["markers"] if m["name"] == name), atol=1e-12)
    for locked in ("actuated", "none"):
        modes = mechdyn.natural_frequencies(model, locked=locked)
        ref = cli_json(cli, "modes", path, "--locked", locked)
        np.testing.assert_allclose(modes["frequencies"], ref["frequencies"], rtol=1e-10)
        assert modes["zero_modes"] == ref["zero_modes"] and modes["locked"] == ref["locked"]
        assert modes["shapes"].shape == (model.nv, len(modes["frequencies"]))
    with pytest.raises(mechdyn.InvalidArgument, match="locked"):
        mechdyn.natural_frequencies(model, locked="some")
    with pytest.raises(mechdyn.InvalidArgument, match="q0"):
        mechdyn.static_equilibrium(model, q0=np.zeros(model.nq + 1))
