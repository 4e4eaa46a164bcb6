"""Checks for tests/cost/run.sh: reads the profiles (through
tests/lib/profile_check.py) and the tool's memory per cost centre from
Valgrind's --profile-heap=yes listing at exit."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import profile_check as pc  # noqa: E402

out = sys.argv[1]


def report(name, ok, why):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))


def core_peak_in_use(log_path):
    """The core arena's peak bytes in use over the whole run, from
    --stats=yes ("core : M/N max/curr mmap'd, ..., A/B max/curr")."""
    with open(log_path) as log:
        for line in log:
            match = re.search(r"core\s*:.*unmmap'd,\s*([\d,]+)/\s*[\d,]+ max/curr", line)
            if match:
                return int(match.group(1).replace(",", ""))
    return None


def core_arena_centres(log_path, column):
    """From the last listing of the core arena (the tool allocates there),
    each lifeheap cost centre ('lh.*') with one of its two figures:
    column 1, bytes in use; column 2, the number of allocations."""
    centres = None
    in_core = False
    with open(log_path) as log:
        for line in log:
            if line.startswith("-------- Arena "):
                in_core = line.startswith('-------- Arena "core"')
                if in_core:
                    centres = {}
                continue
            match = re.match(r"\s*([\d,]+) in\s+([\d,]+): (lh\.\S+)", line)
            if in_core and match:
                centres[match.group(3)] = int(match.group(column).replace(",", ""))
    return centres


def tool_allocations(log_path):
    """The number of allocations at exit per lifeheap cost centre."""
    return core_arena_centres(log_path, 2)


def tool_bytes(log_path):
    """Bytes in use at exit per lifeheap cost centre."""
    return core_arena_centres(log_path, 1)


# --- Memory per live block ------------------------------------------------
# blocks.c keeps COUNT 24-byte blocks live, all written and read, half of
# them freed and allocated again or reallocated.  Between 20,000 and 40,000
# blocks everything else (the site, tables, the timeline grid) is the same,
# so the difference of the tool's own bytes is the cost of 20,000 blocks:
# the record, the shadow granules, the free-slot lists.
small = tool_bytes(out + "/blocks-20k.log")
large = tool_bytes(out + "/blocks-40k.log")
if not small or not large:
    report("per-block memory: --profile-heap listing", False, "no core arena listing in the logs")
else:
    per_block = (sum(large.values()) - sum(small.values())) / 20000.0
    report("per-block memory: the tool's state for a used, churned 24-byte block is at most 128 bytes",
           0 < per_block <= 128, "%.1f bytes per block" % per_block)
    records = (large.get("lh.shadow.records", 0) - small.get("lh.shadow.records", 0)) / 20000.0
    # records come in pages of 1,024 (plus 63 bytes to align a page)
    report("per-block memory: a block record is 96 bytes",
           96 <= records <= 96 * 1.03, "%.1f bytes of records per block" % records)
    for name in ("blocks-20k", "blocks-40k"):
        profile = pc.load("%s/%s.json" % (out, name))
        count = 20000 if name == "blocks-20k" else 40000
        why = pc.evaluate(profile, "totals.blocks=%d" % (count + count // 4 + 1))
        report("%s: every block counted" % name, why is None, why)

# --- Per-site timelines ---------------------------------------------------
profile = pc.load(out + "/series.json")
sites = profile["sites"]
timeline = profile["timeline"]
report("series: eight sites, all significant (each has a timeline)",
       len(sites) == 8 and all(s.get("timeline") for s in sites),
       "%d sites, %d with a timeline" % (len(sites), sum(1 for s in sites if s.get("timeline"))))
points = len(timeline["times"])
sums = [sum(s["timeline"]["live_bytes"][p] for s in sites if s.get("timeline")) for p in range(points)]
wrong = [p for p in range(points) if sums[p] != timeline["live_bytes"][p]]
report("series: at every point the sites' live bytes add up to the global live bytes",
       not wrong, "%d of %d points differ, first at %s" % (len(wrong), points, wrong[:1]))
changes = sum(sum(1 for p in range(1, points)
                  if s["timeline"]["live_bytes"][p] != s["timeline"]["live_bytes"][p - 1])
              for s in sites if s.get("timeline"))
big_steps = sum(1 for s in sites if s.get("timeline")
                for p in range(1, points)
                if abs(s["timeline"]["live_bytes"][p] - s["timeline"]["live_bytes"][p - 1]) >= 1 << 21)
report("series: the series change often and by steps over 2 MiB (multi-byte differences)",
       changes >= 8 * 300 and big_steps > 0, "%d changes, %d steps over 2 MiB" % (changes, big_steps))
centres = tool_bytes(out + "/series.log") or {}
series_bytes = centres.get("lh.timeline.site", 0)
# Each change is at least one entry of a site's series; sixteen bytes an
# entry (an interval and a 64-bit value) would need 16 * changes.
report("series: the sites' series take less than half of sixteen bytes an entry",
       0 < series_bytes < 8 * changes, "%d bytes for %d entries" % (series_bytes, changes))

# --- Memory per site ----------------------------------------------------
# sites.c DEPTH: 3^DEPTH sites of one 16-byte block each (and the site of
# the array holding them), no notes, all freed before exit.  Between depth
# 6 and 7 (730 and 2,188 sites) the peak of the tool's memory, the profile's
# output included, grows by the cost of 1,458 sites: the record, the stack,
# the access map of a 16-byte block, the label and frame list, the block's
# record and shadow.  About 705 bytes (846 with 4-byte access counts
# and the label refinement's keys made anew at each depth; 956 with, also,
# the stack in Valgrind's ExeContext; 1,020 with the 432-byte record and a
# label in an array of its own; 1,358 before the access map's 4-byte
# counts, the one-byte timeline entries and the output's lifetimes shared
# with the record for a site with no live block); 4-byte access counts
# (64 bytes more a site), notes space for every site (744 bytes) or a
# live-block fold in every record would exceed the bound.
for name, count in (("sites-6", 730), ("sites-7", 2188)):
    profile = pc.load("%s/%s.json" % (out, name))
    why = pc.evaluate(profile, "sites.#=%d" % count)
    report("%s: %d sites" % (name, count), why is None, why)
    why = pc.evaluate(profile, "at_exit.blocks=0")
    report("%s: no block live at exit" % name, why is None, why)
low = core_peak_in_use(out + "/sites-6.log")
high = core_peak_in_use(out + "/sites-7.log")
if low is None or high is None:
    report("per-site memory: --stats=yes core arena line", False, "not in the logs")
else:
    per_site = (high - low) / (2188 - 730.0)
    report("per-site memory: the tool's peak grows by at most 760 bytes per site",
           0 < per_site <= 760, "%.1f bytes per site" % per_site)

# The sites' stacks are lifeheap's own (tool/lh_site_stacks.c): no Valgrind
# ExeContext is made for them, so the core holds only the null context it
# makes at start-up (--stats=yes: "exectx: ... 1 contexts").  The stacks are
# kept as variable-length differences: sites.c's stacks of 12 addresses
# (--num-callers' default: leaf, the eight levels of node, main and two of
# libc's start-up frames), most of them a byte from the one before (node's
# three calls lie within a few dozen bytes), fit in 32 bytes a site with
# the site's serial, beside the room left in the last chunk of 16 KiB
# (Valgrind's ExeContext was 120 bytes).
# The table finding a site by its stack and its recent entries are freed
# at the end of the run, before the report (the listing at exit is after
# it): no lookup follows, and the report reuses their memory.
def exe_contexts(log_path):
    with open(log_path) as log:
        for line in log:
            match = re.search(r"exectx: [\d,]+ lists, ([\d,]+) contexts", line)
            if match:
                return int(match.group(1).replace(",", ""))
    return None


for name, count in (("sites-6", 730), ("sites-7", 2188)):
    contexts = exe_contexts(out + "/%s.log" % name)
    report("%s: Valgrind made no ExeContext for the sites (only its null context)" % name,
           contexts == 1, "exectx: %s contexts" % contexts)
    centres = tool_bytes(out + "/%s.log" % name) or {}
    stacks = centres.get("lh.sites.stacks")
    report("%s: the %d sites' stacks of 12 addresses take at most 32 bytes a site" % (name, count),
           stacks is not None and 0 < stacks <= 32 * count + 16384 + 256,
           "lh.sites.stacks: %s bytes" % stacks)
    report("%s: the table of sites by stack was freed before the report" % name,
           stacks is not None and "lh.sites.by_stack" not in centres
           and "lh.sites.recent_stacks" not in centres,
           "lh.sites.by_stack: %s bytes, lh.sites.recent_stacks: %s bytes"
           % (centres.get("lh.sites.by_stack"), centres.get("lh.sites.recent_stacks")))

# A label is kept as its pieces (a UInt each: the name frame, each caller,
# callee or number appended), its text made when read, and the pieces of all
# labels form one tree (tool/lh_label_tree.c): labels that agree so far share
# their nodes (8 bytes: the piece and its parent).  sites-7's labels name
# the leaf and seven callers ("leaf (sites.c:15) via node ... via node ..."),
# 2,187 leaves' labels of 8 pieces whose callers branch three ways at each
# level, and main's of one: 1 + 3 + ... + 3^7 + 1 = 3,281 nodes (a node
# array of 4,096 after doubling), under half of the 17,497 pieces' 4 bytes
# each, let alone their text.
# The listing at exit shows them (the sites keep their labels for a later
# dump).
profile7 = pc.load(out + "/sites-7.json")
label_text = sum(len(site["label"]) + 1 for site in profile7["sites"])
label_pieces = sum(1 + site["label"].count(" via ") for site in profile7["sites"])
node_bytes = (tool_bytes(out + "/sites-7.log") or {}).get("lh.labels.nodes")
report("sites-7: the labels are kept as shared pieces, under 2 bytes a piece",
       node_bytes is not None and label_pieces == 2187 * 8 + 1
       and label_text > 2188 * 100 and 0 < node_bytes < 2 * label_pieces,
       "lh.labels.nodes: %s bytes for %d pieces, the labels' text %d bytes"
       % (node_bytes, label_pieces, label_text))

# What only live blocks need is gone or was never made when none is live
# at exit; the listing at exit is after the profile was written.
freed = tool_allocations(out + "/sites-7.log")
kept = tool_allocations(out + "/sites-6-kept.log")
if not freed or not kept:
    report("live-block state: --profile-heap listings", False, "no core arena listing in the logs")
else:
    # records come from pools of 128 (tool/lh_sites.c): 18 pools hold
    # 2,188, and Valgrind's pool allocator adds its own bookkeeping under
    # the same name (3 allocations in Valgrind 3.19: itself, its list of
    # pools and the list's array)
    pools = freed.get("lh.sites.site")
    report("sites-7: the 2,188 site records exist at exit, in 18 pools of 128",
           pools is not None and 18 <= pools <= 18 + 3, "lh.sites.site: %s allocations" % pools)
    report("sites-7: no block live at exit, so the block records were given back",
           "lh.shadow.records" not in freed, "lh.shadow.records: %s" % freed.get("lh.shadow.records"))
    report("sites-7: no site had a live block at output, so no live-block fold was made",
           "lh.access.live" not in freed, "lh.access.live: %s" % freed.get("lh.access.live"))
    report("sites-6-kept: every one of the 730 sites has a live block: 730 folds, records kept",
           kept.get("lh.access.live") == 730 and kept.get("lh.shadow.records", 0) >= 1,
           "lh.access.live: %s, lh.shadow.records: %s"
           % (kept.get("lh.access.live"), kept.get("lh.shadow.records")))

def report_assertion(program, profile, assertion):
    """One profile_check assertion on a program's profile, reported."""
    why = pc.evaluate(profile, assertion)
    report(program + ": " + assertion, why is None, why)


