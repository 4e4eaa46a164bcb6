#!/usr/bin/env python3
"""Assertions on lifeheap profiles for tests/tool/run.sh.

Usage:
  check.py PROGRAM PROFILE SOURCE [STDOUT]   exact checks for one test program
  check.py schema SCHEMA PROFILE...          validate profiles against the schema
  check.py determinism PROFILE_A PROFILE_B   equal except pid/ppid/times/out_file
  check.py dhat PROFILE DHAT_FILE            per-site agreement with DHAT

Prints one "PASS name" or "FAIL name: why" line per assertion; run.sh counts
them.  Built on tests/lib/profile_check.py (results, schema and table
contracts).  Sites are found through "SITE <tag>" comments in the test
programs: the tag's line is the line of the frame that calls the allocator
(or, for deeper frames, the line of the call); a tag missing from the source
is an error, so a check that no site is at a tag proves the tag exists.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import profile_check as pc  # noqa: E402

results = pc.Results()
check = results.check
eq = results.eq
load = pc.load


def site_lines(source):
    lines = {}
    with open(source) as f:
        for number, text in enumerate(f, 1):
            m = re.search(r"SITE (\w+)", text)
            if m:
                lines[m.group(1)] = number
    return lines


class Profile:
    def __init__(self, path, source):
        self.d = load(path)
        self.file = os.path.basename(source)
        self.lines = site_lines(source)

    def frame(self, index):
        return self.d["frames"][index]

    def stack(self, site):
        return [self.frame(i) for i in site["stack"]]

    def where(self, site):
        return [(f["function"], f["file"], f["line"]) for f in self.stack(site)]

    def sites_at(self, *tags):
        """Sites whose innermost frames are at the tagged lines of the test
        source, in that order (innermost first)."""
        want = [self.lines[t] for t in tags]
        found = []
        for s in self.d["sites"]:
            frames = self.stack(s)
            if len(frames) < len(want):
                continue
            if all(f["file"] == self.file and f["line"] == line
                   for f, line in zip(frames, want)):
                found.append(s)
        return found

    def site(self, *tags):
        found = self.sites_at(*tags)
        check(f"site {'/'.join(tags)} exists once", len(found) == 1,
              f"found {len(found)} sites")
        return found[0] if found else None


def check_site(prefix, site, **expected):
    if site is None:
        return
    for key, value in expected.items():
        eq(f"{prefix} {key}", value, site[key])


def check_single_block_lifetime(prefix, site, lifetime):
    """A site with one block: sum == min == max == lifetime, one bucket."""
    if site is None:
        return
    lt = site["lifetime"]
    eq(f"{prefix} lifetime.sum", lifetime, lt["sum"])
    eq(f"{prefix} lifetime.min", lifetime, lt["min"])
    eq(f"{prefix} lifetime.max", lifetime, lt["max"])
    bucket = lifetime.bit_length()   # 0 for 0, i for 2^(i-1) <= x < 2^i
    eq(f"{prefix} lifetime.histogram", [0] * bucket + [1], lt["histogram"])


def check_run(p, program, code=0):
    run = p.d["run"]
    eq("run.command[0]", program, run["command"][0])
    eq("run.executable", os.path.realpath(program), run["executable"])
    eq("run.exit", {"status": "exited", "code": code}, run["exit"])
    eq("run.complete", True, run["complete"])
    eq("run.dump_reason", "exit", run["dump_reason"])
    eq("run.time_unit", "instructions", run["time_unit"])
    check("run.duration > 0", run["duration"] > 0)
    check("peak.time <= duration", p.d["peak"]["time"] <= run["duration"])


# ---------------------------------------------------------------- programs

def prog_leak(p, program, out):
    d = p.d
    check_run(p, program)
    eq("one site", 1, len(d["sites"]))
    eq("totals", {"blocks": 1, "bytes": 1000, "frees": 0, "reallocs": 0},
       {k: d["totals"][k] for k in ("blocks", "bytes", "frees", "reallocs")})
    eq("peak bytes/blocks", (1000, 1), (d["peak"]["bytes"], d["peak"]["blocks"]))
    eq("at_exit", {"bytes": 1000, "blocks": 1}, d["at_exit"])
    s = p.site("leak")
    check_site("leak", s, id=0, name_frame=0, total_blocks=1, total_bytes=1000,
               bytes_at_peak=1000, blocks_at_peak=1, max_bytes=1000, max_blocks=1,
               bytes_at_exit=1000, blocks_at_exit=1, freed_blocks=0, reallocs=0,
               allocating_threads=1, cross_thread_frees=0)
    if s:
        eq("leak stack is main only", [("main", "leak.c", p.lines["leak"])], p.where(s))
        eq("leak max_time == alloc time == peak time",
           (s["first_alloc_time"],) * 3,
           (s["max_time"], s["last_alloc_time"], d["peak"]["time"]))
        check_single_block_lifetime("leak", s, d["run"]["duration"] - s["first_alloc_time"])
        frame = p.frame(s["stack"][0])
        eq("leak frame object", os.path.realpath(program), frame["object"])
        eq("leak frame directory", os.path.dirname(os.path.realpath(p.source)),
           frame["directory"])
        eq("leak frame inlined", False, frame["inlined"])


def prog_depths(p, program, out):
    d = p.d
    check_run(p, program)
    eq("totals blocks/bytes/frees", (9, 3845, 7),
       (d["totals"]["blocks"], d["totals"]["bytes"], d["totals"]["frees"]))
    eq("peak", {"bytes": 3205, "blocks": 3}, {k: d["peak"][k] for k in ("bytes", "blocks")})
    eq("at_exit", {"bytes": 3200, "blocks": 2}, d["at_exit"])
    shallow = p.site("shallow")
    check_site("shallow", shallow, total_blocks=4, total_bytes=40, freed_blocks=4,
               bytes_at_peak=0, max_bytes=10, max_blocks=1, bytes_at_exit=0)
    if shallow:
        eq("shallow stack", ["main"], [f[0] for f in p.where(shallow)])
    mid = p.site("middle", "call_middle")
    check_site("middle", mid, total_blocks=1, total_bytes=200, bytes_at_peak=200,
               bytes_at_exit=200, blocks_at_exit=1, freed_blocks=0, name_frame=0)
    mid2 = p.site("middle", "call_middle2")
    check_site("middle2", mid2, total_blocks=2, total_bytes=600, max_bytes=300,
               max_blocks=1, freed_blocks=2, bytes_at_exit=0)
    deep = p.site("deep", "level2", "level1", "call_deep")
    check_site("deep", deep, total_blocks=1, total_bytes=3000, bytes_at_peak=3000,
               blocks_at_peak=1, bytes_at_exit=3000)
    if deep:
        eq("deep stack functions", ["alloc_deep", "level2", "level1", "main"],
           [f[0] for f in p.where(deep)])
    deep2 = p.site("deep", "level2", "level1", "call_deep2")
    check_site("deep2", deep2, total_bytes=5, bytes_at_peak=5, blocks_at_peak=1,
               freed_blocks=1, bytes_at_exit=0)
    # Sorted by bytes at the peak, then total bytes; ids are positions.
    order = [s["id"] for s in (deep, mid, deep2, mid2, shallow) if s]
    eq("site order", [0, 1, 2, 3, 4], order)
    eq("ids are positions", list(range(len(d["sites"]))), [s["id"] for s in d["sites"]])
    # The frame table: first-use order, no duplicates.
    seen = []
    for s in d["sites"]:
        for i in s["stack"]:
            if i not in seen:
                seen.append(i)
    eq("frames in first-use order", list(range(len(d["frames"]))), seen)
    keys = [(f["address"], f["function"], f["inlined"]) for f in d["frames"]]
    eq("frames unique", len(keys), len(set(keys)))


def stdout_flags(out):
    """A test program's "name value" report lines, as a dict."""
    return dict(line.split() for line in out.splitlines() if line.strip())


