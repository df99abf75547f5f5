//! An SSE response body as a sequence of JSON-RPC messages: bytes from [`ByteStream`]
//! go through the core's incremental decoder ([`mcp_elicit::sse`]), and each complete
//! `message` event is handed on as soon as it is decoded.

use std::collections::VecDeque;

use mcp_elicit::sse::SseDecoder;

use super::body::ByteStream;
use super::error::TransportError;

/// One open SSE stream.
pub struct SseStream {
    body: ByteStream,
    decoder: SseDecoder,
    ready: VecDeque<String>,
    last_event_id: Option<String>,
    retry_ms: Option<u32>,
    ended: bool,
}

impl SseStream {
    /// Decodes `body` as an event stream.
    pub fn new(body: ByteStream) -> Self {
        SseStream {
            body,
            decoder: SseDecoder::new(),
            ready: VecDeque::new(),
            last_event_id: None,
            retry_ms: None,
            ended: false,
        }
    }

    /// The data of the next `message` event (one JSON-RPC message as text), `None` when the
    /// server ended the stream. Events without data (the SDK's priming events, keep-alive
    /// comments) are skipped.
    pub async fn next_message(&mut self) -> Result<Option<String>, TransportError> {
        loop {
            if let Some(message) = self.ready.pop_front() {
                return Ok(Some(message));
            }
            if self.ended {
                return Ok(None);
            }
            match self.body.next_chunk().await? {
                Some(chunk) => {
                    let events =
                        self.decoder
                            .feed(&chunk)
                            .map_err(|err| TransportError::Malformed {
                                detail: format!("the event stream is broken: {err}"),
                            })?;
                    self.take(events);
                }
                None => {
                    self.ended = true;
                    self.decoder
                        .finish()
                        .map_err(|err| TransportError::Dropped {
                            url: self.body.url().to_owned(),
                            detail: err.to_string(),
                        })?;
                }
            }
        }
    }

    /// The `id` of the last event seen, for `Last-Event-ID` when reconnecting.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The reconnect delay the server asked for with `retry:`, if any.
    pub fn retry_ms(&self) -> Option<u32> {
        self.retry_ms
    }

    fn take(&mut self, events: Vec<mcp_elicit::sse::SseEvent>) {
        for event in events {
            if let Some(id) = event.id {
                self.last_event_id = Some(id);
            }
            if let Some(retry) = event.retry {
                self.retry_ms = u32::try_from(retry).ok();
            }
            if event.event == "message" && !event.data.trim().is_empty() {
                self.ready.push_back(event.data);
            }
        }
    }
}
