// csv_rows.rs - a 1 MB CSV read into Vec<Vec<String>> (the question it
// answers: "where did 5 MB come from for a 1 MB CSV?").
//
// Problem: read_rows reads the file into one String, then copies every field
// into its own String, every row into its own Vec<String>, and pushes the
// rows onto a Vec that grows by doubling. For the sample file
// (csv_sample.py: 12,427 lines of 8 fields, 1,000,738 bytes) that is 4.7 MB
// live at the peak for 1 MB of text:
//   - read_rows, the file text (fs::read_to_string): 1 block of 1,000,738
//     bytes, live until read_rows returns - the peak is just before that;
//   - parse_row, the row vectors (collect into Vec<String>): 12,427 blocks,
//     each allocated for 4 fields (96 bytes) and grown once by realloc to 8
//     fields (192 bytes): 12,427 x 192 = 2,385,984 bytes, 12,427 reallocs
//     copying 96 bytes each when they move. 24 bytes of String header per
//     field is more than the 9.1 bytes of text an average field holds;
//   - parse_row::{{closure}}, the fields (to_string): 99,416 blocks (one per
//     field), 1,000,738 - 99,416 separators = 901,322 bytes. Two sites:
//     collect takes each row's first field in Vec's from_iter (12,427
//     blocks) and the other seven in extend_desugared (86,989 blocks);
//   - read_rows, the rows vector (push): 1 block grown by doubling from 4 to
//     16,384 rows of 24 bytes: 12 reallocs, copying 24 x (4 + 8 + ... +
//     8,192) = 393,120 bytes when every growth moves the block; it ends at
//     393,216 bytes of which 12,427 x 24 = 298,248 hold rows, so 94,968
//     bytes (24%) of capacity are never written.
//   At the peak: 1,000,738 + 2,385,984 + 901,322 + 393,216 = 4,681,260
//   bytes in 111,845 blocks, plus libc's and Rust's own few small blocks.
//   Everything is freed before exit.
//
// Fix: csv_rows_lean.rs - keep the text and record where fields end.
//
// Output (deterministic): rows, orders shipped and the total of
// quantity x unit price; the same as csv_rows_lean.rs.
//
// Usage: csv_rows FILE.csv   (make builds csv_sample.csv next to the programs)
// Build: rustc -C opt-level=0 -g csv_rows.rs -o csv_rows_rs
// SPDX-License-Identifier: GPL-3.0-or-later

use std::env;
use std::fs;
use std::process;

const QUANTITY: usize = 5;
const UNIT_PRICE: usize = 6;
const STATUS: usize = 7;

/// One row: every field copied into its own String.
#[inline(never)]
fn parse_row(line: &str) -> Vec<String> {
    line.split(',').map(|field| field.to_string()).collect()
}

/// The whole file as rows of fields, the header first.
#[inline(never)]
fn read_rows(path: &str) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|error| {
        eprintln!("csv_rows: cannot read {}: {}", path, error);
        process::exit(1);
    });
    let mut rows = Vec::new();
    for line in text.lines() {
        rows.push(parse_row(line));
    }
    rows
}

/// "194.10" -> 19410 (cents); the sample's prices always have two decimals.
fn cents(price: &str) -> u64 {
    price.bytes().filter(u8::is_ascii_digit).fold(0, |total, digit| total * 10 + (digit - b'0') as u64)
}

fn main() {
    let path = env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: csv_rows FILE.csv");
        process::exit(2);
    });
    let rows = read_rows(&path);
    let mut shipped = 0u64;
    let mut total_cents = 0u64;
    for row in rows.iter().skip(1) {
        let quantity: u64 = row[QUANTITY].parse().unwrap_or(0);
        total_cents += quantity * cents(&row[UNIT_PRICE]);
        if row[STATUS] == "shipped" {
            shipped += 1;
        }
    }
    println!(
        "csv: {} rows, {} shipped, total {}.{:02}",
        rows.len(),
        shipped,
        total_cents / 100,
        total_cents % 100
    );
}
