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
//! completeElicitation(elicitationId, slot);
//! ```
//!
//! `completeElicitation(elicitationId, element)` ends the wait of the URL card shown in
//! `element` (or in an element inside it), and only there: a completion comes from one
//! server, and another server's card that happens to use the same `elicitationId` is not
//! its to end. Without `element` it ends every card this API shows with that id (for a
//! page that talks to one server only).
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
//! should always pass them. Without `serverHost` the card names no server. `locale` (a
//! BCP 47 tag) chooses the card's language, the browser's languages without it;
//! `messages` (key → text) overrides any of the catalog's texts (see docs/i18n.md).
//!
//! ## Memory in long-lived hosts
//! A card is freed (its Leptos owner, signals, effects, closures and listeners) as soon as
//! nothing on it can change: answered, declined or cancelled, a URL card completed or
//! dismissed after Open, replaced by another `elicit` on its element, or released. One
//! still in the document stays on screen as an inert copy (what was answered, read-only).
//! A card whose element the host took off the page unanswered resolves `cancel` at the
//! next `elicit` or `completeElicitation` call (each looks at the cards still mounted), or
//! at once with `releaseElicitation(element)`, which also removes its DOM. A card mounted
//! into an element not yet in the document is left alone until it has been seen in it.

use crate::boundary::{json_arg, value_to_js};
use crate::client::ServerIdentity;
use crate::components::ElicitationView;
use crate::i18n::{self, Messages};
use leptos::mount::{mount_to, UnmountHandle};
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use mcp_elicit::wire::{ElicitAction, ElicitRequestParams, ElicitResult};
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use wasm_bindgen::prelude::*;

/// One live elicitation: its element, its view (dropping it unmounts and frees the card's
/// reactive state), and the Promise's `resolve` until the answer arrives. Entries leave
/// [`MOUNTED`] as soon as nothing can change on the card any more (see [`free`]), so a
/// host answering cards for days holds only the cards still open.
struct Mounted {
    id: u32,
    element: web_sys::Element,
    resolve: Option<js_sys::Function>,
    /// A URL card's `elicitationId`: only completions of mounted cards are kept.
    elicitation_id: Option<String>,
    /// Set when this card's completion arrived ([`complete_elicitation`]): each card has its
    /// own, so a completion reaches only the cards it was given for.
    completed: ArcRwSignal<bool>,
    /// The element was in the document when mounted or at a later [`sweep`]: once it is
    /// out of it, the card can no longer be answered. A card mounted into an element the
    /// host has not attached yet is left alone until it has been seen attached.
    seen_connected: bool,
    handle: UnmountHandle<AnyViewState>,
}

thread_local! {
    static MOUNTED: RefCell<Vec<Mounted>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// `data-state` values after which a card changes no more (see the components' docs):
/// answered, a URL card's completion or dismissal, or closed.
const FINAL_STATES: [&str; 4] = ["answered", "complete", "dismissed", "closed"];

/// Removes mount `id` from [`MOUNTED`] and frees it. A card still in the document stays
/// on screen as an inert copy (see [`inert_copy`]): what the person answered remains
/// readable, but no signal, effect, closure or listener of it is kept.
fn free(id: u32) {
    let gone = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let i = m.iter().position(|x| x.id == id)?;
        Some(m.remove(i))
    });
    if let Some(gone) = gone {
        free_mounted(gone, true);
    }
}

/// Frees `gone` (already out of [`MOUNTED`]); `keep` leaves an inert copy on screen when
/// its element is in the document.
fn free_mounted(gone: Mounted, keep: bool) {
    let Mounted {
        element, handle, ..
    } = gone;
    if keep && element.is_connected() {
        let nodes: Vec<web_sys::Node> =
            std::iter::successors(element.first_child(), web_sys::Node::next_sibling).collect();
        let copies: Vec<Option<web_sys::Node>> = nodes.iter().map(inert_copy).collect();
        drop(handle);
        // The view's own nodes left with it; the host's (if it added any) stayed: put the
        // copies back where the view's nodes were, in the same order.
        for (node, copy) in nodes.iter().zip(copies) {
            let stayed = node.parent_node().is_some_and(|p| p == *element);
            let _ = match (stayed, copy) {
                (true, _) => element.append_child(node),
                (false, Some(copy)) => element.append_child(&copy),
                (false, None) => continue,
            };
        }
    } else {
        drop(handle);
    }
}

