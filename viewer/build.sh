#!/bin/sh
# Build the static viewer into viewer/dist/ (needs `npm ci` in viewer/ first).
set -eu
cd "$(dirname "$0")"
if [ ! -f node_modules/uplot/dist/uPlot.iife.min.js ]; then
  echo "viewer/build.sh: node_modules missing: run 'npm ci' in viewer/ first" >&2
  exit 1
fi
exec node build.js
