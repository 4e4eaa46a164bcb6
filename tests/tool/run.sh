#!/usr/bin/env bash
# tests/tool/run.sh: the tool's exact tests.  Each program under progs/ has
# answers known by construction; check.py compares them with the profile,
# validates every profile against docs/lifeheap-profile.schema.json, checks
# that two runs give the same profile, and that DHAT (run on the same
# programs) agrees per site on total bytes and on bytes at t-gmax and t-end.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
pc="$top/tests/lib/profile_check.py"   # the assertion helper for profiles
progs="$here/progs"
out="$TESTS_OUT/tool"
bin="$TESTS_BUILD/tool"
rm -rf "$out"
mkdir -p "$out" "$bin"

# checks NAME FILE ASSERTIONS...: this suite's check.py, into the counters.
checks() { feed_checks "$here/check.py" "$@"; }

# profile NAME PROGRAM [VALGRIND OPTIONS --] [ARGS]: runs PROGRAM under lifeheap
# with its stdout in NAME.stdout; returns the program's exit status.
profile() {
  local name=$1 prog=$2; shift 2
  local vgopts=()
  if [ "${1:-}" = "--opts" ]; then
    shift
    while [ "$1" != "--" ]; do vgopts+=("$1"); shift; done
    shift
  fi
  VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap \
    --lifeheap-out-file="$out/$name.json" "${vgopts[@]}" "$prog" "$@" \
    >"$out/$name.stdout" 2>"$out/$name.log"
}

dhat() {
  local name=$1 prog=$2; shift 2
  valgrind --tool=dhat --dhat-out-file="$out/$name.dhat" "$@" "$prog" \
    >/dev/null 2>"$out/$name.dhat.log"
}

# --- build the test programs
c_progs="leak depths realloc calloc aligned ownmax lifetimes threads zero exitcode rmdir badfree noalloc wrappers small window shapes"
for p in $c_progs; do
  compile_c "$bin/$p" "$progs/$p.c" -Wno-alloc-size-larger-than || fail "build $p" "gcc failed"
done
if [ ! -x "$bin/newdelete" ] || [ "$progs/newdelete.cc" -nt "$bin/newdelete" ]; then
  g++ -O0 -g -fno-builtin -o "$bin/newdelete" "$progs/newdelete.cc" || fail "build newdelete" "g++ failed"
fi
compile_c "$bin/inlined" "$progs/inlined.c" -O2 || fail "build inlined" "gcc failed"
# The Rust program, with rustc's default mangling (legacy for the program's
# own functions) and with v0 mangling (in its own directory: the crate
# name, hence the function names, must stay lhrust).
if [ ! -x "$bin/lhrust" ] || [ "$progs/lhrust.rs" -nt "$bin/lhrust" ]; then
  rustc -g -C opt-level=0 -o "$bin/lhrust" "$progs/lhrust.rs" 2>"$out/rustc.log" \
    || fail "build lhrust" "rustc failed: $(head -3 "$out/rustc.log")"
fi
mkdir -p "$bin/v0"
if [ ! -x "$bin/v0/lhrust" ] || [ "$progs/lhrust.rs" -nt "$bin/v0/lhrust" ]; then
  rustc -g -C opt-level=0 -C symbol-mangling-version=v0 -o "$bin/v0/lhrust" \
    "$progs/lhrust.rs" 2>>"$out/rustc.log" || fail "build lhrust v0" "rustc failed"
fi

# --- exact values per program
for p in leak depths realloc calloc aligned ownmax lifetimes zero wrappers small window shapes; do
  profile "$p" "$bin/$p"; status=$?
  check_eq "$p: exits 0 under lifeheap" 0 "$status"
  checks "$p" "$bin/$p" "$out/$p.json" "$progs/$p.c" "$out/$p.stdout"
done

