#!/usr/bin/env bash
# tests/findings/run.sh: the timeline and the findings.
#
#   - timeline_unit: the downsampling grid compiled on the host and checked
#     against a brute-force replay of random allocation histories;
#   - every bad example in examples/ yields its finding on the right site,
#     with the evidence numbers its header comment derives; every fixed
#     example yields none of that kind; well_behaved yields none at all;
#   - every profile's timeline meets the contract (contract:timeline of
#     tests/lib/profile_check.py: at most timeline_points points, the exact
#     peak at peak_index, per-site series consistent with the site figures);
#   - LIFEHEAP_MARK labels land at the right place (progs/marks.c);
#   - unbounded growth through a generic wrapper is reported on the caller
#     (progs/list_growth.c); thresholds are tunable and validated;
#   - the corpus (corpus/): realistic bad, fixed and innocent programs in C,
#     C++ and Rust under both schedulers, with a recall table per kind.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

examples="$TESTS_TOP/examples"
bin="$TESTS_BUILD/findings"
out="$TESTS_OUT/findings"
mkdir -p "$bin" "$out"

# check_py NAME PROFILE ASSERTION...: one test made of
# tests/lib/profile_check.py's assertions (all must hold)
check_py() {
  local name=$1; shift
  feed_checks "$TESTS_TOP/tests/lib/profile_check.py" --one "$name" "$@"
}

# profile_example NAME [OPTIONS...]: profiles examples/NAME to $out/NAME.json
# and checks its timeline.  Returns non-zero (after a FAIL) when it could not.
profile_example() {
  local name=$1; shift
  if [ ! -x "$examples/$name" ]; then
    fail "$name: profile" "examples/$name is not built (scripts/setup.sh installs the toolchains and builds it)"; return 1
  fi
  if ! run_lifeheap "$out/$name.json" "$@" "$examples/$name" >/dev/null; then
    fail "$name: profile" "lifeheap or the program failed, see $out/$name.json.log"; return 1
  fi
  check_py "$name: timeline contract" "$out/$name.json" "contract:timeline"
  # The figures of its findings that are site fields are those fields (a
  # diff shows them for the other run's site). Only the problem examples
  # have findings.
  case $name in
    queue_unbounded*|prealloc_oversized*|leak_cache|growth_noreserve|churn)
      check_py "$name: findings' site figures are the site's fields" "$out/$name.json" "contract:evidence" ;;
  esac
}

# profile_prog NAME [OPTIONS...]: builds progs/NAME.c (lifeheap.h from tool/,
# valgrind.h from Valgrind's include directory), profiles it
valgrind_include=$(sed -n 's/^VALGRIND_CPPFLAGS = //p' "$TESTS_TOP/tool/Makefile")
profile_prog() {
  local name=$1; shift
  if ! compile_c "$bin/$name" "$here/progs/$name.c" $valgrind_include; then
    fail "$name: build" "gcc failed"; return 1
  fi
  if ! run_lifeheap "$out/$name.json" "$@" "$bin/$name" >/dev/null; then
    fail "$name: profile" "lifeheap or the program failed, see $out/$name.json.log"; return 1
  fi
  check_py "$name: timeline contract" "$out/$name.json" "contract:timeline"
}

# --- The downsampling algorithm on the host -------------------------------
unit_flags=$(sed -n 's/^VALGRIND_\(CPPFLAGS\|PLATFORM_DEFINES\) = //p' "$TESTS_TOP/tool/Makefile" | tr '\n' ' ')
if gcc -O1 -g -Wall -Wextra -Wno-unused-parameter $unit_flags -I"$TESTS_TOP/tool" \
     -o "$bin/timeline_unit" "$here/unit/timeline_unit.c" "$TESTS_TOP/tool/lh_timeline.c" \
     2>"$out/timeline_unit.build.log"; then
  # Its PASS/FAIL lines are counted like this suite's own.
  unit_end=
  while IFS= read -r line; do
    case $line in
      "exit "*) unit_end=$line ;;
      *) count_line "$line" || echo "$line" ;;
    esac
  done < <("$bin/timeline_unit" 2>&1; echo "exit $?")
  [ "$unit_end" = "exit 0" ] || fail "timeline unit" "the unit test ended with $unit_end"
else
  fail "timeline unit: build" "see $out/timeline_unit.build.log"
fi

