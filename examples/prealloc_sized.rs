// prealloc_sized.rs - the fix for prealloc_oversized.rs: size state to need.
//
// Problem fixed: prealloc_oversized.rs's Connection::new preallocates a
// 256 KiB packet table (`vec![None; 65_536]`), room for 100 events and a
// 10 KiB write buffer per connection, and uses almost none of it.
//
// Fix: a connection has at most 8 packets in flight, records 8 events and
// writes 32-byte frames, so Connection::new allocates exactly that: an
// 8-slot packet window indexed by sequence number modulo 8, room for 8
// events and a 32-byte write buffer. Traffic and output are identical.
//
// Numbers a profiler must find (by construction, 64 connections):
//   - Connection::new, packet window: 64 blocks x 32 bytes = 2,048 bytes
//     (was 16,777,216; calloc'd by `vec![None; 8]`); every slot written twice
//     and read once.
//   - Connection::new, write buffer: 64 blocks x 32 bytes = 2,048 bytes
//     (was 655,360); every byte written 8 times and read 8 times.
//   - Connection::new, event queue: 64 blocks x 128 bytes (8 x 16-byte
//     events) = 8,192 bytes (was 102,400); every byte written and read once.
//   - main: one Vec of 64 connections (64 x 88 bytes = 5,632 bytes).
//   No block has unused bytes. Everything is dropped before exit.
//
// Output (deterministic): the same bytes sent and checksum as
// prealloc_oversized.rs.
//
// Build: rustc -C opt-level=0 -g prealloc_sized.rs -o prealloc_sized_rs
// SPDX-License-Identifier: GPL-3.0-or-later

use std::num::NonZeroU32;

const CONNECTION_COUNT: u32 = 64;
const PACKETS_IN_FLIGHT: u32 = 8; // what a connection actually uses
const FRAME_BYTES: usize = 32;
// The fix: sized to need, not to the worst case.
const PACKET_WINDOW_SLOTS: usize = PACKETS_IN_FLIGHT as usize;
const EVENT_QUEUE_ENTRIES: usize = PACKETS_IN_FLIGHT as usize;
const WRITE_BUFFER_BYTES: usize = FRAME_BYTES;

#[derive(Clone, Copy)]
struct Event {
    kind: u32,
    sequence: u32,
    timestamp: u64,
}

struct Connection {
    id: u32,
    packet_window: Vec<Option<NonZeroU32>>,
    event_queue: Vec<Event>,
    write_buffer: Vec<u8>,
    bytes_sent: u64,
}

impl Connection {
    /// The interesting allocations: every table sized to what is used.
    #[inline(never)]
    fn new(id: u32) -> Connection {
        Connection {
            id,
            packet_window: vec![None; PACKET_WINDOW_SLOTS],
            event_queue: Vec::with_capacity(EVENT_QUEUE_ENTRIES),
            write_buffer: Vec::with_capacity(WRITE_BUFFER_BYTES),
            bytes_sent: 0,
        }
    }

    /// Reads the frame back byte by byte, as a socket write would.
    fn send_frame(&mut self) -> u32 {
        let mut digest = 0u32;
        for &byte in self.write_buffer.iter() {
            digest = digest.wrapping_mul(31).wrapping_add(byte as u32);
        }
        self.bytes_sent += self.write_buffer.len() as u64;
        digest
    }

    fn send_packet(&mut self, sequence: u32) -> u32 {
        self.packet_window[sequence as usize % PACKET_WINDOW_SLOTS] =
            NonZeroU32::new(self.id * 1000 + sequence + 1);
        self.event_queue.push(Event {
            kind: 1,
            sequence,
            timestamp: (self.id as u64) << 32 | sequence as u64,
        });
        self.write_buffer.clear();
        for i in 0..FRAME_BYTES {
            self.write_buffer.push((sequence as usize + i) as u8);
        }
        self.send_frame()
    }

    fn acknowledge_packet(&mut self, sequence: u32) -> u32 {
        let in_flight = self.packet_window[sequence as usize % PACKET_WINDOW_SLOTS].take();
        in_flight.map_or(0, NonZeroU32::get)
    }

    fn replay_events(&self) -> u32 {
        let mut digest = 0u32;
        for event in self.event_queue.iter() {
            let event = *event; // reads all 16 bytes
            digest ^= event
                .kind
                .wrapping_add(event.sequence)
                .wrapping_add(event.timestamp as u32)
                .wrapping_add((event.timestamp >> 32) as u32);
        }
        digest
    }
}

fn main() {
    let mut connections: Vec<Connection> = Vec::with_capacity(CONNECTION_COUNT as usize);
    for id in 0..CONNECTION_COUNT {
        connections.push(Connection::new(id));
    }

    let mut checksum = 0u32;
    for connection in connections.iter_mut() {
        for sequence in 0..PACKETS_IN_FLIGHT {
            checksum = checksum.wrapping_mul(7).wrapping_add(connection.send_packet(sequence));
        }
    }
    for connection in connections.iter_mut() {
        for sequence in 0..PACKETS_IN_FLIGHT {
            checksum = checksum.wrapping_add(connection.acknowledge_packet(sequence));
        }
        checksum ^= connection.replay_events();
    }

    let bytes_sent: u64 = connections.iter().map(|connection| connection.bytes_sent).sum();
    drop(connections);
    println!(
        "prealloc_sized_rs: {} connections, {} bytes sent, checksum {:08x}",
        CONNECTION_COUNT, bytes_sent, checksum
    );
}
