//! One request in the modern era (2026-07-28), driven through any number of
//! `input_required` rounds to its final result. No IO: the caller sends what
//! [`ModernCall::request`] returns and feeds back what the server sent.
//!
//! ```text
//!   request() ──POST──▶ server
//!   on_message(text) ─▶ Complete(result)          done
//!                     ─▶ InputNeeded{...}          show elicitations; answer(key, result) each,
//!                                                  then request() again (the replay)
//!                     ─▶ ReadyToReplay             every input was answered by the machine
//!                                                  (roots); request() again at once
//!                     ─▶ RetryAfter{delay_ms}      only requestState came back: wait, request()
//!                     ─▶ Failed(error)             show error.to_string(); resend with
//!                                                  request() if error.is_resendable()
//!                     ─▶ Ignored                   a notification or a stray message
//! on_http_failure(..) ─▶ RefreshToolSchema{tool,..} tools/call only, first -32020 of the
//!   or on_message        round: re-list tools, set_input_schema(schema), request()
//!                     ─▶ Failed(error)             as above
//! on_body_end()       ─▶ Failed(NoResponse)         the body ended without our answer
//! on_network_failure()                              no answer came: request() resends
//! ```
//!
//! # Resending
//!
//! Which failures the server did not decide is [`DriverError::is_resendable`]'s
//! to say (no answer, a cut or unreadable body, a 5xx/408/429 page); a network
//! failure reported with [`ModernCall::on_network_failure`] is one too. Such a
//! failure leaves the call as it was before the attempt, with its round,
//! answers and `requestState`, and [`ModernCall::request`] sends that round
//! again; any other failure (a JSON-RPC error, a 4xx, a result this client
//! cannot use, a refusal) ends the call. The same holds on the first request
//! and on every replay. With no request in flight there is no attempt to
//! fail: what arrives then is [`ModernStep::Ignored`], so a late message can
//! neither revive a finished call nor send a round before its answers are in.
//!
//! # Header mismatch
//!
//! HEADER_MISMATCH (-32020) is recovered from as the SDK client does
//! (`Client.call_tool`): the server says the `Mcp-Param-*` headers
//! ([`super::headers`]) do not match the arguments, because this client has
//! not listed the tool or its schema changed since. For a `tools/call` the
//! first -32020 of a round yields [`ModernStep::RefreshToolSchema`] and keeps
//! the round (answers, `requestState`) for a resend with the fresh schema's
//! headers: the caller fetches `tools/list` again, passes the tool's
//! `inputSchema` to [`ModernCall::set_input_schema`] (`None` when it is no
//! longer listed: no `Mcp-Param-*` headers), then sends [`ModernCall::request`].
//! When the listing cannot be fetched the call stays resendable: the caller
//! resends later, or gives up and shows `mismatch`, the server's -32020. A
//! second -32020 in the same round fails the call. Each round (the original
//! request, each replay) has its own allowance; resends after a network
//! failure do not renew it. Other methods carry no schema: -32020 ends them.
//!
//! # Rounds
//!
//! Behaviour follows the SDK client (`mcp/client/_input_required.py`):
//! every `InputRequiredResult` counts as one round and more than
//! `max_rounds` (default 10) fails; a state-only result is retried after
//! 50 ms, doubling to 250 ms, reset by any round that carries requests; a
//! replay is the same method and params with a fresh id, `inputResponses`
//! keyed like `inputRequests`, and `requestState` echoed byte-exact. Roots
//! are answered from the host's configured roots; sampling is refused (the
//! call fails, as in the SDK) unless the host declared a sampling handler.
//! An `inputRequests` method this client does not know fails the call too.
//!
//! Bounds of this client, beyond the SDK's: a round carries at most
//! [`MAX_INPUT_REQUESTS_PER_ROUND`] requests and a `requestState` of at most
//! [`MAX_REQUEST_STATE_BYTES`]; a round beyond either fails the call in words
//! before anything of it is shown (not resendable: the server would send the
//! same round again).
//!
//! # Example
//!
//! ```
//! use mcp_elicit::driver::modern::{ModernCall, ModernConfig, ModernStep};
//! use mcp_elicit::wire::{Call, ElicitResult};
//!
//! let mut call = ModernCall::new(
//!     ModernConfig::default(),
//!     Call::Resource { uri: "res://report".into() },
//!     1,
//! );
//! let first = call.request().unwrap(); // POST first.body with first.headers
//! assert_eq!(first.header("Mcp-Method"), Some("resources/read"));
//! // The server asks one question:
//! let step = call.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
//!     "inputRequests":{"q":{"method":"elicitation/create","params":{"message":"Sure?",
//!     "requestedSchema":{"type":"object","properties":{}}}}},"requestState":"opaque"}}"#);
//! let ModernStep::InputNeeded { elicitations, .. } = step else { panic!() };
//! // ... the UI shows elicitations[0].params and the user answers:
//! let all_answered = call.answer(&elicitations[0].key, ElicitResult::decline()).unwrap();
//! assert!(all_answered);
//! let replay = call.request().unwrap(); // same request, new id, answers + requestState
//! assert!(replay.body.unwrap().contains(r#""requestState":"opaque""#));
//! let done = call.on_message(r#"{"jsonrpc":"2.0","id":2,"result":{"contents":[]}}"#);
//! assert!(matches!(done, ModernStep::Complete(_)));
//! ```

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::headers::{encode_header_value, param_headers};
use super::http::{names, HttpRequest};
use super::DriverError;
use crate::wire::input::InputRequest;
use crate::wire::jsonrpc::request_body;
use crate::wire::meta::{server_info, MODERN_PROTOCOL_VERSION};
use crate::wire::{
    parse_message, Call, CallParams, ClientCapabilities, ElicitRequestParams, ElicitResult,
    Implementation, Incoming, InputResponse, InputResponses, ListRootsResult, ModernResult,
    RequestId, RequestMeta, Root, WireError, WireKind,
};

