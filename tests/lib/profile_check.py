#!/usr/bin/env python3
"""tests/lib/profile_check.py: the one assertion helper for lifeheap profiles.

Every suite checks profiles through this module: from the shell with
assertions written as words, or from a suite's own Python (tests/tool/check.py)
by importing it.  A selector that matches nothing is a failure, never a
vacuous pass: a negative check ("no finding on f", "no site of f") first
proves that what it is about exists.

Usage (prints "PASS NAME: ASSERTION" or "FAIL NAME: ASSERTION: why" per
assertion; tests/lib.sh's feed_checks counts the lines; the exit status is
0 once the lines are printed, 2 for a usage error, and a crash, 1, is a
failure of its own):

  profile_check.py NAME PROFILE ASSERTION...
  profile_check.py --one NAME PROFILE ASSERTION...
        all the assertions are one test: one PASS or FAIL line "NAME"
        (the FAIL gives every assertion that did not hold)
  profile_check.py --every NAME FILE...
        valid and contract:access on every FILE that is a lifeheap profile
        (DHAT's files and damaged copies are passed over), as one test

Sites are chosen by a selector SEL, one or more KEY=VALUE joined by ','
(all must hold):
  name=FUNC    the function of the site's name frame (frames[stack[name_frame]])
  top=FUNC     the function of the innermost frame (the allocator's caller)
  frame=FUNC   the function of any frame of the stack
  label=TEXT   the site's label, exactly
  id=N         the site with id N

Assertions:
  valid                     PROFILE validates against
                            docs/lifeheap-profile.schema.json
  contract:tables           stack and name_frame indices inside the tables,
                            peak/at_exit/totals the sums over the sites, no
                            frame inside lifeheap's malloc replacement, the
                            timeline's peak point the peak
  contract:timeline         the timeline's shape (see timeline_errors)
  contract:access           the access relations (see access_errors)
  contract:evidence         findings' figures that are site fields equal
                            them (see evidence_errors)
  PATH OP VALUE             a path into the document (run.exit.code,
                            sites.0.total_bytes, sites.#: a length,
                            access.map.reads[3]); OP is = != >= <= > <;
                            VALUE is JSON (3, 0.5, true, null, "x", [1,2])
                            or a bare string; sum:N (a list summing to N)
                            and ones:A-B (1 at A..B-1, 0 elsewhere) too
  site[SEL]                 SEL matches exactly one site
  site[SEL].PATH OP VALUE   a field of the one site SEL matches
  count[SEL] OP N           the number of sites SEL matches (at least one)
  nosite[SEL]@PROOF         no site matches SEL here, and it matches one in
                            the profile PROOF, or (for name/top/frame) the
                            function is a symbol of the executable PROOF
  finding[KIND@SEL]         exactly one finding of KIND on a site SEL
                            matches; its summary names the site's label;
                            a valid severity
  finding[KIND@SEL].PATH OP VALUE   a field of that finding (evidence.blocks,
                            severity, site.total_bytes: the finding's site)
  nofinding[KIND@SEL]       SEL matches at least one site, and none of them
                            has a finding of KIND ('any': of any kind)
  nofinding[KIND]           no finding of KIND anywhere (the profile must
                            have a site with bytes, or nothing was checked)
  findings OP N             the number of findings (findings.# is the same)
  marker=LABEL              the timeline has a marker with this label
  .PATH OP VALUE            continues the last site[SEL] or finding[KIND@SEL]
                            word: "finding[leak@name=f]" .severity=high

SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA = os.path.join(TOP, "docs", "lifeheap-profile.schema.json")


class CheckError(Exception):
    """An assertion that cannot hold: the reason is the message."""


def load(path):
    with open(path) as f:
        return json.load(f)


# ------------------------------------------------------------------ results

class Results:
    """Collects (name, ok, why) and prints the suite's PASS/FAIL lines."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.items = []

    def check(self, name, ok, why=""):
        self.items.append((name, bool(ok), why))
        return bool(ok)

    def eq(self, name, expected, actual):
        return self.check(name, expected == actual, f"expected {expected!r}, got {actual!r}")

    def print(self):
        for name, ok, why in self.items:
            print(f"PASS {self.prefix}{name}" if ok else f"FAIL {self.prefix}{name}: {why}")
        if not self.items:
            print(f"FAIL {self.prefix}no assertion ran: nothing was checked")

    def failed(self):
        return not self.items or any(not ok for _, ok, _ in self.items)


# ---------------------------------------------------------------- selectors