# --- Bad examples: their finding on their site, with the numbers -----------
# The queues run under both of Valgrind's schedulers, the default one (how
# people run it) and --fair-sched=yes: the verdict must be the same.  How
# far the messages pile up depends on how the scheduler hands the CPU
# between the threads, so the pile-up's figures get floors, the counts that
# do not depend on scheduling exact values.
rm -f "$out/queue_unbounded-default.json" "$out/queue_unbounded-fair.json"
for sched in default fair; do
  sched_opt=; [ "$sched" = fair ] && sched_opt=--fair-sched=yes
  if profile_example queue_unbounded $sched_opt; then
    cp "$out/queue_unbounded.json" "$out/queue_unbounded-$sched.json"
    # 2,000 messages of 4,112 bytes, all allocated by the producer and
    # freed by the consumer (examples/README.md).
    check_py "queue_unbounded [$sched]: missing-backpressure on queue_push_message" \
      "$out/queue_unbounded.json" "finding[missing-backpressure@name=queue_push_message]" \
      ".evidence.cross_thread_frees=2000" ".evidence.freed_blocks=2000" \
      ".evidence.allocating_threads=1" ".evidence.bytes_at_exit=0" ".evidence.max_blocks>=300" \
      ".evidence.queue_depth>=100" ".evidence.occupancy_fraction<=0.75" \
      ".evidence.parallel_queue_depth>=100" ".evidence.parallel_wait_fraction>=0.05" \
      ".site.total_blocks=2000" ".site.total_bytes=8224000"
    check_py "queue_unbounded [$sched]: nothing on the staging buffer" "$out/queue_unbounded.json" \
      "nofinding[any@name=producer_main]"
  fi
  # Capacity 8: at most 10 messages live (8 queued, one being made, one
  # being handled), so no block waits behind 100 others.
  profile_example queue_bounded $sched_opt &&
    check_py "queue_bounded [$sched]: no missing-backpressure" "$out/queue_bounded.json" \
      "nofinding[missing-backpressure]" "count[name=queue_push_message]>=1"
  profile_example queue_unbounded_rs $sched_opt &&
    check_py "queue_unbounded_rs [$sched]: missing-backpressure on queue_push_message" \
      "$out/queue_unbounded_rs.json" \
      "finding[missing-backpressure@name=queue_unbounded::queue_push_message]" \
      ".site.total_blocks=2000" ".site.total_bytes=8192000" ".evidence.max_blocks>=300" \
      ".evidence.cross_thread_frees=2000" ".evidence.queue_depth>=100" \
      ".evidence.parallel_queue_depth>=100" ".evidence.parallel_wait_fraction>=0.05"
done
# The parallel clock (a CPU per thread) does not depend on how Valgrind's
# scheduler interleaved the threads: the consumer's own work per message and
# the messages' parallel wait are the same under both schedulers (measured:
# the free interval identical, the wait within 0.2%), when the depth seen in
# the run is not (429-577).
if [ -f "$out/queue_unbounded-default.json" ] && [ -f "$out/queue_unbounded-fair.json" ]; then
  verdict=$(python3 - "$out/queue_unbounded-default.json" "$out/queue_unbounded-fair.json" <<'PY'
import json, sys
def evidence(path):
    profile = json.load(open(path))
    return next(f["evidence"] for f in profile["findings"] if f["kind"] == "missing-backpressure")
a, b = evidence(sys.argv[1]), evidence(sys.argv[2])
problems = []
for key, tolerance in (("parallel_free_interval", 0.01), ("parallel_mean_wait", 0.02),
                       ("parallel_queue_depth", 0.02)):
    low, high = sorted((a[key], b[key]))
    if low <= 0 or (high - low) / low > tolerance:
        problems.append("%s %s (default) vs %s (fair)" % (key, a[key], b[key]))
print("; ".join(problems) or "same")
PY
)
  check_eq "queue_unbounded: the parallel figures are the same under both schedulers" same "$verdict"
fi

if profile_example prealloc_oversized; then
  check_py "prealloc_oversized: oversized-preallocation on the packet table" \
    "$out/prealloc_oversized.json" "finding[oversized-preallocation@name=connection_new]" \
    ".evidence.blocks=64" ".evidence.mean_block_bytes=262144" ".evidence.bytes_at_peak=16777216" \
    ".evidence.bytes_read=2048" ".evidence.never_read_bytes=16775168" \
    ".evidence.never_read_bytes_at_peak=16775168" ".evidence.written_never_read_bytes=16775168" \
    ".evidence.never_accessed_bytes=0" ".severity=high"
  # The write buffer: 64 x 10,240 bytes, only the first 32 of each written.
  # (The event queue, 64 x 1,600 bytes with 128 used, may get one too: the
  # check picks the write buffer's by its block size.)
  check_py "prealloc_oversized: unused-capacity on the write buffer" \
    "$out/prealloc_oversized.json" \
    "findings[kind=unused-capacity,evidence.mean_block_bytes=10240].#=1" \
    "finding[unused-capacity@name=connection_new&evidence.mean_block_bytes=10240]" \
    ".evidence.blocks=64" ".evidence.measured_bytes=655360" \
    ".evidence.unused_capacity_bytes=653312" ".evidence.unused_capacity_bytes_at_peak=653312" \
    ".evidence.bytes_at_peak=655360"
  check_py "prealloc_oversized: no growth finding on connections built at start" \
    "$out/prealloc_oversized.json" "nofinding[unbounded-growth]"
fi

if profile_example leak_cache; then
  check_py "leak_cache: leak on session_cache_insert" "$out/leak_cache.json" \
    "finding[leak@name=session_cache_insert]" \
    ".evidence.bytes_at_exit=2560000" ".evidence.blocks_at_exit=10000" \
    ".evidence.end_to_max_ratio=1" ".evidence.rising_fraction>=0.9" ".severity=high"
  check_py "leak_cache: one-time config is not a leak" "$out/leak_cache.json" \
    "nofinding[any@name=config_load]"
  check_py "leak_cache: one-time bucket array is not a leak" "$out/leak_cache.json" \
    "nofinding[any@name=session_cache_new]"
  check_py "leak_cache: exactly one finding" "$out/leak_cache.json" "findings=1"
  # Nothing is freed before libc releases its stdout buffer at exit: the
  # global series only rises up to the peak, one of the last two points.
  check_py "leak_cache: live bytes only rise until the peak at the end" "$out/leak_cache.json" \
    "timeline.peak_index>=@timeline.live_bytes.#-2" \
    "timeline.live_bytes[:@timeline.peak_index+1]=nondecreasing"
fi