def prog_realloc(p, program, out):
    flags = stdout_flags(out)
    eq("grow to 104 stays in place", "inplace", flags.get("grow104"))
    eq("shrink stays in place", "inplace", flags.get("shrink50"))
    eq("grow to 10000 moves", "moved", flags.get("grow10000"))
    eq("realloc(p, 0) returns NULL", "null", flags.get("realloc0"))
    check_run(p, program)
    copied = (100 if flags.get("grow104") == "moved" else 0) + \
             (104 if flags.get("shrink50") == "moved" else 0) + \
             (50 if flags.get("grow10000") == "moved" else 0)
    g = p.site("grow")
    check_site("grow", g, total_blocks=1, reallocs=3,
               realloc_requested_bytes=104 + 50 + 10000,
               realloc_growth_bytes=4 + 9950, total_bytes=100 + 4 + 9950,
               realloc_bytes_copied=copied, max_bytes=10000, max_blocks=1,
               freed_blocks=1, bytes_at_exit=0)
    n = p.site("from_null")
    check_site("from_null", n, total_blocks=1, total_bytes=64, reallocs=0,
               freed_blocks=1, bytes_at_exit=0, max_bytes=64)
    if n:
        eq("realloc(NULL) stack starts in main", "main", p.where(n)[0][0])
    t = p.d["totals"]
    eq("totals realloc figures", (3, 10154, 50, 9954),
       (t["reallocs"], t["realloc_requested_bytes"], t["realloc_bytes_copied"],
        t["realloc_growth_bytes"]))
    if g:
        lt = g["lifetime"]
        eq("realloc keeps one life (1 block in histogram)", 1, sum(lt["histogram"]))


