"""mechdyn: dynamics of mechanisms — robot arms, trees, closed chains, friction.

The C++ library's Model, Data and algorithms, with the C++ names and arguments
``(model, data, q, ...)``; Data's buffers are numpy views (no copy). See docs/python.md.

    import mechdyn, numpy as np
    model = mechdyn.load_model("tests/data/robots/wam.urdf")
    data = mechdyn.Data(model)
    q = model.neutral_configuration()
    M = mechdyn.crba(model, data, q)           # a view of data.mass_matrix
"""
from ._mechdyn import *  # noqa: F401,F403
from ._mechdyn import Error, ModelError, InvalidArgument, SolverError, ModelWarning  # noqa: F401
from . import sweep  # noqa: F401

__version__ = "0.1.0"