def report_assertions(program, profile, *assertions):
    """Each of several profile_check assertions, reported on its own."""
    for assertion in assertions:
        report_assertion(program, profile, assertion)


# --- The bits of big blocks ----------------------------------------------
# bigarray.c: a 32 MiB block written in full and read but for one byte,
# and a 1 MiB + 8 byte block written in full and grown to 3 MiB (its bits
# copied), both live at exit.  The figures the bits give are exact; the
# bits cost per 64 KiB stretch only where part of it was read (written).
# Two bits a byte would be 8.75 MiB.
profile = pc.load(out + "/bigarray.json")
big, grown = "site[bytes_at_exit=33554432]", "site[bytes_at_exit=3145728]"
report_assertions("bigarray", profile,
                  big + ".access.bytes_read=33554431",
                  big + ".access.bytes_written=33554432",
                  big + ".access.never_read_bytes=1",
                  big + ".access.written_never_read_bytes=1",
                  big + ".access.never_written_bytes=0",
                  grown + ".access.bytes_written=1048584",
                  grown + ".access.never_written_bytes=2097144",
                  grown + ".access.written_never_read_bytes=1048584")
# Arrays of their own only where some but not all of a stretch's bits
# are set: the read bits of the stretch with the hole, and the written
# bits of the stretch where the grown block's written bytes stop.  The
# four stretches the blocks share with no other block at their ends are
# medium chunks, whose bits are kept per 1 KiB page: every byte the
# blocks own there is read and written (the grown block's start: written,
# never read), and the bytes of no block do not count, so each page ends
# at the shared all-set or all-clear array, with no set of its own (the
# sets a page holds while it fills come from one slab of 64).
centres = tool_allocations(out + "/bigarray.log") or {}
own_arrays = centres.get("lh.shadow.solo.bits")
report("bigarray: at exit two 64 KiB bit arrays of their own (the hole's, the grown block's)",
       own_arrays == 2, "lh.shadow.solo.bits: %s allocations" % own_arrays)
