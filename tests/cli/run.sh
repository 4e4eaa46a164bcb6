#!/usr/bin/env bash
# tests/cli/run.sh: the `lifeheap` command's suite.
#
# Hand-written profiles (tests/cli/profiles/) with known answers: every
# number in tests/cli/expected/ was checked by hand against the profile
# fields (docs/format.md), e.g. base.json's peak 313472 B = 306.1 KiB, site 1
# average lifetime 25,000,000 / 100 blocks / 1,000,000 instructions = 25.0%.
# Then the DHAT export through DHAT's own viewer code, the rule engine, the
# budgets, every kind of bad input, `view` with a fake viewer, `run` with a
# fake valgrind, and the end-to-end queue story with the real tool.
#
# Prints "PASS name" / "FAIL name: reason" per test and "N passed, N failed, N skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
profiles=$here/profiles
expected=$here/expected
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The binary under test: the build tree's, else one compiled here.
lifeheap=${LIFEHEAP:-$top/cli/lifeheap}
if [ ! -x "$lifeheap" ]; then
  lifeheap=$TESTS_BUILD/lifeheap-cli
  gcc -O2 -g -Wall -Wextra -I"$top/common" $(pkg-config --cflags json-c) -o "$lifeheap" \
    "$top"/cli/*.c $(pkg-config --libs json-c) -lm -pthread || { fail build "cannot compile cli"; summary; exit 1; }
fi

# expect_exit NAME CODE COMMAND...: runs COMMAND (stdout+stderr to
# $work/out, $work/err) and checks its exit code.
expect_exit() {
  local name=$1 code=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [ "$got" -eq "$code" ]; then pass "$name"; else
    fail "$name" "exit $got, expected $code; stderr: $(head -c 300 "$work/err")"
  fi
}

# expect_same NAME EXPECTED_FILE ACTUAL_FILE
expect_same() {
  if cmp -s "$2" "$3"; then pass "$1"; else
    fail "$1" "output differs: $(diff "$2" "$3" | head -5 | tr '\n' ' ')"
  fi
}

# expect_grep NAME PATTERN FILE
expect_grep() {
  if grep -q -- "$2" "$3"; then pass "$1"; else
    fail "$1" "no '$2' in $(head -c 300 "$3")"
  fi
}

# The hand-written profiles honour the contract (the schema of docs/).
# (none there would make the check hold vacuously: it counts them)
schema_why= schema_count=0
for f in "$profiles"/*.json; do
  [ -f "$f" ] || continue
  schema_count=$((schema_count + 1))
  line=$(python3 "$top/tests/lib/profile_check.py" --one "$(basename "$f")" "$f" valid 2>&1)
  case $line in "PASS "*) ;; *) schema_why+="$line; " ;; esac
done
check_eq "test profiles validate against docs/lifeheap-profile.schema.json" \
  "$(ls "$profiles" | grep -c '\.json$') profiles, " "$schema_count profiles, $schema_why"
check "test profiles: there are some to validate (base, new, readable)" test "$schema_count" -ge 3

#--- report -----------------------------------------------------------------
# The text report wraps lines longer than 120 characters at a space, the
# continuation indented 4 columns more: a line at the left margin ("site 2:
# ...", the "???" hint) is joined here with its continuation lines.
unwrapped() {
  awk '/^[^ ]/ { if (held != "") print held; held = $0; next }
       held != "" && /^    [^ ]/ { sub(/^    /, " "); held = held $0; next }
       { if (held != "") print held; held = ""; print }
       END { if (held != "") print held }' "$1"
}
expect_exit "report text exits 0" 0 "$lifeheap" report "$profiles/base.json"
# A crash can leave run.executable null (docs/format.md allows it): still loads.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["run"]["executable"]=None; json.dump(d,open(sys.argv[2],"w"))' \
  "$profiles/base.json" "$work/null_executable.json"
expect_exit "report: run.executable null (unknown) is accepted" 0 "$lifeheap" report "$work/null_executable.json"
# Run from the profiles directory so the path printed is the relative one.
(cd "$profiles" && "$lifeheap" report base.json) >"$work/report.txt"
expect_same "report text golden" "$expected/report_base.txt" "$work/report.txt"
check_eq "report: no invalid line when nothing was invalid" 0 "$(grep -c '^invalid' "$work/report.txt")"
# Invalid frees and reallocs counted by the tool are reported in one line.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["totals"].update(invalid_frees=3, invalid_reallocs=1); json.dump(d,open(sys.argv[2],"w"))' \
  "$profiles/base.json" "$work/invalid_frees.json"
expect_exit "report: a profile with invalid frees" 0 "$lifeheap" report "$work/invalid_frees.json"
expect_grep "report: invalid frees and reallocs counted" \
  "^invalid    3 frees, 1 realloc of pointers that were not live heap blocks (ignored)$" "$work/out"

# A partial profile written at an exec says so in its exit line.
python3 - "$profiles/base.json" "$work/exec.json" <<'PEOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["run"].update(complete=False, dump_reason="exec", exit={"status": "running"})
json.dump(p, open(sys.argv[2], "w"))
PEOF
check_eq "report: a profile written at an exec says so" \
  "exit       exec'd another program, which ran without lifeheap (partial profile, up to the exec)" \
  "$("$lifeheap" report "$work/exec.json" | grep '^exit ')"
"$lifeheap" report "$profiles/base.json" --format json >"$work/report.json"
check_eq "report json: global peak, avg lifetime, never read" \
  "313472 25.9794 261120" \
  "$(jq -r '.global | "\(.peak_bytes) \(.avg_lifetime) \(.never_read_bytes)"' "$work/report.json")"
check_eq "report json: sites by peak, site 2 reads and reallocs" \
  "0,1,2 128 3" \
  "$(jq -r '"\([.sites[].id] | join(",")) \(.sites[2].metrics.bytes_read) \(.sites[2].metrics.reallocs)"' "$work/report.json")"
check_eq "report json: site 1 lifetimes in % of run" "25.0000 40.0000" \
  "$(jq -r '.sites[1].metrics | "\(.avg_lifetime|tostring|.[0:7]) \(.max_lifetime|tostring|.[0:7])"' "$work/report.json" | sed 's/^25 /25.0000 /; s/ 40$/ 40.0000/')"
"$lifeheap" report "$profiles/base.json" --format json --sort total_blocks --top 2 >"$work/sorted.json"
check_eq "report --sort total_blocks --top 2 (ties by id)" "1,0" \
  "$(jq -r '[.sites[].id] | join(",")' "$work/sorted.json")"
check_eq "report json: findings in profile order" \
  "missing-backpressure:1 oversized-preallocation:0" \
  "$(jq -r '[.findings[] | "\(.kind):\(.site)"] | join(" ")' "$work/report.json")"

# What the text report trims for people (readable.json, made by
# profiles/make_readable.py, whose comments derive every number). Stacks
# start at the name frame, stop at main and after 5 callers; names over 100
# characters lose their <...> arguments; same-named top sites say "via" or
# "allocated by"; notes are the profile's, as the summary prints them.
(cd "$profiles" && "$lifeheap" report readable.json) >"$work/readable.txt"
expect_same "report text golden: elided frames, long names, via, notes" \
  "$expected/report_readable.txt" "$work/readable.txt"
check_eq "report text: frames before the name frame counted (a single one shown)" "1 1 2" \
  "$(grep -cxF '  ... 4 allocator and library frames ...' "$work/readable.txt") $(grep -cxF '  ... 3 allocator, library and unnamed frames ...' "$work/readable.txt") $(grep -cxF '  at <alloc::string::String as core::convert::From<&str>>::from (string.rs:3114)' "$work/readable.txt")"
check_eq "report text: nothing below main (Rust runtime, libc start-up)" 0 \
  "$(grep -cE 'call_once \(function|__rust_begin_short_backtrace|lang_start|__libc_start_call_main|below main' "$work/readable.txt")"
expect_grep "report text: callers past 5 counted up to main (setup_and_run, main)" \
  "^  by run_service(int, char\*\*) (main.cc:8)$" "$work/readable.txt"
check_eq "report text: ... 2 more callers ... after run_service" "  ... 2 more callers ..." \
  "$(grep -A1 'by run_service' "$work/readable.txt" | tail -1)"
expect_grep "report text: a 1143-character name shortened" \
  "^site 7: void std::vector<...>::_M_realloc_insert<...>(...) (vector.tcc:440)$" "$work/readable.txt"
expect_grep "report text: a name of 101 characters loses its inner <...>" \
  "^  by Cache::insert(std::__cxx11::basic_string<...> const&, int) (cache.cc:30)$" "$work/readable.txt"
"$lifeheap" report "$profiles/readable.json" --format json >"$work/readable.json"
check_eq "report json keeps every frame and the exact names" "11 true 1143" \
  "$(jq -r '"\(.sites[0].stack | length) \(.sites[0].stack | any(.function == "std::rt::lang_start_internal")) \(.sites[7].stack[0].function | length)"' "$work/readable.json")"
check_eq "report text: same-named sites told apart by the first differing caller" \
  "site 2: app::parse_row::{{closure}} (app.rs:49) via <alloc::vec::Vec<T> as alloc::vec::spec_from_iter_nested::SpecFromIterNested<T,I>>::from_iter (spec_from_iter_nested.rs:24)|site 3: app::parse_row::{{closure}} (app.rs:49) via alloc::vec::Vec<T,A>::extend_desugared (mod.rs:3969)" \
  "$(unwrapped "$work/readable.txt" | grep -E '^site [23]:' | paste -sd'|')"
check_eq "report text: same callers, told apart by the allocating frame" \
  "site 4: Cache::insert(std::__cxx11::basic_string<...> const&, int) (cache.cc:30), allocated by std::__new_allocator<std::_Rb_tree_node<std::pair<...> > >::allocate(unsigned long, void const*) (new_allocator.h:137)|site 5: Cache::insert(std::__cxx11::basic_string<...> const&, int) (cache.cc:30), allocated by std::__new_allocator<char>::allocate(unsigned long, void const*) (new_allocator.h:137)" \
  "$(unwrapped "$work/readable.txt" | grep -E '^site [45]:' | paste -sd'|')"
check_eq "report text: a C thread's stack ends at its function (no start_thread)" \
  "  at push_message (queue.c:42)|  by producer (queue.c:80)" \
  "$(sed -n '/^site 1:/,/^$/p' "$work/report.txt" | grep . | tail -2 | paste -sd'|')"
jq '.frames += [{"function": "app::worker::{{closure}}", "file": "app.rs", "directory": "/src", "line": 90, "object": "/work/app", "address": "0x409000", "inlined": false}]
    | (.frames | length - 1) as $worker | .sites[0].stack = .sites[0].stack[0:5] + [$worker, 7, 6]' \
  "$profiles/readable.json" >"$work/thread.json"
"$lifeheap" report "$work/thread.json" >"$work/thread.txt"
check_eq "report text: a Rust thread's stack ends at its closure (no __rust_begin_short_backtrace)" \
  "  by app::read_rows (app.rs:61)|  by app::worker::{{closure}} (app.rs:90)" \
  "$(sed -n '/^site 0:/,/^$/p' "$work/thread.txt" | grep . | tail -2 | paste -sd'|')"
jq '.sites[6].name_frame = 1' "$profiles/readable.json" >"$work/unnamed.json"
"$lifeheap" report "$work/unnamed.json" >"$work/unnamed.txt"
check_eq "report text: a site named '???' gets the summary's hint, once, under the table" \
  "1 0" "$(unwrapped "$work/unnamed.txt" | grep -cxF '"???" marks code without symbols, here in /usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6: its debug symbols or a build with -g would name it.') $(grep -c 'marks code without symbols' "$work/readable.txt")"
(cd "$profiles" && "$lifeheap" report readable.json --top 3) >"$work/top3.txt"
check_eq "report --top 3: no 'via' when the twin is not a top site" \
  "site 2: app::parse_row::{{closure}} (app.rs:49)" "$(grep '^site 2:' "$work/top3.txt")"
# Notes: the tool judges them (tests/tool/progs/notes.c tests the rules);
# the report prints the profile's sites[].notes as they are, in order.
check_eq "report text: notes by site, as the profile carries them" \
  "site 0|note: grown by 12 reallocs, 383.9 KiB copied|note: 92.7 KiB (24%) of it never written (unused capacity)|site 1|note: 192.0 KiB (75%) of it never read nor written|site 2|site 3|note: grown by 3,000 reallocs (1.5 per block), 19.5 KiB copied|note: 9.8 B per block on average: glibc's malloc takes at least 32 B for each|site 4|site 5|site 6|site 7" \
  "$(grep -E '^site [0-9]|^  note:' "$work/readable.txt" | sed 's/^  //; s/^\(site [0-9]\):.*/\1/' | paste -sd'|')"
