# tests/cli/match_keys.sh: site identity across runs (sourced by run.sh after
# e2e.sh). The tool writes sites[].match_key and match_lines; cli/match.c
# computes the same from the stack for profiles written before the keys
# existed. match_key_check.c compares the two on every site of real profiles
# (C: the e2e queue programs; Rust, whose stacks carry library frames, inlined
# std code and generic names: examples/csv_rows_rs and queue_unbounded_rs),
# and a diff of a profile against itself without its keys must pair every site
# with itself.

mk_checker=$TESTS_BUILD/match_key_check
mk_dir=$TESTS_OUT/cli-match-keys
mkdir -p "$mk_dir"
if ! gcc -O2 -Wall -Wextra -I"$top/cli" -I"$top/common" $(pkg-config --cflags json-c) \
     -o "$mk_checker" "$here/match_key_check.c" "$top/cli/match.c" "$top/cli/names.c" \
     "$top/cli/profile.c" "$top/cli/profile_fields.c" "$top/cli/profile_document.c" "$top/cli/profile_defaults.c" "$top/cli/profile_rules.c" "$top/cli/profile_counts.c" "$top/cli/json_split.c" "$top/cli/util.c" "$top/cli/text_builder.c" \
     $(pkg-config --libs json-c) -lm 2>"$mk_dir/build.log"; then
  fail "match keys: build the checker" "$(head -c 300 "$mk_dir/build.log")"
elif [ ! -e "$top/tool/vglib/lifeheap-amd64-linux" ]; then
  fail "match keys: real profiles" "the tool is not built"
else
  mk_profiles=("$TESTS_OUT/cli-e2e/queue_unbounded.json" "$TESTS_OUT/cli-e2e/queue_bounded.json")
  for mk_name in csv_rows_rs queue_unbounded_rs; do
    if [ ! -x "$top/examples/$mk_name" ]; then
      fail "match keys: profile examples/$mk_name" "not built (make in examples/ builds it with rustc)"
      continue
    fi
    (cd "$top/examples" && VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap -q --fair-sched=yes \
       --lifeheap-out-file="$mk_dir/$mk_name.json" "./$mk_name" >/dev/null 2>"$mk_dir/$mk_name.log")
    mk_profiles+=("$mk_dir/$mk_name.json")
  done
  for mk_profile in "${mk_profiles[@]}"; do
    mk_base=$(basename "$mk_profile" .json)
    # The keys as readers join them (frames' match_text by match_frames):
    # the profile written as version 1, every member in full.
    python3 "$top/tests/lib/lifeheap_profile.py" v1 "$mk_profile" "$mk_dir/$mk_base.v1.json"
    mk_sites=$(jq '.sites | length' "$mk_dir/$mk_base.v1.json" 2>/dev/null)
    mk_keyed=$(jq '[.sites[] | select(.match_key != null and (.match_lines | length) == (.match_key | split("\n") | length) - 1)] | length' "$mk_dir/$mk_base.v1.json" 2>/dev/null)
    if [ -n "$mk_sites" ] && [ "$mk_sites" -gt 0 ] && [ "$mk_keyed" = "$mk_sites" ]; then
      pass "match keys: $mk_base: every site has a key and one line per key frame ($mk_sites sites)"
    else
      fail "match keys: $mk_base: every site has a key and one line per key frame" "$mk_keyed of $mk_sites"
    fi
    if "$mk_checker" "$mk_profile" >"$mk_dir/$mk_base.check" 2>&1; then
      pass "match keys: $mk_base: the tool's keys are the CLI's computed ones"
    else
      fail "match keys: $mk_base: the tool's keys are the CLI's computed ones" "$(head -c 400 "$mk_dir/$mk_base.check")"
    fi
    # Both readers of the format agree: the CLI's report of the profile and
    # of its version 1 copy are the same.
    "$lifeheap" report "$mk_profile" --format json --top 0 | jq -S 'del(.profile)' >"$mk_dir/$mk_base.report2"
    "$lifeheap" report "$mk_dir/$mk_base.v1.json" --format json --top 0 | jq -S 'del(.profile)' >"$mk_dir/$mk_base.report1"
    if [ -s "$mk_dir/$mk_base.report2" ] && cmp -s "$mk_dir/$mk_base.report1" "$mk_dir/$mk_base.report2"; then
      pass "match keys: $mk_base: version 2 reads as its version 1 copy (report --format json)"
    else
      fail "match keys: $mk_base: version 2 reads as its version 1 copy (report --format json)" \
        "$(diff "$mk_dir/$mk_base.report1" "$mk_dir/$mk_base.report2" | head -c 300)"
    fi
    python3 "$top/tests/lib/lifeheap_profile.py" v1 "$mk_profile" "$mk_dir/$mk_base.nokey.json" --no-keys
    "$lifeheap" diff "$mk_profile" "$mk_dir/$mk_base.nokey.json" --format json --top 0 >"$mk_dir/$mk_base.diff.json" 2>&1
    check_eq "match keys: $mk_base: a diff with its keyless copy pairs each site with itself" \
      "$mk_sites" "$(jq '[.sites[] | select(.status == "matched" and .base_id == .new_id)] | length' "$mk_dir/$mk_base.diff.json")"
  done
fi
