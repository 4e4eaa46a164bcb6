#!/usr/bin/env python3
"""tests/sql/check.py: checks of `lifeheap sql` against service.c's known answers.

  check.py queries LIFEHEAP DB SQL_MD SERVICE_C PROFILE
      runs each query of docs/sql.md (as written there) on DB and compares
      the rows with the answers known from service.c's source; then checks
      the blocks table against the profile's per-site figures.
  check.py killed LIFEHEAP BLOCKS TOTAL_OURS SIZE
      a killed run's block file: it holds exactly the full buffers written
      before the kill (see docs/format.md, "Flushing and killed runs").

Prints "PASS name" / "FAIL name: why" lines (tests/lib.sh feeds them).
"""
import json
import re
import struct
import subprocess
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
import lifeheap_profile  # noqa: E402  (reads a profile as the readers do)


def result(name, ok, why=""):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))


def sql(lifeheap, db, query):
    """Rows of a query through `lifeheap sql DB -e`, as lists of strings."""
    run = subprocess.run([lifeheap, "sql", db, "-e", query],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("lifeheap sql exited %d: %s" % (run.returncode,
                                                             run.stderr.strip()))
    lines = run.stdout.split("\n")
    assert lines[-1] == ""
    return [line.split("\t") for line in lines[:-1]]


def docs_query(sql_md, name):
    text = open(sql_md).read()
    match = re.search(r"<!-- query: %s -->\n```sql\n(.*?)```" % re.escape(name),
                      text, re.S)
    if not match:
        raise RuntimeError("docs/sql.md has no query %s" % name)
    return match.group(1)


def source_line(source, text):
    """1-based line of the only line of service.c containing text."""
    found = [i + 1 for i, line in enumerate(open(source)) if text in line]
    if len(found) != 1:
        raise RuntimeError("%r is on %d lines of %s" % (text, len(found), source))
    return found[0]


def check_queries(lifeheap, db, sql_md, source, profile_path):
    profile = lifeheap_profile.load(profile_path)
    duration = profile["run"]["duration"]
    line = {name: source_line(source, text) for name, text in [
        ("open_session", "char *session = malloc(48);"),
        ("make_message", "char *message = malloc(256);"),
        ("make_scratch", "char *scratch = malloc(1000);"),
        ("grow_buffer", "char *buffer = malloc(16);"),
        ("load_config", "char *entry = malloc(64);"),
        ("worker_call", "char *session = open_session(i);"),
    ]}
    name = {k: "%s (service.c:%d)" % (k, v) for k, v in line.items()}

    def run(query_name):
        rows = sql(lifeheap, db, docs_query(sql_md, query_name))
        return rows[0], rows[1:]

    def exact(query_name, expected_header, expected_rows):
        try:
            header, rows = run(query_name)
        except RuntimeError as error:
            result("sql.md %s" % query_name, False, str(error))
            return None
        result("sql.md %s: columns" % query_name, header == expected_header,
               "got %s" % header)
        result("sql.md %s: rows" % query_name, rows == expected_rows,
               "expected %s, got %s" % (expected_rows, rows))
        return rows

    # A slow leak: 50 sessions of 48 B, allocated by the worker after the
    # warm-up; the 200 config blocks are live too but were born earlier.
    try:
        header, rows = run("slow-leak")
        ok = (header == ["name", "blocks", "bytes", "first_birth", "last_birth"]
              and len(rows) == 1 and rows[0][:3] == [name["open_session"], "50", "2400"]
              and duration // 10 < int(rows[0][3]) <= int(rows[0][4]) <= duration)
        result("sql.md slow-leak: one row, open_session, 50 blocks, 2400 B, born after 10%",
               ok, "got %s %s (duration %d)" % (header, rows, duration))
    except RuntimeError as error:
        result("sql.md slow-leak", False, str(error))
    exact("slow-leak-after-marker", ["name", "blocks", "bytes"],
          [[name["open_session"], "50", "2400"]])
    exact("slow-leak-by-thread", ["thread", "name", "blocks", "bytes"],
          [["2", name["open_session"], "50", "2400"]])

    # Queue wait: 1,000 messages from thread 2 to thread 3 (times depend on
    # the scheduler: only their order is checked).
    try:
        header, rows = run("queue-wait")
        ok = (header == ["name", "producer", "consumer", "handed_over", "avg_wait", "max_wait"]
              and len(rows) == 1 and rows[0][:4] == [name["make_message"], "2", "3", "1000"]
              and 0 < float(rows[0][4]) <= int(rows[0][5]) < duration)
        result("sql.md queue-wait: make_message, thread 2 to 3, 1000 blocks", ok,
               "got %s %s" % (header, rows))
    except RuntimeError as error:
        result("sql.md queue-wait", False, str(error))

    try:
        header, rows = run("lifetime-by-size")
        ok = (header == ["name", "blocks", "min_lifetime", "median_lifetime", "max_lifetime"]
              and [r[:2] for r in rows] == [[name["make_message"], "1000"], [name["grow_buffer"], "1"]]
              and all(int(r[2]) <= int(r[3]) <= int(r[4]) for r in rows)
              and rows[1][2] == rows[1][3] == rows[1][4])
        result("sql.md lifetime-by-size: make_message 1000 blocks, grow_buffer 1", ok,
               "got %s %s" % (header, rows))
    except RuntimeError as error:
        result("sql.md lifetime-by-size", False, str(error))

    try:
        header, rows = run("lifetime-when-full")
        ok = (header == ["name", "size", "queue", "blocks", "avg_lifetime", "max_lifetime"]
              and 1 <= len(rows) <= 2
              and all(r[0] == name["make_message"] and r[1] == "256" for r in rows)
              and sorted(r[2] for r in rows) in (["full"], ["not full"], ["full", "not full"])
              and sum(int(r[3]) for r in rows) == 1000
              and all(float(r[4]) <= int(r[5]) for r in rows))
        result("sql.md lifetime-when-full: the 1000 messages, split full / not full", ok,
               "got %s %s" % (header, rows))
    except RuntimeError as error:
        result("sql.md lifetime-when-full", False, str(error))

    exact("never-read", ["name", "blocks", "bytes", "fully_written", "never_touched"],
          [[name["make_scratch"], "30", "30000", "30", "0"],
           [name["grow_buffer"], "4", "240", "4", "0"]])
    exact("realloc-chains", ["name", "records", "moves", "first_size", "last_size"],
          [[name["grow_buffer"], "5", "4", "16", "256"]])
    try:
        header, rows = run("stack")
        ok = (header == ["depth", "function", "file", "line"] and len(rows) >= 3
              and rows[0] == ["0", "open_session", "service.c", str(line["open_session"])]
              and rows[1] == ["1", "worker", "service.c", str(line["worker_call"])])
        result("sql.md stack: open_session then worker", ok, "got %s %s" % (header, rows))
    except RuntimeError as error:
        result("sql.md stack", False, str(error))

    # The blocks against the profile, over every site.
    def one(query):
        return sql(lifeheap, db, query)[1:]

    checks = [
        ("every site's new blocks (rows without previous) equal its total_blocks",
         "SELECT count(*) FROM sites s WHERE total_blocks != "
         "(SELECT count(*) FROM blocks b WHERE b.site_id = s.id AND b.previous IS NULL)",
         [["0"]]),
        ("every site's live rows equal its blocks_at_exit and bytes_at_exit",
         "SELECT count(*) FROM sites s WHERE blocks_at_exit != "
         "(SELECT count(*) FROM blocks b WHERE b.site_id = s.id AND b.live) OR bytes_at_exit != "
         "(SELECT coalesce(sum(size), 0) FROM blocks b WHERE b.site_id = s.id AND b.live)",
         [["0"]]),
        ("records = blocks + reallocs of the profile",
         "SELECT block_records, blocks_complete, (SELECT count(*) FROM blocks) FROM runs",
         [[str(profile["totals"]["blocks"] + profile["totals"]["reallocs"]), "1",
           str(profile["totals"]["blocks"] + profile["totals"]["reallocs"])]]),
        ("every block row maps to a site", "SELECT count(*) FROM blocks WHERE site_id IS NULL",
         [["0"]]),
        ("a new block's accesses lie within its life",
         "SELECT count(*) FROM blocks WHERE previous IS NULL AND first_access IS NOT NULL "
         "AND NOT (birth <= first_access AND first_access <= last_access "
         "AND last_access <= birth + lifetime)", [["0"]]),
        ("load_config: 200 live rows, 1 byte read, 64 written, main thread",
         "SELECT count(*), sum(live), min(bytes_read), max(bytes_read), min(bytes_written), "
         "max(bytes_written), group_concat(DISTINCT alloc_thread), count(death) "
         "FROM blocks WHERE site_id = (SELECT id FROM sites WHERE name = '%s')" % name["load_config"],
         [["200", "200", "1", "1", "64", "64", "1", "0"]]),
        ("open_session: 500 rows, 450 freed by thread 2, 1 byte read, 48 written",
         "SELECT count(*), sum(free_thread = 2), sum(live), min(bytes_read), max(bytes_read), "
         "min(bytes_written), max(bytes_written) FROM blocks "
         "WHERE site_id = (SELECT id FROM sites WHERE name = '%s')" % name["open_session"],
         [["500", "450", "50", "1", "1", "48", "48"]]),
        ("make_message: read and written in full",
         "SELECT count(*), min(bytes_read), min(bytes_written), max(bytes_read) FROM blocks "
         "WHERE site_id = (SELECT id FROM sites WHERE name = '%s')" % name["make_message"],
         [["1000", "256", "256", "256"]]),
        ("grow_buffer: sizes along the chain, each row the previous one's successor",
         "SELECT group_concat(size, ' '), group_concat(coalesce(id - previous, 0), ' '), "
         "group_concat(ended_by_realloc, ' ') FROM (SELECT * FROM blocks WHERE site_id = "
         "(SELECT id FROM sites WHERE name = '%s') ORDER BY id)" % name["grow_buffer"],
         [["16 32 64 128 256", "0 1 1 1 1", "1 1 1 1 0"]]),
        ("timeline and sites loaded from the profile",
         "SELECT (SELECT count(*) FROM timeline) > 0, (SELECT count(*) FROM sites), "
         "(SELECT count(*) FROM frames), (SELECT max(time) FROM timeline) = (SELECT duration FROM runs)",
         [["1", str(len(profile["sites"])), str(len(profile["frames"])), "1"]]),
    ]
    for title, query, expected in checks:
        try:
            got = one(query)
            result(title, got == expected, "expected %s, got %s" % (expected, got))
        except RuntimeError as error:
            result(title, False, str(error))


def check_killed(lifeheap, blocks_path, ours, size):
    data = open(blocks_path, "rb").read()
    header_size, record_size, flush = struct.unpack_from("<III", data, 12)
    whole = (len(data) - header_size) // record_size
    torn = (len(data) - header_size) % record_size
    result("killed: header says 80-byte records flushed by 1024",
           (header_size, record_size, flush) == (64, 80, 1024),
           "got %s" % ((header_size, record_size, flush),))
    result("killed: the file ends on whole buffers", whole % flush == 0 and torn == 0 and whole > 0,
           "%d records and %d bytes" % (whole, torn))
    run = subprocess.run([lifeheap, "sql", blocks_path, "-e",
                          "SELECT count(*), sum(size = %d), sum(site_id IS NULL), "
                          "(SELECT blocks_complete FROM runs) FROM blocks" % size],
                         capture_output=True, text=True)
    rows = [line.split("\t") for line in run.stdout.strip().split("\n")]
    result("killed: lifeheap sql loads the records without a profile", run.returncode == 0
           and len(rows) == 2, "exit %d: %s" % (run.returncode, run.stderr.strip()))
    if run.returncode != 0 or len(rows) != 2:
        return
    loaded, mine, unmapped, complete = (int(x) for x in rows[1])
    result("killed: every whole record loaded, none mapped, marked incomplete",
           loaded == whole and unmapped == whole and complete == 0,
           "loaded %d of %d, unmapped %d, complete %d" % (loaded, whole, unmapped, complete))
    # The program freed `ours` blocks after `earlier` other records (start-up):
    # the flushed prefix is exactly the full buffers of earlier + ours.
    earlier = loaded - mine
    expected = flush * ((earlier + ours) // flush)
    result("killed: exactly the full buffers written before the kill (%d records)" % expected,
           loaded == expected and mine > 0,
           "loaded %d (%d of the program's %d), expected %d" % (loaded, mine, ours, expected))
    result("killed: lifeheap sql says the file has no trailer",
           "has no trailer" in run.stderr, run.stderr.strip())


def main():
    if sys.argv[1] == "queries":
        check_queries(*sys.argv[2:7])
    elif sys.argv[1] == "killed":
        check_killed(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit("usage: check.py queries|killed ...")


if __name__ == "__main__":
    main()
