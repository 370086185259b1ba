// The explorer in a real browser: Debian's Chromium (/usr/bin/chromium) driven by
// playwright-core, against `lastbite serve` on loopback, or, with LASTBITE_SITE=DIR, the
// static folder scripts/site built, served by `python3 -m http.server` with no lastbite
// process running (the page computes in a worker; the tests' own reference answers come
// from the same WebAssembly module loaded here). For each preset a whole game is
// played by clicking, and the final payoffs the page shows must equal the API's; the URL
// must round-trip a position. Run by scripts/test (`node --test` in web/e2e).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { callModule } from "../assets/js/wasm.js";

const BIN = process.env.LASTBITE_BIN || new URL("../../target/release/lastbite", import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

const SITE = process.env.LASTBITE_SITE;
// The explorer's folder within the served one: a documentation site (scripts/docs-site)
// serves it at explorer/, and its pages must work from there.
const SITE_PATH = process.env.LASTBITE_SITE_PATH || "";
let server, base, browser, wasm;

before(async () => {
  server = SITE
    ? spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", SITE], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn(BIN, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/\S+\/)/) || out.match(/Serving HTTP on \S+ port (\d+)/);
      if (m) resolve(m[1].startsWith("http") ? m[1] : `http://127.0.0.1:${m[1]}/`);
    });
    server.on("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
  if (SITE) {
    base += SITE_PATH;
    const { instance } = await WebAssembly.instantiate(readFileSync(SITE + "/" + SITE_PATH + "assets/lastbite.wasm"), {});
    wasm = instance.exports;
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});

/** The library's answer: from the server, or from the WebAssembly module itself. */
async function api(command, request) {
  if (SITE) {
    const r = wasmCall(command, JSON.stringify(request));
    assert.equal(r.status, 0, r.text);
    return JSON.parse(r.text);
  }
  const res = await fetch(base + "api/" + command.replace("-", "/"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
  assert.equal(res.status, 200);
  return res.json();
}

function wasmCall(command, body) {
  return callModule(wasm, command, body);
}

/** Plays the whole game shown by clicking the equilibrium move on each of the user's turns;
 * returns the final payoffs the page shows. */
async function playToTheEnd(page) {
  // Polls until the game ends, by time, not a count of polls (a loaded machine polls slower).
  for (const t0 = Date.now(); Date.now() - t0 < 60000;) {
    const final = await page.locator("#d-status").getAttribute("data-final");
    if (final !== null) return final;
    const mine = page.locator("#d-moves button[data-selected='true']:not([disabled])");
    if (await mine.count()) {
      await mine.first().click();
    }
    await page.waitForTimeout(60);
  }
  throw new Error("the game did not end within 60 s");
}

// The page's dinner presets, from the one set of sample requests the tests share.
const samples = JSON.parse(readFileSync(new URL("../../examples/requests.json", import.meta.url), "utf8"));
const dinnerPresets = samples.requests
  .filter((e) => e.uses.includes("page") && e.command === "dinner-solve")
  .map((e) => [e.preset, e.request]);
assert.ok(dinnerPresets.length >= 3, "the dinner presets are in examples/requests.json");

for (const [preset, request] of dinnerPresets) {
  test(`dinner preset ${preset}: a game played by clicking ends at the API's equilibrium payoffs`, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(base + "#dinner");
    await page.selectOption("#d-preset", preset);
    const final = await playToTheEnd(page);
    const report = await api("dinner-solve", request);
    assert.equal(final, report.scores.join(","));
    assert.match(await page.locator("#d-status").textContent(), /Game over/);
    await page.close();
  });
}

test("dinner with friendly tie rules: the page's end equals the exact solver's", async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone's width
  const m = "1,1 2,2 1,1 2,2 3,3";
  await page.goto(base + `#dinner?m=${encodeURIComponent(m)}&seat=B&ties=friendly`);
  const final = await playToTheEnd(page);
  const report = await api("dinner-solve", { morsels: m, ties: "friendly", method: "exact" });
  assert.equal(final, report.scores.join(","));
  await page.close();
});

/** Plays a subtraction game to its end, clicking the PSPE move on the user's turns. */
async function playSubtraction(page) {
  for (const t0 = Date.now(); Date.now() - t0 < 60000;) {
    const final = await page.locator("#s-status").getAttribute("data-final");
    if (final !== null) return final;
    const mine = page.locator("#s-moves button[data-selected='true']:not([disabled])");
    if (await mine.count()) await mine.first().click();
    await page.waitForTimeout(40);
  }
  throw new Error("the game did not end within 60 s");
}

for (const [preset, seat, request] of [
  ["pair", "A", { set: "1,2", heap: "10", convention: "FvF" }],
  ["paper", "B", { set: "4,5,9", heap: "100", convention: "FvA" }],
]) {
  test(`subtraction preset ${preset}, seat ${seat}: a game played by clicking ends at the API's PSPE outcome`, async () => {
    const page = await browser.newPage();
    await page.goto(base + "#subtraction");
    await page.selectOption("#s-preset", preset);
    if (seat !== "A") {
      await page.selectOption("#s-seat", seat);
      await page.click("#s-new");
    }
    const final = await playSubtraction(page);
    const report = await api("subtraction-outcome", request);
    assert.equal(final, report.outcome.join(","));
    await page.close();
  });
}

test("subtraction: each move shows its consequence as the API's explanation gives it", async () => {
  const page = await browser.newPage();
  await page.goto(base + "#subtraction?set=4,5,9&heap=1000000000000000000&conv=FA&seat=A");
  await page.locator("#s-moves button").first().waitFor();
  const texts = await page.locator("#s-moves button").allTextContents();
  const r = await api("subtraction-outcome", { set: "4,5,9", heap: "1000000000000000000", convention: "FvA", explain: true });
  assert.equal(texts.length, r.options.length);
  // Exact beyond 2^53: the page shows the API's digits.
  assert.ok(texts.some((t) => t.includes("Alice 500000000000000004, Bob 499999999999999996")), texts.join(" | "));
  await page.close();
});

for (const [preset, start, seat] of [["small", "1 3 4", "first"], ["paper", "0 1 1 3 4 5 8 8", "first"], ["p", "2 3", "second"]]) {
  test(`cookie preset ${preset}: playing the winning moves wins exactly when the API says the position is won`, async () => {
    const page = await browser.newPage();
    await page.goto(base + "#cookie");
    await page.selectOption("#c-preset", preset);
    if (seat !== "first") {
      await page.selectOption("#c-seat", seat);
      await page.click("#c-new");
    }
    let final = null;
    for (const t0 = Date.now(); Date.now() - t0 < 20000 && final === null;) {
      final = await page.locator("#c-status").getAttribute("data-final");
      if (final !== null) break;
      const mine = page.locator("#c-moves button[data-selected='true']:not([disabled])");
      if (await mine.count()) await mine.first().click();
      await page.waitForTimeout(40);
    }
    const r = await api("cookie-analyze", { components: start });
    // Moving first from an N-position (or second from a P-position) and always eating a
    // winning cookie, the user wins; else the favoured computer does.
    const userFavoured = (r.type === "N") === (seat === "first");
    assert.equal(final, userFavoured ? "you" : "computer");
    await page.close();
  });
}

for (const [preset, request] of [
  ["ten", { stacks: 10, players: 3 }],
  ["clock", { stacks: 10, players: 4, clock: true }],
  ["values", { values: "1,5,3,7", players: 2 }],
]) {
  test(`tokens preset ${preset}: placing by clicking ends at the API's equilibrium payoffs`, async () => {
    const page = await browser.newPage();
    await page.goto(base + "#tokens");
    await page.selectOption("#t-preset", preset);
    let final = null;
    // Until the game ends (by time, not a count of polls: a loaded machine polls slower).
    for (const t0 = Date.now(); Date.now() - t0 < 20000 && final === null;) {
      final = await page.locator("#t-status").getAttribute("data-final");
      if (final !== null) break;
      const mine = page.locator("#t-moves button[data-selected='true']:not([disabled])");
      if (await mine.count()) await mine.first().click();
      await page.waitForTimeout(40);
    }
    const r = await api("tokens-solve", request);
    assert.equal(final, r.payoffs.join(","));
    await page.close();
  });
}

test("timings: load to interactive, and each move's answer, per preset (printed)", async () => {
  const lines = [];
  for (const [view, preset, prefix] of [["dinner", "fig1", "d"], ["subtraction", "paper", "s"], ["cookie", "paper", "c"], ["tokens", "ten", "t"]]) {
    const page = await browser.newPage();
    const t0 = Date.now();
    await page.goto(base + "#" + view);
    await page.locator(`#${prefix}-moves button:not([disabled])`).first().waitFor();
    const load = Date.now() - t0;
    await page.selectOption(`#${prefix}-preset`, preset);
    const moves = [];
    for (let i = 0; i < 4; i++) {
      const mine = page.locator(`#${prefix}-moves button[data-selected='true']:not([disabled])`);
      // A click can land on the buttons of the position before the preset's (a slow
      // machine renders the preset late, and the page redraws them): then the status
      // stays, and the click is tried again on the buttons now shown.
      let answered = false;
      for (let attempt = 0; attempt < 3 && !answered; attempt++) {
        try { await mine.first().waitFor({ timeout: 3000 }); } catch { break; }
        const before = await page.locator(`#${prefix}-status`).textContent();
        await mine.first().click();
        try {
          await page.waitForFunction(([id, prev]) => document.getElementById(id).textContent !== prev, [`${prefix}-status`, before], { timeout: 10000 });
          answered = true;
        } catch {}
      }
      if (!answered) break;
      // The page's own measure: from the click to the new position shown.
      moves.push(Math.round(await page.evaluate(() => window.lastMoveMs)));
    }
    assert.ok(moves.length > 0, `${view}: no move was answered`);
    lines.push(`${view} (${preset}): interactive ${load} ms after load; moves answered in ${moves.join(", ")} ms`);
    await page.close();
  }
  console.log(lines.join("\n"));
});

test("the URL round-trips a position", async () => {
  const page = await browser.newPage();
  await page.goto(base + "#dinner");
  await page.selectOption("#d-preset", "fig1");
  // Two of the user's moves (the equilibrium answers each).
  for (let i = 0; i < 2; i++) {
    const mine = page.locator("#d-moves button[data-selected='true']:not([disabled])");
    await mine.first().waitFor();
    await mine.first().click();
    await page.waitForFunction(
      (n) => (new URLSearchParams(location.hash.split("?")[1] || "").get("eaten") || "").split(",").filter(Boolean).length >= n,
      2 * (i + 1),
    );
  }
  await page.locator("#d-moves button:not([disabled])").first().waitFor();
  const url = page.url();
  const status = await page.locator("#d-status").textContent();
  const moves = await page.locator("#d-moves button").allTextContents();
  const again = await browser.newPage();
  await again.goto(url);
  await again.locator("#d-moves button:not([disabled])").first().waitFor();
  assert.equal(await again.locator("#d-status").textContent(), status);
  assert.deepEqual(await again.locator("#d-moves button").allTextContents(), moves);
  await again.reload();
  await again.locator("#d-moves button:not([disabled])").first().waitFor();
  assert.equal(await again.locator("#d-status").textContent(), status);
  await page.close();
  await again.close();
});

test("every command is reachable from the page, errors shown in one line", async () => {
  const page = await browser.newPage();
  await page.goto(base + "#api");
  // One option per command the server offers (GET /api/schema), however many there are.
  const schema = SITE ? JSON.parse(wasmCall("schema", "").text) : await (await fetch(base + "api/schema")).json();
  const commands = schema.endpoints.length;
  assert.ok(commands >= 28);
  await page.locator("#a-command option").nth(commands - 1).waitFor({ state: "attached" });
  assert.equal(await page.locator("#a-command option").count(), commands);
  await page.click("#a-send");
  await page.locator("#a-report").filter({ hasText: "outcome" }).waitFor();
  const shown = JSON.parse(await page.locator("#a-report").textContent());
  assert.deepEqual(shown, await api("subtraction-outcome", { set: "4,5,9", heap: "1000000000000000000", convention: "FvA" }));
  // The cost model's estimate is shown before the report, as text.
  assert.match(await page.locator("#a-estimate").textContent(), /^Estimated: about .* within the budget of 30 s; running\.$/);
  // A request over the budget is not sent: its estimate says so.
  await page.selectOption("#a-command", "dinner-best-order");
  await page.fill("#a-request", '{"size": 24}');
  await page.click("#a-send");
  await page.locator("#a-estimate").filter({ hasText: "not sent" }).waitFor();
  assert.equal(await page.locator("#a-report").textContent(), "");
  await page.selectOption("#a-command", "subtraction-outcome");
  await page.fill("#a-request", '{"set": "4,x"}');
  await page.click("#a-send");
  await page.locator("#a-error").filter({ hasText: "set" }).waitFor();
  assert.ok(!(await page.locator("#a-error").textContent()).includes("\n"));
  await page.close();
});

/** In the page: every element that could run script a link planted (an event-handler
 * attribute, a script the page did not ship, a javascript: URL), described. */
function planted() {
  const found = [];
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) {
      const url = ["href", "src", "action", "formaction", "xlink:href"].includes(a.name.toLowerCase());
      if (/^on/i.test(a.name) || (url && /^\s*javascript:/i.test(a.value))) found.push(`${e.tagName} ${a.name}`);
    }
    if (e.tagName === "SCRIPT" && !(e.getAttribute("src") || "").endsWith("assets/js/main.js")) found.push("SCRIPT");
  }
  return found;
}