def frame_function(doc, index):
    return doc["frames"][index]["function"]


def name_function(doc, site):
    """The function of the site's name frame (the one a user would fix)."""
    if not site["stack"]:
        return None
    return frame_function(doc, site["stack"][site["name_frame"]])


SELECTOR_KEYS = {
    "name": lambda doc, s, v: name_function(doc, s) == v,
    "top": lambda doc, s, v: bool(s["stack"]) and frame_function(doc, s["stack"][0]) == v,
    "frame": lambda doc, s, v: any(frame_function(doc, i) == v for i in s["stack"]),
    "label": lambda doc, s, v: s.get("label") == v,
    "id": lambda doc, s, v: s["id"] == int(v),
}


def parse_selector(text):
    parts = []
    for part in text.split(","):
        key, eq, value = part.partition("=")
        if not eq or key not in SELECTOR_KEYS:
            raise CheckError(f"bad selector {text!r} (keys: {', '.join(SELECTOR_KEYS)})")
        parts.append((key, value))
    return parts


def select_sites(doc, selector):
    """Every site the selector (text or parsed) matches, in profile order."""
    parts = parse_selector(selector) if isinstance(selector, str) else selector
    return [s for s in doc["sites"]
            if all(SELECTOR_KEYS[k](doc, s, v) for k, v in parts)]


def one_site(doc, selector):
    found = select_sites(doc, selector)
    if len(found) != 1:
        raise CheckError(f"{len(found)} sites match [{selector}] (want exactly 1)")
    return found[0]


def some_sites(doc, selector):
    found = select_sites(doc, selector)
    if not found:
        raise CheckError(f"no site matches [{selector}]: nothing to check")
    return found


def function_is_symbol(executable, function):
    """True when FUNCTION is a defined symbol of EXECUTABLE (demangled,
    without a Rust hash or C++ parameters)."""
    run = subprocess.run(["nm", "-C", "--defined-only", executable],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise CheckError(f"nm {executable} failed: {run.stderr.strip()[:200]}")
    for line in run.stdout.splitlines():
        name = line.split(" ", 2)[-1]
        name = re.sub(r"::h[0-9a-f]{16}$", "", name)
        name = re.sub(r"\(.*\)( const)?$", "", name)
        if name == function:
            return True
    return False


# -------------------------------------------------------------- paths, values

PATH_PART = re.compile(r"[^.\[\]]+|\[\d+\]")


def walk(value, path):
    """A dotted path (a.b.0.c, a.b[0].c); '#' is the length of what is
    before it."""
    for part in PATH_PART.findall(path):
        if part == "#":
            return len(value)
        if part.startswith("["):
            part = part[1:-1]
        try:
            value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, TypeError, ValueError):
            raise CheckError(f"no {path} here")
    return value


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


OPS = {
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}
COMPARISON = re.compile(r"(.+?)\s*(!=|>=|<=|=|>|<)\s*(.*)", re.S)
BARE_COMPARISON = re.compile(r"\s*(!=|>=|<=|=|>|<)\s*(.*)", re.S)


def compare(actual, op, wanted_text):
    """None when ACTUAL OP WANTED holds, else why not."""
    if wanted_text.startswith("sum:"):
        if not isinstance(actual, list):
            return f"got {actual!r}, not a list"
        total = sum(actual)
        return None if OPS[op](total, int(wanted_text[4:])) else f"sums to {total}"
    if wanted_text.startswith("ones:"):
        lo, hi = (int(x) for x in wanted_text[5:].split("-"))
        if not isinstance(actual, list):
            return f"got {actual!r}, not a list"
        ok = all(v == (1 if lo <= i < hi else 0) for i, v in enumerate(actual))
        return None if ok else f"got {actual!r}"
    wanted = parse_value(wanted_text)
    try:
        ok = OPS[op](actual, wanted)
    except TypeError:
        return f"got {actual!r}, which cannot be compared with {wanted!r}"
    return None if ok else f"got {actual!r}"


# ---------------------------------------------------------------- contracts

