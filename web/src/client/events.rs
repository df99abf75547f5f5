//! What a session tells the UI, and the errors it reports, in words.

use std::fmt;

use mcp_elicit::driver::era::NotModern;
use mcp_elicit::driver::DriverError;
use mcp_elicit::sse::SseError;
use mcp_elicit::wire::meta::MODERN_PROTOCOL_VERSION;
use mcp_elicit::wire::{ElicitRequestParams, Implementation, WireKind};

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
    /// The answer to the elicitation `id` was not delivered after all, in words: a kept
    /// answer whose resend failed, or that the call made again never asked for. The card
    /// shows `reason` and keeps its answer; Submit resends.
    AnswerFailed { id: String, reason: String },
    /// The elicitation `id` can no longer be answered: the call it belonged to ended (it
    /// failed, or finished without it), or its request was lost and will not be asked
    /// again, or the server withdrew it ([`withdrawn_reason`]). `reason` says so in words.
    /// The card stays as an inert copy of what was typed, showing `reason`, without its
    /// buttons, and no longer counts toward [`MAX_PENDING_CARDS`] (it is the first to go
    /// when the list is full).
    Retired { id: String, reason: String },
    /// The server says the URL-mode elicitation `elicitation_id` is complete.
    Completed { elicitation_id: String },
    /// The call that asked the elicitation `id` has returned its result. An opened URL card
    /// says so instead of waiting for the server: many servers never send
    /// `notifications/elicitation/complete` once their call has its answer. A completion
    /// that comes later still marks it complete.
    CallEnded { id: String },
    /// A line for the connection status (e.g. "session expired; connected again").
    Notice(String),
    /// Who this connection's requests come from: every card shows it (the spec's MUST:
    /// make clear which server is asking). Sent when connecting, again once the server has
    /// named itself.
    Server(ServerIdentity),
    /// The session refused a server request because [`MAX_PENDING_CARDS`] were already
    /// waiting: the person is told that later requests were refused.
    CardsRefused,
}

/// What a card withdrawn by the server says (after "This request can no longer be
/// answered: "): that the server no longer needs the answer, and the server's own reason
/// when it gave one (the core cuts it to a line).
pub fn withdrawn_reason(m: &crate::i18n::Messages, server_reason: Option<&str>) -> String {
    match server_reason.filter(|r| !r.is_empty()) {
        Some(why) => m.t("card.withdrawn_with", &[("reason", why)]),
        None => m.t("card.withdrawn", &[]),
    }
}

/// What a card of a call that failed says (after "This request can no longer be
/// answered: "): the call's error, in words.
pub fn call_failed_reason(m: &crate::i18n::Messages, err: &ClientError) -> String {
    m.t("card.call_failed", &[("reason", &err.words(m))])
}

/// The most elicitation cards one connection shows at once. A person answers a handful at
/// a time; a server sending more is flooding the page (each card is a form with its own
/// controls). Beyond it a new request gets no card: the UI answers it `cancel` (a session
/// may refuse it itself first and send [`ClientEvent::CardsRefused`]), and the list says
/// that later requests were refused. URL cards already answered, which only show their
/// waiting state, make room first.
pub const MAX_PENDING_CARDS: usize = 256;

/// The most characters of a server's name a card shows. A name is a label read at a
/// glance (the SDKs' are a few words); the card repeats it on every request, so a server
/// must not make each card megabytes long through it. Beyond it the name is cut and ends
/// in "…".
pub const MAX_SERVER_NAME_CHARS: usize = 256;

/// The requesting server as a card names it: its `serverInfo` name and the endpoint's host.
/// Server text, shown as text only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerIdentity {
    /// `serverInfo.title`, else `serverInfo.name`; `None` until the server has said (or if
    /// it says nothing usable).
    pub name: Option<String>,
    /// The endpoint URL's host (with its port, if any), as configured by the person or host.
    pub host: String,
}

