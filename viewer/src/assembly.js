// Loop closure in the page: the residual Φ(q) of every cut joint and a damped Newton
// (Levenberg–Marquardt) on the passive coordinates, so that a model with loops stays
// assembled while the actuated joints' sliders move.
//
// Why in the page and not a table precomputed by `mechdyn view`: a table over the
// actuated coordinates grows as (samples)^(actuators) — the Schoenflies robot has 4, the
// 3UPS-UPU-S 6 — and would show only its grid points; Newton from the previous
// configuration follows any slider position in a few iterations (milliseconds for these
// models). The starting configuration is the library's assembly (assemble_with_recovery,
// in data.js as model.q0). The browser test checks the page's closed configurations with
// the library's own Φ (`mechdyn eval --json`, "loops.residual").
//
// Residual rows per cut-joint type, the same zero sets as
// include/mechdyn/constraints/loop_closure.hpp (p: cut point in the world, n the loop axis
// carried by a body, t1, t2 ⟂ n; e = ½ Σ_i (R_a e_i) × (R_b e_i) the orientation error):
//   spherical p_a − p_b; revolute p_a − p_b, t1_b·n_a, t2_b·n_a; prismatic t1_a·(p_b − p_a),
//   t2_a·(p_b − p_a), e; universal p_a − p_b, (R_a n1)·(R_b n2) − n1·n2; fixed p_a − p_b, e;
//   planar-revolute t1_a·(p_a − p_b), t2_a·(p_a − p_b).
import { apply, forwardKinematics, integrateJoint, worldPoint } from './kinematics.js';

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

function perpendicularPair(n) {
  const helper = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  let t1 = cross(n, helper);
  const l = Math.hypot(...t1);
  t1 = t1.map((x) => x / l);
  return [t1, cross(n, t1)];
}

const rotationOf = (poses, body) => (body < 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : poses[body].R);

function orientationError(Ra, Rb) {
  const e = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const u = [0, 0, 0];
    u[i] = 1;
    const c = cross(apply(Ra, u), apply(Rb, u));
    for (let k = 0; k < 3; k++) e[k] += 0.5 * c[k];
  }
  return e;
}

// Φ of one loop at the poses.
export function loopResidual(loop, poses) {
  const pa = worldPoint(poses, loop.a.body, loop.a.point), pb = worldPoint(poses, loop.b.body, loop.b.point);
  const Ra = rotationOf(poses, loop.a.body), Rb = rotationOf(poses, loop.b.body);
  const d = sub(pa, pb);
  const [t1, t2] = perpendicularPair(loop.axis);
  switch (loop.type) {
    case 'spherical': return d;
    case 'revolute': {
      const na = apply(Ra, loop.axis);
      return [...d, dot(apply(Rb, t1), na), dot(apply(Rb, t2), na)];
    }
    case 'prismatic': return [-dot(apply(Ra, t1), d), -dot(apply(Ra, t2), d), ...orientationError(Ra, Rb)];
    case 'universal':
      return [...d, dot(apply(Ra, loop.axis), apply(Rb, loop.second_axis)) - dot(loop.axis, loop.second_axis)];
    case 'fixed': return [...d, ...orientationError(Ra, Rb)];
    case 'planar-revolute': return [dot(apply(Ra, t1), d), dot(apply(Ra, t2), d)];
    default: return d;
  }
}

export function closureResidual(model, q) {
  const poses = forwardKinematics(model, q);
  const rows = [];
  for (const loop of model.loops) rows.push(...loopResidual(loop, poses));
  return rows;
}

const normInf = (v) => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

// Solves A x = b (n × n, row-major arrays) by Gaussian elimination with partial pivoting.
function solve(A, b, n) {
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    if (M[c][c] === 0) return null;
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x;
}

// The passive velocity coordinates: [{joint, k}] for every joint marked actuated: false.
export function passiveCoordinates(model) {
  const list = [];
  for (const body of model.bodies)
    if (!body.joint.actuated) for (let k = 0; k < body.joint.nv; k++) list.push({ joint: body.joint, k });
  return list;
}

function step(model, q, passive, dx) {
  const out = q.slice();
  for (const body of model.bodies) {
    const j = body.joint;
    if (j.actuated) continue;
    const dv = new Array(j.nv).fill(0);
    passive.forEach((c, i) => { if (c.joint === j) dv[c.k] = dx[i]; });
    integrateJoint(j, out, dv);
  }
  return out;
}

// Closes the loops by moving the passive coordinates of q (a new array is returned with
// the residual reached): Levenberg–Marquardt with a central-difference Jacobian.
export function assemble(model, q, { tolerance = 1e-12, maxIterations = 60 } = {}) {
  const passive = passiveCoordinates(model);
  let x = q.slice();
  let r = closureResidual(model, x);
  let norm = normInf(r);
  if (model.loops.length === 0 || passive.length === 0) return { q: x, residual: norm, iterations: 0 };
  const n = passive.length, m = r.length;
  let lambda = 1e-8;
  let it = 0;
  for (; it < maxIterations && norm > tolerance; it++) {
    const J = [];  // m × n
    for (let i = 0; i < m; i++) J.push(new Array(n).fill(0));
    const h = 1e-6;  // central differences: J to ~1e-10
    for (let c = 0; c < n; c++) {
      const dx = new Array(n).fill(0);
      dx[c] = h;
      const rp = closureResidual(model, step(model, x, passive, dx));
      dx[c] = -h;
      const rm = closureResidual(model, step(model, x, passive, dx));
      for (let i = 0; i < m; i++) J[i][c] = (rp[i] - rm[i]) / (2 * h);
    }
    const JtJ = [], Jtr = new Array(n).fill(0);
    for (let a = 0; a < n; a++) {
      JtJ.push(new Array(n).fill(0));
      for (let b = 0; b < n; b++) for (let i = 0; i < m; i++) JtJ[a][b] += J[i][a] * J[i][b];
      for (let i = 0; i < m; i++) Jtr[a] -= J[i][a] * r[i];
    }
    let accepted = false;
    for (let tries = 0; tries < 12 && !accepted; tries++) {
      const A = JtJ.map((row, a) => row.map((v, b) => (a === b ? v + lambda * (1 + v) : v)));
      const dx = solve(A, Jtr, n);
      if (dx) {
        const candidate = step(model, x, passive, dx);
        const rc = closureResidual(model, candidate);
        const nc = normInf(rc);
        if (nc < norm) {
          x = candidate, r = rc, norm = nc, accepted = true;
          lambda = Math.max(lambda / 10, 1e-12);
        }
      }
      if (!accepted) lambda *= 10;
    }
    if (!accepted) break;
  }
  return { q: x, residual: norm, iterations: it };
}
