// The run in time and the shapes, in Chromium on the hand-written fixtures whose numbers
// are known by construction (tests/viewer/fixtures/make_fixtures.js): the stacked chart of
// the heap by site and the moment view beside it, in a profile and in diff mode.
// Screenshots at 1280x800 go to tests/artifacts/viewer/.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const lib = require('./lib');

const fixture = (name) => path.join(lib.FIXTURES, name);
const readFixture = (name) => JSON.parse(fs.readFileSync(fixture(name), 'utf8'));
let browser;

test.before(async () => { browser = await lib.launch(); });
test.after(async () => { if (browser) await browser.close(); });

async function loaded(name, baseline) {
  const page = await lib.newPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await lib.openViewer(page), 'empty');
  assert.equal(await lib.openFile(page, fixture(name)), 'ready');
  if (baseline) assert.equal(await lib.openBaseline(page, fixture(baseline)), 'ready');
  return page;
}
const texts = (page, selector) => page.$$eval(selector, (es) => es.map((e) => e.textContent));
// The moment table of the n-th run shown (0, or 0 = baseline and 1 = changed in a diff).
const momentRows = (page, n) => page.$$eval('.stacked-run', (runs, k) => Array.from(runs[k].querySelectorAll('.moment-table tr'))
  .map((tr) => Array.from(tr.querySelectorAll('td')).slice(1).map((td) => td.textContent)), n || 0);
// Clicks the n-th stacked chart at `fraction` of its plotting area's width.
async function clickChart(page, fraction, n) {
  const over = (await page.$$('.stacked-chart .u-over'))[n || 0];
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}
function noProblems(page) { assert.deepEqual(page.problems, []); }

test('stacked: the heap by site opens at the peak, exact for every site', async () => {
  const page = await loaded('queue_bad.json');
  // Three sites have a series: three bands and the rest; the chart and the moment side by side.
  assert.equal(await page.$$eval('.stacked-run', (r) => r.length), 1);
  assert.equal(await page.$eval('.stacked-run', (r) => r.getAttribute('data-moment-index')), '6');
  assert.deepEqual(await texts(page, '.moment-title'), ['At the peak, 6,000,000 instructions (60% of the run)']);
  assert.deepEqual(await texts(page, '.moment-total'), ['230.4 KiB live in 1,212 blocks']);
  assert.deepEqual(await momentRows(page), [
    ['make_message', '150.0 KiB', '65%'], ['load_config', '64.0 KiB', '28%'], ['queue_push', '14.1 KiB', '6.1%'],
    ['load_rows', '2.0 KiB', '0.9%'], ['register_name', '320 B', '0.1%']]);
  assert.match((await texts(page, '.moment-how'))[0], /^Exact for every site/);
  // The band colours: the three sites with a series have their own, the rest is grey.
  const swatches = await page.$$eval('.moment-table .swatch', (s) => s.map((e) => e.getAttribute('data-color')));
  assert.equal(new Set(swatches.slice(0, 3)).size, 3);
  assert.deepEqual(swatches.slice(3), ['#adb5bd', '#adb5bd']);
  const chart = await page.$('.stacked-chart');
  await chart.scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'stacked-queue-peak');
  noProblems(page);
  await page.close();
});

