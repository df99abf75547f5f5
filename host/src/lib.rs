//! # mcp-elicit-host
//!
//! The JS host API: `McpClient`, a connection to an MCP server whose elicitations are
//! shown in an element of the host's page, for hosts and extensions that want the whole
//! client (both eras, rounds, sessions, sampling, roots) and not just one form
//! ([`mcp_elicit_web::embed`]).
//!
//! It is a crate of its own so that its wasm is one of its own: a `cdylib` exports every
//! `#[wasm_bindgen]` item of the crates it links, so while `McpClient` lived in
//! `mcp-elicit-web`, every page that only called `elicit()` loaded the whole client (the
//! sessions of both eras, the transport, the wire types' serde code): 40% of the wasm.
//! This crate's wasm has everything `mcp-elicit-web` exports too, so a page that uses
//! `McpClient` loads this one wasm and nothing else (the npm package's `mcp-elicit/client`).
//!
//! ```js
//! import init, { McpClient } from "mcp-elicit/client"; // or "./pkg/mcp_elicit_host.js"
//! await init();
//! const client = await McpClient.connect("http://127.0.0.1:8001/mcp", {
//!   container: document.querySelector("#requests"), // where elicitation cards appear
//!   protocol: "auto",                                // or "2026-07-28" / "2025-11-25"
//!   maxRounds: 10,                                   // input rounds one call may take
//!   roots: [{ uri: "file:///home/me/project", name: "project" }],
//!   // Only a host with an LLM passes this; without it sampling is not declared.
//!   sampling: async (params) => ({ role: "assistant", model: "my-llm",
//!                                  content: { type: "text", text: "..." } }),
//!   // Answers without a card (a saved profile, a policy); undefined shows the card.
//!   // See `on_elicitation` for the rules (validated content, URL mode needs a click).
//!   onElicitation: async (params, info) =>
//!     info.mode === "form" && profile.fits(params) ? { action: "accept", content: profile.values }
//!                                                  : undefined,
//! });
//! client.protocolVersion;                               // "2026-07-28" or "2025-11-25"
//! await client.listTools();                             // [{ name, inputSchema, ... }]
//! await client.listPrompts();     // also listResources(), listResourceTemplates()
//! await client.callTool("delete_folder", { path: "/tmp/project" }); // CallToolResult
//! await client.getPrompt("trip_brief", { city: "Oslo" });           // GetPromptResult
//! await client.readResource("notes://groceries");                  // ReadResourceResult
//! // Each of the three takes options: progress, Stop, and a timeout (see `long_call`).
//! const stop = new AbortController();
//! await client.callTool("slow_count", { n: 5 }, {
//!   signal: stop.signal,                  // stop.abort(): rejects "… the call was stopped"
//!   onProgress: ({ progress, total, message }) => {}, // at most once a frame
//!   onTaskStatus: ({ taskId, status, message }) => {}, // a call the server runs as a task
//!   timeoutMs: 60000, resetOnProgress: true, // time a card waits for the person not counted
//! });
//! await client.close();
//! ```
//!
//! Every Promise rejects with an `Error` in words. Cards follow the DOM contract, like the
//! demo app's; a card whose answer could not be delivered keeps what was typed and resends
//! on Submit.

mod long_call;
mod on_elicitation;
mod options;

pub use long_call::{MAX_TIMEOUT_MS, STOPPED};

pub use on_elicitation::{HANDLER_TIMEOUT_MS, MAX_HANDLER_CALLS_IN_FLIGHT};

use std::cell::RefCell;
use std::rc::Rc;

use leptos::mount::{mount_to, UnmountHandle};
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use mcp_elicit::wire::Tool;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use mcp_elicit_web::boundary::{json_to_js, value_to_js};
use mcp_elicit_web::client::{Call, ClientError, Connection};
use mcp_elicit_web::i18n::Messages;
use mcp_elicit_web::pending::{deliver, AnswerFn, PendingList, PendingRequests};

