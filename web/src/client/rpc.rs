//! One JSON-RPC request over one POST: send it, then read the reply (a JSON body or an
//! SSE stream) until the response to our id arrives. Everything else the server sends on
//! the way (legacy server requests, notifications) goes to `on_other`, in arrival order,
//! while the stream stays open.

use mcp_elicit::wire::{parse_message, Incoming, RequestId};
use serde_json::value::RawValue;

use super::events::ClientError;
use crate::transport::{self, Reply};

/// What the POST of a request gave back.
pub struct RpcReply {
    pub result: Box<RawValue>,
    /// `Mcp-Session-Id` of the answer, if the server sent (and exposed) one.
    pub session_id: Option<String>,
}

/// POSTs `body` (a request with id `id`) and returns the matching result. A JSON-RPC error
/// response becomes [`ClientError::Rpc`]; a stream that ends without our response is a
/// protocol error.
pub async fn call(
    url: &str,
    headers: &[(String, String)],
    body: String,
    id: &RequestId,
    mut on_other: impl FnMut(Incoming),
) -> Result<RpcReply, ClientError> {
    let exchange = transport::post(url, headers, body, None).await?;
    let session_id = exchange.session_id;
    match exchange.reply {
        Reply::Accepted => Err(ClientError::Protocol(
            "the server accepted the request but sent no answer".into(),
        )),
        Reply::Json(text) => {
            let incoming = parse(&text)?;
            match settle(incoming, id)? {
                Settled::Ours(result) => Ok(RpcReply { result, session_id }),
                Settled::Other(other) => {
                    on_other(other);
                    Err(ClientError::Protocol(
                        "the server's JSON answer is not the response to our request".into(),
                    ))
                }
            }
        }
        Reply::Stream(mut stream) => {
            while let Some(text) = stream.next_message().await? {
                match settle(parse(&text)?, id)? {
                    Settled::Ours(result) => return Ok(RpcReply { result, session_id }),
                    Settled::Other(other) => on_other(other),
                }
            }
            Err(ClientError::Protocol(
                "the server ended the event stream without answering our request".into(),
            ))
        }
    }
}

/// POSTs a notification or a response to a server request; the server must accept it (202).
pub async fn send_one_way(
    url: &str,
    headers: &[(String, String)],
    body: String,
) -> Result<(), ClientError> {
    let exchange = transport::post(url, headers, body, None).await?;
    match exchange.reply {
        Reply::Accepted => Ok(()),
        // A server may answer with an (empty) body instead of 202; nothing in it concerns us.
        Reply::Json(_) | Reply::Stream(_) => Ok(()),
    }
}

enum Settled {
    Ours(Box<RawValue>),
    Other(Incoming),
}

fn parse(text: &str) -> Result<Incoming, ClientError> {
    parse_message(text).map_err(|err| ClientError::Protocol(err.message))
}

fn settle(incoming: Incoming, id: &RequestId) -> Result<Settled, ClientError> {
    match incoming {
        Incoming::Response { id: got, result } if &got == id => Ok(Settled::Ours(result)),
        Incoming::Error { id: got, error } if got.as_ref().is_none_or(|g| g == id) => {
            Err(rpc_error(error))
        }
        other => Ok(Settled::Other(other)),
    }
}

/// A JSON-RPC error object as a [`ClientError`], keeping -32042's data for the caller.
pub fn rpc_error(error: mcp_elicit::wire::ErrorObject) -> ClientError {
    ClientError::Rpc {
        code: error.code,
        message: error.message,
        data: error.data,
    }
}