# A kind this reader does not know is shown by its text (format.md).
jq '.sites[1].notes = [{"kind": "later-kind", "text": "a sentence from a later tool", "bytes": 1}]' \
  "$profiles/readable.json" >"$work/later-note.json"
"$lifeheap" report "$work/later-note.json" >"$work/later-note.txt"
check_eq "report text: a note of an unknown kind is printed by its text" \
  "  note: a sentence from a later tool" "$(grep -A1 '^site 1:' "$work/later-note.txt" | tail -1)"
# A profile from before the tool judged notes has none to show.
jq 'del(.sites[].notes)' "$profiles/readable.json" >"$work/no-notes.json"
"$lifeheap" report "$work/no-notes.json" >"$work/no-notes.txt"
check_eq "report text: no notes field, no notes (the sites are still reported)" "0|1" \
  "$(grep -c '^  note:' "$work/no-notes.txt")|$(grep -c '^site 0: ' "$work/no-notes.txt")"

#--- collapsed ----------------------------------------------------------------
"$lifeheap" report "$profiles/base.json" --format collapsed >"$work/collapsed.txt"
expect_same "collapsed golden" "$expected/collapsed_base.txt" "$work/collapsed.txt"
# Folded-stack syntax: frames joined by ';', one space, an integer weight.
if awk '!/^[^ ;][^;]*(;[^;]+)* [0-9]+$/ { bad = 1 } END { exit bad }' "$work/collapsed.txt"; then
  pass "collapsed lines parse as folded stacks"; else fail "collapsed lines parse as folded stacks"; fi
check_eq "collapsed weights sum to the peak" 313472 \
  "$(awk '{ sum += $NF } END { print sum }' "$work/collapsed.txt")"
"$lifeheap" report "$profiles/new.json" --format collapsed --sort total_blocks >"$work/c2.txt"
check_eq "collapsed weighted by total_blocks" "1 1 100" \
  "$(awk '{ printf "%s%s", sep, $NF; sep=" " }' "$work/c2.txt")"
expect_exit "collapsed refuses a percentage weight" 2 \
  "$lifeheap" report "$profiles/base.json" --format collapsed --sort avg_lifetime

#--- DHAT export ----------------------------------------------------------------
dh_view=/usr/libexec/valgrind/dh_view.js
"$lifeheap" report "$profiles/base.json" --format dhat >"$work/base.dhat" 2>"$work/dhat.err"
check_eq "dhat: version 2, heap mode, t-gmax and t-end" "2 heap true 600000 1000000 4242" \
  "$(jq -r '"\(.dhatFileVersion) \(.mode) \(.bklt) \(.tg) \(.te) \(.pid)"' "$work/base.dhat")"
# DHAT counts a realloc as a new block of the new size: site 2 (16 B grown
# by 3 reallocs to 32, 64, 128) is 4 blocks and 16+32+64+128 = 240 bytes.
check_eq "dhat: realloc counted as DHAT does" "240 4" \
  "$(jq -r '.pps[2] | "\(.tb) \(.tbk)"' "$work/base.dhat")"
if [ -f "$dh_view" ] && command -v node >/dev/null; then
  if node "$here/dh_view_check.js" "$dh_view" "$work/base.dhat" >"$work/dhat.totals" 2>"$work/dhat.err"; then
    # 364672 - 112 growth + 224 requested; 102 + 3 reallocs; lifetimes
    # 999000 + 25000000 + 500000; peak and exit as in the profile; reads
    # and writes plus the reallocs' copies as DHAT counts them (16 + 32 +
    # 64 = 112 bytes each).
    check_eq "dhat: dh_view.js loads it, totals match the profile" \
      '{"total_bytes":364784,"total_blocks":105,"total_lifetimes":26499000,"at_tgmax_bytes":313472,"at_tgmax_blocks":52,"at_tend_bytes":262144,"at_tend_blocks":1,"reads_bytes":103664,"writes_bytes":364784,"pps":3,"frames":8}' \
      "$(cat "$work/dhat.totals")"
  else
    fail "dhat: dh_view.js loads it" "$(head -c 300 "$work/dhat.err")"
  fi
  # The checker must reject what dh_view rejects (else the test above
  # could not fail).
  jq '.dhatFileVersion = 3' "$work/base.dhat" >"$work/v3.dhat"
  if node "$here/dh_view_check.js" "$dh_view" "$work/v3.dhat" >/dev/null 2>&1; then
    fail "dhat: checker rejects version 3"; else pass "dhat: checker rejects version 3"; fi
  jq 'del(.pps[0].gb)' "$work/base.dhat" >"$work/nogb.dhat"
  if node "$here/dh_view_check.js" "$dh_view" "$work/nogb.dhat" >/dev/null 2>&1; then
    fail "dhat: checker rejects a missing field"; else pass "dhat: checker rejects a missing field"; fi
