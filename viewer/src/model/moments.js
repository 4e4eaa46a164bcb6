// The heap by site over the run, and what was live at one moment. DOM-free.
//
// Bands: the sites that have a series of their own (`sites[].timeline`: the significant
// ones, docs/format.md), the largest by their own maximum first, up to `maxBands` of
// them; everything else is one "other sites" band, computed at each point as the global
// live bytes minus the bands above it. Every timeline point is an exact sample of the heap
// (metrics.md, "Timeline and growth"), so the bands are exact at each point; only what
// happened between two points is not recorded.
//
// A moment is one timeline point. At the peak (`timeline.peak_index`) every site's
// `bytes_at_peak` is known, so the moment lists all sites exactly. At any other point
// only the sites with a series are known one by one; the rest of the heap at that point
// is given as one figure (global minus those sites), also exact, but not split by site.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.moments = (function () {
  var DEFAULT_BANDS = 8;

  function seriesSites(model) {
    var out = [];
    for (var i = 0; i < model.sites.length; i++) if (model.sites[i].timeline) out.push(i);
    out.sort(function (a, b) { return model.sites[b].max_bytes - model.sites[a].max_bytes || a - b; });
    return out;
  }

  // { times, total, bands: [{site, values}], other: {values, seriesSites, sitesWithout} }
  function bands(model, maxBands) {
    var t = model.profile.timeline, n = t.times.length;
    var limit = maxBands === undefined ? DEFAULT_BANDS : maxBands;
    var withSeries = seriesSites(model);
    var top = withSeries.slice(0, limit);
    var other = new Array(n);
    for (var k = 0; k < n; k++) {
      var rest = t.live_bytes[k];
      for (var b = 0; b < top.length; b++) rest -= model.sites[top[b]].timeline.live_bytes[k];
      other[k] = Math.max(0, rest);
    }
    return {
      times: t.times, total: t.live_bytes, peakIndex: t.peak_index,
      bands: top.map(function (i) { return { site: i, values: model.sites[i].timeline.live_bytes }; }),
      other: { values: other, seriesSites: withSeries.length - top.length, sitesWithout: model.sites.length - withSeries.length },
    };
  }

  // The timeline point nearest to `time` (instructions); ties go to the earlier point.
  function nearestPoint(times, time) {
    var lo = 0, hi = times.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (times[mid] < time) lo = mid + 1; else hi = mid;
    }
    if (lo > 0 && time - times[lo - 1] <= times[lo] - time) return lo - 1;
    return lo;
  }

  // What was live at timeline point `index`:
  // { index, time, totalBytes, totalBlocks, atPeak, rows: [{site, bytes, blocks|null}],
  //   unsplitBytes, unsplitSites, exactBySite }
  // rows are sorted by bytes, largest first, and hold only sites with live bytes > 0.
  // At the peak, rows hold every such site (blocks too) and unsplitBytes is 0. Elsewhere,
  // rows hold the sites with a series, and unsplitBytes is the rest of the live heap at
  // that point, held by the `unsplitSites` sites that have no series.
  function at(model, index) {
    var t = model.profile.timeline;
    var atPeak = index === t.peak_index;
    var rows = [], known = 0, unsplitSites = 0;
    for (var i = 0; i < model.sites.length; i++) {
      var s = model.sites[i];
      if (atPeak) {
        if (s.bytes_at_peak > 0 || s.blocks_at_peak > 0) rows.push({ site: i, bytes: s.bytes_at_peak, blocks: s.blocks_at_peak });
      } else if (s.timeline) {
        var v = s.timeline.live_bytes[index];
        if (v > 0) rows.push({ site: i, bytes: v, blocks: null });
        known += v;
      } else {
        unsplitSites++;
      }
    }
    rows.sort(function (a, b) { return b.bytes - a.bytes || a.site - b.site; });
    return {
      index: index, time: t.times[index], totalBytes: t.live_bytes[index], totalBlocks: t.live_blocks[index],
      atPeak: atPeak, rows: rows, exactBySite: atPeak,
      unsplitBytes: atPeak ? 0 : Math.max(0, t.live_bytes[index] - known), unsplitSites: atPeak ? 0 : unsplitSites,
    };
  }

  return { bands: bands, at: at, nearestPoint: nearestPoint, DEFAULT_BANDS: DEFAULT_BANDS };
})();
