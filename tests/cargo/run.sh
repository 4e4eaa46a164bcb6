#!/usr/bin/env bash
# tests/cargo/run.sh: `cargo lifeheap` on a real cargo workspace.
#
# tests/cargo/workspace is a workspace as users write one: a `pipeline`
# package (a bin, an example, an integration test reading a fixture, a
# harness = false bench) that depends on crossbeam-channel, taken offline
# from the crates Debian ships as source (librust-crossbeam-channel-dev in
# /usr/share/cargo/registry, through .cargo/config.toml's source
# replacement), and a `tools` package with two bins and a default-run. Its
# release profile ships stripped binaries without debug info. Each target
# allocates its own messages in its own function with a size and count set
# in its source (bin: COUNT from its arguments x 40,001 B; example 5 x
# 40,002; test 7 x 40,003, the count read from fixtures/messages.txt; bench
# 4 x 40,004; stats 2 x 40,005; the library's unit test 3 x 40,006), so a
# profile proves which binary ran,
# that it got its arguments, and that its sites have their file and line.
#
# `cargo lifeheap` is run the way users run it: through cargo, which finds
# cargo-lifeheap on PATH (the build tree's cli/ comes first here).
#
# The workspace is copied to tests/artifacts/cargo/workspace on every run;
# its target/ is kept between runs so that cargo rebuilds only what changed
# (remove tests/artifacts/cargo for a cold build).
#
# Prints "PASS name" / "FAIL name: reason" per test and "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
schema=$top/docs/lifeheap-profile.schema.json
out=$TESTS_OUT/cargo
ws=$out/workspace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$top/cli/cargo-lifeheap" ] || [ ! -x "$top/cli/lifeheap" ]; then
  fail "build" "cli/cargo-lifeheap or cli/lifeheap is not built (run make)"
  summary; exit 1
fi
if ! command -v cargo >/dev/null; then
  echo "SKIP cargo lifeheap: cargo is not installed (scripts/setup.sh installs Debian's)"
  summary; exit
fi
if ! ls -d /usr/share/cargo/registry/crossbeam-channel-0.* >/dev/null 2>&1; then
  echo "SKIP cargo lifeheap: librust-crossbeam-channel-dev is not installed (scripts/setup.sh installs it)"
  summary; exit
fi
echo "cargo: $(cargo --version), rustc: $(rustc --version)"
export PATH="$top/cli:$PATH"

# A fresh copy of the workspace's sources; the build products stay.
mkdir -p "$ws"
find "$ws" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
cp -r "$here/workspace/." "$ws/"

# line_of FILE TEXT: the line of FILE holding TEXT (the allocation).
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1; }

# cargo_lifeheap NAME DIR ARGS...: runs `cargo lifeheap ARGS` in DIR, stdout
# to $work/NAME.out, stderr to $work/NAME.err; sets $status.
cargo_lifeheap() {
  local name=$1 dir=$2; shift 2
  (cd "$dir" && nice -n 5 cargo lifeheap "$@") >"$work/$name.out" 2>"$work/$name.err"
  status=$?
  cp "$work/$name.out" "$work/$name.err" "$out/" 2>/dev/null
}

expect_status() {
  if [ "$status" -eq "$2" ]; then pass "$1"; else
    fail "$1" "exit $status, expected $2; stderr: $(grep -v '^==' "$work/$3.err" | tail -5 | tr '\n' ' ')"
  fi
}

expect_grep() {
  if grep -q -F -- "$2" "$3"; then pass "$1"; else
    fail "$1" "no '$2' in $(basename "$3"): $(tail -3 "$3" | tr '\n' ' ')"
  fi
}

# check_html NAME HTML FUNCTION: a self-contained report with the profile.
check_html() {
  if [ -s "$2" ] && grep -q 'id="lifeheap-profile"' "$2" && grep -q -F "$3" "$2"; then
    pass "$1"
  else
    fail "$1" "$2 is missing or holds no profile naming $3"
  fi
}

# default_profile NAME FILE [FUNCTION]: the run NAME wrote its profile to
# $profile=$ws/target/lifeheap/FILE, and, given the FUNCTION the target
# allocates in, the HTML report beside it (check_html).
default_profile() {
  profile=$ws/target/lifeheap/$2
  check "$1: profile at target/lifeheap/$2" test -s "$profile"
  if [ -n "${3:-}" ]; then check_html "$1: HTML report" "${profile%.json}.html" "$3"; fi
}