else
  fail "dhat: dh_view.js check" "needs node and $dh_view"
fi

#--- report text for people: 120 columns, evidence labelled ------------------
# Every line of the text report fits 120 characters: the goldens (long C++ and
# Rust names in readable.json) and a name of 300 characters without a space,
# which is cut, not left to overflow.
widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"; }
python3 - "$profiles/base.json" "$work/long_name.json" <<'PEOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["frames"][p["sites"][0]["stack"][p["sites"][0]["name_frame"]]]["function"] = "f" * 300
for s in p["sites"]:
    s.pop("label", None)
json.dump(p, open(sys.argv[2], "w"))
PEOF
"$lifeheap" report "$work/long_name.json" >"$work/long_name.txt"
check_eq "report text: at most 120 columns (goldens, a 300-character name)" "118 120 120" \
  "$(widest "$expected/report_base.txt") $(widest "$expected/report_readable.txt") $(widest "$work/long_name.txt")"
# The table cuts the name (already shortened to 100 characters, its middle
# elided, as in the site's own section) to the room left, ending in "…".
check_eq "report text: a long name is cut to the table's room, whole in its section" "1 120 1" \
  "$(grep -c '^    0 .*  f\{30,\}\.\.\.f*…$' "$work/long_name.txt") $(grep '^    0 ' "$work/long_name.txt" | python3 -c 'import sys; print(len(sys.stdin.readline().rstrip("\n")))') $(grep -c '^site 0: f\{30,\}\.\.\.f\{30,\}$' "$work/long_name.txt")"
# The headline: the first finding, its kind's title and site, its sentence,
# the kind's headline evidence present in the profile (queue_depth; the
# other keys of missing-backpressure are absent from base.json).
check_eq "report text: the most severe finding first, evidence labelled" \
  "most severe finding [high]: Missing backpressure at push_message (queue.c:42)|    Queue depth (messages waited behind)     120|  (1 more finding below)" \
  "$(sed -n '1p;3p;4p' "$work/report.txt" | paste -sd'|')"
check_eq "report text: each finding's evidence labelled, in the profile's order" \
  "    Queue depth (messages waited behind)     120|    Mean wait, share of the run              25% of the run|    Never read                               255.0 KiB" \
  "$(sed -n '/^findings:$/,$p' "$work/report.txt" | grep '^    [A-Z]' | paste -sd'|')"
# One table for the words: every evidence key the tool writes
# (tool/lh_findings.c) and every finding kind the CLI knows have an entry in
# docs/evidence-labels.json, with a known unit; each kind's headline keys
# are among the keys the tool writes.
check_eq "docs/evidence-labels.json: every evidence key and kind labelled" "" \
  "$(python3 - "$top/docs/evidence-labels.json" "$top/tool/lh_findings.c" "$top/cli/finding_kinds.c" <<'PEOF'
import json, re, sys
table = json.load(open(sys.argv[1]))
keys = set(re.findall(r'add_(?:count|fraction)\(f, "(\w+)"', open(sys.argv[2]).read()))
kinds = set(re.findall(r'"([a-z]+(?:-[a-z]+)+)"', open(sys.argv[3]).read()))
problems = [k for k in sorted(keys) if k not in table["evidence"]]
problems += [k + ": unit " + e["unit"] for k, e in table["evidence"].items() if e["unit"] not in table["units"]]
problems += ["kind " + k for k in sorted(kinds) if k not in table["kinds"]]
problems += [k + " headline " + h for k, v in table["kinds"].items() for h in v["headline"] if h not in keys]
print(" ".join(problems))
PEOF
)"

#--- the metrics table ------------------------------------------------------------
# cli/metrics_table.inc is generated from docs/metrics.json (the table the viewer's
# columns come from too): it must be what the generator makes of the JSON today.
if python3 "$top/scripts/gen-metrics-table.py" "$work/metrics_table.inc" 2>"$work/gen.err"; then
  expect_same "metrics: cli/metrics_table.inc is in step with docs/metrics.json" \
    "$work/metrics_table.inc" "$top/cli/metrics_table.inc"
else
  fail "metrics: cli/metrics_table.inc is in step with docs/metrics.json" "$(head -c 300 "$work/gen.err")"
fi
# Every metric of the table is known to the CLI, in the table's order.
check_eq "metrics: the CLI's site metrics are the table's, in its order" \
  "$(jq -r '[.[] | select(.name != null and .site != null) | .name] | join(", ")' "$top/docs/metrics.json")" \
  "$("$lifeheap" report --sort no-such-metric "$profiles/base.json" 2>&1 | sed -n 's/.*; one of: //p' | head -1)"

