//! The 2025-11-25 client: `initialize` + `notifications/initialized`, a session id on every
//! later request, server-to-client `elicitation/create` requests arriving on a POST's SSE
//! stream or on the session's GET stream, answered by POSTing a JSON-RPC response with the
//! same id; `notifications/elicitation/complete` ends URL cards; 404 re-initialises.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use mcp_elicit::wire::jsonrpc::{error_body, notification_body, request_body, result_body};
use mcp_elicit::wire::meta::LEGACY_PROTOCOL_VERSION;
use mcp_elicit::wire::{
    codes, from_raw, ClientCapabilities, ElicitRequestParams, ElicitResult, ElicitationComplete,
    ErrorObject, Implementation, Incoming, RequestId, UrlElicitationRequiredData,
};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use web_sys::AbortController;

use super::config::ClientConfig;
use super::events::{ClientError, ClientEvent, EventSink};
use super::rpc;
use crate::transport::{self, sleep, TransportError};

/// First and longest wait before reopening a dropped GET stream.
const GET_RETRY_FIRST_MS: u32 = 1_000;
const GET_RETRY_MAX_MS: u32 = 30_000;

/// Prefix of the keys of URL elicitations that came in a -32042 error (they have no
/// JSON-RPC id to answer: the user just opens them, then retries the call).
pub const URL_REQUIRED_KEY_PREFIX: &str = "url-required:";

/// A server request shown in the UI.
struct PendingRequest {
    id: RequestId,
    params: ElicitRequestParams,
}

/// An answer to re-deliver when the same question comes again on a new session.
struct ReplayAnswer {
    /// The key of the card that holds the answer (it goes once the answer is delivered).
    key: String,
    params: ElicitRequestParams,
    result: ElicitResult,
}

/// A legacy session. Cheap to clone; all clones share the session.
#[derive(Clone)]
pub struct LegacySession {
    inner: Rc<Inner>,
}

struct Inner {
    config: ClientConfig,
    sink: EventSink,
    next_id: Cell<i64>,
    session_id: RefCell<Option<String>>,
    /// Server requests waiting for the user, by the key shown in the UI.
    pending: RefCell<HashMap<String, PendingRequest>>,
    /// Answers whose server request was lost with the session (server restart): when the
    /// re-run call asks the same question again, it is answered with these at once.
    replay: RefCell<Vec<ReplayAnswer>>,
    /// Aborts the GET stream on disconnect.
    get_stream: RefCell<Option<AbortController>>,
    closed: Cell<bool>,
}

impl LegacySession {
    /// Runs the handshake and opens the GET stream.
    pub async fn connect(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        let session = LegacySession {
            inner: Rc::new(Inner {
                config,
                sink,
                next_id: Cell::new(0),
                session_id: RefCell::new(None),
                pending: RefCell::new(HashMap::new()),
                replay: RefCell::new(Vec::new()),
                get_stream: RefCell::new(None),
                closed: Cell::new(false),
            }),
        };
        session.handshake().await?;
        Ok(session)
    }

    async fn handshake(&self) -> Result<(), ClientError> {
        *self.inner.session_id.borrow_mut() = None;
        let id = self.fresh_id();
        let params = json!({
            "protocolVersion": LEGACY_PROTOCOL_VERSION,
            "capabilities": ClientCapabilities::elicitation_only(),
            "clientInfo": Implementation::this_client(),
        });
        let body = request_body(&id, "initialize", Some(&params)).map_err(wire)?;
        let reply = rpc::call(&self.inner.config.url, &[], body, &id, |m| self.route(m)).await?;
        let result: mcp_elicit::wire::InitializeResult =
            from_raw(&reply.result, "initialize result").map_err(wire)?;
        if result.protocol_version != LEGACY_PROTOCOL_VERSION {
            return Err(ClientError::Protocol(format!(
                "the server chose protocol version {}, but this client speaks {LEGACY_PROTOCOL_VERSION}",
                result.protocol_version
            )));
        }
        *self.inner.session_id.borrow_mut() = reply.session_id;
        let note = notification_body::<Value>("notifications/initialized", None).map_err(wire)?;
        rpc::send_one_way(&self.inner.config.url, &self.headers(), note).await?;
        self.open_get_stream();
        Ok(())
    }

    fn fresh_id(&self) -> RequestId {
        let id = self.inner.next_id.get();
        self.inner.next_id.set(id.saturating_add(1));
        RequestId::Number(id)
    }

    /// `MCP-Protocol-Version` and, once we have one, `Mcp-Session-Id`.
    fn headers(&self) -> Vec<(String, String)> {
        let mut headers = vec![(
            "MCP-Protocol-Version".to_owned(),
            LEGACY_PROTOCOL_VERSION.to_owned(),
        )];
        if let Some(id) = self.inner.session_id.borrow().as_ref() {
            headers.push(("Mcp-Session-Id".to_owned(), id.clone()));
        }
        headers
    }

