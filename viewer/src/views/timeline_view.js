// The live-heap timeline panel: global live bytes (and blocks, toggled from the legend)
// with the peak and LIFEHEAP_MARK markers, plus the chosen sites' own series. In diff
// mode both runs are drawn against "% of run", since their durations differ.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.timelineView = (function () {
  var el = LH.dom.el, f = LH.format;
  var COLORS = LH.charts.SITE_COLORS;

  function markerList(markers, toX, xText) {
    if (markers.length === 0) return el('p', { className: 'dim small', text: 'No markers (the program made no LIFEHEAP_MARK calls).' });
    return el('ul', { className: 'markers' }, markers.map(function (m) {
      return el('li', {}, [el('span', { className: 'mono', text: xText(m.time) }), ' ', el('span', { text: String(m.label) })]);
    }));
  }

  function renderSingle(container, model, chartRows) {
    var p = model.profile, t = p.timeline;
    LH.dom.clear(container);
    var chart = el('div', { className: 'chart', attrs: { id: 'timeline-plot' } });
    container.appendChild(chart);
    var series = [
      { label: 'live bytes', values: t.live_bytes, color: '#1c7ed6', fill: '#1c7ed622', width: 2 },
      { label: 'live blocks', values: t.live_blocks, color: '#748ffc', scale: 'blocks', show: false },
    ];
    var missing = [];
    chartRows.forEach(function (i, k) {
      var s = model.sites[i];
      if (s.timeline && s.timeline.live_bytes.every(function (v) { return typeof v === 'number'; })) series.push({ label: '#' + i + ' ' + model.siteName(i), values: s.timeline.live_bytes, color: COLORS[k % COLORS.length] });
      else missing.push(i);
    });
    var marks = [{ x: p.peak.time, label: 'peak ' + f.bytes(p.peak.bytes), color: '#c92a2a' }].concat(t.markers.map(function (m) {
      return { x: m.time, label: String(m.label), color: '#495057', dash: true };
    }));
    LH.charts.timeline(chart, t.times, series, { marks: marks });
    container.appendChild(el('p', { className: 'caption', text: 'Peak ' + f.exactBytes(p.peak.bytes) + ' in ' + f.exactCount(p.peak.blocks) +
      ' blocks at ' + f.exactCount(p.peak.time) + ' instructions (' + f.percent(p.peak.time / model.duration) + ' of the run). ' +
      'Ctrl-click sites in the table to add their series; drag across the chart to zoom, double-click to reset.' }));
    missing.forEach(function (i) {
      container.appendChild(el('p', { className: 'note', text: '#' + i + ' ' + model.siteName(i) + ' has no series: its own max is below ' +
        f.percent(t.significant_site_fraction) + ' of the peak.' }));
    });
    container.appendChild(markerList(t.markers, null, function (time) { return f.count(time) + ' instr'; }));
  }

  function fractions(times, duration) {
    return times.map(function (x) { return duration > 0 ? x / duration : 0; });
  }

  function renderDiff(container, diff, chartRows) {
    var b = diff.base.profile, c = diff.changed.profile;
    LH.dom.clear(container);
    var chart = el('div', { className: 'chart', attrs: { id: 'timeline-plot' } });
    container.appendChild(chart);
    var bx = fractions(b.timeline.times, b.run.duration), cx = fractions(c.timeline.times, c.run.duration);
    var tables = [[bx, b.timeline.live_bytes], [cx, c.timeline.live_bytes]];
    var series = [
      { label: 'baseline live bytes', color: '#868e96', dash: [6, 4], width: 2 },
      { label: 'changed live bytes', color: '#1c7ed6', fill: '#1c7ed622', width: 2 },
    ];
    chartRows.forEach(function (row, k) {
      // The row's site on each side (twins combined: their series added).
      var bs = diff.rowSite(row, 'base'), cs = diff.rowSite(row, 'changed');
      var name = diff.namingSite(row);
      var label = '#' + row + ' ' + name.model.siteName(name.index);
      if (bs && bs.timeline) {
        tables.push([bx, bs.timeline.live_bytes]);
        series.push({ label: label + ' (baseline)', color: COLORS[k % COLORS.length], dash: [4, 3] });
      }
      if (cs && cs.timeline) {
        tables.push([cx, cs.timeline.live_bytes]);
        series.push({ label: label, color: COLORS[k % COLORS.length] });
      }
    });
    var joined = uPlot.join(tables);
    series.forEach(function (s, i) { s.values = joined[i + 1]; });
    var marks = [
      { x: b.peak.time / b.run.duration, label: 'baseline peak ' + f.bytes(b.peak.bytes), color: '#868e96' },
      { x: c.peak.time / c.run.duration, label: 'changed peak ' + f.bytes(c.peak.bytes), color: '#c92a2a' },
    ].concat(c.timeline.markers.map(function (m) { return { x: m.time / c.run.duration, label: String(m.label), color: '#495057', dash: true }; }));
    LH.charts.timeline(chart, joined[0], series, { xIsFraction: true, marks: marks });
    container.appendChild(el('p', { className: 'caption', text: 'Both runs against % of their own duration (baseline ' +
      f.exactCount(b.run.duration) + ', changed ' + f.exactCount(c.run.duration) + ' instructions).' }));
    container.appendChild(el('h3', { text: 'Markers of the changed run' }));
    container.appendChild(markerList(c.timeline.markers, null, function (time) { return f.percent(time / c.run.duration); }));
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff };
})();
