//! Elicitation and sampling as tasks (2025-11-25, experimental tasks, SEP-1686): the
//! client is the *receiver* of a task-augmented `elicitation/create` or
//! `sampling/createMessage`.
//!
//! ```text
//!   elicitation/create {task:{ttl}} ─▶ create(request, card, task, now)  answer at once: CreateTaskResult
//!                                                                          (the card shows as usual)
//!   sampling/createMessage {task}   ─▶ create_sampling(request, task, now)  the same; the host's
//!                                                                          handler runs meanwhile
//!   tasks/get | tasks/result | tasks/list | tasks/cancel
//!                                   ─▶ on_request(id, request, now)     replies to POST, cards to retire
//!   the person answers the card     ─▶ answer(card, result, now)        the held tasks/result replies
//!   the sampling handler ends       ─▶ finish_sampling(task, outcome, now)  the same
//!   a timer at next_expiry()        ─▶ expire(now)                      ttl ran out: cards to retire
//! ```
//!
//! Time comes in as milliseconds since the Unix epoch; nothing here reads a clock. The
//! person is never timed out here: a task ends when the person answers, the server
//! cancels it, its `ttl` (the server's own) runs out, or the call that asked is stopped.
//!
//! Bounds: at most [`MAX_TASKS`] tasks are kept (the oldest finished one makes room; when
//! all are still waiting for the person, a new one is refused in words), at most
//! [`MAX_RESULT_WAITERS`] `tasks/result` requests are held per task, `tasks/list` pages
//! hold [`LIST_PAGE_SIZE`] tasks, and a `ttl` is kept up to [`MAX_TTL_MS`].

use serde_json::{Map, Value};

use crate::wire::jsonrpc::quote;
use crate::wire::{codes, ElicitAction, ElicitResult, ErrorObject, RequestId};

/// Method names of the tasks utility.
pub mod methods {
    pub const GET: &str = "tasks/get";
    pub const RESULT: &str = "tasks/result";
    pub const LIST: &str = "tasks/list";
    pub const CANCEL: &str = "tasks/cancel";
    pub const STATUS: &str = "notifications/tasks/status";
}

/// The `_meta` key that ties a message to its task.
pub const RELATED_TASK_KEY: &str = "io.modelcontextprotocol/related-task";

/// The most tasks kept at once (one per card that came as a task, plus finished ones
/// until their `ttl` ends or room is needed). A card is a question to a person: the
/// card list itself holds fewer.
pub const MAX_TASKS: usize = 64;

/// The most `tasks/result` requests held unanswered for one task. The spec makes
/// `tasks/result` wait for the end of the task; a server asking again and again would
/// otherwise grow the list without bound. Beyond it the request is answered with an
/// error in words.
pub const MAX_RESULT_WAITERS: usize = 4;

/// Tasks per `tasks/list` page.
pub const LIST_PAGE_SIZE: usize = 32;

/// The longest `ttl` kept (30 days, in milliseconds): a larger one is kept as this.
pub const MAX_TTL_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// The `pollInterval` this client suggests to a server polling its tasks (milliseconds):
/// a person answers in seconds, not milliseconds.
pub const SUGGESTED_POLL_INTERVAL_MS: u64 = 1000;

/// The status of a task (the five of the 2025-11-25 spec).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl TaskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    /// `completed`, `failed` and `cancelled` are final: a task never leaves them.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A server's request about our tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskRequest {
    Get { task_id: String },
    Result { task_id: String },
    List { cursor: Option<String> },
    Cancel { task_id: String },
}

impl TaskRequest {
    /// Whether `method` is one of `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`.
    pub fn is_task_method(method: &str) -> bool {
        matches!(
            method,
            methods::GET | methods::RESULT | methods::LIST | methods::CANCEL
        )
    }

    /// `None` when `method` is not one of the tasks utility's; else the request, or why
    /// its params cannot be read (answer that with `-32602`).
    pub fn parse(method: &str, params: Option<&Value>) -> Option<Result<Self, String>> {
        let task_id = || match params.and_then(|p| p.get("taskId")) {
            Some(Value::String(id)) => Ok(id.clone()),
            Some(_) => Err(format!("{method}: taskId must be a string")),
            None => Err(format!("{method}: taskId is missing")),
        };
        Some(match method {
            methods::GET => task_id().map(|task_id| TaskRequest::Get { task_id }),
            methods::RESULT => task_id().map(|task_id| TaskRequest::Result { task_id }),
            methods::CANCEL => task_id().map(|task_id| TaskRequest::Cancel { task_id }),
            methods::LIST => match params.and_then(|p| p.get("cursor")) {
                None | Some(Value::Null) => Ok(TaskRequest::List { cursor: None }),
                Some(Value::String(c)) => Ok(TaskRequest::List {
                    cursor: Some(c.clone()),
                }),
                Some(_) => Err("tasks/list: cursor must be a string".into()),
            },
            _ => return None,
        })
    }
}

