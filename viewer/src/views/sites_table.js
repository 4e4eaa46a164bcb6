// The sites table: sortable by every metric, searchable, virtualised.
//
// Only the rows in view exist in the DOM: a pool of row elements is positioned over a
// spacer as tall as all rows, and scrolling rewrites the pool's text. Sorting works on an
// index array over Float64Array metric columns, so 100k sites re-sort in milliseconds.
// The table shows rows of an adapter (one profile: rows are sites; a diff: rows are diff
// rows with deltas), so the same code serves both modes.
//
// Columns come in groups (LH.metrics.groups): "Main" always, and the groups the user
// chose to show (showGroups), so the default table fits a 1280-pixel screen.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.SitesTable = (function () {
  var el = LH.dom.el;
  var ROW_HEIGHT = 24;
  var HEADER_HEIGHT = 30;
  var MAX_VIEW_HEIGHT = 440;
  var ID_WIDTH = 48, NAME_WIDTH = 420, STATUS_WIDTH = 64, METRIC_WIDTH = 104;

  function SitesTable(container, options) {
    this.container = container;
    this.onSelect = options.onSelect;
    this.onSortChange = options.onSortChange || function () {};
    this.adapter = null;
    this.order = new Uint32Array(0);
    this.selectedRow = -1;
    this.sortColumn = 'bytes_at_peak';
    this.sortDescending = true;
    this.mask = null;
    this.pool = [];
    this.scheduled = false;
    this.shownGroups = options.groups || [];
    var self = this;
    this.scroller = el('div', { className: 'vtable-scroll', attrs: { tabindex: '0', role: 'grid', 'aria-label': 'Allocation sites' } });
    this.inner = el('div', { className: 'vtable-inner' });
    this.header = el('div', { className: 'vrow vhead' });
    this.rowsLayer = el('div', { className: 'vtable-rows' });
    this.inner.appendChild(this.header);
    this.inner.appendChild(this.rowsLayer);
    this.scroller.appendChild(this.inner);
    LH.dom.clear(container).appendChild(this.scroller);
    this.scroller.addEventListener('scroll', function () { self.scheduleRender(); });
    this.scroller.addEventListener('keydown', function (e) { self.onKey(e); });
    window.addEventListener('resize', function () { self.scheduleRender(); });
  }

  SitesTable.prototype.columnsFor = function (adapter) {
    var cols = [{ id: '#', label: '#', width: ID_WIDTH, title: 'Site id (position in the profile)' },
      // The Status column of diff mode takes its room from the name, so the Main columns
      // still fit 1280 px.
      { id: 'name', label: 'Site (allocating function)', width: adapter.mode === 'diff' ? NAME_WIDTH - STATUS_WIDTH : NAME_WIDTH,
        title: 'The frame that names the site; hover a row for its stack' }];
    if (adapter.mode === 'diff') cols.push({ id: 'status', label: 'Status', width: STATUS_WIDTH, title: 'new: only in the changed profile; gone: only in the baseline' });
    var shown = this.shownGroups;
    LH.metrics.columns.forEach(function (c) {
      if (c.group !== 'Main' && shown.indexOf(c.group) < 0) return;
      cols.push({ id: c.id, label: c.label, width: METRIC_WIDTH, title: c.title + (adapter.mode === 'diff' ? ' — change from the baseline' : ''), metric: c });
    });
    return cols;
  };

  SitesTable.prototype.setData = function (adapter) {
    this.adapter = adapter;
    this.columns = this.columnsFor(adapter);
    this.totalWidth = this.columns.reduce(function (a, c) { return a + c.width; }, 0);
    this.inner.style.width = this.totalWidth + 'px';
    this.selectedRow = -1;
    this.mask = null;
    this.sortColumn = 'bytes_at_peak';
    this.sortDescending = true;
    this.buildHeader();
    LH.dom.clear(this.rowsLayer);
    this.pool = [];
    this.resort();
  };

  // Show the Main columns and these groups' (ids of LH.metrics.groups); keeps the rows,
  // the sort, the search and the selection.
  SitesTable.prototype.showGroups = function (groups) {
    this.shownGroups = groups.slice();
    if (!this.adapter) return;
    this.columns = this.columnsFor(this.adapter);
    this.totalWidth = this.columns.reduce(function (a, c) { return a + c.width; }, 0);
    this.inner.style.width = this.totalWidth + 'px';
    this.buildHeader();
    LH.dom.clear(this.rowsLayer);
    this.pool = [];
    this.render();
  };

  SitesTable.prototype.buildHeader = function () {
    var self = this;
    LH.dom.clear(this.header);
    this.header.style.width = this.totalWidth + 'px';
    this.columns.forEach(function (c) {
      var sortable = !!c.metric;
      var cell = el('div', { className: 'vcell' + (c.id === 'name' ? ' name' : '') + (sortable ? ' sortable' : ''),
        text: c.label, title: c.title, attrs: { 'data-column': c.id, role: 'columnheader' } });
      cell.style.width = c.width + 'px';
      if (sortable) cell.addEventListener('click', function () { self.sortBy(c.id); });
      self.header.appendChild(cell);
    });
    this.updateHeaderMarks();
  };

  SitesTable.prototype.updateHeaderMarks = function () {
    var cells = this.header.children;
    for (var i = 0; i < cells.length; i++) {
      var id = cells[i].getAttribute('data-column');
      cells[i].classList.toggle('sorted', id === this.sortColumn);
      cells[i].classList.toggle('ascending', id === this.sortColumn && !this.sortDescending);
      cells[i].setAttribute('aria-sort', id === this.sortColumn ? (this.sortDescending ? 'descending' : 'ascending') : 'none');
    }
  };

  // Clicking the sorted column flips the direction; another column sorts descending.
  SitesTable.prototype.sortBy = function (columnId) {
    if (columnId === this.sortColumn) this.sortDescending = !this.sortDescending;
    else { this.sortColumn = columnId; this.sortDescending = true; }
    this.updateHeaderMarks();
    this.resort();
    this.onSortChange(this.sortColumn, this.sortDescending);
  };

  SitesTable.prototype.search = function (query) {
    this.mask = this.adapter.searchMask(query);
    this.resort();
  };

  SitesTable.prototype.visibleCount = function () { return this.order.length; };

  SitesTable.prototype.resort = function () {
    var adapter = this.adapter, n = adapter.count, mask = this.mask;
    var rows = [];
    for (var i = 0; i < n; i++) if (!mask || mask[i]) rows.push(i);
    var values = adapter.sortValues(this.sortColumn);
    var sign = this.sortDescending ? -1 : 1;
    // NaN (undefined metric) always sorts last; ties keep profile order (stable).
    rows.sort(function (a, b) {
      var va = values[a], vb = values[b];
      var na = va !== va, nb = vb !== vb;
      if (na || nb) return na === nb ? a - b : na ? 1 : -1;
      return (va - vb) * sign || a - b;
    });
    this.order = Uint32Array.from(rows);
    var contentHeight = HEADER_HEIGHT + this.order.length * ROW_HEIGHT;
    this.inner.style.height = contentHeight + 'px';
    // Short tables shrink; long ones scroll inside MAX_VIEW_HEIGHT.
    this.scroller.style.height = Math.min(MAX_VIEW_HEIGHT, Math.max(contentHeight, HEADER_HEIGHT + 3 * ROW_HEIGHT) + 18) + 'px';
    this.render();
  };

  SitesTable.prototype.scheduleRender = function () {
    if (this.scheduled) return;
    this.scheduled = true;
    var self = this;
    requestAnimationFrame(function () { self.scheduled = false; self.render(); });
  };

  SitesTable.prototype.makeRow = function () {
    var self = this;
    var row = el('div', { className: 'vrow', attrs: { role: 'row' } });
    row.style.width = this.totalWidth + 'px';
    this.columns.forEach(function (c) {
      var cell = el('div', { className: 'vcell' + (c.id === 'name' ? ' name' : c.metric ? ' num' : ''), attrs: { role: 'gridcell' } });
      cell.style.width = c.width + 'px';
      if (c.id === 'name') {
        cell.appendChild(el('span', { className: 'site-notes-mark' }));
        cell.appendChild(el('span', { className: 'fn' }));
        cell.appendChild(el('span', { className: 'loc' }));
      }
      row.appendChild(cell);
    });
    row.addEventListener('click', function (e) {
      var r = Number(row.getAttribute('data-row'));
      if (r >= 0) self.onSelect(r, e.ctrlKey || e.metaKey || e.shiftKey);
    });
    this.rowsLayer.appendChild(row);
    return row;
  };

  SitesTable.prototype.render = function () {
    if (!this.adapter) return;
    var viewHeight = this.scroller.clientHeight || 400;
    var first = Math.max(0, Math.floor((this.scroller.scrollTop - HEADER_HEIGHT) / ROW_HEIGHT));
    var count = Math.min(this.order.length - first, Math.ceil(viewHeight / ROW_HEIGHT) + 2);
    while (this.pool.length < count) this.pool.push(this.makeRow());
    for (var p = 0; p < this.pool.length; p++) {
      var row = this.pool[p];
      if (p >= count) { row.hidden = true; row.setAttribute('data-row', '-1'); continue; }
      row.hidden = false;
      var position = first + p;
      this.fillRow(row, this.order[position]);
      row.style.transform = 'translateY(' + (HEADER_HEIGHT + position * ROW_HEIGHT) + 'px)';
    }
  };

  SitesTable.prototype.fillRow = function (row, r) {
    if (row.getAttribute('data-row') === String(r) && row._filledFor === this.adapter) {
      row.classList.toggle('selected', r === this.selectedRow);
      return;
    }
    row._filledFor = this.adapter;
    row.setAttribute('data-row', String(r));
    row.classList.toggle('selected', r === this.selectedRow);
    var adapter = this.adapter;
    var cells = row.children;
    for (var c = 0; c < this.columns.length; c++) {
      var col = this.columns[c], cell = cells[c];
      if (col.id === '#') {
        cell.textContent = adapter.idText(r);
      } else if (col.id === 'name') {
        var name = adapter.name(r);
        // A site with notes (why it is big) is marked; its notes head the hover text.
        var notes = name.notes || [];
        cell.children[0].textContent = notes.length ? 'i' : '';
        cell.children[0].hidden = notes.length === 0;
        cell.children[1].textContent = name.name;
        cell.children[2].textContent = name.location;
        cell.title = (notes.length ? notes.map(function (n) { return '• ' + n.text; }).join('\n') + '\n\n' : '') + name.stack;
      } else if (col.id === 'status') {
        var status = adapter.status(r);
        cell.textContent = status === 'both' ? '' : status;
        cell.className = 'vcell status-' + status;
      } else {
        var shown = adapter.cell(r, col.metric);
        cell.textContent = shown.text;
        cell.title = shown.title;
        cell.className = 'vcell num' + (shown.cls ? ' ' + shown.cls : '');
      }
    }
  };

  // Highlight a row and scroll it into view (when it passes the search filter).
  SitesTable.prototype.select = function (r) {
    this.selectedRow = r;
    var position = this.order.indexOf(r);
    if (position >= 0) {
      var top = HEADER_HEIGHT + position * ROW_HEIGHT;
      var viewTop = this.scroller.scrollTop + HEADER_HEIGHT, viewBottom = this.scroller.scrollTop + this.scroller.clientHeight;
      if (top < viewTop || top + ROW_HEIGHT > viewBottom) this.scroller.scrollTop = Math.max(0, top - HEADER_HEIGHT - 3 * ROW_HEIGHT);
    }
    for (var p = 0; p < this.pool.length; p++) {
      this.pool[p].classList.toggle('selected', Number(this.pool[p].getAttribute('data-row')) === r);
    }
    this.render();
  };

  SitesTable.prototype.onKey = function (e) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    var position = this.order.indexOf(this.selectedRow);
    var next = e.key === 'ArrowDown' ? Math.min(this.order.length - 1, position + 1) : Math.max(0, position - 1);
    if (this.order.length > 0) this.onSelect(this.order[next], false);
  };

  // Rows in their current display order (for tests and the bench).
  SitesTable.prototype.displayedRows = function (limit) {
    return Array.prototype.slice.call(this.order, 0, limit);
  };

  return SitesTable;
})();