def schema_errors(doc):
    """Schema violations (python3-jsonschema, installed by scripts/setup.sh:
    without it this raises ImportError, a failure, never a pass)."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(load(SCHEMA))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return []
    e = errors[0]
    where = "/".join(str(x) for x in e.absolute_path)
    return [f"{len(errors)} schema errors, first at /{where}: {e.message[:200]}"]


def index_errors(doc):
    """Stack and name_frame indices stay inside the tables."""
    n_frames = len(doc["frames"])
    bad = [s["id"] for s in doc["sites"]
           if any(i >= n_frames for i in s["stack"])
           or (s["stack"] and s["name_frame"] >= len(s["stack"]))]
    return [f"sites {bad}: a stack or name_frame index outside the tables"] if bad else []


def sums_errors(doc):
    """peak, at_exit and totals are the sums over the sites."""
    errors = []
    sums = {
        "peak.bytes": (doc["peak"]["bytes"], "bytes_at_peak"),
        "peak.blocks": (doc["peak"]["blocks"], "blocks_at_peak"),
        "at_exit.bytes": (doc["at_exit"]["bytes"], "bytes_at_exit"),
        "at_exit.blocks": (doc["at_exit"]["blocks"], "blocks_at_exit"),
        "totals.blocks": (doc["totals"]["blocks"], "total_blocks"),
        "totals.bytes": (doc["totals"]["bytes"], "total_bytes"),
        "totals.frees": (doc["totals"]["frees"], "freed_blocks"),
        "totals.reallocs": (doc["totals"]["reallocs"], "reallocs"),
    }
    for key, (whole, field) in sums.items():
        parts = sum(s[field] for s in doc["sites"])
        if whole != parts:
            errors.append(f"{key} {whole} != sum of sites' {field} {parts}")
    return errors


def preload_frame_errors(doc):
    """No frame lies inside lifeheap's malloc replacement."""
    inside = [f["function"] for f in doc["frames"]
              if "vgpreload_lifeheap" in (f["object"] or "")]
    return [f"frames inside vgpreload_lifeheap: {inside}"] if inside else []


def peak_point_errors(doc):
    """The timeline's peak point is the peak."""
    t = doc["timeline"]
    k = t["peak_index"]
    if not (0 <= k < len(t["times"]) and t["times"][k] == doc["peak"]["time"]
            and t["live_bytes"][k] == doc["peak"]["bytes"]):
        return [f"timeline peak point {k} is not the peak"]
    return []


def tables_errors(doc):
    """What the schema cannot say: references stay inside the tables, the
    global figures are the sums over the sites, no frame in the malloc
    replacement, the timeline's peak point is the peak."""
    return (index_errors(doc) + sums_errors(doc) + preload_frame_errors(doc)
            + peak_point_errors(doc))


def timeline_errors(doc):
    """The timeline contract: at most timeline_points points, strictly
    increasing times ending at the run's duration, the peak point is the
    peak, the last point is at_exit; a site has a timeline and a growth
    object exactly when it is significant (max_bytes at least the fraction
    of the peak), its series agrees with its own figures, and the
    significant sites never hold more than the whole program."""
    errors = []
    t = doc["timeline"]
    times, live, blocks = t["times"], t["live_bytes"], t["live_blocks"]
    n = len(times)
    bound = doc["run"]["options"]["timeline_points"]
    if not (n == len(live) == len(blocks)):
        errors.append(f"array lengths differ: {n} {len(live)} {len(blocks)}")
    if n == 0 or n > bound:
        errors.append(f"{n} points, bound {bound}")
    if any(b <= a for a, b in zip(times, times[1:])):
        errors.append("times are not strictly increasing")
    if times and times[-1] != doc["run"]["duration"]:
        errors.append(f"last time {times[-1]} != duration {doc['run']['duration']}")
    k = t["peak_index"]
    peak = doc["peak"]
    if not (0 <= k < n and times[k] == peak["time"] and live[k] == peak["bytes"]
            and blocks[k] == peak["blocks"]):
        got = (times[k], live[k], blocks[k]) if 0 <= k < n else None
        errors.append(f"peak point {k} = {got}, peak = {peak}")
    if live and (live[-1], blocks[-1]) != (doc["at_exit"]["bytes"], doc["at_exit"]["blocks"]):
        errors.append(f"last point {live[-1]}/{blocks[-1]} != at_exit {doc['at_exit']}")
    frac = t["significant_site_fraction"]
    sums = [0] * n
    for s in doc["sites"]:
        significant = s["max_bytes"] > 0 and s["max_bytes"] >= frac * peak["bytes"]
        if significant != ("timeline" in s) or significant != (s["growth"] is not None):
            errors.append(f"site {s['id']}: significance and timeline/growth disagree")
            continue
        if not significant:
            continue
        series = s["timeline"]["live_bytes"]
        if len(series) != n:
            errors.append(f"site {s['id']}: {len(series)} values for {n} points")
            continue
        if 0 <= k < n and series[k] != s["bytes_at_peak"]:
            errors.append(f"site {s['id']}: {series[k]} at the peak point, "
                          f"bytes_at_peak {s['bytes_at_peak']}")
        if series[-1] != s["bytes_at_exit"]:
            errors.append(f"site {s['id']}: last value {series[-1]} != bytes_at_exit")
        if max(series) > s["max_bytes"]:
            errors.append(f"site {s['id']}: a value above max_bytes")
        g = s["growth"]
        if not (0 <= g["rising_fraction"] <= 1):
            errors.append(f"site {s['id']}: rising_fraction {g['rising_fraction']}")
        for i, v in enumerate(series):
            sums[i] += v
    for i in range(n):
        if sums[i] > live[i]:
            errors.append(f"point {i}: significant sites hold {sums[i]} > live {live[i]}")
            break
    return errors