#--- diff -----------------------------------------------------------------------
(cd "$profiles" && "$lifeheap" diff base.json new.json) >"$work/diff.txt"
expect_same "diff text golden" "$expected/diff_base_new.txt" "$work/diff.txt"
"$lifeheap" diff "$profiles/base.json" "$profiles/new.json" --format json --top 0 >"$work/diff.json"
# make_table moved from line 10 to 12 and push_message changed id: both
# still match; grow vanished, make_pool is new.
check_eq "diff json: matching across shifted lines and ids" \
  "2 1 1 matched:1:2 new:-:1 vanished:2:- matched:0:0" \
  "$(jq -r '"\(.matched_sites) \(.new_sites) \(.vanished_sites) " + ([.sites[] | "\(.status):\(.base_id // "-"):\(.new_id // "-")"] | join(" "))' "$work/diff.json")"
check_eq "diff json: global peak change" "313472 286720 -26752" \
  "$(jq -r '.global.peak_bytes | "\(.base) \(.new) \(.change)"' "$work/diff.json")"
check_eq "diff json: resolved finding" "0 missing-backpressure" \
  "$(jq -r '"\(.findings.new | length) \(.findings.resolved[0].kind)"' "$work/diff.json")"

# The headline: the most severe finding change (new, worsened, resolved),
# its figures for both runs. base.json's missing-backpressure on
# push_message (base site 1, new site 2) is gone in new.json.
check_eq "diff json: the headline is the resolved finding, on both runs' sites" \
  "resolved missing-backpressure high 1 2" \
  "$(jq -r '.headline | "\(.state) \(.kind) \(.severity) \(.base_site) \(.new_site)"' "$work/diff.json")"
expect_grep "diff text: the headline first" "^most severe change: resolved finding \[high\]: Missing backpressure at push_message (queue.c:42)$" "$work/diff.txt"
# With the figures that are site fields in the finding (max_bytes 51,200 and
# cross_thread_frees 100 are base site 1's own), a new finding shows them
# for the baseline's site without it: new.json's push_message holds 8.0 KiB
# at most, 100 frees by another thread; the queue depth is the finding's.
jq '(.findings[] | select(.kind == "missing-backpressure") | .evidence) += {"max_bytes": 51200, "cross_thread_frees": 100}' \
  "$profiles/base.json" >"$work/base_figures.json"
"$lifeheap" diff "$profiles/new.json" "$work/base_figures.json" >"$work/diff_new.txt"
check_eq "diff text: a new finding's figures beside the baseline site's own" \
  "most severe change: new finding [high]: Missing backpressure at push_message (queue.c:42)
    Live at most                             8.0 KiB -> 50.0 KiB
    Queue depth (messages waited behind)     not computed -> 120
    Freed by another thread                  100 -> 100" \
  "$(grep -E '^(most severe|    [A-Z])' "$work/diff_new.txt")"
# Worse in NEW (its first figure, max_bytes, larger): worsened.
jq '(.findings[] | select(.kind == "missing-backpressure") | .evidence.max_bytes) = 61200' \
  "$work/base_figures.json" >"$work/base_worse.json"
"$lifeheap" diff "$work/base_figures.json" "$work/base_worse.json" --format json >"$work/diff_worse.json"
check_eq "diff json: a larger first figure is worsened" "worsened missing-backpressure 1 1" \
  "$(jq -r '.headline | "\(.state) \(.kind) \(.base_site) \(.new_site)"' "$work/diff_worse.json")"
# Nothing changed: the most severe finding, in both runs.
"$lifeheap" diff "$profiles/base.json" "$profiles/base.json" >"$work/diff_same.txt"
expect_grep "diff text: nothing changed heads with the most severe finding in both" \
  "^no finding changed; most severe, in both runs \[high\]: Missing backpressure at push_message (queue.c:42)$" "$work/diff_same.txt"
# Severity first: a resolved high finding heads a new medium one (new.json's
# oversized-preallocation renamed unused-capacity: new, medium).
jq '(.findings[] | select(.kind == "oversized-preallocation") | .kind) = "unused-capacity"' \
  "$profiles/new.json" >"$work/new_other.json"
"$lifeheap" diff "$profiles/base.json" "$work/new_other.json" --format json >"$work/diff_other.json"
check_eq "diff json: a resolved high finding before a new medium one" "resolved missing-backpressure 1" \
  "$(jq -r '"\(.headline.state) \(.headline.kind) \(.findings.new | length)"' "$work/diff_other.json")"
# No finding on either side.
jq '.findings = []' "$profiles/base.json" >"$work/base_none.json"
"$lifeheap" diff "$work/base_none.json" "$work/base_none.json" >"$work/diff_none.txt"
check_eq "diff text: no findings in either run" "no findings in either run" "$(sed -n 4p "$work/diff_none.txt")"
check_eq "diff json: no headline without findings" "null" \
  "$("$lifeheap" diff "$work/base_none.json" "$work/base_none.json" --format json | jq -c .headline)"

#--- rules ----------------------------------------------------------------------
base=$profiles/base.json new=$profiles/new.json
# base -> new: peak -8.5%, end 256 KiB both, site push_message -42 KiB,
# make_pool new with 16 KiB, missing-backpressure resolved.
expect_exit "rule peak_bytes>+10% holds for the fix" 0 "$lifeheap" diff "$base" "$new" --fail-on 'peak_bytes>+10%'
expect_exit "rule peak_bytes>+5% fails when roles swap (+9.3%)" 1 "$lifeheap" diff "$new" "$base" --fail-on 'peak_bytes>+5%'
expect_grep "rule failure names its numbers" "FAIL peak_bytes>+5%: 280.0 KiB -> 306.1 KiB (+9.3%)" "$work/out"
expect_exit "rule peak_bytes>+10% holds when roles swap (+9.3%)" 0 "$lifeheap" diff "$new" "$base" --fail-on 'peak_bytes>+10%'
expect_exit "rule end_bytes>0 fails (256 KiB live at exit)" 1 "$lifeheap" diff "$base" "$new" --fail-on 'end_bytes>0'
expect_exit "rule end_bytes>256KiB holds" 0 "$lifeheap" diff "$base" "$new" --fail-on 'end_bytes>256KiB'
expect_exit "rule site:peak_bytes>+1MiB holds" 0 "$lifeheap" diff "$base" "$new" --fail-on 'site:peak_bytes>+1MiB'
expect_exit "rule site:peak_bytes>+8KiB fails on the new site" 1 "$lifeheap" diff "$base" "$new" --fail-on 'site:peak_bytes>+8KiB'
expect_grep "site rule names the site" "FAIL site:peak_bytes>+8KiB: site 1 make_pool (pool.c:7): 0 B -> 16.0 KiB (new)" "$work/out"
expect_exit "rule site:peak_bytes>+40KiB fails when roles swap" 1 "$lifeheap" diff "$new" "$base" --fail-on 'site:peak_bytes>+40KiB'
expect_grep "swapped site rule names push_message" "site 1 push_message (queue.c:42): 8.0 KiB -> 50.0 KiB (+525.0%)" "$work/out"
expect_exit "rule site:peak_bytes<-50% sees the shrink" 1 "$lifeheap" diff "$base" "$new" --fail-on 'site:peak_bytes<-50%'
expect_exit "rule finding:missing-backpressure holds for the fix" 0 "$lifeheap" diff "$base" "$new" --fail-on finding:missing-backpressure
expect_exit "rule finding:missing-backpressure fails when roles swap" 1 "$lifeheap" diff "$new" "$base" --fail-on finding:missing-backpressure
expect_grep "rule finding: the failure names the finding as report and diff do" \
  "^FAIL finding:missing-backpressure: new finding \[[a-z]*\] missing-backpressure at site 1, push_message (queue.c:42): site 1 holds 50.0 KiB at the peak" "$work/out"
expect_exit "rule finding:any ignores findings already in BASE" 0 "$lifeheap" diff "$base" "$new" --fail-on finding:any
expect_exit "rule avg_lifetime>+50% fails when roles swap" 1 "$lifeheap" diff "$new" "$base" --fail-on 'avg_lifetime>+50%'
expect_exit "rule avg_lifetime>20% (absolute) fails on base" 1 "$lifeheap" diff "$new" "$base" --fail-on 'avg_lifetime>20%'
expect_exit "several rules: one failure fails" 1 "$lifeheap" diff "$base" "$new" --fail-on 'peak_bytes>+10%' --fail-on 'end_bytes>0'
expect_exit "rule results in diff json" 1 "$lifeheap" diff "$base" "$new" --format json --fail-on 'peak_bytes>+10%' --fail-on 'end_bytes>0'
check_eq "diff json lists each rule's verdict" "true false" "$(jq -r '[.rules[].holds] | join(" ")' "$work/out")"
for rule in 'peak_bytes' 'peak_bytes>' 'peak_bytes>>1' 'nonsense>1' 'peak_bytes>10%' \
            'site:duration>1' 'finding:' 'peak_bytes>+x%' 'peak_bytes>1XB' 'peak_bytes>-'; do
  expect_exit "bad rule '$rule' is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on "$rule"
done
# A typo in a gate must not pass: an unknown kind, metric or rule word is a
# usage error that names the word and lists the valid ones.
expect_exit "diff --fail-on finding:leaks (no such kind) is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on finding:leaks
expect_grep "diff names the unknown kind" "unknown finding kind 'leaks'; one of: missing-backpressure, leak, unbounded-growth, oversized-preallocation, unused-capacity, short-lived-churn, realloc-growth, any" "$work/err"
check_eq "diff prints nothing on stdout for a bad kind" 0 "$(wc -c <"$work/out")"
expect_exit "diff --fail-on finding:Leak (case matters) is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on finding:Leak
expect_exit "diff --fail-on site:peak_byte>0 is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on 'site:peak_byte>0'
expect_grep "diff names the unknown metric and the valid ones" "unknown site metric 'peak_byte'; one of: .*peak_bytes" "$work/err"
expect_exit "diff --fail-on findings:leak (rule word) is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on 'findings:leak'
expect_grep "diff names the unknown rule word" "unknown rule word 'findings:'; one of: site:METRIC, finding:KIND" "$work/err"
expect_exit "diff --fail-on sites:peak_bytes>0 (rule word) is a usage error" 2 "$lifeheap" diff "$base" "$new" --fail-on 'sites:peak_bytes>0'
expect_grep "diff names the unknown rule word sites:" "unknown rule word 'sites:'" "$work/err"
expect_exit "diff --fail-on finding:leak (a real kind) holds" 0 "$lifeheap" diff "$base" "$new" --fail-on finding:leak

#--- check ----------------------------------------------------------------------
expect_exit "check --max-peak 300KiB fails (306.1 KiB)" 1 "$lifeheap" check "$base" --max-peak 300KiB
expect_grep "check names peak and limit" "FAIL peak: 306.1 KiB (313,472 bytes), limit 300.0 KiB (307,200 bytes)" "$work/out"
expect_exit "check --max-peak 313472 holds (equal)" 0 "$lifeheap" check "$base" --max-peak 313472
expect_exit "check --max-peak 1MB holds" 0 "$lifeheap" check "$base" --max-peak 1MB
expect_exit "check --max-end 0 fails" 1 "$lifeheap" check "$base" --max-end 0
expect_exit "check --max-site-peak 100KiB fails" 1 "$lifeheap" check "$base" --max-site-peak 100KiB
expect_grep "check names the offending site" "FAIL site 0 holds 256.0 KiB (262,144 bytes) at the peak: make_table (table.c:10)" "$work/out"
check_eq "check names only offending sites" 1 "$(grep -c '^FAIL site' "$work/out")"
expect_exit "check --forbid missing-backpressure fails" 1 "$lifeheap" check "$base" --forbid missing-backpressure
expect_exit "check --forbid leak holds" 0 "$lifeheap" check "$base" --forbid leak
expect_exit "check --forbid any fails on new.json" 1 "$lifeheap" check "$new" --forbid any
expect_exit "check --forbid leaks (no such kind) is a usage error" 2 "$lifeheap" check "$base" --forbid leaks
expect_grep "check names the unknown kind and the valid ones" "unknown finding kind 'leaks' for --forbid; one of: missing-backpressure, leak, unbounded-growth, oversized-preallocation, unused-capacity, short-lived-churn, realloc-growth, any" "$work/err"
check_eq "check prints no verdict for a bad kind" 0 "$(wc -c <"$work/out")"
expect_exit "check: a bad kind after a good one is still a usage error" 2 "$lifeheap" check "$base" --forbid leak --forbid backpressure
expect_grep "check names the second, bad kind" "unknown finding kind 'backpressure'" "$work/err"
expect_exit "check bad size" 2 "$lifeheap" check "$base" --max-peak 12parsecs
expect_exit "check negative size" 2 "$lifeheap" check "$base" --max-peak -1
expect_exit "check without budget" 2 "$lifeheap" check "$base"

#--- usage ----------------------------------------------------------------------
for command in run report diff check view; do
  expect_exit "$command --help" 0 "$lifeheap" "$command" --help
  expect_grep "$command --help shows usage" "usage: lifeheap $command" "$work/out"
done
expect_exit "no command" 2 "$lifeheap"
expect_exit "unknown command" 2 "$lifeheap" frobnicate
expect_exit "report unknown option" 2 "$lifeheap" report "$base" --frob
# Every command's options go through cli/command_args.c: one form of message
# naming what was wrong, and the pointer to --help.
for command in report diff check view sql; do
  expect_exit "$command unknown option" 2 "$lifeheap" "$command" --frob=1 "$base"
  printf "lifeheap %s: unknown option '--frob'\n(see lifeheap %s --help)\n" \
    "$command" "$command" >"$work/expected_err"
  expect_same "$command unknown option: the message" "$work/expected_err" "$work/err"
done
expect_exit "report -x (short, unknown)" 2 "$lifeheap" report -x "$base"
expect_grep "report -x named" "^lifeheap report: unknown option '-x'$" "$work/err"
expect_exit "report --top without its value" 2 "$lifeheap" report "$base" --top
expect_grep "report --top: needs a value" "^lifeheap report: --top needs a value$" "$work/err"
expect_exit "check --max-peak without its value" 2 "$lifeheap" check "$base" --max-peak
expect_grep "check --max-peak: needs a value" "^lifeheap check: --max-peak needs a value$" "$work/err"
expect_exit "sql -o without its value" 2 "$lifeheap" sql "$base" -o
expect_grep "sql -o: needs a value" "^lifeheap sql: -o needs a value$" "$work/err"
expect_exit "report: two files" 2 "$lifeheap" report "$base" "$base"
expect_grep "report: two files, said" "^lifeheap report: too many arguments$" "$work/err"
expect_exit "diff: one file" 2 "$lifeheap" diff "$base"
expect_grep "diff: one file, said" "^lifeheap diff: needs BASE and NEW$" "$work/err"
expect_exit "run: --out without its value" 2 "$lifeheap" run --out
expect_grep "run: the same form" "^lifeheap run: --out needs a file name$" "$work/err"
expect_exit "report unknown metric" 2 "$lifeheap" report "$base" --sort frob
expect_exit "report unknown format" 2 "$lifeheap" report "$base" --format xml
expect_exit "diff needs two files" 2 "$lifeheap" diff "$base"

#--- bad input ------------------------------------------------------------------
bad=$work/bad
mkdir -p "$bad"
python3 - "$base" "$bad" <<'EOF'
import json, sys, copy
base = json.load(open(sys.argv[1])); out = sys.argv[2]
text = open(sys.argv[1], 'rb').read()
def write(name, data):
    open(f"{out}/{name}", 'wb').write(data if isinstance(data, bytes) else json.dumps(data).encode())
def mutate(name, change):
    p = copy.deepcopy(base); change(p); write(name, p)
write("empty.json", b"")
write("truncated.json", text[: len(text) // 2])
write("not-json.json", b"hello world\n")
write("array.json", b"[1, 2, 3]")
write("trailing.json", text + b"\n}garbage")
write("deep.json", b"[" * 100000)
write("non-utf8.json", text.replace(b'"make_table"', b'"make_\xff\xfetable"'))
mutate("version3.json", lambda p: p.update(format_version=3))
mutate("version-string.json", lambda p: p.update(format_version="1"))
mutate("other-format.json", lambda p: p.update(format="dhat"))
mutate("no-sites.json", lambda p: p.pop("sites"))
mutate("sites-object.json", lambda p: p.update(sites={}))
mutate("string-count.json", lambda p: p["sites"][0].update(total_bytes="12"))
mutate("float-count.json", lambda p: p["sites"][0].update(total_bytes=1.5))
mutate("negative.json", lambda p: p["peak"].update(bytes=-1))
mutate("null-count.json", lambda p: p["totals"].update(blocks=None))
mutate("stack-range.json", lambda p: p["sites"][1]["stack"].append(99))
mutate("name-frame-range.json", lambda p: p["sites"][0].update(name_frame=7))
mutate("finding-site.json", lambda p: p["findings"][0].update(site=3))
mutate("wrong-id.json", lambda p: p["sites"][1].update(id=5))
mutate("frame-not-object.json", lambda p: p["frames"].__setitem__(0, "main"))
mutate("exit-status.json", lambda p: p["run"]["exit"].update(status="exploded"))
mutate("notes-number.json", lambda p: p["sites"][0].update(notes=3))
mutate("note-no-text.json", lambda p: p["sites"][1].update(notes=[{"kind": "realloc-growth", "bytes": 1}]))
# Absurd numbers: beyond 2^53, beyond 2^64, 1e400.
write("huge.json", text.replace(b'"total_bytes": 262144', b'"total_bytes": 9007199254740993', 1))
write("huger.json", text.replace(b'"total_bytes": 262144', b'"total_bytes": 184467440737095516160', 1))
write("inf.json", text.replace(b'"total_bytes": 262144', b'"total_bytes": 1e400', 1))
EOF
expect_exit "missing file" 2 "$lifeheap" report "$work/does-not-exist.json"
expect_grep "missing file message" "lifeheap: .*does-not-exist.json: No such file or directory" "$work/err"
expect_exit "directory" 2 "$lifeheap" report "$work"
declare -A bad_message=(
  [empty]="empty file" [truncated]="truncated JSON" [not-json]="invalid JSON"
  [array]="not a lifeheap profile" [trailing]="invalid JSON"
  [deep]="invalid JSON" [non-utf8]="invalid UTF-8 at byte"
  [version3]="format_version 3 is not supported" [version-string]="format_version"
  [other-format]="not a lifeheap profile" [no-sites]="sites: missing"
  [sites-object]="sites: expected an array, found an object"
  [string-count]="sites\[0\].total_bytes: expected an integer, found a string"
  [float-count]="sites\[0\].total_bytes: expected an integer"
  [negative]="peak.bytes: negative value -1" [null-count]="totals.blocks: expected an integer, found null"
  [stack-range]="sites\[1\].stack\[3\]: frame index 99 out of range (7 frames)"
  [name-frame-range]="sites\[0\].name_frame" [finding-site]="findings\[0\].site: site 3 does not exist"
  [wrong-id]="sites\[1\].id" [frame-not-object]="frames\[0\]: expected an object"
  [exit-status]="run.exit.status" [huge]="out of range" [huger]="sites\[0\].total_bytes"
  [inf]="sites\[0\].total_bytes"
  [notes-number]="sites\[0\].notes: expected an array, found an integer"
  [note-no-text]="sites\[1\].notes\[0\].text: missing"
)
for name in "${!bad_message[@]}"; do
  for command in report check diff view view-baseline; do
    case $command in
      report) args=(report "$bad/$name.json") ;;
      check) args=(check "$bad/$name.json" --max-peak 1) ;;
      diff) args=(diff "$base" "$bad/$name.json") ;;
      view) args=(view "$bad/$name.json" -o "$work/bad.html") ;;
      view-baseline) args=(view "$base" --baseline "$bad/$name.json" -o "$work/bad.html") ;;
    esac
    LIFEHEAP_VIEWER_DIR=$here/fake-viewer "$lifeheap" "${args[@]}" >"$work/out" 2>"$work/err"
    code=$?
    lines=$(wc -l <"$work/err")
    if [ "$code" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "${bad_message[$name]}" "$work/err"; then
      pass "bad input $name: $command exits 2 with one line"
    else
      fail "bad input $name: $command" "exit $code, $lines lines: $(head -c 200 "$work/err")"
    fi
  done
done
# The shared hostile corpus (tests/hostile/make_hostile.py): every command refuses
# each profile with exactly the message the viewer gives for it
# (tests/viewer/hostile.test.js compares the viewer's with the same file).
hostile=$work/hostile
python3 "$top/tests/hostile/make_hostile.py" "$hostile" 100
hostile_cases=0 hostile_agree=0
while IFS=$'\t' read -r name message; do
  hostile_cases=$((hostile_cases + 1))
  agree=1
  for command in report check diff view; do
    case $command in
      report) args=(report "$hostile/$name.json") ;;
      check) args=(check "$hostile/$name.json" --max-peak 1) ;;
      diff) args=(diff "$base" "$hostile/$name.json") ;;
      view) args=(view "$hostile/$name.json" -o "$work/hostile.html") ;;
    esac
    LIFEHEAP_VIEWER_DIR=$here/fake-viewer "$lifeheap" "${args[@]}" >"$work/out" 2>"$work/err"
    code=$?
    want="lifeheap: $hostile/$name.json: $message"
    if [ "$code" -ne 2 ] || [ "$(cat "$work/err")" != "$want" ]; then
      fail "hostile $name: $command" "exit $code, stderr '$(head -c 300 "$work/err")', expected '$want'"
      agree=0
    fi
  done
  [ $agree = 1 ] && hostile_agree=$((hostile_agree + 1))
