// Number formatting shared by every view. DOM-free.
// Sizes are shown human-readable (binary units, as a developer reads a heap) with the
// exact figure available through exactBytes()/exactCount() for hover titles.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.format = (function () {
  var UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  var groupFormatter = new Intl.NumberFormat('en-US');

  function exactCount(n) {
    if (n === null || n === undefined) return '—';
    return groupFormatter.format(n);
  }

  function bytes(n) {
    if (n === null || n === undefined || !isFinite(n)) return '—';
    var sign = n < 0 ? '-' : '';
    var v = Math.abs(n);
    var unit = 0;
    while (v >= 1024 && unit < UNITS.length - 1) { v /= 1024; unit++; }
    if (unit === 0) return sign + v + ' B';
    var digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    return sign + v.toFixed(digits) + ' ' + UNITS[unit];
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
    var p = fraction * 100;
    var a = Math.abs(p);
    if (a === 0) return '0%';
    if (a < 0.1) return (p < 0 ? '-' : '') + '<0.1%';
    return p.toFixed(a >= 10 ? 0 : 1) + '%';
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
