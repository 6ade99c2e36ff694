#!/usr/bin/python3
"""Writes the numbers of the two parallel-manipulator examples from the papers' data.

  examples/models/schoenflies_2ups_2upu.yaml  momentum-screw-schoenflies-2UPS-2UPU, Table 1
  examples/models/ups_3ups_upu_s.yaml         screw-kinematics-3UPS-UPU-S, Tables 1 and 3

Every value of the YAML files is computed here from the papers' geometry (angles, radii,
lengths, masses, inertias) and printed with 17 significant digits, so that the start pose
closes exactly. The headers of the two files say what the papers give and what we chose;
tests/reference/test_parallel_examples.cpp recomputes the geometry independently.

Usage: /usr/bin/python3 scripts/generate_parallel_examples.py   (from the repository root)
"""
import math
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def num(x):
    x = float(x)
    if abs(x) < 1e-15:  # round-off of cos(90 deg) and the like
        return "0"
    s = repr(x)
    return s


def vec(v):
    return "[" + ", ".join(num(x) for x in v) + "]"


def sym_inertia(m):
    return ("{ixx: %s, iyy: %s, izz: %s, ixy: %s, ixz: %s, iyz: %s}" %
            (num(m[0, 0]), num(m[1, 1]), num(m[2, 2]), num(m[0, 1]), num(m[0, 2]), num(m[1, 2])))


def rod_inertia(direction, transverse, axial):
    e = np.asarray(direction, float)
    e = e / np.linalg.norm(e)
    return transverse * (np.eye(3) - np.outer(e, e)) + axial * np.outer(e, e)


