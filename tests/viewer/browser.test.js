// The viewer in a real browser (Debian's Chromium via playwright-core), opened from
// file:// exactly as a user would, on the hand-written fixtures whose numbers are known
// by construction (tests/viewer/fixtures/make_fixtures.js). Screenshots of the main views
// go to tests/artifacts/viewer/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const http = require('http');
const lib = require('./lib');

const fixture = (name) => path.join(lib.FIXTURES, name);
let browser;

test.before(async () => { browser = await lib.launch(); });
test.after(async () => { if (browser) await browser.close(); });

async function loaded(name) {
  const page = await lib.newPage(browser);
  assert.equal(await lib.openViewer(page), 'empty');
  assert.equal(await lib.openFile(page, fixture(name)), 'ready');
  return page;
}
const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
const title = (page, selector) => page.$eval(selector, (e) => e.title);
// Names of the first n rows of the sites table, in display order.
const tableNames = (page, n) => page.evaluate((limit) => {
  const rows = Array.from(document.querySelectorAll('.vtable-rows .vrow:not([hidden])'));
  rows.sort((a, b) => new DOMMatrix(getComputedStyle(a).transform).m42 - new DOMMatrix(getComputedStyle(b).transform).m42);
  return rows.slice(0, limit).map((r) => r.querySelector('.name .fn').textContent);
}, n);
function noProblems(page) { assert.deepEqual(page.problems, []); }

test('browser: header shows the run, the peak, live at exit, totals and findings', async () => {
  const page = await loaded('queue_bad.json');
  assert.equal(await text(page, '.summary .command'), './queue_bad --messages 2000');
  assert.equal(await text(page, '.summary .exit'), 'exited with code 0');
  assert.equal(await text(page, '[data-field=peak] .card-value'), '230.4 KiB');
  assert.equal(await title(page, '[data-field=peak] .card-value'), '235,904 bytes');
  assert.equal(await text(page, '[data-field=peak] .card-detail'), '1,212 blocks at 60% of the run');
  assert.equal(await title(page, '[data-field=at_exit] .card-value'), '320 bytes');
  assert.equal(await text(page, '[data-field=at_exit] .card-detail'), '10 blocks');
  assert.equal(await title(page, '[data-field=total] .card-value'), '707,904 bytes');
  assert.equal(await text(page, '[data-field=total] .card-detail'), '9,012 blocks, 9,002 frees');
  assert.equal(await text(page, '[data-field=reallocs] .card-detail'), '3.9 KiB requested, 1.9 KiB copied');
  assert.equal(await title(page, '[data-field=duration] .card-value'), '10,000,000 instructions');
  assert.equal(await text(page, '[data-field=findings] .card-value'), '5');
  assert.equal(await text(page, '[data-field=findings] .card-detail'), '1 high, 1 medium, 3 low');
  // Run details: every run field and option is on the page.
  const details = await text(page, '.run-details');
  for (const s of ['pid 4242, parent 4100', 'exit', 'timeline_points', '"lifeheap.out.%p.json"', 'lifeheap 0.1.0 on Valgrind 3.19.0', '11 points, peak at point 6, 3 markers']) {
    assert.ok(details.includes(s), 'run details lack ' + s);
  }
  assert.deepEqual(await page.$$eval('.markers li', (l) => l.map((e) => e.textContent)),
    ['1.0M instr producer start', '3.0M instr consumer slows down', '7.0M instr drain']);
  await lib.screenshot(page, 'overview', { fullPage: true });
  noProblems(page);
  await page.close();
});

