//! A legacy-era (2025-11-25) session as a state machine: the `initialize`
//! handshake, the session headers on every later request, id allocation, and
//! the routing of every message that arrives on a POST's SSE stream or on the
//! session's GET stream.
//!
//! ```text
//!   initialize_request() ──POST──▶            on_http_status(id, status, mcp-session-id header)
//!   on_message(text) ─▶ Initialized{notification}   send `notification` (notifications/initialized)
//!   call(call) or request(method, params) ──POST──▶   each message of its SSE/JSON body → on_message:
//!       ─▶ Response{id, result}                 our answer
//!       ─▶ Failed{id, error}                    a JSON-RPC error (-32042 carries its URL elicitations)
//!       ─▶ Elicit{id, params}                   show it; POST answer_elicitation(id, result)
//!       ─▶ Sampling{id, params}                 (only when sampling is declared) ask the host's
//!                                               handler; POST answer_sampling / refuse_sampling
//!       ─▶ ElicitationComplete{elicitation_id}  a URL card may stop waiting
//!       ─▶ Withdrawn{id, reason}                the server withdrew its request `id`
//!                                               (`notifications/cancelled`): send nothing for it
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
//! use mcp_elicit::wire::{Call, ElicitResult, RequestId};
//!
//! let mut s = LegacySession::new(LegacyConfig::default());
//! let _init = s.initialize_request().unwrap(); // POST it
//! s.on_http_status(Some(&RequestId::Number(0)), 200, Some("session-1"));
//! let ev = s.on_message(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25",
//!     "capabilities":{},"serverInfo":{"name":"demo","version":"1"}}}"#);
//! let LegacyEvent::Initialized { notification: _, .. } = ev else { panic!() };
//! // POST notification; then:
//! let tool = Call::Tool { name: "t".into(), arguments: serde_json::Map::new() };
//! let (id, call) = s.call(&tool).unwrap();
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
use super::tasks::{Outcome, Reply, TaskRequest};
use super::DriverError;
use crate::wire::jsonrpc::{error_body, notification_body, request_body, result_body};
use crate::wire::meta::{HANDSHAKE_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSION};
use crate::wire::{
    codes, from_raw, parse_message, Call, CallParams, ClientCapabilities, ElicitRequestParams,
    ElicitResult, ElicitationComplete, ErrorObject, Implementation, Incoming, InitializeResult,
    ListRootsResult, RequestId, Root,
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
    pub const CANCELLED: &str = "notifications/cancelled";
}

/// The most characters of a `notifications/cancelled` reason kept to show: a reason is a
/// line for a person, and a server may send megabytes. Beyond it the reason is cut (at a
/// character boundary) and ends with `…`.
pub const MAX_WITHDRAWN_REASON_CHARS: usize = 200;

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
    /// No session in use: no handshake yet, or it failed, or the session expired.
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
    /// The server asks the user something *as a task* (2025-11-25, only when the config
    /// declares elicitation tasks): make the task ([`super::tasks::ElicitationTasks::create`]
    /// with `task`, the params' `task` member), POST its `CreateTaskResult` with
    /// [`LegacySession::task_reply`] at once, and show the card as for [`LegacyEvent::Elicit`].
    ElicitTask {
        id: RequestId,
        params: ElicitRequestParams,
        task: Value,
    },
    /// The server asks about the tasks this client keeps for it (`tasks/get`,
    /// `tasks/result`, `tasks/list`, `tasks/cancel`; only when elicitation tasks are
    /// declared): hand it to [`super::tasks::ElicitationTasks::on_request`] and POST its
    /// replies with [`LegacySession::task_reply`].
    Task { id: RequestId, request: TaskRequest },
    /// The server asks the host's LLM for a completion (`sampling/createMessage`); only
    /// when the config declares sampling (else the session refuses it by itself). Answer
    /// with [`LegacySession::answer_sampling`] or [`LegacySession::refuse_sampling`].
    Sampling { id: RequestId, params: Value },
    /// The same *as a task* (2025-11-25, only when the config declares sampling tasks):
    /// make the task ([`super::tasks::ElicitationTasks::create_sampling`] with `task`,
    /// the params' `task` member, taken out of `params`), POST its `CreateTaskResult` with
    /// [`LegacySession::task_reply`] at once, run the handler, and end the task with
    /// [`super::tasks::ElicitationTasks::finish_sampling`].
    SamplingTask {
        id: RequestId,
        params: Value,
        task: Value,
    },
    /// A URL-mode elicitation finished on the server's side.
    ElicitationComplete { elicitation_id: String },
    /// The server withdrew its request `id` (`notifications/cancelled`, the spec's way): it
    /// no longer wants an answer, and none may be sent. `reason` is the server's, cut to
    /// [`MAX_WITHDRAWN_REASON_CHARS`] (`None` when it gave none). Which request of which
    /// session `id` names is the caller's to find ([`Elicitations::withdraw`]).
    Withdrawn {
        id: RequestId,
        reason: Option<String>,
    },
    /// An answer the session wrote by itself; POST it. `note` says why, when it is a refusal.
    /// `ping` marks the answer to a `ping`: harmless to leave unsent when the client is
    /// busy ([`AutomaticReplies`] drops it rather than queue it).
    Reply {
        request: HttpRequest,
        note: Option<String>,
        ping: bool,
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
    phase: Phase,
    next_id: i64,
}

