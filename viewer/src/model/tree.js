// Call trees (top-down and bottom-up) with aggregated metrics. DOM-free.
//
// The tree is built lazily: a node holds the list of sites whose stacks pass through
// its path, and its children are computed only when the node is expanded (or drawn in
// the icicle graph) by grouping those sites by their next frame:
//
//   root (all sites)                top-down: next frame = stack[len-1-depth] (outermost first)
//    ├─ main            (sites 0,1,4)  bottom-up: next frame = stack[depth]  (allocator caller first)
//    │   └─ load_config (site 1)
//    └─ start_thread    (sites 2,3)
//
// A site whose stack ends at a node counts in that node but in none of its children
// (so a parent's sum can exceed its children's). Frames are
// grouped by Model.frameKey (function, file, line, object), not by address, so the same
// tree code serves a diff: there an entry is a diff row and each node carries the
// baseline's and the changed profile's sums.
//
// Folding (on by default in the views): frames the tool marks `library` (allocator,
// runtime and standard-library code) are left out of each stack that has a frame of the
// program's own, so the top-down tree starts at the program's outermost function
// instead of a dozen runtime start-up frames, and the bottom-up tree at the program's
// function that allocated instead of alloc_zeroed and RawVec internals. A stack of
// library code only is kept whole. Profiles without `library` fold nothing.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.tree = (function () {
  // Additive metrics a tree node can sum.
  var METRICS = ['bytes_at_peak', 'blocks_at_peak', 'total_bytes', 'total_blocks', 'max_bytes',
    'bytes_at_exit', 'never_read_bytes', 'unused_capacity_bytes', 'realloc_bytes_copied',
    'bytes_read', 'bytes_written', 'cross_thread_frees'];

  // A source adapts one profile or one diff to the tree: entries, their stacks as key
  // ids, and per-metric value columns.
  function internFrames(models) {
    var ids = new Map();
    var keyNames = [];
    var frameOfKey = [];
    var perModel = models.map(function (model) {
      var keyOfFrame = new Int32Array(model.frames.length);
      for (var f = 0; f < model.frames.length; f++) {
        var key = LH.Model.frameKey(model.frames[f]);
        var id = ids.get(key);
        if (id === undefined) {
          id = keyNames.length;
          ids.set(key, id);
          keyNames.push(key);
          frameOfKey.push(model.frames[f]);
        }
        keyOfFrame[f] = id;
      }
      return keyOfFrame;
    });
    return { perModel: perModel, frameOfKey: frameOfKey };
  }

  // The stack without library frames, when it has a frame of the program's own.
  function foldedStack(frames, stack) {
    var own = 0;
    for (var k = 0; k < stack.length; k++) if (frames[stack[k]].library !== true) own++;
    if (own === stack.length || own === 0) return stack;
    var out = [];
    for (var j = 0; j < stack.length; j++) if (frames[stack[j]].library !== true) out.push(stack[j]);
    return out;
  }

  // stack(model, siteIndex), folded or not, the folded ones computed once.
  function stackOf(fold) {
    if (!fold) return function (model, i) { return model.sites[i].stack; };
    var cache = new Map();
    return function (model, i) {
      var perModel = cache.get(model);
      if (!perModel) cache.set(model, perModel = []);
      return perModel[i] || (perModel[i] = foldedStack(model.frames, model.sites[i].stack));
    };
  }

  function modelSource(model, fold) {
    var interned = internFrames([model]);
    var keyOfFrame = interned.perModel[0];
    var stackOfSite = stackOf(fold);
    return {
      count: model.sites.length,
      stack: function (e) { return stackOfSite(model, e); },
      keyOfFrame: function () { return keyOfFrame; },
      frameOfKey: interned.frameOfKey,
      changed: function (metric) { return model.column(metric); },
      base: null,
      isDiff: false,
    };
  }

  function diffSource(diff, fold) {
    var interned = internFrames([diff.base, diff.changed]);
    var stackOfSite = stackOf(fold);
    var baseKeys = interned.perModel[0], changedKeys = interned.perModel[1];
    // Per-row value columns, aligned on diff rows (twins combined); a missing side is 0.
    function aligned(side, metric) {
      var col = diff.sideColumn(metric, side);
      var out = new Float64Array(diff.length);
      for (var r = 0; r < diff.length; r++) out[r] = isNaN(col[r]) ? 0 : col[r];
      return out;
    }
    var cacheChanged = {}, cacheBase = {};
    return {
      count: diff.length,
      stack: function (e) {
        var n = diff.namingSite(e);
        return stackOfSite(n.model, n.index);
      },
      keyOfFrame: function (e) { return diff.rowChanged[e] >= 0 ? changedKeys : baseKeys; },
      frameOfKey: interned.frameOfKey,
      changed: function (metric) {
        return cacheChanged[metric] || (cacheChanged[metric] = aligned('changed', metric));
      },
      base: function (metric) {
        return cacheBase[metric] || (cacheBase[metric] = aligned('base', metric));
      },
      isDiff: true,
    };
  }

  function Tree(source, direction) {
    this.source = source;
    this.topDown = direction !== 'bottom-up';
    var all = new Int32Array(source.count);
    for (var i = 0; i < source.count; i++) all[i] = i;
    this.root = this._makeNode(-1, 0, all, null);
  }

  Tree.prototype._sum = function (entries, column) {
    var total = 0;
    for (var i = 0; i < entries.length; i++) {
      var v = column[entries[i]];
      if (!isNaN(v)) total += v;
    }
    return total;
  };

  Tree.prototype._makeNode = function (keyId, depth, entries, parent) {
    return {
      keyId: keyId, depth: depth, entries: entries, parent: parent, children: null,
      frame: keyId >= 0 ? this.source.frameOfKey[keyId] : null,
      values: {}, baseValues: {},
    };
  };

  // A node's sum of a metric, computed on first use: the views show one metric at a
  // time, so the others are never summed over large trees.
  Tree.prototype.value = function (node, metric) {
    var v = node.values[metric];
    if (v === undefined) v = node.values[metric] = this._sum(node.entries, this.source.changed(metric));
    return v;
  };

  // The baseline's sum in a diff (0 for a single profile).
  Tree.prototype.baseValue = function (node, metric) {
    if (!this.source.isDiff) return 0;
    var v = node.baseValues[metric];
    if (v === undefined) v = node.baseValues[metric] = this._sum(node.entries, this.source.base(metric));
    return v;
  };

  // Children of a node, computed once; unsorted (views sort by their metric).
  Tree.prototype.children = function (node) {
    if (node.children) return node.children;
    var source = this.source, depth = node.depth;
    var groups = new Map();
    for (var i = 0; i < node.entries.length; i++) {
      var e = node.entries[i];
      var stack = source.stack(e);
      if (depth >= stack.length) continue; // the site's stack ends at this node
      var frameIndex = this.topDown ? stack[stack.length - 1 - depth] : stack[depth];
      var key = source.keyOfFrame(e)[frameIndex];
      var list = groups.get(key);
      if (!list) groups.set(key, list = []);
      list.push(e);
    }
    var self = this;
    node.children = [];
    groups.forEach(function (list, key) {
      node.children.push(self._makeNode(key, depth + 1, Int32Array.from(list), node));
    });
    return node.children;
  };

  // Sort key of a node for a metric: the value, or in a diff the absolute change.
  Tree.prototype.weight = function (node, metric) {
    if (this.source.isDiff) return Math.abs(this.value(node, metric) - this.baseValue(node, metric));
    return this.value(node, metric);
  };

  Tree.prototype.sortedChildren = function (node, metric) {
    var self = this;
    var children = this.children(node);
    // Weigh each child once, not once per comparison.
    var weight = new Map();
    children.forEach(function (c) { weight.set(c, self.weight(c, metric)); });
    return children.slice().sort(function (a, b) {
      return weight.get(b) - weight.get(a) || (a.keyId - b.keyId);
    });
  };

  return {
    METRICS: METRICS,
    // fold: leave library frames out (see the top of the file); off when not given.
    forModel: function (model, direction, fold) { return new Tree(modelSource(model, fold), direction); },
    forDiff: function (diff, direction, fold) { return new Tree(diffSource(diff, fold), direction); },
    foldedStack: foldedStack,
  };
})();
