# mechdyn.linearize, static_equilibrium and natural_frequencies of rigid models (issue 27;
# docs/linearisation.md, docs/python.md): the binding against the CLI's JSON (the same
# computation: catches a wrong default, option or locked set in the binding), against closed
# forms (a point-mass pendulum, a pendulum on a spring at rest and moving), and
# scipy.signal.StateSpace taking the result as it is.
import json
import math
import subprocess

import numpy as np
import pytest

import mechdyn

G = 9.81


def cli_json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout)


def csv(x):
    return ",".join(repr(float(v)) for v in x)


CASES = [
    # model, q, v, extra (tau, t, inputs, outputs)
    ("iftomm_four_bar_spring.yaml", [0.1, -0.1, 0.1], [0.2, -0.2, 0.2], {}),
    ("elastic_pendulum.yaml", [0.3, 1.05], [0.7, -0.2], {"outputs": ["bob", "bob_velocity", "q_swing"]}),
    ("servo_arm.yaml", [0.2, -0.4], [0.5, 1.0], {"t": 0.7, "inputs": ["target_servo_shoulder", "tau_elbow"]}),
    ("planar_3dof_arm.yaml", [0.1, 0.0, -0.3], [0.0, 0.3, 0.1], {"tau": [0.5, -0.2, 0.1]}),
    ("four_bar.yaml", None, None, {}),
]


@pytest.mark.parametrize("name,q,v,extra", CASES)
def test_linearize_equals_the_cli(source, cli, name, q, v, extra):
    # Same model, state and options through both doors: the matrices must agree to the last
    # printed digit (%.17g), the names exactly. Catches an option the binding drops or passes wrongly.
    path = source / "examples/models" / name
    if not path.exists():
        pytest.skip(f"{name} not in examples/models")
    model = mechdyn.load_model(str(path))
    if q is None:
        q = model.initial_configuration()
        v = np.zeros(model.nv)
    args = ["linearize", str(path), "--q", csv(q), "--v", csv(v)]
    if "tau" in extra:
        args += ["--tau", csv(extra["tau"])]
    if "t" in extra:
        args += ["--t", repr(extra["t"])]
    if "inputs" in extra:
        args += ["--inputs", ",".join(extra["inputs"])]
    if "outputs" in extra:
        args += ["--outputs", ",".join(extra["outputs"])]
    ref = cli_json(cli, *args)
    lm = mechdyn.linearize(model, np.asarray(q, float), np.asarray(v, float), tau=extra.get("tau"), t=extra.get("t", 0.0),
                           inputs=extra.get("inputs"), outputs=extra.get("outputs"))
    for key in ("state", "inputs", "outputs", "independent"):
        assert lm[key] == ref[key], key
    for key in ("A", "B", "C", "D"):
        want = np.array(ref[key], dtype=float).reshape(lm[key].shape)
        np.testing.assert_array_equal(lm[key], want, err_msg=key)
    np.testing.assert_array_equal(lm["q"], ref["q"])
    np.testing.assert_array_equal(lm["v"], ref["v"])


def test_names_as_a_comma_separated_string_or_a_list_agree(source):
    model = mechdyn.load_model(str(source / "examples/models/servo_arm.yaml"))
    q, v = np.array([0.2, -0.4]), np.zeros(2)
    a = mechdyn.linearize(model, q, v, inputs="target_servo_shoulder,tau_elbow")
    b = mechdyn.linearize(model, q, v, inputs=["target_servo_shoulder", "tau_elbow"])
    assert a["inputs"] == b["inputs"] == ["target_servo_shoulder", "tau_elbow"]
    np.testing.assert_array_equal(a["B"], b["B"])


