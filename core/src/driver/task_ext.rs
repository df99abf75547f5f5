//! Tools as tasks in the 2026-07-28 era: the Tasks extension (`io.modelcontextprotocol/tasks`,
//! SEP-2663), the client side. Read from the SEP's text, `seps/2663-tasks-extension.md` in
//! modelcontextprotocol/modelcontextprotocol, last changed at commit 9b44c6b4 (2026-07-22,
//! "Status: Final").
//!
//! ```text
//!   every request's _meta clientCapabilities.extensions["io.modelcontextprotocol/tasks"] = {}
//!   tools/call ─▶ resultType "task" (a CreateTaskResult): ModernStep::Task{task, created}
//!   task.on_task(created), then after each tasks/get ─▶ TaskStep:
//!       Poll{after_ms}  wait, then tasks/get {taskId}
//!       Ask{..}         the task's new inputRequests: show / sample; answer each, then
//!                       tasks/update {taskId, inputResponses} (update_params), then poll
//!       Update          every new input was answered without the person (roots): update now
//!       Completed(r)    the call's result (the task's inlined `result`)
//!       Failed(e)       the task's JSON-RPC `error`, in words
//!       Cancelled       the call ends, said in words
//!   Stop ─▶ tasks/cancel {taskId} (never notifications/cancelled: the SEP's MUST NOT)
//! ```
//!
//! What the text says and this machine does:
//! - a task's questions come in `tasks/get`'s `inputRequests` (keyed like MRTR's); answers go
//!   in `tasks/update`'s `inputResponses` under the same keys. A task has no `requestState`:
//!   `tasks/update` carries `taskId` and `inputResponses` only (a `requestState` a server
//!   puts on a task is never echoed);
//! - keys are unique over the task's life: a key once answered is never shown again (the
//!   server may keep listing it until its eventually-consistent update lands);
//! - `pollIntervalMs` is kept within the bounds of [`super::tool_tasks`]; a status message
//!   is cut as there; a task that ended never goes back;
//! - `failed` carries the JSON-RPC `error`; `completed` the result (`isError` included).
//!
//! Bounds beyond the text: one `tasks/get` may bring at most
//! [`MAX_INPUT_REQUESTS_PER_ROUND`] new requests, and a task at most the host's `max_rounds`
//! rounds of new requests (as a call's `input_required` rounds); past either the task is
//! given up in words (the caller then sends `tasks/cancel`). `notifications/tasks` needs a
//! `subscriptions/listen` stream this client does not open: the task is polled.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::modern::{
    sort_inputs, ModernConfig, PendingElicitation, PendingSampling, MAX_INPUT_REQUESTS_PER_ROUND,
};
use super::tasks::TaskStatus;
use super::tool_tasks::{TaskNext, ToolTask};
use super::DriverError;
use crate::wire::input::InputRequest;
use crate::wire::jsonrpc::{quote, ErrorObject};
use crate::wire::{ElicitResult, InputResponse, InputResponses, WireError, WireKind};

/// The extension's identifier, declared in every request's client capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The `resultType` of a `CreateTaskResult`.
pub const RESULT_TYPE_TASK: &str = "task";

/// The extension's methods.
pub mod methods {
    pub const GET: &str = "tasks/get";
    pub const UPDATE: &str = "tasks/update";
    pub const CANCEL: &str = "tasks/cancel";
}

/// What to do next for a task of the extension.
#[derive(Debug, Clone)]
pub enum TaskStep {
    /// Wait this long, then `tasks/get`.
    Poll { after_ms: u64 },
    /// New questions: show the elicitations (each its own card), ask the host's handler for
    /// the sampling; answer each, then send `tasks/update` with [`ExtTask::update_params`].
    Ask {
        elicitations: Vec<PendingElicitation>,
        sampling: Vec<PendingSampling>,
    },
    /// Every new input was answered by the machine (roots): `tasks/update` now.
    Update,
    /// The task completed: its `result` is the call's.
    Completed(Value),
    /// The task failed: its JSON-RPC `error`, or why this client gives it up.
    Failed(DriverError),
    /// The server cancelled the task (its message, when it gave one, is on [`ExtTask::task`]).
    Cancelled,
}

