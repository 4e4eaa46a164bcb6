#!/usr/bin/env bash
# bench/cli_memory.sh: how much memory `lifeheap diff` needs for two large
# profiles, against their size on disk. The reader parses the document
# without its "frames" and "sites" arrays, then each frame and site on its
# own (cli/json_split.c), so it holds the text, the model and one element's
# json-c tree, not a tree of the whole document (about 13 times the text).
# Generates two synthetic profiles of SITES sites (bench/cli_bench_gen.py;
# default 100,000: about 260 MB each), then runs, once each:
#   report  lifeheap report BASE --top 1        peak RSS, ratio to BASE's size
#   diff    lifeheap diff BASE NEW              peak RSS, ratio to both sizes
# A benchmark, not a test: it prints numbers (docs/performance.md).
#
#   bench/cli_memory.sh                 # SITES=100000
#   SITES=20000 bench/cli_memory.sh     # quicker
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
lifeheap=${LIFEHEAP:-$top/cli/lifeheap}
sites=${SITES:-100000}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"

[ -s "$work/base.json" ] || python3 "$top/bench/cli_bench_gen.py" "$work/base.json" "$sites" 0
[ -s "$work/new.json" ] || python3 "$top/bench/cli_bench_gen.py" "$work/new.json" "$sites" 1
base_bytes=$(stat -c %s "$work/base.json")
new_bytes=$(stat -c %s "$work/new.json")
echo "profiles: $((base_bytes / 1048576)) MiB and $((new_bytes / 1048576)) MiB, $sites sites each (before the changed run's 5% churn)"

# peak_rss COMMAND...: the command's maximum resident set size in KiB.
peak_rss() {
  /usr/bin/time -o "$work/time.txt" -f '%M %x' "$@" >/dev/null 2>"$work/stderr.txt" || true
  local status
  status=$(tail -1 "$work/time.txt" | cut -d' ' -f2)
  if [ "$status" -ge 2 ]; then
    echo "error: $* exited $status: $(head -c 300 "$work/stderr.txt")" >&2
    exit 1
  fi
  tail -1 "$work/time.txt" | cut -d' ' -f1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

report_kib=$(peak_rss "$lifeheap" report "$work/base.json" --top 1)
echo "report: peak RSS $((report_kib / 1024)) MiB = $(ratio $((report_kib * 1024)) "$base_bytes") x the profile"
diff_kib=$(peak_rss "$lifeheap" diff "$work/base.json" "$work/new.json")
echo "diff:   peak RSS $((diff_kib / 1024)) MiB = $(ratio $((diff_kib * 1024)) $((base_bytes + new_bytes))) x both profiles"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem/ { print $2 }') GiB, load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${BENCH_DIR:-}" ] || rm -rf "$work"