# Determinism: a second run of the same single-threaded program gives the
# same timeline, findings and per-site series, byte for byte.
if [ -f "$out/leak_cache.json" ] &&
   run_lifeheap "$out/leak_cache-again.json" "$examples/leak_cache" >/dev/null; then
  check_py "leak_cache: timeline and findings identical in a second run" \
    "$out/leak_cache-again.json" "same[timeline]@$out/leak_cache.json" \
    "same[findings]@$out/leak_cache.json" "same[sites[*].timeline?]@$out/leak_cache.json" \
    "same[sites[*].growth]@$out/leak_cache.json"
fi

if profile_example growth_noreserve; then
  # 4,999 growing reallocs of one block by 16 bytes each: requested
  # 16 x (2 + ... + 5,000); copied at most 16 x (1 + ... + 4,999) =
  # 199,960,000 (less when the allocator's chunk had room to grow in place).
  check_py "growth_noreserve: realloc-growth on reading_log_append" "$out/growth_noreserve.json" \
    "finding[realloc-growth@name=reading_log_append]" \
    ".evidence.reallocs=4999" ".evidence.blocks=1" ".evidence.realloc_requested_bytes=200039984" \
    ".evidence.realloc_bytes_copied<=199960000" ".evidence.realloc_bytes_copied>=199000000" \
    ".evidence.max_bytes=80000"
fi

if profile_example churn; then
  check_py "churn: short-lived-churn on record_encode" "$out/churn.json" \
    "finding[short-lived-churn@name=record_encode]" \
    ".evidence.short_lived_blocks=200000" ".evidence.total_blocks=200000" \
    ".evidence.total_bytes=12800000" ".evidence.max_blocks=1"
  # A long run for the grid: 400,000 events, few points allowed.
  if run_lifeheap "$out/churn-16.json" --lifeheap-timeline-points=16 "$examples/churn" >/dev/null; then
    check_py "churn: 16-point timeline keeps its bound and the exact peak" "$out/churn-16.json" \
      "contract:timeline"
  else
    fail "churn: 16-point timeline" "run failed"
  fi
  if run_lifeheap "$out/churn-strict.json" --lifeheap-churn-min-blocks=300000 "$examples/churn" >/dev/null; then
    check_py "churn: --lifeheap-churn-min-blocks above the count silences it" \
      "$out/churn-strict.json" "nofinding[short-lived-churn]"
  else
    fail "churn: --lifeheap-churn-min-blocks" "run failed"
  fi
fi

# --- Fixed examples: none of their kind; well_behaved: none at all --------
profile_example prealloc_sized &&
  check_py "prealloc_sized: no oversized-preallocation" "$out/prealloc_sized.json" \
    "nofinding[oversized-preallocation]" "count[name=connection_new]>=1" &&
  check_py "prealloc_sized: no unused-capacity" "$out/prealloc_sized.json" \
    "nofinding[unused-capacity]" "count[name=connection_new]>=1"
profile_example leak_cache_evicting &&
  check_py "leak_cache_evicting: no leak" "$out/leak_cache_evicting.json" "nofinding[leak]" \
    "count[name=session_cache_insert]>=1"
profile_example growth_reserve &&
  check_py "growth_reserve: no realloc-growth" "$out/growth_reserve.json" \
    "nofinding[realloc-growth]" "count[name=reading_log_reserve]>=1"
profile_example churn_reuse &&
  check_py "churn_reuse: no short-lived-churn" "$out/churn_reuse.json" \
    "nofinding[short-lived-churn]" "count[name=record_buffer_new]>=1"
profile_example well_behaved &&
  check_py "well_behaved: no finding at all" "$out/well_behaved.json" "nofinding[any]" \
    "count[name=samples_load]>=1" &&
  check_eq "well_behaved: the summary says so" 1 \
    "$(grep -c '== Findings: none\.$' "$out/well_behaved.json.log")"

# --- C++: libstdc++'s start-up pool (library code only) is no finding -------
if ! command -v g++ >/dev/null; then
  fail "cxx_vector: build" "g++ is not installed (scripts/setup.sh installs it)"
else
  if g++ -O0 -g -o "$bin/cxx_vector" "$here/progs/cxx_vector.cc" &&
     run_lifeheap "$out/cxx_vector.json" "$bin/cxx_vector" >/dev/null; then
    check_py "cxx_vector: no finding on libstdc++'s emergency pool" "$out/cxx_vector.json" \
      "nofinding[any]"
    # The pool's stack is library code only; the program's vector is its own.
    check_py "cxx_vector: runtime_only marks the pool, not main's vector" "$out/cxx_vector.json" \
      "site[total_bytes>60000].runtime_only=true" \
      "site[name=main,total_bytes=4000].runtime_only=false"
    # Nor a summary note but the one that says it is the runtime's: the
    # pool (71 KiB, never written) is listed after main's two sites.
    cxx_log="$out/cxx_vector.json.log"
    check_eq "cxx_vector: the pool is listed after main's two sites, with the runtime note only" "2|1|1|0" \
      "$(grep -E ' blocks?  ' "$cxx_log" | head -2 | grep -c 'main (cxx_vector.cc:')|$(grep -E ' blocks?  ' "$cxx_log" | sed -n 3p | grep -c '71.0 KiB .*??? (in .*libstdc++')|$(grep -c "the runtime's own memory (its start-up or internals), not the program's code" "$cxx_log")|$(grep -c 'never written (unused capacity)' "$cxx_log")"
  else
    fail "cxx_vector: profile" "g++ or lifeheap failed, see $out/cxx_vector.json.log"
  fi
fi

