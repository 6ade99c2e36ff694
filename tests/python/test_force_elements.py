# Force elements, couplings and armature from Python (model format 3,
# ../shared/spec/force-elements.md; docs/python.md "Force elements"): reading, adding and
# changing them, and their numbers against independent computations — the potential
# energy differentiated numerically, the command line's eval --json, the small-oscillation
# period 2π sqrt(m/k), the gear's closed form, M's diagonal.
import json
import math
import subprocess

import numpy as np
import pytest

import mechdyn
from conftest import CLI, SOURCE

# Planar double pendulum in the x-y plane (gravity along -y), both links along +x at q = 0:
# arm 1 m on revolute `shoulder` about z at the origin, forearm on `elbow` at the arm's tip.
# spring: from the arm at 0.6 m to the ground at (0.6, 0.8, 0), k = 60, L0 = 0.5, T0 = 2,
# c = 0.5; hinge: a joint spring on the elbow, k = 7, rest 0.3; push: a load at the
# forearm's tip depending on t; servo: a drive on the shoulder with target sin(2 t).
PENDULUM = """
mechdyn: 3
name: spring_pendulum
gravity: [0, -9.81, 0]
bodies:
  - name: arm
    parent: ground
    joint: {name: shoulder, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 1.0
    com: [0.5, 0, 0]
    inertia: {diag: [0.001, 0.0833, 0.0833]}
  - name: forearm
    parent: arm
    joint: {name: elbow, type: revolute, axis: [0, 0, 1], origin: [1.0, 0, 0]}
    mass: 0.5
    com: [0.4, 0, 0]
    inertia: {diag: [0.0005, 0.0267, 0.0267]}
forces:
  - name: spring
    type: spring-damper
    a: {body: arm, point: [0.6, 0, 0]}
    b: {body: ground, point: [0.6, 0.8, 0]}
    stiffness: 60
    free_length: 0.5
    damping: 0.5
    preload: 2
  - name: hinge
    type: joint-spring-damper
    joint: elbow
    stiffness: 7
    rest: 0.3
"""

SPRING_A = np.array([0.6, 0.0])
SPRING_B = np.array([0.6, 0.8])


def arm_point(q):
    """The spring's point on the arm in the world (planar rotation by q[0])."""
    c, s = math.cos(q[0]), math.sin(q[0])
    return np.array([c * SPRING_A[0] - s * SPRING_A[1], s * SPRING_A[0] + c * SPRING_A[1]])


def elastic_energy(q, k=60.0, free=0.5, preload=2.0, k_hinge=7.0, rest=0.3):
    """V of the spring (½ k (L − L0)² + T0 (L − L0)) and the hinge (½ k (q − rest)²), by hand."""
    stretch = np.linalg.norm(SPRING_B - arm_point(q)) - free
    return 0.5 * k * stretch**2 + preload * stretch + 0.5 * k_hinge * (q[1] - rest) ** 2


def pendulum():
    return mechdyn.parse_model_string(PENDULUM, "pendulum.yaml")


def test_elements_read_as_the_file_says():
    # Catches: a view reading the wrong field (stiffness6 for a scalar spring), a body or
    # joint index printed instead of its name.
    model = pendulum()
    assert model.force_names == ["spring", "hinge"] and model.format_version == 3
    spring, hinge = model.forces
    assert (spring.type, spring.stiffness, spring.free_length, spring.damping, spring.preload) == (
        "spring-damper", 60.0, 0.5, 0.5, 2.0)
    assert spring.a[0] == "arm" and np.allclose(spring.a[1], [0.6, 0, 0])
    assert spring.b[0] == "ground" and np.allclose(spring.b[1], [0.6, 0.8, 0])
    assert (hinge.type, hinge.joint, hinge.stiffness, hinge.rest, hinge.damping) == (
        "joint-spring-damper", "elbow", 7.0, 0.3, 0.0)
    with pytest.raises(AttributeError):
        hinge.free_length  # not a parameter of a joint spring
    assert hinge.to_dict() == {"name": "hinge", "type": "joint-spring-damper", "joint": "elbow", "stiffness": 7.0,
                               "damping": 0.0, "rest": 0.3}


