// The viewer's DOM-free model (parse/validate, names, columns, search, diff, tree), run
// in node against the hand-written fixtures whose numbers are known by construction
// (tests/viewer/fixtures/make_fixtures.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const SRC = path.resolve(__dirname, '..', '..', 'viewer', 'src', 'model');
// What viewer/build.js builds in before model/profile.js.
const DOCS = path.resolve(__dirname, '..', '..', 'docs');
globalThis.LH = { profileRules: JSON.parse(fs.readFileSync(path.join(DOCS, 'profile-rules.json'), 'utf8')),
  metricTable: JSON.parse(fs.readFileSync(path.join(DOCS, 'metrics.json'), 'utf8')),
  evidenceLabels: JSON.parse(fs.readFileSync(path.join(DOCS, 'evidence-labels.json'), 'utf8')) };
for (const m of ['format', 'evidence', 'shapes', 'metrics', 'chunked_json', 'profile', 'model', 'diff', 'tree', 'moments']) require(path.join(SRC, m + '.js'));
const LH = globalThis.LH;
const FIXTURES = path.join(__dirname, 'fixtures');
const text = (name) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

test('model: formats sizes human-readable with exact figures', () => {
  assert.equal(LH.format.bytes(235904), '230.4 KiB');
  assert.equal(LH.format.bytes(512), '512 B');
  assert.equal(LH.format.bytes(3672544), '3.5 MiB');
  assert.equal(LH.format.exactBytes(235904), '235,904 bytes');
  assert.equal(LH.format.percent(0.6), '60%');
  assert.equal(LH.format.argv(['./a', 'b c']), "./a 'b c'");
});

test('model: loads a profile and derives names and metric columns', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'queue_bad.json');
  assert.equal(m.sites.length, 6);
  assert.equal(m.siteName(0), 'make_message');
  assert.equal(m.siteLocation(0), 'producer.c:42');
  // name_frame 1: strdup is skipped in favour of its caller.
  assert.equal(m.siteName(4), 'register_name');
  assert.deepEqual(Array.from(m.column('bytes_at_peak')), [153600, 65536, 14400, 2048, 320, 0]);
  assert.deepEqual(Array.from(m.column('avg_lifetime')), [0.24, 0.9, 0.24, 0.8, 0.95, 0.00001]);
  const neverRead = m.column('never_read_pct');
  assert.equal(neverRead[1], 65024 / 65536);
  assert.deepEqual(m.findingsBySite.get(0), [0]);
});

test('model: search matches function, file and object of any frame', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'x');
  assert.deepEqual(Array.from(m.searchMask('queue.c')), [0, 0, 1, 0, 0, 0]);
  assert.deepEqual(Array.from(m.searchMask('libc.so')), [1, 0, 1, 0, 1, 0]);
  assert.deepEqual(Array.from(m.searchMask('main.c:30')), [0, 1, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(m.searchMask('LOAD_')), [0, 1, 0, 1, 0, 0]);
  assert.equal(m.searchMask('  '), null);
});

test('model: rejects malformed, truncated and wrong-version files with clear messages', async () => {
  const cases = [
    ['truncated.json', /^truncated JSON \(the document ends after \d+ bytes\)$/],
    ['not_json.txt', /^invalid JSON: /],
    ['wrong_version.json', /^format_version 3 is not supported \(this lifeheap reads versions 1 to 2\)$/],
    ['dhat.json', /DHAT profile/],
    ['bad_sites.json', /^sites: expected an array, found an object$/],
  ];
  for (const [file, pattern] of cases) {
    await assert.rejects(LH.profile.load(text(file), file), (e) => {
      assert.equal(e.name, 'ProfileError', file);
      assert.match(e.message, pattern, file);
      return true;
    });
  }
  const bad = JSON.parse(text('queue_bad.json'));
  bad.sites[3].stack = [0, 99];
  await assert.rejects(LH.profile.load(JSON.stringify(bad), 'x'), /sites\[3\]\.stack\[1\]: frame index 99 out of range \(13 frames\)$/);
  await assert.rejects(LH.profile.load('', 'x'), /empty/);
  const deep = await LH.profile.load(text('bad_map.json'), 'x');
  assert.throws(() => LH.profile.checkSiteArrays(deep.sites[0], 0), /sites\[0\]\.access\.map\.reads\[3\]: expected a number, found a string/);
  LH.profile.checkSiteArrays(deep.sites[1], 1);
});

