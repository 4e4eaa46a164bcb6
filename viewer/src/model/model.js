// The in-memory view of one validated profile: names, sortable metric columns, search
// and the findings index. DOM-free; every view reads the profile through this.
// Metric columns are computed on first use (a Float64Array per metric), so opening a
// 100k-site profile only pays for the columns actually sorted by.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.Model = (function () {
  function basename(path) {
    if (!path) return path;
    var slash = path.lastIndexOf('/');
    return slash >= 0 ? path.slice(slash + 1) : path;
  }

  function Model(profile, sourceName) {
    this.profile = profile;
    this.sourceName = sourceName || 'profile';
    this.sites = profile.sites;
    this.frames = profile.frames;
    this.duration = profile.run.duration;
    this._columns = {};
    this._frameText = null;
    this.findingsBySite = new Map();
    var self = this;
    profile.findings.forEach(function (f, index) {
      if (!self.findingsBySite.has(f.site)) self.findingsBySite.set(f.site, []);
      self.findingsBySite.get(f.site).push(index);
    });
  }

  // One line naming a frame: "function (file:line)", falling back to object and address.
  Model.frameLabel = function (f) {
    var name = f.function || f.address;
    var where = f.file ? f.file + (f.line !== null && f.line !== undefined ? ':' + f.line : '') : basename(f.object);
    return where ? name + ' (' + where + ')' : name;
  };

  // Identity of a frame that survives a rebuild of the program (no addresses): used to
  // merge call-tree nodes and to match sites between a baseline and a changed profile.
  Model.frameKey = function (f) {
    if (f.function === null && f.file === null) return '?' + basename(f.object) + '@' + f.address;
    return (f.function || '') + '\u0001' + (f.file || '') + '\u0001' + (f.line === null ? '' : f.line) +
      '\u0001' + (basename(f.object) || '') + (f.inlined ? '\u0001i' : '');
  };

  Model.prototype.nameFrame = function (siteIndex) {
    var s = this.sites[siteIndex];
    if (s.stack.length === 0) return null;
    return this.frames[s.stack[s.name_frame]];
  };

  // The tool's label (unique in the profile: "ConnState::new (prealloc.rs:20)"), the
  // text its summary and `lifeheap report` show; profiles without labels: the name
  // frame's function.
  Model.prototype.siteName = function (siteIndex) {
    var label = this.sites[siteIndex].label;
    if (typeof label === 'string' && label) return label;
    var f = this.nameFrame(siteIndex);
    if (!f) return '(empty stack)';
    return f.function || f.address;
  };

  Model.prototype.siteLocation = function (siteIndex) {
    var f = this.nameFrame(siteIndex);
    if (!f) return '';
    if (f.file) return f.file + (f.line !== null && f.line !== undefined ? ':' + f.line : '');
    return basename(f.object) || '';
  };

  Model.prototype.stackText = function (siteIndex) {
    var self = this;
    return this.sites[siteIndex].stack.map(function (fi) { return Model.frameLabel(self.frames[fi]); }).join('\n');
  };

  // One metric of one site (NaN when undefined): what a table cell shows, without
  // computing the whole column.
  Model.prototype.value = function (id, siteIndex) {
    var v = LH.metrics.byId[id].value(this.sites[siteIndex], this);
    return v === null || v === undefined ? NaN : v;
  };

  Model.prototype.column = function (id) {
    if (this._columns[id]) return this._columns[id];
    var def = LH.metrics.byId[id];
    var n = this.sites.length;
    var values = new Float64Array(n);
    for (var i = 0; i < n; i++) {
      var v = def.value(this.sites[i], this);
      values[i] = v === null || v === undefined ? NaN : v;
    }
    this._columns[id] = values;
    return values;
  };

  // Lower-cased "function file directory object" per frame, built on the first search.
  Model.prototype.frameSearchText = function () {
    if (!this._frameText) {
      this._frameText = this.frames.map(function (f) {
        var fileLine = f.file && f.line !== null && f.line !== undefined ? f.file + ':' + f.line : null;
        return [f.function, f.file, fileLine, f.directory, f.object, f.address].filter(Boolean).join(' ').toLowerCase();
      });
    }
    return this._frameText;
  };

  // Sites whose stack has a frame matching every word of the query (function, file or
  // object name). Returns null for an empty query (everything matches).
  Model.prototype.searchMask = function (query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return null;
    var frameText = this.frameSearchText();
    var frameHit = new Uint8Array(this.frames.length);
    for (var f = 0; f < frameText.length; f++) {
      var all = true;
      for (var w = 0; w < words.length && all; w++) all = frameText[f].indexOf(words[w]) >= 0;
      frameHit[f] = all ? 1 : 0;
    }
    var mask = new Uint8Array(this.sites.length);
    for (var i = 0; i < this.sites.length; i++) {
      var stack = this.sites[i].stack;
      for (var k = 0; k < stack.length; k++) {
        if (frameHit[stack[k]]) { mask[i] = 1; break; }
      }
    }
    return mask;
  };

  Model.basename = basename;
  return Model;
})();
