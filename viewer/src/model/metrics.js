// The per-site metrics the viewer can show and sort by. DOM-free.
// Each column reads one stored field (docs/format.md) or derives a ratio from stored
// fields; the derivations are the ones written in docs/viewer.md ("Sites table").
// A value of null means "not defined for this site" (e.g. a percentage of zero bytes).
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.metrics = (function () {
  function ratioOrNull(numerator, denominator) {
    return denominator > 0 ? numerator / denominator : null;
  }
  function access(s) { return s.access || {}; }

  // kind decides formatting: bytes | count | percent (a 0..1 fraction) | ratio | time
  // (instructions, shown as % of the run) | instr (a duration in instructions).
  var columns = [
    { id: 'bytes_at_peak', label: 'At peak', kind: 'bytes', title: 'Bytes live at the global peak',
      value: function (s) { return s.bytes_at_peak; } },
    { id: 'blocks_at_peak', label: 'Blocks at peak', kind: 'count', title: 'Blocks live at the global peak',
      value: function (s) { return s.blocks_at_peak; } },
    { id: 'total_bytes', label: 'Total bytes', kind: 'bytes', title: 'Bytes allocated over the run (plus realloc growth)',
      value: function (s) { return s.total_bytes; } },
    { id: 'total_blocks', label: 'Total blocks', kind: 'count', title: 'Blocks allocated over the run',
      value: function (s) { return s.total_blocks; } },
    { id: 'max_bytes', label: 'Own max', kind: 'bytes', title: "The site's own maximum of live bytes",
      value: function (s) { return s.max_bytes; } },
    { id: 'max_blocks', label: 'Own max blocks', kind: 'count', title: 'Live blocks when the site reached its own maximum',
      value: function (s) { return s.max_blocks; } },
    { id: 'max_time', label: 'Own max at', kind: 'time', title: 'When the site first reached its own maximum (% of run)',
      value: function (s) { return s.max_time; } },
    { id: 'bytes_at_exit', label: 'At exit', kind: 'bytes', title: 'Bytes still live when the profile was written',
      value: function (s) { return s.bytes_at_exit; } },
    { id: 'blocks_at_exit', label: 'Blocks at exit', kind: 'count', title: 'Blocks still live when the profile was written',
      value: function (s) { return s.blocks_at_exit; } },
    { id: 'freed_blocks', label: 'Freed blocks', kind: 'count', title: 'Blocks of this site freed by the program',
      value: function (s) { return s.freed_blocks; } },
    { id: 'avg_lifetime', label: 'Avg life', kind: 'percent', title: 'Average block lifetime, % of the run (lifetime.sum / total_blocks / duration)',
      value: function (s, m) { return s.total_blocks > 0 && m.duration > 0 ? s.lifetime.sum / s.total_blocks / m.duration : null; } },
    { id: 'max_lifetime', label: 'Max life', kind: 'percent', title: 'Longest block lifetime, % of the run',
      value: function (s, m) { return ratioOrNull(s.lifetime.max, m.duration); } },
    { id: 'min_lifetime', label: 'Min life', kind: 'instr', title: 'Shortest block lifetime, instructions',
      value: function (s) { return s.lifetime.min; } },
    { id: 'never_read_bytes', label: 'Never read', kind: 'bytes', title: 'Bytes never read',
      value: function (s) { return access(s).never_read_bytes; } },
    { id: 'never_read_pct', label: 'Never read %', kind: 'percent', title: 'never_read_bytes / measured_bytes',
      value: function (s) { return ratioOrNull(access(s).never_read_bytes, access(s).measured_bytes); } },
    { id: 'never_written_bytes', label: 'Never written', kind: 'bytes', title: 'Bytes never written',
      value: function (s) { return access(s).never_written_bytes; } },
    { id: 'never_written_pct', label: 'Never written %', kind: 'percent', title: 'never_written_bytes / measured_bytes',
      value: function (s) { return ratioOrNull(access(s).never_written_bytes, access(s).measured_bytes); } },
    { id: 'never_accessed_bytes', label: 'Never touched', kind: 'bytes', title: 'Bytes neither read nor written',
      value: function (s) { return access(s).never_accessed_bytes; } },
    { id: 'written_never_read_bytes', label: 'Written, unread', kind: 'bytes', title: 'Bytes written at least once but never read',
      value: function (s) { return access(s).written_never_read_bytes; } },
    { id: 'unused_capacity_bytes', label: 'Unused capacity', kind: 'bytes', title: 'Bytes above the highest byte ever written, summed over blocks',
      value: function (s) { return access(s).unused_capacity_bytes; } },
    { id: 'unused_capacity_pct', label: 'Unused cap. %', kind: 'percent', title: 'unused_capacity_bytes / measured_bytes',
      value: function (s) { return ratioOrNull(access(s).unused_capacity_bytes, access(s).measured_bytes); } },
    // Regrowth next to unused capacity: both say why a buffer is bigger than its data
    // (a rows vector doubled 12 times, a quarter of it empty: USERS.md story 4).
    { id: 'reallocs', label: 'Reallocs', kind: 'count', title: 'realloc calls on an existing block',
      value: function (s) { return s.reallocs; } },
    { id: 'realloc_bytes_copied', label: 'Realloc copied', kind: 'bytes', title: 'Bytes copied to move blocks on realloc',
      value: function (s) { return s.realloc_bytes_copied; } },
    { id: 'realloc_requested_bytes', label: 'Realloc requested', kind: 'bytes', title: 'Sum of the new sizes requested by realloc',
      value: function (s) { return s.realloc_requested_bytes; } },
    { id: 'peak_never_read_bytes', label: 'Peak never read', kind: 'bytes', title: 'Of the bytes live at the peak, those never read (access.at_peak)',
      value: function (s) { return access(s).at_peak ? access(s).at_peak.never_read_bytes : null; } },
    { id: 'reads_per_byte', label: 'Reads/byte', kind: 'ratio', title: 'bytes_read / measured_bytes',
      value: function (s) { return ratioOrNull(access(s).bytes_read, access(s).measured_bytes); } },
    { id: 'writes_per_byte', label: 'Writes/byte', kind: 'ratio', title: 'bytes_written / measured_bytes',
      value: function (s) { return ratioOrNull(access(s).bytes_written, access(s).measured_bytes); } },
    { id: 'bytes_read', label: 'Bytes read', kind: 'bytes', title: 'Bytes read by the program',
      value: function (s) { return access(s).bytes_read; } },
    { id: 'bytes_written', label: 'Bytes written', kind: 'bytes', title: 'Bytes written by the program',
      value: function (s) { return access(s).bytes_written; } },
    { id: 'cross_thread_frees', label: 'X-thread frees', kind: 'count', title: 'Blocks freed by a thread other than the allocating one',
      value: function (s) { return s.cross_thread_frees; } },
    { id: 'allocating_threads', label: 'Alloc threads', kind: 'count', title: 'Distinct threads that allocated at this site',
      value: function (s) { return s.allocating_threads; } },
    { id: 'rising_fraction', label: 'Rising', kind: 'percent', title: 'growth.rising_fraction: share of timeline intervals in which live bytes rose',
      value: function (s) { return s.growth ? s.growth.rising_fraction : null; } },
    { id: 'growth_slope', label: 'Slope B/Minstr', kind: 'ratio', title: 'growth.slope_bytes_per_million_instructions',
      value: function (s) { return s.growth ? s.growth.slope_bytes_per_million_instructions : null; } },
    { id: 'end_to_max_ratio', label: 'End/max', kind: 'ratio', title: 'growth.end_to_max_ratio: bytes_at_exit / max_bytes',
      value: function (s) { return s.growth ? s.growth.end_to_max_ratio : null; } },
    { id: 'first_alloc_time', label: 'First alloc', kind: 'time', title: 'When the site allocated its first block (% of run)',
      value: function (s) { return s.first_alloc_time; } },
    { id: 'last_alloc_time', label: 'Last alloc', kind: 'time', title: 'When the site allocated its last block (% of run)',
      value: function (s) { return s.last_alloc_time; } },
  ];
  // Column groups: "Main" is always shown and fits a 1280-pixel screen with the site's
  // name; the others are shown on demand (the table's "Columns" choice).
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
  var byId = {};
  columns.forEach(function (c) { byId[c.id] = c; });
  groups.forEach(function (g) { g.columns.forEach(function (id) { byId[id].group = g.id; }); });
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

  return { columns: ordered, groups: groups, byId: byId, display: display, displayDelta: displayDelta };
})();