def prog_small(p, program, out):
    flags = stdout_flags(out)
    eq("small: every block 16-aligned", "yes", flags.get("aligned"))
    eq("small: no two blocks at one address", "yes", flags.get("distinct"))
    eq("small: no block overwrote another", "yes", flags.get("intact"))
    eq("small: a freed slot is reused first by its class", "same", flags.get("reuse"))
    eq("small: realloc within the slot stays in place", "inplace", flags.get("grow30"))
    eq("small: realloc past the slot moves", "moved", flags.get("grow33"))
    eq("small: realloc past 256 bytes moves", "moved", flags.get("grow300"))
    eq("small: shrinking stays in place", "inplace", flags.get("shrink100"))
    eq("small: realloc keeps the contents", "yes", flags.get("kept"))
    check_run(p, program)
    total = sum(range(301))
    s = p.site("sizes")
    check_site("small sizes", s, total_blocks=301, total_bytes=total,
               freed_blocks=301, bytes_at_exit=0, max_blocks=301, max_bytes=total)
    if s:
        a = s["access"]
        eq("small sizes: written and read once per byte", (total, total, 0, 0),
           (a["bytes_written"], a["bytes_read"], a["never_written_bytes"],
            a["never_read_bytes"]))
    check_site("small reuse", p.site("reuse_first"), total_blocks=1, total_bytes=40,
               freed_blocks=1)
    check_site("small reuse", p.site("reuse_second"), total_blocks=1, total_bytes=48,
               freed_blocks=1)
    check_site("small classes", p.site("classes"), total_blocks=1, reallocs=4,
               realloc_requested_bytes=30 + 33 + 300 + 100,
               realloc_growth_bytes=10 + 3 + 267, total_bytes=300,
               realloc_bytes_copied=30 + 33, max_bytes=300, freed_blocks=1)


def prog_window(p, program, out):
    check_run(p, program)
    w = p.site("window")
    check_site("window", w, total_blocks=4, freed_blocks=4)
    if w:
        lt = w["lifetime"]
        h = lt["histogram"]
        bucket = lambda x: x.bit_length()
        eq("window: 4 blocks in the histogram", 4, sum(h))
        eq("window: the histogram ends at the longest block's bucket",
           bucket(lt["max"]) + 1, len(h))
        eq("window: the longest block alone in its bucket", 1, h[-1])
        eq("window: the two idle blocks share the shortest bucket", 2, h[bucket(lt["min"])])
        eq("window: three buckets used, the rest 0", 3, sum(1 for c in h if c))


def prog_calloc(p, program, out):
    check_run(p, program)
    d = p.d
    eq("totals blocks/bytes/frees", (2, 300, 2),
       (d["totals"]["blocks"], d["totals"]["bytes"], d["totals"]["frees"]))
    check_site("calloc300", p.site("calloc300"), total_blocks=1, total_bytes=300,
               freed_blocks=1, max_bytes=300)
    check_site("calloc0", p.site("calloc0"), total_blocks=1, total_bytes=0,
               max_blocks=1, freed_blocks=1)
    eq("no block for an overflowing calloc", 0, len(p.sites_at("overflow")))
    eq("no block for a huge calloc", 0, len(p.sites_at("huge")))


