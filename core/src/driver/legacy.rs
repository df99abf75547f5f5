//! A legacy-era (2025-11-25) session as a state machine: the `initialize`
//! handshake, the session headers on every later request, id allocation, and
//! the routing of every message that arrives on a POST's SSE stream or on the
//! session's GET stream.
//!
//! ```text
//!   initialize_request() ──POST──▶            on_http_status(id, status, mcp-session-id header)
//!   on_message(text) ─▶ Initialized{notification}   send `notification` (notifications/initialized)
//!   request(method, params) ──POST──▶          each message of its SSE/JSON body → on_message:
//!       ─▶ Response{id, result}                 our answer
//!       ─▶ Failed{id, error}                    a JSON-RPC error (-32042 carries its URL elicitations)
//!       ─▶ Elicit{id, params}                   show it; POST answer_elicitation(id, result)
//!       ─▶ Sampling{id, params}                 (only when sampling is declared) ask the host's
//!                                               handler; POST answer_sampling / refuse_sampling
//!       ─▶ ElicitationComplete{elicitation_id}  a URL card may stop waiting
//!       ─▶ Reply{request}                       POST this automatic answer (ping, roots/list,
//!                                               method-not-found, malformed elicitation)
//!       ─▶ Ignored                              any other notification
//!   get_stream_request() ──GET──▶  the session's stream: feed its messages to on_message too
//!   close_request() ──DELETE──▶
//! ```
//!
//! An HTTP 404 on a request that carried a session id means the server has
//! forgotten the session: [`LegacySession::on_http_status`] returns
//! [`LegacyEvent::SessionExpired`], forgets the session, and the caller says
//! so and starts over with [`LegacySession::initialize_request`]. A 404 on a
//! request sent before that (several were in flight) is `SessionExpired` too,
//! but leaves the state alone: renew once, then resend them all.
//!
//! ```
//! use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
//! use mcp_elicit::wire::{ElicitResult, RequestId};
//!
//! let mut s = LegacySession::new(LegacyConfig::default());
//! let _init = s.initialize_request().unwrap(); // POST it
//! s.on_http_status(Some(&RequestId::Number(0)), 200, Some("session-1"));
//! let ev = s.on_message(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25",
//!     "capabilities":{},"serverInfo":{"name":"demo","version":"1"}}}"#);
//! let LegacyEvent::Initialized { notification: _, .. } = ev else { panic!() };
//! // POST notification; then:
//! let (id, call) = s.request("tools/call", Some(&serde_json::json!({"name":"t","arguments":{}}))).unwrap();
//! assert_eq!(call.header("Mcp-Session-Id"), Some("session-1"));
//! // On that POST's SSE stream the server asks something, then answers:
//! let ev = s.on_message(r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create",
//!     "params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}"#);
//! let LegacyEvent::Elicit { id: asked, .. } = ev else { panic!() };
//! let answer = s.answer_elicitation(&asked, &ElicitResult::cancel()).unwrap(); // POST it
//! assert_eq!(answer.body.as_deref(), Some(r#"{"jsonrpc":"2.0","id":7,"result":{"action":"cancel"}}"#));
//! let ev = s.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
//! assert!(matches!(ev, LegacyEvent::Response { id: got, .. } if got == id));
//! ```

use std::collections::HashMap;

use serde_json::value::RawValue;
use serde_json::Value;

use super::http::{names, HttpMethod, HttpRequest, ACCEPT_STREAM};
use super::DriverError;
use crate::wire::jsonrpc::{error_body, notification_body, request_body, result_body};
use crate::wire::meta::{HANDSHAKE_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSION};
use crate::wire::{
    codes, from_raw, parse_message, ClientCapabilities, ElicitRequestParams, ElicitResult,
    ElicitationComplete, ErrorObject, Implementation, Incoming, InitializeResult, ListRootsResult,
    RequestId, Root,
};

/// Method names the session handles itself.
pub mod methods {
    pub const INITIALIZE: &str = "initialize";
    pub const INITIALIZED: &str = "notifications/initialized";
    pub const PING: &str = "ping";
    pub const ROOTS_LIST: &str = "roots/list";
    pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
    pub const ELICITATION_CREATE: &str = "elicitation/create";
    pub const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";
}

