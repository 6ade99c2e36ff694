// Browser tests of the page that `mechdyn view` writes (docs/viewer.md), in Debian's
// Chromium (the system browser, never a downloaded one) driven headless by playwright-core.
//
//   node viewer/test/browser_test.mjs MECHDYN_BINARY SOURCE_DIR OUT_DIR
//
// For each bundled example it runs `mechdyn simulate` and `mechdyn view`, opens the page
// from file:// and checks, each check naming the bug it would catch:
//  - no console error and no uncaught exception (a broken bundle, a missing column);
//  - the WebGL canvas is not empty: > 0.5 % of its pixels differ from the background, the
//    ground grid hidden (nothing drawn: a context that failed, a camera looking away, NaN
//    poses); with the mechanism hidden the same count is < 0.01 % (the check can fail);
//  - `index.html?t=T` opens at the row of T (the URL parameter ignored);
//  - the slider moves the mechanism: a body's projected screen position changes by more
//    than 5 px between two times (poses not updated, one row shown for all times);
//  - a reaction-force arrow is shown exactly for the joints whose reaction in the CSV —
//    parsed here, independently of the page's decoding — is non-zero at that time, and
//    its length grows with |f| (arrows for the wrong joint, wrong column, wrong scale);
//  - the page's forward kinematics (viewer/src/kinematics.js, used by the sliders) gives
//    the library's poses of the run (body_poses.hpp) to 1e-5 of the model size (float32
//    storage) at several rows (a joint convention of the page that differs from the library);
//  - without a run, moving an actuated slider of a model with loops moves the passive
//    bodies and keeps the loops closed by the library's own measure: `mechdyn eval --q
//    <the page's q> --json` gives ‖Φ‖∞ < 1e-9 (a page assembly that only looks closed),
//    and its body_poses equal the page's (kinematics of universal/spherical joints);
//  - force elements (examples/models/spring_pendulum.yaml, format 3): a spring and a damper
//    drawn between the points the library puts them at (`mechdyn eval` body_poses, point
//    from the body origin), coloured by the CSV's tension (red in tension, blue in
//    compression, redder for the larger tension), the stop's ring shown exactly where
//    its CSV effort is non-zero, the applied load's arrow along its force, the force_
//    columns offered and plotted (forceCase);
//  - a vibration mode (`view --mode 1`, the slider-crank): overlay and title, time scale,
//    closed loops, motion while playing (modeCase);
// and saves a PNG screenshot of each page in OUT_DIR.
// MECHDYN_VIEWER_CASES=spring_pendulum,four_bar_sliders runs only the cases named.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require_ = (await import('node:module')).createRequire(import.meta.url);
const [mechdyn, source, out] = process.argv.slice(2);
if (!mechdyn || !source || !out) {
  console.error('usage: node browser_test.mjs MECHDYN_BINARY SOURCE_DIR OUT_DIR');
  process.exit(2);
}
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
fs.mkdirSync(out, { recursive: true });
const { chromium } = require_(path.join(here, '..', 'node_modules', 'playwright-core'));

let passed = 0, failed = 0;
function check(condition, what) {
  if (condition) passed++;
  else failed++;
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
}
const only = process.env.MECHDYN_VIEWER_CASES ? process.env.MECHDYN_VIEWER_CASES.split(',') : null;
const wanted = (name) => !only || only.includes(name);
const run = (args) => execFileSync(mechdyn, args, { cwd: source, encoding: 'utf8', maxBuffer: 1 << 28 });

function parseCsv(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const header = lines[0].split(',');  // the examples' names need no quoting
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  return { header, rows, col: (name) => header.indexOf(name) };
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'],
});

async function openPage(dir, query = '') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href + query);
  await page.waitForFunction(() => window.mechdynViewer && window.mechdynViewer.ready, null, { timeout: 60000 });
  await page.waitForTimeout(300);
  return { page, errors };
}

