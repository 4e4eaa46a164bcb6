// The viewer on real profiles written by the tool at test time: the unbounded-queue
// example (examples/queue_unbounded.c) and its bounded fix. What is known by
// construction (examples/README.md) is asserted exactly: 2,000 messages allocated in
// queue_push_message on the producer thread and freed on the consumer thread, and a
// missing-backpressure finding on that site; run-dependent figures (the peak) are
// checked against the profile the tool wrote.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');
const lib = require('./lib');

const run = promisify(execFile);
// A private directory per run: two runs of the suite at once must not share files.
const WORK = fs.mkdtempSync(path.join(require('os').tmpdir(), 'lifeheap-viewer-real-'));
const EXAMPLES = path.join(lib.ROOT, 'examples');
const exact = (n) => new Intl.NumberFormat('en-US').format(n);
let browser, bad, fixed, badFile, fixedFile;

// The examples as built by `make` (scripts/setup.sh), or compiled here the same way.
async function buildPrograms() {
  const flags = ['-O0', '-g', '-fno-builtin', '-pthread'];
  const programs = {};
  await Promise.all(['queue_unbounded', 'queue_bounded'].map(async (name) => {
    const built = path.join(EXAMPLES, name);
    if (fs.existsSync(built)) { programs[name] = built; return; }
    programs[name] = path.join(WORK, name);
    await run('cc', flags.concat([path.join(EXAMPLES, name + '.c'), '-o', programs[name]]));
  }));
  return programs;
}

async function profile(program, out) {
  await run(path.join(lib.ROOT, 'scripts', 'run-lifeheap'), ['--fair-sched=yes', '--lifeheap-out-file=' + out, program], { cwd: WORK });
  return lib.readProfile(out);
}

test.before(async () => {
  const programs = await buildPrograms();
  badFile = path.join(WORK, 'queue_unbounded.json');
  fixedFile = path.join(WORK, 'queue_bounded.json');
  [bad, fixed] = await Promise.all([
    profile(programs.queue_unbounded, badFile),
    profile(programs.queue_bounded, fixedFile),
  ]);
  browser = await lib.launch();
});
test.after(async () => {
  if (browser) await browser.close();
  fs.rmSync(WORK, { recursive: true, force: true });
});

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
const title = (page, selector) => page.$eval(selector, (e) => e.title);
function cellOf(page, column) {
  return page.$eval('.vrow.selected', (row, col) => {
    const header = Array.from(document.querySelectorAll('.vhead .vcell')).map((c) => c.getAttribute('data-column'));
    const cell = row.children[header.indexOf(col)];
    return { text: cell.textContent, title: cell.title };
  }, column);
}

// The queue's site, named by its label in the profile (the text the tool's summary and
// `lifeheap report` show): its function and its place.
const queueLabel = (profile, file) => {
  const site = profile.sites.find((s) => profile.frames[s.stack[s.name_frame]].function === 'queue_push_message');
  const frame = profile.frames[site.stack[site.name_frame]];
  assert.equal(site.label, 'queue_push_message (' + file + ':' + frame.line + ')');
  return site.label;
};

// Version 2 leaves out the members at their defaults (docs/format.md, "Omitted
// members"): the viewer's model of the profile is the model of its version 1 copy
// (every member written, by tests/lib/lifeheap_profile.py), site for site.
test('real profile: version 2 loads as its version 1 copy', async () => {
  globalThis.LH.profileRules = JSON.parse(fs.readFileSync(path.join(lib.ROOT, 'docs', 'profile-rules.json'), 'utf8'));
  globalThis.LH.metricTable = JSON.parse(fs.readFileSync(path.join(lib.ROOT, 'docs', 'metrics.json'), 'utf8'));
  for (const m of ['format', 'shapes', 'metrics', 'chunked_json', 'profile', 'model']) require(path.join(lib.ROOT, 'viewer', 'src', 'model', m + '.js'));
  const v1File = path.join(WORK, 'queue_unbounded.v1.json');
  await run('python3', [path.join(lib.ROOT, 'tests', 'lib', 'lifeheap_profile.py'), 'v1', badFile, v1File]);
  const raw = JSON.parse(fs.readFileSync(badFile, 'utf8'));
  assert.equal(raw.format_version, 2);
  assert.ok(raw.sites.some((s) => !('max_bytes' in s)), 'some site leaves a member out');
  const v2 = await globalThis.LH.profile.load(fs.readFileSync(badFile, 'utf8'), 'v2');
  const v1 = await globalThis.LH.profile.load(fs.readFileSync(v1File, 'utf8'), 'v1');
  assert.ok(v2.sites.length > 1);
  assert.deepEqual(v2.sites, v1.sites);
});