test('stacked: a click picks the nearest sampled moment and says what is not split by site', async () => {
  const page = await loaded('queue_bad.json');
  // The x axis spans 0 to 10,000,000 instructions: 31% of the width is nearest point 3.
  await clickChart(page, 0.31);
  assert.equal(await page.$eval('.stacked-run', (r) => r.getAttribute('data-moment-index')), '3');
  assert.deepEqual(await texts(page, '.moment-title'), ['At 3,000,000 instructions (30% of the run)']);
  assert.deepEqual(await texts(page, '.moment-total'), ['121.0 KiB live in 412 blocks']);
  // load_config 65,536, make_message 51,200, queue_push 4,800; the other three sites
  // (load_rows 2,048 + register_name 320) are one figure, 2,368 bytes.
  assert.deepEqual(await momentRows(page), [
    ['load_config', '64.0 KiB', '53%'], ['make_message', '50.0 KiB', '41%'], ['queue_push', '4.7 KiB', '3.9%'],
    ['3 sites without a series', '2.3 KiB', '1.9%']]);
  const how = (await texts(page, '.moment-how'))[0];
  assert.match(how, /^The nearest of the 11 sampled points/);
  assert.match(how, /Click the peak for every site\.$/);
  await lib.screenshot(page, 'stacked-queue-moment');
  // A row of the moment selects its site everywhere.
  await page.click('.moment-table tr[data-site="1"]');
  assert.equal(await page.$eval('#site-detail h2 .fn, #site-detail h2', (e) => e.textContent.split(/\s/)[0]), 'load_config');
  // A drag zooms instead of picking a moment.
  const over = await page.$('.stacked-chart .u-over');
  const box = await over.boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.9, box.y + 20, { steps: 5 });
  await page.mouse.up();
  assert.equal(await page.$eval('.stacked-run', (r) => r.getAttribute('data-moment-index')), '3');
  noProblems(page);
  await page.close();
});