/// Who the client is and what it declares in `initialize`.
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyConfig {
    pub client_info: Implementation,
    pub capabilities: ClientCapabilities,
    /// The answer to the server's `roots/list` (empty by default).
    pub roots: Vec<Root>,
    pub protocol_version: String,
}

impl Default for LegacyConfig {
    fn default() -> Self {
        LegacyConfig {
            client_info: Implementation::this_client(),
            capabilities: ClientCapabilities::for_host(false),
            roots: Vec::new(),
            protocol_version: LEGACY_PROTOCOL_VERSION.to_string(),
        }
    }
}

/// Where the session is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    /// No handshake yet (or the session expired).
    New,
    /// `initialize` sent, no answer yet.
    Initializing,
    /// Handshake done; requests may be sent.
    Ready,
    /// Closed by the client.
    Closed,
}

/// What happened, and what the caller should do about it.
#[derive(Debug, Clone)]
pub enum LegacyEvent {
    /// The handshake succeeded: POST `notification`, then the session is ready.
    Initialized {
        result: InitializeResult,
        notification: HttpRequest,
    },
    /// The result of one of our requests.
    Response {
        id: RequestId,
        method: String,
        result: Box<RawValue>,
    },
    /// One of our requests failed (`id` is `None` when the server could not read it).
    Failed {
        id: Option<RequestId>,
        error: DriverError,
    },
    /// The server asks the user something; answer with [`LegacySession::answer_elicitation`].
    Elicit {
        id: RequestId,
        params: ElicitRequestParams,
    },
    /// The server asks the host's LLM for a completion (`sampling/createMessage`); only
    /// when the config declares sampling (else the session refuses it by itself). Answer
    /// with [`LegacySession::answer_sampling`] or [`LegacySession::refuse_sampling`].
    Sampling { id: RequestId, params: Value },
    /// A URL-mode elicitation finished on the server's side.
    ElicitationComplete { elicitation_id: String },
    /// An answer the session wrote by itself; POST it. `note` says why, when it is a refusal.
    Reply {
        request: HttpRequest,
        note: Option<String>,
    },
    /// The server forgot the session (HTTP 404): re-initialise, and tell the user.
    SessionExpired,
    /// Nothing to do (an unrelated notification or response).
    Ignored,
}

/// The session state machine.
#[derive(Debug, Clone)]
pub struct LegacySession {
    config: LegacyConfig,
    state: SessionState,
    session_id: Option<String>,
    negotiated_version: Option<String>,
    server: Option<InitializeResult>,
    next_id: i64,
    initialize_id: Option<RequestId>,
    /// Our requests in flight, id → method.
    pending: HashMap<RequestId, String>,
}

impl LegacySession {
    pub fn new(config: LegacyConfig) -> Self {
        LegacySession {
            config,
            state: SessionState::New,
            session_id: None,
            negotiated_version: None,
            server: None,
            next_id: 0,
            initialize_id: None,
            pending: HashMap::new(),
        }
    }

    pub fn state(&self) -> SessionState {
        self.state
    }

    /// The `Mcp-Session-Id` the server assigned (a stateless server assigns none).
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The version the server chose in its `initialize` result.
    pub fn protocol_version(&self) -> Option<&str> {
        self.negotiated_version.as_deref()
    }

    /// The id of the latest `initialize` request, to pass to
    /// [`on_http_status`](Self::on_http_status) with its answer.
    pub fn initialize_id(&self) -> Option<&RequestId> {
        self.initialize_id.as_ref()
    }

    /// The server's `initialize` result, once the handshake is done.
    pub fn server(&self) -> Option<&InitializeResult> {
        self.server.as_ref()
    }

