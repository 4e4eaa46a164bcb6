// Baseline-vs-changed comparison. DOM-free.
//
// Sites are matched by their stack with addresses left out (function, file, line,
// object name and inline flag of every frame, see Model.frameKey), so a rebuilt binary
// still matches. When two sites of one profile share a key (same source lines, different
// addresses) they are paired in profile order. Unmatched sites are "new" (only in the
// changed profile) or "gone" (only in the baseline).
//
// A delta is changed minus baseline. For additive metrics (bytes, counts) a missing side
// counts as 0, so a new site's delta is its whole value; for ratios and percentages a
// missing side has no meaningful value and the delta is undefined (NaN).
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.Diff = (function () {
  function Diff(base, changed) {
    this.base = base;
    this.changed = changed;
    this.rowBase = [];
    this.rowChanged = [];
    this._columns = {};
    var byKey = new Map();
    var seen = new Map();
    for (var i = 0; i < base.sites.length; i++) {
      var key = base.siteKey(i);
      var n = seen.get(key) || 0;
      seen.set(key, n + 1);
      byKey.set(key + '#' + n, i);
    }
    var matchedBase = new Uint8Array(base.sites.length);
    seen = new Map();
    for (var j = 0; j < changed.sites.length; j++) {
      var k = changed.siteKey(j);
      var m = seen.get(k) || 0;
      seen.set(k, m + 1);
      var b = byKey.get(k + '#' + m);
      this.rowChanged.push(j);
      if (b === undefined) {
        this.rowBase.push(-1);
      } else {
        this.rowBase.push(b);
        matchedBase[b] = 1;
      }
    }
    for (var g = 0; g < base.sites.length; g++) {
      if (!matchedBase[g]) { this.rowBase.push(g); this.rowChanged.push(-1); }
    }
    this.length = this.rowBase.length;
    // Row of each changed-profile site, so findings and selections map onto rows.
    this.rowOfChanged = new Int32Array(changed.sites.length).fill(-1);
    this.rowOfBase = new Int32Array(base.sites.length).fill(-1);
    for (var r = 0; r < this.length; r++) {
      if (this.rowChanged[r] >= 0) this.rowOfChanged[this.rowChanged[r]] = r;
      if (this.rowBase[r] >= 0) this.rowOfBase[this.rowBase[r]] = r;
    }
  }

  Diff.prototype.status = function (row) {
    if (this.rowBase[row] < 0) return 'new';
    if (this.rowChanged[row] < 0) return 'gone';
    return 'both';
  };

  function additive(column) { return column.kind === 'bytes' || column.kind === 'count'; }

  // Value of a metric on one side; NaN when the site is absent on that side.
  Diff.prototype.sideValue = function (row, columnId, side) {
    var model = side === 'base' ? this.base : this.changed;
    var index = side === 'base' ? this.rowBase[row] : this.rowChanged[row];
    if (index < 0) return NaN;
    return model.column(columnId)[index];
  };

  Diff.prototype.deltaColumn = function (columnId) {
    if (this._columns[columnId]) return this._columns[columnId];
    var column = LH.metrics.byId[columnId];
    var baseValues = this.base.column(columnId), changedValues = this.changed.column(columnId);
    var out = new Float64Array(this.length);
    for (var r = 0; r < this.length; r++) {
      var b = this.rowBase[r] >= 0 ? baseValues[this.rowBase[r]] : NaN;
      var c = this.rowChanged[r] >= 0 ? changedValues[this.rowChanged[r]] : NaN;
      if (additive(column)) {
        out[r] = (isNaN(c) ? 0 : c) - (isNaN(b) ? 0 : b);
      } else {
        out[r] = c - b;
      }
    }
    this._columns[columnId] = out;
    return out;
  };

  // The profile and site index that name a row (the changed side when present).
  Diff.prototype.namingSite = function (row) {
    if (this.rowChanged[row] >= 0) return { model: this.changed, index: this.rowChanged[row] };
    return { model: this.base, index: this.rowBase[row] };
  };

  Diff.prototype.searchMask = function (query) {
    var cm = this.changed.searchMask(query), bm = this.base.searchMask(query);
    if (!cm) return null;
    var mask = new Uint8Array(this.length);
    for (var r = 0; r < this.length; r++) {
      mask[r] = (this.rowChanged[r] >= 0 && cm[this.rowChanged[r]]) || (this.rowBase[r] >= 0 && bm[this.rowBase[r]]) ? 1 : 0;
    }
    return mask;
  };

  // Findings of both profiles, each marked new (only in changed), resolved (only in the
  // baseline) or unchanged (same kind on the matching site in both).
  Diff.prototype.findings = function () {
    var self = this;
    var baseKeys = new Map();
    this.base.profile.findings.forEach(function (f, i) { baseKeys.set(f.kind + '@' + self.rowOfBase[f.site], i); });
    var out = [];
    var matched = new Set();
    this.changed.profile.findings.forEach(function (f, i) {
      var key = f.kind + '@' + self.rowOfChanged[f.site];
      var state = baseKeys.has(key) ? 'unchanged' : 'new';
      if (state === 'unchanged') matched.add(baseKeys.get(key));
      out.push({ finding: f, side: 'changed', state: state, row: self.rowOfChanged[f.site] });
    });
    this.base.profile.findings.forEach(function (f, i) {
      if (!matched.has(i)) out.push({ finding: f, side: 'base', state: 'resolved', row: self.rowOfBase[f.site] });
    });
    return out;
  };

  return Diff;
})();
