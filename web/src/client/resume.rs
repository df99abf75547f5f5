//! When to resume a POST's event stream that ended before our answer.
//!
//! A server with an event store (SEP-1699 polling) may close the SSE stream of a running
//! request, e.g. during a long task, and expects the client to come back with a GET and
//! `Last-Event-ID`: the server then replays what was sent since and goes on with the
//! request on that stream. A stream that never carried an event id cannot be resumed: its
//! end ends the request. Like the SDK's client, an orderly end keeps resuming; the
//! bound counts resumptions in a row that brought nothing new, so a server that closes
//! every stream at once cannot keep a call spinning.
//!
//! The wait before each resumption is the server's `retry:` within the bounds every
//! reconnect of this client keeps ([`reconnect_delay_ms`]: floored, so `retry: 0` cannot
//! spin, and capped).

use mcp_elicit::driver::legacy::reconnect_delay_ms;
use mcp_elicit::driver::DriverError;
use mcp_elicit::sse::SseError;

use super::events::ClientError;
use super::exchange::Messages;
use crate::transport::TransportError;

/// Resumptions in a row that brought no new event before the request is given up.
const MAX_IDLE_RESUMES: u32 = 10;

/// What the request's streams told us so far.
#[derive(Debug, Default)]
pub struct Resumption {
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
    idle: u32,
}

impl Resumption {
    /// Notes the stream's latest event id and `retry:`; a new event id is progress.
    pub fn observe(&mut self, messages: &Messages) {
        if let Some(id) = messages.last_event_id() {
            if self.last_event_id.as_deref() != Some(id) {
                self.last_event_id = Some(id.to_owned());
                self.idle = 0;
            }
        }
        if let Some(ms) = messages.retry_ms() {
            self.retry_ms = Some(ms);
        }
    }

    /// The stream ended without our answer: the id to resume from and the wait before
    /// the GET, or `None` when it cannot (no id) or should not (bound reached) be resumed.
    pub fn next_attempt(&mut self) -> Option<(String, u32)> {
        let last = self.last_event_id.clone()?;
        if self.idle >= MAX_IDLE_RESUMES {
            return None;
        }
        self.idle += 1;
        Some((last, reconnect_delay_ms(self.retry_ms)))
    }
}

/// Whether a request's stream ended (`ended`: what reading its next message gave) in a way
/// a reconnection can mend: an orderly end before our answer, a dropped connection, or an
/// event cut off mid-way. The request itself is not sent again (that is
/// [`ClientError::is_resendable`]'s rule): the GET picks up its stream.
pub fn is_resumable_end(ended: &Result<Option<String>, ClientError>) -> bool {
    matches!(
        ended,
        Ok(None)
            | Err(ClientError::Transport(TransportError::Dropped { .. }))
            | Err(ClientError::Driver(DriverError::Sse(SseError::Truncated)))
    )
}
