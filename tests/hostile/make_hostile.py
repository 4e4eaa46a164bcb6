#!/usr/bin/env python3
"""Writes the hostile profiles both readers must refuse, and the message each must give.

  make_hostile.py OUTDIR [LONG_NAME_MB]

Each profile is tests/viewer/fixtures/queue_bad.json (a valid profile that both the CLI
and the viewer load) with one defect. OUTDIR/expected.tsv has one line per profile,
"name<TAB>message": the message the CLI prints after "lifeheap: PATH: " and the viewer
shows after "Could not open NAME: ". tests/cli/run.sh feeds them to every command,
tests/viewer/model.test.js to the viewer's loader and tests/viewer/browser.test.js to the
page; each compares its message with this file, so the two readers agree word for word.

The expected messages are written out here from the rules, not taken from either
reader: docs/format.md ("Consistency rules") and docs/profile-rules.json give them.

OUTDIR/long-name.json is not hostile: a function name of LONG_NAME_MB megabytes (default
8) and a command argument of 1 Mi two-byte characters, which both readers must load and
show capped (display_max_chars).
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "..", "viewer", "fixtures", "queue_bad.json")
RULES = os.path.join(HERE, "..", "..", "docs", "profile-rules.json")


def main():
    out = sys.argv[1]
    long_mb = float(sys.argv[2]) if len(sys.argv) > 2 else 8
    os.makedirs(out, exist_ok=True)
    base = json.load(open(BASE))
    why = {(r["field"], r["at_most"]): r["why"] for r in json.load(open(RULES))["relations"]}
    duration = base["run"]["duration"]
    cases = []

    def write(name, data, message):
        if not isinstance(data, bytes):
            data = json.dumps(data, indent=1).encode()
        with open(os.path.join(out, name + ".json"), "wb") as f:
            f.write(data)
        cases.append((name, message))

    def mutate(name, change, message):
        p = copy.deepcopy(base)
        change(p)
        write(name, p, message)

    def relation(field, at_most, value, bound, site=None):
        """The message of a broken rule; "sites[]." names get the site's index."""
        named = lambda n: n.replace("sites[]", f"sites[{site}]")
        return f"{named(field)}: {value} is more than {named(at_most)} ({bound}): " + why[(field, at_most)]

    # JSON-level problems.
    write("empty", b"", "empty file")
    write("bare-null", b"null", "not a lifeheap profile (the document is null, not an object)")
    write("bare-number", b"12", "not a lifeheap profile (the document is an integer, not an object)")
    write("array", b"[1, 2]", "not a lifeheap profile (the document is an array, not an object)")
    text = json.dumps(base, indent=1).encode()
    cut = text.index(b'"sites"') + 40
    write("truncated", text[:cut], f"truncated JSON (the document ends after {cut} bytes)")
    # Bytes that are not UTF-8, inside a function name.
    for name, bad in (("overlong-utf8", b"\xc0\xaf"), ("surrogate-utf8", b"\xed\xa0\x80"),
                      ("beyond-unicode", b"\xf4\x90\x80\x80"), ("cut-utf8", b"\xe2\x82")):
        data = text.replace(b'"make_message"', b'"make_' + bad + b'message"', 1)
        at = data.index(b'"make_' + bad) + len(b'"make_')
        write(name, data, f"invalid UTF-8 at byte {at} (a profile is UTF-8 text)")
    # The header.
    write("dhat", json.dumps({"dhatFileVersion": 2, "mode": "heap"}).encode(),
          "not a lifeheap profile (it is a DHAT profile: open it in DHAT's dh_view.html)")
    mutate("other-format", lambda p: p.update(format="dhat"),
           'not a lifeheap profile ("format" is not "lifeheap-profile")')
    mutate("version-string", lambda p: p.update(format_version="1"),
           "format_version: expected an integer, found a string")
    mutate("version-3", lambda p: p.update(format_version=3),
           "format_version 3 is not supported (this lifeheap reads versions 1 to 2)")
    # Version 2: a site's omitted members are joined back from references
    # (docs/format.md, "Omitted members"); a reference that leads nowhere is
    # named.
    def version2(change, *drop):
        def apply(p):
            p["format_version"] = 2
            for f in p["frames"]:
                f["text"] = f["function"] or "???"
                if f["function"]:
                    f["match_text"] = f["function"] + "\t" + (f["file"] or "")
            for key in drop:
                p["sites"][0].pop(key, None)
            change(p)
        return apply

    def first_frame_unnamed(p):
        site = p["sites"][0]
        del p["frames"][site["stack"][0]]["match_text"]
        site["match_frames"] = [0]
    mutate("v2-label-frames", version2(lambda p: p["sites"][0].update(label_frames=[99]), "label"),
           "sites[0].label_frames: a position outside the stack")
    mutate("v2-allocator-stack", version2(lambda p: p["sites"][0].update(allocator_stack=5), "allocator_frames"),
           "sites[0].allocator_stack: not an index into allocator_stacks")
    mutate("v2-match-text", version2(first_frame_unnamed, "match_key", "match_lines"),
           "sites[0].match_frames: a frame without match_text")
    # Types and ranges.
    mutate("negative-duration", lambda p: p["run"].update(duration=-5), "run.duration: negative value -5")
    mutate("bool-threads", lambda p: p["run"].update(threads=True),
           "run.threads: expected an integer, found a boolean")
    mutate("exit-status", lambda p: p["run"]["exit"].update(status="exploded"),
           "run.exit.status: unknown value (expected exited, signal or running)")
    mutate("negative-total", lambda p: p["totals"].update(bytes=-1), "totals.bytes: negative value -1")
    mutate("fractional-total", lambda p: p["totals"].update(blocks=1.5),
           "totals.blocks: expected an integer, found a number with a fraction")
    mutate("null-total", lambda p: p["totals"].update(frees=None),
           "totals.frees: expected an integer, found null")
    mutate("missing-peak-time", lambda p: p["peak"].pop("time"), "peak.time: missing")
    mutate("frame-not-object", lambda p: p["frames"].__setitem__(0, "main"),
           "frames[0]: expected an object, found a string")
    mutate("missing-sites", lambda p: p.pop("sites"), "sites: missing")
    mutate("sites-object", lambda p: p.update(sites={}), "sites: expected an array, found an object")
    mutate("string-count", lambda p: p["sites"][0].update(total_bytes="12"),
           "sites[0].total_bytes: expected an integer, found a string")
    mutate("huge-count", lambda p: p["sites"][0].update(total_bytes=2 ** 53 + 1),
           "sites[0].total_bytes: value out of range (more than 2^53 - 1)")
    frames = len(base["frames"])
    stack1 = len(base["sites"][1]["stack"])
    mutate("stack-range", lambda p: p["sites"][1]["stack"].append(99),
           f"sites[1].stack[{stack1}]: frame index 99 out of range ({frames} frames)")
    stack0 = len(base["sites"][0]["stack"])
    mutate("name-frame-range", lambda p: p["sites"][0].update(name_frame=7),
           f"sites[0].name_frame: 7 is outside the stack ({stack0} frames)")
    mutate("wrong-id", lambda p: p["sites"][1].update(id=5), "sites[1].id: is 5, must equal the site's position")
    sites = len(base["sites"])
    mutate("finding-site", lambda p: p["findings"][0].update(site=99),
           f"findings[0].site: site 99 does not exist ({sites} sites)")
    # Relations (docs/profile-rules.json).
    mutate("peak-after-end", lambda p: p["peak"].update(time=3 * duration),
           relation("peak.time", "run.duration", 3 * duration, duration))
    blocks = base["totals"]["blocks"]
    mutate("more-frees-than-blocks", lambda p: p["totals"].update(frees=blocks + 1),
           relation("totals.frees", "totals.blocks", blocks + 1, blocks))
    max0 = base["sites"][0]["max_bytes"]
    mutate("site-peak-over-max", lambda p: p["sites"][0].update(bytes_at_peak=max0 + 1),
           relation("sites[].bytes_at_peak", "sites[].max_bytes", max0 + 1, max0, 0))
    mutate("site-alloc-after-end", lambda p: p["sites"][2].update(last_alloc_time=duration + 1),
           relation("sites[].last_alloc_time", "run.duration", duration + 1, duration, 2))
    life = base["sites"][1]["lifetime"]
    mutate("lifetime-min-over-max", lambda p: p["sites"][1]["lifetime"].update(min=life["max"] + 1),
           relation("sites[].lifetime.min", "sites[].lifetime.max", life["max"] + 1, life["max"], 1))

    with open(os.path.join(out, "expected.tsv"), "w") as f:
        for name, message in cases:
            f.write(f"{name}\t{message}\n")

    # Not hostile: a huge name, loaded and shown capped.
    p = copy.deepcopy(base)
    p["frames"][0]["function"] = "f" * int(long_mb * 1024 * 1024)
    p["run"]["command"].append("\u00e9" * 1024 * 1024)   # 1 Mi characters, 2 MiB
    with open(os.path.join(out, "long-name.json"), "w") as f:
        json.dump(p, f)


if __name__ == "__main__":
    main()
