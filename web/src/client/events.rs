//! What a session tells the UI, and the errors it reports, in words.

use std::fmt;

use mcp_elicit::wire::ElicitRequestParams;

use crate::transport::TransportError;

/// Something the UI must show, pushed by a session while a call runs.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    /// A new elicitation to show. `key` is the `inputRequests` key (modern) or the JSON-RPC
    /// id of the server's `elicitation/create` request (legacy), as the DOM contract's
    /// `data-elicitation` value.
    Elicit {
        key: String,
        params: ElicitRequestParams,
    },
    /// The elicitation `key` was answered and delivered: the card can go.
    Answered { key: String },
    /// The server says the URL-mode elicitation `elicitation_id` is complete.
    Completed { elicitation_id: String },
    /// A line for the connection status (e.g. "session expired; connected again").
    Notice(String),
}

/// Why a connect, a call or an answer failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientError {
    Transport(TransportError),
    /// The server answered with a JSON-RPC error.
    Rpc {
        code: i64,
        message: String,
        data: Option<serde_json::Value>,
    },
    /// The server kept asking for input past the configured number of rounds.
    TooManyRounds {
        max_rounds: u32,
    },
    /// The server asked for something this client does not do (e.g. sampling).
    Refused(String),
    /// The server's answer does not follow the protocol.
    Protocol(String),
    /// The elicitation key is not pending (already answered, or from an earlier call).
    UnknownElicitation(String),
    /// No call or connection is active.
    NotConnected,
    /// The server lost the request this answer was for (it restarted). The session has been
    /// renewed and keeps the answer: re-run the call and the same question is answered.
    RequestLost,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Transport(err) => err.fmt(f),
            ClientError::Rpc { code, message, .. } => {
                write!(
                    f,
                    "The server reported an error: {message} (JSON-RPC error {code})."
                )
            }
            ClientError::TooManyRounds { max_rounds } => write!(
                f,
                "The server kept asking for more input: stopped after {max_rounds} rounds, \
                 the most this client allows for one call."
            ),
            ClientError::Refused(what) => f.write_str(what),
            ClientError::Protocol(what) => {
                write!(
                    f,
                    "The server's answer does not follow the MCP protocol: {what}."
                )
            }
            ClientError::UnknownElicitation(key) => {
                write!(f, "The request {key} is no longer waiting for an answer.")
            }
            ClientError::NotConnected => f.write_str("Not connected to a server."),
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
        match err {
            TransportError::Http {
                rpc: Some(rpc),
                status,
                ..
            } if status != 404 => ClientError::Rpc {
                code: rpc.code,
                message: rpc.message,
                data: rpc.data,
            },
            other => ClientError::Transport(other),
        }
    }
}

/// The sink a session pushes [`ClientEvent`]s into (the demo app feeds its signals from it).
pub type EventSink = std::rc::Rc<dyn Fn(ClientEvent)>;
