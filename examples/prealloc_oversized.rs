// prealloc_oversized.rs - an oversized preallocation per connection, in Rust
// (the C version is prealloc_oversized.c).
//
// Problem: Connection::new preallocates for the worst case, as the rewritten
// service in the story did: a packet table with a slot for every possible
// 16-bit sequence number, `vec![None; 65_536]` of Option<NonZeroU32>
// (4 bytes each = 256 KiB), an event queue with room for 100 events and a
// 10 KiB write buffer. A connection never has more than 8 packets in flight,
// records 8 events and writes 32-byte frames. All connections stay open for
// the whole run, so all of it counts at the peak.
//
// Fix: prealloc_sized.rs - every table sized to what a connection needs.
//
// Numbers a profiler must find (by construction, 64 connections):
//   - Connection::new, packet table (oversized-preallocation): 64 blocks x
//     262,144 bytes = 16,777,216 bytes, all live at the peak. `vec![None; n]`
//     of a type whose None is all-zero bytes is allocated with calloc
//     (alloc_zeroed), so the program itself writes nothing at construction;
//     afterwards each connection writes 8 slots twice (64 bytes) and reads
//     them once (32 bytes): 2,048 bytes read in all.
//   - Connection::new, write buffer (unused capacity): 64 blocks x 10,240
//     bytes (Vec::with_capacity) = 655,360 bytes; only the first 32 bytes of
//     each are ever written (8 frames of 32 bytes, each read once when
//     "sent"), so 10,208 bytes per block, 653,312 in all, are never touched.
//   - Connection::new, event queue: 64 blocks x 1,600 bytes
//     (Vec::with_capacity(100) of 16-byte events) = 102,400 bytes; only the
//     first 128 bytes (8 events) of each are written and read.
//   - main: one Vec of 64 connections (64 x 88 bytes = 5,632 bytes).
//   Everything is dropped before exit.
//
// Output (deterministic): bytes sent and a checksum of the traffic; the same
// as prealloc_sized.rs.
//
// Build: rustc -C opt-level=0 -g prealloc_oversized.rs -o prealloc_oversized_rs
// SPDX-License-Identifier: GPL-3.0-or-later

use std::num::NonZeroU32;

const CONNECTION_COUNT: u32 = 64;
const PACKET_TABLE_SLOTS: usize = 65_536; // one per 16-bit sequence number
const EVENT_QUEUE_ENTRIES: usize = 100;
const WRITE_BUFFER_BYTES: usize = 10_240;
const PACKETS_IN_FLIGHT: u32 = 8; // what a connection actually uses
const FRAME_BYTES: usize = 32;

#[derive(Clone, Copy)]
struct Event {
    kind: u32,
    sequence: u32,
    timestamp: u64,
}

struct Connection {
    id: u32,
    packet_table: Vec<Option<NonZeroU32>>,
    event_queue: Vec<Event>,
    write_buffer: Vec<u8>,
    bytes_sent: u64,
}

impl Connection {
    /// The interesting allocations: every table sized for the worst case.
    #[inline(never)]
    fn new(id: u32) -> Connection {
        Connection {
            id,
            packet_table: vec![None; PACKET_TABLE_SLOTS],
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
        self.packet_table[sequence as usize] = NonZeroU32::new(self.id * 1000 + sequence + 1);
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
        let in_flight = self.packet_table[sequence as usize].take();
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
        "prealloc_oversized_rs: {} connections, {} bytes sent, checksum {:08x}",
        CONNECTION_COUNT, bytes_sent, checksum
    );
}
