#!/bin/sh
# Viewer tests: the DOM-free model in node, and the built viewer in Debian's Chromium
# (playwright-core from viewer/node_modules). Prints "PASS name" / "FAIL name: reason"
# per test and ends with "N passed, N failed, N skipped"; exits non-zero when a test failed.
# Needs: `npm ci` in viewer/ and /usr/bin/chromium. Builds viewer/dist when missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ ! -d "$top/viewer/node_modules/playwright-core" ]; then
  echo "FAIL viewer setup: viewer/node_modules missing (run 'npm ci' in viewer/)"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
if [ ! -f "$top/viewer/dist/index.html" ] || [ -n "$(find "$top/viewer/src" "$top/viewer/build.js" "$top/docs/profile-rules.json" "$top/docs/metrics.json" "$top/docs/evidence-labels.json" -newer "$top/viewer/dist/index.html" 2>/dev/null | head -1)" ]; then
  if ! "$top/viewer/build.sh" >/dev/null; then
    echo "FAIL viewer build: viewer/build.sh failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
  fi
fi
mkdir -p "$top/tests/artifacts/viewer"
cd "$top" || exit 1
tap=$(mktemp)
node --test --test-concurrency=1 --test-reporter=tap "$here"/*.test.js > "$tap" 2>&1
node "$here/tap_summary.js" "$tap"
status=$?
cp "$tap" "$top/tests/artifacts/viewer/tap.txt" 2>/dev/null
rm -f "$tap"
exit $status
