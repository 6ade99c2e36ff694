# The Python bindings against independent routes: each C++ algorithm through Python vs a
# second algorithm (CRBA vs the literal EJ double sum, ABA vs M⁻¹(τ − h), RNEA vs the
# explicit method), vs `mechdyn eval --json` of the command line, vs finite differences,
# and the model readers across formats. A test names the bug it would catch.
import gc
import json
import pickle
import subprocess

import numpy as np
import pytest

import mechdyn
from conftest import random_state

TREES = ["examples/models/five_axis_tree.yaml", "examples/models/panda_7dof.yaml",
         "examples/models/floating_base.yaml", "tests/data/robots/wam.urdf",
         "tests/data/robots/half_cheetah.xml"]


@pytest.mark.filterwarnings("ignore::mechdyn.ModelWarning")  # half_cheetah.xml: passive joints
@pytest.mark.parametrize("path", TREES)
def test_mass_matrix_and_dynamics_agree_between_algorithms(source, path):
    # Catches a binding that passes the wrong argument, reads the wrong Data buffer, or a
    # view with wrong strides (M is read through both C-order and Fortran-order views).
    model = mechdyn.load_model(str(source / path))
    data = mechdyn.Data(model)
    rng = np.random.default_rng(7)
    for _ in range(3):
        q, v, a = random_state(model, rng)
        M = mechdyn.crba(model, data, q).copy()
        M_direct = mechdyn.explicit_mass_matrix_direct(model, data, q).copy()  # EJ literal O(n³)
        scale = max(1.0, np.abs(M).max())
        assert np.abs(M - M_direct).max() <= 1e-12 * scale
        assert np.abs(M - M.T).max() <= 1e-12 * scale
        h = mechdyn.rnea(model, data, q, v, np.zeros(model.nv)).copy()
        h_explicit = mechdyn.explicit_bias_force(model, data, q, v).copy()
        assert np.abs(h - h_explicit).max() <= 1e-10 * max(1.0, np.abs(h).max())
        tau = mechdyn.rnea(model, data, q, v, a).copy()
        assert np.allclose(tau, M @ a + h, rtol=0, atol=1e-10 * max(1.0, np.abs(tau).max()))
        assert np.allclose(mechdyn.explicit_inverse_dynamics(model, data, q, v, a), tau, rtol=0,
                           atol=1e-10 * max(1.0, np.abs(tau).max()))
        # ABA and the explicit Lᵀ D L against numpy's solve of M a = τ − h.
        expected = np.linalg.solve(M, tau - h)
        assert np.allclose(mechdyn.aba(model, data, q, v, tau), expected, rtol=0, atol=1e-8)
        assert np.allclose(mechdyn.explicit_forward_dynamics(model, data, q, v, tau), expected, rtol=0, atol=1e-8)
        assert np.allclose(expected, a, rtol=0, atol=1e-7)


