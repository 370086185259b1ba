// Every command: any request, answered with the library's own JSON.
import { $ } from "./dom.js";
import { callText, estimateText, schemaDocument } from "./transport.js";

// ---- Every command
export const SAMPLES = {
  "subtraction-outcome": { set: "4,5,9", heap: "1000000000000000000", convention: "FvA" },
  "subtraction-table": { set: "4,5,9", max_heap: 30 },
  "cookie-analyze": { components: "3,1,4" },
  "tokens-solve": { values: "1,5,3,7", players: 2 },
  "tokens-anywhere": { values: "1,5,2,8", positions: "0,1/3,2,5/2", players: 2 },
  "dinner-strategic-fairness": { question: "three-agents", items: 7, strict_items: 4 },
};
export async function loadCommands() {
  const r = await schemaDocument();
  const sel = $("a-command");
  for (const e of r.endpoints) { const o = document.createElement("option"); o.value = e.command; o.textContent = e.path; sel.append(o); }
  sel.value = "subtraction-outcome"; $("a-request").value = JSON.stringify(SAMPLES["subtraction-outcome"], null, 1);
  sel.addEventListener("change", () => { $("a-request").value = JSON.stringify(SAMPLES[sel.value] || {}, null, 1); });
}
$("a-send").addEventListener("click", async () => {
  $("a-error").textContent = ""; $("a-report").textContent = ""; $("a-estimate").textContent = "";
  let req;
  try { req = JSON.parse($("a-request").value); } catch (e) { $("a-error").textContent = "The request is not JSON: " + e.message; return; }
  // The server's own text: every digit of every number, as the CLI's --json writes it.
  const command = $("a-command").value;
  // The cost model's estimate first: shown, and a request over the budget not sent.
  const e = await estimateText(command, JSON.stringify(req));
  if (!e.ok) { $("a-error").textContent = e.text; return; }
  const est = JSON.parse(e.text);
  $("a-estimate").textContent = "Estimated: " + est.text + (est.admitted ? ", within" : ", over") + " the budget of " + est.max_seconds + " s" + (est.admitted ? "; running." : ": not sent.");
  if (!est.admitted) return;
  const r = await callText(command, JSON.stringify(req));
  if (r.ok) $("a-report").textContent = r.text; else $("a-error").textContent = r.text;
});
