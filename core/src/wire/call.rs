//! The requests that may ask the person for input on their way to a result (a
//! `tools/call`, a `prompts/get`, a `resources/read`), as one type for both eras: the
//! modern call machine replays a [`Call`] round after round, and a legacy session keeps
//! the [`Call`] each card came in, so the call can be made again when a restarted server
//! lost the card's request.
//!
//! Its params are written by serde from [`CallParams`] (`name` and `arguments`, or `uri`,
//! in that order), and read back by [`Call::parse`]:
//!
//! ```
//! use mcp_elicit::wire::Call;
//!
//! let call = Call::Tool { name: "book".into(), arguments: serde_json::Map::new() };
//! assert_eq!(call.method(), "tools/call");
//! let params = serde_json::to_string(&call.params()).unwrap();
//! assert_eq!(params, r#"{"name":"book","arguments":{}}"#);
//! let back = Call::parse(call.method(), &serde_json::from_str(&params).unwrap()).unwrap();
//! assert_eq!(back, call);
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::jsonrpc::{WireError, WireKind};

/// `tools/call`.
pub const TOOLS_CALL: &str = "tools/call";
/// `prompts/get`.
pub const PROMPTS_GET: &str = "prompts/get";
/// `resources/read`.
pub const RESOURCES_READ: &str = "resources/read";

/// A request that may ask the person for input before it has its result.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `tools/call`.
    Tool {
        name: String,
        arguments: Map<String, Value>,
    },
    /// `prompts/get` (the spec's arguments are strings; kept as JSON, as given).
    Prompt {
        name: String,
        arguments: Map<String, Value>,
    },
    /// `resources/read`.
    Resource { uri: String },
}

/// A [`Call`]'s own params as they go on the wire, without what an era adds (the modern
/// `_meta`, `inputResponses` and `requestState`).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(untagged)]
pub enum CallParams<'a> {
    Named {
        name: &'a str,
        arguments: &'a Map<String, Value>,
    },
    Resource {
        uri: &'a str,
    },
}

/// The params of a `tools/call` or `prompts/get` as read back.
#[derive(Deserialize)]
struct NamedParams {
    name: String,
    #[serde(default)]
    arguments: Map<String, Value>,
}

/// The params of a `resources/read` as read back.
#[derive(Deserialize)]
struct ResourceParams {
    uri: String,
}

impl Call {
    /// The JSON-RPC method.
    pub fn method(&self) -> &'static str {
        match self {
            Call::Tool { .. } => TOOLS_CALL,
            Call::Prompt { .. } => PROMPTS_GET,
            Call::Resource { .. } => RESOURCES_READ,
        }
    }

    /// What the call is addressed to: the tool's or prompt's name, or the resource's URI
    /// (the modern era mirrors it in `Mcp-Name`).
    pub fn target(&self) -> &str {
        match self {
            Call::Tool { name, .. } | Call::Prompt { name, .. } => name,
            Call::Resource { uri } => uri,
        }
    }

    /// The params to serialize.
    pub fn params(&self) -> CallParams<'_> {
        match self {
            Call::Tool { name, arguments } | Call::Prompt { name, arguments } => {
                CallParams::Named { name, arguments }
            }
            Call::Resource { uri } => CallParams::Resource { uri },
        }
    }

    /// Whether `method` is one of the three a [`Call`] makes (a request that may ask).
    pub fn is_call_method(method: &str) -> bool {
        matches!(method, TOOLS_CALL | PROMPTS_GET | RESOURCES_READ)
    }

    /// The call a request of `method` with `params` makes, read as [`params`](Self::params)
    /// writes it (absent `arguments` are none). Unknown fields are ignored, as everywhere
    /// on the wire; a method that is not one of the three, or params without what it
    /// needs, is an error in words.
    pub fn parse(method: &str, params: &Value) -> Result<Call, WireError> {
        let bad = |e: serde_json::Error| {
            WireError::of(WireKind::Internal, format!("the {method} params: {e}"))
        };
        match method {
            TOOLS_CALL | PROMPTS_GET => {
                let NamedParams { name, arguments } =
                    NamedParams::deserialize(params).map_err(bad)?;
                Ok(if method == TOOLS_CALL {
                    Call::Tool { name, arguments }
                } else {
                    Call::Prompt { name, arguments }
                })
            }
            RESOURCES_READ => {
                let ResourceParams { uri } = ResourceParams::deserialize(params).map_err(bad)?;
                Ok(Call::Resource { uri })
            }
            other => Err(WireError::of(
                WireKind::Internal,
                format!("{other:?} is not a call that may ask for input"),
            )),
        }
    }
}
