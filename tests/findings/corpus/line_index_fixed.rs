// line_index_fixed.rs - line_index.rs with each record sized to its line.
//
// The same viewer; read_record copies the line with String::from, which
// allocates exactly its length.
//
// Verdict: no unused-capacity, no oversized-preallocation.
// Twin of line_index.rs, described below.
//
//
// A log viewer loads the last 2,000 lines of a log for searching. To avoid
// reallocations, read_record creates each line's String with
// String::with_capacity(2048) (the viewer's maximum line length) and copies
// the line in; lines average ~70 bytes. The strings are kept for the whole
// session and searched repeatedly: 4 MB reserved for ~140 KB of text.
// The 2,000 lines are a fixed window loaded once at start-up: no
// unbounded-growth (the viewer then spends most of its run searching).
//
// Verdict: unused-capacity on read_record (each block 2 KiB, ~96% of it
// above what is ever written).
// Twin: line_index_fixed.rs (String::from(line): exactly the line's bytes).
// SPDX-License-Identifier: GPL-3.0-or-later

#[inline(never)]
fn read_record(line: &str) -> String {
    let record = String::from(line);
    record
}

fn synthetic_line(n: usize) -> String {
    let levels = ["INFO", "WARN", "DEBUG", "ERROR"];
    format!("2026-11-24T09:{:02}:{:02}Z {} worker-{} handled request {} in {} ms",
            n / 60 % 60, n % 60, levels[n % 4], n % 8, n * 7919 % 100000, n % 250)
}

fn main() {
    let mut lines = Vec::with_capacity(2000);
    for n in 0..2000 {
        let raw = synthetic_line(n);
        lines.push(read_record(&raw));
    }
    let mut hits = 0;
    for query in ["ERROR", "worker-3", "in 12 ms", "request 4"].iter().cycle().take(200) {
        hits += lines.iter().filter(|l| l.contains(query)).count();
    }
    println!("line_index_fixed: {} lines, {} hits", lines.len(), hits);
}
