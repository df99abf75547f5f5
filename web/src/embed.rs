//! The JS embedding API: `elicit(element, params)` returns a Promise of the `ElicitResult`.
//!
//! A host page with no Leptos knowledge calls
//!
//! ```js
//! import init, { elicit, completeElicitation } from "./pkg/mcp_elicit_web.js";
//! await init();
//! const result = await elicit(document.querySelector("#slot"), params); // params as on the wire
//! // or, naming who is asking (shown in the card, as the spec requires of a client):
//! await elicit(slot, params, { serverName: "Weather", serverHost: "mcp.example.com" });
//! // later, when the server sends notifications/elicitation/complete for a URL card:
//! completeElicitation(elicitationId);
//! ```
//!
//! The element gets the same DOM as the app (`[data-elicitation]`, see the DOM contract);
//! its previous content is replaced. The Promise resolves with the answer as a plain JS
//! object, exactly as it goes on the wire (`{action: "accept", content: {...}}`), and
//! rejects with an `Error` in words when the params are not elicitation params. A second
//! `elicit` on the same element replaces the first, whose Promise then resolves `cancel`
//! (the user can no longer answer it, which is what `cancel` means on the wire).
//!
//! `options` (optional): `serverName` and `serverHost`, strings, name the requesting server
//! in the card (`[data-testid=requesting-server]`); a host showing requests from servers
//! should always pass them. Without `serverHost` the card names no server.

use crate::boundary::{json_arg, value_to_js};
use crate::client::ServerIdentity;
use crate::components::ElicitationView;
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use wasm_bindgen::prelude::*;

/// One mounted elicitation: its element, its view (dropping it unmounts), and the Promise's
/// `resolve` until the answer arrives.
struct Mounted {
    id: u32,
    element: web_sys::Element,
    resolve: Option<js_sys::Function>,
    /// A URL card's `elicitationId`: only completions of mounted cards are kept.
    elicitation_id: Option<String>,
    _handle: leptos::mount::UnmountHandle<AnyViewState>,
}

thread_local! {
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
    /// Completed `elicitationId`s, shared by every URL card this API mounted.
    static COMPLETED: ArcRwSignal<HashSet<String>> = ArcRwSignal::new(HashSet::new());
}

/// The answer as `JSON.parse` gives its wire text ([`value_to_js`]): a property called
/// `__proto__` stays an own key of `content` instead of replacing its prototype.
fn to_js(result: &ElicitResult) -> Result<JsValue, JsValue> {
    value_to_js(result, "elicit: could not hand over the answer")
        .map_err(|e| js_sys::Error::new(&e).into())
}

fn error(message: &str) -> js_sys::Promise {
    js_sys::Promise::reject(&js_sys::Error::new(message).into())
}

/// Resolves the Promise of mount `id` (once) with `result`.
fn settle(id: u32, result: &ElicitResult) {
    let resolve = MOUNTED.with(|m| {
        m.borrow_mut()
            .iter_mut()
            .find(|x| x.id == id)
            .and_then(|x| x.resolve.take())
    });
    if let Some(resolve) = resolve {
        let value = match to_js(result) {
            Ok(v) => v,
            Err(e) => e,
        };
        let _ = resolve.call1(&JsValue::NULL, &value);
    }
}

/// Reads the params: a JS object as on the wire, read as JSON (a cycle or a throwing
/// getter is refused in words, see [`crate::boundary`]).
fn parse_params(params: &JsValue) -> Result<ElicitRequestParams, String> {
    let json = json_arg(params, "elicit params")?;
    if !json.is_object() {
        return Err("elicit: params must be an object such as {message, requestedSchema} or {mode: \"url\", message, url, elicitationId}".into());
    }
    serde_json::from_value(json).map_err(|e| {
        format!("elicit: these are not elicitation/create params: form mode needs `message` and `requestedSchema`, URL mode needs `mode: \"url\"`, `message`, `url` and `elicitationId` ({e})")
    })
}

/// Reads `options`: absent, or an object whose `serverName` / `serverHost` are strings.
fn parse_options(options: &JsValue) -> Result<Option<ServerIdentity>, String> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    let json = json_arg(options, "elicit options")?;
    let Some(obj) = json.as_object() else {
        return Err("elicit: options must be an object such as {serverName, serverHost}".into());
    };
    let text = |key: &str| match obj.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("elicit: options.{key} must be a string")),
    };
    let name = text("serverName")?.filter(|n| !n.trim().is_empty());
    Ok(text("serverHost")?.map(|host| ServerIdentity { name, host }))
}

