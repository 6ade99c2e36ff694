#!/usr/bin/python3
"""Markdown table of bench/bench_peers.cpp's results: per model and quantity one row per
mechdyn method (recursive, explicit, explicit M-form, generated code; analytical and
finite-difference derivatives) beside MuJoCo and Simbody, with the ratio to the fastest
peer, the ratio to mechdyn's own baseline, the operation count where it is exact, and
the issue targets.

Usage: peer_table.py results.json
Times are CPU ns per call (the median of the repetitions when there are several).

Columns:
  mul+add        multiplications + additions per call of the generated code, counted in
                 the expression graph the C is printed from (kinematics included; sin, cos
                 and divisions not counted); "-" for the runtime algorithms (no counting
                 scalar: the library is written for double only)
  / fastest peer the row's time over the fastest of MuJoCo and Simbody (derivatives:
                 MuJoCo's centred finite differences, the only peer)
  / own          explicit over recursive; generated over mechdyn's best runtime algorithm
                 (recursive or explicit); analytical derivatives over mechdyn's centred
                 finite difference of its own RNEA/ABA
  / RNEA|ABA     derivative rows only (issue 29 item 4): the row's time over mechdyn's own
                 RNEA (inverse_dynamics/mechdyn_recursive) for id_derivatives, over its ABA
                 (forward_dynamics/mechdyn_recursive) for fd_derivatives, same run; beside
                 "/ fastest peer", which for these rows is the ratio to MuJoCo's finite
                 differences
  target         the issue targets: issue 15 (explicit <= 1.0 x fastest peer on every
                 model; generated <= 0.5 x best runtime for M, ID, FD on the five-axis tree
                 and the arm; analytical <= 0.1 x own finite difference on the arm and the
                 30-body tree) and the earlier peer targets (best mechdyn <= a fraction of
                 MuJoCo, on the recursive row)
"""
import sys

from bench_json import load_counters, load_times

# Fractions of MuJoCo's time that the fastest open-source libraries reach (the earlier
# peer issue's targets): quantity -> model -> fraction.
MUJOCO_FRACTIONS = {
    "inverse_dynamics": {"five_axis_tree": 0.36, "panda_like_arm": 0.37, "branched_tree_30": 0.40,
                         "serial_chain_50": 0.43},
    "mass_matrix": {"five_axis_tree": 0.44, "panda_like_arm": 0.52, "branched_tree_30": 0.53,
                    "serial_chain_50": 0.72},
    "forward_dynamics": {"five_axis_tree": 0.70, "panda_like_arm": 0.70, "branched_tree_30": 0.81,
                         "serial_chain_50": 0.39},
}
DYNAMICS = ["mass_matrix", "bias_force", "inverse_dynamics", "forward_dynamics"]
DERIVATIVES = ["id_derivatives", "fd_derivatives"]
RUNTIME = ["mechdyn_recursive", "mechdyn_explicit", "mechdyn_explicit_m"]
METHODS = {q: RUNTIME + ["mechdyn_generated"] for q in DYNAMICS}
METHODS.update({q: ["mechdyn_analytical", "mechdyn_finite_difference"] for q in DERIVATIVES})
GENERATED_TARGET_MODELS = ("five_axis_tree", "panda_like_arm")
DERIVATIVE_TARGET_MODELS = ("panda_like_arm", "branched_tree_30")
# The derivatives' own baseline: the recursive algorithm they differentiate.
DERIVATIVE_BASELINE = {"id_derivatives": "inverse_dynamics", "fd_derivatives": "forward_dynamics"}


def load(path):
    """(context, times by (quantity, method, model), ops by the same key, models in order)."""
    context, by_name, names = load_times(path)
    counters = load_counters(path, "ops")
    times, ops, models = {}, {}, []
    for name in names:
        parts = name.split("/")
        if len(parts) < 3 or name not in by_name:
            continue
        if parts[2] not in models:
            models.append(parts[2])
        key = (parts[0], parts[1], parts[2])
        times[key] = by_name[name]
        if name in counters:
            ops[key] = counters[name]
    return context, times, ops, models


