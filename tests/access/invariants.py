#!/usr/bin/env python3
# invariants.py PROFILE...
#
# Checks, for every site of every profile, relations that must hold
# whatever the program did: the access map sums to bytes_read and
# bytes_written; never_accessed <= never_read, never_written; written
# but never read <= measured - never_written; unused capacity <= never
# written; first-access delay + idle before free <= the lifetimes' sum;
# at-peak figures <= at_peak.bytes = bytes_at_peak, so the sites'
# at_peak.bytes sum to peak.bytes (each block counted with its size at the
# peak, however it was resized or freed afterwards); totals equal the sums
# over the sites.  Files that are not lifeheap profiles (DHAT's, a test's
# deliberately damaged copy) are skipped with --profiles-only.  Validates each profile against docs/lifeheap-profile.schema.json
# when the jsonschema module is installed.  Exit status 0 when all hold.
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
    try:
        import jsonschema
        with open(SCHEMA) as f:
            jsonschema.validate(profile, json.load(f))
    except ImportError:
        pass
    except Exception as e:  # jsonschema.ValidationError and friends
        errors.append(f"schema: {str(e).splitlines()[0]}")
    total_read = total_written = at_peak_sum = 0
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
        if p["bytes"] != site["bytes_at_peak"]:
            errors.append(f"{where}: at_peak.bytes {p['bytes']} != bytes_at_peak "
                          f"{site['bytes_at_peak']}")
        at_peak_sum += p["bytes"]
    if at_peak_sum != profile["peak"]["bytes"]:
        errors.append(f"sum of the sites' at_peak.bytes {at_peak_sum} != peak.bytes "
                      f"{profile['peak']['bytes']}")
    t = profile["totals"]
    if (t["bytes_read"], t["bytes_written"]) != (total_read, total_written):
        errors.append(f"totals {t['bytes_read']}/{t['bytes_written']} != sums over sites "
                      f"{total_read}/{total_written}")
    return errors


def is_profile(path):
    """A complete lifeheap profile (not DHAT's output, not a file a test
    damaged or cut short on purpose)."""
    try:
        with open(path) as f:
            profile = json.load(f)
    except (OSError, ValueError):
        return False
    return (isinstance(profile, dict) and isinstance(profile.get("sites"), list)
            and isinstance(profile.get("peak"), dict) and "run" in profile)


def main():
    bad = 0
    paths = sys.argv[1:]
    if paths and paths[0] == "--profiles-only":
        paths = [p for p in paths[1:] if is_profile(p)]
    for path in paths:
        for e in check(path):
            print(f"{os.path.basename(path)}: {e}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
