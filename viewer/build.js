// Builds viewer/dist/: the page, one classic script of our modules (concatenated in
// dependency order, so it works from file:// where ES modules and workers are blocked),
// the vendored uPlot script, and one stylesheet.
//
// The Content-Security-Policy lists the SHA-256 of every script and stylesheet, so the
// page stays under the same strict policy when `lifeheap view` inlines those files
// byte for byte into <script>/<style> elements (see docs/viewer.md, "Self-contained
// report"). The build refuses files that could not be inlined safely.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const HERE = __dirname;
const DIST = path.join(HERE, 'dist');
const MODULES = [
  'model/format.js', 'model/evidence.js', 'model/shapes.js', 'model/metrics.js', 'model/chunked_json.js', 'model/profile.js', 'model/model.js', 'model/diff.js', 'model/tree.js', 'model/moments.js',
  'views/dom.js', 'views/charts.js', 'views/summary.js', 'views/headline.js', 'views/findings.js', 'views/sites_table.js',
  'views/site_detail.js', 'views/call_tree.js', 'views/timeline_view.js', 'views/stacked_view.js', 'views/shapes_view.js', 'app.js',
];
const UPLOT_DIR = path.join(HERE, 'node_modules', 'uplot');
// The consistency rules of a profile, shared with the CLI (cli/profile_rules.c), built
// in as a module of their own just before model/profile.js, which enforces them.
const RULES = path.join(HERE, '..', 'docs', 'profile-rules.json');
// What a finding's evidence is called and in which unit it is shown, shared with the
// CLI (cli/evidence_labels.c), built in just before model/evidence.js.
const LABELS = path.join(HERE, '..', 'docs', 'evidence-labels.json');
// The metrics table (docs/metrics.json), shared with the CLI (cli/metrics_table.inc is
// generated from it), built in as LH.metricTable just before model/metrics.js.
const METRIC_TABLE = path.join(HERE, '..', 'docs', 'metrics.json');

function read(p) { return fs.readFileSync(p, 'utf8'); }
function sha256(text) { return "'sha256-" + crypto.createHash('sha256').update(text, 'utf8').digest('base64') + "'"; }
function checkInlinable(name, text, closing) {
  if (text.toLowerCase().indexOf(closing) >= 0) throw new Error(name + ' contains ' + closing + ' and could not be inlined');
}

const uplotVersion = JSON.parse(read(path.join(UPLOT_DIR, 'package.json'))).version;
const viewerVersion = JSON.parse(read(path.join(HERE, 'package.json'))).version;
const rulesModule = "'use strict';\nvar LH = globalThis.LH = globalThis.LH || {};\nLH.profileRules = " +
  JSON.stringify(JSON.parse(read(RULES))) + ';\n';
const labelsModule = "'use strict';\nvar LH = globalThis.LH = globalThis.LH || {};\nLH.evidenceLabels = " +
  JSON.stringify(JSON.parse(read(LABELS))) + ';\n';
const metricTableModule = "'use strict';\nvar LH = globalThis.LH = globalThis.LH || {};\nLH.metricTable = " +
  JSON.stringify(JSON.parse(read(METRIC_TABLE))) + ';\n';
const script = '/* lifeheap viewer ' + viewerVersion + ' — GPL-3.0-or-later. Built from viewer/src by build.js. */\n' +
  MODULES.map((m) => (m === 'model/profile.js' ? '/* ---- docs/profile-rules.json ---- */\n' + rulesModule + '\n' : '') +
    (m === 'model/evidence.js' ? '/* ---- docs/evidence-labels.json ---- */\n' + labelsModule + '\n' : '') +
    (m === 'model/metrics.js' ? '/* ---- docs/metrics.json ---- */\n' + metricTableModule + '\n' : '') +
    '/* ---- ' + m + ' ---- */\n' + read(path.join(HERE, 'src', m))).join('\n');
const uplotScript = read(path.join(UPLOT_DIR, 'dist', 'uPlot.iife.min.js'))
  .replace(/\n?\/\/# sourceMappingURL=.*\s*$/, '\n');
const style = '/* uPlot ' + uplotVersion + ' (MIT) */\n' + read(path.join(UPLOT_DIR, 'dist', 'uPlot.min.css')) + '\n' +
  read(path.join(HERE, 'src', 'viewer.css'));

checkInlinable('lifeheap-viewer.js', script, '</script');
checkInlinable('uPlot.iife.min.js', uplotScript, '</script');
checkInlinable('lifeheap-viewer.css', style, '</style');

const csp = [
  "default-src 'none'",
  "script-src 'self' " + sha256(uplotScript) + ' ' + sha256(script),
  "style-src 'self' " + sha256(style),
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

fs.rmSync(DIST, { recursive: true, force: true });
fs.mkdirSync(DIST);
fs.writeFileSync(path.join(DIST, 'lifeheap-viewer.js'), script);
fs.writeFileSync(path.join(DIST, 'uPlot.iife.min.js'), uplotScript);
fs.writeFileSync(path.join(DIST, 'lifeheap-viewer.css'), style);
fs.copyFileSync(path.join(UPLOT_DIR, 'LICENSE'), path.join(DIST, 'uPlot.LICENSE'));
fs.writeFileSync(path.join(DIST, 'index.html'), read(path.join(HERE, 'src', 'index.html')).replace('@CSP@', csp));
console.log('viewer/dist built: index.html, lifeheap-viewer.js (' + script.length + ' bytes), uPlot ' + uplotVersion);
