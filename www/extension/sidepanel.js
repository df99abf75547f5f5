// The side panel's script (a file: the extension's CSP forbids inline script and eval).
//
// "Server URL" and "Protocol" are kept in chrome.storage.local. On first run the field
// holds the demo server on loopback and nothing connects until the person presses
// Connect; once a server was saved, opening the panel connects to it again.
import init, { McpClient } from "./pkg/mcp_elicit_host.js";

/** What the field holds on first run: `scripts/demo`'s MCP server. */
const DEFAULT_SERVER = "http://127.0.0.1:8001/mcp";

/** The protocol choices of the select; anything else read from storage means Auto. */
const PROTOCOLS = ["auto", "2026-07-28", "2025-11-25"];

/** Hosts the manifest's `host_permissions` grant at install (any port). Any other host
 * is asked for at Connect (`optional_host_permissions`). */
const GRANTED_HOSTS = new Set(["127.0.0.1", "localhost"]);

const serverField = document.getElementById("server");
const protocolField = document.getElementById("protocol");
const status = document.querySelector("[data-testid=connection-status]");
const alertEl = document.querySelector("[data-testid=host-error]");
const resultEl = document.querySelector("[data-testid=host-result]");
const requestsEl = document.getElementById("requests");
const toolField = document.getElementById("tool");
const argsField = document.getElementById("args");
const callButton = document.querySelector("#run button[type=submit]");

// Loading the wasm module; a Connect pressed meanwhile waits for it.
const ready = init();
ready.catch((e) => {
  status.textContent = "not connected: the wasm module did not load: " + e.message;
});

let client = null;
// Counts Connect presses, so an older connection that finishes late never replaces a newer one.
let attempt = 0;

/** The endpoint typed in the field as a URL, or a sentence saying why it is not one. */
function endpoint(text) {
  let url;
  try {
    url = new URL(text.trim());
  } catch (_) {
    return { error: `"${text.trim()}" is not a URL; an MCP endpoint looks like ${DEFAULT_SERVER}.` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { error: `The server URL must start with https:// or http://, not ${url.protocol}` };
  }
  return { url };
}

/** The host permission `url` needs (match patterns cover every port). */
const access = (url) => ({ origins: [`${url.protocol}//${url.hostname}/*`] });

/** Asks for access to `url`'s host unless the manifest grants it already. Called straight
 * from the Connect press: Chrome asks the person only during a user gesture. */
function requestAccess(url) {
  if (GRANTED_HOSTS.has(url.hostname)) return Promise.resolve(true);
  return chrome.permissions.request(access(url)).catch(() => false);
}

/** Whether the extension may reach `url`'s host without CORS (no prompt: nothing pressed). */
function hasAccess(url) {
  if (GRANTED_HOSTS.has(url.hostname)) return Promise.resolve(true);
  return chrome.permissions.contains(access(url)).catch(() => false);
}

function setTools(tools) {
  const options = tools.map((tool) => {
    const option = document.createElement("option");
    option.value = tool.name;
    option.textContent = tool.name;
    if (typeof tool.description === "string") option.title = tool.description;
    return option;
  });
  toolField.replaceChildren(...options);
  toolField.disabled = options.length === 0;
  callButton.disabled = options.length === 0;
}

async function disconnect() {
  const old = client;
  client = null;
  setTools([]);
  if (old) {
    try {
      await old.close();
    } finally {
      old.free();
    }
  }
}

async function connect(url, protocol, granted) {
  const mine = ++attempt;
  alertEl.textContent = "";
  await disconnect();
  status.textContent = `connecting to ${url.href}…`;
  try {
    await ready;
  } catch (e) {
    status.textContent = "not connected: the wasm module did not load: " + e.message;
    return;
  }
  if (mine !== attempt) return;
  if (!(await granted)) {
    // Without the permission the browser applies CORS, which a server may still allow.
    alertEl.textContent =
      `The extension was not given access to ${url.host}; the server must allow ` +
      `this extension's origin (${location.origin}) by CORS.`;
  }
  // A fresh element per connection: the previous one's cards go with it.
  const slot = document.createElement("div");
  requestsEl.replaceChildren(slot);
  let connected;
  try {
    connected = await McpClient.connect(url.href, {
      container: slot,
      protocol,
      // Sign-in, when the server asks: the popup comes back to the extension's own
      // callback page (web_accessible_resources), which hands the result to this panel.
      // Not chrome.identity.launchWebAuthFlow: this way the extension runs the one sign-in
      // every host runs (its state, iss and PKCE checks, the card, the callback page),
      // needs no `identity` permission, and works the same in Firefox.
      auth: { redirectUrl: chrome.runtime.getURL("oauth-callback.html") },
    });
  } catch (e) {
    if (mine !== attempt) return;
    status.textContent = "not connected: " + e.message;
    alertEl.textContent = e.message;
    return;
  }
  if (mine !== attempt) {
    connected.close().finally(() => connected.free());
    return;
  }
  client = connected;
  status.textContent = `connected · ${client.protocolVersion} · ${url.host}`;
  try {
    setTools(await client.listTools());
  } catch (e) {
    if (mine === attempt) alertEl.textContent = e.message;
  }
}

document.getElementById("connect").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const { url, error } = endpoint(serverField.value);
  if (error) {
    alertEl.textContent = error;
    return;
  }
  const protocol = PROTOCOLS.includes(protocolField.value) ? protocolField.value : "auto";
  // Before anything is awaited: the permission prompt needs this press.
  const granted = requestAccess(url);
  chrome.storage.local.set({ server: url.href, protocol }).catch((e) => {
    alertEl.textContent = "The server URL could not be saved: " + e.message;
  });
  connect(url, protocol, granted);
});

document.getElementById("run").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  alertEl.textContent = "";
  resultEl.textContent = "";
  delete resultEl.dataset.done;
  if (!client) {
    alertEl.textContent = "Not connected to a server.";
    return;
  }
  let args;
  try {
    args = JSON.parse(argsField.value || "{}");
  } catch (e) {
    alertEl.textContent = "The arguments are not valid JSON: " + e.message;
    return;
  }
  // A call of a connection replaced meanwhile shows nothing: its server is no longer the one named above.
  const caller = client;
  try {
    const result = await caller.callTool(toolField.value, args);
    if (caller !== client) return;
    resultEl.textContent = JSON.stringify(result, null, 2);
    resultEl.dataset.done = "true";
  } catch (e) {
    if (caller === client) alertEl.textContent = e.message;
  }
});

let saved = { server: null, protocol: "auto" };
try {
  saved = await chrome.storage.local.get(saved);
} catch (e) {
  alertEl.textContent = "The saved server could not be read: " + e.message;
}
protocolField.value = PROTOCOLS.includes(saved.protocol) ? saved.protocol : "auto";
if (typeof saved.server === "string") {
  serverField.value = saved.server;
  const { url } = endpoint(saved.server);
  if (url) connect(url, protocolField.value, hasAccess(url));
} else {
  serverField.value = DEFAULT_SERVER;
  status.textContent = "not connected: press Connect";
}
document.getElementById("settings").disabled = false;
