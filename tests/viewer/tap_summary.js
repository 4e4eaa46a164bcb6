// Turns node's TAP output into the suite's "PASS name" / "FAIL name: reason" lines and
// the final "N passed, N failed, N skipped" line (a test node skips or leaves TODO
// is a "SKIP name: reason" line, counted; a failure is followed by its YAML block,
// indented); exits 1 when anything failed (or nothing ran).
'use strict';
const fs = require('fs');
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n');
let passed = 0, failed = 0, skipped = 0;
for (let i = 0; i < lines.length; i++) {
  // Top-level test points only (no indentation).
  const m = /^(ok|not ok) \d+ - (.*?)(?: # (SKIP|TODO)\b(.*))?$/.exec(lines[i]);
  if (!m) continue;
  const name = m[2];
  if (m[3]) { skipped++; console.log('SKIP ' + name + ': ' + (m[3] + ' ' + (m[4] || '')).trim()); continue; }
  if (m[1] === 'ok') { passed++; console.log('PASS ' + name); continue; }
  failed++;
  // The YAML block after a failure holds "error: ..." (possibly "|-" then indented lines).
  let reason = '';
  for (let j = i + 1; j < lines.length && /^\s/.test(lines[j]); j++) {
    const e = /^\s+error:\s*(.*)$/.exec(lines[j]);
    if (e) {
      reason = e[1] === '|-' || e[1] === '|' ? (lines[j + 1] || '').trim() : e[1].replace(/^'|'$/g, '');
      break;
    }
  }
  console.log('FAIL ' + name + ': ' + (reason || 'see tests/artifacts/viewer/tap.txt'));
  // The whole block (the assertion's expected and actual values, the failing line) goes
  // to the log too, indented, so that a failure on a CI machine can be read from there.
  const block = [];
  for (let j = i + 1; j < lines.length && /^\s/.test(lines[j]) && block.length < 60; j++) block.push(lines[j]);
  for (const line of block) console.log('    | ' + line.trim());
}
if (passed + failed === 0) { failed = 1; console.log('FAIL viewer tests: no test ran (see tests/artifacts/viewer/tap.txt)'); }
console.log(passed + ' passed, ' + failed + ' failed, ' + skipped + ' skipped');
process.exit(failed > 0 ? 1 : 0);
