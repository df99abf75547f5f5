//! Protocol versions, `_meta` envelope keys, implementation info and client
//! capability declarations.
//!
//! The modern era (2026-07-28) has no handshake: every request carries who we
//! are and what we can do in `params._meta` under the
//! `io.modelcontextprotocol/...` keys, and the server rejects a request
//! missing them (-32602). The legacy era sends the same capabilities once in
//! `initialize`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The modern protocol version this client speaks.
pub const MODERN_PROTOCOL_VERSION: &str = "2026-07-28";
/// The handshake version this client proposes in `initialize`.
pub const LEGACY_PROTOCOL_VERSION: &str = "2025-11-25";
/// Every version reachable through the `initialize` handshake (`mcp_types/version.py`).
pub const HANDSHAKE_PROTOCOL_VERSIONS: [&str; 4] =
    ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
/// Modern versions this client can speak, oldest to newest.
pub const MODERN_PROTOCOL_VERSIONS: [&str; 1] = [MODERN_PROTOCOL_VERSION];

/// `_meta` key: the request's protocol version (modern, required).
pub const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities (modern, required).
pub const CLIENT_CAPABILITIES_META_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: the client's name and version (modern, should be sent).
pub const CLIENT_INFO_META_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key on results: the server's name and version (display only).
pub const SERVER_INFO_META_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// Name and version of a client or server (`Implementation`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Implementation {
    /// This client, as it introduces itself by default.
    pub fn this_client() -> Self {
        Implementation {
            name: "mcp-elicit".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            title: None,
        }
    }
}

/// An empty JSON object, the way capability flags are spelled (`"form": {}`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Empty {}

/// `capabilities.elicitation`: which modes the client can show.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationCapability {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<Empty>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<Empty>,
}

/// `capabilities.roots`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootsCapability {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// What the client declares it can do.
///
/// Elicitation (form and URL) is always declared: that is what this client is
/// for. Roots are declared because the drivers always answer `roots/list`
/// (from the host's configured roots, empty by default). Sampling is declared
/// only when the host supplies a handler, as the SDK does: declaring it
/// without one would invite requests we can only refuse.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Map<String, Value>>,
    /// 2025-11-25 tasks (experimental): which of the server's requests this client runs
    /// as tasks ([`ClientCapabilities::with_elicitation_tasks`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<Value>,
    /// 2026-07-28 extensions this client takes part in
    /// ([`ClientCapabilities::with_tasks_extension`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
}

impl ClientCapabilities {
    /// The declaration for a host: elicitation form + url, roots, and sampling iff `sampling`.
    pub fn for_host(sampling: bool) -> Self {
        ClientCapabilities {
            elicitation: Some(ElicitationCapability {
                form: Some(Empty {}),
                url: Some(Empty {}),
            }),
            roots: Some(RootsCapability::default()),
            sampling: sampling.then(Map::new),
            tasks: None,
            extensions: None,
        }
    }

    /// These capabilities, declaring elicitation as a task (2025-11-25, experimental):
    /// `tasks.requests.elicitation.create`, `tasks.list` and `tasks.cancel`; and
    /// `tasks.requests.sampling.createMessage` when sampling is declared (a host with a
    /// sampling handler).
    pub fn with_elicitation_tasks(mut self) -> Self {
        // Read from text: smaller in the client's wasm than building the maps.
        let tasks = match self.sampling {
            Some(_) => {
                r#"{"list":{},"cancel":{},"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}"#
            }
            None => r#"{"list":{},"cancel":{},"requests":{"elicitation":{"create":{}}}}"#,
        };
        self.tasks = serde_json::from_str(tasks).ok();
        self
    }

    /// These capabilities, declaring the Tasks extension (2026-07-28,
    /// `io.modelcontextprotocol/tasks`, [`crate::driver::task_ext`]): the server may answer a
    /// `tools/call` with a task.
    pub fn with_tasks_extension(mut self) -> Self {
        self.extensions = Some(serde_json::json!({ crate::driver::task_ext::EXTENSION: {} }));
        self
    }

    /// Whether the Tasks extension is declared.
    pub fn tasks_extension(&self) -> bool {
        self.extensions
            .as_ref()
            .and_then(|e| e.get(crate::driver::task_ext::EXTENSION))
            .is_some()
    }

    /// Whether sampling as a task is declared.
    pub fn sampling_tasks(&self) -> bool {
        self.tasks
            .as_ref()
            .and_then(|t| t.pointer("/requests/sampling/createMessage"))
            .is_some()
    }

    /// Whether elicitation as a task is declared.
    pub fn elicitation_tasks(&self) -> bool {
        self.tasks
            .as_ref()
            .and_then(|t| t.pointer("/requests/elicitation/create"))
            .is_some()
    }

    /// Only elicitation (form and URL), what a client without sampling or roots declares.
    pub fn elicitation_only() -> Self {
        ClientCapabilities {
            elicitation: Some(ElicitationCapability {
                form: Some(Empty {}),
                url: Some(Empty {}),
            }),
            roots: None,
            sampling: None,
            tasks: None,
            extensions: None,
        }
    }
}

/// The modern per-request envelope, serialised into `params._meta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestMeta {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    pub protocol_version: String,
    #[serde(rename = "io.modelcontextprotocol/clientInfo")]
    pub client_info: Implementation,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    pub client_capabilities: ClientCapabilities,
}

/// Reads `_meta["io.modelcontextprotocol/serverInfo"]` off a result, if well-formed.
/// Display-only per the spec, so a malformed value reads as absent.
pub fn server_info(meta: Option<&Map<String, Value>>) -> Option<Implementation> {
    let value = meta?.get(SERVER_INFO_META_KEY)?;
    serde_json::from_value(value.clone()).ok()
}
