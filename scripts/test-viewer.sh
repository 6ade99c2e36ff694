#!/usr/bin/env bash
# The browser tests of `mechdyn view` (docs/viewer.md; viewer/test/browser_test.mjs), run
# by ctest as `viewer_browser`, and the check that the committed bundle is what
# viewer/src builds to (`viewer_bundle`), and the unit tests of the page's pure functions in
# Node.js (`viewer_unit`, viewer/test/unit_test.mjs).
#   bash scripts/test-viewer.sh browser MECHDYN_BINARY OUT_DIR
#   bash scripts/test-viewer.sh bundle OUT_DIR
#   bash scripts/test-viewer.sh unit
#   bash scripts/test-viewer.sh screenshots MECHDYN_BINARY   (the browser tests, then their
#        screenshots copied to docs/images/viewer_*.png for docs/viewer.md)
# Needs Debian's Chromium (/usr/bin/chromium, or $CHROMIUM) and viewer/node_modules
# (npm ci in viewer/); scripts/install-deps.sh installs both. Without them the test is
# skipped (exit 77, a ctest SKIP) with a line saying what is missing — except under CI
# (CI=true), where the install script has run and a missing piece is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
what=$1
shift
missing=""
if ! command -v node >/dev/null; then
  missing="node (Debian package nodejs)"
elif [ "$what" != bundle ] && [ "$what" != unit ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing="Node.js >= 20 for playwright-core (this is $(node --version))"
fi
[ -d viewer/node_modules/three ] && [ -d viewer/node_modules/esbuild ] && [ -d viewer/node_modules/playwright-core ] ||
  missing="${missing:+$missing, }viewer/node_modules (run: npm ci --prefix viewer)"
if [ "$what" = browser ] || [ "$what" = screenshots ]; then
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing="${missing:+$missing, }Chromium (Debian package chromium)"
fi
if [ -n "$missing" ]; then
  echo "test-viewer: SKIPPED, missing: $missing; scripts/install-deps.sh installs them"
  [ "${CI:-}" = true ] && { echo "test-viewer: CI=true: the install script should have installed them"; exit 1; }
  exit 77
fi
case "$what" in
  browser)
    mechdyn=$(realpath "$1")
    out=$(realpath -m "$2")
    rm -rf "$out"
    exec node viewer/test/browser_test.mjs "$mechdyn" "$PWD" "$out"
    ;;
  screenshots)
    out=out/viewer_screenshots
    rm -rf "$out"
    node viewer/test/browser_test.mjs "$(realpath "$1")" "$PWD" "$PWD/$out"
    mkdir -p docs/images
    for name in five_axis_friction three_loop three_loop_sliders floating_base spring_pendulum; do
      cp "$out/$name.png" "docs/images/viewer_$name.png"
    done
    ls -la docs/images/viewer_*.png
    ;;
  unit)
    exec node viewer/test/unit_test.mjs
    ;;
  bundle)
    out=$(realpath -m "$1")
    mkdir -p "$out"
    (cd viewer && node_modules/.bin/esbuild src/main.js --bundle --minify --format=iife --target=es2020 \
      --legal-comments=eof --log-level=warning --outfile="$out/viewer.js")
    if cmp -s "$out/viewer.js" viewer/dist/viewer.js; then
      echo "viewer bundle: viewer/dist/viewer.js is the build of viewer/src"
    else
      echo "viewer bundle: viewer/dist/viewer.js is stale: run 'npm run build --prefix viewer' and commit it"
      exit 1
    fi
    ;;
  *) echo "usage: test-viewer.sh browser MECHDYN OUT | bundle OUT | unit" >&2; exit 2 ;;
esac
