//! Incremental Server-Sent Events decoder (the WHATWG `text/event-stream`
//! parsing rules), bytes in, events out.
//!
//! A network body arrives in chunks split anywhere: inside a multi-byte UTF-8
//! character, or between the `\r` and `\n` of a CRLF. The decoder therefore
//! buffers *bytes* up to a line end and only decodes complete lines; because
//! `\r` and `\n` are ASCII they never occur inside a multi-byte character, so
//! splitting on them first is always safe. A lone `\r` at the end of a chunk
//! ends its line, and a `\n` starting the next chunk is then swallowed as the
//! second half of that CRLF.
//!
//! Memory is bounded: a line, or one event's accumulated data, longer than
//! [`SseDecoder::with_limit`]'s limit (default [`DEFAULT_LIMIT`]) is a clear
//! error instead of unbounded growth against a server that never ends a line.
//! The last event id is kept only when it can be sent back (at most
//! [`MAX_EVENT_ID_LEN`] bytes, see [`resume_token`]), and the events of a
//! stream share that one copy, so an event costs memory in proportion to its
//! own lines, whatever id came before it. [`SseDecoder::feed_each`] hands
//! events over one at a time, for callers that keep only some of them.
//!
//! ```
//! use mcp_elicit::sse::SseDecoder;
//! let mut d = SseDecoder::new();
//! let mut events = d.feed(b"event: message\r\ndata: {\"a\"").unwrap();
//! events.extend(d.feed(b":1}\r\n\r\n").unwrap());
//! assert_eq!(events[0].data, "{\"a\":1}");
//! ```

use std::fmt;
use std::sync::Arc;

/// Default bound on one line and on one event's data: 16 MiB.
pub const DEFAULT_LIMIT: usize = 16 * 1024 * 1024;

/// The longest event id kept, in bytes: 1 KiB. An id is only worth keeping to
/// send back as `Last-Event-ID`, and servers use short ones (the SDK's are a
/// stream id and a counter, under 100 bytes); a longer one is treated like any
/// other unusable id: "no id", so a reconnection sends no `Last-Event-ID`.
/// Without this cap a server could make the client hold (and send back) a
/// 16 MiB header.
pub const MAX_EVENT_ID_LEN: usize = 1024;

/// `id` when it can be sent back as `Last-Event-ID` to resume a stream, else
/// `None` (then the stream cannot be resumed from it).
///
/// The id must reach the server exactly as the server wrote it, so only these
/// are tokens: non-empty, at most [`MAX_EVENT_ID_LEN`] bytes; printable ASCII
/// (`!` to `~`) with spaces or tabs only between other characters. Why each rule:
/// - an empty id means "no id" (WHATWG), nothing to resume from;
/// - a longer id than the cap is no id a real server sends, and holding it
///   costs memory a server chooses;
/// - a character above U+00FF makes `fetch` throw (header values are byte
///   strings), and one in U+0080..=U+00FF is sent as a single Latin-1 byte,
///   not the server's UTF-8 bytes, so the server would get a different id
///   (undecodable bytes already became U+FFFD);
/// - CR, LF and NUL make `fetch` throw;
/// - a leading or trailing space or tab is stripped by `fetch`: again a
///   different id;
/// - other control characters are refused by strict HTTP servers (RFC 9110
///   field values; the SDK's uvicorn/h11 answers 400).
///
/// Every token is also a [`crate::driver::http::is_header_value`].
pub fn resume_token(id: &str) -> Option<&str> {
    let bytes = id.as_bytes();
    if bytes.len() > MAX_EVENT_ID_LEN {
        return None;
    }
    let edge_ok = |b: Option<&u8>| b.is_some_and(|b| (0x21..=0x7E).contains(b));
    let inner_ok = bytes
        .iter()
        .all(|&b| (0x21..=0x7E).contains(&b) || b == b' ' || b == b'\t');
    (inner_ok && edge_ok(bytes.first()) && edge_ok(bytes.last())).then_some(id)
}

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, `"message"` when absent.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The stream's last event id so far, when it is a [`resume_token`]: it
    /// persists across events; an empty `id` field, or one that is not a
    /// token, resets it to `None`. Shared by every event that carries it.
    pub id: Option<Arc<str>>,
    /// A `retry` (milliseconds) given within this event, if any.
    pub retry: Option<u64>,
}

/// Why decoding stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseError {
    /// A line or an event grew beyond the limit.
    TooLong { limit: usize },
    /// The stream ended in the middle of a line or an event.
    Truncated,
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseError::TooLong { limit } => write!(
                f,
                "the server's event stream sent a line or event longer than {limit} bytes; stopped reading it"
            ),
            SseError::Truncated => f.write_str("the server's event stream ended in the middle of an event"),
        }
    }
}

impl std::error::Error for SseError {}

