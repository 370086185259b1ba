// The Ethiopian Dinner view: play against the equilibrium.
import { h, svgNode, $ } from "./dom.js";
import { letters } from "./format.js";
import { api } from "./transport.js";
import { moveShown, setHash, moveButton } from "./page.js";

// ---- Dinner
export const PRESETS = {
  fig1: { m: "1,6 2,14 3,10 4,3 5,7 6,5 7,9 8,8 9,4 10,13 11,12 12,11 13,2 14,1", o: "" },
  intro: { m: "1,2 2,3 3,1", o: "ABA" },
  three: { m: "3,1,2 1,3,2 2,2,2 4,1,1 1,4,1 1,1,4", o: "ABCABC" },
};
// What the page keeps is what the user typed and clicked; the dinner itself (its players,
// morsels, scores) is read from the library's reports.
export const dinner = { morsels: "", order: "", seat: "A", ties: "index", eaten: [], players: 2, movers: "" };

export function dinnerParams() {
  const p = new URLSearchParams();
  p.set("m", dinner.morsels); if (dinner.order) p.set("o", dinner.order);
  p.set("seat", dinner.seat); p.set("ties", dinner.ties);
  if (dinner.eaten.length) p.set("eaten", dinner.eaten.join(","));
  return p;
}
export function readDinnerForm() {
  dinner.morsels = $("d-morsels").value.trim().replace(/\s+/g, " ");
  dinner.order = $("d-order").value.trim();
  dinner.ties = $("d-ties").value;
  dinner.seat = $("d-seat").value || dinner.seat;
}
// The seats are the report's players; the seat chosen stays where the dinner has it.
export function fillSeats(players) {
  const sel = $("d-seat");
  dinner.players = players;
  if (sel.options.length !== players) {
    sel.replaceChildren();
    for (let i = 0; i < players; i++) { const o = document.createElement("option"); o.value = o.textContent = letters[i]; sel.append(o); }
  }
  if (letters.indexOf(dinner.seat) >= players || letters.indexOf(dinner.seat) < 0) dinner.seat = "A";
  sel.value = dinner.seat;
}
export function writeDinnerForm() {
  $("d-morsels").value = dinner.morsels; $("d-order").value = dinner.order; $("d-ties").value = dinner.ties;
  fillSeats(Math.max(dinner.players, letters.indexOf(dinner.seat) + 1));
}
export function dinnerRequest(extra, { drawing = false } = {}) {
  const req = { morsels: dinner.morsels };
  if (dinner.order) req.order = dinner.order;
  if (drawing) return Object.assign(req, extra);
  if (dinner.ties !== "index") {
    // The others play by the chosen rule; the user's own rule only matters for the hints.
    req.ties = dinner.ties; req.method = "exact";
  }
  return Object.assign(req, extra);
}
export let busy = 0;
export async function renderDinner() {
  const token = ++busy;
  $("d-error").textContent = "";
  setHash("dinner", dinnerParams());
  const moves = $("d-moves");
  // The moves shown are the last position's until this one loads: a click on one would
  // be dropped, so none can be clicked.
  for (const b of moves.querySelectorAll("button")) b.disabled = true;
  if (!dinner.morsels) { moves.replaceChildren(); $("d-status").textContent = "Enter a dinner or pick a preset."; return; }
  let report;
  try {
    report = await api("dinner-solve", dinnerRequest({ explain: true, at: dinner.eaten }));
  } catch (e) { if (token === busy) { $("d-error").textContent = e.message; moves.replaceChildren(); } return; }
  if (token !== busy) return;
  // The scores so far are the library's (each eaten morsel's utility to its eater).
  dinner.movers = report.turn_order;
  fillSeats(report.players);
  const pos = report.position;
  const so = pos.so_far.map((x, i) => `${letters[i]} ${x}`).join(", ");
  const ex = report.explanation;
  renderDinnerPictures(report);
  moves.replaceChildren();
  $("d-undo").disabled = !dinner.eaten.length;
  if (!ex) {
    $("d-status").textContent = `Game over. Final payoffs: ${so}.`;
    $("d-status").dataset.final = pos.so_far.join(",");
    moveShown();
    return;
  }
  delete $("d-status").dataset.final;
  const mine = ex.mover === dinner.seat;
  $("d-status").textContent = `Turn ${dinner.eaten.length + 1}: ${mine ? "your move (" + ex.mover + ")" : ex.mover + " (the equilibrium) moves"}. So far: ${so}.`;
  const top = ex.moves.filter((m) => m.best_for_mover).length;
  for (const mv of ex.moves) {
    const kind = mv.best_for_mover ? (top > 1 ? "tied" : "best") : "worse";
    moveButton(moves, {
      kind, tag: kind + (mv.chosen ? " · equilibrium" : ""), chosen: mv.chosen, enabled: mine,
      text: ` morsel ${mv.morsel} (${mv.utilities.join(", ")})`,
      note: `leads to (${mv.payoffs.join(", ")}) from here on`,
      data: { morsel: mv.morsel },
      play: () => { if (token !== busy) return; dinner.eaten.push(mv.morsel); renderDinner(); },
    });
  }
  moveShown();
  if (!mine) {
    const pick = ex.moves.find((m) => m.chosen);
    setTimeout(() => { if (token === busy) { dinner.eaten.push(pick.morsel); renderDinner(); } }, 150);
  } else {
    const first = moves.querySelector("button:not(:disabled)"); if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
  }
}
// The pictures follow the game: the crossout board and the outcome cloud of the dinner
// that is left, with the turns that are left (the library draws them; the page only
// passes the position).
export let pictureBusy = 0;
export async function renderDinnerPictures(report) {
  const token = ++pictureBusy;
  const box = $("d-pictures");
  const left = report.position.left;
  if (report.players !== 2 || !left.length) { box.replaceChildren(); return; }
  const figures = [];
  for (const [cmd, title] of [["dinner-board", "The crossout board"], ["dinner-plot", "The outcome cloud (Figure 1)"]]) {
    try {
      const r = await api(cmd, dinnerRequest({ at: dinner.eaten, picture: true }, { drawing: true }), "pictures");
      const where = !dinner.eaten.length ? ""
        : r.left.length === 1 ? ` of the morsel left (${r.left[0]}, drawn as 0)`
        : ` of the ${r.left.length} morsels left (${r.left.join(", ")}, drawn as 0 to ${r.left.length - 1})`;
      figures.push(h("figure", { "data-left": r.left.length }, h("figcaption", null, title + where), svgNode(r.svg)));
    } catch (e) { /* the pictures need a two-player dinner the board accepts */ }
  }
  if (token === pictureBusy) box.replaceChildren(...figures);
}
export function newDinner() {
  readDinnerForm(); dinner.eaten = [];
  renderDinner();
}
$("d-preset").addEventListener("change", () => {
  const p = PRESETS[$("d-preset").value]; if (!p) return;
  dinner.morsels = p.m; dinner.order = p.o; dinner.seat = "A"; dinner.eaten = [];
  writeDinnerForm(); newDinner();
});
$("d-new").addEventListener("click", newDinner);
$("d-undo").addEventListener("click", () => {
  // Back to the user's previous turn (the equilibrium's replies are undone with it), by
  // the turn order of the last position shown.
  busy++;
  let t = dinner.eaten.length;
  do { t--; } while (t > 0 && dinner.movers[t] !== dinner.seat);
  dinner.eaten = dinner.eaten.slice(0, Math.max(t, 0));
  renderDinner();
});
