// The JS of the web crate's browser tests (tests/all), one module for the test binary, in
// one section per Rust file that imports from it. One module, not one `inline_js` per file:
// the test page imports every snippet module at once, and wasm-bindgen-test-runner's file
// server can leave a request unanswered when a page opens more connections at once than it
// has idle threads (see `wasm_test` in scripts/test). ui_support keeps its own inline
// module: the demo's and the Leptos example's tests include that file too, and a module
// path is taken from the including crate's root.

// --- js_boundary.rs: the nasty values a host hands over ------------------------------------

export function cyclicParams() {
  const p = { message: "hi", requestedSchema: { type: "object", properties: {} } };
  p.requestedSchema.self = p;
  return p;
}
export function getterParams() {
  const p = { message: "hi" };
  Object.defineProperty(p, "requestedSchema", { enumerable: true, get() { throw new Error("getter says no"); } });
  return p;
}
export function proxyParams() {
  return new Proxy({ message: "hi" }, { ownKeys() { throw new Error("trap says no"); } });
}
export function cyclicRoots(container) {
  const root = { uri: "file:///home/me" };
  root.again = [root];
  return { container, roots: [root] };
}
export function withUndefined() { return { a: 1, b: undefined, c: [{ d: undefined }] }; }
export function hostilePromise() {
  const p = Promise.resolve({ role: "assistant" });
  Object.defineProperty(p, "constructor", { get() { throw new Error("constructor says no"); } });
  return p;
}
// A modern server (the handler for `fakeFetch`) whose results, tool list and sampling
// params hold `hostile` (numbers beyond 2^53, 1e400 and `__proto__` keys), in a result
// `callTool` text given by the test. Its answers are written as text, not
// `JSON.stringify`ed, so the hostile numbers and keys reach the client as written.
export function hostileServer(hostile, callResult, tool) {
  window.__sampled = [];
  return async (req) => {
    const msg = JSON.parse(await req.text());
    const p = msg.params || {};
    const reply = (body) => new Response('{"jsonrpc":"2.0","id":' + JSON.stringify(msg.id) + ',' + body + '}',
      { status: 200, headers: { "content-type": "application/json" } });
    const result = (text) => reply('"result":' + text);
    switch (msg.method) {
      case "server/discover":
        return result('{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}');
      case "tools/list": return result('{"resultType":"complete","tools":[' + tool + ']}');
      case "tools/call":
        if (p.name === "sample" && !p.inputResponses) {
          return result('{"resultType":"input_required","requestState":"s","inputRequests":{"s":{"method":"sampling/createMessage","params":' + hostile.replace("1e400", "1") + '}}}');
        }
        return result(callResult);
      case "prompts/get": return result('{"resultType":"complete","messages":[],"_meta":' + hostile + '}');
      case "resources/read": return result('{"resultType":"complete","contents":[],"_meta":' + hostile + '}');
      default:
        return reply('"error":{"code":-32601,"message":"nope"}');
    }
  };
}
export function hostileOptions(container) {
  return {
    container, protocol: "2026-07-28",
    sampling: (params) => {
      window.__sampled.push(params);
      return { role: "assistant", model: "m", content: { type: "text", text: "ok" } };
    },
  };
}
export function lastSampled() { return window.__sampled[window.__sampled.length - 1]; }
// "" when `value` is what JSON.parse makes of `text` (same numbers, own keys, plain
// prototypes, nothing polluted), else what differs.
export function likeJsonParse(value, text) {
  const bad = [];
  const expected = JSON.parse(text);
  if (JSON.stringify(value) !== JSON.stringify(expected)) bad.push("differs: " + JSON.stringify(value));
  (function walk(v, e, at) {
    if (e === null || typeof e !== "object") {
      if (!Object.is(v, e)) bad.push(at + " is " + v + ", JSON.parse gives " + e);
      return;
    }
    if (v === null || typeof v !== "object") { bad.push(at + " is " + v); return; }
    const proto = Array.isArray(e) ? Array.prototype : Object.prototype;
    if (Object.getPrototypeOf(v) !== proto) bad.push(at + " has a replaced prototype");
    for (const k of Object.keys(e)) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) bad.push(at + " lacks own " + k);
      else walk(v[k], e[k], at + "/" + k);
    }
  })(value, expected, "");
  if (({}).polluted !== undefined) bad.push("Object.prototype polluted");
  return bad.join("; ");
}

