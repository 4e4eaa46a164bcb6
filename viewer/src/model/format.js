// Number formatting shared by every view. DOM-free.
// Sizes are shown human-readable (binary units, as a developer reads a heap) with the
// exact figure available through exactBytes()/exactCount() for hover titles.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.format = (function () {
  var groupFormatter = new Intl.NumberFormat('en-US');

  function exactCount(n) {
    if (n === null || n === undefined) return '—';
    return groupFormatter.format(n);
  }

  // Sizes and shares follow the rules of common/lh_numbers.h, which the tool
  // and the lifeheap command compile (docs/format.md, "Numbers for people"):
  // "512 B", "306.1 KiB" (one decimal in the largest binary unit whose rounded
  // value stays below 1024.0, tenths rounded half up); "<0.1%", "9.9%", "62%",
  // "99.9%". tests/viewer/number_format.test.js compares both on the same numbers.
  var SIZE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

  function bytes(n) {
    if (n === null || n === undefined || !isFinite(n)) return '—';
    var whole = Math.floor(Math.abs(n) + 0.5);
    var sign = n < 0 && whole > 0 ? '-' : '';
    if (whole < 1024) return sign + whole + ' B';
    var divisor = 1024, unit = 0, tenths;
    for (;;) {
      var quotient = Math.floor(whole / divisor);
      var rest = whole - quotient * divisor;
      tenths = quotient * 10 + Math.floor((rest * 10 + divisor / 2) / divisor);
      if (tenths < 10240 || unit === SIZE_UNITS.length - 1) break;
      divisor *= 1024;
      unit++;
    }
    return sign + Math.floor(tenths / 10) + '.' + (tenths % 10) + ' ' + SIZE_UNITS[unit];
  }

  function exactBytes(n) {
    if (n === null || n === undefined) return '—';
    return exactCount(n) + (Math.abs(n) === 1 ? ' byte' : ' bytes');
  }

  // Large counts abbreviated (12.3k, 4.5M); exact value goes in the title.
  function count(n) {
    if (n === null || n === undefined || !isFinite(n)) return '—';
    var v = Math.abs(n), sign = n < 0 ? '-' : '';
    if (v < 10000) return sign + groupFormatter.format(Math.round(v * 100) / 100);
    var units = [['T', 1e12], ['G', 1e9], ['M', 1e6], ['k', 1e3]];
    for (var i = 0; i < units.length; i++) {
      if (v >= units[i][1]) {
        var s = v / units[i][1];
        return sign + s.toFixed(s >= 100 ? 0 : 1) + units[i][0];
      }
    }
    return sign + String(v);
  }

  function percent(fraction) {
    if (fraction === null || fraction === undefined || !isFinite(fraction)) return '—';
    var sign = fraction < 0 ? '-' : '';
    var f = Math.abs(fraction);
    if (!(f > 0)) return sign + '0%';
    if (f > 1e15) f = 1e15;
    var tenths = Math.floor(f * 1000 + 0.5);
    if (tenths === 0) return sign + '<0.1%';
    if (tenths < 100 || (tenths >= 990 && f < 1)) {
      if (tenths > 999) tenths = 999;
      return sign + Math.floor(tenths / 10) + '.' + (tenths % 10) + '%';
    }
    return sign + Math.floor(f * 100 + 0.5) + '%';
  }

  function ratio(x) {
    if (x === null || x === undefined || !isFinite(x)) return '—';
    var a = Math.abs(x);
    return x.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
  }

  function instructions(n) {
    if (n === null || n === undefined) return '—';
    return count(n) + ' instr';
  }

  // Signed versions for diff mode.
  function signed(text, n) { return n > 0 ? '+' + text : text; }

  function argv(command) {
    // Quote arguments that would be ambiguous when joined with spaces.
    return command.map(function (a) {
      return /^[A-Za-z0-9_\-.,\/=:@%+]+$/.test(a) ? a : "'" + a.replace(/'/g, "'\\''") + "'";
    }).join(' ');
  }

  return {
    bytes: bytes, exactBytes: exactBytes, count: count, exactCount: exactCount,
    percent: percent, ratio: ratio, instructions: instructions, signed: signed, argv: argv,
  };
})();
