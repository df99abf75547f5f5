//! What the demo's buttons do: connect, call a tool, deliver an answer. Each runs the
//! client in a local task and writes the outcome into [`AppState`].

use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_elicit::wire::ElicitResult;
use serde_json::{Map, Value};

use super::state::{AppState, ConnStatus};
use crate::client::{ClientConfig, ClientError, Connection};
use crate::components::SendStatus;

/// Connects to the URL in the Server URL field (closing any earlier connection), lists the
/// tools, then runs `then_call` if given (the `tool`/`args` query parameters).
pub fn connect(state: AppState, then_call: Option<(String, Map<String, Value>)>) {
    let url = state.server_url.get_untracked().trim().to_owned();
    state.alert.set(None);
    state.requests.notice.set(None);
    if url.is_empty() {
        let why = "Enter the server's MCP endpoint URL, e.g. http://127.0.0.1:8001/mcp.";
        state.status.set(ConnStatus::Failed(why.into()));
        state.alert.set(Some(why.into()));
        return;
    }
    if crate::transport::origin_of(&url).is_none() {
        let why = format!("{url:?} is not a full URL (it needs http:// or https://).");
        state.status.set(ConnStatus::Failed(why.clone()));
        state.alert.set(Some(why));
        return;
    }
    disconnect(state);
    state.status.set(ConnStatus::Connecting);
    let config = ClientConfig::new(url, state.protocol.get_untracked());
    spawn_local(async move {
        match Connection::connect(config, state.requests.sink()).await {
            Ok(connection) => {
                state
                    .status
                    .set(ConnStatus::Connected(connection.protocol_version()));
                state.connection.set_value(Some(connection.clone()));
                match connection.list_tools().await {
                    Ok(tools) => state.tools.set(tools),
                    Err(err) => state
                        .alert
                        .set(Some(format!("Could not list the tools: {err}"))),
                }
                if let Some((name, args)) = then_call {
                    call_tool(state, name, args);
                }
            }
            Err(err) => {
                state.status.set(ConnStatus::Failed(err.to_string()));
                state.alert.set(Some(err.to_string()));
            }
        }
    });
}

/// Drops the connection (a legacy session is DELETEd) and everything shown for it.
pub fn disconnect(state: AppState) {
    if let Some(old) = state.connection.get_value() {
        state.connection.set_value(None);
        spawn_local(async move { old.close().await });
    }
    state.tools.set(Vec::new());
    state.requests.clear();
    state.result.set(None);
    state.status.set(ConnStatus::Idle);
}

/// Calls `name` and shows its final result (or the error) when the call ends.
pub fn call_tool(state: AppState, name: String, args: Map<String, Value>) {
    let Some(connection) = state.connection.get_value() else {
        state
            .alert
            .set(Some("Connect to a server before calling a tool.".into()));
        return;
    };
    state.alert.set(None);
    state.result.set(None);
    state.last_call.set(Some((name.clone(), args.clone())));
    state.calling.set(true);
    let schema = state.tools.with_untracked(|tools| {
        tools
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.input_schema.clone())
    });
    spawn_local(async move {
        let outcome = connection.call_tool(&name, args, schema.as_ref()).await;
        state.calling.set(false);
        match outcome {
            Ok(result) => state.result.set(Some(result)),
            Err(err) => state
                .alert
                .set(Some(format!("The call to {name} failed: {err}"))),
        }
    });
}

/// Delivers the user's answer to the elicitation `key`, reporting into `status`.
pub fn answer(state: AppState, key: String, result: ElicitResult, status: RwSignal<SendStatus>) {
    let Some(connection) = state.connection.get_value() else {
        status.set(SendStatus::Failed("Not connected to a server.".into()));
        return;
    };
    status.set(SendStatus::Sending);
    spawn_local(async move {
        match connection.answer(&key, result).await {
            Ok(()) => status.set(SendStatus::Sent),
            Err(ClientError::RequestLost) => {
                // The session kept the answer; re-running the call delivers it.
                if let Some((name, args)) = state.last_call.get_untracked() {
                    call_tool(state, name, args);
                }
            }
            Err(err) => status.set(SendStatus::Failed(err.to_string())),
        }
    });
}