report("bigarray: the blocks' end stretches hold no 8 KiB array, at most one slab of page sets",
       centres.get("lh.shadow.page", 0) <= 1,
       "lh.shadow.page: %s slabs" % centres.get("lh.shadow.page", 0))
peak = core_peak_in_use(out + "/bigarray.log")
report("bigarray: the tool's peak in use stays under 6 MB (35 MiB of big blocks)",
       peak is not None and 0 < peak < 6000000, "core arena peak in use: %s bytes" % peak)

# pagesets.c: 60 blocks of 4,064 bytes at 1 KiB boundaries, written in
# full and read at their first 100 and last 268 bytes.  The figures are
# exact.  Their bits are kept per 1 KiB page: 120 pages read in part have
# a read set of their own (128 bytes, from slabs of 64: two slabs); the
# pages written in full have none, the fourth page of each block too,
# though its last 32 bytes belong to no block and are never written (a
# set for each would make three slabs); and no 8 KiB array anywhere.
profile = pc.load(out + "/pagesets.json")
block = "site[total_blocks=60]"
report_assertions("pagesets", profile,
                  block + ".access.bytes_written=243840",
                  block + ".access.bytes_read=22080",
                  block + ".access.never_read_bytes=221760",
                  block + ".access.never_written_bytes=0",
                  block + ".access.written_never_read_bytes=221760")
