// histogram.rs - vec![0; n] read in full, sparsely written (innocent).
//
// A latency histogram with one u32 bucket per microsecond up to 65,536 us:
// Histogram::new allocates vec![0u32; 65_536] (256 KiB, zeroed by the
// allocator: alloc_zeroed), record() increments the bucket of each of
// 100,000 samples (they fall below ~5 ms, the first 8% of the buckets),
// and percentiles() scans every bucket. All of it is initialised and read.
//
// Verdict: no unused-capacity and no oversized-preallocation on
// Histogram::new.
// SPDX-License-Identifier: GPL-3.0-or-later
struct Histogram {
    buckets: Vec<u32>,
    count: u64,
}

impl Histogram {
    #[inline(never)]
    fn new() -> Histogram {
        Histogram { buckets: vec![0u32; 65_536], count: 0 }
    }

    fn record(&mut self, micros: usize) {
        let last = self.buckets.len() - 1;
        self.buckets[micros.min(last)] += 1;
        self.count += 1;
    }

    #[inline(never)]
    fn percentiles(&self, wanted: &[f64]) -> Vec<usize> {
        let mut result = Vec::with_capacity(wanted.len());
        let mut seen = 0u64;
        let mut next = 0;
        for (micros, &n) in self.buckets.iter().enumerate() {
            seen += n as u64;
            while next < wanted.len() && seen as f64 >= wanted[next] * self.count as f64 {
                result.push(micros);
                next += 1;
            }
        }
        let max = self.buckets.iter().rposition(|&n| n > 0).unwrap_or(0);
        result.push(max);
        result
    }
}

fn main() {
    let mut h = Histogram::new();
    let mut state = 42u32;
    for _ in 0..100_000 {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let micros = 200 + ((state >> 16) % 3000) as usize + ((state >> 8) % 7 == 0) as usize * 1800;
        h.record(micros);
    }
    println!("histogram: p50/p99/p99.9/max = {:?} us", h.percentiles(&[0.5, 0.99, 0.999]));
}
