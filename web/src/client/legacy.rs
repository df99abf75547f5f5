//! The 2025-11-25 client: the IO around the core's legacy session machine
//! ([`mcp_elicit::driver::legacy::LegacySession`]). The machine builds the handshake, the
//! session headers, every request and every automatic answer (ping, roots, refusals), and
//! routes every message of a POST's SSE stream or of the session's GET stream; this module
//! sends what it builds, keeps the GET stream open, and shows what it reports.
//!
//! Which session and call each card belongs to, and so where its answer may go, the
//! core's [`Elicitations`] decides: an answer is only sent on the session its card came
//! on; one whose server request died with the server (a restart) is kept, and when the
//! re-run of the same call asks the same question on the new session, it is sent at once.
//! When that resend fails, or the re-run never asks, the card says so in words
//! ([`ClientEvent::AnswerFailed`]) and keeps the answer for Submit.
//!
//! Every POST nobody streams from (answers, replays, automatic replies) is bounded by
//! [`exchange::ANSWER_POST_TIMEOUT_MS`]; automatic replies are paced by the core's
//! [`AutomaticReplies`], the host's sampling handler by [`MAX_SAMPLING_IN_FLIGHT`].

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use mcp_elicit::driver::http::failure_from_http;
use mcp_elicit::driver::legacy::{
    AnswerPlan, Arrival, AutomaticReplies, Elicitations, LegacyEvent, LegacySession as Machine,
    Offered, Reconnect, RunId, SessionState,
};
use mcp_elicit::driver::tasks::{ElicitationTasks, Handled, Outcome, Reply, RetireWhy};
use mcp_elicit::driver::tool_tasks::{
    call_as_task, server_runs_tool_tasks, task_support, TaskMode, TaskNext, ToolTask,
};
use mcp_elicit::driver::{DriverError, HttpRequest};
use mcp_elicit::wire::jsonrpc::quote;
use mcp_elicit::wire::meta::{HANDSHAKE_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSION};
use mcp_elicit::wire::{
    codes, Call, ElicitRequestParams, ElicitResult, ErrorObject, RequestId, Tool,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use web_sys::{AbortController, AbortSignal};

use super::config::{ClientConfig, SamplingHandler};
use super::endpoint::Endpoint;
use super::events::{driver_words, ClientError, ClientEvent, EventSink, MAX_PENDING_CARDS};
use super::exchange::{self, Messages, ANSWER_POST_TIMEOUT_MS};
use super::resume::{is_resumable_end, Resumption};
use super::route::{self, URL_REQUIRED_KEY_PREFIX};
use super::watch::CallWatch;
use super::{notice_texts, task_texts};
use crate::transport::{sleep, RawResponse, TransportError};

/// Sampling requests the host's handler works on at once at most. Each is a call to an
/// LLM the host pays for; a server asking more at once is refused with a JSON-RPC error
/// saying so (and a notice), and may ask again once one is answered.
pub const MAX_SAMPLING_IN_FLIGHT: usize = 4;

/// URL elicitations of one -32042 error shown as cards at most. A person opens a few links
/// before retrying a call; a server listing more would only grow the page. The rest are
/// not shown: one notice says how many were left out.
pub const MAX_REQUIRED_URLS_PER_ERROR: usize = 64;

/// What one request of the session sends.
#[derive(Clone, Copy)]
enum Outgoing<'a> {
    /// A call that may ask the person, in its `run` of the [`Elicitations`] book: the
    /// cards its stream carries belong to it, and a lost answer waits for it to be made
    /// again.
    /// `watch` follows its progress and what Stop has to undo.
    Call {
        call: &'a Call,
        run: RunId,
        watch: Option<&'a CallWatch>,
        as_task: bool,
    },
    /// A request that goes on with the call of `run` (its task's `tasks/result`): the
    /// cards its stream carries belong to that run, its progress to `watch`.
    Follow {
        method: &'a str,
        params: &'a Value,
        run: RunId,
        watch: Option<&'a CallWatch>,
    },
    /// Any other request (a listing): it asks nothing and starts no run, so it leaves the
    /// kept answers to the re-run they wait for.
    Other { method: &'a str, params: &'a Value },
}

impl Outgoing<'_> {
    fn run(self) -> Option<RunId> {
        match self {
            Outgoing::Call { run, .. } | Outgoing::Follow { run, .. } => Some(run),
            Outgoing::Other { .. } => None,
        }
    }
}

/// A legacy session. Cheap to clone; all clones share the session.
#[derive(Clone)]
pub struct LegacySession {
    inner: Rc<Inner>,
}

struct Inner {
    endpoint: Endpoint,
    sink: EventSink,
    sampling: Option<SamplingHandler>,
    machine: RefCell<Machine>,
    /// The cards: which session and call each belongs to, answers kept for re-runs.
    book: RefCell<Elicitations>,
    /// The elicitations the server asked as tasks (2025-11-25), answered to its
    /// `tasks/*` requests.
    tasks: RefCell<ElicitationTasks>,
    /// Whether a timer waits for the next task's `ttl` to run out.
    task_timer: Cell<bool>,
    /// Each tool's `execution.taskSupport` from the last tools/list (2025-11-25), and
    /// whether one was read: a tool is called as a task by it.
    tool_support: RefCell<HashMap<String, String>>,
    tools_listed: Cell<bool>,
    /// The host's choice for tools whose task support is `optional`.
    task_mode: TaskMode,
    /// The connection's language, for the words it makes (task_texts).
    messages: crate::i18n::Messages,
    /// Pings, roots answers and refusals owed to the server, paced.
    replies: RefCell<AutomaticReplies>,
    /// Sampling requests the host's handler is working on.
    sampling_in_flight: Cell<usize>,
    /// Aborts the GET stream on disconnect.
    get_stream: RefCell<Option<AbortController>>,
    /// Aborts the streams of the requests in flight on close, so a closed session shows
    /// nothing more.
    posts: Option<AbortController>,
    /// The calls running, by a page-wide number: what the GET stream carries for them
    /// (progress, their task's status) reaches them too ([`Following`]).
    watches: RefCell<Vec<(u64, CallWatch)>>,
    closed: Cell<bool>,
    /// Numbers the -32042 cards whose `elicitationId` is absent.
    url_required_cards: Cell<u64>,
    /// The cards each running call showed: once it returns, an opened URL card among them
    /// stops waiting for a completion the server may never send ([`ClientEvent::CallEnded`]).
    run_cards: RefCell<HashMap<RunId, Vec<String>>>,
    /// The page-wide number ([`route::next_session`]) of the session begun last: it moves when
    /// a handshake begins, so from then on no card of an earlier session is answered here,
    /// and requests that all met the same expired session renew it once between them.
    epoch: Cell<u64>,
    /// Whether the handshake of session `epoch` completed: a failed one leaves nothing
    /// usable, and the next request runs it again.
    handshaken: Cell<bool>,
    /// Held while a renewal's handshake runs; requests wait for it before sending.
    renewal: futures::lock::Mutex<()>,
}