/// The SDK client's default round bound.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;
/// First wait after a state-only result.
pub const BACKOFF_INITIAL_MS: u64 = 50;
/// Longest wait after consecutive state-only results.
pub const BACKOFF_CAP_MS: u64 = 250;
/// Most `inputRequests` one round may carry. Each elicitation is a card the person
/// must read and answer before the round can be replayed, and each sampling request is
/// one call to the host's LLM; real servers ask one or a few at a time, so 64 leaves
/// room for any form flow. Beyond it the call fails in words before anything is shown,
/// sampled or answered: a round is shown whole or not at all (10^5 requests would be
/// 10^5 cards, or 10^5 LLM calls, that the person never asked for).
pub const MAX_INPUT_REQUESTS_PER_ROUND: usize = 64;

/// Largest `requestState` (its JSON text, as sent) a call keeps. The state is echoed
/// byte-exact in every replay, so it is uploaded again each round and copied into each
/// resend attempt; a server's sealed state is a few hundred bytes to a few KiB. 4 MiB is
/// far above that, and leaves most of a 16 MiB message (the largest this client reads)
/// for the round's requests. Beyond it the call fails in words naming both sizes, rather
/// than carrying megabytes to the server and back round after round.
pub const MAX_REQUEST_STATE_BYTES: usize = 4 * 1024 * 1024;

/// Who the client is and what it can do; the same for every call.
#[derive(Debug, Clone, PartialEq)]
pub struct ModernConfig {
    pub client_info: Implementation,
    /// Declared in every request's `_meta`. Sampling requests are surfaced to
    /// the host only when this declares `sampling`.
    pub capabilities: ClientCapabilities,
    /// Answer to `roots/list` (empty by default).
    pub roots: Vec<Root>,
    pub max_rounds: u32,
    pub protocol_version: String,
}

