// The selected site in full: its stack (every frame field), every per-site field of the
// profile grouped by meaning, its lifetime and size histograms, its access map and its
// blocks by lifetime against size. In diff mode each figure has baseline, changed and
// change columns, and each chart draws both runs on the same axes.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.siteDetailView = (function () {
  var el = LH.dom.el, f = LH.format;

  function acc(s) { return s.access || {}; }

  // Every figure of the site, one row each: [group, label, value, display kind
  // (LH.metrics.display)]. The value is a site member's dotted path (docs/format.md),
  // perhaps followed by a space and a derivation that divides the member: per_block and
  // per_measured_byte as the metrics table's columns (docs/metrics.json), of_run by the
  // run's duration, per_block_of_run both. A member a site lacks (a site without
  // growth) shows as not defined.
  var FIELDS = [
    ['Allocation', 'Total blocks', 'total_blocks', 'count'],
    ['Allocation', 'Total bytes', 'total_bytes', 'bytes'],
    ['Allocation', 'Freed blocks', 'freed_blocks', 'count'],
    ['Allocation', 'First allocation', 'first_alloc_time', 'time'],
    ['Allocation', 'Last allocation', 'last_alloc_time', 'time'],
    ['Allocation', 'Allocating threads', 'allocating_threads', 'count'],
    ['Allocation', 'Cross-thread frees', 'cross_thread_frees', 'count'],
    ['Allocation', 'Reallocs', 'reallocs', 'count'],
    ['Allocation', 'Realloc requested', 'realloc_requested_bytes', 'bytes'],
    ['Allocation', 'Realloc copied', 'realloc_bytes_copied', 'bytes'],
    ['Live', 'Bytes at peak', 'bytes_at_peak', 'bytes'],
    ['Live', 'Blocks at peak', 'blocks_at_peak', 'count'],
    ['Live', 'Own max bytes', 'max_bytes', 'bytes'],
    ['Live', 'Own max blocks', 'max_blocks', 'count'],
    ['Live', 'Own max reached at', 'max_time', 'time'],
    ['Live', 'Bytes at exit', 'bytes_at_exit', 'bytes'],
    ['Live', 'Blocks at exit', 'blocks_at_exit', 'count'],
    ['Lifetime', 'Average', 'lifetime.sum per_block', 'instr'],
    ['Lifetime', 'Average, % of run', 'lifetime.sum per_block_of_run', 'percent'],
    ['Lifetime', 'Minimum', 'lifetime.min', 'instr'],
    ['Lifetime', 'Maximum', 'lifetime.max', 'instr'],
    ['Lifetime', 'Maximum, % of run', 'lifetime.max of_run', 'percent'],
    ['Lifetime', 'Sum', 'lifetime.sum', 'instr'],
    ['Access', 'Bytes read', 'access.bytes_read', 'bytes'],
    ['Access', 'Bytes written', 'access.bytes_written', 'bytes'],
    ['Access', 'Measured bytes', 'access.measured_bytes', 'bytes'],
    ['Access', 'Reads per byte', 'access.bytes_read per_measured_byte', 'ratio'],
    ['Access', 'Writes per byte', 'access.bytes_written per_measured_byte', 'ratio'],
    ['Access', 'Never read', 'access.never_read_bytes', 'bytes'],
    ['Access', 'Never written', 'access.never_written_bytes', 'bytes'],
    ['Access', 'Never read or written', 'access.never_accessed_bytes', 'bytes'],
    ['Access', 'Written, never read', 'access.written_never_read_bytes', 'bytes'],
    ['Access', 'Unused capacity', 'access.unused_capacity_bytes', 'bytes'],
    ['Access', 'Idle before free (sum)', 'access.idle_before_free', 'instr'],
    ['Access', 'First-access delay (sum)', 'access.first_access_delay', 'instr'],
    ['Of the blocks live at the peak', 'Bytes', 'access.at_peak.bytes', 'bytes'],
    ['Of the blocks live at the peak', 'Never read', 'access.at_peak.never_read_bytes', 'bytes'],
    ['Of the blocks live at the peak', 'Never written', 'access.at_peak.never_written_bytes', 'bytes'],
    ['Of the blocks live at the peak', 'Never read or written', 'access.at_peak.never_accessed_bytes', 'bytes'],
    ['Of the blocks live at the peak', 'Unused capacity', 'access.at_peak.unused_capacity_bytes', 'bytes'],
    ['Growth', 'Rising fraction', 'growth.rising_fraction', 'percent'],
    ['Growth', 'Slope (bytes / M instr)', 'growth.slope_bytes_per_million_instructions', 'ratio'],
    ['Growth', 'End / max ratio', 'growth.end_to_max_ratio', 'ratio'],
  ];
  function ofRun(v, s, m) { return m.duration > 0 ? v / m.duration : null; }
  var DERIVE = {
    per_block: LH.metrics.derive.per_block,
    per_measured_byte: LH.metrics.derive.per_measured_byte,
    of_run: ofRun,
    per_block_of_run: function (v, s, m) { var b = LH.metrics.derive.per_block(v, s); return b === null ? null : ofRun(b, s, m); },
  };
  function fieldValue(field, site, model) {
    var parts = field[2].split(' ');
    var v = LH.metrics.at(site, parts[0]);
    return v === null || parts.length === 1 ? v : DERIVE[parts[1]](v, site, model);
  }
  // [group title, its fields], in the order of FIELDS.
  var GROUPS = FIELDS.reduce(function (groups, field) {
    var last = groups[groups.length - 1];
    if (last && last[0] === field[0]) last[1].push(field);
    else groups.push([field[0], [field]]);
    return groups;
  }, []);

  function shown(kind, value, duration) {
    return LH.metrics.display({ kind: kind }, value === undefined ? null : value, duration);
  }

  function groupTable(title, rows, sides) {
    // sides: [{label, site, model}] — one for a profile, two (baseline, changed) for a diff.
    var head = el('tr', {}, [el('th', { text: title, className: 'group' })].concat(sides.length > 1 ? [
      el('th', { text: 'baseline' }), el('th', { text: 'changed' }), el('th', { text: 'change' })] : []));
    var body = rows.map(function (r) {
      var label = r[1], kind = r[3];
      var values = sides.map(function (side) { return side.site ? fieldValue(r, side.site, side.model) : null; });
      var cells = values.map(function (v, i) {
        var d = shown(kind, v, sides[i].model.duration);
        return el('td', { className: 'num', text: d.text, title: d.title });
      });
      if (sides.length > 1) {
        var b = values[0], c = values[1];
        var additive = kind === 'bytes' || kind === 'count';
        var delta = (b === null || c === null) && !additive ? null : (c || 0) - (b || 0);
        var text = delta === null ? '—' : LH.metrics.displayDelta({ kind: kind }, delta, sides[1].model.duration);
        cells.push(el('td', { className: 'num ' + (delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : ''), text: text }));
      }
      return el('tr', {}, [el('th', { text: label })].concat(cells));
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
    var statusText = { 'new': 'NEW: only in the changed profile', gone: 'GONE: only in the baseline',
      unpaired: 'NOT PAIRED: a site of the ' + (bi >= 0 ? 'baseline' : 'changed profile') + ' (a profile without site keys)' };
    container.appendChild(header(naming.model, naming.index, status === 'both' ? ' (baseline #' + bi + ')' : ' — ' + statusText[status]));
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
