//! A plain benchmark (harness = false, so it builds on stable Rust): 4
//! messages of 40,004 bytes, timed.
use std::time::Instant;

#[inline(never)]
fn bench_message(fill: u8) -> Vec<u8> {
    vec![fill; 40_004]
}

fn main() {
    let start = Instant::now();
    let messages = (1..=4).map(bench_message).collect();
    let bytes = pipeline::deliver(messages);
    println!("throughput: {} bytes in {:?}", bytes, start.elapsed());
}
