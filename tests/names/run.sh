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

pc="$top/tests/lib/profile_check.py"
check_py() { local name=$1; shift; feed_checks "$pc" --one "$name" "$@"; }

# check_names PREFIX NAME [BLOCKS SIZE REGEX]...: the labels of $out/NAME.json
# (every site has one, all different), as its summary ($out/NAME.json.log),
# its text report ($out/NAME.report) and its findings show them; then for
# each triple: exactly one site of BLOCKS blocks of SIZE bytes, labelled
# REGEX (the whole label).
check_names() {
  local prefix=$1 name=$2; shift 2
  local profile="$out/$name.json" log="$out/$name.json.log" report="$out/$name.report"
  local where file label id kind top_sites table_sites
  for where in "profile:$profile" "summary:$log" "report:$report"; do
    file=${where#*:}
    check_eq "$prefix: no UnknownInlinedFun in the ${where%%:*}" "0" \
      "$(grep -o UnknownInlinedFun "$file" | wc -l)"
  done
  check_py "$prefix: every site has a label" "$profile" 'all:sites[*].label~.+'
  check_py "$prefix: the ten top sites have ten different labels" "$profile" \
    'sites[:10].label=distinct'
  check_py "$prefix: all labels are different" "$profile" 'sites[*].label=distinct'
  while [ $# -ge 3 ]; do
    check_py "$prefix: site of $1 x $2 B is labelled $3" "$profile" \
      "site[total_blocks=$1,total_bytes=$(($1 * $2))].label~$3"
    shift 3
  done
  # The summary's top sites ("... N blocks  LABEL") and the report's table
  # ("site N: LABEL", a heading wrapped at 120 columns joined again) show
  # the profile's labels.
  # (no such site is a failure: the loops never run on nothing)
  if top_sites=$(paste <(python3 "$pc" --get "$profile" 'sites[bytes_at_peak>0][:5].id') \
                       <(python3 "$pc" --get "$profile" 'sites[bytes_at_peak>0][:5].label')) &&
     [ -n "$top_sites" ]; then
    while IFS=$'\t' read -r id label; do
      check "$prefix: summary shows site $id by its label" \
        grep -qE "blocks? +$(printf '%s' "$label" | sed 's/[][\.*^$(){}+?|/]/\\&/g')\$" "$log"
    done <<<"$top_sites"
  else
    fail "$prefix: summary shows the top sites by their labels" "no site with bytes at the peak"
  fi
  awk '/^site [0-9]+: / { if (head != "") print head; head = $0; next }
       /^    [^ ]/ && head != "" { sub(/^    /, ""); head = head " " $0; next }
       { if (head != "") print head; head = ""; print }
       END { if (head != "") print head }' "$report" >"$report.joined"
  if table_sites=$(paste <(python3 "$pc" --get "$profile" 'sites[:10].id') \
                         <(python3 "$pc" --get "$profile" 'sites[:10].label')) &&
     [ -n "$table_sites" ]; then
    while IFS=$'\t' read -r id label; do
      check "$prefix: report shows site $id by its label" grep -qxF "site $id: $label" "$report.joined"
    done <<<"$table_sites"
  else
    fail "$prefix: report shows the sites by their labels" "the profile has no site"
  fi
  # Findings' sentences name the site by its label (finding[...] checks it).
  # (A site of code without symbols, "???", is not named in them.)
  while IFS=$'\t' read -r kind id label; do
    case $label in '???'*) continue ;; esac
    check_py "$prefix: $kind finding on site $id names its label" "$profile" "finding[$kind@id=$id]"
  done < <(python3 -c '
import lifeheap_profile, sys
p = lifeheap_profile.load(sys.argv[1])
for f in p["findings"]:
    print("%s\t%s\t%s" % (f["kind"], f["site"], p["sites"][f["site"]]["label"]))' "$profile")
}

# --- the helper is there (the build tree links it beside the tool)
check "helper: tool/vglib/lifeheap-symbolize is executable" test -x "$top/tool/vglib/lifeheap-symbolize"

# --- the helper reads compressed DWARF (gcc -gz, Debian's debug files) from
# an inflated copy (cli/symbolize_inflate.c): the copy has objcopy's bytes,
# and the helper's answers are the same as for the uncompressed file.
helper_compressed_dwarf() {
  local gz="$bin/compressed_dwarf" plain="$bin/compressed_dwarf.plain" request
  if ! gcc -O2 -g -gz=zlib -o "$gz" "$progs/compressed_dwarf.c" 2>"$out/compressed_dwarf.build.log" ||
     ! objcopy --decompress-debug-sections "$gz" "$plain" 2>>"$out/compressed_dwarf.build.log" ||
     ! gcc -O2 -Wall -Wextra -Werror -I"$top/cli" -o "$bin/inflate_test" "$here/unit/inflate_test.c" \
         "$top/cli/symbolize_inflate.c" -lelf -ldeflate >>"$out/compressed_dwarf.build.log" 2>&1; then
    fail "compressed DWARF: build" "see $out/compressed_dwarf.build.log"; return
  fi
  check "compressed DWARF: gcc -gz compressed the test program's DWARF" \
    sh -c "readelf -S --wide '$gz' | grep -q '\.debug_info .* C '"
  run_unit_program "inflated copy" "$bin/inflate_test" "$out/inflate_test.log" "$gz" "$plain"
  # Every address of main, asked of the helper in both files.
  local start size
  read -r start size < <(nm -S "$gz" | awk '$4 == "main" { print $1, $2 }')
  for f in "$gz" "$plain"; do
    { echo "O $f"; for ((a = 16#$start; a < 16#$start + 16#$size; a++)); do printf 'A %x\n' "$a"; done; } >"$f.request"
    "$top/cli/lifeheap-symbolize" "$f.request" "$f.response"
  done
  check_eq "compressed DWARF: the helper answers as for the uncompressed file" "" \
    "$(diff "$gz.response" "$plain.response" | head -5)"
  check "compressed DWARF: fill's calls inlined in main are named (fill, then main)" \
    sh -c "grep -A1 -P '^L \\d+\\tfill\\t.*compressed_dwarf\\.c\$' '$gz.response' | grep -qP '^L \\d+\\tmain\\t'"
}
helper_compressed_dwarf

# --- a frame's directory is the same whichever reader named it: the line
# table's directory joined to the compilation directory when relative
# (DWARF 5's entry 0 being the compilation directory itself).
source_dirs() {
  local prog="$bin/source_dirs"
  if ! (cd "$here" && gcc -O2 -g -o "$prog" progs/source_dirs.c) 2>"$out/source_dirs.build.log"; then
    fail "source directories: build" "see $out/source_dirs.build.log"; return
  fi
  run_lifeheap "$out/source_dirs.json" "$prog" >/dev/null
  run_lifeheap "$out/source_dirs_plain.json" --lifeheap-symbolizer=no "$prog" >/dev/null
  check_py "source directories: fill's 100-byte site (fill inlined in main, named by the helper) is in $here/progs" \
    "$out/source_dirs.json" "site[total_bytes=100].\$top.function=fill" \
    "site[total_bytes=100].\$top.directory=$here/progs" \
    "all:frames[function=main,file=source_dirs.c].directory=$here/progs"
  check_py "source directories: plain's 200-byte site (named by Valgrind) is in $here/progs" \
    "$out/source_dirs.json" "site[total_bytes=200].\$top.function=plain" \
    "site[total_bytes=200].\$top.directory=$here/progs"
  if [ -e /usr/lib/debug/.build-id ] && python3 -c '
import json, sys
frames = json.load(open(sys.argv[1]))["frames"]
sys.exit(0 if any(f["function"] == "_IO_file_doallocate" for f in frames) else 1)' "$out/source_dirs.json"; then
    check "source directories: printf's buffer: libc's frames in ./libio and ./stdio-common, alike with and without the helper" python3 -c '
import json, sys
def dirs(path):
    return {(f["address"], f["function"], f["file"], f["line"]): f["directory"]
            for f in json.load(open(path))["frames"] if "libc.so" in (f["object"] or "")}
helper, plain = dirs(sys.argv[1]), dirs(sys.argv[2])
by_function = {k[1]: d for k, d in helper.items()}
ok = (helper == plain and by_function.get("_IO_file_doallocate") == "./libio"
      and by_function.get("_IO_doallocbuf") == "./libio"
      and by_function.get("printf") == "./stdio-common")
if not ok:
    print(sorted(helper.items()), sorted(plain.items()))
sys.exit(0 if ok else 1)' "$out/source_dirs.json" "$out/source_dirs_plain.json"
  else
    skip "source directories: libc's frames" "no libc debug information (libc6-dbg)"
  fi
}
source_dirs

# --- Rust, rustc -O -C debuginfo=1
if command -v rustc >/dev/null; then
  src="$progs/conns.rs"
  if rustc -O -C debuginfo=1 -o "$bin/conns" "$src" 2>"$out/rustc.log" &&
     rustc -O -C debuginfo=1 -C codegen-units=1 -o "$bin/conns_cgu1" "$src" 2>>"$out/rustc.log" &&
     rustc -O -C debuginfo=2 -o "$bin/conns_dbg2" "$src" 2>>"$out/rustc.log"; then
    profile conns "$bin/conns"; check_eq "rust conns: exits 0" 0 "$?"
    new=$(line_of 'window: vec!\[0u8' "$src"); h=$(line_of 'Vec::with_capacity(bytes)' "$src")
    c1=$(line_of 'handle(black_box(1000))' "$src"); c2=$(line_of 'handle(black_box(2000))' "$src"); c3=$(line_of 'handle(black_box(3000))' "$src")
    check_names "rust conns" conns \
      16 262144 "ConnState::new \\(conns.rs:$new\\), allocated by vec::from_elem \\(mod.rs:[0-9]+\\)" \
      16 4096 "ConnState::new \\(conns.rs:$new\\), allocated by Vec::with_capacity \\(mod.rs:[0-9]+\\)" \
      16 1000 "conns::handle \\(conns.rs:$h\\) via conns::main \\(conns.rs:$c1\\)" \
      16 2000 "conns::handle \\(conns.rs:$h\\) via conns::main \\(conns.rs:$c2\\)" \
      16 3000 "conns::handle \\(conns.rs:$h\\) via conns::main \\(conns.rs:$c3\\)"
    check_py "rust conns: the name frame of the 256 KiB site is conns::ConnState::new" \
      "$out/conns.json" "site[total_bytes=$((16 * 262144))].\$name.function=conns::ConnState::new"
    check_py "rust conns: library frames are marked (alloc::alloc::alloc_zeroed)" \
      "$out/conns.json" "any:frames[function=alloc::alloc::alloc_zeroed].library=true"

    # Without the helper Valgrind names the inlined constructor "new": the
    # helper is what gives it its type.
    run_lifeheap "$out/conns_plain.json" --lifeheap-symbolizer=no "$bin/conns" >/dev/null
    check "rust conns: without the helper the constructor reads 'new (conns.rs:$new)'" \
      grep -q "  new (conns.rs:$new)" "$out/conns_plain.json.log"

    # Two other builds of the same source: every site matches.
    for variant in cgu1 dbg2; do
      run_lifeheap "$out/conns_$variant.json" "$bin/conns_$variant" >/dev/null
      "$lifeheap" diff "$out/conns.json" "$out/conns_$variant.json" > "$out/diff_$variant.txt" 2>&1
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
      check_names "rust csv_rows" csv_rows 1 1000738 "csv_rows::read_rows \\(csv_rows.rs:$rl\\)"
      check_py "rust csv_rows: std::fs::read_to_string named from the DWARF" "$out/csv_rows.json" \
        "any:frames[function=std::fs::read_to_string].inlined=true"
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
    check_names "cargo registry" cargo \
      12 131072 "Registry::new \\(main.rs:$n\\)" \
      12 5 "Registry::add_name \\(main.rs:$a\\) via registry::main \\(main.rs:$l1\\)(, allocated by .*)?" \
      12 10 "Registry::add_name \\(main.rs:$a\\) via registry::main \\(main.rs:$l2\\)(, allocated by .*)?"
  else
    fail "cargo registry: build" "cargo build --release --offline failed (see $out/cargo.log)"
  fi
  # A dependency from cargo's registry (Debian's librust-regex-dev,
  # offline): its code is library code, so its allocations are named by
  # the program's call (LogStats::new's Regex::new, LogStats::record).
  app="$here/cargo_logs"
  if [ ! -d /usr/share/cargo/registry ] || ! ls -d /usr/share/cargo/registry/regex-1.* >/dev/null 2>&1; then
    fail "cargo logstats" "librust-regex-dev is not installed (scripts/setup.sh installs it)"
  # (built from its directory: cargo reads .cargo/config.toml, which
  # replaces crates.io by Debian's registry, from where it runs)
  elif (cd "$app" && CARGO_TARGET_DIR="$bin/cargo-target" cargo build -q --release --offline) \
         2>"$out/cargo_logs.log"; then
    profile logstats "$bin/cargo-target/release/logstats"; check_eq "cargo logstats: exits 0" 0 "$?"
    src="$app/src/main.rs"
    r1=$(line_of 'line_re: Regex::new' "$src"); r2=$(line_of 'id_re: Regex::new' "$src")
    f=$(line_of 'format!("2026' "$src"); p=$(line_of 'latencies_ms.push(latency)' "$src")
    check_names "cargo logstats" logstats
    check_py "cargo logstats: the 4000 lines labelled make_log's closure (main.rs:$f)" "$out/logstats.json" \
      "site[label=logstats::make_log::{{closure}} (main.rs:$f)].total_blocks=4000"
    # (each grown by push from 4 to 1024 latencies, doubling: 8 reallocs)
    check_py "cargo logstats: the 6 latency vectors labelled LogStats::record (main.rs:$p), 8 reallocs each" \
      "$out/logstats.json" "site[label=LogStats::record (main.rs:$p)].total_blocks=6" "site[label=LogStats::record (main.rs:$p)].reallocs=48"
    check_py "cargo logstats: the regex crate's frames are there, library frames" "$out/logstats.json" \
      'any:frames[function~regex::compile::.*].library=true' 'all:frames[function~regex::.*].library=true'
    check_py "cargo logstats: no site is named by the regex crate" "$out/logstats.json" \
      'none:sites[*].$name.function~regex::.*'
    check_py "cargo logstats: every site of the program is named in main.rs" "$out/logstats.json" \
      'all:sites[runtime_only=false].$name.file=main.rs'
    for l in $r1 $r2; do
      check_py "cargo logstats: the pattern compiled at main.rs:$l is named LogStats::new (main.rs:$l)" \
        "$out/logstats.json" "count[label~LogStats::new \\(main.rs:$l\\)(, allocated by .*)?]>=2"
    done
    check_py "cargo logstats: no label goes via the Rust runtime's start-up frames" "$out/logstats.json" \
      'none:sites[*].label~.* via (rt::lang_start|main \(in ).*'
  else
    fail "cargo logstats: build" "cargo build --release --offline failed (see $out/cargo_logs.log)"
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
  check_names "c++ session" session \
    8 65536 "Session::Session \\(session.cpp:$s\\)" \
    8 100 "make_buffer \\(session.cpp:$m\\) via main \\(session.cpp:$m1\\)" \
    8 200 "make_buffer \\(session.cpp:$m\\) via main \\(session.cpp:$m2\\)"
  check_py "c++ session: Cache<int>::insert's vector growth labelled Cache::insert (session.cpp:$c)" \
    "$out/session.json" "any:sites[*].label~Cache::insert \\(session\\.cpp:$c\\).*"
else
  fail "c++ session: build" "g++ failed"
fi


# --- C++ programs written the usual way (containers, strings, smart
# pointers, lambdas), g++ -O2 -g and -O0 -g: every site of the program is
# named by the program's function that made the call, and libstdc++'s
# start-up pool is the runtime's: last in the profile, said so, counted.
# runtime_checks PREFIX NAME: the runtime-only sites come after every site
# of the program, carry the runtime note, and the summary sums up what
# they hold at the peak in one line instead of ranking them.
runtime_checks() {
  local prefix=$1 name=$2
  check_py "$prefix: there is a runtime site" "$out/$name.json" "count[runtime_only=true]>=1"
  check "$prefix: the runtime's own sites come after all the program's" python3 -c '
import lifeheap_profile, sys
flags = [s["runtime_only"] for s in lifeheap_profile.load(sys.argv[1])["sites"]]
sys.exit(0 if flags == sorted(flags) else 1)' "$out/$name.json"
  check_py "$prefix: each runtime site has the runtime note" "$out/$name.json" \
    'all:sites[runtime_only=true].notes.0.kind=runtime'
  check_py "$prefix: no site of the program is named by library code" "$out/$name.json" \
    'all:sites[runtime_only=false].$name.library=false'
}
runtime_summary_check() {
  local prefix=$1 name=$2 sites
  sites=$(python3 "$pc" --get "$out/$name.json" 'sites[runtime_only=true,bytes_at_peak>0].#')
  check "$prefix: the summary sums up the runtime's memory at the peak ($sites site(s))" \
    grep -qE "the runtime's own memory, not the program's code \\($sites sites?\\)\$" "$out/$name.json.log"
}
src="$progs/wordfreq.cpp"
for opt in O2 O0; do
  if g++ -$opt -g -o "$bin/wordfreq_$opt" "$src" 2>>"$out/gxx.log"; then
    profile "wordfreq_$opt" "$bin/wordfreq_$opt"; check_eq "c++ wordfreq -$opt: exits 0" 0 "$?"
    cw=$(line_of 'counts\[word\]++' "$src")
    check_names "c++ wordfreq -$opt" "wordfreq_$opt" \
      600 56 "count_words \\(wordfreq.cpp:$cw\\)(, allocated by .*)?"
    check_py "c++ wordfreq -$opt: every site of the program is named in wordfreq.cpp" "$out/wordfreq_$opt.json" \
      'all:sites[runtime_only=false].$name.file=wordfreq.cpp'
    check_py "c++ wordfreq -$opt: the sites are named by make_text, count_words, group_by_count, top_words or main" \
      "$out/wordfreq_$opt.json" 'all:sites[runtime_only=false].$name.function~(make_text|count_words|group_by_count|top_words|main)(\(.*)?'
    check_py "c++ wordfreq -$opt: libstdc++'s pool is the runtime's, named by its library" "$out/wordfreq_$opt.json" \
      'site[runtime_only=true,total_bytes>60000].label~\?\?\? \(in .*libstdc\+\+\.so.*\)'
    runtime_checks "c++ wordfreq -$opt" "wordfreq_$opt"
    runtime_summary_check "c++ wordfreq -$opt" "wordfreq_$opt"
  else
    fail "c++ wordfreq -$opt: build" "g++ failed"
  fi
done

src="$progs/shapes.cpp"
for opt in O2 O0; do
  if g++ -$opt -g -o "$bin/shapes_$opt" "$src" 2>>"$out/gxx.log"; then
    profile "shapes_$opt" "$bin/shapes_$opt"; check_eq "c++ shapes -$opt: exits 0" 0 "$?"
    t=$(line_of 'pixels(size \* size)' "$src"); r=$(line_of 'emplace_back(new Rect' "$src")
    e=$(line_of 'events_.push_back(Event' "$src")
    check_names "c++ shapes -$opt" "shapes_$opt" \
      4 16384 "Texture::Texture \\(shapes.cpp:$t\\)" \
      200 24 "Scene::add_rect \\(shapes.cpp:$r\\)" \
      500 56 "EventLog::record \\(shapes.cpp:$e\\)"
    check_py "c++ shapes -$opt: every site of the program is named in shapes.cpp" "$out/shapes_$opt.json" \
      'all:sites[runtime_only=false].$name.file=shapes.cpp'
    runtime_checks "c++ shapes -$opt" "shapes_$opt"
  else
    fail "c++ shapes -$opt: build" "g++ failed"
  fi
done
# A lambda reads as the lambda in its function, as a Rust closure does
# (-O0: the call operator is a function of its own, with its linkage name).
l=$(line_of 'prefix + std::to_string(t)' "$src")
check_py "c++ shapes -O0: the 500 event names are labelled main::{lambda(int)#1} (shapes.cpp:$l)" "$out/shapes_O0.json" \
  "site[total_blocks=500,label~main::\\{lambda\\(int\\)#1\\} \\(shapes.cpp:$l\\)].total_blocks=500"

# --- Rust: the runtime's start-up (thread name, stack guard) under the C
# main rustc generates is the runtime's, not "main (in tokens)".
if command -v rustc >/dev/null; then
  src="$progs/tokens.rs"
  if rustc -O -C debuginfo=1 -o "$bin/tokens" "$src" 2>>"$out/rustc.log"; then
    profile tokens "$bin/tokens"; check_eq "rust tokens: exits 0" 0 "$?"
    np=$(line_of 'n.push(d)' "$src"); sp=$(line_of 's.push(d)' "$src"); b=$(line_of 'Rc::new(value)' "$src")
    check_names "rust tokens" tokens \
      500 24 "Env::bind \\(tokens.rs:$b\\)(, allocated by .*)?"
    for l in $np $sp; do
      check_py "rust tokens: 6000 x 8 B labelled Lexer::tokens (tokens.rs:$l)" "$out/tokens.json" \
        "site[label=Lexer::tokens (tokens.rs:$l)].total_bytes=48000" \
        "site[label=Lexer::tokens (tokens.rs:$l)].total_blocks=6000"
    done
    check_py "rust tokens: every site of the program is named in tokens.rs" "$out/tokens.json" \
      'all:sites[runtime_only=false].$name.file=tokens.rs'
    check_py "rust tokens: the C main rustc generates is there, a library frame" "$out/tokens.json" \
      'any:frames[function=main,file=null].library=true'
    check_py "rust tokens: no label is the generated C main" "$out/tokens.json" \
      'none:sites[*].label~main \(in .*'
    runtime_checks "rust tokens" tokens
  else
    fail "rust tokens: build" "rustc failed (see $out/rustc.log)"
  fi
  src="$progs/inventory.rs"
  if rustc -O -C debuginfo=1 -o "$bin/inventory" "$src" 2>>"$out/rustc.log"; then
    profile inventory "$bin/inventory"; check_eq "rust inventory: exits 0" 0 "$?"
    a=$(line_of 'self.items.insert(sku.to_string()' "$src")
    t=$(line_of 'Box::new(Tiered' "$src"); f=$(line_of 'Box::new(Flat' "$src")
    check_names "rust inventory" inventory \
      1333 8 "inventory::make_pricing \\(inventory.rs:$f\\)"
    for n in 1 2; do
      check_py "rust inventory: a SKU's to_string #$n: 2000 x 9 B, labelled by the trait's function" "$out/inventory.json" \
        "site[total_blocks=2000,total_bytes=18000,label~Inventory::add \\(inventory.rs:$a\\). allocated by ToString::to_string \\(string.rs:[0-9]+\\) #$n]"
    done
    check_py "rust inventory: the 667 Tiered boxes (32 B) and their tiers (48 B) labelled make_pricing (inventory.rs:$t)" \
      "$out/inventory.json" "site[total_blocks=667,total_bytes=21344,label~inventory::make_pricing \\(inventory.rs:$t\\)(. allocated by .*)?]" \
      "site[total_blocks=667,total_bytes=32016,label~inventory::make_pricing \\(inventory.rs:$t\\)(. allocated by .*)?]"
    check_py "rust inventory: every site of the program is named in inventory.rs" "$out/inventory.json" \
      'all:sites[runtime_only=false].$name.file=inventory.rs'
    runtime_checks "rust inventory" inventory
  else
    fail "rust inventory: build" "rustc failed (see $out/rustc.log)"
  fi
fi


# --- short-lived-churn's advice follows what the site's blocks were:
# regrown by realloc, of many sizes, or one size (docs/findings.md).
src="$progs/csv_rows_out.cpp"
if g++ -O2 -g -o "$bin/csv_rows_out_cpp" "$src" 2>>"$out/gxx.log"; then
  profile csv_rows_out_cpp "$bin/csv_rows_out_cpp"; check_eq "c++ csv_rows_out: exits 0" 0 "$?"
  for l in $(line_of 'line += field;' "$src") $(line_of "line += ';';" "$src"); do
    check_py "c++ csv_rows_out: the std::string growth at line $l: 20,000 blocks of many sizes, advice to keep one buffer and reserve" \
      "$out/csv_rows_out_cpp.json" \
      "finding[short-lived-churn@label=write_row (csv_rows_out.cpp:$l)]" ".site.total_blocks=20000" \
      ".site.reallocs=0" ".summary~.*: its blocks are of many sizes .* - keep one buffer out of the loop and clear it each time \(its capacity stays\), reserving what it grows to\."
  done
  check_py "c++ csv_rows_out: the name copied for every row: 20,000 x 34 B of one size, advice to reuse one buffer" \
    "$out/csv_rows_out_cpp.json" \
    "finding[short-lived-churn@total_blocks=20000,total_bytes=680000]" ".site.access.block_size=34" \
    ".summary~.*: reuse one buffer instead of allocating and freeing each time\."
else
  fail "c++ csv_rows_out: build" "g++ failed"
fi
if command -v rustc >/dev/null; then
  src="$progs/csv_rows_out.rs"
  if rustc -O -C debuginfo=1 -o "$bin/csv_rows_out_rs" "$src" 2>>"$out/rustc.log"; then
    profile csv_rows_out_rs "$bin/csv_rows_out_rs"; check_eq "rust csv_rows_out: exits 0" 0 "$?"
    l=$(line_of 'line.push_str(field)' "$src")
    check_py "rust csv_rows_out: the String regrown by push_str: 20,000 blocks regrown by realloc, advice to reserve" \
      "$out/csv_rows_out_rs.json" \
      "finding[short-lived-churn@label=csv_rows_out::write_row (csv_rows_out.rs:$l)]" ".site.total_blocks=20000" \
      ".site.reallocs>0" ".summary~.*: its blocks are regrown by realloc before they are freed .* - reserve the size it reaches up front \(reserve, with_capacity\), or keep one buffer out of the loop and clear it each time\."
  else
    fail "rust csv_rows_out: build" "rustc failed (see $out/rustc.log)"
  fi
fi

summary
