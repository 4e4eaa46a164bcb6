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

Sites are chosen by a selector SEL, conditions joined by ',' (all must
hold; an empty SEL is every site):
  name=FUNC    the function of the site's name frame (frames[stack[name_frame]])
  top=FUNC     the function of the innermost frame (the allocator's caller)
  frame=FUNC   the function of any frame of the stack
  label=TEXT   the site's label, exactly
  id=N         the site with id N
  PATH OP VALUE  a field of the site (total_bytes=4096, reallocs>0,
               access.measured_bytes>=1); a site without PATH does not match
  any key with ~ instead of =: a regular expression matching the whole
  value (name~.*::insert, label~Cache::insert \(.*)

Paths (PATH) are dotted into the document, the site or the finding:
  run.exit.code  sites.0.total_bytes  access.map.reads[3]  timeline.markers.-1
  KEY?          null where KEY is missing (sites[*].timeline?)
  #             the length of what is before it (sites.#, findings[kind=leak].#)
  [*] or .*     every element of a list; the rest of the path applies to
                each, and the value is their list (findings[*].summary)
  [COND,...]    the elements where every condition PATH OP VALUE holds
                (frames[function=main], sites[frame=f,reallocs>0]; sites
                take the selector keys above)
  [A:B]         a slice; A and B numbers or @PATH+N / @PATH-N; right after
                a [*] or a filter it slices the list taken
                (sites[bytes_at_peak>0][:5].label)
  $name, $top   a site's name frame, its innermost frame (site[...].$name.file)
A list taken by [*], a filter or a slice that is empty is a failure:
nothing would be checked.

Values: JSON (3, 0.5, true, null, "x", [1,2]) or a bare string; @PATH,
@PATH+N, @PATH-N: the value at PATH of the document (timeline.peak_index
>=@timeline.live_bytes.#-2); OP is = != >= <= > < or ~ !~ (a regular
expression matching the whole string, or not); about a list: sum:N (its
sum), ones:A-B (1 at A..B-1, 0 elsewhere), and the shapes increasing,
nondecreasing, distinct (with = or !=).

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
  PATH OP VALUE             a path into the document (run.exit.code=0,
                            sites.#>=3, timeline.times=increasing)
  all:PATH OP VALUE         PATH is a list with elements (a [*] or a filter
  any:PATH OP VALUE         in it): every, some, or no element holds
  none:PATH OP VALUE        (none:findings[*].summary~.*xmalloc.*)
  site[SEL]                 SEL matches exactly one site
  site[SEL].PATH OP VALUE   a field of the one site SEL matches
  count[SEL] OP N           the number of sites SEL matches (at least one)
  sum[SEL].PATH OP N        PATH summed over the sites SEL matches (at
                            least one)
  nosite[SEL]@PROOF         no site matches SEL here, and it matches one in
                            the profile PROOF, or (for name/top/frame) the
                            function is a symbol of the executable PROOF
  finding[KIND@SEL]         exactly one finding of KIND on a site SEL
                            matches; its summary names the site's label;
                            a valid severity
  finding[KIND@SEL&COND...] the same among the findings where each COND
                            (a path into the finding) holds:
                            finding[unused-capacity@name=f&evidence.mean_block_bytes=10240]
  finding[KIND@SEL].PATH OP VALUE   a field of that finding (evidence.blocks,
                            severity, site.total_bytes: the finding's site)
  nofinding[KIND@SEL]       SEL matches at least one site, and none of them
                            has a finding of KIND ('any': of any kind)
  nofinding[KIND]           no finding of KIND anywhere (the profile must
                            have a site with bytes, or nothing was checked)
  findings OP N             the number of findings (findings.# is the same)
  marker=LABEL              the timeline has a marker with this label
  same[PATH]@OTHER          PATH has the same value here and in the profile
                            OTHER (same[timeline]@first-run.json)
  .PATH OP VALUE            continues the last site[SEL] or finding[KIND@SEL]
                            word: "finding[leak@name=f]" .severity=high

Other modes, for a shell test that needs a value or waits on a profile:
  profile_check.py --get PROFILE PATH
        prints the value (a string as it is, anything else as JSON; a list
        one element a line); exit 1, saying why on stderr, when it is not
        there
  profile_check.py --holds PROFILE ASSERTION...
        prints nothing; exit 0 when every assertion holds, 1 otherwise (or
        when the profile cannot be read yet)

SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The contracts (valid, contract:NAME) live in profile_contracts.py; their
# names are this module's too, for the suites' own checkers.
import lifeheap_profile  # noqa: E402
import profile_contracts  # noqa: E402
from profile_contracts import (  # noqa: E402,F401
    CONTRACTS, SCHEMA, access_errors, index_errors, peak_point_errors,
    preload_frame_errors, schema_errors, sums_errors, tables_errors,
    timeline_errors)


class CheckError(Exception):
    """An assertion that cannot hold: the reason is the message."""


def load(path):
    """A JSON file; a lifeheap profile with its omitted members put back as
    the readers do (lifeheap_profile.py), its form as written kept for the
    schema (valid)."""
    with open(path) as f:
        text = f.read()
    doc = json.loads(text)
    if isinstance(doc, dict) and doc.get("format") == "lifeheap-profile":
        written = json.loads(text)
        doc = lifeheap_profile.expand(doc)
        profile_contracts.AS_WRITTEN[id(doc)] = written
    return doc


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


def top_function(doc, site):
    """The function of the innermost frame (the allocator's caller)."""
    return frame_function(doc, site["stack"][0]) if site["stack"] else None


# A key of a site selector and the values it offers (a condition holds when
# one of them does): the site's functions, its label, its id.
SELECTOR_KEYS = {
    "name": lambda doc, s: [name_function(doc, s)],
    "top": lambda doc, s: [top_function(doc, s)],
    "frame": lambda doc, s: [frame_function(doc, i) for i in s["stack"]],
    "label": lambda doc, s: [s.get("label")],
    "id": lambda doc, s: [s["id"]],
}


def split_top_level(text, separator):
    """TEXT split at SEPARATOR outside brackets and parentheses (a regex
    or a label in a condition keeps its commas)."""
    parts, depth, current = [], 0, ""
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return parts


def parse_condition(text):
    """PATH OP VALUE -> (path, op, value text)."""
    parsed = split_comparison(text)
    if not parsed:
        raise CheckError(f"bad condition {text!r} (want KEY OP VALUE)")
    return parsed


def parse_selector(text):
    """SEL -> [(key or path, op, value text)]; an empty SEL is every site."""
    if text == "":
        return []
    return [parse_condition(part) for part in split_top_level(text, ",")]


def condition_holds(doc, item, condition, keys=None):
    """One condition on ITEM (a site, a finding, a frame); a path ITEM does
    not have makes it false (the selector then matches nothing, which
    fails where it matters)."""
    key, op, wanted = condition
    if keys and key in keys:
        values = keys[key](doc, item)
        if key == "id":
            wanted = str(parse_value(wanted))
        return any(compare(v, op, wanted, doc) is None for v in values)
    try:
        actual = walk(item, key, doc)
    except CheckError:
        return False
    return compare(actual, op, wanted, doc) is None


def is_site(item):
    return isinstance(item, dict) and "stack" in item and "name_frame" in item


def select_sites(doc, selector):
    """Every site the selector (text or parsed) matches, in profile order."""
    parts = parse_selector(selector) if isinstance(selector, str) else selector
    return [s for s in doc["sites"]
            if all(condition_holds(doc, s, c, SELECTOR_KEYS) for c in parts)]


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

def path_parts(path):
    """'a.b[0].c[kind=leak].#' -> ['a', 'b', '[0]', 'c', '[kind=leak]', '#']
    (a bracket keeps what is inside it whole: dots, commas, a regex's own
    brackets)."""
    parts, current, i = [], "", 0
    while i < len(path):
        c = path[i]
        if c == "." or c == "[":
            if current:
                parts.append(current)
            current = ""
        if c == "[":
            depth, j = 0, i
            while j < len(path):
                depth += {"[": 1, "]": -1}.get(path[j], 0)
                if depth == 0:
                    break
                j += 1
            if j == len(path):
                raise CheckError(f"an unclosed [ in {path}")
            parts.append(path[i:j + 1])
            i = j + 1
            continue
        if c != ".":
            current += c
        i += 1
    if current:
        parts.append(current)
    return parts


SLICE = re.compile(r"([^:]*):([^:]*)")


def walk(value, path, root=None):
    """The value at PATH inside VALUE.  PATH is dotted (a.b.0.c, a.b[0].c);
    'KEY?' is null where KEY is missing; '#' is the length of what is before
    it; on a list, '*' or '[*]' takes every element, '[A:B]' a slice (A and
    B numbers or @PATH+-N into ROOT, the document), '[COND,...]' the
    elements where every condition PATH OP VALUE holds: the rest of the path
    then applies to each element, and the value is their list (of which '#'
    is the length).  A list taken this way that is empty is an error:
    nothing would be checked."""
    root = value if root is None else root
    parts = path_parts(path)
    for n, part in enumerate(parts):
        if part == "#":
            if not isinstance(value, (list, dict, str)):
                raise CheckError(f"{path}: # of {value!r}")
            return len(value)
        inner = part[1:-1] if part.startswith("[") else part
        if isinstance(value, list) and not re.fullmatch(r"-?\d+", inner):
            if inner == "*":
                items = value
            elif SLICE.fullmatch(inner):
                lo, hi = (None if not x else int(resolve_number(x, root))
                          for x in SLICE.fullmatch(inner).groups())
                items = value[lo:hi]
            else:
                conditions = [parse_condition(c) for c in split_top_level(inner, ",")]
                # a site is filtered as site[...] selects it (name=, frame=...)
                items = [e for e in value
                         if all(condition_holds(root, e, c, SELECTOR_KEYS if is_site(e) else None)
                                for c in conditions)]
            # slices right after apply to the list taken: sites[bytes_at_peak>0][:5]
            while (n + 1 < len(parts) and parts[n + 1].startswith("[")
                   and SLICE.fullmatch(parts[n + 1][1:-1])):
                n += 1
                lo, hi = (None if not x else int(resolve_number(x, root))
                          for x in SLICE.fullmatch(parts[n][1:-1]).groups())
                items = items[lo:hi]
            if not items:
                raise CheckError(f"{path}: {part} takes nothing: nothing to check")
            rest = ".".join(parts[n + 1:]) if n + 1 < len(parts) else ""
            if rest == "#":
                return len(items)
            return [walk(e, rest, root) if rest else e for e in items]
        if inner in SITE_FRAMES and isinstance(value, dict) and "stack" in value:
            value = SITE_FRAMES[inner](root, value)
            if value is None:
                raise CheckError(f"{path}: the site has no stack")
            continue
        optional = inner.endswith("?")
        if optional:
            inner = inner[:-1]
        try:
            value = value[int(inner)] if isinstance(value, list) else value[inner]
        except (KeyError, IndexError, TypeError, ValueError):
            if optional and isinstance(value, dict):
                return None
            raise CheckError(f"no {path} here")
    return value


# A site's frames by role, as paths: site[...].$name.file, $top.object
SITE_FRAMES = {
    "$name": lambda doc, s: doc["frames"][s["stack"][s["name_frame"]]] if s["stack"] else None,
    "$top": lambda doc, s: doc["frames"][s["stack"][0]] if s["stack"] else None,
}


REFERENCE = re.compile(r"@(.+?)(?:([+-])(\d+))?")


def resolve_number(text, root):
    """A number, or @PATH+N / @PATH-N: the number at PATH in the document,
    plus or minus N."""
    m = REFERENCE.fullmatch(text)
    if not m:
        return parse_value(text)
    value = walk(root, m.group(1))
    if m.group(2):
        if not isinstance(value, (int, float)):
            raise CheckError(f"@{m.group(1)} is {value!r}, not a number")
        value = value + int(m.group(3)) if m.group(2) == "+" else value - int(m.group(3))
    return value


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def regex_matches(pattern, actual):
    return isinstance(actual, str) and re.fullmatch(pattern, actual, re.S) is not None


OPS = {
    "=": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}
OPERATORS = ("!=", "!~", ">=", "<=", "=", "~", ">", "<")
BARE_COMPARISON = re.compile(r"\s*(!=|!~|>=|<=|=|~|>|<)\s*(.*)", re.S)


def split_comparison(text):
    """PATH OP VALUE -> (path, op, value text) at the first operator outside
    brackets (a filter in the path has operators of its own), or None."""
    depth = 0
    for i, c in enumerate(text):
        depth += {"[": 1, "]": -1}.get(c, 0)
        if depth or i == 0:
            continue
        for op in OPERATORS:
            if text.startswith(op, i):
                return text[:i].rstrip(), op, text[i + len(op):].lstrip()
    return None
LIST_SHAPES = {
    "increasing": lambda v: all(a < b for a, b in zip(v, v[1:])),
    "nondecreasing": lambda v: all(a <= b for a, b in zip(v, v[1:])),
    "distinct": lambda v: len(set(map(json.dumps, v))) == len(v),
}


def compare(actual, op, wanted_text, root=None):
    """None when ACTUAL OP WANTED holds, else why not.  ~ and !~ match a
    regular expression against the whole string; sum:N, ones:A-B and the
    shapes increasing, nondecreasing, distinct are about a list; @PATH+-N
    is a number (or any value) of the document ROOT."""
    if op in ("~", "!~"):
        ok = regex_matches(wanted_text, actual) == (op == "~")
        return None if ok else f"got {actual!r}"
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
    if wanted_text in LIST_SHAPES and op in ("=", "!="):
        if not isinstance(actual, list):
            return f"got {actual!r}, not a list"
        ok = LIST_SHAPES[wanted_text](actual) == (op == "=")
        if ok:
            return None
        breaks = [i for i in range(1, len(actual))
                  if not LIST_SHAPES[wanted_text](actual[i - 1:i + 1])]
        where = f" at [{breaks[0]}]: {actual[breaks[0] - 1]!r}, {actual[breaks[0]]!r}" if breaks else ""
        return f"{len(actual)} values, not {wanted_text}{where}"
    if wanted_text.startswith("@") and root is not None:
        wanted = resolve_number(wanted_text, root)
    else:
        wanted = parse_value(wanted_text)
    try:
        ok = OPS[op](actual, wanted)
    except TypeError:
        return f"got {actual!r}, which cannot be compared with {wanted!r}"
    return None if ok else f"got {actual!r}" + (f" ({wanted_text} is {wanted!r})"
                                                if wanted_text.startswith("@") else "")



# --------------------------------------------------------------- assertions

FORMS = ("site", "count", "sum", "nosite", "finding", "nofinding", "same")
SEVERITIES = ("high", "medium", "low")
QUANTIFIERS = ("all", "any", "none")


def split_bracketed(assertion):
    """FORM[INSIDE]REST -> (form, inside, rest), or None when ASSERTION is
    not one of FORMS (INSIDE may hold brackets of its own: a regex, a
    filter)."""
    m = re.match(r"(%s)\[" % "|".join(FORMS), assertion)
    if not m:
        return None
    depth = 0
    for i in range(m.end() - 1, len(assertion)):
        depth += {"[": 1, "]": -1}.get(assertion[i], 0)
        if depth == 0:
            return m.group(1), assertion[m.end():i], assertion[i + 1:]
    raise CheckError(f"an unclosed [ in {assertion}")


def split_kind(text):
    """KIND@SEL&COND&COND -> (kind, selector or None, [finding conditions])."""
    head, *conditions = split_top_level(text, "&")
    kind, at, selector = head.partition("@")
    return kind, (selector if at else None), [parse_condition(c) for c in conditions]


def findings_on(doc, kind, selector, conditions=()):
    """Findings of KIND ('any' or None: all kinds) on the sites SEL matches
    (every site when SEL is None) for which every condition (a path into
    the finding: evidence.mean_block_bytes=10240) holds."""
    ids = None if selector is None else {s["id"] for s in some_sites(doc, selector)}
    return [f for f in doc["findings"]
            if (kind in (None, "any") or f["kind"] == kind)
            and (ids is None or f["site"] in ids)
            and all(condition_holds(doc, f, c) for c in conditions)]


def one_finding(doc, kind, selector, conditions=()):
    found = findings_on(doc, kind, selector, conditions)
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


def selected_functions(selector):
    """The functions a selector names exactly (name=, top=, frame=)."""
    return [value for key, op, value in parse_selector(selector)
            if key in ("name", "top", "frame") and op == "="]


def name_function_of_finding(site, selector):
    """Profiles without labels name the site by the selected function."""
    functions = selected_functions(selector)
    return functions[0] if functions else None


def evaluate(doc, assertion):
    """None when ASSERTION holds on DOC, else why not (a CheckError raised
    anywhere inside is the reason), cut to 600 characters."""
    try:
        why = _evaluate(doc, assertion)
    except CheckError as e:
        why = str(e)
    return why if why is None or len(why) <= 600 else why[:600] + "..."


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
    bracketed = split_bracketed(assertion)
    if bracketed:
        return _evaluate_bracketed(doc, *bracketed)
    quantifier, colon, rest = assertion.partition(":")
    if colon and quantifier in QUANTIFIERS:
        return _quantified(doc, doc, quantifier, rest)
    if BARE_COMPARISON.fullmatch(assertion[len("findings"):]) and assertion.startswith("findings"):
        assertion = "findings.#" + assertion[len("findings"):]
    return _compare_path(doc, doc, assertion)


def _compare_path(target, root, text):
    quantifier, colon, rest = text.partition(":")
    if colon and quantifier in QUANTIFIERS:
        return _quantified(target, root, quantifier, rest)
    parsed = split_comparison(text)
    if not parsed:
        raise CheckError("cannot parse the assertion (want PATH OP VALUE)")
    path, op, wanted = parsed
    return compare(walk(target, path, root), op, wanted, root)


def _quantified(target, root, quantifier, text):
    """all:/any:/none: PATH OP VALUE, PATH a non-empty list (a '*' or a
    filter in it): every, some or no element holds."""
    parsed = split_comparison(text)
    if not parsed:
        raise CheckError(f"want {quantifier}:PATH OP VALUE")
    path, op, wanted = parsed
    values = walk(target, path, root)
    if not isinstance(values, list) or not values:
        raise CheckError(f"{path} is {values!r}, not a list with elements: nothing to check")
    holding = [v for v in values if compare(v, op, wanted, root) is None]
    ok = {"all": len(holding) == len(values), "any": bool(holding),
          "none": not holding}[quantifier]
    if ok:
        return None
    shown = [v for v in values if (v in holding) == (quantifier == "none")]
    return f"{len(holding)} of {len(values)} hold; " + repr(shown[:4])[:300]


def _evaluate_bracketed(doc, form, inside, rest):
    if form == "site":
        site = one_site(doc, inside)
        if not rest:
            return None
        if not rest.startswith("."):
            raise CheckError("want site[SEL].PATH OP VALUE")
        return _compare_path(site, doc, rest[1:])
    if form == "count":
        n = len(some_sites(doc, inside))
        m = BARE_COMPARISON.fullmatch(rest)
        if not m:
            raise CheckError("want count[SEL] OP N")
        return compare(n, m.group(1), m.group(2), doc)
    if form == "sum":
        if not rest.startswith("."):
            raise CheckError("want sum[SEL].PATH OP N")
        parsed = split_comparison(rest[1:])
        if not parsed:
            raise CheckError("want sum[SEL].PATH OP N")
        path, op, wanted = parsed
        total = sum(walk(s, path, doc) for s in some_sites(doc, inside))
        return compare(total, op, wanted, doc)
    if form == "same":
        if not rest.startswith("@") or len(rest) < 2:
            raise CheckError("want same[PATH]@OTHER.json")
        mine, theirs = walk(doc, inside), walk(load(rest[1:]), inside)
        if mine == theirs:
            return None
        return f"differs from {os.path.basename(rest[1:])}: {json.dumps(mine)[:150]} vs {json.dumps(theirs)[:150]}"
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
        functions = selected_functions(inside)
        if not functions:
            raise CheckError("an executable proves only name=, top= or frame= selectors")
        missing = [f for f in functions if not function_is_symbol(proof, f)]
        if missing:
            return f"{missing} not a symbol of {proof}: proves nothing"
        return None
    if form == "finding":
        kind, selector, conditions = split_kind(inside)
        if selector is None:
            raise CheckError("want finding[KIND@SEL]")
        f = one_finding(doc, kind, selector, conditions)
        errors = finding_shape_errors(f, selector)
        if rest:
            if not rest.startswith("."):
                raise CheckError("want finding[KIND@SEL].PATH OP VALUE")
            why = _compare_path(f, doc, rest[1:])
            if why:
                errors.append(why)
        return "; ".join(errors) or None
    if form == "nofinding":
        if rest:
            raise CheckError("nofinding[...] takes no path")
        kind, selector, conditions = split_kind(inside)
        if selector is None and not any(s["total_bytes"] > 0 for s in doc["sites"]):
            return "the profile has no site with bytes: nothing was checked"
        found = findings_on(doc, kind, selector, conditions)
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


def anchorable(assertion):
    """site[SEL] or finding[KIND@SEL] alone: '.PATH OP VALUE' words after it
    continue it."""
    try:
        bracketed = split_bracketed(assertion)
    except CheckError:
        return False
    return bool(bracketed) and bracketed[0] in ("site", "finding") and bracketed[2] == ""


def get_value(path, value_path):
    """--get: prints the value at VALUE_PATH (a string as it is, anything
    else as JSON; a list one element a line); exit 1, saying why on stderr,
    when it is not there."""
    try:
        value = walk(load(path), value_path)
    except (OSError, ValueError, CheckError) as e:
        print(f"profile_check.py --get {path} {value_path}: {e}", file=sys.stderr)
        return 1
    for item in value if isinstance(value, list) else [value]:
        print(item if isinstance(item, str) else json.dumps(item))
    return 0


def holds(path, assertions):
    """--holds: exit 0 when every assertion holds, 1 otherwise (or when the
    profile cannot be read yet), printing nothing: for a test that waits
    for a profile to reach a state."""
    try:
        doc = load(path)
    except (OSError, ValueError):
        return 1
    return 0 if all(evaluate(doc, a) is None for a in assertions) else 1


def main(argv):
    if argv[:1] == ["--every"] and len(argv) >= 2:
        every_profile(argv[1], argv[2:])
        return 0
    if argv[:1] == ["--get"] and len(argv) == 3:
        return get_value(argv[1], argv[2])
    if argv[:1] == ["--holds"] and len(argv) >= 3:
        return holds(argv[1], argv[2:])
    one = argv[:1] == ["--one"]
    if one:
        argv = argv[1:]
    if len(argv) < 3:
        print("usage: profile_check.py [--one] NAME PROFILE ASSERTION...\n"
              "       profile_check.py --every NAME FILE...\n"
              "       profile_check.py --get PROFILE PATH\n"
              "       profile_check.py --holds PROFILE ASSERTION...", file=sys.stderr)
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
        elif anchorable(assertion):
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