// Fraction of the WebGL canvas's pixels that differ from the background colour (the
// page renders and reads its canvas in one task: viewer/src/main.js, drawnFraction).
const drawnFraction = (page) => page.evaluate(() => window.mechdynViewer.drawnFraction());

async function runCase({ name, model, simulate, invdyn, body, times, query }) {
  if (!wanted(name)) return;
  const csv = path.join(out, `${name}.csv`);
  const dir = path.join(out, `${name}_view`);
  if (invdyn) run(['invdyn', model, ...invdyn, '--output', csv]);
  else run(['simulate', model, ...simulate, '--output', csv]);
  run(['view', model, csv, '-o', dir]);
  const table = parseCsv(csv);
  const { page, errors } = await openPage(dir, query);
  const tQuery = Number(new URLSearchParams(query).get('t'));
  const opened = await page.evaluate(() => window.mechdynViewer.time());
  check(Math.abs(opened - tQuery) <= 0.011, `${name}: ?t=${tQuery} opens at t = ${opened}`);
  const fraction = await drawnFraction(page);
  check(fraction > 0.005, `${name}: WebGL canvas drawn (${(100 * fraction).toFixed(1)} % of pixels differ from the background, grid hidden)`);
  await page.evaluate(() => window.mechdynViewer.showAll(false));  // the check's negative control
  const empty = await drawnFraction(page);
  await page.evaluate(() => window.mechdynViewer.showAll(true));
  check(empty < 1e-4, `${name}: with the mechanism hidden the same count is ${(100 * empty).toFixed(3)} % (the check can fail)`);
  await page.screenshot({ path: path.join(out, `${name}.png`) });

  await page.evaluate((t) => window.mechdynViewer.setTime(t), times[0]);
  const a = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(b), body);
  await page.evaluate((t) => window.mechdynViewer.setTime(t), times[1]);
  const b = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(b), body);
  const moved = Math.hypot(a.x - b.x, a.y - b.y);
  check(moved > 5, `${name}: body ${body} moves ${moved.toFixed(1)} px on screen between t = ${times[0]} and ${times[1]} s`);

  // reaction arrows against the CSV at the row of times[1]
  const t = await page.evaluate(() => window.mechdynViewer.time());
  const r = table.rows.findIndex((row) => Math.abs(row[0] - t) < 1e-12);
  const arrows = await page.evaluate(() => window.mechdynViewer.arrows());
  const reactions = arrows.filter((x) => x.kind === 'reaction force');
  // simulate: reaction_<joint>_fx_N; invdyn --joint-wrenches: wrench_<joint>_fx_N (joints only, not the loops)
  const prefix = table.header.some((h) => h.startsWith('reaction_')) ? 'reaction_' : 'wrench_';
  const jointNames = new Set(await page.evaluate(() => window.MECHDYN_DATA.model.bodies.map((b) => b.joint.name)));
  const joints = table.header.filter((h) => h.startsWith(prefix) && h.endsWith('_fx_N')).map((h) => h.slice(prefix.length, -5)).filter((j) => jointNames.has(j));
  check(reactions.length === joints.length && joints.length > 0, `${name}: one reaction-force arrow per joint (${reactions.length} of ${joints.length})`);
  let consistent = true, strongest = null, weakest = null;
  for (const j of joints) {
    const f = Math.hypot(...['fx', 'fy', 'fz'].map((c) => table.rows[r][table.col(`${prefix}${j}_${c}_N`)]));
    const arrow = reactions.find((x) => x.name === j);
    if (!arrow || arrow.visible !== f > 1e-6) consistent = false;  // the page's floor: 1e-9 of the weight
    if (f > 1e-6 && (!strongest || f > strongest.f)) strongest = { f, arrow };
    if (f > 1e-6 && (!weakest || f < weakest.f)) weakest = { f, arrow };
  }
  check(consistent, `${name}: a reaction arrow is shown exactly where the CSV's reaction is non-zero at t = ${t}`);
  check(strongest && weakest && (strongest.f === weakest.f || strongest.arrow.length > weakest.arrow.length),
    `${name}: the arrow of the largest reaction (${strongest?.f.toPrecision(3)} N) is longer than that of the smallest (${weakest?.f.toPrecision(3)} N)`);
  const kinds = new Set(arrows.filter((x) => x.visible).map((x) => x.kind));
  if (table.header.some((h) => h.startsWith('cut_')) || prefix === 'wrench_') check(kinds.has('cut force'), `${name}: cut-joint force arrows shown`);
  if (table.header.some((h) => h.startsWith('friction_'))) check(kinds.has('friction'), `${name}: friction arrows shown`);

  // the page's kinematics against the library's poses
  const worst = await page.evaluate(() => {
    const v = window.mechdynViewer;
    let worst = 0;
    for (const r of [0, Math.floor(v.rows() / 2), v.rows() - 1]) {
      const mine = v.forwardKinematics(v.runQ(r)), theirs = v.runPoses(r);
      mine.forEach((p, i) => {
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(p.p[k] - theirs[i].p[k]));
        for (let k = 0; k < 9; k++) worst = Math.max(worst, Math.abs(p.R[k] - theirs[i].R[k]));
      });
    }
    return worst;
  });
  const size = await page.evaluate(() => Math.max(...window.mechdynViewer.poses().map((p) => Math.hypot(...p.p))), 1e-3);
  check(worst < 1e-5 * Math.max(1, size), `${name}: page kinematics = library poses (largest difference ${worst.toExponential(2)})`);
  if (table.header.includes('closure_residual')) {  // the loops' gaps shown: from the run's q, not Float32 poses
    const gaps = await page.evaluate(() => window.mechdynViewer.gaps());
    check(gaps.length > 0 && Math.max(...gaps) < 1e-9, `${name}: the loop gaps shown at a closed row are ${Math.max(...gaps).toExponential(2)} m`);
  }
  const plots = await page.evaluate(() => window.mechdynViewer.plots());
  check(plots.length > 0, `${name}: plots beside the view (${plots.join(', ')})`);

  // as a user: the keyboard on the time slider, a click on a plot, play, follow a body
  const last = table.rows[table.rows.length - 1][0];
  await page.focus('#time');
  await page.keyboard.press('End');
  const atEnd = await page.evaluate(() => window.mechdynViewer.time());
  const label = await page.textContent('#time-label');
  check(atEnd === last && label.includes(last.toFixed(3)), `${name}: the End key on the time slider goes to t = ${atEnd} (label "${label}")`);
  const box = await page.locator('.plot canvas').first().boundingBox();
  await page.mouse.click(box.x + 40 + 0.75 * (box.width - 48), box.y + box.height / 2);
  const clicked = await page.evaluate(() => window.mechdynViewer.time());
  check(Math.abs(clicked - 0.75 * last) <= 0.02 * last, `${name}: a click at 3/4 of a plot seeks to t = ${clicked} (${(0.75 * last).toFixed(3)} expected)`);
  await page.evaluate(() => window.mechdynViewer.setTime(0));
  await page.click('#play');
  await page.waitForTimeout(300);
  const p1 = await page.evaluate(() => window.mechdynViewer.time());
  await page.waitForTimeout(400);
  const p2 = await page.evaluate(() => window.mechdynViewer.time());
  await page.click('#play');
  const p3 = await page.evaluate(() => window.mechdynViewer.time());
  await page.waitForTimeout(400);
  const p4 = await page.evaluate(() => window.mechdynViewer.time());
  check(p1 !== p2 && p3 === p4, `${name}: play moves the time (t = ${p1}, then ${p2}; it loops at the end), pause holds it (${p3}, ${p4})`);
  await page.selectOption('#follow', { label: body });
  await page.evaluate((t) => window.mechdynViewer.setTime(t), times[0]);
  const f0 = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(b), body);
  await page.evaluate((t) => window.mechdynViewer.setTime(t), times[1]);
  const f1 = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(b), body);
  check(Math.hypot(f0.x - f1.x, f0.y - f1.y) < 1, `${name}: following ${body}, it stays in place on screen (${Math.hypot(f0.x - f1.x, f0.y - f1.y).toFixed(2)} px)`);
  await page.selectOption('#follow', { label: '(free camera)' });
  await page.evaluate(() => window.mechdynViewer.setTime(1e9));
  await page.screenshot({ path: path.join(out, `${name}_end.png`) });
  check(errors.length === 0, `${name}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
}

// The same page from a static HTTP server on 127.0.0.1 (a port the system picks): it must
// work there too, not only from file:// (a bug: data loaded in a way one of them refuses).
async function servedCase(name) {
  if (!wanted(name)) return;
  const dir = path.join(out, `${name}_view`);
  const types = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = http.createServer((request, response) => {
    const file = path.join(dir, path.normalize(new URL(request.url, 'http://x').pathname).replace(/^\/+/, ''));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html?t=1`);
    await page.waitForFunction(() => window.mechdynViewer && window.mechdynViewer.ready, null, { timeout: 60000 });
    const t = await page.evaluate(() => window.mechdynViewer.time());
    const drawn = await drawnFraction(page);
    check(errors.length === 0 && drawn > 0.005 && Math.abs(t - 1) < 0.011,
      `${name}: served over HTTP from 127.0.0.1: opens at t = ${t}, ${(100 * drawn).toFixed(1)} % drawn${errors.length ? ', errors: ' + errors.join(' | ') : ''}`);
  } finally {
    await page.close();
    server.close();
  }
}

