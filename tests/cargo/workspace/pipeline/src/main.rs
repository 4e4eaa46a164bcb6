//! The service: `pipeline [COUNT [EXIT_STATUS]]` sends COUNT messages of
//! 40,001 bytes (3 by default), then exits with EXIT_STATUS (0 by default).
use std::env;
use std::process;

#[inline(never)]
fn bin_message(fill: u8) -> Vec<u8> {
    vec![fill; 40_001]
}

fn main() {
    let arguments: Vec<String> = env::args().collect();
    let count: u8 = arguments.get(1).map_or(3, |a| a.parse().expect("COUNT"));
    let status: i32 = arguments.get(2).map_or(0, |a| a.parse().expect("EXIT_STATUS"));
    let messages = (0..count).map(|i| bin_message(i + 1)).collect();
    println!("pipeline delivered {} bytes", pipeline::deliver(messages));
    process::exit(status);
}
