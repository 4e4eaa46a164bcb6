#!/usr/bin/env bash
# tests/cost/run.sh: what the tool's own state costs, measured through
# Valgrind's accounting of the tool's allocations (--profile-heap=yes lists
# the bytes in use per allocation cost centre at exit: deterministic, unlike
# RSS or time), and that the compact per-site timelines read back exactly.
# --stats=yes adds the arena's peak in use (the profile's output included).
# Also the speed mechanisms of the tool's fixed costs that need no profile
# to show them (the pattern matcher of start-up's redirections).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
out="$TESTS_OUT/cost"
bin="$TESTS_BUILD/cost"
rm -rf "$out"
mkdir -p "$out" "$bin"

for prog in blocks series sites bigarray pages pagesets pagedup classes stacks execfail stackloop deepalign argvswap; do
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
  && profile_heap sites-6 --stats=yes "$bin/sites" 6 \
  && profile_heap sites-7 --stats=yes "$bin/sites" 7 \
  && profile_heap sites-6-kept "$bin/sites" 6 keep \
  && profile_heap bigarray --stats=yes "$bin/bigarray" \
  && profile_heap pages "$bin/pages" \
  && profile_heap pagesets "$bin/pagesets" \
  && profile_heap pagedup "$bin/pagedup" \
  || fail "profiling the test programs" "see $out/*.log"
# classes prints its blocks' addresses: kept for the checks
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --profile-heap=yes \
  --lifeheap-out-file="$out/classes.json" "$bin/classes" >"$out/classes.out" 2>"$out/classes.log" \
  || fail "profiling classes" "see $out/classes.log"
# stacks: Valgrind's debug log (-d) names the size of every thread's stack
# it makes; the default run, then the user's size given on the command line
# and through VALGRIND_OPTS.
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap -d \
  --lifeheap-out-file="$out/stacks.json" "$bin/stacks" >/dev/null 2>"$out/stacks.log" \
  && VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap -d --valgrind-stacksize=1048576 \
  --lifeheap-out-file="$out/stacks-1m.json" "$bin/stacks" >/dev/null 2>"$out/stacks-1m.log" \
  && VALGRIND_LIB="$top/tool/vglib" VALGRIND_OPTS=--valgrind-stacksize=524288 valgrind \
  --tool=lifeheap -d --lifeheap-out-file="$out/stacks-opts.json" "$bin/stacks" \
  >/dev/null 2>"$out/stacks-opts.log" \
  || fail "profiling stacks" "see $out/stacks*.log"

# The malloc family's calls are made from the translation, not through the
# scheduler: --stats=yes counts the scheduler's events ("minor sched events",
# one each time the translations return to it).
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes \
  --lifeheap-out-file="$out/calls.json" "$bin/blocks" 20000 >/dev/null 2>"$out/calls.log" \
  || fail "profiling blocks 20000 with --stats=yes" "see $out/calls.log"
# The allocation stacks' unwinding (--stats=yes counts the frames found);
# merged recursive frames make the tool ask Valgrind for the full depth.
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes --merge-recursive-frames=2 \
  --lifeheap-out-file="$out/sites-6-merged.json" "$bin/sites" 6 >/dev/null 2>"$out/sites-6-merged.log" \
  || fail "profiling sites 6 with --merge-recursive-frames=2" "see $out/sites-6-merged.log"
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes \
  --lifeheap-out-file="$out/deepalign.json" "$bin/deepalign" >/dev/null 2>"$out/deepalign.log" \
  || fail "profiling deepalign with --stats=yes" "see $out/deepalign.log"
# The unwind stops at the first function below main (argvswap's header);
# with --show-below-main=yes it goes on to the end of the stack.
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes \
  --lifeheap-out-file="$out/argvswap.json" "$bin/argvswap" one two >/dev/null 2>"$out/argvswap.log" \
  && VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes --show-below-main=yes \
  --lifeheap-out-file="$out/argvswap-below.json" "$bin/argvswap" one two >/dev/null \
  2>"$out/argvswap-below.log" \
  || fail "profiling argvswap with --stats=yes" "see $out/argvswap*.log"
# The tool's own unwind against Valgrind's (--lifeheap-check-unwind=yes, a
# debugging option, unwinds every stack again with VG_(get_StackTrace)):
# frame-pointer code (-O0), code without frame pointers (-O2
# -fomit-frame-pointer, where every step needs the call-frame information),
# preload frames that extend the depth, argv swapped, and threads.
compile_c "$bin/sites-O2" "$here/progs/sites.c" -O2 -fomit-frame-pointer \
  || fail "compile sites at -O2"
