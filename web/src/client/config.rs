//! What the host decides about a connection: the endpoint, the era, the round bound, roots.

use mcp_elicit::wire::Root;

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

#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The MCP endpoint, e.g. `http://127.0.0.1:8000/mcp`.
    pub url: String,
    pub protocol: ProtocolChoice,
    /// Most input rounds one modern call may take before the client gives up.
    pub max_rounds: u32,
    /// What `roots/list` input requests are answered with (none unless the host says).
    pub roots: Vec<Root>,
}

impl ClientConfig {
    pub fn new(url: impl Into<String>, protocol: ProtocolChoice) -> Self {
        ClientConfig {
            url: url.into(),
            protocol,
            max_rounds: DEFAULT_MAX_ROUNDS,
            roots: Vec::new(),
        }
    }
}