/// What to answer a request with.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Result(Value),
    Error(ErrorObject),
}

/// An answer owed to the server's request `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub id: RequestId,
    pub outcome: Outcome,
}

/// What a task was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An `elicitation/create`: a card waits for the person.
    Elicitation,
    /// A `sampling/createMessage`: the host's handler runs; no card.
    Sampling,
}

/// Why a task's card stops waiting for the person (the web says it in words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetireWhy {
    /// The server cancelled the task (`tasks/cancel`).
    Cancelled,
    /// The task's `ttl` ran out before the person answered.
    Expired,
}

/// A card to retire: `card` is the route the caller gave [`ElicitationTasks::create`],
/// `request` the `elicitation/create` it answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Retire {
    pub card: String,
    pub request: RequestId,
    pub why: RetireWhy,
}

/// What one fact produced: answers to POST and cards to retire.
#[derive(Debug, Clone, Default, PartialEq)]
#[must_use]
pub struct Handled {
    pub replies: Vec<Reply>,
    pub retire: Vec<Retire>,
}

#[derive(Debug, Clone)]
struct Kept {
    id: String,
    kind: Kind,
    /// The card's route (elicitation); empty for sampling.
    card: String,
    request: RequestId,
    status: TaskStatus,
    message: &'static str,
    created_ms: u64,
    updated_ms: u64,
    ttl_ms: Option<u64>,
    /// What `tasks/result` returns (its `_meta` aside) once the task ended by an answer:
    /// the person's `ElicitResult`, the handler's `CreateMessageResult` or its error.
    result: Option<Outcome>,
    /// `tasks/result` requests held until the task ends.
    waiters: Vec<RequestId>,
}

/// Words sent to the server as a task's `statusMessage`.
mod status_text {
    pub const WAITING: &str = "Waiting for the person to answer.";
    pub const ANSWERED: &str = "The person answered.";
    pub const CANCELLED: &str = "The task was cancelled by request.";
    pub const STOPPED: &str = "The call that asked was stopped; the person will not answer.";
    pub const SAMPLING: &str = "The host is answering the sampling request.";
    pub const SAMPLED: &str = "The host answered the sampling request.";
    pub const SAMPLING_FAILED: &str = "The host could not answer the sampling request.";
}

/// The tasks of one session (elicitation and sampling).
#[derive(Debug, Clone, Default)]
pub struct ElicitationTasks {
    kept: Vec<Kept>,
    next: u64,
}

impl ElicitationTasks {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// A task-augmented `elicitation/create` (request `request`, whose card is routed as
    /// `card`) arrived with `task` (its params' `task` member). The answer to POST at once
    /// is a `CreateTaskResult`; an error says in words why no task was made (the card is
    /// then not shown).
    pub fn create(
        &mut self,
        request: RequestId,
        card: String,
        task: &Value,
        now_ms: u64,
    ) -> Result<Value, ErrorObject> {
        self.make(Kind::Elicitation, request, card, task, now_ms)
    }

    /// A task-augmented `sampling/createMessage` (request `request`) arrived with `task`:
    /// the `CreateTaskResult` to answer at once, or an error in words (then the handler is
    /// not asked).
    pub fn create_sampling(
        &mut self,
        request: RequestId,
        task: &Value,
        now_ms: u64,
    ) -> Result<Value, ErrorObject> {
        self.make(Kind::Sampling, request, String::new(), task, now_ms)
    }