// Pairs of a diff as "baseline name > changed name" (a missing side "-"), sorted.
function pairNames(d) {
  const out = [];
  for (let r = 0; r < d.length; r++) {
    const b = d.rowBase[r], c = d.rowChanged[r];
    out.push((b >= 0 ? d.base.siteName(b) : '-') + ' > ' + (c >= 0 ? d.changed.siteName(c) : '-'));
  }
  return out.sort();
}

test('model: diff pairs sites by their keys, marks new and gone, computes deltas', async () => {
  const base = await LH.profile.load(text('queue_bad.json'), 'bad');
  const changed = await LH.profile.load(text('queue_fixed.json'), 'fixed');
  const d = new LH.Diff(base, changed);
  assert.deepEqual(d.keyless, []);
  assert.equal(d.keylessText(), null);
  // queue_fixed keeps five of queue_bad's sites, drops the log churn and adds the batch buffer.
  assert.deepEqual(pairNames(d), ['- > batch_send', 'format_log > -', 'load_config > load_config', 'load_rows > load_rows',
    'make_message > make_message', 'queue_push > queue_push', 'register_name > register_name']);
  const byName = {};
  for (let r = 0; r < d.length; r++) {
    const n = d.namingSite(r);
    byName[n.model.siteName(n.index)] = { row: r, status: d.status(r), delta: d.deltaColumn('bytes_at_peak')[r] };
  }
  assert.deepEqual(byName.make_message, { row: 1, status: 'both', delta: 16384 - 153600 });
  assert.equal(byName.batch_send.status, 'new');
  assert.equal(byName.batch_send.delta, 4096);
  assert.equal(byName.format_log.status, 'gone');
  assert.equal(byName.load_config.delta, 0);
  const states = d.findings().map((x) => x.finding.kind + ':' + x.state);
  assert.deepEqual(states, ['oversized-preallocation:unchanged', 'leak:unchanged', 'realloc-growth:unchanged',
    'missing-backpressure:resolved', 'short-lived-churn:resolved']);

  // The keys decide, not the stacks: frames moved to another file with the keys kept
  // pair as before; the keys' places moved too pair in the second round (function
  // names alone); a key's function renamed leaves the site unpaired.
  const variant = async (change) => {
    const p = JSON.parse(text('queue_fixed.json'));
    change(p);
    return new LH.Diff(base, await LH.profile.load(JSON.stringify(p), 'variant'));
  };
  const framesMoved = await variant((p) => p.frames.forEach((f) => { if (f.file === 'producer.c') f.file = 'producer_v2.c'; }));
  assert.deepEqual(pairNames(framesMoved), pairNames(d));
  const keysMoved = await variant((p) => p.sites.forEach((s) => { s.match_key = s.match_key.replace(/\tproducer\.c\n/g, '\tproducer_v2.c\n'); }));
  assert.deepEqual(pairNames(keysMoved), pairNames(d));
  const renamed = await variant((p) => p.sites.forEach((s) => { s.match_key = s.match_key.replace(/^make_message\t/, 'build_message\t'); }));
  assert.deepEqual(pairNames(renamed), ['- > batch_send', '- > make_message', 'format_log > -', 'load_config > load_config',
    'load_rows > load_rows', 'make_message > -', 'queue_push > queue_push', 'register_name > register_name']);
});

