//! MCP client sessions for both eras and era auto-detection.
//!
//! [`Connection::connect`] picks the era ([`ProtocolChoice`]), and then every call goes
//! through the same few methods whichever era is in use: [`Connection::list_tools`],
//! [`Connection::call_tool`] (runs to the final result, pushing [`ClientEvent`]s for the
//! elicitations on the way) and [`Connection::answer`] (the user's answer to one of them).
//! Wire types and message classification come from the core (`mcp_elicit::wire`); this
//! module does the IO around them.

mod config;
mod events;
mod legacy;
mod modern;
mod rpc;

use std::rc::Rc;

use mcp_elicit::driver::era::{self, EraDecision};
use mcp_elicit::driver::headers::param_headers;
use mcp_elicit::wire::meta::{LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION};
use mcp_elicit::wire::{
    from_raw, CallToolResult, ElicitResult, ErrorObject, ListToolsResult, Tool,
};
use serde_json::{Map, Value};

pub use config::{ClientConfig, ProtocolChoice, DEFAULT_MAX_ROUNDS};
pub use events::{ClientError, ClientEvent, EventSink};
pub use legacy::{LegacySession, URL_REQUIRED_KEY_PREFIX};
pub use modern::ModernSession;

/// Pages of `tools/list` we follow before we stop (a server that loops its cursor).
const MAX_TOOL_PAGES: usize = 50;

/// A live connection in one era.
#[derive(Clone)]
pub enum Connection {
    Modern(Rc<ModernSession>),
    Legacy(LegacySession),
}

impl Connection {
    /// Connects in the configured era; `Auto` probes `server/discover` first and falls back
    /// to the legacy handshake on any JSON-RPC error except a -32022 that names only modern
    /// versions (the SDK's denylist). Network and CORS failures are reported, never taken as
    /// an era verdict.
    pub async fn connect(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        match config.protocol {
            ProtocolChoice::Legacy => Ok(Connection::Legacy(
                LegacySession::connect(config, sink).await?,
            )),
            ProtocolChoice::Modern => {
                let session = ModernSession::new(config, sink);
                let discovered = session.discover().await?;
                if modern::discover_is_modern(&discovered) {
                    Ok(Connection::Modern(Rc::new(session)))
                } else {
                    Err(ClientError::Refused(format!(
                        "The server does not offer protocol version {MODERN_PROTOCOL_VERSION}."
                    )))
                }
            }
            ProtocolChoice::Auto => {
                let session = ModernSession::new(config.clone(), sink.clone());
                match session.discover().await {
                    Ok(raw) if modern::discover_is_modern(&raw) => {
                        Ok(Connection::Modern(Rc::new(session)))
                    }
                    // A discover result naming no modern version is a legacy advertisement.
                    Ok(_) => legacy_fallback(config, sink).await,
                    Err(ClientError::Rpc {
                        code,
                        message,
                        data,
                    }) => {
                        let error = ErrorObject {
                            code,
                            message: message.clone(),
                            data: data.clone(),
                        };
                        match era::decide_from_error(MODERN_PROTOCOL_VERSION, error) {
                            EraDecision::Incompatible(_) => Err(ClientError::Rpc {
                                code,
                                message,
                                data,
                            }),
                            _ => legacy_fallback(config, sink).await,
                        }
                    }
                    // An HTTP error without a JSON-RPC body, or a 2xx without an answer, is no
                    // evidence of a modern server either (the core's era table).
                    Err(ClientError::Transport(crate::transport::TransportError::Http {
                        ..
                    }))
                    | Err(ClientError::Protocol(_)) => legacy_fallback(config, sink).await,
                    // Down, blocked by CORS, dropped: reported, never taken as an era verdict.
                    Err(other) => Err(other),
                }
            }
        }
    }

    /// The protocol version in use, for the connection status.
    pub fn protocol_version(&self) -> &'static str {
        match self {
            Connection::Modern(_) => MODERN_PROTOCOL_VERSION,
            Connection::Legacy(_) => LEGACY_PROTOCOL_VERSION,
        }
    }

    /// All tools, following `nextCursor`.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_TOOL_PAGES {
            let mut params = Map::new();
            if let Some(c) = cursor.take() {
                params.insert("cursor".into(), Value::String(c));
            }
            let raw = match self {
                Connection::Modern(s) => s.simple("tools/list", params).await?,
                Connection::Legacy(s) => s.request("tools/list", params).await?,
            };
            let page: ListToolsResult =
                from_raw(&raw, "tool list").map_err(|e| ClientError::Protocol(e.message))?;
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) if !next.is_empty() => cursor = Some(next),
                _ => break,
            }
        }
        Ok(tools)
    }

    /// Calls `name` with `arguments` and runs it to its final result. `input_schema` (from
    /// `tools/list`) tells which arguments the modern era mirrors into `Mcp-Param-*` headers.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        input_schema: Option<&Value>,
    ) -> Result<CallToolResult, ClientError> {
        let extra = input_schema
            .map(|schema| param_headers(schema, &arguments))
            .unwrap_or_default();
        let mut params = Map::new();
        params.insert("name".into(), Value::String(name.to_owned()));
        params.insert("arguments".into(), Value::Object(arguments));
        let raw = match self {
            Connection::Modern(s) => s.call("tools/call", params, &extra).await?,
            Connection::Legacy(s) => s.request("tools/call", params).await?,
        };
        from_raw(&raw, "tool result").map_err(|e| ClientError::Protocol(e.message))
    }

    /// Delivers the user's answer to the elicitation shown as `key`. On failure the
    /// elicitation stays pending: show the error and let the user resend.
    pub async fn answer(&self, key: &str, result: ElicitResult) -> Result<(), ClientError> {
        match self {
            Connection::Modern(s) => s.answer(key, result).await,
            Connection::Legacy(s) => s.answer(key, result).await,
        }
    }

    /// Disconnects: a legacy session is DELETEd; a pending modern round is dropped.
    pub async fn close(&self) {
        match self {
            Connection::Modern(s) => s.abandon(),
            Connection::Legacy(s) => s.close().await,
        }
    }
}

async fn legacy_fallback(config: ClientConfig, sink: EventSink) -> Result<Connection, ClientError> {
    Ok(Connection::Legacy(
        LegacySession::connect(config, sink).await?,
    ))
}