/// A live connection and the view of its pending elicitations.
#[wasm_bindgen]
pub struct McpClient {
    connection: Connection,
    requests: PendingRequests,
    /// The latest `tools/list`, for the modern era's `Mcp-Param-*` headers (so a call does
    /// not list the tools again each time).
    tools: Rc<RefCell<Option<Vec<Tool>>>>,
    /// The connection's language (`options.locale`, `options.messages`): a stopped call's
    /// cards say so in it.
    messages: Messages,
    /// This client's own place in the container ([`own_place`]), removed with the client.
    place: web_sys::HtmlElement,
    _view: UnmountHandle<AnyViewState>,
    /// Where the answer path finds the connection. Not owned by `owner`: the
    /// `onElicitation` tasks may still read it after the client is freed; emptied on drop,
    /// so nothing the client freed keeps the connection (its session, its calls) alive.
    slot: StoredValue<Option<Connection>, LocalStorage>,
    /// Owns the card list's signals and the answer callback. `connect` runs from JS,
    /// outside any reactive owner, and what is made there without one is never freed (a
    /// host renewing its connection left ~3.5 KB of wasm per client). Dropped after the
    /// view (fields drop in order), when the host calls `free()` or the GC finalises it.
    _owner: Owner,
}

impl Drop for McpClient {
    fn drop(&mut self) {
        self.slot.set_value(None);
        self.place.remove();
    }
}

/// Makes this client's own place in `container`: a `<div class="mce-client">` marked
/// `data-mce-client`, appended after emptying the container of everything but the places
/// of other clients still open there. Two clients on one element or one shadow root each
/// keep their own place: the first one's cards (and what was typed in them) survive the
/// second's connect. Whatever else the host left there goes, as it always did.
fn own_place(container: &web_sys::HtmlElement) -> Result<web_sys::HtmlElement, JsValue> {
    let nodes: Vec<web_sys::Node> =
        std::iter::successors(container.first_child(), web_sys::Node::next_sibling).collect();
    for node in nodes {
        let open_client = node
            .dyn_ref::<web_sys::Element>()
            .is_some_and(|el| el.has_attribute(PLACE_MARK));
        if !open_client {
            let _ = container.remove_child(&node);
        }
    }
    let place = container
        .owner_document()
        .ok_or_else(|| js_error("McpClient.connect: the container is in no document"))?
        .create_element("div")?
        .dyn_into::<web_sys::HtmlElement>()?;
    place.set_class_name("mce-client");
    place.set_attribute(PLACE_MARK, "")?;
    container.append_child(&place)?;
    Ok(place)
}

/// The attribute that marks an open client's place in its container ([`own_place`]).
const PLACE_MARK: &str = "data-mce-client";

/// A JS `Error` with `message`.
fn js_error(message: impl AsRef<str>) -> JsValue {
    js_sys::Error::new(message.as_ref()).into()
}

/// A Rust value as plain JS data, as `JSON.parse` would give it (see [`value_to_js`]).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value_to_js(value, "could not hand over the result").map_err(js_error)
}

/// A call's raw result as the JS object `JSON.parse` makes of the server's text: every
/// number as the engine reads it (an int64 id is the nearest double, not a refusal after
/// the tool ran), a `__proto__` key an own property. Anything but an object is refused.
fn result_to_js(raw: &RawValue) -> Result<JsValue, String> {
    let value = json_to_js(raw.get(), "the server's result")?;
    if value.is_object() && !js_sys::Array::is_array(&value) {
        Ok(value)
    } else {
        Err("the server's result is not an object".into())
    }
}

/// A JS object argument as JSON object (`undefined` / `null`: empty); a cycle or a
/// throwing getter is refused in words naming the argument.
fn object_arg(value: JsValue, what: &str) -> Result<Map<String, Value>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Map::new());
    }
    match mcp_elicit_web::boundary::json_arg(&value, what).map_err(js_error)? {
        Value::Object(map) => Ok(map),
        _ => Err(js_error(format!("{what} must be a plain object"))),
    }
}

/// The input schema of tool `name`, from the cached `tools/list` (listed once when there is
/// none yet, or when the tool is not in it: the server's tools may have changed).
async fn input_schema(
    connection: &Connection,
    cache: &Rc<RefCell<Option<Vec<Tool>>>>,
    name: &str,
) -> Option<Value> {
    let cached = |cache: &RefCell<Option<Vec<Tool>>>| {
        cache
            .borrow()
            .as_ref()
            .and_then(|tools| tools.iter().find(|t| t.name == name))
            .map(|t| t.input_schema.clone())
    };
    if let Some(schema) = cached(cache) {
        return Some(schema);
    }
    let tools = connection.list_tools().await.ok()?;
    *cache.borrow_mut() = Some(tools);
    cached(cache)
}