// --- host_on_elicitation.rs: a modern server for `fake_fetch` ------------------------------

// A modern server (the handler for `fakeFetch`): the tool "form" asks for { name }
// (required), the tool "url" asks to open a page; a call carrying inputResponses completes
// with them as structuredContent.
export function askingServer() {
  window.__seen = [];
  return async (req, reply) => {
    const msg = JSON.parse(await req.text());
    const p = msg.params || {};
    switch (msg.method) {
      case "server/discover":
        return reply.result(msg.id, { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} },
                                      serverInfo: { name: "asking-server", version: "1" } });
      case "tools/list":
        return reply.result(msg.id, { resultType: "complete", tools: [
          { name: "form", inputSchema: { type: "object" } }, { name: "url", inputSchema: { type: "object" } }] });
      case "tools/call": {
        if (p.inputResponses) return reply.result(msg.id, { resultType: "complete", content: [], structuredContent: p.inputResponses });
        const params = p.name === "url"
          ? { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e1" }
          : { mode: "form", message: "Your name?", requestedSchema: { type: "object",
              properties: { name: { type: "string", minLength: 2 } }, required: ["name"] } };
        return reply.result(msg.id, { resultType: "input_required", requestState: "s",
                                      inputRequests: { ask: { method: "elicitation/create", params } } });
      }
      default:
        return reply.error(msg.id, -32601, "nope");
    }
  };
}
// Options whose handler records what it was given and answers as `kind` says.
export function handlerOptions(container, kind) {
  return {
    container, protocol: "2026-07-28",
    onElicitation: (params, info) => {
      window.__seen.push({ params, info });
      switch (kind) {
        case "accept": return Promise.resolve({ action: "accept", content: { name: "Ada" } });
        case "decline": return { action: "decline" };
        case "undefined": return undefined;
        case "invalid": return { action: "accept", content: { name: "A" } };
        case "throw": throw new Error("profile store is locked");
        case "reject": return Promise.reject(new Error("policy service down"));
        case "cycle": { const r = { action: "accept", content: {} }; r.content.self = r; return r; }
        case "getter": { const r = {}; Object.defineProperty(r, "action", { enumerable: true, get() { throw new Error("no"); } }); return r; }
        case "not-a-result": return { action: "maybe" };
      }
    },
  };
}
export function seen() { return window.__seen; }

// --- ui_element.rs: <mcp-elicitation> cards made as a page makes them ----------------------

export function make_card(params, attrs) {
  const el = document.createElement("mcp-elicitation");
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.answers = [];
  el.errors = [];
  el.addEventListener("answer", (e) => el.answers.push(e.detail));
  el.addEventListener("error", (e) => el.errors.push(String(e.detail && e.detail.message)));
  if (params !== undefined) el.params = params;
  return el;
}
export function set_params(el, params) { el.params = params; }
export function answers(el) { return JSON.stringify(el.answers); }
export function errors(el) { return JSON.stringify(el.errors); }
export function shadow_container(el) { return el.shadowRoot.querySelector("[part=container]"); }
export function shadow_problem(el) { return el.shadowRoot.querySelector("[part=problem]"); }
export function complete(el) { el.complete(); }
export function body_answers() {
  const seen = [];
  const listener = (e) => seen.push({ composed: e.composed, bubbles: e.bubbles });
  document.body.addEventListener("answer", listener);
  return seen;
}
export function seen_json(seen) { return JSON.stringify(seen); }
export function style_of(el, prop) { return getComputedStyle(el).getPropertyValue(prop); }
export function add_page_style(text) {
  const style = document.createElement("style");
  style.textContent = text;
  document.head.append(style);
  return style;
}
export function microtasks() { return new Promise((r) => setTimeout(r, 0)); }

// --- hostile_round3.rs: focus held elsewhere, withdrawn questions, shared places --------

