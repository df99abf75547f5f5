//! The 2026-07-28 client: the IO around the core's [`ModernCall`] machine. The machine
//! builds every request (envelope, `Mcp-*` headers, replays with `inputResponses` and the
//! byte-exact `requestState`), reads every message, answers roots, keeps the back-off and the
//! round bound; this module sends, sleeps and shows, and asks the host's sampling handler
//! (when there is one) for the round's `sampling/createMessage` requests.
//!
//! # The resend rule
//!
//! Which failures keep the call, and what a resend of its round carries, is the core's
//! rule ([Resending](mcp_elicit::driver::modern#resending)); this module keeps it across the
//! steps around a person's answers. Answers reach the running call through a channel: the
//! UI calls [`ModernSession::answer`] per card; the last answer of a round hands all of
//! them to the call loop, which records them in a copy of the machine, sends the replay,
//! takes the copy on through the steps that need no person (a state-only retry, a
//! roots-only or sampling-only round) and reports back whether all of that got through. A
//! resendable failure ([`ClientError::is_resendable`]) in any of them drops the copy: the
//! round stays as it was, with the answers already given on its cards, and Submit sends it
//! again, even with a changed answer. Any other failure ends the call. Before the first
//! round for the person a failure ends the call too: nothing of theirs is lost, and calling
//! again is the resend. A server that keeps silent is a resendable failure, after a bound
//! ([`Limits`]): a replay that gets no answer leaves its cards saying so.
//!
//! A -32020 is mended as the core's machine says
//! ([Header mismatch](mcp_elicit::driver::modern#header-mismatch)): this module fetches the
//! tool listing a [`ModernStep::RefreshToolSchema`] asks for.
//!
//! Several calls may wait for input at once (the host calls two tools; the user calls
//! one tool twice): each call has its own round, and a card's routing id
//! ([`route::call_card`]) names both, since two calls of one tool ask under the same key.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;

use futures::channel::{mpsc, oneshot};
use futures::future::{select, Either, LocalBoxFuture};
use futures::{FutureExt, StreamExt};
use indexmap::IndexMap;
use mcp_elicit::driver::headers;
use mcp_elicit::driver::modern::{
    simple_answer, simple_request, ModernCall, ModernConfig, ModernStep, PendingElicitation,
    PendingSampling,
};
use mcp_elicit::driver::task_ext::{methods as task_methods, ExtTask, TaskStep};
use mcp_elicit::driver::{http::failure_from_http, DriverError};
use mcp_elicit::wire::{Call, ElicitResult, ListToolsResult, RequestId, Tool};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use web_sys::{AbortController, AbortSignal};

use super::config::{ClientConfig, SamplingHandler};
use super::endpoint::Endpoint;
use super::events::{ClientError, ClientEvent, EventSink, MAX_PENDING_CARDS};
use super::exchange::{self, Messages};
use super::route;
use super::task_texts;
use super::watch::CallWatch;
use crate::transport::{sleep, TransportError};

/// A modern-era connection: no handshake, no session; just the endpoint and our identity.
pub struct ModernSession {
    endpoint: Endpoint,
    config: ModernConfig,
    sampling: Option<SamplingHandler>,
    sink: EventSink,
    next_id: Cell<i64>,
    /// Set by [`abandon`](Self::abandon): a call still running shows nothing more.
    closed: Cell<bool>,
    /// Tool schemas listed afresh for a [`ModernStep::RefreshToolSchema`], by tool name
    /// (`None`: no longer listed), used by later calls instead of the caller's stale one.
    fresh_schemas: RefCell<HashMap<String, Option<Value>>>,
    /// The round each call waits on the user for, by call number.
    rounds: RefCell<HashMap<u64, PendingRound>>,
    /// The watches of the calls running now, by call number: every message their
    /// exchanges read is offered to each (a watch takes only its own call's progress).
    watches: RefCell<HashMap<u64, CallWatch>>,
    /// How long the server may keep silent ([`Limits`]) in a call's own exchanges, and
    /// in those that carry a person's answers.
    call_limits: Limits,
    answer_limits: Limits,
    /// The connection's language, for the words it makes (task_texts).
    messages: crate::i18n::Messages,
}

/// Longest silence of the server in one exchange: until its response starts (a call's own
/// request; see [`Limits`] for a replay's), and between two messages of the response after
/// that. The SDK client's read timeout (`MCP_DEFAULT_SSE_READ_TIMEOUT`, 300 s): a tool may
/// work that long, and a server answering in JSON sends nothing until it is done, so a
/// shorter bound would give up on a tool that was only slow. Past it the request is
/// aborted and the attempt fails with [`TransportError::TimedOut`], which is resendable.
/// SSE comments (keep-alives) are no message and do not end a silence.
pub const SERVER_SILENCE_LIMIT_MS: u32 = 300_000;