impl Default for ModernConfig {
    fn default() -> Self {
        ModernConfig {
            client_info: Implementation::this_client(),
            capabilities: ClientCapabilities::for_host(false),
            roots: Vec::new(),
            max_rounds: DEFAULT_MAX_ROUNDS,
            protocol_version: MODERN_PROTOCOL_VERSION.to_string(),
        }
    }
}

impl ModernConfig {
    /// The `_meta` envelope every modern request of this client carries.
    pub fn request_meta(&self) -> RequestMeta {
        RequestMeta {
            protocol_version: self.protocol_version.clone(),
            client_info: self.client_info.clone(),
            client_capabilities: self.capabilities.clone(),
        }
    }
}

/// An elicitation the UI must show, with the key its answer goes under.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingElicitation {
    pub key: String,
    pub params: ElicitRequestParams,
}

/// A sampling request for the host's handler (only when it declared one).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingSampling {
    pub key: String,
    pub params: Value,
}

/// The final result of the call.
#[derive(Debug, Clone)]
pub struct Completed {
    /// The raw `result`; parse with [`crate::wire::from_raw`] as the method's result type.
    pub result: Box<RawValue>,
    /// `_meta["io.modelcontextprotocol/serverInfo"]`, when the server sent it.
    pub server_info: Option<Implementation>,
    /// How many `input_required` rounds it took.
    pub rounds: u32,
}

/// What the caller should do next.
#[derive(Debug, Clone)]
pub enum ModernStep {
    Complete(Completed),
    /// Show all of these together; answer each, then send [`ModernCall::request`].
    InputNeeded {
        elicitations: Vec<PendingElicitation>,
        sampling: Vec<PendingSampling>,
        /// The 1-based round this is.
        round: u32,
        /// Keys of elicitations the previous round for the person asked that this round
        /// no longer carries: the server withdrew them (the modern era's
        /// `notifications/cancelled`). A card still shown for one of them (a URL card
        /// waiting for its flow) waits for nothing now; nothing is sent for it.
        withdrawn: Vec<String>,
    },
    /// Every input was answered without the user (roots): send the replay now.
    ReadyToReplay,
    /// Only `requestState` came back: wait this long, then send the replay.
    RetryAfter {
        delay_ms: u64,
    },
    /// The first -32020 (HEADER_MISMATCH) of this round of a `tools/call`: the
    /// tool's listed schema is missing or stale. What to do is in
    /// [Header mismatch](crate::driver::modern#header-mismatch).
    RefreshToolSchema {
        tool: String,
        mismatch: DriverError,
    },
    Failed(DriverError),
    /// The server runs the `tools/call` as a task (the Tasks extension,
    /// [`super::task_ext`]): feed `created` (the `CreateTaskResult`) to the task's
    /// [`on_task`](super::task_ext::ExtTask::on_task) for its first step.
    Task {
        task: Box<super::task_ext::ExtTask>,
        created: Value,
    },
    /// Not an answer to our request (e.g. a progress or log notification).
    Ignored,
}

/// Where the call is; each phase holds what only it has.
#[derive(Debug, Clone)]
enum Phase {
    /// A request may be built: the round's first send, its replay, or a resend.
    Ready,
    /// The request with this id is in flight; only its answer is ours.
    Sent(RequestId),
    /// The round's questions are out, waiting for the user's / host's answers.
    Answering(Asked),
    /// Completed, or failed for good.
    Done,
}

/// What a round asked of the user and the host.
#[derive(Debug, Clone)]
struct Asked {
    /// Keys still waiting for an answer, in the server's order. Empty: the replay may go.
    waiting: Vec<String>,
    /// Keys that are elicitations (so an answer to a sampling key as elicitation is refused).
    elicitations: Vec<String>,
}

/// What one `input_required` round carries into each of its sends (the replay, every
/// resend of it), until the next round replaces it.
#[derive(Debug, Clone, Default)]
struct Round {
    responses: InputResponses,
    request_state: Option<Box<RawValue>>,
    /// This round already had its one schema refresh after a -32020.
    refreshed_schema: bool,
}

