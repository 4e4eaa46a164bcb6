# Writes tests/cli/profiles/readable.json, the profile of the text report's
# trimming tests (tests/cli/run.sh): python3 make_readable.py > readable.json
# The comments by each site derive the numbers the tests expect.
import json
APP = "/work/app"
LIBSTD = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30"
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
SQLITE = "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6"
frames = []
def frame(function, file=None, line=None, object=APP, inlined=False, directory=None):
    frames.append({"function": function, "file": file,
                   "directory": directory if directory else ("/src" if file else None),
                   "line": line, "object": object,
                   "address": hex(0x401000 + 0x40 * len(frames)), "inlined": inlined})
    return len(frames) - 1
RUST = "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src"
# Rust: a rows vector grown by push (site 0).
f_finish = frame("<alloc::raw_vec::RawVecInner>::finish_grow")
f_amort = frame("<alloc::raw_vec::RawVecInner>::grow_amortized")
f_grow_one = frame("grow_one<alloc::alloc::Global>", "mod.rs", 491, inlined=True, directory=RUST + "/raw_vec")
f_push = frame("alloc::vec::Vec<T,A>::push", "mod.rs", 992, directory=RUST + "/vec")
f_read_rows = frame("app::read_rows", "app.rs", 61)
f_app_main = frame("app::main", "app.rs", 76)
f_call_once = frame("core::ops::function::FnOnce::call_once", "function.rs", 250, directory=RUST)
f_begin = frame("std::sys::backtrace::__rust_begin_short_backtrace", "backtrace.rs", 166, directory=RUST)
f_lang_closure = frame("std::rt::lang_start::{{closure}}", "rt.rs", 206, directory=RUST)
f_lang_internal = frame("std::rt::lang_start_internal", "rt.rs", 171, directory=RUST)
f_c_main = frame("main")
# Rust: one closure called from two places (sites 2 and 3).
f_from = frame("<alloc::string::String as core::convert::From<&str>>::from", "string.rs", 3114, directory=RUST)
f_closure = frame("app::parse_row::{{closure}}", "app.rs", 49)
f_map_next = frame("<core::iter::adapters::map::Map<I,F> as core::iter::traits::iterator::Iterator>::next", "map.rs", 107, directory=RUST)
f_extend = frame("alloc::vec::Vec<T,A>::extend_desugared", "mod.rs", 3969, directory=RUST + "/vec")
f_from_iter = frame("<alloc::vec::Vec<T> as alloc::vec::spec_from_iter_nested::SpecFromIterNested<T,I>>::from_iter", "spec_from_iter_nested.rs", 24, directory=RUST + "/vec")
f_parse_row = frame("app::parse_row", "app.rs", 49)
# C++: a long template name, deep callers, a C main with frames below it (site 1).
S = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
REC = "std::pair<" + S + " const, std::vector<Record, std::allocator<Record> > >"
f_new_alloc = frame("std::__new_allocator<" + REC + ">::allocate(unsigned long, void const*)", "new_allocator.h", 137, object=APP, directory="/usr/include/c++/12/bits")
f_realloc_insert = frame("void std::vector<" + REC + ", std::allocator<" + REC + "> >::_M_realloc_insert<" + REC + " const&>(__gnu_cxx::__normal_iterator<" + REC + "*, std::vector<" + REC + ", std::allocator<" + REC + "> > >, " + REC + " const&)", "vector.tcc", 440, directory="/usr/include/c++/12/bits")
f_push_back = frame("std::vector<" + REC + ", std::allocator<" + REC + "> >::push_back(" + REC + " const&)", "stl_vector.h", 1287, directory="/usr/include/c++/12/bits")
f_table_add = frame("Table::add(" + S + " const&)", "table.cc", 30)
f_load_chunk = frame("void Loader::load_chunk<std::unordered_map<" + S + ", Record, std::hash<" + S + "> > >(std::istream&)", "loader.cc", 12)
f_load = frame("Loader::load(std::istream&)", "loader.cc", 40)
f_start = frame("Service::start()", "service.cc", 20)
f_run = frame("Service::run()", "service.cc", 25)
f_run_service = frame("run_service(int, char**)", "main.cc", 8)
f_setup = frame("setup_and_run(int, char**)", "main.cc", 14)
f_cpp_main = frame("main", "main.cc", 21)
f_libc_call_main = frame("__libc_start_call_main", "libc_start_call_main.h", 58, object=LIBC, directory="../sysdeps/nptl")
f_below = frame("(below main)", None, None, object=LIBC)
# C++: two sites parting only inside the allocation (sites 4 and 5).
f_node_alloc = frame("std::__new_allocator<std::_Rb_tree_node<std::pair<" + S + " const, int> > >::allocate(unsigned long, void const*)", "new_allocator.h", 137, directory="/usr/include/c++/12/bits")
f_create_node = frame("std::_Rb_tree<int, int, std::_Identity<int>, std::less<int>, std::allocator<int> >::_M_create_node", "stl_tree.h", 630, directory="/usr/include/c++/12/bits")
f_char_alloc = frame("std::__new_allocator<char>::allocate(unsigned long, void const*)", "new_allocator.h", 137, directory="/usr/include/c++/12/bits")
f_string_create = frame(S + "::_M_create(unsigned long&, unsigned long)", "basic_string.tcc", 140, directory="/usr/include/c++/12/bits")
f_cache_insert = frame("Cache::insert(" + S + " const&, int)", "cache.cc", 30)
f_cache_main = frame("main", "cache.cc", 50)
# C: a stripped library between the allocator and the program (site 6).
f_sqlite_malloc = frame("sqlite3Malloc", None, None, object=SQLITE)
f_sqlite_anon1 = frame(None, None, None, object=SQLITE)
f_sqlite_anon2 = frame(None, None, None, object=SQLITE)
f_db_insert = frame("db_insert", "db.c", 12)
f_db_main = frame("main", "db.c", 40)