/// A copy of `node` that shows what it shows now and runs nothing: cloning copies no
/// event listener and no Rust closure; inputs keep their value and checkedness (the
/// browser's cloning steps copy them), and each `<select>` its chosen option (copied here:
/// cloning does not). Walked with an explicit stack, so a deep card cannot overflow it.
fn inert_copy(node: &web_sys::Node) -> Option<web_sys::Node> {
    let copy = node.clone_node_with_deep(true).ok()?;
    let (Some(from), Some(to)) = (
        node.dyn_ref::<web_sys::Element>(),
        copy.dyn_ref::<web_sys::Element>(),
    ) else {
        return Some(copy);
    };
    let mut stack = vec![(from.clone(), to.clone())];
    while let Some((a, b)) = stack.pop() {
        if let (Some(sa), Some(sb)) = (
            a.dyn_ref::<web_sys::HtmlSelectElement>(),
            b.dyn_ref::<web_sys::HtmlSelectElement>(),
        ) {
            sb.set_selected_index(sa.selected_index());
        }
        let (mut ca, mut cb) = (a.first_element_child(), b.first_element_child());
        while let (Some(x), Some(y)) = (ca, cb) {
            ca = x.next_element_sibling();
            cb = y.next_element_sibling();
            stack.push((x, y));
        }
    }
    Some(copy)
}

/// Frees mount `id` once the current task is over: an answer arrives from inside the
/// card's own click or key handler (whose closures and signals must outlive the call),
/// and the card's last state (`answered`, `complete`) is rendered by effects queued as
/// microtasks, which all run before a timer's callback.
fn free_later(id: u32) {
    wasm_bindgen_futures::spawn_local(async move {
        crate::transport::sleep(0).await;
        free(id);
    });
}

/// Whether the card in `element` shows a state in which nothing changes any more.
fn shows_final_state(element: &web_sys::Element) -> bool {
    element
        .query_selector("[data-elicitation]")
        .ok()
        .flatten()
        .and_then(|card| card.get_attribute("data-state"))
        .is_some_and(|state| FINAL_STATES.contains(&state.as_str()))
}

/// Frees what nobody can use any more, at each call of this API (O(cards mounted)):
/// - a card whose element left the document after it was seen in it: still unanswered,
///   its Promise resolves `cancel` (the person can no longer answer it);
/// - an answered card whose last state is shown (a URL card dismissed, or completed
///   while it was not waiting), kept on screen as an inert copy.
///
/// A host that removes elements and then calls nothing more keeps those cards until its
/// next call; [`release`] frees one at once.
fn sweep() {
    let mut cancelled = Vec::new();
    let stale: Vec<u32> = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let mut stale = Vec::new();
        for x in m.iter_mut() {
            let connected = x.element.is_connected();
            if connected {
                x.seen_connected = true;
                if x.resolve.is_none() && shows_final_state(&x.element) {
                    stale.push(x.id);
                }
            } else if x.seen_connected || x.resolve.is_none() {
                cancelled.extend(x.resolve.take());
                stale.push(x.id);
            }
        }
        stale
    });
    for resolve in cancelled {
        resolve_with(&resolve, &ElicitResult::cancel());
    }
    for id in stale {
        free(id);
    }
}

fn resolve_with(resolve: &js_sys::Function, result: &ElicitResult) {
    let value = match to_js(result) {
        Ok(v) => v,
        Err(e) => e,
    };
    let _ = resolve.call1(&JsValue::NULL, &value);
}