// Something outside the card that holds focus, of `kind`: a contenteditable composer, an
// <iframe>, or a field in a closed shadow root. Returns the element the page sees focused.
export function focusElsewhere(kind) {
  const box = document.createElement("div");
  box.className = "round3-elsewhere";
  document.body.append(box);
  if (kind === "composer") {
    const composer = document.createElement("div");
    composer.contentEditable = "true";
    composer.textContent = "Hello, I was typing";
    box.append(composer);
    composer.focus();
  } else if (kind === "iframe") {
    const frame = document.createElement("iframe");
    box.append(frame);
    frame.focus();
  } else {
    const shadow = box.attachShadow({ mode: "closed" });
    const field = document.createElement("input");
    shadow.append(field);
    field.focus();
  }
  return document.activeElement;
}
export function clearElsewhere() {
  if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
  for (const el of document.querySelectorAll(".round3-elsewhere")) el.remove();
}
// Where a person's key press lands now: the focused element, inside open shadow roots.
export function pressEnterWhereFocused() {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  (el || document.body).dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true, composed: true }));
}
// Records whether `promise` settled, in `window.__settled[name]`.
export function watch(name, promise) {
  window.__settled = window.__settled || {};
  window.__settled[name] = false;
  promise.then((v) => { window.__settled[name] = JSON.stringify(v); });
}
export function settled(name) { return (window.__settled || {})[name]; }

// A legacy server (the handler for `fakeFetch`): each `tools/call` gets an event stream
// that asks `elicitation/create` (id 5, one text field "note") and stays open;
// `window.__legacy.withdraw(reason)` sends `notifications/cancelled` for id 5 on it. Every
// POST is logged in `window.__legacy.posts`.
export function withdrawingLegacyServer() {
  const state = { posts: [], streams: [] };
  window.__legacy = state;
  const enc = new TextEncoder();
  const sse = (m) => enc.encode("event: message\ndata: " + JSON.stringify(m) + "\n\n");
  state.withdraw = (reason) => {
    for (const c of state.streams) {
      c.enqueue(sse({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason } }));
    }
  };
  return async (req, reply) => {
    if (req.method === "GET") return new Response(null, { status: 405 });
    if (req.method === "DELETE") return new Response(null, { status: 200 });
    const msg = JSON.parse(await req.text());
    state.posts.push(msg);
    if (msg.method === "initialize") {
      return reply.result(msg.id, { protocolVersion: "2025-11-25", capabilities: { tools: {} },
        serverInfo: { name: "withdrawing", version: "1" } }, { headers: { "mcp-session-id": "w1" } });
    }
    if (!("id" in msg) || !("method" in msg)) return new Response(null, { status: 202 });
    if (msg.method !== "tools/call") return reply.error(msg.id, -32601, "not here");
    const params = { message: "Your note?", requestedSchema: { type: "object", properties: { note: { type: "string" } } } };
    const body = new ReadableStream({ start(c) {
      state.streams.push(c);
      c.enqueue(sse({ jsonrpc: "2.0", id: 5, method: "elicitation/create", params }));
    } });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}
// The answers (JSON-RPC responses) the legacy server was sent.
export function legacyAnswers() {
  return JSON.stringify(window.__legacy.posts.filter((m) => !("method" in m)));
}

// A modern server whose tool "pay" first asks to open a page (key "login"), and once that
// is answered asks only a form (key "confirm"): the retry no longer carries "login".
export function withdrawingModernServer() {
  return async (req, reply) => {
    const msg = JSON.parse(await req.text());
    const p = msg.params || {};
    switch (msg.method) {
      case "server/discover":
        return reply.result(msg.id, { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} },
                                      serverInfo: { name: "withdrawing", version: "1" } });
      case "tools/list":
        return reply.result(msg.id, { resultType: "complete", tools: [{ name: "pay", inputSchema: { type: "object" } }] });
      case "tools/call": {
        const r = p.inputResponses;
        if (!r) {
          return reply.result(msg.id, { resultType: "input_required", requestState: "r1", inputRequests: { login: {
            method: "elicitation/create",
            params: { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e-login" } } } });
        }
        if (r.login) {
          return reply.result(msg.id, { resultType: "input_required", requestState: "r2", inputRequests: { confirm: {
            method: "elicitation/create",
            params: { mode: "form", message: "Pay now?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } } } });
        }
        return reply.result(msg.id, { resultType: "complete", content: [], structuredContent: r });
      }
      default:
        return reply.error(msg.id, -32601, "not here");
    }
  };
}

export function clientOptions(container, protocol) { return { container, protocol }; }
export function openShadowRoot() {
  const host = document.createElement("div");
  document.body.append(host);
  return host.attachShadow({ mode: "open" });
}
