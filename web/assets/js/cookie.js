// The cookie game view: play against the favoured player.
import { $ } from "./dom.js";
import { api } from "./transport.js";
import { moveShown, setHash, moveButton } from "./page.js";

// ---- The cookie game
export const COOKIE_PRESETS = { small: "1 3 4", paper: "0 1 1 3 4 5 8 8", p: "2 3" };
export const cookie = { start: "", seat: "first", eaten: [] };
// The position after each prefix of moves already seen (key: start + eaten so far), so a
// move costs one call and only a loaded URL replays.
export const cookiePositions = new Map();
export function cookieParams() {
  const p = new URLSearchParams({ pos: cookie.start, seat: cookie.seat });
  if (cookie.eaten.length) p.set("eaten", cookie.eaten.join(","));
  return p;
}
export let cookieBusy = 0;
export async function renderCookie() {
  const token = ++cookieBusy;
  $("c-error").textContent = "";
  setHash("cookie", cookieParams());
  const box = $("c-moves");
  // The moves shown are the last position's until this one loads: a click on one would
  // be dropped, so none can be clicked.
  for (const b of box.querySelectorAll("button")) b.disabled = true;
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
  // The move number keeps each turn's status distinct (tests wait for it to change).
  $("c-status").textContent = `Move ${cookie.eaten.length + 1}: ` + (userToMove ? "your move, eat a cookie." : "the computer (the favoured player) moves.");
  // The computer eats the cookie the library chooses (a winning one when there is one).
  const chosen = r.moves.find((m) => m.chosen);
  for (const m of r.moves) {
    moveButton(box, {
      kind: m.wins ? "best" : "worse", tag: m.wins ? "wins" : "loses", chosen: m === chosen, enabled: userToMove,
      text: ` eat a cookie with ${m.eat} day${m.eat === 1 ? "" : "s"} left`,
      note: `leaves (${m.position.join(", ") || "nothing"}): ${m.type}` +
        (m.d_value !== null ? `, D = ${m.d_value}` : "") + (m.winning_interval ? `, winning options ${m.winning_interval[0]}..${m.winning_interval[1]}` : ""),
      data: { eat: m.eat },
      play: () => { if (token !== cookieBusy) return; cookie.eaten.push(m.eat); renderCookie(); },
    });
  }
  moveShown();
  if (!userToMove) setTimeout(() => { if (token === cookieBusy) { cookie.eaten.push(chosen.eat); renderCookie(); } }, 150);
}
export function newCookie() { cookie.start = $("c-position").value.trim().replace(/[\s,]+/g, " "); cookie.seat = $("c-seat").value; cookie.eaten = []; renderCookie(); }
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
