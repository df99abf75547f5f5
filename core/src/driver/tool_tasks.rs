//! Tools as tasks (2025-11-25, experimental tasks, SEP-1686): the client is the
//! *requestor* of a task-augmented `tools/call`.
//!
//! ```text
//!   call_as_task(server declares, tool's taskSupport, host's mode)   send `task` with the call?
//!   the call's answer ─▶ ToolTask::from_call_result                  a CreateTaskResult: follow it
//!   next():  Poll{after_ms}  ─▶ wait, then tasks/get ─▶ on_task(result)
//!            FetchResult     ─▶ tasks/result: its stream carries the questions (input_required),
//!                               its answer is the call's result
//!            Cancelled       ─▶ the call ends, said in words
//!   notifications/tasks/status ─▶ on_task(params) too
//! ```
//!
//! What a server says is bounded here: the poll interval is kept within
//! [`MIN_POLL_INTERVAL_MS`]..=[`MAX_POLL_INTERVAL_MS`], a status message is cut to
//! [`MAX_STATUS_MESSAGE_CHARS`], a task that ended never goes back (a later status is
//! ignored), and an answer about another task, or with a status the spec does not have, is
//! an error in words.

use serde_json::{Map, Value};

use super::tasks::TaskStatus;
use crate::wire::jsonrpc::quote;

/// The shortest wait between two `tasks/get` of one task (a server asking 0 ms gets this).
pub const MIN_POLL_INTERVAL_MS: u64 = 500;
/// The longest wait between two `tasks/get` (a server asking 10⁹ ms gets this).
pub const MAX_POLL_INTERVAL_MS: u64 = 30_000;
/// The wait when the server suggests none.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 1000;
/// The most characters of a task's `statusMessage` kept to show (then cut, ending `…`).
pub const MAX_STATUS_MESSAGE_CHARS: usize = 200;

/// How a host wants a tool whose `execution.taskSupport` is `optional` called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskMode {
    /// As a task when the server runs tool calls as tasks (the default).
    #[default]
    Auto,
    /// As a task whenever the tool and the server allow it (today the same as `Auto`).
    Always,
    /// Never as a task, unless the tool requires it.
    Never,
}

impl TaskMode {
    /// `"auto"`, `"always"` or `"never"`.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "auto" => TaskMode::Auto,
            "always" => TaskMode::Always,
            "never" => TaskMode::Never,
            _ => return None,
        })
    }
}

/// Whether the server's `capabilities` declare task-augmented `tools/call`.
pub fn server_runs_tool_tasks(capabilities: &Value) -> bool {
    capabilities.pointer("/tasks/requests/tools/call").is_some()
}

/// A tool's `execution.taskSupport`, from its `tools/list` entry's `execution`.
pub fn task_support(execution: Option<&Value>) -> Option<&str> {
    execution?.get("taskSupport")?.as_str()
}

/// Whether to call a tool as a task: never when the server does not declare it (the
/// spec's MUST NOT), always when the tool says `required`, per `mode` when `optional`,
/// and never otherwise (`forbidden`, absent, anything else).
pub fn call_as_task(server_declares: bool, task_support: Option<&str>, mode: TaskMode) -> bool {
    server_declares
        && match task_support {
            Some("required") => true,
            Some("optional") => mode != TaskMode::Never,
            _ => false,
        }
}

/// What to do next for a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskNext {
    /// Wait this long, then `tasks/get`.
    Poll { after_ms: u64 },
    /// `tasks/result`: the server has questions (`input_required`) or the task ended
    /// (`completed`, `failed`); its answer is the call's result or error.
    FetchResult,
    /// The task was cancelled: the call ends without a result.
    Cancelled,
}

/// A tool call running as a task on the server.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolTask {
    task_id: String,
    status: TaskStatus,
    message: Option<String>,
    poll_ms: u64,
}

impl ToolTask {
    /// The answer to a `tools/call` sent with `task`: `None` when it is not a
    /// `CreateTaskResult` (the server ran the call at once: that is its result), else the
    /// task, or why its `task` cannot be followed.
    pub fn from_call_result(result: &Value) -> Option<Result<Self, String>> {
        Some(Self::from_task(result.get("task")?))
    }