def test_generalized_force_is_minus_the_gradient_of_the_energy():
    # Q_f at v = 0 of conservative elements is −∂V/∂q, V written by hand above and
    # differentiated by central differences (h = 1e-6: error O(h²) ~ 1e-10, rounding
    # ~ 1e-16 · 10 / 1e-6 = 1e-9). Catches: a sign flip, the force on the wrong body,
    # the preload left out of Q_f or V, the joint spring's rest ignored.
    model = pendulum()
    data = mechdyn.Data(model)
    h = 1e-6
    for q in ([0.2, -0.3], [-1.1, 0.9], [2.5, 0.3]):
        q = np.array(q)
        gradient = np.array([(elastic_energy(q + h * e) - elastic_energy(q - h * e)) / (2 * h) for e in np.eye(2)])
        applied = mechdyn.force_elements(model, data, q, np.zeros(2))
        assert np.allclose(applied, -gradient, rtol=0, atol=1e-7)
        assert mechdyn.force_element_potential_energy(model, data) == pytest.approx(elastic_energy(q), abs=1e-12)
        # each element's own generalized force sums to Q_f
        parts = [mechdyn.force_element_generalized_force(model, data, name) for name in model.force_names]
        assert np.allclose(sum(parts), applied, atol=1e-12)
        assert np.allclose(mechdyn.applied_forces(model, q, np.zeros(2)), applied, atol=0)


def test_damping_adds_minus_c_times_the_length_rate_along_the_gradient_of_the_length():
    # The damper's part: −c L̇ ∂L/∂q (its power is −c L̇²), with L̇ = ∂L/∂q · v, ∂L/∂q by
    # central differences of the hand-written L. Catches: the damping's sign, L̇ from
    # the wrong point velocity.
    model = pendulum()
    q, v = np.array([0.4, -0.2]), np.array([1.3, -0.7])
    length = lambda q: np.linalg.norm(SPRING_B - arm_point(q))  # noqa: E731
    h = 1e-6
    dl = np.array([(length(q + h * e) - length(q - h * e)) / (2 * h) for e in np.eye(2)])
    report_moving = mechdyn.force_element_report(model, q, v)
    report_still = mechdyn.force_element_report(model, q, np.zeros(2))
    spring_moving, spring_still = report_moving["force_elements"][0], report_still["force_elements"][0]
    expected = -0.5 * (dl @ v) * dl
    assert np.allclose(spring_moving["generalized_force"] - spring_still["generalized_force"], expected, atol=1e-7)
    assert spring_moving["tension"] - spring_still["tension"] == pytest.approx(0.5 * (dl @ v), abs=1e-7)
    assert spring_still["length"] == pytest.approx(length(q), abs=1e-14)
    # the hinge's damping: −c v on its own coordinate only
    model.force("hinge").damping = 0.25
    hinge_moving = mechdyn.force_element_report(model, q, v)["force_elements"][1]
    assert hinge_moving["generalized_force"] == pytest.approx([0.0, -7 * (q[1] - 0.3) - 0.25 * v[1]], abs=1e-14)


