// A site's blocks by lifetime against size, on a real profile the tool writes at test
// time of tests/tool/progs/shapes.c, whose sites have known sizes: "switch" frees four
// blocks of 16 B then three of 300 B, "late" frees three of 16 B and keeps two of
// 4,096 B to the end (shapes.c says so). Their size classes are known exactly; their
// lifetimes (instructions) are read from the profile the tool wrote.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');
const lib = require('./lib');

const run = promisify(execFile);
const WORK = fs.mkdtempSync(path.join(require('os').tmpdir(), 'lifeheap-viewer-shapes-'));
const SOURCE = path.join(lib.ROOT, 'tests', 'tool', 'progs', 'shapes.c');
let browser, profile, profileFile;

// The line of the "SITE tag" comment in shapes.c: where the site allocates.
function lineOf(tag) {
  const lines = fs.readFileSync(SOURCE, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('/* SITE ' + tag + ' */'));
  assert.ok(at >= 0, 'shapes.c has site ' + tag);
  return at + 1;
}
function siteOf(tag) {
  const line = lineOf(tag);
  const found = profile.sites.filter((s) => {
    const frame = profile.frames[s.stack[s.name_frame]];
    return frame.file === 'shapes.c' && frame.line === line;
  });
  assert.equal(found.length, 1, 'one site at shapes.c:' + line);
  return found[0];
}

test.before(async () => {
  const program = path.join(WORK, 'shapes');
  await run('cc', ['-O0', '-g', '-fno-builtin', SOURCE, '-o', program]);
  profileFile = path.join(WORK, 'shapes.json');
  await run(path.join(lib.ROOT, 'scripts', 'run-lifeheap'), ['-q', '--lifeheap-out-file=' + profileFile, program], { cwd: WORK });
  profile = lib.readProfile(profileFile);
  browser = await lib.launch();
});
test.after(async () => {
  if (browser) await browser.close();
  fs.rmSync(WORK, { recursive: true, force: true });
});

async function openSite(page, tag) {
  const site = siteOf(tag);
  const row = page.locator('.vtable-rows .vrow', { has: page.locator('.loc', { hasText: 'shapes.c:' + lineOf(tag) }) });
  await row.click();
  await page.waitForFunction((id) => window.lifeheapViewer.state.selected === id, site.id);
  return site;
}

// Points at cell (size bucket, lifetime bucket) of the n-th heat map of the site detail.
async function pointAtCell(page, size, life, n) {
  const canvas = (await page.$$('#site-detail canvas.heatmap'))[n || 0];
  await canvas.scrollIntoViewIfNeeded();
  const layout = await canvas.evaluate((c) => Object.fromEntries(Array.from(c.attributes).filter((a) => a.name.startsWith('data-')).map((a) => [a.name.slice(5), Number(a.value)])));
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + layout.left + (size - layout['size-first'] + 0.5) * layout['cell-width'],
    box.y + layout.top + (layout['life-last'] - life + 0.5) * layout['cell-height']);
  return canvas.evaluate((c) => c.parentNode.parentNode.querySelector('.heat-readout').textContent);
}
// What the readout says of a cell, in the page's own formats (tested in number_format).
const readout = (page, n, size, life, total) => page.evaluate((a) => LH.format.exactCount(a.n) + (a.n === 1 ? ' block' : ' blocks') + ' of ' +
  a.size + ' that lived ' + LH.shapes.lifetimeText(a.life) + ' (' + LH.format.percent(a.n / a.total) + ' of the site\'s blocks)', { n, size, life, total });

test('site shapes: a site of two sizes shows each size\'s lifetimes, as the tool recorded them', async () => {
  const page = await lib.newPage(browser);
  await page.setViewportSize({ width: 1280, height: 800 });
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, profileFile), 'ready');

  // "late": 16 B is size bucket 5, 4,096 B bucket 13; the three freed blocks lived equally
  // long (one cell), the two kept ones to the end.
  const late = await openSite(page, 'late');
  const cells = late.blocks_by_size_and_lifetime;
  assert.ok(Array.isArray(cells), 'the tool wrote the site\'s grid');
  assert.deepEqual(cells.filter((c) => c[0] === 5).map((c) => c[2]), [3]);
  assert.equal(cells.filter((c) => c[0] === 13).reduce((a, c) => a + c[2], 0), 2);
  assert.deepEqual(cells.map((c) => c[0]).filter((s) => s !== 5 && s !== 13), []);
  const lives = cells.map((c) => c[1]);
  const layout = await page.$$eval('#site-detail canvas.heatmap', (cs) => cs.map((c) => [c.getAttribute('data-size-first'), c.getAttribute('data-life-last')]));
  assert.deepEqual(layout, [['5', String(Math.max(...lives))]]);
  const short = cells.find((c) => c[0] === 5);
  assert.equal(await pointAtCell(page, 5, short[1]), await readout(page, 3, '16 B–31 B', short[1], 5));
  for (const c of cells.filter((x) => x[0] === 13)) {
    assert.equal(await pointAtCell(page, 13, c[1]), await readout(page, c[2], '4.0 KiB–8.0 KiB', c[1], 5));
  }
  // A size between the two with no block: size bucket 9 (256 B-511 B).
  assert.equal(await pointAtCell(page, 9, short[1]), await readout(page, 0, '256 B–511 B', short[1], 5));
  await (await page.$('#site-detail .site-shapes')).scrollIntoViewIfNeeded();
  await lib.screenshot(page, 'site-heatmap-late');

  // "switch": four blocks of 16 B then three of 300 B (bucket 9), each row one cell.
  const sw = await openSite(page, 'switch');
  assert.deepEqual(sw.blocks_by_size_and_lifetime.map((c) => [c[0], c[2]]), [[5, 4], [9, 3]]);
  for (const c of sw.blocks_by_size_and_lifetime) {
    assert.equal(await pointAtCell(page, c[0], c[1]), await readout(page, c[2], c[0] === 5 ? '16 B–31 B' : '256 B–511 B', c[1], 7));
  }
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('site shapes: a site of several sizes from a profile without its grid says so', async () => {
  // The same profile with the late site's grid removed, as a lifeheap before it wrote one.
  const late = siteOf('late');
  const older = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
  assert.ok(Array.isArray(older.sites[late.id].blocks_by_size_and_lifetime));
  delete older.sites[late.id].blocks_by_size_and_lifetime;
  const olderFile = path.join(WORK, 'shapes-older.json');
  fs.writeFileSync(olderFile, JSON.stringify(older));
  const page = await lib.newPage(browser);
  await lib.openViewer(page);
  assert.equal(await lib.openFile(page, olderFile), 'ready');
  await openSite(page, 'late');
  assert.equal(await page.$$eval('#site-detail canvas.heatmap', (c) => c.length), 0);
  assert.equal(await page.$eval('#site-detail .site-shapes', (e) => e.textContent),
    'This profile has no blocks by size and lifetime for a site of several sizes (it was written by a lifeheap without them).');
  // A site of one size still has its map (its lifetimes are its row).
  await openSite(page, 'kept');
  assert.equal(await page.$$eval('#site-detail canvas.heatmap', (c) => c.length), 1);
  assert.deepEqual(page.problems, []);
  await page.close();
});
