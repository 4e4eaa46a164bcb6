#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs each benchmark workload natively and under --tool=none, memcheck, dhat,
# massif, heaptrack and lifeheap, side by side in one run, and prints wall
# time, CPU time, peak RSS and lifeheap's ratios to none, memcheck and DHAT.
# See bench/README.md.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: bench/run.sh [options]

  --runs N          runs per cell; the median is reported (default 3)
  --quick           1 run and smaller inputs (a smoke test, not a measurement)
  --only LIST       comma-separated workloads; a name or its prefix before '-'
                    (e.g. "bintree" selects bintree-12, bintree-14, bintree-16)
  --tools LIST      comma-separated subset of
                    native,none,memcheck,dhat,massif,heaptrack,lifeheap
                    (default: all seven)
  --md FILE         also write the tables as markdown to FILE
  --cell-budget S   stop repeating one cell once its runs add up to S seconds
                    (default 120; 0 = always do all runs)
  --run-timeout S   stop a single run after S seconds of wall time and mark
                    the cell "timeout" (default 600; 0 = no limit)
  -h, --help        this text

Workloads: bintree-12 bintree-14 bintree-16 bintree-walk-14 bintree-walk-16
           liveheap-1k liveheap-32k liveheap-512k hashmap handoff steady
           csvparse compute python-json sqlite3
EOF
}

die() {
    echo "bench/run.sh: $*" >&2
    exit 2
}

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/.." && pwd)
ALL_TOOLS="native none memcheck dhat massif heaptrack lifeheap"

runs=3
runs_given=0
quick=0
only=""
tools_list="native,none,memcheck,dhat,massif,heaptrack,lifeheap"
md_file=""
cell_budget=120
run_timeout=600

while [ $# -gt 0 ]; do
    case "$1" in
        --runs) [ $# -ge 2 ] || die "--runs needs a value"; runs=$2; runs_given=1; shift 2 ;;
        --quick) quick=1; shift ;;
        --only) [ $# -ge 2 ] || die "--only needs a value"; only=$2; shift 2 ;;
        --tools) [ $# -ge 2 ] || die "--tools needs a value"; tools_list=$2; shift 2 ;;
        --md) [ $# -ge 2 ] || die "--md needs a value"; md_file=$2; shift 2 ;;
        --cell-budget) [ $# -ge 2 ] || die "--cell-budget needs a value"; cell_budget=$2; shift 2 ;;
        --run-timeout) [ $# -ge 2 ] || die "--run-timeout needs a value"; run_timeout=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive integer, not '$runs'"
[[ "$cell_budget" =~ ^[0-9]+$ ]] || die "--cell-budget must be a whole number of seconds, not '$cell_budget'"
[[ "$run_timeout" =~ ^[0-9]+$ ]] || die "--run-timeout must be a whole number of seconds, not '$run_timeout'"
if [ "$quick" = 1 ] && [ "$runs_given" = 0 ]; then
    runs=1
fi
if [ -n "$md_file" ]; then
    md_dir=$(dirname "$md_file")
    [ -d "$md_dir" ] || die "--md: directory '$md_dir' does not exist"
fi

tools=()
IFS=',' read -r -a requested_tools <<< "$tools_list"
for tool in "${requested_tools[@]}"; do
    case " $ALL_TOOLS " in
        *" $tool "*) tools+=("$tool") ;;
        *) die "unknown tool '$tool' (choose from: ${ALL_TOOLS// /,})" ;;
    esac