    /// The task a server made, from its `Task` (2025-11-25: the `CreateTaskResult`'s
    /// `task`; 2026-07-28: the `CreateTaskResult` itself), or why it cannot be followed.
    pub fn from_task(task: &Value) -> Result<Self, String> {
        let Some(Value::String(task_id)) = task.get("taskId") else {
            return Err("The server answered the call with a task without a taskId.".into());
        };
        let mut made = ToolTask {
            task_id: task_id.clone(),
            status: TaskStatus::Working,
            message: None,
            poll_ms: DEFAULT_POLL_INTERVAL_MS,
        };
        made.on_task(task).map(|_| made)
    }

    pub fn task_id(&self) -> &str {
        &self.task_id
    }

    pub fn status(&self) -> TaskStatus {
        self.status
    }

    /// The server's `statusMessage`, cut to [`MAX_STATUS_MESSAGE_CHARS`].
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The wait before the next `tasks/get`, within the bounds.
    pub fn poll_ms(&self) -> u64 {
        self.poll_ms
    }

    /// `{"taskId": …}`: the params of `tasks/get`, `tasks/result` and `tasks/cancel`.
    pub fn id_params(&self) -> Map<String, Value> {
        let mut params = Map::new();
        params.insert("taskId".into(), Value::String(self.task_id.clone()));
        params
    }

    /// What to do now.
    pub fn next(&self) -> TaskNext {
        match self.status {
            TaskStatus::Working => TaskNext::Poll {
                after_ms: self.poll_ms,
            },
            TaskStatus::InputRequired | TaskStatus::Completed | TaskStatus::Failed => {
                TaskNext::FetchResult
            }
            TaskStatus::Cancelled => TaskNext::Cancelled,
        }
    }

    /// A `Task` from the server (a `tasks/get` result, or a `notifications/tasks/status`'s
    /// params): the task as it now is, and what to do next. Another task's id or an
    /// unknown status is an error in words (nothing changes); a task that ended stays
    /// ended whatever comes later.
    pub fn on_task(&mut self, task: &Value) -> Result<TaskNext, String> {
        match task.get("taskId") {
            Some(Value::String(id)) if *id == self.task_id => {}
            Some(Value::String(other)) => {
                return Err(format!(
                    "The server answered about task {}, not {}.",
                    quote(other),
                    quote(&self.task_id)
                ))
            }
            _ => return Err("The server's task has no taskId.".into()),
        }
        let status = match task.get("status") {
            Some(Value::String(s)) => TaskStatus::parse(s)
                .ok_or_else(|| format!("The server's task has an unknown status {}.", quote(s)))?,
            _ => return Err("The server's task has no status.".into()),
        };
        if self.status.is_terminal() {
            // Ended is ended (the spec: a terminal status never changes).
            return Ok(self.next());
        }
        self.status = status;
        // `pollInterval` (2025-11-25) or `pollIntervalMs` (the 2026-07-28 Tasks extension).
        let interval = task
            .get("pollInterval")
            .or_else(|| task.get("pollIntervalMs"));
        if let Some(ms) = interval.and_then(Value::as_f64) {
            let ms = if ms.is_finite() && ms > 0.0 {
                ms as u64
            } else {
                0
            };
            self.poll_ms = ms.clamp(MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS);
        }
        self.message = match task.get("statusMessage") {
            Some(Value::String(m)) => Some(cut(m)),
            _ => None,
        };
        Ok(self.next())
    }

    /// A message from one of the session's streams: a `notifications/tasks/status` about
    /// this task updates it (`Some(next)`); anything else is `None`.
    pub fn on_message(&mut self, text: &str) -> Option<TaskNext> {
        let note: Value = serde_json::from_str(text).ok()?;
        if note.get("method")?.as_str()? != super::tasks::methods::STATUS {
            return None;
        }
        let params = note.get("params")?;
        match params.get("taskId") {
            Some(Value::String(id)) if *id == self.task_id => self.on_task(params).ok(),
            _ => None,
        }
    }
}

/// `text` trimmed and cut to [`MAX_STATUS_MESSAGE_CHARS`] characters (then ending `…`).
pub(crate) fn cut(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(MAX_STATUS_MESSAGE_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", text.get(..end).unwrap_or("")),
    }
}
