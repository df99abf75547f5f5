//! The 2025-11-25 client: the IO around the core's legacy session machine
//! ([`mcp_elicit::driver::legacy::LegacySession`]). The machine builds the handshake, the
//! session headers, every request and every automatic answer (ping, roots, refusals), and
//! routes every message of a POST's SSE stream or of the session's GET stream; this module
//! sends what it builds, keeps the GET stream open, and shows what it reports.
//!
//! One policy lives here because it concerns the UI's cards: an answer whose server request
//! died with the server (a restart) is kept, and when the re-run call asks the same
//! question on the new session, that answer is sent at once (through the machine).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use mcp_elicit::driver::http::failure_from_http;
use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession as Machine};
use mcp_elicit::driver::{DriverError, HttpRequest};
use mcp_elicit::sse::SseError;
use mcp_elicit::wire::meta::{HANDSHAKE_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSION};
use mcp_elicit::wire::{ClientCapabilities, ElicitRequestParams, ElicitResult, RequestId};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use web_sys::AbortController;

use super::config::{ClientConfig, SamplingHandler};
use super::events::{ClientError, ClientEvent, EventSink};
use super::exchange::{self, Messages};
use super::resume::Resumption;
use crate::transport::{sleep, RawResponse, TransportError};

/// First and longest wait before reopening a dropped GET stream.
const GET_RETRY_FIRST_MS: u32 = 1_000;
const GET_RETRY_MAX_MS: u32 = 30_000;

/// Prefix of the keys (and routing ids) of URL elicitations that came in a -32042 error
/// (they have no JSON-RPC id to answer: the user just opens them, then retries the call).
/// The routing id of a server request starts with the session's handshake count
/// ([`route_of`]), never with this prefix, so a server cannot make its request pass for
/// one of these.
pub const URL_REQUIRED_KEY_PREFIX: &str = "url-required:";

/// A server request shown in the UI.
struct PendingRequest {
    id: RequestId,
    params: ElicitRequestParams,
}

/// An answer to re-deliver when the same question comes again on a new session.
struct ReplayAnswer {
    /// The routing id of the card that holds the answer (it goes once the answer is
    /// delivered).
    id: String,
    params: ElicitRequestParams,
    result: ElicitResult,
}

/// A legacy session. Cheap to clone; all clones share the session.
#[derive(Clone)]
pub struct LegacySession {
    inner: Rc<Inner>,
}

struct Inner {
    url: String,
    sink: EventSink,
    sampling: Option<SamplingHandler>,
    machine: RefCell<Machine>,
    /// Server requests waiting for the user, by routing id ([`route_of`]).
    pending: RefCell<HashMap<String, PendingRequest>>,
    /// Answers whose server request was lost with the session (server restart).
    replay: RefCell<Vec<ReplayAnswer>>,
    /// Aborts the GET stream on disconnect.
    get_stream: RefCell<Option<AbortController>>,
    closed: Cell<bool>,
    /// Numbers the -32042 cards whose `elicitationId` is absent.
    url_required_cards: Cell<u64>,
    /// Counts completed handshakes, so requests that all met the same expired session
    /// renew it once between them.
    epoch: Cell<u64>,
    /// Held while a renewal's handshake runs; requests wait for it before sending.
    renewal: futures::lock::Mutex<()>,
}

impl LegacySession {
    /// Runs the handshake and opens the GET stream.
    pub async fn connect(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        let machine = Machine::new(LegacyConfig {
            roots: config.roots.clone(),
            capabilities: ClientCapabilities::for_host(config.sampling.is_some()),
            ..LegacyConfig::default()
        });
        let session = LegacySession {
            inner: Rc::new(Inner {
                url: config.url,
                sink,
                sampling: config.sampling,
                machine: RefCell::new(machine),
                pending: RefCell::new(HashMap::new()),
                replay: RefCell::new(Vec::new()),
                get_stream: RefCell::new(None),
                closed: Cell::new(false),
                url_required_cards: Cell::new(0),
                epoch: Cell::new(0),
                renewal: futures::lock::Mutex::new(()),
            }),
        };
        session.handshake().await?;
        Ok(session)
    }

