// Findings panel: each finding the tool recorded, in its order (most severe first), with
// its evidence. The viewer renders findings, it never re-derives them (docs/findings.md).
// Clicking a finding selects its site in every view.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.findingsView = (function () {
  var el = LH.dom.el, f = LH.format;

  var KIND_TITLES = {
    'missing-backpressure': 'Missing backpressure',
    'unbounded-growth': 'Unbounded growth',
    'oversized-preallocation': 'Oversized preallocation',
    'unused-capacity': 'Unused capacity',
    'leak': 'Leak',
    'short-lived-churn': 'Short-lived churn',
    'realloc-growth': 'Realloc growth',
  };

  // Evidence values are named numbers; the name says the unit (docs/findings.md):
  // rates ("..._per_...") as plain numbers, fractions and shares as %, "...bytes..." as
  // sizes, lifetimes and limits in instructions, anything else as a count.
  function evidenceText(name, value) {
    if (typeof value !== 'number') return JSON.stringify(value);
    if (/_per_/.test(name)) return f.exactCount(Math.round(value * 1000) / 1000);
    if (/fraction|ratio|share/.test(name)) return f.percent(value) + ' (' + value + ')';
    if (/bytes/.test(name)) return f.bytes(value) + ' (' + f.exactCount(value) + ')';
    if (/time|lifetime|delay|idle|limit/.test(name)) return f.exactCount(value) + ' instr';
    return f.exactCount(value);
  }

  function item(finding, siteModel, row, onSelect, state) {
    var severity = ['high', 'medium', 'low'].indexOf(finding.severity) >= 0 ? finding.severity : 'unknown';
    var evidence = finding.evidence && typeof finding.evidence === 'object' ? finding.evidence : {};
    // A label already says where ("ConnState::new (conns.rs:29)"); older profiles' names
    // get the location added.
    var labelled = siteModel && siteModel.sites[finding.site] && typeof siteModel.sites[finding.site].label === 'string';
    var siteLabel = !siteModel ? '' : labelled ? siteModel.siteName(finding.site)
      : siteModel.siteName(finding.site) + ' · ' + siteModel.siteLocation(finding.site);
    var node = el('li', { className: 'finding severity-' + severity + (state ? ' state-' + state : ''),
      attrs: { tabindex: '0', 'data-row': row, role: 'button' } }, [
      el('div', { className: 'finding-head' }, [
        el('span', { className: 'badge ' + severity, text: String(finding.severity) }),
        state ? el('span', { className: 'badge state', text: state }) : null,
        el('span', { className: 'finding-kind', text: KIND_TITLES[finding.kind] || String(finding.kind) }),
        el('span', { className: 'finding-site', text: siteLabel, title: siteModel ? siteModel.stackText(finding.site) : '' }),
      ]),
      el('div', { className: 'finding-summary', text: String(finding.summary) }),
      el('dl', { className: 'evidence' }, Object.keys(evidence).reduce(function (acc, key) {
        acc.push(el('dt', { text: key }));
        acc.push(el('dd', { text: evidenceText(key, evidence[key]) }));
        return acc;
      }, [])),
    ]);
    node.addEventListener('click', onSelect);
    node.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onSelect(); } });
    return node;
  }

  function empty(container, text) {
    container.appendChild(el('p', { className: 'empty', text: text }));
  }

  function renderSingle(container, model, selectRow) {
    LH.dom.clear(container);
    var findings = model.profile.findings;
    if (findings.length === 0) return empty(container, 'No findings: the tool recognised no problem in this run.');
    container.appendChild(el('ol', { className: 'findings' }, findings.map(function (x) {
      return item(x, model, x.site, function () { selectRow(x.site); });
    })));
  }

  function renderDiff(container, diff, selectRow) {
    LH.dom.clear(container);
    var list = diff.findings();
    if (list.length === 0) return empty(container, 'No findings in either profile.');
    container.appendChild(el('ol', { className: 'findings' }, list.map(function (x) {
      var model = x.side === 'base' ? diff.base : diff.changed;
      return item(x.finding, model, x.row, function () { selectRow(x.row); }, x.state);
    })));
  }

  // Mark the findings of the selected row (a site id, or a diff row).
  function highlight(container, row) {
    var nodes = container.querySelectorAll('.finding');
    for (var i = 0; i < nodes.length; i++) {
      nodes[i].classList.toggle('selected', Number(nodes[i].getAttribute('data-row')) === row);
    }
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff, highlight: highlight, KIND_TITLES: KIND_TITLES };
})();
