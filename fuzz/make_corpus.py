#!/usr/bin/python3
"""Regenerates the seed corpora of fuzz/corpus/ from examples/ (run from the repository
root: /usr/bin/python3 fuzz/make_corpus.py). Seeds are inputs the targets accept, so the
fuzzer starts from every key and option mechdyn reads (docs/testing.md, "Fuzzing")."""
import glob, os, shutil

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "fuzz", "corpus")
models = sorted(glob.glob(os.path.join(root, "examples", "models", "*.yaml")))

def write(target, name, data):
    os.makedirs(os.path.join(corpus, target), exist_ok=True)
    with open(os.path.join(corpus, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

for m in models:
    shutil.copy(m, os.path.join(corpus, "model_reader", os.path.basename(m)))
for s in sorted(glob.glob(os.path.join(root, "examples", "scenarios", "*.yaml"))):
    shutil.copy(s, os.path.join(corpus, "scenario_reader", os.path.basename(s)))
write("scenario_reader", "every_key.yaml", """model: ../models/planar_3dof_arm.yaml
mode: inverse
duration: 0.004
step: 0.001
integrator: dopri5
rtol: 1e-9
atol: 1e-11
method: recursive
every: 2
output: run.csv
q0: [0.1, 0.2, 0.3]
v0: "0, 0, 0"
accelerations: [1, "2*t", "t < 1 ? 2 : 0"]
velocities: ["sin(t)"]
max_steps: 1000
max_wall_time: 60
""")
write("scenario_reader", "forward.yaml", "model: m.yaml\nmode: forward\ntau: '2*sin(t), min(t, 1), 0'\n")
write("scenario_reader", "driven.yaml", "model: m.yaml\nmode: inverse\npositions: ['0.1*t', 0]\nrigid_reference: false\n")
write("scenario_reader", "driven_table.yaml", "model: m.yaml\nmode: inverse\nmotion_table: ik.csv\n")
write("scenario_reader", "forward_table.yaml", "model: m.yaml\nmode: forward\ntau_table: efforts.csv\n")

# number_lists: first byte = expected count.
for i, (count, text) in enumerate([(3, "0.1,-0.2,0.3"), (5, "0, 0, 0, 0, 1e-3"), (2, "sin(t), min(t, 1)"),
                                   (1, "t < 1 ? 2 : 0"), (4, "1e308,-1e-308,0x1p3,7"), (3, "_pi*t^2,_e,abs(-t)"),
                                   (2, "sum(t,1,2), max(t,2)")]):
    write("number_lists", "seed%d" % i, bytes([count]) + text.encode())

# eval: first byte = mode (bit 0 json, bit 1 recursive, bit 2 --derivatives, bit 3 info), the model, "#state",
# q, v, a, tau.
states = {
    "five_axis_tree.yaml": ["0.1,-0.2,0.3,0.4,0.5", "0,0,0,0,1", "0.2,0.2,0.2,0.2,0.2", "1,0,0,0,0"],
    "five_axis_tree_stribeck.yaml": ["0,0.1,0,0,0", "1,0,0,0,-1", "0,0,1,0,0", "0,0,0,0,0"],
    "floating_base.yaml": None,
    "four_bar.yaml": ["0.3,1,1.5", "1,0,0"],
    "panda_7dof.yaml": ["0,0,0,-1.5,0,1.5,0.7", "", "1,1,1,1,1,1,1"],
    "planar_3dof_arm.yaml": ["0.1,0.2,0.3", "1,2,3", "", "1,1,1"],
    "flexible_arm.yaml": None,  # the FFR path of eval (flexible_eval.cpp)
}
for name, state in states.items():
    with open(os.path.join(root, "examples", "models", name), "rb") as f:
        text = f.read()
    for mode in (1, 0, 3, 5):
        body = bytes([mode]) + text
        if state is not None:
            body += b"\n#state\n" + "\n".join(state).encode() + b"\n"
        write("eval", "%s.%d" % (name[:-5], mode), body)
with open(os.path.join(root, "examples", "models", "three_loop_mechanism.yaml"), "rb") as f:
    write("eval", "three_loop_mechanism.info", bytes([8]) + f.read())

# run_csv (mechdyn view's reader of simulate's CSV): the five-joint chain of the target; no .csv
# extension (the repository ignores *.csv).
header = "t_s," + ",".join("q_J%d_rad" % i for i in range(1, 6)) + ",reaction_J1_fx_N,\"q_odd, name\",kinetic_energy_J\n"
rows = "".join("%g,%s,1.5,2,3\n" % (0.01 * k, ",".join("%g" % (0.1 * k * i) for i in range(1, 6))) for k in range(4))
write("run_csv", "five_joint_run", header + rows)
write("run_csv", "crlf", (header + rows).replace("\n", "\r\n"))
write("run_csv", "quoted", "\"t_s\",\"q_J1_rad\",\"a \"\"b\"\"\"\n0,1,2\n1e-3,-1e300,4\n")
