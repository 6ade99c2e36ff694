// Forward kinematics of a mechdyn model in the page (for the joint sliders of a model
// without a run, and the loop assembly of assembly.js). The same natural-frame
// convention as the library (include/mechdyn/model/joint.hpp, src/model/joint_kinds/):
// every body frame is parallel to the world at q = 0; joint i carries body i from its
// parent: R_i = R_parent R_rel(q), p_i = p_parent + R_parent t_rel(q) (EC §2.1 eqs. 4, 6).
// Relative poses per joint type (src/model/joint_kinds/*.hpp, relative_pose):
//   revolute    R = Rot(n, q),                t = origin
//   prismatic   R = I,                         t = origin + n q
//   universal   R = Rot(n1, q1) Rot(n2, q2),   t = origin
//   spherical   R = R(quaternion w, x, y, z), t = origin
//   free        R = R(q[3..6]),                t = origin + q[0..2]
//   cylindrical R = Rot(n, q1),                t = origin + n q2
//   fixed       R = I,                         t = origin
// Rotations are row-major arrays of 9 numbers, in double precision. The browser test
// (test/browser_test.mjs) checks this file against the library's poses of a run.

export function identity() {
  return [1, 0, 0, 0, 1, 0, 0, 0, 1];
}

export function multiply(a, b) {
  const r = new Array(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  return r;
}

export function apply(R, v) {
  return [
    R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
    R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
    R[6] * v[0] + R[7] * v[1] + R[8] * v[2],
  ];
}

// Rodrigues: rotation by angle about the unit axis n.
export function axisAngle(n, angle) {
  const c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
  const [x, y, z] = n;
  return [
    c + x * x * k, x * y * k - z * s, x * z * k + y * s,
    y * x * k + z * s, c + y * y * k, y * z * k - x * s,
    z * x * k - y * s, z * y * k + x * s, c + z * z * k,
  ];
}

export function quaternionRotation(w, x, y, z) {
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n, x /= n, y /= n, z /= n;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

export function relativePose(joint, q) {
  const o = joint.origin, n = joint.axis, i = joint.q_index;
  switch (joint.type) {
    case 'revolute': return { R: axisAngle(n, q[i]), t: o.slice() };
    case 'prismatic': return { R: identity(), t: [o[0] + n[0] * q[i], o[1] + n[1] * q[i], o[2] + n[2] * q[i]] };
    case 'universal': return { R: multiply(axisAngle(n, q[i]), axisAngle(joint.second_axis, q[i + 1])), t: o.slice() };
    case 'spherical': return { R: quaternionRotation(q[i], q[i + 1], q[i + 2], q[i + 3]), t: o.slice() };
    case 'free': return { R: quaternionRotation(q[i + 3], q[i + 4], q[i + 5], q[i + 6]), t: [o[0] + q[i], o[1] + q[i + 1], o[2] + q[i + 2]] };
    case 'cylindrical': return { R: axisAngle(n, q[i]), t: [o[0] + n[0] * q[i + 1], o[1] + n[1] * q[i + 1], o[2] + n[2] * q[i + 1]] };
    default: return { R: identity(), t: o.slice() };  // fixed
  }
}

// World poses [{R, p}] of every body at q.
export function forwardKinematics(model, q) {
  const poses = [];
  for (const body of model.bodies) {
    const rel = relativePose(body.joint, q);
    if (body.parent < 0) {
      poses.push({ R: rel.R, p: rel.t });
    } else {
      const parent = poses[body.parent];
      const d = apply(parent.R, rel.t);
      poses.push({ R: multiply(parent.R, rel.R), p: [parent.p[0] + d[0], parent.p[1] + d[1], parent.p[2] + d[2]] });
    }
  }
  return poses;
}

// The world position of a point fixed on a body (body < 0: a world point).
export function worldPoint(poses, body, point) {
  if (body < 0) return point.slice();
  const d = apply(poses[body].R, point);
  const p = poses[body].p;
  return [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
}

// q ⊕ dv for one joint's coordinates (joint.nv increments): angles and lengths add; a
// quaternion is turned by the rotation vector dv (world components, as the library's
// spherical and free velocities); free: translation first, then rotation.
export function integrateJoint(joint, q, dv) {
  const i = joint.q_index;
  const turn = (k, w) => {
    const angle = Math.hypot(w[0], w[1], w[2]);
    if (angle === 0) return;
    const s = Math.sin(angle / 2) / angle, c = Math.cos(angle / 2);
    const [dw, dx, dy, dz] = [c, w[0] * s, w[1] * s, w[2] * s];
    const [a, b, cc, d] = [q[k], q[k + 1], q[k + 2], q[k + 3]];
    // dq ⊗ q (world-frame increment)
    q[k] = dw * a - dx * b - dy * cc - dz * d;
    q[k + 1] = dw * b + dx * a + dy * d - dz * cc;
    q[k + 2] = dw * cc - dx * d + dy * a + dz * b;
    q[k + 3] = dw * d + dx * cc - dy * b + dz * a;
    const n = Math.hypot(q[k], q[k + 1], q[k + 2], q[k + 3]);
    for (let j = 0; j < 4; j++) q[k + j] /= n;
  };
  switch (joint.type) {
    case 'spherical': turn(i, dv); break;
    case 'free': q[i] += dv[0], q[i + 1] += dv[1], q[i + 2] += dv[2]; turn(i + 3, dv.slice(3)); break;
    default: for (let k = 0; k < joint.nv; k++) q[i + k] += dv[k];
  }
}
