//! Reading the `options` object of `McpClient.connect(url, options)`: every field is
//! optional but `container` (an HTML element, or a shadow root: then the cards and their
//! stylesheet live in it, see [`mcp_elicit_web::element::cards_container`]), and a wrong one is refused in words naming the field, so a
//! host finds its mistake at connect time instead of in a half-working client.

use futures::FutureExt;
use js_sys::{Function, Object, Reflect};
use mcp_elicit::wire::Root;
use serde_json::Value;
#[cfg(feature = "signin")]
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::on_elicitation::ElicitationHandler;
use mcp_elicit::auth::{AuthConfig, AuthProtocol, ClientId, ClientSecret};
use mcp_elicit_web::auth::{SignIn, Store};
use mcp_elicit_web::boundary::{json_arg, settle, value_to_js};
use mcp_elicit_web::client::{ClientConfig, ProtocolChoice, SamplingHandler};
use mcp_elicit_web::transport::Fetcher;
use std::rc::Rc;

/// Most rounds a host may allow one call (a typo such as 1e9 would hang a page on an
/// endless server).
const MAX_ROUNDS_LIMIT: u32 = 1_000;

/// What `connect` needs beyond the URL.
pub struct HostOptions {
    pub container: web_sys::HtmlElement,
    pub config: ClientConfig,
    /// `options.onElicitation`, if given.
    pub on_elicitation: Option<ElicitationHandler>,
    /// The cards' language (`options.locale`) and a host's texts (`options.messages`).
    pub messages: mcp_elicit_web::i18n::Messages,
}

fn field(options: &JsValue, name: &str) -> Result<Option<JsValue>, String> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    let value = Reflect::get(options, &JsValue::from_str(name))
        .map_err(|_| format!("options.{name} could not be read"))?;
    Ok((!value.is_undefined() && !value.is_null()).then_some(value))
}