// Sites that share a key pair by their match_lines: equal lines first, then the rest in
// line order; a site whose lines equal a paired one's of its own profile (code the
// compiler duplicated) maps to that site's counterpart too.
test('model: sites sharing a key pair by their lines', async () => {
  const withKeys = async (lines) => {
    const p = JSON.parse(text('queue_bad.json'));
    lines.forEach((l, i) => { p.sites[i].match_key = 'f\tq.c\n'; p.sites[i].match_lines = [l]; });
    p.sites.forEach((s, i) => { if (i >= lines.length) { s.match_key = 'other' + i + '\tq.c\n'; s.match_lines = [1]; } });
    return LH.profile.load(JSON.stringify(p), 'lines ' + lines.join(','));
  };
  const pairsOfKey = (d) => {
    const out = [];
    const keyed = (i) => i === 0 || i === 1;
    for (let r = 0; r < d.length; r++) if (keyed(d.rowBase[r]) || keyed(d.rowChanged[r])) out.push(d.rowBase[r] + '>' + d.rowChanged[r]);
    return out.sort();
  };
  const base = await withKeys([10, 20]);
  // Equal lines pair whatever the sites' order.
  assert.deepEqual(pairsOfKey(new LH.Diff(base, await withKeys([20, 10]))), ['0>1', '1>0']);
  // No equal lines: line order (an edit above both shifted them).
  assert.deepEqual(pairsOfKey(new LH.Diff(base, await withKeys([25, 15]))), ['0>1', '1>0']);
  // One equal, the other shifted.
  assert.deepEqual(pairsOfKey(new LH.Diff(base, await withKeys([10, 21]))), ['0>0', '1>1']);
  // Two sites of the same lines in the baseline, one in the changed run: both pair with
  // it (the changed run's site 1 has a key of its own: new).
  const twins = new LH.Diff(await withKeys([10, 10]), await withKeys([10]));
  assert.deepEqual(pairsOfKey(twins), ['-1>1', '0>0', '1>0']);
});

// A profile written before sites carried keys (both members absent): the viewer pairs
// nothing rather than guess, and says why and how to compare the runs.
test('model: a diff with a profile without keys pairs nothing and says why', async () => {
  const keyless = JSON.parse(text('queue_bad.json'));
  keyless.sites.forEach((s) => { delete s.match_key; delete s.match_lines; });
  const old = await LH.profile.load(JSON.stringify(keyless), 'old.json');
  const current = await LH.profile.load(text('queue_fixed.json'), 'new.json');
  for (const [base, changed, sides] of [[old, current, ['baseline']], [current, old, ['changed']], [old, old, ['baseline', 'changed']]]) {
    const d = new LH.Diff(base, changed);
    assert.deepEqual(d.keyless.map((k) => k.side), sides);
    assert.equal(d.length, base.sites.length + changed.sites.length);
    for (let r = 0; r < d.length; r++) {
      assert.equal(d.status(r), 'unpaired');
      assert.ok((d.rowBase[r] < 0) !== (d.rowChanged[r] < 0), 'row ' + r + ' has one side');
    }
    assert.equal(d.headline(), null);
    assert.deepEqual(d.findings().map((x) => x.state + ':' + x.side), changed.profile.findings.map(() => 'unpaired:changed')
      .concat(base.profile.findings.map(() => 'unpaired:base')));
    assert.match(d.keylessText(), new RegExp('written by an older lifeheap.*no site keys \\(sites\\[\\]\\.match_key\\).*cannot be paired.*' +
      'record .* again with this lifeheap, or run `lifeheap diff ' + base.sourceName + ' ' + changed.sourceName + '`'));
  }
  assert.match(new LH.Diff(old, current).keylessText(), /^The baseline old\.json was written/);
  assert.match(new LH.Diff(old, old).keylessText(), /^Both profiles \(baseline old\.json, changed old\.json\) were written/);
});

