//! Which era to speak: the host's choice ([`ProtocolChoice`]) and the server's answers in,
//! the next thing to do out. [`Negotiation`] is the whole policy, the way the SDK's
//! auto-negotiating client makes it (`mcp/client/_probe.py`, `negotiate_auto`); the IO
//! layer only sends what it is told, bounds the probe by the time it is given, and
//! reports what happened.
//!
//! ```text
//!   Negotiation::new(choice, ..).start()
//!     ─▶ Probe{request, timeout_ms}   POST the server/discover probe, at most timeout_ms;
//!                                     on_probe_answer(status, content_type, body) with the
//!                                     whole answer, or on_probe_timeout() (abort it)
//!     ─▶ Handshake                    run the legacy handshake; done if it succeeds, else
//!                                     on_handshake_failure(error)
//!     ─▶ Modern{version, discover}    done: speak the modern era
//!     ─▶ Refused(NotModern)           done: the host asked for the modern era only, and
//!                                     the server does not offer it (what it answered,
//!                                     and which handshake version it evidently speaks)
//!     ─▶ Failed(error)                done: the connect fails with error
//! ```
//!
//! A network failure (no HTTP answer at all, CORS) is no fact about the era: the caller
//! reports it and stops, as the SDK does. A negotiation sends at most two probes and one
//! handshake, so the caller's loop ends.
//!
//! # The probe
//!
//! The client probes `server/discover` at the newest modern version (a modern request:
//! `_meta` envelope, `MCP-Protocol-Version` and `Mcp-Method` headers). The policy is a
//! *denylist*: anything that is not positive evidence of a modern server falls back to
//! the legacy handshake, except -32022 (unsupported version) whose `data.supported` lists
//! only modern versions none of which we speak. That is a real incompatibility, and
//! falling back would only fail later with a worse message. In detail ([`decide`]):
//!
//! | first answer                                              | decision |
//! |-----------------------------------------------------------|----------|
//! | a `DiscoverResult` naming a modern version we speak        | Modern   |
//! | a `DiscoverResult` naming none / an unparseable result     | Legacy   |
//! | -32022 naming a modern version we speak (the probed one too)  | Reprobe at it (once) |
//! | -32022 naming only modern versions we don't speak          | Incompatible |
//! | -32022 naming handshake versions, or without a usable list | Legacy   |
//! | any other JSON-RPC error (-32601, -32600, -32602, ...)     | Legacy   |
//! | HTTP 401 or 403 (authorization needed, or not enough)    | Unauthorized: fails |
//! | an HTTP error status without a JSON-RPC body (404, 400, 405, 500, ...) | Legacy |
//! | a 2xx without an answer (e.g. 202)                         | Legacy   |
//! | no answer within [`DISCOVER_TIMEOUT_MS`]                   | Legacy   |
//!
//! A 401 or 403 says nothing about the era: the server wants a credential before it says
//! anything else, and the handshake would meet the same status. An IO layer that can sign
//! in does so on such an answer and probes again; the machine only sees it when nobody
//! could, and then the connect fails in words about authorization, not about the era.
//!
//! The reprobe is made once (SEP-2575: retry with a version from `supported`). A -32022
//! naming the probed version is a server contradicting itself, often for a moment (a
//! rolling deploy, a replica behind a balancer); the conformance suite's
//! `request-metadata` scenario answers a client's first request so. The answer to the
//! reprobe ([`Attempt::Reprobe`]) never asks for another: a -32022 there decides by its
//! list as if no version in it were ours to retry (only modern versions: Incompatible;
//! handshake versions too, or none: Legacy).
//!
//! # The choice
//!
//! | choice | Modern | Incompatible | Legacy |
//! |--------|--------|--------------|--------|
//! | [`Auto`](ProtocolChoice::Auto) | modern | fails | the handshake |
//! | [`Modern`](ProtocolChoice::Modern) | modern | fails | refused, in words |
//! | [`Legacy`](ProtocolChoice::Legacy) | (no probe: the handshake at once) | | |
//!
//! In Auto mode, if the legacy `initialize` is itself refused with -32022 naming a modern
//! version we speak, the probe's verdict was wrong (a transient failure, say): the server
//! is probed once more, as the SDK does, and unless that answer is positive modern
//! evidence the connect fails with the handshake's refusal.

