// orders_report_stream.rs - orders_report.rs streaming its input.
//
// The same report, but main reads stdin one line at a time into one reused
// String (BufRead::read_line) and looks at the fields as slices of it: the
// heap holds one line and the per-city totals, whatever the input's size.
//
// Verdict: no unbounded-growth, no leak, no churn, no realloc-growth on
// summarize (its line buffer: one block, grown a few times to the longest
// line). Twin of orders_report.rs (a CSV of orders on stdin).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::BTreeMap;
use std::io::{self, BufRead};

const CITY: usize = 3;
const QUANTITY: usize = 5;
const UNIT_PRICE: usize = 6;
const STATUS: usize = 7;

fn cents(price: &str) -> u64 {
    price.bytes().filter(u8::is_ascii_digit).fold(0, |t, d| t * 10 + (d - b'0') as u64)
}

#[inline(never)]
fn summarize(input: &mut dyn BufRead) -> (u64, u64, BTreeMap<String, u64>) {
    let mut revenue: BTreeMap<String, u64> = BTreeMap::new();
    let (mut rows, mut shipped) = (0, 0);
    let mut line = String::new();
    input.read_line(&mut line).expect("header");
    loop {
        line.clear();
        if input.read_line(&mut line).expect("stdin") == 0 {
            break;
        }
        rows += 1;
        let fields: [&str; 8] = {
            let mut it = line.trim_end().split(',');
            std::array::from_fn(|_| it.next().unwrap_or(""))
        };
        if fields[STATUS] == "shipped" {
            shipped += 1;
            let quantity: u64 = fields[QUANTITY].parse().unwrap_or(0);
            let amount = quantity * cents(fields[UNIT_PRICE]);
            match revenue.get_mut(fields[CITY]) {
                Some(total) => *total += amount,
                None => {
                    revenue.insert(fields[CITY].to_string(), amount);
                }
            }
        }
    }
    (rows, shipped, revenue)
}

fn main() {
    let stdin = io::stdin();
    let (rows, shipped, revenue) = summarize(&mut stdin.lock());
    let total: u64 = revenue.values().sum();
    println!("orders_report: {} rows, {} shipped, {} cities, revenue {}.{:02}",
             rows, shipped, revenue.len(), total / 100, total % 100);
}
