#!/usr/bin/env bash
# tests/cost/run.sh: what the tool's own state costs, measured through
# Valgrind's accounting of the tool's allocations (--profile-heap=yes lists
# the bytes in use per allocation cost centre at exit: deterministic, unlike
# RSS or time), and that the compact per-site timelines read back exactly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
out="$TESTS_OUT/cost"
bin="$TESTS_BUILD/cost"
rm -rf "$out"
mkdir -p "$out" "$bin"

for prog in blocks series; do
  compile_c "$bin/$prog" "$here/progs/$prog.c" || { fail "compile $prog"; summary; exit 1; }
done

# profile_heap NAME PROG [ARGS]: runs PROG under lifeheap with
# --profile-heap=yes; the profile goes to NAME.json, the log to NAME.log.
profile_heap() {
  local name=$1; shift
  VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --profile-heap=yes \
    --lifeheap-out-file="$out/$name.json" "$@" >/dev/null 2>"$out/$name.log"
}

profile_heap blocks-20k "$bin/blocks" 20000 \
  && profile_heap blocks-40k "$bin/blocks" 40000 \
  && profile_heap series "$bin/series" \
  || fail "profiling the test programs" "see $out/*.log"

feed_checks "$here/check.py" "$out"
summary
