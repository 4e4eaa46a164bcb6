// The viewer's DOM-free model (viewer/src/model) loaded into node the way the page loads
// it: the shared rule and metric tables from docs/ first, then the model's files in the
// page's order. Returns globalThis.LH.
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const MODULES = ['format', 'shapes', 'metrics', 'chunked_json', 'profile', 'model', 'diff', 'tree'];

function loadModel() {
  globalThis.LH = globalThis.LH || {};
  globalThis.LH.profileRules = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'profile-rules.json'), 'utf8'));
  globalThis.LH.metricTable = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'metrics.json'), 'utf8'));
  for (const m of MODULES) require(path.join(ROOT, 'viewer', 'src', 'model', m + '.js'));
  return globalThis.LH;
}

module.exports = { loadModel };
