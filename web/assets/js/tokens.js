// The Token Dollars view: place tokens against the equilibrium.
import { h, svgNode, esc, $ } from "./dom.js";
import { api } from "./transport.js";
import { moveShown, setHash, moveButton } from "./page.js";

// ---- Token Dollars
export const TOKEN_PRESETS = {
  ten: { values: "", stacks: "10", players: "3", clock: "", ties: "lowest" },
  clock: { values: "", stacks: "10", players: "4", clock: "1", ties: "lowest" },
  values: { values: "1,5,3,7", stacks: "10", players: "2", clock: "", ties: "lowest" },
};
export const tok = { values: "", stacks: "10", players: "3", clock: "", ties: "lowest", seat: "1", placed: [] };
export const PLAYER_COLOURS = ["#1b5fbf", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"];
export function tokParams() {
  const p = new URLSearchParams({ stacks: tok.stacks, players: tok.players, ties: tok.ties, seat: tok.seat });
  if (tok.values) p.set("values", tok.values);
  if (tok.clock) p.set("clock", "1");
  if (tok.placed.length) p.set("placed", tok.placed.join(","));
  return p;
}
export function writeTokForm() { for (const k of ["values", "stacks", "players", "clock", "ties", "seat"]) $("t-" + k).value = tok[k]; }
export function readTokForm() { for (const k of ["values", "stacks", "players", "clock", "ties", "seat"]) tok[k] = $("t-" + k).value.trim(); }
export function tokRequest(extra) {
  const req = { players: Number(tok.players), clock: !!tok.clock, ties: tok.ties };
  if (tok.values) req.values = tok.values; else req.stacks = Number(tok.stacks);
  return Object.assign(req, extra);
}
export function drawTokens(n, values, territory) {
  // Stacks coloured by their territory (the library's: the nearest tokens' players; a
  // shared stack in grey), tokens as rings in their player's colour.
  const w = 44, r = 16, owner = new Map(tok.placed.map((x, i) => [x, i]));
  const fill = (i) => {
    const t = territory ? territory[i] : [];
    return !t.length ? "#fff" : t.length > 1 ? "#d8dce5" : PLAYER_COLOURS[(t[0].charCodeAt(0) - 65) % 8] + "55";
  };
  const stack = (x, y, i) => {
    const o = owner.get(i + 1);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill(i)}" stroke="${o === undefined ? "#1d2330" : PLAYER_COLOURS[o % 8]}" stroke-width="${o === undefined ? 1 : 5}"/><text x="${x}" y="${y + 5}" text-anchor="middle" font-size="13" fill="#1d2330">${esc(values[i])}</text>`;
  };
  let svg;
  if (tok.clock) {
    const R = Math.max(70, n * 9), c = R + 30;
    svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${2 * c} ${2 * c}" width="${Math.min(2 * c, 420)}" role="img" aria-label="the clock of stacks">`;
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      svg += stack(c + R * Math.cos(a), c + R * Math.sin(a), i);
    }
  } else {
    svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n * w + 10} 70" width="${Math.min(n * w + 10, 1100)}" role="img" aria-label="the line of stacks">`;
    for (let i = 0; i < n; i++) {
      const x = 5 + i * w + w / 2;
      svg += stack(x, 30, i) + `<text x="${x}" y="64" text-anchor="middle" font-size="11" fill="#5b6477">${i + 1}</text>`;
    }
  }
  const out = document.createDocumentFragment();
  // Built here with every value escaped, and parsed as SVG (nothing in it can run).
  out.append(svgNode(svg + "</svg>"));
  if (tok.placed.length) {
    const legend = h("p");
    tok.placed.forEach((x, i) => legend.append(h("span", { class: "p" + (i % 8) }, `● player ${String.fromCharCode(65 + i)}`), " "));
    legend.append("(filled: territory; grey: shared)");
    out.append(legend);
  }
  return out;
}
export let tokBusy = 0;
export async function renderTokens() {
  const token = ++tokBusy;
  $("t-error").textContent = "";
  setHash("tokens", tokParams());
  const box = $("t-moves");
  let r;
  try { r = await api("tokens-solve", tokRequest({ at: tok.placed })); }
  catch (e) { if (token === tokBusy) { $("t-error").textContent = e.message; box.replaceChildren(); $("t-board").replaceChildren(); } return; }
  if (token !== tokBusy) return;
  // The stacks' values and the shares are the library's (the request always has `at`).
  const n = r.stacks, values = r.values;
  $("t-board").replaceChildren(drawTokens(n, values, r.territory));
  box.replaceChildren();
  $("t-undo").disabled = !tok.placed.length;
  const players = r.players, seat = Number(tok.seat) - 1;
  if (tok.placed.length >= players) {
    // Every token placed: the payoffs are the tokens' shares.
    $("t-status").textContent = `All tokens placed. Final payoffs: ${r.shares.map((x, i) => `player ${i + 1} ${x}`).join(", ")}.`;
    $("t-status").dataset.final = r.shares.join(",");
    moveShown();
    return;
  }
  delete $("t-status").dataset.final;
  const mover = tok.placed.length, mine = mover === seat;
  $("t-status").textContent = mine ? `Your token (player ${mover + 1}): pick a free stack.` : `Player ${mover + 1} (the equilibrium) places.`;
  const top = r.explanation.filter((l) => l.best_for_mover).length;
  const chosen = r.explanation.find((l) => l.chosen);
  for (const l of r.explanation) {
    const kind = l.best_for_mover ? (top > 1 ? "tied" : "best") : "worse";
    moveButton(box, {
      kind, tag: kind + (l.chosen ? " · equilibrium" : ""), chosen: l.chosen, enabled: mine,
      text: ` stack ${l.stack} ($${values[l.stack - 1]})`, note: `payoffs (${l.payoffs.join(", ")})`,
      data: { stack: l.stack },
      play: () => { if (token !== tokBusy) return; tok.placed.push(l.stack); renderTokens(); },
    });
  }
  moveShown();
  if (!mine) setTimeout(() => { if (token === tokBusy) { tok.placed.push(chosen.stack); renderTokens(); } }, 150);
}
$("t-preset").addEventListener("change", () => {
  const p = TOKEN_PRESETS[$("t-preset").value]; if (!p) return;
  Object.assign(tok, p, { seat: "1", placed: [] }); writeTokForm(); renderTokens();
});
$("t-new").addEventListener("click", () => { readTokForm(); tok.placed = []; renderTokens(); });
$("t-undo").addEventListener("click", () => {
  tokBusy++;
  const seat = Number(tok.seat) - 1;
  let t = tok.placed.length;
  do { t--; } while (t > 0 && t !== seat);
  tok.placed = tok.placed.slice(0, Math.max(t, 0));
  renderTokens();
});