use super::http::{messages_from_body, HttpRequest};
use super::modern::{simple_request, ModernConfig};
use super::DriverError;
use crate::wire::meta::{
    HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS,
};
use crate::wire::{
    codes, from_raw, parse_message, ClientCapabilities, DiscoverResult, ErrorObject,
    Implementation, Incoming, RequestId,
};

/// The probe's method.
pub const DISCOVER: &str = "server/discover";

/// How long the caller lets one `server/discover` probe take, from sending it to the end of
/// its answer (the SDK's `DISCOVER_TIMEOUT_SECONDS`). A server that holds the probe open is
/// taken for one that does not speak the modern era ([`Negotiation::on_probe_timeout`]),
/// rather than leaving the connect hanging: past it the caller aborts the probe and the
/// negotiation goes on as for a legacy server.
pub const DISCOVER_TIMEOUT_MS: u32 = 10_000;

/// Which protocol era the host lets a connection speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Try 2026-07-28 (`server/discover`), fall back to the 2025-11-25 handshake the way
    /// the SDK's auto-negotiating client does.
    Auto,
    /// 2026-07-28 only: a server that does not offer it is refused.
    Modern,
    /// The 2025-11-25 handshake, without a probe.
    Legacy,
}

impl ProtocolChoice {
    /// Parses `auto`, `2026-07-28` or `2025-11-25` (also `modern` / `legacy`; blank is
    /// `auto`).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "" | "auto" => Some(ProtocolChoice::Auto),
            "2026-07-28" | "modern" => Some(ProtocolChoice::Modern),
            "2025-11-25" | "legacy" => Some(ProtocolChoice::Legacy),
            _ => None,
        }
    }
}

/// The verdict on one probe's answer ([`decide`]).
#[derive(Debug, Clone, PartialEq)]
pub enum EraDecision {
    /// Use the modern era at `version`.
    Modern {
        version: String,
        discover: DiscoverResult,
    },
    /// Use the legacy handshake. `reason` says what the server answered, for the status line.
    /// `handshake`: the handshake version the answer shows the server speaks (see
    /// [`NotModern::handshake`]), or `None` when it shows nothing of the kind.
    Legacy {
        reason: ProbeAnswer,
        handshake: Option<String>,
    },
    /// Probe once more at `version` (a mutual modern version the server named); that
    /// answer is the [`Attempt::Reprobe`].
    Reprobe { version: String },
    /// The server speaks only modern versions this client does not.
    Incompatible(DriverError),
}

/// Why a modern-only connection ([`ProtocolChoice::Modern`]) was refused: the facts, for
/// the IO layer to put in words for the person (and offer Auto). Its `Display` is the
/// plain sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotModern {
    /// What the server answered the probe (its `Display` words it, e.g. "the server
    /// answered server/discover at 2026-07-28 with: Bad Request: Server not initialized
    /// (error -32000)").
    pub answer: ProbeAnswer,
    /// The handshake-era version the server evidently speaks: the newest one it named (in a
    /// `DiscoverResult` or a -32022's `supported`), else the newest this client speaks
    /// (2025-11-25) when it refused the probe the way a handshake-era server refuses a
    /// request outside a session (a JSON-RPC error, an HTTP error status). `None` when its
    /// answer says nothing of the kind (no answer in time, nothing, something unreadable):
    /// Auto may still find out.
    pub handshake: Option<String>,
}

impl std::fmt::Display for NotModern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "The server does not offer protocol version {MODERN_PROTOCOL_VERSION}: {}.",
            self.answer
        )
    }
}

