# tests/cli/twins.sh: sites the compiler duplicated make one row of a diff
# (sourced by run.sh after match_keys.sh). progs/twins.c built with
# -DTWO_CALLS has two sites of one source stack (make_item called twice on
# one line: the same functions, files and lines, two code addresses); built
# without, one. Diffing the two builds, either way round, must list one row
# for the three sites whose figures on the twins' side are the twins'
# combined: from the program, 30 items of 48 bytes (1440 B, all live at the
# peak), 6 left at exit (288 B), 24 freed, 40 bytes of each written (1200 B),
# one byte read; the 4096-byte buffer is a row of its own. So every site row
# adds up to the run's totals on both sides.

tw_dir=$TESTS_OUT/cli-twins
mkdir -p "$tw_dir"
if [ ! -e "$top/tool/vglib/lifeheap-amd64-linux" ]; then
  fail "twins: real profiles" "the tool is not built"
elif ! compile_c "$tw_dir/twins_two" "$here/progs/twins.c" -DTWO_CALLS ||
     ! compile_c "$tw_dir/twins_one" "$here/progs/twins.c"; then
  fail "twins: build progs/twins.c" "gcc failed"
else
  for tw_build in two one; do
    run_lifeheap "$tw_dir/$tw_build.json" -q --vgdb=no "$tw_dir/twins_$tw_build"
    python3 "$top/tests/lib/lifeheap_profile.py" v1 "$tw_dir/$tw_build.json" "$tw_dir/$tw_build.v1.json"
  done
  # The sites of make_item: two in the two-call build, one in the other (the
  # premise: without twins this file tests nothing).
  tw_item_sites() {
    jq -c '[.sites | to_entries[] | select(.value.label | startswith("make_item")) | .key]' "$tw_dir/$1.v1.json"
  }
  check_eq "twins: the two-call build has 2 make_item sites, the other 1" "2 1" \
    "$(tw_item_sites two | jq length) $(tw_item_sites one | jq length)"
  check_eq "twins: the two make_item sites share key and lines" "1" \
    "$(jq '[.sites[] | select(.label | startswith("make_item")) | [.match_key, .match_lines]] | unique | length' "$tw_dir/two.v1.json")"

  for tw_way in "two one" "one two"; do
    set -- $tw_way
    tw_base=$1 tw_new=$2 tw_name="twins: diff $1-call build -> $2-call build"
    tw_json=$tw_dir/diff_$tw_base$tw_new.json tw_text=$tw_dir/diff_$tw_base$tw_new.txt
    "$lifeheap" diff "$tw_dir/$tw_base.json" "$tw_dir/$tw_new.json" --format json --top 0 >"$tw_json"
    "$lifeheap" diff "$tw_dir/$tw_base.json" "$tw_dir/$tw_new.json" --top 0 >"$tw_text"
    check_eq "$tw_name: 2 rows, both matched" "2 2 0 0" \
      "$(jq -r '"\(.sites | length) \(.matched_sites) \(.new_sites) \(.vanished_sites)"' "$tw_json")"
    check_eq "$tw_name: one row holds every make_item site of both runs" \
      "$(tw_item_sites "$tw_base") $(tw_item_sites "$tw_new")" \
      "$(jq -c '.sites[] | select(.name | startswith("make_item")) | .base_ids, .new_ids' "$tw_json" | tr '\n' ' ' | sed 's/ $//')"
    # Bytes and counts: the twins' sum, equal to the single site's.
    check_eq "$tw_name: the row's bytes and blocks, both sides" \
      "1440 1440 30 30 1440 1440 30 30 288 288 6 6 24 24 1200 1200 1 1 1439 1439 1440 1440 30 30" \
      "$(jq -r '.sites[] | select(.name | startswith("make_item")) | .metrics
         | [.total_bytes, .total_blocks, .peak_bytes, .peak_blocks, .end_bytes, .end_blocks, .freed_blocks,
            .bytes_written, .bytes_read, .never_read_bytes, .max_bytes, .max_blocks]
         | map("\(.base) \(.new)") | join(" ")' "$tw_json")"
    # Lifetimes from the sites' own fields: the longest of the twins, the
    # average over all their blocks (percent of the run, 4 decimals).
    tw_life() {
      jq -r '.run.duration as $d | [.sites[] | select(.label | startswith("make_item"))]
        | "\(100 * (map(.lifetime.max) | max) / $d * 10000 | round / 10000) \(100 * (map(.lifetime.sum) | add) / (map(.total_blocks) | add) / $d * 10000 | round / 10000)"' \
        "$tw_dir/$1.v1.json"
    }
    check_eq "$tw_name: max and average lifetime combined from the sites" \
      "$(tw_life "$tw_base") $(tw_life "$tw_new")" \
      "$(jq -r '.sites[] | select(.name | startswith("make_item")) | .metrics
         | "\(.max_lifetime.base * 10000 | round / 10000) \(.avg_lifetime.base * 10000 | round / 10000) \(.max_lifetime.new * 10000 | round / 10000) \(.avg_lifetime.new * 10000 | round / 10000)"' "$tw_json")"
    # The rows add up to each run's totals.
    for tw_metric in total_bytes total_blocks peak_bytes end_bytes freed_blocks bytes_written; do
      check_eq "$tw_name: site rows add up to the run's $tw_metric" \
        "$(jq -r --arg m "$tw_metric" '"\(.global[$m].base) \(.global[$m].new)"' "$tw_json")" \
        "$(jq -r --arg m "$tw_metric" '"\([.sites[].metrics[$m].base] | add) \([.sites[].metrics[$m].new] | add)"' "$tw_json")"
    done
    # The text listing: the row's ids joined with +, no change in bytes.
    tw_ids=$(jq -r '.sites[] | select(.name | startswith("make_item")) | "\(.base_ids | map(tostring) | join("+")) \(.new_ids | map(tostring) | join("+"))"' "$tw_json")
    check_eq "$tw_name: text row" "matched $tw_ids 1.4 KiB 1.4 KiB 0 B (0%)" \
      "$(awk '$1 == "matched" && / make_item / { print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }' "$tw_text")"
    check_eq "$tw_name: text: no byte or block figure of the row changed" "" \
      "$(awk '/^matched/ { row = / make_item / } row && $1 ~ /bytes|blocks/ { print $1 }' "$tw_text")"
    # A site: rule judges the row once, with the combined figures.
    "$lifeheap" diff "$tw_dir/$tw_base.json" "$tw_dir/$tw_new.json" --fail-on 'site:total_bytes>=1440' \
      >"$tw_dir/rule.out" 2>&1
    check_eq "$tw_name: site:total_bytes>=1440 fails once for make_item, 1440 on both sides" \
      "1 1.4 KiB -> 1.4 KiB (+0.0%)" \
      "$(grep -c '^FAIL site:total_bytes>=1440: site [0-9]* make_item' "$tw_dir/rule.out") $(grep '^FAIL.* make_item' "$tw_dir/rule.out" | sed 's/.*: \(.* -> .*\)$/\1/')"
    expect_exit "$tw_name: site:total_bytes>+0 holds (no row grew)" 0 \
      "$lifeheap" diff "$tw_dir/$tw_base.json" "$tw_dir/$tw_new.json" --fail-on 'site:total_bytes>+0'
  done
fi