def prog_aligned(p, program, out):
    check_run(p, program)
    d = p.d
    for tag, size in (("memalign", 100), ("posix_memalign", 200),
                      ("aligned_alloc", 512), ("valloc", 1000)):
        s = p.site(tag)
        check_site(tag, s, total_blocks=1, total_bytes=size)
        if s:
            eq(f"{tag} stack starts in main", "main", p.where(s)[0][0])
    eq("totals blocks/bytes", (4, 1812), (d["totals"]["blocks"], d["totals"]["bytes"]))
    eq("at_exit is the valloc block", {"bytes": 1000, "blocks": 1}, d["at_exit"])


def prog_newdelete(p, program, out):
    check_run(p, program)
    for tag, size in (("new", 24), ("new_array", 40), ("new_aligned", 192),
                      ("new_aligned_array", 384), ("new_nothrow", 24)):
        s = p.site(tag)
        check_site(tag, s, total_blocks=1, total_bytes=size, freed_blocks=1,
                   bytes_at_exit=0)
        if s:
            eq(f"{tag} stack starts in main", "main", p.where(s)[0][0])
    eq("nothing live at exit (libstdc++ pool freed too)", {"bytes": 0, "blocks": 0},
       p.d["at_exit"])
    pushes = [s for s in p.d["sites"]
              if any(p.frame(i)["line"] == p.lines["push_back"] and
                     p.frame(i)["file"] == p.file for i in s["stack"])]
    check("vector growth: one site, several blocks", len(pushes) == 1 and
          pushes[0]["total_blocks"] > 1, f"{len(pushes)} sites")
    if pushes:
        named = p.frame(pushes[0]["stack"][pushes[0]["name_frame"]])
        eq("vector growth named by the pushing function",
           ("fill_vector", p.lines["push_back"]),
           (named["function"].split("(")[0], named["line"]))


def prog_ownmax(p, program, out):
    check_run(p, program)
    d = p.d
    eq("peak", {"bytes": 1 << 20, "blocks": 1}, {k: d["peak"][k] for k in ("bytes", "blocks")})
    big = p.site("big")
    check_site("big", big, bytes_at_peak=1 << 20, blocks_at_peak=1, max_bytes=1 << 20)
    small = p.site("small")
    check_site("small", small, total_blocks=10, total_bytes=102400, max_bytes=102400,
               max_blocks=10, bytes_at_peak=0, blocks_at_peak=0, freed_blocks=10)
    if small:
        eq("small's max reached at its last allocation", small["last_alloc_time"],
           small["max_time"])
        check("small's max comes after the global peak", small["max_time"] > d["peak"]["time"],
              f"{small['max_time']} <= {d['peak']['time']}")
    if big and small:
        eq("sorted: big first", (0, 1), (big["id"], small["id"]))


def prog_lifetimes(p, program, out):
    check_run(p, program)
    same = p.site("same")
    outer, inner, forever = p.site("outer"), p.site("inner"), p.site("forever")
    if same:
        lt = same["lifetime"]
        check("same: 3 blocks on one code path live equally long",
              lt["min"] == lt["max"] and lt["sum"] == 3 * lt["min"] and lt["min"] > 0,
              f"{lt}")
        b = lt["min"].bit_length()
        eq("same: histogram", [0] * b + [3], lt["histogram"])
    if outer and inner:
        lo, li = outer["lifetime"]["max"], inner["lifetime"]["max"]
        gap = inner["first_alloc_time"] - outer["first_alloc_time"]
        check("outer allocated before inner", gap > 0, f"gap {gap}")
        check("outer outlives inner by more than the allocation gap", lo > li + gap,
              f"outer {lo}, inner {li}, gap {gap}")
        check_single_block_lifetime("outer", outer, lo)
        check_single_block_lifetime("inner", inner, li)
    if same and inner:
        check("inner (5000 iterations of work) outlives same (1000)",
              inner["lifetime"]["min"] > same["lifetime"]["max"])
    if forever:
        check_single_block_lifetime(
            "forever", forever, p.d["run"]["duration"] - forever["first_alloc_time"])
        eq("forever live at exit", 1, forever["blocks_at_exit"])


def prog_threads(p, program, out):
    check_run(p, program)
    eq("run.threads", 2, p.d["run"]["threads"])
    h = p.site("handover")
    check_site("handover", h, total_blocks=5, total_bytes=500, freed_blocks=5,
               cross_thread_frees=5, allocating_threads=1)
    m = p.site("make_block", "shared_alloc")
    check_site("make_block", m, total_blocks=2, total_bytes=14, freed_blocks=2,
               allocating_threads=2, cross_thread_frees=0)


