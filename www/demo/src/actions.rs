//! What the demo's buttons do: connect, run a request (tool, prompt, resource), deliver an
//! answer. Each runs the client in a local task and writes the outcome into [`AppState`].

use crate::words::DemoWords;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use std::rc::Rc;

use mcp_elicit::wire::{from_raw, Call, ElicitResult};
use mcp_elicit_web::client::{ClientConfig, ClientError, Connection};
use mcp_elicit_web::components::SendStatus;
use mcp_elicit_web::pending::deliver;

use crate::query::Prefill;
use crate::running;
use crate::state::{failed, first_of_each, is_current, next_ticket, AppState, ConnStatus, Outcome};

/// Whether `url` is an absolute `http:` / `https:` URL. (`localhost:8001/mcp` parses,
/// with `localhost:` as its scheme, so parsing alone is not enough.)
fn is_full_http_url(url: &str) -> bool {
    web_sys::Url::new(url)
        .map(|u| matches!(u.protocol().as_str(), "http:" | "https:"))
        .unwrap_or(false)
}

/// Connects to the URL in the Server URL field (closing any earlier connection) and lists
/// what the server offers. `prefill` (the link's `tool`/`args`) selects that tool's card and
/// fills in its form; it never calls the tool: only the person's Call tool click does.
///
/// Each connect takes a ticket: one still in flight when a newer one starts no longer
/// counts, and whatever it connected is closed rather than shown.
pub fn connect(state: AppState, prefill: Option<Prefill>) {
    let ticket = next_ticket(state.connects);
    state.prefill.set_value(prefill);
    let url = state.server_url.get_untracked().trim().to_owned();
    state.alert.set(None);
    state.offer_auto.set(false);
    state.acted.set(false);
    state.requests.notice.set(None);
    if url.is_empty() {
        let why = state.messages.with_value(|m| m.d("demo.no_url", &[]));
        state.status.set(ConnStatus::Failed(why.clone()));
        state.alert.set(Some(why));
        return;
    }
    if !is_full_http_url(&url) {
        let quoted = format!("{url:?}");
        let why = state
            .messages
            .with_value(|m| m.d("demo.not_full_url", &[("url", &quoted)]));
        state.status.set(ConnStatus::Failed(why.clone()));
        state.alert.set(Some(why));
        return;
    }
    disconnect(state);
    state.status.set(ConnStatus::Connecting);
    let mut config = ClientConfig::new(url, state.protocol.get_untracked());
    config.messages = state.messages.get_value();
    spawn_local(async move {
        let connected = Connection::connect(config, state.requests.sink()).await;
        if !is_current(state.connects, ticket) {
            if let Ok(stale) = connected {
                stale.close().await;
            }
            return;
        }
        match connected {
            Ok(connection) => {
                state
                    .status
                    .set(ConnStatus::Connected(connection.protocol_version()));
                state.connection.set_value(Some(connection.clone()));
                if !list_offers(state, &connection, ticket).await {
                    return;
                }
                say_if_the_linked_tool_is_missing(state);
            }
            Err(err) => {
                state
                    .offer_auto
                    .set(matches!(err, ClientError::NotModern(_)));
                let why = state.messages.with_value(|m| err.words(m));
                state.status.set(ConnStatus::Failed(why.clone()));
                state.alert.set(Some(why));
            }
        }
    });
}

/// The link named a tool this server does not list: say so (after what the listing said),
/// so the person does not look for a filled-in form that is not there.
fn say_if_the_linked_tool_is_missing(state: AppState) {
    let Some(tool) = state
        .prefill
        .with_value(|p| p.as_ref().map(|p| p.tool.clone()))
    else {
        return;
    };
    if state
        .tools
        .with_untracked(|tools| tools.iter().any(|t| t.name == tool))
    {
        return;
    }
    let quoted = format!("{tool:?}");
    let why = state
        .messages
        .with_value(|m| m.d("demo.tool_missing", &[("tool", &quoted)]));
    let shown = state.alert.get_untracked();
    state.alert.set(Some(match shown {
        Some(earlier) => format!("{earlier} {why}"),
        None => why,
    }));
}

/// Lists the tools, prompts, resources and templates; a failed list is said, the others
/// still shown. Each list keeps the first entry of each name (see [`first_of_each`]).
/// Returns false, showing nothing, when a newer connect started meanwhile.
async fn list_offers(state: AppState, connection: &Connection, ticket: u64) -> bool {
    let tools = connection.list_tools().await;
    let prompts = connection.list_prompts().await;
    let resources = connection.list_resources().await;
    let templates = connection.list_resource_templates().await;
    if !is_current(state.connects, ticket) {
        return false;
    }
    let m = state.messages.get_value();
    let said = |key: &str, err: ClientError| m.t(key, &[("reason", &err.words(&m))]);
    let mut problems = Vec::new();
    match tools {
        Ok(tools) => state.tools.set(first_of_each(tools, |t| &t.name)),
        Err(err) => problems.push(said("demo.list_failed.tools", err)),
    }
    match prompts {
        Ok(prompts) => state.prompts.set(first_of_each(prompts, |p| &p.name)),
        Err(err) => problems.push(said("demo.list_failed.prompts", err)),
    }
    match resources {
        Ok(resources) => state.resources.set(first_of_each(resources, |r| &r.uri)),
        Err(err) => problems.push(said("demo.list_failed.resources", err)),
    }
    match templates {
        Ok(templates) => state
            .templates
            .set(first_of_each(templates, |t| &t.uri_template)),
        Err(err) => problems.push(said("demo.list_failed.templates", err)),
    }
    if !problems.is_empty() {
        state.alert.set(Some(problems.join(" ")));
    }
    true
}