# --- Rust examples (make builds them with the rustc scripts/setup.sh installs)
profile_example prealloc_oversized_rs &&
  check_py "prealloc_oversized_rs: oversized-preallocation on Connection::new" \
    "$out/prealloc_oversized_rs.json" \
    "finding[oversized-preallocation@name=prealloc_oversized::Connection::new]" \
    ".evidence.blocks=64" ".evidence.mean_block_bytes=262144" ".evidence.bytes_at_peak=16777216"

# --- A 1 MB CSV into Vec<Vec<String>>, and the lean form -------------------
# examples/csv_rows.rs and csv_rows_lean.rs derive every number below from
# csv_sample.csv (12,427 lines of 8 fields, 1,000,738 bytes).
if ! [ -x "$examples/csv_rows_rs" ] || ! [ -x "$examples/csv_rows_lean_rs" ] ||
   ! [ -f "$examples/csv_sample.csv" ]; then
  fail "csv_rows: profile" "examples/csv_rows_rs, csv_rows_lean_rs or csv_sample.csv is not built (scripts/setup.sh installs rustc and builds them)"
else
  if run_lifeheap "$out/csv_rows.json" "$examples/csv_rows_rs" "$examples/csv_sample.csv" \
       >"$out/csv_rows.stdout" &&
     run_lifeheap "$out/csv_rows_lean.json" "$examples/csv_rows_lean_rs" \
       "$examples/csv_sample.csv" >"$out/csv_rows_lean.stdout"; then
    check_eq "csv_rows: both forms print the same result" \
      "csv: 12427 rows, 3097 shipped, total 314120093.47|csv: 12427 rows, 3097 shipped, total 314120093.47" \
      "$(cat "$out/csv_rows.stdout")|$(cat "$out/csv_rows_lean.stdout")"
    # The rows vector: doubled from 4 to 16,384 rows of 24 bytes (12
    # reallocs, each moving the block), 12,427 rows used at the end; the
    # file text; the row vectors; the fields.  The peak: all of them plus
    # the runtime's few small blocks.
    rows_unused=$((393216 - 24 * 12427)) fields=99416
    peak=$((1000738 + 12427 * 192 + (1000738 - fields) + 393216))
    check_py "csv_rows: the rows vector's growth and unused capacity, every site's bytes" \
      "$out/csv_rows.json" \
      "site[name=csv_rows::read_rows,reallocs>0]" ".total_blocks=1" ".reallocs=12" \
      ".realloc_bytes_copied=$((24 * (16384 - 4)))" \
      ".realloc_requested_bytes=$((24 * (16384 * 2 - 8)))" ".bytes_at_peak=393216" \
      ".access.unused_capacity_bytes=$rows_unused" \
      ".access.at_peak.unused_capacity_bytes=$rows_unused" \
      "site[name=csv_rows::read_rows,reallocs=0]" ".total_blocks=1" ".bytes_at_peak=1000738" \
      "site[name=csv_rows::parse_row]" ".total_blocks=12427" ".total_bytes=$((12427 * 192))" \
      ".bytes_at_peak=$((12427 * 192))" ".reallocs=12427" ".realloc_bytes_copied=$((12427 * 96))" \
      "sum[name=csv_rows::parse_row::{{closure}}].total_blocks=$fields" \
      "sum[name=csv_rows::parse_row::{{closure}}].bytes_at_peak=$((1000738 - fields))" \
      "peak.bytes>=$peak" "peak.bytes<$((peak + 4096))" \
      "nofinding[realloc-growth]"
    # The lean form: three blocks, each allocated once at its final size.
    check_py "csv_rows: the lean form allocates each of its three blocks once" \
      "$out/csv_rows_lean.json" "count[name=csv_rows_lean::Table::read]=3" \
      "site[name=csv_rows_lean::Table::read,bytes_at_peak=49708]" ".total_blocks=1" ".reallocs=0" \
      ".access.unused_capacity_bytes=0" \
      "site[name=csv_rows_lean::Table::read,bytes_at_peak=397664]" ".total_blocks=1" ".reallocs=0" \
      ".access.unused_capacity_bytes=0" \
      "site[name=csv_rows_lean::Table::read,bytes_at_peak=1000738]" ".total_blocks=1" \
      ".reallocs=0" ".access.unused_capacity_bytes=0" \
      "peak.bytes>=1448110" "peak.bytes<$((1448110 + 4096))" "findings=0"
    # The summary tells the story without opening the profile.
    log="$out/csv_rows.json.log"
    row_line=$(grep -n "line.split(',')" "$TESTS_TOP/examples/csv_rows.rs" | cut -d: -f1)
    push_line=$(grep -n 'rows.push(parse_row(line))' "$TESTS_TOP/examples/csv_rows.rs" | cut -d: -f1)
    if grep -A1 "csv_rows::read_rows (csv_rows.rs:$push_line)\$" "$log" | grep -q \
         '   grown by 12 reallocs, 383.9 KiB copied; 92.7 KiB (24%) of it never written (unused capacity)$' &&
       grep -A1 "csv_rows::parse_row (csv_rows.rs:$row_line)\$" "$log" | grep -q \
         '   grown by 12,427 reallocs (1.0 per block), 1.1 MiB copied$' &&
       grep -A1 '86,989 blocks  csv_rows::parse_row::{{closure}}' "$log" | grep -q \
         "   9.8 B per block on average: glibc's malloc takes at least 32 B for each$"; then
      pass "csv_rows: the summary shows the regrowth, the unused capacity and the tiny blocks"
    else
      fail "csv_rows: the summary shows the regrowth, the unused capacity and the tiny blocks" "see $log"
    fi
    # A finding's frames: the allocator's caller and its next frame, then
    # the 6 frames of Vec and iterator code elided, then the frame before
    # the name frame, the name frame and two callers.
    if grep -A8 'unbounded-growth, site 0: The live bytes allocated in csv_rows::parse_row ' "$log" |
         sed 's/^==[0-9]*== //' | sed -n '2,8p' | tr '\n' '|' | grep -q \
         "^    at <alloc::raw_vec::RawVecInner>::try_allocate_in (in [^|]*)|    by alloc::raw_vec::RawVecInner<A>::with_capacity_in (mod.rs:[0-9]*)|    \\.\\.\\. 6 more frames (in the profile) \\.\\.\\.|    by core::iter::traits::iterator::Iterator::collect (iterator.rs:[0-9]*)|    by csv_rows::parse_row (csv_rows.rs:$row_line)   <- names the site|    by csv_rows::read_rows (csv_rows.rs:$push_line)|    by csv_rows::main (csv_rows.rs:[0-9]*)|\$"; then
      pass "csv_rows: a finding's library frames are elided in the summary"
    else
      fail "csv_rows: a finding's library frames are elided in the summary" "see $log"
    fi
  else
    fail "csv_rows: profile" "lifeheap or the program failed, see $out/csv_rows*.json.log"
  fi
