#!/usr/bin/env python3
"""Writes a synthetic lifeheap profile of about the given size for the CLI
benchmark (bench/cli_bench.sh): many sites with every field of the format
filled, 8-frame stacks over a shared frame table, per-site access data.

usage: cli_bench_gen.py OUT SITES SEED
SEED 0 is the baseline; another seed perturbs the numbers, drops 5% of the
sites and adds 5% new ones, as a changed build would. The figures obey the
consistency rules (docs/profile-rules.json), which the CLI enforces.
"""
import json
import random
import sys

out, site_count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
functions = [f"module_{i // 50}::function_{i}" for i in range(site_count // 2 + 100)]
frames, frame_index = [], {}


def frame(function, line):
    key = (function, line)
    if key not in frame_index:
        frame_index[key] = len(frames)
        frames.append({"function": function, "file": f"src/file_{hash(function) % 997}.c",
                       "directory": "/build/project", "line": line,
                       "object": "/usr/bin/service", "address": hex(0x400000 + 16 * len(frames)),
                       "inlined": False})
    return frame_index[key]


duration = 50_000_000_000
sites = []
for i in range(site_count):
    if seed and rng.random() < 0.05:
        continue                                   # vanished in the changed run
    base = random.Random(i)                        # same stack in both runs
    stack = [frame(functions[base.randrange(len(functions))], base.randrange(1, 3000))
             for _ in range(8)]
    scale = 1.0 + (rng.random() - 0.5) * 0.2 if seed else 1.0
    blocks = max(1, int(base.randrange(1, 5000) * scale))
    size = base.randrange(16, 8192)
    total = blocks * size
    live = int(total * base.random() * 0.3)
    read = int(total * base.random())
    sites.append({
        "id": 0, "stack": stack, "name_frame": 0,
        "total_blocks": blocks, "total_bytes": total,
        "bytes_at_peak": live, "blocks_at_peak": live // size,
        "max_bytes": min(total, live + size), "max_blocks": min(blocks, live // size + 1),
        "max_time": base.randrange(duration),
        "bytes_at_exit": live // 4, "blocks_at_exit": live // 4 // size,
        "freed_blocks": blocks - live // 4 // size,
        "lifetime": {"sum": blocks * 1000, "min": 10, "max": 100000,
                     "histogram": [base.randrange(100) for _ in range(20)]},
        "reallocs": 0, "realloc_requested_bytes": 0, "realloc_bytes_copied": 0,
        "realloc_growth_bytes": 0,
        "first_alloc_time": 100, "last_alloc_time": duration - 100,
        "allocating_threads": 1, "cross_thread_frees": 0,
        "access": {"bytes_read": read, "bytes_written": total, "measured_bytes": total,
                   "never_read_bytes": total - min(total, read), "never_written_bytes": 0,
                   "never_accessed_bytes": 0, "written_never_read_bytes": 0,
                   "unused_capacity_bytes": total // 10, "idle_before_free": 12345,
                   "first_access_delay": 678,
                   "at_peak": {"bytes": live, "never_read_bytes": live // 2,
                               "never_written_bytes": 0, "never_accessed_bytes": 0,
                               "unused_capacity_bytes": live // 10},
                   "map": {"kind": "buckets", "buckets": 16,
                           "reads": [base.randrange(10**6) for _ in range(16)],
                           "writes": [base.randrange(10**6) for _ in range(16)]}},
        "growth": None,
    })
if seed:
    for j in range(site_count // 20):                # new sites in the changed run
        stack = [frame(f"new_code::function_{j}", 10)] + [frame(functions[0], 1)]
        sites.append(dict(sites[0], stack=stack, total_bytes=4096, total_blocks=1,
                          bytes_at_peak=4096, blocks_at_peak=1, max_bytes=4096, max_blocks=1,
                          bytes_at_exit=0, blocks_at_exit=0, freed_blocks=1))
sites.sort(key=lambda s: (-s["bytes_at_peak"], -s["total_bytes"]))
for i, s in enumerate(sites):
    s["id"] = i
peak = sum(s["bytes_at_peak"] for s in sites)
profile = {
    "format": "lifeheap-profile", "format_version": 1,
    "tool": {"name": "lifeheap", "version": "0.1.0", "valgrind_version": "3.19.0"},
    "run": {"command": ["/usr/bin/service", "--bench"], "executable": "/usr/bin/service",
            "pid": 1000 + seed, "ppid": 1, "started_at_unix_ms": 0, "wall_time_ms": 0,
            "time_unit": "instructions", "duration": duration, "threads": 8,
            "exit": {"status": "exited", "code": 0}, "complete": True, "dump_reason": "exit",
            "options": {"num_callers": 12}},
    "totals": {"blocks": sum(s["total_blocks"] for s in sites),
               "bytes": sum(s["total_bytes"] for s in sites), "frees": 0, "reallocs": 0,
               "realloc_requested_bytes": 0, "realloc_bytes_copied": 0, "realloc_growth_bytes": 0,
               "bytes_read": 0, "bytes_written": 0},
    "peak": {"bytes": peak, "blocks": sum(s["blocks_at_peak"] for s in sites), "time": duration // 2},
    "at_exit": {"bytes": sum(s["bytes_at_exit"] for s in sites),
                "blocks": sum(s["blocks_at_exit"] for s in sites)},
    "frames": frames, "sites": sites,
    "timeline": {"times": [0, duration], "live_bytes": [0, 0], "live_blocks": [0, 0],
                 "peak_index": 0, "markers": [], "significant_site_fraction": 0.01},
    "findings": [],
}
with open(out, "w") as f:
    json.dump(profile, f, separators=(",", ":"))