def prog_zero(p, program, out):
    check_run(p, program)
    d = p.d
    check_site("zero", p.site("zero"), total_blocks=1, total_bytes=0, max_blocks=1,
               freed_blocks=1)
    check_site("zero2", p.site("zero2"), total_blocks=1, total_bytes=0,
               blocks_at_exit=1, bytes_at_exit=0)
    check_site("zero_realloc", p.site("zero_realloc"), total_blocks=1, reallocs=0,
               freed_blocks=1)
    eq("totals blocks/bytes/frees", (3, 0, 2),
       (d["totals"]["blocks"], d["totals"]["bytes"], d["totals"]["frees"]))
    eq("at_exit", {"bytes": 0, "blocks": 1}, d["at_exit"])


def prog_exit7(p, program, out):
    eq("exit code 7", {"status": "exited", "code": 7}, p.d["run"]["exit"])
    eq("command has the argument", [program, "7"], p.d["run"]["command"])


def prog_abort(p, program, out):
    eq("abort is a SIGABRT death", {"status": "signal", "signal": 6, "signal_name": "SIGABRT"},
       p.d["run"]["exit"])
    eq("abort: profile complete", True, p.d["run"]["complete"])
    check_site("abort: the block is live", p.site("exitcode"), blocks_at_exit=1)


def prog_badfree(p, program, out):
    check_run(p, program)
    eq("badfree: totals count the one real free", (1, 40, 1, 0),
       tuple(p.d["totals"][k] for k in ("blocks", "bytes", "frees", "reallocs")))
    check_site("badfree", p.site("badfree"), total_blocks=1, freed_blocks=1, bytes_at_exit=0)
    # free(p) again and free(&on_stack); realloc(&on_stack, 10)
    eq("badfree: every invalid free and realloc counted", (2, 1),
       (p.d["totals"]["invalid_frees"], p.d["totals"]["invalid_reallocs"]))


def prog_wrappers(p, program, out):
    check_run(p, program)
    s = [x for x in p.d["sites"] if x["total_bytes"] == 9]
    eq("strdup: one site of 9 bytes", 1, len(s))
    if s:
        frames = p.stack(s[0])
        eq("strdup: the stack starts in libc's strdup", "strdup", frames[0]["function"])
        named = frames[s[0]["name_frame"]]
        eq("strdup: named by its caller", ("copy_name", p.lines["strdup"]),
           (named["function"], named["line"]))


def prog_names(p, program, out):
    check_run(p, program)
    by_size = {s["total_bytes"]: s for s in p.d["sites"]}
    want = {24: ("grow_names", "names.c", p.lines["grow_names"]),
            40: ("make_record", "names.c", p.lines["make_record"]),
            56: ("preallocate_tables", "names.c", p.lines["preallocate_tables"]),
            72: ("lib_make", None, None),
            120: ("reallocate_index", "names.c", p.lines["reallocate_index"])}
    got = {}
    for size in want:
        s = by_size.get(size)
        if s:
            f = p.frame(s["stack"][s["name_frame"]])
            got[size] = (f["function"], f["file"], f["line"])
    eq("names: wrappers by name skipped, preallocate/reallocate kept, unnamed frame skipped", want, got)
    s = by_size.get(72)
    if s:
        eq("names: the stripped library's static function is frame 0, unnamed",
           (None, 1), (p.frame(s["stack"][0])["function"], s["name_frame"]))


def prog_hostile(p, program, out):
    # argv bytes: quote, backslash, control character, a lone 0xff, a
    # truncated UTF-8 sequence, then valid UTF-8 (e acute).
    eq("hostile argument escaped, bad UTF-8 replaced",
       'a"b\\c\x01\ufffd\ufffd(\u00e9', p.d["run"]["command"][1])


def prog_inlined(p, program, out):
    s = p.site("inl_make", "inl_wrap", "inl_main")
    check_site("inlined", s, total_bytes=202, name_frame=0)
    if s:
        frames = p.stack(s)
        eq("inline expansion: functions", ["make_buffer", "wrap_buffer", "main"],
           [f["function"] for f in frames])
        eq("inline expansion: inlined flags", [True, True, False],
           [f["inlined"] for f in frames])
        eq("inline expansion: one code address", 1, len({f["address"] for f in frames}))


