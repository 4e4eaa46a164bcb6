#!/usr/bin/env bash
# Site names a Rust or C++ engineer recognises: frames named from the DWARF
# (no UnknownInlinedFun), methods with their type, one unique label per site
# shown alike by the summary, the report and the findings, diff identity
# across two builds of the same source, -q.
#
# Rust programs are built as users build them: rustc -O -C debuginfo=1 and
# a cargo release profile with debug = 1; C++ with g++ -O2 -g.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
bin="$TESTS_BUILD/names"; out="$TESTS_OUT/names"
mkdir -p "$bin" "$out"
progs="$here/progs"
lifeheap="$top/cli/lifeheap"

line_of() { grep -n "$1" "$2" | head -1 | cut -d: -f1; }

# profile NAME PROG [ARGS]: profile, summary log and text report.
profile() {
  local name=$1; shift
  run_lifeheap "$out/$name.json" "$@" >"$out/$name.stdout"
  local status=$?
  "$lifeheap" report "$out/$name.json" > "$out/$name.report" 2>&1
  return $status
}

# --- the helper is there (the build tree links it beside the tool)
check "helper: tool/vglib/lifeheap-symbolize is executable" test -x "$top/tool/vglib/lifeheap-symbolize"

# --- Rust, rustc -O -C debuginfo=1
if command -v rustc >/dev/null; then
  src="$progs/conns.rs"
  if rustc -O -C debuginfo=1 -o "$bin/conns" "$src" 2>"$out/rustc.log" &&
     rustc -O -C debuginfo=1 -C codegen-units=1 -o "$bin/conns_cgu1" "$src" 2>>"$out/rustc.log" &&
     rustc -O -C debuginfo=2 -o "$bin/conns_dbg2" "$src" 2>>"$out/rustc.log"; then
    profile conns "$bin/conns"; check_eq "rust conns: exits 0" 0 "$?"
    new=$(line_of 'window: vec!\[0u8' "$src"); h=$(line_of 'Vec::with_capacity(bytes)' "$src")
    c1=$(line_of 'handle(black_box(1000))' "$src"); c2=$(line_of 'handle(black_box(2000))' "$src"); c3=$(line_of 'handle(black_box(3000))' "$src")
    expect=$(printf '{"prefix": "rust conns", "labels": [
      ["ConnState::new \\\\(conns.rs:%s\\\\), allocated by vec::from_elem \\\\(mod.rs:[0-9]+\\\\)", 16, 262144],
      ["ConnState::new \\\\(conns.rs:%s\\\\), allocated by Vec::with_capacity \\\\(mod.rs:[0-9]+\\\\)", 16, 4096],
      ["conns::handle \\\\(conns.rs:%s\\\\) via conns::main \\\\(conns.rs:%s\\\\)", 16, 1000],
      ["conns::handle \\\\(conns.rs:%s\\\\) via conns::main \\\\(conns.rs:%s\\\\)", 16, 2000],
      ["conns::handle \\\\(conns.rs:%s\\\\) via conns::main \\\\(conns.rs:%s\\\\)", 16, 3000]]}' \
      "$new" "$new" "$h" "$c1" "$h" "$c2" "$h" "$c3")
    feed_checks "$here/check.py" "$out/conns.json" "$out/conns.json.log" "$out/conns.report" "$expect"
    check "rust conns: the name frame of the 256 KiB site is conns::ConnState::new" python3 -c "
import json, lifeheap_profile,sys
p=lifeheap_profile.load('$out/conns.json')
s=[s for s in p['sites'] if s['total_bytes']==16*262144][0]
sys.exit(p['frames'][s['stack'][s['name_frame']]]['function']!='conns::ConnState::new')"
    check "rust conns: library frames are marked (alloc::alloc::alloc_zeroed)" python3 -c "
