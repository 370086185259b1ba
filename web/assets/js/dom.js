// Building the page: nodes and text only (a string can only ever be text), pictures parsed as SVG and stripped of anything that could run.

// The DOM is built from nodes and text, never from markup with text in it: a string
// from a report, a URL or an error can only ever be text.
export function h(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}
// A picture from the library, parsed as SVG (never as HTML) and stripped of anything that
// could run: script and foreignObject elements, event attributes, links other than to
// fragments.
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text || "", "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.nodeName !== "svg" || doc.getElementsByTagName("parsererror").length) return document.createTextNode("");
  for (const bad of [...root.querySelectorAll("script, foreignObject, iframe, object, embed")]) bad.remove();
  for (const el of [root, ...root.querySelectorAll("*")]) {
    for (const a of [...el.attributes]) {
      const name = a.name.toLowerCase(), value = a.value.trim().toLowerCase();
      if (name.startsWith("on") || ((name === "href" || name.endsWith(":href")) && !value.startsWith("#"))) el.removeAttribute(a.name);
    }
  }
  return document.importNode(root, true);
}
// Text for SVG markup built here: every interpolated value escaped.
export function esc(x) {
  return String(x).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
export const $ = (id) => document.getElementById(id);