/// What the server answered a probe that found no modern server: the facts, for the IO
/// layer to word in the person's language. Its `Display` is the English phrase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeAnswer {
    /// No answer within `seconds`.
    TimedOut { seconds: u32 },
    /// A 2xx response that held no answer to the probe.
    Nothing,
    /// An answer this client could not read: what it could not, in the core's words.
    Unreadable(String),
    /// A JSON-RPC error (the server's `message` and `code`) to the probe at `version`.
    Error {
        version: String,
        message: String,
        code: i64,
    },
    /// A discover result naming only these versions (none this client speaks).
    Only(Vec<String>),
    /// An HTTP error status without a JSON-RPC error in the body.
    Status(u16),
}

impl std::fmt::Display for ProbeAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeAnswer::TimedOut { seconds } => write!(
                f,
                "the server did not answer {DISCOVER} within {seconds} seconds"
            ),
            ProbeAnswer::Nothing => write!(f, "the server did not answer {DISCOVER}"),
            ProbeAnswer::Unreadable(what) => f.write_str(what),
            ProbeAnswer::Error {
                version,
                message,
                code,
            } => write!(
                f,
                "the server answered {DISCOVER} at {version} with: {message} (error {code})"
            ),
            ProbeAnswer::Only(versions) => {
                write!(f, "the server supports only {}", versions.join(", "))
            }
            ProbeAnswer::Status(status) => write!(
                f,
                "the server answered {DISCOVER} with HTTP status {status}"
            ),
        }
    }
}

/// The newest handshake version in `named`, if any.
fn newest_handshake(named: &[String]) -> Option<String> {
    HANDSHAKE_PROTOCOL_VERSIONS
        .iter()
        .rev()
        .find(|v| named.iter().any(|n| n == *v))
        .map(|v| (*v).to_owned())
}

/// The version a server that refused the probe without naming any is taken to speak.
fn assumed_handshake() -> Option<String> {
    HANDSHAKE_PROTOCOL_VERSIONS.last().map(|v| (*v).to_owned())
}

/// Which probe an answer is to: the first may ask for a reprobe, the reprobe may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    First,
    Reprobe,
}

/// The probe an answer is to: the context [`decide`] reads the answer in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeContext {
    /// The version probed (`MCP-Protocol-Version`, and `_meta`'s).
    pub version: String,
    /// The probe's JSON-RPC id: only the answer with it (or an error without an id) decides.
    pub id: RequestId,
    pub attempt: Attempt,
}

impl ProbeContext {
    /// The first probe, at `version`, with id 0.
    pub fn first(version: &str) -> Self {
        ProbeContext {
            version: version.to_owned(),
            id: RequestId::Number(0),
            attempt: Attempt::First,
        }
    }

    /// The reprobe at `version`, with id 0.
    pub fn reprobe(version: &str) -> Self {
        ProbeContext {
            attempt: Attempt::Reprobe,
            ..ProbeContext::first(version)
        }
    }
}

/// What to do next ([`Negotiation`]'s steps).
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum EraStep {
    /// POST `request` (a `server/discover` probe) and read its whole answer (it is small),
    /// for at most `timeout_ms`; then [`Negotiation::on_probe_answer`], or
    /// [`Negotiation::on_probe_timeout`] once the time is up (abort the probe).
    Probe {
        request: HttpRequest,
        timeout_ms: u32,
    },
    /// Run the legacy handshake. Its success ends the negotiation (legacy); report a
    /// failure the session machine classified with [`Negotiation::on_handshake_failure`].
    Handshake,
    /// Done: speak the modern era at `version`. `discover` is the server's answer (its
    /// `serverInfo` names who is asking).
    Modern {
        version: String,
        discover: DiscoverResult,
    },
    /// Done: the host allowed the modern era only, and the server does not offer it: what
    /// it answered, and which handshake version it evidently speaks.
    Refused(NotModern),
    /// Done: the connect fails with this error.
    Failed(DriverError),
}

