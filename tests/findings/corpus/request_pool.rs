// request_pool.rs - the classic ThreadPool (an mpsc channel shared by the
// workers through Arc<Mutex<Receiver>>), fed faster than it drains.
//
// The server reads each request's body (read_request: a Vec<u8> of 1.5 KiB)
// and hands a closure owning it to ThreadPool::execute, which boxes the job
// and sends it down an unbounded mpsc::channel(); two workers take jobs one
// at a time and render a response (hashing the body many times). Reading is
// much faster than rendering and execute() never waits: request bodies pile
// up in the channel.
//
// Verdict: missing-backpressure on read_request (allocated by the main
// thread, dropped by whichever worker runs the job).
// Twin: request_pool_bounded.rs (sync_channel(8): execute waits).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

type Job = Box<dyn FnOnce() + Send + 'static>;

pub struct ThreadPool {
    workers: Vec<thread::JoinHandle<()>>,
    jobs: Option<mpsc::Sender<Job>>,
}

impl ThreadPool {
    pub fn new(size: usize) -> ThreadPool {
        let (jobs, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        let workers = (0..size)
            .map(|_| {
                let receiver = Arc::clone(&receiver);
                thread::spawn(move || loop {
                    let job = receiver.lock().unwrap().recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => break,
                    }
                })
            })
            .collect();
        ThreadPool { workers, jobs: Some(jobs) }
    }

    pub fn execute<F: FnOnce() + Send + 'static>(&self, f: F) {
        self.jobs.as_ref().unwrap().send(Box::new(f)).unwrap();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        drop(self.jobs.take());
        for worker in self.workers.drain(..) {
            worker.join().unwrap();
        }
    }
}

#[inline(never)]
fn read_request(n: u64) -> Vec<u8> {
    let mut body = vec![0u8; 1536];
    for (i, byte) in body.iter_mut().enumerate() {
        *byte = b' ' + ((n as usize * 13 + i * 7) % 90) as u8;
    }
    body
}

fn render(body: &[u8]) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for _ in 0..16 {
        for &b in body {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01B3);
        }
    }
    h
}

fn main() {
    let served = Arc::new(AtomicU64::new(0));
    {
        let pool = ThreadPool::new(2);
        for n in 0..1500 {
            let body = read_request(n);
            let served = Arc::clone(&served);
            pool.execute(move || {
                served.fetch_add(render(&body) & 0xFFFF, Ordering::Relaxed);
            });
        }
    }
    println!("request_pool: 1500 requests, {}", served.load(Ordering::Relaxed));
}
