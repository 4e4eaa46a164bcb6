// page_cache_bounded.rs - page_cache.rs fixed: the render cache is keyed by
// the product and holds at most 256 pages.
//
// The same server renders product pages (render_page: a ~1.2 KiB String of
// HTML), but the cache key is the product path without the query string,
// and the cache evicts the oldest page (a VecDeque of keys in insertion
// order) once it holds 256. Requests spread over 300 products, so the
// cache fills within the first requests and then stays at its bound:
// misses keep rendering pages and evicting others for the whole run.
//
// Verdict: no unbounded-growth and no leak on render_page: the cache
// fills once and stays flat.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::{HashMap, VecDeque};
use std::fmt::Write;

const REQUESTS: u32 = 6000;
const PRODUCTS: u32 = 300;
const CACHE_PAGES: usize = 256;

/// The n-th request: popular products are asked for far more often.
fn request_url(n: u32) -> String {
    let session = (n as u64).wrapping_mul(0x9E3779B97F4A7C15) >> 20;
    let (a, b) = (session % PRODUCTS as u64, (session >> 16) % PRODUCTS as u64);
    format!("/product/{}?session={:x}", a * b / PRODUCTS as u64, session)
}

fn render_page(url: &str) -> String {
    let product = url[9..].split('?').next().unwrap_or("0");
    let mut html = String::new();
    write!(html, "<html><head><title>Product {}</title></head><body>", product).unwrap();
    for row in 0..24 {
        write!(html, "<tr><td>option {}</td><td>{}.{:02} EUR</td></tr>", row, row * 3 + 10, row * 7 % 100)
            .unwrap();
    }
    html.push_str("</body></html>");
    html
}

struct Server {
    cache: HashMap<String, String>,
    order: VecDeque<String>,
    hits: u32,
}

impl Server {
    fn serve(&mut self, url: String) -> usize {
        let key = url.split('?').next().unwrap_or("").to_string();
        if let Some(page) = self.cache.get(&key) {
            self.hits += 1;
            return page.len();
        }
        let page = render_page(&url);
        let length = page.len();
        if self.cache.len() == CACHE_PAGES {
            if let Some(oldest) = self.order.pop_front() {
                self.cache.remove(&oldest);
            }
        }
        self.order.push_back(key.clone());
        self.cache.insert(key, page);
        length
    }
}

fn main() {
    let mut server = Server { cache: HashMap::new(), order: VecDeque::new(), hits: 0 };
    let mut sent = 0usize;
    for n in 0..REQUESTS {
        sent += server.serve(request_url(n));
    }
    println!("page_cache_bounded: {} requests, {} hits, {} bytes sent, {} cached", REQUESTS, server.hits,
             sent, server.cache.len());
}