test('browser: default sort is bytes at peak, top site selected and shown in full', async () => {
  const page = await loaded('queue_bad.json');
  assert.deepEqual(await tableNames(page, 6), ['make_message', 'load_config', 'queue_push', 'load_rows', 'register_name', 'format_log']);
  assert.equal(await page.$eval('.vhead .sorted', (e) => e.getAttribute('data-column')), 'bytes_at_peak');
  assert.equal(await text(page, '.vrow.selected .name .fn'), 'make_message');
  assert.equal(await text(page, '.detail-head .fn'), 'make_message');
  assert.equal(await page.$$eval('table.stack tr', (r) => r.length), 4); // header + 3 frames
  assert.equal(await text(page, 'table.stack tr.name-frame td.fn'), 'make_message');
  // Exact numbers on hover in the table.
  const peakCell = await page.$eval('.vrow.selected', (row) => {
    const header = Array.from(document.querySelectorAll('.vhead .vcell')).map((c) => c.getAttribute('data-column'));
    const cell = row.children[header.indexOf('bytes_at_peak')];
    return [cell.textContent, cell.title];
  });
  assert.deepEqual(peakCell, ['150.0 KiB', '153,600 bytes']);
  // Ctrl-click adds sites' series to the timeline; a site below the significance
  // threshold has none, and the page says so.
  const rowNamed = (name) => page.locator('.vtable-rows .vrow', { has: page.locator('.fn', { hasText: new RegExp('^' + name + '$') }) });
  await rowNamed('load_config').click({ modifiers: ['Control'] });
  await rowNamed('load_rows').click({ modifiers: ['Control'] });
  const legend = await text(page, '#timeline .u-legend');
  assert.ok(legend.includes('#0 make_message') && legend.includes('#1 load_config'), legend);
  assert.equal(await text(page, '#timeline .note'), '#3 load_rows has no series: its own max is below 1.0% of the peak.');
  noProblems(page);
  await page.close();
});

test('browser: re-sort by other metrics, both directions', async () => {
  const page = await loaded('queue_bad.json');
  await page.click('.vhead [data-column=total_blocks]');
  assert.deepEqual(await tableNames(page, 3), ['format_log', 'make_message', 'queue_push']);
  await page.click('.vhead [data-column=total_blocks]');
  // Ascending; ties (1 block each) keep profile order.
  assert.deepEqual(await tableNames(page, 2), ['load_config', 'load_rows']);
  await page.click('.vhead [data-column=never_read_pct]');
  assert.deepEqual(await tableNames(page, 2), ['load_config', 'load_rows']);
  // Realloc copied is in the Growth group, hidden until the user shows it.
  assert.equal(await page.$('.vhead [data-column=realloc_bytes_copied]'), null);
  await page.check('#column-groups input[data-group=Growth]');
  await page.click('.vhead [data-column=realloc_bytes_copied]');
  assert.deepEqual(await tableNames(page, 1), ['load_rows']);
  await page.click('.vhead [data-column=avg_lifetime]');
  assert.deepEqual(await tableNames(page, 6), ['register_name', 'load_config', 'load_rows', 'make_message', 'queue_push', 'format_log']);
  noProblems(page);
  await page.close();
});

test('browser: search filters sites by function, file or object', async () => {
  const page = await loaded('queue_bad.json');
  await page.fill('#search', 'queue.c');
  await page.waitForFunction(() => document.getElementById('search-count').textContent === '1 of 6 sites');
  assert.deepEqual(await tableNames(page, 6), ['queue_push']);
  await page.fill('#search', 'libc.so');
  await page.waitForFunction(() => document.getElementById('search-count').textContent === '3 of 6 sites');
  assert.deepEqual(await tableNames(page, 6), ['make_message', 'queue_push', 'register_name']);
  await page.fill('#search', 'no-such-function');
  await page.waitForFunction(() => document.getElementById('search-count').textContent === '0 of 6 sites');
  await page.fill('#search', '');
  await page.waitForFunction(() => document.getElementById('search-count').textContent === '6 of 6 sites');
  noProblems(page);
  await page.close();
});