def run_eval(cli, path, q, v, a=None, tau=None):
    fmt = lambda x: ",".join(repr(float(e)) for e in x)
    args = [cli, "eval", path, "--q", fmt(q), "--v", fmt(v), "--json"]
    if a is not None:
        args += ["--a", fmt(a)]
    if tau is not None:
        args += ["--tau", fmt(tau)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("path", ["examples/models/five_axis_tree_stribeck.yaml", "tests/data/robots/wam.urdf",
                                  "examples/models/four_bar.yaml"])
def test_values_equal_the_command_line_eval(source, cli, path):
    # The same state through `mechdyn eval --json` (another process, the contract
    # ../shared/spec/eval-json.md): catches a binding computing at another state (argument
    # order, a stale kinematics stage) or returning another quantity than the CLI's.
    model = mechdyn.load_model(str(source / path))
    data = mechdyn.Data(model)
    q, v, a = random_state(model, np.random.default_rng(3))
    tau = np.linspace(-1.0, 1.0, model.nv)
    ref = run_eval(cli, str(source / path), q, v, a=a)
    ref_forward = run_eval(cli, str(source / path), q, v, tau=tau)
    assert np.abs(mechdyn.crba(model, data, q) - np.array(ref["mass_matrix"])).max() <= 1e-12
    assert np.abs(mechdyn.explicit_bias_force(model, data, q, v) - np.array(ref["bias"])).max() <= 1e-11
    assert np.abs(mechdyn.explicit_gravity_force(model, data, q) - np.array(ref["gravity"])).max() <= 1e-11
    assert np.abs(mechdyn.explicit_inverse_dynamics(model, data, q, v, a) - np.array(ref["tau"])).max() <= 1e-11
    force, torque = mechdyn.joint_reactions(model, data, q, v, a)
    for i, r in enumerate(ref["reactions"]):
        assert np.abs(force[i] - r["force"]).max() <= 1e-10
        assert np.abs(torque[i] - r["torque"]).max() <= 1e-10
    mechdyn.forward_kinematics(model, data, q)
    for i, pose in enumerate(ref["body_poses"]):
        assert np.abs(data.position[i] - pose["position"]).max() <= 1e-13
        assert np.abs(data.rotation[i] - np.array(pose["rotation"])).max() <= 1e-13  # (n,3,3) view strides
    if "tau_with_friction" in ref:
        tf = mechdyn.inverse_dynamics_with_friction(model, data, q, v, a, lugre="steady_state")
        assert np.abs(tf - np.array(ref["tau_with_friction"])).max() <= 1e-10
    if "loops" in ref:
        residual, jacobian = mechdyn.loop_closure(model, data, q)
        assert np.abs(residual - ref["loops"]["residual"]).max() <= 1e-13
        assert np.abs(jacobian - np.array(ref["loops"]["jacobian"])).max() <= 1e-12
    else:
        assert np.abs(mechdyn.explicit_forward_dynamics(model, data, q, v, tau) - ref_forward["a"]).max() <= 1e-9


def test_point_jacobian_matches_finite_differences(source):
    # Catches a Jacobian with the wrong body, point frame or column layout.
    model = mechdyn.load_model(str(source / "examples/models/panda_7dof.yaml"))
    data = mechdyn.Data(model)
    q, _, _ = random_state(model, np.random.default_rng(11))
    body, point = model.num_bodies - 1, np.array([0.1, -0.05, 0.2])
    mechdyn.forward_kinematics(model, data, q)
    J = mechdyn.point_jacobian(model, data, body, point)
    Jb = mechdyn.body_jacobian(model, data, model.body_names[body])
    assert J.shape == (3, model.nv) and Jb.shape == (6, model.nv)
    eps = 1e-6
    for k in range(model.nv):  # revolute joints: q ⊕ dq is q + dq
        dq = np.zeros(model.nq)
        dq[k] = eps
        mechdyn.forward_kinematics(model, data, q + dq)
        plus = mechdyn.point_position(model, data, body, point)
        mechdyn.forward_kinematics(model, data, q - dq)
        minus = mechdyn.point_position(model, data, body, point)
        assert np.abs((plus - minus) / (2 * eps) - J[:, k]).max() <= 1e-8
    # The point velocity from the body Jacobian: v_p = v_O + ω × (p − O)
    mechdyn.forward_kinematics(model, data, q)
    p_world = mechdyn.point_position(model, data, body, point)
    lever = p_world - data.position[body]
    assert np.abs(Jb[3:] + np.cross(Jb[:3].T, lever).T - J).max() <= 1e-12  # v_p = v_O + ω × (p − O)


def test_zero_copy_views(source):
    # The views share the C++ buffers: catches a property or a result that copies (stale
    # values, lost writes) or one whose buffer moves between calls.
    model = mechdyn.load_model(str(source / "examples/models/five_axis_tree.yaml"))
    data = mechdyn.Data(model)
    q, v, a = random_state(model, np.random.default_rng(5))
    M = mechdyn.crba(model, data, q)
    assert np.shares_memory(M, data.mass_matrix)
    address = data.mass_matrix.__array_interface__["data"][0]
    tau = mechdyn.rnea(model, data, q, v, a)
    assert np.shares_memory(tau, data.tau)
    first = tau.copy()
    mechdyn.rnea(model, data, q, v, 2 * a)  # the next call writes the same buffer
    assert not np.allclose(tau, first)  # the old result changed: copy what you keep
    assert tau.__array_interface__["data"][0] == data.tau.__array_interface__["data"][0]
    mechdyn.crba(model, data, 0.5 * q)
    assert data.mass_matrix.__array_interface__["data"][0] == address
    # Writes through a view are what C++ reads: friction_state is an input of LuGre.
    data.friction_state[:] = 0.25
    assert np.all(data.friction_state == 0.25)
    # Keep-alive: a result outlives every other reference to its Data.
    M2 = mechdyn.crba(model, mechdyn.Data(model), q)
    gc.collect()
    mechdyn.crba(model, mechdyn.Data(model), 0 * q)  # reuse of freed memory would show here
    assert np.allclose(M2, mechdyn.crba(model, data, q))


def test_data_must_belong_to_the_model(source):
    # A Data of another model would be read out of bounds in C++: refused instead.
    a = mechdyn.load_model(str(source / "examples/models/five_axis_tree.yaml"))
    b = mechdyn.load_model(str(source / "examples/models/five_axis_tree.yaml"))
    with pytest.raises(mechdyn.InvalidArgument, match="data was made for model"):
        mechdyn.crba(a, mechdyn.Data(b), a.neutral_configuration())


def test_bad_arrays_raise_not_crash(source):
    # Wrong shapes and dtypes must raise with the argument's name, never reach C++.
    model = mechdyn.load_model(str(source / "examples/models/five_axis_tree.yaml"))
    data = mechdyn.Data(model)
    q = np.zeros(5)
    cases = [np.zeros(4), np.zeros(6), np.zeros((5, 1)), np.zeros((1, 5)), np.zeros(5, dtype=complex),
             np.array(["a"] * 5), np.array([object()] * 5), None, "12345", 3.0, [[0.0] * 5], np.zeros(5, dtype=bool)]
    for bad in cases:
        with pytest.raises(mechdyn.InvalidArgument, match="q must be a 1-D array of nq = 5"):
            mechdyn.crba(model, data, bad)
        with pytest.raises(mechdyn.InvalidArgument, match="must be a 1-D array"):
            mechdyn.rnea(model, data, q, q, bad)
        with pytest.raises((TypeError, ValueError)):
            mechdyn.aba(model, data, q, bad, q)
    # Accepted: lists, integers, float32, strided slices — converted, same values.
    M = mechdyn.crba(model, data, np.full(5, 0.5)).copy()
    assert np.array_equal(mechdyn.crba(model, data, [0.5] * 5), M)
    assert np.array_equal(mechdyn.crba(model, data, np.full(10, 0.5)[::2]), M)
    assert np.array_equal(mechdyn.crba(model, data, np.full(5, 0.5, dtype=np.float32)), M)
    # Non-finite values: the C++ entry checks (InvalidArgument, one line naming the argument).
    with pytest.raises(mechdyn.InvalidArgument):
        mechdyn.rnea(model, data, q, q, np.array([0, 0, np.nan, 0, 0.0]))
    with pytest.raises(mechdyn.InvalidArgument):
        mechdyn.body_jacobian(model, mechdyn.Data(model), 0)  # no kinematics yet
    with pytest.raises(mechdyn.InvalidArgument, match="no body 'nope'"):
        mechdyn.forward_kinematics(model, data, q)
        mechdyn.body_jacobian(model, data, "nope")
    with pytest.raises(mechdyn.InvalidArgument):
        mechdyn.body_jacobian(model, data, 99)
    with pytest.raises(TypeError):
        mechdyn.crba("model", data, q)  # pybind11's own argument check


def test_model_errors_carry_the_one_line_message(source, tmp_path):
    # The exception text is the CLI's line without "mechdyn: "; catches a translator that
    # loses the message or the type.
    with pytest.raises(mechdyn.ModelError) as error:
        mechdyn.parse_model_string("name: x\nbodies: [", "broken.yaml")
    assert "broken.yaml" in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(mechdyn.ModelError, match="nope.urdf"):
        mechdyn.load_model(str(tmp_path / "nope.urdf"))
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='r'><link name='a'>")
    with pytest.raises(mechdyn.ModelError):
        mechdyn.load_model(str(bad))
    with pytest.raises(mechdyn.InvalidArgument, match="unknown model format"):
        mechdyn.load_model_from_string("", "step")
    model = mechdyn.load_model(str(source / "examples/models/five_axis_tree.yaml"))
    with pytest.raises(mechdyn.ModelError, match="triangle|inertia"):
        model.set_body_inertia(model.body_names[0], np.diag([1.0, 1.0, 3.0]))
    assert issubclass(mechdyn.SolverError, RuntimeError)
    assert issubclass(mechdyn.ModelError, mechdyn.Error) and issubclass(mechdyn.InvalidArgument, ValueError)


def test_reader_warnings_become_python_warnings(source):
    # The reader's warnings (what it changed or ignored) reach Python as ModelWarning,
    # pointing at the caller's line; catches warnings lost in the bindings.
    with pytest.warns(mechdyn.ModelWarning, match="without an actuator are passive") as caught:
        mechdyn.load_model(str(source / "tests/data/robots/half_cheetah.xml"))
    assert caught[0].filename == __file__


def test_robot_files_round_trip_through_python(source):
    # URDF in, MJCF and YAML out, read back: the same M and h (catches a format name or
    # an option mapped wrongly in the bindings).
    model = mechdyn.load_model(str(source / "tests/data/robots/wam.urdf"))
    data = mechdyn.Data(model)
    q, v, _ = random_state(model, np.random.default_rng(2))
    M = mechdyn.crba(model, data, q).copy()
    h = mechdyn.explicit_bias_force(model, data, q, v).copy()
    for fmt in ("mjcf", "yaml", "urdf"):
        other = mechdyn.load_model_from_string(model.to_string(fmt), fmt)
        od = mechdyn.Data(other)
        assert np.abs(mechdyn.crba(other, od, q) - M).max() <= 1e-10
        assert np.abs(mechdyn.explicit_bias_force(other, od, q, v) - h).max() <= 1e-9
    copy = pickle.loads(pickle.dumps(model))
    assert np.abs(mechdyn.crba(copy, mechdyn.Data(copy), q) - M).max() <= 1e-12


def test_friction_inverse_and_forward_are_inverse(source):
    # Sliding joints (v ≠ 0): forward dynamics with friction at the efforts of inverse
    # dynamics with friction returns the accelerations (EC eq. 54 both ways). Catches a
    # friction binding that drops τ_f or reads a stale state.
    model = mechdyn.load_model(str(source / "examples/models/five_axis_tree_coulomb_viscous.yaml"))
    data = mechdyn.Data(model)
    assert mechdyn.has_joint_friction(model)
    q, v, a = random_state(model, np.random.default_rng(4))
    tau_d = mechdyn.inverse_dynamics_with_friction(model, data, q, v, a).copy()
    tau = mechdyn.explicit_inverse_dynamics(model, data, q, v, a).copy()
    assert np.abs(tau_d - tau).max() > 1e-6  # friction does something
    assert np.allclose(mechdyn.forward_dynamics_with_friction(model, data, q, v, tau_d), a, rtol=0, atol=1e-9)


def test_closed_chain_dynamics(source):
    # Four-bar: assembly closes Φ; constrained forward dynamics satisfies J a = −J̇ v; the
    # closed-chain inverse dynamics at that a returns the actuated effort applied.
    model = mechdyn.load_model(str(source / "examples/models/four_bar.yaml"))
    data = mechdyn.Data(model)
    assembled = mechdyn.assemble(model, data, model.initial_configuration())
    q = assembled["q"]
    residual, J = mechdyn.loop_closure(model, data, q)
    assert np.abs(residual).max() <= 1e-12
    J = J.copy()
    v = mechdyn.project_velocities(model, data, q, np.ones(model.nv))
    assert np.abs(J @ v).max() <= 1e-10
    rank = mechdyn.constraint_rank(model, data, q)
    assert rank["mobility"] == 1
    mobility = mechdyn.analyze_mobility(model, q)
    assert mobility["dof"] == 1
    tau = np.zeros(model.nv)
    actuated = [model.joint(n)["v_index"] for n in model.joint_names if model.joint(n)["actuated"]]
    tau[actuated] = 0.7
    a = mechdyn.constrained_forward_dynamics(model, data, q, v, tau).copy()
    bias = mechdyn.loop_bias_acceleration(model, data, q, v).copy()
    assert np.abs(J @ a + bias).max() <= 1e-9
    result = mechdyn.closed_chain_inverse_dynamics(model, data, q, v, a)
    assert np.allclose(result["tau"][actuated], 0.7, rtol=0, atol=1e-8)


def test_simulate_conserves_energy_and_equals_the_cli(source, cli, tmp_path):
    # A free motion (τ = 0) of the 7-DoF arm keeps T + V (RK4, 1 ms): catches a wrong
    # state layout or efforts. The same run through `mechdyn simulate` gives the same rows.
    path = str(source / "examples/models/planar_3dof_arm.yaml")
    model = mechdyn.load_model(path)
    data = mechdyn.Data(model)
    q0 = np.array([0.3, -0.2, 0.1])
    run = mechdyn.simulate(model, q0=q0, tau=["0", "0", "0.5*sin(t)"], duration=0.5, step=1e-3, every=10)
    assert run.q.shape == (51, 3) and run.t[-1] == 0.5
    out = tmp_path / "arm.csv"
    subprocess.run([cli, "simulate", path, "--q0", "0.3,-0.2,0.1", "--tau", "0,0,0.5*sin(t)", "--duration", "0.5",
                    "--step", "1e-3", "--every", "10", "--output", str(out)], check=True, capture_output=True)
    table = np.genfromtxt(out, delimiter=",", names=True)
    names = table.dtype.names
    q_cli = np.column_stack([table[n] for n in names if n.startswith("q_")])
    assert np.abs(q_cli - run.q).max() <= 1e-12
    free = mechdyn.simulate(model, q0=q0, v0=[0.5, 0, -0.5], duration=1.0, step=1e-3)
    energy = [mechdyn.kinetic_energy(model, data, q, v) + mechdyn.potential_energy(model, data, q)
              for q, v in zip(free.q, free.v)]
    assert np.ptp(energy) <= 1e-8 * max(1.0, abs(energy[0]))
    # A callable input: same as the expression.
    called = mechdyn.simulate(model, q0=q0, tau=lambda t, q, v: [0.0, 0.0, 0.5 * np.sin(t)], duration=0.5,
                              step=1e-3, every=10)
    assert np.abs(called.q - run.q).max() <= 1e-12
    with pytest.raises(mechdyn.InvalidArgument, match="tau"):
        mechdyn.simulate(model, tau=lambda t, q, v: [0.0], duration=0.01)
    with pytest.raises(mechdyn.InvalidArgument, match="tau"):
        mechdyn.simulate(model, tau=["0", "0", "sin("], duration=0.01)
    with pytest.raises(mechdyn.SolverError):
        mechdyn.simulate(mechdyn.load_model(str(source / "examples/models/lunar_rover_rocker.yaml")), duration=0.01)


def schoenflies_motion(t):
    """A 3T1R motion of the Schoenflies platform from its initial pose (p0, R0 = 1): a
    small translation and a rotation θ = 0.1 sin t about the world z axis, with exact
    derivatives (columns of the body-motion CSV contract)."""
    th, thd, thdd = 0.1 * np.sin(t), 0.1 * np.cos(t), -0.1 * np.sin(t)
    p = np.array([0.0, 0.3, 1.0]) + np.column_stack([0.02 * np.sin(t), 0.01 * (1 - np.cos(t)), 0.01 * np.sin(t)])
    v = np.column_stack([0.02 * np.cos(t), 0.01 * np.sin(t), 0.01 * np.cos(t)])
    a = np.column_stack([-0.02 * np.sin(t), 0.01 * np.cos(t), -0.01 * np.sin(t)])
    z = np.zeros_like(t)
    quaternion = np.column_stack([np.cos(th / 2), z, z, np.sin(th / 2)])
    return np.column_stack([t, p, quaternion, v, np.column_stack([z, z, thd]), a, np.column_stack([z, z, thdd])])


def test_motion_inverse_dynamics_agrees_between_methods_and_with_the_cli(source, cli, tmp_path):
    # The momentum screw, Newton–Euler (every joint wrench) and the closed-chain method
    # (λ of the cut joints) are three algorithms; `mechdyn invdyn --motion FILE.csv` is the command line on the same
    # samples. Catches motion columns read in the wrong order (quaternion w first) or the
    # efforts of the wrong coordinates.
    path = str(source / "examples/models/schoenflies_2ups_2upu.yaml")
    model = mechdyn.load_model(path)
    motion = schoenflies_motion(np.linspace(0.0, 1.0, 11))
    ne = mechdyn.motion_inverse_dynamics(model, "platform", motion, method="newton-euler")
    cc = mechdyn.motion_inverse_dynamics(model, "platform", motion, method="closed-chain")
    assert ne["effort"].shape == (11, 4) and np.abs(ne["effort"]).max() > 1.0
    ms = mechdyn.motion_inverse_dynamics(model, "platform", motion)  # auto: the momentum screw (MS eqs. 30–41)
    assert ms["method"] == "momentum-screw"
    assert np.abs(ne["effort"] - cc["effort"]).max() <= 1e-8 * np.abs(ne["effort"]).max()
    assert np.abs(ms["effort"] - ne["effort"]).max() <= 1e-8 * np.abs(ne["effort"]).max()
    assert ne["closure_residual"].max() <= 1e-9
    csv = tmp_path / "motion.csv"
    np.savetxt(csv, motion, delimiter=",", comments="", fmt="%.17g",
               header="t,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,ax,ay,az,alx,aly,alz")
    out = subprocess.run([cli, "invdyn", path, "--motion", "platform=" + str(csv), "--method", "newton-euler"],
                         check=True, capture_output=True, text=True).stdout
    table = np.genfromtxt(out.splitlines(), delimiter=",", names=True)
    effort = np.column_stack([table[n] for n in table.dtype.names if n.startswith("effort_")])
    assert np.abs(effort - ne["effort"]).max() <= 1e-9 * np.abs(effort).max()
    with pytest.raises(mechdyn.InvalidArgument, match=r"\(N, 20\)"):
        mechdyn.motion_inverse_dynamics(model, "platform", motion[:, :19])
    bad = motion.copy()
    bad[3, 4] = 2.0  # not a unit quaternion
    with pytest.raises(mechdyn.InvalidArgument):
        mechdyn.motion_inverse_dynamics(model, "platform", bad, method="newton-euler")
