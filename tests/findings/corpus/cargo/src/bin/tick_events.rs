// tick_events.rs - a game server's event log: bursts of events per tick
// through crossbeam_channel::unbounded() to a logger that keeps up
// (innocent).
//
// The simulation thread (main) runs 40 ticks. Each tick it emits 300
// events at once (emit_event: an Event with a 256-byte payload), sending
// each through crossbeam_channel::unbounded() to the logger thread, then
// spends most of the tick on physics (far longer than the logger needs to
// write 300 events). The logger formats each event and drops it.
//
// It looks alarming: an unbounded channel, every event dropped by another
// thread, hundreds queued at once after every burst. But the logger
// drains each burst long before the next: at most one tick's events wait,
// however long the server runs.
//
// Verdict: no missing-backpressure, leak or unbounded-growth on
// emit_event. The logger's format! of every line is short-lived churn on
// logger (12,000 Strings, each dropped at once): a real, if small, cost.
//
// Under Valgrind's default scheduler the events can pile up all the same:
// an unbounded send never blocks (it only wakes the logger), so the
// simulation thread never gives up the CPU by itself, and the default
// scheduler (unlike --fair-sched=yes) lets it take slice after slice while
// the woken logger waits: in about half the runs thousands of events, up
// to all 12,000, are queued before the logger first runs. lifeheap once
// reported that as a missing backpressure. On the parallel clock (a CPU
// per thread, docs/metrics.md) the logger takes each event as it comes:
// parallel queue depth 0 under either scheduler.
// SPDX-License-Identifier: GPL-3.0-or-later
use crossbeam_channel::{unbounded, Receiver};
use std::thread;

const TICKS: u32 = 40;
const EVENTS_PER_TICK: u32 = 300;

struct Event {
    tick: u32,
    entity: u32,
    payload: Vec<u8>,
}

fn emit_event(tick: u32, entity: u32) -> Event {
    let mut payload = Vec::with_capacity(256);
    let mut state = (tick << 16 ^ entity).wrapping_mul(2654435761) | 1;
    while payload.len() < 256 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        payload.push(b'a' + (state % 26) as u8);
    }
    Event { tick, entity, payload }
}

fn logger(events: Receiver<Event>) -> u64 {
    let mut written = 0u64;
    for event in events {
        let line = format!("t={} e={} {}", event.tick, event.entity, event.payload.len());
        written += line.len() as u64 + event.payload.iter().map(|&b| b as u64).sum::<u64>() % 7;
    }
    written
}

/// The tick's physics: integrate every body's position (the bulk of a tick).
fn step_physics(bodies: &mut [(f64, f64)], tick: u32) {
    for _ in 0..40 {
        for (i, body) in bodies.iter_mut().enumerate() {
            body.1 += 0.001 * ((i as u32 ^ tick) % 13) as f64 - 0.006;
            body.0 += body.1 * 0.016;
        }
    }
}

fn main() {
    let (sender, receiver) = unbounded();
    let logger = thread::spawn(move || logger(receiver));
    let mut bodies = vec![(0.0f64, 0.0f64); 4096];
    for tick in 0..TICKS {
        for entity in 0..EVENTS_PER_TICK {
            sender.send(emit_event(tick, entity)).unwrap();
        }
        step_physics(&mut bodies, tick);
    }
    drop(sender);
    let written = logger.join().unwrap();
    let energy: f64 = bodies.iter().map(|b| b.1 * b.1).sum();
    println!("tick_events: {} events logged ({} bytes), energy {:.3}", TICKS * EVENTS_PER_TICK, written, energy);
}