others="bin_message example_message test_message bench_message unit_message stats_buffer"
absent() { for f in $others; do [ "$f" = "$1" ] || echo "$f"; done; }

# check_target LABEL PROFILE EXECUTABLE FUNCTION PLACE BLOCKS BYTES ARGS [ABSENT...]:
# a profile `cargo lifeheap` wrote (tests/lib/profile_check.py's assertions):
#   - it validates against the JSON schema of docs/;
#   - run.executable is the executable cargo built (an exact path, or a glob
#     for a test's or bench's deps/NAME-HASH), run.command's arguments ARGS
#     (a space-separated list, "" for none);
#   - the sites whose stacks pass through FUNCTION (the target's own
#     allocation; a frame named FUNCTION or ...::FUNCTION) add up to exactly
#     BLOCKS blocks and BYTES bytes, and each is named by FUNCTION at PLACE,
#     FILE:LINE (PLACE "-": FUNCTION's frames have no file and line, as when
#     debug info is off);
#   - no frame of the profile belongs to the other targets' functions ABSENT.
pc="$top/tests/lib/profile_check.py"
check_target() {
  local label=$1 profile=$2 executable=$3 function=$4 place=$5 blocks=$6 bytes=$7 args=$8
  shift 8
  local named="(.*::)?$function" arguments
  feed_checks "$pc" --one "$label: profile validates against the schema" "$profile" valid
  # the glob as a regular expression: the path's characters literal, * any
  feed_checks "$pc" --one "$label: the target's executable was profiled" "$profile" \
    "run.executable~$(printf '%s' "$executable" | sed 's/[][\.^$(){}+?|]/\\&/g; s/\*/.*/g')"
  if [ -z "$args" ]; then
    feed_checks "$pc" --one "$label: the program got the arguments after --" "$profile" \
      "run.command.#=1"
  else
    arguments=$(printf '"%s",' $args)
    feed_checks "$pc" --one "$label: the program got the arguments after --" "$profile" \
      "run.command.#=$(($(wc -w <<<"$args") + 1))" "run.command[1:]=[${arguments%,}]"
  fi
  feed_checks "$pc" --one "$label: $function allocated $blocks blocks, $bytes bytes" "$profile" \
    "sum[frame~$named].total_blocks=$blocks" "sum[frame~$named].total_bytes=$bytes"
  if [ "$place" = - ]; then
    feed_checks "$pc" --one "$label: $function has no file and line (no debug info)" "$profile" \
      "count[frame~$named]>=1" "all:frames[function~$named].file=null" \
      "all:frames[function~$named].line=null"
  else
    feed_checks "$pc" --one "$label: its sites are named $function ($place)" "$profile" \
      "all:sites[frame~$named].\$name.function~$named" \
      "all:sites[frame~$named].\$name.file=${place%:*}" \
      "all:sites[frame~$named].\$name.line=${place##*:}"
  fi
  if [ $# -gt 0 ]; then
    feed_checks "$pc" --one "$label: no other target's allocation in the profile" "$profile" \
      "count[frame~$named]>=1" "none:frames[*].function~(.*::)?($(IFS='|'; echo "$*"))"
  fi
}

#--- usage ----------------------------------------------------------------
cargo_lifeheap help "$ws" --help
expect_status "cargo lifeheap --help (found by cargo on PATH) exits 0" 0 help
for option in --bin --example --test --bench --lib --out --no-html --open --release; do
  expect_grep "--help documents $option" "$option" "$work/help.out"
done

# Usage errors exit 2 with a clear message, before anything is built.
cargo_lifeheap bogus "$ws" --bogus
expect_status "unknown option: exit 2" 2 bogus
expect_grep "unknown option: named" "unknown option '--bogus'" "$work/bogus.err"
cargo_lifeheap two "$ws" --bin pipeline --example burst
expect_status "two targets: exit 2" 2 two
cargo_lifeheap novalue "$ws" --bin
expect_status "--bin without a name: exit 2" 2 novalue
cargo_lifeheap positional "$ws" --bin pipeline 6
expect_status "program argument before --: exit 2" 2 positional
expect_grep "program argument before --: says where they go" "go after --" "$work/positional.err"
cargo_lifeheap pattern "$ws" --bin pipeline --out 'p.%p.json'
expect_status "--out with %p: exit 2" 2 pattern
cargo_lifeheap opennohtml "$ws" --bin pipeline --open --no-html
expect_status "--open with --no-html: exit 2" 2 opennohtml
cargo_lifeheap nosuch "$ws" --bin nosuch
expect_status "no such bin: exit 2" 2 nosuch
expect_grep "no such bin: says so" "no bin target named 'nosuch'" "$work/nosuch.err"
for bin in "pipeline (package pipeline)" "stats (package tools)" "dump (package tools)"; do
  expect_grep "no such bin: lists $bin" "  $bin" "$work/nosuch.err"
done
# Outside any cargo project: cargo metadata's message and status.
mkdir -p "$work/not-a-project"
cargo_lifeheap noproject "$work/not-a-project" --bin pipeline
expect_status "outside a cargo project: cargo's exit status (101)" 101 noproject
expect_grep "outside a cargo project: cargo's message" "could not find \`Cargo.toml\`" "$work/noproject.err"
expect_grep "outside a cargo project: says cargo metadata failed" "cargo lifeheap: cargo metadata failed" "$work/noproject.err"

# A -p that names no workspace member is cargo's to judge (its message,
# its status), not answered as a missing target.
cargo_lifeheap badpackage "$ws" -p toolz --bin stats
expect_status "unknown -p: cargo's exit status (101)" 101 badpackage
expect_grep "unknown -p: cargo's message" "did not match any packages" "$work/badpackage.err"
cargo_lifeheap nosuchtest "$ws" --test nosuch
expect_status "no such test: exit 2" 2 nosuchtest
expect_grep "no such test: lists the tests" "  delivery (package pipeline)" "$work/nosuchtest.err"

#--- the bin: from the workspace root, with arguments and an exit status --
# The results of earlier runs go first: each profile and report checked
# below is one this run wrote.
rm -f "$ws"/target/lifeheap/*.json "$ws"/target/lifeheap/*.html
cargo_lifeheap bin "$ws" --bin pipeline -- 6 3
expect_status "bin: the program's exit status (3)" 3 bin
expect_grep "bin: the program's output" "pipeline delivered 240006 bytes" "$work/bin.out"
profile=$ws/target/lifeheap/pipeline.json
check "bin: profile at target/lifeheap/pipeline.json" test -s "$profile"
expect_grep "bin: prints the profile's path" "cargo lifeheap: profile:     $profile" "$work/bin.err"
expect_grep "bin: prints the report's path" "cargo lifeheap: HTML report: ${profile%.json}.html" "$work/bin.err"
expect_grep "bin: Valgrind's summary names the site" "pipeline::bin_message (main.rs:" "$work/bin.err"
check_html "bin: HTML report next to the profile" "${profile%.json}.html" bin_message
check_target bin "$profile" "$ws/target/lifeheap/debug/pipeline" \
  bin_message "main.rs:$(line_of "$ws/pipeline/src/main.rs" 'vec![fill; 40_001]')" \
  6 240006 "6 3" $(absent bin_message)

#--- the example: release, from a package directory, --out ----------------
rm -rf "$ws/pipeline/custom"
cargo_lifeheap example "$ws/pipeline" --release --example burst --out custom/burst.json
expect_status "example: exit 0" 0 example
expect_grep "example: the program's output" "burst delivered 200010 bytes" "$work/example.out"
profile=$ws/pipeline/custom/burst.json
check "example: --out (relative, new directory) holds the profile" test -s "$profile"
check_html "example: HTML report beside --out" "$ws/pipeline/custom/burst.html" example_message
check "example: nothing written to the default place" test ! -e "$ws/target/lifeheap/example-burst.json"
# The release profile strips and has no debug info in Cargo.toml: the sites
# still get file and line, from cargo lifeheap's environment.
check_target example "$profile" "$ws/target/lifeheap/release/examples/burst" \
  example_message "burst.rs:$(line_of "$ws/pipeline/examples/burst.rs" 'vec![fill; 40_002]')" \
  5 200010 "" $(absent example_message)

#--- the integration test: its binary from cargo's messages ---------------
cargo_lifeheap test "$ws" --test delivery --offline
expect_status "test: exit 0 (it found its fixture from the package directory)" 0 test
expect_grep "test: the harness ran it" "test delivers_every_byte ... ok" "$work/test.out"
default_profile test test-delivery.json test_message
check_target test "$profile" "$ws/target/lifeheap/debug/deps/delivery-*" \
  test_message "delivery.rs:$(line_of "$ws/pipeline/tests/delivery.rs" 'vec![fill; 40_003]')" \
  7 280021 "" $(absent test_message)

#--- the library's unit tests ----------------------------------------------
cargo_lifeheap lib "$ws" --lib
expect_status "lib: exit 0 (the only library of the workspace)" 0 lib
expect_grep "lib: the harness ran its unit test" "test tests::delivers_every_message ... ok" "$work/lib.out"
default_profile lib lib-pipeline.json
check_target lib "$profile" "$ws/target/lifeheap/debug/deps/pipeline-*" \
  unit_message "lib.rs:$(line_of "$ws/pipeline/src/lib.rs" 'vec![fill; 40_006]')" \
  3 120018 "" $(absent unit_message)
cargo_lifeheap nolib "$ws" -p tools --lib
expect_status "--lib in a package without a library: exit 2" 2 nolib
expect_grep "--lib without a library: says so" "no library in the chosen packages" "$work/nolib.err"

#--- the bench: the bench profile (optimised, stripped by Cargo.toml) -----
cargo_lifeheap bench "$ws" --bench throughput
expect_status "bench: exit 0" 0 bench
expect_grep "bench: the program's output" "throughput: 160016 bytes" "$work/bench.out"
default_profile bench bench-throughput.json bench_message
check_target bench "$profile" "$ws/target/lifeheap/release/deps/throughput-*" \
  bench_message "throughput.rs:$(line_of "$ws/pipeline/benches/throughput.rs" 'vec![fill; 40_004]')" \
  4 160016 "" $(absent bench_message)

#--- choosing the binary ---------------------------------------------------
cargo_lifeheap several "$ws"
expect_status "several binaries, none chosen: exit 2" 2 several
for bin in "pipeline (package pipeline)" "stats (package tools)" "dump (package tools)"; do
  expect_grep "several binaries: lists $bin" "  $bin" "$work/several.err"
done
cargo_lifeheap default "$ws" -p tools --no-html
expect_status "-p tools: its default-run binary runs" 0 default
expect_grep "-p tools: stats ran" "stats: 120015" "$work/default.out"
check "--no-html: no report" test ! -e "$ws/target/lifeheap/stats.html"
check_target default-run "$ws/target/lifeheap/stats.json" "$ws/target/lifeheap/debug/stats" \
  stats_buffer "stats.rs:$(line_of "$ws/tools/src/bin/stats.rs" 'vec![fill; 40_005]')" \
  2 80010 "" $(absent stats_buffer)

# A setting the user made in the environment wins over cargo lifeheap's: no
# debug info, so no file and line (and proof that the file and line above
# come from the CARGO_PROFILE_*_DEBUG cargo lifeheap sets).
CARGO_PROFILE_DEV_DEBUG=0 cargo_lifeheap nodebug "$ws" -p tools --bin stats --no-html \
  --out "$work/nodebug.json"
expect_status "the user's CARGO_PROFILE_DEV_DEBUG=0: exit 0" 0 nodebug
check_target user-setting "$work/nodebug.json" "$ws/target/lifeheap/debug/stats" \
  stats_buffer - \
  2 80010 "" $(absent stats_buffer)

# --features reaches cargo: the third buffer.
cargo_lifeheap features "$ws" -p tools --bin stats --features extra-buffer --no-html \
  --out "$work/features.json"
expect_status "--features: exit 0" 0 features
check_target features "$work/features.json" "$ws/target/lifeheap/debug/stats" \
  stats_buffer "stats.rs:$(line_of "$ws/tools/src/bin/stats.rs" 'vec![fill; 40_005]')" \
  3 120015 "" $(absent stats_buffer)

# --manifest-path from outside the workspace: its target directory is used.
# Cargo reads .cargo/config.toml from the current directory up, not from
# the manifest's, so the source replacement is given with --config here
# (passed to cargo metadata and to the build).
rm -f "$ws/target/lifeheap/dump.json"
cargo_lifeheap manifest "$work" --manifest-path "$ws/Cargo.toml" -p tools --bin dump --no-html \
  --offline --config 'source.crates-io.replace-with="debian-packages"' \
  --config 'source.debian-packages.directory="/usr/share/cargo/registry"'
expect_status "--manifest-path: exit 0" 0 manifest
check "--manifest-path: profile in the workspace's target/lifeheap" test -s "$ws/target/lifeheap/dump.json"

# No viewer for the HTML report: said, and the exit status is still the
# program's.
LIFEHEAP_VIEWER_DIR=$work/no-viewer cargo_lifeheap noviewer "$ws" -p tools --bin stats \
  --out "$work/noviewer.json"
expect_status "no viewer: the program's exit status (0)" 0 noviewer
check "no viewer: the profile is written" test -s "$work/noviewer.json"
expect_grep "no viewer: lifeheap view's reason is shown" "lifeheap view: no viewer found" "$work/noviewer.err"
expect_grep "no viewer: no report, said" "cargo lifeheap: no HTML report" "$work/noviewer.err"

# --open hands the report to $BROWSER (not waited for: poll its record).
printf '#!/bin/sh\necho "$1" > "%s"\n' "$work/opened" >"$work/browser"
chmod +x "$work/browser"
BROWSER=$work/browser cargo_lifeheap open "$ws" -p tools --bin dump --out "$work/open.json" --open
expect_status "--open: exit 0" 0 open
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$work/opened" ] && break; sleep 0.5; done
check_eq "--open: \$BROWSER got the report" "$work/open.html" "$(cat "$work/opened" 2>/dev/null)"

# --target-dir, and cargo-lifeheap run by hand rather than through cargo.
(cd "$ws" && nice -n 5 "$top/cli/cargo-lifeheap" -p tools --bin dump --no-html \
   --target-dir "$work/elsewhere") >"$work/dump.out" 2>"$work/dump.err"
status=$?
expect_status "cargo-lifeheap run directly, --target-dir: exit 0" 0 dump
check "--target-dir: built in DIR/lifeheap" test -x "$work/elsewhere/lifeheap/debug/dump"
check "--target-dir: profile in DIR/lifeheap" test -s "$work/elsewhere/lifeheap/dump.json"

#--- a fresh project, as `cargo new` makes it ----------------------------------
if (cd "$work" && cargo new --vcs none --bin fresh) >"$work/new.log" 2>&1; then
  cp "$work/fresh/Cargo.toml" "$work/fresh.Cargo.toml"
  cargo_lifeheap fresh "$work/fresh" --bin fresh
  expect_status "fresh project: cargo lifeheap --bin fresh exits 0" 0 fresh
  expect_grep "fresh project: the program ran" "Hello, world!" "$work/fresh.out"
  feed_checks "$pc" --one "fresh project: profile at target/lifeheap/fresh.json" \
    "$work/fresh/target/lifeheap/fresh.json" "run.executable=$work/fresh/target/lifeheap/debug/fresh"
  check "fresh project: HTML report" test -s "$work/fresh/target/lifeheap/fresh.html"
  # Its only binary needs no --bin.
  cargo_lifeheap fresh-default "$work/fresh" --no-html
  expect_status "fresh project: cargo lifeheap (no target) runs its one binary" 0 fresh-default
  expect_grep "fresh project: the one binary ran" "Hello, world!" "$work/fresh-default.out"
  check "fresh project: Cargo.toml unchanged" cmp -s "$work/fresh.Cargo.toml" "$work/fresh/Cargo.toml"
else
  fail "fresh project: cargo new" "$(tail -3 "$work/new.log")"
fi

#--- a failed build --------------------------------------------------------
cargo_lifeheap broken "$ws" --bin pipeline --features no-such-feature
expect_status "failed build: cargo's exit status (101)" 101 broken
expect_grep "failed build: says so" "cargo lifeheap: the build failed" "$work/broken.err"

#--- nothing of the user's was changed ---------------------------------------
for file in Cargo.toml pipeline/Cargo.toml tools/Cargo.toml .cargo/config.toml \
            pipeline/src/main.rs pipeline/fixtures/messages.txt; do
  check "unchanged byte for byte: $file" cmp -s "$here/workspace/$file" "$ws/$file"
done
# The user's own build directories were not used (nor created).
check "target/debug and target/release untouched" \
  test ! -e "$ws/target/debug" -a ! -e "$ws/target/release"

summary