/// How long the server may keep silent in one exchange, in milliseconds.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// From sending the request to the start of its response.
    start_ms: u32,
    /// Between two messages of the response.
    silence_ms: u32,
}

impl Limits {
    /// A call's first request and the automatic steps before any card:
    /// [`SERVER_SILENCE_LIMIT_MS`] for both. Nobody's answer waits on them (the call runs,
    /// and calling again is its resend), so a slow tool gets the SDK's patience.
    const CALL: Limits = Limits {
        start_ms: SERVER_SILENCE_LIMIT_MS,
        silence_ms: SERVER_SILENCE_LIMIT_MS,
    };
    /// A replay carrying the person's answers, and the automatic steps after it: its
    /// response must start within [`exchange::ANSWER_POST_TIMEOUT_MS`] (the bound of every
    /// answer POST), as the SDK's servers start their event stream at once; past it the
    /// cards say so in words, keep the answers, and Submit resends. A server that answers
    /// in JSON only once a step of more than that is done is given up on the same way (the
    /// resend asks again). Once the response started, [`SERVER_SILENCE_LIMIT_MS`] between
    /// messages. Only the server is timed: a card waits for the person as long as needed.
    const ANSWER: Limits = Limits {
        start_ms: exchange::ANSWER_POST_TIMEOUT_MS,
        silence_ms: SERVER_SILENCE_LIMIT_MS,
    };
}

/// The elicitations of the current round that still wait for the user.
struct PendingRound {
    expected: Vec<String>,
    answers: IndexMap<String, ElicitResult>,
    submit: mpsc::UnboundedSender<Submit>,
}

/// All answers of a round, and where to report whether the replay POST worked.
struct Submit {
    answers: IndexMap<String, ElicitResult>,
    done: oneshot::Sender<Result<(), ClientError>>,
}

impl ModernSession {
    pub fn new(config: ClientConfig, sink: EventSink) -> Self {
        ModernSession {
            config: config.modern(),
            endpoint: config.endpoint(),
            messages: config.messages.clone(),
            sampling: config.sampling,
            sink,
            next_id: Cell::new(1),
            closed: Cell::new(false),
            fresh_schemas: RefCell::new(HashMap::new()),
            rounds: RefCell::new(HashMap::new()),
            watches: RefCell::new(HashMap::new()),
            call_limits: Limits::CALL,
            answer_limits: Limits::ANSWER,
        }
    }

    /// The same session with every bound on the server's silence (see
    /// `SERVER_SILENCE_LIMIT_MS`) set to `ms`: for tests, which cannot wait minutes for
    /// a server that never answers.
    pub fn with_silence_limit(mut self, ms: u32) -> Self {
        let all = Limits {
            start_ms: ms,
            silence_ms: ms,
        };
        self.call_limits = all;
        self.answer_limits = all;
        self
    }

    fn fresh_id(&self) -> RequestId {
        let id = self.next_id.get();
        self.next_id.set(id.saturating_add(1));
        RequestId::Number(id)
    }

    /// A request that cannot ask for input (`tools/list`): one POST, one result.
    pub async fn simple(
        &self,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        if self.closed.get() {
            return Err(ClientError::NotConnected);
        }
        let id = self.fresh_id();
        let request = simple_request(&self.config, &id, method, Some(&params))?;
        // A list is answered at once, like an answer POST.
        let quiet = Quiet::new(&self.endpoint, self.answer_limits);
        let signal = quiet.signal();
        let sent = exchange::send(&self.endpoint, &request, signal.as_ref());
        let mut response = quiet.start(sent).await?;
        if !exchange::is_success(response.status) {
            let body = quiet.next(async { Ok(response.read_all().await?) }).await?;
            let ct = response.content_type.as_deref();
            return Err(failure_from_http(response.status, ct, &body).into());
        }
        let mut messages = Messages::new(response);
        while let Some(text) = quiet.next(messages.next()).await? {
            if let Some(answer) = simple_answer(&id, &text) {
                return Ok(answer?);
            }
        }
        Err(DriverError::NoResponse.into())
    }

