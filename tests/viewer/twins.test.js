// Sites the compiler duplicated (twins: one source stack at two code addresses) make one
// diff row in both readers, with the same figures. Real profiles: tests/cli/progs/twins.c
// built with two calls of make_item on one line (twins_two.json: two sites) and with one
// (twins_one.json: one site), recorded by fixtures/record_twins.sh. From the program: 30
// items of 48 bytes (1440 B), all live at the peak, 6 left at exit (288 B), 24 freed, 40
// bytes of each written (1200 B), one byte read; a 4096-byte buffer is a row of its own.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'cli', 'lifeheap');
const FIXTURES = path.join(__dirname, 'fixtures');
const LH = require('./node_model').loadModel();

const load = (name) => LH.profile.load(fs.readFileSync(path.join(FIXTURES, name), 'utf8'), name);
const itemSites = (model) => model.sites.map((s, i) => i).filter((i) => model.sites[i].label.startsWith('make_item'));

for (const [baseName, changedName] of [['twins_two.json', 'twins_one.json'], ['twins_one.json', 'twins_two.json']]) {
  test('twins: ' + baseName + ' -> ' + changedName + ': one row, the twins\' figures combined', async () => {
    const base = await load(baseName), changed = await load(changedName);
    const twinModel = baseName === 'twins_two.json' ? base : changed;
    // The premise: two make_item sites of one key and lines in the two-call build.
    const twins = itemSites(twinModel);
    assert.equal(twins.length, 2);
    assert.equal(twinModel.sites[twins[0]].match_key, twinModel.sites[twins[1]].match_key);
    assert.deepEqual(twinModel.sites[twins[0]].match_lines, twinModel.sites[twins[1]].match_lines);
    const d = new LH.Diff(base, changed);
    assert.equal(d.length, 2);
    const row = d.rowOfBase[itemSites(base)[0]];
    assert.deepEqual(d.rowBaseSites[row], itemSites(base));
    assert.deepEqual(d.rowChangedSites[row], itemSites(changed));
    assert.equal(d.status(row), 'both');
    const figures = (side) => ['total_bytes', 'total_blocks', 'bytes_at_peak', 'blocks_at_peak', 'bytes_at_exit',
      'blocks_at_exit', 'freed_blocks', 'bytes_written', 'bytes_read', 'never_read_bytes', 'max_bytes', 'max_blocks']
      .map((id) => d.sideValue(row, id, side));
    const expected = [1440, 30, 1440, 30, 288, 6, 24, 1200, 1, 1439, 1440, 30];
    assert.deepEqual(figures('base'), expected);
    assert.deepEqual(figures('changed'), expected);
    assert.equal(d.deltaColumn('total_bytes')[row], 0);
    // Lifetimes from the twins' own fields: the longest, and the average over all blocks.
    const sites = itemSites(twinModel).map((i) => twinModel.sites[i]);
    const side = twinModel === base ? 'base' : 'changed';
    assert.equal(d.sideValue(row, 'max_lifetime', side), Math.max(...sites.map((s) => s.lifetime.max)) / twinModel.duration);
    assert.equal(d.sideValue(row, 'min_lifetime', side), Math.min(...sites.map((s) => s.lifetime.min)));
    assert.equal(d.sideValue(row, 'avg_lifetime', side),
      (sites[0].lifetime.sum + sites[1].lifetime.sum) / (sites[0].total_blocks + sites[1].total_blocks) / twinModel.duration);
    assert.equal(d.sideValue(row, 'first_alloc_time', side), Math.min(...sites.map((s) => s.first_alloc_time)));
    // The histograms and the timeline series add up; growth does not combine.
    const combined = d.rowSite(row, side);
    assert.deepEqual(combined.size_histogram, sites[0].size_histogram.map((n, i) => n + sites[1].size_histogram[i]));
    assert.equal(combined.timeline.live_bytes.reduce((a, b) => Math.max(a, b), 0), 1440);
    assert.equal(combined.growth, null);
    assert.ok(Number.isNaN(d.sideValue(row, 'rising_fraction', side)));
    // Each run's rows add up to its totals.
    for (const [id, total] of [['total_bytes', (m) => m.profile.totals.bytes], ['bytes_at_exit', (m) => m.profile.at_exit.bytes]]) {
      for (const s of ['base', 'changed']) {
        const rows = Array.from(d.sideColumn(id, s)).reduce((a, b) => a + b, 0);
        assert.equal(rows, total(s === 'base' ? base : changed), id + ' ' + s);
      }
    }
  });

  test('twins: ' + baseName + ' -> ' + changedName + ': the CLI lists the same rows with the same numbers', async () => {
    const base = await load(baseName), changed = await load(changedName);
    const d = new LH.Diff(base, changed);
    const cli = spawnSync(CLI, ['diff', path.join(FIXTURES, baseName), path.join(FIXTURES, changedName), '--format', 'json', '--top', '0'],
      { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const cliRows = JSON.parse(cli.stdout).sites;
    const key = (b, c) => b.join('+') + '>' + c.join('+');
    const viewerRows = new Map();
    for (let r = 0; r < d.length; r++) viewerRows.set(key(d.rowBaseSites[r], d.rowChangedSites[r]), r);
    assert.deepEqual(cliRows.map((s) => key(s.base_ids, s.new_ids)).sort(), Array.from(viewerRows.keys()).sort());
    // Every metric both readers show (a CLI name and a viewer column), on both sides.
    const shared = LH.metricTable.filter((e) => e.name && e.column && e.site);
    assert.ok(shared.length >= 20, shared.length + ' shared metrics');
    let compared = 0;
    for (const s of cliRows) {
      const r = viewerRows.get(key(s.base_ids, s.new_ids));
      for (const e of shared) {
        for (const [cliSide, side] of [['base', 'base'], ['new', 'changed']]) {
          const fromCli = s.metrics[e.name][cliSide], fromViewer = d.sideValue(r, e.column, side);
          if (e.unit === 'share_of_run') {
            assert.ok(Math.abs(fromViewer * 100 - fromCli) <= 0.00005, e.name + ' ' + side + ': ' + fromCli + ' vs ' + fromViewer);
          } else {
            assert.equal(fromViewer, fromCli, e.name + ' ' + side + ' of row ' + key(s.base_ids, s.new_ids));
          }
          compared++;
        }
      }
    }
    assert.equal(compared, 2 * 2 * shared.length);
  });
}
