// The hostile profiles of tests/hostile/make_hostile.py, fed to the viewer's loader
// (DOM-free, in node) and to the page (Chromium): each must be refused with exactly the
// message the CLI gives (tests/cli/run.sh compares the CLI's with the same file), and a
// profile with a huge function name must load with the name capped.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'viewer', 'src', 'model');
const RULES = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'profile-rules.json'), 'utf8'));
globalThis.LH = globalThis.LH || {};
globalThis.LH.profileRules = RULES;   // what viewer/build.js builds in
globalThis.LH.metricTable = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'metrics.json'), 'utf8'));
for (const m of ['format', 'shapes', 'metrics', 'chunked_json', 'profile', 'model', 'diff', 'tree']) require(path.join(SRC, m + '.js'));
const LH = globalThis.LH;
const lib = require('./lib');

// A private corpus per run; the long name is 100 MB (the size that used to crash the page).
const CORPUS = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-hostile-'));
execFileSync('python3', [path.join(ROOT, 'tests', 'hostile', 'make_hostile.py'), CORPUS, '100']);
const EXPECTED = fs.readFileSync(path.join(CORPUS, 'expected.tsv'), 'utf8').trim().split('\n')
  .map((line) => line.split('\t'));
test.after(() => fs.rmSync(CORPUS, { recursive: true, force: true }));

// The viewer's whole path from bytes: strict UTF-8 decoding, then the loader.
async function viewerMessage(file) {
  try {
    await LH.profile.load(LH.profile.decode(fs.readFileSync(file)), path.basename(file));
  } catch (e) {
    assert.equal(e.name, 'ProfileError', file + ': ' + e.stack);
    return e.message;
  }
  return 'loaded';
}

test('hostile: the corpus covers every kind of check', () => {
  assert.ok(EXPECTED.length >= 30, 'only ' + EXPECTED.length + ' cases');
  for (const part of ['negative value', 'a number with a fraction', 'is more than run.duration', 'invalid UTF-8',
    'the document is null', 'format_version: expected an integer', 'sites[0].bytes_at_peak']) {
    assert.ok(EXPECTED.some(([, m]) => m.includes(part)), 'no case for ' + part);
  }
});

test('hostile: the viewer refuses each profile with the CLI\'s message', async () => {
  for (const [name, message] of EXPECTED) {
    assert.equal(await viewerMessage(path.join(CORPUS, name + '.json')), message, name);
  }
});

test('hostile: a 100 MB function name loads, capped to display_max_chars', async () => {
  const m = await LH.profile.load(LH.profile.decode(fs.readFileSync(path.join(CORPUS, 'long-name.json'))), 'long');
  const limit = RULES.display_max_chars;
  const shown = m.frames[0].function;
  const rest = 100 * 1024 * 1024 - limit;
  assert.equal(shown, 'f'.repeat(limit) + '\u2026 [' + rest + ' more characters]');
  assert.equal(m.siteName(0), shown);
  assert.equal(m.profile.run.command[3], '\u00e9'.repeat(limit) + '\u2026 [' + (1024 * 1024 - limit) + ' more characters]');
});

test('hostile: the page shows the same messages (Chromium)', async () => {
  const browser = await lib.launch();
  try {
    const page = await lib.newPage(browser);
    assert.equal(await lib.openViewer(page), 'empty');
    for (const [name, message] of EXPECTED) {
      assert.equal(await lib.openFile(page, path.join(CORPUS, name + '.json')), 'error', name);
      assert.equal(await page.$eval('#message', (e) => e.textContent), 'Could not open ' + name + '.json: ' + message, name);
    }
    // The 100 MB name: the page loads and shows the capped name, nothing crashes.
    assert.equal(await lib.openFile(page, path.join(CORPUS, 'long-name.json')), 'ready');
    const shown = await page.$eval('.vrow.selected .name .fn', (e) => e.textContent);
    assert.equal(shown.length, RULES.display_max_chars + ('\u2026 [' + (100 * 1024 * 1024 - RULES.display_max_chars) + ' more characters]').length);
    // No invalid frees in that profile: a header without the warning.
    assert.ok(await page.$('.summary [data-field=total]'), 'the header is shown');
    assert.equal(await page.$('.summary .invalid-frees'), null);
    // Invalid frees counted by the tool: one warning line in the header.
    const counted = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'queue_bad.json'), 'utf8'));
    counted.totals.invalid_frees = 2;
    counted.totals.invalid_reallocs = 1;
    fs.writeFileSync(path.join(CORPUS, 'invalid-frees.json'), JSON.stringify(counted));
    assert.equal(await lib.openFile(page, path.join(CORPUS, 'invalid-frees.json')), 'ready');
    assert.equal(await page.$eval('.summary .invalid-frees', (e) => e.textContent),
      'Invalid: 2 frees, 1 realloc of pointers that were not live heap blocks (ignored).');
    assert.deepEqual(page.problems, []);
    await page.close();
  } finally {
    await browser.close();
  }
});
