#!/usr/bin/env bash
# tests/fuzz/run.sh: runs the libFuzzer target for the profile reader
# (profile_fuzz.c) for a short time, seeded with the CLI suite's profiles.
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
sources=("$top"/cli/profile.c "$top"/cli/metrics.c "$top"/cli/util.c \
         "$top"/cli/match.c "$top"/cli/report_text.c "$top"/cli/report_json.c \
         "$top"/cli/report_collapsed.c "$top"/cli/report_dhat.c)
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -I"$top/cli" $(pkg-config --cflags json-c) "$here/profile_fuzz.c" "${sources[@]}" \
     $(pkg-config --libs json-c) -lm -o "$binary" 2>"$findings/build.log"; then
  pass "fuzz build"
else
  fail "fuzz build" "$(head -c 300 "$findings/build.log")"
  summary; exit 1
fi

cp "$top"/tests/cli/profiles/*.json "$corpus"/
(cd "$findings" && "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
   -dict="$here/profile.dict" -print_final_stats=1 "$corpus" >"$findings/fuzz.log" 2>&1)
status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$findings/fuzz.log" | grep -o '[0-9]*$')
if [ "$status" -eq 0 ]; then
  pass "fuzz the profile reader for ${seconds}s (${runs:-?} inputs, no crash)"
else
  fail "fuzz the profile reader" "exit $status; see $findings/fuzz.log: $(grep -m1 -E 'ERROR|SUMMARY' "$findings/fuzz.log")"
fi
profiles_not_the_tools   # the corpus: hand-written and mutated profiles
summary
