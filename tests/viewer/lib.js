// Shared helpers for the viewer's browser tests: launch Debian's Chromium through
// playwright-core (never a downloaded browser), open the built viewer from file://, and
// build a self-contained report the way `lifeheap view` does (docs/viewer.md).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const VIEWER = path.join(ROOT, 'viewer');
const DIST = path.join(VIEWER, 'dist');
const FIXTURES = path.join(__dirname, 'fixtures');
const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts', 'viewer');
const CHROMIUM = process.env.LIFEHEAP_CHROMIUM || '/usr/bin/chromium';

const { chromium } = require(path.join(VIEWER, 'node_modules', 'playwright-core'));

async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifeheap-viewer-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync', '--disable-quic'],
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// A new page that records console errors, page errors, CSP violations and any request
// that leaves file:// (the viewer must make none).
// The browser profile is shared by a file's tests, so the sites table's remembered
// column groups (localStorage) are cleared first unless options.keepStorage.
async function newPage(browser, options) {
  const page = await browser.context.newPage();
  if (!(options && options.keepStorage)) {
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('lifeheap-test-started')) {
        sessionStorage.setItem('lifeheap-test-started', '1');
        try { localStorage.removeItem('lifeheap.viewer.columnGroups'); } catch (e) { /* file:// may refuse storage */ }
      }
    });
  }
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file://') && !url.startsWith('data:') && !url.startsWith('blob:')) problems.push('network: ' + url);
  });
  page.problems = problems;
  return page;
}

function fileUrl(p) { return 'file://' + p; }

async function waitState(page, wanted) {
  await page.waitForFunction((w) => {
    const s = document.body && document.body.getAttribute('data-state');
    return w.indexOf(s) >= 0;
  }, wanted, { timeout: 30000 });
  return page.evaluate(() => document.body.getAttribute('data-state'));
}

async function openViewer(page, query) {
  await page.goto(fileUrl(path.join(DIST, 'index.html')) + (query || ''));
  return waitState(page, ['empty', 'ready', 'error']);
}

// The number of loads the page has finished (ready or error).
function finishedLoads(page) {
  return page.evaluate(() => Number(document.body.getAttribute('data-loads') || 0));
}

// Waits for the load after `before` finished loads to end; returns "ready" or "error".
async function waitNextLoad(page, before) {
  await page.waitForFunction((n) => Number(document.body.getAttribute('data-loads') || 0) > n, before, { timeout: 30000 });
  return page.evaluate(() => document.body.getAttribute('data-state'));
}

async function openFile(page, file) {
  const before = await finishedLoads(page);
  await page.setInputFiles('#open-file', file);
  return waitNextLoad(page, before);
}

async function openBaseline(page, file) {
  const before = await finishedLoads(page);
  await page.setInputFiles('#open-baseline', file);
  return waitNextLoad(page, before);
}

// What `lifeheap view` produces: each <script src> / <link rel=stylesheet> of
// dist/index.html replaced by its file's bytes, and the profile in a JSON data block with
// every "<" escaped as \u003c so no profile string can close the element.
function selfContained(profileText, baselineText) {
  let html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  html = html.replace(/<script src="([^"]+)"><\/script>/g, (m, src) =>
    '<script>' + fs.readFileSync(path.join(DIST, src), 'utf8') + '</script>');
  html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (m, href) =>
    '<style>' + fs.readFileSync(path.join(DIST, href), 'utf8') + '</style>');
  const escape = (t) => t.replace(/</g, '\\u003c');
  let data = '<script type="application/json" id="lifeheap-profile">' + escape(profileText) + '</script>\n';
  if (baselineText) data += '<script type="application/json" id="lifeheap-baseline">' + escape(baselineText) + '</script>\n';
  return html.replace('</body>', data + '</body>');
}

async function screenshot(page, name, options) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, name + '.png');
  // From the top, so the sticky top bar is not painted in the middle of a full page.
  if (options && options.fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot(Object.assign({ path: file }, options || {}));
  return file;
}

// A profile the tool wrote, as the viewer reads it: the members a version 2 profile
// leaves out put back by the viewer's own LH.profile.expandSite (docs/format.md,
// "Omitted members"), so tests read every figure by its name.
function readProfile(file) {
  globalThis.LH = globalThis.LH || {};
  if (!globalThis.LH.profile) require(path.join(VIEWER, 'src', 'model', 'profile.js'));
  const p = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (p.format_version >= 2) p.sites.forEach((s, i) => globalThis.LH.profile.expandSite(s, i, p.frames, p.allocator_stacks));
  return p;
}

module.exports = { ROOT, readProfile, VIEWER, DIST, FIXTURES, ARTIFACTS, launch, newPage, openViewer, openFile, openBaseline, finishedLoads, waitNextLoad, waitState, selfContained, screenshot, fileUrl };