def test_point_mass_pendulum_closed_form(source):
    # A01: a 1 kg point mass on a 1 m massless link, q from the horizontal (+x). Hanging
    # (q = -pi/2): theta'' = -(g/l) theta, so A = [[0, 1], [-g/l, 0]], B = [0; 1/(m l^2)].
    # At q from the horizontal in general: q'' = -(g/l) cos q + tau/(m l^2), so
    # dq''/dq = (g/l) sin q. Catches a gravity derivative with the wrong sign or scale.
    model = mechdyn.load_model(str(source / "examples/models/iftomm_a01_pendulum.yaml"))
    lm = mechdyn.linearize(model, [-math.pi / 2], [0.0])
    np.testing.assert_allclose(lm["A"], [[0.0, 1.0], [-G, 0.0]], atol=1e-12)
    np.testing.assert_allclose(lm["B"], [[0.0], [1.0]], atol=1e-12)
    assert lm["state"] == ["q_pivot", "v_pivot"] and lm["inputs"] == ["tau_pivot"]
    np.testing.assert_array_equal(lm["C"], np.eye(2))
    assert lm["D"].shape == (2, 1) and not lm["D"].any()
    for q in (0.3, -1.0, 2.0):
        lm = mechdyn.linearize(model, [q], [0.0])
        np.testing.assert_allclose(lm["A"], [[0.0, 1.0], [G * math.sin(q), 0.0]], atol=1e-12)
        np.testing.assert_allclose(lm["a"], [-G * math.cos(q)], atol=1e-12)


def elastic_pendulum_a(theta, r, theta_dot, r_dot, m=1.0, k=100.0, c=2.0, r0=0.9):
    # x = (theta, r, theta', r') of elastic_pendulum.yaml (its header):
    #   r'' = r theta'^2 + g cos theta - (k/m)(r - r0) - (c/m) r'
    #   theta'' = (-g sin theta - 2 r' theta') / r
    a = np.zeros((4, 4))
    a[0, 2] = a[1, 3] = 1.0
    a[2] = [-G * math.cos(theta) / r, (G * math.sin(theta) + 2 * r_dot * theta_dot) / r ** 2, -2 * r_dot / r,
            -2 * theta_dot / r]
    a[3] = [-G * math.sin(theta), theta_dot ** 2 - k / m, 2 * r * theta_dot, -c / m]
    return a


