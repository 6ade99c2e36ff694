// The three.js scene of a mechdyn model: one group per body (posed from the run's poses
// or from kinematics.js), link shapes from the joint origins and the centre of mass,
// joint symbols and axes, body frames, loop cut points with their closure gap, markers
// with traces, and the force overlays (arrows scaled to the run, normal loads as colour).
import * as THREE from 'three';
import { apply, worldPoint } from './kinematics.js';

const palette = [0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0x76b7b2, 0xedc948, 0xff9da7, 0x9c755f, 0xbab0ac, 0xe15759];

// A cylinder from a to b (body coordinates).
function link(a, b, radius, material) {
  const d = new THREE.Vector3(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const length = d.length();
  if (length < 1e-9) return null;
  const mesh = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, length, 12), material);
  mesh.position.set((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), d.normalize());
  return mesh;
}

function alignTo(object, axis) {
  object.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), new THREE.Vector3(...axis).normalize());
}

// Centre, size and the best viewing direction of the model over a few configurations
// (poses lists): size = the largest distance of a body origin, centre of mass, child
// joint, cut point or force element point from their centroid (at least 1 mm; it scales every symbol and
// arrow); normal = the direction of least extent of those points (the smallest principal
// axis: the plane normal of a planar mechanism), so the camera looks at the mechanism
// face-on rather than edge-on.
export function modelExtent(model, posesList) {
  const points = [];
  for (const poses of posesList) {
    model.bodies.forEach((b, i) => {
      points.push(poses[i].p, worldPoint(poses, i, b.com));
      if (b.parent >= 0) points.push(worldPoint(poses, b.parent, b.joint.origin));
    });
    for (const l of model.loops) points.push(worldPoint(poses, l.a.body, l.a.point), worldPoint(poses, l.b.body, l.b.point));
    for (const f of model.forces || []) for (const end of [f.a, f.b]) if (end) points.push(worldPoint(poses, end.body, end.point));
  }
  const c = [0, 0, 0];
  for (const p of points) for (let k = 0; k < 3; k++) c[k] += p[k] / points.length;
  let r = 0;
  const C = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const p of points) {
    const d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    r = Math.max(r, Math.hypot(...d));
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) C[3 * a + b] += d[a] * d[b];
  }
  // largest two principal axes by power iteration; the normal is their cross product
  const power = (M, start) => {
    let v = start;
    for (let i = 0; i < 100; i++) {
      const w = apply(M, v), n = Math.hypot(...w);
      if (n < 1e-300) return start;
      v = w.map((x) => x / n);
    }
    return v;
  };
  const e1 = power(C, [0.6, 0.5, 0.62]);
  const l1 = apply(C, e1).reduce((s, x, k) => s + x * e1[k], 0);
  const C2 = C.map((x, k) => x - l1 * e1[Math.floor(k / 3)] * e1[k % 3]);
  let e2 = power(C2, [0.3, -0.7, 0.64]);
  e2 = e2.map((x, k) => x - e1.reduce((s, y, j) => s + y * e2[j], 0) * e1[k]);
  const normal = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const nn = Math.hypot(...normal);
  return { center: c, size: Math.max(r, 1e-3), normal: nn > 1e-9 ? normal.map((x) => x / nn) : [0, 0, 1] };
}

