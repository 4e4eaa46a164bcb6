#!/usr/bin/env bash
# bench/cli_bench.sh: how long the lifeheap command takes to load and diff
# two large profiles (issue: "a few seconds at most" for two 100 MB
# profiles). Generates two synthetic profiles with bench/cli_bench_gen.py
# (SITES sites each, about 100 MB with the default), then times, median of
# RUNS runs each:
#   load    lifeheap report BASE --top 1   (read, parse, validate, sort)
#   diff    lifeheap diff BASE NEW --fail-on 'site:peak_bytes>+50%'
#   dhat    lifeheap report BASE --format dhat
# and the peak RSS of the diff. A benchmark, not a test: it prints numbers.
#
#   bench/cli_bench.sh              # SITES=40000 (~100 MB each) RUNS=3
#   SITES=20000 bench/cli_bench.sh  # quicker
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lifeheap=${LIFEHEAP:-$top/cli/lifeheap}
sites=${SITES:-40000}
runs=${RUNS:-3}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

[ -s "$work/base.json" ] || python3 "$top/bench/cli_bench_gen.py" "$work/base.json" "$sites" 0
[ -s "$work/new.json" ] || python3 "$top/bench/cli_bench_gen.py" "$work/new.json" "$sites" 1
echo "profiles: $(du -m "$work/base.json" | cut -f1) MB and $(du -m "$work/new.json" | cut -f1) MB," \
     "$(jq '.sites | length' "$work/base.json") and $(jq '.sites | length' "$work/new.json") sites"

# measure COMMAND...: "W s wall, C s cpu": medians over $runs runs of the
# wall time and of the CPU time (user + sys). On a loaded machine the CPU
# time is the steadier figure.
measure() {
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    local line
    /usr/bin/time -o "$work/time.txt" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
    line=$(tail -1 "$work/time.txt")
    walls+=("$(echo "$line" | cut -d' ' -f1)")
    cpus+=("$(echo "$line" | awk '{ print $2 + $3 }')")
  done
  local middle=$(( (runs + 1) / 2 ))
  echo "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "${middle}p") s wall," \
       "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${middle}p") s cpu"
}

echo "load (report --top 1): $(measure "$lifeheap" report "$work/base.json" --top 1)"
echo "diff:                  $(measure "$lifeheap" diff "$work/base.json" "$work/new.json" --fail-on 'site:peak_bytes>+50%')"
echo "dhat export:           $(measure "$lifeheap" report "$work/base.json" --format dhat)"
/usr/bin/time -o "$work/time.txt" -f '%M' "$lifeheap" diff "$work/base.json" "$work/new.json" >/dev/null 2>&1 || true
rss=$(tail -1 "$work/time.txt")
echo "diff peak RSS:         $((rss / 1024)) MB"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${BENCH_DIR:-}" ] || rm -rf "$work"
