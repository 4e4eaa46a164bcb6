// Baseline-vs-changed comparison. DOM-free.
//
// Sites are paired by the identity the tool writes into each site (sites[].match_key and
// match_lines; docs/format.md, "Site identity across runs", says how the tool judges it
// and how readers pair by it), by the same rules as `lifeheap diff` (cli/match.c), so
// the viewer and the CLI agree. Sites with equal keys form a group sorted by their line
// sequences; within a group, identical line sequences pair first, then the rest pair in
// line order. A site left unpaired whose lines equal a paired site's of the same profile
// (code the compiler duplicated) pairs with that site's counterpart too. A second round
// does the same over the sites still unpaired with function names alone (each key line
// without its place: code moved to another file). Unmatched sites are "new" (only in the
// changed profile) or "gone" (only in the baseline).
//
// A profile written before sites carried keys cannot be paired here: the viewer reads
// identities, it does not re-derive them from stacks. Such a diff pairs nothing: every
// site is "unpaired", no finding is compared, and `keyless` names the profiles without
// keys so the views can say why and how to compare them (record again, or `lifeheap
// diff`, which re-derives the keys of older profiles from their stacks).
//
// A delta is changed minus baseline. For additive metrics (bytes, counts) a missing side
// counts as 0, so a new site's delta is its whole value; for ratios and percentages a
// missing side has no meaningful value and the delta is undefined (NaN).
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.Diff = (function () {
  // Whether every site of the profile carries its key (the loader checks that a site
  // has both match_key and match_lines or neither).
  function hasKeys(model) {
    return model.sites.every(function (s) { return typeof s.match_key === 'string'; });
  }

  // The identity of the first round (the key) or of the second (functions only: each
  // line's place, from the tab to the newline, removed).
  function identity(model, siteIndex, withPlaces) {
    var key = model.sites[siteIndex].match_key;
    return withPlaces ? key : key.replace(/\t[^\n]*/g, '');
  }

  // The lines of the key's frames (0 unknown).
  function matchLines(model, siteIndex) {
    return model.sites[siteIndex].match_lines;
  }

  // Orders two sites of the same identity (hence as many identity frames) by their lines.
  function compareLines(modelA, a, modelB, b) {
    var la = matchLines(modelA, a), lb = matchLines(modelB, b);
    for (var k = 0; k < la.length && k < lb.length; k++)
      if (la[k] !== lb[k]) return la[k] < lb[k] ? -1 : 1;
    return 0;
  }

  // identity -> unpaired site indices sorted by (lines, id); order = identities by
  // first site.
  function groupByIdentity(model, paired, withPlaces) {
    var groups = new Map(), order = [];
    for (var i = 0; i < model.sites.length; i++) {
      if (paired[i] >= 0) continue;
      var key = identity(model, i, withPlaces);
      var list = groups.get(key);
      if (!list) { groups.set(key, list = []); order.push(key); }
      list.push(i);
    }
    groups.forEach(function (list) {
      list.sort(function (a, b) { return compareLines(model, a, model, b) || a - b; });
    });
    return { groups: groups, order: order };
  }

  function Diff(base, changed) {
    this.base = base;
    this.changed = changed;
    // The profiles without keys, as { side: 'baseline' | 'changed', name }: empty when
    // the sites are paired.
    this.keyless = [];
    if (!hasKeys(base)) this.keyless.push({ side: 'baseline', name: base.sourceName });
    if (!hasKeys(changed)) this.keyless.push({ side: 'changed', name: changed.sourceName });
    this.rowBase = [];
    this.rowChanged = [];
    this._columns = {};
    var rowOfBaseSite = new Int32Array(base.sites.length).fill(-1);
    var rowOfChangedSite = new Int32Array(changed.sites.length).fill(-1);
    var self = this;
    function pair(b, c) {
      rowOfBaseSite[b] = rowOfChangedSite[c] = self.rowBase.length;
      self.rowBase.push(b);
      self.rowChanged.push(c);
    }
    // Pairs two groups of the same identity, each sorted by lines.
    function pairGroup(bs, cs) {
      // 1. Identical line sequences (a merge of the two sorted lists).
      var i = 0, j = 0;
      while (i < bs.length && j < cs.length) {
        var order = compareLines(base, bs[i], changed, cs[j]);
        if (order === 0) pair(bs[i++], cs[j++]);
        else if (order < 0) i++;
        else j++;
      }
      // 2. The rest, in line order.
      var restBase = bs.filter(function (x) { return rowOfBaseSite[x] < 0; });
      var restChanged = cs.filter(function (x) { return rowOfChangedSite[x] < 0; });
      for (var k = 0; k < restBase.length && k < restChanged.length; k++) pair(restBase[k], restChanged[k]);
      // 3. A duplicated code location: pairs with its twin's counterpart as well.
      bs.forEach(function (b) {
        if (rowOfBaseSite[b] >= 0) return;
        var twin = bs.find(function (x) { return rowOfBaseSite[x] >= 0 && compareLines(base, b, base, x) === 0; });
        if (twin !== undefined) { var r = rowOfBaseSite[twin]; pair(b, self.rowChanged[r]); }
      });
      cs.forEach(function (c) {
        if (rowOfChangedSite[c] >= 0) return;
        var twin = cs.find(function (x) { return rowOfChangedSite[x] >= 0 && compareLines(changed, c, changed, x) === 0; });
        if (twin !== undefined) { var r = rowOfChangedSite[twin]; pair(self.rowBase[r], c); }
      });
    }
    // Round 1 with source files, round 2 with function names alone (code moved to
    // another file, or two variants of a program in two files).
    [true, false].forEach(function (withPlaces) {
      if (self.keyless.length > 0) return;
      var baseGroups = groupByIdentity(base, rowOfBaseSite, withPlaces);
      var changedGroups = groupByIdentity(changed, rowOfChangedSite, withPlaces);
      changedGroups.order.forEach(function (identity) {
        var bs = baseGroups.groups.get(identity);
        if (bs) pairGroup(bs, changedGroups.groups.get(identity));
      });
    });
    for (var j = 0; j < changed.sites.length; j++) {
      if (rowOfChangedSite[j] < 0) { this.rowBase.push(-1); this.rowChanged.push(j); }
    }
    for (var g = 0; g < base.sites.length; g++) {
      if (rowOfBaseSite[g] < 0) { this.rowBase.push(g); this.rowChanged.push(-1); }
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

  // 'both', 'new', 'gone', or 'unpaired' (a row of a diff that pairs nothing: keyless).
  Diff.prototype.status = function (row) {
    if (this.keyless.length > 0) return 'unpaired';
    if (this.rowBase[row] < 0) return 'new';
    if (this.rowChanged[row] < 0) return 'gone';
    return 'both';
  };

  // Why the sites are not paired and how to compare them (null when they are), in the
  // words every view of a keyless diff shows.
  Diff.prototype.keylessText = function () {
    if (this.keyless.length === 0) return null;
    var names = this.keyless.map(function (k) { return k.side + ' ' + k.name; });
    var both = this.keyless.length === 2;
    return (both ? 'Both profiles (' + names.join(', ') + ') were' : 'The ' + names[0] + ' was') +
      ' written by an older lifeheap, whose profiles carry no site keys (sites[].match_key): ' +
      'the sites of the two runs cannot be paired, so each site is shown unpaired and no finding is compared; ' +
      'the whole-run figures still compare. To compare sites, record ' + (both ? 'both runs' : 'that run') +
      ' again with this lifeheap, or run `lifeheap diff ' + this.base.sourceName + ' ' + this.changed.sourceName +
      '`, which pairs the sites of older profiles by their stacks.';
  };

  function additive(column) { return column.kind === 'bytes' || column.kind === 'count'; }

  // Value of a metric on one side; NaN when the site is absent on that side.
  Diff.prototype.sideValue = function (row, columnId, side) {
    var model = side === 'base' ? this.base : this.changed;
    var index = side === 'base' ? this.rowBase[row] : this.rowChanged[row];
    if (index < 0) return NaN;
    return model.value(columnId, index);
  };

  // The change of one metric on one row (see deltaColumn for the rules).
  Diff.prototype.delta = function (row, columnId) {
    var b = this.sideValue(row, columnId, 'base'), c = this.sideValue(row, columnId, 'changed');
    if (additive(LH.metrics.byId[columnId])) return (isNaN(c) ? 0 : c) - (isNaN(b) ? 0 : b);
    return c - b;
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
  // baseline) or unchanged (same kind on the matching site in both); in a diff without
  // keys, each run's findings marked unpaired (nothing to compare them with).
  Diff.prototype.findings = function () {
    var self = this;
    if (this.keyless.length > 0) {
      return this.changed.profile.findings.map(function (f) {
        return { finding: f, side: 'changed', state: 'unpaired', row: self.rowOfChanged[f.site] };
      }).concat(this.base.profile.findings.map(function (f) {
        return { finding: f, side: 'base', state: 'unpaired', row: self.rowOfBase[f.site] };
      }));
    }
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

  // The finding change that heads the diff, by the rule `lifeheap diff` follows
  // (cli/diff_headline.c, docs/cli.md): by severity; at equal severity new, then
  // worsened (more severe, or a larger first headline figure), then resolved, then the
  // profile's order; an unchanged finding only when nothing changed. Returns null
  // without findings or without keys (nothing is compared), else { finding, side,
  // state, row, baseFinding, changedFinding }.
  var SEVERITY = { high: 0, medium: 1, low: 2 };
  var STATE_ORDER = { 'new': 0, worsened: 1, resolved: 2 };
  function severityRank(finding) { return Object.prototype.hasOwnProperty.call(SEVERITY, finding.severity) ? SEVERITY[finding.severity] : 3; }
  function worsened(before, after) {
    if (severityRank(before) !== severityRank(after)) return severityRank(after) < severityRank(before);
    var first = LH.evidence.headlineItems(after, 0)[0];
    if (!first || !before.evidence || typeof before.evidence[first.key] !== 'number') return false;
    return first.value > before.evidence[first.key];
  }
  Diff.prototype.headline = function () {
    var self = this, best = null, bestKey = null;
    if (this.keyless.length > 0) return null;
    // Keys compare element by element; the first smallest wins.
    function consider(entry, key) {
      var i = 0;
      while (bestKey && i < key.length && key[i] === bestKey[i]) i++;
      if (bestKey && (i === key.length || key[i] > bestKey[i])) return;
      best = entry; bestKey = key;
    }
    var findSite = function (profile, site, kind) {
      return profile.findings.filter(function (f) { return f.site === site && f.kind === kind; })[0] || null;
    };
    this.changed.profile.findings.forEach(function (f, i) {
      var row = self.rowOfChanged[f.site], baseSite = row >= 0 ? self.rowBase[row] : -1;
      var was = baseSite >= 0 ? findSite(self.base.profile, baseSite, f.kind) : null;
      var state = !was ? 'new' : worsened(was, f) ? 'worsened' : 'unchanged';
      consider({ finding: f, side: 'changed', state: state, row: row, baseFinding: was, changedFinding: f },
        [state === 'unchanged' ? 1 : 0, severityRank(f), state === 'unchanged' ? 3 : STATE_ORDER[state], i]);
    });
    this.base.profile.findings.forEach(function (f, i) {
      var row = self.rowOfBase[f.site], changedSite = row >= 0 ? self.rowChanged[row] : -1;
      if (changedSite >= 0 && findSite(self.changed.profile, changedSite, f.kind)) return;
      consider({ finding: f, side: 'base', state: 'resolved', row: row, baseFinding: f, changedFinding: null },
        [0, severityRank(f), STATE_ORDER.resolved, i]);
    });
    return best;
  };

  return Diff;
})();