done
[ ${#tools[@]} -gt 0 ] || die "--tools is empty"

wants_tool() {
    case " ${tools[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# --- Input sizes ---------------------------------------------------------
# Full sizes keep a complete run (all five columns, 3 runs) near 10-15
# minutes on a 2-core machine; DHAT at depth 16 is most of it.
if [ "$quick" = 1 ]; then
    bintree_depths=(10 12)
    walk_depths=(10 12)
    liveheap_sizes=(1k 32k); liveheap_ops=200000
    hashmap_keys=30000; hashmap_lookups=300000
    handoff_pairs=2; handoff_items=20000
    steady_live=1000; steady_steps=200000
    csv_rows=30000; csv_batch_rows=8000
    compute_size=200000; compute_passes=5
    json_records=2000; json_rounds=2
    sqlite_rows=20000
else
    bintree_depths=(12 14 16)
    walk_depths=(14 16)
    liveheap_sizes=(1k 32k 512k); liveheap_ops=2000000   # ops >= 4 x live
    hashmap_keys=300000; hashmap_lookups=3000000
    handoff_pairs=4; handoff_items=100000
    steady_live=1000; steady_steps=2000000
    csv_rows=150000; csv_batch_rows=40000     # 1.8M fields, 480k live at the peak
    compute_size=1000000; compute_passes=20
    json_records=6000; json_rounds=3
    sqlite_rows=200000
fi

workloads=()
for depth in "${bintree_depths[@]}"; do workloads+=("bintree-$depth"); done
for depth in "${walk_depths[@]}"; do workloads+=("bintree-walk-$depth"); done
for size in "${liveheap_sizes[@]}"; do workloads+=("liveheap-$size"); done
workloads+=(hashmap handoff steady csvparse compute python-json sqlite3)

selected=()
if [ -z "$only" ]; then
    selected=("${workloads[@]}")
else
    IFS=',' read -r -a only_names <<< "$only"
    for wanted in "${only_names[@]}"; do
        matched=0
        for name in "${workloads[@]}"; do
            if [ "$name" = "$wanted" ] || [[ "$name" == "$wanted"-* ]]; then
                case " ${selected[*]} " in *" $name "*) ;; *) selected+=("$name") ;; esac
                matched=1
            fi
        done
        [ "$matched" = 1 ] || die "--only: no workload named '$wanted' (have: ${workloads[*]})"
    done
fi

is_selected() {
    case " ${selected[*]} " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# --- Build and prepare ---------------------------------------------------
command -v valgrind >/dev/null || die "valgrind not found on PATH"
make -s -C "$BENCH_DIR" >&2 || die "building the workloads failed (make -C bench)"
BUILD="$BENCH_DIR/build"

work_dir=$(mktemp -d "${TMPDIR:-/tmp}/lifeheap-bench.XXXXXX")
trap 'rm -rf "$work_dir"' EXIT
profile_dir="$work_dir/profiles"
mkdir -p "$profile_dir"
results="$work_dir/results.tsv"
: > "$results"

note() {
    echo "bench: $*" >&2
    echo "# $*" >> "$results"
}

# The lifeheap tool is run from the build tree: tool/vglib mirrors Valgrind's
# tool directory with lifeheap added (see scripts/run-lifeheap).
lifeheap_lib="$REPO_ROOT/tool/vglib"
lifeheap_ready=0
if wants_tool lifeheap; then
    if [ -x "$lifeheap_lib/lifeheap-amd64-linux" ] && [ -f "$lifeheap_lib/vgpreload_lifeheap-amd64-linux.so" ]; then
        lifeheap_ready=1
    else
        note "lifeheap is not built ($lifeheap_lib/lifeheap-amd64-linux or vgpreload_lifeheap-amd64-linux.so missing): build the tool first; its column is skipped"
    fi
fi

if wants_tool heaptrack && ! command -v heaptrack >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "bench: heaptrack missing; installing Debian's heaptrack package" >&2
        { apt-get update -qq && apt-get install -y -qq -o DPkg::Lock::Timeout=300 heaptrack; } >&2 || true
    fi
    command -v heaptrack >/dev/null || note "heaptrack is not installed and could not be installed; its column is skipped"
fi

# python3 must be the interpreter itself: a wrapper script (pyenv's shim)
# would put bash, not python, under Valgrind (children are not traced).
python_bin=""
if is_selected python-json; then
    if [ -x /usr/bin/python3 ]; then
        python_bin=$(readlink -f /usr/bin/python3)
    else
        python_bin=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null || true)
    fi
    [ -n "$python_bin" ] || note "python3 not found; python-json is skipped"
fi

sqlite_bin=""
if is_selected sqlite3; then
    if ! command -v sqlite3 >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "bench: sqlite3 missing; installing Debian's sqlite3 package" >&2
        { apt-get update -qq && apt-get install -y -qq sqlite3; } >&2 || true
    fi
    if command -v sqlite3 >/dev/null; then
        sqlite_bin=$(readlink -f "$(command -v sqlite3)")
        sed "s/@ROWS@/$sqlite_rows/g" "$BENCH_DIR/workloads/sqlite_insert.sql" > "$work_dir/sqlite_insert.sql"
    else
        note "sqlite3 is not installed and could not be installed; sqlite3 is skipped"
    fi
fi

if is_selected csvparse; then
    python3 "$BENCH_DIR/lib/make_csv.py" "$work_dir/input.csv" "$csv_rows" \
        || die "generating the CSV input failed"
fi

# Sets the array workload_argv to the command line of workload $1; returns 1
# when the workload cannot run here (its reason was already noted).
workload_command() {
    case "$1" in
        bintree-walk-*) workload_argv=("$BUILD/bintree_walk" "${1#bintree-walk-}") ;;
        bintree-*) workload_argv=("$BUILD/bintree" "${1#bintree-}") ;;
        liveheap-*)
            local live=${1#liveheap-}
            live=${live%k}
            workload_argv=("$BUILD/liveheap" "$((live * 1000))" "$liveheap_ops") ;;
        hashmap) workload_argv=("$BUILD/hashmap" "$hashmap_keys" "$hashmap_lookups") ;;
        handoff) workload_argv=("$BUILD/handoff" "$handoff_pairs" "$handoff_items") ;;
        steady) workload_argv=("$BUILD/steady" "$steady_live" "$steady_steps") ;;
        csvparse) workload_argv=("$BUILD/csvparse" "$work_dir/input.csv" "$csv_batch_rows") ;;
        compute) workload_argv=("$BUILD/compute" "$compute_size" "$compute_passes") ;;
        python-json)
            [ -n "$python_bin" ] || return 1
            workload_argv=("$python_bin" "$BENCH_DIR/workloads/json_work.py" "$json_records" "$json_rounds") ;;
        sqlite3)
            [ -n "$sqlite_bin" ] || return 1
            workload_argv=("$sqlite_bin" ":memory:" ".read $work_dir/sqlite_insert.sql") ;;
        *) die "internal: no command for workload '$1'" ;;
    esac
}

