#!/usr/bin/env node
// The conformance suite's "client command": drives McpClient in headless Chromium.
//
//   conformance client --command "node tests/conformance/client.mjs" --scenario <name>
//
// The CLI starts a scenario server and runs this with its URL as the last argument, the
// scenario's name in MCP_CONFORMANCE_SCENARIO, the protocol version it tests in
// MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.x only; 0.1.x tests 2025-11-25) and, for some
// scenarios, what to call in MCP_CONFORMANCE_CONTEXT (JSON).
//
// What a browser host would do, and nothing the page could not do itself:
// - www/ is served on a loopback port, and the page is www/host.html (the README's
//   McpClient example), which connects on load with `?server=&protocol=`;
// - the scenario server is reached through a CORS front on another port (its servers
//   send no CORS headers, and a page may only read cross-origin answers that have them);
//   the front forwards every request and streams every answer, adding only CORS headers;
// - the scenario's requests are made on the page's `window.mcpClient` (listTools,
//   callTool, ...), and every elicitation card that appears is answered the way a person
//   would: Submit on a form (its defaults pre-filled), Open on a URL card.
//
// Exit code 0 when every step of the scenario's plan resolved, 1 otherwise (the CLI counts
// a non-zero exit as a failure unless the scenario expects client errors). Diagnostics go
// to stderr, which the CLI prints when a scenario fails.
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

function log(...parts) {
  console.error("[client]", ...parts);
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

// Hop-by-hop headers are the front's own business on each of its two connections.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

// Forwards every request to `upstream` (same path and query) and streams the answer back
// as it arrives (SSE included), adding the CORS headers a browser needs: preflights are
// answered here, every answer header is exposed to the page. When either side closes,
// the other is closed too, so an aborted stream reaches the scenario server.
function corsFront(upstream) {
  return http.createServer((req, res) => {
    const cors = { "access-control-allow-origin": req.headers.origin ?? "*", vary: "Origin" };
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    const target = new URL(req.url ?? "/", upstream);
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers.host = target.host;
    const up = http.request(target, { method: req.method, headers }, (answer) => {
      const out = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name)) out[name] = value;
      }
      const expose = Object.keys(out).join(", ");
      res.writeHead(answer.statusCode ?? 502, { ...out, ...cors, "access-control-expose-headers": expose });
      res.flushHeaders();
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    up.on("error", (err) => {
      if (res.headersSent) {
        res.destroy();
      } else {
        res.writeHead(502, { ...cors, "content-type": "text/plain" }).end(`CORS front: ${err.message}`);
      }
    });
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
}

// Answers every elicitation card that is waiting for the person, until `stop.done`.
async function answerCards(page, stop, answered) {
  while (!stop.done) {
    const card = page.locator('[data-elicitation][data-state="pending"]').first();
    let handled = false;
    try {
      if ((await card.count()) > 0) {
        const mode = await card.getAttribute("data-mode");
        const key = await card.getAttribute("data-elicitation");
        const button = mode === "url" ? "Open in new tab" : "Submit";
        await card.getByRole("button", { name: button, exact: true }).click({ timeout: CLICK_TIMEOUT_MS });
        answered.push(`${mode}:${key}`);
        log(`answered a ${mode} card (${key}) with ${button}`);
        handled = true;
      }
    } catch (err) {
      // The card went away between the look-up and the click (its request ended): look again.
      if (!stop.done) log(`card not answered: ${err.message.split("\n")[0]}`);
    }
    if (!handled) await new Promise((resolve) => setTimeout(resolve, CARD_POLL_MS));
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

  const upstream = new URL(serverUrl);
  const www = staticServer(WWW);
  const front = corsFront(upstream.origin);
  const wwwPort = await listen(www);
  const frontPort = await listen(front);
  const endpoint = `http://127.0.0.1:${frontPort}${upstream.pathname}${upstream.search}`;
  log(`scenario ${scenario || "(unnamed)"}, protocol ${protocol}, ${serverUrl} via ${endpoint}`);

  const browser = await clientBrowser();
  const stop = { done: false };
  const answered = [];
  let failed = false;
  try {
    const page = await browser.newPage();
    // Open on a URL card opens a tab; the person would look at it and close it.
    page.on("popup", (p) => {
      p.close().catch(() => {});
    });
    page.on("console", (m) => log(`page ${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => log(`page error: ${e.message}`));
    const query = new URLSearchParams({ server: endpoint, protocol });
    await page.goto(`http://127.0.0.1:${wwwPort}/host.html?${query}`);
    const status = page.getByTestId("connection-status");
    await page.waitForFunction(
      () => window.mcpClient !== undefined || /^not connected:/.test(document.querySelector("[data-testid=connection-status]")?.textContent ?? ""),
      null,
      { timeout: CONNECT_TIMEOUT_MS },
    );
    const statusText = await status.textContent();
    log(`page: ${statusText}`);
    if (!(await page.evaluate(() => window.mcpClient !== undefined))) return 1;

    const answerer = answerCards(page, stop, answered);
    const mcp = pageClient(page);
    try {
      await (PLANS[scenario] ?? defaultPlan)(mcp, context);
    } catch (err) {
      failed = true;
      log(`step failed: ${err.message.split("\n")[0]}`);
    } finally {
      stop.done = true;
      await answerer;
    }
    await mcp.close().catch((err) => log(`close failed: ${err.message.split("\n")[0]}`));
    log(`cards answered: ${answered.length ? answered.join(", ") : "none"}`);
  } finally {
    await browser.close().catch(() => {});
    www.closeAllConnections();
    front.closeAllConnections();
    www.close();
    front.close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(err?.stack ?? String(err));
    process.exit(1);
  },
);
