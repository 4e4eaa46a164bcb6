#!/usr/bin/env python3
# invariants.py PROFILE...
#
# Checks, for every site of every profile, relations that must hold
# whatever the program did: the access map sums to bytes_read and
# bytes_written; never_accessed <= never_read, never_written; written
# but never read <= measured - never_written; unused capacity <= never
# written; first-access delay + idle before free <= the lifetimes' sum;
# at-peak figures <= at_peak.bytes = bytes_at_peak (sites without
# realloc); totals equal the sums over the sites.  Validates each profile
# against docs/lifeheap-profile.schema.json (python3-jsonschema, which
# scripts/setup.sh installs: without it the check fails).  Exit status 0
# when all hold; 1 when one does not, when no profile is given, or when a
# profile has no site (the relations would hold vacuously).
# SPDX-License-Identifier: GPL-3.0-or-later
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                      "lifeheap-profile.schema.json")


def check(path):
    errors = []
    with open(path) as f:
        profile = json.load(f)
    import jsonschema  # an ImportError fails the check: setup.sh installs it
    with open(SCHEMA) as f:
        schema = json.load(f)
    for e in jsonschema.Draft202012Validator(schema).iter_errors(profile):
        errors.append(f"schema: at {list(e.path)}: {e.message[:200]}")
    if not profile["sites"]:
        errors.append("no site: the relations would hold vacuously")
    total_read = total_written = 0
    for site in profile["sites"]:
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
        # (a block resized after the peak contributes its size when folded)
        if site["reallocs"] == 0 and p["bytes"] != site["bytes_at_peak"]:
            errors.append(f"{where}: at_peak.bytes {p['bytes']} != bytes_at_peak "
                          f"{site['bytes_at_peak']}")
    t = profile["totals"]
    if (t["bytes_read"], t["bytes_written"]) != (total_read, total_written):
        errors.append(f"totals {t['bytes_read']}/{t['bytes_written']} != sums over sites "
                      f"{total_read}/{total_written}")
    return errors


def main():
    if len(sys.argv) < 2:
        print("invariants.py: no profile given (nothing checked)")
        return 1
    bad = 0
    for path in sys.argv[1:]:
        for e in check(path):
            print(f"{os.path.basename(path)}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
