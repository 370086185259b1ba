// The page's frame: views, the URL as the whole position, move buttons, move timings for
// the browser tests.
import { h } from "./dom.js";

// How long the last move took to answer, from the click to the new position shown (for
// the browser tests' timings).
export let moveStart = 0;
export function moveClicked() {
  moveStart = performance.now();
  // One move per position: the buttons stay disabled until the next position is shown.
  for (const b of document.querySelectorAll(".moves button")) b.disabled = true;
}
// One legal move of a position as a button in `box`: its tag, what it is, a note on what
// it leads to; `data` names it for the browser tests, which click the equilibrium's move
// (`data-selected`). A click disables every move of the position at once (a double
// click, or one while the answer is on its way, must not move twice), then plays it.
export function moveButton(box, { kind, tag, text, note, data, chosen, enabled, play }) {
  const b = h("button", { class: "move " + kind }, h("span", { class: "tag" }, tag), text, h("small", null, note));
  Object.assign(b.dataset, data);
  if (chosen) b.dataset.selected = "true";
  b.disabled = !enabled;
  b.addEventListener("click", () => {
    if (b.disabled) return;
    moveClicked();
    play();
  });
  box.append(b);
}
export function moveShown() { if (moveStart) { window.lastMoveMs = performance.now() - moveStart; moveStart = 0; } }
// ---- Views and the URL: #view?key=value&... is the whole position, so reload and share keep it.
export function parseHash() {
  const [view, query] = location.hash.slice(1).split("?");
  return { view: view || "dinner", params: new URLSearchParams(query || "") };
}
export function setHash(view, params) {
  const h = "#" + view + (params && [...params].length ? "?" + params.toString() : "");
  if (location.hash !== h) history.replaceState(null, "", h);
}
export function showView(view) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== view;
  for (const a of document.querySelectorAll("nav a")) a.toggleAttribute("aria-current", a.dataset.view === view), a.setAttribute("aria-current", a.dataset.view === view ? "page" : "false");
}
