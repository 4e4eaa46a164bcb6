// resize_workers.rs - an image-resize service: a hand-rolled thread pool
// fed through a Mutex<VecDeque> and a Condvar, without a bound.
//
// main() accepts upload requests (load_upload: the request's 2 KiB image
// bytes copied into a Vec<u8>) and pushes each onto a shared
// VecDeque<Upload> guarded by a Mutex; notify_one wakes one of two worker
// threads, which pop uploads and resize them (a box filter over the
// bytes, run for three output sizes) before dropping them. Nothing stops
// main when the deque is long, and resizing costs several times what
// accepting does, so uploads pile up in the deque.
//
// Verdict: missing-backpressure on load_upload (allocated by main,
// dropped by the workers, hundreds waiting).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

const UPLOADS: u32 = 2500;
const UPLOAD_BYTES: usize = 2048;

struct Upload {
    id: u32,
    pixels: Vec<u8>,
}

struct WorkQueue {
    uploads: Mutex<(VecDeque<Upload>, bool)>,
    available: Condvar,
}

fn load_upload(id: u32) -> Upload {
    let mut pixels = Vec::with_capacity(UPLOAD_BYTES);
    let mut state = id.wrapping_mul(2654435761) | 1;
    for _ in 0..UPLOAD_BYTES {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        pixels.push((state >> 24) as u8);
    }
    Upload { id, pixels }
}

fn resize(upload: &Upload) -> u64 {
    let mut checksum = upload.id as u64;
    for width in [1024usize, 512, 256] {
        let step = upload.pixels.len() / width;
        for round in 0..3 {
            for out in 0..width {
                let window = &upload.pixels[out * step..(out + 1) * step];
                let sum: u32 = window.iter().map(|&b| b as u32).sum();
                checksum = checksum.wrapping_mul(31).wrapping_add((sum / step as u32) as u64 + round);
            }
        }
    }
    checksum
}

fn worker(queue: Arc<WorkQueue>) -> u64 {
    let mut done = 0u64;
    loop {
        let upload = {
            let mut guard = queue.uploads.lock().unwrap();
            loop {
                if let Some(upload) = guard.0.pop_front() {
                    break upload;
                }
                if guard.1 {
                    return done;
                }
                guard = queue.available.wait(guard).unwrap();
            }
        };
        done = done.wrapping_add(resize(&upload));
    }
}

fn main() {
    let queue = Arc::new(WorkQueue {
        uploads: Mutex::new((VecDeque::new(), false)),
        available: Condvar::new(),
    });
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let queue = Arc::clone(&queue);
            thread::spawn(move || worker(queue))
        })
        .collect();
    for id in 0..UPLOADS {
        let upload = load_upload(id);
        queue.uploads.lock().unwrap().0.push_back(upload);
        queue.available.notify_one();
    }
    queue.uploads.lock().unwrap().1 = true;
    queue.available.notify_all();
    let checksum = workers.into_iter().fold(0u64, |acc, w| acc ^ w.join().unwrap());
    println!("resize_workers: {} uploads resized, checksum {:x}", UPLOADS, checksum);
}