fi

# --- A real interpreter: CPython's allocations are its runtime's ----------
# Debian's python3.11 has no symbols for its static functions; before the
# interpreter counted as runtime code this script got 8 findings named after
# CPython internals (its object arenas, json's accumulator lists), none of
# them something the script could change.
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import json' 2>/dev/null; then
  if run_lifeheap "$out/python_json.json" /usr/bin/python3 -c '
import json
data = [{"id": i, "name": "item%d" % i, "tags": ["a", "b", str(i % 7)], "price": i * 1.5}
        for i in range(20000)]
back = json.loads(json.dumps(data))
print(sum(d["price"] for d in back))' >"$out/python_json.stdout"; then
    check_eq "python3 json: the script ran" "299985000.0" "$(cat "$out/python_json.stdout")"
    check_py "python3 json: no finding inside the interpreter" "$out/python_json.json" \
      "nofinding[any]"
  else
    fail "python3 json: profile" "see $out/python_json.json.log"
  fi
fi

# --- Own programs -----------------------------------------------------------
if profile_prog marks; then
  # progs/marks.c: four marks around a 1 MiB block (the peak) and a small
  # one, the last label 255 characters long.
  m=timeline.markers
  labels=$(printf '["start", "big allocated", "big freed \\"quoted\\" \\u00e9", "%s"]' \
    "$(printf 'y%.0s' $(seq 255))")
  check_py "marks: labels in order" "$out/marks.json" "$m[*].label=$labels"
  check_py "marks: big_alloc holds the peak" "$out/marks.json" \
    "site[name=big_alloc].bytes_at_peak=1048576"
  check_py "marks: markers at the right place" "$out/marks.json" "$m.#=4" \
    "site[name=big_alloc].first_alloc_time>@$m.0.time" \
    "site[name=big_alloc].first_alloc_time<@$m.1.time" "$m.1.time<@$m.2.time" \
    "site[name=small_alloc].first_alloc_time>@$m.2.time" \
    "site[name=small_alloc].first_alloc_time<@$m.3.time"
  check_py "marks: the peak between the first two markers" "$out/marks.json" \
    "peak.time>@$m.0.time" "peak.time<@$m.1.time"
  "$bin/marks" && pass "marks: LIFEHEAP_MARK is a no-op natively" \
    || fail "marks: LIFEHEAP_MARK is a no-op natively" "exit status $?"
fi

if profile_prog many_marks; then
  check_py "many_marks: the first 10,000 markers kept, in order" "$out/many_marks.json" \
    "timeline.markers.#=10000" "timeline.markers.0.label=m0" "timeline.markers.-1.label=m9999" \
    "timeline.markers[*].time=increasing"
  check_eq "many_marks: one warning on stderr" 1 \
    "$(grep -c 'more than 10000 LIFEHEAP_MARK markers' "$out/many_marks.json.log")"
fi

if profile_prog prealloc_live; then
  # Blocks still live at exit count too (ACCESS folds them on demand).
  check_py "prealloc_live: oversized-preallocation on blocks never freed" \
    "$out/prealloc_live.json" "finding[oversized-preallocation@name=table_create]" \
    ".evidence.blocks=8" ".evidence.mean_block_bytes=131072" ".evidence.bytes_at_peak=1048576" \
    ".evidence.bytes_read=128" ".evidence.never_read_bytes=1048448" \
    ".evidence.written_never_read_bytes=1048448" ".evidence.never_read_bytes_at_peak=1048448"
  check_py "prealloc_live: 8 tables are not a leak" "$out/prealloc_live.json" "nofinding[leak]"
fi

if profile_prog both_ends; then
  check_py "both_ends: 80% never touched is no finding" "$out/both_ends.json" "nofinding[any]"
  log="$out/both_ends.json.log"
  if grep -A1 '1.0 MiB 99.6%        1 block   buffer_new (both_ends.c:' "$log" | grep -q \
       '   824.0 KiB (80%) of it never read nor written$'; then
    pass "both_ends: the summary says how much of the buffer was never touched"
  else
    fail "both_ends: the summary says how much of the buffer was never touched" "see $log"
  fi
fi

