// The page of `mechdyn view` (docs/viewer.md): draws the model, plays the run with a time
// slider, overlays joint reactions, friction, normal loads and cut-joint forces, and plots
// any CSV column against time; draws the force elements (forces.js: springs coloured by
// tension, dampers, bushings, stops in contact, applied loads). Without a run: one slider per coordinate, loops assembled
// by assembly.js. window.mechdynViewer is a small hook for the browser tests.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { loadData, rowAt } from './data.js';
import { forwardKinematics, integrateJoint, quaternionRotation, worldPoint } from './kinematics.js';
import { assemble, closureResidual } from './assembly.js';
import { buildScene, makeArrow, modelExtent, poseScene, setArrow } from './scene.js';
import { Plot } from './plot.js';
import { buildOverlays } from './overlays.js';
import { buildForceElements } from './forces.js';

const started = performance.now();
const timings = {};
const data = loadData(window.MECHDYN_DATA);
timings.decode = performance.now() - started;
const { model, run, mode } = data;
const $ = (id) => document.getElementById(id);

function quaternionOf(R) {
  const m = new THREE.Matrix4().set(R[0], R[1], R[2], 0, R[3], R[4], R[5], 0, R[6], R[7], R[8], 0, 0, 0, 0, 1);
  const q = new THREE.Quaternion().setFromRotationMatrix(m);
  return [q.w, q.x, q.y, q.z];
}
const withQuaternions = (poses) => poses.map((p) => ({ ...p, quaternion: quaternionOf(p.R) }));

// The library's poses of run row r: [{p, quaternion, R}].
function runPoses(r) {
  const n = model.bodies.length, base = r * 7 * n, P = run.poses;
  const poses = [];
  for (let i = 0; i < n; i++) {
    const o = base + 7 * i;
    const quaternion = [P[o + 3], P[o + 4], P[o + 5], P[o + 6]];
    poses.push({ p: [P[o], P[o + 1], P[o + 2]], quaternion, R: quaternionRotation(...quaternion) });
  }
  return poses;
}

