// Opening time and frame rate of a page written by `mechdyn view`, in headless Chromium
// (docs/viewer.md, "Speed"). Not a test: prints the numbers.
//   node viewer/test/measure.mjs PAGE_DIR [SECONDS]
// open: from navigation start to window.mechdynViewer.ready (data.js parsed, arrays
// decoded, scene built, first frame rendered); the page's own share of it
// (openMilliseconds, from the bundle's first line); fps: frames drawn per second while
// playing at 1× speed for SECONDS (default 5).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(import.meta.url)(path.join(here, '..', 'node_modules', 'playwright-core'));
const [dir, seconds = '5'] = process.argv.slice(2);

// CPU seconds (user + system) used so far by the browser's processes (every descendant
// of this node process): a machine shared with builds stretches wall time, hardly CPU time.
function browserCpuSeconds() {
  const parent = new Map(), cpu = new Map();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(pid), Number(fields[1]));
      cpu.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch { /* the process ended */ }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    let p = parent.get(pid);
    while (p && p !== process.pid) p = parent.get(p);
    if (p === process.pid) total += seconds;
  }
  return total;
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: Number(process.env.WIDTH || 1280), height: Number(process.env.HEIGHT || 760) } });
const t0 = Date.now(), cpu0 = browserCpuSeconds();
await page.goto(pathToFileURL(path.join(dir, 'index.html')).href + (process.env.QUERY || ''));
await page.waitForFunction(() => window.mechdynViewer && window.mechdynViewer.ready, null, { timeout: 120000, polling: 10 });
const open = Date.now() - t0, openCpu = browserCpuSeconds() - cpu0;
const inside = await page.evaluate(() => window.mechdynViewer.openMilliseconds);
const timings = await page.evaluate(() => window.mechdynViewer.timings);
console.log(`page code: decode ${timings.decode.toFixed(0)} ms, scene built ${timings.built.toFixed(0)} ms, first frame ${timings.rendered.toFixed(0)} ms`);
const cpu1 = browserCpuSeconds();
const result = await page.evaluate(async (s) => {
  const v = window.mechdynViewer;
  v.play(true);
  const f0 = v.frames(), t0 = performance.now(), time0 = v.time();
  await new Promise((r) => setTimeout(r, s * 1000));
  const fps = (v.frames() - f0) / ((performance.now() - t0) / 1000);
  v.play(false);
  return { cost: v.cost(), fps, rows: v.rows(), advanced: v.time() - time0 };
}, Number(seconds));
const playCpu = browserCpuSeconds() - cpu1;
const frames = result.fps * Number(seconds);
console.log(`CPU time of the browser's processes: opening ${(1000 * openCpu).toFixed(0)} ms; playing ${(1000 * playCpu / frames).toFixed(1)} ms per frame (${frames.toFixed(0)} frames)`);
console.log('JS time in the page (wall ms, all frames):', JSON.stringify(result.cost));
console.log(`open ${open} ms (page code ${inside.toFixed(0)} ms), ${result.fps.toFixed(1)} frames/s while playing (${result.rows} rows, run time advanced ${result.advanced.toFixed(2)} s)`);
await browser.close();