# Name frames: wrappers by name, and a stripped library's unnamed static
# function (names_lib.c, built without -g and stripped).
if gcc -O0 -fno-builtin -shared -fPIC -o "$bin/libnames.so" "$progs/names_lib.c" &&
   strip "$bin/libnames.so" &&
   gcc -O0 -g -fno-builtin -o "$bin/names" "$progs/names.c" -L"$bin" -lnames \
     -Wl,-rpath,"$bin"; then
  profile names "$bin/names"
  check_eq "names: exits 0 under lifeheap" 0 "$?"
  checks names "$bin/names" "$out/names.json" "$progs/names.c"
  # Two sites named lib_make, parting at an unnamed frame: told apart by
  # the next named frame, never by "via ???".
  check_eq "names: summary 'via' skips unnamed frames" "1|1|0" \
    "$(grep -c '104 B .* lib_make (in [^)]*libnames.so) via lib_via_b (in [^)]*libnames.so)$' "$out/names.log")|$(grep -c '88 B .* lib_make (in [^)]*libnames.so) via lib_via_a (in [^)]*libnames.so)$' "$out/names.log")|$(grep -c 'via ???' "$out/names.log")"
  # Their stacks read alike but for unnamed frames: labels stay unique by
  # number, in the profile's order, never by "allocated by ???".
  check_eq "names: two sites parting only in unnamed frames: numbered, no 'allocated by ???'" "1|1|0" \
    "$(grep -c '152 B .* lib_pair (in [^)]*libnames.so) #1$' "$out/names.log")|$(grep -c '136 B .* lib_pair (in [^)]*libnames.so) #2$' "$out/names.log")|$(grep -c 'allocated by ???' "$out/names.log")"
else
  fail "build names" "gcc or strip failed"
fi

# A program without symbols (no -g, stripped): its site is "???", and the
# summary says once what that means and which object lacks symbols.
if gcc -O0 -fno-builtin -o "$bin/stripped" "$progs/leak.c" && strip "$bin/stripped"; then
  profile stripped "$bin/stripped"
  check_eq "stripped: the site is ??? and the summary explains it once" "1|1" \
    "$(grep -c '1000 B  100%        1 block   ??? (in stripped)$' "$out/stripped.log")|$(grep -c "\"???\" marks code without symbols, here in $bin/stripped: its debug symbols or a build with -g would name it.\$" "$out/stripped.log")"
  check_eq "names: no such line when every top site has a name" 0 "$(grep -c 'marks code without symbols' "$out/names.log")"
else
  fail "build stripped" "gcc or strip failed"
fi

# Two sites named by one line (a std::map node and its key's copy): the
# summary tells them apart by the frame that called the allocator.
if g++ -O0 -g -fno-builtin -o "$bin/twins" "$progs/twins.cc"; then
  profile twins "$bin/twins"
  check_eq "twins: exits 0 under lifeheap" 0 "$?"
  line=$(grep -n 'SITE count' "$progs/twins.cc" | cut -d: -f1)
  # The first function below the name frame whose name differs: the map's
  # node comes from _M_get_node, the key's copy from _M_construct_node.
  check_eq "twins: node and key lines differ by what allocated them" "1|1" \
    "$(grep -c "14.1 KiB .* 200 blocks  count_words (twins.cc:$line), allocated by _Rb_tree::_M_get_node (stl_tree.h:[0-9]*)$" "$out/twins.log")|$(grep -c "6.3 KiB .* 200 blocks  count_words (twins.cc:$line), allocated by _Rb_tree::_M_construct_node (stl_tree.h:[0-9]*)$" "$out/twins.log")"
else
  fail "build twins" "g++ failed"
fi

profile newdelete "$bin/newdelete"
checks newdelete "$bin/newdelete" "$out/newdelete.json" "$progs/newdelete.cc"

