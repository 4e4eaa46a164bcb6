#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-replace-range.sh PRELOAD REPLACE_OBJECTS... -- OTHER_OBJECTS...
#
# Checks the layout the tool relies on to leave the preload's string and
# memory functions out of the run's clock (tool/lh_replace_begin.c): in the
# linked PRELOAD (before it is stripped), every function of the
# REPLACE_OBJECTS lies in [lh_replace_code_begin, lh_replace_code_end) and
# no function of the OTHER_OBJECTS (Valgrind's malloc replacement) or of
# the C runtime does.  A name defined in both groups is not checked.
# Exits 1 with the offending functions named.
set -eu
NM=${NM:-nm}
preload=$1; shift
replace_objs=""; other_objs=""; group=replace
for f in "$@"; do
  if [ "$f" = "--" ]; then group=other; continue; fi
  if [ $group = replace ]; then replace_objs="$replace_objs $f"; else other_objs="$other_objs $f"; fi
done
[ -n "$replace_objs" ] || { echo "check-replace-range.sh: no replacement objects" >&2; exit 2; }
functions() { "$NM" --defined-only "$@" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u; }
tmp=${TMPDIR:-/tmp}/check-replace-range.$$
mkdir "$tmp"; trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
functions $replace_objs > "$tmp/replace"
# shellcheck disable=SC2086
if [ -n "$other_objs" ]; then functions $other_objs > "$tmp/other"; else : > "$tmp/other"; fi
"$NM" --defined-only "$preload" | awk '$2 ~ /^[tT]$/ { print $1, $3 }' > "$tmp/linked"
awk -v replace="$tmp/replace" -v other="$tmp/other" '
  BEGIN {
    while ((getline n < replace) > 0) in_replace[n] = 1
    while ((getline n < other) > 0) if (n in in_replace) skip[n] = 1
  }
  { addr[NR] = $1; name[NR] = $2
    if ($2 == "lh_replace_code_begin") begin = $1
    if ($2 == "lh_replace_code_end") end = $1 }
  END {
    if (begin == "" || end == "") { print "check-replace-range.sh: the markers lh_replace_code_begin/_end are missing"; exit 1 }
    bad = 0
    for (i = 1; i <= NR; i++) {
      # as strings: nm prints every address with the same number of hex digits
      inside = ((addr[i] "") >= (begin "") && (addr[i] "") < (end ""))
      if (name[i] == "lh_replace_code_begin" || (name[i] in skip)) continue
      if ((name[i] in in_replace) && !inside) { print "outside the range: " name[i] " at " addr[i]; bad = 1 }
      else if (!(name[i] in in_replace) && inside) { print "inside the range but not a replacement: " name[i] " at " addr[i]; bad = 1 }
    }
    if (bad) { print "check-replace-range.sh: the string functions are not laid out between the markers (range " begin ".." end ")"; exit 1 }
  }' "$tmp/linked"
