// Parse and validate a lifeheap profile (docs/format.md, version 1) into a Model. DOM-free.
//
// Loading is incremental so a 50 MB profile does not freeze the page: the text is parsed
// in slices (chunked_json.js), then the sites are validated in slices of SLICE_SITES,
// with a yield to the event loop between slices and progress reported throughout.
// Any problem becomes a ProfileError whose message names the file position or field,
// so the page can say what is wrong instead of showing nothing.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.profile = (function () {
  var SUPPORTED_VERSION = 1;
  var SLICE_SITES = 4000;

  function ProfileError(message) {
    this.name = 'ProfileError';
    this.message = message;
  }
  ProfileError.prototype = Object.create(Error.prototype);

  function fail(message) { throw new ProfileError(message); }

  function describe(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    return typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : typeof v;
  }
  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
  function requireObject(v, where) {
    if (!isObject(v)) fail(where + ' must be an object, found ' + describe(v));
    return v;
  }
  function requireArray(v, where) {
    if (!Array.isArray(v)) fail(where + ' must be an array, found ' + describe(v));
    return v;
  }
  function requireNumber(obj, key, where) {
    var v = obj[key];
    if (typeof v !== 'number' || !isFinite(v)) fail(where + '.' + key + ' must be a number, found ' + describe(v));
    return v;
  }
  function requireNumbers(obj, keys, where) {
    for (var i = 0; i < keys.length; i++) requireNumber(obj, keys[i], where);
  }
  // Large per-site arrays (histograms, access maps) are checked for being arrays here;
  // their elements are checked when the site is shown (checkSiteArrays), so opening a
  // 100k-site profile does not walk millions of numbers.
  function requireNumberArray(v, where) {
    requireArray(v, where);
    for (var i = 0; i < v.length; i++) {
      if (typeof v[i] !== 'number') fail(where + '[' + i + '] must be a number, found ' + describe(v[i]));
    }
    return v;
  }
  function optionalString(obj, key, where) {
    var v = obj[key];
    if (v !== null && v !== undefined && typeof v !== 'string') fail(where + '.' + key + ' must be a string or null, found ' + describe(v));
  }

  // A JSON.parse error as a message a user can act on.
  function jsonError(e, text) {
    var detail = String(e && e.message || e);
    if (/end of (JSON|data)|Unterminated|Unexpected end/i.test(detail)) {
      return new ProfileError('The file is not complete JSON: it ends early (' + detail + '). ' +
        'It looks truncated — was the profile still being written?');
    }
    if (/^\s*</.test(text)) return new ProfileError('This is not a lifeheap profile: it looks like HTML or XML, not JSON.');
    return new ProfileError('The file is not valid JSON: ' + detail);
  }

  function checkNotEmpty(text) {
    if (typeof text !== 'string' || text.trim() === '') fail('The file is empty.');
  }

  // Top-level checks: everything except the per-site loop.
  function validateTop(p) {
    if (!isObject(p)) fail('This is not a lifeheap profile: the JSON document is ' + describe(p) + ', not an object.');
    if (p.dhatFileVersion !== undefined) {
      fail('This is a DHAT profile (dhatFileVersion ' + String(p.dhatFileVersion) + '), not a lifeheap profile. Open it in DHAT\'s dh_view.html.');
    }
    if (p.format !== 'lifeheap-profile') {
      fail('This is not a lifeheap profile: "format" is ' + (p.format === undefined ? 'missing' : JSON.stringify(p.format)) + ', expected "lifeheap-profile".');
    }
    if (p.format_version !== SUPPORTED_VERSION) {
      fail('Unsupported profile version: format_version is ' + JSON.stringify(p.format_version) +
        ', but this viewer reads version ' + SUPPORTED_VERSION + '. Use a viewer from the same lifeheap release as the tool.');
    }
    requireObject(p.tool, 'tool');
    var run = requireObject(p.run, 'run');
    requireArray(run.command, 'run.command');
    run.command.forEach(function (a, i) { if (typeof a !== 'string') fail('run.command[' + i + '] must be a string'); });
    requireNumbers(run, ['duration', 'threads'], 'run');
    requireObject(run.exit, 'run.exit');
    requireNumbers(requireObject(p.totals, 'totals'), ['blocks', 'bytes', 'frees', 'reallocs',
      'realloc_requested_bytes', 'realloc_bytes_copied', 'bytes_read', 'bytes_written'], 'totals');
    requireNumbers(requireObject(p.peak, 'peak'), ['bytes', 'blocks', 'time'], 'peak');
    requireNumbers(requireObject(p.at_exit, 'at_exit'), ['bytes', 'blocks'], 'at_exit');
    var frames = requireArray(p.frames, 'frames');
    for (var i = 0; i < frames.length; i++) {
      var f = requireObject(frames[i], 'frames[' + i + ']');
      optionalString(f, 'function', 'frames[' + i + ']');
      optionalString(f, 'file', 'frames[' + i + ']');
      optionalString(f, 'directory', 'frames[' + i + ']');
      optionalString(f, 'object', 'frames[' + i + ']');
      if (typeof f.address !== 'string') fail('frames[' + i + '].address must be a string, found ' + describe(f.address));
      if (f.line !== null && f.line !== undefined && typeof f.line !== 'number') fail('frames[' + i + '].line must be a number or null');
    }
    requireArray(p.sites, 'sites');
    var t = requireObject(p.timeline, 'timeline');
    requireNumberArray(t.times, 'timeline.times');
    requireNumberArray(t.live_bytes, 'timeline.live_bytes');
    requireNumberArray(t.live_blocks, 'timeline.live_blocks');
    if (t.live_bytes.length !== t.times.length || t.live_blocks.length !== t.times.length) {
      fail('timeline.times, live_bytes and live_blocks must have the same length (' + t.times.length + ', ' +
        t.live_bytes.length + ', ' + t.live_blocks.length + ')');
    }
    requireArray(t.markers, 'timeline.markers');
    t.markers.forEach(function (m, i) {
      requireObject(m, 'timeline.markers[' + i + ']');
      requireNumber(m, 'time', 'timeline.markers[' + i + ']');
    });
    var findings = requireArray(p.findings, 'findings');
    findings.forEach(function (f, i) {
      requireObject(f, 'findings[' + i + ']');
      requireNumber(f, 'site', 'findings[' + i + ']');
      if (f.site < 0 || f.site >= p.sites.length) fail('findings[' + i + '].site ' + f.site + ' is not a site id');
    });
  }

  var SITE_NUMBERS = ['total_blocks', 'total_bytes', 'bytes_at_peak', 'blocks_at_peak', 'max_bytes',
    'max_blocks', 'max_time', 'bytes_at_exit', 'blocks_at_exit', 'freed_blocks', 'reallocs',
    'realloc_requested_bytes', 'realloc_bytes_copied', 'first_alloc_time', 'last_alloc_time',
    'allocating_threads', 'cross_thread_frees'];
  var ACCESS_NUMBERS = ['bytes_read', 'bytes_written', 'measured_bytes', 'never_read_bytes',
    'never_written_bytes', 'never_accessed_bytes', 'written_never_read_bytes', 'unused_capacity_bytes',
    'idle_before_free', 'first_access_delay'];

  function isNumber(v) { return typeof v === 'number' && isFinite(v); }

  // The common case, without building any message: true when validateSite would pass.
  function siteLooksValid(s, frameCount, timelineLength) {
    if (!isObject(s) || !Array.isArray(s.stack)) return false;
    var stack = s.stack;
    for (var k = 0; k < stack.length; k++) {
      var fi = stack[k];
      if (typeof fi !== 'number' || fi < 0 || fi >= frameCount || fi !== Math.floor(fi)) return false;
    }
    if (typeof s.name_frame !== 'number' || (stack.length > 0 && (s.name_frame < 0 || s.name_frame >= stack.length))) return false;
    for (var n = 0; n < SITE_NUMBERS.length; n++) if (!isNumber(s[SITE_NUMBERS[n]])) return false;
    var life = s.lifetime;
    if (!isObject(life) || !isNumber(life.sum) || !isNumber(life.min) || !isNumber(life.max) || !Array.isArray(life.histogram)) return false;
    var acc = s.access;
    if (!isObject(acc)) return false;
    for (var a = 0; a < ACCESS_NUMBERS.length; a++) if (!isNumber(acc[ACCESS_NUMBERS[a]])) return false;
    if (acc.at_peak !== undefined && acc.at_peak !== null && !isObject(acc.at_peak)) return false;
    var map = acc.map;
    if (map !== null && map !== undefined) {
      if (!isObject(map) || (map.kind !== 'bytes' && map.kind !== 'buckets') || !Array.isArray(map.reads) ||
        !Array.isArray(map.writes) || map.reads.length !== map.writes.length) return false;
    }
    if (s.growth !== null && s.growth !== undefined && !isObject(s.growth)) return false;
    if (s.timeline !== undefined && (!isObject(s.timeline) || !Array.isArray(s.timeline.live_bytes) ||
      s.timeline.live_bytes.length !== timelineLength)) return false;
    return true;
  }

  function validateSite(s, i, frameCount, timelineLength) {
    if (siteLooksValid(s, frameCount, timelineLength)) return;
    var where = 'sites[' + i + ']';
    requireObject(s, where);
    var stack = requireArray(s.stack, where + '.stack');
    for (var k = 0; k < stack.length; k++) {
      var fi = stack[k];
      if (typeof fi !== 'number' || fi < 0 || fi >= frameCount || fi !== Math.floor(fi)) {
        fail(where + '.stack[' + k + '] is ' + JSON.stringify(fi) + ', not a frame index (the profile has ' + frameCount + ' frames)');
      }
    }
    if (typeof s.name_frame !== 'number' || (stack.length > 0 && (s.name_frame < 0 || s.name_frame >= stack.length))) {
      fail(where + '.name_frame must index into its stack of ' + stack.length + ' frames, found ' + JSON.stringify(s.name_frame));
    }
    requireNumbers(s, SITE_NUMBERS, where);
    var life = requireObject(s.lifetime, where + '.lifetime');
    requireNumbers(life, ['sum', 'min', 'max'], where + '.lifetime');
    requireArray(life.histogram, where + '.lifetime.histogram');
    var acc = requireObject(s.access, where + '.access');
    requireNumbers(acc, ACCESS_NUMBERS, where + '.access');
    if (acc.at_peak !== undefined && acc.at_peak !== null) requireObject(acc.at_peak, where + '.access.at_peak');
    if (acc.map !== null && acc.map !== undefined) {
      var map = requireObject(acc.map, where + '.access.map');
      if (map.kind !== 'bytes' && map.kind !== 'buckets') fail(where + '.access.map.kind must be "bytes" or "buckets", found ' + JSON.stringify(map.kind));
      requireArray(map.reads, where + '.access.map.reads');
      requireArray(map.writes, where + '.access.map.writes');
      if (map.reads.length !== map.writes.length) fail(where + '.access.map: reads and writes differ in length');
    }
    if (s.growth !== null && s.growth !== undefined) requireObject(s.growth, where + '.growth');
    if (s.timeline !== undefined) {
      requireObject(s.timeline, where + '.timeline');
      if (requireArray(s.timeline.live_bytes, where + '.timeline.live_bytes').length !== timelineLength) {
        fail(where + '.timeline.live_bytes has ' + s.timeline.live_bytes.length + ' points, the global timeline has ' + timelineLength);
      }
    }
  }

  // Element checks of one site's arrays, done when the site is displayed.
  function checkSiteArrays(s, i) {
    var where = 'sites[' + i + ']';
    requireNumberArray(s.lifetime.histogram, where + '.lifetime.histogram');
    if (s.access.map) {
      requireNumberArray(s.access.map.reads, where + '.access.map.reads');
      requireNumberArray(s.access.map.writes, where + '.access.map.writes');
    }
    if (s.timeline) requireNumberArray(s.timeline.live_bytes, where + '.timeline.live_bytes');
  }

  // Returns a Promise of a Model. onProgress(fraction, label) is optional.
  function load(text, sourceName, onProgress) {
    var progress = onProgress || function () {};
    var timings = {};
    var start = Date.now();
    return Promise.resolve().then(function () {
      checkNotEmpty(text);
      return LH.chunkedJson.parse(text, { progress: progress }).catch(function (e) { throw jsonError(e, text); });
    }).then(function (p) {
      timings.parse_ms = Date.now() - start;
      validateTop(p);
      var sites = p.sites, frameCount = p.frames.length, tl = p.timeline.times.length;
      var next = 0;
      function slice() {
        var end = Math.min(sites.length, next + SLICE_SITES);
        for (; next < end; next++) validateSite(sites[next], next, frameCount, tl);
        if (next < sites.length) {
          progress(next / sites.length, 'Checking sites ' + next + ' / ' + sites.length);
          return LH.chunkedJson.yieldToBrowser().then(slice);
        }
        timings.validate_ms = Date.now() - start - timings.parse_ms;
        var model = new LH.Model(p, sourceName);
        model.timings = timings;
        return model;
      }
      return slice();
    });
  }

  return { load: load, validateTop: validateTop, validateSite: validateSite, checkSiteArrays: checkSiteArrays,
    ProfileError: ProfileError, SUPPORTED_VERSION: SUPPORTED_VERSION };
})();
