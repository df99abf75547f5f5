//! The IO of one exchange: send a request a core driver built, and read the answer's body
//! as JSON-RPC message texts (one for a JSON body, one per SSE `message` event as soon as it
//! arrives). Which messages matter, and what a status means, the drivers decide.

use std::collections::VecDeque;

use mcp_elicit::driver::http::{body_kind, messages_from_body, BodyKind, MessageStream};
use mcp_elicit::driver::{DriverError, HttpRequest};
use web_sys::AbortSignal;

use super::events::ClientError;
use crate::transport::{self, ByteStream, RawResponse};

/// Sends `request` to `url` (a network or CORS failure is a [`ClientError::Transport`]).
pub async fn send(
    url: &str,
    request: &HttpRequest,
    signal: Option<&AbortSignal>,
) -> Result<RawResponse, ClientError> {
    Ok(transport::send_request(url, request, signal).await?)
}

/// True for a 2xx status: the body carries messages; any other status is a failure the
/// driver words (`on_http_failure`).
pub fn is_success(status: u16) -> bool {
    (200..300).contains(&status)
}

/// A 2xx response body, message by message.
pub struct Messages {
    content_type: Option<String>,
    body: Option<ByteStream>,
    stream: Option<MessageStream>,
    ready: VecDeque<String>,
    done: bool,
}

impl Messages {
    pub fn new(response: RawResponse) -> Self {
        let stream = matches!(
            body_kind(response.content_type.as_deref()),
            BodyKind::EventStream
        )
        .then(MessageStream::new);
        Messages {
            content_type: response.content_type,
            body: response.body,
            stream,
            ready: VecDeque::new(),
            done: false,
        }
    }

    /// The next message text; `None` once the body ended.
    pub async fn next(&mut self) -> Result<Option<String>, ClientError> {
        loop {
            if let Some(message) = self.ready.pop_front() {
                return Ok(Some(message));
            }
            if self.done {
                return Ok(None);
            }
            let Some(body) = self.body.as_mut() else {
                self.done = true;
                continue;
            };
            match self.stream.as_mut() {
                Some(stream) => match body.next_chunk().await? {
                    Some(chunk) => self.ready.extend(stream.feed(&chunk).map_err(sse)?),
                    None => {
                        self.done = true;
                        self.ready.extend(stream.finish().map_err(sse)?);
                    }
                },
                None => {
                    self.done = true;
                    let bytes = body.read_to_end(JSON_LIMIT).await?;
                    self.ready
                        .extend(messages_from_body(self.content_type.as_deref(), &bytes)?);
                }
            }
        }
    }

    /// The id of the last event read, for `Last-Event-ID` when a GET stream is reopened.
    pub fn last_event_id(&self) -> Option<&str> {
        self.stream.as_ref().and_then(MessageStream::last_event_id)
    }

    /// The server's requested reconnection delay (ms), for a GET stream.
    pub fn retry_ms(&self) -> Option<u64> {
        self.stream.as_ref().and_then(MessageStream::retry_ms)
    }
}

/// The largest JSON body read into memory.
const JSON_LIMIT: usize = 16 * 1024 * 1024;

fn sse(err: mcp_elicit::sse::SseError) -> ClientError {
    ClientError::Driver(DriverError::Sse(err))
}