def test_pendulum_on_a_spring_closed_form(source):
    # At rest the swing and the spring decouple; moving, the centripetal (r theta'^2) and
    # Coriolis (2 r' theta') terms couple them. Catches velocity derivatives left out of A.
    model = mechdyn.load_model(str(source / "examples/models/elastic_pendulum.yaml"))
    for state in ((0.0, 0.9981, 0.0, 0.0), (0.3, 1.05, 0.7, -0.2), (-1.2, 0.8, -2.0, 0.5)):
        lm = mechdyn.linearize(model, state[:2], state[2:])
        assert lm["state"] == ["q_swing", "q_slide", "v_swing", "v_slide"]
        np.testing.assert_allclose(lm["A"], elastic_pendulum_a(*state), rtol=0, atol=1e-10)
    modes = mechdyn.natural_frequencies(model)
    r = 0.9 + G / 100.0
    np.testing.assert_allclose(modes["frequencies"], [math.sqrt(G / r) / (2 * math.pi), 10.0 / (2 * math.pi)], rtol=1e-12)
    assert modes["stable"] is True and modes["damped_model"] is True
    np.testing.assert_allclose(sorted(modes["damped"][:, 1]), [0.0, 0.1], atol=1e-12)
    np.testing.assert_allclose(sorted(modes["eigenvalues"], key=lambda z: (abs(z.imag), z.imag)),
                               [-1j * math.sqrt(G / r), 1j * math.sqrt(G / r), -1 - 1j * math.sqrt(99), -1 + 1j * math.sqrt(99)],
                               atol=1e-10)
    # the mode shapes: the swing moves the bob sideways by r* per radian, the spring along the rod
    shapes = modes["marker_shapes"]
    assert shapes.shape == (2, 1, 3) and modes["marker_names"] == ["bob"]
    np.testing.assert_allclose(shapes[0, 0] / np.linalg.norm(shapes[0, 0]), [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(shapes[1, 0] / np.linalg.norm(shapes[1, 0]), [0, -1, 0], atol=1e-12)
    np.testing.assert_allclose(modes["shapes"][0, 0] * r, np.linalg.norm(shapes[0, 0]), rtol=1e-12)


def test_scipy_state_space_takes_the_result(source):
    signal = pytest.importorskip("scipy.signal")
    model = mechdyn.load_model(str(source / "examples/models/servo_arm.yaml"))
    lm = mechdyn.linearize(model, [0.0, 0.0], [0.0, 0.0], outputs=["q_elbow"], inputs=["target_servo_elbow"])
    system = signal.StateSpace(lm["A"], lm["B"], lm["C"], lm["D"])
    np.testing.assert_array_equal(system.A, lm["A"])
    assert system.B.shape == (4, 1) and system.C.shape == (1, 4)
    # one input, one output: its poles are the eigenvalues of A, and its DC gain is the static
    # elbow response to its target: K^-1 Kp (stiffness = Kp + dG/dq at this state)
    np.testing.assert_allclose(sorted(system.poles, key=lambda z: (z.real, z.imag)),
                               sorted(np.linalg.eigvals(lm["A"]), key=lambda z: (z.real, z.imag)), rtol=1e-8)
    gain = (lm["C"] @ np.linalg.solve(-lm["A"], lm["B"]) + lm["D"])[0, 0]
    _, response = signal.step(system, T=np.linspace(0.0, 2.0, 2001))
    assert response[-1] == pytest.approx(gain, rel=1e-6)
    full = mechdyn.linearize(model, [0.0, 0.0], [0.0, 0.0])  # 4 states, 2 inputs, 4 outputs
    signal.StateSpace(full["A"], full["B"], full["C"], full["D"])


def test_static_and_modes_equal_the_cli(source, cli):
    # The rigid path of static_equilibrium / natural_frequencies against `mechdyn static` /
    # `modes` with the same options: catches a dropped tau, t, locked or v.
    four_bar = str(source / "examples/models/iftomm_four_bar_spring.yaml")
    rrru = str(source / "examples/models/rrru_3_rigid.yaml")
    servo = str(source / "examples/models/servo_arm.yaml")
    cases = [
        (four_bar, dict(locked="none", q0=[0.5, -0.5, 0.5]), ["--locked", "none", "--q", "0.5,-0.5,0.5"]),
        (four_bar, dict(), []),
        (rrru, dict(locked="none", q0=None), ["--locked", "none"]),
        (servo, dict(locked="none", t=0.1, tau=[1.0, -0.5]), ["--locked", "none", "--t", "0.1", "--tau", "1,-0.5"]),
    ]
    for path, kwargs, args in cases:
        model = mechdyn.load_model(path)
        if kwargs.get("q0") is None and "rrru" in path:
            q0 = model.initial_configuration()
            for name in ("A1", "A2", "A3"):
                q0[model.joint(name)["q_index"]] = 0.5
            kwargs["q0"] = q0
            args = args + ["--q", "A1=0.5,A2=0.5,A3=0.5"]
        eq = mechdyn.static_equilibrium(model, **kwargs)
        ref = cli_json(cli, "static", path, *args)
        np.testing.assert_array_equal(eq["q"], ref["q"])
        assert eq["stable"] == ref["stable"] and eq["free"] == ref["free"] and eq["locked"] == ref["locked"]
        assert eq["iterations"] == ref["iterations"]
        np.testing.assert_array_equal(eq["stiffness_eigenvalues"], ref["stiffness_eigenvalues"])
        np.testing.assert_array_equal(eq["held_efforts"], ref["held_efforts"])
        for name, row in zip(eq["marker_names"], eq["markers"]):
            np.testing.assert_array_equal(row, next(m["position"] for m in ref["markers"] if m["name"] == name))
        modes = mechdyn.natural_frequencies(model, **kwargs)
        ref = cli_json(cli, "modes", path, *args)
        np.testing.assert_array_equal(modes["frequencies"], ref["frequencies"])
        assert modes["zero_modes"] == ref["zero_modes"] and modes["locked"] == ref["locked"]
        assert modes["free"] == ref["free"] and modes["unstable_modes"] == ref.get("unstable_modes", 0)
        np.testing.assert_array_equal(modes["q"], ref["q"])
        assert modes["stable"] == eq["stable"]
        if "damped" in ref:
            np.testing.assert_array_equal(modes["damped"], [[d["frequency"], d["damping_ratio"]] for d in ref["damped"]])
            np.testing.assert_array_equal(modes["eigenvalues"], [complex(re, im) for re, im in ref["eigenvalues"]])
        else:
            assert not modes["damped_model"] and modes["eigenvalues"].size == 0
        for k, shape in enumerate(ref["shapes"]):
            np.testing.assert_array_equal(modes["shapes"][:, k], shape["v"])
            for m, marker in enumerate(shape["markers"]):
                assert modes["marker_names"][m] == marker["name"]
                np.testing.assert_array_equal(modes["marker_shapes"][k, m], marker["displacement"])


def test_modes_about_a_given_state_equal_the_cli(source, cli):
    path = str(source / "examples/models/elastic_pendulum.yaml")
    model = mechdyn.load_model(path)
    modes = mechdyn.natural_frequencies(model, q0=[0.3, 1.05], v=[0.7, -0.2])
    ref = cli_json(cli, "modes", path, "--q", "0.3,1.05", "--v", "0.7,-0.2")
    np.testing.assert_array_equal(modes["frequencies"], ref["frequencies"])
    np.testing.assert_array_equal(modes["eigenvalues"], [complex(re, im) for re, im in ref["eigenvalues"]])
    assert modes["stable"] is None and modes["equilibrium"] is None
    np.testing.assert_array_equal(modes["v"], [0.7, -0.2])


def test_arguments_are_checked(source):
    rigid = mechdyn.load_model(str(source / "examples/models/elastic_pendulum.yaml"))
    with pytest.raises(mechdyn.InvalidArgument, match="q"):
        mechdyn.linearize(rigid, [0.0], [0.0, 0.0])
    with pytest.raises(mechdyn.InvalidArgument, match="tau"):
        mechdyn.linearize(rigid, [0.0, 1.0], [0.0, 0.0], tau=[1.0])
    with pytest.raises(mechdyn.InvalidArgument, match="finite"):
        mechdyn.linearize(rigid, [0.0, 1.0], [0.0, 0.0], t=float("nan"))
    with pytest.raises(mechdyn.InvalidArgument, match="nosuch"):
        mechdyn.linearize(rigid, [0.0, 1.0], [0.0, 0.0], outputs=["nosuch"])
    with pytest.raises(mechdyn.InvalidArgument, match="list of names"):
        mechdyn.linearize(rigid, [0.0, 1.0], [0.0, 0.0], inputs=3)
    with pytest.raises(mechdyn.InvalidArgument, match="locked"):
        mechdyn.static_equilibrium(rigid, locked="some")
    flexible = mechdyn.load_model(str(source / "examples/models/flexible_arm.yaml"))
    # a model with flexible bodies: every coordinate is a state; named outputs are refused
    lin = mechdyn.linearize(flexible, flexible.neutral_configuration(), np.zeros(flexible.nv))
    assert lin["A"].shape == (2 * flexible.nv, 2 * flexible.nv)
    with pytest.raises(mechdyn.InvalidArgument, match="flexible"):
        mechdyn.linearize(flexible, flexible.neutral_configuration(), np.zeros(flexible.nv), outputs=["tip"])
    # flexible models take tau, t, v and locked='none' (flexible/equilibrium.hpp), not named
    # independent coordinates (the constraints are eliminated by a null-space basis)
    with pytest.raises(mechdyn.InvalidArgument, match="flexible"):
        mechdyn.natural_frequencies(flexible, independent=["link1"])
    with pytest.raises(mechdyn.InvalidArgument, match="flexible"):
        mechdyn.static_equilibrium(flexible, independent=["link1"])