# Sets the array tool_prefix to what runs a command under tool $1.
tool_command() {
    case "$1" in
        native) tool_prefix=() ;;
        none|memcheck) tool_prefix=(valgrind "--tool=$1") ;;
        dhat) tool_prefix=(valgrind --tool=dhat "--dhat-out-file=$profile_dir/dhat.out") ;;
        massif) tool_prefix=(valgrind --tool=massif "--massif-out-file=$profile_dir/massif.out") ;;
        # heaptrack is not a Valgrind tool: it preloads a library into the
        # program and pipes its events to heaptrack_interpret, a second
        # process; runstat's figures cover both (the program's children).
        heaptrack) tool_prefix=(heaptrack -o "$profile_dir/heaptrack") ;;
        lifeheap)
            local options=(--tool=lifeheap "--lifeheap-out-file=$profile_dir/lifeheap.json")
            if [ -x "$REPO_ROOT/scripts/run-lifeheap" ]; then
                tool_prefix=("$REPO_ROOT/scripts/run-lifeheap" "${options[@]:1}")
            else
                tool_prefix=(env "VALGRIND_LIB=$lifeheap_lib" valgrind "${options[@]}")
            fi ;;
    esac
}

# --- Measure ---------------------------------------------------------------
# Python's hash seed changes its allocation pattern from run to run; fix it.
export PYTHONHASHSEED=0

