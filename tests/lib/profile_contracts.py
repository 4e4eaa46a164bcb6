#!/usr/bin/env python3
"""tests/lib/profile_contracts.py: what every lifeheap profile must satisfy
beyond the assertions a test writes about its own program: the JSON
schema, the tables contract (indices inside the tables, global figures the
sums over the sites), the timeline contract and the access relations.
Each function returns the list of violations (empty when the profile
holds).  tests/lib/profile_check.py runs them as the assertions valid and
contract:NAME, and --every on every profile a suite wrote.

SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import os

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCHEMA = os.path.join(TOP, "docs", "lifeheap-profile.schema.json")


def load(path):
    with open(path) as f:
        return json.load(f)


# The profiles as written, by id() of the form with the omitted members put
# back (profile_check.load, lifeheap_profile.py): the schema checks what the
# tool wrote, every other contract reads the profile as the readers do.
AS_WRITTEN = {}


def schema_errors(doc):
    """Schema violations (python3-jsonschema, installed by scripts/setup.sh:
    without it this raises ImportError, a failure, never a pass)."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(load(SCHEMA))
    doc = AS_WRITTEN.get(id(doc), doc)
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


LABELS = os.path.join(TOP, "docs", "evidence-labels.json")


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
