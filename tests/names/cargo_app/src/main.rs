// A cargo release build (debug = 1) of a small registry: a constructor
// inlined into main, and a method called from two lines.
//
// Sites, known by construction (COUNT = 12 registries):
//   Registry::new       a 131,072-byte index per registry (vec![0u32; 32 Ki])
//   Registry::add_name  one String per call, from two lines of main: "alpha"
//                       (5 bytes) and "beta-gamma" (10 bytes), COUNT each
// Everything is kept until the end of main.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::hint::black_box;

const COUNT: usize = 12;

pub struct Registry {
    index: Vec<u32>,
    names: Vec<String>,
}

impl Registry {
    #[inline]
    pub fn new() -> Registry {
        Registry { index: vec![0u32; 32 * 1024], names: Vec::new() }
    }

    #[inline]
    pub fn add_name(&mut self, name: &str) {
        self.names.push(name.to_string());
    }
}

fn main() {
    let mut all = Vec::new();
    for i in 0..COUNT {
        let mut r = Registry::new();
        r.index[black_box(i)] = 1;
        r.add_name(black_box("alpha"));
        r.add_name(black_box("beta-gamma"));
        all.push(r);
    }
    let total: usize = all.iter().map(|r| r.index.len() + r.names.iter().map(|n| n.len()).sum::<usize>()).sum();
    println!("{}", total);
}
