// publisher.rs - a client library's publish() handing payloads to a
// background sender over an unbounded channel.
//
// A message-broker client: Publisher::publish(topic, payload) copies the
// caller's payload into a Vec<u8> (payload.to_vec()) and sends it, with the
// topic, over an mpsc::channel() to a background thread that writes one
// message at a time to the connection (framing, checksum and a simulated
// slow socket). The application publishes 2,500 sensor readings of 1 KiB as
// fast as it produces them; publish() never waits, so messages pile up in
// the channel while the sender trickles them out.
//
// Verdict: missing-backpressure on Publisher::publish (the payload copies
// are made on the application thread and dropped on the sender thread).
// Twin: publisher_bounded.rs (sync_channel(32): publish waits when 32
// messages are in flight).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};

struct Outgoing {
    topic: String,
    payload: Vec<u8>,
}

pub struct Publisher {
    queue: mpsc::Sender<Outgoing>,
    sender: Option<JoinHandle<u64>>,
}

impl Publisher {
    pub fn connect() -> Publisher {
        let (queue, outgoing) = mpsc::channel();
        let sender = thread::spawn(move || send_loop(outgoing));
        Publisher { queue, sender: Some(sender) }
    }

    #[inline(never)]
    pub fn publish(&self, topic: &str, payload: &[u8]) {
        let message = Outgoing { topic: topic.to_string(), payload: payload.to_vec() };
        self.queue.send(message).expect("sender thread gone");
    }

    pub fn close(mut self) -> u64 {
        let sender = self.sender.take().unwrap();
        drop(self);
        sender.join().unwrap()
    }
}

/// Writes one message at a time: frame header, payload, CRC-32, then waits
/// for the socket (a busy loop standing in for a slow link).
fn send_loop(outgoing: Receiver<Outgoing>) -> u64 {
    let mut written = 0u64;
    for message in outgoing {
        let mut crc = 0xFFFF_FFFFu32;
        for &byte in message.topic.as_bytes().iter().chain(message.payload.iter()) {
            crc ^= byte as u32;
            for _ in 0..8 {
                crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
            }
        }
        written += (4 + message.topic.len() + message.payload.len()) as u64 + (crc as u64 & 1);
    }
    written
}

fn main() {
    let publisher = Publisher::connect();
    let mut reading = [0u8; 1024];
    for n in 0..2500u32 {
        for (i, byte) in reading.iter_mut().enumerate() {
            *byte = (n as usize * 7 + i * 3) as u8;
        }
        let topic = format!("plant/line-{}/sensor-{}", n % 4, n % 32);
        publisher.publish(&topic, &reading);
    }
    let written = publisher.close();
    println!("publisher: 2500 messages, {} bytes written", written);
}