    /// Runs `call` to its final result through as many input rounds as the server needs,
    /// as the core's machine decides. `input_schema` is the tool's schema from
    /// `tools/list` for a [`Call::Tool`] (which arguments go into `Mcp-Param-*` headers);
    /// one fetched since after a -32020 takes its place.
    pub async fn call(
        &self,
        call: Call,
        input_schema: Option<Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        self.call_watched(call, input_schema, None).await
    }

    /// [`call`](Self::call), followed by `watch`: every round carries its progress token,
    /// the progress the server reports reaches it, and it knows the cards
    /// [`stop`](Self::stop) has to retire.
    pub async fn call_watched(
        &self,
        call: Call,
        mut input_schema: Option<Value>,
        watch: Option<&CallWatch>,
    ) -> Result<Box<RawValue>, ClientError> {
        if self.closed.get() {
            return Err(ClientError::NotConnected);
        }
        if let Call::Tool { name, .. } = &call {
            if let Some(fresh) = self.fresh_schemas.borrow().get(name.as_str()) {
                input_schema.clone_from(fresh);
            }
        }
        // Unique across sessions too: cards of an abandoned connection's call must never
        // route to a call of the next one.
        let number = route::next_call();
        let mut call = ModernCall::new(self.config.clone(), call, self.next_id.get())
            .with_input_schema(input_schema)
            .with_progress_token(watch.map(CallWatch::token));
        if let Some(watch) = watch {
            watch.set_modern_call(number);
            self.watches.borrow_mut().insert(number, watch.clone());
        }
        let outcome = self.drive(number, &mut call).await;
        self.rounds.borrow_mut().remove(&number);
        self.watches.borrow_mut().remove(&number);
        self.next_id.set(self.next_id.get().max(call.next_id()));
        outcome
    }

    async fn drive(
        &self,
        number: u64,
        call: &mut ModernCall,
    ) -> Result<Box<RawValue>, ClientError> {
        let limits = self.call_limits;
        let first = self.exchange(call, limits).await?;
        let mut next = self.advance(call, first, limits).await?;
        // The cards this call showed: once it returns, an opened URL card among them stops
        // waiting for a completion the server may never send.
        let mut shown: Vec<String> = Vec::new();
        loop {
            let (elicitations, withdrawn) = match next {
                Next::Done(result) => {
                    for id in shown {
                        (self.sink)(ClientEvent::CallEnded { id });
                    }
                    return Ok(result);
                }
                Next::Task(mut task, created) => {
                    let outcome = self.follow_task(number, &mut task, &created).await;
                    if outcome.is_err() {
                        self.cancel_task(task.task());
                    }
                    return outcome;
                }
                Next::Ask(elicitations, withdrawn) => (elicitations, withdrawn),
            };
            // Cards of an earlier round whose key this round no longer carries (a URL card
            // still waiting for its flow): the server withdrew them.
            for key in withdrawn {
                (self.sink)(ClientEvent::Retired {
                    id: route::call_card(number, &key),
                    reason: super::events::withdrawn_reason(&self.messages, None),
                });
            }
            if self.closed.get() {
                return Err(ClientError::NotConnected);
            }
            let (keys, submitted) = self.show_round(number, elicitations, &mut shown);
            let answered = self.answer_round(call, submitted).await;
            next = match answered {
                Ok(next) => {
                    self.end_round(number, &keys, None);
                    next
                }
                Err(err) => {
                    // The call is over: its cards can never be answered now. Say so on
                    // them, so they neither wait in vain nor hold room in the card list.
                    // An abandoned connection shows nothing more.
                    let why = super::events::call_failed_reason(&self.messages, &err);
                    self.end_round(number, &keys, Some(&why));
                    return Err(err);
                }
            };
        }
    }

    /// Takes the call from `step` through every step that needs no person: a state-only
    /// retry after its back-off, a roots-only round, the host's sampling answers; to its
    /// result, or to a round with elicitations. A failure on the way is an error; whether
    /// the round is sent again is the caller's (see the module docs' resend rule).
    async fn advance(
        &self,
        call: &mut ModernCall,
        mut step: ModernStep,
        limits: Limits,
    ) -> Result<Next, ClientError> {
        // Keys withdrawn on the way (a round may be answered by the host alone).
        let mut gone: Vec<String> = Vec::new();
        loop {
            step = match step {
                ModernStep::Complete(done) => return Ok(Next::Done(done.result)),
                ModernStep::Failed(err) => return Err(err.into()),
                // `exchange` mends these; one reaching here is the mismatch it could not.
                ModernStep::RefreshToolSchema { mismatch, .. } => return Err(mismatch.into()),
                ModernStep::Ignored => return Err(DriverError::NoResponse.into()),
                ModernStep::Task { task, created } => return Ok(Next::Task(task, created)),
                ModernStep::InputNeeded {
                    elicitations,
                    sampling,
                    withdrawn,
                    ..
                } => {
                    gone.extend(withdrawn);
                    let all_answered = self.answer_sampling(call, sampling).await?;
                    if !all_answered || !elicitations.is_empty() {
                        return Ok(Next::Ask(elicitations, gone));
                    }
                    // Sampling was all this round asked for.
                    self.automatic(call, limits).await?
                }
                ModernStep::ReadyToReplay => self.automatic(call, limits).await?,
                ModernStep::RetryAfter { delay_ms } => {
                    sleep(u32::try_from(delay_ms).unwrap_or(u32::MAX)).await;
                    self.automatic(call, limits).await?
                }
            };
        }
    }