def run_eval(path, q, v, a, t):
    numbers = lambda x: ",".join(repr(float(y)) for y in x)  # noqa: E731
    out = subprocess.run([CLI, "eval", str(path), "--q", numbers(q), "--v", numbers(v), "--a", numbers(a),
                          "--t", repr(t), "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_numbers_match_the_command_line_eval(tmp_path):
    # The same model and state through `mechdyn eval --json` (another program reading the
    # same file): applied_forces, every force_elements entry, tau = M a + h − Q_f and M
    # with the armature. Then a parameter changed from Python, the model saved, and the
    # CLI reading the saved file agrees again (the change is in the Model, and written).
    # Catches: the binding's t not reaching the servo and the load, a per-element array
    # in another order, compute_all_terms in Python leaving Q_f out of tau.
    model = pendulum()
    model.add_joint_servo("servo", "shoulder", "0.5*sin(2*t)", 40, damping=3, max_effort=100)
    model.add_applied("push", "arm", [1.0, 0, 0], force=["0", "2*t", "0"], torque=[0, 0, "cos(t)"])
    model.set_armature("shoulder", 0.05)
    q, v, a, t = np.array([0.3, -0.4]), np.array([0.7, -1.1]), np.array([0.5, 2.0]), 0.8
    for round_ in range(2):
        path = tmp_path / f"model{round_}.yaml"
        if round_ == 0:
            path.write_text((PENDULUM + """  - name: servo
    type: joint-servo
    joint: shoulder
    target: "0.5*sin(2*t)"
    stiffness: 40
    damping: 3
    max_effort: 100
  - name: push
    type: applied
    body: arm
    point: [1.0, 0, 0]
    force: ["0", "2*t", "0"]
    torque: ["0", "0", "cos(t)"]
""").replace("origin: [0, 0, 0]}", "origin: [0, 0, 0], armature: 0.05}"))
        else:
            model.force("spring").stiffness = 90.0
            model.set_force_parameter("servo", "target", "0.2*t")
            model.save(str(path))
        cli = run_eval(path, q, v, a, t)
        mine = mechdyn.force_element_report(model, q, v, t)
        assert np.allclose(mine["applied_forces"], cli["applied_forces"], rtol=1e-12, atol=1e-12)
        assert [e["name"] for e in cli["force_elements"]] == model.force_names
        for theirs, ours in zip(cli["force_elements"], mine["force_elements"]):
            assert theirs["type"] == ours["type"]
            assert np.allclose(ours["generalized_force"], theirs["generalized_force"], rtol=1e-12, atol=1e-12)
            for key in ("potential_energy", "value", "tension", "length"):
                if key in theirs:
                    assert ours[key] == pytest.approx(theirs[key], rel=1e-12, abs=1e-12), key
        data = mechdyn.Data(model)
        mechdyn.compute_all_terms(model, data, q, v, a=a, t=t)
        assert np.allclose(data.tau, cli["tau"], rtol=1e-12, atol=1e-12)
        assert np.allclose(data.mass_matrix, cli["mass_matrix"], rtol=1e-12, atol=1e-12)
        assert np.allclose(data.applied_force, cli["applied_forces"], rtol=1e-12, atol=1e-12)
    assert cli["force_elements"][0]["tension"] != pytest.approx(0.0)  # the changed spring is in the numbers


# A block on a prismatic joint along x (gravity along z does no work on it), tied to the
# ground by a spring along x: L = 1 + x, L0 = 1, so the force is −k x exactly and the
# motion x0 cos(ω t), ω = sqrt(k / m) (with an armature a: sqrt(k / (m + a))).
SLIDER = """
mechdyn: 3
name: slider
gravity: [0, 0, -9.81]
bodies:
  - name: block
    parent: ground
    joint: {name: slide, type: prismatic, axis: [1, 0, 0], origin: [0, 0, 0]}
    mass: 2.0
    com: [0, 0, 0]
    inertia: {diag: [0.01, 0.01, 0.01]}
forces:
  - name: S1
    type: spring-damper
    a: {body: block, point: [0, 0, 0]}
    b: {body: ground, point: [-1, 0, 0]}
    stiffness: 200
    free_length: 1
"""


def fitted_period(t, x):
    """Mean interval between upward zero crossings, each found by linear interpolation."""
    crossings = [t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])
                 for i in range(len(x) - 1) if x[i] < 0.0 <= x[i + 1]]
    assert len(crossings) >= 3
    return float(np.mean(np.diff(crossings)))


def test_changing_stiffness_between_runs_changes_the_period_as_sqrt_k_over_m():
    # The period fitted from a run against 2π sqrt(m / k) (RK4 at 1 ms: phase error
    # ~ (ω h)⁵ per step, far below 1e-5; the interpolated crossing ~ (ω h)² x0/8 ≈ 1e-5
    # relative at ω = 20): k = 200, then 800 (the period halves), then an armature of
    # 2 kg (m + 2). Catches: a change that does not reach the run (a stale copy), the
    # armature not in M, the element's tension column not the spring's.
    model = mechdyn.parse_model_string(SLIDER, "slider.yaml")
    x0 = 0.01
    periods = []
    for k, armature in ((200.0, 0.0), (800.0, 0.0), (800.0, 2.0)):
        model.force("S1").stiffness = k
        model.set_armature("slide", armature)
        run = mechdyn.simulate(model, q0=[x0], duration=2.0, step=1e-3)
        period = fitted_period(run.t, run.q[:, 0])
        assert period == pytest.approx(2 * math.pi * math.sqrt((2.0 + armature) / k), rel=2e-5)
        periods.append(period)
        # the force column is the spring's tension k (L − L0) = k x, its energy ½ k x²
        assert np.allclose(run.force_value[:, 0], k * run.q[:, 0], atol=1e-9)
        assert np.allclose(run.force_energy[:, 0], 0.5 * k * run.q[:, 0] ** 2, atol=1e-12)
        # undamped: kinetic (with the armature's ½ a v²) + potential is conserved
        energy = run.kinetic_energy + run.potential_energy
        assert np.ptp(energy) < 1e-7 * energy[0]
        # from rest at x0: no kinetic energy, the spring's ½ k x0² (gravity's m g z is 0 at z = 0)
        assert (run.kinetic_energy[0], run.potential_energy[0]) == pytest.approx((0.0, 0.5 * k * x0**2), abs=1e-15)
    assert periods[1] == pytest.approx(periods[0] / 2, rel=2e-5)