centres = tool_allocations(out + "/pagesets.log") or {}
report("pagesets: 120 page sets in two slabs of 64, no 8 KiB bit array",
       centres.get("lh.shadow.page") == 2 and centres.get("lh.shadow.solo.bits", 0) == 0
       and centres.get("lh.shadow.medium", 0) >= 1,
       "allocations at exit: %s" % {k: v for k, v in centres.items() if k.startswith("lh.shadow")})

# pagedup.c: 1,000 blocks of 4,064 bytes at 1 KiB boundaries, each
# written in full and read at its first 100 and last 268 bytes before the
# next is allocated; then bytes 100..199 of each read and the odd ones
# freed.  The figures are exact.  Every block's first and fourth pages
# hold the same read bits: a sweep at an allocation or free once 480 sets
# of their own are in use gives such pages one frozen set, so at most 480
# + 4 sets are ever in use (8 slabs of 64), where 2,000 would take 32.
profile = pc.load(out + "/pagedup.json")
block = "site[total_blocks=1000]"
report_assertions("pagedup", profile,
                  block + ".access.bytes_written=4064000",
                  block + ".access.bytes_read=468000",
                  block + ".access.never_read_bytes=3596000",
                  block + ".access.never_written_bytes=0",
                  block + ".access.written_never_read_bytes=3596000")