impl LegacySession {
    /// Runs the handshake and opens the GET stream.
    pub async fn connect(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        let machine = Machine::new(config.legacy());
        let session = LegacySession {
            inner: Rc::new(Inner {
                endpoint: config.endpoint(),
                sink,
                sampling: config.sampling,
                machine: RefCell::new(machine),
                book: RefCell::new(Elicitations::new(MAX_PENDING_CARDS)),
                tasks: RefCell::new(ElicitationTasks::new()),
                task_timer: Cell::new(false),
                tool_support: RefCell::new(HashMap::new()),
                tools_listed: Cell::new(false),
                task_mode: config.tasks,
                messages: config.messages.clone(),
                replies: RefCell::new(AutomaticReplies::default()),
                sampling_in_flight: Cell::new(0),
                get_stream: RefCell::new(None),
                posts: AbortController::new().ok(),
                watches: RefCell::new(Vec::new()),
                closed: Cell::new(false),
                url_required_cards: Cell::new(0),
                run_cards: RefCell::new(HashMap::new()),
                epoch: Cell::new(0),
                handshaken: Cell::new(false),
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

    /// Sends a request whose answer streams back (a call, a resumption) or a notification:
    /// aborted on close, and with `in_flight` when that is dropped.
    async fn send(
        &self,
        request: &HttpRequest,
        in_flight: Option<&InFlight>,
    ) -> Result<RawResponse, ClientError> {
        let signal = match in_flight {
            Some(in_flight) => in_flight.signal.clone(),
            None => self.inner.posts.as_ref().map(AbortController::signal),
        };
        exchange::send(&self.inner.endpoint, request, signal.as_ref()).await
    }

    /// A request's own abort, which close's aborts too: `AbortSignal.any` of both (a
    /// browser without it: close's alone, and a dropped request's fetch runs on).
    fn in_flight(&self) -> InFlight {
        let controller = AbortController::new().ok();
        let posts = self.inner.posts.as_ref().map(AbortController::signal);
        let signal = match (&controller, posts) {
            (Some(own), Some(posts)) => {
                let both = js_sys::Array::of2(&posts, &own.signal());
                abort_signal_any(&both).ok().or(Some(posts))
            }
            (own, posts) => posts.or_else(|| own.as_ref().map(AbortController::signal)),
        };
        InFlight { controller, signal }
    }

    /// Offers one message of the session's GET stream to the calls running: each takes
    /// only what names its own progress token or task id (the core's books decide).
    #[inline(never)]
    fn offer_to_watches(&self, text: &str) {
        let watches: Vec<CallWatch> = self
            .inner
            .watches
            .borrow()
            .iter()
            .map(|(_, w)| w.clone())
            .collect();
        for watch in watches {
            watch.feed(text);
        }
    }

    /// Whether requests and answers may go out on the current session: its handshake
    /// completed and the server has not forgotten it since.
    fn usable(&self) -> bool {
        self.inner.handshaken.get()
            && !self.inner.closed.get()
            && self.inner.machine.borrow().state() == SessionState::Ready
    }

    /// Begins a new session: it gets the next page-wide number at once, before
    /// `initialize` is sent, so no card of the old session is answered while (or after)
    /// the new one is set up. The POSTs are bounded by [`ANSWER_POST_TIMEOUT_MS`]: a
    /// server that stalls its handshake fails it in words instead of holding every later
    /// request (and a card's "Sending…") forever.
    async fn handshake(&self) -> Result<(), ClientError> {
        if self.inner.closed.get() {
            return Err(ClientError::NotConnected);
        }
        self.stop_get_stream();
        self.inner.handshaken.set(false);
        let epoch = route::next_session();
        self.inner.epoch.set(epoch);
        // The old session's tasks go with it: their ids mean nothing to the new one, and
        // their cards are the old session's (an answer is kept for the re-run of the call).
        *self.inner.tasks.borrow_mut() = ElicitationTasks::new();
        exchange::bounded(&self.inner.endpoint, ANSWER_POST_TIMEOUT_MS, |signal| {
            self.handshake_exchange(signal, epoch)
        })
        .await?;
        self.inner.handshaken.set(true);
        // Without a session (a stateless server) a GET stream has nothing to carry and
        // would only hold a connection open (the SDK's client skips it too).
        let has_session = self.inner.machine.borrow().session_id().is_some();
        if has_session {
            self.open_get_stream();
        }
        Ok(())
    }

    /// The POSTs of the handshake of session `epoch`, sent with `signal`.
    async fn handshake_exchange(
        &self,
        signal: Option<web_sys::AbortSignal>,
        epoch: u64,
    ) -> Result<(), ClientError> {
        let endpoint = &self.inner.endpoint;
        let (request, id) = {
            let mut machine = self.inner.machine.borrow_mut();
            let request = machine.initialize_request()?;
            (request, machine.initialize_id().cloned())
        };
        let mut response = exchange::send(endpoint, &request, signal.as_ref()).await?;
        if let Some(err) = self.status_failure(id.as_ref(), &mut response).await? {
            return Err(err);
        }
        let mut messages = Messages::new(response);
        while let Some(text) = messages.next().await? {
            let event = self.inner.machine.borrow_mut().on_message(&text);
            match event {
                LegacyEvent::Initialized { notification, .. } => {
                    let mut response =
                        exchange::send(endpoint, &notification, signal.as_ref()).await?;
                    if let Some(err) = self.status_failure(None, &mut response).await? {
                        return Err(err);
                    }
                    return Ok(());
                }
                LegacyEvent::Failed { id: got, error } if got.is_none() || got == id => {
                    return Err(error.into())
                }
                other => self.route(other, None, epoch),
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
    /// expired session is re-initialised once, with a notice, and the request resent. A
    /// `tools/call`, `prompts/get` or `resources/read` is made as [`call`](Self::call)
    /// makes it, in a run of its own: from its params, only the [`Call`] (`name` and
    /// `arguments`, or `uri`) is sent, and params it cannot be read from are an error in
    /// words.
    pub async fn request(
        &self,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        let params = Value::Object(params);
        if Call::is_call_method(method) {
            let call = Call::parse(method, &params)
                .map_err(|e| ClientError::Driver(DriverError::Usage(e.to_string())))?;
            return self.call(&call).await;
        }
        self.request_in_session(Outgoing::Other {
            method,
            params: &params,
        })
        .await
    }

    /// Makes `call` and waits for its result, as [`request`](Self::request) does, in a run
    /// of its own: the cards its stream carries belong to it.
    pub async fn call(&self, call: &Call) -> Result<Box<RawValue>, ClientError> {
        self.call_watched(call, None).await
    }

    /// [`call`](Self::call), followed by `watch`: the request carries its progress token,
    /// the progress its streams carry reaches it, and it knows the request and cards
    /// [`stop`](Self::stop) has to undo.
    pub async fn call_watched(
        &self,
        call: &Call,
        watch: Option<&CallWatch>,
    ) -> Result<Box<RawValue>, ClientError> {
        // This run may replay the answers kept for an earlier run of the same call; those
        // kept for other calls expire now, and those it never gets to replay when it ends
        // (their cards say so).
        let (run, expired) = self.inner.book.borrow_mut().start_run(call);
        if let Some(watch) = watch {
            watch.set_legacy_run(Some(run));
        }
        // Followed on the GET stream until the call ends or its future is dropped (Stop).
        let _following = watch.map(|watch| {
            let key = route::next_call();
            let mut watches = self.inner.watches.borrow_mut();
            watches.push((key, watch.clone()));
            Following {
                session: self.clone(),
                key,
            }
        });
        self.say_expired(
            expired,
            &self.inner.messages.t("session.lost_before_rerun", &[]),
        );
        let as_task = self.call_as_task(call);
        let outcome = match self
            .request_in_session(Outgoing::Call {
                call,
                run,
                watch,
                as_task,
            })
            .await
        {
            Ok(answer) if as_task => self.follow_task(answer, run, watch).await,
            other => other,
        };
        if let Some(watch) = watch {
            watch.set_legacy_run(None);
        }
        let shown = self.inner.run_cards.borrow_mut().remove(&run);
        if outcome.is_ok() && !self.inner.closed.get() {
            for id in shown.unwrap_or_default() {
                (self.inner.sink)(ClientEvent::CallEnded { id });
            }
        }
        let expired = self.inner.book.borrow_mut().finish_run(run);
        self.say_expired(
            expired,
            &self.inner.messages.t("session.lost_not_asked_again", &[]),
        );
        outcome
    }

    /// Keeps each tool's `execution.taskSupport` from a tools/list.
    pub fn record_tools(&self, tools: &[Tool]) {
        let mut support = self.inner.tool_support.borrow_mut();
        support.clear();
        for tool in tools {
            if let Some(s) = task_support(tool.execution.as_ref()) {
                support.insert(tool.name.clone(), s.to_owned());
            }
        }
        self.inner.tools_listed.set(true);
    }

    fn runs_tool_tasks(&self) -> bool {
        let machine = self.inner.machine.borrow();
        machine
            .server()
            .is_some_and(|init| server_runs_tool_tasks(&init.capabilities))
    }

    /// Whether the tools must be listed before `call` is made: it is a tool call, the
    /// server runs tool calls as tasks, and no list was read yet.
    pub fn needs_tool_list(&self, call: &Call) -> bool {
        matches!(call, Call::Tool { .. })
            && !self.inner.tools_listed.get()
            && self.runs_tool_tasks()
    }

    /// Whether `call` is made as a task (the core's [`call_as_task`]).
    fn call_as_task(&self, call: &Call) -> bool {
        let Call::Tool { name, .. } = call else {
            return false;
        };
        let support = self.inner.tool_support.borrow().get(name).cloned();
        call_as_task(
            self.runs_tool_tasks(),
            support.as_deref(),
            self.inner.task_mode,
        )
    }

    /// Follows the task the server made of a call (`answer`, its `CreateTaskResult`; any
    /// other answer is the call's result): `tasks/get` at the server's interval, within
    /// the core's bounds; `tasks/result` once it has questions or ended (its stream
    /// carries the questions, which reach their cards as any others; its answer is the
    /// call's); a cancelled task ends the call in words.
    async fn follow_task(
        &self,
        answer: Box<RawValue>,
        run: RunId,
        watch: Option<&CallWatch>,
    ) -> Result<Box<RawValue>, ClientError> {
        let value: Value = serde_json::from_str(answer.get()).map_err(|e| {
            ClientError::Refused(task_texts::task_unreadable(
                &self.inner.messages,
                &e.to_string(),
            ))
        })?;
        let mut task = match ToolTask::from_call_result(&value) {
            None => return Ok(answer),
            Some(Err(why)) => {
                return Err(ClientError::Refused(task_texts::task_answer(
                    &self.inner.messages,
                    &why,
                )))
            }
            Some(Ok(task)) => task,
        };
        if let Some(watch) = watch {
            watch.set_task(&task);
        }
        loop {
            if let Some(watch) = watch {
                // The watch's copy is the latest: set after each answer, and moved on by
                // the status notifications its streams carry.
                if let Some(seen) = watch.task().filter(|t| t.task_id() == task.task_id()) {
                    task = seen;
                }
                if watch.is_stopped() {
                    return Err(ClientError::Refused(task_texts::task_stopped(
                        &self.inner.messages,
                    )));
                }
            }
            let params = Value::Object(task.id_params());
            match task.next() {
                TaskNext::Poll { after_ms } => {
                    sleep(u32::try_from(after_ms).unwrap_or(u32::MAX)).await;
                    if watch.is_some_and(CallWatch::is_stopped) {
                        return Err(ClientError::Refused(task_texts::task_stopped(
                            &self.inner.messages,
                        )));
                    }
                    let got = self
                        .request_in_session(Outgoing::Other {
                            method: mcp_elicit::driver::tasks::methods::GET,
                            params: &params,
                        })
                        .await?;
                    let got: Value = serde_json::from_str(got.get()).map_err(|e| {
                        ClientError::Refused(task_texts::task_unreadable(
                            &self.inner.messages,
                            &e.to_string(),
                        ))
                    })?;
                    task.on_task(&got).map_err(|why| {
                        ClientError::Refused(task_texts::task_answer(&self.inner.messages, &why))
                    })?;
                    if let Some(watch) = watch {
                        watch.set_task(&task);
                    }
                }
                TaskNext::FetchResult => {
                    return self
                        .request_in_session(Outgoing::Follow {
                            method: mcp_elicit::driver::tasks::methods::RESULT,
                            params: &params,
                            run,
                            watch,
                        })
                        .await;
                }
                TaskNext::Cancelled => {
                    return Err(ClientError::Refused(task_texts::task_cancelled(
                        &self.inner.messages,
                        task.message(),
                    )))
                }
            }
        }
    }

    /// Whether the card of request `id` on the session of handshake `epoch` still waits.
    pub(crate) fn is_waiting(&self, epoch: u64, id: &RequestId) -> bool {
        self.inner.book.borrow().is_waiting(epoch, id)
    }

    /// Stops the call `watch` follows, whose future the caller drops (which aborts its
    /// fetch, answered or not): `notifications/cancelled` with its request id and `reason`
    /// goes to the server (sent without waiting; its delivery is not checked: a failure
    /// only means the server learns it from the closed stream, or not at all), and its
    /// cards are retired with `shown` (the person's words; `reason` is protocol text).
    pub async fn stop(&self, watch: &CallWatch, reason: &str, shown: &str) {
        watch.set_stopped();
        // A call running as a task on the server: tasks/cancel (not checked either).
        let running_task = watch
            .task()
            .filter(|t| !t.status().is_terminal())
            .and_then(|t| {
                let params = Value::Object(t.id_params());
                let sent = self
                    .inner
                    .machine
                    .borrow_mut()
                    .request(mcp_elicit::driver::tasks::methods::CANCEL, Some(&params));
                sent.ok().map(|(_, request)| request)
            });
        let cancel = watch
            .take_legacy_request()
            .and_then(|id| self.inner.machine.borrow_mut().cancel(&id, reason));
        // The run ends here, as it would have had the call ended (its kept answers expire
        // with it: the call they waited for was stopped).
        if let Some(run) = watch.take_legacy_run() {
            self.inner.run_cards.borrow_mut().remove(&run);
            let expired = self.inner.book.borrow_mut().finish_run(run);
            for id in expired {
                (self.inner.sink)(ClientEvent::Retired {
                    id,
                    reason: shown.to_owned(),
                });
            }
        }
        for (epoch, id) in watch.take_legacy_cards() {
            let route = self.inner.book.borrow_mut().withdraw(epoch, &id);
            if let Some(route) = route {
                let replies = self.inner.tasks.borrow_mut().stop_card(&route, now_ms());
                self.handle_tasks(
                    Handled {
                        replies,
                        retire: Vec::new(),
                    },
                    epoch,
                );
                (self.inner.sink)(ClientEvent::Retired {
                    id: route,
                    reason: shown.to_owned(),
                });
            }
        }
        // Sent without waiting for the server's answer: the call ends at once, even on a
        // server that holds its POSTs.
        let session = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(request) = cancel {
                let _ = session.send(&request, None).await;
            }
            if let Some(request) = running_task {
                let _ = session.post(&request).await;
            }
        });
    }

    /// Tells each card in `ids` that its kept answer expired, and why (`why`).
    fn say_expired(&self, ids: Vec<String>, why: &str) {
        for id in ids {
            (self.inner.sink)(ClientEvent::AnswerFailed {
                id,
                reason: notice_texts::answer_not_sent(&self.inner.messages, why),
            });
        }
    }

    async fn request_in_session(&self, what: Outgoing<'_>) -> Result<Box<RawValue>, ClientError> {
        // A renewal under way (another request met the expired session) ends first; a
        // session left unusable (a failed renewal, a 404 on an automatic reply) is set up
        // again before anything is sent on it.
        {
            let _renewing = self.inner.renewal.lock().await;
            if !self.usable() {
                self.handshake().await?;
                (self.inner.sink)(ClientEvent::Notice(
                    self.inner.messages.t("session.renewed_unusable", &[]),
                ));
            }
        }
        let epoch = self.inner.epoch.get();
        match self.request_once(what).await {
            Err(ClientError::Driver(DriverError::SessionExpired)) => {
                if self.renew(epoch).await? {
                    (self.inner.sink)(ClientEvent::Notice(
                        self.inner.messages.t("session.renewed", &[]),
                    ));
                }
                self.request_once(what).await
            }
            other => other,
        }
    }

    /// Renews the session that expired under a request sent in handshake `epoch`, unless
    /// another request already did (then `false`): several requests in flight when a
    /// server restarts all meet the 404, and one new session serves them all.
    async fn renew(&self, epoch: u64) -> Result<bool, ClientError> {
        let _renewing = self.inner.renewal.lock().await;
        if self.inner.epoch.get() != epoch && self.usable() {
            return Ok(false);
        }
        self.handshake().await?;
        Ok(true)
    }

    async fn request_once(&self, what: Outgoing<'_>) -> Result<Box<RawValue>, ClientError> {
        // The session this request is sent on: what its stream carries belongs to it.
        let epoch = self.inner.epoch.get();
        let run = what.run();
        let watch = match what {
            Outgoing::Call { watch, .. } | Outgoing::Follow { watch, .. } => watch,
            Outgoing::Other { .. } => None,
        };
        let token = watch.map(CallWatch::token);
        let (id, request) = {
            let mut machine = self.inner.machine.borrow_mut();
            match what {
                Outgoing::Call { call, as_task, .. } => {
                    machine.call_with(call, token.as_deref(), as_task)
                }
                Outgoing::Other { method, params } | Outgoing::Follow { method, params, .. } => {
                    machine.request(method, Some(params))
                }
            }
        }?;
        if let Some(watch) = watch {
            watch.set_legacy_request(Some(id.clone()));
        }
        // Dropped with this future (Stop, a timeout), it aborts the fetch: whether or not
        // the server answered yet, the request and its stream end on the wire.
        let in_flight = self.in_flight();
        let mut response = self.send(&request, Some(&in_flight)).await?;
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
                ended => match is_resumable_end(&ended).then(|| resumption.next_attempt()) {
                    Some(Some((last_event_id, delay_ms))) => {
                        messages = self.resume(&in_flight, &last_event_id, delay_ms).await?;
                        continue;
                    }
                    _ => return Err(ended.err().unwrap_or(DriverError::NoResponse.into())),
                },
            };
            if let Some(watch) = watch {
                watch.feed(&text);
            }
            let event = self.inner.machine.borrow_mut().on_message(&text);
            if let (
                Some(watch),
                LegacyEvent::Elicit { id: asked, .. } | LegacyEvent::ElicitTask { id: asked, .. },
            ) = (watch, &event)
            {
                watch.add_legacy_card(epoch, asked.clone());
            }
            match event {
                LegacyEvent::Response {
                    id: got, result, ..
                } if got == id => return Ok(result),
                // Only an error that names this request ends it: one without an id (or a
                // message that cannot be read) may be about anything, and a stream that
                // really failed ends without our answer anyway.
                LegacyEvent::Failed {
                    id: Some(got),
                    error,
                } if got == id => {
                    self.show_required_urls(&error);
                    return Err(error.into());
                }
                other => self.route(other, run, epoch),
            }
        }
    }

    /// Reopens a request's stream that the server closed: GET with `Last-Event-ID`, after
    /// the server's `retry:` delay. The server replays what we missed and goes on there.
    async fn resume(
        &self,
        in_flight: &InFlight,
        last_event_id: &str,
        delay_ms: u32,
    ) -> Result<Messages, ClientError> {
        sleep(delay_ms).await;
        let request = self
            .inner
            .machine
            .borrow()
            .get_stream_request(Some(last_event_id))?;
        let mut response = self.send(&request, Some(in_flight)).await?;
        if let Some(err) = self.status_failure(None, &mut response).await? {
            return Err(err);
        }
        Ok(Messages::new(response))
    }

    /// -32042: shows each URL elicitation the server requires before the call can proceed.
    fn show_required_urls(&self, error: &DriverError) {
        if let DriverError::UrlElicitationRequired { elicitations, .. } = error {
            let left_out = elicitations
                .len()
                .saturating_sub(MAX_REQUIRED_URLS_PER_ERROR);
            if left_out > 0 {
                (self.inner.sink)(ClientEvent::Notice(notice_texts::urls_left_out(
                    &self.inner.messages,
                    elicitations.len(),
                    MAX_REQUIRED_URLS_PER_ERROR,
                    left_out,
                )));
            }
            for params in elicitations.iter().take(MAX_REQUIRED_URLS_PER_ERROR) {
                let eid = &params.elicitation_id;
                let id = route::url_required_card(eid, || {
                    let n = self.inner.url_required_cards.get().wrapping_add(1);
                    self.inner.url_required_cards.set(n);
                    n
                });
                (self.inner.sink)(ClientEvent::Elicit {
                    id,
                    key: format!("{URL_REQUIRED_KEY_PREFIX}{eid}"),
                    params: ElicitRequestParams::Url(params.clone()),
                });
            }
        }
    }

    /// Acts on what the machine made of a message that is not the answer we wait for,
    /// carried by the stream of `run` (none for the GET stream) on the session of
    /// handshake `epoch`.
    fn route(&self, event: LegacyEvent, run: Option<RunId>, epoch: u64) {
        // A closed session asks nothing more: its requests have nobody to answer them.
        if self.inner.closed.get() {
            return;
        }
        match event {
            LegacyEvent::Elicit { id, params } => self.elicit(id, params, None, run, epoch),
            LegacyEvent::ElicitTask { id, params, task } => {
                self.elicit(id, params, Some(task), run, epoch)
            }
            LegacyEvent::Task { id, request } => {
                let handled = self
                    .inner
                    .tasks
                    .borrow_mut()
                    .on_request(id, request, now_ms());
                self.handle_tasks(handled, epoch);
            }
            LegacyEvent::Sampling { id, params } => self.sample(id, params, None),
            LegacyEvent::SamplingTask { id, params, task } => self.sample(id, params, Some(task)),
            LegacyEvent::ElicitationComplete { elicitation_id } => {
                (self.inner.sink)(ClientEvent::Completed { elicitation_id })
            }
            LegacyEvent::Withdrawn { id, reason } => self.withdraw(&id, reason.as_deref(), epoch),
            // Pings, roots, refusals: the machine wrote the answer; nobody waits on it.
            LegacyEvent::Reply { request, ping, .. } => self.reply(request, ping),
            LegacyEvent::Failed { id: None, error } => {
                (self.inner.sink)(ClientEvent::Notice(notice_texts::unusable_message(
                    &self.inner.messages,
                    &driver_words(&error, &self.inner.messages),
                )))
            }
            LegacyEvent::Response { .. }
            | LegacyEvent::Failed { .. }
            | LegacyEvent::Initialized { .. }
            | LegacyEvent::SessionExpired
            | LegacyEvent::Ignored => {}
        }
    }

    /// A server `elicitation/create`: shown to the user, or answered at once when the
    /// re-run of a call repeats a question whose answer was kept for it, or refused. One
    /// asked as a task (`task`, 2025-11-25) is answered at once with the task the core
    /// made, then shown the same way; the person's answer completes the task.
    fn elicit(
        &self,
        id: RequestId,
        params: ElicitRequestParams,
        task: Option<Value>,
        run: Option<RunId>,
        epoch: u64,
    ) {
        if let Some(task) = task {
            return self.elicit_task(id, params, &task, run, epoch);
        }
        let key = key_of(&id);
        let arrival = self
            .inner
            .book
            .borrow_mut()
            .arrive(epoch, id.clone(), params.clone(), run);
        if let (Some(run), Arrival::Show { route } | Arrival::Replay { route, .. }) =
            (run, &arrival)
        {
            self.note_run_card(run, route);
        }
        match arrival {
            Arrival::Show { route } => (self.inner.sink)(ClientEvent::Elicit {
                id: route,
                key,
                params,
            }),
            Arrival::Replay { route, answer } => {
                let request = self.inner.machine.borrow().answer_elicitation(&id, &answer);
                match request {
                    Ok(request) => self.replay(route, request),
                    Err(err) => (self.inner.sink)(ClientEvent::AnswerFailed {
                        id: route,
                        reason: ClientError::from(err).to_string(),
                    }),
                }
            }
            Arrival::Refuse { why } => self.refuse_arrival(&id, &why),
            Arrival::Duplicate => self.say_duplicate(&key),
        }
    }

    /// Counts `route` among the cards of `run` (what Stop and a restart retire), up to
    /// [`MAX_PENDING_CARDS`].
    fn note_run_card(&self, run: RunId, route: &String) {
        let mut runs = self.inner.run_cards.borrow_mut();
        let shown = runs.entry(run).or_default();
        if !shown.contains(route) && shown.len() < MAX_PENDING_CARDS {
            shown.push(route.clone());
        }
    }

    /// A question the book refuses (no room): the server reads why, the person sees that
    /// cards were refused.
    fn refuse_arrival(&self, id: &RequestId, why: &str) {
        let refusal = self.inner.machine.borrow().refuse_elicitation(id, why);
        if let Ok(request) = refusal {
            self.reply(request, false);
        }
        (self.inner.sink)(ClientEvent::CardsRefused);
    }

    /// A question under the id of one still waiting: ignored, and said.
    fn say_duplicate(&self, key: &str) {
        (self.inner.sink)(ClientEvent::Notice(notice_texts::duplicate_id(
            &self.inner.messages,
            &quote(key),
        )));
    }

    /// A server `elicitation/create` asked as a task: the task is made and its
    /// `CreateTaskResult` POSTed at once, then the card shows as any other (its answer
    /// goes to the task, not to the request). Refused in words when the book has no room
    /// or the core no task.
    fn elicit_task(
        &self,
        id: RequestId,
        params: ElicitRequestParams,
        task: &Value,
        run: Option<RunId>,
        epoch: u64,
    ) {
        let key = key_of(&id);
        let arrival = self
            .inner
            .book
            .borrow_mut()
            .arrive(epoch, id.clone(), params.clone(), run);
        let (route, replay) = match arrival {
            Arrival::Show { route } => (route, None),
            Arrival::Replay { route, answer } => (route, Some(answer)),
            Arrival::Refuse { why } => return self.refuse_arrival(&id, &why),
            Arrival::Duplicate => return self.say_duplicate(&key),
        };
        let created =
            self.inner
                .tasks
                .borrow_mut()
                .create(id.clone(), route.clone(), task, now_ms());
        let outcome = match created {
            Ok(created) => Outcome::Result(created),
            Err(error) => {
                // No task, no card: the book forgets it, the server reads why.
                let _ = self.inner.book.borrow_mut().withdraw(epoch, &id);
                (self.inner.sink)(ClientEvent::Notice(task_texts::task_refused(
                    &self.inner.messages,
                    &error.message,
                )));
                Outcome::Error(error)
            }
        };
        let made = matches!(outcome, Outcome::Result(_));
        let reply = Reply { id, outcome };
        if let Ok(request) = self.inner.machine.borrow().task_reply(&reply) {
            self.reply(request, false);
        }
        if !made {
            return;
        }
        if let Some(run) = run {
            self.note_run_card(run, &route);
        }
        self.watch_task_expiry();
        match replay {
            // The re-run of a call asks again what the person already answered: the new
            // task completes with that answer at once.
            Some(answer) => {
                let handled = self
                    .inner
                    .tasks
                    .borrow_mut()
                    .answer(&route, &answer, now_ms());
                self.inner.book.borrow_mut().delivered(&route);
                (self.inner.sink)(ClientEvent::Answered { id: route });
                if let Some(handled) = handled {
                    self.handle_tasks(handled, epoch);
                }
            }
            None => (self.inner.sink)(ClientEvent::Elicit {
                id: route,
                key,
                params,
            }),
        }
    }

    /// POSTs what the task machine owes the server, and retires the cards whose task
    /// ended without the person (cancelled by the server, expired), in words.
    fn handle_tasks(&self, handled: Handled, epoch: u64) {
        for reply in &handled.replies {
            let request = self.inner.machine.borrow().task_reply(reply);
            if let Ok(request) = request {
                self.reply(request, false);
            }
        }
        for retire in handled.retire {
            let route = self
                .inner
                .book
                .borrow_mut()
                .withdraw(epoch, &retire.request);
            let reason = match retire.why {
                RetireWhy::Cancelled => task_texts::card_task_cancelled(&self.inner.messages),
                RetireWhy::Expired => task_texts::card_task_expired(&self.inner.messages),
            };
            (self.inner.sink)(ClientEvent::Retired {
                id: route.unwrap_or(retire.card),
                reason,
            });
        }
    }

    /// Keeps one timer waiting for the next task's `ttl` to run out (in steps of at most
    /// a minute, so a far deadline holds no huge sleep); it ends when no task has one.
    fn watch_task_expiry(&self) {
        if self.inner.task_timer.get() {
            return;
        }
        self.inner.task_timer.set(true);
        let session = self.clone();
        let epoch = self.inner.epoch.get();
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                let next = session.inner.tasks.borrow().next_expiry();
                let (Some(next), false) = (next, session.inner.closed.get()) else {
                    break;
                };
                let wait = next.saturating_sub(now_ms()).clamp(10, 60_000);
                sleep(wait as u32).await;
                let handled = session.inner.tasks.borrow_mut().expire(now_ms());
                if session.inner.epoch.get() == epoch && !session.inner.closed.get() {
                    session.handle_tasks(handled, epoch);
                }
            }
            session.inner.task_timer.set(false);
        });
    }

