// elicitationHandler, the TypeScript SDK adapter, for both entries of the package: each
// binds it to its own wasm module's guarded functions (entry.js) with `handlerFor(api)`.
//
// For hosts built on the official TypeScript SDK's `Client` (@modelcontextprotocol/sdk 1.x):
// its `elicitation/create` requests shown as our cards, its
// `notifications/elicitation/complete` ending a URL card's wait. Nothing here imports the
// SDK: its schemas come from the caller (`install(client, { ElicitRequestSchema,
// ElicitationCompleteNotificationSchema })`), so a page without the SDK pays nothing.

/** `elicitationHandler` over the guarded functions `api` of one entry's wasm module. */
export function handlerFor(api) {
  return (options) => elicitationHandler(api, options);
}

/**
 * Cards one handler shows at once that still wait for the person: McpClient's card limit
 * (`MAX_PENDING_CARDS`), more than a person works through, few enough that the page stays
 * responsive. A request beyond it is refused with the JSON-RPC error -32603 before any
 * card is made, and `[data-testid=cards-refused]` in the container says so.
 */
const MAX_PENDING_CARDS = 256;

/**
 * Characters of params JSON (`JSON.stringify(params).length`) of the cards one handler
 * holds, waiting and kept URL cards together: McpClient's 32 MiB card budget, so a server
 * cannot make the page build DOM for arbitrarily large forms. Kept URL cards make room
 * first (oldest first); a request still beyond it is refused with -32603, and
 * `[data-testid=cards-too-large]` says so.
 */
const MAX_HELD_PARAMS_CHARS = 32 * 1024 * 1024;

/**
 * Accepted URL cards kept on screen after their answer went, so the person sees "waiting"
 * turn into "complete" when the server's completion notification arrives: a few flows in
 * progress at once is plenty. Beyond it the oldest kept card is removed (its completion,
 * if it ever comes, then finds no card and is dropped).
 */
const MAX_KEPT_URL_CARDS = 16;

/** JSON-RPC codes the SDK copies into its error response (it reads the Error's `code`). */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

function rpcError(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

function optionalString(options, key) {
  const value = options[key];
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new TypeError(`elicitationHandler: options.${key} must be a string`);
  }
  return value ?? undefined;
}

function isElement(value) {
  // By node type, not `instanceof`, so an element of another frame is accepted too.
  return value !== null && typeof value === "object" && value.nodeType === 1;
}

/** The server's own name from the SDK client's `initialize` result: its title, else name. */
function serverNameOf(client) {
  if (!client || typeof client.getServerVersion !== "function") return undefined;
  let info;
  try {
    info = client.getServerVersion();
  } catch {
    return undefined;
  }
  if (!info || typeof info !== "object") return undefined;
  for (const name of [info.title, info.name]) {
    if (typeof name === "string" && name.trim() !== "") return name;
  }
  return undefined;
}

/**
 * Shows a TypeScript SDK `Client`'s elicitations in `options.container`, each in a child
 * of its own, and answers them. See index.d.ts and the README for the whole contract.
 */