import json, lifeheap_profile,sys
p=lifeheap_profile.load('$out/conns.json')
sys.exit(not any(f['function']=='alloc::alloc::alloc_zeroed' and f['library'] for f in p['frames']))"

    # Without the helper Valgrind names the inlined constructor "new": the
    # helper is what gives it its type.
    run_lifeheap "$out/conns_plain.json" --lifeheap-symbolizer=no "$bin/conns" >/dev/null
    check "rust conns: without the helper the constructor reads 'new (conns.rs:$new)'" \
      grep -q "  new (conns.rs:$new)" "$out/conns_plain.json.log"

    # Two other builds of the same source: every site matches.
    for variant in cgu1 dbg2; do
      run_lifeheap "$out/conns_$variant.json" "$bin/conns_$variant" >/dev/null
      "$lifeheap" diff "$out/conns.json" "$out/conns_$variant.json" > "$out/diff_$variant.txt" 2>&1
      n=$(python3 -c "import json; print(len(json.load(open('$out/conns.json'))['sites']))")
      check "rust conns: diff against the $variant build: no new or vanished site" \
        grep -Eq "^sites: [0-9]+ matched, 0 new, 0 vanished" "$out/diff_$variant.txt"
      check "rust conns: diff against the $variant build: no new finding" \
        grep -q "no new or resolved findings" "$out/diff_$variant.txt"
    done

    # -q silences the summary; the profile is still written.
    run_lifeheap "$out/conns_quiet.json" -q "$bin/conns" >/dev/null
    check_eq "-q: no summary on stderr" 0 "$(grep -c -E 'Top sites|Heap peak|Profile:|lifeheap: ' "$out/conns_quiet.json.log")"
    check "-q: the profile is written" test -s "$out/conns_quiet.json"

    # A missing helper: Valgrind's names, said once.
    run_lifeheap "$out/conns_nohelper.json" --lifeheap-symbolizer=/nonexistent/lifeheap-symbolize "$bin/conns" >/dev/null
    check_eq "missing helper: said once" 1 "$(grep -c 'the DWARF helper /nonexistent/lifeheap-symbolize is missing' "$out/conns_nohelper.json.log")"
    check "missing helper: the profile is written" test -s "$out/conns_nohelper.json"
    # A helper that fails: Valgrind's names, said once, no temporary file left.
    # Its own temporary directory (Valgrind's VG_(tmpdir) follows TMPDIR), so
    # other lifeheap runs on the machine cannot add or remove files there.
    private_tmp=$(mktemp -d "$out/tmp.XXXXXX")
    TMPDIR=$private_tmp run_lifeheap "$out/conns_failing.json" --lifeheap-symbolizer=/bin/false "$bin/conns" >/dev/null
    check_eq "failing helper: said once" 1 "$(grep -c 'the DWARF helper /bin/false failed' "$out/conns_failing.json.log")"
    check "failing helper: the profile is written with Valgrind's names" python3 -c '
import lifeheap_profile, sys
p = lifeheap_profile.load(sys.argv[1])
sys.exit(0 if any(s["label"].startswith("new (conns.rs:") for s in p["sites"]) else 1)' "$out/conns_failing.json"
    check_eq "failing helper: no request or answer left in the temporary directory" 0 "$(ls -A "$private_tmp" | wc -l)"

    # The CSV example: Valgrind 3.19 names std's read_to_string inlined from
    # another unit "UnknownInlinedFun"; the helper names it.
    if rustc -O -C debuginfo=1 -o "$bin/csv_rows" "$top/examples/csv_rows.rs" 2>>"$out/rustc.log" &&
       python3 "$top/examples/csv_sample.py" "$bin/csv_sample.csv"; then
      run_lifeheap "$out/csv_plain.json" --lifeheap-symbolizer=no "$bin/csv_rows" "$bin/csv_sample.csv" >/dev/null
      check "rust csv_rows: Valgrind alone writes UnknownInlinedFun" grep -q UnknownInlinedFun "$out/csv_plain.json"
      profile csv_rows "$bin/csv_rows" "$bin/csv_sample.csv"
      rl=$(line_of 'let text = fs::read_to_string(path)' "$top/examples/csv_rows.rs")
      expect=$(printf '{"prefix": "rust csv_rows", "labels": [["csv_rows::read_rows \\\\(csv_rows.rs:%s\\\\)", 1, 1000738]]}' "$rl")
      feed_checks "$here/check.py" "$out/csv_rows.json" "$out/csv_rows.json.log" "$out/csv_rows.report" "$expect"
      check "rust csv_rows: std::fs::read_to_string named from the DWARF" python3 -c "