test("a hostile link runs nothing: text is shown as text, and the policy would block script anyway", async () => {
  // The link from the report: the set goes to the API, the error quotes it, and the page
  // shows the error. Whatever the page does with the text, no script of the link may run.
  // No quotes in the payloads: the library's messages escape quotes, which would break
  // the script before any policy is needed.
  const payloads = [
    "<img src=x onerror=document.title=document.domain>",
    "<svg onload=document.title=document.domain>",
    "\"><script>document.title=document.domain</script>",
  ];
  for (const p of payloads) {
    const page = await browser.newPage();
    // Every Content-Security-Policy violation is recorded: the page must not even try.
    await page.addInitScript(() => {
      window.__violations = [];
      document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
    });
    await page.goto(base + "#subtraction?set=" + encodeURIComponent(p));
    const shown = page.locator("#s-period .error");
    await shown.waitFor();
    await page.evaluate(() => window.lastbiteRendered);
    assert.deepEqual(await page.evaluate(planted), [], p);
    assert.equal(await page.title(), "lastbite explorer", p);
    // The error is shown as text, quoting what the link said.
    assert.match(await shown.textContent(), /is not a positive integer/);
    assert.equal(await page.locator("#s-period img, #s-period svg, #s-period script").count(), 0);
    assert.deepEqual(await page.evaluate(() => window.__violations), [], p);
    await page.close();
  }
});