/// Unmounts what `elicit` rendered into `element`, if anything: its card leaves the DOM,
/// everything it held is freed, and its Promise (if still open) resolves `cancel`, as when
/// the element is reused. For hosts that take an element off the page without calling
/// `elicit` again (a closed panel); the `<mcp-elicitation>` element calls it when it
/// leaves the page.
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = releaseElicitation))]
pub fn release(element: &web_sys::Element) {
    let gone = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        let i = m.iter().position(|x| x.element == *element)?;
        Some(m.remove(i))
    });
    if let Some(mut gone) = gone {
        if let Some(resolve) = gone.resolve.take() {
            resolve_with(&resolve, &ElicitResult::cancel());
        }
        // Removed, not kept inert: the host is done with the element.
        free_mounted(gone, false);
    }
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

/// Resolves the Promise of mount `id` (once) with `result`, then frees the card unless it
/// still has something to show: a URL card opened (`accept`) waits for its completion,
/// and is freed when [`complete_elicitation`] ends the wait (or by [`sweep`]).
fn settle(id: u32, result: &ElicitResult) {
    let settled = MOUNTED.with(|m| {
        m.borrow_mut().iter_mut().find(|x| x.id == id).map(|x| {
            let waits = result.action == ElicitAction::Accept
                && x.elicitation_id.is_some()
                && !x.completed.get_untracked();
            (x.resolve.take(), waits)
        })
    });
    let Some((resolve, waits)) = settled else {
        return;
    };
    if let Some(resolve) = resolve {
        resolve_with(&resolve, result);
    }
    if !waits {
        free_later(id);
    }
}

/// Reads the params: a JS object as on the wire, read as JSON (a cycle or a throwing
/// getter is refused in words, see [`crate::boundary`]).
fn parse_params(params: &JsValue) -> Result<ElicitRequestParams, String> {
    let json = json_arg(params, "elicit params")?;
    if !json.is_object() {
        return Err("elicit: params must be an object such as {message, requestedSchema} or {mode: \"url\", message, url, elicitationId}".into());
    }
    ElicitRequestParams::from_value(json).map_err(|e| {
        format!("elicit: these are not elicitation/create params: form mode needs `message` and `requestedSchema`, URL mode needs `mode: \"url\"`, `message`, `url` and `elicitationId` ({e})")
    })
}

/// Reads `options`: absent, or an object whose `serverName` / `serverHost` are strings,
/// with `locale` and `messages` (see the module docs).
fn parse_options(options: &JsValue) -> Result<(Option<ServerIdentity>, Messages), String> {
    if options.is_undefined() || options.is_null() {
        return Ok((None, Messages::from_browser()));
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
    let messages = i18n::from_options(obj.get("locale"), obj.get("messages"), "elicit: options")?;
    Ok((
        text("serverHost")?.map(|host| ServerIdentity { name, host }),
        messages,
    ))
}

/// Renders one elicitation into `element` and returns a Promise of its `ElicitResult`.
/// `options` may name the requesting server (see the module docs).
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = elicit))]
pub fn elicit_js(element: web_sys::Element, params: JsValue, options: JsValue) -> js_sys::Promise {
    match parse_options(&options) {
        Ok((server, messages)) if messages.lang() == messages.wanted() => {
            elicit_in(element, params, server, messages)
        }
        // The card shows in its language from its first paint: its catalog first.
        Ok((server, messages)) => wasm_bindgen_futures::future_to_promise(async move {
            let messages = messages.loaded().await;
            wasm_bindgen_futures::JsFuture::from(elicit_in(element, params, server, messages)).await
        }),
        Err(e) => error(&e),
    }
}

/// [`elicit_js`] without options, for Rust callers.
pub fn elicit(element: web_sys::Element, params: JsValue) -> js_sys::Promise {
    elicit_in(element, params, None, Messages::from_browser())
}

/// [`elicit_js`], the requesting server given (if known) as a [`ServerIdentity`].
pub fn elicit_with(
    element: web_sys::Element,
    params: JsValue,
    server: Option<ServerIdentity>,
) -> js_sys::Promise {
    elicit_in(element, params, server, Messages::from_browser())
}