def test_armature_adds_to_the_mass_matrix_diagonal_only():
    # Catches: the armature on the wrong coordinate, off the diagonal, or a Data made
    # before the change keeping the old M.
    model = pendulum()
    data = mechdyn.Data(model)
    q = np.array([0.3, 0.9])
    before = mechdyn.crba(model, data, q).copy()
    model.set_armature("elbow", 0.04)
    assert model.joint("elbow")["armature"] == 0.04 and np.allclose(model.armature, [0, 0.04])
    after = mechdyn.crba(model, data, q)  # the same Data: armature does not change its layout
    assert np.allclose(after - before, np.diag([0.0, 0.04]), atol=1e-15)
    mechdyn.compute_all_terms(model, data, q, np.zeros(2), a=np.array([0.0, 1.0]))
    assert np.allclose(data.mass_matrix - before, np.diag([0.0, 0.04]), atol=1e-15)


def test_gear_coupling_effort_has_its_closed_form():
    # Two disks on revolute joints about z through their centres (gravity along z does no
    # work), geared q_b = r q_a, a constant effort τ on a: (I_a + r² I_b) q̈_a = τ, and the
    # gear's effort on b is λ = I_b q̈_b = I_b r q̈_a. Coupling added from Python, b made
    # passive. Catches: the coupling row's sign, the multiplier of another row reported.
    text = """
mechdyn: 1
name: gears
gravity: [0, 0, -9.81]
bodies:
  - name: disk_a
    parent: ground
    joint: {name: A, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 1.0
    com: [0, 0, 0]
    inertia: {diag: [0.15, 0.15, 0.3]}
  - name: disk_b
    parent: ground
    joint: {name: B, type: revolute, axis: [0, 0, 1], origin: [1, 0, 0]}
    mass: 1.0
    com: [0, 0, 0]
    inertia: {diag: [0.1, 0.1, 0.2]}
"""
    model = mechdyn.parse_model_string(text, "gears.yaml")
    ratio, tau = -2.5, 1.5
    gear = model.add_gear_coupling("gear", "A", "B", ratio)
    model.set_actuated("B", False)
    assert model.num_loop_rows == 1 and gear.row == model.coupling_row_index == 0
    acceleration = tau / (0.3 + ratio**2 * 0.2)
    for run in (mechdyn.simulate_closed_chain(model, tau=[tau], duration=0.2, step=1e-3, every=50),
                mechdyn.simulate(model, tau=[tau, 0.0], duration=0.2, step=1e-3, every=50)):
        assert run.coupling_names == ["gear"]
        assert np.allclose(run.coupling_effort[:, 0], 0.2 * ratio * acceleration, rtol=1e-9)
        assert np.allclose(run.q[:, 0], 0.5 * acceleration * run.t**2, rtol=1e-9, atol=1e-12)
        assert np.allclose(run.q[:, 1], ratio * run.q[:, 0], atol=1e-9)
    gear.ratio = 2.0  # a numeric change: the next run sees it
    run = mechdyn.simulate_closed_chain(model, tau=[tau], duration=0.1, step=1e-3, every=100)
    assert run.coupling_effort[-1, 0] == pytest.approx(0.2 * 2.0 * tau / (0.3 + 4 * 0.2), rel=1e-9)


def test_inverse_run_rows_carry_the_elements():
    # simulate_inverse's tau is M a + h − Q_f and its potential energy includes the
    # elements' (as `mechdyn simulate --mode inverse`), checked against compute_all_terms
    # and force_element_report at each row's state. Catches: the Python rows leaving the
    # elements' energy out.
    model = pendulum()
    data = mechdyn.Data(model)
    run = mechdyn.simulate_inverse(model, q0=[0.2, -0.1], accelerations=["1", "-0.5"], duration=0.2, step=1e-3,
                                   every=50)
    assert run.force_names == ["spring", "hinge"] and run.force_value.shape == (len(run.t), 2)
    for i in range(len(run.t)):
        q, v, a = run.q[i], run.v[i], run.a[i]
        mechdyn.compute_all_terms(model, data, q, v, a=a, t=run.t[i])
        assert np.allclose(run.tau[i], data.tau, atol=1e-10)
        report = mechdyn.force_element_report(model, q, v, run.t[i])
        assert run.potential_energy[i] == pytest.approx(
            mechdyn.potential_energy(model, data, q) + report["potential_energy"], abs=1e-12)
        assert np.allclose(run.force_value[i], [e["value"] for e in report["force_elements"]], atol=1e-12)


