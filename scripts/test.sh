#!/usr/bin/env bash
# scripts/test.sh: install what is missing, build, and run every test suite.
# Each suite (tests/<name>/run.sh) prints PASS/FAIL lines and closes with
# "N passed, N failed"; this script sums them into the same closing line and
# exits non-zero when anything failed.
#   scripts/test.sh [SUITE...]     run only the named suites (e.g. tool cli)
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(install tool access findings reliability cost cli sql cargo fuzz viewer names)

passed=0 failed=0
if ! LIFEHEAP_SETUP_BROWSER=1 scripts/setup.sh; then
  echo "FAIL build: scripts/setup.sh failed"
  echo "0 passed, 1 failed"
  exit 1
fi

for suite in "${suites[@]}"; do
  runner="tests/$suite/run.sh"
  [ -x "$runner" ] || continue
  echo "== $suite"
  start=$(date +%s)
  log=$(mktemp)
  "$runner" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  rm -f "$log"
  if [ -z "$last" ]; then
    echo "FAIL $suite: the suite did not print its closing line (exit $status)"
    failed=$((failed + 1)); continue
  fi
  p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $suite: exited $status with no failed test"
    failed=$((failed + 1))
  fi
  echo "== $suite: $p passed, $f failed in $(( $(date +%s) - start ))s"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