    /// Sends `method` and waits for its result, handling server requests on the way. An
    /// expired session is re-initialised once, with a notice, and the request resent.
    pub async fn request(
        &self,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        match self.request_once(method, &params).await {
            Err(ClientError::Transport(TransportError::SessionExpired)) => {
                self.stop_get_stream();
                self.handshake().await?;
                (self.inner.sink)(ClientEvent::Notice(
                    "The server had forgotten the session (it expired or restarted); \
                     connected again with a new session."
                        .into(),
                ));
                self.request_once(method, &params).await
            }
            other => other,
        }
    }

    async fn request_once(
        &self,
        method: &str,
        params: &Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        let id = self.fresh_id();
        let body = request_body(&id, method, Some(params)).map_err(wire)?;
        let outcome = rpc::call(&self.inner.config.url, &self.headers(), body, &id, |m| {
            self.route(m)
        })
        .await;
        match outcome {
            Ok(reply) => Ok(reply.result),
            Err(ClientError::Rpc {
                code,
                message,
                data,
            }) if code == codes::URL_ELICITATION_REQUIRED => {
                self.show_required_urls(data.as_ref());
                Err(ClientError::Rpc {
                    code,
                    message,
                    data,
                })
            }
            Err(other) => Err(other),
        }
    }

    /// -32042: shows each URL elicitation the server requires before the call can proceed.
    fn show_required_urls(&self, data: Option<&Value>) {
        let Some(data) = data.cloned() else { return };
        let Ok(required) = serde_json::from_value::<UrlElicitationRequiredData>(data) else {
            return;
        };
        for params in required.elicitations {
            let key = format!("{URL_REQUIRED_KEY_PREFIX}{}", params.elicitation_id);
            (self.inner.sink)(ClientEvent::Elicit {
                key,
                params: ElicitRequestParams::Url(params),
            });
        }
    }

    /// Everything the server sends that is not the response we wait for.
    fn route(&self, message: Incoming) {
        match message {
            Incoming::Request { id, method, params } => match method.as_str() {
                "elicitation/create" => {
                    let parsed = params
                        .as_deref()
                        .map(|p| from_raw::<ElicitRequestParams>(p, "elicitation request"));
                    match parsed {
                        Some(Ok(params)) => self.elicit(id, params),
                        Some(Err(err)) => self.reply_error(id, codes::INVALID_PARAMS, &err.message),
                        None => self.reply_error(
                            id,
                            codes::INVALID_PARAMS,
                            "elicitation/create needs params",
                        ),
                    }
                }
                "ping" => self.reply(id, json!({})),
                "roots/list" => self.reply(id, json!({ "roots": self.inner.config.roots })),
                other => {
                    let message = format!("this client does not handle {other}");
                    self.reply_error(id, codes::METHOD_NOT_FOUND, &message)
                }
            },
            Incoming::Notification { method, params } => {
                if method == "notifications/elicitation/complete" {
                    let done = params
                        .as_deref()
                        .and_then(|p| from_raw::<ElicitationComplete>(p, "completion").ok());
                    if let Some(done) = done {
                        (self.inner.sink)(ClientEvent::Completed {
                            elicitation_id: done.elicitation_id,
                        });
                    }
                }
            }
            // A stray response or error (e.g. to a request we gave up on): nothing waits for it.
            Incoming::Response { .. } | Incoming::Error { .. } => {}
        }
    }

