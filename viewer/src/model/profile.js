// Parse and validate a lifeheap profile (docs/format.md, versions 1 and 2) into a Model. DOM-free.
//
// Loading is incremental so a 50 MB profile does not freeze the page: the text is parsed
// in slices (chunked_json.js), then the sites are validated in slices of SLICE_SITES,
// with a yield to the event loop between slices and progress reported throughout.
// Any problem becomes a ProfileError whose message names the file position or field,
// so the page can say what is wrong instead of showing nothing. The messages are the
// CLI's, word for word (tests/hostile checks both readers on the same profiles), and
// the relations between fields come from docs/profile-rules.json, which build.js
// builds in as LH.profileRules.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.profile = (function () {
  // The version lifeheap writes; versions OLDEST_VERSION to it are read (version 1
  // writes every site member, version 2 leaves out those at their defaults).
  var SUPPORTED_VERSION = 2;
  var OLDEST_VERSION = 1;
  var SLICE_SITES = 4000;

  function ProfileError(message) {
    this.name = 'ProfileError';
    this.message = message;
  }
  ProfileError.prototype = Object.create(Error.prototype);

  function fail(message) { throw new ProfileError(message); }

  // The messages below are word for word those of the CLI's reader (cli/profile.c):
  // "<field>: expected an integer, found a string", "<field>: missing", "<field>:
  // negative value -5". tests/hostile feeds both the same profiles and compares.
  var MAX_COUNT = 9007199254740991;   // 2^53 - 1, docs/format.md
  function typeName(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'an array';
    switch (typeof v) {
      case 'object': return 'an object';
      case 'string': return 'a string';
      case 'boolean': return 'a boolean';
      case 'number': return Number.isInteger(v) ? 'an integer' : 'a number with a fraction';
    }
    return 'an unknown type';
  }
  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }
  function isCount(v) { return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_COUNT; }
  function isNumber(v) { return typeof v === 'number' && isFinite(v); }
  // An access map the page can draw: a kind, and reads and writes of one length. The CLI
  // skips a map it cannot use rather than refusing the profile, and so does the viewer
  // (validateSite drops it: the site shows no map).
  function mapLooksValid(map) {
    return isObject(map) && (map.kind === 'bytes' || map.kind === 'buckets') && Array.isArray(map.reads) &&
      Array.isArray(map.writes) && map.reads.length === map.writes.length;
  }
  function present(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }

  // member(obj, key, prefix, kind): the member, which must be present and of `kind`
  // ('an object', 'an array', 'a string', 'a boolean'); prefix is "run." or "sites[3].".
  var KINDS = {
    'an object': isObject, 'an array': Array.isArray,
    'a string': function (v) { return typeof v === 'string'; },
    'a boolean': function (v) { return typeof v === 'boolean'; },
  };
  function member(obj, key, prefix, kind) {
    if (!present(obj, key)) fail(prefix + key + ': missing');
    var v = obj[key];
    if (!KINDS[kind](v)) fail(prefix + key + ': expected ' + kind + ', found ' + typeName(v));
    return v;
  }
  function countValue(v, name) {
    if (typeof v !== 'number' || !Number.isInteger(v)) fail(name + ': expected an integer, found ' + typeName(v));
    if (v < 0) fail(name + ': negative value ' + v);
    if (v > MAX_COUNT) fail(name + ': value out of range (more than 2^53 - 1)');
    return v;
  }
  function requireCount(obj, key, prefix) {
    if (!present(obj, key)) fail(prefix + key + ': missing');
    return countValue(obj[key], prefix + key);
  }
  // An array of `count` counts, one per timeline point (the CLI's read_counts).
  function requireCountArray(obj, key, count, prefix) {
    var values = member(obj, key, prefix, 'an array');
    if (values.length !== count) fail(prefix + key + ': ' + values.length + ' values, expected ' + count + ' (one per timeline point)');
    for (var i = 0; i < values.length; i++) countValue(values[i], prefix + key + '[' + i + ']');
    return values;
  }
  function requireCounts(obj, keys, prefix) {
    for (var i = 0; i < keys.length; i++) requireCount(obj, keys[i], prefix);
  }
  function requireNumber(obj, key, prefix) {
    if (!present(obj, key)) fail(prefix + key + ': missing');
    var v = obj[key];
    if (typeof v !== 'number' || !isFinite(v)) fail(prefix + key + ': expected a number, found ' + typeName(v));
    return v;
  }
  function optionalString(obj, key, prefix) {
    if (!present(obj, key)) fail(prefix + key + ': missing');
    var v = obj[key];
    if (v !== null && typeof v !== 'string') fail(prefix + key + ': expected a string or null, found ' + typeName(v));
  }
  // Large per-site arrays (histograms, access maps) are checked for being arrays here;
  // their elements are checked when the site is shown (checkSiteArrays), so opening a
  // 100k-site profile does not walk millions of numbers.
  function requireNumberArray(v, where) {
    if (!Array.isArray(v)) fail(where + ': expected an array, found ' + typeName(v));
    for (var i = 0; i < v.length; i++) {
      if (typeof v[i] !== 'number') fail(where + '[' + i + ']: expected a number, found ' + typeName(v[i]));
    }
    return v;
  }

  // --- Bytes to text: strict UTF-8 ---------------------------------------------------
  // The first byte offset that is not well-formed UTF-8 (overlong forms, surrogates,
  // code points past U+10FFFF, cut sequences included), or -1. The same check as
  // cli/profile.c's utf8_error_offset, so both readers refuse the same bytes.
  function utf8ErrorOffset(bytes) {
    var n = bytes.length, i = 0;
    while (i < n) {
      var c = bytes[i];
      if (c < 0x80) { i++; continue; }
      var need, low = 0x80, high = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) need = 1;
      else if (c >= 0xE0 && c <= 0xEF) { need = 2; if (c === 0xE0) low = 0xA0; else if (c === 0xED) high = 0x9F; }
      else if (c >= 0xF0 && c <= 0xF4) { need = 3; if (c === 0xF0) low = 0x90; else if (c === 0xF4) high = 0x8F; }
      else return i;
      if (i + need >= n) return i;                 // cut short by the end
      var b = bytes[i + 1];
      if (b < low || b > high) return i;
      for (var k = 2; k <= need; k++) {
        if (i + k >= n || (bytes[i + k] & 0xC0) !== 0x80) return i;
      }
      i += need + 1;
    }
    return -1;
  }
  // A file's bytes (ArrayBuffer or Uint8Array) as text, or a ProfileError naming the
  // first byte that is not UTF-8.
  function decode(buffer) {
    var bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer);
    var bad = utf8ErrorOffset(bytes);
    if (bad >= 0) fail('invalid UTF-8 at byte ' + bad + ' (a profile is UTF-8 text)');
    var start = bytes.length >= 3 && bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF ? 3 : 0;
    return new TextDecoder('utf-8').decode(start ? bytes.subarray(start) : bytes);
  }

  // Bytes of the UTF-8 encoding of a JS string (for messages that count bytes, as the
  // CLI's do).
  function utf8Length(text) {
    var bytes = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.length) { bytes += 4; i++; }
      else bytes += 3;
    }
    return bytes;
  }

  // A JSON.parse error as a message a user can act on.
  function jsonError(e, text) {
    var detail = String(e && e.message || e);
    // A document cut after a number in an array gets "Expected ',' or ']' after array
    // element ... at position N" with N its length: truncated too.
    var position = /at position (\d+)/.exec(detail);
    var atEnd = position !== null && Number(position[1]) >= text.replace(/\s+$/, '').length;
    if (atEnd || /end of (JSON|data)|Unterminated|Unexpected end/i.test(detail)) {
      return new ProfileError('truncated JSON (the document ends after ' + utf8Length(text) + ' bytes)');
    }
    if (/^\s*</.test(text)) return new ProfileError('not a lifeheap profile (it looks like HTML or XML, not JSON)');
    return new ProfileError('invalid JSON: ' + detail);
  }

  function checkNotEmpty(text) {
    if (typeof text !== 'string' || text === '') fail('empty file');
  }

  // The header, run, totals, peak and at_exit, frames, timeline and findings: everything
  // except the per-site loop, in the CLI's order.
  function validateTop(p) {
    if (!isObject(p)) fail('not a lifeheap profile (the document is ' + typeName(p) + ', not an object)');
    if (p.dhatFileVersion !== undefined) {
      fail('not a lifeheap profile (it is a DHAT profile: open it in DHAT\'s dh_view.html)');
    }
    if (p.format !== 'lifeheap-profile') fail('not a lifeheap profile ("format" is not "lifeheap-profile")');
    if (!present(p, 'format_version')) fail('format_version: missing');
    if (typeof p.format_version !== 'number' || !Number.isInteger(p.format_version)) {
      fail('format_version: expected an integer, found ' + typeName(p.format_version));
    }
    if (p.format_version < OLDEST_VERSION || p.format_version > SUPPORTED_VERSION) {
      fail('format_version ' + p.format_version + ' is not supported (this lifeheap reads versions ' +
        OLDEST_VERSION + ' to ' + SUPPORTED_VERSION + ')');
    }
    var tool = member(p, 'tool', '', 'an object');
    member(tool, 'version', 'tool.', 'a string');
    member(tool, 'valgrind_version', 'tool.', 'a string');
    var run = member(p, 'run', '', 'an object');
    var command = member(run, 'command', 'run.', 'an array');
    command.forEach(function (a, i) { if (typeof a !== 'string') fail('run.command[' + i + ']: expected a string, found ' + typeName(a)); });
    optionalString(run, 'executable', 'run.');
    requireCounts(run, ['pid', 'duration', 'threads'], 'run.');
    if (present(run, 'started_at_unix_ms')) requireCount(run, 'started_at_unix_ms', 'run.');
    member(run, 'complete', 'run.', 'a boolean');
    var exit = member(run, 'exit', 'run.', 'an object');
    var status = member(exit, 'status', 'run.exit.', 'a string');
    if (status === 'exited') requireCount(exit, 'code', 'run.exit.');
    else if (status === 'signal') {
      if (!present(exit, 'signal')) fail('run.exit.signal: missing');
      if (exit.signal !== null) requireCount(exit, 'signal', 'run.exit.');
      optionalString(exit, 'signal_name', 'run.exit.');
    } else if (status !== 'running') fail('run.exit.status: unknown value (expected exited, signal or running)');
    requireCounts(member(p, 'totals', '', 'an object'), ['blocks', 'bytes', 'frees', 'reallocs',
      'realloc_requested_bytes', 'realloc_bytes_copied', 'bytes_read', 'bytes_written'], 'totals.');
    ['realloc_growth_bytes', 'invalid_frees', 'invalid_reallocs'].forEach(function (key) {
      if (p.totals[key] !== undefined && p.totals[key] !== null) requireCount(p.totals, key, 'totals.');
    });
    requireCounts(member(p, 'peak', '', 'an object'), ['bytes', 'blocks', 'time'], 'peak.');
    requireCounts(member(p, 'at_exit', '', 'an object'), ['bytes', 'blocks'], 'at_exit.');
    var frames = member(p, 'frames', '', 'an array');
    for (var i = 0; i < frames.length; i++) {
      var where = 'frames[' + i + ']';
      var f = frames[i];
      if (!isObject(f)) fail(where + ': expected an object, found ' + typeName(f));
      where += '.';
      optionalString(f, 'function', where);
      optionalString(f, 'file', where);
      if (f.directory !== undefined) optionalString(f, 'directory', where);
      optionalString(f, 'object', where);
      member(f, 'address', where, 'a string');
      if (!present(f, 'line')) fail(where + 'line: missing');
      if (f.line !== null) countValue(f.line, where + 'line');
      member(f, 'inlined', where, 'a boolean');
    }
    member(p, 'sites', '', 'an array');
    // The viewer draws the timeline, so it must be there (the CLI, which only
    // lists it, also reads profiles without one).
    var t = member(p, 'timeline', '', 'an object');
    var points = member(t, 'times', 'timeline.', 'an array').length;
    requireCountArray(t, 'times', points, 'timeline.');
    requireCountArray(t, 'live_bytes', points, 'timeline.');
    requireCountArray(t, 'live_blocks', points, 'timeline.');
    if (t.markers === undefined || t.markers === null) t.markers = [];
    member(t, 'markers', 'timeline.', 'an array').forEach(function (m, i) {
      if (!isObject(m)) fail('timeline.markers[' + i + ']: expected an object, found ' + typeName(m));
      requireCount(m, 'time', 'timeline.markers[' + i + '].');
      member(m, 'label', 'timeline.markers[' + i + '].', 'a string');
    });
    // Absent or null: no findings (profiles from before them), as the CLI reads it.
    if (p.findings === undefined || p.findings === null) p.findings = [];
    var findings = member(p, 'findings', '', 'an array');
    findings.forEach(function (f, i) {
      var where = 'findings[' + i + ']';
      if (!isObject(f)) fail(where + ': expected an object, found ' + typeName(f));
      member(f, 'kind', where + '.', 'a string');
      member(f, 'severity', where + '.', 'a string');
      member(f, 'summary', where + '.', 'a string');
      var site = requireCount(f, 'site', where + '.');
      if (site >= p.sites.length) fail(where + '.site: site ' + site + ' does not exist (' + p.sites.length + ' sites)');
    });
  }

  var SITE_COUNTS = ['total_blocks', 'total_bytes', 'bytes_at_peak', 'blocks_at_peak', 'max_bytes',
    'max_blocks', 'max_time', 'bytes_at_exit', 'blocks_at_exit', 'freed_blocks', 'reallocs',
    'realloc_requested_bytes', 'realloc_bytes_copied', 'first_alloc_time', 'last_alloc_time',
    'allocating_threads', 'cross_thread_frees'];
  var ACCESS_COUNTS = ['bytes_read', 'bytes_written', 'measured_bytes', 'never_read_bytes',
    'never_written_bytes', 'never_accessed_bytes', 'written_never_read_bytes', 'unused_capacity_bytes',
    'idle_before_free', 'first_access_delay'];
  var AT_PEAK_COUNTS = ['bytes', 'never_read_bytes', 'never_written_bytes', 'never_accessed_bytes', 'unused_capacity_bytes'];

  // sites[].match_key and match_lines (docs/format.md, "Site identity across runs"):
  // both or neither; one line per key frame.
  function matchKeyLooksValid(s) {
    if (typeof s.match_key !== 'string' || !Array.isArray(s.match_lines)) return false;
    for (var i = 0; i < s.match_lines.length; i++) if (!isCount(s.match_lines[i])) return false;
    return s.match_key.split('\n').length - 1 === s.match_lines.length;
  }

  // A version 2 site leaves out every member equal to its documented default
  // (docs/format.md, "Omitted members"); this puts them back, as cli/profile_defaults.c
  // does for the CLI, so the checks below and the model read both versions alike. A
  // default is only added when what it is made from is usable; otherwise the member
  // stays absent and the checks name it.
  var SITE_ZERO_COUNTS = ['total_blocks', 'total_bytes', 'bytes_at_peak', 'blocks_at_peak',
    'bytes_at_exit', 'blocks_at_exit', 'freed_blocks', 'reallocs', 'realloc_requested_bytes',
    'realloc_bytes_copied', 'realloc_growth_bytes', 'first_alloc_time', 'cross_thread_frees'];
  var ACCESS_ZERO_COUNTS = ['bytes_read', 'bytes_written', 'written_never_read_bytes',
    'idle_before_free', 'first_access_delay'];
  var OF_MEASURED = ['never_read_bytes', 'never_written_bytes', 'never_accessed_bytes',
    'unused_capacity_bytes'];
  function absent(o, key) { return !Object.prototype.hasOwnProperty.call(o, key); }
  function defaultValue(o, key, value) { if (absent(o, key)) o[key] = value; }
  function defaultFrom(o, key, from, fromKey) {
    if (absent(o, key) && isCount(from[fromKey])) o[key] = from[fromKey];
  }
  function defaultObject(o, key) {
    if (absent(o, key)) o[key] = {};
    return isObject(o[key]) ? o[key] : null;
  }
  function expandHistogram(o, startKey, key) {
    var start = absent(o, startKey) ? 0 : o[startKey];
    var counts = absent(o, key) ? [] : o[key];
    if (!isCount(start) || start > 64 || !Array.isArray(counts)) return;
    var full = [];
    for (var i = 0; i < start; i++) full.push(0);
    o[key] = full.concat(counts);
    delete o[startKey];
  }
  function validStack(s, frames) {
    if (!Array.isArray(s.stack)) return false;
    for (var k = 0; k < s.stack.length; k++) {
      if (!isCount(s.stack[k]) || s.stack[k] >= frames.length || !isObject(frames[s.stack[k]])) return false;
    }
    return isCount(s.name_frame) && (s.stack.length ? s.name_frame < s.stack.length : s.name_frame === 0);
  }
  function positions(list, length, where) {
    if (!Array.isArray(list)) fail(where + ': expected an array');
    list.forEach(function (p) {
      if (!isCount(p) || p >= length) fail(where + ': a position outside the stack');
    });
    return list;
  }
  function frameText(f) { return typeof f.text === 'string' ? f.text : '???'; }
  // The label joined from the frame table: the name frame's text, " via " before a
  // caller's, ", allocated by " before the first callee's and " > " before the next,
  // then " #n".
  function joinLabel(s, frames, where) {
    var name = s.name_frame, stack = s.stack;
    var text = stack.length ? frameText(frames[stack[name]]) : '???';
    var calleeSeen = false;
    var parts = absent(s, 'label_frames') ? [] : positions(s.label_frames, stack.length, where + 'label_frames');
    parts.forEach(function (p) {
      if (p > name) text += ' via ';
      else if (calleeSeen) text += ' > ';
      else { text += ', allocated by '; calleeSeen = true; }
      text += frameText(frames[stack[p]]);
    });
    if (!absent(s, 'label_number')) {
      if (!isCount(s.label_number)) fail(where + 'label_number: expected a count');
      if (s.label_number > 0) text += ' #' + s.label_number;
    }
    return text;
  }
  function joinMatchKey(s, frames, where) {
    var kept = absent(s, 'match_frames') ? s.stack.map(function (f, k) { return k; })
      : positions(s.match_frames, s.stack.length, where + 'match_frames');
    var key = '', lines = [];
    kept.forEach(function (p) {
      var f = frames[s.stack[p]];
      if (typeof f.match_text !== 'string') fail(where + 'match_frames: a frame without match_text');
      key += f.match_text + '\n';
      lines.push(isCount(f.line) ? f.line : 0);
    });
    s.match_key = key;
    s.match_lines = lines;
  }
  function expandSite(s, i, frames, allocatorStacks) {
    if (!isObject(s)) return;
    var where = 'sites[' + i + '].';
    defaultValue(s, 'id', i);
    defaultValue(s, 'stack', []);
    defaultValue(s, 'name_frame', 0);
    if (validStack(s, frames)) {
      if (absent(s, 'label')) s.label = joinLabel(s, frames, where);
      if (absent(s, 'match_key')) joinMatchKey(s, frames, where);
    }
    delete s.label_frames;
    delete s.label_number;
    delete s.match_frames;
    defaultValue(s, 'runtime_only', false);
    defaultValue(s, 'notes', []);
    SITE_ZERO_COUNTS.forEach(function (key) { defaultValue(s, key, 0); });
    defaultFrom(s, 'max_bytes', s, 'total_bytes');
    defaultFrom(s, 'max_blocks', s, 'total_blocks');
    defaultFrom(s, 'max_time', s, 'first_alloc_time');
    defaultFrom(s, 'last_alloc_time', s, 'first_alloc_time');
    defaultValue(s, 'allocating_threads', 1);
    var life = defaultObject(s, 'lifetime');
    if (life) {
      defaultValue(life, 'sum', 0);
      defaultFrom(life, 'min', life, 'sum');
      defaultFrom(life, 'max', life, 'sum');
      expandHistogram(life, 'histogram_start', 'histogram');
    }
    expandHistogram(s, 'size_histogram_start', 'size_histogram');
    var zero = defaultObject(s, 'zero_size_blocks');
    if (zero) ['total', 'at_peak', 'at_exit'].forEach(function (key) { defaultValue(zero, key, 0); });
    if (absent(s, 'allocator_frames')) {
      if (absent(s, 'allocator_stack')) s.allocator_frames = [];
      else if (isCount(s.allocator_stack) && Array.isArray(allocatorStacks) && s.allocator_stack < allocatorStacks.length) {
        s.allocator_frames = allocatorStacks[s.allocator_stack];
      } else fail(where + 'allocator_stack: not an index into allocator_stacks');
      delete s.allocator_stack;
    }
    var access = defaultObject(s, 'access');
    if (access) {
      defaultValue(access, 'block_size', null);
      ACCESS_ZERO_COUNTS.forEach(function (key) { defaultValue(access, key, 0); });
      defaultFrom(access, 'measured_bytes', s, 'total_bytes');
      OF_MEASURED.forEach(function (key) { defaultFrom(access, key, access, 'measured_bytes'); });
      var atPeak = defaultObject(access, 'at_peak');
      if (atPeak) {
        defaultFrom(atPeak, 'bytes', s, 'bytes_at_peak');
        OF_MEASURED.forEach(function (key) { defaultFrom(atPeak, key, atPeak, 'bytes'); });
      }
      defaultValue(access, 'map', null);
    }
    defaultValue(s, 'growth', null);
  }

  // The common case, without building any message: true when validateSite would pass.
  function siteLooksValid(s, i, frameCount, timelineLength) {
    if (!isObject(s) || s.id !== i || !Array.isArray(s.stack)) return false;
    var stack = s.stack;
    for (var k = 0; k < stack.length; k++) {
      var fi = stack[k];
      if (!isCount(fi) || fi >= frameCount) return false;
    }
    if (!isCount(s.name_frame) || (stack.length > 0 ? s.name_frame >= stack.length : s.name_frame !== 0)) return false;
    if (s.runtime_only !== undefined && typeof s.runtime_only !== 'boolean') return false;
    if ((s.match_key !== undefined || s.match_lines !== undefined) && !matchKeyLooksValid(s)) return false;
    for (var n = 0; n < SITE_COUNTS.length; n++) if (!isCount(s[SITE_COUNTS[n]])) return false;
    if (s.realloc_growth_bytes !== undefined && s.realloc_growth_bytes !== null && !isCount(s.realloc_growth_bytes)) return false;
    if (s.size_histogram !== undefined && !LH.shapes.validHistogram(s.size_histogram)) return false;
    if (s.blocks_by_size_and_lifetime !== undefined && !LH.shapes.validGrid(s.blocks_by_size_and_lifetime)) return false;
    var life = s.lifetime;
    if (!isObject(life) || !isCount(life.sum) || !isCount(life.min) || !isCount(life.max) || !Array.isArray(life.histogram)) return false;
    var acc = s.access;
    if (!isObject(acc)) return false;
    for (var a = 0; a < ACCESS_COUNTS.length; a++) if (!isCount(acc[ACCESS_COUNTS[a]])) return false;
    var atPeak = acc.at_peak;
    if (!isObject(atPeak)) return false;
    for (var b = 0; b < AT_PEAK_COUNTS.length; b++) if (!isCount(atPeak[AT_PEAK_COUNTS[b]])) return false;
    if (acc.map !== null && acc.map !== undefined && !mapLooksValid(acc.map)) return false;
    var growth = s.growth;
    if (growth !== null && growth !== undefined && (!isObject(growth) || !isNumber(growth.rising_fraction) ||
      !isNumber(growth.slope_bytes_per_million_instructions) || !isNumber(growth.end_to_max_ratio))) return false;
    if (s.timeline !== undefined && s.timeline !== null) {
      var series = s.timeline.live_bytes;
      if (!isObject(s.timeline) || !Array.isArray(series) || series.length !== timelineLength) return false;
      for (var v = 0; v < series.length; v++) if (!isCount(series[v])) return false;
    }
    return true;
  }

  function validateSite(s, i, frameCount, timelineLength) {
    if (siteLooksValid(s, i, frameCount, timelineLength)) return;
    var where = 'sites[' + i + ']';
    if (!isObject(s)) fail(where + ': expected an object, found ' + typeName(s));
    var prefix = where + '.';
    var id = requireCount(s, 'id', prefix);
    if (id !== i) fail(prefix + 'id: is ' + id + ', must equal the site\'s position');
    var stack = member(s, 'stack', prefix, 'an array');
    for (var k = 0; k < stack.length; k++) {
      var fi = countValue(stack[k], prefix + 'stack[' + k + ']');
      if (fi >= frameCount) {
        fail(prefix + 'stack[' + k + ']: frame index ' + fi + ' out of range (' + frameCount + ' frames)');
      }
    }
    var nameFrame = requireCount(s, 'name_frame', prefix);
    if (stack.length > 0 ? nameFrame >= stack.length : nameFrame !== 0) {
      fail(prefix + 'name_frame: ' + nameFrame + ' is outside the stack (' + stack.length + ' frames)');
    }
    if (s.runtime_only !== undefined) member(s, 'runtime_only', prefix, 'a boolean');
    if (present(s, 'match_key') || present(s, 'match_lines')) {
      var key = member(s, 'match_key', prefix, 'a string');
      var lines = member(s, 'match_lines', prefix, 'an array');
      for (var l = 0; l < lines.length; l++) countValue(lines[l], prefix + 'match_lines[' + l + ']');
      var keyLines = key.split('\n').length - 1;
      if (keyLines !== lines.length) {
        fail(prefix + 'match_lines: ' + lines.length + ' lines for a match_key of ' + keyLines + ' frames');
      }
    }
    requireCounts(s, SITE_COUNTS, prefix);
    if (s.realloc_growth_bytes !== undefined && s.realloc_growth_bytes !== null) requireCount(s, 'realloc_growth_bytes', prefix);
    var life = member(s, 'lifetime', prefix, 'an object');
    requireCounts(life, ['sum', 'min', 'max'], prefix + 'lifetime.');
    member(life, 'histogram', prefix + 'lifetime.', 'an array');
    // The viewer shows every site's access figures, so they must be there (the CLI
    // also reads profiles from before them, with access null).
    if (present(s, 'access') && s.access !== null && !isObject(s.access)) {
      fail(prefix + 'access: expected an object or null, found ' + typeName(s.access));
    }
    var acc = member(s, 'access', prefix, 'an object');
    requireCounts(acc, ACCESS_COUNTS, prefix + 'access.');
    requireCounts(member(acc, 'at_peak', prefix + 'access.', 'an object'), AT_PEAK_COUNTS, prefix + 'access.at_peak.');
    if (acc.map !== null && acc.map !== undefined && !mapLooksValid(acc.map)) acc.map = null;
    if (s.growth !== null && s.growth !== undefined) {
      if (!isObject(s.growth)) fail(prefix + 'growth: expected an object or null, found ' + typeName(s.growth));
      requireNumber(s.growth, 'rising_fraction', prefix + 'growth.');
      requireNumber(s.growth, 'slope_bytes_per_million_instructions', prefix + 'growth.');
      requireNumber(s.growth, 'end_to_max_ratio', prefix + 'growth.');
    }
    // Blocks by size (and by size and lifetime): what the page cannot draw is dropped
    // (LH.shapes).
    if (s.size_histogram !== undefined && !LH.shapes.validHistogram(s.size_histogram)) delete s.size_histogram;
    if (s.blocks_by_size_and_lifetime !== undefined && !LH.shapes.validGrid(s.blocks_by_size_and_lifetime)) delete s.blocks_by_size_and_lifetime;
    if (s.timeline === null) delete s.timeline;   // null: no series, as for an absent one
    if (s.timeline !== undefined) {
      var tl = member(s, 'timeline', prefix, 'an object');
      requireCountArray(tl, 'live_bytes', timelineLength, prefix + 'timeline.');
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

  // --- The consistency rules (docs/profile-rules.json, built in as LH.profileRules) ----
  var SITE_PREFIX = 'sites[].';
  function fieldValue(root, path) {
    var parts = path.split('.'), v = root;
    for (var i = 0; i < parts.length; i++) v = v[parts[i]];
    return v;
  }
  function rules() {
    if (!LH.profileRules || !Array.isArray(LH.profileRules.relations)) fail('internal error: the built-in profile rules are missing');
    return LH.profileRules;
  }
  // Every relation "field <= at_most", in the file's order; the first broken one is the
  // error, worded as the CLI words it (cli/profile_rules.c).
  function checkRelations(p) {
    var relations = rules().relations;
    for (var r = 0; r < relations.length; r++) {
      var rel = relations[r];
      var leftSite = rel.field.indexOf(SITE_PREFIX) === 0, rightSite = rel.at_most.indexOf(SITE_PREFIX) === 0;
      var left = leftSite ? rel.field.slice(SITE_PREFIX.length) : rel.field;
      var right = rightSite ? rel.at_most.slice(SITE_PREFIX.length) : rel.at_most;
      var count = leftSite || rightSite ? p.sites.length : 1;
      for (var s = 0; s < count; s++) {
        var a = fieldValue(leftSite ? p.sites[s] : p, left), b = fieldValue(rightSite ? p.sites[s] : p, right);
        if (a <= b) continue;
        fail((leftSite ? 'sites[' + s + '].' + left : left) + ': ' + a + ' is more than ' +
          (rightSite ? 'sites[' + s + '].' + right : right) + ' (' + b + '): ' + rel.why);
      }
    }
  }

  // Strings are shown at most display_max_chars characters long (docs/format.md): a
  // 100 MB function name would otherwise stall or crash the page. Sites hold no free
  // text, so only the rest of the document is walked.
  function capText(text, limit) {
    if (text.length <= limit) return text;
    var cut = limit;
    var c = text.charCodeAt(cut - 1);
    if (c >= 0xD800 && c <= 0xDBFF) cut--;   // do not split a surrogate pair
    return text.slice(0, cut) + '\u2026 [' + (text.length - cut) + ' more characters]';
  }
  function capStrings(value, limit) {
    if (Array.isArray(value)) {
      for (var i = 0; i < value.length; i++) {
        if (typeof value[i] === 'string') value[i] = capText(value[i], limit);
        else if (value[i] !== null && typeof value[i] === 'object') capStrings(value[i], limit);
      }
    } else {
      for (var key in value) {
        if (!present(value, key) || key === 'sites') continue;
        if (typeof value[key] === 'string') value[key] = capText(value[key], limit);
        else if (value[key] !== null && typeof value[key] === 'object') capStrings(value[key], limit);
      }
    }
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
      // The run's blocks by size and lifetime: dropped when the page cannot draw it.
      if (p.blocks_by_size_and_lifetime !== undefined && !LH.shapes.validGrid(p.blocks_by_size_and_lifetime)) delete p.blocks_by_size_and_lifetime;
      var sites = p.sites, frameCount = p.frames.length, tl = p.timeline.times.length;
      var next = 0;
      function slice() {
        var end = Math.min(sites.length, next + SLICE_SITES);
        for (; next < end; next++) {
          if (p.format_version >= 2) expandSite(sites[next], next, p.frames, p.allocator_stacks);
          validateSite(sites[next], next, frameCount, tl);
        }
        if (next < sites.length) {
          progress(next / sites.length, 'Checking sites ' + next + ' / ' + sites.length);
          return LH.chunkedJson.yieldToBrowser().then(slice);
        }
        checkRelations(p);
        capStrings(p, rules().display_max_chars);
        timings.validate_ms = Date.now() - start - timings.parse_ms;
        var model = new LH.Model(p, sourceName);
        model.timings = timings;
        return model;
      }
      return slice();
    });
  }

  return { load: load, decode: decode, validateTop: validateTop, expandSite: expandSite, validateSite: validateSite, checkSiteArrays: checkSiteArrays,
    checkRelations: checkRelations, capText: capText, ProfileError: ProfileError, SUPPORTED_VERSION: SUPPORTED_VERSION, OLDEST_VERSION: OLDEST_VERSION };
})();