DURATION = 10_000_000
PEAK_TIME = 8_000_000

def access(measured, at_peak_bytes, unused_at_peak=0, never_accessed_at_peak=0):
    return {"bytes_read": measured, "bytes_written": measured, "measured_bytes": measured,
            "never_read_bytes": never_accessed_at_peak, "never_written_bytes": never_accessed_at_peak,
            "never_accessed_bytes": never_accessed_at_peak, "written_never_read_bytes": 0,
            "unused_capacity_bytes": unused_at_peak, "idle_before_free": 0, "first_access_delay": 0,
            "at_peak": {"bytes": at_peak_bytes, "never_read_bytes": never_accessed_at_peak,
                        "never_written_bytes": never_accessed_at_peak,
                        "never_accessed_bytes": never_accessed_at_peak,
                        "unused_capacity_bytes": unused_at_peak},
            "map": None}

def site(stack, name_frame, blocks, bytes_, reallocs=0, requested=0, copied=0, growth=0, acc=None,
         notes=()):
    return {"stack": stack, "name_frame": name_frame, "runtime_only": False, "notes": list(notes),
            "total_blocks": blocks, "total_bytes": bytes_,
            "bytes_at_peak": bytes_, "blocks_at_peak": blocks, "max_bytes": bytes_, "max_blocks": blocks,
            "max_time": PEAK_TIME, "bytes_at_exit": 0, "blocks_at_exit": 0, "freed_blocks": blocks,
            "lifetime": {"sum": blocks * 5_000_000, "min": 5_000_000, "max": 5_000_000, "histogram": []},
            "reallocs": reallocs, "realloc_requested_bytes": requested,
            "realloc_bytes_copied": copied, "realloc_growth_bytes": growth,
            "first_alloc_time": 1_000_000, "last_alloc_time": 6_000_000, "allocating_threads": 1,
            "cross_thread_frees": 0, "access": acc if acc else access(bytes_, bytes_), "growth": None}