/// A list as a JS array, or its failure as an `Error` in words.
fn listed<T: Serialize>(list: Result<Vec<T>, ClientError>) -> Result<JsValue, JsValue> {
    to_js(&list.map_err(|e| js_error(e.to_string()))?)
}

#[wasm_bindgen]
impl McpClient {
    /// Connects (see the module docs for `options`) and shows elicitations in
    /// `options.container`. Rejects with the reason in words.
    pub async fn connect(url: String, options: JsValue) -> Result<McpClient, JsValue> {
        // The catalog of options.locale first: its cards and sign-in card speak it from
        // their first paint.
        let locale = js_sys::Reflect::get(&options, &JsValue::from_str("locale")).ok();
        mcp_elicit_web::i18n::load_for(locale.and_then(|l| l.as_string()).as_deref()).await;
        let options::HostOptions {
            container,
            config,
            on_elicitation,
            messages,
        } = options::parse(url, &options)
            .map_err(|why| js_error(format!("McpClient.connect: {why}")))?;
        // A token kept earlier in the tab, or a sign-in the page came back from.
        let sign_in = config.http.sign_in.clone();
        if let Some(sign_in) = &sign_in {
            sign_in.load().await;
        }
        let owner = Owner::new();
        let slot = StoredValue::<Option<Connection>, LocalStorage>::new_local(None);
        let (requests, on_answer) = owner.with(|| {
            let requests = PendingRequests::new();
            // A lost answer waits for the host to make its call again.
            let on_answer: AnswerFn = Callback::new(move |(id, result, status)| {
                deliver(slot.try_get_value().flatten(), id, result, status, |_| {
                    false
                })
            });
            (requests, on_answer)
        });
        let sink = match on_elicitation {
            Some(handler) => {
                on_elicitation::intercept(requests.sink(), handler, slot, messages.clone())
            }
            None => requests.sink(),
        };
        let connection = Connection::connect(config, sink)
            .await
            .map_err(|e| js_error(e.to_string()))?;
        if let Some(sign_in) = &sign_in {
            // From now on the era's own authorization rules apply (a step-up's scopes).
            sign_in.set_protocol(match &connection {
                Connection::Modern(_) => mcp_elicit::auth::AuthProtocol::Modern2026_07_28,
                Connection::Legacy(_) => mcp_elicit::auth::AuthProtocol::Legacy2025_11_25,
            });
        }
        slot.set_value(Some(connection.clone()));
        let place = own_place(&container)?;
        let for_view = messages.clone();
        let view = mount_to(place.clone(), move || {
            provide_context(for_view);
            view! {
                <p class="notice" role="status">
                    {move || requests.notice.get().unwrap_or_default()}
                </p>
                <PendingList requests=requests on_answer=on_answer />
            }
            .into_any()
        });
        Ok(McpClient {
            connection,
            requests,
            tools: Rc::default(),
            messages,
            place,
            _view: view,
            slot,
            _owner: owner,
        })
    }

    /// The protocol version in use: `2026-07-28`, or the one the legacy handshake chose.
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> String {
        self.connection.protocol_version().to_owned()
    }

    /// Promise of every tool (`tools/list`, all pages).
    #[wasm_bindgen(js_name = listTools)]
    pub fn list_tools(&self) -> js_sys::Promise {
        let connection = self.connection.clone();
        let cache = self.tools.clone();
        future_to_promise(async move {
            let tools = connection.list_tools().await;
            if let Ok(tools) = &tools {
                *cache.borrow_mut() = Some(tools.clone());
            }
            listed(tools)
        })
    }

    /// Promise of every prompt (`prompts/list`; none when the server offers none).
    #[wasm_bindgen(js_name = listPrompts)]
    pub fn list_prompts(&self) -> js_sys::Promise {
        let connection = self.connection.clone();
        future_to_promise(async move { listed(connection.list_prompts().await) })
    }