centres = tool_allocations(out + "/pagedup.log") or {}
report("pagedup: 2,000 page sets of the same bits in 8 slabs of 64 (32 unshared), one frozen index",
       centres.get("lh.shadow.page") == 8 and centres.get("lh.shadow.frozen.index") == 1
       and centres.get("lh.shadow.solo.bits", 0) == 0,
       "allocations at exit: %s" % {k: v for k, v in centres.items() if k.startswith("lh.shadow")})

# pages.c: 48 blocks of 4,368 bytes (a database's page cache) written in
# full and read at both ends; the odd ones freed and their places filled
# with three 400-byte blocks each, so that some 1 KiB stretches hold parts
# of three blocks; a quarter shrunk and grown back in place.  The figures
# are exact; the stretches holding only pages keep a medium chunk (two
# parts per 1 KiB, the bits in two arrays), the others a shared one.
profile = pc.load(out + "/pages.json")
page, filler = "site[total_blocks=48]", "site[total_blocks=72]"
report_assertions("pages", profile,
                  page + ".access.bytes_written=209664",
                  page + ".access.bytes_read=17664",
                  page + ".access.never_read_bytes=195216",
                  page + ".access.never_written_bytes=28416",
                  page + ".access.never_accessed_bytes=28416",
                  page + ".access.written_never_read_bytes=166800",
                  filler + ".access.bytes_written=28800",
                  filler + ".access.never_written_bytes=0",
                  filler + ".access.written_never_read_bytes=28800")
chunks = tool_allocations(out + "/pages.log") or {}
shadow = tool_bytes(out + "/pages.log") or {}
report("pages: at exit some 64 KiB stretches have a medium chunk and some a shared one",
       chunks.get("lh.shadow.medium", 0) >= 1 and chunks.get("lh.shadow.shared", 0) >= 1,
       "allocations at exit: %s" % {k: v for k, v in chunks.items() if k.startswith("lh.shadow")})
stretches = chunks.get("lh.shadow.medium", 0) + chunks.get("lh.shadow.shared", 0)
shadow_bytes = sum(v for k, v in shadow.items()
                   if k in ("lh.shadow.medium", "lh.shadow.shared", "lh.shadow.solo.bits",
                            "lh.shadow.page"))
report("pages: the stretches' shadow is under 32 KiB each (what shared chunks alone take)",
       stretches > 0 and shadow_bytes < stretches * 32768,
       "%d bytes for %d stretches" % (shadow_bytes, stretches))

# classes.c: one live block of each small size class (16, 32, ... 256
# bytes, in that order).  Each class's first run of slots is 1 KiB, cut in
# turn from one shared 64 KiB chunk (lh_small_alloc.c): block k lies k KiB
# after block 0, the client arena holds that one chunk, and the shadow
# keeps one shared chunk per 64 KiB stretch the blocks touch (one or two;
# a chunk per class put them in sixteen stretches or more).


def client_arena_centre(log_path, centre):
    """(bytes, allocations) in use at exit for one cost centre of the
    client arena (the program's memory), from the last listing."""
    found = None
    in_client = False
    with open(log_path) as log:
        for line in log:
            if line.startswith("-------- Arena "):
                in_client = line.startswith('-------- Arena "client"')
                if in_client:
                    found = (0, 0)
                continue
            match = re.match(r"\s*([\d,]+) in\s+([\d,]+): (\S+)", line)
            if in_client and match and match.group(3) == centre:
                found = (int(match.group(1).replace(",", "")), int(match.group(2).replace(",", "")))
    return found


try:
    with open(out + "/classes.out") as listing:
        addresses = [int(line, 16) for line in listing if line.strip()]
except (OSError, ValueError):
    addresses = []
report("classes: the program printed its 16 blocks' addresses", len(addresses) == 16,
       "%d addresses" % len(addresses))