# Runs workload $name under tool $tool once and appends one line to the
# results (see lib/table.py for the format). Returns 1 when the run failed.
run_cell_once() {
    local stdout_file="$work_dir/$name.$tool.stdout"
    local stderr_file="$work_dir/$name.$tool.stderr"
    local report="$work_dir/runstat.report"
    local status wall maxrss_kib cpu
    tool_command "$tool"
    printf 'bench: %-12s %-9s run %d/%d: ' "$name" "$tool" "$rep" "$runs" >&2
    rm -f "$report"
    local limit=()
    [ "$run_timeout" -gt 0 ] && limit=(timeout -s KILL "$run_timeout")
    "$BUILD/runstat" "$report" "${limit[@]}" "${tool_prefix[@]}" "${workload_argv[@]}" \
        < /dev/null > "$stdout_file" 2> "$stderr_file" || true
    rm -f "$profile_dir"/*
    if [ "$tool" = heaptrack ]; then
        # heaptrack prints its own lines on stdout around the program's
        awk '/^heaptrack output will be written to|^\/usr\/lib\/heaptrack\/|^starting application, this might take some time|^Heaptrack finished!|^  heaptrack --analyze/ { skip_blank = 1; next }
             skip_blank && /^$/ { skip_blank = 0; next } { skip_blank = 0; print }' \
            "$stdout_file" > "$stdout_file.program" && mv "$stdout_file.program" "$stdout_file"
    fi
    read -r status wall maxrss_kib cpu 2>/dev/null < "$report" || status=helper
    if [ "$status" = 137 ] && [ "$run_timeout" -gt 0 ]; then
        echo "stopped after $run_timeout s" >&2
        printf '%s\t%s\t-\t-\t-\ttimeout >%ss\n' "$name" "$tool" "$run_timeout" >> "$results"
        return 1
    fi
    if [ "$status" != 0 ]; then
        echo "FAILED (status $status); last lines of its stderr:" >&2
        tail -n 5 "$stderr_file" | sed 's/^/    /' >&2
        printf '%s\t%s\t-\t-\t-\tFAIL %s\n' "$name" "$tool" "$status" >> "$results"
        return 1
    fi
    local rss_mb
    rss_mb=$(awk -v kib="$maxrss_kib" 'BEGIN { printf "%.1f", kib / 1024 }')
    echo "$wall s wall, $cpu s cpu, $rss_mb MB" >&2
    local cell_note="-"
    # Every tool must leave the program's output unchanged; compare with the
    # first tool that ran (native when it is selected).
    if [ -z "$reference_tool" ]; then
        reference_tool=$tool
    elif [ "$tool" != "$reference_tool" ] && ! cmp -s "$work_dir/$name.$reference_tool.stdout" "$stdout_file"; then
        cell_note="output differs"
        note "$name under $tool: stdout differs from the $reference_tool run"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$wall" "$cpu" "$rss_mb" "$cell_note" >> "$results"
    spent_ms[$tool]=$(( ${spent_ms[$tool]} + 10#${wall/./} ))
}

echo "bench: ${#selected[@]} workloads x ${#tools[@]} tools, $runs run(s) each" >&2
load_at_start=$(cut -d' ' -f1 /proc/loadavg)
declare -A spent_ms failed
for name in "${selected[@]}"; do
    if ! workload_command "$name"; then
        continue
    fi
    reference_tool=""
    for tool in "${tools[@]}"; do
        spent_ms[$tool]=0
        failed[$tool]=0
        if [ "$tool" = lifeheap ] && [ "$lifeheap_ready" = 0 ]; then
            printf '%s\t%s\t-\t-\t-\tnot built\n' "$name" "$tool" >> "$results"
            failed[$tool]=1
        fi
        if [ "$tool" = heaptrack ] && ! command -v heaptrack >/dev/null; then
            printf '%s\t%s\t-\t-\t-\tnot installed\n' "$name" "$tool" >> "$results"
            failed[$tool]=1
        fi
    done
    # Repetitions go round all tools in turn, so a burst of load from
    # something else on the machine hits every column alike.
    for ((rep = 1; rep <= runs; rep++)); do
        for tool in "${tools[@]}"; do
            [ "${failed[$tool]}" = 0 ] || continue
            if [ "$cell_budget" -gt 0 ] && [ "${spent_ms[$tool]}" -ge $((cell_budget * 1000)) ]; then
                continue
            fi
            run_cell_once || failed[$tool]=1
        done
    done
done

echo >&2
{
    echo "#= $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(valgrind --version), repo at $(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    # Other jobs on the machine inflate wall times; say how busy it was.
    echo "#= load average (1 min) at start $load_at_start, at end $(cut -d' ' -f1 /proc/loadavg)"
    if [ "$quick" = 1 ]; then echo "#= --quick: smaller inputs; a smoke test, not a measurement"; fi
} >> "$results"
if [ -n "$md_file" ]; then
    python3 "$BENCH_DIR/lib/table.py" "$results" "$runs" "$md_file"
    echo "bench: markdown written to $md_file" >&2
else
    python3 "$BENCH_DIR/lib/table.py" "$results" "$runs"
fi