test('browser: clicking a finding selects its site everywhere', async () => {
  const page = await loaded('queue_bad.json');
  const kinds = await page.$$eval('.finding .finding-kind', (l) => l.map((e) => e.textContent));
  assert.deepEqual(kinds, ['Missing backpressure', 'Oversized preallocation', 'Leak', 'Short-lived churn', 'Realloc growth']);
  await page.click('.finding:nth-child(2)');
  assert.equal(await text(page, '.detail-head .fn'), 'load_config');
  assert.equal(await text(page, '.vrow.selected .name .fn'), 'load_config');
  assert.equal(await page.$eval('.finding:nth-child(2)', (e) => e.classList.contains('selected')), true);
  assert.equal(await page.$eval('.finding:nth-child(1)', (e) => e.classList.contains('selected')), false);
  // The detail shows the access figures that justify the finding.
  const metrics = await text(page, '.detail-metrics');
  assert.ok(metrics.includes('Unused capacity63.5 KiB'), metrics);
  assert.equal(await page.$$eval('.detail-charts canvas', (c) => c.length) >= 2, true);
  // The timeline now carries the selected site's series.
  assert.ok((await text(page, '#timeline .u-legend')).includes('#1 load_config'));
  await lib.screenshot(page, 'finding-selected', { fullPage: true });
  noProblems(page);
  await page.close();
});

test('browser: call tree expands top-down and bottom-up, icicle drawn', async () => {
  const page = await loaded('queue_bad.json');
  await page.click('.tabs button[data-tab=tree]');
  const labels = () => page.$$eval('.tree-row .label', (l) => l.map((e) => e.textContent));
  assert.deepEqual(await labels(), ['all sites', 'start_thread (libc.so.6)', 'main (main.c:30)', 'main (main.c:31)', 'main (main.c:28)']);
  await page.click('.tree-row:nth-child(2) .toggle');
  assert.deepEqual((await labels()).slice(1, 4), ['start_thread (libc.so.6)', 'producer_main (producer.c:88)', 'producer_main (producer.c:90)']);
  // The selected site (make_message, under producer_main:88) is marked along its path.
  assert.deepEqual(await page.$$eval('.tree-row.on-path .label', (l) => l.map((e) => e.textContent)),
    ['start_thread (libc.so.6)', 'producer_main (producer.c:88)']);
  assert.equal(await page.$eval('.tree-row:nth-child(2) .value', (e) => e.title), '168,000 bytes');
  await page.selectOption('#tree-direction', 'bottom-up');
  assert.deepEqual((await labels()).slice(0, 3), ['all sites', 'make_message (producer.c:42)', 'load_config (config.c:17)']);
  // A node reached by one site selects it.
  await page.click('.tree-row:nth-child(3) .label');
  assert.equal(await text(page, '.detail-head .fn'), 'load_config');
  const size = await page.$eval('#icicle', (c) => [c.width, c.height]);
  assert.ok(size[0] > 300 && size[1] >= 40, 'icicle size ' + size);
  await page.selectOption('#tree-direction', 'top-down');
  await lib.screenshot(page, 'call-tree', { fullPage: true });
  noProblems(page);
  await page.close();
});

// rust_conns.json: tests/names/progs/conns.rs built with rustc -O -C debuginfo=1
// (fixtures/record_rust_conns.sh).
test('browser: call tree and stack fold runtime and allocator frames by default', async () => {
  const page = await loaded('rust_conns.json');
  const profile = JSON.parse(fs.readFileSync(fixture('rust_conns.json'), 'utf8'));
  await page.click('.tabs button[data-tab=tree]');
  const labels = () => page.$$eval('.tree-row .label', (l) => l.map((e) => e.textContent));
  assert.equal(await page.$eval('#tree-fold', (e) => e.checked), true);
  // Top-down: under the C entry point, the program's own main right away.
  assert.equal((await labels())[1], 'main (conns)');
  await page.click('.tree-row:nth-child(2) .toggle');
  assert.match((await labels())[2], /^conns::main \(conns\.rs:\d+\)( \[inlined\])?$/);
  // Unfolded, the runtime's start-up frames come first.
  await page.click('#tree-fold');
  await page.click('.tree-row:nth-child(2) .toggle');
  const runtime = (await labels())[2];
  assert.ok(profile.frames.some((f) => f.library && runtime.startsWith(f.function + ' (')), runtime);
  // Bottom-up, folded again: the constructor first, not alloc_zeroed.
  await page.click('#tree-fold');
  await page.selectOption('#tree-direction', 'bottom-up');
  assert.match((await labels())[1], /^conns::ConnState::new \(conns\.rs:29\) \[inlined\]$/);
  await page.click('#tree-fold');
  assert.match((await labels())[1], /^alloc::alloc::alloc_zeroed \(alloc\.rs:\d+\)( \[inlined\])?$/);
  // The selected (top) site's stack: library rows hidden until asked for.
  await page.click('.tabs button[data-tab=sites]');
  const site = profile.sites[0];
  const own = site.stack.filter((f) => !profile.frames[f].library).length;
  const visible = () => page.$$eval('#stack-table tr', (rows) => rows.filter((r) => r.offsetParent !== null).length - 1);
  assert.equal(await page.$eval('#stack-fold', (e) => e.checked), true);
  assert.equal(await visible(), own);
  await page.click('#stack-fold');
  assert.equal(await visible(), site.stack.length);
  // Its label, as the names suite expects it of this program (the profile writes it as
  // references into the frame table: version 2).
  assert.match(await text(page, '.detail-head .fn'), /^ConnState::new \(conns\.rs:29\), allocated by vec::from_elem \(mod\.rs:\d+\)$/);
  noProblems(page);
  await page.close();
});