done <"$hostile/expected.tsv"
check "hostile corpus: at least 30 cases" test "$hostile_cases" -ge 30
check_eq "hostile corpus: report, check, diff and view refuse each with the shared message" "$hostile_cases" "$hostile_agree"
check "hostile corpus: no HTML written for a refused profile" test ! -e "$work/hostile.html"
# A 100 MB function name is no error: the text report shows it capped at
# display_max_chars (docs/profile-rules.json) characters, as the viewer does.
expect_exit "100 MB function name: report loads it" 0 "$lifeheap" report "$hostile/long-name.json" --top 1
limit=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["display_max_chars"])' "$top/docs/profile-rules.json")
check "100 MB function name: every report line is short" test "$(awk '!/^command/ { if (length > m) m = length } END { print m + 0 }' "$work/out")" -lt $((limit + 200))
python3 - "$work/out" "$limit" >"$work/cap.check" <<'EOF'
import sys
limit = int(sys.argv[2])
# The command line and its continuation lines (wrapped at 120 characters:
# at a space, or cut where there is none), compared without white space.
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("command"))
end = start + 1
while lines[end].startswith("    "):
    end += 1
block = lines[start:end]
line = "".join("".join(block).split())
expected = "".join(("command    ./queue_bad --messages 2000 " + "\u00e9" * limit + "\u2026 [%d more characters]" % (1024 * 1024 - limit)).split())
widest = max(len(l) for l in block)
print("ok" if line == expected and widest <= 120 else "got %r...%r, widest %d" % (line[:60], line[-60:], widest))
EOF
check_eq "a 1 Mi-character argument: shown capped at display_max_chars characters" ok "$(cat "$work/cap.check")"
expect_exit "diff refuses a different format version" 2 "$lifeheap" diff "$base" "$bad/version3.json"
expect_grep "diff names the version" "format_version 3 is not supported (this lifeheap reads versions 1 to 2)" "$work/err"
expect_exit "report reads standard input" 0 sh -c "\"$lifeheap\" report - <\"$base\""