    /// One automatic step's exchange, unless the connection was closed meanwhile.
    async fn automatic(
        &self,
        call: &mut ModernCall,
        limits: Limits,
    ) -> Result<ModernStep, ClientError> {
        if self.closed.get() {
            return Err(ClientError::NotConnected);
        }
        self.exchange(call, limits).await
    }

    /// Asks the host's handler for each sampling request of the round, one at a time (a
    /// call never has more than one request at the handler, and the core caps a round at
    /// [`MAX_INPUT_REQUESTS_PER_ROUND`](mcp_elicit::driver::modern::MAX_INPUT_REQUESTS_PER_ROUND)),
    /// and records the results; `true` when that
    /// answered the whole round. The machine surfaces sampling only when it was declared,
    /// that is when there is a handler.
    async fn answer_sampling(
        &self,
        call: &mut ModernCall,
        requests: Vec<PendingSampling>,
    ) -> Result<bool, ClientError> {
        let mut all_answered = false;
        for PendingSampling { key, params } in requests {
            let Some(handler) = &self.sampling else {
                return Err(DriverError::SamplingRefused { key }.into());
            };
            let result = handler
                .sample(params)
                .await
                .map_err(ClientError::Sampling)?;
            all_answered = call.answer_sampling(&key, result)?;
        }
        Ok(all_answered)
    }