impl ServerIdentity {
    /// The identity of the server at `url` that introduced itself as `info`.
    pub fn new(info: Option<&Implementation>, url: &str) -> Self {
        let name = info.and_then(|i| {
            [i.title.as_deref(), Some(i.name.as_str())]
                .into_iter()
                .flatten()
                .map(str::trim)
                .find(|n| !n.is_empty())
                .map(cut_name)
        });
        ServerIdentity {
            name,
            host: host_of(url).to_owned(),
        }
    }
}

/// `name`, or its first [`MAX_SERVER_NAME_CHARS`] characters and "…" when it is longer.
fn cut_name(name: &str) -> String {
    match name.char_indices().nth(MAX_SERVER_NAME_CHARS) {
        None => name.to_owned(),
        Some((end, _)) => format!("{}…", name.get(..end).unwrap_or_default()),
    }
}

/// The host (and port) of an absolute URL: between `scheme://` (and any `user@`) and the
/// path, query or fragment. The whole text when it has no `://`.
fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host)
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
    /// The server does not offer what the host asked for.
    Refused(String),
    /// The host allowed the modern era only, and the server does not offer it (the core's
    /// facts: what it answered, which handshake version it speaks). The words say so and
    /// name Auto, which would connect.
    NotModern(NotModern),
    /// The elicitation (by routing id) is not pending (already answered, or from an
    /// earlier call).
    UnknownElicitation(String),
    /// No call or connection is active.
    NotConnected,
    /// The host's sampling handler could not answer the server's `sampling/createMessage`.
    Sampling(String),
    /// Signing in did not give a token: the flow failed (a server refused, a check
    /// failed), or the person cancelled. In words, with no token or code in them.
    SignIn(String),
    /// The server lost the request this answer was for (it restarted). The session has been
    /// renewed and keeps the answer: re-run the call and the same question is answered.
    RequestLost,
}

impl ClientError {
    /// The error in the language of `m`, for the person (a card's reason, an alert). What
    /// the core could not read quotes its English as the detail; a refusal's text is
    /// worded where it is made (docs/i18n.md).
    pub fn words(&self, m: &crate::i18n::Messages) -> String {
        crate::i18n::speak_for_connections();
        match self {
            ClientError::Transport(err) => err.words(m),
            ClientError::TooManyRounds { max_rounds } => m.t(
                "client.too_many_rounds",
                &[("rounds", &m.number(f64::from(*max_rounds)))],
            ),
            ClientError::SignIn(why) => m.t("client.sign_in_failed", &[("reason", why)]),
            ClientError::UnknownElicitation(_) => m.t("client.unknown_elicitation", &[]),
            ClientError::NotConnected => m.t("client.not_connected", &[]),
            ClientError::Sampling(why) => m.t("client.sampling_failed", &[("reason", why)]),
            ClientError::RequestLost => m.t("client.request_lost", &[]),
            ClientError::Driver(err) => driver_words(err, m),
            ClientError::NotModern(facts) => not_modern_words(facts, m),
            ClientError::Refused(what) => what.clone(),
        }
    }
}

