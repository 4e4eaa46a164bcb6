#!/usr/bin/env python3
"""tests/findings/check.py: assertions on a lifeheap profile's timeline and
findings.  Exit status 0 when every assertion holds; otherwise prints why.

  check.py timeline PROFILE                 the timeline contract (below)
  check.py finding PROFILE KIND FUNCTION [FIELD OP VALUE]...
        a finding of KIND on the site named by FUNCTION (its name frame),
        whose summary names FUNCTION, with evidence FIELD compared by OP
        (= == >= <= > <) to VALUE; FIELD may also be site.<field>
  check.py no-finding PROFILE [KIND [FUNCTION]]
        no finding (of KIND; 'any': of any kind); with FUNCTION, that function must name a site
        (a negative check first proves the site it is about exists)
  check.py no-finding-on PROFILE FUNCTION   no finding on FUNCTION's sites,
        of which there is at least one
  check.py count PROFILE N                  exactly N findings
  check.py markers PROFILE                  marks.c's markers (see there)

SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def function_of(profile, site):
    if not site["stack"]:
        return None
    return profile["frames"][site["stack"][site["name_frame"]]]["function"]


def check_timeline(p):
    errors = []
    t = p["timeline"]
    times, live, blocks = t["times"], t["live_bytes"], t["live_blocks"]
    n = len(times)
    bound = p["run"]["options"]["timeline_points"]
    if not (n == len(live) == len(blocks)):
        errors.append(f"array lengths differ: {n} {len(live)} {len(blocks)}")
    if n == 0 or n > bound:
        errors.append(f"{n} points, bound {bound}")
    if any(b <= a for a, b in zip(times, times[1:])):
        errors.append("times are not strictly increasing")
    if times and times[-1] != p["run"]["duration"]:
        errors.append(f"last time {times[-1]} != duration {p['run']['duration']}")
    k = t["peak_index"]
    peak = p["peak"]
    if not (0 <= k < n and times[k] == peak["time"] and live[k] == peak["bytes"]
            and blocks[k] == peak["blocks"]):
        got = (times[k], live[k], blocks[k]) if 0 <= k < n else None
        errors.append(f"peak point {k} = {got}, peak = {peak}")
    if live and (live[-1], blocks[-1]) != (p["at_exit"]["bytes"], p["at_exit"]["blocks"]):
        errors.append(f"last point {live[-1]}/{blocks[-1]} != at_exit {p['at_exit']}")
    frac = t["significant_site_fraction"]
    sums = [0] * n
    for s in p["sites"]:
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
        if series[k] != s["bytes_at_peak"]:
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


OPS = {
    "=": lambda a, b: a == b, "==": lambda a, b: a == b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}


def check_finding(p, kind, function, conditions):
    matches = [f for f in p["findings"] if f["kind"] == kind
               and function_of(p, p["sites"][f["site"]]) == function]
    if not matches:
        have = [(f["kind"], function_of(p, p["sites"][f["site"]])) for f in p["findings"]]
        return [f"no {kind} finding on {function}; findings: {have}"]
    if len(matches) > 1:
        return [f"{len(matches)} {kind} findings on {function}"]
    f = matches[0]
    site = p["sites"][f["site"]]
    errors = []
    # The sentence names the site by its label (the text every reader
    # shows: "Connection::new (prealloc_oversized.rs:67)"), or by the
    # function in profiles without labels.
    shown = site.get("label") or function
    if shown not in f["summary"]:
        errors.append(f"summary does not name {shown}: {f['summary']!r}")
    if f["severity"] not in ("high", "medium", "low"):
        errors.append(f"severity {f['severity']!r}")
    for i in range(0, len(conditions), 3):
        field, op, want = conditions[i:i + 3]
        if field == "severity":
            if not OPS[op](f["severity"], want):
                errors.append(f"severity {f['severity']}, expected {op} {want}")
            continue
        if field.startswith("site."):
            got = site.get(field[5:])
        else:
            got = f["evidence"].get(field)
        if got is None:
            errors.append(f"{field} missing")
            continue
        want_value = float(want) if isinstance(got, float) else int(want)
        if not OPS[op](got, want_value):
            errors.append(f"{field} = {got}, expected {op} {want}")
    return errors


def check_no_finding(p, kind):
    found = [(f["kind"], function_of(p, p["sites"][f["site"]])) for f in p["findings"]
             if kind is None or f["kind"] == kind]
    return [f"unexpected findings: {found}"] if found else []


def check_site_exists(p, function):
    if not any(function_of(p, s) == function for s in p["sites"]):
        return [f"no site named {function}"]
    return []


def check_no_finding_on(p, function):
    if check_site_exists(p, function):
        return check_site_exists(p, function)
    found = [f["kind"] for f in p["findings"]
             if function_of(p, p["sites"][f["site"]]) == function]
    return [f"unexpected findings on {function}: {found}"] if found else []


def check_markers(p):
    errors = []
    markers = p["timeline"]["markers"]
    labels = [m["label"] for m in markers]
    want = ["start", "big allocated", 'big freed "quoted" \u00e9', "y" * 255]
    if labels != want:
        return [f"labels {labels!r}"]
    times = [m["time"] for m in markers]
    by_function = {function_of(p, s): s for s in p["sites"]}
    big, small = by_function.get("big_alloc"), by_function.get("small_alloc")
    if big is None or small is None:
        return ["sites big_alloc/small_alloc not found"]
    # The peak is the 1 MiB block: reached between "start" and "big allocated".
    if big["bytes_at_peak"] != 1 << 20:
        errors.append(f"big_alloc bytes_at_peak {big['bytes_at_peak']}")
    order = [times[0], big["first_alloc_time"], times[1], times[2],
             small["first_alloc_time"], times[3]]
    if order != sorted(order) or len(set(order)) != len(order):
        errors.append(f"times out of place: start {times[0]}, big alloc "
                      f"{big['first_alloc_time']}, marks {times[1:3]}, small alloc "
                      f"{small['first_alloc_time']}, last mark {times[3]}")
    if not (times[0] < p["peak"]["time"] < times[1]):
        errors.append(f"peak time {p['peak']['time']} not between the first two marks")
    return errors


def main(argv):
    command, path = argv[1], argv[2]
    p = load(path)
    if command == "timeline":
        errors = check_timeline(p)
    elif command == "finding":
        errors = check_finding(p, argv[3], argv[4], argv[5:])
    elif command == "no-finding":
        kind = argv[3] if len(argv) > 3 and argv[3] != "any" else None
        errors = check_no_finding(p, kind)
        if len(argv) > 4:
            errors += check_site_exists(p, argv[4])
    elif command == "no-finding-on":
        errors = check_no_finding_on(p, argv[3])
    elif command == "count":
        n = len(p["findings"])
        errors = [] if n == int(argv[3]) else [f"{n} findings: {[f['kind'] for f in p['findings']]}"]
    elif command == "markers":
        errors = check_markers(p)
    else:
        errors = [f"unknown command {command}"]
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