if len(addresses) == 16:
    steps = [addresses[k] - addresses[0] for k in range(16)]
    report("classes: each class's first slot lies 1 KiB after the previous class's (one shared chunk)",
           steps == [1024 * k for k in range(16)], "offsets from block 0: %s" % steps)
    stretches = len(set(granule >> 16 for k, a in enumerate(addresses)
                        for granule in range(a, a + 16 * (k + 1), 16)))
    shared = (tool_allocations(out + "/classes.log") or {}).get("lh.shadow.shared", 0)
    report("classes: one shared shadow chunk per 64 KiB stretch the blocks touch, at most two",
           shared == stretches and 1 <= shared <= 2,
           "%s shared chunks, the blocks touch %d stretches" % (shared, stretches))
client = client_arena_centre(out + "/classes.log", "replacemalloc.cm.1")
report("classes: the client arena holds one 64 KiB chunk (not one per class)",
       client == (65536, 1), "replacemalloc.cm.1 at exit (bytes, allocations): %s" % (client,))
report_assertion("classes", pc.load(out + "/classes.json"), "totals.blocks=16")

# stacks.c: the main thread and three more.  Valgrind makes each thread's
# own stack (the core's and the tool's, filled with a pattern and so all
# resident) when the thread starts, and says so at -d: "allocated valgrind
# thread stack at ADDR size N", N the stack and a guard area of 8 KiB on
# each side.  lifeheap asks for 256 KiB where the core's default is 1 MiB;
# the user's --valgrind-stacksize wins, on the command line or in
# VALGRIND_OPTS.
GUARDS = 2 * 8192


def stack_sizes(log_path):
    try:
        with open(log_path) as log:
            return [int(m.group(1)) for m in
                    (re.search(r"allocated valgrind thread stack at \S+ size (\d+)", line) for line in log)
                    if m]
    except OSError:
        return []


