// Where computations run: the server that served the page, or a Web Worker running the library compiled to WebAssembly.
import { $ } from "./dom.js";

export const API_TOKEN = new URLSearchParams(location.search).get("token");
export function apiHeaders(json) {
  const h = json ? { "content-type": "application/json" } : {};
  if (API_TOKEN) h.authorization = "Bearer " + API_TOKEN;
  return h;
}
// Where the computations run: the server that served this page (`lastbite serve`), or,
// on any static host, a Web Worker running the library compiled to WebAssembly (the same
// api::call and schemas). The page asks the server for its schema once to know.
export let transport = null;
export function onServer() {
  transport ??= fetch("api/schema", { headers: apiHeaders(false) })
    .then((r) => r.ok && (r.headers.get("content-type") || "").startsWith("application/json"))
    .catch(() => false);
  return transport;
}
// One worker a lane: the moves' lane, and a lane for pictures and analyses computed after
// a position is shown, so that the next move never waits behind a picture.
export const workers = new Map();
export let nextCall = 0;
export const pending = new Map();
export function stopWorker(why) {
  for (const w of workers.values()) w.terminate();
  workers.clear();
  for (const [, p] of pending) p.resolve({ ok: false, text: why });
  pending.clear();
  $("stop").hidden = true;
}
function laneWorker(lane) {
  let worker = workers.get(lane);
  if (worker) return worker;
  worker = new Worker("assets/worker.js", { type: "module" });
  worker.onmessage = (e) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (!pending.size) $("stop").hidden = true;
    // A failure of the module itself (status 3) may have left it broken: start afresh.
    if (e.data.status === 3) stopWorker(e.data.text);
    if (p) p.resolve({ ok: e.data.status === 0, text: e.data.text });
  };
  worker.onerror = (e) => { e.preventDefault(); stopWorker("the computation failed in this tab: " + (e.message || "the worker stopped")); };
  workers.set(lane, worker);
  return worker;
}
export function workerCall(command, body, lane = "moves") {
  const worker = laneWorker(lane);
  const id = ++nextCall;
  // A long computation can be stopped: the button ends the workers (new ones start on
  // the next call).
  setTimeout(() => { if (pending.has(id)) $("stop").hidden = false; }, 300);
  return new Promise((resolve) => { pending.set(id, { resolve }); worker.postMessage({ id, command, request: body }); });
}
// The workers start (and compile the module) as the page opens, not on the first call.
export function warmUp() {
  onServer().then((server) => { if (!server) { laneWorker("moves"); laneWorker("pictures"); } });
}
// A command's answer as text: { ok, text } with the report's JSON, or the one-line error.
export async function callText(command, body, lane) {
  if (!(await onServer())) return workerCall(command, body, lane);
  const res = await fetch("api/" + command.replace("-", "/"), { method: "POST", headers: apiHeaders(true), body });
  const text = await res.text();
  if (res.ok) return { ok: true, text };
  try { return { ok: false, text: JSON.parse(text).error || res.statusText }; } catch (e) { return { ok: false, text: text || res.statusText }; }
}
// A request's cost before it runs: the cost model's estimate under this server's (or this
// page's) budgets, as JSON text ({ ok, text }).
export async function estimateText(command, body) {
  if (!(await onServer())) return workerCall("estimate:" + command, body, "moves");
  const res = await fetch("api/" + command.replace("-", "/") + "?estimate", { method: "POST", headers: apiHeaders(true), body });
  const text = await res.text();
  if (res.ok) return { ok: true, text };
  try { return { ok: false, text: JSON.parse(text).error || res.statusText }; } catch (e) { return { ok: false, text: text || res.statusText }; }
}
// `lane`: "pictures" for what is drawn after a position is shown (its own worker, in the
// static explorer).
export async function api(command, request, lane = "moves") {
  const r = await callText(command, JSON.stringify(request), lane);
  if (!r.ok) throw new Error(r.text);
  // Integers past 2^53 stay exact (BigInt), read from their digits.
  return JSON.parse(r.text, (k, v, ctx) => (typeof v === "number" && !Number.isSafeInteger(v) && ctx && /^-?\d+$/.test(ctx.source) ? BigInt(ctx.source) : v));
}
export async function schemaDocument() {
  if (await onServer()) return fetch("api/schema", { headers: apiHeaders(false) }).then((x) => x.json());
  const r = await workerCall("schema", "", "pictures");
  return JSON.parse(r.text);
}
