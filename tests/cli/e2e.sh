# tests/cli/e2e.sh: the baseline-vs-change story end to end (sourced by
# run.sh). Profiles examples/queue_unbounded (the baseline: an unbounded
# queue piles up messages) and examples/queue_bounded (the fix: the producer
# blocks at 8 queued messages) with the real tool through `lifeheap run`,
# then checks that `lifeheap diff` shows the peak and lifetimes falling,
# that a gate passes for the fix, and that it fails (exit 1) when the roles
# are swapped.
#
# Numbers from the examples' header comments: each message is 4,112 bytes;
# unbounded holds >= 500 of them at the peak (807-1,061 under DHAT), bounded
# at most 10 live (8 queued, 1 being built, 1 being consumed).

e2e_tool=$top/tool/vglib/lifeheap-amd64-linux
if [ ! -e "$e2e_tool" ]; then
  fail "e2e queue story" "the tool is not built ($e2e_tool)"
else
  e2e_dir=$TESTS_OUT/cli-e2e
  mkdir -p "$e2e_dir"
  for e2e_name in queue_unbounded queue_bounded; do
    e2e_program=$top/examples/$e2e_name
    if [ ! -x "$e2e_program" ]; then
      e2e_program=$TESTS_BUILD/$e2e_name
      compile_c "$e2e_program" "$top/examples/$e2e_name.c"
    fi
    # `lifeheap run` finds the build tree's tool by itself when it is the
    # build tree's binary (no VALGRIND_LIB given); the fallback binary in
    # tests/bin needs the hint.
    if [ "$lifeheap" = "$top/cli/lifeheap" ]; then e2e_lib=(env -u VALGRIND_LIB)
    else e2e_lib=(env VALGRIND_LIB="$top/tool/vglib"); fi
    "${e2e_lib[@]}" "$lifeheap" run --out "$e2e_dir/$e2e_name.json" -- "$e2e_program" \
      >"$e2e_dir/$e2e_name.out" 2>"$e2e_dir/$e2e_name.log"
    check_eq "e2e: lifeheap run $e2e_name exits as the program does" 0 "$?"
    expect_grep "e2e: lifeheap run $e2e_name says where the profile is" \
      "profile written to $e2e_dir/$e2e_name.json" "$e2e_dir/$e2e_name.log"
  done
  e2e_base=$e2e_dir/queue_unbounded.json
  e2e_fix=$e2e_dir/queue_bounded.json
  "$lifeheap" diff "$e2e_base" "$e2e_fix" --format json --top 0 >"$e2e_dir/diff.json" 2>"$e2e_dir/diff.err"
  check_eq "e2e: diff exits 0 without rules" 0 "$?"
  # The queue site by name, in both runs, with its numbers.
  e2e_summary=$(jq -r '
    [.sites[] | select(.name | startswith("queue_push_message"))][0] as $q
    | "\(.global.peak_bytes.base > .global.peak_bytes.new)"
      + " \(.global.avg_lifetime.base > .global.avg_lifetime.new)"
      + " \($q.status)"
      + " \($q.metrics.peak_blocks.base >= 500)"
      + " \($q.metrics.peak_blocks.new <= 10)"
      + " \($q.metrics.total_blocks.base) \($q.metrics.total_blocks.new)"
      + " \($q.metrics.avg_lifetime.base > 4 * $q.metrics.avg_lifetime.new)"' "$e2e_dir/diff.json" 2>&1)
  check_eq "e2e: peak and lifetimes fall; queue site matched, 2000 blocks each, >=500 vs <=10 at the peak" \
    "true true matched true true 2000 2000 true" "$e2e_summary"
  expect_exit "e2e: the gate passes for the fix" 0 "$lifeheap" diff "$e2e_base" "$e2e_fix" \
    --fail-on 'peak_bytes>+10%' --fail-on 'site:peak_bytes>+64KiB' --fail-on finding:missing-backpressure
  expect_exit "e2e: the gate fails when the roles are swapped" 1 "$lifeheap" diff "$e2e_fix" "$e2e_base" \
    --fail-on 'peak_bytes>+10%' --fail-on 'site:peak_bytes>+64KiB' --fail-on finding:missing-backpressure
  expect_grep "e2e: the swapped gate names the queue site" "FAIL site:peak_bytes>+64KiB: site [0-9]* queue_push_message" "$work/out"
  expect_exit "e2e: check budget fails for the baseline" 1 "$lifeheap" check "$e2e_base" --max-peak 1MiB
  expect_exit "e2e: check budget holds for the fix" 0 "$lifeheap" check "$e2e_fix" --max-peak 1MiB --max-end 0
  # The DHAT export against DHAT itself on a deterministic program with a
  # realloc: totals, bytes at t-gmax and at t-end per program point.
  e2e_dhat_program=$TESTS_BUILD/cli_dhat_compare
  cat >"$TESTS_BUILD/cli_dhat_compare.c" <<'CEOF'
#include <stdlib.h>
#include <string.h>
int main(void)
{
    char *table = malloc(1000);
    memset(table, 1, 1000);
    char *grown = malloc(200);
    grown = realloc(grown, 5000);
    grown = realloc(grown, 3000);
    char *kept = malloc(64);
    for (int i = 0; i < 10; i++)
        free(malloc(100 + i));
    /* byte by byte, so both tools count each byte's accesses the same */
    volatile char *counted = malloc(48);
    int sum = 0;
    for (int i = 0; i < 48; i++) counted[i] = (char)i;
    for (int i = 0; i < 16; i++) sum += counted[i];
    for (int i = 40; i < 44; i++) sum += counted[i] + counted[i];
    free((void *)counted);
    free(table);
    free(grown);
    return (kept[0] + sum) & 0;
}
CEOF
  compile_c "$e2e_dhat_program" "$TESTS_BUILD/cli_dhat_compare.c"
  VALGRIND_LIB=$top/tool/vglib valgrind --tool=lifeheap --lifeheap-out-file="$e2e_dir/dhatcmp.json" \
    "$e2e_dhat_program" 2>/dev/null
  valgrind --tool=dhat --dhat-out-file="$e2e_dir/dhatcmp.dhat" "$e2e_dhat_program" 2>/dev/null
  "$lifeheap" report "$e2e_dir/dhatcmp.json" --format dhat >"$e2e_dir/dhatcmp.export.json" 2>"$e2e_dir/dhatcmp.err"
  e2e_compare=$(python3 - "$e2e_dir/dhatcmp.dhat" "$e2e_dir/dhatcmp.export.json" <<'PEOF'
import json, sys
def points(path):
    d = json.load(open(sys.argv[path]))
    out = {}
    for p in d["pps"]:
        # Key: the address of the innermost frame outside the allocator.
        frames = [d["ftbl"][i] for i in p["fs"] if "vgpreload" not in d["ftbl"][i]]
        out[frames[0].split(":")[0]] = (p["tb"], p["tbk"], p["gb"], p["gbk"], p["eb"], p["ebk"])
    return out
dhat, ours = points(1), points(2)
main = {k: v for k, v in dhat.items() if k in ours}
print("same" if main == ours and len(ours) == 5 else f"differ: dhat={dhat} lifeheap={ours}")
PEOF
)
  check_eq "e2e: DHAT export per site equals valgrind --tool=dhat (tb, tbk, gb, gbk, eb, ebk)" same "$e2e_compare"
  # Accesses per offset ("acc", run-length decoded as dh_view does) of the
  # 48-byte block: 16 bytes written and read, 24 written, 4 written and read
  # twice, 4 written. Both tools' arrays, then whether they agree.
  e2e_acc=$(python3 - "$e2e_dir/dhatcmp.dhat" "$e2e_dir/dhatcmp.export.json" <<'PEOF'
import json, sys
def decode(acc):
    out, i = [], 0
    while i < len(acc):
        if acc[i] < 0:
            out += [acc[i + 1]] * -acc[i]; i += 2
        else:
            out.append(acc[i]); i += 1
    return out
def acc_of_48(path):
    d = json.load(open(path))
    found = [decode(p["acc"]) for p in d["pps"] if p["tb"] == 48 and "acc" in p]
    return found[0] if len(found) == 1 else None
dhat, ours = acc_of_48(sys.argv[1]), acc_of_48(sys.argv[2])
expected = [2] * 16 + [1] * 24 + [3] * 4 + [1] * 4
print("same" if dhat == ours == expected else f"differ: expected={expected} dhat={dhat} lifeheap={ours}")
PEOF
)
  check_eq "e2e: DHAT export's accesses per offset equal valgrind --tool=dhat's" same "$e2e_acc"
  # Field for field, frames included, on blocks of 0 bytes, a block never
  # accessed, a stack deeper than --num-callers and a realloc (the program
  # says what each site checks).
  e2e_fields=$TESTS_BUILD/cli_dhat_fields
  if compile_c "$e2e_fields" "$here/dhat_fields.c" -Wl,-z,now; then
    VALGRIND_LIB=$top/tool/vglib valgrind --tool=lifeheap \
      --lifeheap-out-file="$e2e_dir/dhatfields.json" "$e2e_fields" 2>/dev/null
    valgrind --tool=dhat --dhat-out-file="$e2e_dir/dhatfields.dhat" "$e2e_fields" 2>/dev/null
    "$lifeheap" report "$e2e_dir/dhatfields.json" --format dhat \
      >"$e2e_dir/dhatfields.export.json" 2>"$e2e_dir/dhatfields.err"
    check_eq "e2e: DHAT export equals valgrind --tool=dhat field for field (0-byte blocks, acc, frames, tl)" \
      "same 7" "$(python3 "$here/compare_dhat_export.py" "$e2e_dir/dhatfields.dhat" \
                  "$e2e_dir/dhatfields.export.json" 2>&1 | tr '\n' ';' | sed 's/;$//')"
  else
    fail "e2e: dhat_fields.c builds" "gcc failed"
  fi
  if [ -f "$dh_view" ] && command -v node >/dev/null; then
    if node "$here/dh_view_check.js" "$dh_view" "$e2e_dir/dhatcmp.export.json" >/dev/null 2>"$e2e_dir/dhatcmp.view.err"; then
      pass "e2e: dh_view.js loads the export with its accesses per offset"
    else
      fail "e2e: dh_view.js loads the export with its accesses per offset" "$(head -c 300 "$e2e_dir/dhatcmp.view.err")"
    fi
  else
    fail "e2e: dh_view.js loads the export with its accesses per offset" "needs node and $dh_view"
  fi
fi