test('stacked: diff mode draws both runs on the same scale with a moment each', async () => {
  const page = await loaded('queue_bad.json', 'queue_fixed.json');
  const fixed = readFixture('queue_fixed.json');
  assert.deepEqual(await page.$$eval('.stacked-run h3:first-child', (h) => h.map((e) => e.textContent)).then((t) => t.filter((x) => !x.startsWith('At'))), ['Baseline', 'Changed']);
  assert.deepEqual(await texts(page, '.moment-title'), [
    'At the peak, 7,000,000 instructions (70% of the run)', 'At the peak, 6,000,000 instructions (60% of the run)']);
  assert.equal(fixed.peak.bytes, 89920);
  assert.deepEqual(await texts(page, '.moment-total'), ['87.8 KiB live in 141 blocks', '230.4 KiB live in 1,212 blocks']);
  // The same site has the same colour in both runs (load_config is in both).
  const colorOf = (n, name) => page.$$eval('.stacked-run', (runs, a) => {
    const row = Array.from(runs[a.n].querySelectorAll('.moment-table tr')).find((tr) => tr.textContent.indexOf(a.name) >= 0);
    return row.querySelector('.swatch').getAttribute('data-color');
  }, { n, name });
  assert.equal(await colorOf(0, 'load_config'), await colorOf(1, 'load_config'));
  // One byte scale: both charts run up to the larger peak.
  assert.deepEqual(await page.$$eval('.stacked-chart', (c) => c.map((e) => e.getAttribute('data-y-max'))), ['235904', '235904']);
  // A click on the baseline's chart moves only the baseline's moment.
  await clickChart(page, 0.5, 0);
  assert.deepEqual(await page.$$eval('.stacked-run', (r) => r.map((e) => e.getAttribute('data-moment-index'))), ['5', '6']);
  await (await page.$('.stacked-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'stacked-queue-diff');
  noProblems(page);
  await page.close();
});

// Points at cell (size bucket, lifetime bucket) of the n-th heat map, from the layout the
// canvas publishes, and returns the readout under it.
// scope: a selector the map is in (the whole page by default).
async function pointAtCell(page, size, life, n, scope) {
  const canvas = (await page.$$((scope ? scope + ' ' : '') + 'canvas.heatmap'))[n || 0];
  await canvas.scrollIntoViewIfNeeded();
  const layout = await canvas.evaluate((c) => Object.fromEntries(Array.from(c.attributes).filter((a) => a.name.startsWith('data-')).map((a) => [a.name.slice(5), Number(a.value)])));
  const box = await canvas.boundingBox();
  const x = box.x + layout.left + (size - layout['size-first'] + 0.5) * layout['cell-width'];
  const y = box.y + layout.top + (layout['life-last'] - life + 0.5) * layout['cell-height'];
  await page.mouse.click(x, y);
  return canvas.evaluate((c) => c.parentNode.parentNode.querySelector('.heat-readout').textContent);
}

test('shapes: the run by size and the lifetime-against-size map say what each cell holds', async () => {
  const page = await loaded('queue_bad.json');
  assert.equal(await page.$$eval('.shapes-panel canvas.heatmap', (c) => c.length), 1);
  // Sizes 16 B (bucket 5) to 64 KiB (bucket 17), lifetimes from bucket 7 to the run's bucket 24.
  const layout = await page.$eval('.shapes-panel canvas.heatmap', (c) => [c.getAttribute('data-size-first'), c.getAttribute('data-life-last')]);
  assert.deepEqual(layout, ['5', '24']);
  // 700 messages and 700 queue nodes lived 2.1M-4.2M instructions (bucket 22).
  assert.equal(await pointAtCell(page, 9, 22, 0, '.shapes-panel'), '700 blocks of 256 B–511 B that lived 2.1M–4.2M instr (7.8% of the run\'s blocks)');
  // The 5,000 log lines: 16-31 B, 64-127 instructions: the churn cell.
  assert.equal(await pointAtCell(page, 5, 7, 0, '.shapes-panel'), '5,000 blocks of 16 B–31 B that lived 64–127 instr (55% of the run\'s blocks)');
  assert.equal(await pointAtCell(page, 9, 7, 0, '.shapes-panel'), '0 blocks of 256 B–511 B that lived 64–127 instr (0% of the run\'s blocks)');
  assert.match(await page.$eval('.shapes-panel', (p) => p.textContent), /9,012 blocks, each counted once/);
  // The size histogram: hovering the 16-31 B bar shows its 7,000 blocks in the legend.
  const over = await page.$('.shapes-panel .uplot .u-over');
  const box = await over.boundingBox();
  // Buckets 4 (one before the first with blocks) to 17 on a range [3.4, 17.6]: bucket 5
  // sits at (5 - 3.4) / 14.2.
  await page.mouse.move(box.x + box.width * (1.6 / 14.2), box.y + box.height - 5);
  const legend = await page.$$eval('.shapes-panel .uplot .u-legend .u-value', (v) => v.map((e) => e.textContent));
  assert.deepEqual(legend, ['16 B–31 B', '7,000 blocks']);
  await (await page.$('.shapes-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'shapes-queue');
  noProblems(page);
  await page.close();
});

test('shapes: the site detail shows the site\'s blocks by size; diff mode shares the axes', async () => {
  const page = await loaded('queue_bad.json');
  // make_message: 2,000 blocks of 256 bytes (bucket 9), the only bucket.
  const over = await page.$('#site-detail .site-sizes .u-over');
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  // Buckets 8 and 9 on a range [7.4, 9.6]: bucket 9 sits at (9 - 7.4) / 2.2.
  await page.mouse.move(box.x + box.width * (1.6 / 2.2), box.y + box.height - 5);
  assert.deepEqual(await page.$$eval('#site-detail .site-sizes .u-legend .u-value', (v) => v.map((e) => e.textContent)), ['256 B–511 B', '2,000 blocks']);
  await page.close();

  const diff = await loaded('queue_bad.json', 'queue_fixed.json');
  const maps = await diff.$$eval('.shapes-panel canvas.heatmap', (cs) => cs.map((c) => [c.getAttribute('data-size-first'), c.getAttribute('data-life-last'), c.getAttribute('data-cell-width'), c.getAttribute('data-cell-height')]));
  assert.equal(maps.length, 2);
  assert.deepEqual(maps[0], maps[1]);
  // The baseline (queue_fixed) drains its queue: its 256-byte messages live 32k-131k
  // instructions, 1,000 of them in bucket 16, of its 4,013 blocks.
  const fixed = readFixture('queue_fixed.json');
  assert.equal(fixed.totals.blocks, 4013);
  assert.equal(await pointAtCell(diff, 9, 16, 0, '.shapes-panel'), '1,000 blocks of 256 B–511 B that lived 32.8k–65.5k instr (25% of the run\'s blocks)');
  // The same cell of the changed run is empty: its messages live 2,000 times longer.
  assert.equal(await pointAtCell(diff, 9, 16, 1, '.shapes-panel'), '0 blocks of 256 B–511 B that lived 32.8k–65.5k instr (0% of the run\'s blocks)');
  await (await diff.$('.shapes-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(diff, 'shapes-queue-diff');
  noProblems(diff);
  await diff.close();
});

test('shapes: a site of one size has its lifetimes as its row of the heat map; diff mode shares the axes', async () => {
  const page = await loaded('queue_bad.json');
  assert.equal(await page.$eval('#site-detail .fn', (e) => e.textContent), 'make_message');
  // make_message: 2,000 blocks of 256 B (size bucket 9), no grid in the profile: the
  // row is its lifetime histogram, 40/160/400/700/700 blocks in buckets 18 to 22.
  const site = readFixture('queue_bad.json').sites[0];
  assert.equal(site.blocks_by_size_and_lifetime, undefined);
  const layout = await page.$$eval('#site-detail canvas.heatmap', (cs) => cs.map((c) => [c.getAttribute('data-size-first'), c.getAttribute('data-life-last')]));
  assert.deepEqual(layout, [['9', '22']]);
  assert.equal(await pointAtCell(page, 9, 22, 0, '#site-detail'), '700 blocks of 256 B–511 B that lived 2.1M–4.2M instr (35% of the site\'s blocks)');
  assert.equal(await pointAtCell(page, 9, 18, 0, '#site-detail'), '40 blocks of 256 B–511 B that lived 131k–262k instr (2.0% of the site\'s blocks)');
  await (await page.$('#site-detail .site-shapes')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'site-heatmap-queue');
  noProblems(page);
  await page.close();

  // Diff: the fixed queue's messages (the baseline) live 16k-131k instructions, the bad
  // queue's 131k-4.2M: both maps span lifetime buckets 15 to 22, on one colour scale.
  const diff = await loaded('queue_bad.json', 'queue_fixed.json');
  assert.equal(await diff.$eval('#site-detail .fn', (e) => e.textContent), 'make_message');
  const maps = await diff.$$eval('#site-detail .site-heatmap', (boxes) => boxes.map((b) => {
    const c = b.querySelector('canvas.heatmap');
    return [b.getAttribute('data-side'), c.getAttribute('data-size-first'), c.getAttribute('data-life-last'), c.getAttribute('data-cell-width'), c.getAttribute('data-cell-height')];
  }));
  assert.deepEqual(maps.map((m) => m[0]), ['baseline', 'changed']);
  assert.deepEqual(maps[0].slice(1), maps[1].slice(1));
  assert.deepEqual(maps[0].slice(1, 3), ['9', '22']);
  // Eight lifetime rows (15 to 22) in the same height.
  const rowsTall = Number(maps[0][4]);
  assert.ok(rowsTall > 0 && Math.abs(rowsTall * 8 - (240 - 38 - 8)) < 1e-6, String(rowsTall));
  assert.equal(await pointAtCell(diff, 9, 16, 0, '#site-detail'), '1,000 blocks of 256 B–511 B that lived 32.8k–65.5k instr (50% of the site\'s blocks)');
  assert.equal(await pointAtCell(diff, 9, 16, 1, '#site-detail'), '0 blocks of 256 B–511 B that lived 32.8k–65.5k instr (0% of the site\'s blocks)');
  assert.equal(await pointAtCell(diff, 9, 21, 1, '#site-detail'), '700 blocks of 256 B–511 B that lived 1.0M–2.1M instr (35% of the site\'s blocks)');
  // The two access maps share one count scale: the larger of their tallest values.
  const bad = readFixture('queue_bad.json').sites[0].access.map, good = readFixture('queue_fixed.json').sites[0].access.map;
  const tallest = Math.max(...bad.reads, ...bad.writes, ...good.reads, ...good.writes);
  assert.deepEqual(await diff.$$eval('#site-detail .access-map', (m) => m.map((e) => e.getAttribute('data-y-max'))), [String(tallest), String(tallest)]);
  await (await diff.$('#site-detail .site-shapes')).scrollIntoViewIfNeeded();
  await lib.screenshot(diff, 'site-heatmap-queue-diff');
  noProblems(diff);
  await diff.close();
});

// Drags across the access map of the site detail from `from` to `to` (fractions of its width).
async function dragMap(page, from, to) {
  const over = await page.$('#site-detail .access-map .u-over');
  await over.scrollIntoViewIfNeeded();
  const box = await over.boundingBox();
  await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
}
const mapReadout = (page) => page.$eval('#site-detail .map-zoom', (e) => [e.getAttribute('data-range'), e.textContent]);

test('access map: a drag zooms into offsets and says what they hold, a double-click shows the whole block', async () => {
  const page = await loaded('queue_bad.json');
  // load_rows (site 3): one 2,048-byte block whose first 1,536 bytes were read twice and
  // written once (make_fixtures.js) and whose last 512 bytes were never touched.
  await page.evaluate(() => window.lifeheapViewer.select(3, false));
  assert.deepEqual(await mapReadout(page), ['0,2048',
    'The whole block: offsets 0–2,047 of 2,048 bytes: 3,072 byte reads, 1,536 byte writes. Drag across the map to zoom in.']);
  // Zoomed into the tail: nothing there.
  await dragMap(page, 0.8, 0.98);
  let [range, shown] = await mapReadout(page);
  let [lo, hi] = range.split(',').map(Number);
  const n = (x) => new Intl.NumberFormat('en-US').format(x);
  assert.ok(Math.abs(lo - 1638) <= 16 && Math.abs(hi - 2007) <= 16, range);
  assert.equal(shown, 'Zoomed to offsets ' + n(lo) + '–' + n(hi - 1) + ' of 2,048 bytes: 0 byte reads, 0 byte writes. Double-click to see the whole block.');
  await lib.screenshot(page, 'access-map-zoomed');
  await page.dblclick('#site-detail .access-map .u-over');
  assert.equal((await mapReadout(page))[0], '0,2048');
  // Zoomed into the used part: two reads and one write per byte.
  await dragMap(page, 0.25, 0.5);
  [range, shown] = await mapReadout(page);
  [lo, hi] = range.split(',').map(Number);
  assert.ok(Math.abs(lo - 512) <= 16 && Math.abs(hi - 1024) <= 16, range);
  assert.equal(shown, 'Zoomed to offsets ' + n(lo) + '–' + n(hi - 1) + ' of 2,048 bytes: ' + n(2 * (hi - lo)) + ' byte reads, ' + n(hi - lo) +
    ' byte writes. Double-click to see the whole block.');
  await page.dblclick('#site-detail .access-map .u-over');
  assert.equal((await mapReadout(page))[0], '0,2048');
  // load_config (site 1): a 64 KiB block in 16 parts, only the first part read (1,024 reads).
  await page.evaluate(() => window.lifeheapViewer.select(1, false));
  assert.match((await mapReadout(page))[1], /^The whole block: parts 1–16 of 16 \(0%–100% of the block\): 1,024 byte reads, /);
  await dragMap(page, 0.02, 0.3);
  const zoomed = await mapReadout(page);
  const parts = Number(zoomed[0].split(',')[1]);
  assert.ok(parts === 4 || parts === 5, zoomed[0]);
  // Every read fell in the first part (1,024 reads); the rest were never read.
  assert.match(zoomed[1], new RegExp('^Zoomed to parts 1–' + parts + ' of 16 \\(0%–' + (parts * 100 / 16).toFixed(0) + '% of the block\\): 1,024 byte reads, '));
  noProblems(page);
  await page.close();
});

// The pixels of each chart's leftmost columns: a y-axis label wider than its axis is cut
// there ("230.4 KiB" was, at a fixed axis width).
const leftEdgeInk = (page) => page.$$eval('.uplot canvas', (cs) => cs.map((c) => {
  const data = c.getContext('2d').getImageData(0, 0, 3, c.height).data;
  let ink = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 40) ink++;
  return ink;
}));

test('charts: no y-axis label is cut at the left edge, in a profile and in diff mode', async () => {
  const page = await loaded('queue_bad.json');
  const single = await leftEdgeInk(page);
  // The timeline, the stacked chart, the run's sizes, the site's lifetimes and sizes, its access map.
  assert.equal(single.length, 6);
  assert.deepEqual(single, single.map(() => 0));
  await page.close();
  const diff = await loaded('queue_bad.json', 'queue_fixed.json');
  const both = await leftEdgeInk(diff);
  assert.ok(both.length >= 7, String(both.length));
  assert.deepEqual(both, both.map(() => 0));
  noProblems(diff);
  await diff.close();
});
