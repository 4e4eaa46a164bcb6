#!/usr/bin/env python3
# compare_dhat_export.py DHAT_OUTPUT EXPORT
#
# Compares `lifeheap report --format dhat` with valgrind --tool=dhat's own
# output for the same program, program point by program point and field by
# field (tb, tbk, tl, mb, mbk, gb, gbk, eb, ebk, rb, wb, acc, and the frames).
# Program points are matched by their frames: the program's frames as DHAT
# writes them (address, function, file:line), the allocator's frames in each
# tool's preload (whose address and path differ) by function name.  Prints
# "same N" (N program points) or every difference.
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import sys


def points(path):
    d = json.load(open(path))
    out = {}
    for p in d["pps"]:
        key = []
        for i in p["fs"]:
            text = d["ftbl"][i]
            if "vgpreload_" in text:
                text = "[preload] " + text.split(": ", 1)[1].split(" (in ")[0]
            key.append(text)
        fields = {k: v for k, v in p.items() if k != "fs"}
        if tuple(key) in out:
            fields = {"duplicate": True}
        out[tuple(key)] = fields
    return out


def main():
    dhat, ours = points(sys.argv[1]), points(sys.argv[2])
    bad = []
    for key in sorted(set(dhat) | set(ours)):
        if dhat.get(key) != ours.get(key):
            bad.append(f"{' <- '.join(key[:3])}{' ...' if len(key) > 3 else ''} "
                       f"({len(key)} frames): dhat {dhat.get(key)}, lifeheap {ours.get(key)}")
    print("\n".join(bad) if bad else f"same {len(dhat)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