test('model: call tree sums sites top-down and bottom-up', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'x');
  const top = LH.tree.forModel(m, 'top-down');
  assert.equal(top.value(top.root, 'bytes_at_peak'), 235904);
  const roots = top.sortedChildren(top.root, 'bytes_at_peak').map((n) => [LH.Model.frameLabel(n.frame), top.value(n, 'bytes_at_peak')]);
  assert.deepEqual(roots, [['start_thread (libc.so.6)', 168000], ['main (main.c:30)', 65536], ['main (main.c:31)', 2048], ['main (main.c:28)', 320]]);
  const startThread = top.sortedChildren(top.root, 'bytes_at_peak')[0];
  const producers = top.sortedChildren(startThread, 'bytes_at_peak').map((n) => [LH.Model.frameLabel(n.frame), top.value(n, 'bytes_at_peak')]);
  assert.deepEqual(producers, [['producer_main (producer.c:88)', 153600], ['producer_main (producer.c:90)', 14400]]);
  const bottom = LH.tree.forModel(m, 'bottom-up');
  const first = bottom.sortedChildren(bottom.root, 'total_blocks')[0];
  assert.equal(LH.Model.frameLabel(first.frame), 'format_log (log.c:61)');
  assert.equal(bottom.value(first, 'total_blocks'), 5000);
});

test('model: chunked JSON parsing gives exactly what JSON.parse gives', async () => {
  const tiny = { scanSlice: 97, siteSlice: 2, yield: () => Promise.resolve() };
  for (const name of ['queue_bad.json', 'queue_fixed.json', 'hostile.json']) {
    const t = text(name);
    assert.deepEqual(await LH.chunkedJson.parse(t, tiny), JSON.parse(t), name);
    const compact = JSON.stringify(JSON.parse(t));
    assert.deepEqual(await LH.chunkedJson.parse(compact, tiny), JSON.parse(compact), name + ' compact');
  }
  // Brackets, quotes and the word "sites" inside strings; a nested "sites" key.
  const tricky = JSON.stringify({ format: 'x "sites": [', nested: { sites: [1, 2] },
    sites: [{ a: '}]{["\\', b: { sites: [] } }, { c: '\u0000"},{' }, {}], after: ['"sites"'] });
  assert.deepEqual(await LH.chunkedJson.parse(tricky, tiny), JSON.parse(tricky));
  // Irregular documents fall back to one JSON.parse, with its result or its error.
  for (const odd of ['{"sites": [1, {"a": 2}]}', '[{"sites": []}]', '{"sites": [], "sites": [{}]}', '{"other": 1}', '"str"']) {
    assert.deepEqual(await LH.chunkedJson.parse(odd, tiny), JSON.parse(odd), odd);
  }
  for (const broken of ['{"sites": [{"a": 1}, {"b" 2}]}', '{"sites": [{"a": 1}', '{"a": "unterminated']) {
    let expected;
    try { JSON.parse(broken); } catch (e) { expected = e.message; }
    await assert.rejects(LH.chunkedJson.parse(broken, tiny), (e) => e.message === expected, broken);
  }
});

