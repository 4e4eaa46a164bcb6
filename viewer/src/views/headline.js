// The headline: the first thing on the page. The most severe finding the tool recorded
// (findings come most severe first) as one sentence naming its site, its kind and
// severity, and the few numbers that prove it, labelled and formatted from
// docs/evidence-labels.json (LH.evidence). Clicking it selects the site. With no
// finding it says so, with the peak. In diff mode: the changed run's most severe
// finding, new or still there, its numbers beside the baseline's; when the changed run
// has none, the baseline's first one, marked resolved.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.headlineView = (function () {
  var el = LH.dom.el, f = LH.format;

  function severityOf(finding) {
    return ['high', 'medium', 'low'].indexOf(finding.severity) >= 0 ? finding.severity : 'unknown';
  }

  function siteLabel(model, site) {
    if (!model || !model.sites[site]) return '';
    var labelled = typeof model.sites[site].label === 'string';
    return labelled ? model.siteName(site) : model.siteName(site) + ' · ' + model.siteLocation(site);
  }

  // One labelled number; `before` is the baseline's text of the same key in diff mode.
  function figure(item, before) {
    return el('div', { className: 'headline-figure', attrs: { 'data-key': item.key }, title: item.title }, [
      el('div', { className: 'headline-figure-label', text: item.label }),
      el('div', { className: 'headline-figure-value' }, [
        before !== undefined ? el('span', { className: 'card-base', text: (before === null ? 'absent' : before) + ' → ' }) : null,
        el('span', { text: item.text }),
      ]),
    ]);
  }

  function more(count) {
    if (count <= 0) return null;
    var button = el('button', { className: 'headline-more', text: count === 1 ? '1 more finding below' : count + ' more findings below',
      attrs: { type: 'button' } });
    button.addEventListener('click', function (e) {
      e.stopPropagation();
      var panel = document.getElementById('findings-panel');
      if (panel) panel.scrollIntoView({ block: 'start' });
    });
    return button;
  }

  // finding: the one to show; model: its profile; state: new/unchanged/resolved in diff
  // mode; baseFinding: the baseline's finding of the same kind and site (unchanged).
  function box(finding, model, others, onSelect, state, baseFinding, baseModel) {
    var severity = severityOf(finding);
    var items = LH.evidence.headlineItems(finding, model.duration);
    var baseTexts = {};
    if (baseFinding) LH.evidence.items(baseFinding, baseModel.duration).forEach(function (x) { baseTexts[x.key] = x.text; });
    var node = el('div', { className: 'headline severity-' + severity + (state ? ' state-' + state : ''),
      attrs: { role: 'button', tabindex: '0', 'data-kind': String(finding.kind), 'data-site': String(finding.site) } }, [
      el('div', { className: 'headline-head' }, [
        el('span', { className: 'badge ' + severity, text: String(finding.severity) }),
        state ? el('span', { className: 'badge state', text: state }) : null,
        el('span', { className: 'headline-kind', text: LH.evidence.kindTitle(finding.kind) }),
        el('span', { className: 'headline-site', text: siteLabel(model, finding.site), title: model.stackText(finding.site) }),
        more(others),
      ]),
      el('p', { className: 'headline-sentence', text: String(finding.summary) }),
      el('div', { className: 'headline-figures' }, items.map(function (x) {
        return figure(x, baseFinding ? (Object.prototype.hasOwnProperty.call(baseTexts, x.key) ? baseTexts[x.key] : null) : undefined);
      })),
    ]);
    node.addEventListener('click', function () { onSelect(); });
    node.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onSelect(); } });
    return node;
  }

  function calm(text) {
    return el('div', { className: 'headline calm' }, [el('p', { className: 'headline-sentence', text: text })]);
  }

  function peakText(model) {
    var p = model.profile;
    return 'The heap peaked at ' + f.bytes(p.peak.bytes) + ' in ' + f.exactCount(p.peak.blocks) + ' blocks, at ' +
      f.percent(model.duration > 0 ? p.peak.time / model.duration : null) + ' of the run.';
  }

  function renderSingle(container, model, selectRow) {
    LH.dom.clear(container);
    var findings = model.profile.findings;
    if (findings.length === 0) {
      container.appendChild(calm('No findings: lifeheap recognised none of its problems in this run. ' + peakText(model)));
      return;
    }
    var first = findings[0];
    container.appendChild(box(first, model, findings.length - 1, function () { selectRow(first.site); }));
  }

  function renderDiff(container, diff, selectRow) {
    LH.dom.clear(container);
    var list = diff.findings();
    var shown = list.filter(function (x) { return x.side === 'changed'; })[0] || list[0];
    if (!shown) {
      container.appendChild(calm('No findings in either run. ' + peakText(diff.changed)));
      return;
    }
    var model = shown.side === 'base' ? diff.base : diff.changed;
    var baseFinding = null;
    if (shown.state === 'unchanged') {
      var baseSite = diff.rowBase[shown.row];
      baseFinding = diff.base.profile.findings.filter(function (x) { return x.kind === shown.finding.kind && x.site === baseSite; })[0] || null;
    }
    container.appendChild(box(shown.finding, model, list.length - 1, function () { selectRow(shown.row); },
      shown.state, baseFinding, diff.base));
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff };
})();