    /// Follows the task the server made of call `number` (the Tasks extension, the core's
    /// [`ExtTask`]): `tasks/get` at the server's interval within the core's bounds, its
    /// questions on their own cards (sampling to the host's handler) answered by
    /// `tasks/update`, to its result; `failed` and `cancelled` in words. A round's answers
    /// follow the resend rule of a call's round (the module docs): an update that did not
    /// get through keeps the cards and their answers for Submit to send again. One request
    /// site and one loop: the wasm carries this once.
    async fn follow_task(
        &self,
        number: u64,
        task: &mut ExtTask,
        created: &Value,
    ) -> Result<Box<RawValue>, ClientError> {
        let watch = self.watches.borrow().get(&number).cloned();
        let refused = |why: String| task_texts::task_answer(&self.messages, &why);
        let mut step = task
            .on_task(created)
            .map_err(|why| ClientError::Refused(refused(why)))?;
        // The round shown to the person: its keys, and where their answers come in.
        let mut round: Option<(Vec<String>, mpsc::UnboundedReceiver<Submit>)> = None;
        let mut shown: Vec<String> = Vec::new();
        let outcome = loop {
            if let Some(watch) = &watch {
                watch.set_task(task.task());
            }
            if watch.as_ref().is_some_and(CallWatch::is_stopped) {
                break Err(ClientError::Refused(task_texts::task_stopped(
                    &self.messages,
                )));
            }
            if self.closed.get() {
                break Err(ClientError::NotConnected);
            }
            let poll = TaskStep::Poll {
                after_ms: task.task().poll_ms(),
            };
            // The request to send, and (for a round's answers) where to report and the task
            // with them recorded.
            let mut answering = None;
            let params = if let Some((_, submitted)) = &mut round {
                let Some(Submit { answers, done }) = submitted.next().await else {
                    break Err(ClientError::NotConnected);
                };
                let mut attempt = task.clone();
                let recorded: Result<(), DriverError> = answers
                    .into_iter()
                    .try_for_each(|(key, answer)| attempt.answer(&key, answer).map(|_| ()));
                match (recorded, attempt.update_params()) {
                    (Ok(()), Some(params)) => {
                        answering = Some((done, attempt));
                        params
                    }
                    (Err(err), _) => {
                        let err = ClientError::from(err);
                        let _ = done.send(Err(err.clone()));
                        break Err(err);
                    }
                    (Ok(()), None) => {
                        let err = ClientError::from(DriverError::Usage(
                            "a task's round was submitted unanswered".into(),
                        ));
                        let _ = done.send(Err(err.clone()));
                        break Err(err);
                    }
                }
            } else {
                match std::mem::replace(&mut step, poll) {
                    TaskStep::Poll { after_ms } => {
                        sleep(u32::try_from(after_ms).unwrap_or(u32::MAX)).await;
                        task.id_params()
                    }
                    TaskStep::Update => match task.update_params() {
                        Some(params) => params,
                        None => continue,
                    },
                    TaskStep::Ask {
                        elicitations,
                        sampling,
                    } => {
                        if let Err(err) = self.sample_for_task(task, sampling).await {
                            break Err(err);
                        }
                        if elicitations.is_empty() {
                            step = TaskStep::Update;
                        } else {
                            round = Some(self.show_round(number, elicitations, &mut shown));
                        }
                        continue;
                    }
                    TaskStep::Completed(result) => {
                        break RawValue::from_string(result.to_string()).map_err(|e| {
                            ClientError::Refused(task_texts::task_unreadable(
                                &self.messages,
                                &e.to_string(),
                            ))
                        })
                    }
                    TaskStep::Failed(err) => break Err(err.into()),
                    TaskStep::Cancelled => {
                        break Err(ClientError::Refused(task_texts::task_cancelled(
                            &self.messages,
                            task.task().message(),
                        )))
                    }
                }
            };
            let method = if params.contains_key("inputResponses") {
                task_methods::UPDATE
            } else {
                task_methods::GET
            };
            let sent = self.simple(method, params).boxed_local().await;
            match (sent, answering) {
                (Ok(_), Some((done, attempt))) => {
                    *task = attempt;
                    let _ = done.send(Ok(()));
                    if let Some((keys, _)) = round.take() {
                        self.end_round(number, &keys, None);
                    }
                }
                // The round stays, with its answers, for Submit to send again.
                (Err(err), Some((done, _))) if err.is_resendable() && !self.closed.get() => {
                    let _ = done.send(Err(err));
                }
                (Err(err), Some((done, _))) => {
                    let _ = done.send(Err(err.clone()));
                    break Err(err);
                }
                (Err(err), None) => break Err(err),
                // An update's ack: the next poll tells what came of it.
                (Ok(_), None) if method == task_methods::UPDATE => {}
                (Ok(got), None) => {
                    let read = serde_json::from_str::<Value>(got.get())
                        .map_err(|e| task_texts::task_unreadable(&self.messages, &e.to_string()))
                        .and_then(|got| task.on_task(&got).map_err(refused));
                    match read {
                        Ok(next) => step = next,
                        Err(why) => break Err(ClientError::Refused(why)),
                    }
                }
            }
        };
        if let Some((keys, _)) = round {
            let reason = outcome
                .as_ref()
                .err()
                .map(|e| super::events::call_failed_reason(&self.messages, e));
            self.end_round(number, &keys, reason.as_deref().or(Some("")));
        }
        for id in shown {
            (self.sink)(ClientEvent::CallEnded { id });
        }
        outcome
    }

    /// The host's answers to a task round's sampling requests.
    async fn sample_for_task(
        &self,
        task: &mut ExtTask,
        sampling: Vec<PendingSampling>,
    ) -> Result<(), ClientError> {
        for PendingSampling { key, params } in sampling {
            let Some(handler) = &self.sampling else {
                return Err(DriverError::SamplingRefused { key }.into());
            };
            let result = handler
                .sample(params)
                .await
                .map_err(ClientError::Sampling)?;
            task.answer_sampling(&key, result)?;
        }
        Ok(())
    }

    /// Shows a round's elicitations (a call's or a task's) on their cards, routed so
    /// [`answer`](Self::answer) takes them: their keys, and where the answers come in.
    fn show_round(
        &self,
        number: u64,
        elicitations: Vec<PendingElicitation>,
        shown: &mut Vec<String>,
    ) -> (Vec<String>, mpsc::UnboundedReceiver<Submit>) {
        let keys: Vec<String> = elicitations.iter().map(|e| e.key.clone()).collect();
        let (submit, submitted) = mpsc::unbounded();
        self.rounds.borrow_mut().insert(
            number,
            PendingRound {
                expected: keys.clone(),
                answers: IndexMap::new(),
                submit,
            },
        );
        for pending in elicitations {
            let id = route::call_card(number, &pending.key);
            if !shown.contains(&id) && shown.len() < MAX_PENDING_CARDS {
                shown.push(id.clone());
            }
            (self.sink)(ClientEvent::Elicit {
                id,
                key: pending.key,
                params: pending.params,
            });
        }
        self.set_asking(number, true);
        (keys, submitted)
    }

