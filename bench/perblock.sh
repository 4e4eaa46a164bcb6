#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# bench/perblock.sh: what one live block costs each tool, in bytes of peak
# RSS over --tool=none (workloads/perblock.c).  For each block size and mode
# it runs perblock at LOW and HIGH block counts under every tool and prints
#   (rss(HIGH) - rss(LOW)) / (HIGH - LOW)  for the tool
#   minus the same slope under --tool=none
# so start-up, the one site and the tables cancel out.  Peak RSS is
# deterministic enough that one run per cell is used.
#
# Usage: bench/perblock.sh [--sizes 16,24,64] [--modes untouched,touched,churned]
#                          [--tools dhat,lifeheap] [--low N] [--high N]
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$BENCH_DIR/.." && pwd)
sizes=16,24,64
modes=untouched,touched,churned
tools=memcheck,dhat,lifeheap
low=200000
high=1000000
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) sizes=$2; shift 2 ;;
        --modes) modes=$2; shift 2 ;;
        --tools) tools=$2; shift 2 ;;
        --low) low=$2; shift 2 ;;
        --high) high=$2; shift 2 ;;
        *) echo "usage: bench/perblock.sh [--sizes L] [--modes L] [--tools L] [--low N] [--high N]" >&2; exit 2 ;;
    esac
done
source "$BENCH_DIR/lib/measure.sh"

rss_kib() {   # TOOL COUNT SIZE MODE -> peak RSS in KiB
    measure_once perblock "$1" "$build/perblock" "$2" "$3" "$4"
    echo "$measured_rss"
}

slope() {   # TOOL SIZE MODE -> bytes per block
    local a b
    a=$(rss_kib "$1" "$low" "$2" "$3")
    b=$(rss_kib "$1" "$high" "$2" "$3")
    echo $(( (b - a) * 1024 / (high - low) ))
}

IFS=, read -r -a size_list <<< "$sizes"
IFS=, read -r -a mode_list <<< "$modes"
IFS=, read -r -a tool_list <<< "$tools"
printf '| block size | mode | none (B/block) |'
for t in "${tool_list[@]}"; do printf ' %s over none |' "$t"; done
printf '\n|---:|---|---:|'
for t in "${tool_list[@]}"; do printf -- '---:|'; done
printf '\n'
for size in "${size_list[@]}"; do
    for mode in "${mode_list[@]}"; do
        base=$(slope none "$size" "$mode")
        printf '| %s | %s | %s |' "$size" "$mode" "$base"
        for t in "${tool_list[@]}"; do
            s=$(slope "$t" "$size" "$mode")
            printf ' %s |' $(( s - base ))
        done
        printf '\n'
    done
done
