// The overlays of a run (docs/viewer.md): arrows of the joint reactions (or invdyn's joint
// wrenches), friction and cut-joint forces from the run's CSV columns, each kind scaled to
// its largest value in the run; the joints' normal loads (coloured by main.js); and the
// markers' traces over the whole run from the stored poses.
import * as THREE from 'three';
import { quaternionRotation } from './kinematics.js';
import { makeArrow } from './scene.js';

// overlays: [{kind, name, arrow, max, at(row, poses) → [origin, vector]}];
// normalLoads: [{i (body), col, max}]; traces: [THREE.Line] (drawn up to the current row).
export function buildOverlays(model, run, built, size, arrowLength) {
  const overlays = [], normalLoads = [], traces = [];
  // Below these an arrow is round-off (a free fall's reactions): 1e-9 of the model's weight,
  // and of its weight times its size for torques.
  const weight = model.bodies.reduce((s, b) => s + b.mass, 0) * Math.max(1e-3, Math.hypot(...model.gravity));
  const floor = { force: 1e-9 * weight, torque: 1e-9 * weight * size };
  // three columns named prefix + x|y|z + suffix for the first (prefix, suffix) pair present
  function columns3(...pairs) {
    for (const [prefix, suffix] of pairs) {
      const c = ['x', 'y', 'z'].map((a) => run.column(`${prefix}${a}${suffix}`));
      if (c.every(Boolean)) return c;
    }
    return null;
  }
  function maxNorm(cols) {
    let m = 0;
    for (let r = 0; r < run.rows; r++) m = Math.max(m, Math.hypot(cols[0][r], cols[1][r], cols[2][r]));
    return m;
  }
  function addVectorOverlays(kind, color, items) {
    const found = items.filter((it) => it.cols);
    const lowest = kind.endsWith('torque') ? floor.torque : floor.force;
    const max = Math.max(lowest, ...found.map((it) => maxNorm(it.cols)));
    for (const it of found)
      overlays.push({ kind, name: it.name, arrow: makeArrow(built.scene, color, arrowLength), max,
        at: (r, poses) => [it.origin(poses), [it.cols[0][r], it.cols[1][r], it.cols[2][r]]] });
  }
  const origin = (i) => (poses) => poses[i].p;
  // simulate's reaction_<joint>_… or invdyn's wrench_<joint>_… (--joint-wrenches; the same
  // wrench: parent on child, world frame, about the joint centre = the child's frame origin)
  const force = (name) => columns3([`reaction_${name}_f`, '_N'], [`wrench_${name}_f`, '_N']);
  const torque = (name) => columns3([`reaction_${name}_t`, '_N_m'], [`wrench_${name}_m`, '_N_m']);
  addVectorOverlays('reaction force', 0xd62728, model.bodies.map((b, i) => ({ name: b.joint.name, origin: origin(i), cols: force(b.joint.name) })));
  addVectorOverlays('reaction torque', 0x9467bd, model.bodies.map((b, i) => ({ name: b.joint.name, origin: origin(i), cols: torque(b.joint.name) })));
  const cutPoint = (loop) => (poses) => {
    if (loop.a.body < 0) return loop.a.point;
    const R = poses[loop.a.body].R, p = poses[loop.a.body].p, x = loop.a.point;
    return [0, 1, 2].map((k) => p[k] + R[3 * k] * x[0] + R[3 * k + 1] * x[1] + R[3 * k + 2] * x[2]);
  };
  // simulate's cut_<loop>_… or invdyn's wrench_<loop>_… (body b on body a at a's cut point)
  addVectorOverlays('cut force', 0xff7f0e, model.loops.map((l) => ({ name: l.name, origin: cutPoint(l), cols: columns3([`cut_${l.name}_f`, '_N'], [`wrench_${l.name}_f`, '_N']) })));
  addVectorOverlays('cut torque', 0x8c564b, model.loops.map((l) => ({ name: l.name, origin: cutPoint(l), cols: columns3([`cut_${l.name}_t`, '_N_m'], [`wrench_${l.name}_m`, '_N_m']) })));
  // friction of a revolute or prismatic joint: along its world axis (fixed in the parent)
  const friction = [];
  model.bodies.forEach((b, i) => {
    const j = b.joint;
    if (!['revolute', 'prismatic'].includes(j.type)) return;
    const col = run.column(`friction_${j.name}_${j.type === 'revolute' ? 'N_m' : 'N'}`);
    if (!col) return;
    friction.push({ name: j.name, col, i, axis: j.axis });
  });
  const frictionMax = Math.max(floor.force * size, ...friction.map((f) => f.col.reduce((m, x) => Math.max(m, Math.abs(x)), 0)));
  for (const f of friction) {
    overlays.push({ kind: 'friction', name: f.name, arrow: makeArrow(built.scene, 0x2ca02c, arrowLength), max: frictionMax,
      at: (r, poses) => {
        const parent = model.bodies[f.i].parent;
        const R = parent >= 0 ? poses[parent].R : [1, 0, 0, 0, 1, 0, 0, 0, 1];
        const n = [0, 1, 2].map((k) => R[3 * k] * f.axis[0] + R[3 * k + 1] * f.axis[1] + R[3 * k + 2] * f.axis[2]);
        return [poses[f.i].p, n.map((x) => x * f.col[r])];
      } });
  }
  model.bodies.forEach((b, i) => {
    const col = run.column(`normal_load_${b.joint.name}_N_m`) || run.column(`normal_load_${b.joint.name}_N`);
    if (col) normalLoads.push({ i, col, max: col.reduce((m, x) => Math.max(m, Math.abs(x)), 0) });
  });
  // marker traces: world positions over the whole run
  for (const m of built.markers) {
    const positions = new Float32Array(3 * run.rows);
    for (let r = 0; r < run.rows; r++) {
      const n = model.bodies.length, o = (r * n + Math.max(0, m.marker.body)) * 7, P = run.poses, x = m.marker.point;
      if (m.marker.body < 0) { positions.set(x, 3 * r); continue; }
      const R = quaternionRotation(P[o + 3], P[o + 4], P[o + 5], P[o + 6]);
      for (let k = 0; k < 3; k++) positions[3 * r + k] = P[o + k] + R[3 * k] * x[0] + R[3 * k + 1] * x[1] + R[3 * k + 2] * x[2];
    }
    const geometry = new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(positions, 3));
    const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: 0x333333 }));
    built.scene.add(line);
    traces.push(line);
  }
  return { overlays, normalLoads, traces };
}