# Site notes at their thresholds (notes.c's table): the profile carries
# them, the summary prints them under its top sites.
if compile_c "$bin/notes" "$progs/notes.c"; then
  profile notes "$bin/notes"
  check_eq "notes: exits 0 under lifeheap" 0 "$?"
  # Each site by the notes.c function its label names last (a label reads
  # "written_prefix (...) via unused_tenth (...)"): ten sites, and no note
  # where the figure is below the threshold.
  by() { printf '%s' "site[label~(.*\\W)?$1 \\(notes\\.c:[0-9]+\\)(?!.*notes\\.c:).*]"; }
  none=".notes=[]"
  feed_checks "$pc" --one "notes: each site's notes, on each side of every threshold" \
    "$out/notes.json" "sites.#=10" \
    "$(by copied_16k)" ".notes.#=1" ".notes.0.kind=realloc-growth" \
    ".notes.0.text=grown by 1 realloc, 16.0 KiB copied" \
    "$(by copied_under_16k)" "$none" \
    "$(by small_23)" ".notes.#=1" ".notes.0.kind=small-blocks" \
    ".notes.0.text=23.0 B per block on average: glibc's malloc takes at least 32 B for each" \
    "$(by small_24)" "$none" "$(by small_999)" "$none" \
    "$(by untouched_ends)" ".notes.#=1" ".notes.0.kind=never-touched" \
    ".notes.0.text=64.0 KiB (99.9%) of it never read nor written" \
    "$(by unused_16k)" ".notes.#=1" ".notes.0.kind=unused-capacity" \
    ".notes.0.text=16.0 KiB (40%) of it never written (unused capacity)" \
    "$(by unused_tenth)" ".notes.#=1" ".notes.0.kind=unused-capacity" \
    ".notes.0.text=16.0 KiB (10%) of it never written (unused capacity)" \
    "$(by unused_under_16k)" "$none" "$(by unused_under_tenth)" "$none"
  feed_checks "$pc" --one "notes: the numbers behind them (bytes, reallocs, blocks)" \
    "$out/notes.json" \
    "$(by copied_16k)" ".notes.0.bytes=16384" ".notes.0.reallocs=1" ".notes.0.blocks?=null" \
    "$(by small_23)" ".notes.0.bytes=23000" ".notes.0.blocks=1000" ".notes.0.reallocs?=null" \
    "$(by untouched_ends)" ".notes.0.bytes=65534" ".notes.0.reallocs?=null" ".notes.0.blocks?=null" \
    "$(by unused_16k)" ".notes.0.bytes=16384" ".notes.0.reallocs?=null" ".notes.0.blocks?=null" \
    "$(by unused_tenth)" ".notes.0.bytes=16384" ".notes.0.reallocs?=null" ".notes.0.blocks?=null"
  check_eq "notes: the summary prints them under its top sites" "1|1|1" \
    "$(grep -c '^==[0-9]*== \{37\}16.0 KiB (10%) of it never written (unused capacity)$' "$out/notes.log")|$(grep -c '^==[0-9]*== \{37\}grown by 1 realloc, 16.0 KiB copied$' "$out/notes.log")|$(grep -c '^==[0-9]*== \{37\}64.0 KiB (99.9%) of it never read nor written$' "$out/notes.log")"
else
  fail "build notes" "gcc failed"
fi

profile threads "$bin/threads" --opts --num-callers=2 --
check_eq "threads: exits 0 under lifeheap" 0 "$?"
checks threads "$bin/threads" "$out/threads.json" "$progs/threads.c"

profile exit7 "$bin/exitcode" 7
check_eq "exit7: the program's exit code is kept" 7 "$?"
checks exit7 "$bin/exitcode" "$out/exit7.json" "$progs/exitcode.c"
( profile abort "$bin/exitcode" abort ) 2>/dev/null   # no "Aborted" noise
checks abort "$bin/exitcode" "$out/abort.json" "$progs/exitcode.c"

profile badfree "$bin/badfree"
check_eq "badfree: exits 0 (bad frees ignored)" 0 "$?"
checks badfree "$bin/badfree" "$out/badfree.json" "$progs/badfree.c"
check_eq "badfree: one warning for all bad frees, one for the bad realloc" "1 1" \
  "$(grep -c "free of 0x[0-9A-Fa-f]*, which is not a live heap block" "$out/badfree.log") $(grep -c "realloc of 0x[0-9A-Fa-f]*, which is not a live heap block" "$out/badfree.log")"
check "badfree: the summary counts them all" grep -q \
  "Invalid:      2 frees, 1 realloc of pointers that were not live heap blocks (ignored)" "$out/badfree.log"

# Text from the program (here its argv) is escaped; invalid UTF-8 becomes U+FFFD.
profile hostile "$bin/exitcode" $'a"b\\c\x01\xff\xc3(\xc3\xa9'
checks hostile "$bin/exitcode" "$out/hostile.json" "$progs/exitcode.c"

if [ -x "$bin/lhrust" ]; then
  profile rust "$bin/lhrust"
  checks rust "$bin/lhrust" "$out/rust.json" "$progs/lhrust.rs"
fi
if [ -x "$bin/v0/lhrust" ]; then
  profile rust_v0 "$bin/v0/lhrust"
  checks rust_v0 "$bin/v0/lhrust" "$out/rust_v0.json" "$progs/lhrust.rs"
fi

# Inline frames are read by default; --read-inline-info=no still wins.
profile inlined "$bin/inlined"
checks inlined "$bin/inlined" "$out/inlined.json" "$progs/inlined.c"
profile noinline "$bin/inlined" --opts --read-inline-info=no --
checks noinline "$bin/inlined" "$out/noinline.json" "$progs/inlined.c"