/// Where the session is; each phase holds what only it has. [`SessionState`] is its name.
#[derive(Debug, Clone)]
enum Phase {
    /// No session in use: none begun yet, its handshake failed, or the server forgot it.
    /// `session_id` is the one the server assigned to a handshake that then failed: no
    /// request is sent on it, but automatic replies carry it and
    /// [`LegacySession::close_request`] ends it.
    New { session_id: Option<String> },
    /// `initialize` is in flight as `id`; `session_id` is what its answer's headers
    /// assigned.
    Initializing {
        id: RequestId,
        session_id: Option<String>,
    },
    /// The handshake is done; requests may be sent.
    Ready(Established),
    /// Closed by the client. `server` is what its handshake agreed, when it had one.
    Closed { server: Option<InitializeResult> },
}

/// A session whose handshake succeeded.
#[derive(Debug, Clone)]
struct Established {
    /// The `Mcp-Session-Id` the server assigned (a stateless server assigns none).
    session_id: Option<String>,
    /// The server's `initialize` result; its `protocolVersion` is the session's.
    server: InitializeResult,
    /// Our requests in flight, id → method.
    pending: HashMap<RequestId, String>,
}

/// What an answer to one of our requests (a result, an error, a failing status) settled.
enum Settled {
    /// The handshake is over; the session is New again, with the session id its status
    /// assigned (Ready once [`LegacySession::on_response`] accepts the result).
    Handshake { session_id: Option<String> },
    /// A request in the session, of this method.
    Request(String),
}

impl LegacySession {
    pub fn new(config: LegacyConfig) -> Self {
        LegacySession {
            config,
            phase: Phase::New { session_id: None },
            next_id: 0,
        }
    }

    pub fn state(&self) -> SessionState {
        match self.phase {
            Phase::New { .. } => SessionState::New,
            Phase::Initializing { .. } => SessionState::Initializing,
            Phase::Ready(_) => SessionState::Ready,
            Phase::Closed { .. } => SessionState::Closed,
        }
    }

    /// The `Mcp-Session-Id` the server assigned (a stateless server assigns none).
    pub fn session_id(&self) -> Option<&str> {
        match &self.phase {
            Phase::New { session_id } | Phase::Initializing { session_id, .. } => {
                session_id.as_deref()
            }
            Phase::Ready(session) => session.session_id.as_deref(),
            Phase::Closed { .. } => None,
        }
    }

    /// The version the server chose in its `initialize` result.
    pub fn protocol_version(&self) -> Option<&str> {
        self.server().map(|init| init.protocol_version.as_str())
    }