/// Where a [`Negotiation`] stands; each stage holds what it needs.
#[derive(Debug, Clone, PartialEq)]
enum Stage {
    /// Nothing sent yet.
    New,
    /// A probe is out.
    Probing(ProbeContext),
    /// The legacy handshake runs; `may_reprobe`: a -32022 naming a modern version we speak
    /// sends us back to probe (Auto mode, once).
    Handshaking { may_reprobe: bool },
    /// The probe after a refused handshake is out; unless it finds a modern server, the
    /// connect fails with `refusal`.
    Rechecking {
        probe: ProbeContext,
        refusal: DriverError,
    },
    /// A final step was given.
    Done,
}

/// One connect's era negotiation: see the module docs for the steps and the policy.
///
/// ```
/// use mcp_elicit::driver::era::{EraStep, Negotiation, ProtocolChoice};
/// use mcp_elicit::wire::{ClientCapabilities, Implementation};
///
/// let mut era = Negotiation::new(
///     ProtocolChoice::Auto,
///     Implementation::this_client(),
///     ClientCapabilities::for_host(false),
/// );
/// let EraStep::Probe { request, timeout_ms } = era.start() else { panic!() };
/// assert_eq!(request.header("Mcp-Method"), Some("server/discover"));
/// # let _ = timeout_ms;
/// // A legacy server: 404 to the probe.
/// let step = era.on_probe_answer(404, Some("text/plain"), b"Not Found");
/// assert_eq!(step, EraStep::Handshake);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Negotiation {
    choice: ProtocolChoice,
    client_info: Implementation,
    capabilities: ClientCapabilities,
    stage: Stage,
}

impl Negotiation {
    /// A negotiation for `choice`; the probes introduce the client as `client_info` with
    /// `capabilities`.
    pub fn new(
        choice: ProtocolChoice,
        client_info: Implementation,
        capabilities: ClientCapabilities,
    ) -> Self {
        Negotiation {
            choice,
            client_info,
            capabilities,
            stage: Stage::New,
        }
    }

    /// The first step.
    pub fn start(&mut self) -> EraStep {
        if self.stage != Stage::New {
            return self.usage("start", "the negotiation has started already");
        }
        match self.choice {
            ProtocolChoice::Legacy => self.handshake(false),
            ProtocolChoice::Modern | ProtocolChoice::Auto => {
                self.probe(ProbeContext::first(MODERN_PROTOCOL_VERSION), None)
            }
        }
    }