def test_broken_input_raises_and_leaves_the_model_unchanged():
    # Each refused change raises the library's error naming the element, and the model
    # (its YAML text) is what it was. Catches: a change applied before its validation.
    model = pendulum()
    text = model.to_string()
    cases = [
        (lambda: model.add_spring_damper("s2", "arm", [0, 0, 0], "ground", [1, 0, 0], -5.0, 0.1),
         mechdyn.ModelError, "stiffness must not be negative"),
        (lambda: model.add_spring_damper("s2", "arm", [0, 0, 0], "arm", [1, 0, 0], 5.0, 0.1),
         mechdyn.ModelError, "same body"),
        (lambda: model.add_spring_damper("s2", "nobody", [0, 0, 0], "ground", [1, 0, 0], 5.0, 0.1),
         mechdyn.InvalidArgument, "no body 'nobody'"),
        (lambda: model.add_joint_spring_damper("k", "knee", 1.0), mechdyn.InvalidArgument, "no joint 'knee'"),
        (lambda: model.add_joint_stop("stop", "elbow", 100.0), mechdyn.ModelError, "lower, upper or both"),
        (lambda: model.add_joint_stop("stop", "elbow", 100.0, lower=1, upper=-1), mechdyn.ModelError, "above upper"),
        (lambda: model.add_joint_servo("servo", "elbow", "sin(t", 10.0), mechdyn.ModelError, "sin(t"),
        (lambda: model.add_joint_servo("servo", "elbow", "x*t", 10.0), mechdyn.ModelError, "servo"),
        (lambda: model.add_joint_servo("servo", "elbow", 0.0, 10.0, max_effort=0), mechdyn.ModelError, "max_effort"),
        (lambda: model.add_joint_spring_damper("elbow", "elbow", 1.0), mechdyn.ModelError, "duplicate name"),
        (lambda: model.add_joint_spring_damper("hinge", "elbow", 1.0), mechdyn.ModelError, "duplicate name"),
        (lambda: model.add_applied("load", "arm", [0, 0, 0], force=["1", "t/", "0"]), mechdyn.ModelError, "force[1]"),
        (lambda: model.add_gear_coupling("g", "elbow", "elbow", 2.0), mechdyn.ModelError, "itself"),
        (lambda: model.add_gear_coupling("g", "shoulder", "elbow", 0.0), mechdyn.ModelError, "ratio must not be 0"),
        (lambda: model.set_force_parameter("spring", "stiffness", float("nan")), mechdyn.ModelError, "not finite"),
        (lambda: model.set_force_parameter("spring", "free_length", -0.1), mechdyn.ModelError, "free_length"),
        (lambda: model.set_force_parameter("spring", "target", "t"), mechdyn.InvalidArgument, "no parameter 'target'"),
        (lambda: model.set_force_parameter("spring", "stiffness", "stiff"), mechdyn.InvalidArgument, "real number"),
        (lambda: model.set_force_parameter("nothing", "stiffness", 1.0), mechdyn.InvalidArgument, "no force element"),
        (lambda: model.set_armature("elbow", -1.0), mechdyn.ModelError, "armature must not be negative"),
    ]
    for change, error, words in cases:
        with pytest.raises(error) as caught:
            change()
        assert words in str(caught.value), (words, str(caught.value))
        assert model.to_string() == text, words


def test_a_data_made_before_a_layout_change_is_refused():
    # Data holds per-element arrays and the compiled time functions: after an element is
    # added or removed, or a time function rewritten, an old Data would read out of range
    # or evaluate the old expression. A numeric change keeps it valid (and seen).
    # Catches: the binding trusting the C++ size check (which does not look at elements).
    model = pendulum()
    q, v = np.array([0.3, -0.2]), np.zeros(2)
    old = mechdyn.Data(model)
    model.force("spring").stiffness = 10.0
    assert mechdyn.force_elements(model, old, q, v)[0] == pytest.approx(mechdyn.applied_forces(model, q, v)[0])
    servo = model.add_joint_servo("servo", "shoulder", "t", 5.0)
    with pytest.raises(mechdyn.InvalidArgument, match="mechdyn.Data"):
        mechdyn.force_elements(model, old, q, v)
    with pytest.raises(mechdyn.InvalidArgument, match="mechdyn.Data"):
        mechdyn.crba(model, old, q)
    fresh = mechdyn.Data(model)
    assert mechdyn.force_elements(model, fresh, q, v, t=1.0)[0] == pytest.approx(
        mechdyn.applied_forces(model, q, v, t=1.0)[0])
    servo.target = "2*t"  # a new time function: the fresh Data's compiled target is stale
    with pytest.raises(mechdyn.InvalidArgument, match="mechdyn.Data"):
        mechdyn.force_elements(model, fresh, q, v)
    model.remove_force("servo")
    with pytest.raises(mechdyn.InvalidArgument, match="no force element 'servo'"):
        servo.stiffness
    assert model.force_names == ["spring", "hinge"]


