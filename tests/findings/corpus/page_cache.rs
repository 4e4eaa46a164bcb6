// page_cache.rs - a server-side render cache keyed by the full request URL.
//
// A small web server renders product pages (render_page: a ~1.2 KiB
// String of HTML) and caches them in a HashMap<String, String> so that a
// repeated request is served from memory. The key is the whole URL, query
// string included, and every request carries the client's session id
// (`/product/17?session=...`), so no two requests share a key: every
// request misses, renders, and inserts. The cache never evicts; it is
// dropped when the server shuts down at the end of the traffic.
//
// Verdict: unbounded-growth on render_page: the cached pages grow for as
// long as requests arrive and are given back only at shutdown (the map's
// own table grows too, but by far less).
// Fixed twin: page_cache_bounded.rs (the key is the product, the cache
// holds at most 256 pages).
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::HashMap;
use std::fmt::Write;

const REQUESTS: u32 = 6000;
const PRODUCTS: u32 = 300;

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
    hits: u32,
}

impl Server {
    fn serve(&mut self, url: String) -> usize {
        if let Some(page) = self.cache.get(&url) {
            self.hits += 1;
            return page.len();
        }
        let page = render_page(&url);
        let length = page.len();
        self.cache.insert(url, page);
        length
    }
}

fn main() {
    let mut server = Server { cache: HashMap::new(), hits: 0 };
    let mut sent = 0usize;
    for n in 0..REQUESTS {
        sent += server.serve(request_url(n));
    }
    println!("page_cache: {} requests, {} hits, {} bytes sent, {} cached", REQUESTS, server.hits, sent,
             server.cache.len());
}