/// A tool call the server runs as a task of the extension.
#[derive(Debug, Clone)]
pub struct ExtTask {
    task: ToolTask,
    /// The call's configuration: its round bound, roots and sampling.
    config: ModernConfig,
    /// Rounds of new `inputRequests` seen.
    rounds: u32,
    /// Keys answered (sent, or to be sent, in a `tasks/update`): never shown again.
    answered: Vec<String>,
    /// Keys of the round shown now still waiting for an answer.
    waiting: Vec<String>,
    /// Of the round's keys, the elicitations.
    elicitations: Vec<String>,
    /// The round's answers, for the next `tasks/update`.
    responses: InputResponses,
    /// The end was said (completed, failed): what comes later is not taken.
    ended: bool,
}

impl ExtTask {
    /// The task a `CreateTaskResult` (`created`, the whole result) announces, for a call made
    /// with `config`; feed `created` to [`on_task`](Self::on_task) for the first step.
    pub fn new(created: &Value, config: &ModernConfig) -> Result<Self, String> {
        Ok(ExtTask {
            task: ToolTask::from_task(created)?,
            config: config.clone(),
            rounds: 0,
            answered: Vec::new(),
            waiting: Vec::new(),
            elicitations: Vec::new(),
            responses: InputResponses::new(),
            ended: false,
        })
    }

    /// The task as last seen: id, status, message, poll interval.
    pub fn task(&self) -> &ToolTask {
        &self.task
    }

    /// `{"taskId": …}`: the params of `tasks/get` and `tasks/cancel`.
    pub fn id_params(&self) -> Map<String, Value> {
        self.task.id_params()
    }

    /// Keys of the round shown now that still wait for an answer.
    pub fn waiting_for(&self) -> &[String] {
        &self.waiting
    }

    /// A `Task` from the server (the `CreateTaskResult`, or a `tasks/get` result): the next
    /// step. Another task's id, an unknown status, a malformed `inputRequests` or `error` are
    /// errors in words (nothing changes).
    pub fn on_task(&mut self, body: &Value) -> Result<TaskStep, String> {
        let ended_before = self.ended;
        let next = self.task.on_task(body)?;
        self.ended = self.task.status().is_terminal();
        let after_ms = self.task.poll_ms();
        match next {
            TaskNext::Poll { after_ms } => Ok(TaskStep::Poll { after_ms }),
            TaskNext::Cancelled => Ok(TaskStep::Cancelled),
            // Ended is ended: what came first stands (the caller stopped at it).
            TaskNext::FetchResult if ended_before => Ok(TaskStep::Poll { after_ms }),
            TaskNext::FetchResult => match self.task.status() {
                TaskStatus::Completed => match body.get("result") {
                    Some(result @ Value::Object(_)) => Ok(TaskStep::Completed(result.clone())),
                    _ => Err("The server's completed task has no result object.".into()),
                },
                TaskStatus::Failed => Ok(TaskStep::Failed(failure(body))),
                _ => Ok(self.on_inputs(body.get("inputRequests"), after_ms)),
            },
        }
    }

