// The first screen on real profiles: the four example problems (examples/README.md:
// queue, preallocation, leak, churn) profiled at test time and opened at 1280x800, a
// laptop's screen. Each must show its problem without scrolling: the headline (kind,
// the site's label, the tool's sentence, the kind's key evidence labelled from
// docs/evidence-labels.json) and the finding in the findings panel. Figures known by
// construction are asserted exactly (2,000 messages freed by the consumer; 64 tables of
// 262,144 bytes; 10,000 cache entries, 2,560,000 bytes at exit; 200,000 records).
// Then: the sites table fits 1280 px and its column groups; the diff headline; notes.
// Screenshots go to tests/artifacts/viewer/first-screen-*.png.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');
const lib = require('./lib');

const run = promisify(execFile);
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-viewer-headline-'));
const EXAMPLES = path.join(lib.ROOT, 'examples');
const LABELS = JSON.parse(fs.readFileSync(path.join(lib.ROOT, 'docs', 'evidence-labels.json'), 'utf8'));
const exact = (n) => new Intl.NumberFormat('en-US').format(n);

// Each example: the finding the tool must rank first and the evidence known from the
// program's source, checked through the figure's exact hover text.
const PROBLEMS = {
  queue_unbounded: { kind: 'missing-backpressure', fn: 'queue_push_message',
    known: { cross_thread_frees: exact(2000) } },
  prealloc_oversized: { kind: 'oversized-preallocation', fn: 'connection_new',
    known: { bytes_at_peak: exact(64 * 262144) + ' bytes', blocks: exact(64), mean_block_bytes: exact(262144) + ' bytes' } },
  leak_cache: { kind: 'leak', fn: 'session_cache_insert',
    known: { bytes_at_exit: exact(10000 * 256) + ' bytes', blocks_at_exit: exact(10000) } },
  churn: { kind: 'short-lived-churn', fn: 'record_encode',
    known: { short_lived_blocks: exact(200000), total_bytes: exact(200000 * 64) + ' bytes' } },
};
const files = {}, profiles = {};
let browser;

async function program(name) {
  const built = path.join(EXAMPLES, name);
  if (fs.existsSync(built)) return built;
  const out = path.join(WORK, name);
  await run('cc', ['-O0', '-g', '-fno-builtin', '-pthread', path.join(EXAMPLES, name + '.c'), '-o', out]);
  return out;
}

test.before(async () => {
  const names = Object.keys(PROBLEMS).concat(['queue_bounded']);
  await Promise.all(names.map(async (name) => {
    files[name] = path.join(WORK, name + '.json');
    await run(path.join(lib.ROOT, 'scripts', 'run-lifeheap'), ['--fair-sched=yes', '--lifeheap-out-file=' + files[name], await program(name)],
      { cwd: WORK, maxBuffer: 1 << 24 });
    profiles[name] = lib.readProfile(files[name]);
  }));
  browser = await lib.launch();
});
test.after(async () => {
  if (browser) await browser.close();
  fs.rmSync(WORK, { recursive: true, force: true });
});

async function laptopPage() {
  const page = await lib.newPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await lib.openViewer(page);
  return page;
}

// True when the element is entirely inside the 1280x800 viewport, unscrolled.
async function inFirstScreen(page, selector) {
  const box = await page.$eval(selector, (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height }; });
  return box.h > 0 && box.top >= 0 && box.bottom <= 800 && box.left >= 0 && box.right <= 1280;
}

function labelOf(kind, key) {
  const k = LABELS.kinds[kind];
  return (k.labels && k.labels[key]) || LABELS.evidence[key].label;
}

