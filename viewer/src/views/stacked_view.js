// "Who holds the heap over time": the top sites' live bytes stacked over the run (the
// rest as one band), the peak and the LIFEHEAP_MARK markers on it, and beside it what was
// live at the chosen moment, by site (LH.moments says what is exact where). A click on
// the chart picks the nearest sampled moment; the peak is chosen at first. In diff mode
// the baseline and the changed run are drawn one above the other against "% of run" on
// the same byte scale, a site keeping its colour in both.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.stackedView = (function () {
  var el = LH.dom.el, f = LH.format;
  var PALETTE = ['#1c7ed6', '#f08c00', '#2b8a3e', '#c2255c', '#7048e8', '#0b7285', '#e8590c', '#5c940d', '#862e9c', '#a61e4d'];
  var OTHER_COLOR = '#adb5bd';
  var MOMENT_ROWS = 12;

  // One run's chart and moment table. side: {model, label, colorOf(site), rowOf(site),
  // xIsFraction, yMax}; onSelect(row) selects a site (a diff row in diff mode).
  function renderRun(container, side, onSelect) {
    var model = side.model, p = model.profile, t = p.timeline;
    var data = LH.moments.bands(model);
    // Bottom of the stack: the biggest site, so the largest band rests on the axis; the
    // other sites on top.
    var layers = data.bands.map(function (band) {
      return { label: model.siteName(band.site), values: band.values, color: side.colorOf(band.site) };
    }).concat([{ label: otherLabel(data.other), values: data.other.values, color: OTHER_COLOR }]);
    var toX = side.xIsFraction ? function (time) { return model.duration > 0 ? time / model.duration : 0; } : function (time) { return time; };
    var xs = t.times.map(toX);
    var chosen = { x: xs[t.peak_index], label: '', color: '#212529' };
    var marks = [{ x: xs[t.peak_index], label: 'peak ' + f.bytes(p.peak.bytes), color: '#c92a2a' }].concat(t.markers.map(function (m) {
      return { x: toX(m.time), label: String(m.label), color: '#495057', dash: true };
    }), [chosen]);

    var row = el('div', { className: 'stacked-run' });
    var chartBox = el('div', { className: 'chart stacked-chart' });
    var momentBox = el('div', { className: 'moment' });
    row.appendChild(el('div', { className: 'stacked-left' }, [side.label ? el('h3', { text: side.label }) : null, chartBox]));
    row.appendChild(momentBox);
    container.appendChild(row);

    var plot;
    function pick(index, snapped) {
      chosen.x = xs[index];
      chosen.label = index === t.peak_index ? '' : 'moment shown';
      renderMoment(momentBox, side, LH.moments.at(model, index), data, snapped, onSelect);
      row.setAttribute('data-moment-index', String(index));
      if (plot) plot.redraw(false);
    }
    plot = LH.charts.stacked(chartBox, xs, layers, {
      xIsFraction: side.xIsFraction, marks: marks, yMax: side.yMax,
      onPick: function (x) {
        var time = side.xIsFraction ? x * model.duration : x;
        var index = LH.moments.nearestPoint(t.times, time);
        if (index >= 0) pick(index, t.times[index] !== time);
      },
    });
    pick(t.peak_index, false);
    return { pick: pick, plot: plot, xs: xs };
  }

  function otherLabel(other) {
    var n = other.seriesSites + other.sitesWithout;
    return n === 0 ? 'other sites (none)' : 'other ' + f.exactCount(n) + (n === 1 ? ' site' : ' sites');
  }

  function renderMoment(box, side, moment, data, snapped, onSelect) {
    var model = side.model, t = model.profile.timeline;
    LH.dom.clear(box);
    var when = f.exactCount(moment.time) + ' instructions (' + f.percent(model.duration > 0 ? moment.time / model.duration : 0) + ' of the run)';
    box.appendChild(el('h3', { className: 'moment-title', text: (moment.atPeak ? 'At the peak, ' : 'At ') + when }));
    box.appendChild(el('p', { className: 'moment-total', text: f.bytes(moment.totalBytes) + ' live in ' + f.exactCount(moment.totalBlocks) +
      (moment.totalBlocks === 1 ? ' block' : ' blocks'), title: f.exactBytes(moment.totalBytes) }));
    var inBand = {};
    data.bands.forEach(function (band) { inBand[band.site] = true; });
    var rows = moment.rows.slice(0, MOMENT_ROWS);
    var body = rows.map(function (r) {
      var name = model.siteName(r.site);
      return el('tr', { attrs: { 'data-site': r.site }, on: { click: function () { onSelect(side.rowOf(r.site)); } } }, [
        el('td', {}, [el('span', { className: 'swatch', attrs: { 'data-color': inBand[r.site] ? side.colorOf(r.site) : OTHER_COLOR } })]),
        el('td', { className: 'site-name', text: name, title: model.siteLocation(r.site) }),
        el('td', { className: 'num', text: f.bytes(r.bytes), title: f.exactBytes(r.bytes) }),
        el('td', { className: 'num dim', text: f.percent(moment.totalBytes > 0 ? r.bytes / moment.totalBytes : 0) }),
      ]);
    });
    var rest = moment.rows.slice(MOMENT_ROWS);
    if (rest.length > 0) {
      var restBytes = rest.reduce(function (sum, r) { return sum + r.bytes; }, 0);
      body.push(el('tr', { className: 'moment-more' }, [el('td'), el('td', { text: f.exactCount(rest.length) + ' more sites' }),
        el('td', { className: 'num', text: f.bytes(restBytes), title: f.exactBytes(restBytes) }),
        el('td', { className: 'num dim', text: f.percent(moment.totalBytes > 0 ? restBytes / moment.totalBytes : 0) })]));
    }
    if (!moment.exactBySite && moment.unsplitBytes > 0) {
      body.push(el('tr', { className: 'moment-unsplit' }, [el('td'),
        el('td', { text: f.exactCount(moment.unsplitSites) + (moment.unsplitSites === 1 ? ' site' : ' sites') + ' without a series', title: 'each below ' + f.percent(t.significant_site_fraction) + ' of the peak at its own maximum' }),
        el('td', { className: 'num', text: f.bytes(moment.unsplitBytes), title: f.exactBytes(moment.unsplitBytes) }),
        el('td', { className: 'num dim', text: f.percent(moment.totalBytes > 0 ? moment.unsplitBytes / moment.totalBytes : 0) })]));
    }
    box.appendChild(el('table', { className: 'moment-table' }, [el('tbody', {}, body)]));
    // Colours set through the CSSOM (the page's CSP allows no inline style attributes).
    Array.prototype.forEach.call(box.querySelectorAll('.swatch'), function (s) {
      s.style.setProperty('background', s.getAttribute('data-color'));
    });
    var how = moment.atPeak ? 'Exact for every site: the profile records each site\'s bytes at the peak.' :
      'Exact at this sampled point for the sites with a series; the sites below ' + f.percent(t.significant_site_fraction) +
      ' of the peak are one figure here. Click the peak for every site.';
    if (snapped) how = 'The nearest of the ' + f.exactCount(t.times.length) + ' sampled points (the heap between two points is not recorded). ' + how;
    box.appendChild(el('p', { className: 'note moment-how', text: how }));
  }

  // Colours by site, the largest bands first, shared by both runs of a diff.
  function colorTable() {
    var byKey = {}, next = 0;
    return function (key) {
      if (!(key in byKey)) byKey[key] = PALETTE[next++ % PALETTE.length];
      return byKey[key];
    };
  }

  function renderSingle(container, model, onSelect) {
    LH.dom.clear(container);
    var color = colorTable();
    LH.moments.bands(model).bands.forEach(function (b) { color(b.site); });
    renderRun(container, { model: model, colorOf: color, rowOf: function (s) { return s; }, xIsFraction: false }, onSelect);
    container.appendChild(el('p', { className: 'caption', text: 'The ' + LH.moments.DEFAULT_BANDS +
      ' sites with the largest own maximum, stacked; the grey band is every other site. Click the chart to see what was live then; drag to zoom, double-click to reset.' }));
  }

  function renderDiff(container, diff, onSelect) {
    LH.dom.clear(container);
    var color = colorTable();
    var changedBands = LH.moments.bands(diff.changed).bands, baseBands = LH.moments.bands(diff.base).bands;
    changedBands.forEach(function (b) { color(diff.rowOfChanged[b.site]); });
    baseBands.forEach(function (b) { color(diff.rowOfBase[b.site]); });
    var yMax = Math.max(diff.base.profile.peak.bytes, diff.changed.profile.peak.bytes);
    renderRun(container, { model: diff.base, label: 'Baseline', xIsFraction: true, yMax: yMax,
      colorOf: function (s) { return color(diff.rowOfBase[s]); }, rowOf: function (s) { return diff.rowOfBase[s]; } }, onSelect);
    renderRun(container, { model: diff.changed, label: 'Changed', xIsFraction: true, yMax: yMax,
      colorOf: function (s) { return color(diff.rowOfChanged[s]); }, rowOf: function (s) { return diff.rowOfChanged[s]; } }, onSelect);
    container.appendChild(el('p', { className: 'caption', text: 'Both runs against % of their own duration (baseline ' +
      f.exactCount(diff.base.duration) + ', changed ' + f.exactCount(diff.changed.duration) + ' instructions) on the same byte scale; a site has the same colour in both.' }));
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff };
})();
