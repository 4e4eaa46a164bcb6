// The page controller: gets profiles in (embedded by `lifeheap view`, ?url= when
// served, file picker, drag and drop), keeps the selection, and tells each view to draw.
// body[data-state] is "empty", "loading", "ready" or "error" and body[data-loads] counts
// finished loads, so a user agent (and the tests) can tell where loading stands;
// window.lifeheapViewer exposes the state too.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.app = (function () {
  var el = LH.dom.el, $ = LH.dom.byId, f = LH.format;

  var state = {
    model: null,        // the profile shown (the "changed" one in diff mode)
    base: null,         // the baseline in diff mode
    diff: null,
    selected: -1,       // a site id, or a diff row in diff mode
    chartRows: [],      // sites (or rows) whose series are drawn over the timeline
    loadTimings: null,
  };
  var table, tree;

  // data-loads counts finished loads (ready or error), so a caller can wait for the
  // outcome of the load it started rather than see the previous one's state.
  var finishedLoads = 0;
  function setState(name) {
    if (name === 'ready' || name === 'error') document.body.setAttribute('data-loads', String(++finishedLoads));
    document.body.setAttribute('data-state', name);
  }

  function showMessage(text, kind) {
    var box = $('message');
    box.textContent = text;
    box.className = kind || 'error';
    box.hidden = !text;
  }

  function showProgress(label, fraction) {
    $('progress').hidden = label === null;
    if (label !== null) {
      $('progress-label').textContent = label;
      if (fraction === null || fraction === undefined) $('progress-bar').removeAttribute('value');
      else $('progress-bar').value = fraction;
    }
  }

  function loadText(text, name) {
    showProgress('Reading ' + name + '…', null);
    return LH.profile.load(text, name, function (fraction, label) { showProgress(label, fraction); });
  }

  function failed(name, error) {
    showProgress(null);
    var message = error && error.name === 'ProfileError' ? error.message : String(error && error.message || error);
    showMessage('Could not open ' + name + ': ' + message);
    if (!state.model) { $('app').hidden = true; $('welcome').hidden = false; }
    setState('error');
  }

  // --- Adapters: what the table shows for a profile or for a diff -----------------

  function singleAdapter(model) {
    return {
      mode: 'single', count: model.sites.length,
      idText: function (r) { return String(r); },
      name: function (r) { return { name: model.siteName(r), location: model.siteLocation(r), stack: model.stackText(r),
        notes: LH.siteDetailView.siteNotes(model.sites[r]) }; },
      cell: function (r, col) {
        var v = model.value(col.id, r);
        return LH.metrics.display(col, v !== v ? null : v, model.duration);
      },
      sortValues: function (id) { return model.column(id); },
      searchMask: function (q) { return model.searchMask(q); },
      status: function () { return 'both'; },
    };
  }

  function diffAdapter(diff) {
    var absolute = {};
    return {
      mode: 'diff', count: diff.length,
      // A row's id: the changed run's site ("4", "4+5" for twins), else "b" and the baseline's.
      idText: function (r) { return diff.rowChanged[r] >= 0 ? diff.rowIds(r, 'changed') : 'b' + diff.rowIds(r, 'base'); },
      name: function (r) {
        var n = diff.namingSite(r);
        var side = diff.rowChanged[r] >= 0 ? diff.changed.sites[diff.rowChanged[r]] : diff.base.sites[diff.rowBase[r]];
        return { name: n.model.siteName(n.index), location: n.model.siteLocation(n.index), stack: n.model.stackText(n.index),
          notes: LH.siteDetailView.siteNotes(side) };
      },
      cell: function (r, col) {
        var delta = diff.delta(r, col.id);
        var b = diff.sideValue(r, col.id, 'base'), c = diff.sideValue(r, col.id, 'changed');
        var dur = diff.changed.duration;
        var bt = b !== b ? 'absent' : LH.metrics.display(col, b, diff.base.duration).title;
        var ct = c !== c ? 'absent' : LH.metrics.display(col, c, dur).title;
        return { text: delta !== delta ? '—' : LH.metrics.displayDelta(col, delta, dur),
          title: 'baseline ' + bt + ' → changed ' + ct,
          cls: delta > 0 ? 'delta-up' : delta < 0 ? 'delta-down' : 'delta-zero' };
      },
      // "Sorted by change": the size of the change, whichever its sign.
      sortValues: function (id) {
        if (!absolute[id]) absolute[id] = diff.deltaColumn(id).map(Math.abs);
        return absolute[id];
      },
      searchMask: function (q) { return diff.searchMask(q); },
      status: function (r) { return diff.status(r); },
    };
  }

  // --- Rendering -------------------------------------------------------------------

  function renderAll() {
    var diff = state.diff, model = state.model;
    $('welcome').hidden = true;
    $('app').hidden = false;
    $('exit-diff').hidden = !diff;
    document.body.classList.toggle('diff-mode', !!diff);
    $('source-name').textContent = diff ? state.base.sourceName + ' → ' + model.sourceName : model.sourceName;
    document.title = 'lifeheap — ' + (diff ? 'diff ' : '') + f.argv(model.profile.run.command);
    if (diff) LH.headlineView.renderDiff($('headline'), diff, select);
    else LH.headlineView.renderSingle($('headline'), model, select);
    if (diff) LH.summaryView.renderDiff($('summary'), diff);
    else LH.summaryView.renderSingle($('summary'), model);
    if (diff) LH.findingsView.renderDiff($('findings'), diff, select);
    else LH.findingsView.renderSingle($('findings'), model, select);
    if (diff) LH.stackedView.renderDiff($('stacked'), diff, function (row) { select(row, false); });
    else LH.stackedView.renderSingle($('stacked'), model, function (row) { select(row, false); });
    if (diff) LH.shapesView.renderDiff($('shapes'), diff);
    else LH.shapesView.renderSingle($('shapes'), model);
    table.setData(diff ? diffAdapter(diff) : singleAdapter(model));
    $('search').value = '';
    updateSearchCount();
    tree.setData(diff ? { mode: 'diff', diff: diff } : { mode: 'single', model: model });
    if (!$('tab-tree').hidden) tree.show();
    var first = table.displayedRows(1)[0];
    state.chartRows = [];
    select(first === undefined ? -1 : first, false);
  }

  function select(row, additive) {
    if (additive && row >= 0) {
      var at = state.chartRows.indexOf(row);
      if (at >= 0 && state.chartRows.length > 1) state.chartRows.splice(at, 1);
      else if (at < 0) state.chartRows.push(row);
    } else {
      state.chartRows = row >= 0 ? [row] : [];
    }
    state.selected = row;
    table.select(row);
    tree.setSelected(row);
    LH.findingsView.highlight($('findings'), row);
    if (state.diff) {
      LH.siteDetailView.renderDiff($('site-detail'), state.diff, row);
      LH.timelineView.renderDiff($('timeline'), state.diff, state.chartRows);
    } else {
      LH.siteDetailView.renderSingle($('site-detail'), state.model, row);
      LH.timelineView.renderSingle($('timeline'), state.model, state.chartRows);
    }
  }

  function updateSearchCount() {
    var total = table.adapter ? table.adapter.count : 0;
    $('search-count').textContent = f.exactCount(table.visibleCount()) + ' of ' + f.exactCount(total) + ' sites';
  }

  // --- Loading ---------------------------------------------------------------------

  function finishLoad(started) {
    showProgress(null);
    showMessage('');
    var renderStart = Date.now();
    renderAll();
    state.loadTimings = {
      load_ms: renderStart - started, render_ms: Date.now() - renderStart,
      parse_ms: state.model.timings.parse_ms, validate_ms: state.model.timings.validate_ms,
    };
    setState('ready');
  }

  function openProfile(text, name) {
    var started = Date.now();
    setState('loading');
    return loadText(text, name).then(function (model) {
      state.model = model; state.base = null; state.diff = null;
      finishLoad(started);
    }, function (e) { failed(name, e); });
  }

  function openBaseline(text, name) {
    if (!state.model) { failed(name, new Error('open the changed profile first, then the baseline to compare it with.')); return Promise.resolve(); }
    var started = Date.now();
    setState('loading');
    return loadText(text, name).then(function (base) {
      state.base = base;
      state.diff = new LH.Diff(base, state.model);
      finishLoad(started);
    }, function (e) { failed(name, e); });
  }

  // Two profiles as one load, so the page is "ready" only once, already in diff mode.
  // aIsBaseline(ma, mb) says which of the two loaded models is the baseline.
  function openPair(a, b, aIsBaseline) {
    var started = Date.now();
    setState('loading');
    return loadText(a.text, a.name).then(function (ma) {
      return loadText(b.text, b.name).then(function (mb) {
        var aFirst = aIsBaseline(ma, mb);
        state.base = aFirst ? ma : mb;
        state.model = aFirst ? mb : ma;
        state.diff = new LH.Diff(state.base, state.model);
        finishLoad(started);
      }, function (e) { failed(b.name, e); });
    }, function (e) { failed(a.name, e); });
  }

  // Two files dropped or picked at once: the run that started earlier is the baseline.
  function earlierRun(ma, mb) {
    return (ma.profile.run.started_at_unix_ms || 0) <= (mb.profile.run.started_at_unix_ms || 0);
  }

  function readFile(file) {
    // Bytes, decoded strictly (LH.profile.decode): invalid UTF-8 is refused, as the CLI
    // refuses it, instead of being turned into U+FFFD.
    return file.arrayBuffer().then(function (bytes) {
      try {
        return { name: file.name, text: LH.profile.decode(bytes) };
      } catch (e) {
        e.fileName = file.name;
        throw e;
      }
    });
  }

  function openFiles(files, asBaseline) {
    if (files.length === 0) return;
    if (files.length > 2) { showMessage('Drop one profile, or two to compare them (the earlier run is the baseline).'); return; }
    Promise.all(Array.prototype.map.call(files, readFile)).then(function (read) {
      if (read.length === 2) return openPair(read[0], read[1], earlierRun);
      return asBaseline ? openBaseline(read[0].text, read[0].name) : openProfile(read[0].text, read[0].name);
    }, function (e) { failed(e && e.fileName || files[0].name, e); });
  }

  function fetchText(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error('the server answered ' + response.status + ' ' + response.statusText);
      return response.arrayBuffer().then(LH.profile.decode);
    }, function (e) {
      throw new Error('it could not be fetched (' + e.message + ').' +
        (location.protocol === 'file:' ? ' ?url= only works when the viewer is served over http(s); use Open or drag and drop instead.' :
          ' Only URLs on the same server as the viewer are allowed.'));
    });
  }

  function startFromPage() {
    var embedded = document.getElementById('lifeheap-profile');
    var embeddedBase = document.getElementById('lifeheap-baseline');
    if (embedded) {
      var changed = { text: embedded.textContent, name: embedded.getAttribute('data-name') || 'embedded profile' };
      // `lifeheap view FILE --baseline BASE`: a diff report, opened straight in diff mode.
      if (embeddedBase) {
        openPair({ text: embeddedBase.textContent, name: embeddedBase.getAttribute('data-name') || 'embedded baseline' },
          changed, function () { return true; });
      } else {
        openProfile(changed.text, changed.name);
      }
      return;
    }
    var params = new URLSearchParams(location.search);
    var url = params.get('url');
    if (url) {
      setState('loading');
      showProgress('Fetching ' + url + '…', null);
      fetchText(url).then(function (text) {
        return openProfile(text, url).then(function () {
          var baseUrl = params.get('baseline');
          if (baseUrl && state.model) {
            return fetchText(baseUrl).then(function (t) { return openBaseline(t, baseUrl); }, function (e) { failed(baseUrl, e); });
          }
        });
      }, function (e) { failed(url, e); });
      return;
    }
    setState('empty');
  }

  // --- Column groups --------------------------------------------------------------
  // The groups of table columns shown besides Main, remembered in localStorage when the
  // browser allows it (some refuse it to file:// pages: then the choice lasts the visit).

  var GROUPS_KEY = 'lifeheap.viewer.columnGroups';
  function storedGroups() {
    try {
      var known = LH.metrics.groups.map(function (g) { return g.id; });
      var list = JSON.parse(window.localStorage.getItem(GROUPS_KEY) || '[]');
      return Array.isArray(list) ? list.filter(function (g) { return known.indexOf(g) > 0; }) : [];
    } catch (e) { return []; }
  }
  function storeGroups(list) {
    try { window.localStorage.setItem(GROUPS_KEY, JSON.stringify(list)); } catch (e) { /* not remembered */ }
  }

  function columnGroupsControl(shown) {
    var box = $('column-groups');
    LH.dom.clear(box);
    box.appendChild(el('span', { className: 'dim', text: 'More columns:' }));
    LH.metrics.groups.slice(1).forEach(function (g) {
      var input = el('input', { attrs: { type: 'checkbox', 'data-group': g.id } });
      input.checked = shown.indexOf(g.id) >= 0;
      input.addEventListener('change', function () {
        var list = Array.prototype.filter.call(box.querySelectorAll('input:checked'), function () { return true; })
          .map(function (x) { return x.getAttribute('data-group'); });
        storeGroups(list);
        table.showGroups(list);
      });
      var titles = g.columns.map(function (id) { return LH.metrics.byId[id].label; }).join(', ');
      box.appendChild(el('label', { className: 'group-choice', title: titles }, [input, document.createTextNode(' ' + g.id)]));
    });
  }

  // --- Wiring ----------------------------------------------------------------------

  function wire() {
    var groups = storedGroups();
    table = new LH.SitesTable($('sites-table'), { onSelect: select, groups: groups });
    columnGroupsControl(groups);
    tree = new LH.CallTreeView($('tab-tree'), { onSelect: function (row) { select(row, false); } });
    $('open-file').addEventListener('change', function (e) { openFiles(e.target.files, false); e.target.value = ''; });
    $('open-baseline').addEventListener('change', function (e) { openFiles(e.target.files, true); e.target.value = ''; });
    $('exit-diff').addEventListener('click', function () {
      state.base = null; state.diff = null;
      renderAll();
    });
    var searchTimer = null;
    $('search').addEventListener('input', function () {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(function () {
        table.search($('search').value);
        updateSearchCount();
      }, 120);
    });
    Array.prototype.forEach.call(document.querySelectorAll('.tabs button'), function (button) {
      button.addEventListener('click', function () {
        var name = button.getAttribute('data-tab');
        Array.prototype.forEach.call(document.querySelectorAll('.tabs button'), function (b) {
          b.classList.toggle('active', b === button);
          b.setAttribute('aria-selected', String(b === button));
        });
        $('tab-sites').hidden = name !== 'sites';
        $('tab-tree').hidden = name !== 'tree';
        if (name === 'tree') tree.show();
        else table.render();
      });
    });
    // Drag and drop anywhere on the page.
    var depth = 0;
    document.addEventListener('dragenter', function (e) { e.preventDefault(); depth++; $('drop-overlay').hidden = false; });
    document.addEventListener('dragleave', function () { depth = Math.max(0, depth - 1); if (depth === 0) $('drop-overlay').hidden = true; });
    document.addEventListener('dragover', function (e) { e.preventDefault(); });
    document.addEventListener('drop', function (e) {
      e.preventDefault();
      depth = 0;
      $('drop-overlay').hidden = true;
      if (e.dataTransfer && e.dataTransfer.files) openFiles(e.dataTransfer.files, false);
    });
  }

  function start() {
    wire();
    window.lifeheapViewer = {
      state: state,
      table: function () { return table; },
      tree: function () { return tree; },
      select: select,
    };
    startFromPage();
  }

  return { start: start, openProfile: openProfile, openBaseline: openBaseline };
})();

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', LH.app.start);
else LH.app.start();