def test_elements_survive_pickling_and_copies():
    # The YAML writer carries format 3 (pickle and copy go through it or the C++ copy).
    import copy
    import pickle
    model = pendulum()
    model.add_joint_stop("stop", "elbow", 400.0, lower=-0.5, damping=1.0)
    model.set_armature("elbow", 0.01)
    for other in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model), model.copy()):
        assert [e.to_dict() for e in other.forces][2] == {"name": "stop", "type": "joint-stop", "joint": "elbow",
                                                          "lower": -0.5, "upper": None, "stiffness": 400.0,
                                                          "damping": 1.0}
        assert np.allclose(other.armature, [0, 0.01])
        other.force("spring").stiffness = 1.0  # a copy is independent
        assert model.force("spring").stiffness == 60.0


def test_derivatives_match_central_differences_of_q_f():
    # ∂Q_f/∂q and ∂Q_f/∂v (exact, force_element_derivatives) against central differences
    # of applied_forces (h = 1e-6), with a servo and a time-dependent load at t = 0.7 and
    # the elbow pressed into a stop. Catches: a derivative of another state, the servo's
    # kd missing from ∂/∂v, the stop's damping sign.
    model = pendulum()
    model.add_joint_servo("servo", "shoulder", "0.5*sin(2*t)", 40, damping=3)
    model.add_applied("push", "forearm", [0.8, 0, 0], force=["0", "2*t", "0"])
    model.add_joint_stop("stop", "elbow", 400.0, upper=-0.1, damping=2.0)
    data = mechdyn.Data(model)
    q, v, t = np.array([0.4, 0.2]), np.array([-0.3, 0.5]), 0.7
    dq, dv = mechdyn.force_element_derivatives(model, data, q, v, t)
    h = 1e-6
    for k in range(2):
        e = np.eye(2)[k]
        fd_q = (mechdyn.applied_forces(model, q + h * e, v, t) - mechdyn.applied_forces(model, q - h * e, v, t)) / (2 * h)
        fd_v = (mechdyn.applied_forces(model, q, v + h * e, t) - mechdyn.applied_forces(model, q, v - h * e, t)) / (2 * h)
        assert np.allclose(dq[:, k], fd_q, atol=2e-6), k
        assert np.allclose(dv[:, k], fd_v, atol=2e-6), k
    assert data.element_value[model.force("stop").index] < 0.0  # in contact with the upper stop


def test_bushing_and_applied_load_against_hand_formulas():
    # A bushing from the ground (a) to the arm (b) at the arm's point (0.5, 0, 0), only the
    # shoulder turning by q about z: δ_t = R(q) p − p, δ_r = q e_z, V = ½ Σ K_t δ_t² + ½ K_rz q²;
    # Q_f = −dV/dq by central differences. An applied force F(t) = (0, 3 t, 0) at the arm's
    # tip: its generalized force on the shoulder is (R(q) [1, 0, 0] × F)_z = cos(q) 3 t and
    # 0 on the elbow (a point on the arm). Both changed through their views. Catches: the
    # bushing's K read as scalar, the load's time not reaching it, a parameter set on the
    # wrong element.
    model = pendulum()
    model.remove_force("spring")
    model.remove_force("hinge")
    model.gravity = [0, 0, 0]
    stiffness = np.array([300.0, 200.0, 100.0, 1.0, 2.0, 5.0])
    bush = model.add_bushing("bush", "ground", [0.5, 0, 0], "arm", [0.5, 0, 0], stiffness)
    p = np.array([0.5, 0.0])

    def energy(q, k):
        c, s = math.cos(q), math.sin(q)
        d = np.array([c * p[0] - s * p[1], s * p[0] + c * p[1]]) - p
        return 0.5 * (k[0] * d[0] ** 2 + k[1] * d[1] ** 2) + 0.5 * k[5] * q**2

    h = 1e-6
    for k in (stiffness, 2 * stiffness):
        bush.stiffness = k
        assert np.allclose(bush.stiffness, k)
        for q1 in (0.3, -0.8):
            q = np.array([q1, 0.4])
            applied = mechdyn.applied_forces(model, q, np.zeros(2))
            expected = -(energy(q1 + h, k) - energy(q1 - h, k)) / (2 * h)
            assert applied == pytest.approx([expected, 0.0], abs=1e-7)
            assert mechdyn.force_element_report(model, q, np.zeros(2))["potential_energy"] == pytest.approx(
                energy(q1, k), abs=1e-12)
    model.remove_force("bush")
    load = model.add_applied("load", "arm", [1.0, 0, 0], force=[0, 1, 0])
    load.force = ["0", "3*t", "0"]
    q = np.array([0.6, -0.9])
    assert mechdyn.applied_forces(model, q, np.zeros(2), t=2.0) == pytest.approx([math.cos(0.6) * 6.0, 0.0], abs=1e-12)
    # moved to the forearm's tip (0.8 m from the elbow): its moment arm about each joint
    load.body = "forearm"
    load.point = [0.8, 0, 0]
    tip = np.array([math.cos(0.6) + 0.8 * math.cos(-0.3), math.sin(0.6) + 0.8 * math.sin(-0.3)])
    elbow = np.array([math.cos(0.6), math.sin(0.6)])
    assert mechdyn.applied_forces(model, q, np.zeros(2), t=2.0) == pytest.approx(
        [tip[0] * 6.0, (tip - elbow)[0] * 6.0], abs=1e-12)