    /// The server withdrew its request `id` of the session of handshake `epoch`
    /// (`notifications/cancelled`): its card, if one waits on it, is retired in words and
    /// keeps what was typed, inert; the book no longer has it, so nothing is sent for it.
    /// A cancellation of anything else (a sampling request, an id no card has) changes
    /// nothing.
    fn withdraw(&self, id: &RequestId, reason: Option<&str>, epoch: u64) {
        let route = self.inner.book.borrow_mut().withdraw(epoch, id);
        if let Some(route) = route {
            (self.inner.sink)(ClientEvent::Retired {
                id: route,
                reason: super::events::withdrawn_reason(&self.inner.messages, reason),
            });
        }
    }

    /// A server `sampling/createMessage` (the machine surfaces it only when sampling was
    /// declared): the host's handler answers in the background, or its failure is sent back
    /// as the JSON-RPC error, so the server's tool sees why. Beyond
    /// [`MAX_SAMPLING_IN_FLIGHT`] at once it is refused without asking the handler. One
    /// asked as a task (`task`, 2025-11-25) is answered at once with the task the core
    /// made; the handler's answer (or failure) then ends the task, for `tasks/result`.
    fn sample(&self, id: RequestId, params: Value, task: Option<Value>) {
        let busy = self.inner.sampling_in_flight.get();
        if busy >= MAX_SAMPLING_IN_FLIGHT {
            let why = format!(
                "This client is already answering {MAX_SAMPLING_IN_FLIGHT} sampling requests, \
                 the most it runs at once; ask again when one is answered."
            );
            let refusal = self.inner.machine.borrow().refuse_sampling(&id, &why);
            if let Ok(request) = refusal {
                self.reply(request, false);
            }
            (self.inner.sink)(ClientEvent::Notice(notice_texts::sampling_busy(
                &self.inner.messages,
                MAX_SAMPLING_IN_FLIGHT,
            )));
            return;
        }
        let epoch = self.inner.epoch.get();
        let as_task = task.is_some();
        if let Some(task) = task {
            // The task's CreateTaskResult (or why none was made, in words) goes at once.
            let created =
                self.inner
                    .tasks
                    .borrow_mut()
                    .create_sampling(id.clone(), &task, now_ms());
            let made = created.is_ok();
            let outcome = match created {
                Ok(created) => Outcome::Result(created),
                Err(error) => Outcome::Error(error),
            };
            let replies = vec![Reply {
                id: id.clone(),
                outcome,
            }];
            self.handle_tasks(
                Handled {
                    replies,
                    retire: Vec::new(),
                },
                epoch,
            );
            if !made {
                return;
            }
            self.watch_task_expiry();
        }
        self.inner.sampling_in_flight.set(busy + 1);
        let session = self.clone();
        // The session the request came on (`epoch`): its reply goes there or nowhere.
        wasm_bindgen_futures::spawn_local(async move {
            let outcome = match &session.inner.sampling {
                Some(handler) => handler.sample(params).await,
                None => Err("this client has no sampling handler".into()),
            };
            let left = session.inner.sampling_in_flight.get().saturating_sub(1);
            session.inner.sampling_in_flight.set(left);
            if session.inner.closed.get() {
                return;
            }
            if session.inner.epoch.get() != epoch || !session.usable() {
                // A new session numbers its requests afresh: this id there is another
                // request.
                (session.inner.sink)(ClientEvent::Notice(
                    session.inner.messages.t("session.sampling_lost", &[]),
                ));
                return;
            }
            let outcome = match outcome {
                Ok(result) => Outcome::Result(result),
                Err(why) => {
                    let message = why.clone();
                    (session.inner.sink)(ClientEvent::Notice(
                        ClientError::Sampling(why).words(&session.inner.messages),
                    ));
                    Outcome::Error(ErrorObject {
                        code: codes::INTERNAL_ERROR,
                        message,
                        data: None,
                    })
                }
            };
            // The answer to the request; asked as a task, it ends the task instead (the
            // held tasks/result get it).
            let replies = if as_task {
                let mut tasks = session.inner.tasks.borrow_mut();
                tasks.finish_sampling(&id, outcome, now_ms())
            } else {
                vec![Reply { id, outcome }]
            };
            let handled = Handled {
                replies,
                retire: Vec::new(),
            };
            session.handle_tasks(handled, epoch);
        });
    }