// rust_conns.json and rust_conns_cgu1.json: real profiles of tests/names/progs/conns.rs
// built with rustc -O -C debuginfo=1, and with -C codegen-units=1 as well
// (fixtures/record_rust_conns.sh: this tool's output, version 2).
test('model: sites are named by their label; folding hides library frames', async () => {
  const m = await LH.profile.load(text('rust_conns.json'), 'x');
  const big = m.sites.findIndex((s) => s.total_bytes === 16 * 262144);
  assert.match(m.siteName(big), /^ConnState::new \(conns\.rs:29\), allocated by vec::from_elem \(mod\.rs:\d+\)$/);
  // Bottom-up: without folding the allocator's entry comes first; folded, the
  // program's constructor.
  const plain = LH.tree.forModel(m, 'bottom-up', false);
  const firstPlain = plain.sortedChildren(plain.root, 'bytes_at_peak')[0];
  assert.equal(firstPlain.frame.function, 'alloc::alloc::alloc_zeroed');
  assert.equal(firstPlain.frame.library, true);
  const folded = LH.tree.forModel(m, 'bottom-up', true);
  const firstFolded = folded.sortedChildren(folded.root, 'bytes_at_peak')[0];
  assert.equal(firstFolded.frame.function, 'conns::ConnState::new');
  assert.equal(folded.value(firstFolded, 'bytes_at_peak'), 16 * 262144 + 16 * 4096);
  // Top-down: under the C entry point `main`, the runtime's start-up frames unfolded;
  // folded, the program's conns::main right away.
  const second = (tree) => {
    const root = tree.sortedChildren(tree.root, 'bytes_at_peak')[0];
    assert.equal(root.frame.function, 'main');
    return tree.sortedChildren(root, 'bytes_at_peak')[0].frame;
  };
  const secondPlain = second(LH.tree.forModel(m, 'top-down', false));
  assert.equal(secondPlain.library, true, secondPlain.function);
  assert.equal(second(LH.tree.forModel(m, 'top-down', true)).function, 'conns::main');
  // A stack of library code only is kept whole.
  const libraryOnly = m.frames.map((f, i) => i).filter((i) => m.frames[i].library).slice(0, 3);
  assert.equal(libraryOnly.length, 3);
  assert.equal(LH.tree.foldedStack(m.frames, libraryOnly), libraryOnly);
});

test('diff: two builds of the same Rust source match site for site', async () => {
  const a = await LH.profile.load(text('rust_conns.json'), 'a');
  const b = await LH.profile.load(text('rust_conns_cgu1.json'), 'b');
  for (const [base, changed] of [[a, b], [b, a]]) {
    const d = new LH.Diff(base, changed);
    const statuses = [];
    for (let r = 0; r < d.length; r++) statuses.push(d.status(r));
    assert.equal(statuses.filter((s) => s !== 'both').length, 0, JSON.stringify(statuses));
    // Every site of both runs is in a row (the one twin of the 21 maps to its counterpart).
    assert.equal(d.length, 21);
    assert.equal(new Set(d.rowBase).size, base.sites.length);
    assert.equal(new Set(d.rowChanged).size, changed.sites.length);
  }
});

test('model: evidence labelled and formatted by unit (docs/evidence-labels.json)', () => {
  const E = LH.evidence, F = LH.format;
  const finding = { kind: 'missing-backpressure', evidence: { max_bytes: 3735552, queue_depth: 515, mean_lifetime: 250000000,
    mean_lifetime_fraction: 0.25, cross_thread_frees: 2000, occupancy_fraction: 0.56, future_key: 7 } };
  const items = E.items(finding, 1000000000);
  assert.deepEqual(items.map((x) => [x.key, x.label, x.text]), [
    ['max_bytes', 'Live at most', F.bytes(3735552)],
    ['queue_depth', 'Queue depth (messages waited behind)', '515'],
    ['mean_lifetime', 'Mean wait in the queue', '250,000,000 instr (' + F.percent(0.25) + ' of the run)'],
    ['mean_lifetime_fraction', 'Mean wait, share of the run', F.percent(0.25) + ' of the run'],
    ['cross_thread_frees', 'Freed by another thread', '2,000'],
    ['occupancy_fraction', 'Mean fill of its maximum', F.percent(0.56)],
    ['future_key', 'future key', '7'],   // a key the table does not know: its name, as a count
  ]);
  assert.equal(items[0].title, 'max_bytes = 3,735,552 bytes');
  // The headline: the kind's keys in its order, present ones only.
  assert.deepEqual(E.headlineItems(finding, 1000000000).map((x) => x.key), ['max_bytes', 'queue_depth', 'mean_lifetime', 'cross_thread_frees']);
  assert.deepEqual(E.headlineItems({ kind: 'leak', evidence: { blocks_at_exit: 3, bytes_at_exit: 12 } }, 10).map((x) => x.key), ['bytes_at_exit', 'blocks_at_exit']);
  // Other units: ratio, rate, a kind the table does not know.
  assert.equal(E.formatValue('ratio', 1.5, 0).text, F.ratio(1.5));
  assert.equal(E.formatValue('rate', 27340.6, 0).text, F.bytes(27341) + ' per million instr');
  assert.equal(E.kindTitle('future-kind'), 'future-kind');
  assert.deepEqual(E.headlineItems({ kind: 'future-kind', evidence: { a: 1, b: 2 } }, 10).map((x) => x.key), ['a', 'b']);
});

