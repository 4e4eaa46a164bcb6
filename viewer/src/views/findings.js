// Findings panel: each finding the tool recorded, in its order (most severe first), with
// its evidence. The viewer renders findings, it never re-derives them (docs/findings.md).
// Clicking a finding selects its site in every view.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.findingsView = (function () {
  var el = LH.dom.el, f = LH.format;

  // Kind titles and evidence labels come from docs/evidence-labels.json (LH.evidence).
  var KIND_TITLES = {};
  Object.keys(LH.evidence.table.kinds).forEach(function (k) { KIND_TITLES[k] = LH.evidence.kindTitle(k); });

  function item(finding, siteModel, row, onSelect, state) {
    var duration = siteModel ? siteModel.duration : 0;
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
        el('span', { className: 'finding-kind', text: LH.evidence.kindTitle(finding.kind) }),
        el('span', { className: 'finding-site', text: siteLabel, title: siteModel ? siteModel.stackText(finding.site) : '' }),
      ]),
      el('div', { className: 'finding-summary', text: String(finding.summary) }),
      el('dl', { className: 'evidence' }, LH.evidence.items({ kind: finding.kind, evidence: evidence }, duration).reduce(function (acc, x) {
        acc.push(el('dt', { text: x.label, title: x.key, attrs: { 'data-key': x.key } }));
        acc.push(el('dd', { text: x.text, title: x.title }));
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
    if (diff.keyless.length > 0) {
      // Nothing to compare them with: each run's findings under its name, unmarked.
      container.appendChild(el('p', { className: 'keyless-note', text: 'Not compared: the two runs\' sites are not paired (the note at the top says why). Each run\'s findings:' }));
      [['changed', diff.changed], ['base', diff.base]].forEach(function (side) {
        var own = list.filter(function (x) { return x.side === side[0]; });
        if (own.length === 0) return;
        container.appendChild(el('h3', { text: (side[0] === 'base' ? 'Baseline: ' : 'Changed: ') + side[1].sourceName }));
        container.appendChild(el('ol', { className: 'findings' }, own.map(function (x) {
          return item(x.finding, side[1], x.row, function () { selectRow(x.row); });
        })));
      });
      return;
    }
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
