//! `options.onElicitation`: a host's programmatic answers (a saved profile, a policy). The
//! host's function sees each elicitation before any card does and may answer it, or let
//! the card show. Whatever the function does (throw, reject, never settle, return a
//! hostile or invalid value) the request is never lost: it falls back to the card, with a
//! notice in words saying why.
//!
//! The interception sits in the host's event sink, so a programmatic answer goes through
//! [`Connection::answer`] with the request's routing id, exactly as a card's Submit does:
//! routing, session binding and resend rules are the card's.
//!
//! ```ts
//! type McpElicitationParams =
//!   | { mode?: "form"; message: string; requestedSchema: object }
//!   | { mode: "url"; message: string; url: string; elicitationId: string };
//! interface McpElicitationInfo {
//!   server: { name: string | null; host: string }; // display only: a server names itself
//!   key: string;                        // the data-elicitation value of its card
//!   mode: "form" | "url";
//!   era: "2026-07-28" | "2025-11-25";
//! }
//! type McpElicitResult =
//!   | { action: "accept"; content: { [field: string]: string | number | boolean | string[] } }
//!   | { action: "decline" }
//!   | { action: "cancel" };
//! onElicitation?: (params: McpElicitationParams, info: McpElicitationInfo) =>
//!   McpElicitResult | undefined | null | Promise<McpElicitResult | undefined | null>;
//! ```
//!
//! - `undefined` / `null`: the card shows as usual.
//! - `decline` / `cancel`: sent without a card, in either mode.
//! - `accept` in form mode: sent without a card only if `content` passes the card's own
//!   validation against the request's schema (the normalised content is sent, as the
//!   card's Submit would); otherwise nothing is sent and the card shows with a notice
//!   naming the misfit fields.
//! - `accept` in URL mode: nothing is opened or sent; the card shows (only the person's
//!   click on Open may open a page).
//! - A throw, a rejection, a value that is not an ElicitResult (or cannot be read as JSON:
//!   a cycle, a throwing getter), no answer within [`HANDLER_TIMEOUT_MS`], or an answer
//!   that could not be delivered: the card shows, with a notice in words.
//! - One call per request; at most [`MAX_HANDLER_CALLS_IN_FLIGHT`] at once, later requests
//!   show their card directly. A request the session retires while its handler runs shows
//!   its retired card, and the handler's answer is not sent.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Function;
use leptos::prelude::*;
use mcp_elicit::validate::validate_content;
use mcp_elicit::wire::{ElicitAction, ElicitRequestParams, ElicitResult};
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use crate::options::error_text;
use mcp_elicit_web::boundary::{json_arg, settle, value_to_js};
use mcp_elicit_web::client::host_texts;
use mcp_elicit_web::client::{ClientEvent, Connection, EventSink, ServerIdentity};
use mcp_elicit_web::i18n::Messages;
use mcp_elicit_web::transport::within;

/// Most handler calls awaiting their answer at once, per connection. A policy answers in
/// microseconds; a handler that asks a slow service for each of a flood of requests would
/// otherwise hold every one of them invisibly. Beyond it a new request skips the handler
/// and its card shows at once (the person can always answer it).
pub const MAX_HANDLER_CALLS_IN_FLIGHT: usize = 16;

/// How long the handler may take for one request before its card shows anyway (a Promise
/// that never settles must not hide a request for ever). Ten seconds is ample for a
/// lookup in a saved profile or a local policy; an answer arriving later is ignored.
pub const HANDLER_TIMEOUT_MS: u32 = 10_000;

/// Most field errors a notice quotes when the host's content does not fit the form: enough
/// for a developer to see the mistake; the rest are left out of one status line.
const MAX_ERRORS_IN_NOTICE: usize = 3;

/// The host's `onElicitation` function and the count of its calls in flight.
#[derive(Clone)]
pub struct ElicitationHandler {
    function: Function,
    in_flight: Rc<Cell<usize>>,
}

impl ElicitationHandler {
    pub fn new(function: Function) -> Self {
        ElicitationHandler {
            function,
            in_flight: Rc::default(),
        }
    }
}

/// The handler's second argument: who asks and how to route, for display and bookkeeping
/// only (a server names itself; `host` is the configured endpoint's).
#[derive(Serialize)]
struct Info<'a> {
    server: InfoServer<'a>,
    key: &'a str,
    mode: &'static str,
    era: &'static str,
}

#[derive(Serialize)]
struct InfoServer<'a> {
    name: Option<&'a str>,
    host: &'a str,
}

/// What the handler decided for one request.
enum Verdict {
    /// Send this answer without a card.
    Answer(ElicitResult),
    /// The handler let the card show (returned `undefined` / `null`).
    Card,
    /// The card shows, with this notice (in the connection's language).
    CardWithNotice(String),
}