/// Renders one elicitation into `element` and returns a Promise of its `ElicitResult`.
/// `options` may name the requesting server (see the module docs).
#[wasm_bindgen(js_name = elicit)]
pub fn elicit_js(element: web_sys::Element, params: JsValue, options: JsValue) -> js_sys::Promise {
    match parse_options(&options) {
        Ok(server) => elicit_with(element, params, server),
        Err(e) => error(&e),
    }
}

/// [`elicit_js`] without options, for Rust callers.
pub fn elicit(element: web_sys::Element, params: JsValue) -> js_sys::Promise {
    elicit_with(element, params, None)
}

/// [`elicit_js`], the requesting server given (if known) as a [`ServerIdentity`].
pub fn elicit_with(
    element: web_sys::Element,
    params: JsValue,
    server: Option<ServerIdentity>,
) -> js_sys::Promise {
    let params = match parse_params(&params) {
        Ok(p) => p,
        Err(e) => return error(&e),
    };
    let parent: web_sys::HtmlElement = match element.clone().dyn_into() {
        Ok(h) => h,
        Err(_) => return error("elicit: the element must be an HTML element"),
    };

    // Replace whatever this element held before, ending its Promise as `cancel`.
    let previous = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter()
            .position(|x| x.element == element)
            .map(|i| m.remove(i))
    });
    if let Some(mut prev) = previous {
        if let Some(resolve) = prev.resolve.take() {
            if let Ok(v) = to_js(&ElicitResult::cancel()) {
                let _ = resolve.call1(&JsValue::NULL, &v);
            }
        }
        drop(prev);
    }
    element.set_text_content(None);

    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let completed = COMPLETED.with(|c| c.clone());
    let completed = Signal::derive(move || completed.get());
    let elicitation_id = match &params {
        ElicitRequestParams::Url(u) => Some(u.elicitation_id.clone()),
        ElicitRequestParams::Form(_) => None,
    };
    let key = elicitation_id
        .clone()
        .unwrap_or_else(|| format!("embed-{id}"));

    let mut resolve_fn = None;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        resolve_fn = Some(resolve);
    });
    let handle = mount_to(parent, move || {
        view! {
            <ElicitationView
                key=key
                params=params
                on_answer=Callback::new(move |r: ElicitResult| settle(id, &r))
                completed=completed
                server=server
            />
        }
        .into_any()
    });
    MOUNTED.with(|m| {
        m.borrow_mut().push(Mounted {
            id,
            element,
            resolve: resolve_fn,
            elicitation_id,
            _handle: handle,
        })
    });
    promise
}

/// Ends the waiting state of every URL card (mounted by `elicit`) with this `elicitationId`,
/// as `notifications/elicitation/complete` does in the app.
#[wasm_bindgen(js_name = completeElicitation)]
///
/// Only ids of mounted URL cards are kept (an id no card has is dropped), and the set is
/// trimmed to those cards as it grows, so a host forwarding every completion a server
/// sends keeps memory flat.
pub fn complete_elicitation(elicitation_id: String) {
    let mounted: HashSet<String> = MOUNTED.with(|m| {
        m.borrow()
            .iter()
            .filter_map(|x| x.elicitation_id.clone())
            .collect()
    });
    if !mounted.contains(&elicitation_id) {
        return;
    }
    COMPLETED.with(|c| {
        c.update(|set| {
            if set.insert(elicitation_id) && set.len() > mounted.len() {
                set.retain(|id| mounted.contains(id));
            }
        })
    });
}

/// Unmounts what `elicit` rendered into `element`, if anything: its card leaves the DOM,
/// its reactive state is freed, and its Promise (if still open) resolves `cancel`, as when
/// the element is reused. The `<mcp-elicitation>` element calls it when it leaves the page.
pub fn release(element: &web_sys::Element) {
    let gone = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter()
            .position(|x| x.element == *element)
            .map(|i| m.remove(i))
    });
    if let Some(mut gone) = gone {
        if let Some(resolve) = gone.resolve.take() {
            if let Ok(v) = to_js(&ElicitResult::cancel()) {
                let _ = resolve.call1(&JsValue::NULL, &v);
            }
        }
    }
}
