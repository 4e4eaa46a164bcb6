#!/usr/bin/env bash
# tests/fuzz/run.sh: runs the libFuzzer target for the profile reader and
# its consumers: reports, diff of two profiles, rule parsing, check and the
# HTML rewriting of view (profile_fuzz.c) for a short time, seeded with the
# CLI suite's profiles.
#
#   tests/fuzz/run.sh                  # 30 seconds (what scripts/test.sh runs)
#   FUZZ_SECONDS=3600 tests/fuzz/run.sh   # longer; see docs/cli.md
#
# The corpus grows in tests/artifacts/fuzz-corpus/ and is reused by the next
# run; a crash leaves its input in tests/artifacts/fuzz/ (crash-*, leak-*).
# Prints "PASS name" / "FAIL name: reason" and "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
seconds=${FUZZ_SECONDS:-30}
binary=$TESTS_BUILD/profile_fuzz
corpus=$TESTS_OUT/fuzz-corpus
findings=$TESTS_OUT/fuzz
mkdir -p "$corpus" "$findings"

if ! command -v clang >/dev/null; then
  fail "fuzz build" "clang is not installed"
  summary; exit 1
fi
sources=("$top"/cli/profile.c "$top"/cli/profile_rules.c "$top"/cli/json_split.c "$top"/cli/metrics.c "$top"/cli/util.c \
         "$top"/cli/match.c "$top"/cli/report_text.c "$top"/cli/report_json.c \
         "$top"/cli/report_collapsed.c "$top"/cli/report_dhat.c \
         "$top"/cli/rules.c "$top"/cli/sha256.c "$top"/cli/output_file.c \
         "$top"/cli/cmd_diff.c "$top"/cli/cmd_check.c "$top"/cli/cmd_view.c)
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -I"$top/cli" $(pkg-config --cflags json-c) "$here/profile_fuzz.c" "${sources[@]}" \
     $(pkg-config --libs json-c) -lm -o "$binary" 2>"$findings/build.log"; then
  pass "fuzz build"
else
  fail "fuzz build" "$(head -c 300 "$findings/build.log")"
  summary; exit 1
fi

cp "$top"/tests/cli/profiles/*.json "$corpus"/
# Seeds with every part (profile_fuzz.c): two profiles, rules, a viewer page.
cut='
--8<--
'
{ cat "$top/tests/cli/profiles/base.json"; printf '%s' "$cut"; cat "$top/tests/cli/profiles/new.json"
  printf '%s' "$cut"; printf 'peak_bytes>+10%%\nsite:peak_bytes>+1MiB\nfinding:leak\ntotal_blocks<=5'
  printf '%s' "$cut"; cat "$top/tests/cli/fake-viewer/index.html"; } >"$corpus/seed-all-parts"
{ cat "$top/tests/cli/profiles/base.json"; printf '%s' "$cut"; cat "$top/tests/cli/profiles/base.json"; } >"$corpus/seed-same-pair"
(cd "$findings" && "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
   -dict="$here/profile.dict" -print_final_stats=1 "$corpus" >"$findings/fuzz.log" 2>&1)
status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$findings/fuzz.log" | grep -o '[0-9]*$')
if [ "$status" -eq 0 ]; then
  pass "fuzz the reader, diff, rules, check and view for ${seconds}s (${runs:-?} inputs, no crash)"
else
  fail "fuzz the profile reader" "exit $status; see $findings/fuzz.log: $(grep -m1 -E 'ERROR|SUMMARY' "$findings/fuzz.log")"
fi
summary