test('browser: diff mode compares a baseline and a change', async () => {
  const page = await loaded('queue_fixed.json');
  assert.equal(await lib.openBaseline(page, fixture('queue_bad.json')), 'ready');
  assert.equal(await page.evaluate(() => document.body.classList.contains('diff-mode')), true);
  assert.equal(await text(page, '[data-field=peak] .card-value'), '230.4 KiB → 87.8 KiB');
  assert.equal(await text(page, '[data-field=peak] .card-detail'), '-142.6 KiB (-62%)');
  assert.equal(await text(page, '.diff-note'), '7 sites compared: 1 new, 1 gone, 5 in both.');
  const totals = await page.$$eval('.summary details:first-of-type tr', (rows) => rows.map((r) => r.textContent));
  assert.ok(totals.includes('Totals frees9,0024,003-4,999'), totals.join(' | '));
  assert.ok(totals.includes('Peak time6,000,0007,000,000+1,000,000'), totals.join(' | '));
  // Sorted by the size of the change in bytes at peak.
  assert.deepEqual(await tableNames(page, 4), ['make_message', 'queue_push', 'batch_send', 'load_config']);
  const statuses = await page.$$eval('.vtable-rows .vrow:not([hidden])', (rows) => rows.map((r) =>
    r.querySelector('.name .fn').textContent + ':' + r.querySelector('[class*=status-]').textContent));
  assert.ok(statuses.includes('batch_send:new') && statuses.includes('format_log:gone'), statuses.join(' '));
  const selected = await page.$eval('.vrow.selected', (row) => {
    const header = Array.from(document.querySelectorAll('.vhead .vcell')).map((c) => c.getAttribute('data-column'));
    const cell = row.children[header.indexOf('bytes_at_peak')];
    return [cell.textContent, cell.title, cell.className];
  });
  assert.deepEqual(selected, ['-134.0 KiB', 'baseline 153,600 bytes → changed 16,384 bytes', 'vcell num delta-down']);
  const states = await page.$$eval('.finding', (l) => l.map((e) => e.querySelector('.finding-kind').textContent + ':' + e.querySelector('.badge.state').textContent));
  assert.deepEqual(states, ['Oversized preallocation:unchanged', 'Leak:unchanged', 'Realloc growth:unchanged',
    'Missing backpressure:resolved', 'Short-lived churn:resolved']);
  assert.ok((await text(page, '.detail-metrics')).includes('Bytes at peak150.0 KiB16.0 KiB-134.0 KiB'));
  await page.click('.tabs button[data-tab=tree]');
  assert.ok((await page.$$eval('.tree-row .value', (l) => l.map((e) => e.textContent))).includes('-142.6 KiB'));
  await page.click('.tree-row:nth-child(2) .toggle');
  await lib.screenshot(page, 'diff-tree', { clip: { x: 0, y: 0, width: 1400, height: 1000 } });
  await page.click('.tabs button[data-tab=sites]');
  await lib.screenshot(page, 'diff', { fullPage: true });
  await page.click('#exit-diff');
  assert.equal(await page.evaluate(() => document.body.classList.contains('diff-mode')), false);
  assert.equal(await text(page, '[data-field=peak] .card-value'), '87.8 KiB');
  noProblems(page);
  await page.close();
});