function elicitationHandler(api, options) {
  const { elicit, completeElicitation, releaseElicitation } = api;
  if (!options || typeof options !== "object") {
    throw new TypeError("elicitationHandler: pass { container }, the element where cards appear");
  }
  const container = options.container;
  if (!isElement(container)) {
    throw new TypeError(
      "elicitationHandler: options.container must be an element (where cards appear)",
    );
  }
  const fixedName = optionalString(options, "serverName");
  let host = optionalString(options, "serverHost");
  if (host === undefined && options.serverUrl !== undefined && options.serverUrl !== null) {
    try {
      host = new URL(String(options.serverUrl)).host;
    } catch {
      throw new TypeError(
        `elicitationHandler: options.serverUrl is not a URL: ${options.serverUrl}`,
      );
    }
  }
  let client = options.client ?? undefined;

  // Cards on screen: { element, elicitationId, chars, cancel }. Waiting cards settle their
  // request; those in `kept` are accepted URL cards waiting for their completion.
  const held = new Set();
  const kept = [];
  let waiting = 0;
  let heldChars = 0;
  // Elements whose card is over, detached, for the next request. elicit() on an element
  // ends what it held before, so reusing them keeps the page's mounted cards at the peak
  // number shown at once (at most MAX_PENDING_CARDS + MAX_KEPT_URL_CARDS), never growing
  // with the number of requests a long-lived page answers.
  const spare = [];
  const notices = { count: null, size: null };

  function notice(kind, text) {
    let p = notices[kind];
    if (!p) {
      p = container.ownerDocument.createElement("p");
      p.className = "mce-cards-refused";
      p.setAttribute("role", "alert");
      p.setAttribute("data-testid", kind === "count" ? "cards-refused" : "cards-too-large");
      notices[kind] = p;
    }
    p.textContent = text;
    if (p.parentNode !== container) container.prepend(p);
  }

  function release(card) {
    if (!held.delete(card)) return;
    heldChars -= card.chars;
    // Ends the card's mount (freeing what it held) before the element is reused or dropped.
    if (api.isReady()) releaseElicitation(card.element);
    card.element.remove();
    spare.push(card.element);
  }

  function dropOldestKept() {
    const card = kept.shift();
    if (card) release(card);
    return card !== undefined;
  }

  // The cards' language and a host's texts, as elicit() takes them.
  const locale = optionalString(options, "locale");
  const messages = options.messages ?? undefined;

  function identity() {
    const out = {};
    if (locale !== undefined) out.locale = locale;
    if (messages !== undefined) out.messages = messages;
    if (host !== undefined) {
      out.serverName = fixedName ?? serverNameOf(client);
      out.serverHost = host;
    }
    return out;
  }

  async function handleRequest(request, extra) {
    if (!api.isReady()) {
      throw rpcError(INTERNAL_ERROR, api.notReady("elicitationHandler's handleRequest").message);
    }
    const params = request !== null && typeof request === "object" ? request.params : undefined;
    if (params === null || typeof params !== "object" || Array.isArray(params)) {
      throw rpcError(INVALID_PARAMS, "elicitation/create came without its params object");
    }
    if (params.task !== undefined) {
      // The SDK would then expect a CreateTaskResult; this client declares no tasks.
      throw rpcError(INVALID_PARAMS, "this client does not run elicitations as tasks");
    }
    const signal = extra !== null && typeof extra === "object" ? extra.signal : undefined;
    const abortable =
      signal !== null &&
      typeof signal === "object" &&
      typeof signal.addEventListener === "function";
    if (abortable && signal.aborted) return { action: "cancel" };

    let chars;
    try {
      chars = JSON.stringify(params).length;
    } catch (e) {
      const why = e && e.message ? e.message : e;
      throw rpcError(INVALID_PARAMS, `elicitation/create params are not JSON (${why})`);
    }
    if (waiting >= MAX_PENDING_CARDS) {
      notice(
        "count",
        `The server sent more than ${MAX_PENDING_CARDS} requests at once; later ones were refused.`,
      );
      throw rpcError(
        INTERNAL_ERROR,
        `the client already shows ${MAX_PENDING_CARDS} elicitations waiting for an answer`,
      );
    }
    while (heldChars + chars > MAX_HELD_PARAMS_CHARS && dropOldestKept()) {
      // Kept URL cards make room first.
    }
    if (heldChars + chars > MAX_HELD_PARAMS_CHARS) {
      const mib = MAX_HELD_PARAMS_CHARS / (1024 * 1024);
      notice(
        "size",
        `The server's requests were too large to show at once (more than ${mib} MiB together); ` +
          "later ones were refused.",
      );
      throw rpcError(
        INTERNAL_ERROR,
        `the elicitations shown would exceed ${mib} MiB of params together`,
      );
    }

    const element = spare.pop() ?? container.ownerDocument.createElement("div");
    const card = {
      element,
      elicitationId:
        params.mode === "url" && typeof params.elicitationId === "string"
          ? params.elicitationId
          : undefined,
      chars,
    };
    container.append(element);
    const answer = elicit(element, params, identity());
    held.add(card);
    heldChars += chars;
    waiting += 1;

    return new Promise((resolve, reject) => {
      let done = false;
      const finish = () => {
        if (done) return false;
        done = true;
        waiting -= 1;
        if (abortable) signal.removeEventListener("abort", onAbort);
        return true;
      };
      // The SDK aborts when the server cancels the request or the connection closes: the
      // card goes, and the SDK sends nothing for it.
      const onAbort = () => {
        if (!finish()) return;
        release(card);
        resolve({ action: "cancel" });
      };
      // dispose(): the person can no longer answer, which is what `cancel` means.
      card.cancel = onAbort;
      if (abortable) signal.addEventListener("abort", onAbort, { once: true });
      answer.then(
        (result) => {
          if (!finish()) return;
          if (card.elicitationId !== undefined && result && result.action === "accept") {
            kept.push(card);
            while (kept.length > MAX_KEPT_URL_CARDS) dropOldestKept();
          } else {
            release(card);
          }
          resolve(result);
        },
        (e) => {
          if (!finish()) return;
          release(card);
          reject(rpcError(INVALID_PARAMS, e && e.message ? e.message : String(e)));
        },
      );
    });
  }

  function handleComplete(notification) {
    const id = notification !== null && typeof notification === "object" && notification.params
      ? notification.params.elicitationId
      : undefined;
    if (typeof id !== "string" || !api.isReady()) return;
    // Only this handler's own URL cards: another server's ids are not this server's to end,
    // even when another handler's card uses the same id.
    for (const card of held) {
      if (card.elicitationId === id) completeElicitation(id, card.element);
    }
  }

  return {
    capabilities: { elicitation: { form: {}, url: {} } },
    handleRequest,
    handleComplete,
    install(sdkClient, schemas) {
      const requestSchema = schemas && schemas.ElicitRequestSchema;
      const completeSchema = schemas && schemas.ElicitationCompleteNotificationSchema;
      if (!requestSchema || !completeSchema) {
        throw new TypeError(
          "elicitationHandler: install(client, { ElicitRequestSchema, " +
            "ElicitationCompleteNotificationSchema }) needs both schemas from " +
            "\"@modelcontextprotocol/sdk/types.js\"",
        );
      }
      sdkClient.registerCapabilities({ elicitation: { form: {}, url: {} } });
      sdkClient.setRequestHandler(requestSchema, handleRequest);
      sdkClient.setNotificationHandler(completeSchema, handleComplete);
      if (client === undefined) client = sdkClient;
      return sdkClient;
    },
    get pending() {
      return waiting;
    },
    dispose() {
      for (const card of [...held]) {
        if (card.cancel) card.cancel();
        release(card);
      }
      kept.length = 0;
      for (const p of [notices.count, notices.size]) if (p) p.remove();
    },
  };
}
