#!/usr/bin/python3
"""Prints the table of bench/bench_codegen.cpp (generated code against mechdyn's runtime
algorithms) from its Google Benchmark JSON output:

    | model | quantity | generated ns | crba/rnea/aba ns | explicit ns | best runtime | generated/best | target | met |

"best runtime" is the faster of mechdyn's recursive and explicit algorithm for the
quantity in the same run; the target (issue 15) is generated/best <= 0.5 for M, inverse
and forward dynamics. Usage: scripts/codegen_table.py build-bench/bench-codegen.json
"""
import sys

from bench_json import load_times

# quantity -> (generated, recursive, explicit, target)
ROWS = [
    ("mass matrix M", "generated_mass_matrix", "crba", "explicit_mass_matrix", 0.5),
    ("bias h", "generated_bias", "rnea_bias", "explicit_bias_force", None),
    ("inverse dynamics", "generated_inverse_dynamics", "rnea", "explicit_inverse_dynamics", 0.5),
    ("forward dynamics", "generated_forward_dynamics", "aba", "explicit_forward_dynamics", 0.5),
    ("joint reactions", "generated_joint_reactions", "joint_reactions", None, None),
    # the five-axis Stribeck tree: against the library's inverse_dynamics_with_friction
    ("inverse dynamics with friction", "generated_inverse_dynamics_with_friction", "inverse_dynamics_with_friction",
     None, None),
]


def main(path):
    context, by_name, names = load_times(path)
    times = {tuple(name.split("/", 1)): ns for name, ns in by_name.items() if "/" in name}
    models = []
    for name in names:
        model = name.partition("/")[2]
        if model not in models:
            models.append(model)
    print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
          f"build {context.get('mechdyn.build_type', '?')}")
    for model in models:
        print(f"- {model}: {context.get('check.' + model, '')}")
    print()
    print("| model | quantity | generated ns | recursive ns | explicit ns | generated/best runtime | target | met |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for model in models:
        for label, generated, recursive, explicit, target in ROWS:
            g = times.get((generated, model))
            r = times.get((recursive, model))
            e = times.get((explicit, model)) if explicit else None
            if g is None or r is None:
                continue
            best = min(x for x in (r, e) if x is not None)
            ratio = g / best
            met = "-" if target is None else ("yes" if ratio <= target else "NO")
            print(f"| {model} | {label} | {g:.0f} | {r:.0f} | {'-' if e is None else f'{e:.0f}'} | {ratio:.2f} | "
                  f"{'-' if target is None else f'{target:.1f}'} | {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