    /// A server `elicitation/create`: answered at once if it repeats a question whose
    /// answer was lost with the old session, else shown to the user.
    fn elicit(&self, id: RequestId, params: ElicitRequestParams) {
        let replayed = {
            let mut replay = self.inner.replay.borrow_mut();
            replay
                .iter()
                .position(|r| r.params == params)
                .map(|at| replay.remove(at))
        };
        if let Some(ReplayAnswer { key, result, .. }) = replayed {
            let session = self.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let delivered = match result_body(&id, &result) {
                    Ok(body) => {
                        rpc::send_one_way(&session.inner.config.url, &session.headers(), body).await
                    }
                    Err(err) => Err(wire(err)),
                };
                if delivered.is_ok() {
                    (session.inner.sink)(ClientEvent::Answered { key });
                }
            });
            return;
        }
        let key = key_of(&id);
        self.inner.pending.borrow_mut().insert(
            key.clone(),
            PendingRequest {
                id,
                params: params.clone(),
            },
        );
        (self.inner.sink)(ClientEvent::Elicit { key, params });
    }

    /// Answers a server request in the background (pings, refusals: nobody waits on these).
    fn reply(&self, id: RequestId, result: Value) {
        if let Ok(body) = result_body(&id, &result) {
            self.post_in_background(body);
        }
    }

    fn reply_error(&self, id: RequestId, code: i64, message: &str) {
        let error = ErrorObject {
            code,
            message: message.to_owned(),
            data: None,
        };
        if let Ok(body) = error_body(&id, &error) {
            self.post_in_background(body);
        }
    }

    fn post_in_background(&self, body: String) {
        let url = self.inner.config.url.clone();
        let headers = self.headers();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = rpc::send_one_way(&url, &headers, body).await;
        });
    }

    /// POSTs the user's answer to the server request shown as `key`. On failure the request
    /// stays pending so the user can resend.
    pub async fn answer(&self, key: &str, result: ElicitResult) -> Result<(), ClientError> {
        if key.starts_with(URL_REQUIRED_KEY_PREFIX) {
            // Nothing to send: the server learns of it when the URL flow completes.
            (self.inner.sink)(ClientEvent::Answered {
                key: key.to_owned(),
            });
            return Ok(());
        }
        let id = self
            .inner
            .pending
            .borrow()
            .get(key)
            .map(|p| p.id.clone())
            .ok_or_else(|| ClientError::UnknownElicitation(key.to_owned()))?;
        let body = result_body(&id, &result).map_err(wire)?;
        match rpc::send_one_way(&self.inner.config.url, &self.headers(), body).await {
            Ok(()) => {
                self.inner.pending.borrow_mut().remove(key);
                (self.inner.sink)(ClientEvent::Answered {
                    key: key.to_owned(),
                });
                Ok(())
            }
            Err(ClientError::Transport(TransportError::SessionExpired)) => {
                // The server restarted: its request is gone. Keep the answer for the same
                // question on a new session; the caller re-runs the call.
                self.handshake().await?;
                let lost = self.inner.pending.borrow_mut().remove(key);
                let Some(lost) = lost else {
                    return Err(ClientError::UnknownElicitation(key.to_owned()));
                };
                self.inner.replay.borrow_mut().push(ReplayAnswer {
                    key: key.to_owned(),
                    params: lost.params,
                    result,
                });
                (self.inner.sink)(ClientEvent::Notice(
                    "The server had forgotten the session (it restarted); connected again \
                     with a new session, and the call is re-run with your answer."
                        .into(),
                ));
                Err(ClientError::RequestLost)
            }
            Err(other) => Err(other),
        }
    }

    /// Keeps the GET stream open in the background, reopening it after a polite delay when
    /// it drops, until the session closes or the server says it has none (405).
    fn open_get_stream(&self) {
        self.stop_get_stream();
        let controller = match AbortController::new() {
            Ok(c) => c,
            Err(_) => return,
        };
        let signal = controller.signal();
        *self.inner.get_stream.borrow_mut() = Some(controller);
        let session = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let mut delay = GET_RETRY_FIRST_MS;
            loop {
                if session.inner.closed.get() || signal.aborted() {
                    return;
                }
                let headers = session.headers();
                match transport::open_get_stream(&session.inner.config.url, &headers, Some(&signal))
                    .await
                {
                    Ok(None)
                    | Err(TransportError::Aborted)
                    | Err(TransportError::SessionExpired) => return,
                    Ok(Some(mut stream)) => {
                        delay = GET_RETRY_FIRST_MS;
                        while let Ok(Some(text)) = stream.next_message().await {
                            if let Ok(message) = mcp_elicit::wire::parse_message(&text) {
                                session.route(message);
                            }
                        }
                        if let Some(retry) = stream.retry_ms() {
                            delay = retry.clamp(100, GET_RETRY_MAX_MS);
                        }
                    }
                    Err(_) => {}
                }
                if signal.aborted() {
                    return;
                }
                sleep(delay).await;
                delay = delay.saturating_mul(2).min(GET_RETRY_MAX_MS);
            }
        });
    }

    fn stop_get_stream(&self) {
        if let Some(controller) = self.inner.get_stream.borrow_mut().take() {
            controller.abort();
        }
    }

    /// Ends the session: stops the GET stream and DELETEs the session on the server.
    pub async fn close(&self) {
        self.inner.closed.set(true);
        self.stop_get_stream();
        self.inner.pending.borrow_mut().clear();
        if self.inner.session_id.borrow().is_some() {
            let _ = transport::delete(&self.inner.config.url, &self.headers()).await;
        }
    }
}

/// The UI key of a server request: its JSON-RPC id as text (`1`, or the string itself).
fn key_of(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}

fn wire(err: mcp_elicit::wire::WireError) -> ClientError {
    ClientError::Protocol(err.message)
}
