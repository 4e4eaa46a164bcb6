// Loads a DHAT-format file with DHAT's own viewer code (dh_view.js from the
// Valgrind installation) and prints the root totals it computes, so the
// test checks `lifeheap report --format dhat` against the real consumer's
// checks (required fields, version 2, no repeated program points) rather
// than a re-implementation of them.
// usage: node dh_view_check.js DH_VIEW_JS FILE
'use strict';
const fs = require('fs');
const vm = require('vm');

const [viewerPath, dataPath] = process.argv.slice(2);
// The smallest DOM dh_view.js touches while loading and building its tree.
const element = () => ({
  appendChild() {}, classList: { add() {}, contains() { return false; } },
  addEventListener() {}, style: {}, childNodes: [],
});
const context = {
  document: { title: '', body: element(), createElement: element,
              createTextNode: element, addEventListener() {} },
  window: { addEventListener() {}, location: { search: '' } },
  Intl, console, JSON, Math, Error, Infinity,
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(viewerPath, 'utf8'), context);
context.dataText = fs.readFileSync(dataPath, 'utf8');
const result = vm.runInContext(`
  gData = JSON.parse(dataText);
  gSelect = { childNodes: gSelectData.map(() => ({})), selectedIndex: 0 };
  buildTree();
  JSON.stringify({
    total_bytes: gRoot._totalBytes, total_blocks: gRoot._totalBlocks,
    total_lifetimes: gRoot._totalLifetimes,
    at_tgmax_bytes: gRoot._atTGmaxBytes, at_tgmax_blocks: gRoot._atTGmaxBlocks,
    at_tend_bytes: gRoot._atTEndBytes, at_tend_blocks: gRoot._atTEndBlocks,
    reads_bytes: gRoot._readsBytes, writes_bytes: gRoot._writesBytes,
    pps: gData.pps.length, frames: gData.ftbl.length });
`, context);
console.log(result);