if profile_prog doubling; then
  check_py "doubling: realloc-growth at low severity on main's buffer" "$out/doubling.json" \
    "finding[realloc-growth@name=main]" ".evidence.reallocs=16" \
    ".evidence.blocks=1" ".evidence.realloc_bytes_copied=4194240" ".evidence.max_bytes=4194304" \
    ".severity=low"
  check_eq "doubling: the sentence does not ask it to grow geometrically" "1|0" \
    "$(grep -c 'it already grows geometrically; reserve the final size up front when it is known' "$out/doubling.json.log")|$(grep -c 'or grow geometrically' "$out/doubling.json.log")"
  check_py "doubling: its only finding" "$out/doubling.json" "findings=1"
fi

if profile_prog leak_in_churn; then
  check_py "leak_in_churn: leak found among temporaries of the same site" \
    "$out/leak_in_churn.json" "finding[leak@name=message_decode]" \
    ".evidence.bytes_at_exit=204800" ".evidence.blocks_at_exit=400" \
    ".evidence.end_to_max_ratio=1"
  check_py "leak_in_churn: and the temporaries are churn" "$out/leak_in_churn.json" \
    "finding[short-lived-churn@name=message_decode]" \
    ".evidence.total_blocks=40000" ".evidence.total_bytes=20480000" \
    ".evidence.short_lived_blocks>=39600"
fi

if profile_prog list_growth; then
  check_py "list_growth: unbounded-growth on history_append, past xmalloc" "$out/list_growth.json" \
    "finding[unbounded-growth@name=history_append]" \
    ".evidence.max_blocks=3000" ".evidence.max_bytes=1536000" ".evidence.freed_blocks=3000" \
    ".evidence.cross_thread_frees=0" ".evidence.allocating_threads=1" \
    ".evidence.bytes_at_exit=0" ".evidence.rising_fraction>=0.9"
  # xmalloc is the allocator's caller in every stack, and names nothing.
  check_py "list_growth: no site and no finding named after the wrapper" "$out/list_growth.json" \
    "count[top=xmalloc]>=1" "nosite[name=xmalloc]@$bin/list_growth" \
    "none:findings[*].summary~.*xmalloc.*"
  # The stderr summary: the finding, then the stack from the allocator's
  # caller, the name frame marked.
  log="$out/list_growth.json.log"
  if grep -q '\[high\] unbounded-growth, site 0: The live bytes allocated in history_append' "$log" &&
     grep -A1 'unbounded-growth, site 0' "$log" | grep -q 'at xmalloc (list_growth.c:' &&
     grep -q 'by history_append (list_growth.c:[0-9]*)   <- names the site' "$log"; then
    pass "list_growth: the summary shows the finding with the site's frames"
  else
    fail "list_growth: the summary shows the finding with the site's frames" "see $log"
  fi
fi

# A label longer than any fixed buffer: the leaking function's name is 250
# characters, its label 268 (progs/long_label.c); the sentence names the site by its whole
# label, in the profile and on stderr.
if profile_prog long_label; then
  long_name=$(sed -n 's/^#define LONG_NAME //p' "$here/progs/long_label.c")
  malloc_line=$(grep -n 'malloc(sizeof \*record)' "$here/progs/long_label.c" | cut -d: -f1)
  check_eq "long_label: the leaking function's name is 250 characters" 250 "${#long_name}"
  check_py "long_label: leak on the long-named site" "$out/long_label.json" \
    "finding[leak@name=$long_name]" ".evidence.bytes_at_exit=102400" ".evidence.blocks_at_exit=400"
  check_eq "long_label: the sentence in the profile holds the whole label" 1 \
    "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(f["summary"].startswith(sys.argv[2] + " keeps allocating") for f in d["findings"]))' \
       "$out/long_label.json" "$long_name (long_label.c:$malloc_line)")"
  check_eq "long_label: the stderr summary holds the whole label" 1 \
    "$(grep -cF "[high] leak, site 0: $long_name (long_label.c:$malloc_line) keeps allocating" "$out/long_label.json.log")"
fi

# Materiality relative to the run: a 65,000-byte buffer, 100 bytes used,
# 20% of a small program's peak (progs/small_buffer.c).
if profile_prog small_buffer; then
  check_py "small_buffer: unused-capacity on a buffer under 64 KiB that is 20% of the peak" \
    "$out/small_buffer.json" "finding[unused-capacity@name=reply_buffer_new]" \
    ".evidence.blocks=1" ".evidence.measured_bytes=65000" \
    ".evidence.unused_capacity_bytes=64900" ".evidence.unused_capacity_bytes_at_peak=64900" \
    ".evidence.bytes_at_peak=65000" ".severity=medium"
  check_py "small_buffer: nothing on the table used in full" "$out/small_buffer.json" \
    "nofinding[any@name=table_new]"
  check_py "small_buffer: its only finding" "$out/small_buffer.json" "findings=1"
  if run_lifeheap "$out/small_buffer-share.json" --lifeheap-min-finding-share=0.25 \
       "$bin/small_buffer" >/dev/null; then
    check_py "small_buffer: below --lifeheap-min-finding-share (0.25) it is no finding" \
      "$out/small_buffer-share.json" "nofinding[unused-capacity]" \
      "count[name=reply_buffer_new]>=1"
  else
    fail "small_buffer: --lifeheap-min-finding-share" "run failed"
  fi
fi