def access_errors(doc, allow_empty=False):
    """Relations of every site's access figures that hold whatever the
    program did: the access map sums to bytes_read and bytes_written;
    never_accessed <= never_read, never_written; written but never read <=
    measured - never_written; unused capacity <= never written; first-access
    delay + idle before free <= the lifetimes' sum; at-peak figures <=
    at_peak.bytes = bytes_at_peak, so the sites' at_peak.bytes sum to
    peak.bytes (each block counted with its size at the peak, however it was
    resized or freed afterwards); totals equal the sums over the sites.  A
    profile without a site fails (the relations would hold vacuously) unless
    ALLOW_EMPTY (the sweep over every profile a suite wrote, some of which
    are of programs that allocate nothing)."""
    errors = []
    if not doc["sites"] and not allow_empty:
        return ["no site: the relations would hold vacuously"]
    total_read = total_written = at_peak_sum = 0
    for site in doc["sites"]:
        a = site["access"]
        where = f"site {site['id']}"
        total_read += a["bytes_read"]
        total_written += a["bytes_written"]
        m = a["map"]
        if m is None:
            if a["bytes_read"] or a["bytes_written"]:
                errors.append(f"{where}: map null but bytes accessed")
        else:
            if sum(m["reads"]) != a["bytes_read"] or sum(m["writes"]) != a["bytes_written"]:
                errors.append(f"{where}: map sums {sum(m['reads'])}/{sum(m['writes'])} "
                              f"!= {a['bytes_read']}/{a['bytes_written']}")
            n = m["block_size"] if m["kind"] == "bytes" else m["buckets"]
            if len(m["reads"]) != n or len(m["writes"]) != n:
                errors.append(f"{where}: map arrays of the wrong length")
        if a["never_accessed_bytes"] > min(a["never_read_bytes"], a["never_written_bytes"]):
            errors.append(f"{where}: never accessed > never read or never written")
        if a["written_never_read_bytes"] > a["measured_bytes"] - a["never_written_bytes"]:
            errors.append(f"{where}: written-never-read > written bytes")
        if a["unused_capacity_bytes"] > a["never_written_bytes"]:
            errors.append(f"{where}: unused capacity > never written")
        # both are parts of the blocks' lifetimes, which do not overlap
        if a["first_access_delay"] + a["idle_before_free"] > site["lifetime"]["sum"]:
            errors.append(f"{where}: first_access_delay + idle_before_free > lifetime sum")
        p = a["at_peak"]
        for k in ("never_read_bytes", "never_written_bytes", "never_accessed_bytes",
                  "unused_capacity_bytes"):
            if p[k] > p["bytes"]:
                errors.append(f"{where}: at_peak.{k} > at_peak.bytes")
        if p["bytes"] != site["bytes_at_peak"]:
            errors.append(f"{where}: at_peak.bytes {p['bytes']} != bytes_at_peak "
                          f"{site['bytes_at_peak']}")
        at_peak_sum += p["bytes"]
    if at_peak_sum != doc["peak"]["bytes"]:
        errors.append(f"sum of the sites' at_peak.bytes {at_peak_sum} != peak.bytes "
                      f"{doc['peak']['bytes']}")
    t = doc["totals"]
    if (t["bytes_read"], t["bytes_written"]) != (total_read, total_written):
        errors.append(f"totals {t['bytes_read']}/{t['bytes_written']} != sums over sites "
                      f"{total_read}/{total_written}")
    return errors


LABELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "evidence-labels.json")