async function modelCase({ name, model, joint, k = 0, value, moves, point = 'com' }) {
  if (!wanted(name)) return;
  const dir = path.join(out, `${name}_view`);
  run(['view', model, '-o', dir]);
  const { page, errors } = await openPage(dir);
  const before = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(...b), [moves, point]);
  await page.evaluate(([j, kk, v]) => window.mechdynViewer.moveSlider(j, kk, v), [joint, k, value]);
  const after = await page.evaluate((b) => window.mechdynViewer.bodyScreenPosition(...b), [moves, point]);
  const moved = Math.hypot(before.x - after.x, before.y - after.y);
  check(moved > 5, `${name}: slider ${joint} moves the passive body ${moves} by ${moved.toFixed(1)} px`);
  const q = await page.evaluate(() => window.mechdynViewer.q());
  const report = JSON.parse(run(['eval', model, '--q', q.map((x) => x.toPrecision(17)).join(','), '--json']));
  const residual = report.loops ? Math.max(...report.loops.residual.map(Math.abs)) : 0;
  check(residual < 1e-9, `${name}: the library's closure residual at the page's configuration is ${residual.toExponential(2)}`);
  const poses = await page.evaluate(() => window.mechdynViewer.poses());
  let worst = 0;
  report.body_poses.forEach((bp, i) => {
    for (let a = 0; a < 3; a++) {
      worst = Math.max(worst, Math.abs(bp.position[a] - poses[i].p[a]));
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(bp.rotation[a][c] - poses[i].R[3 * a + c]));
    }
  });
  check(worst < 1e-12, `${name}: page poses = mechdyn eval body_poses (largest difference ${worst.toExponential(2)})`);
  check(await drawnFraction(page) > 0.005, `${name}: WebGL canvas drawn`);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  check(errors.length === 0, `${name}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
}

// Force elements drawn where the library puts them and coloured by the run's values.
async function forceCase() {
  const name = 'spring_pendulum', model = 'examples/models/spring_pendulum.yaml';
  if (!wanted(name)) return;
  const csv = path.join(out, `${name}.csv`), dir = path.join(out, `${name}_view`);
  run(['simulate', model, '--duration', '3', '--step', '0.002', '--output', csv]);
  run(['view', model, csv, '-o', dir]);
  const table = parseCsv(csv);
  const { page, errors } = await openPage(dir, '?t=1');
  const value = (r, c) => table.rows[r][table.col(c)];
  const rowsWhere = (pred) => table.rows.map((_, r) => r).filter(pred);
  const argmax = (c, sign = 1) => rowsWhere(() => true).reduce((best, r) => (sign * value(r, c) > sign * value(best, c) ? r : best), 0);
  // the points as the library places them: p_b + R_b x (eval's body_poses at the row's q)
  const libraryPoint = (report, end) => {
    if (end.body < 0) return end.point;
    const { position, rotation } = report.body_poses[end.body];
    return [0, 1, 2].map((k) => position[k] + rotation[k].reduce((s, x, c) => s + x * end.point[c], 0));
  };
  const described = await page.evaluate(() => window.MECHDYN_DATA.model.forces);
  check(described.map((f) => `${f.name}:${f.type}`).join(',') === 'spring:spring-damper,damper:spring-damper,elbow_stop:joint-stop,push:applied',
    `${name}: the page's model lists the four force elements (${described.map((f) => f.name).join(', ')})`);
  const at = async (r) => {
    await page.evaluate((t) => window.mechdynViewer.setTime(t), table.rows[r][0]);
    return Object.fromEntries((await page.evaluate(() => window.mechdynViewer.forceElements())).map((e) => [e.name, e]));
  };
  const highest = argmax('force_spring_N'), lowest = argmax('force_spring_N', -1);
  const compressed = argmax('force_damper_N', -1), stretched = argmax('force_damper_N');
  let worst = 0;
  for (const r of [highest, lowest, compressed]) {
    const drawn = await at(r);
    const q = ['q_shoulder_rad', 'q_elbow_rad'].map((c) => value(r, c).toPrecision(17)).join(',');
    const report = JSON.parse(run(['eval', model, '--q', q, '--json']));
    for (const e of ['spring', 'damper']) {
      const f = described.find((x) => x.name === e);
      [f.a, f.b].forEach((end, k) => {
        const p = libraryPoint(report, end);
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(drawn[e].ends[k][c] - p[c]));
      });
    }
  }
  check(worst < 1e-5, `${name}: the spring and the damper are drawn between the library's points (largest difference ${worst.toExponential(2)} m)`);
  const hi = await at(highest), lo = await at(lowest);
  check(hi.spring.value > 0 && Math.abs(hi.spring.value - value(highest, 'force_spring_N')) < 1e-4 * hi.spring.value,
    `${name}: the spring's value at t = ${table.rows[highest][0]} is the CSV's tension (${hi.spring.value.toPrecision(5)} N)`);
  const [r1, g1, b1] = hi.spring.color, [r0, , b0] = lo.spring.color;
  check(r1 > 0.8 && b1 < 0.15 && g1 < 0.15, `${name}: the spring at its largest tension is red (${hi.spring.color.map((x) => x.toFixed(2))})`);
  check(r0 > b0 && r0 < r1 && b0 > b1, `${name}: at its smallest tension (${value(lowest, 'force_spring_N').toPrecision(3)} N) it is paler red (${lo.spring.color.map((x) => x.toFixed(2))})`);
  const cd = await at(compressed), sd = await at(stretched);
  check(value(compressed, 'force_damper_N') < 0 && cd.damper.color[2] > 0.8 && cd.damper.color[0] < 0.15,
    `${name}: the damper in compression (${value(compressed, 'force_damper_N').toPrecision(3)} N) is blue (${cd.damper.color.map((x) => x.toFixed(2))})`);
  // its largest tension is below its largest |compression|: red, not fully saturated
  check(value(stretched, 'force_damper_N') > 0 && sd.damper.color[0] > 3 * sd.damper.color[2] && sd.damper.color[0] < cd.damper.color[2],
    `${name}: the damper in tension (${value(stretched, 'force_damper_N').toPrecision(3)} N) is red (${sd.damper.color.map((x) => x.toFixed(2))})`);
  // the stop's ring: exactly at rows where its CSV effort is non-zero
  const contact = rowsWhere((r) => value(r, 'force_elbow_stop_N_m') !== 0), free = rowsWhere((r) => value(r, 'force_elbow_stop_N_m') === 0);
  let ringRight = contact.length > 0 && free.length > 0;
  for (const r of [contact[0], contact[contact.length - 1], free[0], free[free.length - 1]]) {
    const s = (await at(r)).elbow_stop;
    if (s.contact !== contact.includes(r)) ringRight = false;
  }
  check(ringRight, `${name}: the stop's ring is shown exactly at rows of non-zero stop effort (${contact.length} rows in contact)`);
  // the applied load: 4 N along +y for t < 1.5 s, then nothing
  const pushed = rowsWhere((r) => table.rows[r][0] > 0.5 && table.rows[r][0] < 1.4)[0], after = rowsWhere((r) => table.rows[r][0] > 1.6)[0];
  const loadArrow = async (r) => { await at(r); return (await page.evaluate(() => window.mechdynViewer.arrows())).find((a) => a.kind === 'applied load'); };
  const pa = await loadArrow(pushed), pb = await loadArrow(after);
  const tip = (await at(pushed)).push.ends[0];
  check(pa && pa.visible && pa.direction[1] > 0.999 && Math.hypot(...pa.origin.map((x, k) => x - tip[k])) < 1e-6 && pb && !pb.visible,
    `${name}: the applied load's arrow points along +y at the forearm's tip while pushed, hidden after 1.5 s`);
  // the force_ columns: offered in the plot list, the first plotted by default, one added by hand
  const options = await page.evaluate(() => [...document.querySelectorAll('#columns option')].map((o) => o.value));
  const forceColumns = table.header.filter((h) => h.startsWith('force_'));
  check(forceColumns.length === 4 && forceColumns.every((c) => options.includes(c)), `${name}: every force_ column can be plotted (${forceColumns.join(', ')})`);
  await page.selectOption('#columns', 'force_elbow_stop_N_m');
  await page.click('#add-plot');
  const plots = await page.evaluate(() => window.mechdynViewer.plots());
  check(plots.includes('force_spring_N') && plots.includes('force_elbow_stop_N_m'), `${name}: force plots open (${plots.join(', ')})`);
  await page.evaluate((r) => window.mechdynViewer.setTime(r), table.rows[contact[contact.length - 1]][0]);
  check(await drawnFraction(page) > 0.005, `${name}: WebGL canvas drawn`);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  check(errors.length === 0, `${name}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();

  // without a run: the elements follow the sliders, the ring shows beyond a stop
  const sliders = path.join(out, `${name}_sliders_view`);
  run(['view', model, '-o', sliders]);
  const opened = await openPage(sliders);
  const elements = () => opened.page.evaluate(() => Object.fromEntries(window.mechdynViewer.forceElements().map((e) => [e.name, e])));
  const before = await elements();
  const angle = await opened.page.evaluate(() => window.mechdynViewer.moveSlider('shoulder', 0, 0.4));  // on the slider's step
  await opened.page.evaluate(() => window.mechdynViewer.moveSlider('elbow', 0, 0.8));
  const beyond = await elements();
  const expectedEnd = [0.6 * Math.cos(angle), 0.6 * Math.sin(angle), 0];  // the arm's point [0.6, 0, 0] turned about z
  const moved = Math.hypot(...beyond.spring.ends[0].map((x, k) => x - expectedEnd[k]));
  check(!before.elbow_stop.contact && beyond.elbow_stop.contact && moved < 1e-12,
    `${name} without a run: the spring's end follows the arm (${moved.toExponential(1)} m off), the stop's ring shows at q = 0.8 > 0.5`);
  check(opened.errors.length === 0, `${name} without a run: no console errors${opened.errors.length ? ': ' + opened.errors.join(' | ') : ''}`);
  await opened.page.close();
}

// Every element type and a coupling (tests/data/viewer_every_element.yaml): the page opens
// with a run and without one, draws each element, shows the bushing's and the load's
// arrows where the run has a force, plots the coupling's effort.
async function everyElementCase() {
  const name = 'every_element', model = 'tests/data/viewer_every_element.yaml';
  if (!wanted(name)) return;
  const csv = path.join(out, `${name}.csv`), dir = path.join(out, `${name}_view`);
  run(['simulate', model, '--duration', '1', '--step', '0.01', '--output', csv]);
  run(['view', model, csv, '-o', dir]);
  const table = parseCsv(csv);
  const { page, errors } = await openPage(dir, '?t=0.5');
  const drawn = await page.evaluate(() => window.mechdynViewer.forceElements());
  check(drawn.map((e) => e.type).join(',') === 'spring-damper,bushing,joint-spring-damper,joint-stop,joint-servo,applied' && drawn.every((e) => e.ends && e.ends.flat().every(Number.isFinite)),
    `${name}: every element type drawn at finite points (${drawn.map((e) => e.type).join(', ')})`);
  const r = table.rows.findIndex((row) => Math.abs(row[0] - 0.5) < 1e-9);
  const arrows = await page.evaluate(() => window.mechdynViewer.arrows());
  const bushing = arrows.find((a) => a.kind === 'bushing force'), load = arrows.find((a) => a.kind === 'applied load');
  check(bushing && bushing.visible === (table.rows[r][table.col('force_B_N')] > 1e-6) && load && load.visible && load.direction[1] < -0.999,
    `${name}: the bushing's arrow shown where its CSV force is non-zero, the load's along -y`);
  const plots = await page.evaluate(() => window.mechdynViewer.plots());
  check(plots.includes('force_S_N') && plots.includes('coupling_gear_N'), `${name}: a force element's and the coupling's effort plotted (${plots.join(', ')})`);
  check(await drawnFraction(page) > 0.005, `${name}: WebGL canvas drawn`);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  check(errors.length === 0, `${name}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
  const sliders = path.join(out, `${name}_sliders_view`);
  run(['view', model, '-o', sliders]);
  const opened = await openPage(sliders);
  const count = await opened.page.evaluate(() => window.mechdynViewer.forceElements().filter((e) => e.ends).length);
  check(count === 6 && opened.errors.length === 0, `${name} without a run: 6 elements drawn, no console errors${opened.errors.length ? ': ' + opened.errors.join(' | ') : ''}`);
  await opened.page.close();
}

