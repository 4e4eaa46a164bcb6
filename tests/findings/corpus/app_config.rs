// app_config.rs - start-up configuration held for the whole run (innocent).
//
// A service parses its configuration at start-up (Config::load: 3,000
// "key = value" settings into a HashMap<String, String>, ~300 KB with the
// table) and consults it on every one of 60,000 requests until it exits,
// when main returns without bothering to drop it (std::process::exit). The
// map is built once, is never added to after start-up, and is used all
// run: it is neither a leak nor unbounded growth, even though none of it
// is freed at exit.
//
// Verdict: no leak, no unbounded-growth on Config::load.
// SPDX-License-Identifier: GPL-3.0-or-later
use std::collections::HashMap;

struct Config {
    settings: HashMap<String, String>,
}

impl Config {
    #[inline(never)]
    fn load(text: &str) -> Config {
        let mut settings = HashMap::new();
        for line in text.lines() {
            if let Some((key, value)) = line.split_once(" = ") {
                settings.insert(key.trim().to_string(), value.trim().to_string());
            }
        }
        Config { settings }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.settings.get(key).map(String::as_str)
    }
}

fn main() {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!("route.{}.upstream = http://backend-{}.internal:{}/api/v{}\n", i, i % 40, 8000 + i % 100, 1 + i % 3));
    }
    let config = Config::load(&text);
    drop(text);
    let mut key = String::with_capacity(32);
    let mut bytes = 0usize;
    for request in 0..60_000usize {
        use std::fmt::Write;
        key.clear();
        write!(key, "route.{}.upstream", request * 7919 % 3000).unwrap();
        bytes += config.get(&key).map_or(0, str::len);
    }
    println!("app_config: {} settings, {} bytes of upstreams", config.settings.len(), bytes);
    std::process::exit(0);
}
