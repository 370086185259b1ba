"use strict";
// The token a server bound off loopback prints in its URL (?token=...): every API call
// carries it.
const API_TOKEN = new URLSearchParams(location.search).get("token");
function apiHeaders(json) {
  const h = json ? { "content-type": "application/json" } : {};
  if (API_TOKEN) h.authorization = "Bearer " + API_TOKEN;
  return h;
}
// The DOM is built from nodes and text, never from markup with text in it: a string
// from a report, a URL or an error can only ever be text.
function h(tag, props, ...children) {
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
function svgNode(text) {
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
function esc(x) {
  return String(x).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
// Exact fractions for display sums (utilities may be like 7/3).
function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { [a, b] = [b, a % b]; } return a; }
function frac(x) {
  const s = String(x);
  if (s.includes("/")) { const [n, d] = s.split("/"); return norm(BigInt(n), BigInt(d)); }
  if (s.includes(".")) { const [i, f] = s.split("."); const d = 10n ** BigInt(f.length); return norm(BigInt(i + f), d); }
  return [BigInt(s), 1n];
}
function norm(n, d) { if (d < 0n) { n = -n; d = -d; } const g = gcd(n, d) || 1n; return [n / g, d / g]; }
function add(a, b) { return norm(a[0] * b[1] + b[0] * a[1], a[1] * b[1]); }
function show(f) { return f[1] === 1n ? String(f[0]) : `${f[0]}/${f[1]}`; }

// Where the computations run: the server that served this page (`lastbite serve`), or,
// on any static host, a Web Worker running the library compiled to WebAssembly (the same
// api::call and schemas). The page asks the server for its schema once to know.
let transport = null;
function onServer() {
  transport ??= fetch("api/schema", { headers: apiHeaders(false) })
    .then((r) => r.ok && (r.headers.get("content-type") || "").startsWith("application/json"))
    .catch(() => false);
  return transport;
}
let worker = null, nextCall = 0;
const pending = new Map();
function stopWorker(why) {
  if (worker) worker.terminate();
  worker = null;
  for (const [, p] of pending) p.resolve({ ok: false, text: why });
  pending.clear();
  $("stop").hidden = true;
}
function workerCall(command, body) {
  if (!worker) {
    worker = new Worker("assets/worker.js");
    worker.onmessage = (e) => {
      const p = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (!pending.size) $("stop").hidden = true;
      // A failure of the module itself (status 3) may have left it broken: start afresh.
      if (e.data.status === 3) stopWorker(e.data.text);
      if (p) p.resolve({ ok: e.data.status === 0, text: e.data.text });
    };
    worker.onerror = (e) => { e.preventDefault(); stopWorker("the computation failed in this tab: " + (e.message || "the worker stopped")); };
  }
  const id = ++nextCall;
  // A long computation can be stopped: the button ends the worker (a new one starts on
  // the next call).
  setTimeout(() => { if (pending.has(id)) $("stop").hidden = false; }, 300);
  return new Promise((resolve) => { pending.set(id, { resolve }); worker.postMessage({ id, command, request: body }); });
}
// A command's answer as text: { ok, text } with the report's JSON, or the one-line error.
async function callText(command, body) {
  if (!(await onServer())) return workerCall(command, body);
  const res = await fetch("api/" + command.replace("-", "/"), { method: "POST", headers: apiHeaders(true), body });
  const text = await res.text();
  if (res.ok) return { ok: true, text };
  try { return { ok: false, text: JSON.parse(text).error || res.statusText }; } catch (e) { return { ok: false, text: text || res.statusText }; }
}
async function api(command, request) {
  const r = await callText(command, JSON.stringify(request));
  if (!r.ok) throw new Error(r.text);
  // Integers past 2^53 stay exact (BigInt), read from their digits.
  return JSON.parse(r.text, (k, v, ctx) => (typeof v === "number" && !Number.isSafeInteger(v) && ctx && /^-?\d+$/.test(ctx.source) ? BigInt(ctx.source) : v));
}
async function schemaDocument() {
  if (await onServer()) return fetch("api/schema", { headers: apiHeaders(false) }).then((x) => x.json());
  const r = await workerCall("schema", "");
  return JSON.parse(r.text);
}
const $ = (id) => document.getElementById(id);
$("stop").addEventListener("click", () => stopWorker("stopped: the computation was ended"));
// How long the last move took to answer, from the click to the new position shown (for
// the browser tests' timings).
let moveStart = 0;
function moveClicked() {
  moveStart = performance.now();
  // One move per position: the buttons stay disabled until the next position is shown.
  for (const b of document.querySelectorAll(".moves button")) b.disabled = true;
}
function moveShown() { if (moveStart) { window.lastMoveMs = performance.now() - moveStart; moveStart = 0; } }
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// ---- Views and the URL: #view?key=value&... is the whole position, so reload and share keep it.
function parseHash() {
  const [view, query] = location.hash.slice(1).split("?");
  return { view: view || "dinner", params: new URLSearchParams(query || "") };
}
function setHash(view, params) {
  const h = "#" + view + (params && [...params].length ? "?" + params.toString() : "");
  if (location.hash !== h) history.replaceState(null, "", h);
}
function showView(view) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== view;
  for (const a of document.querySelectorAll("nav a")) a.toggleAttribute("aria-current", a.dataset.view === view), a.setAttribute("aria-current", a.dataset.view === view ? "page" : "false");
}

// ---- Dinner
const PRESETS = {
  fig1: { m: "1,6 2,14 3,10 4,3 5,7 6,5 7,9 8,8 9,4 10,13 11,12 12,11 13,2 14,1", o: "" },
  intro: { m: "1,2 2,3 3,1", o: "ABA" },
  three: { m: "3,1,2 1,3,2 2,2,2 4,1,1 1,4,1 1,1,4", o: "ABCABC" },
};
const dinner = { morsels: "", order: "", seat: "A", ties: "index", eaten: [], players: 2, rows: [], movers: "" };

function dinnerParams() {
  const p = new URLSearchParams();
  p.set("m", dinner.morsels); if (dinner.order) p.set("o", dinner.order);
  p.set("seat", dinner.seat); p.set("ties", dinner.ties);
  if (dinner.eaten.length) p.set("eaten", dinner.eaten.join(","));
  return p;
}
function readDinnerForm() {
  dinner.morsels = $("d-morsels").value.trim().replace(/\s+/g, " ");
  dinner.order = $("d-order").value.trim();
  dinner.ties = $("d-ties").value;
  dinner.rows = dinner.morsels ? dinner.morsels.split(" ").map((r) => r.split(",")) : [];
  dinner.players = dinner.rows.length ? dinner.rows[0].length : 2;
  fillSeats();
  dinner.seat = $("d-seat").value;
}
function fillSeats() {
  const sel = $("d-seat"), keep = sel.value || dinner.seat;
  sel.replaceChildren();
  for (let i = 0; i < dinner.players; i++) { const o = document.createElement("option"); o.value = o.textContent = letters[i]; sel.append(o); }
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "A";
}
function writeDinnerForm() {
  $("d-morsels").value = dinner.morsels; $("d-order").value = dinner.order; $("d-ties").value = dinner.ties;
  dinner.rows = dinner.morsels ? dinner.morsels.split(" ").map((r) => r.split(",")) : [];
  dinner.players = dinner.rows.length ? dinner.rows[0].length : 2;
  fillSeats(); $("d-seat").value = dinner.seat;
}
function dinnerRequest(extra) {
  const req = { morsels: dinner.morsels };
  if (dinner.order) req.order = dinner.order;
  if (dinner.ties !== "index") {
    // The others play by the chosen rule; the user's own rule only matters for the hints.
    req.ties = dinner.ties; req.method = "exact";
  }
  if (dinner.players > 2) req.method = "exact";
  return Object.assign(req, extra);
}
let busy = 0;
async function renderDinner() {
  const token = ++busy;
  $("d-error").textContent = "";
  setHash("dinner", dinnerParams());
  const moves = $("d-moves");
  if (!dinner.morsels) { moves.replaceChildren(); $("d-status").textContent = "Enter a dinner or pick a preset."; return; }
  let report;
  try {
    report = await api("dinner-solve", dinnerRequest({ explain: true, at: dinner.eaten }));
  } catch (e) { if (token === busy) { $("d-error").textContent = e.message; moves.replaceChildren(); } return; }
  if (token !== busy) return;
  // Totals so far: each eaten morsel's utility to whoever ate it.
  const movers = report.turn_order;
  dinner.movers = movers;
  const totals = Array.from({ length: dinner.players }, () => [0n, 1n]);
  dinner.eaten.forEach((m, t) => { const p = letters.indexOf(movers[t]); totals[p] = add(totals[p], frac(dinner.rows[m][p])); });
  const so = totals.map((x, i) => `${letters[i]} ${show(x)}`).join(", ");
  const ex = report.explanation;
  renderDinnerPictures(movers);
  moves.replaceChildren();
  $("d-undo").disabled = !dinner.eaten.length;
  if (!ex) {
    $("d-status").textContent = `Game over. Final payoffs: ${so}.`;
    $("d-status").dataset.final = totals.map(show).join(",");
    moveShown();
    return;
  }
  delete $("d-status").dataset.final;
  const mine = ex.mover === dinner.seat;
  $("d-status").textContent = `Turn ${dinner.eaten.length + 1}: ${mine ? "your move (" + ex.mover + ")" : ex.mover + " (the equilibrium) moves"}. So far: ${so}.`;
  const top = ex.moves.filter((m) => m.best_for_mover).length;
  for (const mv of ex.moves) {
    const b = document.createElement("button");
    const kind = mv.best_for_mover ? (top > 1 ? "tied" : "best") : "worse";
    b.className = "move " + kind;
    b.dataset.morsel = mv.morsel; if (mv.chosen) b.dataset.selected = "true";
    b.append(h("span", { class: "tag" }, kind + (mv.chosen ? " · equilibrium" : "")),
      ` morsel ${mv.morsel} (${dinner.rows[mv.morsel].join(", ")})`,
      h("small", null, `leads to (${mv.payoffs.join(", ")}) from here on`));
    b.disabled = !mine;
    // Every move button is disabled at once: a second click (a double click, or one while the
    // server answers) must not eat again.
    b.addEventListener("click", () => {
      if (b.disabled) return;
      moves.querySelectorAll("button").forEach((x) => { x.disabled = true; });
      moveClicked(); dinner.eaten.push(mv.morsel); renderDinner();
    });
    moves.append(b);
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
let pictureBusy = 0;
async function renderDinnerPictures(turnOrder) {
  const token = ++pictureBusy;
  const box = $("d-pictures");
  const left = dinner.rows.map((_, i) => i).filter((i) => !dinner.eaten.includes(i));
  if (!dinner.morsels || dinner.players !== 2 || !left.length) { box.replaceChildren(); return; }
  const req = { morsels: left.map((i) => dinner.rows[i].join(",")).join(" "), order: turnOrder.slice(dinner.eaten.length), picture: true };
  const where = dinner.eaten.length
    ? ` of the ${left.length} morsels left (${left.join(", ")}, drawn as 0 to ${left.length - 1})`
    : "";
  const figures = [];
  for (const [cmd, title] of [["dinner-board", "The crossout board"], ["dinner-plot", "The outcome cloud (Figure 1)"]]) {
    try {
      const r = await api(cmd, req);
      figures.push(h("figure", { "data-left": left.length }, h("figcaption", null, title + where), svgNode(r.svg)));
    } catch (e) { /* the pictures need a two-player dinner the board accepts */ }
  }
  if (token === pictureBusy) box.replaceChildren(...figures);
}
function newDinner() {
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

// ---- Subtraction games
const SUB_PRESETS = {
  pair: { set: "1,2", heap: "10", a: "F", b: "F" },
  paper: { set: "4,5,9", heap: "100", a: "F", b: "A" },
  big: { set: "4,5,9", heap: "1000000000000000", a: "A", b: "A" },
};
const sub = { set: "", heap: "0", a: "F", b: "F", seat: "A", takes: [] };
function subParams() {
  const p = new URLSearchParams({ set: sub.set, heap: sub.heap, conv: sub.a + sub.b, seat: sub.seat });
  if (sub.takes.length) p.set("takes", sub.takes.join(","));
  return p;
}
function writeSubForm() { $("s-set").value = sub.set; $("s-heap").value = sub.heap; $("s-alice").value = sub.a; $("s-bob").value = sub.b; $("s-seat").value = sub.seat; }
function readSubForm() { sub.set = $("s-set").value.replace(/\s+/g, ""); sub.heap = $("s-heap").value.trim(); sub.a = $("s-alice").value; sub.b = $("s-bob").value; sub.seat = $("s-seat").value; }
let subBusy = 0;
async function renderSub() {
  const token = ++subBusy;
  $("s-error").textContent = "";
  setHash("subtraction", subParams());
  const box = $("s-moves");
  let left, totals = [0n, 0n];
  try {
    left = BigInt(sub.heap);
    sub.takes.forEach((t, i) => { totals[i % 2] += BigInt(t); left -= BigInt(t); });
  } catch (e) { $("s-error").textContent = "The heap must be a whole number."; box.replaceChildren(); return; }
  const moverIsAlice = sub.takes.length % 2 === 0;
  const mover = moverIsAlice ? "A" : "B";
  // The library's convention and outcome put the player to move first.
  const conv = moverIsAlice ? `${sub.a}v${sub.b}` : `${sub.b}v${sub.a}`;
  let r;
  try { r = await api("subtraction-outcome", { set: sub.set, heap: left.toString(), convention: conv, explain: true }); }
  catch (e) { if (token === subBusy) { $("s-error").textContent = e.message; box.replaceChildren(); } return; }
  if (token !== subBusy) return;
  box.replaceChildren();
  $("s-undo").disabled = !sub.takes.length;
  const so = `Alice ${totals[0]}, Bob ${totals[1]}`;
  if (!r.options.length) {
    $("s-status").textContent = `Game over (heap ${left}). Final payoffs: ${so}.`;
    $("s-status").dataset.final = `${totals[0]},${totals[1]}`;
    moveShown();
    return;
  }
  delete $("s-status").dataset.final;
  const mine = mover === sub.seat;
  $("s-status").textContent = `Heap ${left}: ${mine ? "your move" : (moverIsAlice ? "Alice" : "Bob") + " (the PSPE) moves"}. So far: ${so}.`;
  const pspe = r.options.filter((o) => o.pspe).length;
  const chosen = r.options.find((o) => o.pspe);
  for (const o of r.options) {
    // The option's outcome is (mover, other) from here; shown as whole-game totals.
    const [m, other] = [BigInt(o.outcome[0]), BigInt(o.outcome[1])];
    const alice = totals[0] + (moverIsAlice ? m : other), bob = totals[1] + (moverIsAlice ? other : m);
    const kind = o.pspe ? (pspe > 1 ? "tied" : "best") : "worse";
    const b = document.createElement("button");
    b.className = "move " + kind;
    b.dataset.take = o.take; if (o === chosen) b.dataset.selected = "true";
    b.append(h("span", { class: "tag" }, o.pspe ? "PSPE" : o.best_for_mover ? "best own payoff, not the convention's pick" : "worse"),
      ` take ${o.take}`, h("small", null, `leaves ${o.heap_after}; game ends at (Alice ${alice}, Bob ${bob})`));
    b.disabled = !mine;
    b.addEventListener("click", () => {
      if (b.disabled) return;
      box.querySelectorAll("button").forEach((x) => { x.disabled = true; });
      moveClicked(); sub.takes.push(o.take); renderSub();
    });
    box.append(b);
  }
  moveShown();
  if (!mine) setTimeout(() => { if (token === subBusy) { sub.takes.push(chosen.take); renderSub(); } }, 150);
}
async function renderSubAnalysis() {
  const box = $("s-period"), pics = $("s-pictures");
  box.replaceChildren(); pics.replaceChildren();
  if (!sub.set) return;
  try {
    const p = await api("subtraction-period", { set: sub.set });
    const d = p.first_discrepancy;
    const fmt = (x) => (x === null ? "never" : "heap " + x);
    box.replaceChildren(h("p", null, `Period: pre-period ${p.preperiod}, period ${p.period}, increment ${p.increment} (certified on heaps ${p.certificate_window[0]} to ${p.certificate_window[1]}). First discrepancies: FvF/AvA ${fmt(d.FvF_AvA)}, FvF/FvA ${fmt(d.FvF_FvA)}, FvF/AvF ${fmt(d.FvF_AvF)}, AvA/zero-sum ${fmt(d.AvA_zero_sum)}.`));
    const t = await api("subtraction-table", { set: sub.set, max_heap: 40 });
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
    const f = await api("subtraction-plot", { figure: "figure1", max: 40, picture: true });
    pics.append(h("figure", null, h("figcaption", null, "Figure 1: pairs with an FvF/AvA discrepancy"), svgNode(f.svg)));
  } catch (e) { /* the picture is a bonus */ }
}
function newSub() { readSubForm(); sub.takes = []; renderSub().then(renderSubAnalysis); }
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

// ---- The cookie game
const COOKIE_PRESETS = { small: "1 3 4", paper: "0 1 1 3 4 5 8 8", p: "2 3" };
const cookie = { start: "", seat: "first", eaten: [] };
// The position after each prefix of moves already seen (key: start + eaten so far), so a
// move costs one call and only a loaded URL replays.
const cookiePositions = new Map();
function cookieParams() {
  const p = new URLSearchParams({ pos: cookie.start, seat: cookie.seat });
  if (cookie.eaten.length) p.set("eaten", cookie.eaten.join(","));
  return p;
}
let cookieBusy = 0;
async function renderCookie() {
  const token = ++cookieBusy;
  $("c-error").textContent = "";
  setHash("cookie", cookieParams());
  const box = $("c-moves");
  // The position now: the library says what each move leaves, so replay the eaten sizes.
  let pos = cookie.start, r;
  try {
    for (let i = 0; i < cookie.eaten.length; i++) {
      const key = cookie.start + "|" + cookie.eaten.slice(0, i + 1).join(",");
      if (cookiePositions.has(key)) { pos = cookiePositions.get(key); continue; }
      const step = await api("cookie-analyze", { components: pos, explain: true });
      const mv = step.moves.find((m) => m.eat === cookie.eaten[i]);
      if (!mv) throw new Error(`no cookie with ${cookie.eaten[i]} days left to eat`);
      pos = mv.position.join(" ");
      cookiePositions.set(key, pos);
    }
    r = await api("cookie-analyze", { components: pos, explain: true });
    for (const m of r.moves) cookiePositions.set(cookie.start + "|" + [...cookie.eaten, m.eat].join(","), m.position.join(" "));
  } catch (e) { if (token === cookieBusy) { $("c-error").textContent = e.message; box.replaceChildren(); } return; }
  if (token !== cookieBusy) return;
  box.replaceChildren();
  $("c-undo").disabled = !cookie.eaten.length;
  const userToMove = (cookie.eaten.length % 2 === 0) === (cookie.seat === "first");
  $("c-analysis").textContent = `Position (${r.position.join(", ") || "nothing left"}): ${r.type}-position` +
    (r.d_value !== null ? `, D = ${r.d_value}` : "") + (r.winning_interval ? `, winning interval of the reduced form: options ${r.winning_interval[0]} to ${r.winning_interval[1]}` : "") + ".";
  if (!r.moves.length) {
    const winner = userToMove ? "the computer" : "you";
    $("c-status").textContent = `Game over: ${userToMove ? "you have" : "the computer has"} no cookie to eat. Winner: ${winner}.`;
    $("c-status").dataset.final = userToMove ? "computer" : "you";
    moveShown();
    return;
  }
  delete $("c-status").dataset.final;
  $("c-status").textContent = userToMove ? "Your move: eat a cookie." : "The computer (the favoured player) moves.";
  // The computer eats a winning cookie when there is one, else the first.
  const chosen = r.moves.find((m) => m.wins) || r.moves[0];
  for (const m of r.moves) {
    const b = document.createElement("button");
    const kind = m.wins ? "best" : "worse";
    b.className = "move " + kind;
    b.dataset.eat = m.eat; if (m === chosen) b.dataset.selected = "true";
    b.append(h("span", { class: "tag" }, m.wins ? "wins" : "loses"), ` eat a cookie with ${m.eat} day${m.eat === 1 ? "" : "s"} left`,
      h("small", null, `leaves (${m.position.join(", ") || "nothing"}): ${m.type}` +
        (m.d_value !== null ? `, D = ${m.d_value}` : "") + (m.winning_interval ? `, winning options ${m.winning_interval[0]}..${m.winning_interval[1]}` : "")));
    b.disabled = !userToMove;
    b.addEventListener("click", () => {
      if (b.disabled) return;
      box.querySelectorAll("button").forEach((x) => { x.disabled = true; });
      moveClicked(); cookie.eaten.push(m.eat); renderCookie();
    });
    box.append(b);
  }
  moveShown();
  if (!userToMove) setTimeout(() => { if (token === cookieBusy) { cookie.eaten.push(chosen.eat); renderCookie(); } }, 150);
}
function newCookie() { cookie.start = $("c-position").value.trim().replace(/[\s,]+/g, " "); cookie.seat = $("c-seat").value; cookie.eaten = []; renderCookie(); }
$("c-preset").addEventListener("change", () => {
  const p = COOKIE_PRESETS[$("c-preset").value]; if (!p) return;
  $("c-position").value = p; newCookie();
});
$("c-new").addEventListener("click", newCookie);
$("c-undo").addEventListener("click", () => {
  cookieBusy++;
  let t = cookie.eaten.length;
  const mineAt = (i) => (i % 2 === 0) === (cookie.seat === "first");
  do { t--; } while (t > 0 && !mineAt(t));
  cookie.eaten = cookie.eaten.slice(0, Math.max(t, 0));
  renderCookie();
});

// ---- Token Dollars
const TOKEN_PRESETS = {
  ten: { values: "", stacks: "10", players: "3", clock: "", ties: "lowest" },
  clock: { values: "", stacks: "10", players: "4", clock: "1", ties: "lowest" },
  values: { values: "1,5,3,7", stacks: "10", players: "2", clock: "", ties: "lowest" },
};
const tok = { values: "", stacks: "10", players: "3", clock: "", ties: "lowest", seat: "1", placed: [] };
const PLAYER_COLOURS = ["#1b5fbf", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"];
function tokParams() {
  const p = new URLSearchParams({ stacks: tok.stacks, players: tok.players, ties: tok.ties, seat: tok.seat });
  if (tok.values) p.set("values", tok.values);
  if (tok.clock) p.set("clock", "1");
  if (tok.placed.length) p.set("placed", tok.placed.join(","));
  return p;
}
function writeTokForm() { for (const k of ["values", "stacks", "players", "clock", "ties", "seat"]) $("t-" + k).value = tok[k]; }
function readTokForm() { for (const k of ["values", "stacks", "players", "clock", "ties", "seat"]) tok[k] = $("t-" + k).value.trim(); }
function tokRequest(extra) {
  const req = { players: Number(tok.players), clock: !!tok.clock, ties: tok.ties };
  if (tok.values) req.values = tok.values; else req.stacks = Number(tok.stacks);
  return Object.assign(req, extra);
}
function drawTokens(n, values, territory) {
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
let tokBusy = 0;
async function renderTokens() {
  const token = ++tokBusy;
  $("t-error").textContent = "";
  setHash("tokens", tokParams());
  const box = $("t-moves");
  let r;
  try { r = await api("tokens-solve", tokRequest({ at: tok.placed })); }
  catch (e) { if (token === tokBusy) { $("t-error").textContent = e.message; box.replaceChildren(); $("t-board").replaceChildren(); } return; }
  if (token !== tokBusy) return;
  const n = r.stacks, values = tok.values ? tok.values.split(",") : Array.from({ length: n }, (_, i) => String(i + 1));
  $("t-board").replaceChildren(drawTokens(n, values, r.territory));
  box.replaceChildren();
  $("t-undo").disabled = !tok.placed.length;
  const players = Number(tok.players), seat = Number(tok.seat) - 1;
  if (tok.placed.length >= players) {
    // Every token placed: the payoffs are those of the placement (any continuation of a
    // full placement is itself).
    const last = await api("tokens-solve", tokRequest({ at: tok.placed.slice(0, -1) }));
    const line = last.explanation.find((l) => l.stack === tok.placed[players - 1]);
    $("t-status").textContent = `All tokens placed. Final payoffs: ${line.payoffs.map((x, i) => `player ${i + 1} ${x}`).join(", ")}.`;
    $("t-status").dataset.final = line.payoffs.join(",");
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
    const b = document.createElement("button");
    b.className = "move " + kind;
    b.dataset.stack = l.stack; if (l.chosen) b.dataset.selected = "true";
    b.append(h("span", { class: "tag" }, kind + (l.chosen ? " · equilibrium" : "")),
      ` stack ${l.stack} ($${values[l.stack - 1]})`,
      h("small", null, `payoffs (${l.payoffs.join(", ")})`));
    b.disabled = !mine;
    b.addEventListener("click", () => {
      if (b.disabled) return;
      box.querySelectorAll("button").forEach((x) => { x.disabled = true; });
      moveClicked(); tok.placed.push(l.stack); renderTokens();
    });
    box.append(b);
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

// ---- Every command
const SAMPLES = {
  "subtraction-outcome": { set: "4,5,9", heap: "1000000000000000000", convention: "FvA" },
  "subtraction-table": { set: "4,5,9", max_heap: 30 },
  "cookie-analyze": { components: "3,1,4" },
  "tokens-solve": { values: "1,5,3,7", players: 2 },
};
async function loadCommands() {
  const r = await schemaDocument();
  const sel = $("a-command");
  for (const e of r.endpoints) { const o = document.createElement("option"); o.value = e.command; o.textContent = e.path; sel.append(o); }
  sel.value = "subtraction-outcome"; $("a-request").value = JSON.stringify(SAMPLES["subtraction-outcome"], null, 1);
  sel.addEventListener("change", () => { $("a-request").value = JSON.stringify(SAMPLES[sel.value] || {}, null, 1); });
}
$("a-send").addEventListener("click", async () => {
  $("a-error").textContent = ""; $("a-report").textContent = "";
  let req;
  try { req = JSON.parse($("a-request").value); } catch (e) { $("a-error").textContent = "The request is not JSON: " + e.message; return; }
  // The server's own text: every digit of every number, as the CLI's --json writes it.
  const command = $("a-command").value;
  const r = await callText(command, JSON.stringify(req));
  if (r.ok) $("a-report").textContent = r.text; else $("a-error").textContent = r.text;
});

// ---- Start: the URL decides the view and the position.
function start() {
  const { view, params } = parseHash();
  showView(view);
  if (view === "tokens") {
    if (params.get("players")) {
      Object.assign(tok, { values: params.get("values") || "", stacks: params.get("stacks") || "10", players: params.get("players"), clock: params.get("clock") ? "1" : "",
        ties: params.get("ties") || "lowest", seat: params.get("seat") || "1",
        placed: (params.get("placed") || "").split(",").filter((x) => x !== "").map(Number) });
    } else if (!tok.placed.length && $("t-preset").value === "") {
      Object.assign(tok, TOKEN_PRESETS.ten); $("t-preset").value = "ten";
    }
    writeTokForm(); renderTokens();
  }
  if (view === "cookie") {
    if (params.get("pos") !== null) {
      cookie.start = params.get("pos"); cookie.seat = params.get("seat") || "first";
      cookie.eaten = (params.get("eaten") || "").split(",").filter((x) => x !== "").map(Number);
    } else if (!cookie.start) {
      cookie.start = COOKIE_PRESETS.small; $("c-preset").value = "small";
    }
    $("c-position").value = cookie.start; $("c-seat").value = cookie.seat; renderCookie();
  }
  if (view === "subtraction") {
    if (params.get("set")) {
      const conv = params.get("conv") || "FF";
      Object.assign(sub, { set: params.get("set"), heap: params.get("heap") || "0", a: conv[0] || "F", b: conv[1] || "F", seat: params.get("seat") || "A",
        takes: (params.get("takes") || "").split(",").filter((x) => x !== "").map(Number) });
    } else if (!sub.set) {
      Object.assign(sub, SUB_PRESETS.pair); $("s-preset").value = "pair";
    }
    writeSubForm(); renderSub().then(renderSubAnalysis);
  }
  if (view === "dinner") {
    if (params.get("m")) {
      dinner.morsels = params.get("m"); dinner.order = params.get("o") || ""; dinner.seat = params.get("seat") || "A";
      dinner.ties = params.get("ties") || "index";
      dinner.eaten = (params.get("eaten") || "").split(",").filter((x) => x !== "").map(Number);
    } else if (!dinner.morsels) {
      dinner.morsels = PRESETS.intro.m; dinner.order = PRESETS.intro.o; $("d-preset").value = "intro";
    }
    writeDinnerForm(); renderDinner();
  }
}
window.addEventListener("hashchange", start);
loadCommands();
start();