rust_tail = [f_app_main, f_call_once, f_begin, f_lang_closure, f_lang_internal, f_c_main]
sites = [
    # 0: a Vec of 24-byte rows doubled from 96 B (4 rows) to 393,216 B (16,384 rows) by 12
    # reallocs that each moved: copied 96 * (2^12 - 1) = 393,120; requested 192 + ... + 393,216
    # = 96 * (2^13 - 2) = 786,240; 12,427 rows written: unused 393,216 - 12,427 * 24 = 94,968.
    site([f_finish, f_amort, f_grow_one, f_push, f_read_rows] + rust_tail, 4, 1, 393216,
         reallocs=12, requested=786240, copied=393120, growth=393120,
         acc=access(393216, 393216, unused_at_peak=94968, never_accessed_at_peak=94968),
         # The tool's notes (docs/format.md, sites[].notes): 393,120 B = 383.9 KiB;
         # 94,968 B = 92.7 KiB = 24% of 393,216 (the untouched bytes are the same: said once).
         notes=[{"kind": "realloc-growth", "text": "grown by 12 reallocs, 383.9 KiB copied",
                 "bytes": 393120, "reallocs": 12},
                {"kind": "unused-capacity",
                 "text": "92.7 KiB (24%) of it never written (unused capacity)", "bytes": 94968}]),
    # 1: one 256 KiB table, 192 KiB of it never touched, 16 KiB unused capacity (under a
    # tenth: no unused-capacity note), 16,383 B copied (one under the note's threshold).
    site([f_new_alloc, f_realloc_insert, f_push_back, f_table_add, f_load_chunk, f_load, f_start,
          f_run, f_run_service, f_setup, f_cpp_main, f_libc_call_main, f_below], 3, 1, 262144,
         reallocs=1, requested=262144, copied=16383, growth=131072,
         acc=access(262144, 262144, unused_at_peak=16384, never_accessed_at_peak=196608),
         # 196,608 B = 192.0 KiB = 75% of 262,144.
         notes=[{"kind": "never-touched", "text": "192.0 KiB (75%) of it never read nor written",
                 "bytes": 196608}]),
    # 2: the closure's strings collected by from_iter: 1,000 blocks of exactly 24 B (not tiny).
    site([f_from, f_closure, f_map_next, f_from_iter, f_parse_row] + rust_tail[:4], 1, 1000, 24000),
    # 3: the same closure through extend_desugared: 2,000 blocks of 9.8 B on average,
    # 3,000 reallocs (1.5 per block) copying 20,000 B = 19.5 KiB.
    site([f_from, f_closure, f_map_next, f_extend, f_parse_row] + rust_tail[:4], 1, 2000, 19600,
         reallocs=3000, requested=30000, copied=20000, growth=10000,
         notes=[{"kind": "realloc-growth",
                 "text": "grown by 3,000 reallocs (1.5 per block), 19.5 KiB copied",
                 "bytes": 20000, "reallocs": 3000},
                {"kind": "small-blocks",
                 "text": "9.8 B per block on average: glibc's malloc takes at least 32 B for each",
                 "bytes": 19600, "blocks": 2000}]),
    # 4 and 5: map[key] in Cache::insert makes a node and a string: same callers.
    site([f_node_alloc, f_create_node, f_cache_insert, f_cache_main], 2, 100, 4800),
    site([f_char_alloc, f_string_create, f_cache_insert, f_cache_main], 2, 100, 3200),
    # 6: allocated inside a stripped library called by db_insert.
    site([f_sqlite_malloc, f_sqlite_anon1, f_sqlite_anon2, f_db_insert, f_db_main], 3, 1, 1000),
    # 7: a runtime's own allocation, every frame library code: named by its innermost
    # frame, a 400-character template name.
    site([f_realloc_insert, f_push_back, f_cpp_main], 0, 1, 100),
]
for i, s in enumerate(sites):
    s["id"] = i
    sites[i] = {"id": i, **{k: v for k, v in s.items() if k != "id"}}

peak_bytes = sum(s["bytes_at_peak"] for s in sites)
peak_blocks = sum(s["blocks_at_peak"] for s in sites)
total = lambda key: sum(s[key] for s in sites)
profile = {
    "format": "lifeheap-profile", "format_version": 1,
    "tool": {"name": "lifeheap", "version": "0.1.0", "valgrind_version": "3.19.0"},
    "run": {"command": ["./app", "rows.csv"], "executable": APP, "pid": 4343, "ppid": 1,
            "started_at_unix_ms": 1700000000000, "wall_time_ms": 2000, "time_unit": "instructions",
            "duration": DURATION, "threads": 1, "exit": {"status": "exited", "code": 0},
            "complete": True, "dump_reason": "exit", "options": {"out_file": "r.json", "num_callers": 30}},
    "totals": {"blocks": total("total_blocks"), "bytes": total("total_bytes"), "frees": total("freed_blocks"),
               "reallocs": total("reallocs"), "realloc_requested_bytes": total("realloc_requested_bytes"),
               "realloc_bytes_copied": total("realloc_bytes_copied"),
               "bytes_read": sum(s["access"]["bytes_read"] for s in sites),
               "bytes_written": sum(s["access"]["bytes_written"] for s in sites),
               "realloc_growth_bytes": total("realloc_growth_bytes")},
    "peak": {"bytes": peak_bytes, "blocks": peak_blocks, "time": PEAK_TIME},
    "at_exit": {"bytes": 0, "blocks": 0},
    "frames": frames, "sites": sites,
    "timeline": {"times": [0, PEAK_TIME, DURATION], "live_bytes": [0, peak_bytes, 0],
                 "live_blocks": [0, peak_blocks, 0], "peak_index": 1, "markers": [],
                 "significant_site_fraction": 0.01},
    "findings": [{"kind": "realloc-growth", "site": 3, "severity": "low",
                  "summary": "app::parse_row::{{closure}} reallocs its blocks 1.5 times each",
                  "evidence": {"reallocs": 3000}}],
}
print(json.dumps(profile, indent=1))