test("every URL parameter of every view, filled with script payloads: nothing runs, nothing is even tried", async () => {
  const views = {
    dinner: { m: "1,2 2,3 3,1", o: "ABA", seat: "A", ties: "index", eaten: "0" },
    subtraction: { set: "4,5,9", heap: "20", conv: "FF", seat: "A", takes: "4" },
    cookie: { pos: "2,3,4,4", seat: "first", eaten: "4" },
    tokens: { stacks: "10", players: "3", ties: "lowest", seat: "1", values: "1,2,3,4,5,6,7,8,9,10", placed: "5", clock: "" },
  };
  const payloads = [
    "<img src=x onerror=document.title=document.domain>",
    "\"><svg onload=document.title=document.domain>",
    "javascript:document.title=document.domain",
    "x".repeat(5000),
    "\u00ff\ud800%E0%A4%A",
  ];
  const page = await browser.newPage();
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
  });
  for (const [view, params] of Object.entries(views)) {
    for (const key of Object.keys(params)) {
      for (const p of payloads) {
        const q = new URLSearchParams({ ...params, [key]: p });
        await page.goto("about:blank");
        await page.goto(base + "#" + view + "?" + q.toString());
        // Until the page has shown what the URL names (its answer or its error), then
        // nothing in it that could ever run a payload: no element with an event-handler
        // attribute, no script of its own making, no javascript: link.
        await page.waitForFunction(() => window.lastbiteRendered !== undefined);
        await page.evaluate(() => window.lastbiteRendered);
        const where = `${view} ${key}=${p.slice(0, 40)}`;
        assert.deepEqual(await page.evaluate(planted), [], where);
        assert.equal(await page.title(), "lastbite explorer", where);
        assert.deepEqual(await page.evaluate(() => window.__violations), [], where);
      }
    }
  }
  await page.close();
});

