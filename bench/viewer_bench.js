#!/usr/bin/env node
// Viewer benchmark: generates a large, valid lifeheap profile (100,000 sites, about 50 MB
// of JSON by default) and times opening it in headless Chromium, from file:// through the
// file picker and as a self-contained report, plus the interactions that touch every
// site (re-sort, search, opening the call tree).
//
//   node bench/viewer_bench.js [--sites N] [--runs R] [--keep]
//
// Needs viewer/node_modules (npm ci) and a built viewer/dist; uses /usr/bin/chromium.
// Prints one line per measurement (median of R runs) and a JSON summary.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const lib = require('../tests/viewer/lib');

function argument(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
const SITES = argument('--sites', 100000);
const RUNS = argument('--runs', 3);
const KEEP = process.argv.includes('--keep');
const GENERATE_ONLY = process.argv.includes('--generate-only');

// Deterministic pseudo-random numbers (xorshift32), so every run benchmarks the same file.
let seed = 0x2545f491;
function random() {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const pick = (n) => Math.floor(random() * n);

// A profile shaped like a big service: ~20k distinct frames in ~2.5k files, stacks of 6-14
// frames that share their outer callers, mostly small blocks (so byte-exact access maps),
// some large mixed-size sites (bucket maps), 1% significant sites with timelines.
function generate(siteCount) {
  const POINTS = 1024;
  const duration = 50000000000;
  const times = [];
  for (let i = 0; i < POINTS; i++) times.push(Math.round((duration * i) / (POINTS - 1)));
  const frameCount = Math.max(50, Math.round(siteCount / 5));
  const frames = [];
  for (let f = 0; f < frameCount; f++) {
    const file = 'src/module_' + (f % 2500) + '.c';
    frames.push({ function: 'function_' + f + (f % 7 === 0 ? '<std::vector<int>>::push_back' : ''), file: path.basename(file),
      directory: '/build/service/' + path.dirname(file), line: 10 + (f * 7) % 900,
      object: f % 10 === 0 ? '/usr/lib/x86_64-linux-gnu/libstdc++.so.6' : '/opt/service/bin/server',
      address: '0x' + (0x400000 + f * 48).toString(16), inlined: f % 13 === 0 });
  }
  const outer = [0, 1, 2, 3, 4, 5, 6, 7]; // main, event loop... shared by every stack
  const sites = [];
  for (let i = 0; i < siteCount; i++) {
    const depth = 6 + pick(9);
    const stack = [];
    for (let k = 0; k < depth - 2; k++) stack.push(8 + pick(frameCount - 8));
    stack.push(outer[pick(4) + 4], outer[pick(4)]);
    const blockSize = random() < 0.95 ? 8 * (1 + pick(8)) : 4096 + pick(300000);
    const blocks = random() < 0.9 ? 1 + pick(200) : 1 + pick(20000);
    const mixed = blockSize > 4096;
    const totalBytes = blocks * blockSize;
    const atPeakBlocks = pick(blocks + 1);
    const mapLength = mixed ? 64 : blockSize;
    const reads = [], writes = [];
    for (let b = 0; b < mapLength; b++) {
      const touched = random() < 0.8;
      reads.push(touched ? pick(blocks * 3) : 0);
      writes.push(touched ? pick(blocks * 2) + 1 : 0);
    }
    const life = 1 + pick(duration / 10);
    const hist = [];
    const top = Math.floor(Math.log2(life)) + 2;
    for (let h = 0; h < top; h++) hist.push(h < top - 6 ? 0 : pick(blocks));
    // Blocks by size (log2 buckets): one bucket for a one-size site, four for a mixed one.
    const sizeBucket = Math.floor(Math.log2(blockSize)) + 1;
    const sizes = [];
    for (let h = 0; h <= sizeBucket; h++) sizes.push(0);
    if (mixed) { for (let h = sizeBucket - 3; h <= sizeBucket; h++) sizes[h] = pick(blocks); } else sizes[sizeBucket] = blocks;
    sites.push({
      stack, name_frame: 0, total_blocks: blocks, total_bytes: totalBytes,
      bytes_at_peak: atPeakBlocks * blockSize, blocks_at_peak: atPeakBlocks,
      max_bytes: Math.max(atPeakBlocks, 1) * blockSize, max_blocks: Math.max(atPeakBlocks, 1), max_time: pick(duration),
      bytes_at_exit: 0, blocks_at_exit: 0, freed_blocks: blocks,
      lifetime: { sum: life * blocks, min: Math.floor(life / 2), max: life * 2, histogram: hist },
      size_histogram: sizes,
      reallocs: random() < 0.1 ? pick(50) : 0, realloc_requested_bytes: 0, realloc_bytes_copied: 0,
      first_alloc_time: pick(duration / 2), last_alloc_time: duration / 2 + pick(duration / 2),
      allocating_threads: 1 + pick(4), cross_thread_frees: pick(blocks),
      access: { bytes_read: totalBytes * 2, bytes_written: totalBytes, measured_bytes: totalBytes,
        never_read_bytes: pick(totalBytes), never_written_bytes: pick(totalBytes), never_accessed_bytes: 0,
        written_never_read_bytes: 0, unused_capacity_bytes: pick(totalBytes), idle_before_free: pick(duration),
        first_access_delay: pick(duration),
        at_peak: { bytes: atPeakBlocks * blockSize, never_read_bytes: 0, never_written_bytes: 0, never_accessed_bytes: 0, unused_capacity_bytes: 0 },
        map: mixed ? { kind: 'buckets', buckets: 64, reads, writes } : { kind: 'bytes', block_size: blockSize, reads, writes } },
      growth: null,
    });
  }
  sites.sort((a, b) => b.bytes_at_peak - a.bytes_at_peak || b.total_bytes - a.total_bytes);
  const peakBytes = sites.reduce((a, s) => a + s.bytes_at_peak, 0);
  const peakBlocks = sites.reduce((a, s) => a + s.blocks_at_peak, 0);
  // One hump over the run whose top (the middle point) is the peak.
  const peakIndex = Math.floor((POINTS - 1) / 2);
  const liveBytes = times.map((t, i) => Math.min(peakBytes - 1, Math.round(peakBytes * Math.sin((Math.PI * i) / (POINTS - 1)))));
  liveBytes[peakIndex] = peakBytes;
  sites.forEach((s, id) => {
    s.id = id;
    if (s.max_bytes >= 0.0005 * peakBytes && id < siteCount / 100) {
      s.timeline = { live_bytes: liveBytes.map((v) => Math.round((v / peakBytes) * s.max_bytes)) };
      s.growth = { rising_fraction: random(), slope_bytes_per_million_instructions: random() * 1000, end_to_max_ratio: 0 };
    }
  });
  const sum = (get) => sites.reduce((a, s) => a + get(s), 0);
  // The run's blocks by size and lifetime: each site's size buckets against its lifetime
  // buckets (a shape, not a consistent split: the viewer only draws it).
  const cells = new Map();
  sites.forEach((s) => s.size_histogram.forEach((n, sz) => {
    if (n === 0) return;
    s.lifetime.histogram.forEach((m, life) => {
      if (m === 0) return;
      const key = sz * 64 + life;
      cells.set(key, (cells.get(key) || 0) + Math.min(n, m));
    });
  }));
  const grid = Array.from(cells.keys()).sort((a, b) => a - b).map((k) => [Math.floor(k / 64), k % 64, cells.get(k)]);
  return {
    format: 'lifeheap-profile', format_version: 1,
    tool: { name: 'lifeheap', version: '0.1.0', valgrind_version: '3.19.0' },
    run: { command: ['/opt/service/bin/server', '--bench'], executable: '/opt/service/bin/server', pid: 1, ppid: 0,
      started_at_unix_ms: 1795000000000, wall_time_ms: 600000, time_unit: 'instructions', duration, threads: 16,
      exit: { status: 'exited', code: 0 }, complete: true, dump_reason: 'exit',
      options: { out_file: 'bench.json', timeline_points: POINTS, num_callers: 16 } },
    totals: { blocks: sum((s) => s.total_blocks), bytes: sum((s) => s.total_bytes), frees: sum((s) => s.freed_blocks),
      reallocs: sum((s) => s.reallocs), realloc_requested_bytes: 0, realloc_bytes_copied: 0,
      bytes_read: sum((s) => s.access.bytes_read), bytes_written: sum((s) => s.access.bytes_written) },
    peak: { bytes: peakBytes, blocks: peakBlocks, time: times[peakIndex] },
    at_exit: { bytes: 0, blocks: 0 },
    frames, sites,
    timeline: { times, live_bytes: liveBytes, live_blocks: liveBytes.map((v) => Math.round(v / 1000)), peak_index: peakIndex,
      markers: [{ time: times[100], label: 'warm-up done' }, { time: times[700], label: 'load test' }],
      significant_site_fraction: 0.0005 },
    blocks_by_size_and_lifetime: grid,
    findings: [0, 1, 2].map((i) => ({ kind: 'unused-capacity', site: i, severity: 'medium',
      summary: 'Site ' + i + ' leaves capacity unused.', evidence: { unused_capacity_bytes: sites[i].access.unused_capacity_bytes } })),
  };
}

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-viewer-bench-'));
  const profileFile = path.join(dir, 'bench-profile.json');
  const started = Date.now();
  const text = JSON.stringify(generate(SITES));
  fs.writeFileSync(profileFile, text);
  const reportFile = path.join(dir, 'bench-report.html');
  fs.writeFileSync(reportFile, lib.selfContained(text));
  console.log('profile: ' + SITES + ' sites, ' + (text.length / 1e6).toFixed(1) + ' MB JSON (generated in ' + (Date.now() - started) + ' ms)');
  if (GENERATE_ONLY) { console.log(profileFile); return; }

  // Other work on the machine slows every figure: the load average goes with the results.
  const results = { sites: SITES, json_mb: Number((text.length / 1e6).toFixed(1)), chromium: null, runs: RUNS,
    cpus: os.cpus().length, load_average_before: os.loadavg().map((v) => Number(v.toFixed(2))) };
  const samples = {};
  const add = (name, ms) => { (samples[name] = samples[name] || []).push(ms); };
  const browser = await lib.launch();
  results.chromium = browser.context.browser() ? browser.context.browser().version() : null;
  try {
    for (let r = 0; r < RUNS; r++) {
      // 1. File picker from file://: time from choosing the file to the page being ready.
      const page = await lib.newPage(browser);
      await lib.openViewer(page);
      // The longest task that held the main thread while the profile opened.
      await page.evaluate(() => {
        window.__longestTask = 0;
        new PerformanceObserver((list) => list.getEntries().forEach((e) => {
          window.__longestTask = Math.max(window.__longestTask, e.duration);
        })).observe({ entryTypes: ['longtask'] });
      });
      const t0 = Date.now();
      if (await lib.openFile(page, profileFile) !== 'ready') throw new Error('the profile did not open');
      add('open via file picker (choose -> ready)', Date.now() - t0);
      const timings = await page.evaluate(() => window.lifeheapViewer.state.loadTimings);
      add('  of which parsing (sliced, yields)', timings.parse_ms);
      add('  of which validation (sliced, yields)', timings.validate_ms);
      add('  of which first render', timings.render_ms);
      add('  longest main-thread task meanwhile', await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(window.__longestTask), 100))));
      await page.evaluate(() => {
        const input = document.createElement('input');
        input.type = 'file';
        input.id = 'bench-input';
        input.hidden = true;
        document.body.appendChild(input);
      });
      await page.setInputFiles('#bench-input', profileFile);
      add('reference: one JSON.parse of the same text', await page.evaluate(() =>
        document.getElementById('bench-input').files[0].text().then((t) => {
          const start = performance.now();
          JSON.parse(t);
          return performance.now() - start;
        })));
      // Interactions over all sites, timed inside the page up to the next frame.
      const timed = (fn, arg) => page.evaluate(fn, arg);
      add('re-sort by total blocks', await timed(() => new Promise((resolve) => {
        const t = performance.now();
        document.querySelector('.vhead [data-column=total_blocks]').click();
        requestAnimationFrame(() => resolve(performance.now() - t));
      })));
      add('search "module_42"', await timed(() => new Promise((resolve) => {
        const t = performance.now();
        window.lifeheapViewer.table().search('module_42');
        requestAnimationFrame(() => resolve(performance.now() - t));
      })));
      add('open call tree (build + draw)', await timed(() => new Promise((resolve) => {
        const t = performance.now();
        document.querySelector('.tabs button[data-tab=tree]').click();
        requestAnimationFrame(() => resolve(performance.now() - t));
      })));
      // The stacked chart: a click picks the nearest sampled moment and lists what was
      // live then; at the peak every site (all 100,000) is sorted by its bytes.
      const pickMoment = (fraction) => timed((f) => new Promise((resolve) => {
        const over = document.querySelector('.stacked-chart .u-over');
        const box = over.getBoundingClientRect();
        const t = performance.now();
        over.dispatchEvent(new MouseEvent('click', { clientX: box.left + box.width * f, clientY: box.top + 10, bubbles: true }));
        requestAnimationFrame(() => resolve(performance.now() - t));
      }), fraction);
      add('pick a moment on the stacked chart', await pickMoment(0.3));
      add("pick the peak (every site, exact)", await pickMoment(511 / 1023));
      if (await page.$eval(".stacked-run", (r) => r.getAttribute("data-moment-index")) !== "511") throw new Error("the peak was not picked");
      add('scroll table by 50,000 rows', await timed(() => new Promise((resolve) => {
        document.querySelector('.tabs button[data-tab=sites]').click();
        window.lifeheapViewer.table().search('');
        const scroller = document.querySelector('.vtable-scroll');
        const t = performance.now();
        scroller.scrollTop = 50000 * 24;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t)));
      })));
      if (r === 0) await lib.screenshot(page, 'bench-100k', { fullPage: false });
      if (page.problems.length) throw new Error('page problems: ' + page.problems.join('; '));
      await page.close();
      // 2. The self-contained report: navigation to ready.
      const page2 = await lib.newPage(browser);
      const t1 = Date.now();
      await page2.goto(lib.fileUrl(reportFile));
      await lib.waitState(page2, ['ready', 'error']);
      add('open self-contained report (navigate -> ready)', Date.now() - t1);
      await page2.close();
    }
  } finally {
    await browser.close();
    if (!KEEP) fs.rmSync(dir, { recursive: true, force: true });
    else console.log('kept ' + dir);
  }
  results.load_average_after = os.loadavg().map((v) => Number(v.toFixed(2)));
  console.log('load average before ' + results.load_average_before.join(' ') + ', after ' + results.load_average_after.join(' ') + ' on ' + results.cpus + ' CPUs');
  results.median_ms = {};
  for (const name of Object.keys(samples)) {
    const m = Math.round(median(samples[name]));
    results.median_ms[name.trim()] = m;
    console.log(name.padEnd(48) + String(m).padStart(7) + ' ms   (runs: ' + samples[name].map(Math.round).join(', ') + ')');
  }
  console.log(JSON.stringify(results));
}

if (require.main === module) main().catch((e) => { console.error(e); process.exit(1); });
module.exports = { generate };