    fn make(
        &mut self,
        kind: Kind,
        request: RequestId,
        card: String,
        task: &Value,
        now_ms: u64,
    ) -> Result<Value, ErrorObject> {
        let ttl_ms = match task.get("ttl") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => match n.as_f64() {
                Some(ms) if ms >= 0.0 => Some((ms as u64).min(MAX_TTL_MS)),
                _ => return Err(invalid("the task's ttl must be zero or more milliseconds")),
            },
            Some(_) => return Err(invalid("the task's ttl must be a number of milliseconds")),
        };
        if self.kept.len() >= MAX_TASKS {
            match self.kept.iter().position(|k| k.status.is_terminal()) {
                Some(oldest_finished) => {
                    self.kept.remove(oldest_finished);
                }
                None => {
                    return Err(ErrorObject {
                        code: codes::INTERNAL_ERROR,
                        message: format!(
                            "This client already has {MAX_TASKS} tasks waiting for the \
                             person or the host; ask again when one is answered."
                        ),
                        data: None,
                    })
                }
            }
        }
        self.next = self.next.wrapping_add(1);
        let (prefix, message) = match kind {
            Kind::Elicitation => ("elicit", status_text::WAITING),
            Kind::Sampling => ("sample", status_text::SAMPLING),
        };
        let kept = Kept {
            id: format!("{prefix}-{}", self.next),
            kind,
            card,
            request,
            status: TaskStatus::Working,
            message,
            created_ms: now_ms,
            updated_ms: now_ms,
            ttl_ms,
            result: None,
            waiters: Vec::new(),
        };
        let mut result = Map::new();
        result.insert("task".into(), task_json(&kept));
        self.kept.push(kept);
        Ok(Value::Object(result))
    }

    /// Whether the card routed as `card` came as a task (its answer completes the task
    /// instead of being POSTed as the answer to its request).
    pub fn has_card(&self, card: &str) -> bool {
        self.find_card(card).is_some()
    }

    /// The task id of the card `card`, if it came as one.
    pub fn task_of(&self, card: &str) -> Option<&str> {
        self.find_card(card).map(|k| k.id.as_str())
    }

    fn find_card(&self, card: &str) -> Option<&Kept> {
        self.kept
            .iter()
            .find(|k| k.kind == Kind::Elicitation && k.card == card)
    }

    /// The open elicitation task of the card `card`.
    fn open_card(&mut self, card: &str) -> Option<&mut Kept> {
        self.kept
            .iter_mut()
            .find(|k| k.kind == Kind::Elicitation && k.card == card && !k.status.is_terminal())
    }

    /// The person answered the card `card`: its task completes, and the `tasks/result`
    /// requests held for it get the answer. `None` when no task has that card, or it
    /// already ended (cancelled, expired): then nothing is owed.
    pub fn answer(&mut self, card: &str, result: &ElicitResult, now_ms: u64) -> Option<Handled> {
        let kept = self.open_card(card)?;
        kept.status = TaskStatus::Completed;
        kept.message = status_text::ANSWERED;
        kept.updated_ms = now_ms;
        kept.result = Some(Outcome::Result(elicit_value(Some(result))));
        Some(Handled {
            replies: release(kept),
            retire: Vec::new(),
        })
    }

    /// The host's sampling handler ended for the sampling task of the server's request
    /// `request`: `completed` with its `CreateMessageResult`, or `failed` with its error;
    /// the held `tasks/result` requests get it. Nothing is owed when the task already
    /// ended (cancelled, expired).
    pub fn finish_sampling(
        &mut self,
        request: &RequestId,
        outcome: Outcome,
        now_ms: u64,
    ) -> Vec<Reply> {
        let Some(kept) = self
            .kept
            .iter_mut()
            .find(|k| k.kind == Kind::Sampling && k.request == *request && !k.status.is_terminal())
        else {
            return Vec::new();
        };
        (kept.status, kept.message) = match outcome {
            Outcome::Result(_) => (TaskStatus::Completed, status_text::SAMPLED),
            Outcome::Error(_) => (TaskStatus::Failed, status_text::SAMPLING_FAILED),
        };
        kept.updated_ms = now_ms;
        kept.result = Some(outcome);
        release(kept)
    }

    /// The call whose card `card` is was stopped here: its task is cancelled (the held
    /// `tasks/result` requests get `{"action":"cancel"}`, what a dismissed card sends).
    pub fn stop_card(&mut self, card: &str, now_ms: u64) -> Vec<Reply> {
        let Some(kept) = self.open_card(card) else {
            return Vec::new();
        };
        kept.status = TaskStatus::Cancelled;
        kept.message = status_text::STOPPED;
        kept.updated_ms = now_ms;
        release(kept)
    }

    /// When the next task's `ttl` runs out (milliseconds since the epoch), if any has one.
    pub fn next_expiry(&self) -> Option<u64> {
        self.kept.iter().filter_map(deadline).min()
    }

    /// Forgets the tasks whose `ttl` ran out by `now_ms`: the cards of those still
    /// waiting are retired, and their held `tasks/result` requests answered with an
    /// error in words.
    pub fn expire(&mut self, now_ms: u64) -> Handled {
        let mut handled = Handled::default();
        self.kept.retain(|k| {
            if deadline(k).is_none_or(|end| end > now_ms) {
                return true;
            }
            let message = format!(
                "Task {} expired: its ttl of {} ms ran out.",
                quote(&k.id),
                k.ttl_ms.unwrap_or(0)
            );
            for id in &k.waiters {
                handled.replies.push(Reply {
                    id: id.clone(),
                    outcome: Outcome::Error(invalid(&message)),
                });
            }
            if !k.status.is_terminal() && k.kind == Kind::Elicitation {
                handled.retire.push(Retire {
                    card: k.card.clone(),
                    request: k.request.clone(),
                    why: RetireWhy::Expired,
                });
            }
            false
        });
        handled
    }

    /// A server's `tasks/*` request `id`. Expired tasks are forgotten first. Every
    /// request gets its answer in `replies` at once, except a `tasks/result` for a task
    /// still waiting for the person: that one is held until the task ends.
    pub fn on_request(&mut self, id: RequestId, request: TaskRequest, now_ms: u64) -> Handled {
        let mut handled = self.expire(now_ms);
        let mut reply = |outcome| {
            handled.replies.push(Reply {
                id: id.clone(),
                outcome,
            })
        };
        match request {
            TaskRequest::Get { task_id } => match self.find(&task_id) {
                Some(k) => reply(Outcome::Result(task_json(k))),
                None => reply(Outcome::Error(unknown(&task_id))),
            },
            TaskRequest::Result { task_id } => match self.find_mut(&task_id) {
                None => reply(Outcome::Error(unknown(&task_id))),
                Some(k) if k.status.is_terminal() => reply(final_outcome(k)),
                Some(k) if k.waiters.len() >= MAX_RESULT_WAITERS => {
                    reply(Outcome::Error(ErrorObject {
                        code: codes::INTERNAL_ERROR,
                        message: format!(
                            "Task {} is still waiting for the person, and {MAX_RESULT_WAITERS} \
                             tasks/result requests for it already wait; poll tasks/get instead.",
                            quote(&task_id)
                        ),
                        data: None,
                    }))
                }
                Some(k) => k.waiters.push(id.clone()),
            },
            TaskRequest::List { cursor } => {
                let start = match cursor.as_deref() {
                    None => Some(0),
                    Some(c) => c.parse::<usize>().ok().filter(|n| *n <= self.kept.len()),
                };
                match start {
                    None => reply(Outcome::Error(invalid(&format!(
                        "tasks/list: unknown cursor {}",
                        quote(cursor.as_deref().unwrap_or(""))
                    )))),
                    Some(start) => {
                        let end = start.saturating_add(LIST_PAGE_SIZE).min(self.kept.len());
                        let tasks: Vec<Value> = self
                            .kept
                            .get(start..end)
                            .unwrap_or(&[])
                            .iter()
                            .map(task_json)
                            .collect();
                        let mut result = Map::new();
                        result.insert("tasks".into(), Value::Array(tasks));
                        if end < self.kept.len() {
                            result.insert("nextCursor".into(), Value::String(end.to_string()));
                        }
                        reply(Outcome::Result(Value::Object(result)));
                    }
                }
            }
            TaskRequest::Cancel { task_id } => match self.find_mut(&task_id) {
                None => reply(Outcome::Error(unknown(&task_id))),
                Some(k) if k.status.is_terminal() => reply(Outcome::Error(invalid(&format!(
                    "Task {} is already {}; a finished task cannot be cancelled.",
                    quote(&task_id),
                    k.status.as_str()
                )))),
                Some(k) => {
                    k.status = TaskStatus::Cancelled;
                    k.message = status_text::CANCELLED;
                    k.updated_ms = now_ms;
                    let released = release(k);
                    let retire = (k.kind == Kind::Elicitation).then(|| Retire {
                        card: k.card.clone(),
                        request: k.request.clone(),
                        why: RetireWhy::Cancelled,
                    });
                    reply(Outcome::Result(task_json(k)));
                    handled.replies.extend(released);
                    handled.retire.extend(retire);
                }
            },
        }
        handled
    }

    fn find(&self, task_id: &str) -> Option<&Kept> {
        self.kept.iter().find(|k| k.id == task_id)
    }

    fn find_mut(&mut self, task_id: &str) -> Option<&mut Kept> {
        self.kept.iter_mut().find(|k| k.id == task_id)
    }
}

