//! The IO of one exchange: send a request a core driver built, and read the answer's body
//! as JSON-RPC message texts (one for a JSON body, one per SSE `message` event as soon as it
//! arrives). Which messages matter, and what a status means, the drivers decide.

use std::collections::VecDeque;
use std::future::Future;

use mcp_elicit::driver::http::{body_kind, messages_from_body, BodyKind, MessageStream};
use mcp_elicit::driver::{DriverError, HttpRequest};
use web_sys::{AbortController, AbortSignal};

use super::endpoint::Endpoint;
use super::events::ClientError;
use crate::transport::{self, ByteStream, RawResponse, TransportError};

/// How long a POST whose answer nobody streams may take, from sending it to the end of its
/// answer: a card's answer, a replayed answer, an automatic reply (ping, roots, refusal,
/// sampling). A server takes such a POST at once (202 Accepted); one that holds it open
/// would leave the card at "Sending…" forever. Past this bound the exchange is aborted and
/// fails with [`TransportError::TimedOut`]: the card shows that in words and keeps the
/// answer, so Submit resends it. 30 s leaves a slow or busy server plenty of room. Only
/// the server is timed, never the person: a card waits for its answer as long as needed.
///
/// Both eras use it through [`bounded`] (the modern era for its replayed rounds: run the
/// exchange, including reading its answer, inside `bounded(url, ANSWER_POST_TIMEOUT_MS, ..)`).
pub const ANSWER_POST_TIMEOUT_MS: u32 = 30_000;

/// Runs one exchange for at most `limit_ms` milliseconds. `exchange` gets the signal to
/// send with ([`send`]); past the limit its `fetch` is aborted, whatever it holds is
/// dropped, and the outcome is [`TransportError::TimedOut`] (for the endpoint, in words).
/// While the person signs in ([`Endpoint::signing_in`]) the bound waits: it times the
/// server, never the person, and starts again once the sign-in is over.
pub async fn bounded<T, F, Fut>(
    endpoint: &Endpoint,
    limit_ms: u32,
    exchange: F,
) -> Result<T, ClientError>
where
    F: FnOnce(Option<AbortSignal>) -> Fut,
    Fut: Future<Output = Result<T, ClientError>>,
{
    let controller = AbortController::new().ok();
    let signal = controller.as_ref().map(AbortController::signal);
    let running = exchange(signal);
    futures::pin_mut!(running);
    loop {
        match transport::within(limit_ms, running.as_mut()).await {
            Some(outcome) => return outcome,
            None if endpoint.signing_in() => continue,
            None => {
                if let Some(controller) = controller {
                    controller.abort();
                }
                return Err(TransportError::TimedOut {
                    url: endpoint.url.clone(),
                    after_ms: limit_ms,
                }
                .into());
            }
        }
    }
}

/// Sends `request` to the endpoint (a network or CORS failure is a
/// [`ClientError::Transport`]; a sign-in the server asks for happens on the way, see
/// [`Endpoint::send`]).
pub async fn send(
    endpoint: &Endpoint,
    request: &HttpRequest,
    signal: Option<&AbortSignal>,
) -> Result<RawResponse, ClientError> {
    endpoint.send(request, signal).await
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
                    let bytes = body.read_to_end(crate::transport::JSON_BODY_LIMIT).await?;
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

fn sse(err: mcp_elicit::sse::SseError) -> ClientError {
    ClientError::Driver(DriverError::Sse(err))
}
