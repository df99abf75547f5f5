//! What the host decides about a connection: the endpoint, the era, the round bound, roots,
//! and whether it answers sampling requests.

use std::fmt;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use mcp_elicit::wire::Root;
use serde_json::Value;

/// Which protocol era to speak (`protocol=` in the demo's query string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Try 2026-07-28 (`server/discover`), fall back to the 2025-11-25 handshake the way
    /// the SDK's auto-negotiating client does.
    Auto,
    Modern,
    Legacy,
}

impl ProtocolChoice {
    /// Parses `auto`, `2026-07-28` or `2025-11-25` (also `modern` / `legacy`).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "" | "auto" => Some(ProtocolChoice::Auto),
            "2026-07-28" | "modern" => Some(ProtocolChoice::Modern),
            "2025-11-25" | "legacy" => Some(ProtocolChoice::Legacy),
            _ => None,
        }
    }
}

/// The round bound the SDK's client uses too.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

/// The host's answer to `sampling/createMessage`: given the request's params, a
/// `CreateMessageResult` as JSON, or why not (in words; the call then fails with it). Only a
/// host that has an LLM to ask supplies one; without it sampling is not declared, so the
/// server refuses the call itself (-32021) instead of asking something we cannot answer.
#[derive(Clone)]
pub struct SamplingHandler(Rc<dyn Fn(Value) -> LocalBoxFuture<'static, Result<Value, String>>>);

impl SamplingHandler {
    pub fn new(
        handler: impl Fn(Value) -> LocalBoxFuture<'static, Result<Value, String>> + 'static,
    ) -> Self {
        SamplingHandler(Rc::new(handler))
    }

    /// Asks the host for a completion.
    pub async fn sample(&self, params: Value) -> Result<Value, String> {
        (self.0)(params).await
    }
}

impl fmt::Debug for SamplingHandler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SamplingHandler")
    }
}

#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The MCP endpoint, e.g. `http://127.0.0.1:8000/mcp`.
    pub url: String,
    pub protocol: ProtocolChoice,
    /// Most input rounds one modern call may take before the client gives up.
    pub max_rounds: u32,
    /// What `roots/list` input requests are answered with (none unless the host says).
    pub roots: Vec<Root>,
    /// Answers `sampling/createMessage`; `None`: sampling is not declared.
    pub sampling: Option<SamplingHandler>,
}

impl ClientConfig {
    pub fn new(url: impl Into<String>, protocol: ProtocolChoice) -> Self {
        ClientConfig {
            url: url.into(),
            protocol,
            max_rounds: DEFAULT_MAX_ROUNDS,
            roots: Vec::new(),
            sampling: None,
        }
    }
}
