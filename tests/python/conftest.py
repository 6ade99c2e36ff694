# Shared fixtures of the Python tests (run by ctest with /usr/bin/python3, PYTHONPATH set to
# the build tree's python/ directory; tests/CMakeLists.txt). Environment:
#   MECHDYN_SOURCE_DIR  the repository   MECHDYN_CLI  the built `mechdyn` tool
import os
import pathlib

import numpy as np
import pytest

SOURCE = pathlib.Path(os.environ.get("MECHDYN_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("MECHDYN_CLI", str(SOURCE / "build" / "apps" / "mechdyn" / "mechdyn"))


@pytest.fixture
def source():
    return SOURCE


@pytest.fixture
def cli():
    return CLI


def random_state(model, rng):
    """A random configuration (quaternions normalised), velocity and acceleration."""
    import mechdyn
    q = model.neutral_configuration()
    for name in model.joint_names:
        j = model.joint(name)
        q[j["q_index"]:j["q_index"] + j["nq"]] = rng.uniform(-1.0, 1.0, j["nq"])
        if j["quaternion_offset"] >= 0:
            first = j["q_index"] + j["quaternion_offset"]
            q[first:first + 4] /= np.linalg.norm(q[first:first + 4])
    v = rng.uniform(-1.0, 1.0, model.nv)
    a = rng.uniform(-1.0, 1.0, model.nv)
    assert mechdyn  # imported for the caller's convenience
    return q, v, a
