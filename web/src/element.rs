//! `<mcp-elicitation>`: one elicitation as a custom element, for pages built with any
//! framework or none.
//!
//! ```js
//! import init, { defineElements } from "mcp-elicit";
//! await init();
//! defineElements();                       // registers <mcp-elicitation> (once; later calls do nothing)
//! const card = document.createElement("mcp-elicitation");
//! card.setAttribute("server-name", "Weather");        // optional: who is asking
//! card.setAttribute("server-host", "mcp.example.com");
//! card.setAttribute("lang", "de");                  // optional: the card's language
//! card.params = params;                   // elicitation/create params, form or URL mode
//! card.addEventListener("answer", (e) => send(e.detail));   // the ElicitResult
//! document.body.append(card);
//! card.complete();                        // URL mode: the server completed it
//! ```
//!
//! The card lives in the element's open shadow root, with its own copy of the package's
//! stylesheet: the host page's CSS does not reach inside, and ours does not leak out.
//! Setting `params` again replaces the card (no event for the replaced one). Params that are
//! not elicitation params are said in words inside the element (`::part(problem)`) and in an
//! `error` event. Removing the element from the page frees its card; moving it keeps it.
//!
//! Theming: the `--mce-*` custom properties (see `www/style.css`) set on the element, and
//! `::part()` for the pieces (`container`, `card`, `message`, `requester`, `trust`, `form`,
//! `field`, `actions`, `button`, `url`, `host`, `problem`). Dark mode follows
//! `prefers-color-scheme` unless the element has `theme="light"` or `theme="dark"`.
//! Inherited styles of the page (font, colour, size) are reset at the element's boundary.

use wasm_bindgen::prelude::*;

/// The element's tag.
pub const TAG: &str = "mcp-elicitation";

/// The package's stylesheet (`www/style.css`), written for a document.
const PAGE_CSS: &str = include_str!("../../www/style.css");

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// Defines the element class; says `"defined"`, `"ours"` (already defined by this
    /// package, e.g. a second copy of it on the page) or `"taken"` (by something else).
    #[wasm_bindgen(catch)]
    fn define_mcp_elicitation(
        tag: &str,
        css: &str,
        render: &JsValue,
        release: &JsValue,
        complete: &JsValue,
    ) -> Result<String, JsValue>;

    #[wasm_bindgen(catch)]
    fn container_in(root: &web_sys::ShadowRoot, css: &str)
        -> Result<web_sys::HtmlElement, JsValue>;
}

/// Where `McpClient` puts its cards when its `container` is a shadow root: an element of
/// ours inside it (reused by later connections to the same root), with the package's
/// stylesheet adopted by the root, themed like `<mcp-elicitation>`.
pub fn cards_container(root: &web_sys::ShadowRoot) -> Result<web_sys::HtmlElement, String> {
    container_in(root, &shadow_css(PAGE_CSS))
        .map_err(|_| "options.container: this shadow root does not take our stylesheet".to_owned())
}

thread_local! {
    /// Set once this instance has defined the element.
    static DEFINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The stylesheet of the element's shadow root, made from the page stylesheet: its `:root`
/// variables become the host's; the dark values apply under `prefers-color-scheme: dark`
/// unless `theme="light"`, and always under `theme="dark"`; inherited properties of the
/// page stop at the host.
pub fn shadow_css(page_css: &str) -> String {
    const DARK_OPEN: &str = "@media (prefers-color-scheme: dark) {";
    let mut css = String::with_capacity(page_css.len() + 1024);
    css.push_str(
        ":host { all: initial; display: block; font-family: var(--mce-font); \
         color: var(--mce-text); font-size: 1rem; line-height: 1.5; }\n\
         :host([hidden]) { display: none; }\n\
         .mce-element-problem { color: var(--mce-danger); background: var(--mce-danger-bg); \
         padding: var(--mce-gap); border-radius: var(--mce-radius); margin: 0; }\n\
         .mce-element-problem[hidden] { display: none; }\n",
    );
    // The dark block's declarations, for `theme="dark"`.
    let dark_vars = page_css.find(DARK_OPEN).and_then(|start| {
        let rest = &page_css[start + DARK_OPEN.len()..];
        let open = rest.find('{')?;
        let close = rest[open..].find('}')?;
        Some(rest[open + 1..open + close].to_owned())
    });
    let (head, tail) = match page_css.find(DARK_OPEN) {
        Some(i) => page_css.split_at(i),
        None => (page_css, ""),
    };
    css.push_str(&head.replacen(":root {", ":host {", 1));
    css.push_str(&tail.replacen(":root {", ":host(:not([theme=\"light\"])) {", 1));
    if let Some(vars) = dark_vars {
        css.push_str("\n:host([theme=\"dark\"]) {");
        css.push_str(&vars);
        css.push_str("  color-scheme: dark;\n}\n");
    }
    css.push_str(":host([theme=\"light\"]) { color-scheme: light; }\n");
    css
}

/// Registers `<mcp-elicitation>` (see the module docs). Call after `init()`; a second call
/// does nothing. Throws if another element already took the name.
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = defineElements))]
pub fn define_elements() -> Result<(), JsValue> {
    if DEFINED.get() {
        return Ok(());
    }
    let render = Closure::<dyn Fn(web_sys::Element, JsValue, JsValue) -> js_sys::Promise>::new(
        crate::embed::elicit_js,
    );
    let release =
        Closure::<dyn Fn(web_sys::Element)>::new(|el: web_sys::Element| crate::embed::release(&el));
    // The element passes its own card's place: its completion ends only its card.
    let complete = Closure::<dyn Fn(String, JsValue)>::new(|id: String, place: JsValue| {
        let _ = crate::embed::complete_elicitation_js(id, place);
    });
    let verdict = define_mcp_elicitation(
        TAG,
        &shadow_css(PAGE_CSS),
        render.as_ref(),
        release.as_ref(),
        complete.as_ref(),
    )?;
    match verdict.as_str() {
        "defined" => {
            // The element class calls these for the rest of the page's life: made once.
            render.forget();
            release.forget();
            complete.forget();
            DEFINED.set(true);
            Ok(())
        }
        "ours" => Ok(()),
        _ => Err(js_sys::Error::new(&format!(
            "defineElements: <{TAG}> is already defined by something else on this page"
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_stylesheet_scopes_the_variables_to_the_host() {
        let css = shadow_css(PAGE_CSS);
        assert!(!css.contains(":root {"), "{css}");
        assert!(
            css.contains(":host {\n  --mce-font:"),
            "light variables on the host"
        );
        assert!(css
            .contains("@media (prefers-color-scheme: dark) {\n  :host(:not([theme=\"light\"])) {"));
        let dark = css
            .split(":host([theme=\"dark\"]) {")
            .nth(1)
            .expect("a theme=dark block");
        assert!(dark.contains("--mce-bg: #0f1217;"), "{dark}");
        assert!(css.starts_with(":host { all: initial;"));
    }
}
