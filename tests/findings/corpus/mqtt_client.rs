// mqtt_client.rs - an MQTT-style client whose connection state preallocates
// for the protocol's worst case.
//
// ConnState::new sizes everything for the largest the protocol allows: a
// packet-id table with a slot for every one of the 65,536 packet ids
// (vec![None; u16::MAX as usize + 1] of Option<u16>, 4 bytes each =
// 256 KiB), two 101-entry tables for QoS 1/2 publishes in flight, a
// 100-entry event queue and a 10 KiB write buffer: ~300 KB per connection.
// The client then publishes 40 QoS-1 messages with at most 10 in flight:
// it touches 10 packet-id slots, a few table entries and events, and at
// most ~100 bytes of the write buffer.
//
// Verdict: oversized-preallocation on ConnState::new (the 256 KiB packet-id
// table: 99.9% of it never read, a third of the program's peak).
// Twin: mqtt_client_fixed.rs (tables sized to max_inflight).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::VecDeque;

#[derive(Clone)]
struct Publish {
    pkid: u16,
    topic: String,
    payload: Vec<u8>,
}

enum Event {
    PubAck(u16),
    Outgoing(u16),
}

pub struct ConnState {
    max_inflight: u16,
    next_pkid: u16,
    /// Which outgoing publish (index into outgoing_pub) holds each packet id.
    pkid_slot: Vec<Option<u16>>,
    outgoing_pub: Vec<Option<Publish>>,
    outgoing_rel: Vec<Option<u16>>,
    events: VecDeque<Event>,
    write: Vec<u8>,
}

impl ConnState {
    #[inline(never)]
    pub fn new(max_inflight: u16) -> ConnState {
        ConnState {
            max_inflight,
            next_pkid: 0,
            pkid_slot: vec![None; u16::MAX as usize + 1],
            outgoing_pub: vec![None; 101],
            outgoing_rel: vec![None; 101],
            events: VecDeque::with_capacity(100),
            write: Vec::with_capacity(10 * 1024),
        }
    }

    fn inflight(&self) -> usize {
        self.outgoing_pub.iter().filter(|p| p.is_some()).count()
    }

    fn publish(&mut self, topic: &str, payload: &[u8]) -> Option<u16> {
        if self.inflight() >= self.max_inflight as usize {
            return None;
        }
        self.next_pkid = self.next_pkid % self.max_inflight + 1;
        let pkid = self.next_pkid;
        let slot = (pkid % 101) as usize;
        self.pkid_slot[pkid as usize] = Some(slot as u16);
        self.outgoing_pub[slot] = Some(Publish { pkid, topic: topic.to_string(), payload: payload.to_vec() });
        // Frame it: fixed header, topic, packet id, payload.
        self.write.clear();
        self.write.push(0x32);
        self.write.push((2 + topic.len() + 2 + payload.len()) as u8);
        self.write.extend_from_slice(&(topic.len() as u16).to_be_bytes());
        self.write.extend_from_slice(topic.as_bytes());
        self.write.extend_from_slice(&pkid.to_be_bytes());
        self.write.extend_from_slice(payload);
        self.events.push_back(Event::Outgoing(pkid));
        Some(pkid)
    }

    fn handle_puback(&mut self, pkid: u16) -> bool {
        match self.pkid_slot[pkid as usize].take() {
            Some(slot) => {
                let done = self.outgoing_pub[slot as usize].take();
                self.outgoing_rel[slot as usize] = None;
                self.events.push_back(Event::PubAck(pkid));
                done.map_or(false, |p| p.pkid == pkid && !p.topic.is_empty() && !p.payload.is_empty())
            }
            None => false,
        }
    }
}

fn main() {
    let mut state = ConnState::new(10);
    let (mut acked, mut sent_bytes, mut events) = (0, 0, 0);
    let mut waiting: VecDeque<u16> = VecDeque::new();
    for n in 0..40u32 {
        let payload = format!("{{\"sensor\":{},\"celsius\":{}.{}}}", n % 8, 20 + n % 5, n % 10);
        loop {
            match state.publish(&format!("plant/line-{}/temp", n % 4), payload.as_bytes()) {
                Some(pkid) => {
                    sent_bytes += state.write.len();
                    waiting.push_back(pkid);
                    break;
                }
                // Window full: the broker acknowledges the oldest publish.
                None => acked += state.handle_puback(waiting.pop_front().unwrap()) as u32,
            }
        }
        while let Some(event) = state.events.pop_front() {
            events += match event { Event::PubAck(id) => 1 + id as u32 % 1, Event::Outgoing(id) => 2 + id as u32 % 1 };
        }
    }
    while let Some(pkid) = waiting.pop_front() {
        acked += state.handle_puback(pkid) as u32;
    }
    println!("mqtt_client: 40 published, {} acked, {} bytes framed, {} event points", acked, sent_bytes, events);
}