    fn allocate_id(&mut self) -> RequestId {
        let id = RequestId::Number(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        id
    }

    /// `initialize`, declaring elicitation (form and url). Starts a new
    /// session: any previous session id and pending requests are forgotten.
    pub fn initialize_request(&mut self) -> Result<HttpRequest, DriverError> {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct InitParams<'a> {
            protocol_version: &'a str,
            capabilities: &'a ClientCapabilities,
            client_info: &'a Implementation,
        }
        self.session_id = None;
        self.negotiated_version = None;
        self.server = None;
        self.pending.clear();
        let id = self.allocate_id();
        let body = request_body(
            &id,
            methods::INITIALIZE,
            Some(&InitParams {
                protocol_version: &self.config.protocol_version,
                capabilities: &self.config.capabilities,
                client_info: &self.config.client_info,
            }),
        )?;
        self.pending.insert(id.clone(), methods::INITIALIZE.into());
        self.initialize_id = Some(id);
        self.state = SessionState::Initializing;
        Ok(HttpRequest::post(body))
    }

    /// The session headers every request after `initialize` carries.
    fn with_session(&self, mut req: HttpRequest) -> HttpRequest {
        if let Some(sid) = &self.session_id {
            req = req.with(names::SESSION_ID, sid.clone());
        }
        let version = self
            .negotiated_version
            .clone()
            .unwrap_or_else(|| self.config.protocol_version.clone());
        req.with(names::PROTOCOL_VERSION, version)
    }

    fn ready(&self) -> Result<(), DriverError> {
        match self.state {
            SessionState::Ready => Ok(()),
            SessionState::Closed => Err(DriverError::Usage("the session is closed".into())),
            _ => Err(DriverError::Usage(
                "the session is not initialised yet".into(),
            )),
        }
    }