# Zero fill by the allocator initialises a block (progs/zeroed_table.c).
if profile_prog zeroed_table; then
  check_py "zeroed_table: calloc'd and read in full: no unused capacity, no write invented" \
    "$out/zeroed_table.json" "site[name=counts_new]" ".access.measured_bytes=262144" \
    ".access.bytes_read=262144" ".access.bytes_written=0" ".access.unused_capacity_bytes=0" \
    ".access.never_written_bytes=262144" ".access.never_read_bytes=0"
  check_py "zeroed_table: no finding" "$out/zeroed_table.json" "nofinding[any]" \
    "count[name=counts_new]>=1"
fi

# A frame with neither object nor function is never the user's code
# (progs/jit_thread.c: generated code allocates 1 MiB and never touches it).
if profile_prog jit_thread; then
  check_py "jit_thread: the generated code's site: 1 block of 1 MiB, runtime only, named by a real function" \
    "$out/jit_thread.json" "site[total_bytes=1048576]" ".total_blocks=1" ".runtime_only=true" \
    ".\$name.object!=null"
  check_py "jit_thread: no finding" "$out/jit_thread.json" "nofinding[any]" "findings.#=0"
fi

# One cause per site, the most specific first (progs/oversized_growing.c).
if profile_prog oversized_growing; then
  check_py "oversized_growing: oversized-preallocation on session_open" \
    "$out/oversized_growing.json" "finding[oversized-preallocation@name=session_open]" \
    ".evidence.blocks=120" ".evidence.mean_block_bytes=81920" \
    ".evidence.never_read_bytes=9822720" ".evidence.written_never_read_bytes=9822720" \
    ".evidence.bytes_read=7680" ".severity=high"
  check_py "oversized_growing: the site's only finding (no unbounded-growth)" \
    "$out/oversized_growing.json" "findings=1"
fi

# The parallel clock's memory is bounded: 20,000 round trips between two
# threads make a step per thread change (progs/ping_pong.c), and a thread
# keeps at most 8,192 of them (tool/lh_parallel_clock.c thins the older).
if compile_c "$bin/ping_pong" "$here/progs/ping_pong.c"; then
  if run_lifeheap "$out/ping_pong.json" --stats=yes "$bin/ping_pong" >/dev/null; then
    check_py "ping_pong: 20,000 hand-offs, no missing-backpressure" "$out/ping_pong.json" \
      "site[name=make_message]" ".cross_thread_frees=20000" ".total_blocks=20000" ".max_blocks=2" \
      "nofinding[missing-backpressure]"
    steps=$(sed -n 's/.*parallel clock: \([0-9]*\) steps kept, \([0-9]*\) thinned out.*/\1 \2/p' "$out/ping_pong.json.log")
    if [ -z "$steps" ]; then
      fail "ping_pong: the parallel clock's steps" "no 'parallel clock' line in $out/ping_pong.json.log (--stats=yes)"
    else
      read -r kept thinned <<<"$steps"
      if [ "$kept" -le $((2 * 8192)) ] && [ "$thinned" -gt 0 ] && [ $((kept + thinned)) -ge 20000 ]; then
        pass "ping_pong: the parallel clock keeps at most 8,192 steps per thread ($kept kept, $thinned thinned)"
      else
        fail "ping_pong: the parallel clock's steps" "$kept kept, $thinned thinned: want at most 16384 kept, some thinned, 20000 made"
      fi
    fi
  else
    fail "ping_pong: profile" "see $out/ping_pong.json.log"
  fi
else
  fail "ping_pong: build" "gcc failed"
fi

# Hand-off without consumption: released together at teardown
# (progs/results_teardown.c), under both schedulers.
if compile_c "$bin/results_teardown" "$here/progs/results_teardown.c"; then
  for sched in default fair; do
    sched_opt=; [ "$sched" = fair ] && sched_opt=--fair-sched=yes
    if run_lifeheap "$out/results_teardown-$sched.json" $sched_opt "$bin/results_teardown" >/dev/null; then
      check_py "results_teardown [$sched]: unbounded-growth on make_result" \
        "$out/results_teardown-$sched.json" "finding[unbounded-growth@name=make_result]" \
        ".evidence.max_blocks=4000" ".evidence.max_bytes=2048000" ".evidence.freed_blocks=4000" \
        ".evidence.cross_thread_frees=4000" ".evidence.allocating_threads=4" \
        ".evidence.bytes_at_exit=0"
      check_py "results_teardown [$sched]: not a missing-backpressure" \
        "$out/results_teardown-$sched.json" "nofinding[missing-backpressure]" \
        "count[name=make_result]>=1"
    else
      fail "results_teardown [$sched]: profile" "see $out/results_teardown-$sched.json.log"
    fi
  done
else
  fail "results_teardown: build" "gcc failed"
fi

# --- Periodic dumps ---------------------------------------------------------
# Dumps take snapshots of the timeline while recording goes on: the final
# profile must be exactly the one of a run without dumps.
if [ -f "$out/leak_cache.json" ] &&
   run_lifeheap "$out/leak_cache-dumps.json" --lifeheap-dump-interval=5000000 \
     "$examples/leak_cache" >/dev/null; then
  check_py "leak_cache: periodic dumps leave the final timeline and findings unchanged" \
    "$out/leak_cache-dumps.json" "same[timeline]@$out/leak_cache.json" \
    "same[findings]@$out/leak_cache.json" "same[sites[*].timeline?]@$out/leak_cache.json" \
    "same[sites[*].growth]@$out/leak_cache.json"
fi

