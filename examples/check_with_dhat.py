#!/usr/bin/env python3
# check_with_dhat.py - cross-checks the numbers each example's header comment
# claims against Valgrind's own DHAT, so an edit that breaks the arithmetic
# (or the program) is caught. This checks the examples, not lifeheap.
#
#   examples/check_with_dhat.py [DIR]     DIR holds the built examples
#                                         (default: this script's directory)
#
# For every example it runs `valgrind --tool=dhat`, then looks for each
# expected site: a program point whose stack contains the named function and
# whose blocks have the given size, with every listed DHAT field equal (or,
# for the fields marked min/max, within the bound). Rust examples are checked
# only when they were built. Exit status 0 when everything matches, 1 if not.
#
# DHAT field names: tbk total blocks, tb total bytes, gbk/gb blocks/bytes at
# the global peak, ebk/eb at exit, rb/wb bytes read/written. Reads and writes
# of the queue messages are not checked: DHAT drops some of them (it treats
# accesses near a thread's stack pointer as stack accesses), see README.md.
# Valgrind runs with --fair-sched=yes so that the queues' pile-up does not
# depend on the machine's load (README.md, "Run-to-run variation").
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import subprocess
import sys
import tempfile

# (program, function, block size, {field: value} exact, {field: (min, max)})
EXPECTED = [
    ("queue_unbounded", "queue_push_message", 4112,
     {"tbk": 2000, "tb": 8224000, "eb": 0}, {"gbk": (500, 2000)}),
    ("queue_bounded", "queue_push_message", 4112,
     {"tbk": 2000, "tb": 8224000, "eb": 0}, {"gbk": (1, 10)}),
    ("prealloc_oversized", "connection_new", 262144,
     {"tbk": 64, "gb": 16777216, "rb": 2048, "wb": 16781312, "eb": 0}, {}),
    ("prealloc_oversized", "connection_new", 10240,
     {"tbk": 64, "gb": 655360, "rb": 16384, "wb": 16384}, {}),
    ("prealloc_oversized", "connection_new", 1600,
     {"tbk": 64, "gb": 102400, "rb": 8192, "wb": 8192}, {}),
    ("prealloc_oversized", "connection_new", 40, {"tbk": 64}, {}),
    ("prealloc_sized", "connection_new", 32,
     {"tbk": 64, "rb": 2048, "wb": 6144}, {}),      # packet window
    ("prealloc_sized", "connection_new", 32,
     {"tbk": 64, "rb": 16384, "wb": 16384}, {}),    # write buffer
    ("prealloc_sized", "connection_new", 128,
     {"tbk": 64, "rb": 8192, "wb": 8192}, {}),      # event queue
    ("leak_cache", "session_cache_insert", 256,
     {"tbk": 10000, "eb": 2560000, "ebk": 10000, "wb": 2560000}, {}),
    ("leak_cache", "config_load", 16384,
     {"tbk": 1, "eb": 16384, "rb": 9600000, "wb": 16384}, {}),
    ("leak_cache", "session_cache_new", 8192, {"tbk": 1, "eb": 8192}, {}),
    ("leak_cache_evicting", "session_cache_insert", 256,
     {"tbk": 10000, "gbk": 256, "eb": 0, "wb": 2560000}, {}),
    ("leak_cache_evicting", "config_load", 16384,
     {"tbk": 1, "eb": 16384, "rb": 9600000}, {}),
    ("leak_cache_evicting", "session_cache_new", 8192, {"tbk": 1, "eb": 0}, {}),
    ("leak_cache_evicting", "session_cache_new", 2048, {"tbk": 1, "eb": 0}, {}),
    # DHAT counts every realloc as a block of the new size: 16 x (1+...+5,000)
    # bytes in 5,000 blocks; reads/writes include the 199,960,000 copied bytes.
    ("growth_noreserve", "reading_log_append", None,
     {"tbk": 5000, "tb": 200040000, "gb": 80000, "rb": 200040000,
      "wb": 200040000, "eb": 0}, {}),
    ("growth_reserve", "reading_log_reserve", 80000,
     {"tbk": 1, "rb": 80000, "wb": 80000, "eb": 0}, {}),
    ("churn", "record_encode", 64,
     {"tbk": 200000, "tb": 12800000, "rb": 12800000, "wb": 12800000, "eb": 0},
     {"gbk": (0, 1)}),
    ("churn_reuse", "record_buffer_new", 64,
     {"tbk": 1, "rb": 12800000, "wb": 12800000, "eb": 0}, {}),
    ("well_behaved", "samples_load", 200000,
     {"tbk": 1, "rb": 400000, "wb": 200000, "eb": 0}, {}),
    ("well_behaved", "histogram_new", 1024,
     {"tbk": 1, "rb": 201024, "wb": 201024, "eb": 0}, {}),
    ("well_behaved", "cumulative_new", 1024,
     {"tbk": 1, "rb": 1024, "wb": 1024, "eb": 0}, {}),
    ("queue_unbounded_rs", "queue_push_message", 4096,
     {"tbk": 2000, "tb": 8192000, "eb": 0}, {"gbk": (500, 2000)}),
    ("queue_bounded_rs", "queue_push_message", 4096,
     {"tbk": 2000, "tb": 8192000, "eb": 0}, {"gbk": (1, 10)}),
    ("prealloc_oversized_rs", "Connection::new", 262144,
     {"tbk": 64, "gb": 16777216, "rb": 2048, "wb": 4096}, {}),
    ("prealloc_oversized_rs", "Connection::new", 10240,
     {"tbk": 64, "rb": 16384, "wb": 16384}, {}),
    ("prealloc_oversized_rs", "Connection::new", 1600,
     {"tbk": 64, "rb": 8192, "wb": 8192}, {}),
    ("prealloc_sized_rs", "Connection::new", 32,
     {"tbk": 64, "rb": 2048, "wb": 4096}, {}),      # packet window
    ("prealloc_sized_rs", "Connection::new", 32,
     {"tbk": 64, "rb": 16384, "wb": 16384}, {}),    # write buffer
    ("prealloc_sized_rs", "Connection::new", 128,
     {"tbk": 64, "rb": 8192, "wb": 8192}, {}),
]


