# tests/lib.sh: shared helpers for the shell test suites (source it).
#
# Every suite prints one line per test, "PASS name", "FAIL name: reason" or
# "SKIP name: reason" (a test that cannot run here, e.g. it needs tmpfs
# mounts; a missing toolchain is no reason: scripts/setup.sh installs it),
# and ends with the line "N passed, N failed, N skipped"; scripts/test.sh
# sums them.
#
#   . "$(dirname "$0")/../lib.sh"
#   check "realloc keeps its site" test "$x" -eq 3
#   pass "name" / fail "name" "reason" / skip "name" "reason"
#   summary            # prints the closing line, returns 1 on any failure

TESTS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TESTS_BUILD="$TESTS_TOP/tests/bin"          # compiled test programs (git-ignored)
TESTS_OUT="$TESTS_TOP/tests/artifacts"        # profiles and logs kept for inspection
mkdir -p "$TESTS_BUILD" "$TESTS_OUT"
# Inline checks read profiles with tests/lib/lifeheap_profile.py (the omitted
# members put back, as the readers do: docs/format.md, "Omitted members").
export PYTHONPATH="$TESTS_TOP/tests/lib${PYTHONPATH:+:$PYTHONPATH}"
LH_PASSED=0
LH_FAILED=0
LH_SKIPPED=0

pass() { LH_PASSED=$((LH_PASSED + 1)); echo "PASS $1"; }
fail() { LH_FAILED=$((LH_FAILED + 1)); echo "FAIL $1: ${2:-failed}"; }
skip() { LH_SKIPPED=$((LH_SKIPPED + 1)); echo "SKIP $1: ${2:-cannot run here}"; }

# count_line LINE: counts one "PASS name" / "FAIL name: why" / "SKIP name:
# why" line printed by a helper script; returns 1 (and prints nothing) for
# any other line, which the caller shows or keeps.
count_line() {
  local line=$1
  case "$line" in
    "PASS "*) pass "${line#PASS }" ;;
    "FAIL "*) line=${line#FAIL }; fail "${line%%: *}" "${line#*: }" ;;
    "SKIP "*) line=${line#SKIP }; skip "${line%%: *}" "${line#*: }" ;;
    *) return 1 ;;
  esac
}

# check NAME COMMAND...: passes when COMMAND succeeds.
check() {
  local name=$1; shift
  if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}

# check_eq NAME EXPECTED ACTUAL
check_eq() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}

# compile_c OUT SRC [FLAGS...]: compiles a C test program once (again only when
# the source is newer). -O0 keeps malloc/free pairs that gcc would delete.
compile_c() {
  local out=$1 src=$2; shift 2
  if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    gcc -O0 -g -fno-builtin -pthread -I"$TESTS_TOP/tool" "$@" -o "$out" "$src" -pthread || return 1
  fi
}

# run_lifeheap OUTFILE PROG [ARGS...]: profiles PROG with the tool from the
# build tree, writing the profile to OUTFILE and valgrind's stderr to OUTFILE.log.
run_lifeheap() {
  local out=$1; shift
  VALGRIND_LIB="$TESTS_TOP/tool/vglib" valgrind --tool=lifeheap \
    --lifeheap-out-file="$out" "$@" 2>"$out.log"
}

# feed_checks SCRIPT ARGS...: runs a suite's Python checker and feeds its
# "PASS name" / "FAIL name: why" / "SKIP name: why" lines into the
# counters; other lines are shown as they are, and a checker that crashes
# is a failure.
feed_checks() {
  local script=$1 line; shift
  while IFS= read -r line; do
    count_line "$line" || echo "$line"
  done < <(python3 "$script" "$@" 2>&1 || echo "FAIL $(basename "$script") $1: exited with an error")
}

# run_unit_program NAME PROGRAM LOG [ARGS...]: runs a host-built unit test program,
# keeping its output in LOG, and counts its "PASS/FAIL/SKIP" lines; other
# lines are shown.  A program that exits non-zero without having reported a
# failure is one (a crash midway must not pass).
run_unit_program() {
  local name=$1 program=$2 log=$3 line status=0 failed_before=$LH_FAILED
  shift 3
  "$program" "$@" >"$log" 2>&1 || status=$?
  while IFS= read -r line; do
    count_line "$line" || echo "$line"
  done <"$log"
  if [ "$status" -ne 0 ] && [ "$LH_FAILED" -eq "$failed_before" ]; then
    fail "$name: exit" "the test program exited with status $status, see $log"
  fi
}

# Every lifeheap profile a suite writes (anywhere under $TESTS_OUT, however
# it ran the tool) is checked by tests/lib/profile_check.py --every when the
# suite ends: the schema, map sums, never-* relations, totals, and the sites'
# at_peak.bytes summing to peak.bytes.  Files newer than the mark made here
# are the suite's own.
LH_SUITE_MARK="$TESTS_OUT/.suite-start.$$"
touch "$LH_SUITE_MARK"

# A suite whose JSON files are not the tool's (the fuzzer's corpus of
# hand-written and mutated profiles) says so before its summary.
profiles_not_the_tools() { rm -f "$LH_SUITE_MARK"; }

check_every_profile() {
  local profiles=()
  [ -f "$LH_SUITE_MARK" ] || return 0
  mapfile -t profiles < <(find "$TESTS_OUT" -type f -name '*.json' -newer "$LH_SUITE_MARK" | sort)
  rm -f "$LH_SUITE_MARK"
  [ ${#profiles[@]} -gt 0 ] || return 0
  feed_checks "$TESTS_TOP/tests/lib/profile_check.py" --every \
    "every profile written: at_peak sums to peak, map sums, never-* relations, totals, schema" \
    "${profiles[@]}"
}

summary() {
  check_every_profile
  echo "$LH_PASSED passed, $LH_FAILED failed, $LH_SKIPPED skipped"
  [ "$LH_FAILED" -eq 0 ]
}
