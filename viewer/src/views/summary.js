// The header: what was run, how long, the peak, what was live at exit, whole-run totals
// and the findings count — every field of tool, run, totals, peak and at_exit. In diff
// mode each figure reads "baseline → changed (change)".
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.summaryView = (function () {
  var el = LH.dom.el, f = LH.format;

  // dumpReason: run.dump_reason; "exec" is a profile written just before the
  // program exec'd another one that ran without lifeheap.
  function exitText(exit, dumpReason) {
    if (!exit) return '—';
    if (exit.status === 'exited') return 'exited with code ' + exit.code;
    if (exit.status === 'signal') return 'killed by ' + (exit.signal_name || 'signal ' + exit.signal);
    if (exit.status === 'running' && dumpReason === 'exec') return "exec'd another program (partial profile)";
    if (exit.status === 'running') return 'still running (partial profile)';
    return String(exit.status);
  }

  // The warning above a partial profile; duration in instructions.
  function partialText(dumpReason, duration) {
    var upTo = ': figures cover the run up to ' + f.exactCount(duration) + ' instructions.';
    if (dumpReason === 'exec')
      return "Partial profile, written when the program exec'd another program, which ran without lifeheap" + upTo;
    return 'Partial profile (written on ' + String(dumpReason) + ' while the program was still running)' + upTo;
  }

  function percentOfRun(time, duration) { return duration > 0 ? f.percent(time / duration) : '—'; }

  // One figure card. value/title are for the single profile; diff adds the baseline.
  function card(id, label, big, title, detail) {
    return el('div', { className: 'card', attrs: { 'data-field': id } }, [
      el('div', { className: 'card-label', text: label }),
      el('div', { className: 'card-value', text: big, title: title }),
      detail ? el('div', { className: 'card-detail', text: detail }) : null,
    ]);
  }

  function deltaCard(id, label, baseValue, changedValue, kind) {
    var fmt = kind === 'bytes' ? f.bytes : f.count;
    var exact = kind === 'bytes' ? f.exactBytes : f.exactCount;
    var delta = changedValue - baseValue;
    var rel = baseValue !== 0 ? ' (' + (delta > 0 ? '+' : '') + f.percent(delta / baseValue) + ')' : '';
    var cls = delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : 'delta-zero';
    return el('div', { className: 'card', attrs: { 'data-field': id } }, [
      el('div', { className: 'card-label', text: label }),
      el('div', { className: 'card-value', title: exact(baseValue) + ' → ' + exact(changedValue) }, [
        el('span', { className: 'card-base', text: fmt(baseValue) + ' → ' }),
        el('span', { text: fmt(changedValue) }),
      ]),
      el('div', { className: 'card-detail ' + cls, text: f.signed(fmt(delta), delta) + rel }),
    ]);
  }

  function findingCounts(findings) {
    var counts = { high: 0, medium: 0, low: 0 };
    findings.forEach(function (x) { if (counts[x.severity] !== undefined) counts[x.severity]++; });
    return counts.high + ' high, ' + counts.medium + ' medium, ' + counts.low + ' low';
  }

  function runDetails(p) {
    var run = p.run;
    var rows = [
      ['Command', f.argv(run.command)],
      ['Executable', run.executable],
      ['Exit', exitText(run.exit, run.dump_reason)],
      ['Profile', (run.complete ? 'complete' : 'PARTIAL') + ', written on ' + String(run.dump_reason)],
      ['Duration', f.exactCount(run.duration) + ' ' + String(run.time_unit) + ', ' + f.exactCount(run.wall_time_ms) + ' ms wall time'],
      ['Threads', f.exactCount(run.threads)],
      ['Process', 'pid ' + String(run.pid) + ', parent ' + String(run.ppid)],
      ['Started', typeof run.started_at_unix_ms === 'number' ? new Date(run.started_at_unix_ms).toISOString() : '—'],
      ['Tool', String(p.tool.name) + ' ' + String(p.tool.version) + ' on Valgrind ' + String(p.tool.valgrind_version)],
      ['Timeline', p.timeline.times.length + ' points, peak at point ' + p.timeline.peak_index + ', ' +
        p.timeline.markers.length + ' markers; sites with own max ≥ ' + f.percent(p.timeline.significant_site_fraction) +
        ' of the peak have their own series'],
    ];
    var options = run.options || {};
    var optionRows = Object.keys(options).map(function (k) {
      return el('tr', {}, [el('th', { text: k }), el('td', { text: JSON.stringify(options[k]) })]);
    });
    return el('details', { className: 'run-details' }, [
      el('summary', { text: 'Run details and options' }),
      el('table', { className: 'kv' }, rows.map(function (r) {
        return el('tr', {}, [el('th', { text: r[0] }), el('td', { text: r[1] })]);
      })),
      el('table', { className: 'kv options' }, [el('caption', { text: 'Options in effect' })].concat(optionRows)),
    ]);
  }

  function renderSingle(container, model) {
    var p = model.profile, run = p.run, d = run.duration;
    LH.dom.clear(container);
    var title = el('div', { className: 'command-line' }, [
      el('code', { className: 'command', text: f.argv(run.command), title: run.executable }),
      el('span', { className: 'exit ' + (run.exit && run.exit.status === 'exited' && run.exit.code === 0 ? 'ok' : 'bad'), text: exitText(run.exit, run.dump_reason) }),
    ]);
    container.appendChild(title);
    if (!run.complete) {
      container.appendChild(el('div', { className: 'warning', text: partialText(run.dump_reason, d) }));
    }
    // "1 thread", "2 threads": a header a stranger reads without stumbling.
    function counted(n, one, many) { return f.exactCount(n) + ' ' + (n === 1 ? one : many); }
    // Frees and reallocs of pointers that were not live blocks (absent in older profiles).
    var invalidFrees = p.totals.invalid_frees || 0, invalidReallocs = p.totals.invalid_reallocs || 0;
    if (invalidFrees || invalidReallocs) {
      container.appendChild(el('div', { className: 'warning invalid-frees', text: 'Invalid: ' +
        counted(invalidFrees, 'free', 'frees') + ', ' + counted(invalidReallocs, 'realloc', 'reallocs') +
        ' of pointers that were not live heap blocks (ignored).' }));
    }
    var cards = el('div', { className: 'cards' }, [
      card('duration', 'Duration', f.instructions(d), f.exactCount(d) + ' instructions', f.exactCount(run.wall_time_ms) + ' ms wall, ' + counted(run.threads, 'thread', 'threads')),
      card('peak', 'Peak', f.bytes(p.peak.bytes), f.exactBytes(p.peak.bytes),
        counted(p.peak.blocks, 'block', 'blocks') + ' at ' + percentOfRun(p.peak.time, d) + ' of the run'),
      card('at_exit', 'Live at exit', f.bytes(p.at_exit.bytes), f.exactBytes(p.at_exit.bytes), counted(p.at_exit.blocks, 'block', 'blocks')),
      card('total', 'Allocated', f.bytes(p.totals.bytes), f.exactBytes(p.totals.bytes),
        counted(p.totals.blocks, 'block', 'blocks') + ', ' + counted(p.totals.frees, 'free', 'frees')),
      card('reallocs', 'Reallocs', f.count(p.totals.reallocs), f.exactCount(p.totals.reallocs),
        f.bytes(p.totals.realloc_requested_bytes) + ' requested, ' + f.bytes(p.totals.realloc_bytes_copied) + ' copied'),
      card('access', 'Read by the program', f.bytes(p.totals.bytes_read), f.exactBytes(p.totals.bytes_read),
        f.bytes(p.totals.bytes_written) + ' written (' + f.exactCount(p.totals.bytes_written) + ' bytes)'),
      card('findings', 'Findings', String(p.findings.length), null, findingCounts(p.findings)),
      card('sites', 'Sites', f.count(p.sites.length), f.exactCount(p.sites.length), f.exactCount(p.frames.length) + ' frames'),
    ]);
    container.appendChild(cards);
    container.appendChild(runDetails(p));
  }

  // Every whole-run figure of both profiles, side by side.
  function totalsTable(b, c) {
    var rows = [];
    [['totals', 'Totals'], ['peak', 'Peak'], ['at_exit', 'At exit']].forEach(function (group) {
      Object.keys(c[group[0]]).forEach(function (key) {
        var bv = b[group[0]][key], cv = c[group[0]][key];
        if (typeof cv !== 'number' || typeof bv !== 'number') return;
        var isBytes = /bytes/.test(key);
        var exact = isBytes ? f.exactBytes : f.exactCount;
        var delta = cv - bv;
        rows.push(el('tr', {}, [
          el('th', { text: group[1] + ' ' + key.replace(/_/g, ' ') }),
          el('td', { className: 'num', text: exact(bv) }),
          el('td', { className: 'num', text: exact(cv) }),
          el('td', { className: 'num ' + (delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : ''), text: f.signed(exact(delta), delta) }),
        ]));
      });
    });
    return el('details', { className: 'run-details' }, [
      el('summary', { text: 'All whole-run figures (baseline, changed, change)' }),
      el('table', { className: 'kv metrics' }, [el('tr', {}, [el('th'), el('th', { text: 'baseline' }), el('th', { text: 'changed' }), el('th', { text: 'change' })])].concat(rows)),
    ]);
  }

  function renderDiff(container, diff) {
    var b = diff.base.profile, c = diff.changed.profile;
    LH.dom.clear(container);
    container.appendChild(el('div', { className: 'command-line' }, [
      el('span', { className: 'diff-badge', text: 'DIFF' }),
      el('code', { className: 'command', text: 'baseline: ' + f.argv(b.run.command) }),
      el('code', { className: 'command', text: 'changed: ' + f.argv(c.run.command) }),
    ]));
    container.appendChild(el('div', { className: 'cards' }, [
      deltaCard('duration', 'Duration (instr)', b.run.duration, c.run.duration, 'count'),
      deltaCard('peak', 'Peak', b.peak.bytes, c.peak.bytes, 'bytes'),
      deltaCard('peak_blocks', 'Blocks at peak', b.peak.blocks, c.peak.blocks, 'count'),
      deltaCard('at_exit', 'Live at exit', b.at_exit.bytes, c.at_exit.bytes, 'bytes'),
      deltaCard('total', 'Allocated', b.totals.bytes, c.totals.bytes, 'bytes'),
      deltaCard('total_blocks', 'Blocks allocated', b.totals.blocks, c.totals.blocks, 'count'),
      deltaCard('realloc_copied', 'Realloc copied', b.totals.realloc_bytes_copied, c.totals.realloc_bytes_copied, 'bytes'),
      deltaCard('findings', 'Findings', b.findings.length, c.findings.length, 'count'),
    ]));
    var newSites = 0, goneSites = 0;
    for (var r = 0; r < diff.length; r++) {
      var s = diff.status(r);
      if (s === 'new') newSites++; else if (s === 'gone') goneSites++;
    }
    container.appendChild(el('div', { className: 'diff-note', text: diff.keyless.length > 0
      ? diff.base.sites.length + ' baseline sites and ' + diff.changed.sites.length + ' changed sites, not paired (the note at the top says why).'
      : diff.length + ' sites compared: ' + newSites + ' new, ' + goneSites + ' gone, ' + (diff.length - newSites - goneSites) + ' in both.' }));
    container.appendChild(totalsTable(b, c));
    var details = el('div', { className: 'diff-details' }, [runDetails(b), runDetails(c)]);
    details.firstChild.querySelector('summary').textContent = 'Baseline run details and options';
    details.lastChild.querySelector('summary').textContent = 'Changed run details and options';
    container.appendChild(details);
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff, exitText: exitText, partialText: partialText };
})();