test('model: every table column is in exactly one group; Main first', () => {
  const seen = {};
  LH.metrics.groups.forEach((g) => g.columns.forEach((id) => { seen[id] = (seen[id] || 0) + 1; }));
  assert.deepEqual(Object.keys(seen).sort(), LH.metrics.columns.map((c) => c.id).sort());
  assert.ok(Object.values(seen).every((n) => n === 1));
  assert.equal(LH.metrics.groups[0].id, 'Main');
  assert.deepEqual(LH.metrics.columns.slice(0, 7).map((c) => c.id), LH.metrics.groups[0].columns);
});

// The stacked chart's bands and the moment view (model/moments.js) on queue_bad, whose
// timeline is typed out in make_fixtures.js (each site's `live`): three sites have a series (make_message,
// load_config, queue_push), three have none (load_rows 2,048 B, register_name 320 B,
// format_log), and the peak is point 6 (6,000,000 instructions, 235,904 bytes).
test('moments: bands stack the sites with a series and the rest is global minus them', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'queue_bad.json');
  const b = LH.moments.bands(m);
  // Largest own maximum first: make_message 153,600, load_config 65,536, queue_push 14,400.
  assert.deepEqual(b.bands.map((x) => x.site), [0, 1, 2]);
  // load_rows (0, 0, 1024, then 2048 until the end) plus register_name (320 from point 1 on).
  assert.deepEqual(b.other.values, [0, 320, 1344, 2368, 2368, 2368, 2368, 2368, 2368, 2368, 320]);
  assert.equal(b.other.sitesWithout, 3);
  assert.equal(b.other.seriesSites, 0);
  // Every point: the bands and the rest add up to the global live bytes exactly.
  for (let k = 0; k < b.times.length; k++) {
    assert.equal(b.bands.reduce((s, x) => s + x.values[k], 0) + b.other.values[k], m.profile.timeline.live_bytes[k]);
  }
  // With two bands, queue_push joins the rest: 14,400 + 2,368 at the peak.
  const two = LH.moments.bands(m, 2);
  assert.deepEqual(two.bands.map((x) => x.site), [0, 1]);
  assert.equal(two.other.values[6], 16768);
  assert.equal(two.other.seriesSites, 1);
});

test('moments: the peak lists every site exactly; another point splits only the sites with a series', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'queue_bad.json');
  const peak = LH.moments.at(m, 6);
  assert.equal(peak.atPeak, true);
  assert.equal(peak.exactBySite, true);
  assert.equal(peak.time, 6000000);
  assert.equal(peak.totalBytes, 235904);
  assert.equal(peak.totalBlocks, 1212);
  // format_log has nothing live at the peak and is left out.
  assert.deepEqual(peak.rows, [
    { site: 0, bytes: 153600, blocks: 600 }, { site: 1, bytes: 65536, blocks: 1 }, { site: 2, bytes: 14400, blocks: 600 },
    { site: 3, bytes: 2048, blocks: 1 }, { site: 4, bytes: 320, blocks: 10 }]);
  assert.equal(peak.unsplitBytes, 0);
  const three = LH.moments.at(m, 3);
  assert.equal(three.atPeak, false);
  assert.equal(three.time, 3000000);
  assert.equal(three.totalBytes, 123904);
  assert.deepEqual(three.rows, [{ site: 1, bytes: 65536, blocks: null }, { site: 0, bytes: 51200, blocks: null }, { site: 2, bytes: 4800, blocks: null }]);
  assert.equal(three.unsplitBytes, 123904 - 65536 - 51200 - 4800);
  assert.equal(three.unsplitSites, 3);
  // At the end only load_config's series is 0 and register_name's 320 bytes remain.
  const end = LH.moments.at(m, 10);
  assert.deepEqual(end.rows, []);
  assert.equal(end.unsplitBytes, 320);
});

