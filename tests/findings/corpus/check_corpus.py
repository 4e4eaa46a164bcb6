#!/usr/bin/env python3
"""tests/findings/corpus/check_corpus.py: checks the corpus's profiles against
expect.txt and prints the recall / false-finding table.

  check_corpus.py MANIFEST PROFILE_DIR SCHEDULER... [--unbuilt PROGRAM=REASON]...

PROFILE_DIR/<scheduler>/<program>.json is the profile of one program run under
one scheduler (run.sh writes them). For every (program, scheduler,
expectation), in the manifest's order, one line:

  PASS corpus <program> [<scheduler>]: <expectation>
  FAIL corpus <program> [<scheduler>]: <expectation>: <why>
  KNOWN corpus <program> [<scheduler>]: <kind> on <function> (a known
        false finding): reported | not reported in this run

(a program run.sh could not build, --unbuilt, fails every expectation with
the reason: its toolchain is one scripts/setup.sh installs)

then, per finding kind and scheduler, the bad programs whose finding was
found on the right site over all bad programs of that kind (recall), and the
negative expectations that failed over all negative expectations of that kind
(false findings). Exit status 0 when every expectation held, 1 otherwise.

The manifest: one expectation per line, '#' starts a comment.

  PROGRAM finds  KIND FUNCTION   a finding of KIND whose site's name frame is
                                 FUNCTION (the function a user would fix)
  PROGRAM none   KINDS FUNCTION  no finding of any of KINDS (comma-separated)
                                 anywhere in the profile; FUNCTION must name
                                 at least one site, or the check proves nothing
                                 and fails
  PROGRAM not-on KINDS FUNCTION  no finding of KINDS on FUNCTION's sites (for
                                 bad programs that have another, real finding
                                 of the kind); FUNCTION must name a site
  PROGRAM known  KIND FUNCTION   lifeheap wrongly reports KIND on FUNCTION's
                                 sites: a known limit that README.md explains.
                                 A KNOWN line says whether it was reported;
                                 when it was, it counts as a false finding in
                                 the table, never as a failure. FUNCTION must
                                 name a site
  PROGRAM stdin  INPUT           (read by run.sh) the program reads INPUT

A verb may name one scheduler ("none@fair", "known@default"): the
expectation then holds under that scheduler only (a verdict Valgrind's
default scheduler cannot give, README.md says why).

How a FUNCTION matches a site: the site's name frame function (the profile's
frames[site.stack[site.name_frame]].function) is normalised, then FUNCTION
must equal it or be a suffix of it on '::' boundaries. Normalising removes
what the compiler adds around the name a user wrote:
  - C++ parameter lists and qualifiers: "Camera::capture(int) const" ->
    "Camera::capture";
  - generic and template arguments: "Pool<Job>::submit" -> "Pool::submit",
    "alloc::vec::Vec<T,A>::push" -> "alloc::vec::Vec::push";
  - qualified paths: "<conn::ConnState>::new" and
    "<conn::ConnState as Default>::default" -> "conn::ConnState::new",
    "conn::ConnState::default";
  - closures: trailing "::{{closure}}" segments (a closure's code is its
    function's code): "loader::parse_row::{{closure}}" -> "loader::parse_row";
  - gcc's clone suffixes: "parse.isra.0", "parse [clone .cold]" -> "parse".
So "ConnState::new" matches "corpus_mqtt::ConnState::new" and
"<corpus_mqtt::ConnState>::new" but not "ConnState::new_table"; "parse_row"
matches "csv::parse_row::{{closure}}" but not "reparse_row".
A FUNCTION of the form "lib:NAME" instead selects the sites whose stack has
a frame in an object whose file name contains NAME (libstdc++'s emergency
exception pool is allocated before main, with no function of the program on
its stack).

SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib'))
import lifeheap_profile  # noqa: E402  (reads a profile as the readers do)

KINDS = ["missing-backpressure", "leak", "unbounded-growth", "oversized-preallocation",
         "unused-capacity", "short-lived-churn", "realloc-growth"]


def strip_generics(name):
    """Removes balanced <...> argument lists that follow a name and unwraps
    qualified paths (<T as Trait>::f, <T>::f)."""
    out = []
    i, n = 0, len(name)
    while i < n:
        c = name[i]
        if c == "<":
            # find the matching '>'
            depth, j = 0, i
            while j < n:
                if name[j] == "<":
                    depth += 1
                elif name[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            inner = name[i + 1:j]
            before = "".join(out)
            if before == "" or before.endswith("::") or before.endswith(" "):
                # a qualified path: keep the type, without the trait
                head = inner.split(" as ", 1)[0]
                out.append(strip_generics(head))
            # else: generic arguments after a name: dropped
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def normalise(function):
    if function is None:
        return None
    name = function.replace("(anonymous namespace)", "{anonymous}")
    name = re.sub(r" \[clone [^\]]*\]", "", name)
    name = strip_generics(name)
    cut = name.find("(")          # C++ parameter list and what follows it
    if cut > 0:
        name = name[:cut]
    name = re.sub(r"\.(isra|part|constprop|cold|lto_priv)(\.\d+)*", "", name)
    segments = name.strip().split("::")
    while len(segments) > 1 and segments[-1] in ("{{closure}}", "{closure#0}"):
        segments.pop()
    return "::".join(segments)


def matches(pattern, function):
    name = normalise(function)
    if name is None:
        return False
    want = pattern.split("::")
    have = name.split("::")
    return len(have) >= len(want) and have[len(have) - len(want):] == want


def name_function(profile, site):
    if not site["stack"]:
        return None
    return profile["frames"][site["stack"][site["name_frame"]]]["function"]


def sites_selected(profile, selector):
    if selector.startswith("lib:"):
        lib = selector[4:]
        return [s for s in profile["sites"]
                if any(lib in os.path.basename(profile["frames"][f]["object"] or "")
                       for f in s["stack"])]
    return [s for s in profile["sites"] if matches(selector, name_function(profile, s))]


def describe(profile, finding):
    site = profile["sites"][finding["site"]]
    return f"{finding['kind']} on site {site['id']} ({name_function(profile, site)})"


def parse_manifest(path):
    expectations = []
    for number, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        program, verb = line[0], line[1] if len(line) > 1 else ""
        if verb == "stdin":
            continue
        verb, _, scheduler = verb.partition("@")
        if verb not in ("finds", "none", "not-on", "known") or len(line) != 4:
            raise SystemExit(f"{path}:{number}: expected 'PROGRAM finds|none|not-on|known[@SCHEDULER] KIND FUNCTION'")
        if scheduler not in ("", "default", "fair"):
            raise SystemExit(f"{path}:{number}: unknown scheduler {scheduler!r}: default or fair")
        kinds = line[2].split(",")
        for kind in kinds:
            if kind not in KINDS:
                raise SystemExit(f"{path}:{number}: unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
        if verb in ("finds", "known") and len(kinds) != 1:
            raise SystemExit(f"{path}:{number}: '{verb}' takes one kind")
        for kind in kinds:
            expectations.append((program, verb, scheduler or None, kind, line[3]))
    return expectations


def check(profile, verb, kind, function):
    """Returns None when the expectation holds, else why not."""
    sites = sites_selected(profile, function)
    of_kind = [f for f in profile["findings"] if f["kind"] == kind]
    if verb == "finds":
        if not sites:
            return f"no site is named {function}"
        ids = {s["id"] for s in sites}
        if any(f["site"] in ids for f in of_kind):
            return None
        others = "; ".join(describe(profile, f) for f in profile["findings"]) or "none"
        return f"no {kind} on {function}'s {len(sites)} site(s); findings: {others}"
    if not sites:
        return f"no site is named {function}: the check would prove nothing"
    if verb in ("not-on", "known"):
        ids = {s["id"] for s in sites}
        of_kind = [f for f in of_kind if f["site"] in ids]
    if of_kind:
        return "; ".join(f"{describe(profile, f)}: {f['summary']}" for f in of_kind)
    return None


def main(argv):
    args, unbuilt = [], {}
    i = 0
    while i < len(argv):
        if argv[i] == "--unbuilt":
            program, reason = argv[i + 1].split("=", 1)
            unbuilt[program] = reason
            i += 2
        else:
            args.append(argv[i])
            i += 1
    manifest, profile_dir, schedulers = args[0], args[1], args[2:]
    expectations = parse_manifest(manifest)
    # tallies[scheduler][kind] = [detected, bad, false, negative]
    tallies = {s: {k: [0, 0, 0, 0] for k in KINDS} for s in schedulers}
    failed = 0
    known = {s: 0 for s in schedulers}     # known false findings reported
    programs = []
    for program, *_ in expectations:
        if program not in programs:
            programs.append(program)
    for program in programs:
        for scheduler in schedulers:
            profile = None
            error = None
            if program in unbuilt:
                error = f"not built: {unbuilt[program]}"
            else:
                path = os.path.join(profile_dir, scheduler, program + ".json")
                try:
                    profile = lifeheap_profile.load(path)
                except (OSError, ValueError) as e:
                    error = f"no profile ({e.__class__.__name__}: {path}; see {path}.log)"
            for prog, verb, only, kind, function in expectations:
                if prog != program or only not in (None, scheduler):
                    continue
                if verb == "known":
                    head = f"corpus {program} [{scheduler}]: {kind} on {function} (a known false finding)"
                    if error:
                        print(f"FAIL {head}: {error}")
                        failed += 1
                        continue
                    if not sites_selected(profile, function):
                        print(f"FAIL {head}: no site is named {function}: the line would prove nothing")
                        failed += 1
                        continue
                    reported = check(profile, verb, kind, function) is not None
                    tallies[scheduler][kind][3] += 1
                    tallies[scheduler][kind][2] += reported
                    known[scheduler] += reported
                    print(f"KNOWN {head}: " + ("reported" if reported else "not reported in this run"))
                    continue
                what = (f"{kind} on {function}" if verb == "finds"
                        else f"no {kind}" + (" anywhere" if verb == "none" else f" on {function}")
                        + (f" ({function} has a site)" if verb == "none" else ""))
                head = f"corpus {program} [{scheduler}]: {what}"
                why = error or check(profile, verb, kind, function)
                tally = tallies[scheduler][kind]
                if verb == "finds":
                    tally[1] += 1
                    tally[0] += why is None
                else:
                    tally[3] += 1
                    tally[2] += why is not None
                if why is None:
                    print(f"PASS {head}")
                else:
                    print(f"FAIL {head}: {why}")
                    failed += 1
    # The table.
    print()
    print("corpus: recall (bad programs whose finding is on the right site) and false")
    print("findings (negative expectations broken, the known ones included), per kind")
    print("and scheduler")
    header = f"  {'kind':<24}" + "".join(f"{s + ': recall':>22}{'false':>10}" for s in schedulers)
    print(header)
    totals = {s: [0, 0, 0, 0] for s in schedulers}
    for kind in KINDS:
        row = f"  {kind:<24}"
        for s in schedulers:
            d, b, fa, n = tallies[s][kind]
            for j, v in enumerate((d, b, fa, n)):
                totals[s][j] += v
            pct = f" ({100 * d // b}%)" if b else ""
            row += f"{f'{d}/{b}{pct}':>22}{f'{fa}/{n}':>10}"
        print(row)
    row = f"  {'all kinds':<24}"
    for s in schedulers:
        d, b, fa, n = totals[s]
        pct = f" ({100 * d // b}%)" if b else ""
        row += f"{f'{d}/{b}{pct}':>22}{f'{fa}/{n}':>10}"
    print(row)
    print("  known false findings reported (counted above, not failures): "
          + ", ".join(f"{s} {known[s]}" for s in schedulers))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
