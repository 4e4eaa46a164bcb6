// Call tree view: a collapsible top-down or bottom-up tree with aggregated metrics, and
// an icicle graph of the same tree sized by the chosen metric (click a box to zoom in,
// click the top box to zoom out). In diff mode nodes show the changed value and the
// change, children sort by the size of the change, and icicle boxes are coloured by it.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.CallTreeView = (function () {
  var el = LH.dom.el, f = LH.format;
  var MAX_CHILDREN_SHOWN = 100;
  var ICICLE_ROW = 20, ICICLE_MAX_DEPTH = 24;

  function CallTreeView(container, options) {
    this.container = container;
    this.onSelect = options.onSelect;
    this.direction = 'top-down';
    this.fold = true;
    this.metric = 'bytes_at_peak';
    this.data = null;
    this.tree = null;
    this.expanded = new Set();
    this.icicleRoot = null;
    this.selectedEntry = -1;
    var self = this;
    var directionSelect = el('select', { attrs: { 'aria-label': 'Tree direction', id: 'tree-direction' } }, [
      el('option', { text: 'Top-down (callers first)', attrs: { value: 'top-down' } }),
      el('option', { text: 'Bottom-up (allocating functions first)', attrs: { value: 'bottom-up' } }),
    ]);
    var metricSelect = el('select', { attrs: { 'aria-label': 'Tree metric', id: 'tree-metric' } }, LH.tree.METRICS.map(function (m) {
      return el('option', { text: LH.metrics.byId[m].label + ' — ' + LH.metrics.byId[m].title, attrs: { value: m } });
    }));
    var foldBox = el('input', { attrs: { type: 'checkbox', id: 'tree-fold', checked: 'checked' } });
    var foldLabel = el('label', { attrs: { 'for': 'tree-fold', title: 'Leave out the allocator\'s, the runtime\'s and the standard libraries\' frames (marked "library" in the profile) from stacks that have frames of the program\'s own' } },
      [foldBox, el('span', { text: ' Fold runtime and allocator frames' })]);
    foldBox.addEventListener('change', function () { self.fold = foldBox.checked; self.rebuild(); });
    directionSelect.addEventListener('change', function () { self.direction = directionSelect.value; self.rebuild(); });
    metricSelect.addEventListener('change', function () { self.metric = metricSelect.value; self.renderAll(); });
    this.list = el('div', { className: 'tree-list', attrs: { role: 'tree', id: 'tree-list' } });
    this.canvas = el('canvas', { className: 'icicle', attrs: { id: 'icicle', 'aria-label': 'Icicle graph of the call tree' } });
    this.tooltip = el('div', { className: 'tooltip', attrs: { id: 'icicle-tooltip' } });
    this.tooltip.hidden = true;
    this.icicleWrap = el('div', { className: 'icicle-wrap' }, [this.canvas, this.tooltip]);
    LH.dom.clear(container).appendChild(el('div', { className: 'toolbar' }, [directionSelect, metricSelect, foldLabel,
      el('span', { className: 'dim', text: 'Click ▸ to expand; click a box in the graph to zoom.' })]));
    container.appendChild(this.list);
    container.appendChild(el('h3', { text: 'Icicle graph' }));
    container.appendChild(this.icicleWrap);
    this.canvas.addEventListener('mousemove', function (e) { self.hover(e); });
    this.canvas.addEventListener('mouseleave', function () { self.tooltip.hidden = true; });
    this.canvas.addEventListener('click', function (e) { self.clickIcicle(e); });
    window.addEventListener('resize', function () { if (self.tree && !container.hidden) self.drawIcicle(); });
  }

  // data: {mode: 'single', model} or {mode: 'diff', diff}
  CallTreeView.prototype.setData = function (data) {
    this.data = data;
    this.tree = null;
  };

  // Built on first show: large profiles pay for the tree only when it is looked at.
  // Marks the nodes on the path of the selected site (or diff row).
  CallTreeView.prototype.setSelected = function (entry) {
    this.selectedEntry = entry;
    if (this.tree && !this.container.hidden) this.renderList();
  };

  // Entries are in increasing order (children keep their parent's order): binary search.
  function holds(entries, entry) {
    var low = 0, high = entries.length - 1;
    while (low <= high) {
      var mid = (low + high) >> 1;
      if (entries[mid] === entry) return true;
      if (entries[mid] < entry) low = mid + 1; else high = mid - 1;
    }
    return false;
  }

  CallTreeView.prototype.show = function () {
    if (!this.tree && this.data) this.rebuild();
  };

  CallTreeView.prototype.rebuild = function () {
    this.tree = this.data.mode === 'diff' ? LH.tree.forDiff(this.data.diff, this.direction, this.fold) : LH.tree.forModel(this.data.model, this.direction, this.fold);
    this.expanded = new Set([this.tree.root]);
    this.icicleRoot = this.tree.root;
    this.renderAll();
  };

  CallTreeView.prototype.renderAll = function () {
    if (!this.tree) return;
    this.renderList();
    this.drawIcicle();
  };

  CallTreeView.prototype.nodeLabel = function (node) {
    if (!node.frame) return 'all sites';
    return LH.Model.frameLabel(node.frame) + (node.frame.inlined ? ' [inlined]' : '');
  };

  CallTreeView.prototype.valueText = function (node) {
    var col = LH.metrics.byId[this.metric];
    var v = this.tree.value(node, this.metric);
    var d = LH.metrics.display(col, v, 0);
    var total = this.tree.value(this.tree.root, this.metric);
    if (this.tree.source.isDiff) {
      var delta = v - this.tree.baseValue(node, this.metric);
      return { text: d.text, delta: LH.metrics.displayDelta(col, delta, 0), deltaValue: delta,
        title: LH.metrics.display(col, this.tree.baseValue(node, this.metric), 0).title + ' → ' + d.title };
    }
    return { text: d.text + (total > 0 ? '  ' + f.percent(v / total) : ''), title: d.title };
  };

  CallTreeView.prototype.renderList = function () {
    var self = this;
    LH.dom.clear(this.list);
    var rows = [];
    function walk(node, depth) {
      var children = self.tree.sortedChildren(node, self.metric);
      var limit = node.showAll ? children.length : Math.min(children.length, MAX_CHILDREN_SHOWN);
      for (var i = 0; i < limit; i++) {
        rows.push(self.row(children[i], depth));
        if (self.expanded.has(children[i])) walk(children[i], depth + 1);
      }
      if (limit < children.length) {
        var more = el('div', { className: 'tree-row more', text: '… ' + (children.length - limit) + ' more (show all)' });
        more.style.paddingLeft = (depth * 16 + 22) + 'px';
        more.addEventListener('click', function () { node.showAll = true; self.renderList(); });
        rows.push(more);
      }
    }
    rows.push(this.row(this.tree.root, 0, true));
    walk(this.tree.root, 1);
    rows.forEach(function (r) { self.list.appendChild(r); });
  };

  CallTreeView.prototype.row = function (node, depth, isRoot) {
    var self = this;
    var hasChildren = this.tree.children(node).length > 0;
    var open = this.expanded.has(node);
    var shown = this.valueText(node);
    var toggle = el('span', { className: 'toggle', text: hasChildren ? (open ? '▾' : '▸') : '·' });
    var label = el('span', { className: 'label', text: this.nodeLabel(node), title: node.frame ? (node.frame.object || '') + ' ' + node.frame.address : '' });
    var onPath = !isRoot && this.selectedEntry >= 0 && holds(node.entries, this.selectedEntry);
    var row = el('div', { className: 'tree-row' + (isRoot ? ' root' : '') + (onPath ? ' on-path' : ''), attrs: { role: 'treeitem', 'aria-expanded': String(open) } }, [
      toggle, label,
      el('span', { className: 'sites', text: node.entries.length + (node.entries.length === 1 ? ' site' : ' sites') }),
      el('span', { className: 'value', text: shown.text, title: shown.title }),
      shown.delta !== undefined ? el('span', { className: 'value ' + (shown.deltaValue > 0 ? 'delta-up' : shown.deltaValue < 0 ? 'delta-down' : ''), text: shown.delta }) : null,
    ]);
    row.style.paddingLeft = (depth * 16) + 'px';
    toggle.addEventListener('click', function (e) {
      e.stopPropagation();
      if (!hasChildren) return;
      if (open) self.expanded.delete(node); else self.expanded.add(node);
      self.renderList();
    });
    row.addEventListener('click', function () {
      // A node reached by exactly one site selects it; otherwise expand/collapse.
      if (node.entries.length === 1) self.onSelect(node.entries[0]);
      else toggle.click();
    });
    return row;
  };

  // Icicle graph: depth rows from the (zoomed) root down; box width ∝ metric value.
  CallTreeView.prototype.drawIcicle = function () {
    var tree = this.tree, metric = this.metric, self = this;
    var ratio = window.devicePixelRatio || 1;
    var width = Math.max(300, this.icicleWrap.clientWidth || 800);
    var boxes = [];
    var maxDepth = 0;
    var rootValue = tree.value(this.icicleRoot, metric);
    function lay(node, x, w, depth) {
      boxes.push({ node: node, x: x, w: w, depth: depth });
      maxDepth = Math.max(maxDepth, depth);
      if (depth >= ICICLE_MAX_DEPTH || w < 2) return;
      var children = tree.sortedChildren(node, metric);
      var cx = x;
      for (var i = 0; i < children.length; i++) {
        var cw = rootValue > 0 ? (tree.value(children[i], metric) / rootValue) * width : 0;
        if (cw >= 1) lay(children[i], cx, cw, depth + 1);
        cx += cw;
      }
    }
    lay(this.icicleRoot, 0, width, 0);
    var height = (maxDepth + 1) * ICICLE_ROW;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = width + 'px';
    this.canvas.style.height = height + 'px';
    var ctx = this.canvas.getContext('2d');
    ctx.scale(ratio, ratio);
    ctx.font = '11px sans-serif';
    ctx.textBaseline = 'middle';
    boxes.forEach(function (b) {
      ctx.fillStyle = self.boxColor(b.node);
      ctx.fillRect(b.x, b.depth * ICICLE_ROW, Math.max(1, b.w - 1), ICICLE_ROW - 1);
      if (b.w > 40) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(b.x, b.depth * ICICLE_ROW, b.w - 4, ICICLE_ROW);
        ctx.clip();
        ctx.fillStyle = '#111';
        var label = b.depth === 0 && self.icicleRoot !== tree.root ? '↑ ' + self.nodeLabel(b.node) + ' (click to zoom out)' : self.nodeLabel(b.node);
        ctx.fillText(label, b.x + 4, b.depth * ICICLE_ROW + ICICLE_ROW / 2);
        ctx.restore();
      }
    });
    this.boxes = boxes;
  };

  // Stable warm colours per function name; in a diff, red grew and green shrank.
  CallTreeView.prototype.boxColor = function (node) {
    if (!node.frame) return '#ced4da';
    if (this.tree.source.isDiff) {
      var v = this.tree.value(node, this.metric), b = this.tree.baseValue(node, this.metric);
      if (v === b) return '#dee2e6';
      var strength = Math.min(1, Math.abs(v - b) / Math.max(v, b, 1));
      var light = Math.round(88 - strength * 30);
      return v > b ? 'hsl(0, 75%, ' + light + '%)' : 'hsl(130, 50%, ' + light + '%)';
    }
    var name = node.frame.function || node.frame.address, hash = 0;
    for (var i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
    return 'hsl(' + (15 + Math.abs(hash) % 40) + ', 80%, ' + (62 + Math.abs(hash >> 8) % 16) + '%)';
  };

  CallTreeView.prototype.boxAt = function (e) {
    var rect = this.canvas.getBoundingClientRect();
    var x = e.clientX - rect.left, y = e.clientY - rect.top;
    var depth = Math.floor(y / ICICLE_ROW);
    for (var i = 0; i < (this.boxes || []).length; i++) {
      var b = this.boxes[i];
      if (b.depth === depth && x >= b.x && x < b.x + b.w) return b;
    }
    return null;
  };

  CallTreeView.prototype.hover = function (e) {
    var b = this.boxAt(e);
    if (!b) { this.tooltip.hidden = true; return; }
    var shown = this.valueText(b.node);
    this.tooltip.textContent = this.nodeLabel(b.node) + '\n' + LH.metrics.byId[this.metric].label + ': ' + shown.title +
      (shown.delta !== undefined ? ' (' + shown.delta + ')' : '') + '\n' + b.node.entries.length + ' site(s)';
    this.tooltip.hidden = false;
    var rect = this.icicleWrap.getBoundingClientRect();
    this.tooltip.style.left = Math.min(e.clientX - rect.left + 12, rect.width - 260) + 'px';
    this.tooltip.style.top = (e.clientY - rect.top + 14) + 'px';
  };

  CallTreeView.prototype.clickIcicle = function (e) {
    var b = this.boxAt(e);
    if (!b) return;
    if (b.depth === 0) this.icicleRoot = this.icicleRoot.parent || this.tree.root;
    else this.icicleRoot = b.node;
    if (b.node.entries.length === 1 && b.depth > 0) this.onSelect(b.node.entries[0]);
    this.drawIcicle();
  };

  return CallTreeView;
})();