/// Drops the connection (a legacy session is DELETEd) and everything shown for it.
pub fn disconnect(state: AppState) {
    if let Some(old) = state.connection.get_value() {
        state.connection.set_value(None);
        spawn_local(async move { old.close().await });
    }
    state.tools.set(Vec::new());
    state.prompts.set(Vec::new());
    state.resources.set(Vec::new());
    state.templates.set(Vec::new());
    state.requests.clear();
    state.result.set(None);
    // A call still running on the old connection no longer writes anything.
    next_ticket(state.runs);
    state.calling.set(false);
    state.status.set(ConnStatus::Idle);
}

/// Makes `call` and shows its final result (or the error) when it ends, unless another
/// run started meanwhile: `tool-result` is the latest call's, whichever ends last.
pub fn run(state: AppState, call: Call) {
    let Some(connection) = state.connection.get_value() else {
        let why = state
            .messages
            .with_value(|m| m.d("demo.connect_first", &[]));
        state.alert.set(Some(why));
        return;
    };
    let ticket = next_ticket(state.runs);
    state.acted.set(true);
    state.alert.set(None);
    state.result.set(None);
    state.last_call.set(Some(call.clone()));
    state.calling.set(true);
    state.progress.set(None);
    state.task.set(None);
    let watch = running::watch_for(state);
    // Stop: the abort ends the call's future (which closes its stream) after the server
    // was told (legacy: notifications/cancelled, or tasks/cancel for a task).
    let (stop_tx, stop_rx) = futures::channel::oneshot::channel::<()>();
    let stop_tx = Rc::new(Cell::new(Some(stop_tx)));
    state.stop.set_value(Some(Rc::new(move || {
        if let Some(tx) = stop_tx.take() {
            let _ = tx.send(());
        }
    })));
    spawn_local(async move {
        let schema = match &call {
            Call::Tool { name, .. } => state.tools.with_untracked(|tools| {
                tools
                    .iter()
                    .find(|t| &t.name == name)
                    .map(|t| t.input_schema.clone())
            }),
            _ => None,
        };
        let running = connection.run_watched(call.clone(), schema, &watch);
        // Only Stop stops the call. A newer call replaces the page's Stop handle, which
        // drops this call's sender: that is no Stop, and this call goes on (its cards wait).
        let stopped = async move {
            if stop_rx.await.is_err() {
                futures::future::pending::<()>().await;
            }
        };
        let raw = match futures::future::select(Box::pin(running), Box::pin(stopped)).await {
            futures::future::Either::Left((raw, _)) => raw,
            futures::future::Either::Right((_, running)) => {
                // The server is told in English (a protocol reason); the person (the
                // alert, the call's cards) in the page's language.
                let said = state.messages.with_value(|m| m.d("demo.stopped", &[]));
                connection
                    .stop(&watch, running::texts::STOPPED, &said)
                    .await;
                drop(running);
                Err(ClientError::Refused(said))
            }
        };
        let outcome = raw.and_then(|raw| {
            Ok(match &call {
                Call::Tool { .. } => Outcome::Tool(from_raw(&raw, "tool result")?),
                Call::Prompt { .. } => Outcome::Prompt(from_raw(&raw, "prompt")?),
                Call::Resource { .. } => Outcome::Resource(from_raw(&raw, "resource")?),
            })
        });
        if !is_current(state.runs, ticket) {
            return;
        }
        state.stop.set_value(None);
        state.calling.set(false);
        match outcome {
            Ok(result) => state.result.set(Some(result)),
            Err(err) => {
                let said = state
                    .messages
                    .with_value(|m| failed(m, &call, &err.words(m)));
                state.alert.set(Some(said))
            }
        }
    });
}

/// Delivers the user's answer to the elicitation `key` (see [`deliver`]). An answer a
/// restarted server lost is sent when the card's own call is made again (not the latest
/// call: that may be another one, and would expire the answer), which happens now.
pub fn answer(state: AppState, key: String, result: ElicitResult, status: RwSignal<SendStatus>) {
    state.acted.set(true);
    deliver(
        state.connection.get_value(),
        key,
        result,
        status,
        move |call| {
            run(state, call);
            true
        },
    );
}
