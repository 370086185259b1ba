// The subtraction games view: play against the PSPE.
import { h, svgNode, $ } from "./dom.js";
import { api } from "./transport.js";
import { moveShown, setHash, moveButton } from "./page.js";

// ---- Subtraction games
export const SUB_PRESETS = {
  pair: { set: "1,2", heap: "10", a: "F", b: "F" },
  paper: { set: "4,5,9", heap: "100", a: "F", b: "A" },
  big: { set: "4,5,9", heap: "1000000000000000", a: "A", b: "A" },
};
export const sub = { set: "", heap: "0", a: "F", b: "F", seat: "A", takes: [] };
export function subParams() {
  const p = new URLSearchParams({ set: sub.set, heap: sub.heap, conv: sub.a + sub.b, seat: sub.seat });
  if (sub.takes.length) p.set("takes", sub.takes.join(","));
  return p;
}
export function writeSubForm() { $("s-set").value = sub.set; $("s-heap").value = sub.heap; $("s-alice").value = sub.a; $("s-bob").value = sub.b; $("s-seat").value = sub.seat; }
export function readSubForm() { sub.set = $("s-set").value.replace(/\s+/g, ""); sub.heap = $("s-heap").value.trim(); sub.a = $("s-alice").value; sub.b = $("s-bob").value; sub.seat = $("s-seat").value; }
export let subBusy = 0;
export async function renderSub() {
  const token = ++subBusy;
  $("s-error").textContent = "";
  setHash("subtraction", subParams());
  const box = $("s-moves");
  // The moves shown are the last position's until this one loads: a click on one would
  // be dropped, so none can be clicked.
  for (const b of box.querySelectorAll("button")) b.disabled = true;
  // The library plays the takes so far and reports the heap left, the mover, the totals
  // so far and each move's totals for the whole game.
  let r;
  try { r = await api("subtraction-outcome", { set: sub.set, heap: sub.heap, convention: `${sub.a}v${sub.b}`, takes: sub.takes, explain: true }); }
  catch (e) { if (token === subBusy) { $("s-error").textContent = e.message; box.replaceChildren(); } return; }
  if (token !== subBusy) return;
  box.replaceChildren();
  $("s-undo").disabled = !sub.takes.length;
  const pos = r.position, mover = pos.to_move;
  const so = `Alice ${pos.so_far[0]}, Bob ${pos.so_far[1]}`;
  if (!r.options.length) {
    $("s-status").textContent = `Game over (heap ${r.heap}). Final payoffs: ${so}.`;
    $("s-status").dataset.final = pos.so_far.join(",");
    moveShown();
    return;
  }
  delete $("s-status").dataset.final;
  const mine = mover === sub.seat;
  $("s-status").textContent = `Heap ${r.heap}: ${mine ? "your move" : (mover === "A" ? "Alice" : "Bob") + " (the PSPE) moves"}. So far: ${so}.`;
  const pspe = r.options.filter((o) => o.pspe).length;
  const chosen = r.options.find((o) => o.pspe);
  for (const o of r.options) {
    const kind = o.pspe ? (pspe > 1 ? "tied" : "best") : "worse";
    moveButton(box, {
      kind, tag: o.pspe ? "PSPE" : o.best_for_mover ? "best own payoff, not the convention's pick" : "worse",
      chosen: o === chosen, enabled: mine,
      text: ` take ${o.take}`, note: `leaves ${o.heap_after}; game ends at (Alice ${o.totals[0]}, Bob ${o.totals[1]})`,
      data: { take: o.take },
      play: () => { if (token !== subBusy) return; sub.takes.push(o.take); renderSub(); },
    });
  }
  moveShown();
  if (!mine) setTimeout(() => { if (token === subBusy) { sub.takes.push(chosen.take); renderSub(); } }, 150);
}
export async function renderSubAnalysis() {
  const box = $("s-period"), pics = $("s-pictures");
  box.replaceChildren(); pics.replaceChildren();
  if (!sub.set) return;
  try {
    const p = await api("subtraction-period", { set: sub.set }, "pictures");
    const d = p.first_discrepancy;
    const fmt = (x) => (x === null ? "never" : "heap " + x);
    box.replaceChildren(h("p", null, `Period: pre-period ${p.preperiod}, period ${p.period}, increment ${p.increment} (certified on heaps ${p.certificate_window[0]} to ${p.certificate_window[1]}). First discrepancies: FvF/AvA ${fmt(d.FvF_AvA)}, FvF/FvA ${fmt(d.FvF_FvA)}, FvF/AvF ${fmt(d.FvF_AvF)}, AvA/zero-sum ${fmt(d.AvA_zero_sum)}.`));
    const t = await api("subtraction-table", { set: sub.set, max_heap: 40 }, "pictures");
    const rows = t.rows.map((r) => {
      const diff = r.FvF.outcome.join() !== r.AvA.outcome.join() || r.FvA.outcome.join() !== r.FvF.outcome.join() || r.AvF.outcome.join() !== r.FvF.outcome.join();
      return h("tr", diff ? { class: "diff" } : null, h("td", null, r.heap),
        ...["FvF", "FvA", "AvF", "AvA"].map((c) => h("td", null, `(${r[c].outcome.join(", ")})`)), h("td", null, r.zero_sum));
    });
    const head = h("tr", null, ...["heap", "FvF", "FvA", "AvF", "AvA", "zero-sum"].map((c) => h("th", null, c)));
    box.append(h("details", null, h("summary", null, "The table to heap 40 (rows where the conventions disagree highlighted)"),
      h("table", null, h("thead", null, head), h("tbody", null, ...rows))));
  } catch (e) { box.replaceChildren(h("p", { class: "error" }, e.message)); }
  try {
    // A smaller scan than the paper's (s1 <= 100), so that it never holds up a move.
    const f = await api("subtraction-plot", { figure: "figure1", max: 40, picture: true }, "pictures");
    pics.append(h("figure", null, h("figcaption", null, "Figure 1: pairs with an FvF/AvA discrepancy"), svgNode(f.svg)));
  } catch (e) { /* the picture is a bonus */ }
}
export function newSub() { readSubForm(); sub.takes = []; renderSub().then(renderSubAnalysis); }
$("s-preset").addEventListener("change", () => {
  const p = SUB_PRESETS[$("s-preset").value]; if (!p) return;
  Object.assign(sub, { set: p.set, heap: p.heap, a: p.a, b: p.b, seat: "A", takes: [] });
  writeSubForm(); renderSub().then(renderSubAnalysis);
});
$("s-new").addEventListener("click", newSub);
$("s-undo").addEventListener("click", () => {
  subBusy++;
  let t = sub.takes.length;
  // Back to the user's previous turn (Alice moves on even turns).
  do { t--; } while (t > 0 && (t % 2 === 0 ? "A" : "B") !== sub.seat);
  sub.takes = sub.takes.slice(0, Math.max(t, 0));
  renderSub();
});
