# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/lib/measure.sh, sourced by bench/costmodel.sh and bench/perblock.sh
# once their options are read (they set BENCH_DIR and REPO_ROOT): builds the
# workloads (make -C bench, into $build), makes a temporary directory $tmp
# removed on exit, and defines
#
#   measure_once NAME TOOL PROGRAM ARGS...
#
# which runs PROGRAM once under TOOL (none or any Valgrind tool; lifeheap
# from the build tree, through scripts/run-lifeheap) through runstat
# (bench/lib/runstat.c) and sets measured_rss (peak RSS, KiB) and
# measured_cpu (user + system seconds). A run that fails is reported as
# "NAME: TOOL PROGRAM ARGS... failed" with the last lines of its stderr, and
# ends the script.
make -s -C "$BENCH_DIR" >/dev/null
build="$BENCH_DIR/build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure_once() {
    local name=$1 tool=$2 cmd status
    shift 2
    case "$tool" in
        lifeheap) cmd=("$REPO_ROOT/scripts/run-lifeheap" --lifeheap-out-file="$tmp/p.json") ;;
        dhat) cmd=(valgrind --tool=dhat --dhat-out-file="$tmp/p.dhat") ;;
        *) cmd=(valgrind --tool="$tool") ;;
    esac
    "$build/runstat" "$tmp/report" "${cmd[@]}" -q "$@" >/dev/null 2>"$tmp/err" || true
    read -r status _ measured_rss measured_cpu < "$tmp/report"
    [ "$status" = 0 ] || { echo "$name: $tool $* failed" >&2; tail -3 "$tmp/err" >&2; exit 1; }
}