import json,sys
p=json.load(open('$out/csv_rows.json'))
sys.exit(not any(f['function']=='std::fs::read_to_string' and f['inlined'] for f in p['frames']))"
    else
      fail "rust csv_rows: build" "rustc or csv_sample.py failed"
    fi
  else
    fail "rust conns: build" "rustc failed (see $out/rustc.log)"
  fi
else
  fail "rust" "rustc is not installed (scripts/setup.sh installs it)"
fi

# --- cargo, release profile with debug = 1
if command -v cargo >/dev/null; then
  if CARGO_TARGET_DIR="$bin/cargo-target" cargo build -q --release --offline \
       --manifest-path "$here/cargo_app/Cargo.toml" 2>"$out/cargo.log"; then
    profile cargo "$bin/cargo-target/release/registry"; check_eq "cargo registry: exits 0" 0 "$?"
    src="$here/cargo_app/src/main.rs"
    n=$(line_of 'index: vec!\[0u32' "$src"); a=$(line_of 'self.names.push(name.to_string())' "$src")
    l1=$(line_of 'add_name(black_box("alpha"))' "$src"); l2=$(line_of 'add_name(black_box("beta-gamma"))' "$src")
    expect=$(printf '{"prefix": "cargo registry", "labels": [
      ["Registry::new \\\\(main.rs:%s\\\\)", 12, 131072],
      ["Registry::add_name \\\\(main.rs:%s\\\\) via registry::main \\\\(main.rs:%s\\\\)(, allocated by .*)?", 12, 5],
      ["Registry::add_name \\\\(main.rs:%s\\\\) via registry::main \\\\(main.rs:%s\\\\)(, allocated by .*)?", 12, 10]]}' \
      "$n" "$a" "$l1" "$a" "$l2")
    feed_checks "$here/check.py" "$out/cargo.json" "$out/cargo.json.log" "$out/cargo.report" "$expect"
  else
    fail "cargo registry: build" "cargo build --release --offline failed (see $out/cargo.log)"
  fi
else
  fail "cargo" "cargo is not installed (scripts/setup.sh installs it)"
fi

# --- C++, g++ -O2 -g
src="$progs/session.cpp"
if g++ -O2 -g -o "$bin/session" "$src" 2>"$out/gxx.log"; then
  profile session "$bin/session"; check_eq "c++ session: exits 0" 0 "$?"
  s=$(line_of 'buffer_(new char\[65536\])' "$src"); c=$(line_of 'items_.push_back(value)' "$src")
  m=$(line_of 'char \*buffer = new char\[bytes\]' "$src")
  m1=$(line_of 'make_buffer(100)' "$src"); m2=$(line_of 'make_buffer(200)' "$src")
  expect=$(printf '{"prefix": "c++ session", "labels": [
    ["Session::Session \\\\(session.cpp:%s\\\\)", 8, 65536],
    ["make_buffer \\\\(session.cpp:%s\\\\) via main \\\\(session.cpp:%s\\\\)", 8, 100],
    ["make_buffer \\\\(session.cpp:%s\\\\) via main \\\\(session.cpp:%s\\\\)", 8, 200]]}' \
    "$s" "$m" "$m1" "$m" "$m2")
  feed_checks "$here/check.py" "$out/session.json" "$out/session.json.log" "$out/session.report" "$expect"
  check "c++ session: Cache<int>::insert's vector growth labelled Cache::insert (session.cpp:$c)" python3 -c "
import json, lifeheap_profile,sys
p=lifeheap_profile.load('$out/session.json')
sys.exit(not any(s['label'].startswith('Cache::insert (session.cpp:$c)') for s in p['sites']))"
else
  fail "c++ session: build" "g++ failed"
fi

summary