for name, stack, why in (("stacks", 256 * 1024, "lifeheap's default"),
                         ("stacks-1m", 1024 * 1024, "--valgrind-stacksize=1048576"),
                         ("stacks-opts", 512 * 1024, "VALGRIND_OPTS=--valgrind-stacksize=524288")):
    sizes = stack_sizes("%s/%s.log" % (out, name))
    report("%s: four threads, four Valgrind stacks of %d KiB (%s)" % (name, stack // 1024, why),
           sizes == [stack + GUARDS] * 4, "stack sizes with guards: %s" % sizes)
    for assertion in ("site[name=work,frame=thread_main].total_blocks=3",
                      "site[name=work,frame=main].total_blocks=1"):
        report_assertion(name, pc.load("%s/%s.json" % (out, name)), assertion)

# --- The malloc family's calls without the scheduler -----------------------
# blocks 20000 calls the heap 35,001 times: the array, 20,000 mallocs, then
# 5,000 frees and mallocs and 5,000 reallocs.  Each call is a client request
# of the preload; when the scheduler handled it, the translations returned
# to it once per call (a "minor sched event" of --stats=yes each), so a run
# had more than 35,001.  Made from the translation (lh_client_calls.c), the
# calls add none: what is left is the program's start-up and system calls.
def scheduler_events(log_path):
    with open(log_path) as log:
        for line in log:
            match = re.search(r"scheduler: ([\d,]+)/([\d,]+) major/minor sched events", line)
            if match:
                return int(match.group(2).replace(",", ""))
    return None


events = scheduler_events(out + "/calls.log")
profile = pc.load(out + "/calls.json")
report_assertions("calls", profile,
                  "totals.blocks=25001", "totals.frees=5000", "totals.reallocs=5000")
report("calls: 35,001 heap calls of blocks 20000 made without returning to the scheduler",
       events is not None and events < 35001,
       "%s minor scheduler events (each call through the scheduler adds one)" % events)


# --- The allocation stacks' unwinding --------------------------------------
# Each new block's stack is unwound to at most --num-callers (12) frames of
# the program past the preload's leading ones (malloc's one frame; two when
# one replacement forwards to another), and no further than the first
# function below main (main's caller, __libc_start_call_main), unless
# --show-below-main=yes: beyond it lie only the C library's start-up and
# the words of the process's first stack, which no named stack shows.
# --stats=yes counts the stacks, the frames their unwinds found and the
# unwinds stopped below main.
def log_line_counts(log_path, pattern):
    """The counts (commas allowed) of the first line of the log that matches
    the pattern, as a tuple of ints; None when no line does."""
    with open(log_path) as log:
        for line in log:
            match = re.search(pattern, line)
            if match:
                return tuple(int(g.replace(",", "")) for g in match.groups())
    return None


def unwind_stats(log_path):
    return log_line_counts(log_path,
                           r"allocation stacks: ([\d,]+) unwound, ([\d,]+) frames "
                           r"found, ([\d,]+) stopped at a function below main")


# deepalign (its header comment): 21 calls deep, 5 posix_memalign (two
# preload frames, then 12 of the program's: 14 frames) and 5 malloc (one,
# then 12: 13); main is never reached.  Both sites keep 12 frames, allocate
# and 11 calls of down.
stats = unwind_stats(out + "/deepalign.log")
report("deepalign: 10 allocation stacks unwound, 5 x 14 + 5 x 13 = 135 frames found, "
       "none stopped below main", stats == (10, 135, 0), "--stats=yes says %s" % (stats,))
profile = pc.load(out + "/deepalign.json")
report_assertions("deepalign", profile,
                  "sites.#=2", "sites[*].total_blocks=[5,5]", "sites[*].stack.#=[12,12]")
# each site's stack, by function, and the preload frames it dropped
with open(out + "/deepalign.json") as raw:
    document = json.load(raw)
stacks = sorted(([document["frames"][i]["function"] for i in site["stack"]],
                 [f["function"] for f in document["allocator_stacks"][site["allocator_stack"]]])
                for site in document["sites"])
expected = sorted((["allocate"] + ["down"] * 11, preload)
                  for preload in (["memalign", "posix_memalign"], ["malloc"]))
report("deepalign: both sites keep allocate and 11 calls of down, posix_memalign's "
       "with its two preload frames dropped", stacks == expected, "stacks: %s" % (stacks,))

# sites 6 (-O0): 729 leaves, each unwound through malloc, leaf, 7 calls of
# node (depth 6 to 0), main and main's caller: 11 frames; the array's
# malloc in main: malloc, main, main's caller, 3.  All 730 stop below main.
profile = pc.load(out + "/sites-6.json")
report_assertion("sites-6", profile, "totals.blocks=730")
stats = unwind_stats(out + "/sites-6.log")
report("sites-6: 730 allocation stacks unwound, 729 x 11 + 3 = 8,022 frames found, "
       "all 730 stopped below main", stats == (730, 8022, 730), "--stats=yes says %s" % (stats,))
# With --merge-recursive-frames the tool asks Valgrind's unwinder for the
# full depth (14), which does not stop below main.
profile = pc.load(out + "/sites-6-merged.json")
report_assertion("sites-6-merged", profile, "totals.blocks=730")
stats = unwind_stats(out + "/sites-6-merged.log")
report("sites-6-merged: 730 allocation stacks unwound by Valgrind, none stopped below main",
       stats is not None and stats[0] == 730 and stats[2] == 0, "--stats=yes says %s" % (stats,))

# argvswap (its header comment): 20 allocations at one stack, argv[1] and
# argv[2] swapped between the two tens.  Each unwind finds malloc, allocate,
# main and main's caller and stops there: one site of 20 blocks, named
# allocate, main.  With --show-below-main=yes the unwind goes on past
# _start into the argv pointers, so the two tens are two sites.
stats = unwind_stats(out + "/argvswap.log")
report("argvswap: 20 allocation stacks unwound, 4 frames found for each, all stopped below main",
       stats == (20, 80, 20), "--stats=yes says %s" % (stats,))
profile = pc.load(out + "/argvswap.json")
report_assertions("argvswap", profile, "sites.#=1", "sites[0].total_blocks=20")
with open(out + "/argvswap.json") as raw:
    document = json.load(raw)
names = [[document["frames"][i]["function"] for i in site["stack"]] for site in document["sites"]]
report("argvswap: the site's stack is allocate, main", names == [["allocate", "main"]],
       "stacks: %s" % (names,))
stats = unwind_stats(out + "/argvswap-below.log")
report("argvswap --show-below-main=yes: 20 stacks unwound past main's caller, none stopped",
       stats is not None and stats[0] == 20 and stats[1] > 20 * 4 and stats[2] == 0,
       "--stats=yes says %s" % (stats,))
with open(out + "/argvswap-below.json") as raw:
    document = json.load(raw)
below = sorted((site["total_blocks"],
                [document["frames"][i]["function"] for i in site["stack"][:5]])
               for site in document["sites"])
report("argvswap --show-below-main=yes: two sites of 10 blocks, each allocate, main, "
       "__libc_start_call_main, __libc_start_main, _start and the argv words beyond",
       len(below) == 2 and all(blocks == 10 for blocks, _ in below)
       and all(stack[:3] == ["allocate", "main", "__libc_start_call_main"]
               and stack[4] == "_start" for _, stack in below)
       and all(len(site["stack"]) > 5 for site in document["sites"]),
       "sites: %s" % (below,))


# --lifeheap-check-unwind=yes: each stack the tool unwound, compared with
# Valgrind's own unwind of it; none may differ.  sites 6 makes 730 blocks
# at any optimisation, deepalign 10, argvswap 20; stacks one block a
# thread, and what the C library allocates for the threads: every block
# the profile counts.
def check_unwind_stats(log_path):
    return log_line_counts(log_path,
                           r"unwind check: ([\d,]+) stacks compared with Valgrind's "
                           r"unwinder, ([\d,]+) differed")


for name, blocks in (("sites", 730), ("sites-O2", 730), ("deepalign", 10),
                     ("argvswap", 20), ("stacks", None)):
    log = "%s/check-unwind-%s.log" % (out, name)
    compared = check_unwind_stats(log)
    if blocks is None:
        blocks = pc.load("%s/check-unwind-%s.json" % (out, name))["totals"]["blocks"]
    report("--lifeheap-check-unwind=yes on %s: %d stacks compared with Valgrind's "
           "unwind, none differed" % (name, blocks),
           compared == (blocks, 0) and unwind_stats(log)[0] == blocks,
           "the check says %s" % (compared,))


# --- Sites found by their stack --------------------------------------------
# stackloop (its header comment has the derivation): 1,729 allocations at
# 244 stacks.  The loop at one stack: 1 new site, then 1 found in the table,
# 1 among the recent stacks, 997 as the last lookup's answer.  The
# recursion's 243 stacks, three rounds: 243 new sites, then 486 found in the
# table, none copied into a recent entry (a stack is copied only when the
# table found it twice in a row for its entry: the loop's stack, once).
# The table's index must spread the stacks: a lookup that reaches the table
# reads about one entry (at most three quarters of the table is used, its
# hash folds the word's halves before the multiply); two a lookup is the
# bound here (without the fold the recursion's stacks crowd together: about
# ten).
def site_lookup_stats(log_path):
    with open(log_path) as log:
        for line in log:
            match = re.search(r"sites by stack: ([\d,]+) lookups, ([\d,]+) answered by the "
                              r"last answer, ([\d,]+) by the recent stacks, ([\d,]+) by the "
                              r"table \(([\d,]+) entries read\), ([\d,]+) stacks copied", line)
            if match:
                return tuple(int(g.replace(",", "")) for g in match.groups())
    return None


profile = pc.load(out + "/stackloop.json")
report_assertions("stackloop", profile,
                  "totals.blocks=1729", "totals.frees=1729", "sites.#=244")
stats = site_lookup_stats(out + "/stackloop.log")
if stats is None:
    report("stackloop: --stats=yes counts the site lookups", False, "no line in stackloop.log")
else:
    lookups, by_last, by_recent, by_table, entries_read, copies = stats
    report("stackloop: 1,729 lookups: 997 by the last answer, 1 by the recent stacks, "
           "487 by the table, 1 stack copied",
           (lookups, by_last, by_recent, by_table, copies) == (1729, 997, 1, 487, 1),
           "--stats=yes says %s" % (stats,))
    reached_table = by_table + 244      # the hits there and the new sites
    report("stackloop: at most two table entries read a lookup that reached the table",
           entries_read <= 2 * reached_table,
           "%d entries read for %d lookups" % (entries_read, reached_table))
