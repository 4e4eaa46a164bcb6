// Every file in tests/viewer/fixtures/ is checked against the profile contract
// (docs/lifeheap-profile.schema.json, through tests/lib/profile_check.py): a fixture
// that stands for a profile the tool writes validates and keeps the tables contract; one
// damaged on purpose fails for the reason it was damaged, and only for it. A fixture in
// neither list fails the test, so a new one says which it is.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const lib = require('./lib');

const CHECK = path.join(lib.ROOT, 'tests', 'lib', 'profile_check.py');

// Profiles as the tool writes them: hand-written (make_fixtures.js, version 1 in full)
// or real output (record_rust_conns.sh, version 2).
const VALID = ['queue_bad.json', 'queue_fixed.json', 'partial.json', 'no_sites.json', 'rust_conns.json', 'rust_conns_cgu1.json'];
// Damaged on purpose (make_fixtures.js says how): the one schema failure each must give.
const DAMAGED = {
  'bad_map.json': /^FAIL bad_map\.json: valid: 1 schema errors, first at \/sites\/0\/access\/map: /,
  'bad_sites.json': /^FAIL bad_sites\.json: valid: 1 schema errors, first at \/sites: \{'not': 'an array'\} is not of type 'array'$/,
  'hostile.json': /^FAIL hostile\.json: valid: 1 schema errors, first at \/findings\/0\/kind: '<i>unknown-kind<\/i>' is not one of /,
  'wrong_version.json': /^FAIL wrong_version\.json: valid: 1 schema errors, first at \/format_version: 3 is not one of \[1, 2\]$/,
  'dhat.json': /^FAIL dhat\.json: valid: \d+ schema errors, first at \/: Additional properties are not allowed \('dhatFileVersion'/,
  'truncated.json': /^FAIL truncated\.json: profile readable: /,
  'not_json.txt': /^FAIL not_json\.txt: profile readable: /,
};
const GENERATORS = ['make_fixtures.js', 'record_rust_conns.sh'];

function check(name, assertions) {
  const run = spawnSync('python3', [CHECK, '--one', name, path.join(lib.FIXTURES, name)].concat(assertions), { encoding: 'utf8' });
  assert.equal(run.status, 0, name + ': ' + run.stderr);
  return run.stdout.trim();
}

test('fixtures: every viewer fixture is either a valid profile or damaged on purpose', () => {
  const files = fs.readdirSync(lib.FIXTURES).filter((f) => !GENERATORS.includes(f)).sort();
  assert.deepEqual(files, VALID.concat(Object.keys(DAMAGED)).sort());
});

test('fixtures: the profiles validate against the schema and keep the tables contract', () => {
  for (const name of VALID) assert.equal(check(name, ['valid', 'contract:tables']), 'PASS ' + name);
});

test('fixtures: the profiles carry a site key for every site (the viewer pairs by keys only)', () => {
  for (const name of VALID.filter((n) => n !== 'no_sites.json')) {
    assert.equal(check(name, ['all:sites[*].match_key~(.+\\t.*\\n)+', 'all:sites[*].match_lines.#>=1']), 'PASS ' + name);
  }
});

test('fixtures: the damaged ones fail for the reason they were damaged', () => {
  for (const [name, reason] of Object.entries(DAMAGED)) assert.match(check(name, ['valid']), reason, name);
});
