#!/usr/bin/env python3
"""Checks of site names on one profile (tests/names/run.sh).

check.py PROFILE SUMMARY_LOG REPORT_TEXT EXPECTATIONS_JSON

EXPECTATIONS_JSON: {"prefix": "rust conns", "labels": [[label regex, blocks,
bytes per block], ...]} -- each entry must match exactly one site, found by
its blocks and bytes, whose label matches the regex in full."""
import json
import re
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import lifeheap_profile  # noqa: E402  (reads a profile as the readers do)

profile_path, log_path, report_path, expect_json = sys.argv[1:5]
expect = json.loads(expect_json)
prefix = expect["prefix"]


def report(name, ok, why=""):
    print(("PASS %s: %s" % (prefix, name)) if ok else ("FAIL %s: %s: %s" % (prefix, name, why)))


profile = lifeheap_profile.load(profile_path)
log = open(log_path, encoding="utf-8", errors="replace").read()
text = open(report_path, encoding="utf-8", errors="replace").read()
# The text report wraps a line longer than 120 characters at a space, the rest
# indented 4 columns more (docs/cli.md): a site's heading is joined again.
while True:
    joined = re.sub(r"(?m)^(site \d+: .*)\n    (?=\S)", r"\1 ", text)
    if joined == text:
        break
    text = joined
raw = open(profile_path, encoding="utf-8").read()
sites = profile["sites"]
frames = profile["frames"]

for where, content in (("profile", raw), ("summary", log), ("report", text)):
    report("no UnknownInlinedFun in the " + where, "UnknownInlinedFun" not in content,
           "%d occurrences" % content.count("UnknownInlinedFun"))

labels = [s.get("label") for s in sites]
report("every site has a label", all(isinstance(l, str) and l for l in labels),
       "%d without" % sum(1 for l in labels if not l))
top = labels[:10]
report("the ten top sites have ten different labels", len(set(top)) == len(top) == min(10, len(sites)),
       repr(top))
report("all %d labels are different" % len(labels), len(set(labels)) == len(labels),
       repr([l for l in labels if labels.count(l) > 1][:4]))

for pattern, blocks, size in expect["labels"]:
    found = [s for s in sites if s["total_blocks"] == blocks and s["total_bytes"] == blocks * size]
    if len(found) != 1:
        report("one site of %d x %d B" % (blocks, size), False, "%d found" % len(found))
        continue
    site = found[0]
    report("site of %d x %d B is labelled %s" % (blocks, size, pattern),
           re.fullmatch(pattern, site["label"]) is not None, repr(site["label"]))

# The summary's top sites and the report's table show the profile's labels.
shown = [s for s in sites if s["bytes_at_peak"] > 0][:5]
for s in shown:
    report("summary shows site %d by its label" % s["id"],
           re.search(r"blocks? +" + re.escape(s["label"]) + r"\n", log) is not None, s["label"])
for s in sites[:10]:
    report("report shows site %d by its label" % s["id"],
           ("site %d: %s\n" % (s["id"], s["label"])) in text, s["label"])
# Findings' sentences name the site by its label.
for f in profile["findings"]:
    label = sites[f["site"]]["label"]
    if not label.startswith("???"):
        report("finding on site %d names its label" % f["site"], label in f["summary"], f["summary"])
