#!/usr/bin/env python3
# compare_dhat.py DHAT_OUT PROFILE FUNCTION...
#
# For each FUNCTION, the DHAT program point and the lifeheap site whose
# innermost frame is FUNCTION must report the same bytes read and written
# (DHAT's "rb"/"wb" against access.bytes_read/bytes_written).  Meant for
# programs where DHAT's accounting is exact: no realloc, no access near a
# thread's stack pointer, no glibc string function.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import re
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import lifeheap_profile  # noqa: E402  (reads a profile as the readers do)


def dhat_points(path, function):
    with open(path) as f:
        dhat = json.load(f)
    ftbl = dhat["ftbl"]
    found = []
    for pp in dhat["pps"]:
        # fs[0] is the allocator itself (malloc in vgpreload); the first
        # frame outside it is the caller.
        names = [re.sub(r"^0x[0-9A-Fa-f]+: ", "", ftbl[i]) for i in pp["fs"]]
        callers = [n for n in names if not n.startswith(("malloc ", "calloc ", "realloc "))]
        if callers and callers[0].split(" ")[0] == function:
            found.append(pp)
    return found


def main():
    dhat_path, profile_path, functions = sys.argv[1], sys.argv[2], sys.argv[3:]
    profile = lifeheap_profile.load(profile_path)
    frames = profile["frames"]
    bad = 0
    for function in functions:
        points = dhat_points(dhat_path, function)
        sites = [s for s in profile["sites"]
                 if s["stack"] and frames[s["stack"][0]]["function"] == function]
        if len(points) != 1 or len(sites) != 1:
            print(f"{function}: {len(points)} DHAT points, {len(sites)} lifeheap sites (want 1 and 1)")
            bad += 1
            continue
        dr, dw = points[0]["rb"], points[0]["wb"]
        lr, lw = sites[0]["access"]["bytes_read"], sites[0]["access"]["bytes_written"]
        if (dr, dw) != (lr, lw):
            print(f"{function}: DHAT read/written {dr}/{dw}, lifeheap {lr}/{lw}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