    /// The protocol version the server chose in the handshake.
    pub fn protocol_version(&self) -> &'static str {
        let machine = self.inner.machine.borrow();
        let chosen = machine.protocol_version();
        HANDSHAKE_PROTOCOL_VERSIONS
            .iter()
            .find(|v| Some(**v) == chosen)
            .copied()
            .unwrap_or(LEGACY_PROTOCOL_VERSION)
    }

    /// The `serverInfo` the server gave in the handshake (display only: who is asking).
    pub fn server_info(&self) -> Option<mcp_elicit::wire::Implementation> {
        let machine = self.inner.machine.borrow();
        machine.server().map(|init| init.server_info.clone())
    }

    async fn send(&self, request: &HttpRequest) -> Result<RawResponse, ClientError> {
        exchange::send(&self.inner.url, request, None).await
    }

    async fn handshake(&self) -> Result<(), ClientError> {
        self.stop_get_stream();
        let (request, id) = {
            let mut machine = self.inner.machine.borrow_mut();
            let request = machine.initialize_request()?;
            (request, machine.initialize_id().cloned())
        };
        let mut response = self.send(&request).await?;
        if let Some(err) = self.status_failure(id.as_ref(), &mut response).await? {
            return Err(err);
        }
        let mut messages = Messages::new(response);
        while let Some(text) = messages.next().await? {
            let event = self.inner.machine.borrow_mut().on_message(&text);
            match event {
                LegacyEvent::Initialized { notification, .. } => {
                    let mut response = self.send(&notification).await?;
                    if let Some(err) = self.status_failure(None, &mut response).await? {
                        return Err(err);
                    }
                    // Without a session (a stateless server) a GET stream has nothing to
                    // carry and would only hold a connection open (the SDK's client skips it
                    // too).
                    self.inner.epoch.set(self.inner.epoch.get().wrapping_add(1));
                    let has_session = self.inner.machine.borrow().session_id().is_some();
                    if has_session {
                        self.open_get_stream();
                    }
                    return Ok(());
                }
                LegacyEvent::Failed { id: got, error } if got.is_none() || got == id => {
                    return Err(error.into())
                }
                other => self.route(other),
            }
        }
        Err(DriverError::NoResponse.into())
    }

    /// Hands the status (and session id) of the answer to request `id` to the machine; for a
    /// non-2xx status, the failure in words (`SessionExpired` for a forgotten session).
    async fn status_failure(
        &self,
        id: Option<&RequestId>,
        response: &mut RawResponse,
    ) -> Result<Option<ClientError>, ClientError> {
        let status = response.status;
        if exchange::is_success(status) {
            let session_id = response.session_id.clone();
            let event =
                self.inner
                    .machine
                    .borrow_mut()
                    .on_http_status(id, status, session_id.as_deref());
            return Ok(event.and_then(event_error));
        }
        let body = response.read_all().await?;
        let content_type = response.content_type.clone();
        let event = self.inner.machine.borrow_mut().on_http_failure(
            id,
            status,
            content_type.as_deref(),
            &body,
        );
        let err = event
            .and_then(event_error)
            .unwrap_or_else(|| failure_from_http(status, content_type.as_deref(), &body).into());
        Ok(Some(err))
    }

    /// Sends `method` and waits for its result, handling server requests on the way. An
    /// expired session is re-initialised once, with a notice, and the request resent.
    pub async fn request(
        &self,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        let params = Value::Object(params);
        // A renewal under way (another request met the expired session) ends first.
        drop(self.inner.renewal.lock().await);
        let epoch = self.inner.epoch.get();
        match self.request_once(method, &params).await {
            Err(ClientError::Driver(DriverError::SessionExpired)) => {
                if self.renew(epoch).await? {
                    (self.inner.sink)(ClientEvent::Notice(
                        "The server had forgotten the session (it expired or restarted); \
                         connected again with a new session."
                            .into(),
                    ));
                }
                self.request_once(method, &params).await
            }
            other => other,
        }
    }

    /// Renews the session that expired under a request sent in handshake `epoch`, unless
    /// another request already did (then `false`): several requests in flight when a
    /// server restarts all meet the 404, and one new session serves them all.
    async fn renew(&self, epoch: u64) -> Result<bool, ClientError> {
        let _renewing = self.inner.renewal.lock().await;
        if self.inner.epoch.get() != epoch {
            return Ok(false);
        }
        self.handshake().await?;
        Ok(true)
    }

    async fn request_once(
        &self,
        method: &str,
        params: &Value,
    ) -> Result<Box<RawValue>, ClientError> {
        let (id, request) = self
            .inner
            .machine
            .borrow_mut()
            .request(method, Some(params))?;
        let mut response = self.send(&request).await?;
        if let Some(err) = self.status_failure(Some(&id), &mut response).await? {
            if let ClientError::Driver(error) = &err {
                self.show_required_urls(error);
            }
            return Err(err);
        }
        let mut messages = Messages::new(response);
        let mut resumption = Resumption::default();
        loop {
            let next = messages.next().await;
            resumption.observe(&messages);
            let text = match next {
                Ok(Some(text)) => text,
                ended => match resumable(&ended).then(|| resumption.next_attempt()) {
                    Some(Some((last_event_id, delay_ms))) => {
                        messages = self.resume(&last_event_id, delay_ms).await?;
                        continue;
                    }
                    _ => return Err(ended.err().unwrap_or(DriverError::NoResponse.into())),
                },
            };
            let event = self.inner.machine.borrow_mut().on_message(&text);
            match event {
                LegacyEvent::Response {
                    id: got, result, ..
                } if got == id => return Ok(result),
                LegacyEvent::Failed { id: got, error } if got.as_ref().is_none_or(|g| g == &id) => {
                    self.show_required_urls(&error);
                    return Err(error.into());
                }
                other => self.route(other),
            }
        }
    }

    /// Reopens a request's stream that the server closed: GET with `Last-Event-ID`, after
    /// the server's `retry:` delay. The server replays what we missed and goes on there.
    async fn resume(&self, last_event_id: &str, delay_ms: u32) -> Result<Messages, ClientError> {
        sleep(delay_ms).await;
        let request = self
            .inner
            .machine
            .borrow()
            .get_stream_request(Some(last_event_id))?;
        let mut response = self.send(&request).await?;
        if let Some(err) = self.status_failure(None, &mut response).await? {
            return Err(err);
        }
        Ok(Messages::new(response))
    }

    /// -32042: shows each URL elicitation the server requires before the call can proceed.
    fn show_required_urls(&self, error: &DriverError) {
        if let DriverError::UrlElicitationRequired { elicitations, .. } = error {
            for params in elicitations {
                let eid = &params.elicitation_id;
                // A retried call's -32042 names the same elicitation again: same id, so
                // its card replaces the earlier one. Entries without an id get their own.
                let id = if eid.is_empty() {
                    let n = self.inner.url_required_cards.get().wrapping_add(1);
                    self.inner.url_required_cards.set(n);
                    format!("{URL_REQUIRED_KEY_PREFIX}unnamed:{n}")
                } else {
                    format!("{URL_REQUIRED_KEY_PREFIX}id:{eid}")
                };
                (self.inner.sink)(ClientEvent::Elicit {
                    id,
                    key: format!("{URL_REQUIRED_KEY_PREFIX}{eid}"),
                    params: ElicitRequestParams::Url(params.clone()),
                });
            }
        }
    }

    /// Acts on what the machine made of a message that is not the answer we wait for.
    fn route(&self, event: LegacyEvent) {
        match event {
            LegacyEvent::Elicit { id, params } => self.elicit(id, params),
            LegacyEvent::Sampling { id, params } => self.sample(id, params),
            LegacyEvent::ElicitationComplete { elicitation_id } => {
                (self.inner.sink)(ClientEvent::Completed { elicitation_id })
            }
            // Pings, roots, refusals: the machine wrote the answer; nobody waits on it.
            LegacyEvent::Reply { request, .. } => self.post_in_background(request, None),
            LegacyEvent::Response { .. }
            | LegacyEvent::Failed { .. }
            | LegacyEvent::Initialized { .. }
            | LegacyEvent::SessionExpired
            | LegacyEvent::Ignored => {}
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
        if let Some(ReplayAnswer {
            id: card, result, ..
        }) = replayed
        {
            let answer = self.inner.machine.borrow().answer_elicitation(&id, &result);
            if let Ok(request) = answer {
                self.post_in_background(request, Some(card));
            }
            return;
        }
        let route = route_of(self.inner.epoch.get(), &id);
        let key = key_of(&id);
        self.inner.pending.borrow_mut().insert(
            route.clone(),
            PendingRequest {
                id,
                params: params.clone(),
            },
        );
        (self.inner.sink)(ClientEvent::Elicit {
            id: route,
            key,
            params,
        });
    }

    /// A server `sampling/createMessage` (the machine surfaces it only when sampling was
    /// declared): the host's handler answers in the background, or its failure is sent back
    /// as the JSON-RPC error, so the server's tool sees why.
    fn sample(&self, id: RequestId, params: Value) {
        let session = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let outcome = match &session.inner.sampling {
                Some(handler) => handler.sample(params).await,
                None => Err("this client has no sampling handler".into()),
            };
            let reply = {
                let machine = session.inner.machine.borrow();
                match &outcome {
                    Ok(result) => machine.answer_sampling(&id, result),
                    Err(why) => machine.refuse_sampling(&id, why),
                }
            };
            if let Err(why) = outcome {
                (session.inner.sink)(ClientEvent::Notice(ClientError::Sampling(why).to_string()));
            }
            if let Ok(request) = reply {
                session.post_in_background(request, None);
            }
        });
    }

    /// POSTs an answer nobody waits on; when it holds the card `answered`'s answer, the
    /// card goes once the server took it.
    fn post_in_background(&self, request: HttpRequest, answered: Option<String>) {
        let session = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let delivered = session
                .send(&request)
                .await
                .is_ok_and(|r| exchange::is_success(r.status));
            if let (true, Some(id)) = (delivered, answered) {
                (session.inner.sink)(ClientEvent::Answered { id });
            }
        });
    }

    /// POSTs the user's answer to the server request routed as `id`. On failure the request
    /// stays pending so the user can resend.
    pub async fn answer(&self, id: &str, result: ElicitResult) -> Result<(), ClientError> {
        if id.starts_with(URL_REQUIRED_KEY_PREFIX) {
            // Nothing to send: the server learns of it when the URL flow completes.
            (self.inner.sink)(ClientEvent::Answered { id: id.to_owned() });
            return Ok(());
        }
        let request_id = self
            .inner
            .pending
            .borrow()
            .get(id)
            .map(|p| p.id.clone())
            .ok_or_else(|| ClientError::UnknownElicitation(id.to_owned()))?;
        let request = self
            .inner
            .machine
            .borrow()
            .answer_elicitation(&request_id, &result)?;
        let epoch = self.inner.epoch.get();
        let mut response = self.send(&request).await?;
        match self.status_failure(None, &mut response).await? {
            None => {
                self.inner.pending.borrow_mut().remove(id);
                (self.inner.sink)(ClientEvent::Answered { id: id.to_owned() });
                Ok(())
            }
            Some(ClientError::Driver(DriverError::SessionExpired)) => {
                // The server restarted: its request is gone. Keep the answer for the same
                // question on a new session; the caller re-runs the call.
                self.renew(epoch).await?;
                let lost = self.inner.pending.borrow_mut().remove(id);
                let Some(lost) = lost else {
                    return Err(ClientError::UnknownElicitation(id.to_owned()));
                };
                self.inner.replay.borrow_mut().push(ReplayAnswer {
                    id: id.to_owned(),
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
            Some(other) => Err(other),
        }
    }

    /// Keeps the GET stream open in the background, reopening it after a polite delay when
    /// it drops, until the session closes or the server offers none (405).
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
            // Resumes a reopened stream where it broke (a server with an event store replays
            // what we missed, e.g. a completion; others ignore the header).
            let mut last_event_id: Option<String> = None;
            loop {
                if session.inner.closed.get() || signal.aborted() {
                    return;
                }
                let request = session
                    .inner
                    .machine
                    .borrow()
                    .get_stream_request(last_event_id.as_deref());
                let Ok(request) = request else { return };
                match exchange::send(&session.inner.url, &request, Some(&signal)).await {
                    Err(ClientError::Transport(TransportError::Aborted)) => return,
                    Err(_) => {}
                    // No GET stream on this server (405). A forgotten session (404) is
                    // left to the next POST, whose answer the machine turns into a new
                    // session (a card's answer must learn its request was lost).
                    Ok(response) if matches!(response.status, 404 | 405) => return,
                    Ok(response) if exchange::is_success(response.status) => {
                        delay = GET_RETRY_FIRST_MS;
                        let mut messages = Messages::new(response);
                        while let Ok(Some(text)) = messages.next().await {
                            let event = session.inner.machine.borrow_mut().on_message(&text);
                            session.route(event);
                        }
                        if let Some(id) = messages.last_event_id() {
                            last_event_id = Some(id.to_owned());
                        }
                        if let Some(retry) = messages.retry_ms() {
                            let retry = u32::try_from(retry).unwrap_or(GET_RETRY_MAX_MS);
                            delay = retry.clamp(100, GET_RETRY_MAX_MS);
                        }
                    }
                    Ok(_) => {}
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
        let request = self.inner.machine.borrow_mut().close_request();
        if let Some(request) = request {
            let _ = self.send(&request).await;
        }
    }
}

/// The error an event stands for, if it is one.
fn event_error(event: LegacyEvent) -> Option<ClientError> {
    match event {
        LegacyEvent::SessionExpired => Some(DriverError::SessionExpired.into()),
        LegacyEvent::Failed { error, .. } => Some(error.into()),
        _ => None,
    }
}

/// Whether a request's stream ended in a way a reconnection can mend: an orderly end
/// before our answer, a dropped connection, or an event cut off mid-way.
fn resumable(ended: &Result<Option<String>, ClientError>) -> bool {
    matches!(
        ended,
        Ok(None)
            | Err(ClientError::Transport(TransportError::Dropped { .. }))
            | Err(ClientError::Driver(DriverError::Sse(SseError::Truncated)))
    )
}

/// The routing id of a server request: the handshake count of its session (a restarted
/// server numbers its requests from 0 again) and its JSON-RPC id as JSON (`1`, `"1"`, so
/// ids that show the same, [`key_of`], stay apart).
fn route_of(epoch: u64, id: &RequestId) -> String {
    let id = match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => Value::String(s.clone()).to_string(),
    };
    format!("{epoch}/{id}")
}

/// The UI key of a server request: its JSON-RPC id as text (`1`, or the string itself).
fn key_of(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}
