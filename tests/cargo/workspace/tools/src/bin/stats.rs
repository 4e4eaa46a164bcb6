//! stats, the package's default-run binary: 2 buffers of 40,005 bytes, 3
//! with the extra-buffer feature.
#[inline(never)]
fn stats_buffer(fill: u8) -> Vec<u8> {
    vec![fill; 40_005]
}

fn main() {
    let count = if cfg!(feature = "extra-buffer") { 3 } else { 2 };
    let buffers: Vec<Vec<u8>> = (1..=count).map(stats_buffer).collect();
    let sum: usize = buffers.iter().map(|b| b.iter().map(|&x| x as usize).sum::<usize>()).sum();
    println!("stats: {}", sum);
}