    /// The whole HTTP answer to the probe: status, `Content-Type` and body.
    pub fn on_probe_answer(
        &mut self,
        status: u16,
        content_type: Option<&str>,
        body: &[u8],
    ) -> EraStep {
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Probing(probe) => {
                let decision = decide(&probe, status, content_type, body);
                self.after_probe(decision)
            }
            Stage::Rechecking { probe, refusal } => {
                match decide(&probe, status, content_type, body) {
                    EraDecision::Modern { version, discover } => {
                        EraStep::Modern { version, discover }
                    }
                    _ => EraStep::Failed(refusal),
                }
            }
            stage => {
                self.stage = stage;
                self.usage("on_probe_answer", "no probe is out")
            }
        }
    }

    /// No answer to the probe within [`DISCOVER_TIMEOUT_MS`] (the caller aborted it).
    pub fn on_probe_timeout(&mut self) -> EraStep {
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Probing(_) => self.after_probe(EraDecision::Legacy {
                reason: ProbeAnswer::TimedOut {
                    seconds: DISCOVER_TIMEOUT_MS / 1000,
                },
                handshake: None,
            }),
            Stage::Rechecking { refusal, .. } => EraStep::Failed(refusal),
            stage => {
                self.stage = stage;
                self.usage("on_probe_timeout", "no probe is out")
            }
        }
    }

    /// The legacy handshake failed with `error` (the session machine's classification).
    /// In Auto mode a -32022 naming a modern version we speak is modern evidence after all:
    /// probe once more; otherwise the connect fails with `error`.
    pub fn on_handshake_failure(&mut self, error: DriverError) -> EraStep {
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Handshaking { may_reprobe: true } => match mutual_modern_in(&error) {
                Some(version) => {
                    let probe = ProbeContext::reprobe(version);
                    self.probe(probe, Some(error))
                }
                None => EraStep::Failed(error),
            },
            Stage::Handshaking { may_reprobe: false } => EraStep::Failed(error),
            stage => {
                self.stage = stage;
                self.usage("on_handshake_failure", "no handshake runs")
            }
        }
    }

    /// What the verdict on a probe (not the one after a refused handshake) leads to.
    fn after_probe(&mut self, decision: EraDecision) -> EraStep {
        match decision {
            EraDecision::Modern { version, discover } => EraStep::Modern { version, discover },
            EraDecision::Incompatible(error) => EraStep::Failed(error),
            EraDecision::Reprobe { version } => self.probe(ProbeContext::reprobe(&version), None),
            EraDecision::Legacy { reason, handshake } => match self.choice {
                ProtocolChoice::Modern => EraStep::Refused(NotModern {
                    answer: reason,
                    handshake,
                }),
                ProtocolChoice::Auto | ProtocolChoice::Legacy => self.handshake(true),
            },
        }
    }

    fn handshake(&mut self, may_reprobe: bool) -> EraStep {
        self.stage = Stage::Handshaking { may_reprobe };
        EraStep::Handshake
    }

    /// Sends `probe`; `refusal`: the handshake refusal it rechecks, if it does.
    fn probe(&mut self, probe: ProbeContext, refusal: Option<DriverError>) -> EraStep {
        let request = discover_request(
            &probe.id,
            &probe.version,
            &self.client_info,
            &self.capabilities,
        );
        match request {
            Ok(request) => {
                self.stage = match refusal {
                    Some(refusal) => Stage::Rechecking { probe, refusal },
                    None => Stage::Probing(probe),
                };
                EraStep::Probe {
                    request,
                    timeout_ms: DISCOVER_TIMEOUT_MS,
                }
            }
            Err(error) => {
                self.stage = Stage::Done;
                EraStep::Failed(error)
            }
        }
    }

    /// A call out of order: it fails the negotiation, in words.
    fn usage(&mut self, call: &str, why: &str) -> EraStep {
        self.stage = Stage::Done;
        EraStep::Failed(DriverError::Usage(format!(
            "era negotiation: {call}: {why}"
        )))
    }
}

/// The `server/discover` probe at `version`: a modern one-shot request whose params are
/// only the `_meta` envelope.
pub fn discover_request(
    id: &RequestId,
    version: &str,
    client_info: &Implementation,
    capabilities: &ClientCapabilities,
) -> Result<HttpRequest, DriverError> {
    let config = ModernConfig {
        client_info: client_info.clone(),
        capabilities: capabilities.clone(),
        protocol_version: version.to_owned(),
        ..ModernConfig::default()
    };
    simple_request(&config, id, DISCOVER, None)
}

/// The mutual modern version in a -32022's `data.supported`, newest first.
fn mutual_modern(supported: &[String]) -> Option<&'static str> {
    MODERN_PROTOCOL_VERSIONS
        .iter()
        .rev()
        .find(|v| supported.iter().any(|s| s == *v))
        .copied()
}

/// The mutual modern version a handshake refusal names (a -32022 the session machine
/// classified keeps its `supported` list).
fn mutual_modern_in(error: &DriverError) -> Option<&'static str> {
    match error {
        DriverError::UnsupportedVersion { supported, .. } => mutual_modern(supported),
        _ => None,
    }
}

fn supported_list(error: &ErrorObject) -> Option<Vec<String>> {
    let supported = error.data.as_ref()?.get("supported")?;
    serde_json::from_value(supported.clone()).ok()
}

/// The verdict on the whole HTTP answer to `probe`: status, `Content-Type` and body (the
/// table in the module docs).
pub fn decide(
    probe: &ProbeContext,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    if !(200..300).contains(&status) {
        return decide_http_failure_at(probe.attempt, &probe.version, status, content_type, body);
    }
    match messages_from_body(content_type, body) {
        Ok(texts) => texts
            .iter()
            .find_map(|t| decide_message_at(probe.attempt, &probe.version, &probe.id, t))
            .unwrap_or_else(|| EraDecision::Legacy {
                reason: ProbeAnswer::Nothing,
                handshake: None,
            }),
        Err(e) => EraDecision::Legacy {
            reason: ProbeAnswer::Unreadable(e.to_string()),
            handshake: None,
        },
    }
}

