// Force elements of a model (format 3, ../shared/spec/force-elements.md; docs/viewer.md
// "Force elements") in the scene, placed every frame from the body poses: a point on body
// b is p_b + R_b · point, on the ground the point itself (kinematics.js, worldPoint).
//   spring-damper   a coil between the two points coloured by its tension (the CSV column
//                   force_<name>_N): blue compression, grey zero, red tension, scaled to
//                   the element's largest |tension| in the run; with damping a damper
//                   (cylinder and piston rod) beside it, or on the line when k = 0;
//   bushing         a small cube at each point coloured by |F| (grey to red) and a thin line;
//   joint-stop      a red ring around the joint axis while the stop's effort is non-zero
//                   (without a run: while q is beyond a stop);
//   joint-spring-damper, joint-servo  a thin ring around the joint axis coloured by the
//                   effort (blue negative, grey zero, red positive);
//   applied, bushing  an arrow of the force on body a (the run's element_forces, from the
//                   library's force_elements at each row; the CSV gives only |F|).
// Couplings are not drawn: their efforts are plotted (coupling_<name>_… columns).
import * as THREE from 'three';
import { apply, worldPoint } from './kinematics.js';
import { makeArrow } from './scene.js';

const grey = [0.55, 0.55, 0.55], red = [0.85, 0.08, 0.08], blue = [0.1, 0.3, 0.9];

// The colour of a signed value against the largest |value| m: blue (−m) → grey (0) → red
// (+m), linear in value / m, clamped; grey when m is 0.
export function tensionColor(value, m) {
  const f = m > 0 ? Math.max(-1, Math.min(1, value / m)) : 0;
  const to = f >= 0 ? red : blue, s = Math.abs(f);
  return grey.map((g, k) => g + s * (to[k] - g));
}

