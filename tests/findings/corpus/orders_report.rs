// orders_report.rs - a CSV loader into Vec<Vec<String>>, then a report.
//
// Reads an orders CSV from stdin the way many first versions do: every line
// into a Vec<String> of its fields (load_rows / parse_row: one String per
// field, one Vec per row), all rows kept in a Vec<Vec<String>>, and only
// then computes the report (shipped orders, revenue per city). For the
// 1 MB sample (12,427 rows of 8 fields) that is ~4.7 MB of heap for 1 MB of
// text, growing with the input for as long as it lasts: a bigger export
// takes the process down.
//
// Verdict: unbounded-growth on parse_row (100,000 field strings and 12,427
// row vectors accumulated over the whole load, all held until the report
// is done). The report only needs one row at a time.
// Twin: orders_report_stream.rs (streams the rows: one line buffer, fields
// as slices).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::BTreeMap;
use std::io::{self, Read};

const CITY: usize = 3;
const QUANTITY: usize = 5;
const UNIT_PRICE: usize = 6;
const STATUS: usize = 7;

#[inline(never)]
fn parse_row(line: &str) -> Vec<String> {
    line.split(',').map(|field| field.to_string()).collect()
}

fn load_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        rows.push(parse_row(line));
    }
    rows
}

fn cents(price: &str) -> u64 {
    price.bytes().filter(u8::is_ascii_digit).fold(0, |t, d| t * 10 + (d - b'0') as u64)
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("stdin");
    let rows = load_rows(&text);
    let mut revenue: BTreeMap<&str, u64> = BTreeMap::new();
    let mut shipped = 0;
    for row in &rows {
        if row[STATUS] == "shipped" {
            shipped += 1;
            let quantity: u64 = row[QUANTITY].parse().unwrap_or(0);
            *revenue.entry(row[CITY].as_str()).or_default() += quantity * cents(&row[UNIT_PRICE]);
        }
    }
    let total: u64 = revenue.values().sum();
    println!("orders_report: {} rows, {} shipped, {} cities, revenue {}.{:02}",
             rows.len(), shipped, revenue.len(), total / 100, total % 100);
}