/// [`elicit_with`] in the language (and with the overrides) of `messages`.
pub fn elicit_in(
    element: web_sys::Element,
    params: JsValue,
    server: Option<ServerIdentity>,
    messages: Messages,
) -> js_sys::Promise {
    let params = match parse_params(&params) {
        Ok(p) => p,
        Err(e) => return error(&e),
    };
    let parent: web_sys::HtmlElement = match element.clone().dyn_into() {
        Ok(h) => h,
        Err(_) => return error("elicit: the element must be an HTML element"),
    };

    sweep();
    // Replace whatever this element held before, ending its Promise as `cancel`.
    release(&element);
    element.set_text_content(None);

    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    let completed = ArcRwSignal::new(false);
    let done = completed.clone();
    let elicitation_id = match &params {
        ElicitRequestParams::Url(u) => Some(u.elicitation_id.clone()),
        ElicitRequestParams::Form(_) => None,
    };
    let key = elicitation_id
        .clone()
        .unwrap_or_else(|| format!("embed-{id}"));
    let elicitation_id_shown = elicitation_id.clone();

    let mut resolve_fn = None;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        resolve_fn = Some(resolve);
    });
    let connected = element.is_connected();
    let handle = mount_to(parent, move || {
        provide_context(messages.clone());
        // Made inside the mount, so it belongs to the card's owner and is freed with it
        // (outside any owner it would stay in the arena for the page's life).
        let eid = elicitation_id_shown.clone();
        let completed = Signal::derive(move || {
            let mut set = HashSet::new();
            if done.get() {
                set.extend(eid.clone());
            }
            set
        });
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
            completed,
            seen_connected: connected,
            handle,
        })
    });
    promise
}

/// Ends the waiting state of the URL card with this `elicitationId` mounted by `elicit` into
/// `element` or an element inside it, as `notifications/elicitation/complete` does in the
/// app; without `element`, of every such card this API shows (see the module docs).
///
/// Nothing is kept for an id no card in that place has, so a host forwarding every
/// completion a server sends keeps memory flat, and a completion from one server cannot
/// end another server's card.
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = completeElicitation))]
pub fn complete_elicitation_js(elicitation_id: String, element: JsValue) -> Result<(), JsValue> {
    let place = if element.is_undefined() || element.is_null() {
        None
    } else {
        match element.dyn_into::<web_sys::Element>() {
            Ok(el) => Some(el),
            Err(_) => {
                return Err(js_sys::Error::new(
                    "completeElicitation: the second argument must be the element the card was shown in",
                )
                .into())
            }
        }
    };
    complete_elicitation(elicitation_id, place.as_ref());
    Ok(())
}

/// [`complete_elicitation_js`] for Rust callers.
pub fn complete_elicitation(elicitation_id: String, element: Option<&web_sys::Element>) {
    sweep();
    // The cards with this id; which of them are in `element` is asked of the DOM outside
    // the borrow of MOUNTED (a host's element is the host's code to run).
    let candidates: Vec<(u32, web_sys::Element)> = MOUNTED.with(|m| {
        m.borrow()
            .iter()
            .filter(|x| x.elicitation_id.as_ref() == Some(&elicitation_id))
            .map(|x| (x.id, x.element.clone()))
            .collect()
    });
    let reached: Vec<u32> = candidates
        .into_iter()
        .filter(|(_, el)| element.is_none_or(|place| place.contains(Some(el))))
        .map(|(id, _)| id)
        .collect();
    // Each card reached changes once more (a waiting one to `complete`, then never again).
    let done: Vec<(u32, bool, ArcRwSignal<bool>)> = MOUNTED.with(|m| {
        m.borrow()
            .iter()
            .filter(|x| reached.contains(&x.id) && !x.completed.get_untracked())
            .map(|x| (x.id, x.resolve.is_none(), x.completed.clone()))
            .collect()
    });
    for (id, answered, completed) in done {
        completed.set(true);
        if answered {
            free_later(id);
        }
    }
}