def test_closed_chain_run_with_a_spring_added_from_python_conserves_energy():
    # The four-bar with an undamped spring from the rocker to the ground, added from
    # Python: the closed-chain run's kinetic + potential energy (gravity's and the
    # spring's) stays constant (RK4 at 1 ms with projection: drift ~1e-6 of the swing),
    # and its force_value column is k (L − L0) with L from the rows' element energy
    # (V = ½ k (L − L0)² with T0 = 0). Catches: the spring's energy left out of the run's
    # potential energy, a column of another element.
    model = mechdyn.load_model(str(SOURCE / "examples" / "models" / "four_bar.yaml"))
    model.add_spring_damper("spring", "rocker", [0.3, 0, 0], "ground", [0.3, 0.4, 0], stiffness=50.0,
                            free_length=0.05)
    run = mechdyn.simulate_closed_chain(model, duration=1.0, step=1e-3, every=10)
    assert run.force_names == ["spring"] and run.coupling_effort.shape == (len(run.t), 0)
    energy = run.kinetic_energy + run.potential_energy
    swing = np.ptp(run.kinetic_energy)
    assert swing > 0.01 and np.ptp(energy) < 1e-5 * swing
    stretch = np.sqrt(2 * run.force_energy[:, 0] / 50.0)
    assert np.allclose(np.abs(run.force_value[:, 0]), 50.0 * stretch, atol=1e-9)


