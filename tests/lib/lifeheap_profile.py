"""Reads a lifeheap profile the way the lifeheap command and the viewer do.

A version 2 profile leaves out site members that hold their default
(docs/format.md, "Omitted members"). load() and expand() put every one of
them back, so that tests read each figure by its name whatever the
version, as cli/profile_defaults.c and viewer/src/model/profile.js do.
A version 1 profile is returned as it is.
"""
import json
import sys

COUNTS_ZERO = ("total_blocks", "total_bytes", "bytes_at_peak", "blocks_at_peak",
               "bytes_at_exit", "blocks_at_exit", "freed_blocks", "reallocs",
               "realloc_requested_bytes", "realloc_bytes_copied", "realloc_growth_bytes",
               "first_alloc_time", "cross_thread_frees")
ACCESS_ZERO = ("bytes_read", "bytes_written", "written_never_read_bytes",
               "idle_before_free", "first_access_delay")
ACCESS_OF_MEASURED = ("never_read_bytes", "never_written_bytes", "never_accessed_bytes",
                      "unused_capacity_bytes")
AT_PEAK_OF_BYTES = ("never_read_bytes", "never_written_bytes", "never_accessed_bytes",
                    "unused_capacity_bytes")


def _histogram(obj, start_key, key):
    start = obj.pop(start_key, 0)
    obj[key] = [0] * start + obj.get(key, []) if (start or key in obj) else []


def label_of(site, frames):
    """The label joined from the frame table (docs/format.md)."""
    stack, name = site["stack"], site["name_frame"]
    text = frames[stack[name]]["text"] if stack else "???"
    callee_seen = False
    for position in site.get("label_frames", []):
        if position > name:
            text += " via "
        elif callee_seen:
            text += " > "
        else:
            text += ", allocated by "
            callee_seen = True
        text += frames[stack[position]]["text"]
    if site.get("label_number", 0):
        text += " #%d" % site["label_number"]
    return text


def expand_site(site, index, frames, allocator_stacks):
    site.setdefault("id", index)
    site.setdefault("stack", [])
    site.setdefault("name_frame", 0)
    if "label" not in site:
        site["label"] = label_of(site, frames)
    site.pop("label_frames", None)
    site.pop("label_number", None)
    if "match_key" not in site:
        kept = site.pop("match_frames", range(len(site["stack"])))
        site["match_key"] = "".join(frames[site["stack"][p]]["match_text"] + "\n" for p in kept)
        site["match_lines"] = [frames[site["stack"][p]]["line"] or 0 for p in kept]
    site.setdefault("runtime_only", False)
    site.setdefault("notes", [])
    for key in COUNTS_ZERO:
        site.setdefault(key, 0)
    site.setdefault("max_bytes", site["total_bytes"])
    site.setdefault("max_blocks", site["total_blocks"])
    site.setdefault("max_time", site["first_alloc_time"])
    site.setdefault("last_alloc_time", site["first_alloc_time"])
    site.setdefault("allocating_threads", 1)
    life = site.setdefault("lifetime", {})
    life.setdefault("sum", 0)
    life.setdefault("min", life["sum"])
    life.setdefault("max", life["sum"])
    _histogram(life, "histogram_start", "histogram")
    _histogram(site, "size_histogram_start", "size_histogram")
    zero = site.setdefault("zero_size_blocks", {})
    for key in ("total", "at_peak", "at_exit"):
        zero.setdefault(key, 0)
    if "allocator_frames" not in site:
        stack_index = site.pop("allocator_stack", None)
        site["allocator_frames"] = ([dict(f) for f in allocator_stacks[stack_index]]
                                    if stack_index is not None else [])
    access = site.setdefault("access", {})
    access.setdefault("block_size", None)
    for key in ACCESS_ZERO:
        access.setdefault(key, 0)
    access.setdefault("measured_bytes", site["total_bytes"])
    for key in ACCESS_OF_MEASURED:
        access.setdefault(key, access["measured_bytes"])
    at_peak = access.setdefault("at_peak", {})
    at_peak.setdefault("bytes", site["bytes_at_peak"])
    for key in AT_PEAK_OF_BYTES:
        at_peak.setdefault(key, at_peak["bytes"])
    access.setdefault("map", None)
    site.setdefault("growth", None)
    return site


def expand(profile):
    """Puts back every omitted member of a version 2 profile, in place."""
    if not isinstance(profile, dict) or profile.get("format_version") != 2:
        return profile
    frames = profile.get("frames", [])
    stacks = profile.get("allocator_stacks", [])
    for index, site in enumerate(profile.get("sites", [])):
        expand_site(site, index, frames, stacks)
    return profile


def as_version1(profile):
    """The profile as version 1 writes it: every member, no references."""
    expand(profile)
    profile["format_version"] = 1
    profile.pop("allocator_stacks", None)
    for frame in profile.get("frames", []):
        frame.pop("text", None)
        frame.pop("match_text", None)
    return profile


def main(argv):
    """lifeheap_profile.py v1 IN OUT [--no-keys]: writes IN as version 1
    (--no-keys: without match_key and match_lines, as profiles written
    before the keys existed)."""
    if len(argv) < 4 or argv[1] != "v1":
        sys.exit("usage: lifeheap_profile.py v1 IN OUT [--no-keys]")
    with open(argv[2], encoding="utf-8") as f:
        profile = as_version1(json.load(f))
    if "--no-keys" in argv[4:]:
        for site in profile["sites"]:
            site.pop("match_key", None)
            site.pop("match_lines", None)
    with open(argv[3], "w", encoding="utf-8") as f:
        json.dump(profile, f)


def load(path):
    with open(path, encoding="utf-8") as f:
        return expand(json.load(f))


if __name__ == "__main__":
    main(sys.argv)
