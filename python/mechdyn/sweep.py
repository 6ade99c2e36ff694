"""Sweeps: simulations mapped over parameter sets on Dask distributed (docs/python.md).

A sweep spec is the YAML of ``mechdyn sweep SPEC.yaml`` (docs/cli.md): a model, the
simulation settings, and samples that change model parameters (``mass.BODY``,
``com.BODY``, ``inertia.BODY``, ``gravity``), the initial state (``q0``, ``v0``,
``q0.JOINT``, ``v0.JOINT``) or the inputs (``tau``: numbers or muParser expressions of
t; ``tau.JOINT``), as a Cartesian ``grid`` and/or a list of ``samples``::

    import mechdyn
    result = mechdyn.sweep.run("examples/sweeps/arm_payload.yaml", n_workers=2)
    result.to_csv("sweep.csv")          # the same CSV as `mechdyn sweep`
    result.results[:, 0]                # t_end_s of every sample (NaN where it failed)
    result.errors                       # {sample: one-line message}

Every sample runs in C++ (``SweepSpec.run_sample``, the same function the command line
runs on its thread pool), with the GIL released. A sample that fails (a singular mass
matrix, an assembly that cannot close, a bad parameter value, the step budget) is a row
with status "error" and its message; it never stops the sweep. A worker that dies is
recorded the same way for the samples it held. A broken spec raises before anything
runs (mechdyn.InvalidArgument / mechdyn.ModelError, the one-line message of the CLI).

Cluster: ``client=`` an existing ``distributed.Client``; or ``address=`` a scheduler
("tcp://host:8786"; the model file's content travels with the spec, so the workers need
no shared file system, only mechdyn installed); or
neither: a LocalCluster of ``n_workers`` processes on 127.0.0.1, closed at the end.
``local=True`` runs in this process without Dask (debugging, tiny sweeps).
Dask hands out tasks as workers finish (load balancing); ``chunk_size`` samples per task
amortise the scheduler's per-task cost (default: about 8 tasks per worker).
"""
import functools
import math
import os
import sys

import numpy as np

from . import _mechdyn

__all__ = ["run", "SweepResult", "load_spec"]


def load_spec(spec, base_dir=None):
    """(text, path) of a spec given as a file path, YAML text or a dict.

    ``path`` anchors the relative ``model:`` path: the file's own path, else a
    notional file in ``base_dir`` (default: the current directory).
    """
    anchor = os.path.join(os.path.abspath(base_dir or os.getcwd()), "<sweep>.yaml")
    if isinstance(spec, dict):
        import yaml
        return yaml.safe_dump(spec, sort_keys=False), anchor
    if isinstance(spec, os.PathLike) or (isinstance(spec, str) and "\n" not in spec and os.path.exists(spec)):
        path = os.path.abspath(os.fspath(spec))
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    if isinstance(spec, str):
        return spec, anchor
    raise _mechdyn.InvalidArgument("sweep spec must be a file path, YAML text or a dict, got a " + type(spec).__name__)


@functools.lru_cache(maxsize=8)
def _parsed(text, path):
    return _mechdyn.SweepSpec(text, path)


def _shipped(text, path):
    """The spec with its model file's content in place of the path (model_text), so that
    workers on other machines need no shared file system. Same numbers: the same model."""
    import yaml
    spec = yaml.safe_load(text)
    if not isinstance(spec, dict) or "model" not in spec or not isinstance(spec["model"], str):
        return text
    model = spec.pop("model")
    model_path = os.path.join(os.path.dirname(path), model) if not os.path.isabs(model) else model
    extension = os.path.splitext(model_path)[1].lower()
    with open(model_path, encoding="utf-8") as f:
        content = f.read()
    if extension in (".yaml", ".yml"):
        fmt = "yaml"
    elif extension == ".urdf":
        fmt = "urdf"
    elif extension in (".sdf", ".world"):
        fmt = "sdf"
    elif extension == ".mjcf":
        fmt = "mjcf"
    elif "<mujoco" in content:
        fmt = "mjcf"
    elif "<sdf" in content:
        fmt = "sdf"
    else:
        fmt = "urdf"
    shipped = {"model_text": content, "model_format": fmt}
    shipped.update(spec)
    return yaml.safe_dump(shipped, sort_keys=False)


def _run_chunk(text, path, indices):
    """One Dask task: parse the spec (cached per worker process) and run some samples."""
    spec = _parsed(text, path)
    return [spec.run_sample(i) for i in indices]


def _chunks(total, workers, chunk_size=None):
    """Sample indices per Dask task.

    With ``chunk_size``: fixed chunks of that many samples. Without: guided
    self-scheduling (Polychronopoulos & Kuck 1987): each chunk takes a third of the
    remaining samples divided among the workers, down to a floor of total/(64 workers),
    so that the first tasks are large (little per-task overhead) and the last ones small
    (a worker that finishes early waits for at most one small chunk, not one of the
    fixed 1/(8 workers) share: that tail cost a 2-worker run 10 % of its time).
    """
    if chunk_size:
        return [list(range(s, min(total, s + chunk_size))) for s in range(0, total, chunk_size)]
    floor = max(1, math.ceil(total / (64 * workers)))
    chunks, start = [], 0
    while start < total:
        size = min(total - start, max(floor, math.ceil((total - start) / (3 * workers))))
        chunks.append(list(range(start, start + size)))
        start += size
    return chunks


def _number(text):
    try:
        return float(text)
    except ValueError:
        return math.nan