    /// A round is over: its cards were answered (`retired` is `None`), or are retired with
    /// the reason (none shown once the connection was abandoned).
    fn end_round(&self, number: u64, keys: &[String], retired: Option<&str>) {
        self.set_asking(number, false);
        self.rounds.borrow_mut().remove(&number);
        for key in keys {
            let id = route::call_card(number, key);
            (self.sink)(match retired {
                None => ClientEvent::Answered { id },
                Some(_) if self.closed.get() => continue,
                Some(reason) => ClientEvent::Retired {
                    id,
                    reason: reason.to_owned(),
                },
            });
        }
    }

    /// `tasks/cancel` for a task still running, sent without waiting (its delivery is not
    /// checked: the server may learn nothing, and the task runs out by its `ttlMs`).
    fn cancel_task(&self, task: &mcp_elicit::driver::tool_tasks::ToolTask) {
        if task.status().is_terminal() {
            return;
        }
        let id = self.fresh_id();
        let Ok(request) = simple_request(
            &self.config,
            &id,
            task_methods::CANCEL,
            Some(&task.id_params()),
        ) else {
            return;
        };
        let endpoint = self.endpoint.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = exchange::send(&endpoint, &request, None).await;
        });
    }

    /// Waits for the user's answers to the round, records them in a copy of the machine,
    /// sends the replay and takes the copy on through the automatic steps that follow (see
    /// [`advance`](Self::advance)) to the next round for the person or the result; only
    /// then is the copy kept (the resend rule, in the module docs).
    async fn answer_round(
        &self,
        call: &mut ModernCall,
        mut submitted: mpsc::UnboundedReceiver<Submit>,
    ) -> Result<Next, ClientError> {
        loop {
            let Some(Submit { answers, done }) = submitted.next().await else {
                return Err(ClientError::NotConnected);
            };
            let mut attempt = call.clone();
            let recorded: Result<(), DriverError> = answers
                .into_iter()
                .try_for_each(|(key, answer)| attempt.answer(&key, answer).map(|_| ()));
            if let Err(err) = recorded {
                let err = ClientError::from(err);
                let _ = done.send(Err(err.clone()));
                return Err(err);
            }
            let limits = self.answer_limits;
            let outcome = match self.exchange(&mut attempt, limits).await {
                Ok(step) => self.advance(&mut attempt, step, limits).await,
                Err(err) => Err(err),
            };
            match outcome {
                // The round stays, with its answers, for Submit to send again.
                Err(err) if err.is_resendable() && !self.closed.get() => {
                    let _ = done.send(Err(err));
                }
                Err(err) => {
                    let _ = done.send(Err(err.clone()));
                    return Err(err);
                }
                Ok(next) => {
                    *call = attempt;
                    let _ = done.send(Ok(()));
                    return Ok(next);
                }
            }
        }
    }

    /// Sends the machine's next request and feeds it the answer until it has a step that is
    /// not [`ModernStep::Ignored`], mending a -32020 on the way (see the module docs).
    async fn exchange(
        &self,
        call: &mut ModernCall,
        limits: Limits,
    ) -> Result<ModernStep, ClientError> {
        loop {
            let request = call.request()?;
            let step = self.exchange_once(call, &request, limits).await;
            if matches!(step, Err(ClientError::Transport(_))) {
                call.on_network_failure();
            }
            match step {
                Ok(ModernStep::RefreshToolSchema { tool, mismatch }) => {
                    match self.listed_schema(&tool).await {
                        Ok(schema) => call.set_input_schema(schema),
                        // The listing did not get through: an accident like any other,
                        // so a replay keeps its round and answers for a resend (which
                        // meets the same recovery).
                        Err(err) if err.is_resendable() => return Err(err),
                        // The mismatch is what went wrong; the refused list only kept us
                        // from mending it.
                        Err(_) => return Err(mismatch.into()),
                    }
                }
                other => return other,
            }
        }
    }

    /// The input schema of tool `name` as the server lists it now (`None`: not listed, or
    /// dropped for invalid `x-mcp-header` annotations).
    async fn listed_schema(&self, name: &str) -> Result<Option<Value>, ClientError> {
        let fetch = |params| self.simple("tools/list", params);
        let tools = super::list_pages(fetch, "tool list", |page: ListToolsResult| {
            (page.tools, page.next_cursor)
        })
        .await?;
        let schema = self
            .keep_valid_tools(tools)
            .into_iter()
            .find(|t| t.name == name)
            .map(|t| t.input_schema);
        self.fresh_schemas
            .borrow_mut()
            .insert(name.to_owned(), schema.clone());
        Ok(schema)
    }

    async fn exchange_once(
        &self,
        call: &mut ModernCall,
        request: &mcp_elicit::driver::HttpRequest,
        limits: Limits,
    ) -> Result<ModernStep, ClientError> {
        let quiet = Quiet::new(&self.endpoint, limits);
        let signal = quiet.signal();
        let sent = exchange::send(&self.endpoint, request, signal.as_ref());
        let mut response = quiet.start(sent).await?;
        if !exchange::is_success(response.status) {
            let body = quiet.next(async { Ok(response.read_all().await?) }).await?;
            let ct = response.content_type.clone();
            return Ok(call.on_http_failure(response.status, ct.as_deref(), &body));
        }
        let mut messages = Messages::new(response);
        while let Some(text) = quiet.next(messages.next()).await? {
            self.offer_progress(&text);
            match call.on_message(&text) {
                ModernStep::Ignored => {}
                step => return Ok(step),
            }
        }
        Ok(call
            .on_body_end()
            .unwrap_or(ModernStep::Failed(DriverError::NoResponse)))
    }

    /// Offers one message to the watches of the calls running (see [`CallWatch`]).
    fn offer_progress(&self, text: &str) {
        let watches: Vec<CallWatch> = self.watches.borrow().values().cloned().collect();
        for watch in watches {
            watch.feed(text);
        }
    }

    /// Marks whether call `number`'s round waits for the person.
    fn set_asking(&self, number: u64, asking: bool) {
        if let Some(watch) = self.watches.borrow().get(&number) {
            watch.set_asking(asking);
        }
    }

    /// Stops the call `watch` follows, whose future the caller dropped: that closed its
    /// stream, which is the 2026-07-28 revision's cancellation signal on Streamable HTTP
    /// (no `notifications/cancelled` is sent). Its cards are retired with `shown`.
    pub fn stop(&self, watch: &CallWatch, shown: &str) {
        watch.set_stopped();
        // A call the server runs as a task: tasks/cancel (the extension's MUST: never
        // notifications/cancelled for a task).
        if let Some(task) = watch.task() {
            self.cancel_task(&task);
        }
        let Some(number) = watch.modern_call() else {
            return;
        };
        self.watches.borrow_mut().remove(&number);
        let round = self.rounds.borrow_mut().remove(&number);
        for key in round.map(|r| r.expected).unwrap_or_default() {
            (self.sink)(ClientEvent::Retired {
                id: route::call_card(number, &key),
                reason: shown.to_owned(),
            });
        }
    }

    /// Records the user's answer to the card routed as `id`. The last answer of a round
    /// sends the replay and resolves once it was delivered, or with the error: a replay that
    /// did not get through keeps the round pending for a resend; the server's refusal ends
    /// the call.
    pub async fn answer(&self, id: &str, result: ElicitResult) -> Result<(), ClientError> {
        let unknown = || ClientError::UnknownElicitation(id.to_owned());
        let (number, key) = route::parse_call_card(id).ok_or_else(unknown)?;
        let done = {
            let mut rounds = self.rounds.borrow_mut();
            let Some(round) = rounds.get_mut(&number) else {
                return Err(unknown());
            };
            if !round.expected.iter().any(|k| k == key) {
                return Err(unknown());
            }
            round.answers.insert(key.to_owned(), result);
            if round.answers.len() < round.expected.len() {
                return Ok(());
            }
            let (done, outcome) = oneshot::channel();
            let answers = round.answers.clone();
            if round
                .submit
                .unbounded_send(Submit { answers, done })
                .is_err()
            {
                return Err(ClientError::NotConnected);
            }
            outcome
        };
        done.await.unwrap_or(Err(ClientError::NotConnected))
    }

    /// The tools a client may call: those with invalid `x-mcp-header` annotations are
    /// dropped (2026-07-28: clients MUST), each named in a notice with its fault.
    pub fn keep_valid_tools(&self, tools: Vec<Tool>) -> Vec<Tool> {
        let (kept, dropped) = headers::keep_valid_tools(tools);
        if !dropped.is_empty() {
            let tools = super::host_texts::tools_with_faults(&self.messages, &dropped);
            (self.sink)(ClientEvent::Notice(super::notice_texts::tools_left_out(
                &self.messages,
                &tools,
            )));
        }
        kept
    }

    /// Ends every pending round (their calls' futures then fail with "not connected"),
    /// keeps calls still running from showing new cards, and refuses every later request.
    pub fn abandon(&self) {
        self.closed.set(true);
        self.rounds.borrow_mut().clear();
    }
}