# A profile from before the access and findings issues: access, growth and
# findings absent or null still load; access metrics show as "-".
python3 - "$base" "$work/legacy.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
for s in p["sites"]:
    s["access"] = None
    del s["growth"], s["realloc_growth_bytes"]
del p["findings"], p["totals"]["realloc_growth_bytes"]
json.dump(p, open(sys.argv[2], "w"))
EOF
expect_exit "legacy profile without access/findings loads" 0 "$lifeheap" report "$work/legacy.json" --format json
check_eq "legacy profile: access metrics are null, no findings" "null null 0" \
  "$(jq -r '"\(.sites[0].metrics.bytes_read) \(.global.never_read_bytes) \(.findings | length)"' "$work/out")"
"$lifeheap" report "$work/legacy.json" --format dhat >"$work/legacy.dhat" 2>"$work/legacy.err"
expect_grep "legacy profile: DHAT export warns about missing realloc growth" "no realloc_growth_bytes" "$work/legacy.err"

# Control characters in names (valid JSON) never reach the terminal.
python3 - "$base" "$work/escape.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1])); p["frames"][0]["function"] = "evil\u001b[2J\nname;x"
json.dump(p, open(sys.argv[2], "w"))
EOF
"$lifeheap" report "$work/escape.json" >"$work/escape.txt" 2>&1
if grep -q $'\x1b' "$work/escape.txt"; then fail "control characters are not printed"; else pass "control characters are not printed"; fi
expect_grep "control characters shown as ?" "evil?\[2J?name;x (table.c:10)" "$work/escape.txt"
"$lifeheap" report "$work/escape.json" --format collapsed >"$work/escape.folded"
check_eq "collapsed keeps frames separable" "main;evil?[2J?name:x 262144" "$(head -1 "$work/escape.folded")"
for format in json dhat; do
  "$lifeheap" report "$work/escape.json" --format "$format" >"$work/escape.out" 2>/dev/null
  if jq -e . "$work/escape.out" >/dev/null 2>&1; then pass "report --format $format stays valid JSON with hostile names"
  else fail "report --format $format stays valid JSON with hostile names"; fi
done
"$lifeheap" diff "$base" "$work/escape.json" --format json --top 0 --fail-on finding:any >"$work/escape.out" 2>/dev/null
if jq -e '.sites | length' "$work/escape.out" >/dev/null 2>&1; then pass "diff --format json stays valid JSON with hostile names"
else fail "diff --format json stays valid JSON with hostile names"; fi

# 100k sites: loads, reports and diffs against itself (correctness only:
# speed is measured by bench/cli_bench.sh, not asserted on a shared machine).
python3 - "$work/big.json" <<'EOF'
import json, sys
n = 100000
frames = [{"function": f"fn_{i}", "file": f"f{i % 100}.c", "directory": None, "line": i % 1000,
           "object": "/bin/app", "address": hex(0x400000 + i), "inlined": False} for i in range(n)]
frames.append({"function": "main", "file": "main.c", "directory": None, "line": 1,
               "object": "/bin/app", "address": "0x500000", "inlined": False})
sites = []
for i in range(n):
    b = (n - i) * 16
    sites.append({"id": i, "stack": [i, n], "name_frame": 0, "total_blocks": 1, "total_bytes": b,
                  "bytes_at_peak": b, "blocks_at_peak": 1, "max_bytes": b, "max_blocks": 1, "max_time": 10,
                  "bytes_at_exit": 0, "blocks_at_exit": 0, "freed_blocks": 1,
                  "lifetime": {"sum": 100, "min": 100, "max": 100, "histogram": []},
                  "reallocs": 0, "realloc_requested_bytes": 0, "realloc_bytes_copied": 0,
                  "first_alloc_time": 5, "last_alloc_time": 5, "allocating_threads": 1,
                  "cross_thread_frees": 0, "access": None, "growth": None})
peak = sum(s["bytes_at_peak"] for s in sites)
p = {"format": "lifeheap-profile", "format_version": 1,
     "tool": {"name": "lifeheap", "version": "0.1.0", "valgrind_version": "3.19.0"},
     "run": {"command": ["./big"], "executable": "/bin/app", "pid": 1, "ppid": 0, "started_at_unix_ms": 0,
             "wall_time_ms": 0, "time_unit": "instructions", "duration": 1000, "threads": 1,
             "exit": {"status": "exited", "code": 0}, "complete": True, "dump_reason": "exit", "options": {}},
     "totals": {"blocks": n, "bytes": peak, "frees": n, "reallocs": 0, "realloc_requested_bytes": 0,
                "realloc_bytes_copied": 0, "bytes_read": 0, "bytes_written": 0},
     "peak": {"bytes": peak, "blocks": n, "time": 10}, "at_exit": {"bytes": 0, "blocks": 0},
     "frames": frames, "sites": sites, "timeline": None, "findings": []}
json.dump(p, open(sys.argv[1], "w"))
EOF
expect_exit "100k sites: report" 0 "$lifeheap" report "$work/big.json" --top 3
check_eq "100k sites: top site" "0  1.5 MiB" "$(awk '$1 == "0" { print $1 "  " $2 " " $3 }' "$work/out")"
expect_exit "100k sites: diff with itself" 0 "$lifeheap" diff "$work/big.json" "$work/big.json" --fail-on 'site:peak_bytes>+0' --fail-on 'peak_bytes>+0%'
expect_grep "100k sites: all matched" "sites: 100000 matched, 0 new, 0 vanished" "$work/out"
# Memory, not time: the reader parses each frame and site on its own
# (cli/json_split.c) instead of building json-c's tree of the whole document
# (about 12 times the file), so the diff of two copies stays well under 4
# times their combined size (bench/cli_memory.sh measures 1.9x on 250 MB).
/usr/bin/time -o "$work/rss.txt" -f '%M' "$lifeheap" diff "$work/big.json" "$work/big.json" >/dev/null 2>&1
big_kib=$(( $(stat -c %s "$work/big.json") / 1024 ))
check "100k sites: diff's peak RSS $(tail -1 "$work/rss.txt") KiB is under 4x both profiles ($((2 * big_kib)) KiB)" \
  test "$(tail -1 "$work/rss.txt")" -lt $((4 * 2 * big_kib))
expect_exit "100k sites: dhat export" 0 "$lifeheap" report "$work/big.json" --format dhat
check_eq "100k sites: dhat program points" 100000 "$(jq '.pps | length' "$work/out")"

#--- view -----------------------------------------------------------------------
python3 - "$base" "$work/hostile.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["frames"][0]["function"] = "</script><img src=x onerror=alert(1)><!--<script>"
json.dump(p, open(sys.argv[2], "w"))
EOF
LIFEHEAP_VIEWER_DIR=$here/fake-viewer expect_exit "view writes a report" 0 \
  "$lifeheap" view "$work/hostile.json" -o "$work/report.html"
html=$work/report.html
check_eq "view: no external script or stylesheet left" 0 "$(grep -ciE '<script[^>]* src=|<link[^>]*stylesheet' "$html")"
check_eq "view: one profile element" 1 "$(grep -o 'id="lifeheap-profile"' "$html" | wc -l)"
check_eq "view: every script element closes where it should" 3 "$(grep -o '</script>' "$html" | wc -l)"
expect_grep "view: the app script is inlined, its </script> escaped" 'const marker = "<\\/script>";' "$html"
expect_grep "view: the stylesheet is inlined" "body { color: #123456; }" "$html"
python3 - "$html" "$work/hostile.json" >"$work/view.check" <<'EOF'
import base64, hashlib, json, re, sys
html = open(sys.argv[1]).read()
data = re.search(r'<script type="application/json" id="lifeheap-profile" data-name="hostile.json">(.*?)</script>', html, re.S).group(1)
assert "<" not in data, "raw < in embedded profile"
assert json.loads(data) == json.load(open(sys.argv[2])), "embedded profile differs"
policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
# (the fake viewer has two scripts and one stylesheet: none found would
# make the hash checks below hold vacuously)
scripts = re.findall(r'<script>(.*?)</script>', html, re.S)
styles = re.findall(r'<style>(.*?)</style>', html, re.S)
assert len(scripts) == 2 and len(styles) == 1, (len(scripts), len(styles))
for body in scripts:
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy.split("script-src")[1].split(";")[0], "script hash missing"
for body in styles:
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy.split("style-src")[1].split(";")[0], "style hash missing"
assert policy.startswith("default-src 'none'; script-src 'self'"), policy
# The profile element comes before the first script that reads it.
assert html.index('id="lifeheap-profile"') < html.index("<script>"), "profile after script"
print("ok")
EOF
check_eq "view: profile embedded intact, hostile text inert, CSP hashes" ok "$(cat "$work/view.check")"
expect_exit "view without a viewer" 2 env LIFEHEAP_VIEWER_DIR="$work/none" "$lifeheap" view "$base" -o "$work/x.html"
expect_grep "view names where it looked" "no viewer found" "$work/err"
mkdir -p "$work/evil-viewer"
printf '<html><script src="../../etc/passwd"></script></html>\n' >"$work/evil-viewer/index.html"
expect_exit "view refuses assets outside the viewer" 2 env LIFEHEAP_VIEWER_DIR="$work/evil-viewer" "$lifeheap" view "$base" -o "$work/x.html"
cp "$base" "$work/default.json"
LIFEHEAP_VIEWER_DIR=$here/fake-viewer expect_exit "view default output name" 0 "$lifeheap" view "$work/default.json"
check "view wrote default.html" test -s "$work/default.html"
if [ -f "$top/viewer/dist/index.html" ]; then
  expect_exit "view with the real viewer (build tree)" 0 env -u LIFEHEAP_VIEWER_DIR LIFEHEAP_VIEWER_DIR="$top/viewer/dist" "$lifeheap" view "$base" -o "$work/real.html"
  check_eq "real viewer: nothing left to fetch" 0 "$(grep -ciE '<script[^>]* src=|<link[^>]*stylesheet' "$work/real.html")"
else
  fail "view with the real viewer (build tree)" "viewer/dist is not built (scripts/test.sh builds it: LIFEHEAP_SETUP_VIEWER=1 scripts/setup.sh)"
fi
check_eq "view without --baseline: no baseline element" 0 "$(grep -c 'lifeheap-baseline' "$html")"

#--- view -o never damages what it names (cli/output_file.c) ----------------------
# A device and a symlink to one keep their kind (device nodes by mknod in the
# work directory, root only); a FIFO is written through to its reader, or
# refused at once without one; a symlink to a file stays a link and its target
# is replaced with its mode kept; the old fixed "X.tmp" name is left alone.
viewer_env=(env LIFEHEAP_VIEWER_DIR="$here/fake-viewer")
"${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/ref-base.html" 2>/dev/null
"${viewer_env[@]}" "$lifeheap" view "$new" -o "$work/ref-new.html" 2>/dev/null
if mknod "$work/null" c 1 3 2>/dev/null; then
  ln -s null "$work/null-link"
  for name in null null-link; do
    expect_exit "view -o device ($name)" 0 "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/$name"
    check "view -o device ($name): still a character device" test -c "$work/null"
  done
  check "view -o device: the link is still a link to it" test "$(readlink "$work/null-link")" = null
else
  skip "view -o device" "mknod not permitted (needs root)"
fi
mkfifo "$work/fifo"
( timeout 30 cat "$work/fifo" >"$work/from-fifo.html" ) &
reader=$!
sleep 0.3
expect_exit "view -o FIFO with a reader" 0 "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/fifo"
wait "$reader"
check "view -o FIFO: the reader got the page" cmp -s "$work/from-fifo.html" "$work/ref-base.html"
check "view -o FIFO: still a FIFO" test -p "$work/fifo"
expect_exit "view -o FIFO without a reader fails at once" 2 timeout 30 "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/fifo"
expect_grep "view -o FIFO without a reader: clear message" "lifeheap view: cannot write $work/fifo: no process is reading it" "$work/err"
check "view -o FIFO without a reader: still a FIFO" test -p "$work/fifo"
echo old >"$work/page.html"
chmod 640 "$work/page.html"
ln -s page.html "$work/page-link.html"
echo "someone else's file" >"$work/page-link.html.tmp"
ln -s page.html "$work/page.html.tmp"
expect_exit "view -o symlink to a file" 0 "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/page-link.html"
check "view -o symlink: still a link" test "$(readlink "$work/page-link.html")" = page.html
check "view -o symlink: its target has the page" cmp -s "$work/page.html" "$work/ref-base.html"
check_eq "view -o symlink: the target's mode is kept" 640 "$(stat -c %a "$work/page.html")"
check_eq "view -o: a file named like the old temporary is left alone" "someone else's file" "$(cat "$work/page-link.html.tmp")"
check "view -o: a symlink named like the old temporary is left alone" test -L "$work/page.html.tmp"
check "view -o: no temporary file left" test -z "$(find "$work" -name '*.tmp-*')"
expect_exit "view -o a directory" 2 "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work"
expect_grep "view -o a directory: clear message" "lifeheap view: cannot write $work: is a directory" "$work/err"
# Two views writing one output at once: both succeed, the output is one of
# the two complete pages, never a mix; repeated to give the race a chance.
race_ok=0
for round in 1 2 3 4 5 6 7 8; do
  "${viewer_env[@]}" "$lifeheap" view "$base" -o "$work/shared.html" 2>/dev/null & first=$!
  "${viewer_env[@]}" "$lifeheap" view "$new" -o "$work/shared.html" 2>/dev/null & second=$!
  wait "$first"; s1=$?
  wait "$second"; s2=$?
  if [ "$s1$s2" = 00 ] && { cmp -s "$work/shared.html" "$work/ref-base.html" || cmp -s "$work/shared.html" "$work/ref-new.html"; }; then
    race_ok=$((race_ok + 1))
  fi
done
check_eq "view -o: two concurrent views to one file both succeed, output complete (8 rounds)" 8 "$race_ok"
check "view -o concurrent: no temporary file left" test -z "$(find "$work" -name '*.tmp-*')"

#--- view --baseline (a diff report) ----------------------------------------------
expect_exit "view --baseline needs a file name" 2 "$lifeheap" view "$base" --baseline
expect_grep "view --baseline usage message" "lifeheap view: --baseline needs a value" "$work/err"
expect_exit "view: FILE and --baseline not both stdin" 2 sh -c "\"$lifeheap\" view - --baseline - -o \"$work/x.html\" <\"$base\""
expect_grep "view: both-stdin message" "cannot both be standard input" "$work/err"
expect_exit "view --baseline missing file" 2 env LIFEHEAP_VIEWER_DIR="$here/fake-viewer" "$lifeheap" view "$new" --baseline "$work/does-not-exist.json" -o "$work/x.html"
expect_grep "view --baseline missing file message" "lifeheap: .*does-not-exist.json: No such file or directory" "$work/err"
check "view --baseline missing file: no HTML written" test ! -e "$work/x.html"
expect_exit "view --baseline refuses another format version" 2 env LIFEHEAP_VIEWER_DIR="$here/fake-viewer" "$lifeheap" view "$base" --baseline "$bad/version3.json" -o "$work/x.html"
expect_grep "view --baseline names the version" "format_version 3 is not supported (this lifeheap reads versions 1 to 2)" "$work/err"
expect_exit "view refuses another format version in FILE too" 2 env LIFEHEAP_VIEWER_DIR="$here/fake-viewer" "$lifeheap" view "$bad/version3.json" --baseline "$base" -o "$work/x.html"
check "view: refused pairs write no HTML" test ! -e "$work/x.html"
expect_exit "view --help shows --baseline" 0 "$lifeheap" view --help
expect_grep "view --help text" "usage: lifeheap view FILE \[--baseline BASE\] \[-o OUTPUT\]" "$work/out"
# Hostile strings in both profiles and in the baseline's file name.
hostile_base=$work/'base"<b>&.json'
python3 - "$new" "$hostile_base" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["frames"][0]["function"] = "</script><script>window.pwned=1</script><!--"
p["run"]["command"][0] = "<b>base</b>"
json.dump(p, open(sys.argv[2], "w"))
EOF
LIFEHEAP_VIEWER_DIR=$here/fake-viewer expect_exit "view --baseline writes a diff report" 0 \
  "$lifeheap" view "$work/hostile.json" --baseline "$hostile_base" -o "$work/diff.html"
diff_html=$work/diff.html
check_eq "diff report: one profile element" 1 "$(grep -o 'id="lifeheap-profile"' "$diff_html" | wc -l)"
check_eq "diff report: one baseline element" 1 "$(grep -o 'id="lifeheap-baseline"' "$diff_html" | wc -l)"
check_eq "diff report: every script element closes where it should" 4 "$(grep -o '</script>' "$diff_html" | wc -l)"
python3 - "$diff_html" "$work/hostile.json" "$hostile_base" >"$work/view.check" <<'EOF'
import base64, hashlib, html as htmllib, json, re, sys
page = open(sys.argv[1]).read()
blocks = {}
for m in re.finditer(r'<script type="application/json" id="(lifeheap-[a-z]+)" data-name="([^"]*)">(.*?)</script>', page, re.S):
    blocks[m.group(1)] = (htmllib.unescape(m.group(2)), m.group(3), m.start())
assert sorted(blocks) == ["lifeheap-baseline", "lifeheap-profile"], sorted(blocks)
for element, path in (("lifeheap-profile", sys.argv[2]), ("lifeheap-baseline", sys.argv[3])):
    name, data, at = blocks[element]
    assert name == path.rsplit("/", 1)[1], (element, name)
    assert "<" not in data, "raw < in " + element
    assert json.loads(data) == json.load(open(path)), element + " differs from its file"
    assert at < page.index("<script>"), element + " after the first script"
assert 'data-name="base&quot;&lt;b&gt;&amp;.json"' in page, "file name not escaped"
policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
scripts = re.findall(r'<script>(.*?)</script>', page, re.S)
assert len(scripts) == 2, len(scripts)
for body in scripts:
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in policy.split("script-src")[1].split(";")[0], "script hash missing"
# Data blocks are never run, so the policy lists no hash for them: only the two scripts'.
assert policy.split("script-src")[1].split(";")[0].count("'sha256-") == 2, policy
print("ok")
EOF
check_eq "diff report: both profiles embedded intact, hostile text inert, CSP hashes" ok "$(cat "$work/view.check")"
LIFEHEAP_VIEWER_DIR=$here/fake-viewer expect_exit "view --baseline default output name" 0 "$lifeheap" view "$work/default.json" --baseline "$base"
check_eq "view --baseline: default output named after FILE" 1 "$(grep -c 'id="lifeheap-baseline" data-name="base.json"' "$work/default.html")"
expect_exit "view --baseline from standard input" 0 sh -c "LIFEHEAP_VIEWER_DIR=\"$here/fake-viewer\" \"$lifeheap\" view \"$new\" --baseline - -o - <\"$base\""
check_eq "view --baseline -: unnamed baseline element" 1 "$(grep -c '<script type="application/json" id="lifeheap-baseline">' "$work/out")"

#--- run ------------------------------------------------------------------------
# A fake valgrind records its arguments (but the run record's temporary
# name) and VALGRIND_LIB, writes a profile where --lifeheap-out-file says,
# appends its absolute path and a NUL to the run record as the tool does, and
# exits with the client's status.
fake=$work/fake-valgrind
cat >"$fake" <<'EOF'
#!/bin/sh
out=lifeheap.out.$$.json record=
for a in "$@"; do case $a in
  --lifeheap-out-file=*) out=${a#--lifeheap-out-file=} ;;
  --lifeheap-run-record=*) record=${a#--lifeheap-run-record=} ;;
esac; done
echo "args: $*" | sed 's/ --lifeheap-run-record=[^ ]*//' >"$FAKE_LOG"
echo "lib: ${VALGRIND_LIB:-unset}" >>"$FAKE_LOG"
echo "record: ${record:-none}" >>"$FAKE_LOG"
out=$(echo "$out" | sed "s/%p/$$/g")
echo '{}' >"$out"
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
[ -n "$record" ] && printf '%s\0' "$out" >>"$record"
exit "${FAKE_STATUS:-0}"
EOF
chmod +x "$fake"
export FAKE_LOG=$work/fake.log
(cd "$work" && LIFEHEAP_VALGRIND=$fake FAKE_STATUS=3 "$lifeheap" run --out prof.json --num-callers=20 -- ./prog a b) >"$work/out" 2>"$work/err"
check_eq "run forwards the client's exit status" 3 "$?"
check_eq "run passes valgrind options, out file and program" \
  "args: --tool=lifeheap --num-callers=20 --fair-sched=yes --lifeheap-out-file=prof.json ./prog a b" "$(head -1 "$FAKE_LOG")"
expect_grep "run says where the profile is" "profile written to prof.json" "$work/err"
if mknod "$work/run-null" c 1 3 2>/dev/null; then
  (cd "$work" && LIFEHEAP_VALGRIND=$fake "$lifeheap" run --out "$work/run-null" -- ./prog) >"$work/out" 2>"$work/err"
  expect_grep "run --out a device: says it is not a regular file" \
    "lifeheap: the profile went to $work/run-null, which is not a regular file: nothing to report on later" "$work/err"
  check "run --out a device: still a device" test -c "$work/run-null"
else
  skip "run --out a device" "mknod not permitted (needs root)"
fi
(cd "$work" && LIFEHEAP_VALGRIND=$fake "$lifeheap" run ./prog) >"$work/out" 2>"$work/err"
check_eq "run without -- and default out file" 0 "$?"
check_eq "run: strict thread turns by default" "args: --tool=lifeheap --fair-sched=yes ./prog" "$(head -1 "$FAKE_LOG")"
(cd "$work" && LIFEHEAP_VALGRIND=$fake "$lifeheap" run --fair-sched=no -- ./prog) >/dev/null 2>&1
check_eq "run: the user's --fair-sched wins" "args: --tool=lifeheap --fair-sched=no ./prog" "$(head -1 "$FAKE_LOG")"
expect_grep "run finds the default pid-named profile" "profile written to lifeheap.out.[0-9]*.json" "$work/err"
fake_record=$(sed -n 's/^record: //p' "$FAKE_LOG")
case $fake_record in
  */lifeheap-run.*) if [ -e "$fake_record" ]; then
      fail "run removes its run record" "$fake_record is left behind"
    else pass "run removes its run record"; fi ;;
  *) fail "run passes a run record" "record: $fake_record" ;;
