#!/usr/bin/env python3
"""Assertions on lifeheap profiles for tests/reliability/run.sh.

Usage: check.py NAME PROFILE ASSERTION...

Prints one "PASS NAME: ASSERTION" or "FAIL NAME: ASSERTION: why" line per
assertion.  An assertion is one of:

  valid                      the profile validates against
                             docs/lifeheap-profile.schema.json
  PATH OP VALUE              PATH is a dotted path into the document
                             (run.exit.status, totals.blocks, sites.#: the
                             number of sites); OP is = != >= <= ; VALUE is
                             JSON (3, true, null, "x") or a bare string
  site:FUNC.PATH OP VALUE    the one site whose stack has a frame of
                             function FUNC (it must be exactly one)
  nosite:FUNC                no site has a frame of function FUNC
  marker:LABEL               the timeline has a marker with this label
  count:FUNC OP N            the number of sites with a frame of FUNC
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "docs", "lifeheap-profile.schema.json")


def functions(doc, site):
    return {doc["frames"][i]["function"] for i in site["stack"]}


def sites_with(doc, func):
    return [s for s in doc["sites"] if func in functions(doc, s)]


def walk(value, path):
    for part in path.split("."):
        if part == "#":
            return len(value)
        if isinstance(value, list):
            value = value[int(part)]
        else:
            value = value[part]
    return value


def parse_value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def compare(actual, op, expected):
    if op == "=":
        return actual == expected
    if op == "!=":
        return actual != expected
    if op == ">=":
        return actual >= expected
    if op == "<=":
        return actual <= expected
    raise ValueError(op)


def check_one(doc, assertion):
    """Returns None when the assertion holds, else why not."""
    if assertion == "valid":
        import jsonschema
        with open(SCHEMA) as f:
            schema = json.load(f)
        errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc),
                        key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            return f"{len(errors)} schema errors, first at {list(e.path)}: {e.message[:200]}"
        return None
    if assertion.startswith("nosite:"):
        found = sites_with(doc, assertion[len("nosite:"):])
        return f"{len(found)} sites have it" if found else None
    if assertion.startswith("marker:"):
        labels = [m["label"] for m in doc["timeline"]["markers"]]
        return None if assertion[len("marker:"):] in labels else f"markers are {labels}"
    m = re.fullmatch(r"(.+?)(!=|>=|<=|=)(.*)", assertion)
    if not m:
        return "cannot parse the assertion"
    path, op, expected = m.group(1), m.group(2), parse_value(m.group(3))
    target = doc
    if path.startswith("count:"):
        n = len(sites_with(doc, path[len("count:"):]))
        return None if compare(n, op, expected) else f"got {n}"
    if path.startswith("site:"):
        func, _, path = path[len("site:"):].partition(".")
        found = sites_with(doc, func)
        if len(found) != 1:
            return f"{len(found)} sites have a frame of {func}"
        target = found[0]
    try:
        actual = walk(target, path)
    except (KeyError, IndexError, TypeError, ValueError):
        return f"no {path} in the profile"
    if not compare(actual, op, expected):
        return f"got {actual!r}"
    return None


def main():
    name, profile = sys.argv[1], sys.argv[2]
    try:
        with open(profile) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL {name}: profile readable: {e}")
        return
    for assertion in sys.argv[3:]:
        why = check_one(doc, assertion)
        if why is None:
            print(f"PASS {name}: {assertion}")
        else:
            print(f"FAIL {name}: {assertion}: {why}")


if __name__ == "__main__":
    main()