/// Where [`ModernSession::advance`] stops: the call's result, or a round whose elicitations
/// wait for the person (its sampling requests, if any, already answered by the host).
enum Next {
    Done(Box<RawValue>),
    /// The round's elicitations, and the keys of earlier rounds it withdrew.
    Ask(Vec<PendingElicitation>, Vec<String>),
    /// The server runs the call as a task (the Tasks extension): the task, and the
    /// `CreateTaskResult` that made it.
    Task(Box<ExtTask>, Value),
}

/// One exchange's abort handle and its bounds on the server's silence ([`Limits`]).
///
/// A wait that ends at once costs nothing, and one timer stays armed across waits: when it
/// fires early (the server spoke meanwhile) it is armed again for the rest of the current
/// wait. So a stream of a million events in a million chunks arms a few timers, not one
/// per event (each pending for minutes, holding its callback).
struct Quiet<'a> {
    endpoint: &'a Endpoint,
    limits: Limits,
    controller: Option<AbortController>,
    /// The armed timer and when it fires (`Date.now()` milliseconds).
    timer: RefCell<Option<(f64, LocalBoxFuture<'static, ()>)>>,
}

/// Dropped (the exchange ended, or its future was dropped by Stop or a timeout before the
/// server answered), the `fetch` is aborted: a request never answered ends on the wire,
/// which is the 2026-07-28 revision's cancellation signal. A no-op once the body was read.
impl Drop for Quiet<'_> {
    fn drop(&mut self) {
        if let Some(controller) = &self.controller {
            controller.abort();
        }
    }
}