/// A driver's error in the person's language (`driver.*`), from the variant and its data;
/// the core's `Display` is the English. What the server said in its own words (a server's
/// message) goes in as it came; what the core could not read or use is said by its
/// [`WireKind`], quoting the core's English sentence as the detail (English's words are
/// that sentence alone).
pub fn driver_words(e: &DriverError, m: &crate::i18n::Messages) -> String {
    use mcp_elicit::driver::{describe_capabilities, server_reason};
    use mcp_elicit::wire::codes;
    let n = |v: usize| m.number(v as f64);
    match e {
        DriverError::Rpc(err) => m.t("driver.rpc", &[("error", &err.to_string())]),
        DriverError::MissingCapability { message, required } => {
            match describe_capabilities(required) {
                Some(caps) => m.t(
                    "driver.missing_capability",
                    &[("capabilities", &caps), ("message", message)],
                ),
                None => m.t("driver.missing_capability_unnamed", &[("message", message)]),
            }
        }
        DriverError::UnsupportedVersion { message, supported } if supported.is_empty() => {
            m.t("driver.unsupported_version_none", &[("message", message)])
        }
        DriverError::UnsupportedVersion { message, supported } => m.t(
            "driver.unsupported_version",
            &[("message", message), ("versions", &supported.join(", "))],
        ),
        DriverError::HeaderMismatch { message } => {
            m.t("driver.header_mismatch", &[("message", message)])
        }
        DriverError::UrlElicitationRequired {
            message,
            elicitations,
            unusable,
        } => {
            let message = server_reason(message, codes::URL_ELICITATION_REQUIRED)
                .unwrap_or_else(|| m.t("driver.no_reason", &[]));
            let message = ("message", message.as_str());
            let pages = elicitations.len() as u64;
            match (pages, *unusable) {
                (0, 0) => m.t("driver.url_required_none", &[message]),
                (0, bad) => m.t(
                    "driver.url_required_unreadable",
                    &[("bad", &n(bad)), message],
                ),
                (_, 0) => m.count("driver.url_required", pages, &[message]),
                (_, bad) => m.count(
                    "driver.url_required_some_unreadable",
                    pages,
                    &[("bad", &n(bad)), message],
                ),
            }
        }
        DriverError::RoundsExceeded { max_rounds } => m.t(
            "driver.rounds_exceeded",
            &[("rounds", &m.number(f64::from(*max_rounds)))],
        ),
        DriverError::SamplingRefused { key } => {
            m.t("driver.sampling_refused", &[("key", &format!("{key:?}"))])
        }
        DriverError::UnsupportedInput { key, method } => m.t(
            "driver.unsupported_input",
            &[
                ("key", &format!("{key:?}")),
                ("method", &format!("{method:?}")),
            ],
        ),
        DriverError::Http { status: 401, .. } => m.t("driver.http_401", &[]),
        DriverError::Http { status: 403, .. } => m.t("driver.http_403", &[]),
        DriverError::Http { status, body } if body.is_empty() => {
            m.t("driver.http", &[("status", &status.to_string())])
        }
        DriverError::Http { status, body } => m.t(
            "driver.http_with",
            &[("status", &status.to_string()), ("body", body)],
        ),
        DriverError::SessionExpired => m.t("driver.session_expired", &[]),
        DriverError::NoResponse => m.t("driver.no_response", &[]),
        // What the core could not read or use: said by its kind, with the core's own
        // English sentence as the technical detail (English's words are that sentence).
        DriverError::Wire(w) | DriverError::BadResult(w) => {
            let key = match w.kind {
                WireKind::Unreadable => "wire.unreadable",
                WireKind::Malformed => "wire.malformed",
                WireKind::Unexpected => "wire.unexpected",
                WireKind::TooLarge => "wire.too_large",
                WireKind::TaskFailed => "wire.task_failed",
                WireKind::Internal => "wire.internal",
            };
            m.t(key, &[("detail", &w.message)])
        }
        DriverError::Sse(SseError::TooLong { limit }) => {
            m.t("wire.sse_too_long", &[("limit", &n(*limit))])
        }
        DriverError::Sse(SseError::Truncated) => m.t("wire.sse_truncated", &[]),
        DriverError::Usage(what) => m.t("driver.usage", &[("detail", what)]),
    }
}