/// Reads `options` (a plain object) for a connection to `url`.
pub fn parse(url: String, options: &JsValue) -> Result<HostOptions, String> {
    if !(options.is_undefined() || options.is_null() || options.is_instance_of::<Object>()) {
        return Err("options must be an object such as { container: element }".into());
    }
    let container = match field(options, "container")? {
        Some(v) if v.is_instance_of::<web_sys::ShadowRoot>() => {
            Some(mcp_elicit_web::element::cards_container(v.unchecked_ref())?)
        }
        Some(v) => v.dyn_into::<web_sys::HtmlElement>().ok(),
        None => None,
    }
    .ok_or(
        "options.container must be the HTML element or the shadow root where elicitations are shown",
    )?;
    let protocol = match field(options, "protocol")? {
        None => ProtocolChoice::Auto,
        Some(v) => v
            .as_string()
            .and_then(|text| ProtocolChoice::parse(&text))
            .ok_or(r#"options.protocol must be "auto", "2026-07-28" or "2025-11-25""#)?,
    };
    let locale = field(options, "locale")?
        .map(|v| json_arg(&v, "options.locale"))
        .transpose()?;
    let overrides = field(options, "messages")?
        .map(|v| json_arg(&v, "options.messages"))
        .transpose()?;
    // The host may override a connection's words too: their English is there to check.
    mcp_elicit_web::i18n::speak_for_connections();
    let messages =
        mcp_elicit_web::i18n::from_options(locale.as_ref(), overrides.as_ref(), "options")?;
    let mut config = ClientConfig::new(url, protocol);
    config.messages = messages.clone();
    if let Some(v) = field(options, "maxRounds")? {
        config.max_rounds = v
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (1.0..=f64::from(MAX_ROUNDS_LIMIT)).contains(n))
            .map(|n| n as u32)
            .ok_or(format!(
                "options.maxRounds must be a whole number from 1 to {MAX_ROUNDS_LIMIT}"
            ))?;
    }
    if let Some(v) = field(options, "tasks")? {
        config.tasks = v
            .as_string()
            .and_then(|text| mcp_elicit::driver::tool_tasks::TaskMode::parse(&text))
            .ok_or(r#"options.tasks must be "auto", "always" or "never""#)?;
    }
    if let Some(v) = field(options, "roots")? {
        config.roots = serde_json::from_value::<Vec<Root>>(json_arg(&v, "options.roots")?)
            .map_err(|e| {
                format!("options.roots must be an array of {{ uri, name? }} objects ({e})")
            })?;
    }
    if let Some(v) = field(options, "sampling")? {
        let handler = v
            .dyn_into::<Function>()
            .map_err(|_| "options.sampling must be a function (params) => CreateMessageResult")?;
        config.sampling = Some(js_sampling(handler));
    }
    config.http.fetcher = match field(options, "fetch")? {
        None => Fetcher::default(),
        Some(v) => Fetcher::new(Some(v.dyn_into::<Function>().map_err(|_| {
            "options.fetch must be a function with fetch's signature (request) => Promise<Response>"
        })?)),
    };
    if let Some(v) = field(options, "headers")? {
        config.http.headers = headers(&v)?;
    }
    if let Some(v) = field(options, "auth")? {
        let sign_in = auth(&config, &v, container.clone())?.with_messages(messages.clone());
        config.http.sign_in = Some(Rc::new(sign_in));
    }
    let on_elicitation = match field(options, "onElicitation")? {
        None => None,
        Some(v) => Some(ElicitationHandler::new(v.dyn_into::<Function>().map_err(|_| {
            "options.onElicitation must be a function (params, info) => ElicitResult | undefined"
        })?)),
    };
    Ok(HostOptions {
        container,
        config,
        on_elicitation,
        messages,
    })
}

/// Most headers a host may add (`options.headers`), and the longest of their values: a
/// credential or two, not a way to send megabytes with every request.
const MAX_HOST_HEADERS: usize = 32;
const MAX_HOST_HEADER_BYTES: usize = 8 * 1024;

/// Headers the protocol sets itself, or the browser does: a host's would clash with them.
const RESERVED_HEADERS: [&str; 10] = [
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    "host",
    "origin",
    "cookie",
];

/// `options.headers`: an object of header names to string values, sent on every request
/// to the server (never to an authorization server). A value never appears in an error.
fn headers(value: &JsValue) -> Result<Vec<(String, String)>, String> {
    let shape = "options.headers must be an object of header names to strings, such as { \"X-API-Key\": key }";
    let Value::Object(map) = json_arg(value, "options.headers").map_err(|_| shape.to_string())?
    else {
        return Err(shape.into());
    };
    if map.len() > MAX_HOST_HEADERS {
        return Err(format!(
            "options.headers may have at most {MAX_HOST_HEADERS} headers"
        ));
    }
    let mut out = Vec::with_capacity(map.len());
    for (name, value) in map {
        let Value::String(text) = value else {
            return Err(format!("options.headers.{name} must be a string"));
        };
        let lower = name.to_ascii_lowercase();
        if RESERVED_HEADERS.contains(&lower.as_str()) || lower.starts_with("mcp-param-") {
            return Err(format!(
                "options.headers may not set {name}: the client sets it as the protocol says"
            ));
        }
        if text.len() > MAX_HOST_HEADER_BYTES {
            return Err(format!(
                "options.headers.{name} is longer than {MAX_HOST_HEADER_BYTES} bytes"
            ));
        }
        let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(token) {
            return Err(format!(
                "options.headers has a name that is not a header name: {name:?}"
            ));
        }
        if !mcp_elicit::driver::http::is_header_value(&text) {
            return Err(format!(
                "options.headers.{name} has characters a header cannot carry"
            ));
        }
        out.push((name, text));
    }
    Ok(out)
}

/// `options.auth`: signing the person in when the server asks. `redirectUrl` (the callback
/// page, on this page's origin) is required; `clientId`, `clientSecret`,
/// `clientMetadataUrl`, `scope` are optional; `storage` is "session" (the default),
/// "memory", or an object with get/set/remove.
fn auth(
    config: &ClientConfig,
    value: &JsValue,
    container: web_sys::HtmlElement,
) -> Result<SignIn, String> {
    if !value.is_instance_of::<Object>() {
        return Err("options.auth must be an object such as { redirectUrl }".into());
    }
    let text = |name: &str| -> Result<Option<String>, String> {
        match field(value, name)? {
            None => Ok(None),
            Some(v) => v
                .as_string()
                .map(Some)
                .ok_or(format!("options.auth.{name} must be a string")),
        }
    };
    let redirect_url = text("redirectUrl")?.ok_or(
        "options.auth.redirectUrl is required: the address of the callback page (oauth-callback.html) on this page's origin",
    )?;
    let page = mcp_elicit_web::transport::page_origin();
    if mcp_elicit_web::transport::origin_of(&redirect_url).as_deref() != Some(page.as_str()) {
        return Err(format!(
            "options.auth.redirectUrl must be an address on this page's origin ({page}), where the callback page can hand the sign-in back"
        ));
    }
    let protocol = match config.protocol {
        ProtocolChoice::Legacy => AuthProtocol::Legacy2025_11_25,
        _ => AuthProtocol::Modern2026_07_28,
    };
    let mut auth = AuthConfig::new(redirect_url, protocol);
    auth.client_id = text("clientId")?.map(ClientId::new);
    auth.client_secret = text("clientSecret")?.map(ClientSecret::new);
    auth.client_metadata_url = text("clientMetadataUrl")?;
    auth.scope = text("scope")?;
    // Where sign-in's own wasm is, for a bundle that does not keep it beside
    // mcp_elicit_signin.js (a string or a URL).
    let sign_in_wasm = match field(value, "signInWasm")? {
        None => None,
        Some(v) if v.is_string() => v.as_string(),
        Some(v) if v.is_instance_of::<web_sys::Url>() => {
            Some(v.unchecked_into::<web_sys::Url>().href())
        }
        Some(_) => return Err("options.auth.signInWasm must be a string or a URL".into()),
    };
    let store = match field(value, "storage")? {
        None => Store::Session,
        Some(v) if v.as_string().as_deref() == Some("session") => Store::Session,
        Some(v) if v.as_string().as_deref() == Some("memory") => Store::Memory(js_sys::Map::new()),
        Some(v) if v.is_object() => {
            for op in ["get", "set", "remove"] {
                let f = Reflect::get(&v, &JsValue::from_str(op)).unwrap_or(JsValue::UNDEFINED);
                if !f.is_instance_of::<Function>() {
                    return Err(format!("options.auth.storage.{op} must be a function"));
                }
            }
            Store::Host(v)
        }
        Some(_) => {
            return Err(r#"options.auth.storage must be "session", "memory" or an object with get, set and remove"#.into())
        }
    };
    Ok(SignIn::new(
        config.url.clone(),
        auth,
        config.http.fetcher.clone(),
        store,
        container,
        sign_in_runner(),
    )
    .with_wasm_url(sign_in_wasm))
}

// Sign-in's own wasm, loaded when first needed (host/src/signin.js says how).
#[cfg(feature = "signin")]
#[wasm_bindgen(module = "/src/signin.js")]
extern "C" {
    #[wasm_bindgen(js_name = signInRunner)]
    fn sign_in_runner() -> Function;
}

/// Without the `signin` feature (the web crate's browser tests, whose page must not import
/// one more snippet module: scripts/test's `wasm_test` says why), a sign-in fails at once.
#[cfg(not(feature = "signin"))]
fn sign_in_runner() -> Function {
    let refuse = wasm_bindgen::closure::Closure::<dyn Fn(JsValue) -> js_sys::Promise>::new(
        |_input: JsValue| {
            js_sys::Promise::reject(&js_sys::Error::new("sign-in is not in this build"))
        },
    );
    refuse.into_js_value().unchecked_into()
}

/// The host's JS sampling function as the client's handler: called with the request's
/// params as a plain object; may return the `CreateMessageResult` or a Promise of it, and
/// may throw (or reject) to refuse. The result is read as JSON, so a cycle in it is a
/// refusal in words, not a trap.
fn js_sampling(handler: Function) -> SamplingHandler {
    SamplingHandler::new(move |params: Value| {
        let handler = handler.clone();
        async move {
            let arg = value_to_js(&params, "the request could not be handed over")?;
            let returned = handler.call1(&JsValue::NULL, &arg).map_err(error_text)?;
            let value = JsFuture::from(settle(&returned))
                .await
                .map_err(error_text)?;
            let result = json_arg(&value, "the sampling handler's result")?;
            check_create_message_result(&result)?;
            Ok(result)
        }
        .boxed_local()
    })
}

/// A `CreateMessageResult` needs `role`, `content` and `model`; say which is missing
/// rather than let the server answer with a validation error about our message.
fn check_create_message_result(result: &Value) -> Result<(), String> {
    let Some(object) = result.as_object() else {
        return Err("the sampling handler must return an object { role, content, model }".into());
    };
    let missing: Vec<&str> = ["role", "content", "model"]
        .into_iter()
        .filter(|k| !object.contains_key(*k))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the sampling handler's result lacks {}",
            missing.join(", ")
        ))
    }
}

/// The words of whatever a JS function threw: an `Error`'s message, a string, or its JSON.
/// Read with `Reflect.get` (which catches), not `Error.message()`: a host's error may have
/// a throwing `message` getter, which must not throw through these frames.
pub fn error_text(thrown: JsValue) -> String {
    if thrown.is_instance_of::<js_sys::Error>() {
        if let Some(message) = Reflect::get(&thrown, &JsValue::from_str("message"))
            .ok()
            .and_then(|m| m.as_string())
        {
            return message;
        }
    }
    if let Some(text) = thrown.as_string() {
        return text;
    }
    js_sys::JSON::stringify(&thrown)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "an unreadable error".into())
}
