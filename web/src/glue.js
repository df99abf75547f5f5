// The web crate's JS, one static module (no eval, so it works under an extension's strict
// CSP; wasm-bindgen copies it into the package's `snippets/`). One module, not one per Rust
// file: every snippet module is one more request a page makes before the package can start,
// fetched in parallel with the others. (Parallel fetches are also what loses requests in
// wasm-bindgen-test-runner's file server; see `wasm_test` in scripts/test.)
//
// - `settle`, for web/src/boundary.rs;
// - the <mcp-elicitation> custom element, for web/src/element.rs;
// - `watch_presses` and `put_off`, for the form's messages (web/src/components/field.rs);
// - `load_catalog` and `catalog_now`, the catalogs beyond English (web/src/i18n).

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

    /** URL mode: the server said this card's elicitation is complete (this card's only). */
    complete() {
      const id = this.#params !== null && typeof this.#params === "object" ? this.#params.elicitationId : undefined;
      if (typeof id === "string") complete(id, this.#mount);
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
      // The card's language: the element's own `lang`, else the browser's languages.
      const lang = this.getAttribute("lang");
      if (lang !== null && lang !== "") options.locale = lang;
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

// ---- the fixed part of a schema form ----------------------------------------------------

/**
 * Builds as the first children of `form` (the `[role=form]` element) the fixed part of a schema form, as `text` (JSON, written by
 * web/src/components/field.rs) describes it: the title, the description, then one frame
 * per field. Every server string lands as text (a text node or an attribute's value);
 * every element and attribute name is this function's own. Built here, in one call, so a
 * form of any size costs one crossing from wasm instead of one per node and attribute.
 */
export function build_form(form, text) {
  const spec = JSON.parse(text);
  // Built again into the same element (Leptos re-running the directive): the old part goes.
  for (const node of builtParts.get(form) ?? []) node.remove();
  const doc = form.ownerDocument;
  const frag = doc.createDocumentFragment();
  if (spec.title !== undefined) frag.append(element(doc, "h3", "mce-form-title", spec.title));
  if (spec.description !== undefined) frag.append(element(doc, "p", "mce-form-description", spec.description));
  for (const f of spec.fields) frag.append(frame(doc, f));
  builtParts.set(form, Array.from(frag.childNodes));
  form.prepend(frag);
}

/** The nodes `build_form` put into each form element. */
const builtParts = new WeakMap();

/** `<tag>` of class `cls` (none when empty), holding `text` when given. */
function element(doc, tag, cls, text) {
  const el = doc.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.append(text);
  return el;
}

/** Sets attribute `name` when `value` is a string (a boolean attribute: `true`). */
function attr(el, name, value) {
  if (typeof value === "string") el.setAttribute(name, value);
  else if (value === true) el.setAttribute(name, "");
}

/**
 * The label (or legend) text, with the `*` of a required field hidden from screen readers.
 * A checkbox gets no star: it always answers (true or false), and a star on it reads as
 * "must be ticked".
 */
function label(doc, tag, f, star = f.required) {
  const el = element(doc, tag, "", f.label);
  if (tag === "label") el.htmlFor = f.id;
  if (star) {
    const mark = element(doc, "span", "mce-required", " *");
    mark.setAttribute("aria-hidden", "true");
    el.append(mark);
  }
  return el;
}

function description(doc, f) {
  const p = element(doc, "p", "mce-description", f.description);
  p.id = f.desc_id;
  return p;
}

/** The ARIA marks and `disabled` every single control of a field starts with. */
function marks(el, f) {
  el.id = f.id;
  el.setAttribute("name", f.name);
  if (f.required) {
    el.setAttribute("required", "");
    el.setAttribute("aria-required", "true");
  }
  attr(el, "aria-describedby", f.described);
  if (f.disabled) el.setAttribute("disabled", "");
  return el;
}

/** The frame of a field: `div.mce-field` (with `extra` classes), `part="field"`, its kind. */
function frameOf(doc, tag, cls, kind) {
  const el = element(doc, tag, cls);
  el.setAttribute("part", "field");
  el.setAttribute("data-kind", kind);
  return el;
}

function frame(doc, f) {
  if (f.control === "multi") return multi(doc, f);
  if (f.control === "checkbox") {
    const box = frameOf(doc, "div", "mce-field mce-checkbox", "checkbox");
    const input = marks(doc.createElement("input"), f);
    input.setAttribute("type", "checkbox");
    if (f.checked) input.setAttribute("checked", "");
    box.append(input, label(doc, "label", f, false));
    if (f.description !== undefined) box.append(description(doc, f));
    return box;
  }
  const el = frameOf(doc, "div", "mce-field", f.kind);
  el.append(label(doc, "label", f));
  if (f.description !== undefined) el.append(description(doc, f));
  if (f.control === "select") {
    const select = marks(doc.createElement("select"), f);
    if (f.placeholder !== undefined) select.append(option(doc, "", f.placeholder, f.placeholder_selected));
    for (const [value, title, selected] of f.options) select.append(option(doc, value, title, selected));
    el.append(select);
  } else {
    const input = marks(doc.createElement("input"), f);
    input.setAttribute("type", f.kind);
    attr(input, "minlength", f.minlength);
    attr(input, "maxlength", f.maxlength);
    attr(input, "min", f.min);
    attr(input, "max", f.max);
    attr(input, "step", f.step);
    attr(input, "value", f.value);
    el.append(input);
    if (f.note !== undefined) {
      const note = element(doc, "p", "mce-pattern-note", f.note);
      note.id = f.pattern_id;
      note.setAttribute("data-testid", "pattern-note");
      el.append(note);
    }
  }
  return el;
}

function option(doc, value, title, selected) {
  const el = element(doc, "option", "", title);
  el.setAttribute("value", value);
  if (selected) el.setAttribute("selected", "");
  return el;
}

/**
 * A multi-select: a fieldset that takes the marks as a group, one labelled box per option.
 * The option rows go in one `div.mce-options`, not straight into the fieldset: in Chromium
 * each child added to a fieldset costs time that grows with the children it has, so
 * 20,000 rows added to the fieldset took 1.7 s, and 0.12 s added to the div.
 */
function multi(doc, f) {
  const set = frameOf(doc, "fieldset", "mce-field mce-multi", "multiselect");
  set.id = f.id;
  set.setAttribute("data-name", f.name);
  if (f.required) set.setAttribute("aria-required", "true");
  attr(set, "aria-describedby", f.described);
  if (f.disabled) set.setAttribute("disabled", "");
  set.append(label(doc, "legend", f));
  if (f.description !== undefined) set.append(description(doc, f));
  const prefix = f.option_id_prefix;
  const rows = element(doc, "div", "mce-options");
  for (let j = 0; j < f.options.length; j++) {
    const [value, title, checked] = f.options[j];
    const id = prefix + j;
    const row = element(doc, "div", "mce-option");
    const box = doc.createElement("input");
    box.setAttribute("type", "checkbox");
    box.id = id;
    box.setAttribute("name", f.name);
    box.setAttribute("value", value);
    attr(box, "aria-describedby", f.described);
    if (checked) box.setAttribute("checked", "");
    const text = element(doc, "label", "", title);
    text.htmlFor = id;
    row.append(box, text);
    rows.append(row);
  }
  set.append(rows);
  return set;
}

// While a pointer is down, a field's message waits for the release (field.rs, `pressed`).
let pressed = false;
const waiting = new Set();
export function watch_presses() {
  if (watch_presses.on || typeof addEventListener != "function") return;
  watch_presses.on = 1;
  for (const n of ["pointerdown", "mousedown"]) addEventListener(n, () => { pressed = true; }, true);
  for (const n of ["pointerup", "pointercancel", "mouseup", "dragend"]) {
    addEventListener(n, () => {
      pressed = false;
      setTimeout(() => {
        if (!pressed) {
          for (const c of waiting) waiting.delete(c), c.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
        }
      });
    }, true);
  }
}
export function put_off(control) {
  if (pressed) waiting.add(control);
  return pressed;
}

// The catalogs beyond English: the package's i18n/<tag>.js (scripts/i18n-modules), each
// by an import() of a literal path, which bundlers follow and browsers fetch as is.
const CATALOGS = {
  "zh-CN": () => import("../../../i18n/zh-CN.js"),
  ja: () => import("../../../i18n/ja.js"),
  de: () => import("../../../i18n/de.js"),
  fr: () => import("../../../i18n/fr.js"),
  es: () => import("../../../i18n/es.js"),
  ar: () => import("../../../i18n/ar.js"),
};

/** A Promise of `tag`'s catalog text, or of `undefined` (said on the console). */
export function load_catalog(tag) {
  return Promise.resolve(tag)
    .then((t) => CATALOGS[t]())
    .then((m) => m.default, (e) => {
      console.warn(`mcp-elicit: catalog "${tag}" not loaded (${e?.message ?? e}); English instead`);
    });
}

/** `tag`'s catalog text read at once under Node (its fs, not imported); else `undefined`. */
export function catalog_now(tag) {
  try {
    const fs = globalThis.process?.getBuiltinModule?.("fs");
    const s = fs?.readFileSync(new URL(`../../../i18n/${CATALOGS[tag] && tag}.js`, import.meta.url), "utf8");
    return s && JSON.parse(s.slice(s.indexOf('"'), s.lastIndexOf('"') + 1));
  } catch {}
}