# --- the summary on stderr names the top site and the profile
log="$out/depths.log"
check "summary: totals line" \
  grep -Eq "lifeheap: 9 blocks \(3.8 KiB\) allocated, 7 freed, 0 reallocs; [0-9,]+ instructions run" "$log"
check "summary: heap peak line" grep -Eq "Heap peak: +3.1 KiB in 3 blocks, at ([0-9]+|[0-9]\.[0-9]|99\.[0-9]|<0\.1)% of the run" "$log"
check "summary: live at exit line" grep -Eq "Live at exit: +3.1 KiB in 2 blocks" "$log"
check "summary: top site named by its frame, told apart by its caller" \
  grep -Eq "2.9 KiB +94% +1 block +alloc_deep \(depths.c:[0-9]+\) via main \(depths.c:[0-9]+\)" "$log"
# alloc_middle has two sites (calls on lines 29 and 30): labels are unique
# in the whole profile, so the one shown names its caller.
check "summary: a site whose function has two sites names its caller" \
  grep -Eq "200 B +6.2% +1 block +alloc_middle \(depths.c:[0-9]+\) via main \(depths.c:$(grep -n 'SITE call_middle \*/' "$progs/depths.c" | cut -d: -f1)\)$" "$log"
check "summary: profile path" grep -q "Profile: $out/depths.json" "$log"

profile noalloc "$bin/noalloc"
check "no allocation: summary says so" grep -q "No heap blocks were allocated." "$out/noalloc.log"
check "no allocation: profile written" grep -q "Profile: $out/noalloc.json" "$out/noalloc.log"

# --- output file name, options
( cd "$out" && VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap "$bin/leak" \
    >/dev/null 2>default.log )
pid=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$out/default.log" | head -1)
check "default profile name lifeheap.out.<pid>.json" test -s "$out/lifeheap.out.$pid.json"
rm -f "$out/lifeheap.out.$pid.json"
LH_TEST_TAG=tagged profile expand "$bin/leak" --opts --lifeheap-out-file="$out/x.%q{LH_TEST_TAG}.%p.%n.json" --
check "%q{VAR}, %p and %n expand" test -s "$out/x.tagged.$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$out/expand.log" | head -1).1.json"
if VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --lifeheap-bogus=1 "$bin/leak" \
     >/dev/null 2>"$out/bogus.log"; then
  fail "unknown --lifeheap option rejected" "valgrind exited 0"
else
  check "unknown --lifeheap option rejected" grep -q -- "--lifeheap-bogus" "$out/bogus.log"
fi
if VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap \
     --lifeheap-out-file="$out/x.%q{LH_UNSET_VARIABLE}.json" "$bin/leak" >/dev/null 2>"$out/badq.log"; then
  fail "unset %q{VAR} rejected" "valgrind exited 0"
else
  check "unset %q{VAR} rejected at start" grep -q "LH_UNSET_VARIABLE" "$out/badq.log"
fi
# An output path that cannot be created (its "directory" is a regular
# file, which stops root too) is refused before the program runs.
profile unwritable "$bin/leak" --opts --lifeheap-out-file="$out/leak.stdout/p.json" --
check "unwritable output: refused with a clear error" \
  grep -Eq "cannot write the profile|no profile written" "$out/unwritable.log"
check "unwritable output: no file" test ! -e "$out/leak.stdout/p.json"
# A directory that disappears while the program runs: the write at the end
# fails, says so, leaves no temporary file, and keeps the exit status.
mkdir -p "$out/vanishing" "$out/toobig"
profile vanishing "$bin/rmdir" --opts --lifeheap-out-file="$out/vanishing/p.json" -- "$out/vanishing"
check_eq "failed write: the program's exit status is kept" 0 "$?"
check "failed write: error says so" grep -q "no profile written" "$out/vanishing.log"
check "failed write: summary says not written" grep -q "Profile: not written" "$out/vanishing.log"
check "failed write: no file, no temporary" test ! -e "$out/vanishing"
# A write error half-way (file size limit, like a full disk): the same.
( trap '' XFSZ; ulimit -f 2
  profile toobig "$bin/leak" --opts --lifeheap-out-file="$out/toobig/p.json" -- )
check "write error: says so" grep -q "writing $out/toobig/p.json.tmp-[0-9]*-[0-9]* failed" "$out/toobig.log"
check "write error: no file, no temporary" test -z "$(ls -A "$out/toobig")"