def ratio(a, b):
    return None if a is None or b is None else a / b


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def target_of(quantity, method, model, t, peer_ratio, own_ratio, mujoco):
    """(target text, met) of one row."""
    if method == "mechdyn_recursive" and model in MUJOCO_FRACTIONS.get(quantity, {}):
        fraction = MUJOCO_FRACTIONS[quantity][model]
        present = [t(m) for m in ("mechdyn_recursive", "mechdyn_explicit") if t(m) is not None]
        best = ratio(min(present), mujoco) if present and mujoco else None
        return f"best <= {fraction:.2f} x MuJoCo", "-" if best is None else ("yes" if best <= fraction else "no")
    if method == "mechdyn_explicit" and quantity in ("inverse_dynamics", "forward_dynamics"):
        return "<= 1.0 x fastest peer", "-" if peer_ratio is None else ("yes" if peer_ratio <= 1.0 else "no")
    if method == "mechdyn_generated" and quantity != "bias_force" and model in GENERATED_TARGET_MODELS:
        return "<= 0.5 x own best", "-" if own_ratio is None else ("yes" if own_ratio <= 0.5 else "no")
    if method == "mechdyn_analytical" and model in DERIVATIVE_TARGET_MODELS:
        return "<= 0.1 x own FD", "-" if own_ratio is None else ("yes" if own_ratio <= 0.1 else "no")
    return "", ""


def main():
    context, times, ops, models = load(sys.argv[1])
    print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
          f"{context.get('num_cpus', '?')} CPUs, MuJoCo {context.get('mujoco.version', '?')}, "
          f"Simbody: {context.get('simbody', '?')}; Pinocchio: {context.get('pinocchio', '?')}")
    for model in models:
        checks = [context.get(f"{kind}.{model}") for kind in ("check", "check_generated", "check_derivatives")]
        print(f"- {model}: " + "; ".join(c for c in checks if c))
    print()
    print("| model | quantity | mechdyn method | ns | mul+add | MuJoCo ns | Simbody ns | / fastest peer | / own | "
          "/ RNEA\\|ABA | target | met |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    transition = []
    for model in models:
        for quantity in DYNAMICS + DERIVATIVES:
            def t(method, quantity=quantity, model=model):
                return times.get((quantity, method, model))
            if quantity in DERIVATIVES:
                peers = {"mujoco": t("mujoco_finite_difference"), "simbody": None}
                if t("mujoco_transition_fd") is not None:
                    transition.append((model, t("mujoco_transition_fd")))
            else:
                peers = {"mujoco": t("mujoco"), "simbody": t("simbody")}
            present = [x for x in peers.values() if x is not None]
            fastest = min(present) if present else None
            runtime = [t(m) for m in RUNTIME if t(m) is not None]
            for method in METHODS[quantity]:
                ns = t(method)
                if ns is None:
                    continue
                if method in ("mechdyn_explicit", "mechdyn_explicit_m"):
                    own = ratio(ns, t("mechdyn_recursive"))
                elif method == "mechdyn_generated":
                    own = ratio(ns, min(runtime) if runtime else None)
                elif method == "mechdyn_analytical":
                    own = ratio(ns, t("mechdyn_finite_difference"))
                else:
                    own = None
                peer_ratio = ratio(ns, fastest)
                baseline = DERIVATIVE_BASELINE.get(quantity)
                per_recursive = ratio(ns, times.get((baseline, "mechdyn_recursive", model))) if baseline else None
                target, met = target_of(quantity, method, model, t, peer_ratio, own, peers["mujoco"])
                count = ops.get((quantity, method, model))
                cells = [f"{ns:.0f}", "-" if count is None else f"{count:.0f}",
                         "-" if peers["mujoco"] is None else f"{peers['mujoco']:.0f}",
                         "-" if peers["simbody"] is None else f"{peers['simbody']:.0f}",
                         fmt_ratio(peer_ratio), fmt_ratio(own), fmt_ratio(per_recursive), target, met]
                print(f"| {model} | {quantity} | {method.removeprefix('mechdyn_')} | {' | '.join(cells)} |")
    if transition:
        print()
        print("For reference, MuJoCo 2.2.2's one derivative entry point mjd_transitionFD (A = d x_next / d x of "
              "one step, centred): " + ", ".join(f"{m} {ns:.0f} ns" for m, ns in transition) + ".")


if __name__ == "__main__":
    main()