// A baseline written before sites carried keys: the diff view pairs nothing and says
// so, with what to do, at the top, in the findings panel and in the site detail; the
// whole-run figures still compare.
test('browser: diff mode with a profile without site keys says why nothing is paired', async () => {
  const keyless = JSON.parse(fs.readFileSync(fixture('queue_bad.json'), 'utf8'));
  keyless.sites.forEach((s) => { delete s.match_key; delete s.match_lines; });
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'lifeheap-keyless-'));
  const file = path.join(dir, 'queue_bad_old.json');
  fs.writeFileSync(file, JSON.stringify(keyless));
  try {
    const page = await loaded('queue_fixed.json');
    assert.equal(await lib.openBaseline(page, file), 'ready');
    assert.equal(await page.evaluate(() => document.body.classList.contains('diff-mode')), true);
    const note = await text(page, '#headline .headline.keyless');
    assert.equal(note, 'Sites not paired' + 'The baseline queue_bad_old.json was written by an older lifeheap, whose profiles carry ' +
      'no site keys (sites[].match_key): the sites of the two runs cannot be paired, so each site is shown unpaired and no ' +
      'finding is compared; the whole-run figures still compare. To compare sites, record that run again with this ' +
      'lifeheap, or run lifeheap diff queue_bad_old.json queue_fixed.json, which pairs the sites of older profiles by their stacks.');
    assert.equal(await text(page, '#headline .headline.keyless code'), 'lifeheap diff queue_bad_old.json queue_fixed.json');
    assert.equal(await text(page, '[data-field=peak] .card-value'), '230.4 KiB → 87.8 KiB');
    assert.equal(await text(page, '.diff-note'), '6 baseline sites and 6 changed sites, not paired (the note at the top says why).');
    const statuses = await page.$$eval('.vtable-rows .vrow:not([hidden])', (rows) => rows.map((r) =>
      r.querySelector('[class*=status-]').textContent));
    assert.deepEqual(statuses, new Array(12).fill('unpaired'));
    assert.match(await text(page, '#findings .keyless-note'), /^Not compared: the two runs' sites are not paired/);
    assert.deepEqual(await page.$$eval('#findings h3', (l) => l.map((e) => e.textContent)),
      ['Changed: queue_fixed.json', 'Baseline: queue_bad_old.json']);
    assert.equal(await page.$$eval('#findings .finding', (l) => l.length), 3 + 5);
    assert.equal(await page.$$eval('#findings .badge.state', (l) => l.length), 0);
    assert.match(await text(page, '.detail-head'), /NOT PAIRED: a site of the (baseline|changed profile) \(a profile without site keys\)/);
    await lib.screenshot(page, 'diff-keyless', { clip: { x: 0, y: 0, width: 1400, height: 900 } });
    noProblems(page);
    await page.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Drop files the way a browser does: a drop event whose DataTransfer holds File objects.
async function dropFiles(page, names) {
  const files = names.map((n) => ({ name: n, text: fs.readFileSync(fixture(n), 'utf8') }));
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    list.forEach((f) => dt.items.add(new File([f.text], f.name, { type: 'application/json' })));
    return dt;
  }, files);
  const before = await lib.finishedLoads(page);
  await page.dispatchEvent('main, #welcome', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
  return lib.waitNextLoad(page, before);
}

test('browser: drag and drop one profile, then two to compare', async () => {
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  assert.equal(await dropFiles(page, ['queue_bad.json']), 'ready');
  assert.equal(await text(page, '#source-name'), 'queue_bad.json');
  assert.equal(await page.$eval('#drop-overlay', (e) => e.hidden), true);
  // Two files: the earlier run (same start time here, so the first) is the baseline.
  assert.equal(await dropFiles(page, ['queue_bad.json', 'queue_fixed.json']), 'ready');
  assert.equal(await text(page, '#source-name'), 'queue_bad.json → queue_fixed.json');
  assert.equal(await page.evaluate(() => document.body.classList.contains('diff-mode')), true);
  noProblems(page);
  await page.close();
});

test('browser: hostile profile strings render as inert text', async () => {
  const page = await loaded('hostile.json');
  const evil = '<img src=x onerror="window.__lifeheapPwned=1">';
  assert.equal(await text(page, '.vrow.selected .name .fn'), evil);
  assert.equal(await text(page, '.finding:nth-child(1) .finding-summary'), 'Summary ' + evil);
  assert.equal(await text(page, '.finding:nth-child(1) .finding-kind'), '<i>unknown-kind</i>');
  assert.ok((await text(page, '.summary .command')).includes('<script>window.__lifeheapPwned=2</script>'));
  assert.ok((await text(page, '.run-details')).includes('<b onmouseover=alert(1)>x</b>'));
  assert.ok((await text(page, 'table.stack')).includes('<svg onload="window.__lifeheapPwned=3">.c'));
  await page.click('.tabs button[data-tab=tree]');
  await page.selectOption('#tree-direction', 'bottom-up');
  assert.ok((await page.$$eval('.tree-row .label', (l) => l.map((e) => e.textContent))).some((t) => t.startsWith(evil)));
  // Wait for the tooltip to show a node (a fixed sleep could check before it
  // rendered, and the check below would hold on an empty tooltip).
  await page.hover('#icicle', { position: { x: 30, y: 30 } });
  await page.waitForFunction(() => {
    const tip = document.getElementById('icicle-tooltip');
    return tip && !tip.hidden && tip.textContent.length > 0;
  });
  const injected = await page.evaluate(() => ({
    pwned: window.__lifeheapPwned,
    elements: document.querySelectorAll('main img, main iframe, main svg, main script, main b, main i').length,
  }));
  assert.deepEqual(injected, { pwned: undefined, elements: 0 });
  await lib.screenshot(page, 'hostile', { fullPage: true });
  noProblems(page);
  await page.close();
});

test('browser: malformed, truncated and wrong-version files give a clear message', async () => {
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  const cases = [
    ['truncated.json', /^Could not open truncated\.json: truncated JSON \(the document ends after \d+ bytes\)$/],
    ['not_json.txt', /^Could not open not_json\.txt: invalid JSON: /],
    ['wrong_version.json', /^Could not open wrong_version\.json: format_version 3 is not supported \(this lifeheap reads versions 1 to 2\)$/],
    ['dhat.json', /^Could not open dhat\.json: not a lifeheap profile \(it is a DHAT profile/],
    ['bad_sites.json', /^Could not open bad_sites\.json: sites: expected an array, found an object$/],
  ];
  for (const [file, pattern] of cases) {
    assert.equal(await lib.openFile(page, fixture(file)), 'error', file);
    assert.match(await text(page, '#message'), pattern);
    assert.equal(await page.$eval('#message', (e) => e.hidden), false);
    assert.equal(await page.$eval('#welcome', (e) => e.hidden), false, 'welcome text stays visible: never a blank page');
  }
  await lib.screenshot(page, 'error-truncated');
  // A good profile afterwards clears the message.
  assert.equal(await lib.openFile(page, fixture('queue_bad.json')), 'ready');
  assert.equal(await page.$eval('#message', (e) => e.hidden), true);
  // A bad file while a profile is open keeps the open one and says why.
  assert.equal(await lib.openFile(page, fixture('wrong_version.json')), 'error');
  assert.equal(await page.$eval('#app', (e) => e.hidden), false);
  assert.match(await text(page, '#message'), /format_version 3 is not supported/);
  // A bad number deep in one site's access map: the profile opens, that site says why.
  assert.equal(await lib.openFile(page, fixture('bad_map.json')), 'ready');
  assert.equal(await text(page, '.site-detail .error-inline'),
    'This site cannot be shown: sites[0].access.map.reads[3]: expected a number, found a string');
  await page.click('.finding:nth-child(2)');
  assert.equal(await text(page, '.detail-head .fn'), 'load_config');
  assert.equal(await page.$('.site-detail .error-inline'), null);
  noProblems(page);
  await page.close();
});

test('browser: partial dumps, signals and empty profiles are shown as such', async () => {
  const page = await loaded('partial.json');
  assert.equal(await text(page, '.summary .exit'), 'still running (partial profile)');
  assert.equal(await text(page, '.summary .warning'),
    'Partial profile (written on interval while the program was still running): figures cover the run up to 10,000,000 instructions.');
  assert.equal(await page.evaluate(() => LH.summaryView.exitText({ status: 'signal', signal: 11, signal_name: 'SIGSEGV' })), 'killed by SIGSEGV');
  // A profile written at an exec (the new program ran without lifeheap).
  assert.equal(await page.evaluate(() => LH.summaryView.exitText({ status: 'running' }, 'exec')),
    "exec'd another program (partial profile)");
  assert.equal(await page.evaluate(() => LH.summaryView.partialText('exec', 373249)),
    "Partial profile, written when the program exec'd another program, which ran without lifeheap: figures cover the run up to 373,249 instructions.");
  assert.equal(await lib.openFile(page, fixture('no_sites.json')), 'ready');
  assert.equal(await text(page, '#search-count'), '0 of 0 sites');
  assert.equal(await text(page, '#findings .empty'), 'No findings: the tool recognised no problem in this run.');
  assert.equal(await text(page, '.site-detail .empty'), 'Select a site in the table, the call tree or a finding to see it in full.');
  await page.click('.tabs button[data-tab=tree]');
  assert.deepEqual(await page.$$eval('.tree-row .label', (l) => l.map((e) => e.textContent)), ['all sites']);
  noProblems(page);
  await page.close();
});

test('browser: header counts one thread, one block, one free in the singular', async () => {
  const p = JSON.parse(fs.readFileSync(fixture('queue_fixed.json'), 'utf8'));
  p.run.threads = 1; p.run.wall_time_ms = 1089;
  p.peak.blocks = 1; p.at_exit.blocks = 1; p.totals.blocks = 1; p.totals.frees = 1;
  const file = path.join(lib.ARTIFACTS, 'singular.json');
  fs.writeFileSync(file, JSON.stringify(p));
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, file), 'ready');
  assert.equal(await text(page, '[data-field=duration] .card-detail'), '1,089 ms wall, 1 thread');
  assert.ok((await text(page, '[data-field=peak] .card-detail')).startsWith('1 block at '));
  assert.equal(await text(page, '[data-field=at_exit] .card-detail'), '1 block');
  assert.equal(await text(page, '[data-field=total] .card-detail'), '1 block, 1 free');
  // Regrowth columns come right after unused capacity (Access, then Growth).
  await page.check('#column-groups input[data-group=Access]');
  await page.check('#column-groups input[data-group=Growth]');
  const headers = await page.$$eval('[role=columnheader]', (l) => l.map((e) => e.textContent));
  const at = headers.indexOf('Unused cap. %');
  assert.deepEqual(headers.slice(at, at + 4), ['Unused cap. %', 'Reallocs', 'Realloc copied', 'Realloc requested']);
  // The exact figure after the rounded one says its unit.
  assert.match(await text(page, '[data-field=access] .card-detail'), / written \([0-9,]+ bytes\)$/);
  await page.close();
});

