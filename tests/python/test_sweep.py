# Sweeps: `mechdyn sweep SPEC.yaml` (C++ thread pool) and mechdyn.sweep.run (Dask
# distributed, a 2-worker LocalCluster on 127.0.0.1) on the same spec give the same CSV;
# one sample equals a direct mechdyn.simulate on a model changed by hand (an independent
# route through the parameters); a failing sample is recorded, never fatal; broken specs
# exit with status 2 / raise before anything runs.
import os
import subprocess

import numpy as np
import pytest

import mechdyn

SPEC = "examples/sweeps/arm_payload.yaml"


def cli_sweep(cli, *args, check=True):
    return subprocess.run([cli, "sweep", *args], capture_output=True, text=True, check=check)


def test_cli_sweep_rows_match_direct_simulations(source, cli, tmp_path):
    # Catches a parameter applied to the wrong body/coordinate, a grid in the wrong
    # order, or rows written out of sample order by the thread pool.
    out2, out1 = tmp_path / "two.csv", tmp_path / "one.csv"
    run = cli_sweep(cli, str(source / SPEC), "--threads", "2", "-o", str(out2))
    assert "13 samples on 2 threads, 1 failed" in run.stderr
    cli_sweep(cli, str(source / SPEC), "--threads", "1", "-o", str(out1))
    assert out1.read_text() == out2.read_text()  # deterministic, sample order
    lines = out2.read_text().splitlines()
    header = lines[0].split(",")
    assert header[:2] == ["sample", "status"]
    # base parameters first (tau, v0), then the grid's, then the samples' own keys
    assert header[2:10] == ["tau_joint1_N_m", "tau_joint2_N_m", "tau_joint3_N_m", "v0_joint1_rad_per_s",
                            "v0_joint2_rad_per_s", "v0_joint3_rad_per_s", "mass_link3_kg", "q0_joint1_rad"]
    assert header[-1] == "error" and "t_end_s" in header and "kinetic_energy_J" in header
    assert len(lines) == 14
    rows = [line.split(",") for line in lines[1:]]  # no quoted commas before the error column
    assert [r[1] for r in rows] == ["ok"] * 12 + ["error"]
    assert "singular" in lines[13] or "not positive definite" in lines[13]
    # Sample 7 = grid (mass 2.0, q0.joint1 0.5) (last key fastest): the same run by hand.
    model = mechdyn.load_model(str(source / "examples/models/planar_3dof_arm.yaml"))
    model.set_body_mass("link3", 2.0)
    by_hand = mechdyn.simulate(model, q0=[0.5, 0.0, 0.0], v0=[0.0, 0.5, 0.0], tau=["2*sin(3*t)", "0", "0"],
                               duration=0.5, step=0.001)
    row = dict(zip(header, rows[7]))
    assert float(row["mass_link3_kg"]) == 2.0 and float(row["q0_joint1_rad"]) == 0.5
    q_end = [float(row[c]) for c in header if c.startswith("q_")]
    assert np.abs(np.array(q_end) - by_hand.q[-1]).max() <= 1e-12
    data = mechdyn.Data(model)
    assert abs(float(row["kinetic_energy_J"]) -
               mechdyn.kinetic_energy(model, data, by_hand.q[-1], by_hand.v[-1])) <= 1e-12


def test_dask_sweep_on_two_local_workers_equals_the_cli(source, cli, tmp_path):
    # The Dask map (chunks handed to 2 worker processes as they finish) gathers the same
    # rows as the C++ thread pool; catches lost, duplicated or reordered samples.
    from distributed import Client, LocalCluster
    expected = cli_sweep(cli, str(source / SPEC), "--threads", "2").stdout
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        result = mechdyn.sweep.run(str(source / SPEC), address=cluster.scheduler_address, chunk_size=2)
        with Client(cluster) as client:
            assert len(client.scheduler_info()["workers"]) == 2
    assert result.to_csv() == expected
    assert len(result) == 13 and result.ok.sum() == 12 and list(result.errors) == [12]
    assert np.isnan(result.results[12]).all() and np.isfinite(result.results[:12]).all()
    assert np.array_equal(result.column("mass_link3_kg")[:12], np.repeat([0.5, 1.0, 2.0, 4.0], 3))
    result.to_csv(tmp_path / "sweep.csv")
    assert (tmp_path / "sweep.csv").read_text() == expected


