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
  assert.deepEqual(await texts(page, '.moment-total'), ['230 KiB live in 1,212 blocks']);
  assert.deepEqual(await momentRows(page), [
    ['make_message', '150 KiB', '65%'], ['load_config', '64.0 KiB', '28%'], ['queue_push', '14.1 KiB', '6.1%'],
    ['load_rows', '2.00 KiB', '0.9%'], ['register_name', '320 B', '0.1%']]);
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
  assert.deepEqual(await texts(page, '.moment-total'), ['121 KiB live in 412 blocks']);
  // load_config 65,536, make_message 51,200, queue_push 4,800; the other three sites
  // (load_rows 2,048 + register_name 320) are one figure, 2,368 bytes.
  assert.deepEqual(await momentRows(page), [
    ['load_config', '64.0 KiB', '53%'], ['make_message', '50.0 KiB', '41%'], ['queue_push', '4.69 KiB', '3.9%'],
    ['3 sites without a series', '2.31 KiB', '1.9%']]);
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
  assert.deepEqual(await texts(page, '.moment-total'), ['87.8 KiB live in 141 blocks', '230 KiB live in 1,212 blocks']);
  // The same site has the same colour in both runs (load_config is in both).
  const colorOf = (n, name) => page.$$eval('.stacked-run', (runs, a) => {
    const row = Array.from(runs[a.n].querySelectorAll('.moment-table tr')).find((tr) => tr.textContent.indexOf(a.name) >= 0);
    return row.querySelector('.swatch').getAttribute('data-color');
  }, { n, name });
  assert.equal(await colorOf(0, 'load_config'), await colorOf(1, 'load_config'));
  // A click on the baseline's chart moves only the baseline's moment.
  await clickChart(page, 0.5, 0);
  assert.deepEqual(await page.$$eval('.stacked-run', (r) => r.map((e) => e.getAttribute('data-moment-index'))), ['5', '6']);
  await (await page.$('.stacked-panel')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'stacked-queue-diff');
  noProblems(page);
  await page.close();
});
