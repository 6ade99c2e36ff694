# `cmake --install` puts the package where the interpreter finds it: installed into a
# temporary prefix (component python), imported from there by /usr/bin/python3 with
# nothing of the build tree on the path; and the default prefix /usr/local gives a
# directory on that interpreter's sys.path. Catches a module installed without its
# Python files, into a directory Python does not search, or needing the build tree.
import os
import re
import subprocess
import sys


def test_cmake_install_puts_an_importable_package(source, tmp_path):
    build = os.environ.get("MECHDYN_BUILD_DIR", str(source / "build"))
    python = os.environ.get("MECHDYN_PYTHON_EXECUTABLE", sys.executable)
    subprocess.run(["cmake", "--install", build, "--prefix", str(tmp_path), "--component", "python"],
                   check=True, capture_output=True)
    cache = open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8").read()
    relative = re.search(r"^MECHDYN_PYTHON_INSTALL_DIR:STRING=(.*)$", cache, re.M).group(1)
    site = tmp_path / relative
    assert (site / "mechdyn" / "__init__.py").exists() and (site / "mechdyn" / "sweep.py").exists()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    code = ("import mechdyn, numpy as np; m = mechdyn.load_model(%r); d = mechdyn.Data(m);"
            "print(mechdyn.__file__); print(mechdyn.crba(m, d, np.zeros(m.nq)).trace())"
            % str(source / "examples/models/five_axis_tree.yaml"))
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True, env=env,
                         cwd=str(tmp_path)).stdout.split("\n")
    assert out[0].startswith(str(site))
    assert float(out[1]) > 0
    default = subprocess.run([python, "-c", "import sys; print('\\n'.join(sys.path))"], capture_output=True,
                             text=True, env={k: v for k, v in env.items() if k != "PYTHONPATH"}).stdout.split()
    assert "/usr/local/" + relative in default
