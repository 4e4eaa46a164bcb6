// Tiny DOM helpers. The only way views create content: profile strings always end up
// in text nodes or in attributes that are never interpreted (title, data-*), never in
// innerHTML. setAttribute refuses event-handler and URL attributes as a second guard.
'use strict';
var LH = globalThis.LH = globalThis.LH || {};

LH.dom = (function () {
  var UNSAFE_ATTRIBUTE = /^(on|href$|src$|srcdoc$|action$|formaction$|style$|xlink:href$)/i;

  // el('div', {className: 'x', title: 't', text: 'hello', on: {click: f}, attrs: {...}}, [children])
  function el(tag, props, children) {
    var node = document.createElement(tag);
    props = props || {};
    if (props.className) node.className = props.className;
    if (props.title !== undefined && props.title !== null) node.title = String(props.title);
    if (props.text !== undefined && props.text !== null) node.textContent = String(props.text);
    if (props.attrs) {
      Object.keys(props.attrs).forEach(function (name) {
        if (UNSAFE_ATTRIBUTE.test(name)) throw new Error('refusing to set attribute ' + name);
        node.setAttribute(name, String(props.attrs[name]));
      });
    }
    if (props.on) {
      Object.keys(props.on).forEach(function (type) { node.addEventListener(type, props.on[type]); });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function byId(id) { return document.getElementById(id); }

  return { el: el, clear: clear, byId: byId };
})();