# --- the flow diagram at the top of lh_include.h names every module
unlisted=$(cd "$top/tool" && for f in lh_*.c; do
  sed -n '1,/^\*\//p' lh_include.h | grep -qw "${f%.c}\.c" || echo "$f"; done)
check_eq "lh_include.h's diagram names every tool/lh_*.c" "$(ls "$top"/tool/lh_*.c | wc -l) " \
  "$(cd "$top/tool" && ls lh_*.c | wc -l) $unlisted"

# --- every profile matches the schema
checks schema "$top/docs/lifeheap-profile.schema.json" "$out"/*.json

# --- the assertion helper (tests/lib/profile_check.py) fails where it must.
# leak.c's profile has one site, main's 1000 bytes, and no finding: the
# controls hold on it, and every probe below must FAIL (a selector matching
# nothing, a wrong figure, a negative check without proof, a broken profile);
# a helper that passed one would make the suites' checks vacuous.
helper() {   # EXPECT(PASS|FAIL) NAME PROFILE ASSERTION
  local line
  line=$(python3 "$top/tests/lib/profile_check.py" probe "$3" "$4" 2>&1)
  case $line in
    "$1 probe: "*) pass "helper: $2" ;;
    *) fail "helper: $2" "expected $1, got: $line" ;;
  esac
}
leak="$out/leak.json"
helper PASS "control: main's site holds 1000 bytes" "$leak" "site[top=main].total_bytes=1000"
helper PASS "control: main's site has no finding" "$leak" "nofinding[any@name=main]"
helper PASS "control: one site has a frame of main" "$leak" "count[frame=main]=1"
helper PASS "control: valid" "$leak" "valid"
for contract in tables timeline access; do
  helper PASS "control: contract:$contract" "$leak" "contract:$contract"
done
helper FAIL "a wrong figure" "$leak" "site[top=main].total_bytes=999"
helper FAIL "a site selector matching nothing" "$leak" "site[top=no_such_function].total_bytes=1000"
helper FAIL "a count selector matching nothing" "$leak" "count[frame=no_such_function]>=0"
helper FAIL "a missing field" "$leak" "site[top=main].no_such_field=1"
helper FAIL "no finding on a function without a site" "$leak" "nofinding[any@name=no_such_function]"
helper FAIL "a finding that is not there" "$leak" "finding[leak@name=main]"
helper FAIL "nosite without a proof" "$leak" "nosite[frame=no_such_function]"
helper FAIL "nosite proved by a profile without it" "$leak" "nosite[frame=no_such_function]@$leak"
helper FAIL "nosite proved by an executable without it" "$leak" "nosite[frame=no_such_function]@$bin/leak"
helper FAIL "nosite of a site that is there" "$leak" "nosite[frame=main]@$bin/leak"
jq '.sites = [] | .frames = []' "$leak" >"$out/helper-nosites.json"
helper FAIL "access relations on a profile without a site" "$out/helper-nosites.json" "contract:access"
helper FAIL "no finding anywhere on a profile without a site" "$out/helper-nosites.json" "nofinding[any]"
# Paths with filters and quantifiers, references, list shapes, other
# profiles: a list taken by a filter that is empty fails, as does a
# quantifier over nothing.
helper PASS "control: a filter on the sites" "$leak" "sites[total_bytes=1000,top=main].#=1"
helper PASS "control: a quantifier" "$leak" "all:sites[*].\$top.function~m.*n"
helper PASS "control: a reference to another number" "$leak" "totals.bytes>=@at_exit.bytes"
helper PASS "control: a list shape" "$leak" "timeline.times=increasing"
helper PASS "control: the same value in another profile" "$leak" "same[sites[*].total_bytes]@$leak"
helper PASS "control: a sum over sites" "$leak" "sum[top=main].total_bytes=1000"
helper FAIL "a filter taking nothing" "$leak" "sites[total_bytes=999].#=0"
helper FAIL "all: over no finding" "$leak" "all:findings[*].severity=high"
helper FAIL "none: over no finding" "$leak" "none:findings[*].kind=leak"
helper FAIL "a regular expression that does not match" "$leak" "site[top=main].\$top.function~mai"
helper FAIL "a sum over no site" "$leak" "sum[top=no_such_function].total_bytes=0"
helper FAIL "a reference to a missing path" "$leak" "totals.bytes=@no_such.path"
helper FAIL "a list shape that does not hold" "$leak" "timeline.times!=increasing"
jq '.totals.bytes += 1' "$leak" >"$out/helper-other.json"
helper FAIL "a value that differs in another profile" "$leak" "same[totals]@$out/helper-other.json"
rm -f "$out/helper-other.json"
check_eq "helper: --get of a missing path fails, saying so" "1|1" \
  "$(python3 "$pc" --get "$leak" run.no_such_field 2>/dev/null; echo $?)|$(python3 "$pc" --get "$leak" run.no_such_field 2>&1 >/dev/null | grep -c 'no run.no_such_field here')"
check_eq "helper: --holds answers by its exit status" "0 1" \
  "$(python3 "$pc" --holds "$leak" "site[top=main].total_bytes=1000"; echo -n "$? ")$(python3 "$pc" --holds "$leak" "site[top=main].total_bytes=999"; echo $?)"
jq 'del(.run.exit)' "$leak" >"$out/helper-invalid.json"
helper FAIL "the schema on a profile without run.exit" "$out/helper-invalid.json" "valid"
jq '.totals.bytes += 1' "$leak" >"$out/helper-sums.json"
helper FAIL "the tables contract on totals that are not the sums" "$out/helper-sums.json" "contract:tables"
# (broken on purpose: not for the sweep over every profile the suite wrote)
rm -f "$out/helper-nosites.json" "$out/helper-invalid.json" "$out/helper-sums.json"

# --- a site in a library the program unloaded (progs/dlclosed.c loads
# progs/plugin.c's library, which allocates three 100-byte blocks at
# plugin.c:7, then unloads it).  With --keep-debuginfo=yes Valgrind keeps
# the library's debug information, and the site's innermost frame is named
# in the epoch its stack was recorded in; without it the library's frame
# has no name left at output.
if gcc -O0 -g -fno-builtin -shared -fPIC -o "$bin/plugin.so" "$progs/plugin.c" \
   && compile_c "$bin/dlclosed" "$progs/dlclosed.c"; then
  profile dlclosed_kept "$bin/dlclosed" --opts --keep-debuginfo=yes -- "$bin/plugin.so" \
    || fail "dlclosed: run with --keep-debuginfo=yes" "see $out/dlclosed_kept.log"
  feed_checks "$pc" dlclosed_kept "$out/dlclosed_kept.json" \
    "site[top=plugin_make].total_blocks=3" "site[top=plugin_make].total_bytes=300" \
    'site[top=plugin_make].$top.file=plugin.c' 'site[top=plugin_make].$top.line=7' \
    "site[top=plugin_make].stack.#=2"
  profile dlclosed_gone "$bin/dlclosed" "$bin/plugin.so" \
    || fail "dlclosed: run" "see $out/dlclosed_gone.log"
  feed_checks "$pc" dlclosed_gone "$out/dlclosed_gone.json" \
    "site[frame=main,total_blocks=3].total_bytes=300" \
    'site[frame=main,total_blocks=3].$top.function=null'
else
  fail "dlclosed: build" "gcc failed"
fi

# --- determinism (single-threaded programs: with threads, event times
# depend on how Valgrind's scheduler interleaved them)
profile depths2 "$bin/depths"
checks determinism "$out/depths.json" "$out/depths2.json"
# The Rust runtime finds the main thread's stack through glibc's
# pthread_getattr_np, which reads /proc/self/maps: with vgdb on, that file
# lists vgdb's shared-memory file, whose name holds the pid, so the program
# itself runs a few more instructions when its pid has more digits.  Both
# runs therefore go without vgdb (docs/format.md, "Determinism").
if [ -x "$bin/lhrust" ]; then
  profile rust_novgdb1 "$bin/lhrust" --opts --vgdb=no --
  profile rust_novgdb2 "$bin/lhrust" --opts --vgdb=no --
  checks determinism "$out/rust_novgdb1.json" "$out/rust_novgdb2.json"
fi

# --- DHAT agrees per site (0-byte blocks excluded: DHAT makes them 1 byte)
for p in depths realloc aligned ownmax lifetimes; do
  dhat "$p" "$bin/$p"
  checks dhat "$out/$p.json" "$out/$p.dhat"
done
dhat newdelete "$bin/newdelete"
checks dhat "$out/newdelete.json" "$out/newdelete.dhat"
dhat threads "$bin/threads" --num-callers=2
checks dhat "$out/threads.json" "$out/threads.dhat"

summary
