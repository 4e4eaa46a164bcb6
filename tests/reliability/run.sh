#!/usr/bin/env bash
# tests/reliability/run.sh: nothing is lost when programs misbehave
# (docs/reliability.md lists each case and its guarantee).  Crashes, fork and
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
for p in crash fork execd threads64 server pool pool_mixed sighandler scale hostile_requests; do
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
check "exec-forked: the child says why it writes no profile" grep -q \
  "lifeheap: forked child [0-9]* execs $bin/execd, which will run without lifeheap (--trace-children=yes profiles it); no profile is written for this child" \
  "$out/exec-forked.log"
# An exec that fails: the program goes on (to _exit(127)) and its final
# profile replaces the exec one.
run_quiet exec-fails --lifeheap-out-file="$out/exec-fails/heap.json" \
  "$bin/fork" execnow "$out/no-such-program"
check_eq "exec-fails: the program's exit status" 127 "$status"
checks exec-fails "$out/exec-fails/heap.json" valid \
  run.complete=true run.dump_reason=exit run.exit.code=127 "site[frame=before_fork_alloc].total_bytes=1000"

# --trace-children=yes with --trace-children-skip (or -skip-by-arg) matching
# the exec'd program: Valgrind runs it natively, so the process's profile up
# to the exec is written and one line names the option; a forked child that
# execs a skipped program says it writes nothing.
mkdir -p "$out/exec-skip" "$out/exec-skip-arg" "$out/exec-skip-forked"
run_quiet exec-skip --trace-children=yes --trace-children-skip='*/execd' \
  --lifeheap-out-file="$out/exec-skip/heap.json" "$bin/fork" execnow "$bin/execd"
check_eq "exec-skip: the exec'd program's exit status" 0 "$status"
check_eq "exec-skip: one profile" "heap.json" "$(ls "$out/exec-skip")"
checks exec-skip "$out/exec-skip/heap.json" valid \
  run.complete=false run.dump_reason=exec "site[frame=before_fork_alloc].total_bytes=1000" \
  "nosite[frame=execd_alloc]@$bin/execd"
check_eq "exec-skip: one notice naming the option" 1 \
  "$(grep -c "lifeheap: the program execs $bin/execd, which will run without lifeheap (--trace-children-skip or --trace-children-skip-by-arg excludes it); the profile up to the exec is in $out/exec-skip/heap\.json" "$out/exec-skip.log")"
run_quiet exec-skip-arg --trace-children=yes --trace-children-skip-by-arg='*execd' \
  --lifeheap-out-file="$out/exec-skip-arg/heap.json" "$bin/fork" execnow "$bin/execd"
checks exec-skip-arg "$out/exec-skip-arg/heap.json" valid \
  run.dump_reason=exec "site[frame=before_fork_alloc].total_bytes=1000" \
  "nosite[frame=execd_alloc]@$bin/execd"
run_quiet exec-skip-forked --trace-children=yes --trace-children-skip='*/execd' \
  --lifeheap-out-file="$out/exec-skip-forked/heap.json" "$bin/fork" exec "$bin/execd"
check_eq "exec-skip-forked: the parent's profile only" "heap.json" "$(ls "$out/exec-skip-forked")"
checks exec-skip-forked "$out/exec-skip-forked/heap.json" valid run.complete=true \
  "site[frame=parent_alloc].total_bytes=3000" "nosite[frame=execd_alloc]@$bin/execd"
check "exec-skip-forked: the child says why it writes no profile" grep -q \
  "lifeheap: forked child [0-9]* execs $bin/execd, which will run without lifeheap (--trace-children-skip or --trace-children-skip-by-arg excludes it); no profile is written for this child" \
  "$out/exec-skip-forked.log"

