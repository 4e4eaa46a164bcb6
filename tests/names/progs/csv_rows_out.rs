// csv_rows_out.rs - 20,000 rows written one by one, each built in a String
// declared in the loop body. rustc -O -C debuginfo=1.
//
// What the tool sees, known by construction: the String's first push_str
// allocates it, and later pushes regrow it by realloc (Rust's String and Vec
// grow with realloc): the site's blocks are regrown before they are freed,
// so the churn advice is to reserve (String::with_capacity) or keep one
// String out of the loop and clear it. 20,000 rows, one String each.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::io::Write;

struct Record { id: u32, price: f64, name: &'static str }

fn write_row(r: &Record, out: &mut impl Write) -> usize {
    let id = r.id.to_string();
    let mut line = String::new();
    for field in [id.as_str(), r.name, "EUR", "in-stock"] {
        line.push_str(field);
        line.push(';');
    }
    out.write_all(line.as_bytes()).unwrap();
    line.len()
}

fn main() {
    let mut out = std::io::sink();
    let mut total = 0;
    for i in 0..20000u32 {
        let r = Record { id: i, price: i as f64 * 0.25, name: "a product with a rather long name" };
        total += write_row(&r, &mut out) + r.price as usize % 2;
    }
    println!("{}", total);
}
