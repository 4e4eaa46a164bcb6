#!/usr/bin/env bash
# tests/install/run.sh: the install layout, and running the tool both from
# the build tree and from the installed files.
#   - make install DESTDIR=... puts lifeheap-<platform> and
#     vgpreload_lifeheap-<platform>.so in Valgrind's tool directory (and
#     lifeheap.h next to valgrind.h), lifeheap and cargo-lifeheap in bindir;
#   - valgrind --tool=lifeheap runs from the build tree (VALGRIND_LIB=tool/vglib);
#   - the installed pair works too (a directory of Valgrind's own tool files
#     plus the two installed ones, used as VALGRIND_LIB).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=$TESTS_TOP
out="$TESTS_OUT/install"
rm -rf "$out"; mkdir -p "$out"

tooldir=$(sed -n 's/^tooldir = //p' "$top/tool/Makefile")
platform=$(sed -n 's/^PLATFORM = //p' "$top/tool/Makefile")
check "configure found Valgrind's tool directory" test -f "$tooldir/vgpreload_core-$platform.so"

# configure refuses a Valgrind the tool cannot be built for, naming why:
# a core that lacks a symbol tool/lh_core.h declares, a platform other than
# amd64-linux.  Run on a copy of what configure reads.
cfg="$out/configure"
mkdir -p "$cfg" &&
  tar -C "$top" -cf - configure build-aux Makefile.in tool/Makefile.in cli/Makefile.in \
    examples/Makefile.in tests/Makefile.in tool/lh_main.c tool/lh_core.h | tar -C "$cfg" -xf -
(cd "$cfg" && ./configure -q >"$out/configure-ok.log" 2>&1)
check_eq "configure: accepts the installed Valgrind" "0" "$?"
echo 'extern Int VG_(no_such_core_function)(void);' >>"$cfg/tool/lh_core.h"
(cd "$cfg" && ./configure -q >"$out/configure-symbol.log" 2>&1)
check_eq "configure: refuses a core without a symbol lh_core.h declares" "1|1" \
  "$?|$(grep -c "does not define VG_(no_such_core_function), which tool/lh_core.h declares" "$out/configure-symbol.log")"
cp "$top/tool/lh_core.h" "$cfg/tool/lh_core.h"
mkdir -p "$cfg/pc"
sed 's/^platform=.*/platform=arm64-linux/; s/^arch=.*/arch=arm64/' \
  "$(pkg-config --variable=pcfiledir valgrind)/valgrind.pc" >"$cfg/pc/valgrind.pc"
(cd "$cfg" && PKG_CONFIG_PATH="$cfg/pc" PKG_CONFIG_LIBDIR="$cfg/pc" ./configure -q \
   >"$out/configure-arch.log" 2>&1)
check_eq "configure: refuses a platform other than amd64-linux, saying so" "1|1" \
  "$?|$(grep -c "lifeheap runs on amd64-linux only for now; the installed Valgrind is for arm64-linux" "$out/configure-arch.log")"

dest="$out/destdir"
if make -s -C "$top" install DESTDIR="$dest" >"$out/install.log" 2>&1; then
  pass "make install DESTDIR=..."
else
  fail "make install DESTDIR=..." "$(tail -5 "$out/install.log")"
fi
check "installed: the tool executable" test -x "$dest$tooldir/lifeheap-$platform"
check "installed: the preload" test -f "$dest$tooldir/vgpreload_lifeheap-$platform.so"
check "installed: the client-request header" \
  test -f "$(find "$dest" -path '*/include/valgrind/lifeheap.h' | head -1)"
installed_lifeheap=$(find "$dest" -path '*/bin/lifeheap' -type f | head -1)
bindir=$(dirname "${installed_lifeheap:-/missing/lifeheap}")
check "installed: lifeheap in bindir" test -x "$bindir/lifeheap"
# cargo runs any cargo-NAME on PATH as `cargo NAME`: cargo-lifeheap goes
# next to lifeheap, which it runs.
check "installed: cargo-lifeheap next to it" test -x "$bindir/cargo-lifeheap"
check "installed cargo-lifeheap answers --version" \
  sh -c "'$bindir/cargo-lifeheap' lifeheap --version | grep -q '^cargo-lifeheap '"
