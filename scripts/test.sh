#!/usr/bin/env bash
# scripts/test.sh: install what is missing, build, and run every test suite.
# Each suite (tests/<name>/run.sh) prints PASS/FAIL/SKIP lines and closes
# with "N passed, N failed, N skipped"; this script sums them into the same
# closing line and exits non-zero when anything failed. A suite that exits
# non-zero without a failed test, or prints no closing line, is a failure.
#   scripts/test.sh [SUITE...]     run only the named suites (e.g. tool cli)
#   LIFEHEAP_TEST_NO_SETUP=1       run on the tree as built, installing nothing
#                                  (what `make check` does)
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(install tool access findings reliability cost cli sql cargo fuzz viewer names)

passed=0 failed=0 skipped=0
if [ "${LIFEHEAP_TEST_NO_SETUP:-0}" != 1 ] && ! LIFEHEAP_SETUP_BROWSER=1 scripts/setup.sh; then
  echo "FAIL build: scripts/setup.sh failed"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi

for suite in "${suites[@]}"; do
  runner="tests/$suite/run.sh"
  if [ ! -x "$runner" ]; then
    echo "FAIL $suite: there is no suite $runner"
    failed=$((failed + 1)); continue
  fi
  echo "== $suite"
  start=$(date +%s)
  log=$(mktemp)
  "$runner" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
  rm -f "$log"
  if [ -z "$last" ]; then
    echo "FAIL $suite: the suite did not print its closing line (exit $status)"
    failed=$((failed + 1)); continue
  fi
  read -r p _ f _ k _ <<<"${last//,/}"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $suite: exited $status with no failed test"
    failed=$((failed + 1))
  fi
  echo "== $suite: $p passed, $f failed, $k skipped in $(( $(date +%s) - start ))s"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