for run in "sites 6" "sites-O2 6" "deepalign" "argvswap one two" "stacks"; do
  set -- $run
  VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes --lifeheap-check-unwind=yes \
    --lifeheap-out-file="$out/check-unwind-$1.json" "$bin/$1" "${@:2}" >/dev/null \
    2>"$out/check-unwind-$1.log" \
    || fail "profiling $run with --lifeheap-check-unwind=yes" "see $out/check-unwind-$1.log"
done
# How an allocation's stack finds its site (--stats=yes counts the answers).
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --stats=yes \
  --lifeheap-out-file="$out/stackloop.json" "$bin/stackloop" >/dev/null 2>"$out/stackloop.log" \
  || fail "profiling stackloop with --stats=yes" "see $out/stackloop.log"

# Valgrind's pattern matcher, VG_(string_match), is the tool's own
# (tool/lh_pattern_match.c): some two million calls at start-up bind the
# preload's redirection names to libc's functions.  The tool executable
# must have it, not the core's (whose object also defines charIsStar)...
nm "$top/tool/lifeheap-$(uname -m | sed 's/x86_64/amd64/')-linux.debug" >"$out/tool.nm" 2>/dev/null
check "pattern matcher: the tool's own, not the core's" \
  test "$(grep -c ' t match_rest$' "$out/tool.nm")/$(grep -c ' t charIsStar$' "$out/tool.nm")" = 1/0
# ... and it must answer as the core's does: both built for the host and
# compared on every short pattern and input (unit/pattern_match_test.c),
# the core's taken out of libcoregrind-<platform>.a with its names changed.
unit_test_pattern_match() {
  local cppflags defines vglibdir platform
  cppflags=$(sed -n 's/^VALGRIND_CPPFLAGS = //p' "$top/tool/Makefile")
  defines=$(sed -n 's/^VALGRIND_PLATFORM_DEFINES = //p' "$top/tool/Makefile")
  vglibdir=$(sed -n 's/^VALGRIND_LIBDIR = //p' "$top/tool/Makefile")
  platform=$(sed -n 's/^VALGRIND_PLATFORM = //p' "$top/tool/Makefile")
  if [ -z "$defines" ] || [ -z "$vglibdir" ]; then
    fail "pattern matcher: build" "tool/Makefile lacks the Valgrind settings (run scripts/setup.sh)"; return
  fi
  rm -rf "$bin/seqmatch" && mkdir -p "$bin/seqmatch"
  # shellcheck disable=SC2086
  if ! (cd "$bin/seqmatch" \
        && ar x "$vglibdir/libcoregrind-$platform.a" "libcoregrind_${platform//-/_}_a-m_seqmatch.o" \
        && objcopy --redefine-sym vgPlain_string_match=core_string_match \
             --redefine-sym vgPlain_generic_match=core_generic_match \
             "libcoregrind_${platform//-/_}_a-m_seqmatch.o" core_seqmatch.o) \
       >"$out/pattern_match_test.build.log" 2>&1 \
     || ! gcc -O2 -no-pie -Wall -Wextra -Wno-unused-parameter -Werror $cppflags $defines \
       -I"$top/tool" -o "$bin/pattern_match_test" "$top/tool/lh_pattern_match.c" \
       "$here/unit/pattern_match_test.c" "$bin/seqmatch/core_seqmatch.o" \
       >>"$out/pattern_match_test.build.log" 2>&1; then
    fail "pattern matcher: build" "see $out/pattern_match_test.build.log"; return
  fi
  run_unit_program "pattern matcher" "$bin/pattern_match_test" "$out/pattern_match_test.log"
}
unit_test_pattern_match
# In the tool itself, through --trace-children-skip (which the core
# matches against the path of the program exec'd, with VG_(string_match)):
# execfail execs a path that does not exist, and the tool says the program
# will run without it exactly when the pattern matches.
skipped_by() {   # PATTERN PATH: "yes" when the tool says PATTERN excludes PATH
  VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --trace-children=yes \
    --trace-children-skip="$1" --lifeheap-out-file="$out/match.json" \
    "$bin/execfail" "$2" >/dev/null 2>"$out/match.log"
  if grep -q "execs $2, which will run without lifeheap (--trace-children-skip" "$out/match.log"
  then echo yes; else echo no; fi
}
check_eq "pattern matcher: '*/m/a?c*' excludes .../m/abc" yes "$(skipped_by '*/m/a?c*' "$out/m/abc")"
check_eq "pattern matcher: '*/m/a?b*' does not exclude .../m/abc" no "$(skipped_by '*/m/a?b*' "$out/m/abc")"

feed_checks "$here/check.py" "$out"
summary
