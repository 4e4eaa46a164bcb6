#!/usr/bin/env bash
# tests/reliability/measure_scale.sh: the numbers in docs/performance.md
# ("Scale and memory overhead").  Runs progs/scale.c under --tool=none and
# lifeheap and prints peak RSS (maxrss of the valgrind process), wall and CPU
# time, and the profile's size:
#   A  1,000,000 live blocks at 1 site      -> overhead per live block
#   B  100,000 sites with 1 live block each  -> overhead and profile bytes per site
#   C  the issue's full case: 10M allocations, 1M live, 100k sites
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
bin="$TESTS_BUILD/reliability"
out="$TESTS_OUT/reliability-scale"
mkdir -p "$bin" "$out"
compile_c "$bin/scale" "$here/progs/scale.c" || exit 1

measure() {   # LABEL TOOL ARGS...
  local label=$1 tool=$2; shift 2
  local extra=()
  [ "$tool" = lifeheap ] && extra=(--lifeheap-out-file="$out/$label.json")
  VALGRIND_LIB="$top/tool/vglib" python3 - "$label" "$tool" "$out/$label.json" \
      valgrind --tool="$tool" "${extra[@]}" --log-file="$out/$label.$tool.log" \
      "$bin/scale" "$@" <<'PY'
import os, resource, subprocess, sys, time
label, tool, profile, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
start = time.time()
rc = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
wall = time.time() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
size = os.path.getsize(profile) if tool == "lifeheap" and os.path.exists(profile) else 0
print(f"{label:8} {tool:9} rc={rc} maxrss_kb={ru.ru_maxrss} wall_s={wall:.1f} "
      f"cpu_s={ru.ru_utime + ru.ru_stime:.1f} profile_bytes={size}")
PY
}

for tool in none lifeheap; do
  measure A $tool 1000000 1000000 1
  measure B $tool 100000 100000 100000
  measure C $tool 10000000 1000000 100000
done
