// crawl_index.rs - several fetcher threads feeding an indexer through an
// unbounded crossbeam channel.
//
// Three fetcher threads each "download" pages (fetch_page: a Page with its
// URL and a 2 KiB body) and send them through crossbeam_channel::unbounded()
// to one indexer thread, which tokenizes every page and folds its words into
// an index before dropping it. Three fetchers outrun one indexer and nothing
// makes them wait: pages pile up in the channel.
//
// Verdict: missing-backpressure on fetch_page (bodies allocated by three
// threads, all dropped by the indexer thread, hundreds waiting).
// Twin: crawl_index_bounded.rs (crossbeam_channel::bounded(16)).
// SPDX-License-Identifier: GPL-3.0-or-later
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::thread;

const FETCHERS: u32 = 3;
const PAGES_PER_FETCHER: u32 = 600;

struct Page {
    url: String,
    body: Vec<u8>,
}

#[inline(never)]
fn fetch_page(fetcher: u32, n: u32) -> Page {
    let url = format!("https://example.org/docs/{}/page-{}.html", fetcher, n);
    let mut body = Vec::with_capacity(2048);
    let words = [&b"lorem "[..], b"ipsum ", b"heap ", b"queue ", b"channel ", b"thread ", b"page "];
    let mut i = (fetcher * 7 + n) as usize;
    while body.len() + 9 <= 2048 {
        body.extend_from_slice(words[i % words.len()]);
        i = i * 31 + 7;
    }
    Page { url, body }
}

fn fetcher(id: u32, pages: Sender<Page>) {
    for n in 0..PAGES_PER_FETCHER {
        pages.send(fetch_page(id, n)).expect("indexer gone");
    }
}

/// Counts words per first letter, a few passes per page (stemming, stop
/// words and ranking in a real indexer).
fn indexer(pages: Receiver<Page>) -> (u32, [u64; 26]) {
    let mut index = [0u64; 26];
    let mut count = 0;
    for page in pages {
        for pass in 0..8u64 {
            for word in page.body.split(|&b| b == b' ') {
                if let Some(&first) = word.first() {
                    let slot = ((first - b'a') as u64 + pass) % 26;
                    index[slot as usize] += word.len() as u64 + page.url.len() as u64;
                }
            }
        }
        count += 1;
    }
    (count, index)
}

fn main() {
    let (tx, rx) = unbounded();
    let index = thread::spawn(move || indexer(rx));
    let fetchers: Vec<_> = (0..FETCHERS)
        .map(|id| {
            let tx = tx.clone();
            thread::spawn(move || fetcher(id, tx))
        })
        .collect();
    drop(tx);
    for f in fetchers {
        f.join().unwrap();
    }
    let (count, index) = index.join().unwrap();
    println!("crawl_index: {} pages indexed, {:?}", count, &index[..4]);
}