    /// Promise of every resource (`resources/list`; none when the server offers none).
    #[wasm_bindgen(js_name = listResources)]
    pub fn list_resources(&self) -> js_sys::Promise {
        let connection = self.connection.clone();
        future_to_promise(async move { listed(connection.list_resources().await) })
    }

    /// Promise of every resource template (`resources/templates/list`).
    #[wasm_bindgen(js_name = listResourceTemplates)]
    pub fn list_resource_templates(&self) -> js_sys::Promise {
        let connection = self.connection.clone();
        future_to_promise(async move { listed(connection.list_resource_templates().await) })
    }

    /// Promise of the tool's final `CallToolResult`, after every elicitation it asks.
    /// The modern era's `Mcp-Param-*` headers need the tool's schema: it comes from the
    /// latest `tools/list` (made now if there is none, or it lacks the tool).
    #[wasm_bindgen(js_name = callTool)]
    pub fn call_tool(
        &self,
        name: String,
        arguments: JsValue,
        options: Option<js_sys::Object>,
    ) -> js_sys::Promise {
        let connection = self.connection.clone();
        let cache = self.tools.clone();
        let messages = self.messages.clone();
        future_to_promise(async move {
            let arguments = object_arg(arguments, "callTool's arguments")?;
            let options = long_call::parse_options(options, "callTool").map_err(js_error)?;
            let schema = match &connection {
                Connection::Modern(_) => input_schema(&connection, &cache, &name).await,
                Connection::Legacy(_) => None,
            };
            let call = Call::Tool {
                name: name.clone(),
                arguments,
            };
            let failed =
                |e: &dyn std::fmt::Display| js_error(format!("The call to {name} failed: {e}"));
            let raw = long_call::run(&connection, call, schema, options, &messages)
                .await
                .map_err(|e| failed(&e))?;
            result_to_js(&raw).map_err(|e| failed(&e))
        })
    }

    /// Promise of the prompt's `GetPromptResult`, after every elicitation it asks.
    #[wasm_bindgen(js_name = getPrompt)]
    pub fn get_prompt(
        &self,
        name: String,
        arguments: JsValue,
        options: Option<js_sys::Object>,
    ) -> js_sys::Promise {
        let connection = self.connection.clone();
        let messages = self.messages.clone();
        future_to_promise(async move {
            let arguments = object_arg(arguments, "getPrompt's arguments")?;
            let options = long_call::parse_options(options, "getPrompt").map_err(js_error)?;
            let call = Call::Prompt {
                name: name.clone(),
                arguments,
            };
            let failed = |e: &dyn std::fmt::Display| {
                js_error(format!("Getting the prompt {name} failed: {e}"))
            };
            let raw = long_call::run(&connection, call, None, options, &messages)
                .await
                .map_err(|e| failed(&e))?;
            result_to_js(&raw).map_err(|e| failed(&e))
        })
    }

    /// Promise of the resource's `ReadResourceResult`, after every elicitation it asks.
    #[wasm_bindgen(js_name = readResource)]
    pub fn read_resource(&self, uri: String, options: Option<js_sys::Object>) -> js_sys::Promise {
        let connection = self.connection.clone();
        let messages = self.messages.clone();
        future_to_promise(async move {
            let options = long_call::parse_options(options, "readResource").map_err(js_error)?;
            let call = Call::Resource { uri: uri.clone() };
            let failed = |e: &dyn std::fmt::Display| js_error(format!("Reading {uri} failed: {e}"));
            let raw = long_call::run(&connection, call, None, options, &messages)
                .await
                .map_err(|e| failed(&e))?;
            result_to_js(&raw).map_err(|e| failed(&e))
        })
    }

    /// Ends the connection (a legacy session is DELETEd) and removes its cards.
    pub fn close(&self) -> js_sys::Promise {
        let connection = self.connection.clone();
        self.requests.clear();
        // A closed client's place may go when the next client connects to its container.
        let _ = self.place.remove_attribute(PLACE_MARK);
        future_to_promise(async move {
            connection.close().await;
            Ok(JsValue::UNDEFINED)
        })
    }
}