    /// POSTs `request` within [`ANSWER_POST_TIMEOUT_MS`] and hands its status to the
    /// machine: `Ok(None)` once the server took it, `Ok(Some(err))` for a failure status
    /// (`SessionExpired` for a forgotten session), `Err` when the exchange itself failed or
    /// took too long.
    async fn post(&self, request: &HttpRequest) -> Result<Option<ClientError>, ClientError> {
        let endpoint = &self.inner.endpoint;
        exchange::bounded(endpoint, ANSWER_POST_TIMEOUT_MS, |signal| async move {
            let mut response = exchange::send(endpoint, request, signal.as_ref()).await?;
            self.status_failure(None, &mut response).await
        })
        .await
    }

    /// An automatic reply (nobody waits on it), paced by the core's [`AutomaticReplies`]:
    /// a few POSTs at once, more queued, a flood beyond the queue dropped and said once.
    fn reply(&self, request: HttpRequest, ping: bool) {
        let offered = self.inner.replies.borrow_mut().offer(request, ping);
        match offered {
            Offered::Send(request) => {
                let session = self.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let mut next = Some(request);
                    while let Some(request) = next {
                        let _ = session.post(&request).await;
                        next = session.inner.replies.borrow_mut().sent();
                    }
                });
            }
            Offered::Queued => {}
            Offered::Dropped { first: true } => (self.inner.sink)(ClientEvent::Notice(
                notice_texts::flood(&self.inner.messages),
            )),
            Offered::Dropped { first: false } => {}
        }
    }

    /// Re-sends the answer kept for the card `card` to the re-run's request: the card goes
    /// once the server took it; otherwise it says why and keeps the answer (the card is
    /// bound to the new request, so Submit resends there).
    fn replay(&self, card: String, request: HttpRequest) {
        let session = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match session.post(&request).await {
                Ok(None) => {
                    session.inner.book.borrow_mut().delivered(&card);
                    (session.inner.sink)(ClientEvent::Answered { id: card });
                }
                Ok(Some(err)) | Err(err) => (session.inner.sink)(ClientEvent::AnswerFailed {
                    id: card,
                    reason: notice_texts::resend_failed(
                        &session.inner.messages,
                        &err.words(&session.inner.messages),
                    ),
                }),
            }
        });
    }

    /// Tells the card `evicted` its kept answer was dropped to make room for newer ones.
    fn say_evicted(&self, evicted: Option<String>) {
        if let Some(id) = evicted {
            (self.inner.sink)(ClientEvent::AnswerFailed {
                id,
                reason: notice_texts::answer_dropped(&self.inner.messages),
            });
        }
    }

    /// The call the card `id` belongs to (see [`Elicitations::call_of`]): the call to make
    /// again after [`ClientError::RequestLost`].
    pub fn call_of(&self, id: &str) -> Option<Call> {
        self.inner.book.borrow().call_of(id).cloned()
    }

    /// The card `id` can never be answered (its request was lost outside any call): the
    /// card is retired in words, so it stops holding a place in the card list.
    fn retire_gone(&self, id: &str) -> ClientError {
        let gone = self.inner.messages.t("session.request_gone", &[]);
        (self.inner.sink)(ClientEvent::Retired {
            id: id.to_owned(),
            reason: gone.clone(),
        });
        ClientError::Refused(gone)
    }

    /// POSTs the user's answer to the server request routed as `id`, on the session that
    /// request came on only. On failure the request stays pending so the user can resend.
    /// A request lost with its session (a restart) gets nothing sent: its answer is kept
    /// for the re-run of its call, and the error is [`ClientError::RequestLost`].
    pub async fn answer(&self, id: &str, result: ElicitResult) -> Result<(), ClientError> {
        if route::is_url_required(id) {
            // Nothing to send: the server learns of it when the URL flow completes.
            (self.inner.sink)(ClientEvent::Answered { id: id.to_owned() });
            return Ok(());
        }
        let epoch = self.inner.epoch.get();
        // A card asked as a task: the answer completes its task; the server fetches it
        // with tasks/result (held requests get it now).
        if self.inner.tasks.borrow().has_card(id) {
            let handled = self.inner.tasks.borrow_mut().answer(id, &result, now_ms());
            let Some(handled) = handled else {
                return Err(ClientError::UnknownElicitation(id.to_owned()));
            };
            self.inner.book.borrow_mut().delivered(id);
            self.handle_tasks(handled, epoch);
            (self.inner.sink)(ClientEvent::Answered { id: id.to_owned() });
            return Ok(());
        }
        // While a new session is set up, or after the server forgot this one, a card of the
        // old session has no request to answer: its answer is kept for the re-run.
        let plan = if self.usable() {
            self.inner.book.borrow_mut().plan_answer(id, epoch, &result)
        } else {
            self.inner.book.borrow_mut().lost(id, &result)
        };
        let request_id = match plan {
            AnswerPlan::Send { id } => id,
            AnswerPlan::Lost { evicted } => {
                self.say_evicted(evicted);
                return Err(ClientError::RequestLost);
            }
            AnswerPlan::Gone => return Err(self.retire_gone(id)),
            AnswerPlan::Unknown => return Err(ClientError::UnknownElicitation(id.to_owned())),
        };
        let request = self
            .inner
            .machine
            .borrow()
            .answer_elicitation(&request_id, &result)?;
        match self.post(&request).await? {
            None => {
                self.inner.book.borrow_mut().delivered(id);
                (self.inner.sink)(ClientEvent::Answered { id: id.to_owned() });
                Ok(())
            }
            Some(ClientError::Driver(DriverError::SessionExpired)) => {
                // The server restarted: its request is gone. Keep the answer for the same
                // question of the re-run of its call (first, so a failed renewal keeps it
                // too), on a new session.
                let plan = self.inner.book.borrow_mut().lost(id, &result);
                let renewed = self.renew(epoch).await;
                match plan {
                    AnswerPlan::Lost { evicted } => self.say_evicted(evicted),
                    AnswerPlan::Gone => return Err(self.retire_gone(id)),
                    AnswerPlan::Send { .. } | AnswerPlan::Unknown => {
                        return Err(ClientError::UnknownElicitation(id.to_owned()))
                    }
                }
                renewed?;
                (self.inner.sink)(ClientEvent::Notice(
                    self.inner.messages.t("session.renewed_answer_kept", &[]),
                ));
                Err(ClientError::RequestLost)
            }
            Some(other) => Err(other),
        }
    }

    /// Keeps the GET stream open in the background, reopening it after a polite delay when
    /// it drops (the core's [`Reconnect`]: the server's `retry:`, floored, backing off
    /// while streams bring nothing), until the session closes or the server offers none
    /// (405).
    fn open_get_stream(&self) {
        self.stop_get_stream();
        let controller = match AbortController::new() {
            Ok(c) => c,
            Err(_) => return,
        };
        let signal = controller.signal();
        *self.inner.get_stream.borrow_mut() = Some(controller);
        let session = self.clone();
        // The session the stream belongs to: the requests it carries are that session's.
        let epoch = self.inner.epoch.get();
        wasm_bindgen_futures::spawn_local(async move {
            let mut pace = Reconnect::default();
            let mut retry_ms: Option<u64> = None;
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
                let mut carried = false;
                match exchange::send(&session.inner.endpoint, &request, Some(&signal)).await {
                    Err(ClientError::Transport(TransportError::Aborted)) => return,
                    Err(_) => {}
                    // No GET stream on this server (405). A forgotten session (404) is
                    // left to the next POST, whose answer the machine turns into a new
                    // session (a card's answer must learn its request was lost).
                    Ok(response) if matches!(response.status, 404 | 405) => return,
                    Ok(response) if exchange::is_success(response.status) => {
                        let mut messages = Messages::new(response);
                        while let Ok(Some(text)) = messages.next().await {
                            carried = true;
                            session.offer_to_watches(&text);
                            let event = session.inner.machine.borrow_mut().on_message(&text);
                            session.route(event, None, epoch);
                        }
                        if let Some(id) = messages.last_event_id() {
                            last_event_id = Some(id.to_owned());
                        }
                        if let Some(retry) = messages.retry_ms() {
                            retry_ms = Some(retry);
                        }
                    }
                    Ok(_) => {}
                }
                if signal.aborted() {
                    return;
                }
                sleep(pace.next_delay_ms(carried, retry_ms)).await;
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
        if let Some(posts) = &self.inner.posts {
            posts.abort();
        }
        self.inner.watches.borrow_mut().clear();
        self.inner.book.borrow_mut().clear();
        let request = self.inner.machine.borrow_mut().close_request();
        if let Some(request) = request {
            // Not on the aborted signal of the session's requests.
            let _ = exchange::send(&self.inner.endpoint, &request, None).await;
        }
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `AbortSignal.any(signals)`; an error where the browser lacks it.
    #[wasm_bindgen(js_namespace = AbortSignal, js_name = any, catch)]
    fn abort_signal_any(signals: &js_sys::Array) -> Result<AbortSignal, wasm_bindgen::JsValue>;
}

/// One request's `fetch` abort (see [`LegacySession::in_flight`]): dropped, it aborts the
/// fetch (a no-op once the response was read).
struct InFlight {
    controller: Option<AbortController>,
    signal: Option<AbortSignal>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(controller) = &self.controller {
            controller.abort();
        }
    }
}

/// A running call in the session's list of watches; dropped, it leaves it.
struct Following {
    session: LegacySession,
    key: u64,
}

impl Drop for Following {
    fn drop(&mut self) {
        let key = self.key;
        self.session
            .inner
            .watches
            .borrow_mut()
            .retain(|(k, _)| *k != key);
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

/// Now, in milliseconds since the Unix epoch (the task machine's time).
fn now_ms() -> u64 {
    let now = js_sys::Date::now();
    if now.is_finite() && now > 0.0 {
        now as u64
    } else {
        0
    }
}

/// The UI key of a server request: its JSON-RPC id as text (`1`, or the string itself).
fn key_of(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => s.clone(),
    }
}