for (const name of Object.keys(PROBLEMS)) {
  test('first screen: ' + name + ' shows its problem without scrolling', async () => {
    const want = PROBLEMS[name], p = profiles[name];
    const first = p.findings[0];
    assert.equal(first.kind, want.kind, 'the tool ranks ' + want.kind + ' first');
    const site = p.sites[first.site];
    assert.equal(p.frames[site.stack[site.name_frame]].function, want.fn);
    const page = await laptopPage();
    assert.equal(await lib.openFile(page, files[name]), 'ready');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await lib.screenshot(page, 'first-screen-' + name);
    // The headline: kind, site label, the tool's sentence, the kind's key evidence.
    assert.ok(await inFirstScreen(page, '#headline .headline'), 'headline in the first screen');
    assert.equal(await page.$eval('#headline .headline', (e) => e.getAttribute('data-kind')), want.kind);
    assert.equal(await page.textContent('#headline .headline-kind'), LABELS.kinds[want.kind].title);
    assert.equal(await page.textContent('#headline .headline-site'), site.label);
    assert.equal(await page.textContent('#headline .headline-sentence'), first.summary);
    const figures = await page.$$eval('#headline .headline-figure', (l) => l.map((e) => ({
      key: e.getAttribute('data-key'), label: e.querySelector('.headline-figure-label').textContent,
      value: e.querySelector('.headline-figure-value').textContent, title: e.title })));
    const keys = LABELS.kinds[want.kind].headline.filter((k) => k in first.evidence);
    assert.deepEqual(figures.map((x) => x.key), keys);
    for (const x of figures) {
      assert.equal(x.label, labelOf(want.kind, x.key));
      assert.ok(x.value.length > 0 && !/_/.test(x.value), x.key + ' formatted: ' + x.value);
      assert.ok(await inFirstScreen(page, '#headline .headline-figure[data-key=' + x.key + ']'), x.key + ' in the first screen');
    }
    for (const key of Object.keys(want.known)) {
      assert.ok(key in first.evidence, key + ' in the evidence');
      const shown = figures.find((x) => x.key === key);
      if (shown) assert.equal(shown.title, key + ' = ' + want.known[key]);
      else assert.equal(await page.$eval('#findings .finding dt[data-key=' + key + '] + dd', (e) => e.title), key + ' = ' + want.known[key]);
    }
    // The finding in the panel, its head in the first screen, its evidence labelled.
    assert.ok(await inFirstScreen(page, '#findings .finding .finding-head'), 'finding in the first screen');
    const dts = await page.$$eval('#findings .finding:first-child .evidence dt', (l) => l.map((e) => e.textContent));
    assert.equal(dts.length, Object.keys(first.evidence).length);
    assert.ok(dts.every((t) => !/_/.test(t)), 'no snake_case label: ' + dts.join(', '));
    // The headline selects its site.
    await page.click('#headline .headline-sentence');
    assert.equal(await page.textContent('#site-detail h2 .fn'), site.label);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}

test('first screen: a run without findings says so, with the peak', async () => {
  const p = lib.readProfile(files.queue_bounded);
  assert.equal(p.findings.length, 0, 'the bounded queue has no finding (examples/README.md)');
  const page = await laptopPage();
  assert.equal(await lib.openFile(page, files.queue_bounded), 'ready');
  const text = await page.textContent('#headline .headline.calm');
  assert.match(text, /^No findings: lifeheap recognised none of its problems in this run\. The heap peaked at .+ in [0-9,]+ blocks, at .+ of the run\.$/);
  assert.ok(text.includes(exact(p.peak.blocks) + ' blocks'));
  await page.close();
});

test('sites table: Main columns fit 1280 px; groups shown on demand and remembered', async () => {
  const page = await laptopPage();
  assert.equal(await lib.openFile(page, files.prealloc_oversized), 'ready');
  const headers = () => page.$$eval('.vhead .vcell', (l) => l.map((e) => e.getAttribute('data-column')));
  const main = ['#', 'name', 'bytes_at_peak', 'max_bytes', 'bytes_at_exit', 'total_bytes', 'total_blocks', 'avg_lifetime', 'never_read_pct'];
  assert.deepEqual(await headers(), main);
  // No horizontal scrolling at 1280 px, in the table or the page.
  assert.ok(await page.$eval('.vtable-scroll', (e) => e.scrollWidth <= e.clientWidth), 'table fits');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1280), 'page fits');
  await lib.screenshot(page, 'table-main-columns', { clip: await page.$eval('.explore', (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height }; }), fullPage: true });
  const groups = await page.$$eval('#column-groups input', (l) => l.map((e) => e.getAttribute('data-group')));
  assert.deepEqual(groups, ['Peak', 'Lifetime', 'Access', 'Growth', 'Threads']);
  await page.check('#column-groups input[data-group=Threads]');
  assert.deepEqual(await headers(), main.concat(['cross_thread_frees', 'allocating_threads']));
  // The sort and the selection survive; the new cells hold the site's values.
  const row0 = await page.$eval('.vrow.selected', (r) => Array.from(r.children).map((c) => c.textContent));
  assert.equal(row0[main.length + 1], '1');   // allocating_threads: main() alone
  await page.check('#column-groups input[data-group=Peak]');
  assert.deepEqual(await headers(), main.concat(['blocks_at_peak', 'max_blocks', 'max_time', 'blocks_at_exit', 'peak_never_read_bytes',
    'cross_thread_frees', 'allocating_threads']));
  // Remembered: the choice is written to localStorage at once...
  const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem('lifeheap.viewer.columnGroups')));
  assert.deepEqual(await stored(), ['Peak', 'Threads']);
  // ... and a viewer that starts with a choice stored shows those groups (unknown names
  // ignored). A reload cannot test this reliably: Chromium hands localStorage writes to
  // its browser process asynchronously, and a reloaded document may start before they
  // arrive, so the next start is given the stored value before the viewer's scripts run.
  const later = await lib.newPage(browser, { keepStorage: true });
  await later.addInitScript(() => localStorage.setItem('lifeheap.viewer.columnGroups', JSON.stringify(['Peak', 'no-such-group', 'Threads'])));
  await later.setViewportSize({ width: 1280, height: 800 });
  await lib.openViewer(later);
  assert.equal(await lib.openFile(later, files.prealloc_oversized), 'ready');
  assert.deepEqual(await later.$$eval('#column-groups input:checked', (l) => l.map((e) => e.getAttribute('data-group'))), ['Peak', 'Threads']);
  assert.equal(await later.$$eval('.vhead .vcell', (l) => l.length), main.length + 7);
  assert.deepEqual(later.problems, []);
  await later.close();
  // Hidden again.
  await page.uncheck('#column-groups input[data-group=Peak]');
  await page.uncheck('#column-groups input[data-group=Threads]');
  assert.deepEqual(await headers(), main);
  assert.deepEqual(await stored(), []);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('diff headline: a new problem, a resolved one, and one in both with both runs\' figures', async () => {
  const page = await laptopPage();
  // Fixed -> broken: the problem is new.
  assert.equal(await lib.openFile(page, files.queue_unbounded), 'ready');
  assert.equal(await lib.openBaseline(page, files.queue_bounded), 'ready');
  await lib.screenshot(page, 'first-screen-diff-queue');
  assert.ok(await inFirstScreen(page, '#headline .headline'));
  assert.equal(await page.textContent('#headline .badge.state'), 'new');
  assert.equal(await page.textContent('#headline .headline-kind'), 'Missing backpressure');
  // The baseline's push site has no finding: its own fields give the figures that are
  // site fields (live at most, frees by another thread), the rest are the finding's.
  const bad = profiles.queue_unbounded, fixed = profiles.queue_bounded;
  const finding = bad.findings[0];
  const fixedSite = fixed.sites.find((s) => fixed.frames[s.stack[s.name_frame]].function === 'queue_push_message');
  assert.ok(fixedSite, 'the bounded queue has the push site');
  assert.equal(fixed.findings.filter((f) => f.site === fixedSite.id).length, 0);
  const figures = await page.$$eval('#headline .headline-figure', (l) => l.map((e) => [e.getAttribute('data-key'), e.querySelector('.headline-figure-value').textContent]));
  const fmtBytes = (n) => page.evaluate((v) => LH.format.bytes(v), n);
  assert.deepEqual(figures, [
    ['max_bytes', (await fmtBytes(fixedSite.max_bytes)) + ' → ' + (await fmtBytes(finding.evidence.max_bytes))],
    ['queue_depth', 'not computed → ' + exact(finding.evidence.queue_depth)],
    ['mean_lifetime', 'not computed → ' + exact(finding.evidence.mean_lifetime) + ' instr (' +
      (await page.evaluate((a) => LH.format.percent(a[0] / a[1]), [finding.evidence.mean_lifetime, bad.run.duration])) + ' of the run)'],
    ['cross_thread_frees', exact(fixedSite.cross_thread_frees) + ' → ' + exact(2000)],
  ]);
  assert.equal(fixedSite.cross_thread_frees, 2000);
  // The diff table (a Status column more) still fits 1280 px.
  assert.equal(await page.$$eval('.vhead .vcell', (l) => l.length), 10);
  assert.ok(await page.$eval('.vtable-scroll', (e) => e.scrollWidth <= e.clientWidth), 'diff table fits');
  // Broken -> fixed: the baseline's problem, resolved.
  assert.equal(await lib.openFile(page, files.queue_bounded), 'ready');
  assert.equal(await lib.openBaseline(page, files.queue_unbounded), 'ready');
  assert.equal(await page.textContent('#headline .badge.state'), 'resolved');
  assert.equal(await page.textContent('#headline .headline-site'), profiles.queue_unbounded.sites[profiles.queue_unbounded.findings[0].site].label);
  // The same run twice: unchanged, each figure "baseline → changed".
  assert.equal(await lib.openFile(page, files.leak_cache), 'ready');
  assert.equal(await lib.openBaseline(page, files.leak_cache), 'ready');
  assert.equal(await page.textContent('#headline .badge.state'), 'unchanged');
  const exitFigure = await page.$eval('#headline .headline-figure[data-key=blocks_at_exit] .headline-figure-value', (e) => e.textContent);
  assert.equal(exitFigure, exact(10000) + ' → ' + exact(10000));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('diff headline: the viewer and `lifeheap diff` head the same pairs with the same finding change', async () => {
  const page = await laptopPage();
  const pairs = [['queue_bounded', 'queue_unbounded'], ['queue_unbounded', 'queue_bounded'], ['leak_cache', 'leak_cache'],
    ['churn', 'leak_cache'], ['prealloc_oversized', 'queue_unbounded'], ['leak_cache', 'churn']];
  const states = new Set();
  for (const [base, changed] of pairs) {
    const { stdout } = await run(path.join(lib.ROOT, 'cli', 'lifeheap'), ['diff', '--format', 'json', files[base], files[changed]], { maxBuffer: 1 << 24 });
    const cli = JSON.parse(stdout).headline;
    assert.equal(await lib.openFile(page, files[changed]), 'ready');
    assert.equal(await lib.openBaseline(page, files[base]), 'ready');
    const viewer = await page.evaluate(() => {
      const d = window.lifeheapViewer.state.diff, h = d.headline();
      return { state: h.state, kind: h.finding.kind, severity: h.finding.severity,
        base_site: h.row >= 0 && d.rowBase[h.row] >= 0 ? d.rowBase[h.row] : null,
        new_site: h.row >= 0 && d.rowChanged[h.row] >= 0 ? d.rowChanged[h.row] : null };
    });
    assert.deepEqual(viewer, cli, base + ' -> ' + changed);
    assert.equal(await page.textContent('#headline .badge.state'), cli.state);
    states.add(cli.state);
  }
  // The pairs cover a new, a resolved and an unchanged headline.
  assert.deepEqual([...states].sort(), ['new', 'resolved', 'unchanged']);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('site notes: beside the site in the table and in the site detail, in diff mode too', async () => {
  // The tool's notes (sites[].notes, docs/format.md) added to a real profile's top site.
  const p = lib.readProfile(files.prealloc_oversized);
  const top = p.findings[0].site;
  p.sites[top].notes = [
    { kind: 'never-touched', text: '15.9 MiB (99%) of it never read nor written' },
    { kind: 'future-kind', text: 'a note of a kind this viewer does not know', bytes: 12 },
  ];
  const file = path.join(WORK, 'notes.json');
  fs.writeFileSync(file, JSON.stringify(p));
  const page = await laptopPage();
  assert.equal(await lib.openFile(page, file), 'ready');
  await page.click('#headline .headline-sentence');
  assert.deepEqual(await page.$$eval('#site-detail .site-notes li', (l) => l.map((e) => [e.getAttribute('data-kind'), e.textContent])),
    [['never-touched', p.sites[top].notes[0].text], ['future-kind', p.sites[top].notes[1].text]]);
  const cell = await page.$eval('.vrow.selected .vcell.name', (c) => ({ mark: c.querySelector('.site-notes-mark').textContent, title: c.title }));
  assert.equal(cell.mark, 'i');
  assert.ok(cell.title.startsWith('• ' + p.sites[top].notes[0].text + '\n• ' + p.sites[top].notes[1].text + '\n\n'), cell.title);
  // The other rows: marked exactly when the tool gave the site notes (the write
  // buffer's unused capacity, the event queue's untouched bytes: examples/README.md),
  // the tool's first note heading the hover text.
  const marked = await page.$$eval('.vtable-rows .vrow:not(.selected)', (rows) => rows.filter((r) => !r.hidden).map((r) => {
    const name = r.querySelector('.vcell.name');
    return [Number(r.getAttribute('data-row')), !name.querySelector('.site-notes-mark').hidden, name.title.split('\n')[0]];
  }).sort((a, b) => a[0] - b[0]));
  const expected = p.sites.filter((x) => x.id !== top).map((x) => [x.id, (x.notes || []).length > 0,
    (x.notes || []).length > 0 ? '• ' + x.notes[0].text : null]);
  assert.deepEqual(marked.map((m) => [m[0], m[1], m[1] ? m[2] : null]), expected);
  assert.ok(expected.some((x) => x[1]), 'the tool gave notes to some other site');
  await lib.screenshot(page, 'site-notes', { fullPage: true });
  // Diff: the baseline without notes, the changed run with them.
  assert.equal(await lib.openBaseline(page, files.prealloc_oversized), 'ready');
  await page.click('#headline .headline-sentence');
  assert.deepEqual(await page.$$eval('#site-detail .site-notes h3', (l) => l.map((e) => e.textContent)), ['Why it is big (changed)']);
  assert.deepEqual(page.problems, []);
  await page.close();
});
