// A finding's evidence for people: each key's label and unit come from one table,
// docs/evidence-labels.json (built in as LH.evidenceLabels by build.js, and into the CLI
// by cli/Makefile.am, so `lifeheap report` says the same words). DOM-free.
//
// Units (the table's "units"): bytes as sizes (exact bytes in the title); counts
// grouped; shares and fractions of the run as percentages ("27% of the run");
// durations in instructions with their share of the run; ratios as plain numbers;
// growth rates as a size per million instructions. A key the table does not know is
// shown by its own name, as a count, so a newer tool's evidence is never hidden.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.evidence = (function () {
  var table = LH.evidenceLabels || { kinds: {}, evidence: {} };

  function kindTitle(kind) {
    var k = table.kinds[kind];
    return k ? k.title : String(kind);
  }

  function describe(kind, key) {
    var entry = Object.prototype.hasOwnProperty.call(table.evidence, key) ? table.evidence[key] : null;
    var k = table.kinds[kind];
    var label = k && k.labels && k.labels[key] ? k.labels[key] : entry ? entry.label : key.replace(/_/g, ' ');
    return { label: label, unit: entry ? entry.unit : 'count' };
  }

  // { text, title } of one value in `unit`; duration is the run's, in instructions.
  function formatValue(unit, value, duration) {
    var f = LH.format;
    if (typeof value !== 'number' || !isFinite(value)) return { text: JSON.stringify(value), title: JSON.stringify(value) };
    var ofRun = function (fraction) { return f.percent(fraction) + ' of the run'; };
    switch (unit) {
      case 'bytes': return { text: f.bytes(value), title: f.exactBytes(value) };
      case 'share': return { text: f.percent(value), title: String(value) };
      case 'run_share': return { text: ofRun(value), title: String(value) };
      case 'instructions': return { text: f.exactCount(value) + ' instr' + (duration > 0 ? ' (' + ofRun(value / duration) + ')' : ''),
        title: f.exactCount(value) + ' instructions' };
      case 'ratio': return { text: f.ratio(value), title: String(value) };
      case 'rate': return { text: f.bytes(Math.round(value)) + ' per million instr', title: String(value) + ' bytes per million instructions' };
      default: return { text: f.exactCount(value), title: f.exactCount(value) };
    }
  }

  // Every evidence value of a finding, in the tool's order, labelled and formatted.
  function items(finding, duration) {
    var evidence = finding && finding.evidence && typeof finding.evidence === 'object' ? finding.evidence : {};
    return Object.keys(evidence).map(function (key) {
      var d = describe(finding.kind, key);
      var shown = formatValue(d.unit, evidence[key], duration);
      return { key: key, label: d.label, unit: d.unit, value: evidence[key], text: shown.text, title: key + ' = ' + shown.title };
    });
  }

  // The few values a headline shows: the kind's chosen keys, in its order, when present;
  // one label is shown once (a queue's wait in instructions and as a share of the run).
  function headlineItems(finding, duration) {
    var all = items(finding, duration), k = table.kinds[finding.kind];
    var keys = k && k.headline ? k.headline : all.slice(0, 4).map(function (x) { return x.key; });
    var seen = {};
    return keys.map(function (key) { return all.filter(function (x) { return x.key === key; })[0]; })
      .filter(function (x) { if (!x || seen[x.label]) return false; seen[x.label] = true; return true; });
  }

  // The figure `key` from a site's own fields, when the table names one (site_field:
  // the same number the tool puts in a finding's evidence), for a site without the
  // finding; undefined when it names none or the site lacks it.
  function siteValue(key, site) {
    var entry = Object.prototype.hasOwnProperty.call(table.evidence, key) ? table.evidence[key] : null;
    if (!entry || !entry.site_field || !site) return undefined;
    var value = site;
    entry.site_field.split('.').forEach(function (part) { value = value && typeof value === 'object' ? value[part] : undefined; });
    return typeof value === 'number' && isFinite(value) ? value : undefined;
  }

  return { table: table, kindTitle: kindTitle, describe: describe, formatValue: formatValue, items: items, headlineItems: headlineItems,
    siteValue: siteValue };
})();