/// [`ClientError::NotModern`] in the person's language (`client.not_modern*`), the
/// server's answer to the probe worded from the core's facts (`probe.*`).
fn not_modern_words(facts: &NotModern, m: &crate::i18n::Messages) -> String {
    let answer = super::host_texts::probe_answer(m, &facts.answer);
    let answer = answer.trim_end_matches('.');
    let modern = ("modern", MODERN_PROTOCOL_VERSION);
    match &facts.handshake {
        Some(version) => m.t(
            "client.not_modern_older",
            &[("version", version), modern, ("answer", answer)],
        ),
        None => m.t("client.not_modern", &[modern, ("answer", answer)]),
    }
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
            ClientError::NotModern(facts) => not_modern(f, facts),
            ClientError::SignIn(why) => write!(f, "Signing in did not work: {why}"),
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

/// A modern-only connection refused: which protocol the server speaks, that Auto would
/// connect (the demo's Protocol choice, `McpClient`'s `protocol: "auto"`), then what the
/// server answered.
fn not_modern(f: &mut fmt::Formatter<'_>, facts: &NotModern) -> fmt::Result {
    // The probe's answer as English's catalog words it, which is the core's `Display`
    // (a test holds them equal): one wording of it in the wasm, not two.
    crate::i18n::speak_for_connections();
    let english = crate::i18n::Messages::default();
    let answer = super::host_texts::probe_answer(&english, &facts.answer);
    let answer = answer.trim_end_matches('.');
    match &facts.handshake {
        Some(version) => write!(
            f,
            "This server speaks MCP {version}, not {MODERN_PROTOCOL_VERSION}, and this \
             connection allows {MODERN_PROTOCOL_VERSION} only. Connect with Auto (protocol \
             \"auto\"), which falls back to {version}. (To the {MODERN_PROTOCOL_VERSION} \
             request, {answer}.)"
        ),
        None => write!(
            f,
            "This server did not answer as an MCP {MODERN_PROTOCOL_VERSION} server does, and \
             this connection allows {MODERN_PROTOCOL_VERSION} only. Connect with Auto \
             (protocol \"auto\") to try the older handshake as well. ({answer}.)"
        ),
    }
}

impl ClientError {
    /// Whether the attempt that failed so never reached a verdict of the server, so sending
    /// the same request again (a modern round with the same answers, a card's answer) may
    /// work: the network, a timeout, and what the core's
    /// [`DriverError::is_resendable`] says of a driver's verdict (a page instead of an
    /// answer, a cut stream, ...). Not a request the browser refused to make, nor one we
    /// cancelled, nor anything the client itself decided.
    ///
    /// A request's stream that ended early is resumed, not resent: `resume::is_resumable_end`.
    pub fn is_resendable(&self) -> bool {
        match self {
            ClientError::Transport(
                TransportError::Unsendable { .. }
                | TransportError::Aborted
                | TransportError::Redirected { .. },
            ) => false,
            ClientError::Transport(_) => true,
            ClientError::Driver(e) => e.is_resendable(),
            _ => false,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, title: Option<&str>) -> Implementation {
        Implementation {
            name: name.into(),
            version: "1".into(),
            title: title.map(str::to_owned),
        }
    }

    #[test]
    fn identity_prefers_the_title_then_the_name() {
        let url = "https://user:pw@Mcp.Example.com:8443/mcp?x=1#f";
        let both = ServerIdentity::new(Some(&info("weather", Some("Weather Co"))), url);
        assert_eq!(both.name.as_deref(), Some("Weather Co"));
        assert_eq!(both.host, "Mcp.Example.com:8443");
        let blank_title = ServerIdentity::new(Some(&info("weather", Some("  "))), url);
        assert_eq!(blank_title.name.as_deref(), Some("weather"));
        let nameless = ServerIdentity::new(Some(&info(" ", None)), url);
        assert_eq!(nameless.name, None);
        assert_eq!(ServerIdentity::new(None, url).name, None);
    }

    #[test]
    fn a_long_name_is_cut_to_the_bound() {
        let url = "http://h/mcp";
        let exact = "é".repeat(MAX_SERVER_NAME_CHARS);
        let kept = ServerIdentity::new(Some(&info(&exact, None)), url);
        assert_eq!(
            kept.name.as_deref(),
            Some(exact.as_str()),
            "at the bound: whole"
        );
        let huge = "é".repeat(4 * 1024 * 1024);
        let cut = ServerIdentity::new(Some(&info(&huge, None)), url);
        let name = cut.name.unwrap_or_default();
        assert_eq!(name.chars().count(), MAX_SERVER_NAME_CHARS + 1);
        assert!(name.ends_with('…'), "{name:?}");
        assert!(name.starts_with(&"é".repeat(MAX_SERVER_NAME_CHARS)));
    }

    #[test]
    fn host_of_urls() {
        assert_eq!(host_of("http://127.0.0.1:8001/mcp"), "127.0.0.1:8001");
        assert_eq!(host_of("http://[::1]:8001"), "[::1]:8001");
        assert_eq!(host_of("https://h?q"), "h");
        assert_eq!(host_of("https://h#f"), "h");
        assert_eq!(host_of("h/x"), "h");
        assert_eq!(host_of(""), "");
    }
}