test('moments: a time picks the nearest sampled point', () => {
  const times = [0, 1000000, 2000000, 6000000];
  assert.equal(LH.moments.nearestPoint(times, 0), 0);
  assert.equal(LH.moments.nearestPoint(times, 1400000), 1);
  assert.equal(LH.moments.nearestPoint(times, 1500000), 1);   // a tie goes to the earlier point
  assert.equal(LH.moments.nearestPoint(times, 1500001), 2);
  assert.equal(LH.moments.nearestPoint(times, 5000000), 3);
  assert.equal(LH.moments.nearestPoint(times, 9e9), 3);
  assert.equal(LH.moments.nearestPoint(times, -5), 0);
  assert.equal(LH.moments.nearestPoint([], 5), -1);
});

// Blocks by size (model/shapes.js) on queue_bad, whose sites each have one block size
// (make_fixtures.js: 256-byte messages, 24-byte queue nodes, 16-byte log lines, ...).
test('shapes: buckets, texts, the run size histogram and the grid bounds', async () => {
  const m = await LH.profile.load(text('queue_bad.json'), 'queue_bad.json');
  assert.deepEqual(LH.shapes.bounds(0), [0, 0]);
  assert.deepEqual(LH.shapes.bounds(9), [256, 511]);
  assert.equal(LH.shapes.sizeText(9), '256 B–511 B');
  assert.equal(LH.shapes.sizeText(1), '1 B');
  assert.equal(LH.shapes.lifetimeText(22), '2.1M–4.2M instr');
  assert.equal(LH.shapes.bucketOf(10000000), 24);
  // 16-31 B: 5,000 log lines and 2,000 queue nodes; 32: 10 names; 256: 2,000 messages;
  // 2,048: the rows; 65,536: the config.
  const h = LH.shapes.runSizeHistogram(m.profile);
  assert.equal(h.length, 18);
  assert.deepEqual([h[5], h[6], h[9], h[12], h[17]], [7000, 10, 2000, 1, 1]);
  assert.equal(h.reduce((a, b) => a + b, 0), m.profile.totals.blocks);
  const g = LH.shapes.grid(m.profile);
  assert.equal(g.total, 9012);
  assert.equal(g.max, 5000);
  assert.deepEqual(g.size, [5, 17]);
  assert.deepEqual(g.life, [7, 24]);
  assert.deepEqual(m.sites[0].size_histogram, [0, 0, 0, 0, 0, 0, 0, 0, 0, 2000]);
});

test('shapes: a grid or a size histogram the page cannot draw is dropped, the profile still opens', async () => {
  const p = JSON.parse(text('queue_bad.json'));
  p.blocks_by_size_and_lifetime = [[5, 7, 5000], [64, 1, 2]];
  p.sites[0].size_histogram = [1, -2];
  const m = await LH.profile.load(JSON.stringify(p), 'bad shapes');
  assert.equal(m.profile.blocks_by_size_and_lifetime, undefined);
  assert.equal(m.sites[0].size_histogram, undefined);
  assert.equal(LH.shapes.grid(m.profile), null);
  assert.deepEqual(m.sites[1].size_histogram.length, 18);
});

