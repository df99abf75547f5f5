//! Progress of our calls (`notifications/progress`), both eras, as a book of the tokens
//! this client sent. No IO: the caller feeds every message text its streams carry to
//! [`ProgressBook::on_message`] (the drivers themselves ignore notifications), and shows
//! what [`ProgressBook::take`] hands back, at its own pace (the browser: once a frame).
//!
//! ```text
//!   start() ─▶ token                   put it in the call's params._meta.progressToken
//!                                      (LegacySession::call_tracked, ModernCall::with_progress_token)
//!   on_message(text) ─▶ Some(token)    news for that call (a sane notification for a token
//!                                      of ours); None: not progress, not ours, or not sane
//!   take(token) ─▶ Some(Progress)      the latest news, once (everything since the last
//!                                      take is coalesced into it)
//!   finish(token)                      the call ended: later notifications are ignored
//! ```
//!
//! A server's numbers are made harmless, never trusted:
//! - `progress` that is not a finite number, or is negative: the notification is ignored;
//! - `progress` below the last accepted one (the spec says it MUST increase): ignored;
//!   an equal one is kept (it may carry a new message);
//! - `total` that is not a finite number, is not positive, or is below `progress`: dropped,
//!   the update has no total (the page shows an indeterminate bar);
//! - `message`: trimmed, control characters dropped, cut to [`MAX_PROGRESS_MESSAGE_CHARS`]
//!   characters (then ending `…`); an empty one is none;
//! - a token we never sent (or of a finished call): ignored;
//! - any number of notifications: each call keeps one update (the latest), so memory stays
//!   the same however many arrive, and the page redraws at most once a frame.
//!
//! ```
//! use mcp_elicit::driver::progress::{Progress, ProgressBook};
//!
//! let mut book = ProgressBook::new();
//! let token = book.start();
//! let note = format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress",
//!     "params":{{"progressToken":"{token}","progress":1,"total":4,"message":"one"}}}}"#);
//! assert_eq!(book.on_message(&note).as_deref(), Some(token.as_str()));
//! let update = book.take(&token).unwrap();
//! assert_eq!(update, Progress { progress: 1.0, total: Some(4.0), message: Some("one".into()) });
//! assert_eq!(book.take(&token), None); // nothing new since
//! book.finish(&token);
//! assert_eq!(book.on_message(&note), None);
//! ```

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

/// `notifications/progress`.
pub const PROGRESS: &str = "notifications/progress";

/// The most characters of a progress message kept to show: a line for a person, when a
/// server may send megabytes.
pub const MAX_PROGRESS_MESSAGE_CHARS: usize = 200;

/// Every token this client writes starts so (then the call's number).
const TOKEN_PREFIX: &str = "mcp-elicit-progress-";

/// One update of a call's progress, as made harmless by [`ProgressBook::on_message`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    /// Finite, not negative, never below an earlier update's.
    pub progress: f64,
    /// Finite, positive and not below `progress`; `None` when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// The server's words, as text, cut to [`MAX_PROGRESS_MESSAGE_CHARS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Default)]
struct Track {
    /// The last accepted progress, the floor for the next.
    floor: Option<f64>,
    /// The latest update not yet taken.
    news: Option<Progress>,
}

/// The progress tokens of the calls in flight, and each one's latest update.
#[derive(Debug, Default)]
pub struct ProgressBook {
    next: u64,
    calls: HashMap<String, Track>,
}

impl ProgressBook {
    pub fn new() -> Self {
        Self::default()
    }

    /// A fresh token for a call about to be made (unique in this book).
    pub fn start(&mut self) -> String {
        self.next = self.next.saturating_add(1);
        let token = format!("{TOKEN_PREFIX}{}", self.next);
        self.calls.insert(token.clone(), Track::default());
        token
    }

    /// Follows `token`, one the caller made unique itself (a page-wide call number: calls
    /// of several books may share a session, and each must see only its own progress).
    pub fn follow(&mut self, token: String) {
        self.calls.entry(token).or_default();
    }

    /// The call of `token` ended: it is forgotten, with any update not taken.
    pub fn finish(&mut self, token: &str) {
        self.calls.remove(token);
    }

    /// How many calls are followed.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// Whether no call is followed.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// Reads one message text from any stream; returns the token whose call has news when
    /// it is a sane `notifications/progress` for a call of ours (see the module docs).
    pub fn on_message(&mut self, text: &str) -> Option<String> {
        // Most messages are not progress: skip the second parse for them.
        if !text.contains(PROGRESS) {
            return None;
        }
        // Read as a `Value`, whose reader the client links anyway: derived readers for the
        // envelope and its params were about 9 KB of McpClient's wasm (raw).
        let note: Value = serde_json::from_str(text).ok()?;
        if note.get("method")?.as_str()? != PROGRESS {
            return None;
        }
        let params = note.get("params")?;
        let token = params.get("progressToken")?.as_str()?;
        let track = self.calls.get_mut(token)?;
        let number = |name: &str| params.get(name).and_then(Value::as_f64);
        let progress = number("progress").filter(|p| p.is_finite() && *p >= 0.0)?;
        if track.floor.is_some_and(|floor| progress < floor) {
            return None;
        }
        let total = number("total").filter(|t| t.is_finite() && *t > 0.0 && *t >= progress);
        let message = params
            .get("message")
            .and_then(Value::as_str)
            .and_then(clean_message);
        track.floor = Some(progress);
        track.news = Some(Progress {
            progress,
            total,
            message,
        });
        Some(token.to_owned())
    }

    /// The latest update of `token`'s call since the last take, if any.
    pub fn take(&mut self, token: &str) -> Option<Progress> {
        self.calls.get_mut(token)?.news.take()
    }
}

/// `message` as a line to show: trimmed, without control characters, cut; none if empty.
fn clean_message(message: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = message.trim().chars().filter(|c| !c.is_control());
    for c in chars.by_ref().take(MAX_PROGRESS_MESSAGE_CHARS) {
        out.push(c);
    }
    if chars.next().is_some() {
        out.truncate(out.trim_end().len());
        out.push('…');
    }
    (!out.is_empty()).then_some(out)
}
