#!/usr/bin/env python3
"""tests/findings/marks_check.py PROFILE: marks.c's markers, through
tests/lib/profile_check.py.  Prints one "PASS name" / "FAIL name: why" line
per check.

marks.c marks "start", allocates 1 MiB in big_alloc (the peak), marks "big
allocated", frees it, marks a label with quotes and a non-ASCII letter,
allocates in small_alloc and marks a 255-byte label: the markers come in that
order, each between the allocations around it, and the peak lies between
the first two.

SPDX-License-Identifier: GPL-3.0-or-later
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import profile_check as pc  # noqa: E402


def main(path):
    results = pc.Results("marks: ")
    doc = pc.load(path)
    markers = doc["timeline"]["markers"]
    labels = [m["label"] for m in markers]
    want = ["start", "big allocated", 'big freed "quoted" \u00e9', "y" * 255]
    if not results.eq("labels in order", want, labels):
        return results
    times = [m["time"] for m in markers]
    try:
        big = pc.one_site(doc, "name=big_alloc")
        small = pc.one_site(doc, "name=small_alloc")
    except pc.CheckError as e:
        results.check("sites big_alloc and small_alloc", False, str(e))
        return results
    # The peak is the 1 MiB block: reached between "start" and "big allocated".
    results.eq("big_alloc holds the peak", 1 << 20, big["bytes_at_peak"])
    order = [times[0], big["first_alloc_time"], times[1], times[2],
             small["first_alloc_time"], times[3]]
    results.check("markers at the right place", order == sorted(order) and len(set(order)) == len(order),
                  f"start {times[0]}, big alloc {big['first_alloc_time']}, marks {times[1:3]}, "
                  f"small alloc {small['first_alloc_time']}, last mark {times[3]}")
    results.check("the peak between the first two markers",
                  times[0] < doc["peak"]["time"] < times[1], f"peak time {doc['peak']['time']}")
    return results


if __name__ == "__main__":
    main(sys.argv[1]).print()
