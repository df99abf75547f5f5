//! Protocol state machines, free of IO.
//!
//! The IO layer (a browser's `fetch`, or anything else) owns sockets and
//! timers; these machines own the protocol. The loop is always the same:
//! ask the machine for an [`HttpRequest`], send it to the server's endpoint,
//! turn the response body into JSON-RPC message texts ([`http::messages_from_body`]
//! for a whole body, [`http::MessageStream`] for a body read chunk by chunk),
//! hand each text to the machine, and act on the step it returns.
//!
//! - [`modern`]: one call in the 2026-07-28 era, through any number of
//!   `input_required` rounds to the final result.
//! - [`legacy`]: a 2025-11-25 session: handshake, session headers, routing of
//!   everything that arrives on POST and GET streams.
//! - [`era`]: Auto mode's decision between the two, the way the SDK makes it.
//! - [`progress`]: the progress tokens of our calls and their `notifications/progress`,
//!   made harmless and coalesced.
//! - [`tasks`]: elicitation as a task (2025-11-25): the tasks this client keeps for the
//!   server, answered to `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`.
//! - [`tool_tasks`]: tools called as tasks (2025-11-25): when, and following the task.
//! - [`task_ext`]: tools called as tasks (2026-07-28, the Tasks extension): following the
//!   task, its `inputRequests` answered by `tasks/update`.
//! - [`headers`]: `Mcp-Name` / `Mcp-Param-*` header values, encoded like the SDK.

pub mod era;
mod error;
pub mod headers;
pub mod http;
pub mod legacy;
pub mod modern;
pub mod progress;
pub mod task_ext;
pub mod tasks;
pub mod tool_tasks;

pub use error::{describe_capabilities, server_reason, DriverError};
pub use http::{HttpMethod, HttpRequest};