/// When `k`'s `ttl` runs out, if it has one.
fn deadline(k: &Kept) -> Option<u64> {
    k.ttl_ms.map(|ttl| k.created_ms.saturating_add(ttl))
}

/// The held `tasks/result` requests of the task `k`, which just ended, with its outcome.
fn release(k: &mut Kept) -> Vec<Reply> {
    let outcome = final_outcome(k);
    k.waiters
        .drain(..)
        .map(|id| Reply {
            id,
            outcome: outcome.clone(),
        })
        .collect()
}

/// What `tasks/result` returns for the ended task `k`, with the related-task `_meta` the
/// spec asks for: its answer (the person's `ElicitResult`, the host's
/// `CreateMessageResult`, or the handler's error); for a task cancelled before an answer,
/// `{"action":"cancel"}` (what a dismissed card sends) or, for sampling, an error in words.
fn final_outcome(k: &Kept) -> Outcome {
    let mut value = match (&k.result, k.kind) {
        (Some(Outcome::Error(error)), _) => return Outcome::Error(error.clone()),
        (Some(Outcome::Result(value)), _) => value.clone(),
        (None, Kind::Elicitation) => elicit_value(None),
        (None, Kind::Sampling) => {
            return Outcome::Error(invalid(&format!(
                "Task {} was {} before the host answered.",
                quote(&k.id),
                k.status.as_str()
            )))
        }
    };
    let mut related = Map::new();
    related.insert("taskId".into(), Value::String(k.id.clone()));
    // The host's `_meta` is kept; one that is not an object is replaced.
    if let Some(object) = value.as_object_mut() {
        let mut meta = match object.remove("_meta") {
            Some(Value::Object(meta)) => meta,
            _ => Map::new(),
        };
        meta.insert(RELATED_TASK_KEY.into(), Value::Object(related));
        object.insert("_meta".into(), Value::Object(meta));
    }
    Outcome::Result(value)
}