/// The decoder. Feed it chunks with [`feed`](Self::feed); call
/// [`finish`](Self::finish) at the end of the body.
#[derive(Debug, Clone)]
pub struct SseDecoder {
    limit: usize,
    /// Bytes of the current, unterminated line.
    line: Vec<u8>,
    /// The previous chunk ended with `\r`: a leading `\n` belongs to it.
    after_cr: bool,
    /// At the very start of the stream a UTF-8 BOM is skipped.
    at_start: bool,
    /// Set once the stream is poisoned by an error.
    failed: Option<SseError>,
    event: String,
    data: String,
    has_data: bool,
    retry: Option<u64>,
    last_retry: Option<u64>,
    last_id: Option<Arc<str>>,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::with_limit(DEFAULT_LIMIT)
    }

    /// A decoder that refuses lines and events longer than `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        SseDecoder {
            limit,
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            failed: None,
            event: String::new(),
            data: String::new(),
            has_data: false,
            retry: None,
            last_retry: None,
            last_id: None,
        }
    }

    /// The stream's last event id: `None` before any `id` field, and after one
    /// with an empty value (which resets it, as the standard says) or one that
    /// is not a [`resume_token`] (which this decoder does not keep). So it is
    /// always a token, ready to send as `Last-Event-ID`.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// The reconnection delay the server last asked for, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.last_retry
    }

    /// Decodes one chunk; returns the events it completed.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        self.feed_each(chunk, |e| out.push(e))?;
        Ok(out)
    }

    /// Decodes one chunk, handing each completed event to `on_event` as soon as
    /// it is complete: a caller that keeps only some events never holds the
    /// others. On an error the events before it have been handed over.
    pub fn feed_each(
        &mut self,
        mut chunk: &[u8],
        mut on_event: impl FnMut(SseEvent),
    ) -> Result<(), SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while let Some(pos) = chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
            let (head, tail) = chunk.split_at(pos);
            self.push_bytes(head)?;
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut on_event)?;
            // `tail` starts with the terminator; a CR may be followed by LF.
            let is_cr = tail.first() == Some(&b'\r');
            chunk = tail.get(1..).unwrap_or(&[]);
            if is_cr {
                if chunk.is_empty() {
                    self.after_cr = true;
                } else if let Some(rest) = chunk.strip_prefix(b"\n") {
                    chunk = rest;
                }
            }
        }
        self.push_bytes(chunk)
    }

    /// Ends the stream. Per the standard an unfinished event is discarded;
    /// this says so, so the caller can tell the user the stream was cut.
    pub fn finish(&mut self) -> Result<(), SseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let pending = !self.line.is_empty() || self.has_data;
        self.line.clear();
        self.reset_event();
        if pending {
            Err(SseError::Truncated)
        } else {
            Ok(())
        }
    }

    fn fail(&mut self, e: SseError) -> SseError {
        self.failed = Some(e.clone());
        self.line.clear();
        self.reset_event();
        e
    }

    fn push_bytes(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        if self.line.len().saturating_add(bytes.len()) > self.limit {
            return Err(self.fail(SseError::TooLong { limit: self.limit }));
        }
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn reset_event(&mut self) {
        self.event.clear();
        self.data.clear();
        self.has_data = false;
        self.retry = None;
    }

    fn process_line(
        &mut self,
        raw: &[u8],
        on_event: &mut impl FnMut(SseEvent),
    ) -> Result<(), SseError> {
        let mut bytes = raw;
        if self.at_start {
            self.at_start = false;
            if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
                bytes = rest;
            }
        }
        if bytes.is_empty() {
            self.dispatch(on_event);
            return Ok(());
        }
        let line = String::from_utf8_lossy(bytes);
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => {
                self.event.clear();
                self.event.push_str(value);
            }
            "data" => {
                let extra = value.len() + usize::from(self.has_data);
                if self.data.len().saturating_add(extra) > self.limit {
                    return Err(self.fail(SseError::TooLong { limit: self.limit }));
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            // WHATWG: a NUL makes the field ignored; an empty value resets the
            // last event id (a reconnection then sends no `Last-Event-ID`), and
            // so does an id that cannot be sent back: resuming from an older id
            // instead would replay events already delivered.
            "id" if !value.contains('\0') => {
                self.last_id = resume_token(value).map(Arc::from);
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse() {
                    self.retry = Some(ms);
                    self.last_retry = Some(ms);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self, on_event: &mut impl FnMut(SseEvent)) {
        if self.has_data {
            let event = if self.event.is_empty() {
                "message".to_string()
            } else {
                std::mem::take(&mut self.event)
            };
            on_event(SseEvent {
                event,
                data: std::mem::take(&mut self.data),
                id: self.last_id.clone(),
                retry: self.retry,
            });
        }
        self.reset_event();
    }
}