    /// A request in the session; returns its id so the caller can match the answer.
    pub fn request(
        &mut self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(RequestId, HttpRequest), DriverError> {
        self.ready()?;
        let id = self.allocate_id();
        let body = request_body(&id, method, params)?;
        self.pending.insert(id.clone(), method.to_string());
        Ok((id.clone(), self.with_session(HttpRequest::post(body))))
    }

    /// The response body to an elicitation request: the user's answer, same id.
    pub fn answer_elicitation(
        &self,
        id: &RequestId,
        result: &ElicitResult,
    ) -> Result<HttpRequest, DriverError> {
        Ok(self.with_session(HttpRequest::post(result_body(id, result)?)))
    }

    /// The response to a `sampling/createMessage` request: the host handler's
    /// `CreateMessageResult`, passed through as it came.
    pub fn answer_sampling(
        &self,
        id: &RequestId,
        result: &Value,
    ) -> Result<HttpRequest, DriverError> {
        Ok(self.with_session(HttpRequest::post(result_body(id, result)?)))
    }

    /// The error response to a `sampling/createMessage` request the host's handler could
    /// not answer (it threw, or the user refused): the server's tool sees `why`.
    pub fn refuse_sampling(&self, id: &RequestId, why: &str) -> Result<HttpRequest, DriverError> {
        let error = ErrorObject {
            code: codes::INTERNAL_ERROR,
            message: why.to_owned(),
            data: None,
        };
        Ok(self.with_session(HttpRequest::post(error_body(id, &error)?)))
    }

    /// The GET that opens the session's server-to-client stream (completions
    /// arrive there). `last_event_id` resumes a broken stream; an id that is
    /// not a [`crate::sse::resume_token`] (empty, or one `fetch` would refuse
    /// or alter) is left out, so the stream opens afresh instead of failing.
    pub fn get_stream_request(
        &self,
        last_event_id: Option<&str>,
    ) -> Result<HttpRequest, DriverError> {
        self.ready()?;
        let mut req = HttpRequest {
            method: HttpMethod::Get,
            headers: vec![(names::ACCEPT.into(), ACCEPT_STREAM.into())],
            body: None,
        };
        if let Some(last) = last_event_id.and_then(crate::sse::resume_token) {
            req = req.with(names::LAST_EVENT_ID, last);
        }
        Ok(self.with_session(req))
    }

    /// The DELETE that ends the session, when there is one to end.
    pub fn close_request(&mut self) -> Option<HttpRequest> {
        let req = self.session_id.as_ref().map(|_| {
            self.with_session(HttpRequest {
                method: HttpMethod::Delete,
                headers: Vec::new(),
                body: None,
            })
        });
        self.state = SessionState::Closed;
        self.session_id = None;
        self.pending.clear();
        req
    }

    /// The HTTP status (and `Mcp-Session-Id` header) of the answer to the
    /// request `id` (`None` for a notification, an answer POST or the GET).
    /// Returns an event when the status itself is the answer.
    pub fn on_http_status(
        &mut self,
        id: Option<&RequestId>,
        status: u16,
        session_id: Option<&str>,
    ) -> Option<LegacyEvent> {
        let is_init = id.is_some() && id == self.initialize_id.as_ref();
        if is_init && (200..300).contains(&status) {
            self.session_id = session_id.map(str::to_string);
            return None;
        }
        if (200..300).contains(&status) {
            return None;
        }
        if status == 404 && !is_init && self.is_stale(id) {
            // Sent on a session already given up (another request's 404 came first, or a
            // new session began since): that session is gone, the current state is not
            // this request's to forget. The caller renews once and resends.
            return Some(LegacyEvent::SessionExpired);
        }
        if status == 404 && self.session_id.is_some() && !is_init {
            self.session_id = None;
            self.negotiated_version = None;
            self.pending.clear();
            self.state = SessionState::New;
            return Some(LegacyEvent::SessionExpired);
        }
        if let Some(id) = id {
            self.pending.remove(id);
        }
        if is_init {
            self.state = SessionState::New;
        }
        id.map(|id| LegacyEvent::Failed {
            id: Some(id.clone()),
            error: DriverError::Http {
                status,
                body: String::new(),
            },
        })
    }

    /// A non-2xx answer whose body may hold a JSON-RPC error: the error wins
    /// over the bare status (except 404 with a session: the session is gone).
    pub fn on_http_failure(
        &mut self,
        id: Option<&RequestId>,
        status: u16,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Option<LegacyEvent> {
        if !(status == 404 && (self.session_id.is_some() || self.is_stale(id))) {
            if let Ok(texts) = super::http::messages_from_body(content_type, body) {
                for text in texts {
                    if let Ok(Incoming::Error { error, .. }) = parse_message(&text) {
                        if let Some(id) = id {
                            self.pending.remove(id);
                        }
                        if id.is_some() && id == self.initialize_id.as_ref() {
                            self.state = SessionState::New;
                        }
                        return Some(LegacyEvent::Failed {
                            id: id.cloned(),
                            error: DriverError::from_rpc(error),
                        });
                    }
                }
            }
        }
        self.on_http_status(id, status, None)
    }

    /// Whether request `id` was sent on a session this machine has since given up: it is no
    /// longer pending (forgetting or starting a session clears them all).
    fn is_stale(&self, id: Option<&RequestId>) -> bool {
        id.is_some_and(|id| !self.pending.contains_key(id))
    }

    /// Routes one JSON-RPC message text from any of the session's streams.
    pub fn on_message(&mut self, text: &str) -> LegacyEvent {
        let message = match parse_message(text) {
            Ok(m) => m,
            Err(e) => {
                return LegacyEvent::Failed {
                    id: None,
                    error: e.into(),
                }
            }
        };
        match message {
            Incoming::Response { id, result } => self.on_response(id, result),
            Incoming::Error { id, error } => {
                if let Some(id) = &id {
                    if self.pending.remove(id).is_none() {
                        return LegacyEvent::Ignored;
                    }
                    if Some(id) == self.initialize_id.as_ref() {
                        self.state = SessionState::New;
                    }
                }
                LegacyEvent::Failed {
                    id,
                    error: DriverError::from_rpc(error),
                }
            }
            Incoming::Request { id, method, params } => self.on_server_request(id, &method, params),
            Incoming::Notification { method, params } => {
                if method != methods::ELICITATION_COMPLETE {
                    return LegacyEvent::Ignored;
                }
                let Some(params) = params else {
                    return LegacyEvent::Ignored;
                };
                match from_raw::<ElicitationComplete>(&params, "elicitation completion") {
                    Ok(c) => LegacyEvent::ElicitationComplete {
                        elicitation_id: c.elicitation_id,
                    },
                    Err(_) => LegacyEvent::Ignored,
                }
            }
        }
    }

    fn on_response(&mut self, id: RequestId, result: Box<RawValue>) -> LegacyEvent {
        let Some(method) = self.pending.remove(&id) else {
            return LegacyEvent::Ignored;
        };
        if Some(&id) != self.initialize_id.as_ref() {
            return LegacyEvent::Response { id, method, result };
        }
        let fail = |s: &mut Self, error: DriverError| {
            s.state = SessionState::New;
            LegacyEvent::Failed {
                id: Some(id.clone()),
                error,
            }
        };
        let init: InitializeResult = match from_raw(&result, "initialize result") {
            Ok(r) => r,
            Err(e) => return fail(self, DriverError::BadResult(e)),
        };
        if !HANDSHAKE_PROTOCOL_VERSIONS.contains(&init.protocol_version.as_str()) {
            let v = init.protocol_version.clone();
            return fail(
                self,
                DriverError::BadResult(crate::wire::WireError::new(format!(
                    "the server chose protocol version {v:?}, which this client cannot speak"
                ))),
            );
        }
        self.negotiated_version = Some(init.protocol_version.clone());
        let notification = match notification_body::<Value>(methods::INITIALIZED, None) {
            Ok(body) => self.with_session(HttpRequest::post(body)),
            Err(e) => return fail(self, e.into()),
        };
        self.server = Some(init.clone());
        self.state = SessionState::Ready;
        LegacyEvent::Initialized {
            result: init,
            notification,
        }
    }

    fn reply_error(&self, id: &RequestId, code: i64, message: String) -> LegacyEvent {
        let error = ErrorObject {
            code,
            message: message.clone(),
            data: None,
        };
        match error_body(id, &error) {
            Ok(body) => LegacyEvent::Reply {
                request: self.with_session(HttpRequest::post(body)),
                note: Some(message),
            },
            Err(e) => LegacyEvent::Failed {
                id: None,
                error: e.into(),
            },
        }
    }

    fn on_server_request(
        &mut self,
        id: RequestId,
        method: &str,
        params: Option<Box<RawValue>>,
    ) -> LegacyEvent {
        match method {
            methods::ELICITATION_CREATE => {
                let parsed = params
                    .as_deref()
                    .ok_or_else(|| "it has no params".to_string())
                    .and_then(|p| {
                        serde_json::from_str::<ElicitRequestParams>(p.get())
                            .map_err(|e| e.to_string())
                    });
                match parsed {
                    Ok(params) => LegacyEvent::Elicit { id, params },
                    Err(why) => self.reply_error(
                        &id,
                        codes::INVALID_PARAMS,
                        format!("The server's elicitation request is malformed: {why}"),
                    ),
                }
            }
            methods::SAMPLING_CREATE_MESSAGE if self.config.capabilities.sampling.is_some() => {
                let params = params
                    .as_deref()
                    .and_then(|p| serde_json::from_str::<Value>(p.get()).ok());
                match params {
                    Some(params @ Value::Object(_)) => LegacyEvent::Sampling { id, params },
                    _ => self.reply_error(
                        &id,
                        codes::INVALID_PARAMS,
                        "The server's sampling request has no params object".into(),
                    ),
                }
            }
            methods::PING => self.reply_result(&id, &serde_json::Map::new(), None),
            methods::ROOTS_LIST => {
                let roots = ListRootsResult {
                    roots: self.config.roots.clone(),
                };
                self.reply_result(&id, &roots, None)
            }
            other => self.reply_error(
                &id,
                codes::METHOD_NOT_FOUND,
                format!("This client does not support {other:?}"),
            ),
        }
    }

    fn reply_result<R: serde::Serialize>(
        &self,
        id: &RequestId,
        result: &R,
        note: Option<String>,
    ) -> LegacyEvent {
        match result_body(id, result) {
            Ok(body) => LegacyEvent::Reply {
                request: self.with_session(HttpRequest::post(body)),
                note,
            },
            Err(e) => LegacyEvent::Failed {
                id: None,
                error: e.into(),
            },
        }
    }
}