def rz(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def header_of(path):
    """The comment block at the top of an existing file (kept when regenerating)."""
    if not os.path.exists(path):
        return ""
    lines = []
    for line in open(path):
        if line.startswith("#"):
            lines.append(line)
        else:
            break
    return "".join(lines)


def schoenflies():
    deg = math.pi / 180.0
    base_angles = [-45.0, 45.0, 135.0, 225.0]       # A_1 .. A_4 (Table 1, Fig. 2)
    platform_angles = [45.0, -45.0, -135.0, 135.0]  # C_1 .. C_4: the mirrored numbering
    R, r = 0.707, 0.212
    start = np.array([0.0, 0.3, 1.0])  # O_M at t = 0: x = 0.5 sin 0, y = 0.3 cos 0, z = 0.2 sin 0 + 1
    z = np.array([0.0, 0.0, 1.0])
    out = []
    out.append("mechdyn: 1\nname: schoenflies_2ups_2upu\ngravity: [0, 0, -9.81]\nbodies:\n")
    limbs = []
    for i in range(4):
        a = R * np.array([math.cos(base_angles[i] * deg), math.sin(base_angles[i] * deg), 0.0])
        c_local = r * np.array([math.cos(platform_angles[i] * deg), math.sin(platform_angles[i] * deg), 0.0])
        c = start + c_local
        leg = c - a
        length = np.linalg.norm(leg)
        e = leg / length
        n2 = np.cross(z, e)
        n2 /= np.linalg.norm(n2)
        limbs.append(dict(a=a, c_local=c_local, c=c, e=e, length=length, n2=n2))
        k = i + 1
        kind = "UPU" if k in (1, 4) else "UPS"
        out.append("  # limb %d (%s): A_%d at %g deg on R = 0.707 m, C_%d at %g deg on r = 0.212 m;\n"
                   "  # leg length at t = 0: %.17g m\n" % (k, kind, k, base_angles[i], k, platform_angles[i], length))
        out.append("  - name: lower%d\n    parent: ground\n" % k)
        out.append("    joint: {name: U%d, type: universal, axes: [%s, %s], origin: %s, actuated: false}\n"
                   % (k, vec(z), vec(n2), vec(a)))
        out.append("    mass: 0.367\n    com: %s\n    inertia: %s\n"
                   % (vec(0.3 * e), sym_inertia(rod_inertia(e, 0.011, 0.000097))))
        out.append("  - name: upper%d\n    parent: lower%d\n" % (k, k))
        out.append("    joint: {name: P%d, type: prismatic, axis: %s, origin: %s, actuated: true}\n"
                   % (k, vec(e), vec(length * e)))
        out.append("    mass: 0.367\n    com: %s\n    inertia: %s\n"
                   % (vec(-0.35 * e), sym_inertia(rod_inertia(e, 0.015, 0.00007))))
    l1 = limbs[0]
    out.append("  # the platform hangs on limb 1 by its U joint at C_1 (axes: limb 1's horizontal axis,\n"
               "  # then the platform normal); its frame origin must lie on that joint, so a massless\n"
               "  # body carries the joint and the platform proper is welded to it at O_M.\n")
    out.append("  - name: platform_hinge\n    parent: upper1\n")
    out.append("    joint: {name: U1C, type: universal, axes: [%s, %s], origin: [0, 0, 0], actuated: false}\n"
               % (vec(l1["n2"]), vec(z)))
    out.append("    mass: 0\n")
    out.append("  - name: platform\n    parent: platform_hinge\n")
    out.append("    joint: {name: platform_weld, type: fixed, origin: %s}\n" % vec(-l1["c_local"]))
    out.append("    mass: 4.196\n    com: [0, 0, 0]\n    inertia: {diag: [0.0357, 0.0357, 0.0713]}\n")
    out.append("loops:\n")
    for k in (2, 3):
        lk = limbs[k - 1]
        out.append("  - name: S%dC\n    type: spherical\n    a: {body: upper%d, point: [0, 0, 0]}\n"
                   "    b: {body: platform, point: %s}\n" % (k, k, vec(lk["c_local"])))
    l4 = limbs[3]
    out.append("  - name: U4C\n    type: universal\n    a: {body: upper4, point: [0, 0, 0]}\n"
               "    b: {body: platform, point: %s}\n    axes: [%s, %s]\n" % (vec(l4["c_local"]), vec(l4["n2"]), vec(z)))
    return "".join(out)


def three_ups():
    H = 3.0 * math.sqrt(3.0) / 10.0
    R, r = 0.8, 0.5
    out = []
    out.append("mechdyn: 1\nname: ups_3ups_upu_s\ngravity: [0, 0, -9.81]\nbodies:\n")
    out.append("  # chain 5: the central spherical joint S at the base centre carries the platform; the\n"
               "  # platform frame origin is the joint centre (the world origin).\n")
    out.append("  - name: platform\n    parent: ground\n")
    out.append("    joint: {name: S5, type: spherical, origin: [0, 0, 0], actuated: false}\n")
    out.append("    mass: 2.87\n    com: %s\n    inertia: {diag: [0.687, 0.687, 0.921]}\n" % vec([0.0, 0.0, H]))
    leg_principal = np.diag([1.14e-2, 1.16e-2, 5.56e-4])  # radial, tangential, along the leg (q = 0)
    for k in range(1, 5):
        rot = rz((k - 1) * math.pi / 2.0)
        a = rot @ np.array([R, 0.0, 0.0])
        radial = rot @ np.array([1.0, 0.0, 0.0])
        tangential = rot @ np.array([0.0, 1.0, 0.0])
        inertia = rot @ leg_principal @ rot.T
        kind = "UPU" if k == 1 else "UPS"
        out.append("  # chain %d (%s): A_%d = R_z(%d deg) (0.8, 0, 0); leg vertical at q = 0\n"
                   % (k, kind, k, (k - 1) * 90))
        out.append("  - name: lower%d\n    parent: ground\n" % k)
        out.append("    joint: {name: U%d, type: universal, axes: [%s, %s], origin: %s, actuated: false}\n"
                   % (k, vec(radial), vec(tangential), vec(a)))
        out.append("    mass: 1.42\n    com: [0, 0, 0.15]\n    inertia: %s\n" % sym_inertia(inertia))
        out.append("  - name: upper%d\n    parent: lower%d\n" % (k, k))
        out.append("    joint: {name: P%d, type: prismatic, axis: [0, 0, 1], origin: [0, 0, 0.3], actuated: true}\n" % k)
        out.append("    mass: 1.42\n    com: [0, 0, 0.15]\n    inertia: %s\n" % sym_inertia(inertia))
    out.append("loops:\n")
    for k in range(1, 5):
        rot = rz((k - 1) * math.pi / 2.0)
        c = rot @ np.array([r, 0.0, H])
        if k == 1:
            out.append("  - name: U1C\n    type: universal\n    a: {body: upper1, point: [0, 0, 0.3]}\n"
                       "    b: {body: platform, point: %s}\n    axes: [[1, 0, 0], [0, 1, 0]]\n" % vec(c))
        else:
            out.append("  - name: S%dC\n    type: spherical\n    a: {body: upper%d, point: [0, 0, 0.3]}\n"
                       "    b: {body: platform, point: %s}\n" % (k, k, vec(c)))
    return "".join(out)


def main():
    for name, body in (("schoenflies_2ups_2upu.yaml", schoenflies()), ("ups_3ups_upu_s.yaml", three_ups())):
        path = os.path.join(ROOT, "examples", "models", name)
        text = header_of(path) + body
        with open(path, "w") as f:
            f.write(text)
        print("wrote", path)


if __name__ == "__main__":
    sys.exit(main())
