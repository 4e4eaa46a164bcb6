// The shapes of the heap: blocks by size, and by size and lifetime together
// (`sites[].size_histogram`, `blocks_by_size_and_lifetime` of the run and of a site,
// docs/format.md). DOM-free.
// Both use log2 buckets: bucket 0 holds 0, bucket i >= 1 holds 2^(i-1) <= x < 2^i.
// Profiles written before these fields existed have neither: the views say so.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.shapes = (function () {
  var f = LH.format;
  var BUCKETS = 64;

  // [lowest, highest] value of bucket i (both included).
  function bounds(i) {
    if (i === 0) return [0, 0];
    return [Math.pow(2, i - 1), Math.pow(2, i) - 1];
  }
  function sizeText(i) {
    var b = bounds(i);
    return b[0] === b[1] ? f.bytes(b[0]) : f.bytes(b[0]) + '–' + f.bytes(b[1]);
  }
  function lifetimeText(i) {
    var b = bounds(i);
    return (b[0] === b[1] ? f.count(b[0]) : f.count(b[0]) + '–' + f.count(b[1])) + ' instr';
  }
  // The bucket of a value (the run's duration, to mark it on a lifetime axis).
  function bucketOf(x) { return x > 0 ? Math.min(BUCKETS - 1, Math.floor(Math.log2(x)) + 1) : 0; }

  function isCount(v) { return typeof v === 'number' && v >= 0 && Math.floor(v) === v; }

  // The profile's grid, checked: null when absent or not drawable (a reader that cannot
  // draw a field drops it, as for an access map).
  function validGrid(cells) {
    if (!Array.isArray(cells)) return false;
    for (var k = 0; k < cells.length; k++) {
      var c = cells[k];
      if (!Array.isArray(c) || c.length !== 3 || !isCount(c[0]) || !isCount(c[1]) || !isCount(c[2]) || c[0] >= BUCKETS || c[1] >= BUCKETS) return false;
    }
    return true;
  }
  function validHistogram(h) {
    if (!Array.isArray(h) || h.length > BUCKETS) return false;
    for (var k = 0; k < h.length; k++) if (!isCount(h[k])) return false;
    return true;
  }

  // { cells: [[size, life, blocks]], total, max, size: [lo, hi], life: [lo, hi] } or null.
  function grid(profile) {
    return gridOf(profile.blocks_by_size_and_lifetime);
  }
  function gridOf(cells) {
    if (!cells) return null;
    var out = { cells: cells, total: 0, max: 0, size: [BUCKETS, -1], life: [BUCKETS, -1] };
    cells.forEach(function (c) {
      if (c[2] === 0) return;
      out.total += c[2];
      out.max = Math.max(out.max, c[2]);
      out.size = [Math.min(out.size[0], c[0]), Math.max(out.size[1], c[0])];
      out.life = [Math.min(out.life[0], c[1]), Math.max(out.life[1], c[1])];
    });
    if (out.total === 0) { out.size = [0, 0]; out.life = [0, 0]; }
    return out;
  }

  // One site's blocks by size and lifetime, as grid() gives the run's, or null when the
  // profile cannot tell. The tool writes `sites[].blocks_by_size_and_lifetime` only for a
  // site whose blocks have two size classes or more; with one size class s, row s is the
  // site's lifetime histogram (format.md). A site with several classes but no grid comes
  // from a lifeheap that did not write it.
  function siteCells(site) {
    if (!site || !site.size_histogram) return null;
    if (site.blocks_by_size_and_lifetime) return site.blocks_by_size_and_lifetime;
    var classes = [];
    site.size_histogram.forEach(function (n, i) { if (n > 0) classes.push(i); });
    if (classes.length > 1) return null;
    if (classes.length === 0) return [];
    var cells = [];
    site.lifetime.histogram.forEach(function (n, l) { if (n > 0) cells.push([classes[0], l, n]); });
    return cells;
  }
  function siteGrid(site) { return gridOf(siteCells(site)); }

  // The run's blocks by size bucket (the grid summed over lifetimes), or null.
  function runSizeHistogram(profile) {
    var cells = profile.blocks_by_size_and_lifetime;
    if (!cells) return null;
    var h = [];
    cells.forEach(function (c) {
      while (h.length <= c[0]) h.push(0);
      h[c[0]] += c[2];
    });
    return h;
  }

  return { bounds: bounds, sizeText: sizeText, lifetimeText: lifetimeText, bucketOf: bucketOf, grid: grid, siteCells: siteCells, siteGrid: siteGrid,
    runSizeHistogram: runSizeHistogram, validGrid: validGrid, validHistogram: validHistogram, BUCKETS: BUCKETS };
})();
