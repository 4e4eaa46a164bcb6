// Charts, drawn with uPlot (vendored from npm, see docs/viewer.md): the global timeline
// of live bytes with the peak and phase markers and the selected sites' series over it,
// a site's lifetime histogram, and a site's access map by offset.
// Labels drawn on the canvas (marker names) are canvas text, never markup.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.charts = (function () {
  var f = LH.format;
  var SITE_COLORS = ['#d9480f', '#2b8a3e', '#862e9c', '#0b7285', '#c2255c', '#5c940d'];

  function width(container) { return Math.max(280, container.clientWidth || container.parentNode.clientWidth || 600); }

  // Keep charts sized to their container.
  var live = [];
  window.addEventListener('resize', function () {
    live = live.filter(function (entry) { return document.body.contains(entry.container); });
    live.forEach(function (entry) { entry.plot.setSize({ width: width(entry.container), height: entry.height }); });
  });

  function mount(container, opts, data) {
    LH.dom.clear(container);
    opts.width = width(container);
    var plot = new uPlot(opts, data, container);
    live.push({ container: container, plot: plot, height: opts.height });
    return plot;
  }

  // A y axis as wide as its widest label: uPlot's axes have a fixed width by default,
  // which cut "976.6 KiB" at the chart's left edge. uPlot draws an axis's labels in its
  // default font (12px) beside a tick of 10 px and a gap of 5 px.
  var AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
  var measuring = null;
  function labelWidth(text) {
    if (!measuring) {
      measuring = document.createElement('canvas').getContext('2d');
      measuring.font = AXIS_FONT;
    }
    return measuring.measureText(text).width;
  }
  function fitAxis(format, least) {
    return {
      values: function (u, splits) { return splits.map(format); },
      size: function (u, labels) {
        var widest = 0;
        (labels || []).forEach(function (text) { if (text) widest = Math.max(widest, labelWidth(String(text))); });
        return Math.max(least, Math.ceil(widest) + 10 + 5 + 6);
      },
    };
  }
  // Byte ticks in binary steps (1, 2, 4, ... 512 of B, KiB, MiB, ...), so the labels
  // read "1.0 MiB", "2.0 MiB" rather than uPlot's decimal "976.6 KiB", "1.9 MiB".
  var BYTE_STEPS = [];
  for (var unit = 1; unit <= Math.pow(1024, 5); unit *= 1024) {
    for (var step = 1; step < 1024; step *= 2) BYTE_STEPS.push(step * unit);
  }
  function bytesAxis() {
    var axis = fitAxis(function (v) { return f.bytes(v); }, 50);
    axis.incrs = BYTE_STEPS;
    return axis;
  }
  function countAxis() { return fitAxis(function (v) { return f.count(v); }, 40); }

  // Vertical lines with labels: the peak and the LIFEHEAP_MARK markers.
  function verticalMarks(marks) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top, height = u.bbox.height, ratio = devicePixelRatio || 1;
      ctx.save();
      ctx.font = (11 * ratio) + 'px sans-serif';
      marks.forEach(function (m, i) {
        var x = Math.round(u.valToPos(m.x, 'x', true));
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.strokeStyle = m.color;
        ctx.setLineDash(m.dash ? [4 * ratio, 3 * ratio] : []);
        ctx.lineWidth = ratio;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
        ctx.fillStyle = m.color;
        var label = m.label.length > 40 ? m.label.slice(0, 39) + '…' : m.label;
        // Labels near the right edge go on the left of their line.
        var right = x + 3 * ratio + ctx.measureText(label).width > u.bbox.left + u.bbox.width;
        ctx.textAlign = right ? 'right' : 'left';
        ctx.fillText(label, right ? x - 3 * ratio : x + 3 * ratio, top + (12 + 12 * (i % 3)) * ratio);
      });
      ctx.restore();
    };
  }

  // series: [{label, values, color, dash}] aligned on xs. options: xIsFraction, marks, blocks.
  function timeline(container, xs, series, options) {
    var data = [xs];
    var uSeries = [{ label: options.xIsFraction ? 'time (% of run)' : 'time (instructions)',
      value: function (u, v) { return v === null ? '—' : options.xIsFraction ? f.percent(v) : f.exactCount(v); } }];
    series.forEach(function (s, i) {
      data.push(s.values);
      uSeries.push({
        label: s.label, stroke: s.color || SITE_COLORS[i % SITE_COLORS.length], width: s.width || 1.5,
        fill: s.fill || undefined, dash: s.dash || undefined, scale: s.scale || 'y', show: s.show !== false,
        spanGaps: true, points: { show: false },
        value: function (u, v) { return v === null || v === undefined ? '—' : s.scale === 'blocks' ? f.exactCount(v) + ' blocks' : f.bytes(v); },
      });
    });
    var axes = [
      { values: function (u, splits) { return splits.map(function (v) { return options.xIsFraction ? f.percent(v) : f.count(v); }); } },
      bytesAxis(),
    ];
    if (series.some(function (s) { return s.scale === 'blocks'; })) {
      var blocksAxis = countAxis();
      blocksAxis.scale = 'blocks';
      blocksAxis.side = 1;
      blocksAxis.grid = { show: false };
      axes.push(blocksAxis);
    }
    return mount(container, {
      height: options.height || 260,
      series: uSeries,
      axes: axes,
      scales: { x: { time: false }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.08 : 1]; } } },
      cursor: { drag: { x: true, y: false } },
      hooks: { draw: [verticalMarks(options.marks || [])] },
      legend: { live: true },
    }, data);
  }

  function histogramLabel(i) {
    if (i === 0) return '0';
    return f.count(Math.pow(2, i - 1));
  }

  // Log2 histogram (index 0 = 0, index i = [2^(i-1), 2^i)): lifetimes by default;
  // options.xName, bucketText(i) (the legend) and axisText(i) (the axis) for other units;
  // options.fromFirst starts the axis one bucket before the first with a count.
  function histogram(container, seriesList, options) {
    var axisText = options.axisText || histogramLabel;
    var bucketText = options.bucketText || function (i) { return histogramLabel(i) + ' instr'; };
    var length = seriesList.reduce(function (m, s) { return Math.max(m, s.values.length); }, options.minLength || 1);
    var xs = [];
    for (var i = 0; i < length; i++) xs.push(i);
    var first = 0;
    if (options.fromFirst) {
      first = length - 1;
      seriesList.forEach(function (s) { for (var k = 0; k < s.values.length; k++) if (s.values[k] > 0) { first = Math.min(first, k); break; } });
      first = Math.max(0, first - 1);
    }
    var data = [xs];
    var uSeries = [{ label: options.xName || 'lifetime ≥', value: function (u, v) { return v === null ? '—' : bucketText(v); } }];
    var barWidth = seriesList.length > 1 ? 0.4 : 0.8;
    seriesList.forEach(function (s, k) {
      var padded = s.values.slice();
      while (padded.length < length) padded.push(0);
      data.push(padded);
      uSeries.push({ label: s.label, stroke: s.color, fill: s.color + '99', width: 1,
        paths: uPlot.paths.bars({ size: [barWidth, 60], align: seriesList.length > 1 ? (k === 0 ? -1 : 1) : 0 }),
        points: { show: false }, value: function (u, v) { return v === null ? '—' : f.exactCount(v) + ' blocks'; } });
    });
    return mount(container, {
      height: options.height || 180,
      series: uSeries,
      scales: { x: { time: false, range: [first - 0.6, length - 0.4] }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } },
      axes: [
        { values: function (u, splits) { return splits.map(function (v) { return v === Math.round(v) ? axisText(v) : ''; }); },
          splits: function () { var step = Math.ceil((length - first) / 12), out = []; for (var i = first; i < length; i += step) out.push(i); return out; } },
        countAxis(),
      ],
      legend: { live: true },
      hooks: { draw: [verticalMarks(options.marks || [])] },
    }, data);
  }

  // Access map: reads and writes by offset in the block (bytes) or by part of it
  // (buckets). Zoomable: a drag across it zooms into those offsets, a double-click goes
  // back to the whole block; options.readout (an element) then says which offsets are
  // shown and the reads and writes in them. options.blockSize: the one size of every
  // block of a bucketed map (access.block_size), to say parts in bytes.
  // options: readout (the line that says what is shown), blockSize, yMax (a scale
  // shared with the other run's map in diff mode).
  function accessMap(container, map, options) {
    if (options.yMax) container.setAttribute('data-y-max', String(options.yMax));
    var xs = [];
    var n = map.reads.length;
    // One extra point at x = n repeats the last value so the last step has a width.
    for (var i = 0; i <= n; i++) xs.push(i);
    var buckets = map.kind === 'buckets';
    var partBytes = buckets && options.blockSize ? options.blockSize / map.buckets : null;
    function xLabel(v) {
      if (!buckets) return 'offset ' + f.exactCount(v);
      return partBytes ? 'offset ' + f.exactCount(Math.floor(v * partBytes)) : f.percent(v / map.buckets) + ' of block';
    }
    function describe(u) {
      if (!options.readout) return;
      var lo = Math.max(0, Math.floor(u.scales.x.min)), hi = Math.min(n, Math.ceil(u.scales.x.max));
      var reads = 0, writes = 0;
      for (var k = lo; k < hi; k++) { reads += map.reads[k]; writes += map.writes[k]; }
      var whole = lo === 0 && hi === n;
      var range;
      if (!buckets) range = 'offsets ' + f.exactCount(lo) + '–' + f.exactCount(Math.max(lo, hi - 1)) + ' of ' + f.exactBytes(map.block_size);
      else if (partBytes) range = 'offsets ' + f.exactCount(Math.floor(lo * partBytes)) + '–' + f.exactCount(Math.ceil(hi * partBytes) - 1) + ' of ' + f.exactBytes(options.blockSize) + ' (parts ' + (lo + 1) + '–' + hi + ' of ' + n + ')';
      else range = 'parts ' + (lo + 1) + '–' + hi + ' of ' + n + ' (' + f.percent(lo / n) + '–' + f.percent(hi / n) + ' of the block)';
      options.readout.textContent = (whole ? 'The whole block: ' : 'Zoomed to ') + range + ': ' + f.exactCount(reads) + ' byte reads, ' +
        f.exactCount(writes) + ' byte writes. ' + (whole ? 'Drag across the map to zoom in.' : 'Double-click to see the whole block.');
      options.readout.setAttribute('data-range', lo + ',' + hi);
    }
    var stepped = uPlot.paths.stepped({ align: 1 });
    return mount(container, {
      height: options.height || 180,
      series: [
        { label: buckets ? 'part' : 'offset', value: function (u, v) { return v === null ? '—' : xLabel(v); } },
        { label: 'reads', stroke: '#1c7ed6', fill: '#1c7ed655', width: 1, paths: stepped, points: { show: false },
          value: function (u, v) { return v === null ? '—' : f.exactCount(v); } },
        { label: 'writes', stroke: '#f08c00', width: 2, paths: stepped, points: { show: false },
          value: function (u, v) { return v === null ? '—' : f.exactCount(v); } },
      ],
      // x: the data's extent, 0 to n (a double-click goes back to it).
      scales: { x: { time: false },
        y: { range: function (u, min, max) { var top = options.yMax || max; return [0, top > 0 ? top * 1.1 : 1]; } } },
      cursor: { drag: { x: true, y: false } },
      hooks: { ready: [describe], setScale: [function (u, key) { if (key === 'x') describe(u); }] },
      axes: [
        { values: function (u, splits) { return splits.map(function (v) { return buckets ? (partBytes ? f.bytes(v * partBytes) : f.percent(v / map.buckets)) : f.count(v); }); } },
        countAxis(),
      ],
      legend: { live: true },
    }, [xs, map.reads.concat([map.reads[n - 1] || 0]), map.writes.concat([map.writes[n - 1] || 0])]);
  }

  // Stacked areas: layers [{label, values, color}], bottom layer first, drawn as running
  // sums so each band's height is its own value (the legend shows that value, not the
  // sum). options: xIsFraction, marks, yMax (a shared scale for side-by-side charts),
  // onPick(x) for a click that did not drag (a drag zooms, a double-click resets).
  function stacked(container, xs, layers, options) {
    if (options.yMax) container.setAttribute('data-y-max', String(options.yMax));
    var n = xs.length, running = new Array(n).fill(0), sums = [];
    layers.forEach(function (layer) {
      running = running.map(function (r, k) { return r + (layer.values[k] || 0); });
      sums.push(running);
    });
    var data = [xs];
    var uSeries = [{ label: options.xIsFraction ? 'time (% of run)' : 'time (instructions)',
      value: function (u, v) { return v === null ? '—' : options.xIsFraction ? f.percent(v) : f.exactCount(v); } }];
    // uPlot paints series in order: the top of the stack first, so each lower band covers it.
    for (var j = layers.length - 1; j >= 0; j--) {
      (function (layer) {
        data.push(sums[j]);
        uSeries.push({ label: layer.label, stroke: layer.color, fill: layer.color + 'cc', width: 1, spanGaps: true,
          points: { show: false },
          value: function (u, v, si, idx) { return idx === null || idx === undefined || layer.values[idx] === null || layer.values[idx] === undefined ? '—' : f.bytes(layer.values[idx]); } });
      })(layers[j]);
    }
    var yMax = options.yMax;
    var plot = mount(container, {
      height: options.height || 280,
      series: uSeries,
      axes: [
        { values: function (u, splits) { return splits.map(function (v) { return options.xIsFraction ? f.percent(v) : f.count(v); }); } },
        bytesAxis(),
      ],
      scales: { x: { time: false }, y: { range: function (u, min, max) { var top = yMax || max; return [0, top > 0 ? top * 1.08 : 1]; } } },
      cursor: { drag: { x: true, y: false } },
      hooks: { draw: [verticalMarks(options.marks || [])] },
      // The moment table beside the chart is the legend: site names are too long for uPlot's.
      legend: { show: false },
    }, data);
    if (options.onPick) {
      var downX = null;
      plot.over.addEventListener('mousedown', function (e) { downX = e.clientX; });
      plot.over.addEventListener('click', function (e) {
        if (downX !== null && Math.abs(e.clientX - downX) > 3) return;   // the end of a drag-zoom
        var left = e.clientX - plot.over.getBoundingClientRect().left;
        options.onPick(plot.posToVal(left, 'x'));
      });
    }
    return plot;
  }

  return { timeline: timeline, stacked: stacked, histogram: histogram, accessMap: accessMap, SITE_COLORS: SITE_COLORS };
})();
