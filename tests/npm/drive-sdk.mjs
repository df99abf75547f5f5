// The TypeScript SDK's Client with mcp-elicit's elicitationHandler (the bundled sdk.html of
// the scratch app, argv[2]) in headless Chromium, against two SDK servers: the TypeScript
// SDK's (tests/conformance/ts_sdk_server.mjs --held) and the Python SDK's
// (tests/servers/demo_server); argv[3] is the repository. Each case answers cards as a
// person would and checks what the server received: the tool's result text. Last, the
// package's other entry, mcp-elicit/client (the bundled client.html): its McpClient
// against the Python SDK server. Exits non-zero
// with the reasons on failure.
import { spawn } from "node:child_process";
import { createConnection, createServer as createTcpServer } from "node:net";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serveFiles } from "./serve.mjs";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";

const [root, repo] = process.argv.slice(2);
const python = join(repo, ".venv", "bin", "python");
const conformance = join(repo, "tests", "conformance");
for (const [path, what] of [
  [python, "the Python venv (scripts/setup)"],
  [join(conformance, "node_modules", "@modelcontextprotocol", "sdk"), "tests/conformance/node_modules (scripts/setup)"],
]) {
  if (!existsSync(path)) {
    console.error(`[npm sdk test] ${what} is missing: ${path}`);
    process.exit(1);
  }
}

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function freePort() {
  const s = createTcpServer();
  await new Promise((ok) => s.listen(0, "127.0.0.1", ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Waits until the port accepts a connection (polled; bounded by `tries`). */
async function waitPort(port, child, what, tries = 300) {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    const up = await new Promise((ok) => {
      const c = createConnection({ port, host: "127.0.0.1" }, () => {
        c.end();
        ok(true);
      });
      c.on("error", () => ok(false));
    });
    if (up) return;
    await sleep(100);
  }
  throw new Error(`${what} did not listen on ${port}`);
}

const children = [];
const logs = {};
function startServer(what, cmd, args, cwd) {
  const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  logs[what] = "";
  const keep = (d) => {
    // The tail is enough to say why a server failed.
    logs[what] = (logs[what] + d).slice(-20000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  children.push(child);
  return child;
}

const { server: www, origin } = await serveFiles((path) => [root, path === "/" ? "sdk.html" : path]);
const pageUrl = `${origin}/sdk.html`;

const tsPort = await freePort();
const pyPort = await freePort();
const ts = startServer("ts", "node", [join(conformance, "ts_sdk_server.mjs"), String(tsPort), "--held"], conformance);
const py = startServer("py", python, [join(repo, "tests", "servers", "demo_server"), "--host", "127.0.0.1", "--port", String(pyPort)], repo);
const tsUrl = `http://127.0.0.1:${tsPort}/mcp`;
const pyUrl = `http://127.0.0.1:${pyPort}/mcp`;

const profile = mkdtempSync(join(tmpdir(), "mce-npm-sdk-chromium-"));
let browser;
const pageErrors = [];
try {
  await Promise.all([waitPort(tsPort, ts, "ts_sdk_server.mjs"), waitPort(pyPort, py, "demo_server")]);
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(15000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(m.text());
  });
  await page.goto(pageUrl);
  await page.waitForFunction(() => window.sdkReady === true);

  await handlerOnItsOwn(page);
  await againstTsServer(page);
  await againstPythonServer(page);
  await mcpClientFromThePackage(page);

  // The URL cards' tabs may log their own errors (pay.example.com does not resolve here);
  // only the host page's count.
  check(pageErrors.length === 0, `no page errors${pageErrors.length ? ": " + pageErrors.join(" | ") : ""}`);
} catch (e) {
  failures.push(String(e));
  console.log(`FAIL ${e && e.stack ? e.stack : e}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join(" | ")}`);
} finally {
  if (browser) await browser.close();
  www.close();
  for (const child of children) child.kill();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  for (const [what, log] of Object.entries(logs)) console.log(`---- ${what} server log (tail)\n${log}`);
  console.error(`[npm sdk test] ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("[npm sdk test] the TypeScript SDK client works with elicitationHandler, and McpClient from mcp-elicit/client");

// ---- cases ------------------------------------------------------------------------------

async function handlerOnItsOwn(page) {
  const c = await page.evaluate(() => window.checks);
  check(c.beforeInit?.code === -32603 && String(c.beforeInit?.message).includes("before init()"),
    `before init, a request is refused in words (-32603): ${c.beforeInit?.message}`);
  check(typeof c.badContainer === "string" && c.badContainer.includes("container"),
    `a container that is not an element is a TypeError in words: ${c.badContainer}`);
  check(same(c.capabilities, { elicitation: { form: {}, url: {} } }), "capabilities: elicitation form and url");
  check(c.task?.code === -32602, `a task-augmented request is refused (-32602): ${c.task?.message}`);
  check(c.notParams?.code === -32602 && c.cardsAfterRefusals === 0,
    `params that are not elicitation params are refused (-32602), no card left: ${c.notParams?.message}`);
  check(same(c.preAborted, { action: "cancel" }) && c.cardsAfterPreAborted === 0,
    "a request already aborted shows no card and settles cancel");
  check(c.shownBeforeAbort === 1 && String(c.named).includes("Local") && String(c.named).includes("local.example"),
    `the card names the server: ${c.named}`);
  check(same(c.abortedAnswer, { action: "cancel" }) && c.cardsAfterAbort === 0 && c.pendingAfterAbort === 0,
    "extra.signal aborting removes the card and settles cancel");
  check(c.reusedElement === true, "the next card reuses the element of the one that went");
  check(same(c.disposedAnswer, { action: "cancel" }) && c.cardsAfterDispose === 0, "dispose() cancels and removes the cards");
  check(c.pendingAtLimit === 256 && c.overLimit?.code === -32603,
    `beyond 256 waiting cards a request is refused (-32603): ${c.overLimit?.message}`);
  check(typeof c.refusedNotice === "string" && c.refusedNotice.includes("256"),
    `[data-testid=cards-refused] says so: ${c.refusedNotice}`);
  check(same(c.manyAnswers, ["cancel"]) && c.childrenAfterDispose === 0, "dispose() cancels all 256 and leaves the container empty");
  check(c.tooLarge?.code === -32603 && String(c.tooLargeNotice).includes("32 MiB"),
    `beyond 32 MiB of params a request is refused (-32603), [data-testid=cards-too-large] says so: ${c.tooLarge?.message}`);
  check(same(c.fitsAnswer, { action: "cancel" }), "the request that fitted was shown (dispose() cancelled it)");

  // MAX_KEPT_URL_CARDS: 17 URL cards opened, the oldest kept one goes; completions still end the others.
  await evaluate(page, (u) => window.keep.ask(17, u), pageUrl);
  const urls = page.locator("#kept [data-elicitation][data-mode=url]");
  await urls.nth(16).waitFor();
  for (let i = 0; i < 17; i++) {
    const tab = page.context().waitForEvent("page");
    await page.locator(`#kept [data-elicitation="flow-${i}"]`).getByRole("button", { name: "Open in new tab" }).click();
    await (await tab).close();
  }
  await page.waitForFunction(() => window.keep.answers.length === 17);
  const answers = await evaluate(page, () => window.keep.answers);
  check(answers.every((a) => a === "accept"), "17 URL cards opened: each request settled accept");
  const shown = await urls.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-elicitation")));
  check(shown.length === 16 && !shown.includes("flow-0"), `16 opened URL cards kept, the oldest gone: ${shown.length}`);
  await evaluate(page, () => { window.keep.complete("flow-0"); window.keep.complete("flow-16"); });
  await page.locator('#kept [data-elicitation="flow-16"][data-state=complete]').waitFor();
  check((await urls.count()) === 16, "a completion for the card that went changes nothing; the kept one's ends its wait");
}

/** A card's control for a schema property: its `name` is the property's (the DOM contract). */
function field(card, name) {
  return card.locator(`[name="${name}"]`);
}

/** A multi-select's checkbox, by its option's title. */
function option(card, title) {
  return card.getByLabel(title, { exact: true });
}

function evaluate(page, fn, arg) {
  return page.evaluate(fn, arg);
}

/** Starts a tool call on connection `conn`; its outcome lands in the page's results[id]. */
function start(page, id, conn, tool, args) {
  return evaluate(page, ([i, c, t, a]) => window.sdk.start(i, c, t, a), [id, conn, tool, args ?? {}]);
}

/** The tool call's outcome, once it has one. */
async function result(page, id) {
  const handle = await page.waitForFunction((i) => window.sdk.results[i], id);
  return handle.jsonValue();
}

async function againstTsServer(page) {
  const info = await evaluate(page, (u) => window.sdk.connect("ts", u, "install"), tsUrl);
  check(info.server.name === "ts-sdk-test-server" && info.protocol === "2025-11-25",
    `connected to the TypeScript SDK server: ${JSON.stringify(info)}`);
  const cards = page.locator("#requests-ts [data-elicitation]");

  // A form with every kind: defaults pre-filled, changes sent, the SDK server checked them.
  await start(page, "every", "ts", "every_field");
  const form = cards.first();
  await form.waitFor();
  const named = await form.locator("[data-testid=requesting-server]").textContent();
  check(named.includes("ts-sdk-test-server") && named.includes(`127.0.0.1:${tsPort}`),
    `the card names the server from getServerVersion() and the transport URL: ${named}`);
  check((await field(form, "birthday").inputValue()) === "1815-12-10", "defaults are pre-filled");
  await field(form, "name").fill("Grace");
  await field(form, "email").fill("grace@example.com");
  await field(form, "guests").fill("4");
  await field(form, "height").fill("1.65");
  await field(form, "subscribe").check();
  await field(form, "size").selectOption("large");
  await field(form, "colour").selectOption({ label: "Blue" });
  await option(form, "olives").check();
  await option(form, "Monday").uncheck();
  await option(form, "Wednesday").check();
  await form.getByRole("button", { name: "Submit" }).click();
  const every = await result(page, "every");
  const answer = JSON.parse(every.text ?? "{}");
  const meeting = answer.content?.meeting;
  if (answer.content) delete answer.content.meeting;
  check(same(answer, {
    action: "accept",
    content: {
      name: "Grace", email: "grace@example.com", website: "https://example.com", birthday: "1815-12-10",
      height: 1.65, guests: 4, subscribe: true, size: "large", colour: "b", toppings: ["cheese", "olives"], days: ["wed"],
    },
  }) && typeof meeting === "string" && meeting.startsWith("2025-06-01T09:30"),
  `every field kind reached the TS server: ${every.text ?? JSON.stringify(every)}`);
  check((await cards.count()) === 0, "the answered form's card is gone");

  // Validation: nothing goes while a field is invalid.
  await start(page, "invalid", "ts", "every_field");
  await cards.first().waitFor();
  await field(cards.first(), "guests").fill("11");
  await cards.first().getByRole("button", { name: "Submit" }).click();
  await cards.first().locator('input[name="guests"][aria-invalid="true"]').waitFor();
  check((await evaluate(page, () => window.sdk.results.invalid)) === null, "an invalid answer is not sent (guests > 10)");
  await cards.first().getByRole("button", { name: "Decline" }).click();
  const declined = await result(page, "invalid");
  check(declined.text === '{"action":"decline"}', `decline reached the TS server: ${declined.text}`);

  // URL mode: Open opens the page, which finishes the flow; the completion ends the wait.
  await start(page, "sign", "ts", "sign_in");
  const url = page.locator("#requests-ts [data-elicitation][data-mode=url]");
  await url.waitFor();
  const tab = page.context().waitForEvent("page");
  await url.getByRole("button", { name: "Open in new tab" }).click();
  const opened = await tab;
  check((await result(page, "sign")).text === "sign_in: accept", "accept reached the TS server");
  await page.locator("#requests-ts [data-elicitation][data-mode=url][data-state=complete]").waitFor();
  check(opened.url().includes(`127.0.0.1:${tsPort}/signed-in`), `the card opened the server's page: ${opened.url()}`);
  check(true, "notifications/elicitation/complete ended the URL card's wait (data-state=complete)");
  await opened.close();

  // Cancel.
  await start(page, "cancel", "ts", "sign_in");
  const second = page.locator("#requests-ts [data-elicitation][data-mode=url]:not([data-state=complete])");
  await second.waitFor();
  await second.getByRole("button", { name: "Cancel" }).click();
  check((await result(page, "cancel")).text === "sign_in: cancel", "cancel reached the TS server");

  // Two pending at once, answered in reverse order: each answer reaches its own call.
  await start(page, "one", "ts", "every_field");
  await page.locator("#requests-ts [data-elicitation][data-mode=form]").first().waitFor();
  await start(page, "two", "ts", "every_field");
  const forms = page.locator("#requests-ts [data-elicitation][data-mode=form]");
  await forms.nth(1).waitFor();
  check((await evaluate(page, () => window.sdk.pending("ts"))) === 2, "two cards pending at once");
  await field(forms.nth(1), "name").fill("Second");
  await forms.nth(1).getByRole("button", { name: "Submit" }).click();
  const two = JSON.parse((await result(page, "two")).text);
  check((await evaluate(page, () => window.sdk.results.one)) === null, "the first call still waits after the second is answered");
  await field(forms.first(), "name").fill("First");
  await forms.first().getByRole("button", { name: "Submit" }).click();
  const one = JSON.parse((await result(page, "one")).text);
  check(one.content?.name === "First" && two.content?.name === "Second",
    `answers in reverse order reached their own calls: one=${one.content?.name} two=${two.content?.name}`);

  // The server withdraws its question (notifications/cancelled): the card goes.
  await start(page, "held", "ts", "held_question");
  await page.locator("#requests-ts [data-elicitation][data-mode=form]").waitFor();
  await start(page, "drop", "ts", "drop_question");
  check((await result(page, "drop")).text === "dropped 1", "drop_question withdrew the held question");
  check((await result(page, "held")).text === "held_question: withdrawn", "the server's held_question saw it withdrawn");
  await page.locator("#requests-ts [data-elicitation][data-mode=form]").waitFor({ state: "detached" });
  check((await evaluate(page, () => window.sdk.pending("ts"))) === 0, "the server's cancellation removed the card (extra.signal)");

  // Closing the client aborts what is still shown.
  await start(page, "closing", "ts", "every_field");
  await page.locator("#requests-ts [data-elicitation][data-mode=form]").waitFor();
  await evaluate(page, () => window.sdk.close("ts"));
  await page.locator("#requests-ts [data-elicitation][data-mode=form]").waitFor({ state: "detached" });
  check((await evaluate(page, () => window.sdk.pending("ts"))) === 0, "client.close() removes the cards still waiting");
}

async function againstPythonServer(page) {
  const info = await evaluate(page, (u) => window.sdk.connect("py", u, "by-hand"), pyUrl);
  check(info.protocol === "2025-11-25", `connected to the Python SDK server: ${JSON.stringify(info)}`);
  const forms = page.locator("#requests-py [data-elicitation][data-mode=form]");

  // Every field kind, the Python server's model checks the types strictly.
  await start(page, "all", "py", "all_fields");
  const form = forms.first();
  await form.waitFor();
  const named = await form.locator("[data-testid=requesting-server]").textContent();
  check(named.includes(info.server.name) && named.includes(`127.0.0.1:${pyPort}`), `the card names the Python server: ${named}`);
  await field(form, "name").fill("Grace Hopper");
  await field(form, "email").fill("grace@example.com");
  await field(form, "age").fill("85");
  await field(form, "rating").fill("4.5");
  await field(form, "subscribe").uncheck();
  await field(form, "colour").selectOption("blue");
  await field(form, "size").selectOption({ label: "Medium" });
  await field(form, "pet").selectOption({ label: "Dog" });
  await option(form, "ham").check();
  await option(form, "French").check();
  await field(form, "birthday").fill("1906-12-09");
  await form.getByRole("button", { name: "Submit" }).click();
  const all = await result(page, "all");
  const echoed = all.text?.startsWith("accepted ") ? JSON.parse(all.text.slice("accepted ".length)) : null;
  check(echoed !== null && same(
    { name: echoed.name, email: echoed.email, age: echoed.age, rating: echoed.rating, subscribe: echoed.subscribe,
      colour: echoed.colour, size: echoed.size, pet: echoed.pet, toppings: echoed.toppings,
      languages: echoed.languages, days: echoed.days, nickname: echoed.nickname, birthday: echoed.birthday },
    { name: "Grace Hopper", email: "grace@example.com", age: 85, rating: 4.5, subscribe: false, colour: "blue",
      size: "m", pet: "dog", toppings: ["ham"], languages: ["fr"], days: ["mon"], nickname: "Sam", birthday: "1906-12-09" },
  ), `every field kind reached the Python server: ${all.text ?? JSON.stringify(all)}`);

  // URL mode: accept goes at Open; confirm_deposit's completion (GET stream) ends the wait.
  await start(page, "pay", "py", "pay_deposit", { booking_id: "b1" });
  const url = page.locator("#requests-py [data-elicitation][data-mode=url]");
  await url.waitFor();
  const tab = page.context().waitForEvent("page");
  await url.getByRole("button", { name: "Open in new tab" }).click();
  await (await tab).close();
  check((await result(page, "pay")).text === "Complete the payment in your browser.", "accept reached the Python server");
  check((await url.getAttribute("data-state")) === "waiting", "the URL card waits after Open");
  await start(page, "confirm", "py", "confirm_deposit", { booking_id: "b1" });
  check((await result(page, "confirm")).text === "Deposit deposit-b1 confirmed.", "confirm_deposit ran");
  await page.locator("#requests-py [data-elicitation][data-mode=url][data-state=complete]").waitFor();
  check(true, "the Python server's completion notification ended the URL card's wait");

  // Decline and cancel.
  await start(page, "decline", "py", "delete_folder", { path: "/tmp/p" });
  await forms.first().waitFor();
  await forms.first().getByRole("button", { name: "Decline" }).click();
  check((await result(page, "decline")).text === "declined: folder not deleted", "decline reached the Python server");
  await start(page, "cancel", "py", "book_table", { date: "2025-12-25" });
  await forms.first().waitFor();
  await forms.first().getByRole("button", { name: "Cancel" }).click();
  check((await result(page, "cancel")).text === "cancelled: no table booked", "cancel reached the Python server");

  // Two pending at once, answered in reverse order.
  await start(page, "three", "py", "book_table", { date: "2025-12-25", party_size: 3 });
  await forms.first().waitFor();
  await start(page, "four", "py", "book_table", { date: "2025-12-25", party_size: 4 });
  await forms.nth(1).waitFor();
  const four = forms.filter({ hasText: "No tables for 4" });
  const three = forms.filter({ hasText: "No tables for 3" });
  await field(four, "accept_alternative").check();
  await field(four, "date").fill("2025-12-28");
  await four.getByRole("button", { name: "Submit" }).click();
  check((await result(page, "four")).text === "Booked a table for 4 on 2025-12-28.", "the second call's answer reached it first");
  check((await evaluate(page, () => window.sdk.results.three)) === null, "the first call still waits");
  await field(three, "accept_alternative").check();
  await three.getByRole("button", { name: "Submit" }).click();
  check((await result(page, "three")).text === "Booked a table for 3 on 2025-12-26.", "the first call got its own answer (the default date)");
  await evaluate(page, () => window.sdk.close("py"));
}

async function mcpClientFromThePackage(page) {
  await page.goto(`${origin}/client.html`);
  await page.waitForFunction(() => window.clientChecks !== undefined);
  const c = await evaluate(page, () => window.clientChecks);
  check(same(c.exportNames, ["McpClient", "compileSchema", "compileValidator", "completeElicitation", "default",
    "defineElements", "elicit", "elicitationHandler", "handleOAuthCallback", "initSync", "loadLocale", "releaseElicitation",
    "validateContent"]),
  `mcp-elicit/client exports McpClient, handleOAuthCallback and every export of mcp-elicit: ${c.exportNames.join(", ")}`);
  check(same(c.handlerCapabilities, { elicitation: { form: {}, url: {} } }) &&
    String(c.handlerCard).includes("From the client entry") && same(c.handlerAnswer, { action: "cancel" }),
  `mcp-elicit/client's elicitationHandler shows a card over its own wasm, dispose() cancels it: ${c.handlerCard}`);
  check(String(c.beforeInit).includes("before init()"), `McpClient.connect before init rejects in words: ${c.beforeInit}`);
  const info = await evaluate(page, (u) => window.host.connect(u), pyUrl);
  check(info.protocol === "2025-11-25" && info.tools.includes("book_table"),
    `McpClient from mcp-elicit/client connected to the Python SDK server: ${JSON.stringify(info)}`);
  const forms = page.locator("#requests [data-elicitation][data-mode=form]");
  await evaluate(page, () => window.host.start("booked", "book_table", { date: "2025-12-25", party_size: 2 }));
  await forms.first().waitFor();
  await field(forms.first(), "accept_alternative").check();
  await forms.first().getByRole("button", { name: "Submit" }).click();
  const booked = await page.waitForFunction(() => window.host.results.booked);
  const text = (await booked.jsonValue()).text;
  check(text === "Booked a table for 2 on 2025-12-26.", `McpClient's answer reached the Python server: ${text}`);
  const wasmLoaded = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((r) => new URL(r.name).pathname).filter((p) => p.endsWith(".wasm")),
  );
  check(wasmLoaded.length === 1 && wasmLoaded[0].includes("mcp_elicit_host_bg"),
    `mcp-elicit/client loads its own wasm alone: ${wasmLoaded.join(", ")}`);
  await evaluate(page, () => window.host.close());
}
