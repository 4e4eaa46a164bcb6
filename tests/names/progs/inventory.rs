// inventory.rs - a stock ledger: a HashMap of items keyed by String, boxed
// trait objects for pricing, a BTreeMap index, a report built with
// writeln! into a String. rustc -O -C debuginfo=1.
//
// Sites, known by construction (2000 items): each add makes two Strings of
// the 9-byte SKU ("SKU-00000") with to_string on one line, told apart only
// by number (#1, #2) and named by the trait's function (a blanket impl's
// <T as ToString>::to_string reads ToString::to_string); make_pricing boxes
// a Tiered (a f64 and a Vec: 32 bytes) for the 667 items with i % 3 == 0,
// its 3 tiers of (u32, f64) 16 bytes each (48 bytes), and a Flat (8 bytes)
// for the other 1333.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

trait Pricing {
    fn price(&self, qty: u32) -> f64;
    fn name(&self) -> String;
}
struct Flat(f64);
struct Tiered { base: f64, tiers: Vec<(u32, f64)> }
impl Pricing for Flat {
    fn price(&self, qty: u32) -> f64 { self.0 * qty as f64 }
    fn name(&self) -> String { format!("flat {:.2}", self.0) }
}
impl Pricing for Tiered {
    fn price(&self, qty: u32) -> f64 {
        let discount = self.tiers.iter().filter(|(q, _)| qty >= *q).map(|(_, d)| *d).fold(0.0, f64::max);
        self.base * qty as f64 * (1.0 - discount)
    }
    fn name(&self) -> String { format!("tiered {:.2} ({} tiers)", self.base, self.tiers.len()) }
}

struct Item { sku: String, qty: u32, pricing: Box<dyn Pricing> }

#[derive(Default)]
struct Inventory { items: HashMap<String, Item>, by_qty: BTreeMap<u32, Vec<String>> }

impl Inventory {
    fn add(&mut self, sku: &str, qty: u32, pricing: Box<dyn Pricing>) {
        self.items.insert(sku.to_string(), Item { sku: sku.to_string(), qty, pricing });
    }
    fn index(&mut self) {
        for item in self.items.values() {
            self.by_qty.entry(item.qty).or_default().push(item.sku.clone());
        }
    }
    fn report(&self) -> String {
        let mut out = String::new();
        for (qty, skus) in &self.by_qty {
            for sku in skus {
                let item = &self.items[sku];
                writeln!(out, "{:>8} {:>5} {:>10.2} {}", sku, qty, item.pricing.price(*qty), item.pricing.name()).unwrap();
            }
        }
        out
    }
}

fn make_pricing(i: u32) -> Box<dyn Pricing> {
    if i % 3 == 0 {
        Box::new(Tiered { base: 2.5, tiers: vec![(10, 0.05), (50, 0.1), (100, 0.2)] })
    } else {
        Box::new(Flat(1.0 + i as f64 / 100.0))
    }
}

fn main() {
    let mut inv = Inventory::default();
    for i in 0..2000u32 {
        inv.add(&format!("SKU-{:05}", i), (i * 37) % 120, make_pricing(i));
    }
    inv.index();
    let text = inv.report();
    let expensive: Vec<&str> = text.lines().filter(|l| l.contains("tiered")).collect();
    println!("{} bytes, {} lines, {} tiered", text.len(), text.lines().count(), expensive.len());
}
