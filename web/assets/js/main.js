// The page's entry: the URL decides the view and the position.
import { $ } from "./dom.js";
import { stopWorker, warmUp } from "./transport.js";
import { parseHash, showView } from "./page.js";
import { PRESETS, dinner, writeDinnerForm, renderDinner } from "./dinner.js";
import { SUB_PRESETS, sub, writeSubForm, renderSub, renderSubAnalysis } from "./subtraction.js";
import { COOKIE_PRESETS, cookie, renderCookie } from "./cookie.js";
import { TOKEN_PRESETS, tok, writeTokForm, renderTokens } from "./tokens.js";
import { loadCommands } from "./commands.js";

$("stop").addEventListener("click", () => stopWorker("stopped: the computation was ended"));
// ---- Start: the URL decides the view and the position. Returns the view's first render
// (settled once its answer or its error is shown).
function start() {
  const { view, params } = parseHash();
  showView(view);
  let rendered = Promise.resolve();
  if (view === "tokens") {
    if (params.get("players")) {
      Object.assign(tok, { values: params.get("values") || "", stacks: params.get("stacks") || "10", players: params.get("players"), clock: params.get("clock") ? "1" : "",
        ties: params.get("ties") || "lowest", seat: params.get("seat") || "1",
        placed: (params.get("placed") || "").split(",").filter((x) => x !== "").map(Number) });
    } else if (!tok.placed.length && $("t-preset").value === "") {
      Object.assign(tok, TOKEN_PRESETS.ten); $("t-preset").value = "ten";
    }
    writeTokForm(); rendered = renderTokens();
  }
  if (view === "cookie") {
    if (params.get("pos") !== null) {
      cookie.start = params.get("pos"); cookie.seat = params.get("seat") || "first";
      cookie.eaten = (params.get("eaten") || "").split(",").filter((x) => x !== "").map(Number);
    } else if (!cookie.start) {
      cookie.start = COOKIE_PRESETS.small; $("c-preset").value = "small";
    }
    $("c-position").value = cookie.start; $("c-seat").value = cookie.seat; rendered = renderCookie();
  }
  if (view === "subtraction") {
    if (params.get("set")) {
      const conv = params.get("conv") || "FF";
      Object.assign(sub, { set: params.get("set"), heap: params.get("heap") || "0", a: conv[0] || "F", b: conv[1] || "F", seat: params.get("seat") || "A",
        takes: (params.get("takes") || "").split(",").filter((x) => x !== "").map(Number) });
    } else if (!sub.set) {
      Object.assign(sub, SUB_PRESETS.pair); $("s-preset").value = "pair";
    }
    writeSubForm(); rendered = renderSub().then(renderSubAnalysis);
  }
  if (view === "dinner") {
    if (params.get("m")) {
      dinner.morsels = params.get("m"); dinner.order = params.get("o") || ""; dinner.seat = params.get("seat") || "A";
      dinner.ties = params.get("ties") || "index";
      dinner.eaten = (params.get("eaten") || "").split(",").filter((x) => x !== "").map(Number);
    } else if (!dinner.morsels) {
      dinner.morsels = PRESETS.intro.m; dinner.order = PRESETS.intro.o; $("d-preset").value = "intro";
    }
    writeDinnerForm(); rendered = renderDinner();
  }
  return rendered;
}
// The browser tests wait on this, not on a clock: the position the URL names, shown.
const started = () => { window.lastbiteRendered = start(); };
window.addEventListener("hashchange", started);
warmUp();
loadCommands();
started();