/// The state machine for one call.
#[derive(Debug, Clone)]
pub struct ModernCall {
    config: ModernConfig,
    call: Call,
    /// The tool's `inputSchema` from `tools/list`, for a `tools/call`'s `Mcp-Param-*`
    /// headers (`None`: no such headers).
    input_schema: Option<Value>,
    next_id: i64,
    phase: Phase,
    /// `input_required` rounds seen so far.
    rounds: u32,
    backoff_ms: u64,
    round: Round,
    /// The elicitation keys of the latest round asked of the person, to tell which of them
    /// a later round withdrew ([`ModernStep::InputNeeded`]'s `withdrawn`).
    asked_before: Vec<String>,
    /// Sent in every round's `_meta.progressToken` (see [`super::progress`]).
    progress_token: Option<String>,
}

/// A round's `_meta`: the envelope, and the call's progress token when it has one.
#[derive(Serialize)]
struct RoundMeta<'a> {
    #[serde(flatten)]
    envelope: RequestMeta,
    #[serde(rename = "progressToken", skip_serializing_if = "Option::is_none")]
    progress_token: Option<&'a str>,
}

/// A round's params: the call's own, then what the modern era adds.
#[derive(Serialize)]
struct Params<'a> {
    #[serde(flatten)]
    call: CallParams<'a>,
    #[serde(rename = "inputResponses", skip_serializing_if = "Option::is_none")]
    input_responses: Option<&'a InputResponses>,
    #[serde(rename = "requestState", skip_serializing_if = "Option::is_none")]
    request_state: Option<&'a RawValue>,
    #[serde(rename = "_meta")]
    meta: RoundMeta<'a>,
}

impl ModernCall {
    /// A call whose JSON-RPC ids start at `first_id` (one per round).
    pub fn new(config: ModernConfig, call: Call, first_id: i64) -> Self {
        ModernCall {
            config,
            call,
            input_schema: None,
            next_id: first_id,
            phase: Phase::Ready,
            rounds: 0,
            backoff_ms: BACKOFF_INITIAL_MS,
            round: Round::default(),
            asked_before: Vec::new(),
            progress_token: None,
        }
    }

    /// The call with `token` (from [`ProgressBook::start`](super::progress::ProgressBook::start))
    /// in every round's `_meta.progressToken`, so the server may report its progress.
    pub fn with_progress_token(mut self, token: Option<String>) -> Self {
        self.progress_token = token;
        self
    }

    /// The person stopped the call. The 2026-07-28 revision's Streamable HTTP signal is the
    /// stream's end: the caller aborts the request in flight (no `notifications/cancelled`
    /// is sent; none is expected). The call is finished: it sends nothing more, and a late
    /// message is [`ModernStep::Ignored`], an answer to its cards an error.
    pub fn cancel(&mut self) {
        self.phase = Phase::Done;
    }

    /// The next id this call will use (so a caller sharing an id space can continue after it).
    pub fn next_id(&self) -> i64 {
        self.next_id
    }

    /// True once the call can send nothing more: it completed, or failed
    /// for good ([Resending](crate::driver::modern#resending)).
    pub fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// Rounds of `input_required` seen so far.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Keys still waiting for an answer.
    pub fn waiting_for(&self) -> &[String] {
        match &self.phase {
            Phase::Answering(asked) => &asked.waiting,
            _ => &[],
        }
    }

    /// The id of the request in flight, if any.
    pub fn in_flight(&self) -> Option<&RequestId> {
        match &self.phase {
            Phase::Sent(id) => Some(id),
            _ => None,
        }
    }

