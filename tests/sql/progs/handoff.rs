// A Rust service in miniature, with known answers for tests/sql (built as
// users build: rustc -O -C debuginfo=1).
//   - grow_readings: a Vec<u64> grown by push to 1,000 elements: Rust's
//     Vec starts at 4 elements and doubles, so one block of 32 bytes
//     realloc'ed 8 times up to 8,192 bytes: a chain of 9 records.
//   - make_job: 200 boxed jobs of 64 bytes made by a producer thread (the
//     second thread) and sent over an mpsc channel to the main thread,
//     which reads and drops them: 200 blocks allocated by thread 2, freed
//     by thread 1.
use std::hint::black_box;
use std::sync::mpsc;
use std::thread;

#[inline(never)]
fn grow_readings() -> Vec<u64> {
    let mut readings = Vec::new();
    for i in 0..1000u64 {
        readings.push(black_box(i));
    }
    readings
}

#[inline(never)]
fn make_job(i: u8) -> Box<[u8; 64]> {
    Box::new([i; 64])
}

fn main() {
    let readings = grow_readings();
    let (sender, receiver) = mpsc::channel();
    let producer = thread::spawn(move || {
        for i in 0..200u32 {
            sender.send(make_job(i as u8)).unwrap();
        }
    });
    producer.join().unwrap();
    let mut sum = 0u64;
    for job in receiver.iter() {
        sum += job.iter().map(|&b| b as u64).sum::<u64>();
    }
    black_box(sum + readings.iter().sum::<u64>());
}