export function buildScene(model, size) {
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf4f5f7);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.5);
  sun.position.set(3, 5, 8);
  scene.add(sun);
  const up = new THREE.Vector3(...model.gravity).negate();
  if (up.length() < 1e-12) up.set(0, 0, 1);
  up.normalize();
  const grid = new THREE.GridHelper(8 * size, 16, 0xaaaaaa, 0xdddddd);
  grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
  scene.add(grid);

  const linkRadius = 0.018 * size, jointRadius = 0.035 * size;
  const maxMass = Math.max(1e-12, ...model.bodies.map((b) => b.mass));
  const bodies = model.bodies.map((body, i) => {
    const group = new THREE.Group();
    group.name = body.name;
    const material = new THREE.MeshLambertMaterial({ color: palette[i % palette.length] });
    const ends = [body.com];
    model.bodies.forEach((child) => { if (child.parent === i) ends.push(child.joint.origin); });
    model.loops.forEach((loop) => {
      if (loop.a.body === i) ends.push(loop.a.point);
      if (loop.b.body === i) ends.push(loop.b.point);
    });
    model.markers.forEach((m) => { if (m.body === i) ends.push(m.point); });
    for (const e of ends) {
      const mesh = link([0, 0, 0], e, linkRadius, material);
      if (mesh) group.add(mesh);
    }
    const comRadius = Math.max(0.025, 0.06 * Math.cbrt(body.mass / maxMass)) * size;
    const com = new THREE.Mesh(new THREE.SphereGeometry(comRadius, 16, 12), material);
    com.position.set(...body.com);
    group.add(com);
    // the joint symbol at the body frame origin (on the joint axis)
    const jointMaterial = new THREE.MeshLambertMaterial({ color: 0x555555 });
    const j = body.joint;
    let symbol;
    if (j.type === 'revolute' || j.type === 'cylindrical') {
      symbol = new THREE.Mesh(new THREE.CylinderGeometry(jointRadius, jointRadius, 3 * jointRadius, 20), jointMaterial);
      alignTo(symbol, j.axis);
    } else if (j.type === 'prismatic') {
      symbol = new THREE.Mesh(new THREE.BoxGeometry(1.4 * jointRadius, 4 * jointRadius, 1.4 * jointRadius), jointMaterial);
      alignTo(symbol, j.axis);
    } else if (j.type === 'universal') {
      symbol = new THREE.Group();
      for (const axis of [j.second_axis]) {
        const c = new THREE.Mesh(new THREE.CylinderGeometry(0.7 * jointRadius, 0.7 * jointRadius, 3 * jointRadius, 16), jointMaterial);
        alignTo(c, axis);
        symbol.add(c);
      }
    } else if (j.type === 'spherical') {
      symbol = new THREE.Mesh(new THREE.SphereGeometry(1.2 * jointRadius, 16, 12), jointMaterial);
    }
    if (symbol) group.add(symbol);
    const frame = new THREE.AxesHelper(0.35 * size);
    frame.visible = false;
    group.add(frame);
    const axes = new THREE.Group();
    const axisList = j.type === 'universal' ? [j.second_axis] : ['revolute', 'prismatic', 'cylindrical'].includes(j.type) ? [j.axis] : [];
    for (const a of axisList) {
      const dir = new THREE.Vector3(...a).normalize();
      axes.add(new THREE.ArrowHelper(dir, dir.clone().multiplyScalar(-0.3 * size), 0.6 * size, 0x222222, 0.08 * size, 0.04 * size));
    }
    axes.visible = false;
    group.add(axes);
    scene.add(group);
    return { group, frame, axes, jointMaterial, symbol };
  });
  // A universal joint's first axis is fixed in the parent: drawn in the parent's group.
  model.bodies.forEach((body, i) => {
    const j = body.joint;
    if (j.type !== 'universal') return;
    const target = body.parent >= 0 ? bodies[body.parent].group : scene;
    const c = new THREE.Mesh(new THREE.CylinderGeometry(0.7 * jointRadius, 0.7 * jointRadius, 3 * jointRadius, 16), bodies[i].jointMaterial);
    alignTo(c, j.axis);
    c.position.set(...j.origin);
    target.add(c);
  });

  const loops = model.loops.map((loop) => {
    const material = new THREE.MeshLambertMaterial({ color: 0xd62728 });
    const ball = () => new THREE.Mesh(new THREE.SphereGeometry(0.7 * jointRadius, 12, 8), material);
    const a = ball(), b = ball();
    const gapGeometry = new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(6), 3));
    const gap = new THREE.Line(gapGeometry, new THREE.LineBasicMaterial({ color: 0xd62728 }));
    scene.add(a, b, gap);
    return { loop, a, b, gap };
  });
  const markers = model.markers.map((marker) => {
    const ball = new THREE.Mesh(new THREE.SphereGeometry(0.5 * jointRadius, 12, 8), new THREE.MeshLambertMaterial({ color: 0x111111 }));
    scene.add(ball);
    return { marker, ball, trace: null };
  });
  return { scene, bodies, loops, markers, up, grid };
}

// Poses all bodies, loops and markers: poses[i] = {p, quaternion [w,x,y,z], R}.
export function poseScene(built, model, poses) {
  built.bodies.forEach((b, i) => {
    b.group.position.set(...poses[i].p);
    const [w, x, y, z] = poses[i].quaternion;
    b.group.quaternion.set(x, y, z, w);
  });
  const gaps = [];
  for (const l of built.loops) {
    const pa = worldPoint(poses, l.loop.a.body, l.loop.a.point), pb = worldPoint(poses, l.loop.b.body, l.loop.b.point);
    l.a.position.set(...pa);
    l.b.position.set(...pb);
    const attr = l.gap.geometry.getAttribute('position');
    attr.setXYZ(0, ...pa), attr.setXYZ(1, ...pb);
    attr.needsUpdate = true;
    gaps.push(Math.hypot(pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]));
  }
  for (const m of built.markers) m.ball.position.set(...worldPoint(poses, m.marker.body, m.marker.point));
  return gaps;
}

// One overlay arrow: a direction and magnitude per row; `scale` = length of the largest.
export function makeArrow(scene, color, size) {
  const arrow = new THREE.ArrowHelper(new THREE.Vector3(1, 0, 0), new THREE.Vector3(), size, color, 0.12 * size, 0.06 * size);
  scene.add(arrow);
  return arrow;
}

export function setArrow(arrow, origin, vector, maxMagnitude, length) {
  const m = Math.hypot(vector[0], vector[1], vector[2]);
  if (!(maxMagnitude > 0) || m <= 1e-9 * maxMagnitude) {
    arrow.visible = false;
    arrow.userData.length = 0;
    return;
  }
  const l = (m / maxMagnitude) * length;
  arrow.visible = arrow.userData.enabled !== false;
  arrow.position.set(...origin);
  arrow.setDirection(new THREE.Vector3(vector[0] / m, vector[1] / m, vector[2] / m));
  arrow.setLength(Math.max(l, 1e-6), Math.min(0.25 * l, 0.1 * length), Math.min(0.1 * l, 0.04 * length));
  arrow.userData.length = l;
}

export { apply };