// ---- scene, camera, renderer -------------------------------------------------------
let q = model.q0.slice();
const initialPoses = run ? runPoses(0) : withQuaternions(forwardKinematics(model, q));
const extent = modelExtent(model, run ? [0, 0.25, 0.5, 0.75, 1].map((f) => runPoses(Math.round(f * (run.rows - 1)))) : [initialPoses]);
const size = extent.size;
const built = buildScene(model, size);
const canvas = $('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: new URLSearchParams(window.location.search).get('aa') !== '0' });
renderer.setPixelRatio(window.devicePixelRatio || 1);
const camera = new THREE.PerspectiveCamera(45, 1, size * 0.01, size * 200);
camera.up.copy(built.up);
const target = new THREE.Vector3(...extent.center);
// look along the direction of least extent, from the upper side, tilted a little so that
// depth still reads (a planar mechanism face-on, a horizontal one from above and aside)
const normal = new THREE.Vector3(...extent.normal);
if (normal.dot(built.up) < 0 || (Math.abs(normal.dot(built.up)) < 1e-6 && normal.x + normal.y + normal.z < 0)) normal.negate();
let tilt = new THREE.Vector3().crossVectors(normal, built.up);
if (tilt.length() < 1e-6) tilt.set(1, -1, 0).projectOnPlane(normal);
tilt.normalize();
const flat = Math.abs(normal.dot(built.up)) > 0.8;  // lying horizontal: from aside, else from the front
const view = flat ? normal.clone().addScaledVector(tilt, 1.1).normalize() : normal.clone().addScaledVector(tilt, 0.35).addScaledVector(built.up, 0.25).normalize();
camera.position.copy(target).addScaledVector(view, 2.4 * size);
const controls = new OrbitControls(camera, canvas);
controls.target.copy(target);
controls.update();

function resize() {
  const box = canvas.parentElement.getBoundingClientRect();
  renderer.setSize(box.width, box.height, false);
  camera.aspect = box.width / Math.max(1, box.height);
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);
resize();

// ---- overlays from the run's columns (overlays.js) -------------------------------------
const arrowLength = 1.0 * size;
const { overlays, normalLoads, traces } = run ? buildOverlays(model, run, built, size, arrowLength)
  : { overlays: [], normalLoads: [], traces: [] };
// force elements (format 3): their arrows (applied loads, bushings) join the overlays
const forceElements = buildForceElements(model, run, built.scene, size, extent.normal, arrowLength);
overlays.push(...forceElements.arrows);
const hasElements = forceElements.elements.length > 0;
$('legend').textContent = [
  run ? `arrows: longest = the largest value of its kind in the run (${overlays.length} arrows)` : '',
  normalLoads.length ? 'joint colour: normal load |N|, blue (0) to red (the largest in the run)' : '',
  hasElements && run ? 'springs, dampers, joint springs: blue compression (negative), grey 0, red tension (positive), against each element\'s largest |value| in the run; red ring: a joint stop in contact' : '',
].filter(Boolean).join('; ');

// ---- title and, for `view --mode K`, what is shown ---------------------------------------
const significant = (x) => Number(x.toPrecision(4)).toString();
$('title').textContent = `mechdyn view: ${model.name}` + (mode ? ` — mode ${mode.number}: ${significant(mode.frequency)} Hz` : '');
document.title = mode ? `${model.name}: mode ${mode.number} (${significant(mode.frequency)} Hz)` : `mechdyn view: ${model.name}`;
// a vibration mode plays one period in wall_seconds_per_period (2 s) at 1×, whatever its
// frequency: timeScale seconds of the mechanism per second of wall time
const timeScale = mode ? mode.period / mode.wall_seconds_per_period : 1;
const modeLines = mode ? [
  `mode ${mode.number} of ${mode.count}: f = ${significant(mode.frequency)} Hz (period ${significant(mode.period)} s)`,
  `amplitude ${significant(mode.amplitude)} ${mode.unit} (${mode.coordinate}); actuated joints ${mode.locked.length ? 'held' : 'free'}${mode.damped_model ? '; undamped shape' : ''}`,
  `time scaled: 1 period = ${mode.wall_seconds_per_period} s of wall time at 1× (${significant(timeScale)}× real time)`,
  ...(mode.reassembled ? [`loops re-assembled every frame (max ‖Φ‖∞ ${mode.max_closure_residual.toExponential(1)})`] : []),
] : [];

// ---- state and drawing ------------------------------------------------------------------
let row = 0, playing = false, speed = 1, playTime = 0, followBody = -1, lastGaps = [];
let currentPoses = initialPoses;
const info = $('info');

const cost = { update: 0, render: 0 };
function update() {
  const u0 = performance.now();
  try { updateScene(); } finally { cost.update += performance.now() - u0; }
}
function updateScene() {
  dirty = true;
  const poses = run ? runPoses(row) : withQuaternions(forwardKinematics(model, q));
  currentPoses = poses;
  lastGaps = poseScene(built, model, poses);
  if (hasElements) {
    const qNow = run ? run.q.subarray(row * model.nq, (row + 1) * model.nq) : q;
    for (const item of forceElements.elements) item.update(run ? row : null, poses, qNow);
  }
  if (run && model.loops.length) {
    // the gaps from the run's q in double precision (the stored poses are Float32, ~1e-7 m)
    const exact = forwardKinematics(model, run.q.subarray(row * model.nq, (row + 1) * model.nq));
    lastGaps = model.loops.map((l) => {
      const a = worldPoint(exact, l.a.body, l.a.point), b = worldPoint(exact, l.b.body, l.b.point);
      return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    });
  }
  if (run) {
    for (const o of overlays) {
      const [origin, v] = o.at(row, poses);
      setArrow(o.arrow, origin, v, o.max, arrowLength);
    }
    for (const nl of normalLoads) {
      const f = nl.max > 0 ? Math.abs(nl.col[row]) / nl.max : 0;
      built.bodies[nl.i].jointMaterial.color.setRGB(0.2 + 0.8 * f, 0.25 * (1 - f) + 0.1, 0.8 * (1 - f) + 0.1);
    }
    for (const t of traces) t.geometry.setDrawRange(0, row + 1);
    $('time').value = String(row);
    $('time-label').textContent = `t = ${run.times[row].toFixed(3)} s`;
    for (const p of plots) p.draw(row);
  }
  const residual = run && run.column('closure_residual') ? run.column('closure_residual')[row] : null;
  const lines = [...modeLines, ...model.loops.map((l, k) => `${l.name} (${l.type}): gap ${lastGaps[k].toExponential(2)} m`)];
  if (residual !== null) lines.push(`closure residual ‖Φ‖∞ (run): ${residual.toExponential(2)}`);
  if (!run && model.loops.length) lines.push(`closure residual ‖Φ‖∞ (page): ${assembled.residual.toExponential(2)}`);
  if (data.assemblyNote) lines.push(`library assembly: ${data.assemblyNote}`);
  info.textContent = lines.join('\n');
  info.hidden = lines.length === 0;
}

function render() {
  if (followBody >= 0) {
    const p = new THREE.Vector3(...currentPoses[followBody].p);
    camera.position.add(p.clone().sub(controls.target));
    controls.target.copy(p);
  }
  controls.update();
  const r0 = performance.now();
  renderer.render(built.scene, camera);
  cost.render += performance.now() - r0;
  frames++;
}

let frames = 0, lastFrame = performance.now(), dirty = true;
// Starting the clock: the first frame counts from the press, not from the frame before it
// (under load that frame can be up to the 0.1 s clamp old, and the time advanced early).
function setPlaying(on) {
  if (on && !playing) lastFrame = performance.now();
  playing = on;
}
controls.addEventListener('change', () => { dirty = true; });
function loop(now) {
  const dt = Math.min(0.1, Math.max(0, (now - lastFrame) / 1000));
  lastFrame = now;
  if (playing && run) {
    playTime += dt * speed * timeScale;
    const end = run.times[run.rows - 1];
    if (playTime > end) playTime = end > run.times[0] ? run.times[0] + ((playTime - end) % (end - run.times[0])) : run.times[0];
    const r = rowAt(run.times, playTime);
    if (r !== row) { row = r; update(); dirty = true; }
  }
  if (dirty || followBody >= 0) render();
  dirty = false;
  requestAnimationFrame(loop);
}

// ---- controls ---------------------------------------------------------------------------
function setTime(t) {
  row = rowAt(run.times, t);
  playTime = run.times[row];
  update();
  render();
}
const plots = [];
const toggles = { frames: false, axes: false, forces: true, torques: false, friction: true, cuts: true, traces: true, elements: true, loads: true };
function applyToggles() {
  built.bodies.forEach((b) => { b.frame.visible = toggles.frames; b.axes.visible = toggles.axes; });
  for (const o of overlays) {
    const on = o.kind === 'reaction force' ? toggles.forces : o.kind === 'reaction torque' ? toggles.torques
      : o.kind === 'friction' ? toggles.friction : o.kind === 'applied load' || o.kind === 'bushing force' ? toggles.loads : toggles.cuts;
    o.arrow.userData.enabled = on;
  }
  for (const item of forceElements.elements) item.group.visible = toggles.elements;
  for (const t of traces) t.visible = toggles.traces;
  update();
  render();
}
const togglesBox = $('toggles');
for (const [key, label, color] of [['frames', 'body frames (x red, y green, z blue)'], ['axes', 'joint axes'],
  ['forces', 'reaction forces, parent on child', '#d62728'], ['torques', 'reaction torques', '#9467bd'],
  ['friction', 'friction (along the joint axis)', '#2ca02c'], ['cuts', 'cut-joint forces and torques', '#ff7f0e'], ['traces', 'marker traces'],
  ...(hasElements ? [['elements', 'force elements (springs, dampers, bushings, stops)'], ['loads', 'applied loads and bushing forces', '#17becf']] : [])]) {
  const l = document.createElement('label');
  if (color) l.style.color = color;
  const box = document.createElement('input');
  box.type = 'checkbox', box.checked = toggles[key], box.id = `toggle-${key}`;
  box.onchange = () => { toggles[key] = box.checked; applyToggles(); };
  l.append(box, ` ${label}`);
  togglesBox.appendChild(l);
}
const follow = $('follow');
follow.add(new Option('(free camera)', '-1'));
model.bodies.forEach((b, i) => follow.add(new Option(b.name, String(i))));
follow.onchange = () => { followBody = Number(follow.value); render(); };

let assembled = { q, residual: 0, iterations: 0 };
if (run) {
  $('run-controls').hidden = false;
  $('sliders').hidden = true;
  const slider = $('time');
  slider.max = String(run.rows - 1);
  slider.oninput = () => { row = Number(slider.value); playTime = run.times[row]; update(); };
  $('play').onclick = () => { setPlaying(!playing); $('play').textContent = playing ? 'pause' : 'play'; };
  $('speed').onchange = () => { speed = Number($('speed').value); };
  const select = $('columns');
  for (const c of run.columns.slice(1)) select.add(new Option(c, c));
  const addPlot = (c) => {
    if (!run.column(c) || plots.some((p) => p.column === c)) return;
    plots.push(new Plot($('plots'), run, c, setTime, (p) => plots.splice(plots.indexOf(p), 1)));
    update();
  };
  $('add-plot').onclick = () => addPlot(select.value);
  // default plots: the first effort and what mechdyn adds: a force element's value (a
  // spring's tension), a coupling's effort, a normal load, the closure
  const defaults = [run.columns.find((c) => c.startsWith('tau_') || c.startsWith('effort_')), run.columns.find((c) => c.startsWith('force_')),
    run.columns.find((c) => c.startsWith('coupling_')), run.columns.find((c) => c.startsWith('normal_load_')),
    run.columns.includes('closure_residual') ? 'closure_residual' : run.columns.find((c) => c === 'kinetic_energy_J')];
  if (mode) defaults.unshift(run.columns.find((c) => c.startsWith('modal_coordinate_')));
  defaults.filter(Boolean).forEach(addPlot);
  const t = Number(new URLSearchParams(window.location.search).get('t'));
  row = Number.isFinite(t) ? rowAt(run.times, t) : 0;
  playTime = run.times[row];
} else {
  // one slider per coordinate; with loops only the actuated ones move, the passive follow
  $('run-controls').hidden = true;
  const box = $('sliders');
  if (model.loops.length) assembled = assemble(model, q);
  q = assembled.q;
  const base = q.slice();
  model.bodies.forEach((b) => {
    const j = b.joint;
    if (j.nv === 0) return;
    const passive = model.loops.length > 0 && !j.actuated;
    const rotationVector = j.type === 'spherical' || j.type === 'free';
    const names = j.type === 'free' ? ['x', 'y', 'z', 'rx', 'ry', 'rz'] : j.type === 'spherical' ? ['rx', 'ry', 'rz'] : j.type === 'universal' ? ['1', '2'] : j.type === 'cylindrical' ? ['angle', 'slide'] : [''];
    const values = new Array(j.nv).fill(0);
    names.forEach((suffix, k) => {
      const angular = rotationVector ? (j.type === 'free' ? k >= 3 : true) : !(j.type === 'prismatic' || (j.type === 'cylindrical' && k === 1));
      const start = rotationVector ? 0 : base[j.q_index + k];
      const lo = j.limits && j.nv === 1 ? j.limits[0] : angular ? start - Math.PI : start - 2 * size;
      const hi = j.limits && j.nv === 1 ? j.limits[1] : angular ? start + Math.PI : start + 2 * size;
      const label = document.createElement('label');
      label.textContent = `${j.name}${suffix ? ' ' + suffix : ''}${passive ? ' (passive)' : ''}`;
      const input = document.createElement('input');
      input.type = 'range', input.min = String(lo), input.max = String(hi), input.step = String((hi - lo) / 1000);
      input.value = String(start);
      input.disabled = passive;
      input.dataset.joint = j.name, input.dataset.k = String(k);
      if (passive && !rotationVector) input.dataset.passive = '1', input.dataset.q = String(j.q_index + k);
      input.oninput = () => {
        if (rotationVector) {
          values[k] = Number(input.value);
          for (let c = 0; c < j.nq; c++) q[j.q_index + c] = base[j.q_index + c];
          integrateJoint(j, q, values);
        } else {
          q[j.q_index + k] = Number(input.value);
        }
        if (model.loops.length) {
          assembled = assemble(model, q);
          q = assembled.q;
          for (const other of box.querySelectorAll('input[data-passive="1"]'))
            other.value = String(q[Number(other.dataset.q)]);
        }
        update();
        render();
      };
      box.append(label, input);
    });
  });
}

window.mechdynViewer = {
  ready: false,
  openMilliseconds: 0,
  setTime(t) { setTime(t); return run ? run.times[row] : 0; },
  time: () => (run ? run.times[row] : 0),
  // view --mode K: the mode, the page's time scale (mechanism seconds per wall second at 1×) and its overlay lines
  mode: () => (mode ? { ...mode, timeScale, lines: modeLines.slice() } : null),
  rows: () => (run ? run.rows : 0),
  // the screen position (CSS pixels) of a body's frame origin, or of its centre of mass
  bodyScreenPosition(name, point = 'origin') {
    const i = model.bodies.findIndex((b) => b.name === name);
    const { p, R } = currentPoses[i], c = model.bodies[i].com;
    const x = point === 'com' ? [0, 1, 2].map((k) => p[k] + R[3 * k] * c[0] + R[3 * k + 1] * c[1] + R[3 * k + 2] * c[2]) : p;
    const v = new THREE.Vector3(...x).project(camera);
    const box = canvas.getBoundingClientRect();
    return { x: (v.x + 1) / 2 * box.width, y: (1 - v.y) / 2 * box.height };
  },
  arrows: () => overlays.map((o) => ({ kind: o.kind, name: o.name, visible: o.arrow.visible, length: o.arrow.userData.length || 0,
    origin: o.arrow.position.toArray(), direction: new THREE.Vector3(0, 1, 0).applyQuaternion(o.arrow.quaternion).toArray() })),
  poses: () => currentPoses.map((p) => ({ p: p.p.slice(), R: p.R.slice() })),
  // the force elements as drawn: the world points (ends), the value of the row, the
  // colour [r, g, b] (linear, 0..1), a stop's contact, whether shown
  forceElements: () => forceElements.elements.map((e) => ({ name: e.element.name, type: e.element.type, ends: e.ends,
    value: e.value, max: e.max, color: e.color, contact: e.contact, visible: e.group.visible })),
  forwardKinematics: (qq) => forwardKinematics(model, qq),
  runQ(r) { return Array.from(run.q.subarray(r * model.nq, (r + 1) * model.nq)); },
  runPoses: (r) => runPoses(r).map((p) => ({ p: p.p, R: p.R })),
  q: () => q.slice(),
  closureResidual: () => closureResidual(model, q),
  gaps: () => lastGaps.slice(),
  moveSlider(joint, k, value) {
    const input = document.querySelector(`#sliders input[data-joint="${joint}"][data-k="${k}"]`);
    input.value = String(value);
    input.oninput();
    return Number(input.value);
  },
  play(on) { setPlaying(on); },
  plots: () => plots.map((p) => p.column),
  frames: () => frames,
  cost: () => ({ ...cost, drawCalls: renderer.info.render.calls, triangles: renderer.info.render.triangles }),
  // Fraction of the canvas's pixels that differ from the background, the ground grid hidden
  // (so it counts the mechanism and its overlays): rendered and read in one task (the
  // drawing buffer is not preserved after it is shown).
  // the negative control of drawnFraction (browser test): everything hidden or shown again
  showAll(on) {
    for (const child of built.scene.children) if (!child.isLight && child !== built.grid) child.visible = on;
    if (on) applyToggles();
  },
  drawnFraction() {
    built.grid.visible = false;
    render();
    const c = document.createElement('canvas');
    c.width = canvas.width, c.height = canvas.height;
    const g = c.getContext('2d');
    g.drawImage(canvas, 0, 0);
    built.grid.visible = true;
    render();
    const pixels = g.getImageData(0, 0, c.width, c.height).data;
    const hex = built.scene.background.getHex();  // sRGB, as displayed
    const [r, gg, b] = [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255];
    let differ = 0;
    for (let i = 0; i < pixels.length; i += 4)
      if (Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - gg) + Math.abs(pixels[i + 2] - b) > 30) differ++;
    return differ / (pixels.length / 4);
  },
};
timings.built = performance.now() - started;
applyToggles();
render();
timings.rendered = performance.now() - started;
window.mechdynViewer.timings = timings;
window.mechdynViewer.openMilliseconds = performance.now() - started;
window.mechdynViewer.ready = true;
requestAnimationFrame(loop);
