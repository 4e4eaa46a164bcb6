# tests/cli/run_names.sh: `lifeheap run` reports the profile the tool wrote
# (sourced by run.sh). The tool expands --lifeheap-out-file (%p the pid, %n a
# sequence number, %q{VAR} an environment variable) and appends the expanded
# path to the run record `lifeheap run` passes; the CLI never expands the name
# itself. tests/reliability/progs/fork.c forks once and both processes exit
# normally, so every run writes two profiles: a %p name gives each process its
# own, and a name without %p gets ".<child pid>" before ".json" in the child
# (docs/reliability.md).


names_tool=$top/tool/vglib/lifeheap-amd64-linux
if [ ! -e "$names_tool" ]; then
  fail "run: names the tool expanded" "the tool is not built ($names_tool)"
else
  names_dir=$TESTS_OUT/cli-run-names
  rm -rf "$names_dir"
  mkdir -p "$names_dir"
  names_prog=$TESTS_BUILD/run_names_fork
  compile_c "$names_prog" "$top/tests/reliability/progs/fork.c"
  if [ "$lifeheap" = "$top/cli/lifeheap" ]; then names_lib=(env -u VALGRIND_LIB)
  else names_lib=(env VALGRIND_LIB="$top/tool/vglib"); fi

  # names_run NAME OUT: `lifeheap run --out OUT` in $names_dir, stderr to NAME.log.
  names_run() {
    (cd "$names_dir" && "${names_lib[@]}" LIFEHEAP_NAME=tagged "$lifeheap" run \
       --out "$2" -- "$names_prog") >/dev/null 2>"$names_dir/$1.log"
  }

  names_run n 'seq.%n.json'
  check_eq "run --out %n: exit status" 0 "$?"
  names_child=$(cd "$names_dir" && ls seq.* | sed -n 's/^seq\.1\.\([0-9]*\)\.json$/\1/p')
  check_eq "run --out %n: the files the tool wrote" "seq.1.$names_child.json seq.1.json" \
    "$(cd "$names_dir" && ls seq.* | tr '\n' ' ' | sed 's/ $//')"
  check_eq "run --out %n: both reported, the parent's first" \
    "seq.1.json seq.1.$names_child.json" \
    "$(sed -n 's/^lifeheap: profile written to //p' "$names_dir/n.log" | tr '\n' ' ' | sed 's/ $//')"
  if grep -q "no profile" "$names_dir/n.log"; then
    fail "run --out %n: no 'no profile' line" "$(grep "no profile" "$names_dir/n.log")"
  else pass "run --out %n: no 'no profile' line"; fi

  names_run q 'env.%q{LIFEHEAP_NAME}.json'
  check_eq "run --out %q{VAR}: the parent's file" "env.tagged.json" "$(cd "$names_dir" && ls env.* | grep -v '[0-9]')"
  expect_grep "run --out %q{VAR}: says where it is" "^lifeheap: profile written to env.tagged.json$" "$names_dir/q.log"

  names_run p 'pid.%p.json'
  names_parent=$(sed -n 's/^==\([0-9]*\)==.*/\1/p' "$names_dir/p.log" | head -1)
  names_child=$(cd "$names_dir" && ls pid.*.json | grep -v "^pid\.$names_parent\.json$" | sed 's/^pid\.\([0-9]*\)\.json$/\1/')
  check_eq "run --out %p: parent and child profiles" 2 "$(cd "$names_dir" && ls pid.*.json | wc -l)"
  check_eq "run --out %p: both reported, the parent's first" \
    "pid.$names_parent.json pid.$names_child.json" \
    "$(sed -n 's/^lifeheap: profile written to //p' "$names_dir/p.log" | tr '\n' ' ' | sed 's/ $//')"
  expect_grep "run --out %p: report the parent's" "^lifeheap: see it with: lifeheap report pid.$names_parent.json " "$names_dir/p.log"
  check_eq "run --out %p: the parent's pid is its run.pid" "$names_parent" \
    "$(jq -r .run.pid "$names_dir/pid.$names_parent.json")"

  names_run missing 'no-such-dir/x.%p.json'
  check_eq "run --out into a missing directory: valgrind's exit status" 1 "$?"
  expect_grep "run --out into a missing directory: no profile, named" \
    "^lifeheap: no profile at no-such-dir/x\.[0-9]*\.json (see valgrind's messages above)$" "$names_dir/missing.log"
fi
