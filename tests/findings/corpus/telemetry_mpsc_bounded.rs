// telemetry_mpsc_bounded.rs - telemetry_mpsc.rs with mpsc::sync_channel(16).
//
// The same program, but the channel holds at most 16 events: send blocks
// while the uploader is behind.
//
// Verdict: no missing-backpressure (same hand-off, at most ~18 events live),
// no growth or leak. Twin of telemetry_mpsc.rs, described below.
//
// The application thread records events (encode_event: a Vec<u8> of ~1.5
// KiB per event, a header and JSON-ish body) and sends each through an
// std::sync::mpsc::channel() to an uploader thread that compresses and
// "uploads" them one at a time. mpsc::channel() is unbounded: send never
// waits, and the uploader is slower than the application, so events pile up
// in the channel.
//
// Verdict: missing-backpressure on encode_event (allocated by the main
// thread, dropped by the uploader thread, hundreds waiting).
// Twin: telemetry_mpsc_bounded.rs (mpsc::sync_channel(16)).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::sync::mpsc;
use std::thread;

const EVENTS: u32 = 2000;

#[inline(never)]
fn encode_event(id: u32, user: u32) -> Vec<u8> {
    let mut event = Vec::with_capacity(1536);
    event.extend_from_slice(&id.to_le_bytes());
    event.extend_from_slice(&user.to_le_bytes());
    let mut state = id.wrapping_mul(2654435761) ^ user;
    while event.len() < 1536 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        event.push(b'a' + (state % 26) as u8);
    }
    event
}

/// Run-length + checksum pass standing in for compression and the upload.
fn upload(event: &[u8]) -> u64 {
    let mut sum = 0u64;
    for round in 0..6u64 {
        let mut run = 0u64;
        let mut previous = 0u8;
        for &byte in event {
            if byte == previous {
                run += 1;
            } else {
                sum = sum.wrapping_mul(31).wrapping_add(run ^ byte as u64 ^ round);
                previous = byte;
                run = 0;
            }
        }
    }
    sum
}

fn main() {
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(16);
    let uploader = thread::spawn(move || {
        let mut total = 0u64;
        for event in rx {
            total = total.wrapping_add(upload(&event));
        }
        total
    });
    for id in 0..EVENTS {
        tx.send(encode_event(id, id % 97)).expect("uploader gone");
    }
    drop(tx);
    let total = uploader.join().unwrap();
    println!("telemetry_mpsc_bounded: {} events uploaded, {:016x}", EVENTS, total);
}
