// "Sizes and lifetimes": the run's blocks by size (log2 buckets), and a heat map of
// lifetime against size (LH.shapes; `blocks_by_size_and_lifetime` in format.md). Short-
// lived churn is a dark cell low on the map (small blocks, short lives); a queue or a
// cache is a column reaching up to the run's duration. Hovering or clicking a cell says
// what it holds. In diff mode the baseline's and the changed run's maps are drawn side by
// side on the same axes and the same colour scale.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.shapesView = (function () {
  var el = LH.dom.el, f = LH.format, S = LH.shapes;
  var AXIS_LEFT = 86, AXIS_BOTTOM = 38, PAD_TOP = 8, PAD_RIGHT = 8;

  // White to dark blue on a log scale of blocks, so one block still shows.
  function cellColor(n, max) {
    var t = max > 1 ? Math.log(1 + n) / Math.log(1 + max) : 1;
    t = 0.15 + 0.85 * t;
    var from = [231, 245, 255], to = [11, 55, 120];
    var c = from.map(function (a, i) { return Math.round(a + (to[i] - a) * t); });
    return 'rgb(' + c.join(',') + ')';
  }

  // Draws one heat map. axes: {size: [lo, hi], life: [lo, hi], max} shared by a diff's
  // two maps; whose: what the blocks are ("the run's", "the site's"). Returns the canvas,
  // whose data-* attributes give its layout (cell size and first buckets) to a user agent.
  function heatMap(container, g, axes, duration, readout, whose) {
    var width = Math.max(280, container.clientWidth || 480), height = 240;
    var ratio = window.devicePixelRatio || 1;
    var canvas = el('canvas', { className: 'heatmap', attrs: { width: Math.round(width * ratio), height: Math.round(height * ratio) } });
    canvas.style.setProperty('width', width + 'px');
    canvas.style.setProperty('height', height + 'px');
    container.appendChild(canvas);
    var columns = axes.size[1] - axes.size[0] + 1, rows = axes.life[1] - axes.life[0] + 1;
    var plotW = width - AXIS_LEFT - PAD_RIGHT, plotH = height - AXIS_BOTTOM - PAD_TOP;
    var cellW = plotW / columns, cellH = plotH / rows;
    var at = {};
    g.cells.forEach(function (c) { at[c[0] * S.BUCKETS + c[1]] = c[2]; });
    canvas.setAttribute('data-left', String(AXIS_LEFT));
    canvas.setAttribute('data-top', String(PAD_TOP));
    canvas.setAttribute('data-cell-width', String(cellW));
    canvas.setAttribute('data-cell-height', String(cellH));
    canvas.setAttribute('data-size-first', String(axes.size[0]));
    canvas.setAttribute('data-life-last', String(axes.life[1]));

    var ctx = canvas.getContext('2d');
    ctx.scale(ratio, ratio);
    ctx.fillStyle = '#f8f9fa';
    ctx.fillRect(AXIS_LEFT, PAD_TOP, plotW, plotH);
    g.cells.forEach(function (c) {
      if (c[2] === 0) return;
      var x = AXIS_LEFT + (c[0] - axes.size[0]) * cellW, y = PAD_TOP + (axes.life[1] - c[1]) * cellH;
      ctx.fillStyle = cellColor(c[2], axes.max);
      ctx.fillRect(x + 0.5, y + 0.5, Math.max(1, cellW - 1), Math.max(1, cellH - 1));
    });
    // The run's duration: no block lives longer.
    var runBucket = S.bucketOf(duration);
    if (runBucket >= axes.life[0] && runBucket <= axes.life[1]) {
      var ry = PAD_TOP + (axes.life[1] - runBucket) * cellH;
      ctx.strokeStyle = '#495057';
      ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(AXIS_LEFT, ry); ctx.lineTo(AXIS_LEFT + plotW, ry); ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#495057';
      ctx.font = '11px sans-serif';
      ctx.textAlign = 'right';
      ctx.fillText('run duration', AXIS_LEFT + plotW - 2, ry + 12);
    }
    // Axes: size buckets below (lowest size of the bucket), lifetime buckets on the left.
    ctx.fillStyle = '#495057';
    ctx.font = '11px sans-serif';
    ctx.textAlign = 'center';
    var step = Math.max(1, Math.ceil(44 / cellW));
    for (var s = axes.size[0]; s <= axes.size[1]; s += step) {
      ctx.fillText(f.bytes(S.bounds(s)[0]), AXIS_LEFT + (s - axes.size[0] + 0.5) * cellW, PAD_TOP + plotH + 14);
    }
    ctx.fillText('block size (log2 buckets)', AXIS_LEFT + plotW / 2, PAD_TOP + plotH + 32);
    ctx.textAlign = 'right';
    var lifeStep = Math.max(1, Math.ceil(14 / cellH));
    for (var l = axes.life[1]; l >= axes.life[0]; l -= lifeStep) {
      ctx.fillText(f.count(S.bounds(l)[0]), AXIS_LEFT - 6, PAD_TOP + (axes.life[1] - l + 0.5) * cellH + 4);
    }
    ctx.save();
    ctx.translate(12, PAD_TOP + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText('lifetime (instructions)', 0, 0);
    ctx.restore();

    function cellAt(event) {
      var box = canvas.getBoundingClientRect();
      var x = event.clientX - box.left - AXIS_LEFT, y = event.clientY - box.top - PAD_TOP;
      if (x < 0 || y < 0 || x >= plotW || y >= plotH) return null;
      return [axes.size[0] + Math.floor(x / cellW), axes.life[1] - Math.floor(y / cellH)];
    }
    function show(event) {
      var cell = cellAt(event);
      if (!cell) return;
      var n = at[cell[0] * S.BUCKETS + cell[1]] || 0;
      readout.textContent = f.exactCount(n) + (n === 1 ? ' block' : ' blocks') + ' of ' + S.sizeText(cell[0]) + ' that lived ' +
        S.lifetimeText(cell[1]) + (g.total > 0 ? ' (' + f.percent(n / g.total) + ' of ' + (whose || 'the run\'s') + ' blocks)' : '');
      readout.setAttribute('data-cell', cell.join(','));
    }
    canvas.addEventListener('mousemove', show);
    canvas.addEventListener('click', show);
    return canvas;
  }

  function sizeHistogram(container, seriesList) {
    var holder = el('div', { className: 'chart' });
    container.appendChild(holder);
    LH.charts.histogram(holder, seriesList, { bucketText: S.sizeText, axisText: function (i) { return f.bytes(S.bounds(i)[0]); }, xName: 'size', height: 200, fromFirst: true });
  }

  function missing(container) {
    container.appendChild(el('p', { className: 'empty', text: 'This profile has no block sizes (it was written by a lifeheap without them).' }));
  }

  function renderSingle(container, model) {
    LH.dom.clear(container);
    var g = S.grid(model.profile);
    if (!g) { missing(container); return; }
    var left = el('div', {}, [el('h3', { text: 'Blocks by size' })]);
    var right = el('div', {}, [el('h3', { text: 'Lifetime against size (darker: more blocks)' })]);
    container.appendChild(el('div', { className: 'shapes-grid' }, [left, right]));
    sizeHistogram(left, [{ label: 'blocks', values: S.runSizeHistogram(model.profile), color: '#1c7ed6' }]);
    var readout = el('p', { className: 'caption heat-readout', text: 'Point at a cell to see its blocks.' });
    var mapBox = el('div');
    right.appendChild(mapBox);
    right.appendChild(readout);
    heatMap(mapBox, g, { size: g.size, life: g.life, max: g.max }, model.duration, readout);
    container.appendChild(el('p', { className: 'caption', text: f.exactCount(g.total) + ' blocks, each counted once: its size when freed (or at the end) and its lifetime. Log2 buckets: a column is sizes from one power of two to the next.' }));
  }

  function renderDiff(container, diff) {
    LH.dom.clear(container);
    var gb = S.grid(diff.base.profile), gc = S.grid(diff.changed.profile);
    if (!gb || !gc) { missing(container); return; }
    var axes = sharedAxes([gb, gc]);
    var hist = el('div', {}, [el('h3', { text: 'Blocks by size, baseline and changed' })]);
    container.appendChild(hist);
    sizeHistogram(hist, [
      { label: 'baseline blocks', values: S.runSizeHistogram(diff.base.profile), color: '#868e96' },
      { label: 'changed blocks', values: S.runSizeHistogram(diff.changed.profile), color: '#1c7ed6' },
    ]);
    var maps = el('div', { className: 'shapes-grid' });
    container.appendChild(maps);
    [['Baseline', gb, diff.base], ['Changed', gc, diff.changed]].forEach(function (side) {
      var box = el('div', {}, [el('h3', { text: side[0] + ': lifetime against size' })]);
      maps.appendChild(box);
      var mapBox = el('div'), readout = el('p', { className: 'caption heat-readout', text: 'Point at a cell to see its blocks.' });
      box.appendChild(mapBox);
      box.appendChild(readout);
      heatMap(mapBox, side[1], axes, side[2].duration, readout);
    });
    container.appendChild(el('p', { className: 'caption', text: 'Both maps on the same axes and colour scale.' }));
  }

  // One site's blocks by size (one series, or baseline and changed), for the site detail.
  // sides: [{label, site}], drawn into container (already in the page).
  function siteSizes(container, sides) {
    var withSizes = sides.filter(function (x) { return x.site && x.site.size_histogram; });
    if (withSizes.length === 0) { container.appendChild(el('p', { className: 'empty', text: 'No block sizes in this profile.' })); return; }
    var box = el('div', { className: 'site-sizes' });
    container.appendChild(box);
    sizeHistogram(box, withSizes.map(function (x) {
      return { label: (sides.length > 1 ? x.label + ' ' : '') + 'blocks', values: x.site.size_histogram, color: x.label === 'baseline' ? '#868e96' : '#1c7ed6' };
    }));
  }

  // Both sides' axes: the union of their buckets, the larger maximum.
  function sharedAxes(grids) {
    var axes = { size: [S.BUCKETS, -1], life: [S.BUCKETS, -1], max: 0 };
    grids.forEach(function (g) {
      if (g.total === 0) return;
      axes.size = [Math.min(axes.size[0], g.size[0]), Math.max(axes.size[1], g.size[1])];
      axes.life = [Math.min(axes.life[0], g.life[0]), Math.max(axes.life[1], g.life[1])];
      axes.max = Math.max(axes.max, g.max);
    });
    if (axes.size[1] < 0) { axes.size = [0, 0]; axes.life = [0, 0]; }
    return axes;
  }

  // One site's lifetime against size (LH.shapes.siteGrid), or baseline and changed on the
  // same axes and colour scale. sides: [{label, site, model}]; container is in the page.
  function siteHeatMaps(container, sides) {
    var withSite = sides.filter(function (x) { return x.site; });
    var grids = withSite.map(function (x) { return S.siteGrid(x.site); });
    var drawn = [];
    withSite.forEach(function (x, i) { if (grids[i] && grids[i].total > 0) drawn.push({ side: x, grid: grids[i] }); });
    withSite.forEach(function (x, i) {
      if (!grids[i]) {
        var why = x.site.size_histogram ? 'this profile has no blocks by size and lifetime for a site of several sizes (it was written by a lifeheap without them).'
          : 'no block sizes in this profile.';
        container.appendChild(el('p', { className: 'empty', text: sides.length > 1 ? x.label + ': ' + why : why.charAt(0).toUpperCase() + why.slice(1) }));
      }
    });
    if (drawn.length === 0) return;
    var axes = sharedAxes(drawn.map(function (d) { return d.grid; }));
    var row = el('div', { className: drawn.length > 1 ? 'shapes-grid site-heatmaps' : 'site-heatmaps' });
    container.appendChild(row);
    drawn.forEach(function (d) {
      var box = el('div', { className: 'site-heatmap', attrs: { 'data-side': d.side.label } });
      if (sides.length > 1) box.appendChild(el('p', { className: 'caption', text: d.side.label }));
      row.appendChild(box);
      var mapBox = el('div'), readout = el('p', { className: 'caption heat-readout', text: 'Point at a cell to see its blocks.' });
      box.appendChild(mapBox);
      box.appendChild(readout);
      heatMap(mapBox, d.grid, axes, d.side.model.duration, readout, 'the site\'s');
    });
    if (drawn.length > 1) container.appendChild(el('p', { className: 'caption', text: 'Both maps on the same axes and colour scale.' }));
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff, siteSizes: siteSizes, siteHeatMaps: siteHeatMaps, sharedAxes: sharedAxes };
})();