    /// Builds the request for this round: the original the first time, the
    /// replay after that, and the same round again after a resendable failure
    /// ([Resending](crate::driver::modern#resending)).
    pub fn request(&mut self) -> Result<HttpRequest, DriverError> {
        match &self.phase {
            Phase::Done => return Err(DriverError::Usage("the call is already finished".into())),
            Phase::Answering(asked) if !asked.waiting.is_empty() => {
                return Err(DriverError::Usage(format!(
                    "still waiting for answers to: {}",
                    asked.waiting.join(", ")
                )))
            }
            Phase::Ready | Phase::Sent(_) | Phase::Answering(_) => {}
        }
        let id = RequestId::Number(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        let params = Params {
            call: self.call.params(),
            input_responses: (!self.round.responses.is_empty()).then_some(&self.round.responses),
            request_state: self.round.request_state.as_deref(),
            meta: RoundMeta {
                envelope: self.config.request_meta(),
                progress_token: self.progress_token.as_deref(),
            },
        };
        let method = self.call.method();
        let body = request_body(&id, method, Some(&params))?;
        let mut req = HttpRequest::post(body)
            .with(
                names::PROTOCOL_VERSION,
                self.config.protocol_version.clone(),
            )
            .with(names::METHOD, method)
            .with(names::NAME, encode_header_value(self.call.target()));
        if let (Call::Tool { arguments, .. }, Some(schema)) = (&self.call, &self.input_schema) {
            for (n, v) in param_headers(schema, arguments) {
                req = req.with(&n, v);
            }
        }
        self.phase = Phase::Sent(id);
        Ok(req)
    }

    /// Feeds one JSON-RPC message text from the response (a JSON body, or one
    /// SSE event). A text that is not JSON-RPC fails the attempt, resendably
    /// ([Resending](crate::driver::modern#resending)).
    pub fn on_message(&mut self, text: &str) -> ModernStep {
        let message = match parse_message(text) {
            Ok(m) => m,
            Err(_) if self.in_flight().is_none() => return ModernStep::Ignored,
            Err(e) => return self.fail(e.into()),
        };
        match message {
            Incoming::Response { id, result } if self.is_ours(Some(&id)) => self.on_result(result),
            Incoming::Error { id, error } if self.is_ours(id.as_ref()) => {
                self.fail_or_refresh(DriverError::from_rpc(error))
            }
            // Notifications (progress, logging), stray responses, and server
            // requests (the modern era has no back-channel for them) are not ours.
            _ => ModernStep::Ignored,
        }
    }

    /// A non-2xx HTTP answer, read as [`failure_from_http`](super::http::failure_from_http)
    /// reads it (a JSON-RPC error in the body wins over the status), then handled as
    /// [Resending](crate::driver::modern#resending) and
    /// [Header mismatch](crate::driver::modern#header-mismatch) say.
    pub fn on_http_failure(
        &mut self,
        status: u16,
        content_type: Option<&str>,
        body: &[u8],
    ) -> ModernStep {
        if self.in_flight().is_none() {
            return ModernStep::Ignored;
        }
        let error = super::http::failure_from_http(status, content_type, body);
        self.fail_or_refresh(error)
    }

    /// The call with the tool's `inputSchema` from `tools/list`, which says which
    /// arguments a `tools/call` mirrors into `Mcp-Param-*` headers ([`super::headers`];
    /// `None`, as without it: no such headers). Other calls send none whatever it is.
    pub fn with_input_schema(mut self, schema: Option<Value>) -> Self {
        self.input_schema = schema;
        self
    }

    /// The tool's `inputSchema` from a fresh `tools/list`, after
    /// [`ModernStep::RefreshToolSchema`] (`None`: no longer listed); the next
    /// [`request`](Self::request) sends the headers it asks for.
    pub fn set_input_schema(&mut self, schema: Option<Value>) {
        self.input_schema = schema;
    }

    /// The call being driven.
    pub fn call(&self) -> &Call {
        &self.call
    }

    /// The response body ended. If it carried no answer, the attempt failed
    /// with [`DriverError::NoResponse`] (resendable).
    pub fn on_body_end(&mut self) -> Option<ModernStep> {
        self.in_flight()
            .is_some()
            .then(|| self.fail(DriverError::NoResponse))
    }

    /// The network failed before an answer, or the body could not be read
    /// to its end (a cut event stream): the attempt ends, resendably.
    pub fn on_network_failure(&mut self) {
        if self.in_flight().is_some() {
            self.phase = Phase::Ready;
        }
    }

    /// Records the user's answer to the elicitation under `key`. Returns
    /// `true` once every input of the round is answered (send the replay).
    pub fn answer(&mut self, key: &str, result: ElicitResult) -> Result<bool, DriverError> {
        if !self.is_elicitation(key) {
            return Err(DriverError::Usage(format!(
                "no elicitation is waiting under {key:?}"
            )));
        }
        self.record(key, InputResponse::Elicit(result))
    }

    /// Records the host's sampling answer (a `CreateMessageResult`) under `key`.
    pub fn answer_sampling(&mut self, key: &str, result: Value) -> Result<bool, DriverError> {
        if self.is_elicitation(key) {
            return Err(DriverError::Usage(format!(
                "{key:?} is an elicitation, not sampling"
            )));
        }
        self.record(key, InputResponse::Sampling(result))
    }

    /// Whether `key` is one of this round's elicitations (answered or not).
    fn is_elicitation(&self, key: &str) -> bool {
        match &self.phase {
            Phase::Answering(asked) => asked.elicitations.iter().any(|k| k == key),
            _ => false,
        }
    }

    fn record(&mut self, key: &str, response: InputResponse) -> Result<bool, DriverError> {
        let Phase::Answering(asked) = &mut self.phase else {
            return Err(DriverError::Usage("no input is being asked for".into()));
        };
        let Some(pos) = asked.waiting.iter().position(|k| k == key) else {
            return Err(DriverError::Usage(format!(
                "{key:?} is not waiting for an answer"
            )));
        };
        asked.waiting.remove(pos);
        self.round.responses.insert(key.to_string(), response);
        Ok(asked.waiting.is_empty())
    }

    fn is_ours(&self, id: Option<&RequestId>) -> bool {
        match (&self.phase, id) {
            (Phase::Sent(sent), Some(id)) => sent == id,
            // An error whose id the server could not read answers the one request we sent.
            (Phase::Sent(_), None) => true,
            _ => false,
        }
    }

    /// [Header mismatch](crate::driver::modern#header-mismatch): a `tools/call`'s
    /// first -32020 of the round asks for a refresh; anything else goes to
    /// [`fail`](Self::fail).
    fn fail_or_refresh(&mut self, e: DriverError) -> ModernStep {
        match (&e, &self.call) {
            (DriverError::HeaderMismatch { .. }, Call::Tool { name, .. })
                if !self.round.refreshed_schema =>
            {
                self.round.refreshed_schema = true;
                self.phase = Phase::Ready;
                ModernStep::RefreshToolSchema {
                    tool: name.clone(),
                    mismatch: e,
                }
            }
            _ => self.fail(e),
        }
    }

    /// Ends the attempt in flight, as [Resending](crate::driver::modern#resending) says.
    fn fail(&mut self, e: DriverError) -> ModernStep {
        self.phase = if e.is_resendable() {
            Phase::Ready
        } else {
            Phase::Done
        };
        ModernStep::Failed(e)
    }

    fn on_result(&mut self, raw: Box<RawValue>) -> ModernStep {
        let result = match ModernResult::classify(raw) {
            Ok(r) => r,
            Err(e) => return self.fail(DriverError::BadResult(e)),
        };
        let ir = match result {
            ModernResult::Complete(result) => {
                self.phase = Phase::Done;
                let info = crate::wire::from_raw::<MetaOnly>(&result, "result")
                    .ok()
                    .and_then(|m| server_info(m.meta.as_ref()));
                return ModernStep::Complete(Completed {
                    result,
                    server_info: info,
                    rounds: self.rounds,
                });
            }
            ModernResult::InputRequired(ir) => ir,
            ModernResult::Task(raw) => return self.on_task_created(&raw),
        };
        self.rounds = self.rounds.saturating_add(1);
        if self.rounds > self.config.max_rounds {
            return self.fail(DriverError::RoundsExceeded {
                max_rounds: self.config.max_rounds,
            });
        }
        if let Some(size) = ir
            .request_state
            .as_ref()
            .map(|s| s.get().len())
            .filter(|&n| n > MAX_REQUEST_STATE_BYTES)
        {
            return self.fail(DriverError::BadResult(WireError::of(
                WireKind::TooLarge,
                format!(
                    "the server sent a requestState of {size} bytes; this client keeps and \
                 resends at most {MAX_REQUEST_STATE_BYTES} bytes"
                ),
            )));
        }
        let requests = ir.input_requests.unwrap_or_default();
        if requests.len() > MAX_INPUT_REQUESTS_PER_ROUND {
            return self.fail(DriverError::BadResult(WireError::of(
                WireKind::TooLarge,
                format!(
                    "the server asked for {} inputs in one round; this client shows and \
                 answers at most {MAX_INPUT_REQUESTS_PER_ROUND}",
                    requests.len()
                ),
            )));
        }
        // A new round: no answers yet, and its own schema refresh after a -32020.
        self.round = Round {
            request_state: ir.request_state,
            ..Round::default()
        };
        if requests.is_empty() {
            let delay_ms = self.backoff_ms;
            self.backoff_ms = (self.backoff_ms.saturating_mul(2)).min(BACKOFF_CAP_MS);
            self.phase = Phase::Ready;
            return ModernStep::RetryAfter { delay_ms };
        }
        self.backoff_ms = BACKOFF_INITIAL_MS;
        let sorted = match sort_inputs(requests, &self.config) {
            Ok(sorted) => sorted,
            Err(e) => return self.fail(e),
        };
        self.round.responses = sorted.responses;
        let elicitations = sorted.elicitations;
        let sampling = sorted.sampling;
        let asked = Asked {
            waiting: sorted.waiting,
            elicitations: elicitations.iter().map(|e| e.key.clone()).collect(),
        };
        if asked.waiting.is_empty() {
            self.phase = Phase::Ready;
            return ModernStep::ReadyToReplay;
        }
        let withdrawn = std::mem::take(&mut self.asked_before)
            .into_iter()
            .filter(|key| !asked.elicitations.contains(key))
            .collect();
        self.asked_before.clone_from(&asked.elicitations);
        self.phase = Phase::Answering(asked);
        ModernStep::InputNeeded {
            elicitations,
            sampling,
            round: self.rounds,
            withdrawn,
        }
    }
}

impl ModernCall {
    /// A `CreateTaskResult`: taken only for a `tools/call` made with the Tasks extension
    /// declared (anything else is an invalid answer, as the extension says).
    fn on_task_created(&mut self, raw: &RawValue) -> ModernStep {
        if !self.config.capabilities.tasks_extension() || !matches!(self.call, Call::Tool { .. }) {
            return self.fail(DriverError::BadResult(WireError::of(
                WireKind::Unexpected,
                "the server answered with a task, which this request cannot be",
            )));
        }
        let created: Value = match serde_json::from_str(raw.get()) {
            Ok(v) => v,
            Err(e) => return self.fail(DriverError::BadResult(WireError::new(e.to_string()))),
        };
        match super::task_ext::ExtTask::new(&created, &self.config) {
            Ok(task) => {
                self.phase = Phase::Done;
                ModernStep::Task {
                    task: Box::new(task),
                    created,
                }
            }
            Err(why) => self.fail(DriverError::BadResult(WireError::of(
                WireKind::Malformed,
                why,
            ))),
        }
    }
}

/// A round's requests, sorted: the elicitations for the person, the sampling for the host's
/// handler, the roots answered here.
pub(crate) struct Sorted {
    /// The keys that wait for an answer (elicitations and sampling), in the server's order.
    pub(crate) waiting: Vec<String>,
    pub(crate) elicitations: Vec<PendingElicitation>,
    pub(crate) sampling: Vec<PendingSampling>,
    /// The answers given here (roots).
    pub(crate) responses: InputResponses,
}

/// Sorts a round's `inputRequests` (a call's `input_required` round, or a task's, in
/// [`super::task_ext`]): roots are answered from the host's roots; sampling is refused
/// unless the host declared it; a method this client does not know fails the round.
pub(crate) fn sort_inputs(
    requests: indexmap::IndexMap<String, InputRequest>,
    config: &ModernConfig,
) -> Result<Sorted, DriverError> {
    let sampling_allowed = config.capabilities.sampling.is_some();
    let mut sorted = Sorted {
        waiting: Vec::new(),
        elicitations: Vec::new(),
        sampling: Vec::new(),
        responses: InputResponses::new(),
    };
    for (key, request) in requests {
        match request {
            InputRequest::Elicit(params) => {
                sorted.waiting.push(key.clone());
                sorted.elicitations.push(PendingElicitation { key, params });
            }
            InputRequest::Roots(_) => {
                let roots = ListRootsResult {
                    roots: config.roots.clone(),
                };
                sorted.responses.insert(key, InputResponse::Roots(roots));
            }
            InputRequest::Sampling(params) if sampling_allowed => {
                sorted.waiting.push(key.clone());
                sorted.sampling.push(PendingSampling { key, params });
            }
            InputRequest::Sampling(_) => return Err(DriverError::SamplingRefused { key }),
            InputRequest::Unknown { method, .. } => {
                return Err(DriverError::UnsupportedInput { key, method })
            }
        }
    }
    Ok(sorted)
}

#[derive(serde::Deserialize)]
struct MetaOnly {
    #[serde(rename = "_meta")]
    meta: Option<Map<String, Value>>,
}

/// A one-shot modern request (`tools/list`, `prompts/list`, `ping`, ...):
/// `params` plus the `_meta` envelope, with `MCP-Protocol-Version`,
/// `Mcp-Method` and, for name-bearing methods, `Mcp-Name`. For the methods
/// that may answer `input_required`, drive a [`ModernCall`] instead.
pub fn simple_request(
    config: &ModernConfig,
    id: &RequestId,
    method: &str,
    params: Option<&Map<String, Value>>,
) -> Result<HttpRequest, DriverError> {
    let mut full = params.cloned().unwrap_or_default();
    let meta = serde_json::to_value(config.request_meta())
        .map_err(|e| DriverError::Usage(format!("could not encode _meta: {e}")))?;
    full.insert("_meta".into(), meta);
    let body = request_body(id, method, Some(&full))?;
    let mut req = HttpRequest::post(body)
        .with(names::PROTOCOL_VERSION, config.protocol_version.clone())
        .with(names::METHOD, method);
    let name_key = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        // The Tasks extension: `Mcp-Name` is the task's id.
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(name) = name_key.and_then(|k| params?.get(k)?.as_str()) {
        req = req.with(names::NAME, encode_header_value(name));
    }
    Ok(req)
}

/// Reads one message of the answer to a [`simple_request`] sent with `id`:
/// `None` when the message is something else (a notification, a stray
/// response), else the result or the error, in words.
pub fn simple_answer(id: &RequestId, text: &str) -> Option<Result<Box<RawValue>, DriverError>> {
    match parse_message(text) {
        Ok(Incoming::Response { id: got, result }) if &got == id => Some(Ok(result)),
        Ok(Incoming::Error { id: got, error }) if got.as_ref().is_none_or(|g| g == id) => {
            Some(Err(DriverError::from_rpc(error)))
        }
        Ok(_) => None,
        Err(e) => Some(Err(e.into())),
    }
}
