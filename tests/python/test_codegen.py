# Python binding of generated code: mechdyn.codegen(model_or_path, out_dir, language,
# prefix) (docs/codegen.md, docs/python.md). The generator itself is tested in
# tests/codegen/ (every joint type, 1e-12 against the library); here the binding: the
# same library call as the CLI, the files in the right place, its errors as the binding's
# exception types, and one compiled function compared with the library.
import ctypes
import re
import shutil
import subprocess

import numpy as np
import pytest

import mechdyn
from conftest import random_state

FIVE_AXIS = "examples/models/five_axis_tree.yaml"


def compile_shared(directory, prefix, tmp_path):
    """The generated C compiled into a shared library with `cc`, loaded with ctypes."""
    library = tmp_path / f"lib{prefix}.so"
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(library), str(directory / f"{prefix}.c"), "-lm"],
                   check=True, capture_output=True)
    return ctypes.CDLL(str(library))


def as_pointer(array):
    return array.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
@pytest.mark.parametrize("form", ["cheaper", "factor", "articulated"])
def test_generated_mass_matrix_and_forward_dynamics_match_the_library(source, tmp_path, form):
    # Catches a binding that generates for another model or another prefix, writes the
    # files elsewhere, ignores forward_dynamics, or a generator whose C differs from crba / aba
    # (in either form of the forward dynamics).
    model = mechdyn.load_model(str(source / FIVE_AXIS))
    out = tmp_path / "five"
    result = mechdyn.codegen(model, out, prefix="tree", forward_dynamics=form)
    summary = "articulated-body algorithm" if form == "articulated" else "branch-sparse L^T D L of M"
    assert summary in (out / "tree.c").read_text()
    assert result["directory"] == str(out) and result["prefix"] == "tree"
    assert {"tree.c", "tree.h"} <= set(result["files"])
    assert [f["name"] for f in result["functions"]][:4] == [
        "tree_mass_matrix", "tree_bias", "tree_inverse_dynamics", "tree_forward_dynamics"]
    assert all(f["multiplications"] > 0 for f in result["functions"])
    library = compile_shared(out, "tree", tmp_path)
    library.tree_forward_dynamics.restype = ctypes.c_int
    data = mechdyn.Data(model)
    rng = np.random.default_rng(5)
    for _ in range(8):
        q, v, _ = random_state(model, rng)
        tau = rng.uniform(-5.0, 5.0, model.nv)
        mass = np.zeros(model.nv * model.nv)
        library.tree_mass_matrix(as_pointer(q), as_pointer(mass))
        expected = np.array(mechdyn.crba(model, data, q))
        np.testing.assert_allclose(mass.reshape(model.nv, model.nv), expected, rtol=0, atol=1e-12 * max(1, abs(expected).max()))
        a = np.zeros(model.nv)
        assert library.tree_forward_dynamics(as_pointer(q), as_pointer(v), as_pointer(tau), as_pointer(a)) == 0
        expected = np.array(mechdyn.aba(model, data, q, v, tau))
        np.testing.assert_allclose(a, expected, rtol=0, atol=1e-12 * max(1, abs(expected).max()))


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
def test_generated_friction_matches_the_library(source, tmp_path):
    # Catches a binding that drops the sixth function of a model with joint friction or
    # its exp count, or generated friction efforts that differ from eval's
    # (inverse_dynamics_with_friction at LuGre's steady state), the sign at v = 0 included.
    path = str(source / "examples/models/five_axis_tree_stribeck.yaml")
    model = mechdyn.load_model(path)
    result = mechdyn.codegen(path, tmp_path / "stribeck", prefix="stribeck")
    functions = {f["name"]: f for f in result["functions"]}
    assert functions["stribeck_inverse_dynamics_with_friction"]["exponentials"] == model.nv
    library = compile_shared(tmp_path / "stribeck", "stribeck", tmp_path)
    data = mechdyn.Data(model)
    rng = np.random.default_rng(7)
    for state in range(6):
        q, v, a = random_state(model, rng)
        if state % 2:
            v[::2] = 0.0  # the Stribeck effort then opposes a
        tau_d, friction = np.zeros(model.nv), np.zeros(model.nv)
        library.stribeck_inverse_dynamics_with_friction(as_pointer(q), as_pointer(v), as_pointer(a),
                                                        as_pointer(tau_d), as_pointer(friction))
        expected = np.array(mechdyn.inverse_dynamics_with_friction(model, data, q, v, a, lugre="steady_state"))
        np.testing.assert_allclose(tau_d, expected, rtol=0, atol=1e-12 * max(1, abs(expected).max()))
        expected = np.array(data.friction_effort)
        np.testing.assert_allclose(friction, expected, rtol=0, atol=1e-12 * max(1, abs(expected).max()))


def test_a_path_is_read_as_the_command_line_reads_it(source, tmp_path, cli):
    # Catches a binding that reads the file differently from `mechdyn codegen` (another
    # reader, another source line in the header, another default prefix).
    mechdyn.codegen(str(source / FIVE_AXIS), tmp_path / "python")
    subprocess.run([cli, "codegen", str(source / FIVE_AXIS), "-o", str(tmp_path / "cli")], check=True,
                   capture_output=True)
    def text(path):  # the commit named in the header is the one each binary was built at
        return re.sub(r"commit [0-9a-f]+", "commit <hash>", path.read_text())
    for name in ("five_axis_tree.c", "five_axis_tree.h"):
        assert text(tmp_path / "python" / name) == text(tmp_path / "cli" / name)


def test_cpp_language(source, tmp_path):
    # Catches a language argument that is ignored.
    result = mechdyn.codegen(str(source / FIVE_AXIS), tmp_path / "cpp", language="cpp", prefix="tree")
    assert any(name.endswith(".hpp") or name.endswith(".cpp") for name in result["files"])


def test_errors_are_the_bindings_exception_types(source, tmp_path):
    # Catches an error that escapes as RuntimeError or crashes, and a half-written directory.
    model = mechdyn.load_model(str(source / FIVE_AXIS))
    with pytest.raises(mechdyn.InvalidArgument, match="language 'fortran'"):
        mechdyn.codegen(model, tmp_path / "x", language="fortran")
    with pytest.raises(mechdyn.InvalidArgument, match="forward_dynamics 'newton'"):
        mechdyn.codegen(model, tmp_path / "x", forward_dynamics="newton")
    with pytest.raises(mechdyn.InvalidArgument, match="prefix"):
        mechdyn.codegen(model, tmp_path / "y", prefix="not an identifier")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(mechdyn.InvalidArgument, match="not written by mechdyn codegen"):
        mechdyn.codegen(model, foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    with pytest.raises(mechdyn.ModelError, match="loop"):
        mechdyn.codegen(str(source / "examples/models/four_bar.yaml"), tmp_path / "loop")
    assert not (tmp_path / "loop").exists()
    with pytest.raises(mechdyn.ModelError):
        mechdyn.codegen(str(tmp_path / "missing.yaml"), tmp_path / "missing")
    assert not any(p.name.startswith(("x", "y", "missing")) for p in tmp_path.iterdir())
