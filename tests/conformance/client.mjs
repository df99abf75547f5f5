#!/usr/bin/env node
// The conformance suite's "client command": drives McpClient in headless Chromium.
//
//   conformance client --command "node tests/conformance/client.mjs" --scenario <name>
//
// The CLI starts a scenario server and runs this with its URL as the last argument, the
// scenario's name in MCP_CONFORMANCE_SCENARIO, the protocol version it tests in
// MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.x only; 0.1.x tests 2025-11-25) and, for some
// scenarios, what to call or which client to be in MCP_CONFORMANCE_CONTEXT (JSON).
//
// What a browser host would do, and nothing the page could not do itself:
// - www/ is served on a loopback port, and the page is www/host.html (the README's
//   McpClient example), which connects on load with `?server=&protocol=` (and, for an
//   auth/ scenario, `auth=1` and the client's public settings; a client secret the
//   scenario gives is set by the page's init script, never in the address);
// - the page's browser context has a forward proxy (proxy.mjs) that answers CORS
//   preflights and adds CORS headers to every answer (the suite's servers send none, and
//   a page may only read cross-origin answers that have them) without changing any URL:
//   the scenario's metadata name its servers' real addresses, and the client checks them;
// - the scenario's requests are made on the page's `window.mcpClient` (listTools,
//   callTool, ...), and what the page asks of the person is done as a person would:
//   Submit on a form card (its defaults pre-filled), Open on a URL card, and Sign in on a
//   sign-in card, whose popup goes to the authorization server, which sends it straight
//   back to the callback page (www/oauth-callback.html), which hands the result to the
//   page and closes. A sign-in card that says why its sign-in did not finish (a refused
//   or mismatched answer) is cancelled: the person gives up, as the refusing scenarios
//   expect.
//
// Exit code 0 when every step of the scenario's plan resolved, 1 otherwise (the CLI counts
// a non-zero exit as a failure unless the scenario expects client errors; those are
// judged by their checks alone). Diagnostics go to stderr, which the CLI prints when a
// scenario fails.
//
// Everything this starts (the static server, the proxy, the browser context with its
// popups, or a browser of its own) is ended before it exits, also on failure and on the
// CLI's SIGTERM at its timeout.
//
// Environment:
//   MCP_ELICIT_PROTOCOL   overrides the `protocol` option (e.g. `auto`); default: the
//                         version the CLI tests
//   CHROMIUM              the browser binary (default /usr/bin/chromium)
//   MCP_ELICIT_BROWSER_WS a running browser's endpoint to work in (browser.mjs; what
//                         scripts/conformance starts for a run), else one of its own
//   MCP_ELICIT_WWW        the directory to serve (default: the repository's www/)
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clientBrowser } from "./browser.mjs";
import { startCorsProxy } from "./proxy.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WWW = path.resolve(process.env.MCP_ELICIT_WWW ?? path.join(HERE, "..", "..", "www"));
// How often the card answerer looks for a new pending card. A card waits at most this
// long for its click; well under any scenario's own timeouts.
const CARD_POLL_MS = 50;
// How long the page may take to load the package and connect before the run fails.
// The CLI's own per-scenario timeout is 30 s; this leaves the rest for the plan.
const CONNECT_TIMEOUT_MS = 15_000;
// How long one click on a card's button may wait for the button to be actionable; beyond
// it the card is looked up again (it may have gone: its request ended).
const CLICK_TIMEOUT_MS = 5_000;
// A sign-in popup goes to the authorization server, is sent back to the callback page at
// once, and closes: beyond this it is stuck, and the person closes it.
const POPUP_TIMEOUT_MS = 10_000;
// After its popup closed, a sign-in card either goes away (the sign-in went on) or says
// why not. One that does neither within this is reported and cancelled.
const SIGN_IN_SETTLE_MS = 10_000;
// Sign-ins a person does for one run at most: the suite's plans need 2 (step-up, a
// changed authorization server), scope-retry-limit counts that the client stops at 3.
const MAX_SIGN_INS = 6;
// After the person gave up on a sign-in, how long the page has to end the waiting call.
const GIVE_UP_GRACE_MS = 3_000;
// How long each step of the ending (context, browser, proxy, static server) may take.
const END_STEP_MS = 3_000;
// The client metadata document URL the suite's auth/basic-cimd scenario expects as the
// client_id (a host with such a document passes it in every scenario; the client uses
// it only where the authorization server supports it).
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