/// `inner` with `handler` in front of its elicitations. `connection` is the slot the
/// connection is put in once connected; a request arriving before that shows its card.
/// The notices are in the language of `messages` (the connection's).
pub fn intercept(
    inner: EventSink,
    handler: ElicitationHandler,
    connection: StoredValue<Option<Connection>, LocalStorage>,
    messages: Messages,
) -> EventSink {
    let server: Rc<RefCell<Option<ServerIdentity>>> = Rc::default();
    // Routing ids whose handler call runs, with the reason if the session retired the
    // request meanwhile: its card then shows retired, and no answer is sent.
    let waiting: Rc<RefCell<HashMap<String, Option<String>>>> = Rc::default();
    Rc::new(move |event| match event {
        ClientEvent::Elicit { id, key, params } => {
            let Some(conn) = connection.try_get_value().flatten() else {
                return inner(ClientEvent::Elicit { id, key, params });
            };
            if handler.in_flight.get() >= MAX_HANDLER_CALLS_IN_FLIGHT {
                inner(ClientEvent::Notice(host_texts::handler_busy(
                    &messages,
                    MAX_HANDLER_CALLS_IN_FLIGHT,
                )));
                return inner(ClientEvent::Elicit { id, key, params });
            }
            let identity = server.borrow().clone();
            let handler = handler.clone();
            let inner = inner.clone();
            let waiting = waiting.clone();
            let m = messages.clone();
            waiting.borrow_mut().insert(id.clone(), None);
            handler.in_flight.set(handler.in_flight.get() + 1);
            leptos::task::spawn_local(async move {
                let era = match &conn {
                    Connection::Modern(_) => "2026-07-28",
                    Connection::Legacy(_) => "2025-11-25",
                };
                let verdict = within(
                    HANDLER_TIMEOUT_MS,
                    ask(&handler.function, &params, &key, identity.as_ref(), era, &m),
                )
                .await
                .unwrap_or_else(|| {
                    Verdict::CardWithNotice(host_texts::handler_timed_out(
                        &m,
                        HANDLER_TIMEOUT_MS / 1000,
                    ))
                });
                handler
                    .in_flight
                    .set(handler.in_flight.get().saturating_sub(1));
                let retired = waiting.borrow_mut().remove(&id).flatten();
                if let Some(reason) = retired {
                    inner(ClientEvent::Elicit {
                        id: id.clone(),
                        key,
                        params,
                    });
                    return inner(ClientEvent::Retired { id, reason });
                }
                match verdict {
                    Verdict::Answer(result) => {
                        if let Err(err) = conn.answer(&id, result).await {
                            inner(ClientEvent::Notice(host_texts::answer_not_delivered(
                                &m,
                                &err.words(&m),
                            )));
                            inner(ClientEvent::Elicit { id, key, params });
                        }
                    }
                    Verdict::Card => inner(ClientEvent::Elicit { id, key, params }),
                    Verdict::CardWithNotice(why) => {
                        inner(ClientEvent::Notice(why));
                        inner(ClientEvent::Elicit { id, key, params });
                    }
                }
            });
        }
        ClientEvent::Retired { id, reason } => {
            match waiting.borrow_mut().get_mut(&id) {
                Some(slot) => *slot = Some(reason),
                None => inner(ClientEvent::Retired { id, reason }),
            };
        }
        ClientEvent::Server(identity) => {
            *server.borrow_mut() = Some(identity.clone());
            inner(ClientEvent::Server(identity))
        }
        other => inner(other),
    })
}

/// Calls the handler for one request and judges what it returned.
async fn ask(
    function: &Function,
    params: &ElicitRequestParams,
    key: &str,
    server: Option<&ServerIdentity>,
    era: &'static str,
    m: &Messages,
) -> Verdict {
    let failed = |why: String| Verdict::CardWithNotice(host_texts::handler_failed(m, &why));
    let mode = match params {
        ElicitRequestParams::Form(_) => "form",
        ElicitRequestParams::Url(_) => "url",
    };
    let info = Info {
        server: InfoServer {
            name: server.and_then(|s| s.name.as_deref()),
            host: server.map_or("", |s| s.host.as_str()),
        },
        key,
        mode,
        era,
    };
    let (arg, info) = match (
        value_to_js(params, "the request could not be handed over"),
        value_to_js(&info, "the request could not be handed over"),
    ) {
        (Ok(arg), Ok(info)) => (arg, info),
        (Err(why), _) | (_, Err(why)) => return failed(why),
    };
    let returned = match function.call2(&JsValue::NULL, &arg, &info) {
        Ok(returned) => returned,
        Err(thrown) => return failed(error_text(thrown)),
    };
    let value = match JsFuture::from(settle(&returned)).await {
        Ok(value) => value,
        Err(thrown) => return failed(error_text(thrown)),
    };
    if value.is_undefined() || value.is_null() {
        return Verdict::Card;
    }
    let result = match json_arg(&value, "its result")
        .and_then(|v| serde_json::from_value::<ElicitResult>(v).map_err(|e| e.to_string()))
    {
        Ok(result) => result,
        Err(why) => return failed(host_texts::handler_result(m, &why)),
    };
    judge(params, result, m)
}

/// A `decline` / `cancel` is sent as is. An `accept` needs the person's hand in URL mode
/// (only their click may open a page), and in form mode content that passes the card's
/// own validation against the request's schema.
fn judge(params: &ElicitRequestParams, result: ElicitResult, m: &Messages) -> Verdict {
    match (result.action, params) {
        (ElicitAction::Decline, _) => Verdict::Answer(ElicitResult::decline()),
        (ElicitAction::Cancel, _) => Verdict::Answer(ElicitResult::cancel()),
        (ElicitAction::Accept, ElicitRequestParams::Url(_)) => {
            Verdict::CardWithNotice(host_texts::url_accepted(m))
        }
        (ElicitAction::Accept, ElicitRequestParams::Form(form)) => {
            // Compiled once: the card this may fall back to reads the same compile.
            let spec = match form.spec() {
                Ok(spec) => spec,
                Err(e) => {
                    return Verdict::CardWithNotice(host_texts::form_unreadable(m, &m.refusal(e)))
                }
            };
            let content = serde_json::Value::Object(result.content.unwrap_or_default());
            match validate_content(spec, &content) {
                Ok(content) => Verdict::Answer(ElicitResult::accept(Some(content))),
                Err(errors) => Verdict::CardWithNotice(host_texts::misfit(
                    m,
                    spec,
                    &content,
                    &errors,
                    MAX_ERRORS_IN_NOTICE,
                )),
            }
        }
    }
}