// `view --mode K` (a closed chain's vibration mode): the overlay and the title name the mode
// and its frequency (the one in data.js), the page's time scale plays one period in 2 s,
// every frame's loop is closed, the mechanism moves while playing.
async function modeCase() {
  const name = 'slider_crank_mode', model = 'examples/models/slider_crank.yaml';
  if (!wanted(name)) return;
  const dir = path.join(out, `${name}_view`);
  run(['view', model, '--mode', '1', '--locked', 'none', '-o', dir]);
  const { page, errors } = await openPage(dir);
  const mode = await page.evaluate(() => window.mechdynViewer.mode());
  const f = Number(mode.frequency.toPrecision(4));
  const info = await page.evaluate(() => document.getElementById('info').textContent);
  const title = await page.evaluate(() => document.getElementById('title').textContent);
  check(info.includes(`mode 1 of 1: f = ${f} Hz`) && info.includes('1 period = 2 s of wall time'),
    `${name}: the overlay names the mode, ${f} Hz and the time scale (${JSON.stringify(info.split('\n')[0])})`);
  check(title.includes(`mode 1: ${f} Hz`), `${name}: the title names the mode (${title})`);
  check(Math.abs(mode.timeScale - mode.period / 2) < 1e-12, `${name}: time scale ${mode.timeScale.toFixed(4)} = period / 2 s`);
  let worstGap = 0;
  for (const t of [0.25, 0.5, 0.75].map((x) => x * mode.period)) {
    await page.evaluate((tt) => window.mechdynViewer.setTime(tt), t);
    worstGap = Math.max(worstGap, ...(await page.evaluate(() => window.mechdynViewer.gaps())));
  }
  check(worstGap < 1e-9, `${name}: loop gaps at the quarter periods ${worstGap.toExponential(2)} m`);
  await page.evaluate(() => window.mechdynViewer.setTime(0));
  const before = await page.evaluate(() => window.mechdynViewer.bodyScreenPosition('rod', 'com'));
  const wall0 = Date.now();
  await page.evaluate(() => window.mechdynViewer.play(true));
  await page.waitForTimeout(500);
  await page.evaluate(() => window.mechdynViewer.play(false));
  const wall = (Date.now() - wall0) / 1000;
  const played = await page.evaluate(() => window.mechdynViewer.time());
  const after = await page.evaluate(() => window.mechdynViewer.bodyScreenPosition('rod', 'com'));
  // at most the scaled wall time (frames longer than 0.1 s are clamped, so it may be less)
  check(played > 0 && played <= mode.timeScale * wall + mode.period / 100 + 1e-9,
    `${name}: playing ${wall.toFixed(2)} s of wall time advanced ${played.toFixed(3)} s (≤ ${(mode.timeScale * wall).toFixed(3)})`);
  check(Math.hypot(before.x - after.x, before.y - after.y) > 1, `${name}: the mechanism moves while playing`);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  check(errors.length === 0, `${name}: no console errors${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await page.close();
}

try {
  await modeCase();
  await forceCase();
  await everyElementCase();
  await runCase({
    name: 'five_axis_friction', model: 'examples/models/five_axis_tree_coulomb_viscous.yaml',
    simulate: ['--scenario', 'examples/scenarios/five_axis_constant_accel.yaml', '--every', '10'],
    body: 'L5', times: [0.5, 4.5], query: '?t=2.5',
  });
  await runCase({
    name: 'three_loop', model: 'examples/models/three_loop_mechanism.yaml',
    simulate: ['--mode', 'inverse', '--velocities', '0.1', '--duration', '10', '--step', '0.01'],
    body: 'L4', times: [1, 9], query: '?t=2.5',
  });
  await runCase({
    name: 'floating_base', model: 'examples/models/floating_base.yaml',
    // free fall of the torso, the legs driven at the hips: internal reactions are non-zero
    simulate: ['--tau', '0,0,0,0,0,0,2*sin(5*t),0,-2*sin(5*t),1', '--duration', '0.5', '--step', '0.005'],
    body: 'left_shank', times: [0, 0.5], query: '?t=0.25',
  });
  await servedCase('three_loop');
  await runCase({  // a parallel manipulator (SK §6) along a body motion: invdyn's joint wrenches
    name: 'ups_3ups_upu_s', model: 'examples/models/ups_3ups_upu_s.yaml',
    invdyn: ['--motion-expr', 'platform=wx=0.2*sin(t), wy=0.1*cos(t)', '--duration', '4', '--step', '0.02', '--joint-kinematics', '--joint-wrenches'],
    body: 'upper1', times: [1, 3], query: '?t=2',
  });
  await modelCase({ name: 'five_axis_sliders', model: 'examples/models/five_axis_tree.yaml', joint: 'J1', value: 1.0, moves: 'L5' });
  await modelCase({ name: 'four_bar_sliders', model: 'examples/models/four_bar.yaml', joint: 'crank', value: 1.2, moves: 'rocker' });
  await modelCase({ name: 'three_loop_sliders', model: 'examples/models/three_loop_mechanism.yaml', joint: 'J1pp', value: 0.8, moves: 'L4', point: 'origin' });
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