// Each line says when, in seconds since the client started.
const STARTED = Date.now();
function log(...parts) {
  console.error(`[client] ${((Date.now() - STARTED) / 1000).toFixed(2)}s`, ...parts);
}

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server.address().port));
  });
}

// Serves the files under `root` (GET/HEAD only, never outside it).
function staticServer(root) {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if ((req.method !== "GET" && req.method !== "HEAD") || !file.startsWith(root + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, {
        "content-type": MIME[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function firstLine(err) {
  return String(err?.message ?? err).split("\n")[0];
}

// An elicitation card waiting for the person, answered: Submit on a form (Confirm on a
// form without fields), Open on a URL.
async function answerElicitation(page, answered) {
  const card = page.locator('[data-elicitation][data-state="pending"]').first();
  if ((await card.count()) === 0) return false;
  const mode = await card.getAttribute("data-mode", { timeout: CLICK_TIMEOUT_MS });
  const key = await card.getAttribute("data-elicitation", { timeout: CLICK_TIMEOUT_MS });
  const fields = mode === "url" ? 0 : await card.locator("[part~=field]").count();
  const button = mode === "url" ? "Open in new tab" : fields === 0 ? "Confirm" : "Submit";
  await card.getByRole("button", { name: button, exact: true }).click({ timeout: CLICK_TIMEOUT_MS });
  answered.push(`${mode}:${key}`);
  log(`answered a ${mode} card (${key}) with ${button}`);
  return true;
}

// A sign-in card: Sign in (its popup is watched by `person.popup`), or, on the card we
// clicked already, waiting for it to go away; a card that says why its sign-in did not
// finish, or that stays without a word, is cancelled (the person gives up).
async function answerSignIn(page, person) {
  const popup = person.popup;
  if (popup && !popup.closed) {
    if (Date.now() - popup.openedAt > POPUP_TIMEOUT_MS) {
      const text = ((await popup.page.textContent("body").catch(() => "")) ?? "").replace(/\s+/g, " ").trim();
      log(`sign-in popup still open after ${POPUP_TIMEOUT_MS} ms at ${popup.where()}: ${text.slice(0, 300)}; closing it`);
      await popup.page.close().catch(() => {});
      popup.closed = true;
      popup.closedAt = Date.now();
    }
    return false;
  }
  if (person.gaveUp) return false;
  // What the person sees, in one look (a card may go between two looks).
  const seen = await page.evaluate(() => {
    const el = document.querySelector("[data-testid=sign-in]");
    if (!el) return null;
    const buttons = [...el.querySelectorAll("button")].map((b) => (b.textContent ?? "").trim());
    return {
      mark: el.getAttribute("data-conformance-sign-in"),
      note: (el.querySelector("[data-testid=sign-in-note]")?.textContent ?? "").trim(),
      text: (el.innerText ?? "").replace(/\s+/g, " ").trim(),
      signIn: buttons.some((name) => name.startsWith("Sign in")),
    };
  });
  if (!seen) return false;
  const card = page.getByTestId("sign-in").first();
  if (seen.mark !== null) {
    // The card of a sign-in we did: it goes away when the sign-in goes on.
    const since = popup?.closedAt ?? 0;
    if (!seen.note && Date.now() - since < SIGN_IN_SETTLE_MS) return false;
    log(
      seen.note
        ? `sign-in ${seen.mark} did not finish; the card says: ${seen.note}`
        : `sign-in ${seen.mark}: the card still waits ${SIGN_IN_SETTLE_MS} ms after its popup closed: ${seen.text}`,
    );
    await giveUp(card, person);
    return true;
  }
  if (person.signIns >= MAX_SIGN_INS) {
    log(`a sign-in card after ${person.signIns} sign-ins: ${seen.text}`);
    await giveUp(card, person);
    return true;
  }
  if (!seen.signIn) {
    // Being drawn or taken down: looked at again, until it has stayed so too long.
    person.oddSince ||= Date.now();
    if (Date.now() - person.oddSince < SIGN_IN_SETTLE_MS) return false;
    log(`a sign-in card without a Sign in button for ${SIGN_IN_SETTLE_MS} ms: ${seen.text}`);
    await giveUp(card, person);
    return true;
  }
  person.oddSince = 0;
  const n = person.signIns + 1;
  log(`sign-in ${n}: ${seen.text}`);
  await page.evaluate((mark) => document.querySelector("[data-testid=sign-in]")?.setAttribute("data-conformance-sign-in", mark), String(n));
  person.expectPopup = n;
  const opened = page.waitForEvent("popup", { timeout: CLICK_TIMEOUT_MS }).catch(() => null);
  await card.getByRole("button", { name: /^Sign in/ }).first().click({ timeout: CLICK_TIMEOUT_MS });
  person.signIns = n;
  if (!(await opened)) {
    person.expectPopup = 0;
    log(`sign-in ${n}: no popup opened (the page may redirect instead)`);
  }
  return true;
}

// The person does not want to (or cannot) sign in: Cancel on the card, and the page has
// GIVE_UP_GRACE_MS to end the call that waited.
async function giveUp(card, person) {
  person.gaveUp = true;
  const cancel = card.getByRole("button", { name: "Cancel", exact: true });
  await cancel.click({ timeout: CLICK_TIMEOUT_MS }).then(
    () => log("cancelled the sign-in card"),
    (err) => log(`Cancel not clicked: ${firstLine(err)}`),
  );
  person.onGiveUp();
}

// Does what the page asks of the person until `stop.done`: answers elicitation cards and
// sign-in cards.
async function answerPerson(page, stop, answered, person) {
  while (!stop.done) {
    let handled = false;
    try {
      handled = (await answerSignIn(page, person)) || (await answerElicitation(page, answered));
    } catch (err) {
      // The card went away between the look-up and the click (its request ended): look again.
      if (!stop.done) log(`card not answered: ${firstLine(err)}`);
    }
    if (!handled) await sleep(CARD_POLL_MS);
  }
}

// Arguments for a tool from its input schema: each required property's default, else
// its first enum value, else a plain value of its type.
function sampleArguments(schema) {
  const args = {};
  const properties = schema?.properties ?? {};
  for (const name of schema?.required ?? []) {
    const p = properties[name] ?? {};
    if ("default" in p) args[name] = p.default;
    else if (Array.isArray(p.enum) && p.enum.length > 0) args[name] = p.enum[0];
    else if (p.type === "number" || p.type === "integer") args[name] = Object.keys(args).length + 2;
    else if (p.type === "boolean") args[name] = true;
    else if (p.type === "object") args[name] = {};
    else if (p.type === "array") args[name] = [];
    else args[name] = "conformance";
  }
  return args;
}

async function callEveryTool(mcp) {
  const tools = await mcp.listTools();
  for (const tool of tools) {
    await mcp.callTool(tool.name, sampleArguments(tool.inputSchema));
  }
}

// What each scenario expects the client to do (read from the scenario's source). A
// scenario not named here gets `defaultPlan`.
const PLANS = {
  initialize: async (mcp) => {
    await mcp.listTools();
  },
  "request-metadata": async (mcp) => {
    await mcp.listTools();
  },
  "json-schema-ref-no-deref": async (mcp) => {
    await mcp.listTools();
  },
  "json-schema-2020-12-preservation": async (mcp) => {
    const tools = await mcp.listTools();
    const focal = tools.find((t) => t.name !== "json_schema_echo");
    if (!focal) throw new Error("the server listed no tool besides json_schema_echo");
    await mcp.callTool("json_schema_echo", { schema: focal.inputSchema });
  },
  "http-standard-headers": async (mcp) => {
    await callEveryTool(mcp);
    const resources = await mcp.listResources();
    for (const resource of resources) await mcp.readResource(resource.uri);
    const prompts = await mcp.listPrompts();
    for (const prompt of prompts) await mcp.getPrompt(prompt.name, {});
  },
};

async function defaultPlan(mcp, context) {
  if (Array.isArray(context?.toolCalls)) {
    await mcp.listTools();
    for (const call of context.toolCalls) await mcp.callTool(call.name, call.arguments ?? {});
    return;
  }
  await callEveryTool(mcp);
}

// The page's McpClient, as an object whose methods run in the page and log each step.
function pageClient(page) {
  const method = (name) => async (...args) => {
    const shown = JSON.stringify(args);
    log(`${name}(${shown.length > 200 ? shown.slice(0, 200) + "…" : shown.slice(1, -1)})`);
    const result = await page.evaluate(([m, a]) => window.mcpClient[m](...a), [name, args]);
    const text = JSON.stringify(result) ?? "undefined";
    log(`  -> ${text.length > 300 ? text.slice(0, 300) + "…" : text}`);
    return result;
  };
  const names = ["listTools", "callTool", "listPrompts", "getPrompt", "listResources", "readResource", "listResourceTemplates", "close"];
  return Object.fromEntries(names.map((n) => [n, method(n)]));
}

// The page's options for this scenario: the query (public settings) and what the page's
// init script sets before it loads (secrets; see www/host.html).
function hostOptions(scenario, context, serverUrl, protocol) {
  const query = new URLSearchParams({ server: serverUrl, protocol });
  const secret = {};
  if (scenario.startsWith("auth/")) {
    query.set("auth", "1");
    query.set("clientMetadataUrl", CLIENT_METADATA_URL);
    if (typeof context?.client_id === "string") query.set("clientId", context.client_id);
    if (typeof context?.client_secret === "string") secret.auth = { clientSecret: context.client_secret };
  }
  return { query, secret };
}

async function main() {
  const serverUrl = process.argv[process.argv.length - 1];
  if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
    log("usage: client.mjs <server URL>");
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const protocol = process.env.MCP_ELICIT_PROTOCOL ?? process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25";
  let context = null;
  if (process.env.MCP_CONFORMANCE_CONTEXT) {
    try {
      context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT);
    } catch {
      log("MCP_CONFORMANCE_CONTEXT is not JSON; ignored");
    }
  }
  if (!fs.existsSync(path.join(WWW, "pkg", "mcp_elicit_host.js"))) {
    log(`${WWW}/pkg is missing: build it with scripts/build-www`);
    return 1;
  }

  // What is started is ended in `finally`, or by `ending` on the CLI's SIGTERM.
  const started = { www: null, proxy: null, browser: null, context: null };
  // Each step is bounded: one that hangs is named, and the exit ends what is left.
  const bounded = (what, promise) =>
    Promise.race([
      Promise.resolve(promise).catch((err) => log(`${what}: ${firstLine(err)}`)),
      sleep(END_STEP_MS).then(() => log(`${what} did not end within ${END_STEP_MS} ms`)),
    ]);
  const end = async () => {
    if (started.context) await bounded("closing the browser context", started.context.close());
    if (started.browser) await bounded("closing the browser", started.browser.close());
    if (started.proxy) await bounded("closing the proxy", started.proxy.close());
    if (started.www) {
      started.www.closeAllConnections();
      await bounded("closing the static server", new Promise((resolve) => started.www.close(resolve)));
    }
  };
  process.once("SIGTERM", () => {
    log("SIGTERM: ending");
    end().finally(() => process.exit(1));
  });

  const stop = { done: false };
  const answered = [];
  let failed = false;
  try {
    started.www = staticServer(WWW);
    const wwwPort = await listen(started.www);
    started.proxy = await startCorsProxy({ log });
    log(`scenario ${scenario || "(unnamed)"}, protocol ${protocol}, ${serverUrl} through the proxy ${started.proxy.url}`);
    started.browser = await clientBrowser();
    started.context = await started.browser.newContext({ proxy: { server: started.proxy.url } });
    // No look or click waits for long: a card may go at any time (its request ended).
    started.context.setDefaultTimeout(CLICK_TIMEOUT_MS);
    const page = await started.context.newPage();

    const { query, secret } = hostOptions(scenario, context, serverUrl, protocol);
    if (Object.keys(secret).length > 0) {
      await page.addInitScript((given) => {
        window.mcpElicitHostOptions = given;
      }, secret);
    }

    // The person: a sign-in popup is watched until it closes; any other popup (Open on a
    // URL card opens a tab) is looked at and closed.
    let onGiveUp = () => {};
    const gaveUp = new Promise((resolve) => {
      onGiveUp = resolve;
    });
    const person = { signIns: 0, popup: null, expectPopup: 0, oddSince: 0, gaveUp: false, onGiveUp: () => onGiveUp() };
    page.on("popup", (p) => {
      if (!person.expectPopup) {
        p.close().catch(() => {});
        return;
      }
      const n = person.expectPopup;
      person.expectPopup = 0;
      const watched = { page: p, openedAt: Date.now(), closed: false, closedAt: 0 };
      // Where the popup is, without its query (a code is a credential).
      watched.where = () => {
        try {
          const u = new URL(p.url());
          return `${u.origin}${u.pathname}`;
        } catch {
          return p.url().split("?")[0];
        }
      };
      person.popup = watched;
      log(`sign-in ${n} popup opened: ${watched.where()}`);
      p.on("framenavigated", (frame) => {
        if (frame === p.mainFrame()) log(`sign-in ${n} popup: ${watched.where()}`);
      });
      p.on("console", (m) => log(`sign-in ${n} popup ${m.type()}: ${m.text()}`));
      p.on("pageerror", (e) => log(`sign-in ${n} popup error: ${e.message}`));
      p.on("close", () => {
        watched.closed = true;
        watched.closedAt = Date.now();
        log(`sign-in ${n} popup closed`);
      });
    });
    page.on("console", (m) => log(`page ${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => log(`page error: ${e.message}`));

    await page.goto(`http://127.0.0.1:${wwwPort}/host.html?${query}`);
    // The page may ask the person to sign in while it connects.
    const answerer = answerPerson(page, stop, answered, person);
    const graceAfterGiveUp = gaveUp.then(() => sleep(GIVE_UP_GRACE_MS)).then(() => {
      throw new Error(`the page did not end the waiting call within ${GIVE_UP_GRACE_MS} ms of Cancel`);
    });
    graceAfterGiveUp.catch(() => {});
    try {
      const status = page.getByTestId("connection-status");
      await Promise.race([
        page.waitForFunction(
          () => window.mcpClient !== undefined || /^not connected:/.test(document.querySelector("[data-testid=connection-status]")?.textContent ?? ""),
          null,
          { timeout: CONNECT_TIMEOUT_MS },
        ),
        graceAfterGiveUp,
      ]);
      log(`page: ${await status.textContent()}`);
      if (!(await page.evaluate(() => window.mcpClient !== undefined))) {
        failed = true;
      } else {
        const mcp = pageClient(page);
        try {
          await Promise.race([(PLANS[scenario] ?? defaultPlan)(mcp, context), graceAfterGiveUp]);
        } catch (err) {
          failed = true;
          log(`step failed: ${firstLine(err)}`);
        }
        if (!person.gaveUp) await mcp.close().catch((err) => log(`close failed: ${firstLine(err)}`));
      }
    } catch (err) {
      failed = true;
      log(`not connected: ${firstLine(err)}`);
    } finally {
      stop.done = true;
      await answerer;
    }
    log(`cards answered: ${answered.length ? answered.join(", ") : "none"}; sign-ins: ${person.signIns}${person.gaveUp ? " (then cancelled)" : ""}`);
    log(`proxy: ${started.proxy.stats.requests} requests forwarded, ${started.proxy.stats.preflights} preflights answered`);
  } finally {
    await end();
  }
  log(`done: exit ${failed ? 1 : 0}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err?.stack ?? String(err));
    process.exit(1);
  },
);
