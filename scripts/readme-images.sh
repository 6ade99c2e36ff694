#!/usr/bin/env bash
# The two images of the README's tour, regenerated from the tour's own commands:
#   docs/images/tour_slider_crank_plot.png  the slider-crank driven at one turn per second
#       (closed-chain inverse dynamics): crank angle and slider position, the crank torque,
#       the bearing, guide and pin forces; drawn by scripts/plot_tour.py with the
#       matplotlib of Debian's /usr/bin/python3;
#   docs/images/tour_slider_crank_view.png  the page `mechdyn view` writes for the same run
#       (docs/viewer.md), opened at t = 0.3 s in Debian's Chromium.
# The screenshot is taken through playwright-core (viewer/node_modules), as the viewer's
# browser test does (viewer/test/browser_test.mjs): `chromium --headless --screenshot`
# alone captures the page before its WebGL canvas is drawn (an empty 3D view).
# Needs node >= 20, viewer/node_modules (npm ci --prefix viewer) and /usr/bin/chromium;
# `bash scripts/install-deps.sh test` installs them.
#
# Usage: bash scripts/readme-images.sh [MECHDYN_CLI]   (default build/apps/mechdyn/mechdyn)
set -euo pipefail
cli=$(realpath "${1:-build/apps/mechdyn/mechdyn}")
cd "$(dirname "$0")/.."
[ -x "$cli" ] || { echo "readme-images: $cli is not an executable mechdyn; build it or give its path" >&2; exit 2; }
[ -d viewer/node_modules/playwright-core ] || { echo "readme-images: viewer/node_modules missing: npm ci --prefix viewer" >&2; exit 2; }
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "readme-images: $chromium not found (Debian package chromium)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/images
model=examples/models/slider_crank.yaml

# the tour's run: the crank driven at 2 pi rad/s for two turns
"$cli" simulate "$model" --mode inverse --velocities '2*_pi' --duration 2 --step 0.01 --output "$tmp/slider_crank.csv"
/usr/bin/python3 scripts/plot_tour.py "$tmp/slider_crank.csv" docs/images/tour_slider_crank_plot.png

# the tour's page, screenshot at t = 0.3 s, zoomed out a little so the force arrows fit
"$cli" view "$model" "$tmp/slider_crank.csv" -o "$tmp/slider_crank_view"
CHROMIUM=$chromium node - "$PWD/viewer/node_modules/playwright-core" \
  "file://$tmp/slider_crank_view/index.html?t=0.3" "$PWD/docs/images/tour_slider_crank_view.png" <<'JS'
const [playwright, url, out] = process.argv.slice(2);
const { chromium } = require(playwright);
(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox'],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 750 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.mechdynViewer && window.mechdynViewer.ready, null, { timeout: 60000 });
  await page.mouse.move(420, 375);       // over the 3D view
  await page.mouse.wheel(0, 300);        // orbit controls: zoom out
  await page.waitForTimeout(800);
  // the page's own check that the WebGL canvas holds the mechanism (viewer/src/main.js)
  const drawn = await page.evaluate(() => window.mechdynViewer.drawnFraction());
  if (errors.length || !(drawn > 0.005)) {
    console.error(`readme-images: the 3D view was not drawn (${drawn}); page errors: ${errors.join('; ')}`);
    process.exit(1);
  }
  await page.screenshot({ path: out });
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
JS
ls -l docs/images/tour_slider_crank_plot.png docs/images/tour_slider_crank_view.png
