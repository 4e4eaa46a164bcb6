#!/usr/bin/env bash
# scripts/demo.sh: install what is missing, build lifeheap, install it, profile
# the bundled unbounded-queue example, print its findings and write an HTML
# report. Idempotent; quick when everything is already set up.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

# The viewer is built with npm (its chart library is vendored at build time).
LIFEHEAP_SETUP_VIEWER=1 scripts/setup.sh

sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
echo "demo: installing lifeheap (make install)" >&2
$sudo make -s install >/dev/null

out=${LIFEHEAP_DEMO_DIR:-$top/demo-output}
mkdir -p "$out"
profile="$out/queue_unbounded.json"
echo
echo "demo: valgrind --tool=lifeheap --fair-sched=yes examples/queue_unbounded"
echo
# Two threads: --fair-sched=yes makes them take turns, so the queue piles up
# the same way on every run (lifeheap run passes it by itself).
valgrind --tool=lifeheap --fair-sched=yes --lifeheap-out-file="$profile" examples/queue_unbounded
echo
echo "demo: lifeheap report (top sites and findings)"
echo
lifeheap report "$profile" --top 5
lifeheap view "$profile" -o "$out/queue_unbounded.html"
echo
echo "demo: profile:     $profile"
echo "demo: HTML report: $out/queue_unbounded.html (open it in a browser)"