test('browser: a large profile opens in slices, with progress, and stays usable', async () => {
  const { generate } = require('../../bench/viewer_bench.js');
  const file = path.join(lib.ARTIFACTS, 'large-12k.json');
  fs.writeFileSync(file, JSON.stringify(generate(12000)));
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  // Record every progress label the page shows while it loads.
  await page.evaluate(() => {
    window.__labels = [];
    new MutationObserver(() => window.__labels.push(document.getElementById('progress-label').textContent))
      .observe(document.getElementById('progress-label'), { childList: true, characterData: true, subtree: true });
  });
  assert.equal(await lib.openFile(page, file), 'ready');
  const labels = await page.evaluate(() => window.__labels);
  for (const expected of ['Parsing sites 5000 / 12000', 'Parsing sites 10000 / 12000', 'Checking sites 4000 / 12000', 'Checking sites 8000 / 12000']) {
    assert.ok(labels.includes(expected), 'progress labels: ' + labels.join(' | '));
  }
  assert.equal(await text(page, '#search-count'), '12,000 of 12,000 sites');
  // Keyboard: arrow down moves the selection along the sorted table.
  const second = (await tableNames(page, 2))[1];
  await page.focus('.vtable-scroll');
  await page.keyboard.press('ArrowDown');
  assert.equal(await text(page, '.vrow.selected .name .fn'), second);
  assert.equal(await text(page, '.detail-head .fn'), second);
  noProblems(page);
  await page.close();
  fs.rmSync(file);
});

