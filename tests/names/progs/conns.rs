// conns.rs - allocation sites that Rust release builds name badly without
// the DWARF: methods inlined into their callers, one function called from
// three places, closures in iterator chains. Built as users build:
// rustc -O -C debuginfo=1 (many codegen units, std inlined everywhere).
//
// Sites, known by construction (COUNT = 16 connections):
//   ConnState::new    one 262,144-byte receive window per connection
//                     (vec![0u8; 256 KiB] -> alloc_zeroed), 16 blocks,
//                     and one 4,096-byte Vec<u32> of slots (with_capacity)
//   handle            called from three lines of main, each a different
//                     size: 1,000, 2,000 and 3,000 bytes per call, 16 calls
//                     each
//   parse_fields      a Vec<String> per line from a split/map/collect chain
//   All of it is kept until the end of main.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::hint::black_box;

const COUNT: usize = 16;

pub struct ConnState {
    pub id: usize,
    pub window: Vec<u8>,
    pub slots: Vec<u32>,
}

impl ConnState {
    #[inline]
    pub fn new(id: usize) -> ConnState {
        ConnState { id, window: vec![0u8; 256 * 1024], slots: Vec::with_capacity(1024) }
    }
}

#[inline]
fn handle(bytes: usize) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(bytes);
    buffer.push(1u8);
    buffer
}

#[inline(never)]
fn parse_fields(line: &str) -> Vec<String> {
    line.split(',').map(|field| field.trim().to_string()).collect()
}

fn main() {
    let mut conns = Vec::new();
    let mut kept = Vec::new();
    let mut rows = Vec::new();
    for i in 0..COUNT {
        conns.push(ConnState::new(black_box(i)));
        kept.push(handle(black_box(1000)));
        kept.push(handle(black_box(2000)));
        kept.push(handle(black_box(3000)));
        rows.push(parse_fields(black_box("alpha, beta,gamma , delta")));
    }
    let total: usize = conns.iter().map(|c| c.window.len() + c.slots.capacity() + c.id).sum::<usize>()
        + kept.iter().map(|k| k.capacity()).sum::<usize>()
        + rows.iter().map(|r| r.len()).sum::<usize>();
    println!("{}", total);
}
