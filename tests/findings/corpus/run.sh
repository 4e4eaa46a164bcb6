#!/usr/bin/env bash
# tests/findings/corpus/run.sh: the findings corpus (README.md here says what
# each program is and why its verdict is right).
#
# 1. Builds every program named in expect.txt, as their authors would:
#    C with gcc -O0 -g -fno-builtin (every malloc and free stays a call),
#    C++ with g++ -O2 -g, Rust with rustc -O -C debuginfo=1, and the
#    crossbeam-channel programs with cargo (release, debug = 1) offline
#    against Debian's librust-crossbeam-channel-dev (cargo/.cargo/config.toml
#    replaces crates.io with /usr/share/cargo/registry). A program whose
#    toolchain is missing fails (scripts/setup.sh installs them all).
# 2. Runs each under lifeheap twice, with Valgrind's default scheduler and
#    with --fair-sched=yes, two runs at a time.
# 3. check_corpus.py checks expect.txt against the profiles in the
#    manifest's order (one PASS/FAIL/SKIP line per program, scheduler and
#    expectation) and prints the recall / false-finding table per kind.
#
# Exit status 0 when every expectation held. Profiles and logs go to
# tests/artifacts/corpus/<scheduler>/<program>.json(.log).
#   CORPUS_ONLY="prog1 prog2" tests/findings/corpus/run.sh   runs a subset
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
bin="$top/tests/bin/corpus"
out="$top/tests/artifacts/corpus"
manifest="$here/expect.txt"
schedulers="default fair"
mkdir -p "$bin" "$out/default" "$out/fair"

programs=$(sed 's/#.*//' "$manifest" | awk 'NF { if (!seen[$1]++) print $1 }')
if [ -n "${CORPUS_ONLY:-}" ]; then
  programs=$(for p in $programs; do case " $CORPUS_ONLY " in *" $p "*) echo "$p" ;; esac; done)
fi

if ! ls "$top"/tool/vglib/lifeheap-* >/dev/null 2>&1; then
  echo "FAIL corpus: the tool is not built in $top (run scripts/setup.sh)"
  exit 1
fi

# --- Build ------------------------------------------------------------------
unbuilt=()        # --unbuilt PROGRAM=REASON for check_corpus.py
built=()
have() { command -v "$1" >/dev/null 2>&1; }

# The crossbeam programs: one cargo package, built once when any is wanted.
cargo_state=unneeded
build_cargo() {
  [ "$cargo_state" = unneeded ] || return 0
  cargo_state=failed
  if ! have cargo; then cargo_state="cargo is not installed"; return; fi
  if [ ! -d /usr/share/cargo/registry/crossbeam-channel-0.5.6 ] &&
     ! ls -d /usr/share/cargo/registry/crossbeam-channel-0.5.* >/dev/null 2>&1; then
    cargo_state="librust-crossbeam-channel-dev is not installed"; return
  fi
  if (cd "$here/cargo" && CARGO_TARGET_DIR="$bin/cargo" \
        cargo build --release --offline --quiet) >"$bin/cargo.log" 2>&1; then
    cargo_state=built
  else
    echo "corpus: cargo failed: $(tail -5 "$bin/cargo.log" | tr '\n' ' ')"
  fi
}

for p in $programs; do
  exe="$bin/$p"
  if [ -f "$here/$p.c" ]; then
    src="$here/$p.c"
    if ! have gcc; then unbuilt+=(--unbuilt "$p=gcc is not installed"); continue; fi
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
      gcc -O0 -g -fno-builtin -pthread -Wall -Wextra -o "$exe" "$src" -pthread \
        >"$exe.build.log" 2>&1 || { echo "corpus: gcc failed on $p.c, see $exe.build.log"; continue; }
    fi
  elif [ -f "$here/$p.cc" ]; then
    src="$here/$p.cc"
    if ! have g++; then unbuilt+=(--unbuilt "$p=g++ is not installed"); continue; fi
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
      g++ -O2 -g -pthread -Wall -Wextra -o "$exe" "$src" -pthread \
        >"$exe.build.log" 2>&1 || { echo "corpus: g++ failed on $p.cc, see $exe.build.log"; continue; }
    fi
  elif [ -f "$here/$p.rs" ]; then
    src="$here/$p.rs"
    if ! have rustc; then unbuilt+=(--unbuilt "$p=rustc is not installed"); continue; fi
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
      rustc --edition 2021 -O -C debuginfo=1 -o "$exe" "$src" \
        >"$exe.build.log" 2>&1 || { echo "corpus: rustc failed on $p.rs, see $exe.build.log"; continue; }
    fi
  elif [ -f "$here/cargo/src/bin/$p.rs" ]; then
    build_cargo
    case $cargo_state in
      built) ln -sf "cargo/release/$p" "$exe" ;;
      failed) continue ;;
      *) unbuilt+=(--unbuilt "$p=$cargo_state"); continue ;;
    esac
  else
    echo "corpus: expect.txt names $p but there is no $p.c, $p.cc, $p.rs or cargo/src/bin/$p.rs"
    continue
  fi
  built+=("$p")
done

# Inputs: "PROGRAM stdin NAME" in the manifest. csv_sample is the CSV that
# examples/csv_sample.py writes (12,427 lines, the same bytes everywhere).
csv="$bin/csv_sample.csv"
if [ ! -s "$csv" ] || [ "$top/examples/csv_sample.py" -nt "$csv" ]; then
  python3 "$top/examples/csv_sample.py" "$csv.tmp" && mv "$csv.tmp" "$csv"
fi
stdin_of() {
  local name
  name=$(sed 's/#.*//' "$manifest" | awk -v p="$1" '$1 == p && $2 == "stdin" { print $3 }')
  case $name in
    "") echo /dev/null ;;
    csv_sample) echo "$csv" ;;
    *) echo "/nonexistent-input-$name" ;;
  esac
}

# --- Run: every built program under both schedulers, two at a time ---------
jobs_file="$bin/jobs"
: >"$jobs_file"
for p in "${built[@]}"; do
  for s in $schedulers; do
    echo "$s $p $(stdin_of "$p")" >>"$jobs_file"
    rm -f "$out/$s/$p.json"
  done
done

run_one() {
  local scheduler=$1 program=$2 input=$3 options=()
  [ "$scheduler" = fair ] && options=(--fair-sched=yes)
  VALGRIND_LIB="$CORPUS_TOP/tool/vglib" timeout 300 valgrind --tool=lifeheap \
    --lifeheap-out-file="$CORPUS_OUT/$scheduler/$program.json" "${options[@]}" \
    "$CORPUS_BIN/$program" <"$input" >"$CORPUS_OUT/$scheduler/$program.stdout" \
    2>"$CORPUS_OUT/$scheduler/$program.json.log" ||
    echo "corpus: $program [$scheduler] exited with status $?, see $CORPUS_OUT/$scheduler/$program.json.log"
}
export -f run_one
export CORPUS_TOP="$top" CORPUS_OUT="$out" CORPUS_BIN="$bin"
xargs -P 2 -L 1 bash -c 'run_one "$@"' _ <"$jobs_file" | sort

# --- Check ------------------------------------------------------------------
if [ -n "${CORPUS_ONLY:-}" ]; then
  grep -E "^($(echo $programs | tr ' ' '|'))[[:space:]]" "$manifest" >"$bin/expect.subset"
  manifest="$bin/expect.subset"
fi
python3 "$here/check_corpus.py" "$manifest" "$out" $schedulers "${unbuilt[@]}"
