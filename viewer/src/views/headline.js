// The headline: the first thing on the page. The most severe finding the tool recorded
// (findings come most severe first) as one sentence naming its site, its kind and
// severity, and the few numbers that prove it, labelled and formatted from
// docs/evidence-labels.json (LH.evidence). Clicking it selects the site. With no
// finding it says so, with the peak. In diff mode: the most severe
// finding change (LH.Diff.prototype.headline: new, worsened, resolved, or the most
// severe unchanged one when nothing changed), each figure as "baseline → changed": a
// run without the finding shows its matching site's own field when the figure is one.
// A diff with a profile written before site keys says why nothing is paired instead.
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

  // One labelled number; in diff mode `sides` is { base, changed }: each run's text of
  // the same figure (see sideText).
  function figure(item, sides) {
    return el('div', { className: 'headline-figure', attrs: { 'data-key': item.key }, title: item.title }, [
      el('div', { className: 'headline-figure-label', text: item.label }),
      el('div', { className: 'headline-figure-value' }, sides ? [
        el('span', { className: 'card-base', text: sides.base + ' → ' }),
        el('span', { text: sides.changed }),
      ] : [el('span', { text: item.text })]),
    ]);
  }

  // One run's text of figure `item` in a diff: its finding's evidence where the run has
  // the finding; else its matching site's own field where the figure is one (LH.evidence
  // .siteValue); else "not computed" (the tool computes it only with a finding); "no such
  // site" when the run has no matching site.
  function sideText(item, finding, site, duration) {
    if (finding) {
      var own = LH.evidence.items(finding, duration).filter(function (x) { return x.key === item.key; })[0];
      return own ? own.text : 'not recorded';
    }
    if (!site) return 'no such site';
    var value = LH.evidence.siteValue(item.key, site);
    return value === undefined ? 'not computed' : LH.evidence.formatValue(item.unit, value, duration).text;
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

  // finding: the one to show; model: its profile; in diff mode, state (new, worsened,
  // resolved, unchanged) and sidesOf(item): both runs' texts of a figure.
  function box(finding, model, others, onSelect, state, sidesOf) {
    var severity = severityOf(finding);
    var items = LH.evidence.headlineItems(finding, model.duration);
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
      el('div', { className: 'headline-figures' }, items.map(function (x) { return figure(x, sidesOf ? sidesOf(x) : null); })),
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
    if (diff.keyless.length > 0) {
      container.appendChild(el('div', { className: 'headline keyless', attrs: { role: 'note' } }, [
        el('div', { className: 'headline-head' }, [el('span', { className: 'headline-kind', text: 'Sites not paired' })]),
        // The command to run (between backticks in the text) as code.
        el('p', { className: 'headline-sentence' }, diff.keylessText().split('`').map(function (part, i) {
          return i % 2 ? el('code', { text: part }) : document.createTextNode(part);
        })),
      ]));
      return;
    }
    var shown = diff.headline();
    if (!shown) {
      container.appendChild(calm('No findings in either run. ' + peakText(diff.changed)));
      return;
    }
    var model = shown.side === 'base' ? diff.base : diff.changed;
    var baseIndex = shown.row >= 0 ? diff.rowBase[shown.row] : -1, changedIndex = shown.row >= 0 ? diff.rowChanged[shown.row] : -1;
    var baseSite = baseIndex >= 0 ? diff.base.sites[baseIndex] : null, changedSite = changedIndex >= 0 ? diff.changed.sites[changedIndex] : null;
    function sidesOf(item) {
      return { base: sideText(item, shown.baseFinding, baseSite, diff.base.duration),
        changed: sideText(item, shown.changedFinding, changedSite, diff.changed.duration) };
    }
    container.appendChild(box(shown.finding, model, diff.findings().length - 1, function () { selectRow(shown.row); },
      shown.state, sidesOf));
  }

  return { renderSingle: renderSingle, renderDiff: renderDiff };
})();
