#!/usr/bin/env bash
# tests/sql/run.sh: every block's life (--lifeheap-blocks) and `lifeheap sql`.
#   - service.c, a program with known answers: each query of docs/sql.md, as
#     written there, gives the rows its source implies; the blocks table
#     agrees with the profile's per-site figures for every site
#   - a run killed by SIGKILL: its block file holds exactly the full buffers
#     written before the kill, and loads without a profile
#   - walks.c: blocks walked byte by byte right up to their free, realloc or
#     the exit: every record and site figure holds all of the walk's bytes
#   - the block file's name and the database's path: refused when unsafe
#   - bad input to `lifeheap sql`: exit 2 with a message, nothing written
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
get() { python3 "$TESTS_TOP/tests/lib/profile_check.py" --get "$@"; }   # a value of a profile
top=$TESTS_TOP
out="$TESTS_OUT/sql"
bin="$TESTS_BUILD/sql"
lifeheap="$top/cli/lifeheap"
mkdir -p "$out" "$bin"
rm -rf "${out:?}"/*

lh() { VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap "$@"; }
checks() { feed_checks "$here/check.py" "$@"; }

bg_pid=
trap '[ -n "$bg_pid" ] && kill -9 "$bg_pid" 2>/dev/null' EXIT

# service.c includes lifeheap.h, which includes valgrind.h from Valgrind's
# include directory.
valgrind_include=$(sed -n 's/^VALGRIND_CPPFLAGS = //p' "$top/tool/Makefile")
for p in service killed; do
  compile_c "$bin/$p" "$here/progs/$p.c" $valgrind_include || fail "build $p" "gcc failed"
done

# --- a known program, its database, the documented queries
lh --fair-sched=yes --lifeheap-out-file="$out/service.json" \
   --lifeheap-blocks="$out/service.%p.blocks" "$bin/service" 2>"$out/service.log"
check_eq "service runs under lifeheap with --lifeheap-blocks" 0 $?
blocks=$(ls "$out"/service.*.blocks 2>/dev/null | head -1)
check "the block file's name expands %p" test -n "$blocks"
check_eq "the profile names the block file" "$blocks" \
  "$(get "$out/service.json" run.options.blocks_file)"
# blocks + reallocs, grouped by thousands (1,234)
records=$(echo $(($(get "$out/service.json" totals.blocks) + $(get "$out/service.json" totals.reallocs))) |
  sed ':a; s/\B[0-9]\{3\}\>/,&/; ta')
check "the summary's last line: the records (blocks + reallocs) and the file" \
  sh -c "tail -1 '$out/service.log' | grep -qF 'Blocks:  $records records in $blocks (lifeheap sql loads them)'"
"$lifeheap" sql "$out/service.json" "$blocks" -o "$out/service.db" 2>"$out/sql.log"
check_eq "lifeheap sql builds the database" 0 $?
check_eq "a complete run loads without a note" "" "$(cat "$out/sql.log")"
check "no temporary database is left beside it" \
  test -z "$(find "$out" -name 'service.db.tmp-*')"
checks queries "$lifeheap" "$out/service.db" "$top/docs/sql.md" "$here/progs/service.c" \
  "$out/service.json"

# -e without -o: the same answer from an in-memory database
got=$("$lifeheap" sql "$blocks" "$out/service.json" \
      -e "SELECT count(*) FROM blocks WHERE live" -e "SELECT 'a	b', NULL, 1")
check_eq "-e builds in memory (inputs in any order), prints TSV, escapes tabs, NULL empty" \
  "$(printf 'count(*)\n250\n'"'"'a\\tb'"'"'\tNULL\t1\na\\tb\t\t1')" "$got"

# --- a killed run: its block file up to the last flush
( exec env VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap \
    --lifeheap-out-file="$out/killed.json" --lifeheap-blocks="$out/killed.blocks" \
    "$bin/killed" >"$out/killed.stdout" 2>"$out/killed.log" ) &
bg_pid=$!
for _ in $(seq 300); do grep -q ready "$out/killed.stdout" 2>/dev/null && break; sleep 0.2; done
kill -9 "$bg_pid" 2>/dev/null; wait "$bg_pid" 2>/dev/null; bg_pid=
check "the killed program got ready" grep -q ready "$out/killed.stdout"
check "a killed run leaves no profile" test ! -e "$out/killed.json"
checks killed "$lifeheap" "$out/killed.blocks" 5000 4321

# --- a killed run with periodic dumps: the last dump's profile names the
#     sites of the records flushed with it
( exec env VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap \
    --lifeheap-out-file="$out/dumped.json" --lifeheap-blocks="$out/dumped.blocks" \
    --lifeheap-dump-interval=1000000 "$bin/killed" compute >"$out/dumped.stdout" 2>"$out/dumped.log" ) &
bg_pid=$!
for _ in $(seq 300); do grep -q ready "$out/dumped.stdout" 2>/dev/null && break; sleep 0.2; done
kill -9 "$bg_pid" 2>/dev/null; wait "$bg_pid" 2>/dev/null; bg_pid=
got=$("$lifeheap" sql "$out/dumped.json" "$out/dumped.blocks" -e \
  "SELECT count(*), count(site_id), (SELECT complete FROM runs) FROM blocks WHERE size = 4321" 2>"$out/dumped.sql.log")
check_eq "killed after a dump: all 5000 churned blocks flushed with it, each mapped to its site" \
  "$(printf 'count(*)\tcount(site_id)\t(SELECT complete FROM runs)\n5000\t5000\t0')" "$got"
check "... and the file said to have no trailer" grep -q "has no trailer" "$out/dumped.sql.log"

# --- blocks whose site the profile lacks keep their serial, site_id NULL
python3 - "$out/service.json" "$out/renumbered.json" <<'PY'
import json, lifeheap_profile, sys
profile = lifeheap_profile.load(sys.argv[1])
for site in profile["sites"]:
    if profile["frames"][site["stack"][site["name_frame"]]]["function"] == "make_scratch":
        site["serial"] = 999999
# written back in full (version 1): the schema allows no version 1 member in version 2
json.dump(lifeheap_profile.as_version1(profile), open(sys.argv[2], "w"))
PY
got=$("$lifeheap" sql "$out/renumbered.json" "$blocks" -e \
  "SELECT count(*), count(DISTINCT site_serial), min(size), max(size) FROM blocks WHERE site_id IS NULL" \
  2>"$out/renumbered.log")
check_eq "a site the profile lacks: its 30 blocks get site_id NULL, serial kept" \
  "$(printf 'count(*)\tcount(DISTINCT site_serial)\tmin(size)\tmax(size)\n30\t1\t1000\t1000')" "$got"
check "... and lifeheap sql counts them" grep -q "30 of 1737 blocks (1 sites) name a site the profile does not have" \
  "$out/renumbered.log"

# --- walks (progs/walks.c): blocks written or read byte by byte, each walk
# followed at once by a free, a realloc or the exit.  The access path keeps a
# walk aside until it ends; the block records and the profile's figures must
# hold every byte of it (the values are in walks.c's opening comment).
compile_c "$bin/walks" "$here/progs/walks.c" || fail "build walks" "gcc failed"
lh --lifeheap-out-file="$out/walks.json" --lifeheap-blocks="$out/walks.blocks" "$bin/walks" \
  >/dev/null 2>"$out/walks.log"
check_eq "walks: exit code" "0" "$(get "$out/walks.json" run.exit.code)"
got=$("$lifeheap" sql "$out/walks.json" "$out/walks.blocks" -e \
  "SELECT b.size, b.live, b.ended_by_realloc, b.previous IS NOT NULL AS continues,
          b.bytes_read, b.bytes_written
   FROM blocks b JOIN sites s ON s.id = b.site_id WHERE s.name LIKE 'main %'
   ORDER BY b.birth, b.size")
check_eq "walks: each record holds the walk that ended with the free, the realloc or the exit" \
"size	live	ended_by_realloc	continues	bytes_read	bytes_written
100	0	0	0	0	100
60	0	1	0	50	60
80	1	0	1	50	80
40	1	0	0	0	40" "$got"
feed_checks "$top/tests/lib/profile_check.py" --one \
  "walks: the sites' read, written, never-read and never-written bytes and unused capacity" "$out/walks.json" \
  "site[name=main,total_bytes=100]" ".access.bytes_written=100" \
  ".access.never_written_bytes=0" ".access.unused_capacity_bytes=0" \
  "site[name=main,total_bytes=40]" ".access.bytes_written=40" \
  ".access.never_written_bytes=0" ".access.unused_capacity_bytes=0" \
  "site[name=main,reallocs=1]" ".access.bytes_read=50" ".access.bytes_written=80" \
  ".access.never_read_bytes=30" ".access.never_written_bytes=0" \
  ".access.unused_capacity_bytes=0"

# --- custom allocators' blocks (tests/reliability/progs/pool.c) and fork
compile_c "$bin/pool" "$top/tests/reliability/progs/pool.c" || fail "build pool" "gcc failed"
compile_c "$bin/fork" "$top/tests/reliability/progs/fork.c" || fail "build fork" "gcc failed"
lh --lifeheap-out-file="$out/pool.json" --lifeheap-blocks="$out/pool.blocks" "$bin/pool" \
  >/dev/null 2>"$out/pool.log"
got=$("$lifeheap" sql "$out/pool.json" "$out/pool.blocks" -e \
  "SELECT s.name, b.size, b.live, b.ended_by_realloc, b.moved, b.previous IS NOT NULL AS continues,
          b.bytes_read + b.bytes_written AS accessed, count(*) AS blocks
   FROM blocks b JOIN sites s ON s.id = b.site_id WHERE b.custom
   GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6")
pool_src="$top/tests/reliability/progs/pool.c"
mp=$(grep -n 'VALGRIND_MEMPOOL_ALLOC(pool, p, n);' "$pool_src" | cut -d: -f1)
ml=$(grep -n 'VALGRIND_MALLOCLIKE_BLOCK(p, n, 0, 0);' "$pool_src" | cut -d: -f1)
check_eq "custom blocks: frees, an in-place resize, a move and its continuation, live ones" \
"name	size	live	ended_by_realloc	moved	continues	accessed	blocks
mp_alloc (pool.c:$mp)	100	0	0	0	0	0	3
mp_alloc (pool.c:$mp)	100	0	1	1	0	0	1
mp_alloc (pool.c:$mp)	120	0	0	0	1	0	1
pool_alloc (pool.c:$ml)	32	1	0	0	1	0	1
pool_alloc (pool.c:$ml)	48	0	0	0	0	0	2
pool_alloc (pool.c:$ml)	48	0	1	0	0	0	1
pool_alloc (pool.c:$ml)	48	1	0	0	0	0	2" "$got"

# Records shared by heap and custom blocks (tests/reliability/progs/pool_mixed.c):
# the first heap_user block takes the record of resize_user's block, which was
# resized (its stretch continued a record), yet starts a chain of its own; the
# custom block that took scratch's record (written) has no access figures;
# MEMPOOL_TRIM frees 3 chunks and keeps 3 live.
compile_c "$bin/pool_mixed" "$top/tests/reliability/progs/pool_mixed.c" || fail "build pool_mixed" "gcc failed"
lh --lifeheap-out-file="$out/pool_mixed.json" --lifeheap-blocks="$out/pool_mixed.blocks" "$bin/pool_mixed" \
  >/dev/null 2>"$out/pool_mixed.log"
got=$("$lifeheap" sql "$out/pool_mixed.json" "$out/pool_mixed.blocks" -e \
  "SELECT substr(s.name, 1, instr(s.name, ' ') - 1) AS site, b.size, b.custom, b.live, b.ended_by_realloc,
          b.moved, b.previous IS NOT NULL AS continues, b.bytes_read + b.bytes_written AS accessed,
          count(*) AS blocks
   FROM blocks b JOIN sites s ON s.id = b.site_id WHERE s.name NOT LIKE 'main %'
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8")
check_eq "heap and custom blocks sharing records: each block's own chain and figures" \
"site	size	custom	live	ended_by_realloc	moved	continues	accessed	blocks
heap_user	24	0	0	1	1	0	0	1
heap_user	24	0	1	0	0	0	0	3
heap_user	200	0	1	0	0	1	0	1
resize_user	24	1	0	0	0	1	0	1
resize_user	40	1	0	1	0	0	0	1
scratch	16	0	0	0	0	0	16	1
trim_user	64	1	0	0	0	0	0	3
trim_user	64	1	1	0	0	0	0	3" "$got"

(cd "$out" && lh --lifeheap-out-file=fork.json --lifeheap-blocks=fork.blocks "$bin/fork" \
  >/dev/null 2>"$out/fork.log")
child_blocks=$(ls "$out"/fork.blocks.* 2>/dev/null | head -1)
child_pid=${child_blocks##*.}
check "a forked child writes its own block file (name.<pid>)" test -n "$child_blocks"
fork_query="SELECT (SELECT pid FROM runs), group_concat(size, ' ') FROM
  (SELECT size FROM blocks WHERE live AND size IN (1000, 2000, 3000) AND site_id IS NOT NULL ORDER BY size)"
check_eq "the parent's file: its own live blocks, not the child's" \
  "$(printf '%s\t1000 3000' "$(get "$out/fork.json" run.pid)")" \
  "$("$lifeheap" sql "$out/fork.json" "$out/fork.blocks" -e "$fork_query" | tail -1)"
check_eq "the child's file: the inherited block and its own, with the child's profile" \
  "$(printf '%s\t1000 2000' "$child_pid")" \
  "$("$lifeheap" sql "$out/fork.$child_pid.json" "$child_blocks" -e "$fork_query" 2>/dev/null | tail -1)"

# --- Rust, built as users build it: a Vec grown by push, jobs sent over a channel
if command -v rustc >/dev/null; then
  if [ ! -x "$bin/handoff" ] || [ "$here/progs/handoff.rs" -nt "$bin/handoff" ]; then
    rustc -O -C debuginfo=1 -o "$bin/handoff" "$here/progs/handoff.rs" 2>"$out/rustc.log" \
      || fail "build handoff.rs" "$(head -3 "$out/rustc.log")"
  fi
  lh --fair-sched=yes --lifeheap-out-file="$out/handoff.json" --lifeheap-blocks="$out/handoff.blocks" \
    "$bin/handoff" 2>"$out/handoff.log"
  check_eq "Rust: handoff runs with --lifeheap-blocks" 0 $?
  chains=$(python3 - "$top/docs/sql.md" <<'PY'
import re, sys
print(re.search(r"<!-- query: realloc-chains -->\n```sql\n(.*?)```", open(sys.argv[1]).read(), re.S).group(1))
PY
)
  got=$("$lifeheap" sql "$out/handoff.json" "$out/handoff.blocks" -e "$chains" | grep grow_readings)
  line=$(grep -n 'readings.push(black_box(i));' "$here/progs/handoff.rs" | cut -d: -f1)
  check_eq "Rust: the Vec grown to 1,000 u64 is one chain of 9 records, 32 to 8192 bytes" \
    "$(printf 'handoff::grow_readings (handoff.rs:%s)\t9\t8\t32\t8192' "$line")" "$got"
  got=$("$lifeheap" sql "$out/handoff.json" "$out/handoff.blocks" -e \
    "SELECT count(*), sum(b.alloc_thread = 2 AND b.free_thread = 1), min(b.size), max(b.size), min(b.bytes_read)
     FROM blocks b JOIN sites s ON s.id = b.site_id WHERE s.name LIKE 'handoff::make_job %'" | tail -1)
  check_eq "Rust: 200 jobs made by the producer thread, read and dropped by main" \
    "$(printf '200\t200\t64\t64\t64')" "$got"
else
  fail "Rust handoff" "rustc is not installed (scripts/setup.sh installs it)"
fi

# --- torn and corrupt block files
head -c $((64 + 80 * 3 + 17)) "$blocks" >"$out/torn.blocks"
got=$("$lifeheap" sql "$out/torn.blocks" -e "SELECT count(*) FROM blocks" 2>"$out/torn.log")
check_eq "a partly written last record is ignored" "$(printf 'count(*)\n3')" "$got"
check "... and said so" grep -q "partly written last record" "$out/torn.log"
python3 - "$blocks" "$out/corrupt.blocks" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[64 + 80 * 2 + 76] = 0x40          # an unknown flag in record 3
open(sys.argv[2], "wb").write(data)
PY
"$lifeheap" sql "$out/corrupt.blocks" -o "$out/corrupt.db" 2>"$out/corrupt.log"
check_eq "a corrupt record: exit 2" 2 $?
check "... naming the record" grep -q "record 3 (at byte 224) is corrupt: unknown flags" "$out/corrupt.log"
check "... and no database written" test ! -e "$out/corrupt.db"

# --- the block file and the profile must be of one run
"$lifeheap" sql "$out/service.json" "$out/killed.blocks" -o "$out/mixed.db" 2>"$out/mixed.log"
check_eq "a block file of another run: exit 2" 2 $?
check "... saying so" grep -q "is from another run than" "$out/mixed.log"

# --- lifeheap sql: usage and bad input
run_sql() { "$lifeheap" sql "$@" >"$out/usage.out" 2>"$out/usage.log"; echo $?; }
check_eq "no input: exit 2" 2 "$(run_sql -o "$out/x.db")"
check_eq "nothing to do: exit 2" 2 "$(run_sql "$out/service.json")"
check "... saying what to give" grep -q "nothing to do" "$out/usage.log"
check_eq "a missing input: exit 2" 2 "$(run_sql "$out/nope.json" -o "$out/x.db")"
check_eq "two profiles: exit 2" 2 "$(run_sql "$out/service.json" "$out/service.json" -o "$out/x.db")"
check_eq "a bad query: exit 2" 2 "$(run_sql "$out/service.db" -e "SELECT nope FROM blocks")"
check "... with SQLite's message" grep -q "no such column: nope" "$out/usage.log"
check_eq "a database is only queried (no -o)" 2 "$(run_sql "$out/service.db" -o "$out/x.db")"
check_eq "an unknown option: exit 2" 2 "$(run_sql --frobnicate)"
mkdir -p "$out/adir"
check_eq "-o a directory: exit 2" 2 "$(run_sql "$out/service.json" -o "$out/adir")"
check "... the directory is untouched" test -d "$out/adir"
echo "precious" >"$out/target"
ln -sf "$out/target" "$out/link.db"
check_eq "-o a symbolic link: exit 2" 2 "$(run_sql "$out/service.json" -o "$out/link.db")"
check_eq "... its target is untouched" precious "$(cat "$out/target")"
cp "$blocks" "$out/blocks.copy"
check_eq "-o an input: exit 2" 2 "$(run_sql "$out/service.json" "$blocks" -o "$blocks")"
check "... the input is untouched" cmp -s "$blocks" "$out/blocks.copy"
check_eq "-o a file that is not a database: exit 2" 2 "$(run_sql "$out/service.json" -o "$out/target")"
check_eq "... it is untouched" precious "$(cat "$out/target")"
check "... saying why" grep -q "exists and is not an SQLite database" "$out/usage.log"
check_eq "-o -: exit 2" 2 "$(run_sql "$out/service.json" -o -)"
cp "$out/service.db" "$out/replace.db"
printf 'not json' >"$out/bad.json"
check_eq "a bad profile: exit 2" 2 "$(run_sql "$out/bad.json" -o "$out/replace.db")"
check "... the existing database is kept as it was" cmp -s "$out/service.db" "$out/replace.db"
check_eq "--schema prints the tables" 1 \
  "$("$lifeheap" sql --schema | grep -c '^CREATE TABLE blocks (')"
check "lifeheap --help lists sql" sh -c "'$lifeheap' --help | grep -q '^  sql '"

# --- the tool's --help and the refusal of an unsafe block file
check "valgrind --tool=lifeheap --help lists --lifeheap-blocks" \
  sh -c "VALGRIND_LIB='$top/tool/vglib' valgrind --tool=lifeheap --help 2>&1 | grep -q -- '--lifeheap-blocks=<file>'"

lh --lifeheap-out-file="$out/refused.json" --lifeheap-blocks="$out/adir" "$bin/killed" \
  >"$out/refused.stdout" 2>"$out/refused.log"
check_eq "--lifeheap-blocks=a directory: exit 1 at start-up" 1 $?
check "... saying why" grep -q "cannot write the block file '$out/adir': is a directory" "$out/refused.log"
check "... before the program ran" test ! -s "$out/refused.stdout"
lh --lifeheap-out-file="$out/refused.json" --lifeheap-blocks="$out/link.db" "$bin/killed" \
  >"$out/refused.stdout" 2>"$out/refused.log"
check_eq "--lifeheap-blocks=a symbolic link: exit 1" 1 $?
check_eq "... its target is untouched" precious "$(cat "$out/target")"
lh --lifeheap-out-file="$out/refused.json" --lifeheap-blocks="$out/nodir/b" "$bin/killed" \
  >"$out/refused.stdout" 2>"$out/refused.log"
check_eq "--lifeheap-blocks in a missing directory: exit 1" 1 $?
check "... saying why" grep -q "no such directory" "$out/refused.log"

summary