# --- periodic dumps, then kill -9: the last dump is a valid profile
dump_then_kill() {   # NAME MODE VALGRIND-OPTIONS...
  local name=$1 mode=$2; shift 2
  start_lh "$out/$name.stdout" "$out/$name.log" "$@" \
    --lifeheap-out-file="$out/$name.json" "$bin/server" "$mode"
  wait_for grep -q ready "$out/$name.stdout"
  # a dump made after "ready" holds at least its 100 sessions
  wait_for python3 "$TESTS_TOP/tests/lib/profile_check.py" --holds "$out/$name.json" \
    "site[frame=new_session].total_blocks>=100"
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

# --- what the profile's name points at is never damaged (lh_outfile.c):
# a device, a FIFO or a symlink to one keeps its kind and is written
# through; a symlink to a regular file stays a link and its target gets the
# profile, with the target's mode kept.  Device nodes are made with mknod
# in the suite's own directory (root only); the system's /dev/null is only
# looked at, at the end.
targets="$out/targets"
mkdir -p "$targets"
crash_known=(valid "site[frame=alloc_known].total_bytes=300")
if mknod "$targets/null" c 1 3 2>/dev/null; then
  ln -s null "$targets/null-link"
  for name in null null-link; do
    run_quiet "target-$name" --lifeheap-out-file="$targets/$name" "$bin/crash" exit 0
    check_eq "device target $name: exit status" 0 "$status"
    check "device target $name: still a character device" test -c "$targets/null"
    check_eq "device target $name: device numbers kept" "1:3" "$(stat -c '%t:%T' "$targets/null")"
    check "device target $name: summary names it" grep -q "Profile: $targets/$name\$" "$out/target-$name.log"
  done
  check "device target: the symlink is still a symlink to it" \
    test "$(readlink "$targets/null-link")" = null
  check "device target: no temporary file left" no_temp_files "$targets"
  run_quiet target-null-dumps --lifeheap-dump-interval=1000 \
    --lifeheap-out-file="$targets/null" "$bin/crash" exit 0
  check "device target: periodic dumps are refused with one line" \
    grep -q "lifeheap: $targets/null is not a regular file: only the final profile is written to it (--lifeheap-dump-interval ignored)" "$out/target-null-dumps.log"
  check "device target: still a character device after dumps" test -c "$targets/null"
else
  skip "device targets" "mknod not permitted (needs root)"
fi

mkfifo "$targets/fifo"
( timeout 60 cat "$targets/fifo" >"$out/fifo-read.json" ) &
reader=$!
sleep 0.3
run_quiet target-fifo --lifeheap-out-file="$targets/fifo" "$bin/crash" exit 0
wait "$reader"
check "FIFO target: still a FIFO" test -p "$targets/fifo"
checks fifo-read "$out/fifo-read.json" "${crash_known[@]}"
# No reader: a clear error at once, no hang, the FIFO stays.
run_quiet target-fifo-noreader --lifeheap-out-file="$targets/fifo" "$bin/crash" exit 0
check_eq "FIFO without reader: the program's exit status" 0 "$status"
check "FIFO without reader: a clear error" grep -q \
  "lifeheap: error: cannot open $targets/fifo for writing: no process is reading it (a FIFO needs a reader when the profile is written); no profile written" \
  "$out/target-fifo-noreader.log"
check "FIFO without reader: still a FIFO" test -p "$targets/fifo"

echo "precious" >"$targets/real.json"
chmod 600 "$targets/real.json"
ln -s real.json "$targets/link.json"
run_quiet target-link --lifeheap-out-file="$targets/link.json" "$bin/crash" exit 0
check "symlink to a file: still a symlink" test "$(readlink "$targets/link.json")" = real.json
checks target-link "$targets/real.json" "${crash_known[@]}"
check_eq "symlink to a file: the target's mode is kept" 600 "$(stat -c %a "$targets/real.json")"
check "symlink to a file: no temporary file left" no_temp_files "$targets"
# A dangling symlink: the profile is created where it points.
ln -s made.json "$targets/dangling.json"
run_quiet target-dangling --lifeheap-out-file="$targets/dangling.json" "$bin/crash" exit 0
check "dangling symlink: still a symlink" test -L "$targets/dangling.json"
checks target-dangling "$targets/made.json" "${crash_known[@]}"

# /dev/stdout redirected to a file: the profile follows the program's own
# output (appended, the file is neither truncated nor replaced).
echo "before the run" >"$out/stdout-target.txt"
( lh --lifeheap-out-file=/dev/stdout /bin/sh -c 'echo program output' >>"$out/stdout-target.txt" 2>"$out/stdout-target.log" ) 2>/dev/null
python3 - "$out/stdout-target.txt" "$out/stdout-only.json" <<'PY' && pass "/dev/stdout target: program output, then the profile" || fail "/dev/stdout target: program output, then the profile" "see $out/stdout-target.txt"
import sys
text = open(sys.argv[1]).read()
start = text.index('{\n "format": "lifeheap-profile"')
assert text[:start] == "before the run\nprogram output\n", repr(text[:start])
open(sys.argv[2], "w").write(text[start:])
PY
checks stdout-target "$out/stdout-only.json" valid

# A directory behind a symlink, a socket, a symlink loop: refused at start-up.
mkdir -p "$targets/dir"
ln -s dir "$targets/dir-link"
ln -s loop-b "$targets/loop-a"
ln -s loop-a "$targets/loop-b"
expect_startup_error dir-link "is a directory" "$targets/dir-link"
expect_startup_error symlink-loop "too many levels of symbolic links" "$targets/loop-a"
if python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$targets/sock" 2>/dev/null; then
  expect_startup_error socket "is a socket, not a file" "$targets/sock"
  check "socket target: still a socket" test -S "$targets/sock"
else
  skip "socket target" "cannot bind a Unix socket here"
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
# A custom site's bytes count at the peak (400 for the mempool's, 128 for the
# bump allocator's, as bytes_at_peak), its accesses are not measured: the
# report says so rather than "of the 0 B live at the peak".
checks pool "$out/pool.json" "site[frame=mp_user].access.at_peak.bytes=400" \
  "site[frame=mp_user].bytes_at_peak=400" "site[frame=pool_user].access.at_peak.bytes=128" \
  "site[frame=pool_user].bytes_at_peak=128" "site[frame=pool_user].access.measured_bytes=0"
"$top/cli/lifeheap" report "$out/pool.json" >"$out/pool.report" 2>&1
check_eq "pool: the report says custom sites' accesses are not measured" \
  "400 B live at the peak, accesses not measured (custom allocator);128 B live at the peak, accesses not measured (custom allocator)" \
  "$(grep -o '[0-9][0-9]* B live at the peak, accesses not measured (custom allocator)' "$out/pool.report" | tr '\n' ';' | sed 's/;$//')"
check "pool: no \"of the 0 B live at the peak\"" bash -c "! grep -q 'of the 0 B live at the peak' '$out/pool.report'"

# MOVE_MEMPOOL and MEMPOOL_TRIM, and block records reused across origins
# (a heap block's record taken by a custom block and the reverse): the
# figures of tests/reliability/progs/pool_mixed.c's opening comment.
run_quiet pool_mixed --lifeheap-out-file="$out/pool_mixed.json" "$bin/pool_mixed"
check_eq "pool_mixed: exit status" 0 "$status"
check_eq "pool_mixed: the moved pool answers at its new anchor only" \
  "old anchor: 0, new anchor: 1;realloc ok" "$(tr '\n' ';' <"$out/pool_mixed.stdout" | sed 's/;$//')"
check "pool_mixed: no warning for correct requests" bash -c "! grep -q 'lifeheap: warning' '$out/pool_mixed.log'"
checks pool_mixed "$out/pool_mixed.json" valid \
  "site[frame=trim_user].total_blocks=6" "site[frame=trim_user].total_bytes=384" \
  "site[frame=trim_user].freed_blocks=3" "site[frame=trim_user].blocks_at_exit=3" \
  "site[frame=trim_user].bytes_at_exit=192" "site[frame=trim_user].access.measured_bytes=0" \
  "site[frame=resize_user].total_bytes=40" "site[frame=resize_user].reallocs=1" \
  "site[frame=resize_user].realloc_requested_bytes=24" "site[frame=resize_user].freed_blocks=1" \
  "site[frame=resize_user].access.measured_bytes=0" "site[frame=resize_user].access.bytes_written=0" \
  "site[frame=scratch].freed_blocks=1" "site[frame=scratch].access.bytes_written=16" \
  "site[frame=heap_user].total_blocks=4" "site[frame=heap_user].reallocs=1" \
  "site[frame=heap_user].realloc_bytes_copied=24" "site[frame=heap_user].realloc_growth_bytes=176" \
  "site[frame=heap_user].blocks_at_exit=4" "site[frame=heap_user].bytes_at_exit=272" \
  "site[frame=heap_user].access.measured_bytes=272" totals.invalid_frees=0

# --- requests that cannot be honoured: alignments past Valgrind's 16 MiB,
# impossible sizes, custom blocks past the address space or 2^53
run_quiet hostile_requests --lifeheap-out-file="$out/hostile_requests.json" "$bin/hostile_requests"
check_eq "hostile requests: the program runs to its end" 0 "$status"
check_eq "hostile requests: each fails as the program can see" \
  "memalign 1 GiB: NULL;aligned_alloc 32 MiB: NULL;posix_memalign 1 TiB: ENOMEM;malloc 2^62: NULL;calloc overflow: NULL;realloc 2^50: NULL;still running: g" \
  "$(tr '\n' ';' <"$out/hostile_requests.stdout" | sed 's/;$//')"
check "hostile requests: the alignment is explained once" \
  test "$(grep -c "lifeheap: warning: an allocation asked for 1073741824-byte alignment; Valgrind's allocator serves at most 16777216" "$out/hostile_requests.log")" -eq 1
check "hostile requests: the custom block's size is explained once" \
  test "$(grep -c 'lifeheap: warning: VALGRIND_MALLOCLIKE_BLOCK of 9223372036854775808 bytes .* larger than the address space' "$out/hostile_requests.log")" -eq 1
check "hostile requests: no assertion, no panic" \
  bash -c "! grep -qi 'impossible\|assert\|panic' '$out/hostile_requests.log'"
checks hostile_requests "$out/hostile_requests.json" valid totals.blocks=3 totals.bytes=174 \
  "site[frame=kept].total_bytes=64" "site[frame=grown].total_bytes=10" "site[frame=grown].reallocs=0" \
  "site[frame=custom_ok].total_bytes=100" "site[frame=custom_ok].reallocs=0" "site[frame=custom_ok].freed_blocks=1" \
  "nosite[frame=custom_huge]@$bin/hostile_requests" peak.bytes=174

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
  if grep -Eq "Bad option|Unknown option|Invalid|cannot write the profile|cannot write the block file|--lifeheap-out-file|--lifeheap-run-record" "$out/badopt.log"; then
    pass "$name"
  else
    fail "$name" "no error message: $(head -c 200 "$out/badopt.log")"
  fi
}
# Every option of the tool's list (tool/lh_options.def).
options=$("$top/scripts/options-doc.py" --list | awk '$1 ~ /^--lifeheap-/ { print $1 }' | sort -u)
check "bad options: the tool's options were found" test "$(echo "$options" | wc -l)" -ge 10
for opt in $options; do
  case "$opt" in
    --lifeheap-out-file)
      for v in "" "%q{LH_NO_SUCH_VARIABLE}" "$out/no/dir/p.json"; do bad_option "$opt=$v"; done ;;
    --lifeheap-symbolizer)
      for v in "" abc relative/lifeheap-symbolize; do bad_option "$opt=$v"; done ;;
    --lifeheap-run-record)   # a file name: empty, a directory, a missing directory
      for v in "" "$out" "$out/no/dir/r"; do bad_option "$opt=$v"; done ;;
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
check "the system's /dev/null is still a character device" test -c /dev/null

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
