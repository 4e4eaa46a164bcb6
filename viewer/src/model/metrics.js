// The per-site metrics the viewer can show and sort by. DOM-free.
// The columns are the entries of docs/metrics.json, the table the CLI's metrics are
// generated from too: each reads one stored field (docs/format.md) and may divide it
// (per block, per measured byte, by the run's duration); docs/viewer.md, "Sites table".
// A value of null means "not defined for this site" (e.g. a percentage of zero bytes).
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.metrics = (function () {
  function ratioOrNull(numerator, denominator) {
    return denominator > 0 ? numerator / denominator : null;
  }
  // The value at a JSON path of a site ("access.at_peak.never_read_bytes"); null when a
  // part is absent (no access data, a site without growth).
  function at(site, path) {
    var v = site;
    var parts = path.split('.');
    for (var i = 0; i < parts.length; i++) {
      if (v === null || v === undefined) return null;
      v = v[parts[i]];
    }
    return v === undefined ? null : v;
  }
  // docs/metrics.json's derivations (see scripts/gen-metrics-table.py for the fields).
  var DERIVE = {
    per_block: function (v, s) { return s.total_blocks > 0 ? v / s.total_blocks : null; },
    per_measured_byte: function (v, s) { return ratioOrNull(v, at(s, 'access.measured_bytes')); },
  };
  // The table's units as display kinds: bytes | count | percent (a 0..1 fraction) |
  // ratio | time (an instant, shown as % of the run) | instr (a duration in instructions).
  var KIND = { bytes: 'bytes', count: 'count', instructions: 'instr', time: 'time', share: 'percent',
    share_of_run: 'percent', ratio: 'ratio' };

  function column(entry) {
    if (!KIND[entry.unit]) throw new Error('metrics: unknown unit ' + entry.unit + ' of ' + entry.column);
    if (entry.derive && !DERIVE[entry.derive]) throw new Error('metrics: unknown derivation ' + entry.derive);
    return {
      id: entry.column, name: entry.name, label: entry.label, kind: KIND[entry.unit], title: entry.description,
      value: function (s, m) {
        var v = at(s, entry.site);
        if (v === null) return null;
        if (entry.derive) v = DERIVE[entry.derive](v, s);
        if (v !== null && entry.unit === 'share_of_run') v = m.duration > 0 ? v / m.duration : null;
        return v;
      },
    };
  }

  // One column per entry of docs/metrics.json that has a column id (viewer/build.js
  // builds the table in as LH.metricTable; the CLI's metrics come from the same table).
  if (!Array.isArray(LH.metricTable)) throw new Error('internal error: the built-in metrics table is missing');
  var columns = LH.metricTable.filter(function (e) { return e.column && e.site; }).map(column);
  var byId = {};
  columns.forEach(function (c) { byId[c.id] = c; });

  // Column groups: "Main" is always shown and fits a 1280-pixel screen with the site's
  // name; the others are shown on demand (the table's "More columns" choice). A column
  // of the table that no group names joins the last group, so none is ever lost.
  var groups = [
    { id: 'Main', columns: ['bytes_at_peak', 'max_bytes', 'bytes_at_exit', 'total_bytes', 'total_blocks', 'avg_lifetime', 'never_read_pct'] },
    { id: 'Peak', columns: ['blocks_at_peak', 'max_blocks', 'max_time', 'blocks_at_exit', 'peak_never_read_bytes'] },
    { id: 'Lifetime', columns: ['max_lifetime', 'min_lifetime', 'freed_blocks', 'first_alloc_time', 'last_alloc_time'] },
    // Unused capacity last, so Growth's regrowth columns follow it: both say why a
    // buffer is bigger than its data.
    { id: 'Access', columns: ['never_read_bytes', 'never_written_bytes', 'never_written_pct', 'never_accessed_bytes',
      'written_never_read_bytes', 'reads_per_byte', 'writes_per_byte', 'bytes_read', 'bytes_written',
      'unused_capacity_bytes', 'unused_capacity_pct'] },
    { id: 'Growth', columns: ['reallocs', 'realloc_bytes_copied', 'realloc_requested_bytes', 'rising_fraction', 'growth_slope',
      'end_to_max_ratio'] },
    { id: 'Threads', columns: ['cross_thread_frees', 'allocating_threads'] },
  ];
  groups.forEach(function (g) {
    g.columns = g.columns.filter(function (id) { return byId[id]; });
    g.columns.forEach(function (id) { byId[id].group = g.id; });
  });
  columns.forEach(function (c) {
    if (!c.group) { c.group = groups[groups.length - 1].id; groups[groups.length - 1].columns.push(c.id); }
  });
  // Columns in table order: the main ones first, then each group's in its order.
  var ordered = [];
  groups.forEach(function (g) { g.columns.forEach(function (id) { ordered.push(byId[id]); }); });

  // Short text for a cell and the exact text for its hover title.
  function display(column, value, duration) {
    var f = LH.format;
    if (value === null || value === undefined) return { text: '—', title: 'not defined for this site' };
    switch (column.kind) {
      case 'bytes': return { text: f.bytes(value), title: f.exactBytes(value) };
      case 'count': return { text: f.count(value), title: f.exactCount(value) };
      case 'percent': return { text: f.percent(value), title: String(value) };
      case 'ratio': return { text: f.ratio(value), title: String(value) };
      case 'time': return { text: f.percent(duration > 0 ? value / duration : null),
        title: f.exactCount(value) + ' instructions' };
      case 'instr': return { text: f.instructions(value), title: f.exactCount(value) + ' instructions' };
      default: return { text: String(value), title: String(value) };
    }
  }

  // Same, for a change between two values (diff mode).
  function displayDelta(column, delta, duration) {
    var f = LH.format;
    if (delta === null || delta === undefined) return '—';
    var d = display(column, delta, duration);
    if (column.kind === 'time') d = { text: f.percent(duration > 0 ? delta / duration : null) };
    return delta > 0 ? '+' + d.text : d.text;
  }

  // at and derive serve the site detail's figures too (views/site_detail.js).
  return { columns: ordered, groups: groups, byId: byId, display: display, displayDelta: displayDelta, at: at, derive: DERIVE };
})();