    /// The id of the `initialize` request in flight, to pass to
    /// [`on_http_status`](Self::on_http_status) with its answer.
    pub fn initialize_id(&self) -> Option<&RequestId> {
        match &self.phase {
            Phase::Initializing { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The server's `initialize` result, once the handshake is done.
    pub fn server(&self) -> Option<&InitializeResult> {
        match &self.phase {
            Phase::Ready(session) => Some(&session.server),
            Phase::Closed { server } => server.as_ref(),
            Phase::New { .. } | Phase::Initializing { .. } => None,
        }
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
        self.phase = Phase::Initializing {
            id,
            session_id: None,
        };
        Ok(HttpRequest::post(body))
    }

    /// The session headers every request after `initialize` carries.
    fn with_session(&self, mut req: HttpRequest) -> HttpRequest {
        if let Some(sid) = self.session_id() {
            req = req.with(names::SESSION_ID, sid);
        }
        let version = self
            .protocol_version()
            .unwrap_or(&self.config.protocol_version);
        req.with(names::PROTOCOL_VERSION, version)
    }

    fn ready(&self) -> Result<(), DriverError> {
        match self.phase {
            Phase::Ready(_) => Ok(()),
            Phase::Closed { .. } => Err(DriverError::Usage("the session is closed".into())),
            Phase::New { .. } | Phase::Initializing { .. } => Err(DriverError::Usage(
                "the session is not initialised yet".into(),
            )),
        }
    }

    /// A request in the session; returns its id so the caller can match the answer. For a
    /// request that may ask the person for input, [`call`](Self::call) writes its params.
    pub fn request(
        &mut self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(RequestId, HttpRequest), DriverError> {
        self.send_request(method, params)
    }

    /// The request that makes `call` in the session, as [`request`](Self::request).
    pub fn call(&mut self, call: &Call) -> Result<(RequestId, HttpRequest), DriverError> {
        self.call_tracked(call, None)
    }

    /// [`call`](Self::call), with `progress_token` (from
    /// [`ProgressBook::start`](super::progress::ProgressBook::start)) in
    /// `params._meta.progressToken`, so the server may report the call's progress.
    pub fn call_tracked(
        &mut self,
        call: &Call,
        progress_token: Option<&str>,
    ) -> Result<(RequestId, HttpRequest), DriverError> {
        self.call_with(call, progress_token, false)
    }

    /// [`call_tracked`](Self::call_tracked), and with `as_task` the call is made as a task
    /// (2025-11-25: `params.task` is `{}`, the server picks the ttl); its answer is then a
    /// `CreateTaskResult` ([`super::tool_tasks::ToolTask::from_call_result`]).
    pub fn call_with(
        &mut self,
        call: &Call,
        progress_token: Option<&str>,
        as_task: bool,
    ) -> Result<(RequestId, HttpRequest), DriverError> {
        let params = TrackedParams {
            call: call.params(),
            meta: progress_token.map(|progress_token| ProgressMeta { progress_token }),
            task: as_task.then_some(TaskParams {}),
        };
        self.send_request(call.method(), Some(&params))
    }

    /// Stops our request `id`: the `notifications/cancelled` to POST (the request id and
    /// `reason`, cut to [`MAX_WITHDRAWN_REASON_CHARS`]), after which the caller closes the
    /// request's stream. The request is forgotten: a late answer to it is
    /// [`LegacyEvent::Ignored`]. `None` when `id` is not a request of this session still in
    /// flight (the spec lets only those be cancelled, and never `initialize`): nothing to
    /// send.
    pub fn cancel(&mut self, id: &RequestId, reason: &str) -> Option<HttpRequest> {
        let Phase::Ready(session) = &mut self.phase else {
            return None;
        };
        session.pending.remove(id)?;
        let params = CancelParams {
            request_id: id,
            reason: cut_reason(reason),
        };
        let body = notification_body(methods::CANCELLED, Some(&params)).ok()?;
        Some(self.with_session(HttpRequest::post(body)))
    }

    fn send_request<P: serde::Serialize>(
        &mut self,
        method: &str,
        params: Option<&P>,
    ) -> Result<(RequestId, HttpRequest), DriverError> {
        self.ready()?;
        let id = self.allocate_id();
        let body = request_body(&id, method, params)?;
        if let Phase::Ready(session) = &mut self.phase {
            session.pending.insert(id.clone(), method.to_string());
        }
        Ok((id.clone(), self.with_session(HttpRequest::post(body))))
    }

    /// The response body to an elicitation request: the user's answer, same id. Only on a
    /// ready session: while a new one is set up (from [`initialize_request`] until its
    /// handshake ends) or after a 404 forgot it, an answer of the old session would carry
    /// the new session's id to a server that numbers its requests afresh, so none is built.
    ///
    /// [`initialize_request`]: Self::initialize_request
    pub fn answer_elicitation(
        &self,
        id: &RequestId,
        result: &ElicitResult,
    ) -> Result<HttpRequest, DriverError> {
        self.ready()?;
        Ok(self.with_session(HttpRequest::post(result_body(id, result)?)))
    }

    /// The response to a `sampling/createMessage` request: the host handler's
    /// `CreateMessageResult`, passed through as it came.
    pub fn answer_sampling(
        &self,
        id: &RequestId,
        result: &Value,
    ) -> Result<HttpRequest, DriverError> {
        self.ready()?;
        Ok(self.with_session(HttpRequest::post(result_body(id, result)?)))
    }

    /// The error response to a `sampling/createMessage` request the host's handler could
    /// not answer (it threw, or the user refused): the server's tool sees `why`.
    pub fn refuse_sampling(&self, id: &RequestId, why: &str) -> Result<HttpRequest, DriverError> {
        self.refuse(id, why)
    }

    /// The error response to an `elicitation/create` this client will not show (e.g.
    /// [`Arrival::Refuse`]: too many cards already): the server's tool sees `why`.
    pub fn refuse_elicitation(
        &self,
        id: &RequestId,
        why: &str,
    ) -> Result<HttpRequest, DriverError> {
        self.refuse(id, why)
    }

    /// An internal-error response to the server's request `id`, saying `why`.
    fn refuse(&self, id: &RequestId, why: &str) -> Result<HttpRequest, DriverError> {
        self.ready()?;
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
        let req = self.session_id().map(|_| {
            self.with_session(HttpRequest {
                method: HttpMethod::Delete,
                headers: Vec::new(),
                body: None,
            })
        });
        let server = match std::mem::replace(&mut self.phase, Phase::Closed { server: None }) {
            Phase::Ready(session) => Some(session.server),
            Phase::Closed { server } => server,
            Phase::New { .. } | Phase::Initializing { .. } => None,
        };
        self.phase = Phase::Closed { server };
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
        let is_init = self.is_handshake(id);
        if (200..300).contains(&status) {
            match &mut self.phase {
                Phase::Initializing {
                    session_id: assigned,
                    ..
                } if is_init => *assigned = session_id.map(str::to_string),
                _ => {}
            }
            return None;
        }
        if status == 404 && !is_init && self.is_stale(id) {
            // Sent on a session already given up (another request's 404 came first, or a
            // new session began since): that session is gone, the current state is not
            // this request's to forget. The caller renews once and resends.
            return Some(LegacyEvent::SessionExpired);
        }
        if status == 404 && self.session_id().is_some() && !is_init {
            self.phase = Phase::New { session_id: None };
            return Some(LegacyEvent::SessionExpired);
        }
        let id = id?;
        self.settle(id);
        Some(LegacyEvent::Failed {
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
        if !(status == 404 && (self.session_id().is_some() || self.is_stale(id))) {
            if let Ok(texts) = super::http::messages_from_body(content_type, body) {
                for text in texts {
                    if let Ok(Incoming::Error { error, .. }) = parse_message(&text) {
                        if let Some(id) = id {
                            self.settle(id);
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
    /// longer pending (forgetting or starting a session forgets them all).
    fn is_stale(&self, id: Option<&RequestId>) -> bool {
        id.is_some_and(|id| match &self.phase {
            Phase::Initializing { id: init, .. } => init != id,
            Phase::Ready(session) => !session.pending.contains_key(id),
            Phase::New { .. } | Phase::Closed { .. } => true,
        })
    }

    /// Whether `id` is the `initialize` in flight.
    fn is_handshake(&self, id: Option<&RequestId>) -> bool {
        id.is_some() && id == self.initialize_id()
    }

    /// Request `id` has its answer (a result, an error, a failing status): it is no longer
    /// pending. The handshake's answer ends the handshake, whatever it says: the session is
    /// New until [`on_response`](Self::on_response) accepts a result. `None`: `id` is not
    /// in flight (a stray or second answer).
    fn settle(&mut self, id: &RequestId) -> Option<Settled> {
        match &mut self.phase {
            Phase::Ready(session) => session.pending.remove(id).map(Settled::Request),
            Phase::Initializing {
                id: init,
                session_id,
            } if init == id => {
                let session_id = session_id.take();
                self.phase = Phase::New {
                    session_id: session_id.clone(),
                };
                Some(Settled::Handshake { session_id })
            }
            Phase::New { .. } | Phase::Initializing { .. } | Phase::Closed { .. } => None,
        }
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
                    if self.settle(id).is_none() {
                        return LegacyEvent::Ignored;
                    }
                }
                LegacyEvent::Failed {
                    id,
                    error: DriverError::from_rpc(error),
                }
            }
            Incoming::Request { id, method, params } => self.on_server_request(id, &method, params),
            Incoming::Notification { method, params } => {
                let Some(params) = params else {
                    return LegacyEvent::Ignored;
                };
                match method.as_str() {
                    methods::ELICITATION_COMPLETE => {
                        match from_raw::<ElicitationComplete>(&params, "elicitation completion") {
                            Ok(c) => LegacyEvent::ElicitationComplete {
                                elicitation_id: c.elicitation_id,
                            },
                            Err(_) => LegacyEvent::Ignored,
                        }
                    }
                    methods::CANCELLED => match from_raw::<Cancelled>(&params, "cancellation") {
                        Ok(c) => LegacyEvent::Withdrawn {
                            id: c.request_id,
                            reason: c.reason.as_deref().map(cut_reason),
                        },
                        Err(_) => LegacyEvent::Ignored,
                    },
                    _ => LegacyEvent::Ignored,
                }
            }
        }
    }

    fn on_response(&mut self, id: RequestId, result: Box<RawValue>) -> LegacyEvent {
        let session_id = match self.settle(&id) {
            None => return LegacyEvent::Ignored,
            Some(Settled::Request(method)) => return LegacyEvent::Response { id, method, result },
            Some(Settled::Handshake { session_id }) => session_id,
        };
        let failed = |error: DriverError| LegacyEvent::Failed {
            id: Some(id.clone()),
            error,
        };
        let init: InitializeResult = match from_raw(&result, "initialize result") {
            Ok(r) => r,
            Err(e) => return failed(DriverError::BadResult(e)),
        };
        if !HANDSHAKE_PROTOCOL_VERSIONS.contains(&init.protocol_version.as_str()) {
            let v = &init.protocol_version;
            return failed(DriverError::BadResult(crate::wire::WireError::of(
                crate::wire::WireKind::Unexpected,
                format!("the server chose protocol version {v:?}, which this client cannot speak"),
            )));
        }
        let body = match notification_body::<Value>(methods::INITIALIZED, None) {
            Ok(body) => body,
            Err(e) => return failed(e.into()),
        };
        self.phase = Phase::Ready(Established {
            session_id,
            server: init.clone(),
            pending: HashMap::new(),
        });
        LegacyEvent::Initialized {
            result: init,
            notification: self.with_session(HttpRequest::post(body)),
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
                ping: false,
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
                let tasks = self.config.capabilities.elicitation_tasks();
                let mut task = None;
                let parsed = params
                    .as_deref()
                    .ok_or_else(|| "it has no params".to_string())
                    .and_then(|p| serde_json::from_str::<Value>(p.get()).map_err(|e| e.to_string()))
                    .and_then(|mut value| {
                        // Undeclared, a `task` member is ignored (the spec: processed normally).
                        if tasks {
                            task = value.as_object_mut().and_then(|m| m.remove("task"));
                        }
                        ElicitRequestParams::from_value(value).map_err(|e| e.to_string())
                    });
                match (parsed, task) {
                    (Ok(params), None) => LegacyEvent::Elicit { id, params },
                    (Ok(params), Some(task @ Value::Object(_))) => {
                        LegacyEvent::ElicitTask { id, params, task }
                    }
                    (Ok(_), Some(_)) => self.reply_error(
                        &id,
                        codes::INVALID_PARAMS,
                        "The server's elicitation request is malformed: its task is not an object"
                            .into(),
                    ),
                    (Err(why), _) => self.reply_error(
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
                let mut params = match params {
                    Some(Value::Object(params)) => params,
                    _ => {
                        return self.reply_error(
                            &id,
                            codes::INVALID_PARAMS,
                            "The server's sampling request has no params object".into(),
                        )
                    }
                };
                // Undeclared, a `task` member is ignored (the spec: processed normally).
                let task = if self.config.capabilities.sampling_tasks() {
                    params.remove("task")
                } else {
                    None
                };
                let params = Value::Object(params);
                match task {
                    None => LegacyEvent::Sampling { id, params },
                    Some(task @ Value::Object(_)) => LegacyEvent::SamplingTask { id, params, task },
                    Some(_) => self.reply_error(
                        &id,
                        codes::INVALID_PARAMS,
                        "The server's sampling request is malformed: its task is not an object"
                            .into(),
                    ),
                }
            }
            methods::PING => self.reply_result(&id, &serde_json::Map::new(), true),
            methods::ROOTS_LIST => {
                let roots = ListRootsResult {
                    roots: self.config.roots.clone(),
                };
                self.reply_result(&id, &roots, false)
            }
            method
                if TaskRequest::is_task_method(method)
                    && self.config.capabilities.elicitation_tasks() =>
            {
                let value = params
                    .as_deref()
                    .and_then(|p| serde_json::from_str::<Value>(p.get()).ok());
                match TaskRequest::parse(method, value.as_ref()) {
                    Some(Ok(request)) => LegacyEvent::Task { id, request },
                    Some(Err(why)) => self.reply_error(&id, codes::INVALID_PARAMS, why),
                    None => self.reply_error(
                        &id,
                        codes::METHOD_NOT_FOUND,
                        format!("This client does not support {method:?}"),
                    ),
                }
            }
            other => self.reply_error(
                &id,
                codes::METHOD_NOT_FOUND,
                format!("This client does not support {other:?}"),
            ),
        }
    }

    /// The POST of a reply the task machine owes the server ([`super::tasks::Reply`]):
    /// a result or a JSON-RPC error, with the session's headers.
    pub fn task_reply(&self, reply: &Reply) -> Result<HttpRequest, DriverError> {
        let body = match &reply.outcome {
            Outcome::Result(result) => result_body(&reply.id, result)?,
            Outcome::Error(error) => error_body(&reply.id, error)?,
        };
        Ok(self.with_session(HttpRequest::post(body)))
    }

    fn reply_result<R: serde::Serialize>(
        &self,
        id: &RequestId,
        result: &R,
        ping: bool,
    ) -> LegacyEvent {
        match result_body(id, result) {
            Ok(body) => LegacyEvent::Reply {
                request: self.with_session(HttpRequest::post(body)),
                note: None,
                ping,
            },
            Err(e) => LegacyEvent::Failed {
                id: None,
                error: e.into(),
            },
        }
    }
}

/// The params of `notifications/cancelled`: the request withdrawn and, optionally, why.
#[derive(serde::Deserialize)]
struct Cancelled {
    #[serde(rename = "requestId")]
    request_id: RequestId,
    #[serde(default)]
    reason: Option<String>,
}

/// The params of a call that may carry a progress token in `_meta`.
#[derive(serde::Serialize)]
struct TrackedParams<'a> {
    #[serde(flatten)]
    call: CallParams<'a>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ProgressMeta<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    task: Option<TaskParams>,
}

/// A call's `task` (2025-11-25): empty, so the server chooses the ttl.
#[derive(serde::Serialize)]
struct TaskParams {}

/// `_meta` with the call's progress token.
#[derive(serde::Serialize)]
struct ProgressMeta<'a> {
    #[serde(rename = "progressToken")]
    progress_token: &'a str,
}

/// The params of the `notifications/cancelled` we send.
#[derive(serde::Serialize)]
struct CancelParams<'a> {
    #[serde(rename = "requestId")]
    request_id: &'a RequestId,
    reason: String,
}

/// `reason` trimmed, and cut to [`MAX_WITHDRAWN_REASON_CHARS`] characters (then ending `…`).
fn cut_reason(reason: &str) -> String {
    let reason = reason.trim();
    match reason.char_indices().nth(MAX_WITHDRAWN_REASON_CHARS) {
        Some((at, _)) => format!("{}…", reason.get(..at).unwrap_or_default().trim_end()),
        None => reason.to_owned(),
    }
}

/// The elicitation requests a session shows as cards, each bound to the session it came on
/// (its number, `epoch`, and the server's JSON-RPC id there) and to the call whose
/// stream carried it. It decides where an answer may go:
///
/// ```text
///   start_run(call) ─▶ (RunId, expired)     a call ([`Call`]) begins: it claims the
///                                           answers kept for it; those kept for other
///                                           calls expire (say so on their cards)
///   arrive(epoch, id, params, run) ─▶ Show{route}         a new card
///                                  ─▶ Replay{route, answer}  the re-run asks a question whose
///                                      answer was kept: POST it (the card is now bound here)
///                                  ─▶ Refuse{why}         too many cards: reply an error
///                                  ─▶ Duplicate           the id is already pending: ignore
///   plan_answer(route, epoch_now, answer) ─▶ Send{id}     POST the answer with `id`
///                                         ─▶ Lost{..}     its session is gone: kept for the
///                                             re-run of its call, nothing is sent
///                                         ─▶ Gone / Unknown
///   lost(route, answer)      the POST met a forgotten session (404): keep it, as Lost
///   withdraw(epoch, id) ─▶ route   the server withdrew the request: the card goes from the
///                                  book (any answer to it is Unknown, nothing is sent)
///   delivered(route)         the server took the answer: the card goes
///   finish_run(run) ─▶ routes whose kept answer the re-run never asked for (expired)
/// ```
///
/// A restarted server numbers its requests from 0 again, so an id alone names a different
/// question on the new session: an answer is sent only on the session its card came on. A
/// kept answer waits for the next call made: when that is its own call again (an equal
/// [`Call`]), it is replayed into that run only, to an identical question, at most once;
/// when that run ends without asking it, or the next call made is another one, the answer
/// expires (the card says so and Submit keeps it again). At most [`MAX_KEPT_ANSWERS`] are
/// kept at once.
///
/// ```
/// use mcp_elicit::driver::legacy::{AnswerPlan, Arrival, Elicitations};
/// use mcp_elicit::wire::{Call, ElicitRequestParams, ElicitResult, RequestId};
///
/// let params: ElicitRequestParams = serde_json::from_str(
///     r#"{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}"#).unwrap();
/// let mut book = Elicitations::new(64);
/// let call = Call::Tool { name: "t".into(), arguments: serde_json::Map::new() };
/// let (run, _) = book.start_run(&call);
/// let Arrival::Show { route } = book.arrive(1, RequestId::Number(0), params.clone(), Some(run))
/// else { panic!() };
/// // The server restarted; another request renewed the session (epoch 2).
/// assert!(matches!(book.plan_answer(&route, 2, &ElicitResult::cancel()), AnswerPlan::Lost { .. }));
/// book.finish_run(run);
/// // The call is made again and asks the same question (id 0 again, on the new session).
/// let (rerun, expired) = book.start_run(&call);
/// assert!(expired.is_empty());
/// let Arrival::Replay { route: card, answer } = book.arrive(2, RequestId::Number(0), params, Some(rerun))
/// else { panic!() };
/// assert_eq!((card, answer), (route, ElicitResult::cancel()));
/// ```
#[derive(Debug, Clone)]
pub struct Elicitations {
    cards: HashMap<String, Card>,
    /// (epoch, server id) → route, for the cards bound to a live request.
    by_wire: HashMap<(u64, RequestId), String>,
    /// The calls running now.
    runs: HashMap<RunId, Call>,
    next_run: u64,
    /// Orders kept answers, so the oldest goes first beyond [`MAX_KEPT_ANSWERS`].
    next_kept: u64,
    max_cards: usize,
}

/// The most answers kept at once for re-runs of calls that lost their request with a
/// restarted server. Beyond it the oldest kept answer is dropped (its card says so and
/// Submit keeps it again): a person re-runs a few calls after a restart, not dozens.
pub const MAX_KEPT_ANSWERS: usize = 16;

/// One run of a request: kept answers are bound to the run that may replay them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RunId(u64);

#[derive(Debug, Clone)]
struct Card {
    params: ElicitRequestParams,
    /// The call whose stream carried the request (none for the GET stream); a re-run is
    /// the same call again (equal name, arguments or URI).
    call: Option<Call>,
    state: CardState,
}

#[derive(Debug, Clone)]
enum CardState {
    /// Its answer goes to `id` on the session of handshake `epoch`.
    Waiting { epoch: u64, id: RequestId },
    /// Its request was lost with its session; the answer waits for a re-run of its call
    /// (`claimed` once that run has started).
    Kept {
        answer: ElicitResult,
        claimed: Option<RunId>,
        order: u64,
    },
    /// Lost, with nothing kept (the re-run did not ask, or it was dropped beyond the cap).
    Expired,
}

/// What to do with a server's `elicitation/create`.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum Arrival {
    /// Show a card, routed by `route`.
    Show { route: String },
    /// The re-run of a call asks a question whose answer was kept for it: POST `answer`
    /// with the new id at once; the card `route` is now bound to the new request.
    Replay { route: String, answer: ElicitResult },
    /// Too many cards: answer the request with a JSON-RPC error saying `why`
    /// ([`LegacySession::refuse_elicitation`]).
    Refuse { why: String },
    /// A request under an id that is still pending on this session: ignored, as any reply
    /// would carry that id and be taken as the answer to the first.
    Duplicate,
}

/// Where a card's answer may go.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum AnswerPlan {
    /// POST it to the request `id` of the current session.
    Send { id: RequestId },
    /// The card's session is gone: nothing is sent; the answer is kept for the re-run of
    /// its call. `evicted` is a card whose kept answer was dropped to make room.
    Lost { evicted: Option<String> },
    /// The card's session is gone and it came outside any call (the GET stream): nothing can
    /// re-ask it, so the card is dropped.
    Gone,
    /// No such card.
    Unknown,
}

impl Elicitations {
    /// A book holding at most `max_cards` cards (the web passes its per-connection card
    /// cap): beyond it a new request is refused ([`Arrival::Refuse`]) until some are
    /// answered, so a server cannot grow the page without bound.
    pub fn new(max_cards: usize) -> Self {
        Elicitations {
            cards: HashMap::new(),
            by_wire: HashMap::new(),
            runs: HashMap::new(),
            next_run: 0,
            next_kept: 0,
            max_cards,
        }
    }

    /// How many cards there are (of any state).
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// `call` begins: it claims the answers kept for an earlier run of the same call that no run has claimed yet. Answers kept for other
    /// calls expire: this is not the re-run they wait for (after a restart the re-run
    /// comes first, so an answer cannot wait behind other calls forever). Returns the run
    /// and the routes of the expired cards, to say so on them.
    pub fn start_run(&mut self, call: &Call) -> (RunId, Vec<String>) {
        let run = RunId(self.next_run);
        self.next_run = self.next_run.wrapping_add(1);
        let mut expired = Vec::new();
        for (route, card) in self.cards.iter_mut() {
            let CardState::Kept { claimed, .. } = &mut card.state else {
                continue;
            };
            if claimed.is_some() {
                continue;
            }
            if card.call.as_ref() == Some(call) {
                *claimed = Some(run);
            } else {
                card.state = CardState::Expired;
                expired.push(route.clone());
            }
        }
        expired.sort();
        self.runs.insert(run, call.clone());
        (run, expired)
    }

    /// The request `run` ended (result, error, or given up): the answers it claimed and
    /// never got to replay expire; returns their cards' routes, to say so on them.
    pub fn finish_run(&mut self, run: RunId) -> Vec<String> {
        self.runs.remove(&run);
        let mut expired = Vec::new();
        for (route, card) in self.cards.iter_mut() {
            if matches!(card.state, CardState::Kept { claimed: Some(r), .. } if r == run) {
                card.state = CardState::Expired;
                expired.push(route.clone());
            }
        }
        expired.sort();
        expired
    }

    /// A server `elicitation/create` with `id`, on a stream of the session of handshake
    /// `epoch`, carried by the stream of `run` (none for the GET stream).
    pub fn arrive(
        &mut self,
        epoch: u64,
        id: RequestId,
        params: ElicitRequestParams,
        run: Option<RunId>,
    ) -> Arrival {
        let wire = (epoch, id);
        let route = route_of(epoch, &wire.1);
        if self.by_wire.contains_key(&wire) || self.cards.contains_key(&route) {
            return Arrival::Duplicate;
        }
        if let Some(run) = run {
            let kept = self.cards.iter_mut().find(|(_, c)| {
                matches!(c.state, CardState::Kept { claimed: Some(r), .. } if r == run)
                    && c.params == params
            });
            if let Some((card_route, card)) = kept {
                let state = std::mem::replace(
                    &mut card.state,
                    CardState::Waiting {
                        epoch: wire.0,
                        id: wire.1.clone(),
                    },
                );
                let CardState::Kept { answer, .. } = state else {
                    return Arrival::Duplicate;
                };
                let card_route = card_route.clone();
                self.by_wire.insert(wire, card_route.clone());
                return Arrival::Replay {
                    route: card_route,
                    answer,
                };
            }
        }
        if self.cards.len() >= self.max_cards {
            return Arrival::Refuse {
                why: format!(
                    "This client already shows {} requests waiting for the person, the most \
                     it keeps; answer those first.",
                    self.max_cards
                ),
            };
        }
        let call = run.and_then(|r| self.runs.get(&r).cloned());
        self.cards.insert(
            route.clone(),
            Card {
                params,
                call,
                state: CardState::Waiting {
                    epoch: wire.0,
                    id: wire.1.clone(),
                },
            },
        );
        self.by_wire.insert(wire, route.clone());
        Arrival::Show { route }
    }

    /// The call whose stream carried the card `route`: what to make again so a kept answer
    /// reaches its own question (`None`: no such card, or it came on the GET stream,
    /// outside any call).
    pub fn call_of(&self, route: &str) -> Option<&Call> {
        self.cards.get(route)?.call.as_ref()
    }

    /// Where the answer to the card `route` may go, the session now being that of
    /// handshake `epoch_now`. A card of an earlier session keeps `answer` for a re-run of
    /// its call and sends nothing.
    pub fn plan_answer(
        &mut self,
        route: &str,
        epoch_now: u64,
        answer: &ElicitResult,
    ) -> AnswerPlan {
        match self.cards.get(route).map(|c| &c.state) {
            None => AnswerPlan::Unknown,
            Some(CardState::Waiting { epoch, id }) if *epoch == epoch_now => {
                AnswerPlan::Send { id: id.clone() }
            }
            Some(_) => self.lost(route, answer),
        }
    }

    /// The card `route`'s request is lost with its session (its POST met a 404, or a new
    /// session began since): keep `answer` for the re-run of its call.
    pub fn lost(&mut self, route: &str, answer: &ElicitResult) -> AnswerPlan {
        let Some(card) = self.cards.get(route) else {
            return AnswerPlan::Unknown;
        };
        if let CardState::Waiting { epoch, id } = &card.state {
            let wire = (*epoch, id.clone());
            self.by_wire.remove(&wire);
        }
        if card.call.is_none() {
            self.cards.remove(route);
            return AnswerPlan::Gone;
        }
        let already_kept = matches!(card.state, CardState::Kept { .. });
        let mut evicted = None;
        if !already_kept {
            let kept: Vec<(&String, u64)> = self
                .cards
                .iter()
                .filter_map(|(r, c)| match c.state {
                    CardState::Kept { order, .. } => Some((r, order)),
                    _ => None,
                })
                .collect();
            if kept.len() >= MAX_KEPT_ANSWERS {
                evicted = kept
                    .iter()
                    .min_by_key(|(_, o)| *o)
                    .map(|(r, _)| (*r).clone());
            }
        }
        if let Some(card) = evicted.as_ref().and_then(|r| self.cards.get_mut(r)) {
            card.state = CardState::Expired;
        }
        let order = self.next_kept;
        self.next_kept = self.next_kept.wrapping_add(1);
        if let Some(card) = self.cards.get_mut(route) {
            let claimed = match card.state {
                CardState::Kept { claimed, .. } => claimed,
                _ => None,
            };
            card.state = CardState::Kept {
                answer: answer.clone(),
                claimed,
                order,
            };
        }
        AnswerPlan::Lost { evicted }
    }

    /// The server of the session of handshake `epoch` withdrew its request `id`
    /// ([`LegacyEvent::Withdrawn`]): the card bound to it goes from the book, so no answer
    /// is sent for it from now on ([`AnswerPlan::Unknown`]). Returns its route, to retire
    /// the card in words; `None` when no card waits on that request (unknown, already
    /// answered, or an earlier session's: a restarted server numbers its requests afresh,
    /// so an id names a request of its own session only).
    pub fn withdraw(&mut self, epoch: u64, id: &RequestId) -> Option<String> {
        let route = self.by_wire.remove(&(epoch, id.clone()))?;
        self.cards.remove(&route);
        Some(route)
    }

    /// Whether the card of request `id` on the session of handshake `epoch` still waits
    /// for the person (not answered, withdrawn or lost): a host's timeout does not run
    /// while it does.
    pub fn is_waiting(&self, epoch: u64, id: &RequestId) -> bool {
        self.by_wire.contains_key(&(epoch, id.clone()))
    }

    /// The server took the answer to the card `route`: it goes.
    pub fn delivered(&mut self, route: &str) {
        if let Some(card) = self.cards.remove(route) {
            if let CardState::Waiting { epoch, id } = card.state {
                self.by_wire.remove(&(epoch, id));
            }
        }
    }

    /// Forgets every card (the connection closed).
    pub fn clear(&mut self) {
        self.cards.clear();
        self.by_wire.clear();
    }
}

/// The routing id of a server request: the number of its session (the web layer numbers
/// sessions across the page, so neither a restarted server, which numbers its requests
/// from 0 again, nor another connection can share it) and its JSON-RPC id as JSON (`1`, `"1"`, so
/// ids that show the same stay apart).
pub fn route_of(epoch: u64, id: &RequestId) -> String {
    let id = match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => Value::String(s.clone()).to_string(),
    };
    format!("{epoch}/{id}")
}

/// The shortest wait before a stream is reopened (a POST's stream resumed with
/// `Last-Event-ID`, or the session's GET stream), whatever the server's `retry:` says:
/// `retry: 0` would have the client reconnect in a tight loop. 100 ms keeps a server that
/// closes streams on purpose (SEP-1699 polling) prompt, at most ten requests a second.
pub const MIN_RECONNECT_DELAY_MS: u32 = 100;
/// The longest wait a server may ask for before a stream is reopened; a longer `retry:` is
/// cut to it, so a completion is not held back for long.
pub const MAX_RECONNECT_DELAY_MS: u32 = 30_000;
/// The wait before reopening a stream when the server named none (the SDK client's).
pub const DEFAULT_RECONNECT_DELAY_MS: u32 = 1_000;
/// GET streams in a row that brought no event, reopened at the server's pace, before the
/// client stops following `retry:` and backs off (doubling, from
/// [`DEFAULT_RECONNECT_DELAY_MS`] up to [`MAX_RECONNECT_DELAY_MS`]) until a stream brings
/// one again: a server that closes every stream at once cannot keep the page busy.
pub const MAX_IDLE_RECONNECTS: u32 = 5;

/// The wait before reopening a stream whose server asked for `retry_ms` (or none),
/// within [`MIN_RECONNECT_DELAY_MS`]..=[`MAX_RECONNECT_DELAY_MS`].
pub fn reconnect_delay_ms(retry_ms: Option<u64>) -> u32 {
    let asked = retry_ms.map_or(DEFAULT_RECONNECT_DELAY_MS, |ms| {
        u32::try_from(ms).unwrap_or(MAX_RECONNECT_DELAY_MS)
    });
    asked.clamp(MIN_RECONNECT_DELAY_MS, MAX_RECONNECT_DELAY_MS)
}

/// When to reopen the session's GET stream after it ended (or could not be opened).
///
/// ```
/// use mcp_elicit::driver::legacy::{Reconnect, MIN_RECONNECT_DELAY_MS};
/// let mut pace = Reconnect::default();
/// // `retry: 0` and a stream that closes at once: floored, and soon backed off.
/// assert_eq!(pace.next_delay_ms(false, Some(0)), MIN_RECONNECT_DELAY_MS);
/// ```
#[derive(Debug, Clone)]
pub struct Reconnect {
    idle: u32,
    backoff_ms: u32,
}

impl Default for Reconnect {
    fn default() -> Self {
        Reconnect {
            idle: 0,
            backoff_ms: DEFAULT_RECONNECT_DELAY_MS,
        }
    }
}

impl Reconnect {
    /// The wait before the next GET: `carried` says whether the stream that ended brought
    /// any event, `retry_ms` is the server's latest `retry:`.
    pub fn next_delay_ms(&mut self, carried: bool, retry_ms: Option<u64>) -> u32 {
        if carried {
            self.idle = 0;
            self.backoff_ms = DEFAULT_RECONNECT_DELAY_MS;
        } else {
            self.idle = self.idle.saturating_add(1);
        }
        if self.idle <= MAX_IDLE_RECONNECTS {
            return reconnect_delay_ms(retry_ms);
        }
        let delay = self.backoff_ms;
        self.backoff_ms = self
            .backoff_ms
            .saturating_mul(2)
            .min(MAX_RECONNECT_DELAY_MS);
        delay
    }
}

/// Automatic replies (pings, `roots/list`, refusals, sampling answers) POSTed at once at
/// most; more wait in a queue. Eight keeps them prompt without holding many of the
/// browser's connections to one server (Chromium allows six per host over HTTP/1.1: the
/// rest queue in the browser anyway).
pub const MAX_AUTOMATIC_REPLIES_IN_FLIGHT: usize = 8;
/// Automatic replies waiting for a free slot at most. Answers to pings never wait: with
/// every slot taken one is dropped at once (an unanswered ping is harmless, and a flood of
/// them would otherwise be answered one by one). Beyond the queue any other reply is
/// dropped too: the server asks faster than it takes the answers, and the request is left
/// to the server's own timeout.
pub const MAX_AUTOMATIC_REPLIES_QUEUED: usize = 256;

/// The automatic replies a session owes the server, paced by
/// [`MAX_AUTOMATIC_REPLIES_IN_FLIGHT`] and [`MAX_AUTOMATIC_REPLIES_QUEUED`]:
/// [`offer`](Self::offer) a reply, POST what it hands back, and call
/// [`sent`](Self::sent) when that POST ended (it hands back the next to POST).
#[derive(Debug, Default)]
pub struct AutomaticReplies {
    in_flight: usize,
    queue: std::collections::VecDeque<HttpRequest>,
    dropped: u64,
}

/// What became of an offered automatic reply.
#[derive(Debug)]
#[must_use]
pub enum Offered {
    /// POST it now.
    Send(HttpRequest),
    /// It waits for a slot.
    Queued,
    /// Dropped (the queue is full); `first` for the first drop since the queue last had
    /// room, to say so once rather than once per reply.
    Dropped { first: bool },
}

impl AutomaticReplies {
    /// A reply to POST; `ping` for the answer to a `ping` (dropped rather than queued).
    pub fn offer(&mut self, reply: HttpRequest, ping: bool) -> Offered {
        if self.in_flight < MAX_AUTOMATIC_REPLIES_IN_FLIGHT {
            self.in_flight += 1;
            return Offered::Send(reply);
        }
        if !ping && self.queue.len() < MAX_AUTOMATIC_REPLIES_QUEUED {
            self.queue.push_back(reply);
            return Offered::Queued;
        }
        self.dropped = self.dropped.saturating_add(1);
        Offered::Dropped {
            first: self.dropped == 1,
        }
    }

    /// A POST handed out ended (delivered or not): the next reply to POST, if one waits.
    pub fn sent(&mut self) -> Option<HttpRequest> {
        // Either way there is room again: a later drop is said again.
        self.dropped = 0;
        let next = self.queue.pop_front();
        if next.is_none() {
            self.in_flight = self.in_flight.saturating_sub(1);
        }
        next
    }

    /// Replies POSTed now and waiting, for tests and diagnostics.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}
