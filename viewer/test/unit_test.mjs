// Unit tests of the page's pure functions, in Node.js without a browser (< 1 s), run by
// ctest as `viewer_unit` (scripts/test-viewer.sh unit):
//   node viewer/test/unit_test.mjs
// Each check names the bug it would catch.
import { coilPoint, perpendiculars, tensionColor } from '../src/forces.js';

let passed = 0, failed = 0;
function check(condition, what) {
  if (condition) passed++;
  else failed++;
  console.log(`${condition ? 'ok  ' : 'FAIL'} ${what}`);
}
const near = (a, b, tolerance = 1e-12) => a.length === b.length && a.every((x, k) => Math.abs(x - b[k]) <= tolerance);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a, b) => a.map((x, k) => x - b[k]);

// tension colours: the scale's ends and middle, the sign, the clamp, a run without tension
const grey = tensionColor(0, 5), red = tensionColor(5, 5), blue = tensionColor(-5, 5);
check(near(grey, [0.55, 0.55, 0.55]), 'zero tension is grey (a colour for zero that hides the sign change)');
check(red[0] > 0.8 && red[1] < 0.1 && red[2] < 0.1, `the largest tension is red (${red})`);
check(blue[2] > 0.8 && blue[0] < 0.15, `the largest compression is blue (${blue}; the sign inverted)`);
check(near(tensionColor(50, 5), red), 'beyond the largest value the colour is clamped (no colour outside 0..1)');
check(near(tensionColor(3, 0), grey), 'a run whose largest |value| is 0 draws grey (no division by zero: NaN colour)');
const half = tensionColor(2.5, 5);
check(near(half, grey.map((g, k) => (g + red[k]) / 2)), 'half the largest tension is halfway from grey to red (linear scale)');
check(tensionColor(4, 5)[0] > tensionColor(2, 5)[0] && tensionColor(-4, 5)[2] > tensionColor(-2, 5)[2], 'more tension is redder, more compression bluer');

// perpendiculars: orthonormal, the first in the plane whose normal is given
for (const [u, n] of [[[1, 0, 0], [0, 0, 1]], [[0.6, 0.8, 0], [0, 0, 1]], [[0, 0, 1], [0, 0, 1]], [[0.48, -0.6, 0.64], [0, 1, 0]]]) {
  const [e, f] = perpendiculars(u, n);
  const parallel = Math.abs(dot(u, n)) > 0.999;
  check(Math.abs(dot(e, u)) < 1e-12 && Math.abs(dot(f, u)) < 1e-12 && Math.abs(dot(e, f)) < 1e-12 && Math.abs(dot(e, e) - 1) < 1e-12
    && Math.abs(dot(f, f) - 1) < 1e-12 && (parallel || Math.abs(dot(e, n)) < 1e-12),
  `perpendiculars of [${u}] with normal [${n}] are orthonormal${parallel ? '' : ', the first in the plane'} (a coil drawn flat or skewed)`);
}

// the coil: ends on the two points, its turns at the given radius around the line
const a = [0.1, -0.2, 0.3], b = [1.1, 0.8, 0.3], radius = 0.05, turns = 9, normal = [0, 0, 1];
check(near(coilPoint(a, b, 0, radius, turns, normal), a) && near(coilPoint(a, b, 1, radius, turns, normal), b, 1e-12),
  'the coil starts at point a and ends at point b (a spring not attached to its points)');
const L = Math.hypot(...sub(b, a)), u = sub(b, a).map((x) => x / L);
let worstRadius = 0, worstAlong = 0;
for (let s = 0.1; s <= 0.9; s += 0.01) {
  const d = sub(coilPoint(a, b, s, radius, turns, normal), a);
  const along = dot(d, u), off = Math.hypot(...sub(d, u.map((x) => x * along)));
  worstRadius = Math.max(worstRadius, Math.abs(off - radius));
  worstAlong = Math.max(worstAlong, Math.abs(along - s * L));
}
check(worstRadius < 1e-12 && worstAlong < 1e-12,
  `between the ends the coil is at the radius around the line, advancing uniformly (errors ${worstRadius.toExponential(1)}, ${worstAlong.toExponential(1)})`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
