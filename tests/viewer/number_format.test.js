// Sizes, shares and counts read the same in the tool, the lifeheap command and the
// viewer: common/lh_numbers.h (compiled here into tests/viewer/number_format.c, as the
// tool and the CLI compile it) and viewer/src/model/format.js get the same numbers and
// must print the same text; a few answers are also stated outright from the rules in
// docs/format.md ("Numbers for people").
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
require(path.join(ROOT, 'viewer', 'src', 'model', 'format.js'));
const LH = globalThis.LH;

const KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB, TiB = GiB * KiB, PiB = TiB * KiB;

// Every edge of the rules: unit boundaries, rounding halves (exact: 1.25 KiB is
// 1280 B), the last value before a unit (1,048,575 B), large values, shares at 0,
// below 0.1%, at 9.95%, 99%, just below and above 1, far above.
const sizes = [0, 1, 512, 1023, 1024, 1075, 1076, 1280, 1331, 1536, 313472, 313446, 235904,
  3672544, 10 * KiB - 52, 10 * KiB - 51, MiB - 1, MiB - 52, MiB - 51, MiB, 1.5 * MiB,
  GiB - 1, 3 * GiB + 7, TiB, 5 * PiB, 2000 * PiB, Number.MAX_SAFE_INTEGER];
const shares = [0, 1e-9, 0.00049, 0.0005, 0.00051, 0.004, 0.0125, 0.0995, 0.09949,
  0.0996, 0.1, 0.125, 0.5, 0.62, 0.985, 0.9849, 0.99, 0.9949, 0.995, 0.99949, 0.9995,
  0.99999, 1, 1.004, 1.005, 2.5, 123.456, -0.62, -0.0001, 1e20];
const counts = [0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890, Number.MAX_SAFE_INTEGER];

function cPrinter() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-numbers-'));
  const binary = path.join(dir, 'number_format');
  execFileSync('gcc', ['-O2', '-Wall', '-Wextra', '-Werror', '-I' + path.join(ROOT, 'common'),
    '-o', binary, path.join(__dirname, 'number_format.c')]);
  return { dir, binary };
}

test('numbers: the C formatter and format.js agree on every number', () => {
  const { dir, binary } = cPrinter();
  const lines = [], expected = [];
  for (const n of sizes) {
    lines.push('bytes ' + BigInt(n));
    expected.push(LH.format.bytes(n));
    lines.push('signed_bytes -' + BigInt(n));
    expected.push(LH.format.bytes(-n));
  }
  for (const f of shares) {
    lines.push('percent ' + f.toPrecision(17));
    expected.push(LH.format.percent(f));
  }
  for (const n of counts) {
    lines.push('count ' + BigInt(n));
    expected.push(LH.format.exactCount(n));
  }
  const got = execFileSync(binary, { input: lines.join('\n') + '\n' }).toString().split('\n');
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(got.length - 1, expected.length);
  for (let i = 0; i < expected.length; i++)
    assert.equal(got[i], expected[i], 'for "' + lines[i] + '": C says ' + got[i] + ', format.js ' + expected[i]);
});

test('numbers: answers from the rules', () => {
  const b = LH.format.bytes, p = LH.format.percent;
  assert.equal(b(1023), '1023 B');
  assert.equal(b(1024), '1.0 KiB');
  assert.equal(b(1280), '1.3 KiB');            // 1.25 KiB: half up
  assert.equal(b(313472), '306.1 KiB');        // 306.125 KiB
  assert.equal(b(10 * KiB - 52), '9.9 KiB');   // 9.949 KiB
  assert.equal(b(10 * KiB - 51), '10.0 KiB');  // 9.950 KiB
  assert.equal(b(MiB - 52), '1023.9 KiB');
  assert.equal(b(MiB - 51), '1.0 MiB');        // 1023.95 KiB would round to 1024.0 KiB
  assert.equal(b(-1536), '-1.5 KiB');
  assert.equal(b(2000 * PiB), '2000.0 PiB');
  assert.equal(p(0), '0%');
  assert.equal(p(1e-9), '<0.1%');
  assert.equal(p(0.0005), '0.1%');
  assert.equal(p(0.0995), '10%');
  assert.equal(p(0.62), '62%');
  assert.equal(p(0.9849), '98%');
  assert.equal(p(0.99), '99.0%');
  assert.equal(p(0.99999), '99.9%');           // below 1 never reads 100%
  assert.equal(p(1), '100%');
  assert.equal(p(2.5), '250%');
  assert.equal(p(-0.62), '-62%');
  assert.equal(LH.format.exactCount(1234567), '1,234,567');
});