def evidence_errors(doc):
    """Each finding's evidence figure whose key docs/evidence-labels.json maps
    to a site field (site_field) equals that field of the finding's site
    (fractions to the profile's four decimals): what lets a diff show the
    figure for the other run's site, which has no finding. A profile whose
    findings have no such figure fails: nothing was checked."""
    fields = {k: e["site_field"] for k, e in load(LABELS)["evidence"].items() if "site_field" in e}
    errors, checked = [], 0
    for f in doc.get("findings", []):
        site = doc["sites"][f["site"]]
        for key, value in f["evidence"].items():
            if key not in fields:
                continue
            actual = site
            for part in fields[key].split("."):
                actual = actual.get(part) if isinstance(actual, dict) else None
            checked += 1
            if actual is None or abs(actual - value) > 1e-4 * max(1.0, abs(value)):
                errors.append(f"{f['kind']} on site {f['site']}: evidence {key} {value} != {fields[key]} {actual}")
    if checked == 0:
        errors.append("no finding with a figure that is a site field: nothing checked")
    return errors


CONTRACTS = {"tables": tables_errors, "timeline": timeline_errors, "access": access_errors,
             "evidence": evidence_errors}


# --------------------------------------------------------------- assertions

BRACKETED = re.compile(r"(site|count|nosite|finding|nofinding)\[([^\]]*)\](.*)", re.S)
SEVERITIES = ("high", "medium", "low")


def findings_on(doc, kind, selector):
    """Findings of KIND ('any' or None: all kinds) on the sites SEL matches
    (every site when SEL is None)."""
    ids = None if selector is None else {s["id"] for s in some_sites(doc, selector)}
    return [f for f in doc["findings"]
            if (kind in (None, "any") or f["kind"] == kind)
            and (ids is None or f["site"] in ids)]


def one_finding(doc, kind, selector):
    found = findings_on(doc, kind, selector)
    if len(found) != 1:
        have = [(f["kind"], name_function(doc, doc["sites"][f["site"]])) for f in doc["findings"]]
        raise CheckError(f"{len(found)} {kind} findings on [{selector}] (want 1); "
                         f"findings: {have}")
    f = dict(found[0])
    f["site"] = doc["sites"][f["site"]]
    return f


def finding_shape_errors(finding, selector):
    """The sentence names the site by its label (the text every reader
    shows), the severity is one of three."""
    errors = []
    site = finding["site"]
    shown = site.get("label") or name_function_of_finding(site, selector)
    if shown and shown not in finding["summary"]:
        errors.append(f"summary does not name {shown}: {finding['summary']!r}")
    if finding["severity"] not in SEVERITIES:
        errors.append(f"severity {finding['severity']!r}")
    return errors


def name_function_of_finding(site, selector):
    """Profiles without labels name the site by the selected function."""
    for key, value in parse_selector(selector):
        if key in ("name", "top", "frame"):
            return value
    return None


def split_kind(text):
    kind, at, selector = text.partition("@")
    return kind, (selector if at else None)


def evaluate(doc, assertion):
    """None when ASSERTION holds on DOC, else why not (a CheckError raised
    anywhere inside is the reason)."""
    try:
        return _evaluate(doc, assertion)
    except CheckError as e:
        return str(e)


def _evaluate(doc, assertion):
    if assertion == "valid":
        errors = schema_errors(doc)
        return "; ".join(errors) or None
    if assertion.startswith("contract:"):
        name = assertion[len("contract:"):]
        if name not in CONTRACTS:
            raise CheckError(f"no contract {name!r} (have {', '.join(CONTRACTS)})")
        errors = CONTRACTS[name](doc)
        return "; ".join(errors[:8]) or None
    if assertion.startswith("marker="):
        labels = [m["label"] for m in doc["timeline"]["markers"]]
        return None if assertion[len("marker="):] in labels else f"markers are {labels}"
    m = BRACKETED.fullmatch(assertion)
    if m:
        return _evaluate_bracketed(doc, m.group(1), m.group(2), m.group(3))
    if assertion.startswith("findings") and not assertion.startswith("findings."):
        assertion = "findings.#" + assertion[len("findings"):]
    return _compare_path(doc, assertion)


def _compare_path(target, text):
    m = COMPARISON.fullmatch(text)
    if not m:
        raise CheckError("cannot parse the assertion (want PATH OP VALUE)")
    path, op, wanted = m.groups()
    return compare(walk(target, path), op, wanted)


