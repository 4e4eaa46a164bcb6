#!/usr/bin/env bash
# tests/access/run.sh: every load and store, exactly.
# Programs in progs/ have access patterns known by construction; each check
# asserts exact figures of one site's "access" object in the profile.
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

progs="$here/progs"
bin="$TESTS_BUILD/access"
out="$TESTS_OUT/access"
mkdir -p "$bin" "$out"
rm -f "$out"/*.json "$out"/*.log

# profile NAME [ARGS...]: builds progs/NAME.c and profiles it to $out/NAME.json
profile() {
  local name=$1; shift
  if ! compile_c "$bin/$name" "$progs/$name.c"; then
    fail "$name: build" "gcc failed"; return 1
  fi
  if ! run_lifeheap "$out/$name.json" "$bin/$name" "$@"; then
    fail "$name: run" "lifeheap or the program failed, see $out/$name.json.log"; return 1
  fi
}

# expect NAME FUNCTION FIELD=VALUE...: one test of the one site whose
# innermost frame (the allocator's caller) is FUNCTION: FIELD is a path
# inside its "access" object (bytes_read, at_peak.bytes, map.writes[3],
# map.reads=sum:N, map.writes=ones:A-B) or, prefixed with "site.", a site
# field; tests/lib/profile_check.py checks them all.
expect() {
  local name=$1 function=$2 spec; shift 2
  local asserts=()
  for spec in "$@"; do
    case $spec in
      site.*) asserts+=("site[top=$function].${spec#site.}") ;;
      *) asserts+=("site[top=$function].access.$spec") ;;
    esac
  done
  feed_checks "$TESTS_TOP/tests/lib/profile_check.py" --one "$name: $function" \
    "$out/$name.json" "${asserts[@]}"
}

# The per-offset counts past 2^32 (4-byte counts moved to 8-byte ones):
# tool/lh_access_map.c built for the host against a shim of the Valgrind
# functions it calls (unit/vg_shim.c), driven by unit/access_map_test.c.
unit_test_access_map() {
  local cppflags defines
  cppflags=$(sed -n 's/^VALGRIND_CPPFLAGS = //p' "$TESTS_TOP/tool/Makefile")
  defines=$(sed -n 's/^VALGRIND_PLATFORM_DEFINES = //p' "$TESTS_TOP/tool/Makefile")
  if [ -z "$defines" ]; then
    fail "access map: build" "tool/Makefile has no VALGRIND_PLATFORM_DEFINES (run scripts/setup.sh)"; return
  fi
  # shellcheck disable=SC2086
  if ! gcc -O2 -Wall -Wextra -Wno-unused-parameter -Werror $cppflags $defines \
      -I"$TESTS_TOP/tool" -I"$here/unit" -o "$bin/access_map_test" \
      "$TESTS_TOP/tool/lh_access_map.c" "$here/unit/vg_shim.c" \
      "$here/unit/access_map_test.c" 2>"$out/access_map_test.build.log"; then
    fail "access map: build" "gcc failed, see $out/access_map_test.build.log"; return
  fi
  run_unit_program "access map" "$bin/access_map_test" "$out/access_map_test.log"
}
unit_test_access_map

if profile quarter; then
  expect quarter fill_quarter bytes_written=1024 bytes_read=512 measured_bytes=4096 \
    never_written_bytes=3072 never_read_bytes=3584 never_accessed_bytes=3072 \
    written_never_read_bytes=512 unused_capacity_bytes=3072 \
    map.kind=bytes map.block_size=4096 map.writes=ones:0-1024 map.reads=ones:0-512
fi

if profile table; then
  # Entries 0, 8192, ... lie at the start of buckets 0, 8, ..., 56.
  reads=()
  for j in $(seq 0 63); do
    if [ $((j % 8)) -eq 0 ]; then reads+=("map.reads[$j]=4"); else reads+=("map.reads[$j]=0"); fi
  done
  expect table make_table bytes_written=262144 bytes_read=32 never_read_bytes=262112 \
    never_written_bytes=0 unused_capacity_bytes=0 written_never_read_bytes=262112 \
    map.kind=buckets map.buckets=64 "map.writes[0]=4096" "map.writes[63]=4096" \
    map.writes=sum:262144 "${reads[@]}"
fi

if profile copy; then
  expect copy make_source bytes_read=1000 bytes_written=1000 never_read_bytes=0
  expect copy make_copy bytes_read=0 bytes_written=1000 never_written_bytes=0 \
    written_never_read_bytes=1000
fi

if profile strings; then
  expect strings make_text bytes_read=23 bytes_written=12 never_read_bytes=52 \
    "map.reads[0]=3" "map.reads[3]=3" "map.reads[4]=2" "map.reads[6]=2" \
    "map.reads[7]=1" "map.reads[11]=1" "map.reads[12]=0" map.reads=sum:23
  expect strings make_other bytes_read=4 bytes_written=5
fi

if profile strfuncs; then
  # progs/strfuncs.c derives each figure from the functions' definitions.
  expect strfuncs wide_len bytes_read=24 bytes_written=24
  expect strfuncs hay_found bytes_read=5 bytes_written=7 map.reads=ones:0-5
  expect strfuncs needle_found bytes_read=3
  expect strfuncs hay_missed bytes_read=7
  expect strfuncs needle_missed bytes_read=4
  expect strfuncs case_a bytes_read=6
  expect strfuncs case_b bytes_read=6
  expect strfuncs ncase_a bytes_read=5 map.reads=ones:0-5
  expect strfuncs ncase_b bytes_read=5
  expect strfuncs mem_hay bytes_read=5 map.reads=ones:0-5
  expect strfuncs mem_needle bytes_read=3
  expect strfuncs stpn_src bytes_read=4
  expect strfuncs stpn_dst bytes_written=10 bytes_read=0 map.writes=ones:0-10
  # strncat reads "ab" and its NUL, writes "xy" and a NUL; the check's
  # strcmp with "abxy" then reads 5
  expect strfuncs cat_dst bytes_read=8 bytes_written=6
  expect strfuncs cat_src bytes_read=2
  expect strfuncs wide_a bytes_read=12 bytes_written=16
  expect strfuncs wide_b bytes_read=12
  expect strfuncs wide_set bytes_written=20 bytes_read=0
  expect strfuncs ccpy_src bytes_read=3
  expect strfuncs ccpy_dst bytes_written=3
  expect strfuncs eq_a bytes_read=3
  expect strfuncs eq_b bytes_read=3
  expect strfuncs casestr_hay bytes_read=11 map.reads=ones:0-11
  expect strfuncs casestr_needle bytes_read=6
  expect strfuncs chk_src bytes_read=3
  expect strfuncs chk_dst bytes_written=3
  # glibc's internal calls reach the replacements only through its symbol
  # table (libc6-dbg, which scripts/setup.sh installs)
  if dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q "ok installed"; then
    expect strfuncs dup_src bytes_read=12 bytes_written=6
    expect strfuncs strdup bytes_written=6 bytes_read=1
  else
    fail "strfuncs: strdup's internal calls" "libc6-dbg is not installed (scripts/setup.sh installs it)"
  fi
fi

if compile_c "$bin/fortify" "$progs/fortify.c"; then
  # (the subshell keeps bash's "Aborted" notice off the suite's output)
  status=$( (run_lifeheap "$out/fortify.json" "$bin/fortify" >"$out/fortify.stdout"; echo $?) 2>/dev/null)
  check_eq "fortify: a failed __strcpy_chk aborts as glibc's does" 134 "$status"
  check "fortify: glibc's message" grep -q "buffer overflow detected" "$out/fortify.json.log"
  check_eq "fortify: the program did not go on" "" "$(cat "$out/fortify.stdout")"
else
  fail "fortify: build" "gcc failed"
fi

input="$out/syscall-input.txt"
head -c 100 /dev/zero | tr '\0' 'x' > "$input"
if profile syscall "$input"; then
  expect syscall read_into_heap bytes_written=100 bytes_read=0 \
    unused_capacity_bytes=3996 never_written_bytes=3996 written_never_read_bytes=100 \
    map.writes=ones:0-100
  expect syscall write_from_heap bytes_written=64 bytes_read=50 never_read_bytes=14 \
    map.reads=ones:0-50
fi

if profile grow; then
  expect grow grow_moved measured_bytes=100000 bytes_written=200 bytes_read=50 \
    never_written_bytes=99800 never_read_bytes=99950 never_accessed_bytes=99800 \
    unused_capacity_bytes=99800 map.kind=buckets map.writes=sum:200 map.reads=sum:50 \
    site.total_blocks=1 site.reallocs=1
  expect grow shrink_regrow measured_bytes=48 bytes_written=64 never_written_bytes=16 \
    unused_capacity_bytes=16 never_read_bytes=48 site.reallocs=2
  expect grow shrink_big measured_bytes=150000 bytes_written=200000 bytes_read=100 \
    never_written_bytes=50000 unused_capacity_bytes=50000 never_read_bytes=149900 \
    never_accessed_bytes=50000 site.reallocs=2
fi

# Per-offset counts past 65,535 (2-byte counts moved to 4-byte ones), by
# the access path's own adds and its pending repeats; progs/counts.c.
if profile counts; then
  zeros_but() {   # zeros_but KIND OFFSET...: map.KIND[j]=0 for the other j < 16
    local kind=$1 j; shift
    for j in $(seq 0 15); do
      case " $* " in *" $j "*) ;; *) echo "map.$kind[$j]=0" ;; esac
    done
  }
  expect counts one_offset_65535 map.kind=bytes map.block_size=16 bytes_read=65535 \
    bytes_written=0 "map.reads[5]=65535" $(zeros_but reads 5)
  expect counts one_offset_65536 map.kind=bytes bytes_read=65536 "map.reads[5]=65536" \
    $(zeros_but reads 5)
  expect counts two_offsets bytes_read=140000 bytes_written=70000 "map.reads[5]=70000" \
    "map.reads[6]=70000" "map.writes[0]=70000" $(zeros_but reads 5 6) \
    $(zeros_but writes 0)
  word_reads=(); word_writes=()
  for j in $(seq 0 7); do
    word_reads+=("map.reads[$j]=70000" "map.writes[$j]=0")
    word_writes+=("map.writes[$((j + 8))]=70000" "map.reads[$((j + 8))]=0")
  done
  expect counts words bytes_read=560000 bytes_written=560000 "${word_reads[@]}" \
    "${word_writes[@]}"
  expect counts across bytes_read=65547 "map.reads[0]=3" "map.reads[1]=3" \
    "map.reads[2]=65538" "map.reads[3]=3" $(zeros_but reads 0 1 2 3)
fi

if profile hot; then
  expect hot make_buffer measured_bytes=8192 bytes_written=8192 bytes_read=28672 \
    never_read_bytes=4096 never_written_bytes=7192 never_accessed_bytes=4096 \
    written_never_read_bytes=0 unused_capacity_bytes=7192 \
    map.reads=sum:28672 map.writes=sum:8192 site.reallocs=2
  expect hot make_second bytes_read=100 bytes_written=0 never_read_bytes=8092 \
    never_written_bytes=8192 map.reads=sum:100
fi

if profile slots; then
  expect slots make_first bytes_written=8192 bytes_read=24576 never_read_bytes=0
  expect slots make_second bytes_read=1000 bytes_written=0 never_read_bytes=7192 \
    never_written_bytes=8192 map.reads=sum:1000
  mixed_parts=()
  for j in 0 1 31 62 63; do mixed_parts+=("map.reads[$j]=80" "map.writes[$j]=48"); done
  expect slots make_mixed bytes_written=3072 bytes_read=5120 never_read_bytes=0 \
    map.kind=buckets map.reads=sum:5120 map.writes=sum:3072 "${mixed_parts[@]}"
  expect slots make_grown bytes_written=32768 bytes_read=65536 never_read_bytes=0 \
    map.kind=buckets "map.reads[0]=1024" "map.reads[31]=1024" "map.reads[32]=1024" \
    "map.reads[63]=1024" "map.writes[0]=256" "map.writes[31]=256" \
    "map.writes[32]=768" "map.writes[63]=768" map.reads=sum:65536
  expect slots make_odd bytes_read=18000 bytes_written=6000 never_read_bytes=0 \
    map.kind=buckets "map.reads[0]=279" "map.reads[1]=282" "map.reads[63]=282" \
    map.reads=sum:18000
fi

if profile tiny_parts; then
  # The 40-byte block's 40 bytes, each written and read once, spread over
  # 64 parts: part j gets the offsets o with (64(o+1) - 1) / 40 = j
  # (docs/metrics.md), 1 byte or none.  The 5000-byte block is not accessed.
  tiny=()
  for j in $(seq 0 63); do
    n=$(python3 -c "print(sum(1 for o in range(40) if ((o + 1) * 64 - 1) // 40 == $j))")
    tiny+=("map.reads[$j]=$n" "map.writes[$j]=$n")
  done
  expect tiny_parts make_tiny bytes_written=40 bytes_read=40 map.kind=buckets \
    map.reads=sum:40 map.writes=sum:40 "${tiny[@]}"
fi

if profile consumer; then
  expect consumer make_message site.total_blocks=256 bytes_written=16384 \
    bytes_read=16384 never_read_bytes=0 never_written_bytes=0 \
    map.kind=bytes map.block_size=64
fi

if profile atomics; then
  expect atomics make_counters bytes_read=12 bytes_written=16 \
    "map.writes[0]=3" "map.writes[3]=3" "map.writes[4]=1" "map.writes[7]=1" \
    "map.reads[0]=2" "map.reads[3]=2" "map.reads[4]=1" "map.reads[7]=1"
fi

if profile big; then
  expect big make_big measured_bytes=3145828 bytes_written=1048576 bytes_read=8 \
    never_written_bytes=2097252 unused_capacity_bytes=2097252 \
    never_accessed_bytes=2097244 never_read_bytes=3145820 \
    map.kind=buckets map.writes=sum:1048576 map.reads=sum:8 "map.reads[63]=8"
fi

if profile zeroed; then
  expect zeroed make_zeroed bytes_written=0 bytes_read=40 never_written_bytes=400 \
    unused_capacity_bytes=0 never_read_bytes=360 map.reads=ones:0-40
fi

if profile peak; then
  expect peak early_block at_peak.bytes=0 at_peak.never_read_bytes=0 bytes_written=100
  expect peak peak_big at_peak.bytes=8000 at_peak.never_read_bytes=8000 \
    at_peak.never_written_bytes=7000 at_peak.never_accessed_bytes=7000 \
    at_peak.unused_capacity_bytes=7000
  expect peak peak_small at_peak.bytes=2000 at_peak.never_read_bytes=2000 \
    at_peak.never_written_bytes=2000 at_peak.unused_capacity_bytes=2000
  expect peak after_peak at_peak.bytes=0
fi

if profile resize_peak; then
  expect resize_peak grow_later at_peak.bytes=1024 at_peak.never_written_bytes=0 \
    at_peak.never_read_bytes=1024 at_peak.never_accessed_bytes=0 \
    at_peak.unused_capacity_bytes=0 site.bytes_at_peak=1024 \
    measured_bytes=8388608 never_written_bytes=8386560 site.reallocs=1
  expect resize_peak shrink_later at_peak.bytes=4096 at_peak.never_written_bytes=3996 \
    at_peak.never_read_bytes=4096 at_peak.never_accessed_bytes=3996 \
    at_peak.unused_capacity_bytes=3996 site.bytes_at_peak=4096 measured_bytes=50
  expect resize_peak peak_maker at_peak.bytes=10485760 \
    at_peak.never_written_bytes=10485760 at_peak.unused_capacity_bytes=10485760
  expect resize_peak custom_later at_peak.bytes=1000 at_peak.never_read_bytes=0 \
    site.bytes_at_peak=1000 measured_bytes=0
  feed_checks "$TESTS_TOP/tests/lib/profile_check.py" --one "resize_peak: peak.bytes" \
    "$out/resize_peak.json" peak.bytes=10491880
fi
if profile resize_peak later-peak && mv "$out/resize_peak.json" "$out/resize_later_peak.json"; then
  expect resize_later_peak grow_later at_peak.bytes=20971520 \
    at_peak.never_written_bytes=20970496 at_peak.unused_capacity_bytes=20970496 \
    at_peak.never_read_bytes=20971520 site.bytes_at_peak=20971520
  expect resize_later_peak peak_maker at_peak.bytes=0 site.bytes_at_peak=0
fi

if profile random_reads; then
  # progs/random_reads.c derives each figure; most of its random reads wait
  # in the access path's queue of accesses counted later
  entry_reads=()
  for o in $(seq 0 31); do
    if [ "$o" -ge 8 ] && [ "$o" -lt 16 ]; then entry_reads+=("map.reads[$o]=26144")
    else entry_reads+=("map.reads[$o]=4096"); fi
  done
  expect random_reads make_entry bytes_written=131072 bytes_read=307456 \
    never_read_bytes=0 map.kind=bytes map.block_size=32 map.writes=sum:131072 \
    "map.writes[0]=4096" "map.writes[31]=4096" "${entry_reads[@]}"
  expect random_reads make_other site.blocks_at_exit=2048 bytes_read=0 bytes_written=0 \
    "site.notes[kind=unused-capacity].bytes=[65536]"
  moved_parts=()
  for j in $(seq 0 63); do
    if [ $((j % 2)) -eq 0 ]; then moved_parts+=("map.reads[$j]=0" "map.writes[$j]=0")
    elif [ "$j" -ge 17 ] && [ "$j" -le 31 ]; then moved_parts+=("map.reads[$j]=128" "map.writes[$j]=64")
    else moved_parts+=("map.reads[$j]=64" "map.writes[$j]=64"); fi
  done
  expect random_reads make_moved site.reallocs=64 bytes_written=2048 bytes_read=2560 \
    map.kind=buckets "${moved_parts[@]}"
  expect random_reads make_idle bytes_read=6144 bytes_written=8192 site.freed_blocks=256 \
    never_read_bytes=2048 never_written_bytes=0 written_never_read_bytes=2048 \
    "map.reads[0]=256" "map.reads[8]=256" "map.reads[23]=256" "map.reads[24]=0" \
    "map.reads[31]=0" map.writes=sum:8192 "map.writes[31]=256" \
    "idle_before_free<256000" "idle_before_free>0"
  expect random_reads make_head site.total_blocks=64 bytes_read=0
  expect random_reads make_tail site.total_blocks=64 bytes_read=20 bytes_written=16 \
    "map.reads[0]=2" "map.reads[3]=2" "map.reads[4]=1" "map.reads[7]=1" "map.reads[15]=1"
fi

# profile_stats NAME ARGS...: as profile, with --stats=yes; the accesses
# that missed the access path's fast checks ("in a slot's block" plus
# "the slow way" of the tool's stats line) go to $missed.
profile_stats() {
  local name=$1 line; shift
  missed=
  if ! compile_c "$bin/$name" "$progs/$name.c"; then
    fail "$name: build" "gcc failed"; return 1
  fi
  if ! run_lifeheap "$out/$name.json" --stats=yes "$bin/$name" "$@"; then
    fail "$name: run" "see $out/$name.json.log"; return 1
  fi
  line=$(sed -n "s/.*lifeheap: access path: \([0-9,]*\) accesses in a slot's block, \([0-9,]*\) the slow way.*/\1 \2/p" \
    "$out/$name.json.log" | tr -d ,)
  if [ -z "$line" ]; then
    fail "$name: --stats=yes" "no 'access path' line in $out/$name.json.log"; return 1
  fi
  missed=$(( ${line% *} + ${line#* } ))
}

# progs/shared_reading.c: two loads share the reading of one block; the
# slot of the one that did not set its last bit still arms itself (the
# program's comment derives the bound: 2,248 with 100 passes, against at
# least 51,200 when the slot stays unarmed).
if profile_stats shared_reading 100; then
  expect shared_reading make_words bytes_written=8192 bytes_read=417792 never_read_bytes=0 \
    map.kind=buckets "map.writes[0]=128" "map.writes[63]=128" "map.reads[0]=6528" \
    "map.reads[31]=6528" "map.reads[63]=6528" map.reads=sum:417792
  check "shared_reading: a slot whose block another slot finished reading arms itself ($missed accesses off the fast checks, at most 2,248)" \
    test "$missed" -le 2248
fi

# progs/boundary_word.c: a word across two map parts reread 10,000 times
# is a repeat key, its repeats split exactly between the parts (at most
# 2,001 accesses off the fast checks, against 10,000 and more when every
# reread takes the slot's block's way).
if profile_stats boundary_word 10000; then
  expect boundary_word make_block bytes_written=8000 bytes_read=88000 never_read_bytes=0 \
    map.kind=buckets "map.reads[15]=125" "map.reads[16]=50125" "map.reads[17]=30125" \
    "map.reads[18]=125" map.reads=sum:88000 "map.writes[16]=125" "map.writes[17]=125" \
    map.writes=sum:8000
  check "boundary_word: a reread word across two parts is a repeat key ($missed accesses off the fast checks, at most 2,001)" \
    test "$missed" -le 2001
fi

# Relations that hold for every site of every profile above, and the schema
# (tests/lib/profile_check.py, contract:access): one test per profile, and
# a failure when there is none to check.
profiles=()
for f in "$out"/*.json; do
  case $f in *.dhat.json) ;; *) [ -f "$f" ] && profiles+=("$f") ;; esac
done
[ ${#profiles[@]} -gt 0 ] || fail "every profile: access relations" "no profile was written"
for f in "${profiles[@]}"; do
  feed_checks "$TESTS_TOP/tests/lib/profile_check.py" --one \
    "$(basename "$f" .json): map sums, never-* relations, totals, schema" "$f" valid contract:access
done

# Per-site totals equal DHAT's where DHAT's accounting is exact.
dhat_check() {
  local name=$1; shift
  local dhat_out="$out/$name.dhat.json" why
  if ! valgrind --tool=dhat --dhat-out-file="$dhat_out" "$bin/$name" 2>"$dhat_out.log"; then
    fail "$name: same as DHAT" "DHAT run failed"; return
  fi
  if why=$(python3 "$here/compare_dhat.py" "$dhat_out" "$out/$name.json" "$@" 2>&1); then
    pass "$name: reads and writes equal DHAT's"
  else
    fail "$name: reads and writes equal DHAT's" "$(echo "$why" | tr '\n' ';')"
  fi
}
# The run's clock (docs/metrics.md, Time): progs/clock.c K S M.
# duration_of TOOL K S M: run.duration (lifeheap) or te (DHAT) of one run.
duration_of() {
  local tool=$1; shift
  local file="$out/clock-$tool-$1$2$3.json"
  if [ "$tool" = lifeheap ]; then
    run_lifeheap "$file" "$bin/clock" "$@" || return 1
    python3 "$TESTS_TOP/tests/lib/profile_check.py" --get "$file" run.duration
  else
    valgrind --tool=dhat --dhat-out-file="$file.dhat" "$bin/clock" "$@" 2>"$file.dhat.log" || return 1
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["te"])' "$file.dhat"
  fi
}
if compile_c "$bin/clock" "$progs/clock.c"; then
  lh_100=$(duration_of lifeheap 1 0 0); lh_200=$(duration_of lifeheap 2 0 0)
  dh_100=$(duration_of dhat 1 0 0); dh_200=$(duration_of dhat 2 0 0)
  check_eq "clock: 100 iterations of plain code, malloc and free cost what DHAT counts" \
    "$((dh_200 - dh_100))" "$((lh_200 - lh_100))"
  lh_fill0=$(duration_of lifeheap 1 0 1); lh_fill1=$(duration_of lifeheap 1 1 1)
  dh_fill0=$(duration_of dhat 1 0 1); dh_fill1=$(duration_of dhat 1 1 1)
  check_eq "clock: memset's own instructions are not counted (100 x 1 MiB adds nothing)" \
    "$lh_fill0" "$lh_fill1"
  # DHAT counts its own memset's loop (what lifeheap leaves out), and the
  # string functions of start-up and exit: lifeheap's duration is below.
  check "clock: DHAT counts its memset's loop, lifeheap's duration is below DHAT's" \
    test "$((dh_fill1 - dh_fill0))" -gt 1000000 -a "$lh_fill1" -le "$dh_fill1" \
    -a "$lh_100" -le "$dh_100"
else
  fail "clock: build" "gcc failed"
fi

[ -f "$out/quarter.json" ] && dhat_check quarter fill_quarter
[ -f "$out/table.json" ] && dhat_check table make_table
[ -f "$out/peak.json" ] && dhat_check peak early_block peak_big peak_small after_peak

summary