test('browser: self-contained report (viewer and profile inlined) opens under the CSP', async () => {
  fs.mkdirSync(lib.ARTIFACTS, { recursive: true });
  const report = path.join(lib.ARTIFACTS, 'self-contained-hostile.html');
  fs.writeFileSync(report, lib.selfContained(fs.readFileSync(fixture('hostile.json'), 'utf8')));
  const page = await lib.newPage(browser);
  await page.goto(lib.fileUrl(report));
  assert.equal(await lib.waitState(page, ['ready', 'error']), 'ready');
  assert.equal(await text(page, '#source-name'), 'embedded profile');
  assert.equal(await text(page, '[data-field=peak] .card-value'), '230.4 KiB');
  assert.equal(await page.evaluate(() => window.__lifeheapPwned), undefined);
  noProblems(page); // no CSP violation, no network request
  await page.close();
  // A truncated embedded profile still gives the message.
  const broken = path.join(lib.ARTIFACTS, 'self-contained-truncated.html');
  fs.writeFileSync(broken, lib.selfContained(fs.readFileSync(fixture('truncated.json'), 'utf8')));
  const page2 = await lib.newPage(browser);
  await page2.goto(lib.fileUrl(broken));
  assert.equal(await lib.waitState(page2, ['ready', 'error']), 'error');
  assert.match(await text(page2, '#message'), /embedded profile: truncated JSON/);
  await page2.close();
});