/// [`decide`] for one message of the first probe's response, for a caller that reads the
/// stream message by message. `None`: not the answer (a notification, say); keep reading.
pub fn decide_from_message(probed: &str, id: &RequestId, text: &str) -> Option<EraDecision> {
    decide_message_at(Attempt::First, probed, id, text)
}

/// [`decide`] for a non-2xx HTTP answer to the first probe: a JSON-RPC error in the body
/// decides; a bare status falls back.
pub fn decide_from_http_failure(
    probed: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    decide_http_failure_at(Attempt::First, probed, status, content_type, body)
}

fn decide_error_at(attempt: Attempt, probed: &str, error: ErrorObject) -> EraDecision {
    if error.code == codes::UNSUPPORTED_PROTOCOL_VERSION {
        let supported = supported_list(&error);
        if let Some(v) = supported.as_deref().and_then(mutual_modern) {
            if attempt == Attempt::First {
                return EraDecision::Reprobe {
                    version: v.to_string(),
                };
            }
        }
        if let Some(list) = &supported {
            if !list
                .iter()
                .any(|v| HANDSHAKE_PROTOCOL_VERSIONS.contains(&v.as_str()))
            {
                return EraDecision::Incompatible(DriverError::from_rpc(error));
            }
            if let Some(named) = newest_handshake(list) {
                return EraDecision::Legacy {
                    reason: refused_with(probed, &error),
                    handshake: Some(named),
                };
            }
        }
    }
    EraDecision::Legacy {
        reason: refused_with(probed, &error),
        handshake: assumed_handshake(),
    }
}

/// "the server answered server/discover at {probed} with: {message} (error {code})".
fn refused_with(probed: &str, error: &ErrorObject) -> ProbeAnswer {
    ProbeAnswer::Error {
        version: probed.to_owned(),
        message: error.message.clone(),
        code: error.code,
    }
}

fn decide_message_at(
    attempt: Attempt,
    probed: &str,
    id: &RequestId,
    text: &str,
) -> Option<EraDecision> {
    match parse_message(text) {
        Ok(Incoming::Response { id: rid, result }) if &rid == id => Some(
            match from_raw::<DiscoverResult>(&result, "discover result") {
                Ok(discover) => match mutual_modern(&discover.supported_versions) {
                    Some(v) => EraDecision::Modern {
                        version: v.to_string(),
                        discover,
                    },
                    None => EraDecision::Legacy {
                        reason: ProbeAnswer::Only(discover.supported_versions.clone()),
                        handshake: newest_handshake(&discover.supported_versions),
                    },
                },
                Err(e) => EraDecision::Legacy {
                    reason: ProbeAnswer::Unreadable(e.to_string()),
                    handshake: None,
                },
            },
        ),
        Ok(Incoming::Error { id: rid, error }) if rid.is_none() || rid.as_ref() == Some(id) => {
            Some(decide_error_at(attempt, probed, error))
        }
        Ok(_) => None,
        Err(e) => Some(EraDecision::Legacy {
            reason: ProbeAnswer::Unreadable(e.to_string()),
            handshake: None,
        }),
    }
}

fn decide_http_failure_at(
    attempt: Attempt,
    probed: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> EraDecision {
    if matches!(status, 401 | 403) {
        return EraDecision::Incompatible(DriverError::Http {
            status,
            body: String::new(),
        });
    }
    if let Ok(texts) = messages_from_body(content_type, body) {
        for text in texts {
            if let Ok(Incoming::Error { error, .. }) = parse_message(&text) {
                return decide_error_at(attempt, probed, error);
            }
        }
    }
    // A handshake-era server refuses a request outside a session, or a method it does
    // not know, with an error status (400, 404, 405, ...).
    EraDecision::Legacy {
        reason: ProbeAnswer::Status(status),
        handshake: assumed_handshake(),
    }
}
