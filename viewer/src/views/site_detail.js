// The selected site in full: its stack (every frame field), every per-site field of the
// profile grouped by meaning, its lifetime and size histograms, its access map and its
// blocks by lifetime against size. In diff mode each figure has baseline, changed and
// change columns, and each chart draws both runs on the same axes.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.siteDetailView = (function () {
  var el = LH.dom.el, f = LH.format;

  function acc(s) { return s.access || {}; }
  function atPeak(s) { return acc(s).at_peak || {}; }
  function growth(s) { return s.growth || {}; }

  // [label, value(site, model), kind] — kind as in LH.metrics.display.
  var GROUPS = [
    ['Allocation', [
      ['Total blocks', function (s) { return s.total_blocks; }, 'count'],
      ['Total bytes', function (s) { return s.total_bytes; }, 'bytes'],
      ['Freed blocks', function (s) { return s.freed_blocks; }, 'count'],
      ['First allocation', function (s) { return s.first_alloc_time; }, 'time'],
      ['Last allocation', function (s) { return s.last_alloc_time; }, 'time'],
      ['Allocating threads', function (s) { return s.allocating_threads; }, 'count'],
      ['Cross-thread frees', function (s) { return s.cross_thread_frees; }, 'count'],
      ['Reallocs', function (s) { return s.reallocs; }, 'count'],
      ['Realloc requested', function (s) { return s.realloc_requested_bytes; }, 'bytes'],
      ['Realloc copied', function (s) { return s.realloc_bytes_copied; }, 'bytes'],
    ]],
    ['Live', [
      ['Bytes at peak', function (s) { return s.bytes_at_peak; }, 'bytes'],
      ['Blocks at peak', function (s) { return s.blocks_at_peak; }, 'count'],
      ['Own max bytes', function (s) { return s.max_bytes; }, 'bytes'],
      ['Own max blocks', function (s) { return s.max_blocks; }, 'count'],
      ['Own max reached at', function (s) { return s.max_time; }, 'time'],
      ['Bytes at exit', function (s) { return s.bytes_at_exit; }, 'bytes'],
      ['Blocks at exit', function (s) { return s.blocks_at_exit; }, 'count'],
    ]],
    ['Lifetime', [
      ['Average', function (s, m) { return s.total_blocks > 0 ? s.lifetime.sum / s.total_blocks : null; }, 'instr'],
      ['Average, % of run', function (s, m) { return s.total_blocks > 0 && m.duration > 0 ? s.lifetime.sum / s.total_blocks / m.duration : null; }, 'percent'],
      ['Minimum', function (s) { return s.lifetime.min; }, 'instr'],
      ['Maximum', function (s) { return s.lifetime.max; }, 'instr'],
      ['Maximum, % of run', function (s, m) { return m.duration > 0 ? s.lifetime.max / m.duration : null; }, 'percent'],
      ['Sum', function (s) { return s.lifetime.sum; }, 'instr'],
    ]],
    ['Access', [
      ['Bytes read', function (s) { return acc(s).bytes_read; }, 'bytes'],
      ['Bytes written', function (s) { return acc(s).bytes_written; }, 'bytes'],
      ['Measured bytes', function (s) { return acc(s).measured_bytes; }, 'bytes'],
      ['Reads per byte', function (s) { return acc(s).measured_bytes > 0 ? acc(s).bytes_read / acc(s).measured_bytes : null; }, 'ratio'],
      ['Writes per byte', function (s) { return acc(s).measured_bytes > 0 ? acc(s).bytes_written / acc(s).measured_bytes : null; }, 'ratio'],
      ['Never read', function (s) { return acc(s).never_read_bytes; }, 'bytes'],
      ['Never written', function (s) { return acc(s).never_written_bytes; }, 'bytes'],
      ['Never read or written', function (s) { return acc(s).never_accessed_bytes; }, 'bytes'],
      ['Written, never read', function (s) { return acc(s).written_never_read_bytes; }, 'bytes'],
      ['Unused capacity', function (s) { return acc(s).unused_capacity_bytes; }, 'bytes'],
      ['Idle before free (sum)', function (s) { return acc(s).idle_before_free; }, 'instr'],
      ['First-access delay (sum)', function (s) { return acc(s).first_access_delay; }, 'instr'],
    ]],
    ['Of the blocks live at the peak', [
      ['Bytes', function (s) { return atPeak(s).bytes; }, 'bytes'],
      ['Never read', function (s) { return atPeak(s).never_read_bytes; }, 'bytes'],
      ['Never written', function (s) { return atPeak(s).never_written_bytes; }, 'bytes'],
      ['Never read or written', function (s) { return atPeak(s).never_accessed_bytes; }, 'bytes'],
      ['Unused capacity', function (s) { return atPeak(s).unused_capacity_bytes; }, 'bytes'],
    ]],
    ['Growth', [
      ['Rising fraction', function (s) { return s.growth ? growth(s).rising_fraction : null; }, 'percent'],
      ['Slope (bytes / M instr)', function (s) { return s.growth ? growth(s).slope_bytes_per_million_instructions : null; }, 'ratio'],
      ['End / max ratio', function (s) { return s.growth ? growth(s).end_to_max_ratio : null; }, 'ratio'],
    ]],
  ];

  function shown(kind, value, duration) {
    return LH.metrics.display({ kind: kind }, value === undefined ? null : value, duration);
  }

  function groupTable(title, rows, sides) {
    // sides: [{label, site, model}] — one for a profile, two (baseline, changed) for a diff.
    var head = el('tr', {}, [el('th', { text: title, className: 'group' })].concat(sides.length > 1 ? [
      el('th', { text: 'baseline' }), el('th', { text: 'changed' }), el('th', { text: 'change' })] : []));
    var body = rows.map(function (r) {
      var values = sides.map(function (side) { return side.site ? r[1](side.site, side.model) : null; });
      var cells = values.map(function (v, i) {
        var d = shown(r[2], v, sides[i].model.duration);
        return el('td', { className: 'num', text: d.text, title: d.title });
      });
      if (sides.length > 1) {
        var b = values[0], c = values[1];
        var additive = r[2] === 'bytes' || r[2] === 'count';
        var delta = (b === null || c === null) && !additive ? null : (c || 0) - (b || 0);
        var text = delta === null ? '—' : LH.metrics.displayDelta({ kind: r[2] }, delta, sides[1].model.duration);
        cells.push(el('td', { className: 'num ' + (delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : ''), text: text }));
      }
      return el('tr', {}, [el('th', { text: r[0] })].concat(cells));
    });
    return el('table', { className: 'kv metrics' }, [head].concat(body));
  }

  // The site's stack; the frames the tool marks `library` (allocator, runtime and
  // standard-library code) are folded away by default when the stack has frames of the
  // program's own, with a control to show them.
  function stackTable(model, siteIndex) {
    var s = model.sites[siteIndex];
    var shown = LH.tree.foldedStack(model.frames, s.stack);
    var foldable = shown.length < s.stack.length;
    var rows = s.stack.map(function (fi, k) {
      var fr = model.frames[fi];
      var loc = fr.file ? fr.file + (fr.line !== null && fr.line !== undefined ? ':' + fr.line : '') : '—';
      var classes = (k === s.name_frame ? 'name-frame' : '') + (foldable && fr.library === true ? ' library-frame' : '');
      return el('tr', { className: classes.trim() }, [
        el('td', { className: 'num', text: String(k) }),
        el('td', { className: 'fn', text: fr.function || '(unknown)', title: (fr.function || '') + (k === s.name_frame ? ' — this frame names the site' : '') }),
        el('td', { className: 'loc', text: loc, title: loc }),
        el('td', { className: 'dim', text: fr.directory || '—', title: fr.directory || '' }),
        el('td', { className: 'dim', text: fr.object || '—', title: fr.object || '' }),
        el('td', { className: 'dim mono', text: fr.address, title: fr.address }),
        el('td', { text: (fr.inlined ? 'inlined' : '') + (fr.library === true ? (fr.inlined ? ', ' : '') + 'library' : '') }),
      ]);
    });
    var table = el('table', { className: 'stack' + (foldable ? ' folded' : ''), attrs: { id: 'stack-table' } }, [el('tr', {}, ['#', 'function', 'file:line', 'directory', 'object', 'address', ''].map(function (h) {
      return el('th', { text: h });
    }))].concat(rows));
    if (!foldable) return table;
    var box = el('input', { attrs: { type: 'checkbox', id: 'stack-fold', checked: 'checked' } });
    box.addEventListener('change', function () { table.classList.toggle('folded', box.checked); });
    var hidden = s.stack.length - shown.length;
    return el('div', {}, [
      el('label', { attrs: { 'for': 'stack-fold' } }, [box, el('span', { text: ' Fold runtime and allocator frames (' + hidden + ' of ' + s.stack.length + ')' })]),
      table,
    ]);
  }

  function findingBadges(model, siteIndex) {
    var list = model.findingsBySite.get(siteIndex) || [];
    return list.map(function (i) {
      var x = model.profile.findings[i];
      return el('span', { className: 'badge ' + x.severity, text: LH.findingsView.KIND_TITLES[x.kind] || String(x.kind), title: String(x.summary) });
    });
  }

  // The tool's "why it is big" notes for a site (sites[].notes: { kind, text, ... },
  // computed once by the tool, docs/format.md); older profiles have none.
  function siteNotes(site) {
    var list = site && Array.isArray(site.notes) ? site.notes : [];
    return list.filter(function (n) { return n && typeof n.text === 'string'; });
  }

  function notesList(site, label) {
    var notes = siteNotes(site);
    if (notes.length === 0) return null;
    return el('div', { className: 'site-notes' }, [
      el('h3', { text: label ? 'Why it is big (' + label + ')' : 'Why it is big' }),
      el('ul', {}, notes.map(function (n) {
        return el('li', { text: n.text, attrs: { 'data-kind': String(n.kind) } });
      })),
    ]);
  }

  // The run-duration bucket, so a histogram shows how long blocks live against the run.
  function durationBucket(duration) { return duration > 0 ? Math.floor(Math.log2(duration)) + 1 : 0; }

  function charts(container, sides) {
    var histWrap = el('div', { className: 'chart' });
    var mapWrap = el('div', { className: 'chart-group' });
    var sizeWrap = el('div');
    var heatWrap = el('div', { className: 'site-shapes' });
    container.appendChild(el('div', { className: 'detail-charts' }, [
      el('div', {}, [el('h3', { text: 'Lifetime histogram (blocks by lifetime, log2 buckets of instructions)' }), histWrap,
        el('h3', { text: 'Size histogram (blocks by size, log2 buckets of bytes)' }), sizeWrap,
        el('h3', { text: 'Lifetime against size (the site\'s blocks; darker: more blocks)' }), heatWrap]),
      el('div', {}, [el('h3', { text: 'Access map (byte reads and writes by offset in the block)' }), mapWrap]),
    ]));
    var withSite = sides.filter(function (x) { return x.site; });
    var last = withSite[withSite.length - 1];
    LH.charts.histogram(histWrap, withSite.map(function (x, i) {
      return { label: (sides.length > 1 ? x.label + ' ' : '') + 'blocks', values: x.site.lifetime.histogram,
        color: x.label === 'baseline' ? '#868e96' : '#1c7ed6' };
    }), { minLength: durationBucket(last.model.duration) + 1,
      marks: [{ x: durationBucket(last.model.duration), label: 'run duration', color: '#495057', dash: true }] });
    // Appended once the wrapper is in the page, so the chart takes its width.
    LH.shapesView.siteSizes(sizeWrap, sides);
    LH.shapesView.siteHeatMaps(heatWrap, sides);
    // In diff mode both maps share the count scale (the larger of their tallest values).
    var mapMax = 0;
    if (withSite.length > 1) {
      withSite.forEach(function (x) {
        var m = acc(x.site).map;
        if (m) m.reads.concat(m.writes).forEach(function (v) { if (v > mapMax) mapMax = v; });
      });
    }
    withSite.forEach(function (x) {
      var map = acc(x.site).map;
      var title = sides.length > 1 ? x.label + ': ' : '';
      if (!map) {
        mapWrap.appendChild(el('p', { className: 'empty', text: title + 'no access map: the blocks of this site were never accessed.' }));
        return;
      }
      var caption = map.kind === 'bytes'
        ? 'every block is ' + f.exactBytes(map.block_size) + '; reads and writes per byte offset, summed over blocks'
        : 'blocks split into ' + map.buckets + ' equal parts by offset; reads and writes per part, summed over blocks';
      var holder = el('div', { className: 'chart access-map' });
      var readout = el('p', { className: 'caption map-zoom' });
      mapWrap.appendChild(el('p', { className: 'caption', text: title + caption }));
      mapWrap.appendChild(holder);
      mapWrap.appendChild(readout);
      LH.charts.accessMap(holder, map, { readout: readout, blockSize: acc(x.site).block_size || null, yMax: mapMax || null });
    });
  }

  function header(model, siteIndex, extra) {
    return el('div', { className: 'detail-head' }, [
      el('h2', {}, [
        el('span', { className: 'fn', text: model.siteName(siteIndex) }),
        el('span', { className: 'loc', text: ' ' + model.siteLocation(siteIndex) }),
      ]),
      el('span', { className: 'dim', text: 'site #' + siteIndex + (extra || '') }),
    ].concat(findingBadges(model, siteIndex)));
  }

  function significanceNote(model, site) {
    if (site.timeline) return null;
    return el('p', { className: 'note', text: 'No series in the timeline chart and no growth figures for this site: its own max (' +
      f.bytes(site.max_bytes) + ') is below ' + f.percent(model.profile.timeline.significant_site_fraction) + ' of the peak.' });
  }

  // The per-site arrays are checked when the site is first shown (see profile.js).
  function arraysValid(container, site, siteIndex) {
    try {
      LH.profile.checkSiteArrays(site, siteIndex);
      return true;
    } catch (e) {
      container.appendChild(el('p', { className: 'error-inline', text: 'This site cannot be shown: ' + e.message }));
      return false;
    }
  }

  function renderSingle(container, model, siteIndex) {
    LH.dom.clear(container);
    if (siteIndex < 0) {
      container.appendChild(el('p', { className: 'empty', text: 'Select a site in the table, the call tree or a finding to see it in full.' }));
      return;
    }
    var site = model.sites[siteIndex];
    container.appendChild(header(model, siteIndex));
    var notes = notesList(site);
    if (notes) container.appendChild(notes);
    if (!arraysValid(container, site, siteIndex)) return;
    container.appendChild(el('div', { className: 'detail-body' }, [
      el('div', { className: 'detail-stack' }, [el('h3', { text: 'Allocation stack (innermost first)' }), stackTable(model, siteIndex), significanceNote(model, site)]),
      el('div', { className: 'detail-metrics' }, GROUPS.map(function (g) {
        return groupTable(g[0], g[1], [{ label: 'value', site: site, model: model }]);
      })),
    ]));
    charts(container, [{ label: 'value', site: site, model: model }]);
  }

  function renderDiff(container, diff, row) {
    LH.dom.clear(container);
    if (row < 0) {
      container.appendChild(el('p', { className: 'empty', text: 'Select a site to compare it between the baseline and the changed profile.' }));
      return;
    }
    var naming = diff.namingSite(row);
    var bi = diff.rowBase[row], ci = diff.rowChanged[row];
    var sides = [
      { label: 'baseline', site: bi >= 0 ? diff.base.sites[bi] : null, model: diff.base },
      { label: 'changed', site: ci >= 0 ? diff.changed.sites[ci] : null, model: diff.changed },
    ];
    if ((sides[0].site && !arraysValid(container, sides[0].site, bi)) || (sides[1].site && !arraysValid(container, sides[1].site, ci))) return;
    var status = diff.status(row);
    container.appendChild(header(naming.model, naming.index, status === 'both' ? ' (baseline #' + bi + ')' : ' — ' +
      (status === 'new' ? 'NEW: only in the changed profile' : 'GONE: only in the baseline')));
    var noteSides = sides.map(function (x) { return x.site ? notesList(x.site, x.label) : null; });
    if (noteSides[0] || noteSides[1]) container.appendChild(el('div', { className: 'diff-details' }, noteSides));
    container.appendChild(el('div', { className: 'detail-body' }, [
      el('div', { className: 'detail-stack' }, [el('h3', { text: 'Allocation stack (innermost first)' }), stackTable(naming.model, naming.index)]),
      el('div', { className: 'detail-metrics' }, GROUPS.map(function (g) { return groupTable(g[0], g[1], sides); })),
    ]));
    charts(container, sides);
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff, siteNotes: siteNotes };
})();