esac
(cd "$work" && LIFEHEAP_VALGRIND=$fake "$lifeheap" run --out "$work/abs.json" -- ./prog) >/dev/null 2>"$work/err"
expect_grep "run shows an absolute --out as given" "profile written to $work/abs.json$" "$work/err"
# Build-tree detection: a lifeheap binary whose ../tool/vglib holds a tool.
mkdir -p "$work/tree/cli" "$work/tree/tool/vglib"
cp "$lifeheap" "$work/tree/cli/lifeheap"
touch "$work/tree/tool/vglib/lifeheap-amd64-linux"
(cd "$work" && env -u VALGRIND_LIB LIFEHEAP_VALGRIND=$fake "$work/tree/cli/lifeheap" run -- ./prog) >/dev/null 2>&1
check_eq "run uses the build tree's tool" "lib: $work/tree/cli/../tool/vglib" "$(sed -n 2p "$FAKE_LOG")"
rm "$work/tree/tool/vglib/lifeheap-amd64-linux"
(cd "$work" && env -u VALGRIND_LIB LIFEHEAP_VALGRIND=$fake "$work/tree/cli/lifeheap" run -- ./prog) >/dev/null 2>&1
check_eq "run relies on the installed tool otherwise" "lib: unset" "$(sed -n 2p "$FAKE_LOG")"
expect_exit "run with a missing valgrind exits 127" 127 env LIFEHEAP_VALGRIND="$work/no-valgrind" "$lifeheap" run -- ./prog
expect_exit "run without a program" 2 "$lifeheap" run --out x.json --

#--- run with the real tool: the names the tool expanded -------------------------
. "$here/run_names.sh"

#--- end to end: the queue story with the real tool -----------------------------
. "$here/e2e.sh"

#--- site identity across runs: the tool's keys and the CLI's ---------------------
. "$here/match_keys.sh"
. "$here/twins.sh"

summary
