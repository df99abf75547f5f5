// A host built on the official TypeScript SDK's Client, bundled with esbuild together with
// the installed mcp-elicit: elicitationHandler shows the SDK's elicitations as our cards.
// drive-sdk.mjs connects it to SDK servers through window.sdk and reads window.checks (what
// the handler does on its own, before any server is involved).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import init, { elicitationHandler } from "mcp-elicit";
import wasmUrl from "mcp-elicit/mcp_elicit_web_bg.wasm";
import "mcp-elicit/style.css";

const checks = {};
const local = document.getElementById("local");
const form = (message) => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties: { ok: { type: "boolean", title: "OK" } } } },
});
// What a promise has settled with once the microtasks queued so far have run (a
// macrotask runs only after them), or "still waiting": a handler that fails to settle
// shows as a failed check instead of hanging the page.
const settledNow = (promise) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 0))]);

const failure = async (promise) => {
  try {
    return { resolved: await settledNow(promise) };
  } catch (e) {
    return { code: e.code, message: String(e.message) };
  }
};

// Before init: a request is refused in words (the SDK sends it as a JSON-RPC error).
checks.beforeInit = await failure(elicitationHandler({ container: local }).handleRequest(form("early")));
try {
  elicitationHandler({ container: "#local" });
  checks.badContainer = null;
} catch (e) {
  checks.badContainer = String(e.message);
}

await init({ module_or_path: new URL(wasmUrl, import.meta.url) });

{
  const h = elicitationHandler({ container: local, serverName: "Local", serverHost: "local.example" });
  checks.capabilities = h.capabilities;
  checks.task = await failure(h.handleRequest({ method: "elicitation/create", params: { ...form("t").params, task: {} } }));
  checks.notParams = await failure(h.handleRequest({ method: "elicitation/create", params: { message: 1 } }));
  checks.cardsAfterRefusals = local.querySelectorAll("[data-elicitation]").length;

  // Already aborted: no card at all.
  const gone = new AbortController();
  gone.abort();
  checks.preAborted = await settledNow(h.handleRequest(form("gone"), { signal: gone.signal }));
  checks.cardsAfterPreAborted = local.querySelectorAll("[data-elicitation]").length;

  // Aborted while shown: the card goes, the handler settles `cancel`.
  const later = new AbortController();
  const answer = h.handleRequest(form("later"), { signal: later.signal });
  checks.shownBeforeAbort = local.querySelectorAll("[data-elicitation]").length;
  checks.named = local.querySelector("[data-testid=requesting-server]")?.textContent ?? null;
  const first = local.firstElementChild;
  later.abort();
  checks.abortedAnswer = await settledNow(answer);
  checks.cardsAfterAbort = local.querySelectorAll("[data-elicitation]").length;
  checks.pendingAfterAbort = h.pending;

  // The next card reuses the element the aborted one had (mounts stay at the peak shown).
  const again = h.handleRequest(form("again"));
  checks.reusedElement = local.children.length === 1 && local.firstElementChild === first;
  h.dispose();
  checks.disposedAnswer = await settledNow(again);
  checks.cardsAfterDispose = local.querySelectorAll("[data-elicitation]").length;

  // MAX_PENDING_CARDS (256) waiting at once; the next is refused with -32603 and a notice.
  const many = [];
  for (let i = 0; i < 256; i++) many.push(h.handleRequest(form(`q${i}`)));
  checks.pendingAtLimit = h.pending;
  checks.overLimit = await failure(h.handleRequest(form("one too many")));
  checks.refusedNotice = local.querySelector("[data-testid=cards-refused]")?.textContent ?? null;
  h.dispose();
  const answers = await settledNow(Promise.all(many));
  checks.manyAnswers = Array.isArray(answers) ? [...new Set(answers.map((r) => r.action))] : answers;
  checks.childrenAfterDispose = local.children.length;

  // MAX_HELD_PARAMS_CHARS (32 MiB of params JSON): a second 17 MiB form is refused.
  const big = (n) => form("x".repeat(n));
  const fits = h.handleRequest(big(17 * 1024 * 1024));
  checks.tooLarge = await failure(h.handleRequest(big(17 * 1024 * 1024)));
  checks.tooLargeNotice = local.querySelector("[data-testid=cards-too-large]")?.textContent ?? null;
  h.dispose();
  checks.fitsAnswer = await settledNow(fits);
}

// URL cards for drive-sdk.mjs to open (MAX_KEPT_URL_CARDS): window.keep.ask(n) shows n,
// their answers land in window.keep.answers.
{
  const container = document.createElement("div");
  container.id = "kept";
  document.body.append(container);
  const h = elicitationHandler({ container, serverHost: "kept.example" });
  const answers = [];
  window.keep = {
    answers,
    ask(n, url) {
      for (let i = 0; i < n; i++) {
        const params = { mode: "url", message: `flow ${i}`, url, elicitationId: `flow-${i}` };
        h.handleRequest({ method: "elicitation/create", params }).then((r) => answers.push(r.action));
      }
    },
    complete: (id) => h.handleComplete({ method: "notifications/elicitation/complete", params: { elicitationId: id } }),
  };
}
window.checks = checks;
document.getElementById("checks").textContent = JSON.stringify(checks);

// One SDK Client per server, its cards in a section of their own.
const connections = new Map();
const results = {};

async function connect(name, url, how) {
  const container = document.createElement("section");
  container.id = `requests-${name}`;
  document.body.append(container);
  const client = new Client({ name: "mcp-elicit-sdk-test", version: "1.0.0" });
  const elicitation = elicitationHandler({ container, serverUrl: url, client });
  if (how === "install") {
    elicitation.install(client, { ElicitRequestSchema, ElicitationCompleteNotificationSchema });
  } else {
    client.registerCapabilities(elicitation.capabilities);
    client.setRequestHandler(ElicitRequestSchema, elicitation.handleRequest);
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, elicitation.handleComplete);
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  connections.set(name, { client, elicitation });
  return { server: client.getServerVersion(), protocol: client.transport?.protocolVersion ?? null };
}

// Starts a tool call and returns at once; its outcome lands in results[id].
function start(id, name, tool, args = {}) {
  const { client } = connections.get(name);
  results[id] = null;
  client.callTool({ name: tool, arguments: args }).then(
    (r) => {
      results[id] = { text: r.content.map((c) => c.text ?? "").join(""), isError: r.isError === true };
    },
    (e) => {
      results[id] = { error: String(e && e.message) };
    },
  );
}

window.sdk = {
  connect,
  start,
  results,
  pending: (name) => connections.get(name).elicitation.pending,
  close: (name) => connections.get(name).client.close(),
};
window.sdkReady = true;
