// Incremental parsing of a profile's JSON text, so a 100 MB profile never blocks the
// page for the whole JSON.parse. DOM-free.
//
// A profile is one object whose bulk is the "sites" array. The text is scanned in
// slices (SCAN_SLICE characters, yielding to the browser between slices) by a small
// state machine that only tracks nesting depth and strings (a regular expression jumps
// between brackets and quotes, indexOf jumps over each string), and records where each
// element of the top-level "sites" array starts and ends:
//
//   { "format": ..., "sites": [ {...}, {...}, ... ], "timeline": {...} }
//   depth 1 ──────────────────┘  └─ depth 3: one site per object at this depth
//
// The document without the sites ("sites": []) is then parsed with JSON.parse (small),
// and the sites are parsed one JSON.parse per site, SITE_SLICE sites between yields.
//
// Anything irregular — not an object at the top, no or several "sites" keys, a sites
// element that is not an object, a text that ends inside a string or a bracket — makes
// the parser fall back to one JSON.parse of the whole text, whose error message (or
// result) is then the authority. The result is always what JSON.parse would return.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.chunkedJson = (function () {
  var SCAN_SLICE = 4000000;
  var SITE_SLICE = 5000;

  var QUOTE = 34, BACKSLASH = 92, OPEN_OBJECT = 123, CLOSE_OBJECT = 125, OPEN_ARRAY = 91, CLOSE_ARRAY = 93;

  function Scanner(text) {
    this.text = text;
    this.position = 0;
    this.depth = 0;
    this.inString = false;
    this.stringStart = -1;
    this.lastKeyStart = -1;       // last string closed at depth 1 (the key of the next value)
    this.lastKeyEnd = -1;
    this.inSites = false;
    this.sitesKeysSeen = 0;
    this.sitesOpen = -1;          // index of the "[" of the sites array
    this.sitesClose = -1;         // index of its "]"
    this.siteStart = -1;
    this.starts = [];             // per site: index of its "{"
    this.ends = [];               // per site: index just after its "}"
    this.irregular = false;
    this.firstSignificant = -1;
    this.gapStart = -1;           // where the separators after the last site begin
  }

  // Structural characters outside strings; everything else is skipped by the regex
  // engine, and a string is skipped with indexOf up to its closing quote.
  var STRUCTURAL = /[\[\]{}"]/g;
  var ONLY_SEPARATORS = /^[\s,]*$/;

  // Index of the quote closing the string whose opening quote is at `open` (-1: none).
  function closingQuote(text, open) {
    var at = open;
    for (;;) {
      at = text.indexOf('"', at + 1);
      if (at < 0) return -1;
      var backslashes = 0;
      for (var k = at - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
      if (backslashes % 2 === 0) return at;
    }
  }

  // Scans on from this.position until at least `limit` more characters are behind;
  // returns true when the whole text is scanned.
  Scanner.prototype.scan = function (limit) {
    var text = this.text, stop = Math.min(text.length, this.position + limit);
    var depth = this.depth;
    STRUCTURAL.lastIndex = this.position;
    while (STRUCTURAL.lastIndex < stop) {
      var match = STRUCTURAL.exec(text);
      if (!match) { STRUCTURAL.lastIndex = text.length; break; }
      var i = match.index, c = text.charCodeAt(i);
      if (depth === 2 && this.inSites && !ONLY_SEPARATORS.test(text.slice(this.gapStart, i))) this.irregular = true;
      if (c === QUOTE) {
        var close = closingQuote(text, i);
        if (close < 0) { this.inString = true; STRUCTURAL.lastIndex = text.length; break; }
        if (depth === 1) { this.lastKeyStart = i; this.lastKeyEnd = close + 1; }
        if (depth === 2 && this.inSites) this.irregular = true;
        STRUCTURAL.lastIndex = close + 1;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (depth === 0) {
          if (this.firstSignificant >= 0 || c !== OPEN_OBJECT || text.slice(0, i).trim() !== '') this.irregular = true;
          this.firstSignificant = i;
        }
        depth++;
        if (depth === 2 && c === OPEN_ARRAY && text.slice(this.lastKeyStart, this.lastKeyEnd) === '"sites"') {
          this.sitesKeysSeen++;
          this.inSites = true;
          this.sitesOpen = i;
          this.gapStart = i + 1;
        } else if (depth === 3 && this.inSites) {
          if (c !== OPEN_OBJECT) this.irregular = true;
          this.siteStart = i;
        }
        continue;
      }
      // A closing bracket.
      if (depth === 3 && this.inSites) { this.starts.push(this.siteStart); this.ends.push(i + 1); this.gapStart = i + 1; }
      if (depth === 2 && this.inSites) { this.inSites = false; this.sitesClose = i; }
      depth--;
      if (depth < 0) this.irregular = true;
    }
    this.depth = depth;
    this.position = Math.max(STRUCTURAL.lastIndex, stop);
    if (this.position >= text.length && depth === 0 && text.slice(this.lastClose() + 1).trim() !== '') this.irregular = true;
    return this.position >= text.length;
  };

  Scanner.prototype.lastClose = function () {
    return Math.max(this.text.lastIndexOf('}'), this.text.lastIndexOf(']'));
  };

  Scanner.prototype.usable = function () {
    return !this.irregular && !this.inString && this.depth === 0 && this.sitesKeysSeen === 1 &&
      this.sitesOpen >= 0 && this.sitesClose > this.sitesOpen && this.firstSignificant >= 0;
  };

  // Lets the browser handle input and paint, then continues. A message to ourselves,
  // not setTimeout: timers are clamped to 4 ms when nested and slowed to once a second
  // in a background tab, which would stall a load the user switched away from.
  var channel = typeof MessageChannel !== 'undefined' ? new MessageChannel() : null;
  var resumers = [];
  // (In node, where the tests run, the port keeps the process alive only while a
  // continuation is pending: ref/unref exist there, not in browsers.)
  if (channel) {
    channel.port1.onmessage = function () {
      var resume = resumers.shift();
      if (resumers.length === 0 && channel.port1.unref) channel.port1.unref();
      if (resume) resume();
    };
    if (channel.port1.unref) channel.port1.unref();
  }
  function yieldToBrowser() {
    if (!channel) return new Promise(function (resolve) { setTimeout(resolve, 0); });
    return new Promise(function (resolve) {
      resumers.push(resolve);
      if (channel.port1.ref) channel.port1.ref();
      channel.port2.postMessage(0);
    });
  }

  // parse(text, hooks) -> Promise of the parsed value; rejects with JSON.parse's error.
  // hooks.progress(fraction, label), hooks.yield() -> Promise (defaults to yieldToBrowser),
  // hooks.scanSlice / hooks.siteSlice override the slice sizes (tests use tiny ones).
  function parse(text, hooks) {
    hooks = hooks || {};
    var scanSlice = hooks.scanSlice || SCAN_SLICE, siteSlice = hooks.siteSlice || SITE_SLICE;
    var progress = hooks.progress || function () {};
    var pause = hooks.yield || yieldToBrowser;
    var scanner = new Scanner(text);
    var whole = function () { return JSON.parse(text); };

    function scanStep() {
      var done = scanner.scan(scanSlice);
      if (!done) {
        progress(0.3 * scanner.position / text.length, 'Reading ' + Math.round(scanner.position / 1e6) + ' of ' + Math.round(text.length / 1e6) + ' MB');
        return pause().then(scanStep);
      }
      if (!scanner.usable()) return whole();
      var top;
      try {
        top = JSON.parse(text.slice(0, scanner.sitesOpen + 1) + text.slice(scanner.sitesClose));
      } catch (e) {
        return whole(); // its error names the position in the whole text
      }
      if (!top || typeof top !== 'object' || Array.isArray(top) || !Array.isArray(top.sites) || top.sites.length !== 0) return whole();
      var sites = top.sites;
      var count = scanner.starts.length;
      var next = 0;
      function siteStep() {
        if (next >= count) return top;
        // One JSON.parse per site over a slice of the text: a slice shares the text's
        // characters, where joining a group into one array text would copy them.
        var end = Math.min(count, next + siteSlice);
        try {
          for (; next < end; next++) sites.push(JSON.parse(text.slice(scanner.starts[next], scanner.ends[next])));
        } catch (e) {
          return whole();
        }
        progress(0.3 + 0.7 * next / count, 'Parsing sites ' + next + ' / ' + count);
        return pause().then(siteStep);
      }
      return siteStep();
    }
    return Promise.resolve().then(scanStep);
  }

  return { parse: parse, Scanner: Scanner, yieldToBrowser: yieldToBrowser };
})();