test("the dinner's pictures follow the game: the board and the cloud of the morsels left", async () => {
  const page = await browser.newPage();
  await page.goto(base + "#dinner");
  await page.selectOption("#d-preset", "fig1");
  const n = (await api("dinner-solve", { morsels: await page.inputValue("#d-morsels") })).morsels;
  await page.locator(`#d-pictures figure[data-left="${n}"]`).nth(1).waitFor();
  const before = await page.locator("#d-pictures svg").first().innerHTML();
  const mine = page.locator("#d-moves button[data-selected='true']:not([disabled])");
  await mine.first().waitFor();
  await mine.first().click();
  // After the user's move and the equilibrium's reply, two morsels fewer are drawn.
  await page.locator(`#d-pictures figure[data-left="${n - 2}"]`).nth(1).waitFor();
  const after = await page.locator("#d-pictures svg").first().innerHTML();
  assert.notEqual(after, before);
  assert.match(await page.locator("#d-pictures figcaption").first().textContent(), new RegExp(`of the ${n - 2} morsels left`));
  await page.close();
});

test("a long computation in the page's worker stops with the Stop button, and the page goes on", { skip: !SITE && "the server runs computations itself (its --timeout ends them)" }, async () => {
  const page = await browser.newPage();
  await page.goto(base + "#api");
  await page.locator("#a-command option").nth(20).waitFor({ state: "attached" });
  await page.selectOption("#a-command", "subtraction-conjecture");
  // Conjecture 4 on every set of size 4 up to 45: seconds of work, within the page's
  // work budget (a request over it is not sent: its estimate says so).
  await page.fill("#a-request", '{"statement": "4", "sizes": [4], "max": 45}');
  await page.click("#a-send");
  await page.locator("#stop").waitFor({ state: "visible" });
  // The page still answers while the worker computes.
  await page.click("a[data-view='dinner']");
  await page.click("a[data-view='api']");
  const t0 = Date.now();
  await page.click("#stop");
  await page.locator("#a-error").filter({ hasText: "stopped" }).waitFor();
  assert.ok(Date.now() - t0 < 2000);
  assert.ok(await page.locator("#stop").isHidden());
  // A new worker answers the next request.
  await page.selectOption("#a-command", "subtraction-outcome");
  await page.fill("#a-request", '{"set": "4,5,9", "heap": "1000"}');
  await page.click("#a-send");
  await page.locator("#a-report").filter({ hasText: "outcome" }).waitFor();
  await page.close();
});