test('browser: the CSP blocks inline script that is not the viewer', async () => {
  const html = lib.selfContained(fs.readFileSync(fixture('queue_bad.json'), 'utf8'))
    .replace('</body>', '<script>window.__injected = 1</script></body>');
  const file = path.join(lib.ARTIFACTS, 'csp-check.html');
  fs.writeFileSync(file, html);
  const page = await lib.newPage(browser);
  // The violation reaches the test as a console message, which may come after
  // the viewer is ready: wait for it (registered before the page loads).
  const violation = page.waitForEvent('console', { predicate: (m) => /Content Security Policy/.test(m.text()), timeout: 15000 })
    .then(() => true, () => false);
  await page.goto(lib.fileUrl(file));
  assert.equal(await lib.waitState(page, ['ready', 'error']), 'ready');
  assert.equal(await page.evaluate(() => window.__injected), undefined);
  assert.ok(await violation, 'no CSP violation reported: ' + page.problems.join('\n'));
  await page.close();
});

test('browser: ?url= loads a profile (and ?baseline= a diff) when served', async () => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const file = url.pathname.startsWith('/fixtures/') ? path.join(lib.FIXTURES, path.basename(url.pathname))
      : path.join(lib.DIST, path.basename(url.pathname) || 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/json';
      res.writeHead(200, { 'content-type': type });
      res.end(data);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = 'http://127.0.0.1:' + server.address().port;
  try {
    const page = await browser.context.newPage();
    await page.goto(base + '/index.html?url=/fixtures/queue_fixed.json&baseline=/fixtures/queue_bad.json');
    await page.waitForFunction(() => document.body.classList.contains('diff-mode'), null, { timeout: 20000 });
    assert.equal(await text(page, '[data-field=peak] .card-value'), '230.4 KiB → 87.8 KiB');
    await page.goto(base + '/index.html?url=/fixtures/missing.json');
    assert.equal(await lib.waitState(page, ['ready', 'error']), 'error');
    assert.match(await text(page, '#message'), /Could not open \/fixtures\/missing\.json: the server answered 404/);
    await page.close();
  } finally {
    server.close();
  }
});
