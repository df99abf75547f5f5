//! The browser's parts of sign-in, through `web_sys` (no JS of our own, so the library's
//! snippet, which every page loads, carries none of it): the callback's arrival, the
//! popup, the full-page redirect, randomness, SHA-256, and the stores.
//!
//! The names below are also in www/oauth-callback.js: the two must agree.

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent, Storage, Window};

/// What the callback page's message carries (`{ type, query }`).
const CALLBACK_TYPE: &str = "mcp-elicit/oauth-callback";
/// The BroadcastChannel's name.
const CHANNEL: &str = "mcp-elicit/oauth";
/// sessionStorage: the callback's query, for the page after a full-page redirect.
const RETURN_KEY: &str = "mcp-elicit/oauth-return";
/// sessionStorage: where the callback page sends the person back to.
const RETURN_TO_KEY: &str = "mcp-elicit/oauth-return-to";
/// Longest callback query taken (a code, a state, an issuer, an error's words).
const MAX_QUERY_CHARS: u32 = 16 * 1024;

fn window() -> Option<Window> {
    web_sys::window()
}

fn session() -> Option<Storage> {
    window().and_then(|w| w.session_storage().ok().flatten())
}

/// The callback query a message carries, or `None` for any other message. Read with
/// `Reflect.get`, which catches a throwing getter.
fn callback_query(data: &JsValue) -> Option<String> {
    if !data.is_object() {
        return None;
    }
    let kind = Reflect::get(data, &JsValue::from_str("type")).ok()?;
    let query = Reflect::get(data, &JsValue::from_str("query")).ok()?;
    let query = query.dyn_into::<js_sys::JsString>().ok()?;
    (kind.as_string().as_deref() == Some(CALLBACK_TYPE) && query.length() <= MAX_QUERY_CHARS)
        .then(|| query.into())
}

/// Listens for callbacks: messages posted to this page by a window of its own origin, and
/// messages on this origin's BroadcastChannel. Stops when dropped.
pub struct Listening {
    on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_channel: Closure<dyn FnMut(MessageEvent)>,
    channel: Option<BroadcastChannel>,
}

impl Listening {
    pub fn new(mut on_query: impl FnMut(String) + Clone + 'static) -> Listening {
        let origin = window().and_then(|w| w.location().origin().ok());
        let mut from_channel = on_query.clone();
        let on_message = Closure::new(move |event: MessageEvent| {
            if origin.as_deref() != Some(event.origin().as_str()) {
                return;
            }
            if let Some(query) = callback_query(&event.data()) {
                on_query(query);
            }
        });
        let on_channel = Closure::new(move |event: MessageEvent| {
            if let Some(query) = callback_query(&event.data()) {
                from_channel(query);
            }
        });
        if let Some(window) = window() {
            let _ = window
                .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
        }
        let channel = BroadcastChannel::new(CHANNEL).ok();
        if let Some(channel) = &channel {
            channel.set_onmessage(Some(on_channel.as_ref().unchecked_ref()));
        }
        Listening {
            on_message,
            _on_channel: on_channel,
            channel,
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(window) = window() {
            let _ = window.remove_event_listener_with_callback(
                "message",
                self.on_message.as_ref().unchecked_ref(),
            );
        }
        if let Some(channel) = &self.channel {
            channel.set_onmessage(None);
            channel.close();
        }
    }
}

/// Opens the authorization page in a popup (with an opener: the callback page posts back
/// to it); `None` when the browser blocked it. Only ever called in a click handler.
pub fn open_popup(url: &str) -> Option<Window> {
    window()?
        .open_with_url_and_target_and_features(
            url,
            "mcp-elicit-sign-in",
            "popup,width=520,height=720",
        )
        .ok()
        .flatten()
}

/// Whether a popup is gone (closed by the person).
pub fn popup_closed(popup: &Window) -> bool {
    popup.closed().unwrap_or(false)
}

/// Leaves this page for the authorization page, to come back to it after.
pub fn redirect(url: &str) {
    let Some(window) = window() else { return };
    if let (Some(storage), Ok(here)) = (session(), window.location().href()) {
        let _ = storage.set_item(RETURN_TO_KEY, &here);
    }
    let _ = window.location().assign(url);
}

/// The callback query a full-page redirect left for this page (taken: read once).
pub fn take_return() -> Option<String> {
    let storage = session()?;
    let text = storage.get_item(RETURN_KEY).ok().flatten()?;
    let _ = storage.remove_item(RETURN_KEY);
    callback_query(&js_sys::JSON::parse(&text).ok()?)
}

/// `N` random bytes from the browser's CSPRNG, or `None` where it has none.
pub fn random<const N: usize>() -> Option<[u8; N]> {
    let mut bytes = [0u8; N];
    window()?
        .crypto()
        .ok()?
        .get_random_values_with_u8_array(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// SHA-256 of `bytes` by WebCrypto, or `None` where it is not offered (an insecure page).
pub async fn sha256(bytes: &[u8]) -> Option<[u8; 32]> {
    let subtle = window()?.crypto().ok()?.subtle();
    let data = Uint8Array::from(bytes);
    let promise = subtle
        .digest_with_str_and_buffer_source("SHA-256", &data)
        .ok()?;
    let digest = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    Uint8Array::new(&digest).to_vec().try_into().ok()
}

/// One operation on the tab's `sessionStorage`; `None` when it failed or had nothing.
pub fn session_op(op: &str, key: &str, value: Option<&str>) -> Option<String> {
    let storage = session()?;
    match (op, value) {
        ("get", _) => storage.get_item(key).ok().flatten(),
        ("set", Some(value)) => storage.set_item(key, value).ok().map(|_| String::new()),
        _ => storage.remove_item(key).ok().map(|_| String::new()),
    }
}

/// One operation on a host's store object (`get`, `set` or `remove`, each of which may
/// return a Promise or throw): what it settled to, if a string.
pub async fn host_op(host: &JsValue, op: &str, key: &str, value: Option<&str>) -> Option<String> {
    let method = Reflect::get(host, &JsValue::from_str(op))
        .ok()?
        .dyn_into::<Function>()
        .ok()?;
    let key = JsValue::from_str(key);
    let returned = match value {
        Some(value) => method.call2(host, &key, &JsValue::from_str(value)),
        None => method.call1(host, &key),
    }
    .ok()?;
    let settled: Promise = crate::boundary::settle(&returned);
    wasm_bindgen_futures::JsFuture::from(settled)
        .await
        .ok()?
        .as_string()
}