class SweepResult:
    """The rows of a sweep in sample order.

    columns             every CSV column (sample, status, parameters, results, error)
    parameter_columns   the parameter columns; ``parameters`` holds them as floats (NaN
                        where a sample leaves one alone or gives an expression)
    result_columns      t_end_s, final q_*, v_*, kinetic_energy_J, potential_energy_J;
                        ``results`` (samples × columns, NaN after an error)
    ok                  bool per sample;  errors: {sample: message}
    rows                the raw dicts of SweepSpec.run_sample
    """

    def __init__(self, spec, rows):
        self.columns = list(spec.columns)
        self.parameter_columns = list(spec.parameter_columns)
        self.result_columns = list(spec.result_columns)
        self.rows = sorted(rows, key=lambda r: r["sample"])
        n = len(self.rows)
        self.ok = np.array([r["ok"] for r in self.rows], dtype=bool)
        self.errors = {r["sample"]: r["error"] for r in self.rows if not r["ok"]}
        self.parameters = np.array([[_number(p) for p in r["parameters"]] for r in self.rows],
                                   dtype=float).reshape(n, len(self.parameter_columns))
        self.results = np.array([r["results"] for r in self.rows], dtype=float).reshape(n, len(self.result_columns))

    def __len__(self):
        return len(self.rows)

    def column(self, name):
        """One parameter or result column by name, as a float array."""
        if name in self.result_columns:
            return self.results[:, self.result_columns.index(name)]
        if name in self.parameter_columns:
            return self.parameters[:, self.parameter_columns.index(name)]
        raise KeyError(name)

    def to_csv(self, path=None):
        """The CSV text `mechdyn sweep` writes for the same spec; also written to ``path`` if given."""
        header = ",".join('"' + c.replace('"', '""') + '"' if any(ch in c for ch in ',"\n') else c
                          for c in self.columns)
        text = header + "\n" + "".join(r["csv"] for r in self.rows)
        if path is not None:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return text

    def __repr__(self):
        return "<mechdyn.sweep.SweepResult: %d samples, %d failed>" % (len(self.rows), len(self.errors))


def _failed_rows(spec, indices, message):
    rows = []
    for i in indices:
        rows.append({"sample": i, "ok": False, "error": message,
                     "parameters": [""] * len(spec.parameter_columns),
                     "results": [math.nan] * len(spec.result_columns),
                     "csv": None})
    for r in rows:  # the same CSV shape as a C++ error row
        fields = [str(r["sample"]), "error"] + [""] * len(spec.parameter_columns) + \
                 ["nan"] * len(spec.result_columns) + ['"' + message.replace('"', '""') + '"']
        r["csv"] = ",".join(fields) + "\n"
    return rows


def _package_parent():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(spec, client=None, address=None, n_workers=None, chunk_size=None, local=False, progress=None,
        base_dir=None, timeout=None, ship_model=True):
    """Runs every sample of a sweep spec; returns a SweepResult.

    spec        a spec file path, YAML text or a dict (the YAML of `mechdyn sweep`)
    client      a distributed.Client to use (not closed)
    address     a scheduler address to connect to (a Client is made and closed)
    n_workers   without client/address: worker processes of the LocalCluster (default:
                os.cpu_count()), one thread each, on 127.0.0.1
    chunk_size  samples per Dask task (default: guided, large chunks first, then smaller; _chunks)
    local       run here without Dask
    ship_model  send the model file's content to the workers with the spec (model_text),
                so that they need not see the file (default); False: they read the path
    progress    a callable(done, total), or None: a bar on stderr when it is a terminal
    """
    text, path = load_spec(spec, base_dir)
    parsed = _parsed(text, path)  # a broken spec raises here, before any worker starts
    total = parsed.num_samples
    if progress is None and sys.stderr.isatty():
        def progress(done, total):
            sys.stderr.write("\r[%-40s] %3d%%" % ("#" * int(40 * done / total), 100 * done // total))
            if done == total:
                sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    if local:
        rows = []
        for i in range(total):
            rows.append(parsed.run_sample(i))
            if progress:
                progress(i + 1, total)
        return SweepResult(parsed, rows)

    from distributed import Client, LocalCluster, as_completed

    own_client = own_cluster = None
    if client is None:
        if address is not None:
            client = own_client = Client(address, timeout=timeout or 30)
        else:
            # Worker processes import mechdyn: give them this package's directory.
            paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            if _package_parent() not in paths:
                os.environ["PYTHONPATH"] = os.pathsep.join([_package_parent()] + paths)
            own_cluster = LocalCluster(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1,
                                       processes=True, host="127.0.0.1", dashboard_address=None)
            client = own_client = Client(own_cluster)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})) or (n_workers or 1))
        chunks = _chunks(total, workers, chunk_size)
        sent = _shipped(text, path) if ship_model else text
        futures = client.map(_run_chunk, [sent] * len(chunks), [path] * len(chunks), chunks, pure=False)
        chunk_of = {f.key: c for f, c in zip(futures, chunks)}
        rows, done = [], 0
        for future in as_completed(futures):
            indices = chunk_of[future.key]
            try:
                rows.extend(future.result())
            except Exception as e:  # a worker lost (crash, killed): those samples fail, the sweep goes on
                message = ("worker failed: %s: %s" % (type(e).__name__, e)).replace("\n", " ")
                rows.extend(_failed_rows(parsed, indices, message))
            done += len(indices)
            if progress:
                progress(done, total)
        return SweepResult(parsed, rows)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