def prog_noinline(p, program, out):
    eq("--read-inline-info=no: no inlined frame", [],
       [f["function"] for f in p.d["frames"] if f["inlined"]])
    s = [x for x in p.d["sites"] if x["total_bytes"] == 202]
    eq("--read-inline-info=no: the site is main's", ["main"],
       [p.frame(x["stack"][0])["function"] for x in s])


HASH = re.compile(r"::h[0-9a-f]{16}$")


def prog_rust(p, program, out):
    check_run(p, program)
    # The call of Vec::with_capacity in build(), below the std frames.
    found = [s for s in p.d["sites"]
             if any(p.frame(i)["file"] == "lhrust.rs" and
                    p.frame(i)["line"] == p.lines["rust_build"] for i in s["stack"])]
    eq("one site allocates in build()", 1, len(found))
    if found:
        site = found[0]
        named = p.frame(site["stack"][site["name_frame"]])
        eq("rust name frame", ("lhrust::store::table::build", "lhrust.rs", p.lines["rust_build"]),
           (named["function"], named["file"], named["line"]))
        eq("rust site bytes", 8000, site["total_bytes"])
    hashed = [f["function"] for f in p.d["frames"] if f["function"] and HASH.search(f["function"])]
    eq("no Rust hash suffixes", [], hashed)


def prog_shapes(p, program, out):
    """Each site's blocks by log2 size, and the run's blocks by size and
    lifetime (shapes.c gives the buckets)."""
    d = p.d
    check_run(p, program)
    expected = {"mixed": [1, 1, 2, 2, 1, 0, 0, 0, 0, 0, 2, 1, 0, 1],
                "grown": [0] * 7 + [1],
                "kept": [0] * 6 + [5]}
    for tag, histogram in expected.items():
        s = p.site(tag)
        if s is not None:
            eq(f"{tag} size_histogram", histogram, s["size_histogram"])
    # Every site: as many blocks by size as by lifetime, total_blocks.
    for s in d["sites"]:
        eq(f"site {s['id']} size_histogram counts total_blocks", s["total_blocks"], sum(s["size_histogram"]))
    # A site's own size x lifetime grid: only when its blocks have more than
    # one size class; rows by size bucket as shapes.c says.
    for tag in ("grown", "kept"):
        s = p.site(tag)
        if s is not None:
            check(f"{tag}: one size class, no blocks_by_size_and_lifetime",
                  "blocks_by_size_and_lifetime" not in s, str(s.get("blocks_by_size_and_lifetime")))
    for tag, rows in (("switch", {5: 4, 9: 3}), ("late", {5: 3, 13: 2}),
                      ("mixed", {0: 1, 1: 1, 2: 2, 3: 2, 4: 1, 10: 2, 11: 1, 13: 1})):
        s = p.site(tag)
        if s is None:
            continue
        cells = s.get("blocks_by_size_and_lifetime")
        check(f"{tag}: blocks_by_size_and_lifetime present", cells is not None, "")
        if cells is None:
            continue
        by_size = {}
        for sz, life, n in cells:
            by_size[sz] = by_size.get(sz, 0) + n
        eq(f"{tag}: grid blocks by size", rows, by_size)
    for tag, one_cell_rows in (("switch", (5, 9)), ("late", (5,))):
        s = p.site(tag)
        for sz in one_cell_rows:
            if s is not None and s.get("blocks_by_size_and_lifetime"):
                eq(f"{tag}: row {sz} is one cell (equal lifetimes)", 1,
                   sum(1 for c in s["blocks_by_size_and_lifetime"] if c[0] == sz))
    # The run's grid: cells in order, none empty, and its sums by size and by
    # lifetime are the sums of the sites' size and lifetime histograms.
    cells = d["blocks_by_size_and_lifetime"]
    check("grid cells sorted and distinct", [tuple(c[:2]) for c in cells] == sorted(set(tuple(c[:2]) for c in cells)),
          str(cells[:5]))
    check("grid cells hold blocks", all(c[2] > 0 for c in cells))
    by_size, by_life, sites_size, sites_life = {}, {}, {}, {}
    for sz, life, n in cells:
        by_size[sz] = by_size.get(sz, 0) + n
        by_life[life] = by_life.get(life, 0) + n
    for s in d["sites"]:
        for k, n in enumerate(s["size_histogram"]):
            if n:
                sites_size[k] = sites_size.get(k, 0) + n
        for k, n in enumerate(s["lifetime"]["histogram"]):
            if n:
                sites_life[k] = sites_life.get(k, 0) + n
    eq("grid by size = sites' size histograms", sites_size, by_size)
    eq("grid by lifetime = sites' lifetime histograms", sites_life, by_life)
    eq("grid counts every block", d["totals"]["blocks"],
       sum(c[2] for c in cells))
    # The kept blocks live to the end: five 48-byte blocks in size bucket 6, in the
    # lifetime bucket of their site's lifetimes.
    kept = p.site("kept")
    if kept is not None:
        life = kept["lifetime"]["histogram"]
        for k, n in enumerate(life):
            if n:
                check(f"grid has kept's {n} block(s) of lifetime bucket {k}",
                      any(c[0] == 6 and c[1] == k and c[2] >= n for c in cells), str(cells))