def _evaluate_bracketed(doc, form, inside, rest):
    if form == "site":
        site = one_site(doc, inside)
        if not rest:
            return None
        if not rest.startswith("."):
            raise CheckError("want site[SEL].PATH OP VALUE")
        return _compare_path(site, rest[1:])
    if form == "count":
        n = len(some_sites(doc, inside))
        m = BARE_COMPARISON.fullmatch(rest)
        if not m:
            raise CheckError("want count[SEL] OP N")
        return compare(n, m.group(1), m.group(2))
    if form == "nosite":
        if not rest.startswith("@") or len(rest) < 2:
            raise CheckError("want nosite[SEL]@PROOF: a negative check needs a proof "
                             "that SEL names something")
        proof = rest[1:]
        found = select_sites(doc, inside)
        if found:
            return f"{len(found)} sites match [{inside}]"
        if proof.endswith(".json"):
            if not select_sites(load(proof), inside):
                return f"no site matches [{inside}] in {os.path.basename(proof)} either: proves nothing"
            return None
        functions = [v for k, v in parse_selector(inside) if k in ("name", "top", "frame")]
        if not functions:
            raise CheckError("an executable proves only name=, top= or frame= selectors")
        missing = [f for f in functions if not function_is_symbol(proof, f)]
        if missing:
            return f"{missing} not a symbol of {proof}: proves nothing"
        return None
    if form == "finding":
        kind, selector = split_kind(inside)
        if selector is None:
            raise CheckError("want finding[KIND@SEL]")
        f = one_finding(doc, kind, selector)
        errors = finding_shape_errors(f, selector)
        if rest:
            if not rest.startswith("."):
                raise CheckError("want finding[KIND@SEL].PATH OP VALUE")
            why = _compare_path(f, rest[1:])
            if why:
                errors.append(why)
        return "; ".join(errors) or None
    if form == "nofinding":
        if rest:
            raise CheckError("nofinding[...] takes no path")
        kind, selector = split_kind(inside)
        if selector is None and not any(s["total_bytes"] > 0 for s in doc["sites"]):
            return "the profile has no site with bytes: nothing was checked"
        found = findings_on(doc, kind, selector)
        if found:
            return "unexpected findings: " + str(
                [(f["kind"], name_function(doc, doc["sites"][f["site"]])) for f in found])
        return None
    raise CheckError(f"unknown form {form}")


# ---------------------------------------------------------------------- CLI

def is_profile(path):
    """A complete lifeheap profile (not DHAT's output, not a file a test
    damaged or cut short on purpose)."""
    try:
        doc = load(path)
    except (OSError, ValueError):
        return False
    return (isinstance(doc, dict) and isinstance(doc.get("sites"), list)
            and isinstance(doc.get("peak"), dict) and "run" in doc)


def every_profile(name, paths):
    """--every: the schema and the access relations on each of PATHS that
    is a profile (one without a site passes the relations), as one test; no
    line when none is (nothing was written)."""
    profiles = [p for p in paths if is_profile(p)]
    if not profiles:
        return
    failures = []
    for path in profiles:
        doc = load(path)
        for what, errors in (("valid", schema_errors(doc)),
                             ("access relations", access_errors(doc, allow_empty=True))):
            if errors:
                failures.append(f"{os.path.relpath(path)}: {what}: {'; '.join(errors[:4])}")
    print(f"PASS {name} ({len(profiles)} profiles)" if not failures
          else f"FAIL {name}: {'; '.join(failures[:10])}")


def main(argv):
    if argv[:1] == ["--every"] and len(argv) >= 2:
        every_profile(argv[1], argv[2:])
        return 0
    one = argv[:1] == ["--one"]
    if one:
        argv = argv[1:]
    if len(argv) < 3:
        print("usage: profile_check.py [--one] NAME PROFILE ASSERTION...", file=sys.stderr)
        return 2
    name, path, assertions = argv[0], argv[1], argv[2:]
    try:
        doc = load(path)
    except (OSError, ValueError) as e:
        print(f"FAIL {name}: profile readable: {e}")
        return 0
    failures = []
    anchor = None
    for assertion in assertions:
        if assertion.startswith("."):
            assertion = (anchor or "(no site[...] or finding[...] before)") + assertion
        elif BRACKETED.fullmatch(assertion) and BRACKETED.fullmatch(assertion).group(3) == "":
            anchor = assertion
        why = evaluate(doc, assertion)
        if not one:
            print(f"PASS {name}: {assertion}" if why is None else f"FAIL {name}: {assertion}: {why}")
        if why is not None:
            failures.append(f"{assertion}: {why}")
    if one:
        print(f"PASS {name}" if not failures else f"FAIL {name}: {'; '.join(failures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