# A program killed with SIGKILL: the last dump is a consistent profile.
if compile_c "$bin/grow_forever" "$here/progs/grow_forever.c"; then
  rm -f "$out/grow_forever.json"
  VALGRIND_LIB="$TESTS_TOP/tool/vglib" valgrind --tool=lifeheap \
    --lifeheap-dump-interval=20000000 --lifeheap-out-file="$out/grow_forever.json" \
    "$bin/grow_forever" 2>"$out/grow_forever.json.log" &
  victim=$!
  for _ in $(seq 1 60); do
    [ -f "$out/grow_forever.json" ] && [ "$(stat -c %Y "$out/grow_forever.json")" ] && break
    sleep 0.5
  done
  sleep 3      # a few more dumps
  kill -9 "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
  if [ -f "$out/grow_forever.json" ]; then
    check_py "grow_forever: the last dump meets the timeline contract" "$out/grow_forever.json" \
      "contract:timeline"
    check_py "grow_forever: accumulating and still held in the dump: leak on forever_append" \
      "$out/grow_forever.json" "finding[leak@name=forever_append]" \
      ".evidence.end_to_max_ratio=1" ".evidence.rising_fraction>=0.9"
  else
    fail "grow_forever: dump" "no profile written before the kill"
  fi
else
  fail "grow_forever: build" "gcc failed"
fi

# --- The corpus: realistic programs, bad, fixed and innocent -------------------
# corpus/run.sh builds the programs in corpus/expect.txt, runs each under
# both schedulers and prints a PASS/FAIL/SKIP line per expectation, then the
# recall / false-finding table per kind (README.md there says why each
# verdict is right).
corpus_end=
while IFS= read -r line; do
  case $line in
    "exit "*) corpus_end=$line ;;
    *) count_line "$line" || echo "$line" ;;
  esac
done < <(nice -n 5 "$here/corpus/run.sh" 2>&1; echo "exit $?")
case $corpus_end in
  "exit 0"|"exit 1") ;;   # 1: failures, already counted above
  *) fail "corpus" "corpus/run.sh ended with $corpus_end" ;;
esac

# --- Options ----------------------------------------------------------------
# bad_option NAME OPTION: valgrind refuses it with one "Bad option" line and
# a non-zero exit, before running the program.
bad_option() {
  local name=$1 option=$2 log="$out/bad-option.log" status
  VALGRIND_LIB="$TESTS_TOP/tool/vglib" valgrind --tool=lifeheap "$option" /bin/true 2>"$log"
  status=$?
  if [ "$status" -ne 0 ] && [ "$(grep -c "Bad option: $option" "$log")" -eq 1 ]; then
    pass "option: $name"
  else
    fail "option: $name" "exit $status, log: $(head -3 "$log" | tr '\n' ';')"
  fi
}
bad_option "timeline points below 16" --lifeheap-timeline-points=5
bad_option "timeline points not a number" --lifeheap-timeline-points=many
bad_option "significant fraction above 1" --lifeheap-significant-fraction=2
bad_option "rising fraction negative" --lifeheap-rising-fraction=-0.1
bad_option "fraction not a number" --lifeheap-never-read-fraction=most
bad_option "fraction empty" --lifeheap-churn-lifetime-fraction=
bad_option "large block zero" --lifeheap-large-block-bytes=0

if run_lifeheap "$out/options.json" --lifeheap-timeline-points=16 \
     --lifeheap-significant-fraction=0.5 --lifeheap-rising-fraction=0.25 /bin/true >/dev/null; then
  check_py "options: accepted values reach run.options" "$out/options.json" \
    run.options.timeline_points=16 run.options.significant_fraction=0.5 \
    run.options.rising_fraction=0.25 run.options.min_finding_bytes=65536 \
    run.options.growth_min_blocks=100 timeline.significant_site_fraction=0.5
else
  fail "options: accepted values" "run failed"
fi

# One list of options (tool/lh_options.def) drives parsing, --help,
# run.options and docs/findings.md's table.
options_list=$("$TESTS_TOP/scripts/options-doc.py" --list)
check_eq "options: the list names the thresholds and the text options" "24" \
  "$(printf '%s\n' "$options_list" | wc -l)"
"$TESTS_TOP/scripts/options-doc.py" --check 2>"$out/options-doc.log"
check_eq "options: docs/findings.md's table is the one tool/lh_options.def gives" \
  "0 " "$? $(head -1 "$out/options-doc.log")"
VALGRIND_LIB="$TESTS_TOP/tool/vglib" valgrind --tool=lifeheap --help >"$out/help.txt" 2>&1
missing=$(printf '%s\n' "$options_list" | awk '$1 ~ /^--lifeheap-/ { print $1 }' |
  while read -r option; do grep -q -- "^    $option=" "$out/help.txt" || echo "$option"; done)
check_eq "options: --help explains every option of the list" \
  "$(printf '%s\n' "$options_list" | grep -c '^--lifeheap-')|" \
  "$(grep -c '^    --lifeheap-[a-z-]*=' "$out/help.txt")|$missing"
check_eq "options: --help gives each threshold's default" \
  "[65536]|[0.001]|[1024]" \
  "$(grep -A2 -- '--lifeheap-min-finding-bytes=' "$out/help.txt" | grep -o '\[65536\]')|$(grep -A2 -- '--lifeheap-churn-lifetime-fraction=' "$out/help.txt" | grep -o '\[0.001\]')|$(grep -A2 -- '--lifeheap-timeline-points=' "$out/help.txt" | grep -o '\[1024\]')"
check_eq "options: run.options has the list's keys, in its order" \
  "$(printf '%s\n' "$options_list" | awk '$2 != "-" { print $2 }' | paste -sd' ')" \
  "$(jq -r '.run.options | keys_unsorted | join(" ")' "$out/options.json")"

summary