def run_dhat(program_path, out_dir):
    out_file = os.path.join(out_dir, os.path.basename(program_path) + ".dhat")
    result = subprocess.run(
        ["valgrind", "-q", "--tool=dhat", "--fair-sched=yes",
         "--dhat-out-file=" + out_file, program_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s exited with %d: %s" % (program_path, result.returncode,
                                                     result.stderr.strip()))
    with open(out_file) as handle:
        return json.load(handle)


def site_matches(profile, point, function, block_size, exact, bounds):
    frames = [profile["ftbl"][index] for index in point["fs"]]
    if not any(function in frame for frame in frames):
        return False
    if block_size is not None and point["tb"] != block_size * point["tbk"]:
        return False
    if any(point[field] != value for field, value in exact.items()):
        return False
    return all(low <= point[field] <= high for field, (low, high) in bounds.items())


def describe_candidates(profile, function):
    lines = []
    for point in profile["pps"]:
        frames = [profile["ftbl"][index] for index in point["fs"]]
        if any(function in frame for frame in frames):
            lines.append("    found: " + ", ".join(
                "%s=%d" % (field, point[field])
                for field in ("tbk", "tb", "gbk", "gb", "ebk", "eb", "rb", "wb")))
    return lines or ["    no program point mentions %s" % function]


def main():
    examples_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    failures = 0
    passes = 0
    profiles = {}
    with tempfile.TemporaryDirectory() as out_dir:
        for program, function, block_size, exact, bounds in EXPECTED:
            path = os.path.join(examples_dir, program)
            if not os.access(path, os.X_OK):
                if program.endswith("_rs"):
                    continue  # Rust examples are optional
                print("FAIL %s: not built (%s)" % (program, path))
                failures += 1
                continue
            if program not in profiles:
                try:
                    profiles[program] = run_dhat(path, out_dir)
                except RuntimeError as error:
                    profiles[program] = None
                    print("FAIL %s: %s" % (program, error))
                    failures += 1
            profile = profiles[program]
            if profile is None:
                continue
            label = "%s %s %s-byte blocks" % (program, function, block_size or "growing")
            if any(site_matches(profile, point, function, block_size, exact, bounds)
                   for point in profile["pps"]):
                passes += 1
                print("PASS " + label)
            else:
                failures += 1
                wanted = ", ".join("%s=%d" % item for item in exact.items())
                wanted += "".join(", %d<=%s<=%d" % (low, field, high)
                                  for field, (low, high) in bounds.items())
                print("FAIL %s: wanted %s" % (label, wanted))
                print("\n".join(describe_candidates(profile, function)))
    print("%d passed, %d failed" % (passes, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
