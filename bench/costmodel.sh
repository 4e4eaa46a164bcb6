#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/costmodel.sh: the cost of one operation under each tool, each
# isolated by a workload that repeats it (workloads/unitcost.c) and by taking
# the difference between two repetition counts, so that start-up and
# everything else the program does cancel out:
#
#   cost per op = (cpu(HIGH) - cpu(LOW)) / (HIGH - LOW), minus the same
#                 under --tool=none (the JIT's own cost of the program)
#
# CPU seconds (user + system) are the median of --runs runs.  Memory per
# live block is bench/perblock.sh; memory per site is measured here with
# tests/reliability/progs/scale.c (SITES sites of one live 16-byte block).
#
# Usage: bench/costmodel.sh [--runs N] [--tools memcheck,dhat,lifeheap]
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/.." && pwd)
runs=3
tools=memcheck,dhat,lifeheap
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --tools) tools=$2; shift 2 ;;
        *) echo "usage: bench/costmodel.sh [--runs N] [--tools LIST]" >&2; exit 2 ;;
    esac
done
source "$BENCH_DIR/lib/measure.sh"
gcc -O0 -g -fno-builtin -o "$tmp/scale" "$REPO_ROOT/tests/reliability/progs/scale.c"

# measure TOOL FIELD PROGRAM ARGS...: median over the runs of FIELD of
# runstat's report (3 = peak RSS KiB, 4 = CPU seconds)
measure() {
    local tool=$1 field=$2 values=()
    shift 2
    for ((r = 0; r < runs; r++)); do
        measure_once costmodel "$tool" "$@"
        if [ "$field" = 3 ]; then values+=("$measured_rss"); else values+=("$measured_cpu"); fi
    done
    printf '%s\n' "${values[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}

IFS=, read -r -a tool_list <<< "$tools"
# op  LABEL  LOW  HIGH  UNIT_SCALE UNIT  PROGRAM ARGS-BEFORE-COUNT...
per_op() {
    local label=$1 low=$2 high=$3 scale=$4 unit=$5; shift 5
    local base_low base_high
    base_low=$(measure none 4 "$@" "$low")
    base_high=$(measure none 4 "$@" "$high")
    local base
    base=$(awk -v a="$base_low" -v b="$base_high" -v n=$((high - low)) -v s="$scale" 'BEGIN { printf "%.1f", (b - a) / n * s }')
    printf '| %s | %s |' "$label" "$base"
    for t in "${tool_list[@]}"; do
        local a b
        a=$(measure "$t" 4 "$@" "$low")
        b=$(measure "$t" 4 "$@" "$high")
        awk -v a="$a" -v b="$b" -v n=$((high - low)) -v s="$scale" -v base="$base" \
            'BEGIN { printf " %.1f |", (b - a) / n * s - base }'
    done
    printf ' %s |\n' "$unit"
}

printf '| operation | none |'
for t in "${tool_list[@]}"; do printf ' %s over none |' "$t"; done
printf ' unit |\n|---|---:|'
for t in "${tool_list[@]}"; do printf -- '---:|'; done
printf -- '---|\n'
per_op "malloc + write + free (24 bytes, one site)" 200000 1200000 1e9 "ns per pair" "$build/unitcost" pairs
per_op "malloc (24 bytes, kept live)" 200000 1200000 1e9 "ns per call" "$build/unitcost" allocs
per_op "8-byte read of a small block (1,024 live)" 2000000 22000000 1e9 "ns per read" "$build/unitcost" reads
per_op "8-byte read in a 1 MiB block, sequential" 2000000 22000000 1e9 "ns per read" "$build/unitcost" bigreads

# memory per site: SITES sites, each with one live 16-byte block
printf '| memory per site (one live 16-byte block each) |'
low_sites=20000 high_sites=100000
base=$(( ($(measure none 3 "$tmp/scale" $high_sites $high_sites $high_sites) - $(measure none 3 "$tmp/scale" $low_sites $low_sites $low_sites)) * 1024 / (high_sites - low_sites) ))
printf ' %s |' "$base"
for t in "${tool_list[@]}"; do
    a=$(measure "$t" 3 "$tmp/scale" $low_sites $low_sites $low_sites)
    b=$(measure "$t" 3 "$tmp/scale" $high_sites $high_sites $high_sites)
    printf ' %s |' $(( (b - a) * 1024 / (high_sites - low_sites) - base ))
done
printf ' bytes of peak RSS per site |\n'
