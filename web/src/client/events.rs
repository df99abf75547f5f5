//! What a session tells the UI, and the errors it reports, in words.

use std::fmt;

use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::ElicitRequestParams;

use crate::transport::TransportError;

/// Something the UI must show, pushed by a session while a call runs.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    /// A new elicitation to show. `key` is the `inputRequests` key (modern) or the JSON-RPC
    /// id of the server's `elicitation/create` request (legacy), as the DOM contract's
    /// `data-elicitation` value. `id` is what the answer is routed by
    /// ([`Connection::answer`](super::Connection::answer)): unique among the connection's
    /// pending elicitations, where keys are not (two calls of the same tool at once ask
    /// under the same `inputRequests` key; a legacy server may use `5` and `"5"`).
    Elicit {
        id: String,
        key: String,
        params: ElicitRequestParams,
    },
    /// The elicitation `id` was answered and delivered: the card can go.
    Answered { id: String },
    /// The server says the URL-mode elicitation `elicitation_id` is complete.
    Completed { elicitation_id: String },
    /// A line for the connection status (e.g. "session expired; connected again").
    Notice(String),
}

/// Why a connect, a call or an answer failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientError {
    /// The HTTP exchange itself failed (down, CORS, dropped connection).
    Transport(TransportError),
    /// The protocol machine's verdict: a JSON-RPC error, an HTTP error status, a malformed
    /// message, a refused input request (the core's [`DriverError`] words it).
    Driver(DriverError),
    /// The server kept asking for input past the configured number of rounds.
    TooManyRounds { max_rounds: u32 },
    /// The server does not offer what the host asked for (e.g. the modern era).
    Refused(String),
    /// The elicitation (by routing id) is not pending (already answered, or from an
    /// earlier call).
    UnknownElicitation(String),
    /// No call or connection is active.
    NotConnected,
    /// The host's sampling handler could not answer the server's `sampling/createMessage`.
    Sampling(String),
    /// The server lost the request this answer was for (it restarted). The session has been
    /// renewed and keeps the answer: re-run the call and the same question is answered.
    RequestLost,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Transport(err) => err.fmt(f),
            ClientError::Driver(err) => err.fmt(f),
            ClientError::TooManyRounds { max_rounds } => write!(
                f,
                "The server kept asking for more input: stopped after {max_rounds} rounds, \
                 the most this client allows for one call."
            ),
            ClientError::Refused(what) => f.write_str(what),
            // The routing id is internal: the user knows the request by its card.
            ClientError::UnknownElicitation(_) => {
                f.write_str("This request is no longer waiting for an answer.")
            }
            ClientError::NotConnected => f.write_str("Not connected to a server."),
            ClientError::Sampling(why) => write!(
                f,
                "The server asked for an LLM completion (sampling) and the host could not \
                 provide one: {why}"
            ),
            ClientError::RequestLost => f.write_str(
                "The server restarted and lost the request this answer was for; \
                 re-running the call to deliver it.",
            ),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<TransportError> for ClientError {
    fn from(err: TransportError) -> Self {
        ClientError::Transport(err)
    }
}

impl From<DriverError> for ClientError {
    fn from(err: DriverError) -> Self {
        match err {
            DriverError::RoundsExceeded { max_rounds } => ClientError::TooManyRounds { max_rounds },
            other => ClientError::Driver(other),
        }
    }
}

/// The web layer parses results the machines handed over whole (a tool result, a list
/// page): a failure there is a result this client cannot use, not an unreadable message, so
/// it is no accident a resend could mend.
impl From<mcp_elicit::wire::WireError> for ClientError {
    fn from(err: mcp_elicit::wire::WireError) -> Self {
        ClientError::Driver(DriverError::BadResult(err))
    }
}

/// The sink a session pushes [`ClientEvent`]s into (the demo app feeds its signals from it).
pub type EventSink = std::rc::Rc<dyn Fn(ClientEvent)>;