// The diff headline's rule (LH.Diff.prototype.headline, as cli/diff_headline.c): on the
// queue fixture against copies of itself with one finding changed.
test('model: the diff headline is the most severe finding change, new before worsened before resolved', async () => {
  const original = JSON.parse(text('queue_bad.json'));
  const variant = async (change) => {
    const copy = JSON.parse(JSON.stringify(original));
    change(copy);
    return LH.profile.load(JSON.stringify(copy), 'variant');
  };
  const base = await LH.profile.load(text('queue_bad.json'), 'base');
  const pick = (d) => { const h = d.headline(); return [h.state, h.finding.kind, h.side]; };
  // Nothing changed: the most severe finding, unchanged.
  assert.deepEqual(pick(new LH.Diff(base, await variant(() => {}))), ['unchanged', 'missing-backpressure', 'changed']);
  // The medium oversized-preallocation's first headline figure (bytes_at_peak) grows:
  // worsened, and it heads the unchanged high finding (only changes do).
  const grown = await variant((p) => { p.findings[1].evidence.bytes_at_peak = 70000; });
  assert.deepEqual(pick(new LH.Diff(base, grown)), ['worsened', 'oversized-preallocation', 'changed']);
  // The same figure smaller: not worse, so nothing changed.
  const shrunk = await variant((p) => { p.findings[1].evidence.bytes_at_peak = 60000; });
  assert.deepEqual(pick(new LH.Diff(base, shrunk)), ['unchanged', 'missing-backpressure', 'changed']);
  // A low finding raised to medium: worsened.
  const raised = await variant((p) => { p.findings[2].severity = 'medium'; });
  assert.deepEqual(pick(new LH.Diff(base, raised)), ['worsened', 'leak', 'changed']);
  // The high finding gone (resolved) heads a new low one; a new high one heads a
  // resolved high one (at equal severity, new first).
  const swapped = await variant((p) => { p.findings.shift(); p.findings.push({ kind: 'leak', site: 2, severity: 'low', summary: 's', evidence: { bytes_at_exit: 1 } }); });
  assert.deepEqual(pick(new LH.Diff(base, swapped)), ['resolved', 'missing-backpressure', 'base']);
  const lows = await variant((p) => { p.findings.splice(0, 2); p.findings.push({ kind: 'leak', site: 2, severity: 'high', summary: 's', evidence: { bytes_at_exit: 1 } }); });
  assert.deepEqual(pick(new LH.Diff(base, lows)), ['new', 'leak', 'changed']);
  // No findings on either side: no headline.
  const none = await variant((p) => { p.findings = []; });
  assert.equal(new LH.Diff(none, none).headline(), null);
});

test('model: a site\'s lifetime-against-size grid, from the profile or its one size', () => {
  const oneSize = { size_histogram: [0, 0, 0, 4], lifetime: { histogram: [0, 2, 0, 2] } };
  assert.deepEqual(LH.shapes.siteCells(oneSize), [[3, 1, 2], [3, 3, 2]]);
  const g = LH.shapes.siteGrid(oneSize);
  assert.deepEqual([g.total, g.max, g.size, g.life], [4, 2, [3, 3], [1, 3]]);
  const twoSizes = { size_histogram: [0, 1, 0, 4], lifetime: { histogram: [0, 3, 0, 2] }, blocks_by_size_and_lifetime: [[1, 1, 1], [3, 1, 2], [3, 3, 2]] };
  assert.deepEqual(LH.shapes.siteCells(twoSizes), twoSizes.blocks_by_size_and_lifetime);
  // Several sizes without the grid (an older profile): cannot tell.
  assert.equal(LH.shapes.siteCells({ size_histogram: [0, 1, 0, 4], lifetime: { histogram: [0, 5] } }), null);
  assert.equal(LH.shapes.siteCells({ lifetime: { histogram: [1] } }), null);
});
