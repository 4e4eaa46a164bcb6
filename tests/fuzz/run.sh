#!/usr/bin/env bash
# tests/fuzz/run.sh: runs the libFuzzer targets for the profile reader and
# its consumers: reports, diff of two profiles, rule parsing, check and the
# HTML rewriting of view (profile_fuzz.c), and for the block file reader and
# `lifeheap sql`'s build (blocks_fuzz.c), each for a short time, seeded with
# the CLI suite's profiles and a small block file.
#
#   tests/fuzz/run.sh                  # 30 seconds (what scripts/test.sh runs)
#   FUZZ_SECONDS=3600 tests/fuzz/run.sh   # longer; see docs/cli.md
#
# The corpus grows in tests/artifacts/fuzz-corpus/ and is reused by the next
# run; a crash leaves its input in tests/artifacts/fuzz/ (crash-*, leak-*).
# Prints "PASS name" / "FAIL name: reason" and "N passed, N failed, N skipped".
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
sources=("$top"/cli/profile.c "$top"/cli/profile_fields.c "$top"/cli/profile_document.c "$top"/cli/profile_defaults.c "$top"/cli/profile_rules.c "$top"/cli/profile_counts.c "$top"/cli/json_split.c "$top"/cli/metrics.c "$top"/cli/util.c \
         "$top"/cli/match.c "$top"/cli/diff_rows.c "$top"/cli/names.c "$top"/cli/report_text.c "$top"/cli/report_json.c \
         "$top"/cli/report_collapsed.c "$top"/cli/report_dhat.c \
         "$top"/cli/rules.c "$top"/cli/finding_kinds.c "$top"/cli/evidence_labels.c "$top"/cli/sha256.c "$top"/cli/output_file.c \
         "$top"/cli/cmd_diff.c "$top"/cli/diff_headline.c "$top"/cli/cmd_check.c "$top"/cli/cmd_view.c \
         "$top"/cli/command_args.c "$top"/cli/self_directory.c "$top"/cli/text_builder.c)
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -I"$top/cli" -I"$top/common" $(pkg-config --cflags json-c) "$here/profile_fuzz.c" "${sources[@]}" \
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
# The block file reader and the database build.
blocks_binary=$TESTS_BUILD/blocks_fuzz
blocks_corpus=$TESTS_OUT/fuzz-blocks-corpus
blocks_seconds=${FUZZ_BLOCKS_SECONDS:-10}
mkdir -p "$blocks_corpus"
if clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -I"$top/cli" -I"$top/common" $(pkg-config --cflags json-c sqlite3) "$here/blocks_fuzz.c" \
     "$top/cli/block_file.c" "$top/cli/sql_build.c" "$top/cli/profile.c" "$top/cli/profile_fields.c" "$top/cli/profile_document.c" "$top/cli/util.c" \
     "$top/cli/profile_defaults.c" "$top/cli/profile_rules.c" "$top/cli/profile_counts.c" "$top/cli/json_split.c" "$top/cli/text_builder.c" \
     $(pkg-config --libs json-c sqlite3) -lm -o "$blocks_binary" 2>"$findings/blocks-build.log"; then
  pass "fuzz build (block file)"
else
  fail "fuzz build (block file)" "$(head -c 300 "$findings/blocks-build.log")"
  summary; exit 1
fi
# Seed: a header and three records (a realloc chain of two, one live block).
python3 - "$blocks_corpus/seed" <<'PY'
import struct, sys
header = b"LHBLOCKS" + struct.pack("<IIIIIIQQ16x", 1, 64, 80, 1024, 42, 1, 0, 1)
def record(previous, birth, death, size, flags):
    return struct.pack("<QQQQQQQQIIII", previous, birth, death, size, birth + 1,
                       death, size // 2, size, 1, 1, 1, flags)
body = record(0, 10, 20, 16, 0x6) + record(1, 20, 30, 32, 0x2) + record(0, 5, 40, 8, 0x1)
trailer = struct.pack("<QQQ52xI", 3, 40, 1, 0x80000000)
open(sys.argv[1], "wb").write(header + body + trailer)
PY
(cd "$findings" && "$blocks_binary" -max_total_time="$blocks_seconds" -timeout=10 \
   -rss_limit_mb=2048 -print_final_stats=1 "$blocks_corpus" >"$findings/blocks-fuzz.log" 2>&1)
status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$findings/blocks-fuzz.log" | grep -o '[0-9]*$')
if [ "$status" -eq 0 ]; then
  pass "fuzz the block file reader and the database build for ${blocks_seconds}s (${runs:-?} inputs, no crash)"
else
  fail "fuzz the block file reader" "exit $status; see $findings/blocks-fuzz.log: $(grep -m1 -E 'ERROR|SUMMARY' "$findings/blocks-fuzz.log")"
fi
rm -f /tmp/lifeheap-blocks-fuzz.*
profiles_not_the_tools   # the corpora: hand-written and mutated profiles
summary
