#!/usr/bin/env python3
# check_profile.py PROFILE FUNCTION FIELD=VALUE...
#
# Finds the one site of a lifeheap profile whose innermost frame (the
# caller of the allocator) is FUNCTION and checks its "access" fields:
# FIELD is a path inside "access" (bytes_read, at_peak.bytes, map.kind,
# map.block_size, map.writes[3]) or, prefixed with "site.", a site field
# (site.total_blocks).  A VALUE that parses as an integer is compared as
# one.  Special values: map.reads / map.writes accept "sum:N" (the array
# sums to N) and "ones:A-B" (1 at offsets A..B-1, 0 elsewhere).
# Prints every mismatch; exit status 0 when all fields match.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import re
import sys


def lookup(obj, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            obj = obj[int(part[1:-1])]
        else:
            obj = obj[part]
    return obj


def main():
    profile_path, function = sys.argv[1], sys.argv[2]
    with open(profile_path) as f:
        profile = json.load(f)
    frames = profile["frames"]
    sites = [s for s in profile["sites"]
             if s["stack"] and frames[s["stack"][0]]["function"] == function]
    if len(sites) != 1:
        print(f"{function}: {len(sites)} sites with that innermost frame (want 1)")
        return 1
    site = sites[0]
    bad = 0
    for spec in sys.argv[3:]:
        field, want = spec.split("=", 1)
        try:
            if field.startswith("site."):
                got = lookup(site, field[5:])
            else:
                got = lookup(site["access"], field)
        except (KeyError, IndexError, TypeError) as e:
            print(f"{function}: {field} missing ({e!r})")
            bad += 1
            continue
        ok = False
        if want.startswith("sum:"):
            ok = isinstance(got, list) and sum(got) == int(want[4:])
            shown = f"sum {sum(got) if isinstance(got, list) else got}"
        elif want.startswith("ones:"):
            lo, hi = (int(x) for x in want[5:].split("-"))
            ok = isinstance(got, list) and all(
                v == (1 if lo <= i < hi else 0) for i, v in enumerate(got))
            shown = "a different pattern" if isinstance(got, list) else got
        elif re.fullmatch(r"-?\d+", want):
            ok = got == int(want)
            shown = got
        elif want == "null":
            ok = got is None
            shown = got
        else:
            ok = got == want
            shown = got
        if not ok:
            print(f"{function}: {field} = {shown}, expected {want}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
