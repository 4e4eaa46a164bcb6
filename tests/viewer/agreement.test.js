// The CLI and the viewer read profiles the same way: every single-field mutation of a
// valid profile (tests/hostile/make_mutations.py: each field deleted or replaced by
// null, -1, 1.5, "x", true, [], {}, 0 or 10^17) is loaded by both or refused by both
// with the same message. The only differences allowed are the viewer's two needs the
// CLI does not have, each named in docs/viewer.md: a site's access figures and the
// timeline (the CLI also reads older profiles without them).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'cli', 'lifeheap');
const LH = require('./node_model').loadModel();

const ALLOWED = /^(sites\[\d+\]\.access|timeline): (missing|expected an object, found null)$/;

test('agreement: the CLI and the viewer accept and refuse the same mutated profiles, with the same messages',
  { skip: fs.existsSync(CLI) ? false : 'SKIP: cli/lifeheap is not built' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-mutations-'));
    try {
      const count = Number(execFileSync('python3', [path.join(ROOT, 'tests', 'hostile', 'make_mutations.py'), dir]));
      assert.ok(count > 1000, count + ' mutations');
      const differences = [];
      let refused = 0;
      for (let i = 0; i < count; i++) {
        const file = path.join(dir, 'm' + String(i).padStart(5, '0') + '.json');
        const cli = spawnSync(CLI, ['report', file, '--top', '1'], { encoding: 'utf8' });
        const cliMessage = cli.status === 0 ? 'loaded' : cli.stderr.trim().replace('lifeheap: ' + file + ': ', '');
        let viewerMessage = 'loaded';
        try {
          await LH.profile.load(LH.profile.decode(fs.readFileSync(file)), path.basename(file));
        } catch (e) {
          assert.equal(e.name, 'ProfileError', file + ': ' + e.stack);
          viewerMessage = e.message;
        }
        if (cliMessage !== 'loaded') refused++;
        if (cliMessage === viewerMessage) continue;
        if (cliMessage === 'loaded' && ALLOWED.test(viewerMessage)) continue;
        differences.push(fs.readFileSync(file.replace(/json$/, 'txt'), 'utf8') + ': CLI "' + cliMessage + '", viewer "' + viewerMessage + '"');
      }
      assert.ok(refused > count / 2, 'only ' + refused + ' of ' + count + ' refused: the mutations do not test much');
      assert.deepEqual(differences, []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
