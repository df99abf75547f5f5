//! What the host decides about a connection: the endpoint, the era, the round bound, roots,
//! and whether it answers sampling requests; and the core configurations made of it.

use std::fmt;
use std::rc::Rc;

use futures::future::LocalBoxFuture;
use mcp_elicit::driver::legacy::LegacyConfig;
use mcp_elicit::driver::modern::ModernConfig;
use mcp_elicit::driver::tool_tasks::TaskMode;
use mcp_elicit::wire::{ClientCapabilities, Root};
use serde_json::Value;

use super::endpoint::{Endpoint, HttpOptions};

/// Which protocol era to speak (`protocol` in the host options and the demo's query
/// string): the core's, whose [`Negotiation`](mcp_elicit::driver::era::Negotiation) decides
/// what each choice leads to.
pub use mcp_elicit::driver::era::ProtocolChoice;
/// The round bound of a [`ClientConfig`] unless the host sets one (the SDK client's).
pub use mcp_elicit::driver::modern::DEFAULT_MAX_ROUNDS;

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
    /// How requests reach the endpoint: the host's `fetch` and headers, the sign-in.
    pub http: HttpOptions,
    /// Whether a tool whose `execution.taskSupport` is `optional` is called as a task
    /// (2025-11-25; `required` ones always are, when the server runs tasks). 2026-07-28:
    /// `never` leaves the Tasks extension undeclared (the server then runs no call as a task).
    pub tasks: TaskMode,
    /// The language of the words the connection makes (task notices and reasons); the
    /// browser's languages unless the host says.
    pub messages: crate::i18n::Messages,
}

impl ClientConfig {
    pub fn new(url: impl Into<String>, protocol: ProtocolChoice) -> Self {
        // A connection's words (its errors, notices and task texts) in English.
        crate::i18n::speak_for_connections();
        ClientConfig {
            url: url.into(),
            protocol,
            max_rounds: DEFAULT_MAX_ROUNDS,
            roots: Vec::new(),
            sampling: None,
            http: HttpOptions::default(),
            tasks: TaskMode::default(),
            messages: crate::i18n::Messages::from_browser(),
        }
    }

    /// The endpoint every request of this connection goes to.
    pub fn endpoint(&self) -> Endpoint {
        Endpoint::new(self.url.clone(), self.http.clone())
    }

    /// What the client declares: sampling only when the host answers it.
    fn capabilities(&self) -> ClientCapabilities {
        ClientCapabilities::for_host(self.sampling.is_some())
    }

    /// The core's configuration of every modern call of this connection.
    pub(super) fn modern(&self) -> ModernConfig {
        // The Tasks extension (2026-07-28): the server may run a tools/call as a task. The
        // server alone decides, so a host that never wants tasks does not declare it.
        let capabilities = match self.tasks {
            TaskMode::Never => self.capabilities(),
            TaskMode::Auto | TaskMode::Always => self.capabilities().with_tasks_extension(),
        };
        ModernConfig {
            roots: self.roots.clone(),
            max_rounds: self.max_rounds,
            capabilities,
            ..ModernConfig::default()
        }
    }

    /// The core's configuration of a legacy session of this connection.
    pub(super) fn legacy(&self) -> LegacyConfig {
        LegacyConfig {
            roots: self.roots.clone(),
            // Elicitation as a task is a 2025-11-25 feature: only the legacy session
            // declares it.
            capabilities: self.capabilities().with_elicitation_tasks(),
            ..LegacyConfig::default()
        }
    }
}