PROGRAMS = {
    "leak": prog_leak, "depths": prog_depths, "realloc": prog_realloc,
    "calloc": prog_calloc, "aligned": prog_aligned, "newdelete": prog_newdelete,
    "ownmax": prog_ownmax, "lifetimes": prog_lifetimes, "threads": prog_threads,
    "zero": prog_zero, "small": prog_small, "window": prog_window, "hostile": prog_hostile, "badfree": prog_badfree, "wrappers": prog_wrappers, "names": prog_names,
    "shapes": prog_shapes, "inlined": prog_inlined, "noinline": prog_noinline,  "exit7": prog_exit7, "abort": prog_abort, "rust": prog_rust, "rust_v0": prog_rust,
}

# ---------------------------------------------------------------- whole-file checks


def site_grid_errors(d):
    """sites[].blocks_by_size_and_lifetime: cells sorted, distinct, non-zero,
    present exactly when the site's size_histogram has two classes or more,
    and summing by size to size_histogram and by lifetime to
    lifetime.histogram."""
    errors = []
    for s in d.get("sites", []):
        sizes = s.get("size_histogram")
        if sizes is None:
            continue
        classes = sum(1 for n in sizes if n)
        cells = s.get("blocks_by_size_and_lifetime")
        if (cells is not None) != (classes > 1):
            errors.append(f"site {s['id']}: {classes} size classes, grid {'present' if cells is not None else 'absent'}")
            continue
        if cells is None:
            continue
        keys = [tuple(c[:2]) for c in cells]
        if keys != sorted(set(keys)) or any(c[2] <= 0 for c in cells):
            errors.append(f"site {s['id']}: cells not sorted, distinct and non-zero")
        by_size = [0] * len(sizes)
        by_life = [0] * len(s["lifetime"]["histogram"])
        for sz, life, n in cells:
            if sz >= len(by_size) or life >= len(by_life):
                errors.append(f"site {s['id']}: cell {sz},{life} outside the histograms")
                break
            by_size[sz] += n
            by_life[life] += n
        else:
            if by_size != sizes:
                errors.append(f"site {s['id']}: grid by size {by_size} != size_histogram {sizes}")
            if by_life != s["lifetime"]["histogram"]:
                errors.append(f"site {s['id']}: grid by lifetime != lifetime.histogram")
    return errors


def cmd_schema(schema_path, profiles):
    import jsonschema
    if os.path.realpath(schema_path) != os.path.realpath(pc.SCHEMA):
        check("schema: the schema is docs/lifeheap-profile.schema.json", False, schema_path)
        return
    jsonschema.Draft202012Validator.check_schema(load(schema_path))
    check("schema: any profile to validate", len(profiles) > 0, "no profile given")
    for path in profiles:
        d = load(path)
        name = f"schema {os.path.basename(path)}"
        for title, errors in (("", pc.schema_errors(d)),
                              (": stack and name_frame indices valid", pc.index_errors(d)),
                              (": globals are the sums over sites", pc.sums_errors(d)),
                              (": no frame inside lifeheap's malloc replacement",
                               pc.preload_frame_errors(d)),
                              (": timeline peak point is the peak", pc.peak_point_errors(d)),
                              (": site size x lifetime grids add up", site_grid_errors(d))):
            check(name + title, not errors, "; ".join(errors))


VOLATILE = [("run", "pid"), ("run", "ppid"), ("run", "started_at_unix_ms"),
            ("run", "wall_time_ms")]