    /// An `input_required` task's `inputRequests`: its new keys become a round.
    fn on_inputs(&mut self, requests: Option<&Value>, after_ms: u64) -> TaskStep {
        if !self.waiting.is_empty() {
            // Still answering the round shown: nothing new is taken meanwhile.
            return TaskStep::Poll { after_ms };
        }
        let Some(Value::Object(requests)) = requests else {
            return self.give_up(
                WireKind::Malformed,
                "the server's task needs input but sent no inputRequests object".into(),
            );
        };
        let fresh: Map<String, Value> = requests
            .iter()
            .filter(|(key, _)| !self.answered.contains(key))
            .map(|(key, request)| (key.clone(), request.clone()))
            .collect();
        if fresh.is_empty() {
            // Only requests already answered: the update has not landed yet.
            return TaskStep::Poll { after_ms };
        }
        if fresh.len() > MAX_INPUT_REQUESTS_PER_ROUND {
            return self.give_up(
                WireKind::TooLarge,
                format!(
                    "the server's task asked for {} inputs at once; this client shows and \
                 answers at most {MAX_INPUT_REQUESTS_PER_ROUND}",
                    fresh.len()
                ),
            );
        }
        self.rounds = self.rounds.saturating_add(1);
        if self.rounds > self.config.max_rounds {
            return TaskStep::Failed(DriverError::RoundsExceeded {
                max_rounds: self.config.max_rounds,
            });
        }
        // Read as an InputRequiredResult's inputRequests are (one reader in the wasm).
        let text = Value::Object(fresh).to_string();
        let fresh: IndexMap<String, InputRequest> = match serde_json::from_str(&text) {
            Ok(fresh) => fresh,
            Err(e) => {
                return self.give_up(
                    WireKind::Malformed,
                    format!(
                    "the server's task inputRequests are not requests this client can read: {e}"
                ),
                )
            }
        };
        let sorted = match sort_inputs(fresh, &self.config) {
            Ok(sorted) => sorted,
            Err(e) => return TaskStep::Failed(e),
        };
        let (elicitations, sampling, responses) =
            (sorted.elicitations, sorted.sampling, sorted.responses);
        let asked = sorted.waiting;
        self.answered.extend(responses.keys().cloned());
        self.responses = responses;
        self.elicitations = elicitations.iter().map(|e| e.key.clone()).collect();
        self.waiting = asked;
        if self.waiting.is_empty() {
            return TaskStep::Update;
        }
        TaskStep::Ask {
            elicitations,
            sampling,
        }
    }

    fn give_up(&self, kind: WireKind, why: String) -> TaskStep {
        TaskStep::Failed(DriverError::BadResult(WireError::of(kind, why)))
    }

    /// Records the person's answer to the elicitation under `key`: `true` once the whole
    /// round is answered (send `tasks/update`).
    pub fn answer(&mut self, key: &str, result: ElicitResult) -> Result<bool, DriverError> {
        if !self.elicitations.iter().any(|k| k == key) {
            return Err(DriverError::Usage(format!(
                "no elicitation of the task is waiting under {key:?}"
            )));
        }
        self.record(key, InputResponse::Elicit(result))
    }

    /// Records the host's sampling answer (a `CreateMessageResult`) under `key`.
    pub fn answer_sampling(&mut self, key: &str, result: Value) -> Result<bool, DriverError> {
        if self.elicitations.iter().any(|k| k == key) {
            return Err(DriverError::Usage(format!(
                "{key:?} is an elicitation, not sampling"
            )));
        }
        self.record(key, InputResponse::Sampling(result))
    }

    fn record(&mut self, key: &str, response: InputResponse) -> Result<bool, DriverError> {
        let Some(pos) = self.waiting.iter().position(|k| k == key) else {
            return Err(DriverError::Usage(format!(
                "{key:?} is not waiting for an answer"
            )));
        };
        self.waiting.remove(pos);
        self.answered.push(key.to_owned());
        self.responses.insert(key.to_owned(), response);
        Ok(self.waiting.is_empty())
    }

    /// The params of the `tasks/update` that sends the round's answers: `taskId` and
    /// `inputResponses`, nothing else. The answers are handed over: a later round starts
    /// afresh. `None` while an answer is still missing, or when there is nothing to send.
    pub fn update_params(&mut self) -> Option<Map<String, Value>> {
        if !self.waiting.is_empty() || self.responses.is_empty() {
            return None;
        }
        // Written as a replay's inputResponses are, then read back (one writer in the wasm).
        let text = serde_json::to_string(&std::mem::take(&mut self.responses)).ok()?;
        let responses: Value = serde_json::from_str(&text).ok()?;
        self.elicitations.clear();
        let mut params = self.task.id_params();
        params.insert("inputResponses".into(), responses);
        Some(params)
    }
}

/// A `failed` task's JSON-RPC `error`, as the error of a call would read; without one, the
/// task's status message.
fn failure(body: &Value) -> DriverError {
    match body
        .get("error")
        .and_then(|e| serde_json::from_str::<ErrorObject>(&e.to_string()).ok())
    {
        Some(error) => DriverError::from_rpc(error),
        None => DriverError::BadResult(WireError::of(
            WireKind::TaskFailed,
            match body.get("statusMessage").and_then(Value::as_str) {
                Some(m) => format!(
                    "the server's task failed without an error object: {}",
                    quote(m)
                ),
                None => "the server's task failed without an error object".to_owned(),
            },
        )),
    }
}