test('real profile: header, top site and its finding', async () => {
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, badFile), 'ready');
  assert.equal(await title(page, '[data-field=peak] .card-value'), exact(bad.peak.bytes) + ' bytes');
  assert.equal(await title(page, '[data-field=total] .card-value'), exact(bad.totals.bytes) + ' bytes');
  assert.equal(await text(page, '[data-field=findings] .card-value'), String(bad.findings.length));
  // Known by construction: the queued messages hold the peak.
  assert.equal(await text(page, '.vrow.selected .name .fn'), queueLabel(bad, 'queue_unbounded.c'));
  assert.equal(await text(page, '.vrow.selected .name .loc'), 'queue_unbounded.c:' + bad.frames[bad.sites[0].stack[bad.sites[0].name_frame]].line);
  assert.equal((await cellOf(page, 'total_blocks')).title, '2,000');
  await page.check('#column-groups input[data-group=Threads]');
  assert.equal((await cellOf(page, 'cross_thread_frees')).title, '2,000');
  assert.equal((await cellOf(page, 'bytes_at_peak')).title, exact(bad.sites[0].bytes_at_peak) + ' bytes');
  // The missing-backpressure finding names it; clicking it after another selection
  // selects it again everywhere.
  await page.click('.vhead [data-column=total_bytes]');
  await page.click('.vtable-rows .vrow:not(.selected)');
  const kinds = await page.$$eval('.finding .finding-kind', (l) => l.map((e) => e.textContent));
  const at = kinds.indexOf('Missing backpressure');
  assert.ok(at >= 0, 'findings: ' + kinds.join(', '));
  await page.click('.finding:nth-child(' + (at + 1) + ')');
  assert.equal(await text(page, '.detail-head .fn'), queueLabel(bad, 'queue_unbounded.c'));
  assert.equal(await text(page, '.vrow.selected .name .fn'), queueLabel(bad, 'queue_unbounded.c'));
  await lib.screenshot(page, 'real-overview', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('real profile: diff of the unbounded queue against its bounded fix', async () => {
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, fixedFile), 'ready');
  assert.equal(await lib.openBaseline(page, badFile), 'ready');
  const bytes = (n) => page.evaluate((v) => LH.format.bytes(v), n);
  assert.equal(await text(page, '[data-field=peak] .card-value'), (await bytes(bad.peak.bytes)) + ' → ' + (await bytes(fixed.peak.bytes)));
  // The biggest change is the queue: matched across runs, at peak down to a few messages.
  assert.equal(await text(page, '.vrow.selected .name .fn'), queueLabel(fixed, 'queue_bounded.c'));
  const badSite = bad.sites.find((s) => bad.frames[s.stack[s.name_frame]].function === 'queue_push_message');
  const fixedSite = fixed.sites.find((s) => fixed.frames[s.stack[s.name_frame]].function === 'queue_push_message');
  const peakCell = await cellOf(page, 'bytes_at_peak');
  assert.equal(peakCell.title, 'baseline ' + exact(badSite.bytes_at_peak) + ' bytes → changed ' + exact(fixedSite.bytes_at_peak) + ' bytes');
  assert.ok(fixedSite.bytes_at_peak < badSite.bytes_at_peak / 10);
  const states = await page.$$eval('.finding', (l) => l.map((e) => e.querySelector('.finding-kind').textContent + ':' + e.querySelector('.badge.state').textContent));
  assert.ok(states.includes('Missing backpressure:resolved'), states.join(', '));
  // The viewer pairs sites as `lifeheap diff` does: same counts.
  const cli = path.join(lib.ROOT, 'cli', 'lifeheap');
  if (fs.existsSync(cli)) {
    const out = (await run(cli, ['diff', badFile, fixedFile]).catch((e) => e)).stdout;
    const m = /sites: (\d+) matched, (\d+) new, (\d+) vanished/.exec(out);
    assert.ok(m, 'lifeheap diff output: ' + out);
    assert.equal(await text(page, '.diff-note'), (Number(m[1]) + Number(m[2]) + Number(m[3])) + ' sites compared: ' +
      m[2] + ' new, ' + m[3] + ' gone, ' + m[1] + ' in both.');
  }
  await lib.screenshot(page, 'real-diff', { fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('real profile: `lifeheap view` writes a self-contained report that opens offline', async (t) => {
  const cli = path.join(lib.ROOT, 'cli', 'lifeheap');
  if (!fs.existsSync(cli)) { t.skip('cli/lifeheap is not built'); return; }
  const report = path.join(WORK, 'report.html');
  await run(cli, ['view', badFile, '-o', report], { env: Object.assign({}, process.env, { LIFEHEAP_VIEWER_DIR: lib.DIST }) });
  const html = fs.readFileSync(report, 'utf8');
  assert.ok(!/<script[^>]+src=|<link[^>]+href=/.test(html), 'the report refers to no outside file');
  const page = await lib.newPage(browser);
  await page.goto(lib.fileUrl(report));
  assert.equal(await lib.waitState(page, ['ready', 'error']), 'ready');
  assert.equal(await title(page, '[data-field=peak] .card-value'), exact(bad.peak.bytes) + ' bytes');
  assert.equal(await text(page, '.vrow.selected .name .fn'), queueLabel(bad, 'queue_unbounded.c'));
  assert.deepEqual(page.problems, []); // no CSP violation, no request
  await page.close();
});

// `lifeheap view FILE --baseline BASE`: the CI proof of a fix, one file that opens from
// file:// straight in diff mode (one load, no single-profile state in between).
async function openDiffReport(cli, baseFile, changedFile, report) {
  await run(cli, ['view', changedFile, '--baseline', baseFile, '-o', report],
    { env: Object.assign({}, process.env, { LIFEHEAP_VIEWER_DIR: lib.DIST }) });
  const html = fs.readFileSync(report, 'utf8');
  assert.ok(!/<script[^>]+src=|<link[^>]+href=/.test(html), 'the report refers to no outside file');
  const page = await lib.newPage(browser);
  await page.goto(lib.fileUrl(report));
  assert.equal(await lib.waitState(page, ['ready', 'error']), 'ready');
  assert.equal(await page.evaluate(() => document.body.getAttribute('data-loads')), '1');
  assert.equal(await page.evaluate(() => document.body.classList.contains('diff-mode')), true);
  assert.equal(await text(page, '#source-name'), path.basename(baseFile) + ' → ' + path.basename(changedFile));
  return page;
}

// "sites: M matched, N new, V vanished" from `lifeheap diff`, as the viewer's note words it.
async function cliDiffNote(cli, baseFile, changedFile) {
  const out = (await run(cli, ['diff', baseFile, changedFile]).catch((e) => e)).stdout;
  const m = /sites: (\d+) matched, (\d+) new, (\d+) vanished/.exec(out);
  assert.ok(m, 'lifeheap diff output: ' + out);
  return (Number(m[1]) + Number(m[2]) + Number(m[3])) + ' sites compared: ' + m[2] + ' new, ' + m[3] + ' gone, ' + m[1] + ' in both.';
}

test('real profile: `lifeheap view --baseline` writes a diff report that opens in diff mode', async (t) => {
  const cli = path.join(lib.ROOT, 'cli', 'lifeheap');
  if (!fs.existsSync(cli)) { t.skip('cli/lifeheap is not built'); return; }
  const page = await openDiffReport(cli, badFile, fixedFile, path.join(WORK, 'diff-report.html'));
  const bytes = (n) => page.evaluate((v) => LH.format.bytes(v), n);
  assert.equal(await text(page, '[data-field=peak] .card-value'), (await bytes(bad.peak.bytes)) + ' → ' + (await bytes(fixed.peak.bytes)));
  // The two programs allocate at the same places (examples/README.md): every site pairs.
  assert.equal(bad.sites.length, fixed.sites.length);
  const note = bad.sites.length + ' sites compared: 0 new, 0 gone, ' + bad.sites.length + ' in both.';
  assert.equal(await text(page, '.diff-note'), note);
  assert.equal(await cliDiffNote(cli, badFile, fixedFile), note);
  assert.equal(await text(page, '.vrow.selected .name .fn'), queueLabel(fixed, 'queue_bounded.c'));
  const states = await page.$$eval('.finding', (l) => l.map((e) => e.querySelector('.finding-kind').textContent + ':' + e.querySelector('.badge.state').textContent));
  assert.ok(states.includes('Missing backpressure:resolved'), states.join(', '));
  await lib.screenshot(page, 'real-diff-report', { fullPage: true });
  assert.deepEqual(page.problems, []); // no CSP violation, no request
  await page.close();

  // New and gone sites: the fixture pair (tests/viewer/fixtures/make_fixtures.js) has one
  // of each, and the same counts in the viewer and in `lifeheap diff`.
  const fixtures = (n) => path.join(lib.FIXTURES, n);
  const other = await openDiffReport(cli, fixtures('queue_bad.json'), fixtures('queue_fixed.json'), path.join(WORK, 'diff-fixtures.html'));
  assert.equal(await text(other, '.diff-note'), '7 sites compared: 1 new, 1 gone, 5 in both.');
  assert.equal(await cliDiffNote(cli, fixtures('queue_bad.json'), fixtures('queue_fixed.json')), '7 sites compared: 1 new, 1 gone, 5 in both.');
  assert.deepEqual(other.problems, []);
  await other.close();
});

// The run in time and the shapes on the real unbounded queue: the moment at the peak
// lists the sites from the profile's own figures, the queue's messages on top; the heat
// map counts every block of the run; the queue's site has its 2,000 messages by size.
test('real profile: who holds the heap at the peak, and the blocks by size and lifetime', async () => {
  const page = await lib.newPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, badFile), 'ready');
  const label = queueLabel(bad, 'queue_unbounded.c');
  const fmt = (n) => page.evaluate((v) => [LH.format.bytes(v), LH.format.percent(v / window.lifeheapViewer.state.model.profile.peak.bytes)], n);
  assert.equal(await page.$eval('.stacked-run', (r) => r.getAttribute('data-moment-index')), String(bad.timeline.peak_index));
  const rows = await page.$$eval('.moment-table tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(1).map((td) => td.textContent)));
  const live = bad.sites.filter((s) => s.bytes_at_peak > 0 || s.blocks_at_peak > 0).sort((a, b) => b.bytes_at_peak - a.bytes_at_peak || a.id - b.id);
  assert.equal(rows[0][0], label);
  for (let k = 0; k < Math.min(12, live.length); k++) {
    assert.deepEqual(rows[k], [live[k].label].concat(await fmt(live[k].bytes_at_peak)));
  }
  assert.equal(await page.$eval('.moment-total', (e) => e.title), exact(bad.peak.bytes) + ' bytes');
  // The heat map counts every block; the run's size histogram is the sum of the sites'.
  const caption = await page.$eval('.shapes-panel', (p) => p.textContent);
  assert.match(caption, new RegExp(exact(bad.totals.blocks).replace(/,/g, ',') + ' blocks, each counted once'));
  const bySize = new Array(64).fill(0), fromGrid = new Array(64).fill(0);
  bad.sites.forEach((s) => s.size_histogram.forEach((n, k) => { bySize[k] += n; }));
  bad.blocks_by_size_and_lifetime.forEach((c) => { fromGrid[c[0]] += c[2]; });
  assert.deepEqual(fromGrid, bySize);
  // The queue's messages: 2,000 blocks, all of one size bucket.
  const queue = bad.sites.find((s) => s.label === label);
  assert.equal(queue.size_histogram.reduce((a, b) => a + b, 0), 2000);
  assert.equal(queue.size_histogram.filter((n) => n > 0).length, 1);
  await (await page.$('.stacked-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'real-stacked');
  await (await page.$('.shapes-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'real-shapes');
  assert.deepEqual(page.problems, []);
  await page.close();
});