// Two unit vectors perpendicular to u (and to each other): the first in the plane of u and
// `normal` when they are not parallel (so a planar mechanism's coil and damper lie in its
// plane, seen face-on), else any.
export function perpendiculars(u, normal) {
  let e = [u[1] * normal[2] - u[2] * normal[1], u[2] * normal[0] - u[0] * normal[2], u[0] * normal[1] - u[1] * normal[0]];
  if (Math.hypot(...e) < 1e-6) {
    const axis = Math.abs(u[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
    e = [u[1] * axis[2] - u[2] * axis[1], u[2] * axis[0] - u[0] * axis[2], u[0] * axis[1] - u[1] * axis[0]];
  }
  const n = Math.hypot(...e);
  e = e.map((x) => x / n);
  const f = [u[1] * e[2] - u[2] * e[1], u[2] * e[0] - u[0] * e[2], u[0] * e[1] - u[1] * e[0]];
  return [e, f];
}

// A point of a coil from a to b at s ∈ [0, 1]: `turns` turns of radius `radius` around the
// line, the radius going to 0 over the first and last 8 % (so the coil ends on the points).
export function coilPoint(a, b, s, radius, turns, normal) {
  const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const L = Math.hypot(...d);
  const u = L > 0 ? d.map((x) => x / L) : [1, 0, 0];
  const [e, f] = perpendiculars(u, normal);
  const r = radius * Math.min(1, s / 0.08, (1 - s) / 0.08);
  const angle = 2 * Math.PI * turns * s;
  const c = Math.cos(angle) * r, sn = Math.sin(angle) * r;
  return [0, 1, 2].map((k) => a[k] + s * d[k] + c * e[k] + sn * f[k]);
}

class CoilCurve extends THREE.Curve {
  constructor(radius, turns, normal) {
    super();
    this.a = [0, 0, 0], this.b = [1, 0, 0], this.radius = radius, this.turns = turns, this.normal = normal;
  }
  getPoint(s, target = new THREE.Vector3()) {
    return target.set(...coilPoint(this.a, this.b, s, this.radius, this.turns, this.normal));
  }
}

// A unit cylinder along y (height 1) stretched between two world points.
function placeBetween(mesh, from, to) {
  const d = new THREE.Vector3(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  const L = d.length();
  mesh.visible = L > 1e-12;
  if (!mesh.visible) return;
  mesh.position.set((from[0] + to[0]) / 2, (from[1] + to[1]) / 2, (from[2] + to[2]) / 2);
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), d.divideScalar(L));
  mesh.scale.set(1, L, 1);
}

const largest = (column) => (column ? column.reduce((m, x) => Math.max(m, Math.abs(x)), 0) : 0);

// The joint's world axis (fixed in the parent) and a point on it (the child's frame origin).
function jointAxis(model, poses, i) {
  const body = model.bodies[i], parent = body.parent;
  const R = parent >= 0 ? poses[parent].R : [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const n = apply(R, body.joint.axis), l = Math.hypot(...n);
  return { at: poses[i].p, axis: l > 0 ? n.map((x) => x / l) : [0, 0, 1] };
}

// elements: [{element, kind, group, value, max, update(row | null, poses, q)}]; arrows: the
// overlay arrows of applied loads and bushings in the form main.js keeps them
// ({kind, name, arrow, max, at(row, poses)}).
export function buildForceElements(model, run, scene, size, normal, arrowLength) {
  const elements = [], arrows = [];
  const forces = model.forces || [];
  const coilRadius = 0.045 * size, wire = 0.006 * size, turns = 9;
  const forceRows = run && run.elementForces ? run.elementForces : null;  // rows × elements × 3
  const forceOf = (e, r) => {
    const o = (r * forces.length + e) * 3;
    return [forceRows[o], forceRows[o + 1], forceRows[o + 2]];
  };
  const maxForce = (e) => {
    let m = 0;
    for (let r = 0; r < run.rows; r++) m = Math.max(m, Math.hypot(...forceOf(e, r)));
    return m;
  };
  forces.forEach((element, e) => {
    const column = run ? run.column(element.column) : null;
    const item = { element, kind: element.type, column, max: largest(column), value: 0, contact: false, ends: null,
      color: grey.slice(), group: new THREE.Group() };
    scene.add(item.group);
    const valueAt = (row) => (column && row !== null ? column[row] : 0);
    if (element.type === 'spring-damper') {
      const hasCoil = element.stiffness > 0 || element.damping === 0;
      const hasDamper = element.damping > 0;
      const material = new THREE.MeshLambertMaterial({ color: new THREE.Color(...grey) });
      const curve = new CoilCurve(coilRadius, turns, normal);
      const coil = hasCoil ? new THREE.Mesh(new THREE.BufferGeometry(), material) : null;
      if (coil) item.group.add(coil);
      // the damper: a housing from a over 55 % of the length, a rod from b over 60 %
      const housing = new THREE.Mesh(new THREE.CylinderGeometry(0.028 * size, 0.028 * size, 1, 14),
        hasCoil ? new THREE.MeshLambertMaterial({ color: 0x444444 }) : material);
      const rod = new THREE.Mesh(new THREE.CylinderGeometry(0.009 * size, 0.009 * size, 1, 10), new THREE.MeshLambertMaterial({ color: 0x999999 }));
      if (hasDamper) item.group.add(housing, rod);
      const ballMaterial = new THREE.MeshLambertMaterial({ color: 0x333333 });
      const ends = [0, 1].map(() => new THREE.Mesh(new THREE.SphereGeometry(0.015 * size, 10, 8), ballMaterial));
      item.group.add(...ends);
      item.update = (row, poses) => {
        const a = worldPoint(poses, element.a.body, element.a.point), b = worldPoint(poses, element.b.body, element.b.point);
        item.ends = [a, b];
        ends[0].position.set(...a), ends[1].position.set(...b);
        item.value = valueAt(row);
        item.color = run ? tensionColor(item.value, item.max) : grey.slice();
        material.color.setRGB(...item.color);
        if (coil) {
          curve.a = a, curve.b = b;
          coil.geometry.dispose();
          coil.geometry = new THREE.TubeGeometry(curve, turns * 16, wire, 6, false);
        }
        if (hasDamper) {
          // beside the coil (offset in the mechanism's plane), on the line without one
          const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], L = Math.hypot(...d);
          const u = L > 0 ? d.map((x) => x / L) : [1, 0, 0];
          const [side] = perpendiculars(u, normal);
          const o = hasCoil ? side.map((x) => 2.2 * coilRadius * x) : [0, 0, 0];
          const at = (p, s) => [0, 1, 2].map((k) => p[k] + s * L * u[k] + o[k]);
          placeBetween(housing, at(a, 0.06), at(a, 0.55));
          placeBetween(rod, at(b, -0.06), at(b, -0.6));
        }
      };
    } else if (element.type === 'bushing') {
      const material = new THREE.MeshLambertMaterial({ color: new THREE.Color(...grey) });
      const cubes = [0, 1].map(() => new THREE.Mesh(new THREE.BoxGeometry(0.05 * size, 0.05 * size, 0.05 * size), material));
      const line = new THREE.Line(new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(6), 3)),
        new THREE.LineBasicMaterial({ color: 0x444444 }));
      item.group.add(...cubes, line);
      item.update = (row, poses) => {
        const a = worldPoint(poses, element.a.body, element.a.point), b = worldPoint(poses, element.b.body, element.b.point);
        item.ends = [a, b];
        cubes[0].position.set(...a), cubes[1].position.set(...b);
        const attr = line.geometry.getAttribute('position');
        attr.setXYZ(0, ...a), attr.setXYZ(1, ...b);
        attr.needsUpdate = true;
        item.value = valueAt(row);  // |F| ≥ 0: grey to red
        item.color = tensionColor(item.value, item.max);
        material.color.setRGB(...item.color);
      };
    } else if (element.type === 'applied') {
      const ball = new THREE.Mesh(new THREE.SphereGeometry(0.02 * size, 10, 8), new THREE.MeshLambertMaterial({ color: 0x17becf }));
      item.group.add(ball);
      item.update = (row, poses) => {
        const a = worldPoint(poses, element.a.body, element.a.point);
        item.ends = [a];
        ball.position.set(...a);
        item.value = valueAt(row);
      };
    } else {  // joint elements: a ring around the joint axis
      const stop = element.type === 'joint-stop';
      const material = new THREE.MeshLambertMaterial({ color: stop ? 0xd62728 : new THREE.Color(...grey) });
      const ring = new THREE.Mesh(new THREE.TorusGeometry(stop ? 0.09 * size : 0.065 * size, stop ? 0.014 * size : 0.008 * size, 10, 40), material);
      item.group.add(ring);
      const j = model.bodies[element.joint].joint;
      item.update = (row, poses, q) => {
        const { at, axis } = jointAxis(model, poses, element.joint);
        ring.position.set(...at);
        ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...axis));  // the torus lies in x-y
        item.ends = [at];
        item.value = valueAt(row);
        if (stop) {
          const x = q ? q[j.q_index] : 0;
          item.contact = run ? item.value !== 0
            : (element.lower !== undefined && x < element.lower) || (element.upper !== undefined && x > element.upper);
          ring.visible = item.contact;
          item.color = item.contact ? red.slice() : grey.slice();
        } else {
          item.color = run ? tensionColor(item.value, item.max) : grey.slice();
          material.color.setRGB(...item.color);
        }
      };
    }
    elements.push(item);
    if (run && forceRows && (element.type === 'applied' || element.type === 'bushing')) {
      const kind = element.type === 'applied' ? 'applied load' : 'bushing force';
      const max = Math.max(...forces.map((f, k) => (f.type === element.type ? maxForce(k) : 0)));
      arrows.push({ kind, name: element.name, arrow: makeArrow(scene, element.type === 'applied' ? 0x17becf : 0x8c564b, arrowLength), max,
        at: (r, poses) => [worldPoint(poses, element.a.body, element.a.point), forceOf(e, r)] });
    }
  });
  return { elements, arrows };
}
