// sites[].match_key and match_lines (docs/format.md, "Site identity across runs"): the
// CLI and the viewer refuse the same malformed keys with the same messages, and both
// pair sites by the keys the profile carries rather than by their stacks.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'cli', 'lifeheap');
const LH = require('./node_model').loadModel();

// queue_bad.json with a key per site: "site<i>\tq.c\n", line i + 1.
function keyed() {
  const p = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'queue_bad.json'), 'utf8'));
  p.sites.forEach((s, i) => { s.match_key = 'site' + i + '\tq.c\n'; s.match_lines = [i + 1]; });
  return p;
}

async function viewerMessage(file) {
  try {
    await LH.profile.load(LH.profile.decode(fs.readFileSync(file)), path.basename(file));
    return 'loaded';
  } catch (e) { return e.message; }
}

test('match keys: the CLI and the viewer refuse the same malformed keys with the same message', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-match-key-'));
  const mutations = {
    'as written': () => {},
    'no key': (s) => { delete s.match_key; },
    'no lines': (s) => { delete s.match_lines; },
    'neither (an older profile)': (s) => { delete s.match_key; delete s.match_lines; },
    'key a number': (s) => { s.match_key = 3; },
    'key null': (s) => { s.match_key = null; },
    'lines a string': (s) => { s.match_lines = 'x'; },
    'one line too many': (s) => { s.match_lines.push(7); },
    'a negative line': (s) => { s.match_lines[0] = -1; },
    'a fractional line': (s) => { s.match_lines[0] = 1.5; },
  };
  const expected = {
    'as written': 'loaded', 'neither (an older profile)': 'loaded',
    'no key': 'sites[1].match_key: missing', 'no lines': 'sites[1].match_lines: missing',
    'key a number': 'sites[1].match_key: expected a string, found an integer',
    'key null': 'sites[1].match_key: expected a string, found null',
    'lines a string': 'sites[1].match_lines: expected an array, found a string',
    'one line too many': 'sites[1].match_lines: 2 lines for a match_key of 1 frames',
    'a negative line': 'sites[1].match_lines[0]: negative value -1',
    'a fractional line': 'sites[1].match_lines[0]: expected an integer, found a number with a fraction',
  };
  try {
    for (const [name, mutate] of Object.entries(mutations)) {
      const p = keyed();
      mutate(p.sites[1]);
      const file = path.join(dir, name.replace(/\W+/g, '_') + '.json');
      fs.writeFileSync(file, JSON.stringify(p));
      const cli = spawnSync(CLI, ['report', file, '--top', '1'], { encoding: 'utf8' });
      const cliMessage = cli.status === 0 ? 'loaded' : cli.stderr.trim().replace('lifeheap: ' + file + ': ', '');
      assert.equal(cliMessage, expected[name], 'CLI, ' + name);
      assert.equal(await viewerMessage(file), expected[name], 'viewer, ' + name);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('match keys: both readers pair sites by the profile\'s keys', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-match-key-'));
  try {
    const base = keyed(), changed = keyed();
    // The changed profile's sites 0 and 1 trade keys: the stacks stay, the pairing follows the keys.
    [changed.sites[0].match_key, changed.sites[1].match_key] = [changed.sites[1].match_key, changed.sites[0].match_key];
    [changed.sites[0].match_lines, changed.sites[1].match_lines] = [changed.sites[1].match_lines, changed.sites[0].match_lines];
    const baseFile = path.join(dir, 'base.json'), changedFile = path.join(dir, 'changed.json');
    fs.writeFileSync(baseFile, JSON.stringify(base));
    fs.writeFileSync(changedFile, JSON.stringify(changed));
    const d = new LH.Diff(await LH.profile.load(JSON.stringify(base), 'base'), await LH.profile.load(JSON.stringify(changed), 'changed'));
    const viewerPairs = [];
    for (let r = 0; r < d.length; r++) viewerPairs.push(d.rowBase[r] + '>' + d.rowChanged[r]);
    const cli = spawnSync(CLI, ['diff', baseFile, changedFile, '--format', 'json', '--top', '0'], { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const cliPairs = JSON.parse(cli.stdout).sites.map((s) => (s.base_id === null ? -1 : s.base_id) + '>' + (s.new_id === null ? -1 : s.new_id));
    const n = base.sites.length;
    const wanted = Array.from({ length: n }, (_, i) => (i === 0 ? '0>1' : i === 1 ? '1>0' : i + '>' + i));
    assert.deepEqual(viewerPairs.slice().sort(), wanted.slice().sort());
    assert.deepEqual(cliPairs.slice().sort(), wanted.slice().sort());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Sites sharing a key pair by their lines, the same in both readers: equal lines first,
// then line order; a twin of the changed run (same key and lines as a paired site)
// maps to its sibling's partner. The CLI's pairs and the viewer's rows are compared as sorted "base>new" lists.
test('match keys: both readers pair the sites of one key by their lines alike', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-match-lines-'));
  // Sites 0 and 1 share key "f", with these lines; the others keep a key of their own.
  const withLines = (lines) => {
    const p = keyed();
    lines.forEach((l, i) => { p.sites[i].match_key = 'f\tq.c\n'; p.sites[i].match_lines = [l]; });
    return p;
  };
  const cases = [
    ['equal lines, sites swapped', [10, 20], [20, 10], ['0>1', '1>0']],
    ['every line shifted', [10, 20], [25, 15], ['0>1', '1>0']],
    ['one equal, one shifted', [10, 20], [10, 21], ['0>0', '1>1']],
    ['twins in the changed run', [10], [10, 10], ['0>0', '0>1', '1>-1']],
  ];
  try {
    for (const [name, baseLines, changedLines, wanted] of cases) {
      const base = withLines(baseLines), changed = withLines(changedLines);
      const baseFile = path.join(dir, 'base.json'), changedFile = path.join(dir, 'changed.json');
      fs.writeFileSync(baseFile, JSON.stringify(base));
      fs.writeFileSync(changedFile, JSON.stringify(changed));
      const ofKey = (pairs) => pairs.filter((p) => /(^|>)[01]$|^[01]>/.test(p)).sort();
      const d = new LH.Diff(await LH.profile.load(JSON.stringify(base), 'base'), await LH.profile.load(JSON.stringify(changed), 'changed'));
      const viewerPairs = [];
      for (let r = 0; r < d.length; r++) viewerPairs.push(d.rowBase[r] + '>' + d.rowChanged[r]);
      const cli = spawnSync(CLI, ['diff', baseFile, changedFile, '--format', 'json', '--top', '0'], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      const cliPairs = JSON.parse(cli.stdout).sites.map((s) => (s.base_id === null ? -1 : s.base_id) + '>' + (s.new_id === null ? -1 : s.new_id));
      assert.deepEqual(ofKey(viewerPairs), wanted, 'viewer, ' + name);
      assert.deepEqual(ofKey(cliPairs), wanted, 'CLI, ' + name);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