impl<'a> Quiet<'a> {
    fn new(endpoint: &'a Endpoint, limits: Limits) -> Self {
        Quiet {
            endpoint,
            limits,
            controller: AbortController::new().ok(),
            timer: RefCell::new(None),
        }
    }

    /// What the exchange's `fetch` is sent with, so a silence can stop it on the wire.
    fn signal(&self) -> Option<AbortSignal> {
        self.controller.as_ref().map(AbortController::signal)
    }

    /// The response (`send`), or [`TransportError::TimedOut`] when it has not started
    /// within the start bound.
    async fn start<T>(
        &self,
        send: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        self.within(self.limits.start_ms, send).await
    }

    /// The next part of the response (a message, a whole error body), or
    /// [`TransportError::TimedOut`] after the silence bound.
    async fn next<T>(
        &self,
        read: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        self.within(self.limits.silence_ms, read).await
    }

    /// `work`'s outcome, or `TimedOut` once `ms` pass without it (the `fetch` is then
    /// aborted, and `work` dropped).
    async fn within<T>(
        &self,
        ms: u32,
        work: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        futures::pin_mut!(work);
        let mut deadline = js_sys::Date::now() + f64::from(ms);
        loop {
            // The armed timer serves if it fires no later than this wait's deadline.
            let (fires, mut timer) = match self.timer.borrow_mut().take() {
                Some((fires, timer)) if fires <= deadline => (fires, timer),
                _ => (deadline, sleep(ms).boxed_local()),
            };
            match select(work.as_mut(), timer.as_mut()).await {
                Either::Left((outcome, _)) => {
                    *self.timer.borrow_mut() = Some((fires, timer));
                    return outcome;
                }
                Either::Right(((), _)) => {
                    let left = deadline - js_sys::Date::now();
                    if self.endpoint.signing_in() {
                        // The person is signing in: their time is theirs, not the
                        // server's. The bound starts again from now.
                        deadline = js_sys::Date::now() + f64::from(ms);
                        *self.timer.borrow_mut() = Some((deadline, sleep(ms).boxed_local()));
                        continue;
                    }
                    if left > 0.0 {
                        // Fired for an earlier wait: arm it for the rest of this one.
                        let rest = left.ceil().min(f64::from(ms)) as u32;
                        *self.timer.borrow_mut() = Some((deadline, sleep(rest).boxed_local()));
                        continue;
                    }
                    if let Some(controller) = &self.controller {
                        controller.abort();
                    }
                    return Err(TransportError::TimedOut {
                        url: self.endpoint.url.clone(),
                        after_ms: ms,
                    }
                    .into());
                }
            }
        }
    }
}