/// An `ElicitResult` as sent (`None`: `{"action":"cancel"}`). Built by hand: serde_json's
/// to-Value serializer would weigh on the client's wasm.
fn elicit_value(result: Option<&ElicitResult>) -> Value {
    let mut value = Map::new();
    let action = match result.map(|r| r.action) {
        Some(ElicitAction::Accept) => "accept",
        Some(ElicitAction::Decline) => "decline",
        Some(ElicitAction::Cancel) | None => "cancel",
    };
    value.insert("action".into(), Value::String(action.into()));
    if let Some(content) = result.and_then(|r| r.content.clone()) {
        value.insert("content".into(), Value::Object(content));
    }
    Value::Object(value)
}

/// The `Task` object of `k`.
fn task_json(k: &Kept) -> Value {
    let mut t = Map::new();
    t.insert("taskId".into(), Value::String(k.id.clone()));
    t.insert("status".into(), Value::String(k.status.as_str().into()));
    t.insert("statusMessage".into(), Value::String(k.message.into()));
    t.insert("createdAt".into(), Value::String(iso8601(k.created_ms)));
    t.insert("lastUpdatedAt".into(), Value::String(iso8601(k.updated_ms)));
    t.insert("ttl".into(), k.ttl_ms.map_or(Value::Null, Value::from));
    t.insert(
        "pollInterval".into(),
        Value::from(SUGGESTED_POLL_INTERVAL_MS),
    );
    Value::Object(t)
}

fn invalid(message: &str) -> ErrorObject {
    ErrorObject {
        code: codes::INVALID_PARAMS,
        message: message.to_owned(),
        data: None,
    }
}

fn unknown(task_id: &str) -> ErrorObject {
    invalid(&format!(
        "Failed to retrieve task: this client has no task {} (it was never created here, \
         or it expired).",
        quote(task_id)
    ))
}

/// `ms` since the Unix epoch as an ISO 8601 UTC timestamp (`2025-11-25T10:30:00.000Z`).
pub fn iso8601(ms: u64) -> String {
    let days = i64::try_from(ms / 86_400_000).unwrap_or(0);
    let (year, month, day) = crate::validate::formats::civil_from_days(days);
    let rest = ms % 86_400_000;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}
