// queue_unbounded.rs - missing backpressure between two threads, in Rust
// (the C version is queue_unbounded.c).
//
// Problem: a producer thread copies each 4 KiB payload into a Vec<u8> and
// sends it through std::sync::mpsc::channel(), which is UNBOUNDED; a consumer
// thread receives one message at a time, reads every payload byte, does some
// per-message work ("sending") and drops it. The consumer is slower and the
// producer never waits, so messages pile up in the channel.
//
// Fix: queue_bounded.rs - mpsc::sync_channel(8): send() blocks while 8
// messages are waiting.
//
// Numbers a profiler must find (by construction):
//   - site: queue_push_message (payload.to_vec(), under alloc:: frames):
//     2,000 blocks of 4,096 bytes = 8,192,000 bytes in total, allocated on
//     the producer thread, freed (dropped) on the consumer thread in
//     consume_messages after every byte was read once.
//   - the consumer does 5,000 extra mix_word rounds per message on top of
//     the per-byte work both sides share, so it is the slower side and the
//     channel holds about half the messages when the producer finishes; live
//     bytes of the site rise through roughly the first 70% of the run, then
//     drain. The exact peak depends on Valgrind's thread hand-off: with
//     --fair-sched=yes, 6 runs under valgrind --tool=dhat on a busy machine
//     gave 993 to 1,136 payloads (4.1 to 4.7 MB) live at the peak, the peak
//     at 64-69% of the run, mean lifetime 25-30% of the run (4 runs with the
//     default scheduler on an idle machine: 891 to 974). With the default
//     scheduler on a busy machine the consumer can be starved until the
//     producer is nearly done (6 runs: 858 to 1,946 payloads). Tests should
//     run it with --fair-sched=yes and assert a floor (say 500 payloads),
//     not an exact count.
//   - the channel's own blocks (std internals, each holding 31 messages) are
//     also allocated by the producer and freed by the consumer.
//
// Output (deterministic): the message count and a checksum of all payloads;
// the same as queue_bounded.rs.
//
// Build: rustc -C opt-level=0 -g queue_unbounded.rs -o queue_unbounded_rs
// SPDX-License-Identifier: GPL-3.0-or-later

use std::sync::mpsc;
use std::thread;

const MESSAGE_COUNT: u32 = 2000;
const PAYLOAD_BYTES: usize = 4096;
/// Extra consumer work per message, in mix_word() rounds: makes the consumer
/// the slower side, natively and under Valgrind's one-thread-at-a-time
/// scheduler.
const SEND_WORK_ROUNDS: u32 = 5000;

struct Message {
    sequence: u32,
    payload: Vec<u8>,
}

/// One step of a cheap integer hash; the unit of "work" on both threads.
fn mix_word(state: u32, value: u32) -> u32 {
    let mixed = (state ^ value).wrapping_mul(0x9e37_79b1);
    mixed ^ (mixed >> 15)
}

/// The producer's own work: generate the next payload in its staging buffer.
fn fill_payload(payload: &mut [u8], sequence: u32) {
    let mut state = sequence;
    for (index, byte) in payload.iter_mut().enumerate() {
        state = mix_word(state, index as u32);
        *byte = state as u8;
    }
}

/// The interesting allocation: one heap copy of the payload per message,
/// handed to the consumer thread. send() on an unbounded channel never waits.
#[inline(never)]
fn queue_push_message(sender: &mpsc::Sender<Message>, payload: &[u8], sequence: u32) {
    let message = Message { sequence, payload: payload.to_vec() };
    sender.send(message).expect("consumer hung up");
}

fn producer_main(sender: mpsc::Sender<Message>) {
    let mut staging = vec![0u8; PAYLOAD_BYTES];
    for sequence in 0..MESSAGE_COUNT {
        fill_payload(&mut staging, sequence);
        queue_push_message(&sender, &staging, sequence);
    }
    // Dropping the sender closes the channel: the consumer stops once drained.
}

/// Reads every payload byte, "sends" the message (deliberate work), drops it.
#[inline(never)]
fn consume_messages(receiver: mpsc::Receiver<Message>) -> (u32, u32) {
    let mut messages = 0u32;
    let mut checksum = 0u32;
    for message in receiver {
        let mut digest = message.sequence;
        for &byte in message.payload.iter() {
            digest = mix_word(digest, byte as u32);
        }
        for round in 0..SEND_WORK_ROUNDS {
            digest = mix_word(digest, round);
        }
        checksum ^= digest;
        messages += 1;
        drop(message);
    }
    (messages, checksum)
}

fn main() {
    let (sender, receiver) = mpsc::channel::<Message>();
    let consumer = thread::spawn(move || consume_messages(receiver));
    let producer = thread::spawn(move || producer_main(sender));
    producer.join().expect("producer panicked");
    let (messages, checksum) = consumer.join().expect("consumer panicked");
    println!("queue_unbounded_rs: consumed {} messages, checksum {:08x}", messages, checksum);
    if messages != MESSAGE_COUNT {
        std::process::exit(1);
    }
}