check "installed executable is the built one" \
  cmp -s "$dest$tooldir/lifeheap-$platform" "$top/tool/lifeheap-$platform"
# The DWARF helper (docs/metrics.md, "Function names"): installed in lifeheap's
# libexec directory, where the installed tool looks for it.
helper=$(make -s -C "$top/cli" -f Makefile -f - print-helper <<'EOF_MAKE'
print-helper:
	@echo $(pkglibexecdir)/lifeheap-symbolize
EOF_MAKE
)
check "installed: the DWARF helper in lifeheap's libexec directory" test -x "$dest$helper"
check "installed: the tool looks for the helper there" grep -aq "$helper" "$dest$tooldir/lifeheap-$platform"

# Installed without their symbol tables and DWARF (tool/Makefile.am): Valgrind
# reads and keeps those of every object it maps, the tool executable and the
# preload included, and they were part of its peak memory at start-up. The
# preload keeps two symbols: the markers around its string functions, whose
# instructions the clock does not count (tests/access checks the clock).
sections() { readelf -SW "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'; }
check_eq "installed: the tool executable has no symbol table, no DWARF (they are in lifeheap-$platform.debug) and no unwinding tables" \
  "0|1" \
  "$(sections "$dest$tooldir/lifeheap-$platform" | grep -c '^\.symtab$\|^\.debug_\|^\.eh_frame')|$(sections "$top/tool/lifeheap-$platform.debug" | grep -c '^\.debug_info$')"
check_eq "installed: the preload has no DWARF, and of its own symbols only the markers of its string functions" \
  "0|lh_replace_code_begin lh_replace_code_end|1" \
  "$(sections "$dest$tooldir/vgpreload_lifeheap-$platform.so" | grep -c '^\.debug_')|$(nm "$dest$tooldir/vgpreload_lifeheap-$platform.so" | awk '{ print $NF }' | sort | tr '\n' ' ' | sed 's/ $//')|$(sections "$top/tool/vgpreload_lifeheap-$platform.so.debug" | grep -c '^\.debug_info$')"
# check-replace-range.sh, which every link of the preload runs: it accepts the
# built layout, and names the functions outside the markers when the malloc
# replacement's are counted as string functions too.
range_objs="$top/tool/lh_replace_strmem.o $top/tool/lh_replace_str.o $top/tool/lh_replace_wcs.o"
# shellcheck disable=SC2086
sh "$top/tool/check-replace-range.sh" "$top/tool/vgpreload_lifeheap-$platform.so.debug" \
  $range_objs -- "$top/tool/lh_replacemalloc.a" >"$out/range-ok.log" 2>&1
check_eq "check-replace-range.sh: the built preload's string functions lie between the markers" 0 "$?"
# shellcheck disable=SC2086
sh "$top/tool/check-replace-range.sh" "$top/tool/vgpreload_lifeheap-$platform.so.debug" \
  $range_objs "$top/tool/lh_replacemalloc.a" -- >"$out/range-bad.log" 2>&1
check_eq "check-replace-range.sh: malloc's replacement counted as a string function is named, exit 1" "1|1|1" \
  "$?|$(grep -c '^outside the range: _vgr10010ZU_libcZdsoZa_malloc at ' "$out/range-bad.log")|$(grep -c 'not laid out between the markers' "$out/range-bad.log")"

prog="$TESTS_BUILD/install-leak"
compile_c "$prog" "$top/tests/tool/progs/leak.c" || fail "build leak" "gcc failed"

# From the build tree, as tests and the demo do.
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap \
  --lifeheap-out-file="$out/build-tree.json" "$prog" 2>"$out/build-tree.log"
check_eq "build tree: program exit status" 0 "$?"
feed_checks "$top/tests/lib/profile_check.py" --one "build tree: profile written" \
  "$out/build-tree.json" format=lifeheap-profile totals.blocks=1
check "build tree: summary names the profile" grep -q "Profile: $out/build-tree.json" "$out/build-tree.log"

# From the installed files.
lib="$out/installed-lib"; mkdir -p "$lib"
for f in "$tooldir"/*; do ln -s "$f" "$lib/"; done
rm -f "$lib/lifeheap-$platform" "$lib/vgpreload_lifeheap-$platform.so"
ln -s "$dest$tooldir/lifeheap-$platform" "$lib/"
ln -s "$dest$tooldir/vgpreload_lifeheap-$platform.so" "$lib/"
VALGRIND_LIB="$lib" valgrind --tool=lifeheap \
  --lifeheap-out-file="$out/installed.json" "$prog" 2>"$out/installed.log"
check_eq "installed files: program exit status" 0 "$?"
check "installed files: profile written" test -s "$out/installed.json"

# The installed cargo lifeheap on a project fresh from `cargo new`: cargo
# finds the installed cargo-lifeheap on PATH, which runs the installed
# lifeheap next to it, which runs the installed tool (VALGRIND_LIB as above)
# and inlines the installed viewer (LIFEHEAP_VIEWER_DIR: the DESTDIR copy).
if command -v cargo >/dev/null; then
  rm -rf "$out/fresh"
  (cd "$out" && cargo new --vcs none --bin fresh) >"$out/cargo-new.log" 2>&1
  (cd "$out/fresh" && PATH="$bindir:$PATH" VALGRIND_LIB="$lib" \
     LIFEHEAP_VIEWER_DIR="$(dirname "$bindir")/share/lifeheap/viewer" \
     nice -n 5 cargo lifeheap --bin fresh) >"$out/cargo-lifeheap.out" 2>"$out/cargo-lifeheap.log"
  check_eq "installed cargo lifeheap --bin fresh: exit status" 0 "$?"
  check "installed cargo lifeheap: the program ran" grep -q "Hello, world!" "$out/cargo-lifeheap.out"
  check "installed cargo lifeheap: profile written" test -s "$out/fresh/target/lifeheap/fresh.json"
  # make install copies the viewer only when viewer/dist is built (scripts/test.sh
  # builds it; scripts/setup.sh alone does not unless LIFEHEAP_SETUP_VIEWER=1).
  if [ -f "$top/viewer/dist/index.html" ]; then
    check "installed cargo lifeheap: HTML report written" test -s "$out/fresh/target/lifeheap/fresh.html"
  else
    skip "installed cargo lifeheap: HTML report written" \
      "viewer/dist is not built (LIFEHEAP_SETUP_VIEWER=1 scripts/setup.sh builds it)"
  fi
  check "installed cargo lifeheap: Valgrind ran the target built in target/lifeheap" \
    grep -q "^==[0-9]*== Command: $out/fresh/target/lifeheap/debug/fresh" "$out/cargo-lifeheap.log"
else
  echo "SKIP installed cargo lifeheap: cargo is not installed (scripts/setup.sh installs Debian's)"
fi

# The tool answers --help with its own options.
VALGRIND_LIB="$top/tool/vglib" valgrind --tool=lifeheap --help >"$out/help.txt" 2>&1
check "--help lists --lifeheap-out-file" grep -q -- "--lifeheap-out-file" "$out/help.txt"

# The benchmark still runs: bench/run.sh --quick on the liveheap and compute
# workloads, under --tool=none and lifeheap.  It checks each run's exit status and
# that lifeheap leaves the program's output unchanged; no time is asserted
# (speed is measured with bench/run.sh itself, docs/performance.md).
bench_log="$out/bench.log"
bash "$top/bench/run.sh" --quick --runs 1 --only liveheap,compute --tools none,lifeheap \
  >"$out/bench.txt" 2>"$bench_log"
check_eq "bench: run.sh --quick exits 0" 0 "$?"
check_eq "bench: no failed run, no changed output" 0 \
  "$(grep -c 'FAILED\|output differs' "$bench_log")"
check_eq "bench: a CPU row for each workload, with lifeheap/none" 3 \
  "$(sed -n '/^CPU seconds/,/^$/p' "$out/bench.txt" \
     | grep -cE '^(liveheap-1k|liveheap-32k|compute) +[0-9.]+ +[0-9.]+ +[0-9.]+x$')"

summary
