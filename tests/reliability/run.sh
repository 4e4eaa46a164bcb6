#!/usr/bin/env bash
# tests/reliability/run.sh: nothing is lost when programs misbehave (issue 7;
# docs/reliability.md lists each case and its guarantee).  Crashes, fork and
# exec, 64 threads, periodic and vgdb dumps of a killed server, output
# problems, custom allocators, bad options, signal and atexit handlers, scale.
#   LIFEHEAP_SCALE_FULL=1 tests/reliability/run.sh   also runs the full-size
#   scale case (10M allocations, 1M live blocks, 100k sites; a few minutes)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
progs="$here/progs"
out="$TESTS_OUT/reliability"
bin="$TESTS_BUILD/reliability"
mkdir -p "$out" "$bin"
mountpoint -q "$out/mnt" 2>/dev/null && umount "$out/mnt"   # left by an interrupted run
rm -rf "${out:?}"/*

# checks NAME FILE ASSERTIONS...: tests/lib/profile_check.py's assertions
# (one PASS/FAIL line each), into the counters.
checks() { feed_checks "$TESTS_TOP/tests/lib/profile_check.py" "$@"; }

# lh ARGS...: valgrind --tool=lifeheap from the build tree.
lh() { VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap "$@"; }

# start_lh STDOUT LOG ARGS...: lifeheap in the background; $bg_pid is
# valgrind's own pid (the subshell execs it), killed at the latest on exit.
bg_pid=
start_lh() {
  local so=$1 log=$2; shift 2
  ( exec env VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap "$@" >"$so" 2>"$log" ) &
  bg_pid=$!
}
stop_lh() { kill -9 "$bg_pid" 2>/dev/null; wait "$bg_pid" 2>/dev/null; bg_pid=; }
trap '[ -n "$bg_pid" ] && kill -9 "$bg_pid" 2>/dev/null; mountpoint -q "$out/mnt" 2>/dev/null && umount "$out/mnt"' EXIT

# status_of NAME PROFILE-OPTIONS... -- PROG ARGS: runs under lifeheap in a
# subshell (so the shell's "Segmentation fault" notice stays quiet) and sets
# $status to the exit status the shell saw.
run_quiet() {
  local name=$1; shift
  ( lh "$@" >"$out/$name.stdout" 2>"$out/$name.log" ) 2>/dev/null
  status=$?
}

# wait_for CONDITION-COMMAND...: polls up to 60 s.
wait_for() {
  local i
  for i in $(seq 300); do "$@" && return 0; sleep 0.2; done
  return 1
}

no_temp_files() { [ -z "$(find "$1" -name '*.tmp-*' 2>/dev/null)" ]; }

# --- build
for p in crash fork execd threads64 server pool sighandler scale; do
  compile_c "$bin/$p" "$progs/$p.c" || fail "build $p" "gcc failed"
done
if [ ! -x "$bin/uncaught" ] || [ "$progs/uncaught.cc" -nt "$bin/uncaught" ]; then
  g++ -O0 -g -o "$bin/uncaught" "$progs/uncaught.cc" || fail "build uncaught" "g++ failed"
fi

# --- crashes: the profile is written, complete and valid, and says how the
# program ended.  The known site: 3 blocks of 100 bytes, one freed.
known=(valid run.complete=true run.dump_reason=exit
       "site[frame=alloc_known].total_blocks=3" "site[frame=alloc_known].total_bytes=300"
       "site[frame=alloc_known].freed_blocks=1" "site[frame=alloc_known].bytes_at_exit=200")
crash_case() {   # NAME EXPECTED-STATUS ASSERTIONS... -- ARGS
  local name=$1 expected=$2; shift 2
  local asserts=()
  while [ "$1" != "--" ]; do asserts+=("$1"); shift; done
  shift
  run_quiet "$name" --lifeheap-out-file="$out/$name.json" "$bin/crash" "$@"
  check_eq "$name: exit status as without lifeheap" "$expected" "$status"
  checks "$name" "$out/$name.json" "${known[@]}" "${asserts[@]}"
}
crash_case exit3 3 run.exit.status=exited run.exit.code=3 -- exit 3
crash_case _exit5 5 run.exit.status=exited run.exit.code=5 -- _exit 5
crash_case segv 139 run.exit.status=signal run.exit.signal=null -- segv
crash_case abort 134 run.exit.status=signal run.exit.signal=6 run.exit.signal_name=SIGABRT -- abort
crash_case sigterm 143 run.exit.status=signal run.exit.signal=15 run.exit.signal_name=SIGTERM -- term
crash_case thread-exit 6 run.exit.status=exited run.exit.code=6 run.threads=2 -- thread-exit 6
# A worker thread's exit() of its own must not make a later crash read as "exited".
crash_case segv-after-thread 139 run.exit.status=signal run.threads=2 -- segv-after-thread

run_quiet uncaught --lifeheap-out-file="$out/uncaught.json" "$bin/uncaught"
check_eq "uncaught C++ exception: exit status as without lifeheap" 134 "$status"
checks uncaught "$out/uncaught.json" valid run.complete=true run.exit.status=signal \
  run.exit.signal=6 run.exit.signal_name=SIGABRT "site[frame=alloc_known()].total_bytes=100"

# --- atexit handlers and signal handlers that allocate are accounted
run_quiet atexit --lifeheap-out-file="$out/atexit.json" "$bin/crash" atexit
check_eq "atexit: exit status" 4 "$status"
checks atexit "$out/atexit.json" valid run.exit.code=4 \
  "site[frame=in_atexit].total_blocks=2" "site[frame=in_atexit].total_bytes=1400" "site[frame=in_atexit].bytes_at_exit=1400"
run_quiet sighandler --lifeheap-out-file="$out/sighandler.json" "$bin/sighandler"
check_eq "signal handler: exit status" 0 "$status"
checks sighandler "$out/sighandler.json" valid "site[frame=on_usr1].total_blocks=10" \
  "site[frame=on_usr1].total_bytes=3330" "site[frame=on_usr1].blocks_at_exit=10"

# --- 64 threads allocating and freeing at once: exact totals
run_quiet threads64 --lifeheap-out-file="$out/threads64.json" "$bin/threads64"
check_eq "threads64: exit status" 0 "$status"
checks threads64 "$out/threads64.json" valid run.threads=65 \
  "site[frame=churn_alloc].total_blocks=128000" "site[frame=churn_alloc].total_bytes=6080000" \
  "site[frame=churn_alloc].freed_blocks=128000" "site[frame=churn_alloc].allocating_threads=64" \
  "site[frame=churn_alloc].bytes_at_exit=0" \
  "site[frame=keep_alloc].total_blocks=64" "site[frame=keep_alloc].total_bytes=66016" \
  "site[frame=keep_alloc].allocating_threads=64" "site[frame=keep_alloc].cross_thread_frees=64"

# --- fork: each process its own file; the child includes inherited blocks
mkdir -p "$out/fork-p" "$out/fork-fixed" "$out/exec"
run_quiet fork-p --lifeheap-out-file="$out/fork-p/f.%p.json" "$bin/fork"
check_eq "fork %p: exit status" 0 "$status"
parent_pid=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$out/fork-p.log" | head -1)
child_file=$(ls "$out/fork-p" | grep -v "^f\.$parent_pid\.json$" | head -1)
check_eq "fork %p: two profiles" 2 "$(ls "$out/fork-p" | wc -l)"
checks fork-p-parent "$out/fork-p/f.$parent_pid.json" valid run.pid="$parent_pid" \
  "site[frame=before_fork_alloc].total_bytes=1000" "site[frame=parent_alloc].total_bytes=3000" \
  "nosite[frame=child_alloc]@$out/fork-p/$child_file" "marker=fork"
checks fork-p-child "$out/fork-p/$child_file" valid run.ppid="$parent_pid" \
  "site[frame=before_fork_alloc].total_bytes=1000" "site[frame=before_fork_alloc].bytes_at_exit=1000" \
  "site[frame=child_alloc].total_bytes=2000" "nosite[frame=parent_alloc]@$out/fork-p/f.$parent_pid.json" \
  "marker=fork (child starts)"

run_quiet fork-fixed --lifeheap-out-file="$out/fork-fixed/heap.json" "$bin/fork"
check_eq "fork fixed name: exit status" 0 "$status"
parent_pid=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$out/fork-fixed.log" | head -1)
child_file=$(ls "$out/fork-fixed" | grep -E '^heap\.[0-9]+\.json$' | head -1)
check_eq "fork fixed name: heap.json and heap.<child pid>.json" "2 heap.json" \
  "$(ls "$out/fork-fixed" | wc -l) $(ls "$out/fork-fixed" | grep -x heap.json)"
check "fork fixed name: the child's name has its pid" test -n "$child_file"
checks fork-fixed-parent "$out/fork-fixed/heap.json" valid run.pid="$parent_pid" \
  "site[frame=parent_alloc].total_bytes=3000" "nosite[frame=child_alloc]@$out/fork-fixed/$child_file"
checks fork-fixed-child "$out/fork-fixed/$child_file" valid run.ppid="$parent_pid" \
  "site[frame=child_alloc].total_bytes=2000" "nosite[frame=parent_alloc]@$out/fork-fixed/heap.json"

# exec under --trace-children=yes: the new program gets a profile of its own,
# and with a fixed name it does not overwrite the parent's.
run_quiet exec --trace-children=yes --lifeheap-out-file="$out/exec/heap.json" \
  "$bin/fork" exec "$bin/execd"
check_eq "exec: exit status" 0 "$status"
exec_file=$(ls "$out/exec" | grep -E '^heap\.[0-9]+\.json$' | head -1)
check "exec: the exec'd program has its own file" test -n "$exec_file"
checks exec-parent "$out/exec/heap.json" valid "site[frame=parent_alloc].total_bytes=3000" \
  "nosite[frame=execd_alloc]@$out/exec/${exec_file:-missing}"
checks exec-child "$out/exec/${exec_file:-missing}" valid "run.command.0=$bin/execd" \
  "site[frame=execd_alloc].total_bytes=2000" "nosite[frame=parent_alloc]@$out/exec/heap.json" \
  "nosite[frame=before_fork_alloc]@$bin/fork"

# exec without --trace-children: the new program runs natively, so the
# process writes what it had up to the exec (a partial profile, dump_reason
# "exec") and says so once. A forked child that execs writes nothing (a shell
# running commands would leave a file per command).
mkdir -p "$out/exec-native" "$out/exec-fails" "$out/exec-forked"
run_quiet exec-native --lifeheap-out-file="$out/exec-native/heap.json" \
  "$bin/fork" execnow "$bin/execd"
check_eq "exec-native: the exec'd program's exit status" 0 "$status"
checks exec-native "$out/exec-native/heap.json" valid \
  run.complete=false run.dump_reason=exec run.exit.status=running \
  "site[frame=before_fork_alloc].total_bytes=1000" "nosite[frame=execd_alloc]@$bin/execd"
check_eq "exec-native: one notice naming the program and the file" 1 \
  "$(grep -c "lifeheap: the program execs $bin/execd, which will run without lifeheap (--trace-children=yes profiles it); the profile up to the exec is in $out/exec-native/heap\.json" "$out/exec-native.log")"
run_quiet exec-forked --lifeheap-out-file="$out/exec-forked/heap.json" \
  "$bin/fork" exec "$bin/execd"
check_eq "exec-forked: only the parent's file" "heap.json" "$(ls "$out/exec-forked")"
# An exec that fails: the program goes on (to _exit(127)) and its final
# profile replaces the exec one.
run_quiet exec-fails --lifeheap-out-file="$out/exec-fails/heap.json" \
  "$bin/fork" execnow "$out/no-such-program"
check_eq "exec-fails: the program's exit status" 127 "$status"
checks exec-fails "$out/exec-fails/heap.json" valid \
  run.complete=true run.dump_reason=exit run.exit.code=127 "site[frame=before_fork_alloc].total_bytes=1000"

# --- periodic dumps, then kill -9: the last dump is a valid profile
dump_then_kill() {   # NAME MODE VALGRIND-OPTIONS...
  local name=$1 mode=$2; shift 2
  start_lh "$out/$name.stdout" "$out/$name.log" "$@" \
    --lifeheap-out-file="$out/$name.json" "$bin/server" "$mode"
  wait_for grep -q ready "$out/$name.stdout"
  # a dump made after "ready" holds at least its 100 sessions
  wait_for python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(s["total_blocks"] >= 100 and s["total_bytes"] == 64 * s["total_blocks"] for s in d["sites"]) else 1)' "$out/$name.json" 2>/dev/null
  stop_lh
  checks "$name" "$out/$name.json" valid run.complete=false run.dump_reason=interval \
    run.exit.status=running "site[frame=new_session].total_blocks>=100" \
    "site[frame=new_request].total_blocks>=100" "site[frame=new_request].bytes_at_exit<=256"
  check "$name: no temporary file left" no_temp_files "$out"
}
dump_then_kill dump-instructions compute --lifeheap-dump-interval=200000000
dump_then_kill dump-seconds sleep --lifeheap-dump-interval=1s

# Many dumps (every 1000 instructions), then a normal end: the final profile
# is complete and replaces the last dump.
run_quiet dump-final --lifeheap-dump-interval=1000 --lifeheap-out-file="$out/dump-final.json" \
  "$bin/crash" exit 0
checks dump-final "$out/dump-final.json" valid run.complete=true run.dump_reason=exit \
  run.exit.code=0 'run.options.dump_interval="1000"' "site[frame=alloc_known].total_bytes=300"

# %n names one file: the dumps and the final profile share it.
mkdir -p "$out/seq"
run_quiet dump-seq --lifeheap-dump-interval=1000 --lifeheap-out-file="$out/seq/p.%n.json" \
  "$bin/crash" exit 0
check_eq "dump-seq: %n gives one file for all dumps and the end" "p.1.json" "$(ls "$out/seq")"

# --- vgdb monitor command: dump on demand
# (a computing server: Valgrind's gdbserver then answers by polling, which
# needs no ptrace permission, unlike waking a process blocked in a syscall)
start_lh "$out/monitor.stdout" "$out/monitor.log" \
  --vgdb=yes --lifeheap-out-file="$out/monitor.json" "$bin/server" compute
pid=$bg_pid
wait_for grep -q ready "$out/monitor.stdout"
timeout 30 vgdb --pid="$pid" lifeheap dump "$out/monitor-file.json" >"$out/vgdb1.log" 2>&1
check "monitor: vgdb reports the dump" grep -q "profile written to $out/monitor-file.json" "$out/vgdb1.log"
timeout 30 vgdb --pid="$pid" lifeheap dump >"$out/vgdb2.log" 2>&1
check "monitor: dump without a file goes to the profile" grep -q "profile written to $out/monitor.json" "$out/vgdb2.log"
timeout 30 vgdb --pid="$pid" help >"$out/vgdb3.log" 2>&1
check "monitor: help lists lifeheap dump" grep -q "lifeheap dump \[<file>\]" "$out/vgdb3.log"
stop_lh
for f in monitor-file monitor; do
  checks "$f" "$out/$f.json" valid run.complete=false run.dump_reason=monitor \
    run.exit.status=running "site[frame=new_session].total_blocks>=100"
done

# --- output problems
expect_startup_error() {   # NAME TEXT OUT-FILE
  local name=$1 text=$2 file=$3
  run_quiet "$name" --lifeheap-out-file="$file" "$bin/crash" exit 0
  check_eq "$name: refused at start-up with exit status 1" 1 "$status"
  check "$name: one clear line" grep -q "^valgrind: lifeheap: cannot write the profile to '.*': $text" "$out/$name.log"
  check "$name: the program did not run (no profile, no summary)" \
    bash -c "! grep -q 'Profile:' '$out/$name.log'"
}
expect_startup_error nodir "no such directory" "$out/no/such/dir/p.json"
expect_startup_error isdir "is a directory" "$out"
expect_startup_error notdir "a component of the path is not a directory" "$out/nodir.log/p.json"
mnt="$out/mnt"
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k,ro tmpfs "$mnt" 2>/dev/null; then
  expect_startup_error readonly "read-only file system" "$mnt/p.json"
  umount "$mnt"
else
  skip "read-only directory" "needs root and tmpfs mounts"
fi
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
  # The program fills the disk after the start-up check; the write at exit fails.
  run_quiet diskfull --lifeheap-out-file="$mnt/p.json" /bin/sh -c "cat /dev/zero > $mnt/fill 2>/dev/null; exit 7"
  check_eq "disk full: the program's exit status is kept" 7 "$status"
  check "disk full: the error says so" grep -q "lifeheap: error: writing .* failed .*no profile written" "$out/diskfull.log"
  check "disk full: summary says not written" grep -q "Profile: not written" "$out/diskfull.log"
  check "disk full: no profile and no partial file" test -z "$(ls "$mnt" | grep -v '^fill$')"
  umount "$mnt"
else
  skip "disk full" "needs root and tmpfs mounts"
fi

# --- custom allocators (valgrind.h client requests)
run_quiet pool --lifeheap-out-file="$out/pool.json" "$bin/pool"
check_eq "pool: exit status" 0 "$status"
check "pool: MEMPOOL_EXISTS answers" grep -qz "exists before destroy: 1.exists after destroy: 0" "$out/pool.stdout"
checks pool "$out/pool.json" valid \
  "site[frame=pool_user].total_blocks=5" "site[frame=pool_user].total_bytes=240" "site[frame=pool_user].freed_blocks=2" \
  "site[frame=pool_user].reallocs=1" "site[frame=pool_user].realloc_requested_bytes=32" \
  "site[frame=pool_user].bytes_at_exit=128" "site[frame=pool_user].blocks_at_exit=3" \
  "site[frame=mp_user].total_blocks=4" "site[frame=mp_user].total_bytes=420" "site[frame=mp_user].freed_blocks=4" \
  "site[frame=mp_user].reallocs=1" "site[frame=mp_user].realloc_growth_bytes=20" "site[frame=mp_user].bytes_at_exit=0" \
  "site[frame=mp_user].max_bytes=400" "site[frame=pool_user].max_bytes=240"
check "pool: no warning for correct requests" bash -c "! grep -q 'lifeheap: warning' '$out/pool.log'"

# --- a program linked with jemalloc: malloc is replaced, jemalloc's own API is not
if [ -e /usr/include/jemalloc/jemalloc.h ] && [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.a ]; then
  src="$progs/jemalloc.c"
  gcc -O0 -g -fno-builtin -o "$bin/jemalloc-dynamic" "$src" -ljemalloc \
    && gcc -O0 -g -fno-builtin -o "$bin/jemalloc-linked" "$src" \
         -Wl,-Bstatic -ljemalloc -Wl,-Bdynamic -lpthread -lm -ldl \
    && gcc -O0 -g -fno-builtin -static -o "$bin/jemalloc-static" "$src" -ljemalloc -lpthread -lm \
    || fail "build jemalloc programs" "gcc failed"
  for variant in dynamic linked; do
    opts=()
    [ $variant = linked ] && opts=(--soname-synonyms=somalloc=NONE)
    run_quiet "jemalloc-$variant" "${opts[@]}" --lifeheap-out-file="$out/jemalloc-$variant.json" "$bin/jemalloc-$variant"
    checks "jemalloc-$variant" "$out/jemalloc-$variant.json" valid \
      "site[frame=std_alloc].total_blocks=5" "site[frame=std_alloc].bytes_at_exit=5000" \
        "nosite[frame=own_api_alloc]@$bin/jemalloc-$variant"
  done
  run_quiet jemalloc-static --soname-synonyms=somalloc=NONE \
    --lifeheap-out-file="$out/jemalloc-static.json" "$bin/jemalloc-static"
  check_eq "jemalloc-static: exit status" 0 "$status"
  checks jemalloc-static "$out/jemalloc-static.json" valid totals.blocks=0
else
  fail "jemalloc" "libjemalloc-dev is not installed (scripts/setup.sh installs it)"
fi

# --- bad options: Valgrind's error, exit status 1, never a crash
bad_option() {   # OPTION=VALUE
  local name="bad option $1"
  ( lh "$1" "$bin/crash" exit 0 >/dev/null 2>"$out/badopt.log" ) 2>/dev/null
  local st=$?
  if [ "$st" -ne 1 ]; then fail "$name" "exit status $st, expected 1"; return; fi
  if grep -Eq "impossible happened|Process terminating|Assertion" "$out/badopt.log"; then
    fail "$name" "crashed: $(grep -Em1 'impossible|terminating|Assertion' "$out/badopt.log")"; return
  fi
  if grep -Eq "Bad option|Unknown option|Invalid|cannot write the profile|cannot write the block file|--lifeheap-out-file" "$out/badopt.log"; then
    pass "$name"
  else
    fail "$name" "no error message: $(head -c 200 "$out/badopt.log")"
  fi
}
options=$(grep -ho '"--lifeheap-[a-z-]*"' "$top"/tool/*.c | tr -d '"' | sort -u)
check "bad options: the tool's options were found" test "$(echo "$options" | wc -l)" -ge 10
for opt in $options; do
  case "$opt" in
    --lifeheap-out-file)
      for v in "" "%q{LH_NO_SUCH_VARIABLE}" "$out/no/dir/p.json"; do bad_option "$opt=$v"; done ;;
    --lifeheap-symbolizer)
      for v in "" abc relative/lifeheap-symbolize; do bad_option "$opt=$v"; done ;;
    --lifeheap-blocks)   # a file name: empty, a directory, a missing directory
      for v in "" "$out" "$out/no/dir/b" "%q{LH_NO_SUCH_VARIABLE}"; do bad_option "$opt=$v"; done ;;
    --lifeheap-dump-interval)
      for v in "" -1 abc 10x 1.5s s 99999999999999999999999 9999999999s " 5"; do bad_option "$opt=$v"; done ;;
    *-fraction)
      for v in "" abc -0.1 1.5 nan 0.5x; do bad_option "$opt=$v"; done ;;
    *)   # integer options
      for v in "" abc -1 12x 99999999999999999999999; do bad_option "$opt=$v"; done ;;
  esac
  bad_option "${opt}"            # the option without a value
done
for v in 15 65537; do bad_option "--lifeheap-timeline-points=$v"; done
for opt in growth-min-blocks large-block-bytes churn-min-blocks realloc-min-per-block; do
  bad_option "--lifeheap-$opt=0"
done
bad_option "--lifeheap-bogus=1"

# --- scale (small here; LIFEHEAP_SCALE_FULL=1 for the full size)
scale_case() {   # NAME TOTAL LIVE SITES
  local name=$1 total=$2 live=$3 sites=$4
  run_quiet "$name" --lifeheap-out-file="$out/$name.json" "$bin/scale" "$total" "$live" "$sites"
  check_eq "$name: exit status" 0 "$status"
  # + the index array; the stdout buffer is freed at exit
  checks "$name" "$out/$name.json" valid "count[frame=level6]=$sites" \
    "totals.blocks=$((total + 2))" "at_exit.blocks=$((live + 1))" \
    "peak.blocks>=$((live + 2))" "site[frame=churn_alloc].total_blocks=$((total - live))"
}
scale_case scale-small 300000 100000 5000
if [ "${LIFEHEAP_SCALE_FULL:-0}" = 1 ]; then
  scale_case scale-full 10000000 1000000 100000
fi

summary