def test_shipped_model_text_gives_the_same_rows(source, cli, tmp_path):
    # The spec as sent to Dask workers (the model file's content inline, model_text) from
    # another directory: the same CSV. Catches a model_text read in another format or
    # with other options than the file.
    text, path = mechdyn.sweep.load_spec(str(source / SPEC))
    shipped = tmp_path / "elsewhere.yaml"
    shipped.write_text(mechdyn.sweep._shipped(text, path))
    assert "model_text" in shipped.read_text() and "\nmodel:" not in shipped.read_text()
    assert cli_sweep(cli, str(shipped)).stdout == cli_sweep(cli, str(source / SPEC)).stdout
    urdf = {"model": str(source / "tests/data/robots/wam.urdf"), "duration": 0.02, "step": 0.01,
            "grid": {"mass./wam2": [1.0, 2.0]}}
    text, path = mechdyn.sweep.load_spec(urdf)
    a = mechdyn.SweepSpec(text, path)
    b = mechdyn.SweepSpec(mechdyn.sweep._shipped(text, path), path)
    assert [a.run_sample(i)["csv"] for i in range(2)] == [b.run_sample(i)["csv"] for i in range(2)]


def test_python_sweep_from_a_dict_with_failures(source):
    # A spec as a dict, run in process: bad parameter values and a bad expression fail
    # their own sample only.
    spec = {"model": str(source / "examples/models/planar_3dof_arm.yaml"), "duration": 0.05, "step": 0.01,
            "samples": [{"mass.link2": 1.0}, {"mass.link2": -1.0}, {"tau": ["1/0", "0", "0"]},
                        {"inertia.link2": [1, 1, 5, 0, 0, 0]}, {"q0": [0.1, 0.2, 0.3]}]}
    result = mechdyn.sweep.run(spec, local=True)
    assert list(result.ok) == [True, False, False, False, True]
    assert "mass" in result.errors[1] and "tau" in result.errors[2] and "inertia" in result.errors[3]
    assert np.allclose(result.results[4, 0], 0.05)


BROKEN = {
    "bad_yaml.yaml": "model: [",
    "no_model.yaml": "duration: 1\n",
    "unknown_key.yaml": "model: M\ncolour: red\n",
    "unknown_parameter.yaml": "model: M\nbase: {height: 2}\n",
    "unknown_body.yaml": "model: M\ngrid: {mass.nope: [1, 2]}\n",
    "q0_size.yaml": "model: M\nsamples: [{q0: [1, 2]}]\n",
    "not_number.yaml": "model: M\ngrid: {mass.link3: [1, heavy]}\n",
    "empty_grid.yaml": "model: M\ngrid: {mass.link3: []}\n",
    "bad_integrator.yaml": "model: M\nintegrator: euler\n",
    "bad_step.yaml": "model: M\nstep: 0\n",
    "missing_model_file.yaml": "model: does_not_exist.yaml\n",
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_specs_exit_2_with_one_line(source, cli, tmp_path, name):
    # Each broken spec: exit status 2, one line "mechdyn: ..." naming the spec, nothing on
    # stdout; the Python API raises the same message before starting any worker.
    model = source / "examples/models/planar_3dof_arm.yaml"
    path = tmp_path / name
    path.write_text(BROKEN[name].replace("model: M", "model: " + str(model)))
    run = cli_sweep(cli, str(path), check=False)
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("mechdyn: ") and (name in last or "does_not_exist" in last), last
    with pytest.raises((mechdyn.InvalidArgument, mechdyn.ModelError)) as error:
        mechdyn.sweep.run(str(path), local=True)
    assert str(error.value) in last


def test_missing_spec_file(cli, tmp_path):
    run = cli_sweep(cli, str(tmp_path / "none.yaml"), check=False)
    assert run.returncode == 2 and "none.yaml" in run.stderr


@pytest.mark.parametrize("total,workers", [(1, 1), (7, 4), (13, 2), (1000, 2), (1000, 1), (4096, 8)])
def test_guided_chunks_cover_every_sample_once(total, workers):
    # Catches a guided schedule that drops or repeats samples at a chunk boundary, or
    # one whose chunks grow again (the point is small tasks last).
    from mechdyn.sweep import _chunks
    chunks = _chunks(total, workers)
    assert [i for c in chunks for i in c] == list(range(total))
    sizes = [len(c) for c in chunks]
    assert all(s >= 1 for s in sizes)
    assert all(a >= b for a, b in zip(sizes, sizes[1:]))
    assert _chunks(10, 2, chunk_size=4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
