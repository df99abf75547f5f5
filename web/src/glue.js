// The web crate's JS, one static module (no eval, so it works under an extension's strict
// CSP; wasm-bindgen copies it into the package's `snippets/`). One module, not one per Rust
// file: every snippet module is one more request a page makes before the package can start,
// fetched in parallel with the others. (Parallel fetches are also what loses requests in
// wasm-bindgen-test-runner's file server; see `wasm_test` in scripts/test.)
//
// - `settle`, for web/src/boundary.rs;
// - the <mcp-elicitation> custom element, for web/src/element.rs.

/**
 * A fresh native Promise of what `value` settles to. An async function never throws
 * synchronously: `Promise.resolve(value)` could (a Promise with a throwing `constructor`
 * getter), and a returned Promise's own `then` could; here both reject instead.
 */
export async function settle(value) {
  return await value;
}

// The <mcp-elicitation> custom element: one elicitation card in an open shadow root.
// Defined by `defineElements()` (web/src/element.rs), which passes in the stylesheet and
// the three wasm functions the element calls: render (elicit into an element), release
// (unmount it) and complete (a URL card's completion).

export function define_mcp_elicitation(tag, css, render, release, complete) {
  if (typeof customElements === "undefined") {
    throw new Error("defineElements: this page has no custom elements (customElements is undefined)");
  }
  const existing = customElements.get(tag);
  if (existing) return existing.mcpElicit === true ? "ours" : "taken";

  let sheet = null;
  const stylesheet = () => {
    if (sheet === null) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    return sheet;
  };

  class McpElicitation extends HTMLElement {
    static mcpElicit = true;
    #params = null;
    #mount = null;
    #problem = null;
    #token = 0;
    #mounted = false;
    // Set once this element's question was answered: put back after removal, it must not
    // ask the same question again (a second answer to one request).
    #answered = false;

    constructor() {
      super();
      const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
      root.adoptedStyleSheets = [stylesheet()];
      this.#problem = document.createElement("p");
      this.#problem.setAttribute("role", "alert");
      this.#problem.setAttribute("part", "problem");
      this.#problem.className = "mce-element-problem";
      this.#problem.hidden = true;
      this.#mount = document.createElement("div");
      this.#mount.setAttribute("part", "container");
      root.append(this.#problem, this.#mount);
    }

    get params() {
      return this.#params;
    }

    set params(value) {
      this.#params = value ?? null;
      this.#answered = false;
      if (this.isConnected) this.#render();
    }

    connectedCallback() {
      // A `params` set before the element was defined is an own property that hides the
      // accessor: take it over.
      if (Object.prototype.hasOwnProperty.call(this, "params")) {
        const value = this.params;
        delete this.params;
        this.#params = value ?? null;
      }
      if (!this.#mounted && !this.#answered && this.#params !== null) this.#render();
    }

    disconnectedCallback() {
      // Moving the element (remove, then insert) keeps the card and what was typed; only an
      // element still out of the document once this task ends is released.
      queueMicrotask(() => {
        if (!this.isConnected) this.#release();
      });
    }

    /** URL mode: the server said this card's elicitation is complete. */
    complete() {
      const id = this.#params !== null && typeof this.#params === "object" ? this.#params.elicitationId : undefined;
      if (typeof id === "string") complete(id);
    }

    #release() {
      this.#token += 1;
      if (this.#mounted) {
        this.#mounted = false;
        release(this.#mount);
      }
      // An answered card was already freed and left as an inert copy: it goes too.
      this.#mount.replaceChildren();
    }

    #render() {
      this.#release();
      this.#problem.hidden = true;
      this.#problem.textContent = "";
      if (this.#params === null) return;
      const token = this.#token;
      const options = {};
      const name = this.getAttribute("server-name");
      const host = this.getAttribute("server-host");
      if (name !== null) options.serverName = name;
      if (host !== null) options.serverHost = host;
      this.#mounted = true;
      render(this.#mount, this.#params, options).then(
        (result) => {
          if (token !== this.#token) return;
          this.#answered = true;
          this.dispatchEvent(new CustomEvent("answer", { detail: result, bubbles: true, composed: true }));
        },
        (error) => {
          if (token !== this.#token) return;
          this.#mounted = false;
          const message = error instanceof Error ? error.message : String(error);
          this.#problem.textContent = message;
          this.#problem.hidden = false;
          this.dispatchEvent(new CustomEvent("error", { detail: error, bubbles: true, composed: true }));
        },
      );
    }
  }

  customElements.define(tag, McpElicitation);
  return "defined";
}

// McpClient's container may be a shadow root: the package's stylesheet is adopted there
// (once), and the cards go into our own element inside it, reused by later connections.
export function container_in(root, css) {
  if (!root.adoptedStyleSheets.some((s) => s.mcpElicit === true)) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheet.mcpElicit = true;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  let slot = [...root.children].find((el) => el.hasAttribute("data-mce-container"));
  if (!slot) {
    slot = document.createElement("div");
    slot.setAttribute("data-mce-container", "");
    slot.setAttribute("part", "container");
    root.append(slot);
  }
  return slot;
}
