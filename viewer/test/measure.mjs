// Opening time and frame rate of a page written by `mechdyn view`, in headless Chromium
// (docs/viewer.md, "Speed"). Not a test: prints the numbers.
//   node viewer/test/measure.mjs PAGE_DIR [SECONDS]
// open: from navigation start to window.mechdynViewer.ready (data.js parsed, arrays
// decoded, scene built, first frame rendered); the page's own share of it
// (openMilliseconds, from the bundle's first line); fps: frames drawn per second while
// playing at 1× speed for SECONDS (default 5).
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(import.meta.url)(path.join(here, '..', 'node_modules', 'playwright-core'));
const [dir, seconds = '5'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
const t0 = Date.now();
await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
await page.waitForFunction(() => window.mechdynViewer && window.mechdynViewer.ready, null, { timeout: 120000, polling: 10 });
const open = Date.now() - t0;
const inside = await page.evaluate(() => window.mechdynViewer.openMilliseconds);
const result = await page.evaluate(async (s) => {
  const v = window.mechdynViewer;
  v.play(true);
  const f0 = v.frames(), t0 = performance.now(), time0 = v.time();
  await new Promise((r) => setTimeout(r, s * 1000));
  const fps = (v.frames() - f0) / ((performance.now() - t0) / 1000);
  v.play(false);
  return { fps, rows: v.rows(), advanced: v.time() - time0 };
}, Number(seconds));
console.log(`open ${open} ms (page code ${inside.toFixed(0)} ms), ${result.fps.toFixed(1)} frames/s while playing (${result.rows} rows, run time advanced ${result.advanced.toFixed(2)} s)`);
await browser.close();