def test_inverse_run_equals_the_command_line_rows(tmp_path):
    # `mechdyn simulate --mode inverse` of the same file (another program's rows): tau,
    # the joint reactions with the elements' wrenches, the energies and the force_<name>_
    # columns. Catches: Python's rows leaving the elements' wrenches out of the reactions
    # (they were, before the elements had a Python side), columns in another order.
    path = SOURCE / "examples" / "models" / "spring_pendulum.yaml"
    model = mechdyn.load_model(str(path))
    out = subprocess.run([CLI, "simulate", str(path), "--mode", "inverse", "--accelerations", "1,-0.5",
                          "--duration", "0.2", "--step", "0.01", "--every", "5"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    header = out[0].split(",")
    rows = np.array([[float(x) for x in line.split(",")] for line in out[1:]])
    column = lambda name: rows[:, header.index(name)]  # noqa: E731
    run = mechdyn.simulate_inverse(model, accelerations=["1", "-0.5"], duration=0.2, step=0.01, every=5)
    assert np.allclose(run.t, column("t_s"), atol=0)
    assert np.allclose(run.tau[:, 0], column("tau_shoulder_N_m"), rtol=1e-12, atol=1e-12)
    for b, joint in enumerate(model.joint_names):
        for c, axis in enumerate("xyz"):
            assert np.allclose(run.reaction_force[:, b, c], column(f"reaction_{joint}_f{axis}_N"), atol=1e-12)
            assert np.allclose(run.reaction_torque[:, b, c], column(f"reaction_{joint}_t{axis}_N_m"), atol=1e-12)
    assert np.allclose(run.kinetic_energy, column("kinetic_energy_J"), atol=1e-12)
    assert np.allclose(run.potential_energy, column("potential_energy_J"), atol=1e-12)
    for k, name in enumerate(model.force_names):
        unit = "N_m" if model.force(name).type.startswith("joint") else "N"
        assert np.allclose(run.force_value[:, k], column(f"force_{name}_{unit}"), atol=1e-12)


GEARS = """
mechdyn: 3
name: gears
gravity: [0, 0, -9.81]
bodies:
  - name: disk_a
    parent: ground
    joint: {name: A, type: revolute, axis: [0, 0, 1], origin: [0, 0, 0]}
    mass: 1.0
    com: [0, 0, 0]
    inertia: {diag: [0.15, 0.15, 0.3]}
  - name: disk_b
    parent: ground
    joint: {name: B, type: revolute, axis: [0, 0, 1], origin: [1, 0, 0], actuated: false}
    mass: 1.0
    com: [0, 0, 0]
    inertia: {diag: [0.1, 0.1, 0.2]}
forces:
  - name: spring_b
    type: joint-spring-damper
    joint: B
    stiffness: 3
  - name: twist
    type: applied
    body: disk_a
    point: [0, 0, 0]
    torque: ["0", "0", "0.4*t"]
couplings:
  - name: gear
    type: gear
    a: A
    b: B
    ratio: -2.5
"""


def test_coupling_effort_at_one_state_equals_its_closed_form_and_the_command_line(tmp_path):
    # At a consistent state of the geared disks with a spring on B (−k q_b) and a torque
    # 0.4 t on A: I_b a_b = −k q_b + λ and I_a a_a = τ_a + 0.4 t − r λ, so
    # λ = I_b a_b + k q_b, τ_a = I_a a_a − 0.4 t + r λ. From Python: force_elements on the
    # Data, then closed_chain_inverse_dynamics (it reads the elements' efforts and wrenches
    # that force_elements left, as in C++); the command line's eval --a prints the
    # coupling's effort. Catches: the elements left out of the closed-chain balance, the
    # multiplier of another row.
    path = tmp_path / "gears.yaml"
    path.write_text(GEARS)
    model = mechdyn.load_model(str(path))
    r, k, t = -2.5, 3.0, 1.5
    q, v, a = np.array([0.2, r * 0.2]), np.array([0.5, r * 0.5]), np.array([1.0, r * 1.0])
    data = mechdyn.Data(model)
    mechdyn.force_elements(model, data, q, v, t)
    solved = mechdyn.closed_chain_inverse_dynamics(model, data, q, v, a)
    effort = 0.2 * a[1] + k * q[1]
    assert solved["multiplier"][model.coupling("gear").row] == pytest.approx(effort, rel=1e-12)
    assert solved["tau"][0] == pytest.approx(0.3 * a[0] - 0.4 * t + r * effort, rel=1e-12)
    cli = run_eval(path, q, v, a, t)
    assert cli["couplings"] == [{"name": "gear", "effort": pytest.approx(effort, rel=1e-12)}]


def test_load_model_adds_limit_stops_at_the_urdf_limits():
    # The stops sit at the limits the URDF states (read here from the file's text, not from
    # mechdyn): catches a stop at the wrong joint or limit, or the option being ignored.
    import xml.etree.ElementTree as ET

    path = str(SOURCE / "tests/data/robots/wam.urdf")
    limits = {}
    for joint in ET.parse(path).getroot().iter("joint"):
        limit = joint.find("limit")
        if joint.get("type") in ("revolute", "prismatic") and limit is not None:
            limits[joint.get("name")] = (float(limit.get("lower")), float(limit.get("upper")))
    plain = mechdyn.load_model(path)
    assert not any(e.type == "joint-stop" for e in plain.forces)
    model = mechdyn.load_model(path, limit_stops=(2e4, 15.0))
    stops = {e.name: e for e in model.forces if e.type == "joint-stop"}
    assert len(stops) == len(limits) > 0
    for name, (lower, upper) in limits.items():
        stop = stops[name + "_stop"]
        assert stop.lower == lower and stop.upper == upper
        assert stop.stiffness == 2e4 and stop.damping == 15.0
    only_k = mechdyn.load_model(path, limit_stops=1e3)
    assert all(e.damping == 0.0 for e in only_k.forces if e.type == "joint-stop")
    for bad in (0.0, -1.0, (1e3, -1.0), (1, 2, 3), "stiff", float("nan")):
        with pytest.raises(mechdyn.InvalidArgument, match="limit_stops"):
            mechdyn.load_model(path, limit_stops=bad)
