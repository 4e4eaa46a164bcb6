// queue_bounded.rs - the fix for queue_unbounded.rs: a bounded channel.
//
// Problem fixed: queue_unbounded.rs sends every 4 KiB payload through an
// unbounded mpsc::channel(); the slower consumer lets hundreds of messages
// pile up.
//
// Fix: mpsc::sync_channel(QUEUE_CAPACITY = 8): send() blocks while 8 messages
// are waiting, so the producer runs at the consumer's pace. Payloads, work
// and output are identical to queue_unbounded.rs.
//
// Numbers a profiler must find (by construction):
//   - site: queue_push_message (payload.to_vec()): the same 2,000 blocks of
//     4,096 bytes = 8,192,000 bytes, allocated on the producer thread and
//     dropped on the consumer thread after every byte was read once.
//   - at most 10 payloads live at once (8 in the channel, 1 the producer is
//     trying to send, 1 being consumed) = 40,960 bytes; live bytes stay flat.
//   - the bounded channel allocates its 8 slots once, up front (one 320-byte
//     block of 8 x 40-byte slots, std internals).
//
// Output (deterministic): the same count and checksum as queue_unbounded.rs.
//
// Build: rustc -C opt-level=0 -g queue_bounded.rs -o queue_bounded_rs
// SPDX-License-Identifier: GPL-3.0-or-later

use std::sync::mpsc;
use std::thread;

const MESSAGE_COUNT: u32 = 2000;
const PAYLOAD_BYTES: usize = 4096;
/// Extra consumer work per message, in mix_word() rounds: makes the consumer
/// the slower side, natively and under Valgrind's one-thread-at-a-time
/// scheduler.
const SEND_WORK_ROUNDS: u32 = 5000;
/// The fix: the most messages the channel holds before send() blocks.
const QUEUE_CAPACITY: usize = 8;

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
/// handed to the consumer thread. send() blocks while the channel is full:
/// that wait is the backpressure.
#[inline(never)]
fn queue_push_message(sender: &mpsc::SyncSender<Message>, payload: &[u8], sequence: u32) {
    let message = Message { sequence, payload: payload.to_vec() };
    sender.send(message).expect("consumer hung up");
}

fn producer_main(sender: mpsc::SyncSender<Message>) {
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
    let (sender, receiver) = mpsc::sync_channel::<Message>(QUEUE_CAPACITY);
    let consumer = thread::spawn(move || consume_messages(receiver));
    let producer = thread::spawn(move || producer_main(sender));
    producer.join().expect("producer panicked");
    let (messages, checksum) = consumer.join().expect("consumer panicked");
    println!("queue_bounded_rs: consumed {} messages, checksum {:08x}", messages, checksum);
    if messages != MESSAGE_COUNT {
        std::process::exit(1);
    }
}
