// logstats - per-endpoint statistics of a generated access log, the way
// one writes it with the regex crate (a dependency: Debian's
// librust-regex-dev, from cargo's registry).
//
// Sites, known by construction: 4000 log lines, each a String made by
// format! in make_log's closure; everything the regex crate allocates to
// compile the two patterns is named by the line of LogStats::new that
// called Regex::new (the dependency's code is library code, as std's is),
// and what it allocates to match by LogStats::record; 6 endpoints (the
// paths with their numeric ids replaced by ":id"), each with a Vec of
// latencies grown by push in LogStats::record: 6 blocks, each grown from 4
// to 1024 latencies (666 or 667 pushed) by doubling, 8 reallocs.
// SPDX-License-Identifier: GPL-3.0-or-later
use regex::Regex;
use std::collections::HashMap;

#[derive(Default)]
struct EndpointStats {
    hits: u64,
    errors: u64,
    latencies_ms: Vec<u32>,
}

struct LogStats {
    line_re: Regex,
    id_re: Regex,
    endpoints: HashMap<String, EndpointStats>,
}

impl LogStats {
    fn new() -> Self {
        LogStats {
            line_re: Regex::new(r"^(\S+) (\S+) (GET|POST|PUT) (\S+) (\d{3}) (\d+)ms$").unwrap(),
            id_re: Regex::new(r"/\d+").unwrap(),
            endpoints: HashMap::new(),
        }
    }

    fn record(&mut self, line: &str) -> bool {
        let Some(caps) = self.line_re.captures(line) else { return false };
        let path = self.id_re.replace_all(&caps[4], "/:id");
        let status: u32 = caps[5].parse().unwrap_or(0);
        let latency: u32 = caps[6].parse().unwrap_or(0);
        let stats = self.endpoints.entry(path.into_owned()).or_default();
        stats.hits += 1;
        if status >= 500 {
            stats.errors += 1;
        }
        stats.latencies_ms.push(latency);
        true
    }

    fn report(&mut self) -> Vec<(String, u64, u64, u32)> {
        let mut rows: Vec<_> = self
            .endpoints
            .iter_mut()
            .map(|(path, s)| {
                s.latencies_ms.sort_unstable();
                let p99 = s.latencies_ms[s.latencies_ms.len() * 99 / 100];
                (path.clone(), s.hits, s.errors, p99)
            })
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        rows
    }
}

fn make_log(lines: usize) -> Vec<String> {
    const PATHS: [&str; 6] = ["/api/users/{}", "/api/orders/{}", "/static/app.js",
                              "/api/users/{}/avatar", "/health", "/api/search"];
    (0..lines)
        .map(|i| {
            let path = PATHS[i % PATHS.len()].replace("{}", &(i % 97).to_string());
            let status = if i % 50 == 0 { 503 } else { 200 };
            format!("2026-11-25 03:{:02}:{:02} GET {} {} {}ms", i / 60 % 60, i % 60, path, status, 5 + i * 7 % 300)
        })
        .collect()
}

fn main() {
    let log = make_log(4000);
    let mut stats = LogStats::new();
    let parsed = log.iter().filter(|line| stats.record(line)).count();
    for (path, hits, errors, p99) in stats.report() {
        println!("{:<24} {:>6} {:>4} {:>5}ms", path, hits, errors, p99);
    }
    println!("{} of {} lines", parsed, log.len());
}
