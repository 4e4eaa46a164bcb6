#!/usr/bin/env bash
# bench/blocks.sh: what every block's life costs at scale -- the block file
# (--lifeheap-blocks) and the `lifeheap sql` database for N blocks.
#
# The workload is liveheap (bench/workloads/liveheap.c) with LIVE = 100,000
# live blocks and OPS = N - LIVE free+malloc steps, so the run writes N block
# records (OPS blocks freed while it runs, then the LIVE it frees at its end;
# plus its array and stdio's buffer). Measured, once each,
# with lib/runstat (wall seconds, CPU seconds, peak RSS):
#   1. lifeheap without the option            (the baseline)
#   2. lifeheap --lifeheap-blocks=FILE         (its cost; FILE's size)
#   3. lifeheap sql PROFILE FILE -o DB         (build time; DB's size)
#   4. the slow-leak query of docs/sql.md on DB, and a per-site count over
#      every block (a full scan)
# Prints a markdown table. Not a test: nothing asserts a time.
#
#   bench/blocks.sh                 10,000,000 blocks (~1 GB of files in a temp dir)
#   bench/blocks.sh --blocks 1000000 --keep DIR
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
blocks=10000000
keep=
while [ $# -gt 0 ]; do
  case $1 in
    --blocks) blocks=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: bench/blocks.sh [--blocks N] [--keep DIR]" >&2; exit 2 ;;
  esac
done
live=100000
[ "$blocks" -gt $((live * 2)) ] || { echo "bench/blocks.sh: --blocks must be over $((live * 2))" >&2; exit 2; }
ops=$((blocks - live))

make -s -C "$top/bench" >/dev/null
build=$top/bench/build
lifeheap=$top/cli/lifeheap
[ -x "$lifeheap" ] && [ -x "$top/tool/vglib/lifeheap-amd64-linux" ] || {
  echo "bench/blocks.sh: build lifeheap first (scripts/setup.sh)" >&2; exit 2; }
if [ -n "$keep" ]; then work=$keep; mkdir -p "$work"; else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# measure NAME COMMAND...: one run; sets wall, cpu, rss_mb; the command's
# stdout goes to $work/NAME.out.
measure() {
  local name=$1; shift
  "$build/runstat" "$work/$name.stat" "$@" >"$work/$name.out" 2>"$work/$name.err"
  read -r status wall rss_kib cpu <"$work/$name.stat"
  [ "$status" -eq 0 ] || { echo "bench/blocks.sh: $name exited $status:" >&2; tail -5 "$work/$name.err" >&2; exit 1; }
  rss_mb=$((rss_kib / 1024))
}
mb() { echo $(( $(stat -c %s "$1") / 1000000 )); }
lh() { env VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap "$@"; }
export -f lh
export top

measure plain bash -c 'lh --lifeheap-out-file="$0/plain.json" "$1" "$2" "$3"' \
  "$work" "$build/liveheap" "$live" "$ops"
plain_wall=$wall plain_cpu=$cpu plain_rss=$rss_mb
measure blocks bash -c 'lh --lifeheap-out-file="$0/run.json" --lifeheap-blocks="$0/run.blocks" "$1" "$2" "$3"' \
  "$work" "$build/liveheap" "$live" "$ops"
blocks_wall=$wall blocks_cpu=$cpu blocks_rss=$rss_mb
records=$(( ($(stat -c %s "$work/run.blocks") - 64) / 80 - 1 ))
measure sql "$lifeheap" sql "$work/run.json" "$work/run.blocks" -o "$work/run.db"
sql_wall=$wall sql_cpu=$cpu sql_rss=$rss_mb
leak_query=$(python3 - "$top/docs/sql.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
print(re.search(r"<!-- query: slow-leak -->\n```sql\n(.*?)```", text, re.S).group(1))
PY
)
measure leak "$lifeheap" sql "$work/run.db" -e "$leak_query"
leak_wall=$wall
measure scan "$lifeheap" sql "$work/run.db" -e \
  "SELECT site_id, count(*), avg(lifetime), sum(bytes_read = 0) FROM blocks GROUP BY site_id"
scan_wall=$wall

cat <<EOF2
Block file and database for $records block records
(liveheap $live live blocks, $ops free+malloc steps; $(date -u '+%Y-%m-%d %H:%M UTC'),
load average $(cut -d' ' -f1-3 /proc/loadavg)):

| step | wall s | CPU s | peak RSS MB | output |
| --- | ---: | ---: | ---: | --- |
| lifeheap, no block file | $plain_wall | $plain_cpu | $plain_rss | profile |
| lifeheap --lifeheap-blocks | $blocks_wall | $blocks_cpu | $blocks_rss | block file $(mb "$work/run.blocks") MB |
| lifeheap sql -o (build) | $sql_wall | $sql_cpu | $sql_rss | database $(mb "$work/run.db") MB |
| slow-leak query (sql.md) | $leak_wall | | | $(($(wc -l <"$work/leak.out") - 1)) rows |
| per-site scan of every block | $scan_wall | | | $(($(wc -l <"$work/scan.out") - 1)) rows |
EOF2