def cmd_determinism(a_path, b_path):
    a, b = load(a_path), load(b_path)
    for d in (a, b):
        for outer, key in VOLATILE:
            d[outer].pop(key, None)
        d["run"]["options"].pop("out_file", None)
    eq("two runs give the same profile except pid and times", True, a == b)
    if a != b:
        for key in a:
            if a[key] != b.get(key):
                check(f"determinism: {key} differs", False, "")


def collapse(frames, depth):
    """frames: (address, function, line) innermost first.  Groups the
    frames of one code address (inline expansion), keys each group by its
    functions and lines (shared libraries load at different addresses
    under different tools, so addresses cannot be compared), and cuts the
    stack to depth addresses: DHAT's stacks keep the malloc frame inside
    its preload, so with --num-callers=N they hold N-1 program frames."""
    groups = []
    last = None
    for address, function, line in frames:
        if address != last:
            groups.append([])
            last = address
        groups[-1].append((function, line))
    return tuple(tuple(g) for g in groups[:depth])


DHAT_FRAME = re.compile(r"^0x([0-9A-Fa-f]+): (.*?)(?: \((?:in .*|.*:(\d+))\))?$")


def dhat_sites(dh, depth):
    ftbl = dh["ftbl"]
    sites = {}
    for pp in dh["pps"]:
        texts = [ftbl[i] for i in pp["fs"]]
        while texts and ("vgpreload_dhat" in texts[0] or "vg_replace_malloc" in texts[0]):
            texts.pop(0)
        frames = []
        for t in texts:
            m = DHAT_FRAME.match(t)
            function = None if m.group(2) == "???" else m.group(2)
            frames.append((int(m.group(1), 16), function,
                           int(m.group(3)) if m.group(3) else None))
        key = collapse(frames, depth)
        add_into(sites, key, {k: pp[k] for k in ("tb", "tbk", "gb", "gbk", "eb", "ebk")})
    return sites


def add_into(table, key, values):
    if key in table:
        for k, v in values.items():
            table[key][k] += v
    else:
        table[key] = dict(values)


def cmd_dhat(profile_path, dhat_path):
    d = load(profile_path)
    dh = load(dhat_path)
    name = os.path.basename(profile_path)
    depth = d["run"]["options"]["num_callers"] - 1
    ours = {}
    for s in d["sites"]:
        key = collapse([(int(d["frames"][i]["address"], 16), d["frames"][i]["function"],
                         d["frames"][i]["line"]) for i in s["stack"]], depth)
        # DHAT counts each realloc as a new block of the new size.
        add_into(ours, key, {
            "tb": s["total_bytes"] - s["realloc_growth_bytes"] + s["realloc_requested_bytes"],
            "tbk": s["total_blocks"] + s["reallocs"],
            "gb": s["bytes_at_peak"], "gbk": s["blocks_at_peak"],
            "eb": s["bytes_at_exit"], "ebk": s["blocks_at_exit"],
        })
    theirs = dhat_sites(dh, depth)
    check(f"dhat {name}: compares more than one site", len(theirs) > 1, f"{len(theirs)} sites")
    mismatches = []
    for key in sorted(set(ours) | set(theirs), key=repr):
        a, b = ours.get(key), theirs.get(key)
        if a != b:
            mismatches.append(f"stack {key[:2]}...: "
                              f"lifeheap (counted as DHAT does) {a}, DHAT {b}")
    eq(f"dhat {name}: total bytes/blocks, bytes and blocks at t-gmax and t-end agree per site",
       [], mismatches)
    eq(f"dhat {name}: global peak", sum(v["gb"] for v in theirs.values()), d["peak"]["bytes"])


def main(argv):
    if argv[1] == "schema":
        cmd_schema(argv[2], argv[3:])
    elif argv[1] == "determinism":
        cmd_determinism(argv[2], argv[3])
    elif argv[1] == "dhat":
        cmd_dhat(argv[2], argv[3])
    else:
        program_kind, program, profile, source = argv[1:5]
        out = open(argv[5]).read() if len(argv) > 5 else ""
        try:
            p = Profile(profile, source)
        except (OSError, ValueError) as e:
            check(f"{program_kind}: profile readable", False, str(e))
        else:
            p.source = source
            PROGRAMS[program_kind](p, program, out)
    results.prefix = "" if argv[1] in ("schema", "determinism", "dhat") else argv[1] + ": "
    results.print()


if __name__ == "__main__":
    main(sys.argv)
