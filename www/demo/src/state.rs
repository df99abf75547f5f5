//! The demo app's state: the signals the view reads.

use crate::query::Prefill;
use crate::words::DemoWords;
use leptos::prelude::*;
use mcp_elicit::wire::{
    Call, CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate,
    Tool,
};
use mcp_elicit_web::client::{Connection, ProtocolChoice};
use mcp_elicit_web::i18n::Messages;
use mcp_elicit_web::pending::PendingRequests;

/// The connection line (`[data-testid=connection-status]`).
#[derive(Debug, Clone, PartialEq)]
pub enum ConnStatus {
    Idle,
    Connecting,
    Connected(&'static str),
    Failed(String),
}

impl ConnStatus {
    /// The line in the page's language (English's is the DOM contract's).
    pub fn text(&self, m: &Messages) -> String {
        match self {
            ConnStatus::Idle => m.d("demo.status.idle", &[]),
            ConnStatus::Connecting => m.d("demo.status.connecting", &[]),
            ConnStatus::Connected(version) => m.d("demo.status.connected", &[("version", version)]),
            ConnStatus::Failed(why) => m.d("demo.status.failed", &[("reason", why)]),
        }
    }
}

/// The alert of a failed `call` ("The call to X failed: why").
pub fn failed(m: &Messages, call: &Call, reason: &str) -> String {
    match call {
        Call::Tool { name, .. } => m.d("demo.failed.tool", &[("name", name), ("reason", reason)]),
        Call::Prompt { name, .. } => {
            m.d("demo.failed.prompt", &[("name", name), ("reason", reason)])
        }
        Call::Resource { uri } => m.d("demo.failed.resource", &[("uri", uri), ("reason", reason)]),
    }
}

/// The final result of the latest request.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Tool(CallToolResult),
    Prompt(GetPromptResult),
    Resource(ReadResourceResult),
}

/// All of the app's signals; `Copy`, so closures capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    pub server_url: RwSignal<String>,
    pub protocol: RwSignal<ProtocolChoice>,
    pub status: RwSignal<ConnStatus>,
    pub tools: RwSignal<Vec<Tool>>,
    pub prompts: RwSignal<Vec<Prompt>>,
    pub resources: RwSignal<Vec<Resource>>,
    pub templates: RwSignal<Vec<ResourceTemplate>>,
    /// The cards of the connection's pending elicitations, and its notices.
    pub requests: PendingRequests,
    pub result: RwSignal<Option<Outcome>>,
    /// The error of the latest connect or call, in words (`role="alert"`).
    pub alert: RwSignal<Option<String>>,
    /// The latest request, so a -32042 (URL elicitation required) can be retried.
    pub last_call: RwSignal<Option<Call>>,
    pub calling: RwSignal<bool>,
    /// The person has just acted (Call tool, Submit, Open, Decline, Cancel, Retry) and
    /// what that produced has not all shown yet: a card that arrives, an alert, the result
    /// are brought into view. The result ends it; so does a new connect.
    pub acted: RwSignal<bool>,
    /// The latest connect was refused because only 2026-07-28 was allowed and the server
    /// speaks the handshake: the alert offers to connect with Auto.
    pub offer_auto: RwSignal<bool>,
    /// The running call's latest progress and task (none before the server reports).
    pub progress: RwSignal<Option<mcp_elicit::driver::progress::Progress>>,
    pub task: RwSignal<Option<mcp_elicit_web::client::TaskNews>>,
    /// Stops the running call (set while one runs).
    pub stop: StoredValue<Option<std::rc::Rc<dyn Fn()>>, LocalStorage>,
    /// The link's tool and arguments for the connection being made (the query's `tool` /
    /// `args`): its card starts filled in with them. Nothing runs it but a click.
    pub prefill: StoredValue<Option<Prefill>>,
    pub connection: StoredValue<Option<Connection>, LocalStorage>,
    /// The number of the latest run: only that run may write `result`, `alert` and
    /// `calling` when it ends (an earlier, slower call must not overwrite a later one).
    pub runs: StoredValue<u64>,
    /// The number of the latest connect: an earlier connect that ends after a later one
    /// started is closed instead of replacing `connection` and the lists.
    pub connects: StoredValue<u64>,
    /// The page's words (its catalog), for what the demo says after an await, where no
    /// context is.
    pub messages: StoredValue<Messages>,
}

/// Bumps `counter` and returns the new number: the ticket of the run (or connect) that
/// starts now. [`is_current`] tells later whether a newer one started since.
pub fn next_ticket(counter: StoredValue<u64>) -> u64 {
    let ticket = counter.get_value().wrapping_add(1);
    counter.set_value(ticket);
    ticket
}

/// Whether `ticket` is still the latest of `counter`.
pub fn is_current(counter: StoredValue<u64>, ticket: u64) -> bool {
    counter.get_value() == ticket
}

/// Keeps the first item of each key, in order.
///
/// The demo's lists are keyed by the name the server calls things by (tool and prompt
/// names, resource URIs, URI templates): that name is all `tools/call`, `prompts/get` and
/// `resources/read` send, so two entries with one name cannot be told apart by the server
/// either, and the DOM contract's `[data-tool=name]` must find one card. A server may still
/// list a name twice (a buggy cursor that loops returns the same page again); Leptos's
/// keyed `<For>` needs unique keys (a duplicate makes it overwrite a child whose signals
/// are then disposed, and a later click panics). Deduplicating where the lists are set
/// keeps the key unique and stable; keying by (index, name) instead would show the
/// duplicates and re-create every card after a change.
pub fn first_of_each<T>(items: Vec<T>, key: impl Fn(&T) -> &str) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(key(item).to_owned()))
        .collect()
}

impl AppState {
    pub fn new() -> Self {
        AppState {
            server_url: RwSignal::new(String::new()),
            protocol: RwSignal::new(ProtocolChoice::Auto),
            status: RwSignal::new(ConnStatus::Idle),
            tools: RwSignal::new(Vec::new()),
            prompts: RwSignal::new(Vec::new()),
            resources: RwSignal::new(Vec::new()),
            templates: RwSignal::new(Vec::new()),
            requests: PendingRequests::new(),
            result: RwSignal::new(None),
            alert: RwSignal::new(None),
            last_call: RwSignal::new(None),
            calling: RwSignal::new(false),
            acted: RwSignal::new(false),
            offer_auto: RwSignal::new(false),
            progress: RwSignal::new(None),
            task: RwSignal::new(None),
            stop: StoredValue::new_local(None),
            prefill: StoredValue::new(None),
            connection: StoredValue::new_local(None),
            runs: StoredValue::new(0),
            connects: StoredValue::new(0),
            messages: StoredValue::new(mcp_elicit_web::i18n::use_messages()),
        }
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::first_of_each;

    #[test]
    fn first_of_each_keeps_the_first_of_every_name_in_order() {
        let listed = vec![("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)];
        assert_eq!(
            first_of_each(listed, |(name, _)| name),
            vec![("a", 1), ("b", 2), ("c", 4)]
        );
        assert!(first_of_each(Vec::<(&str, u8)>::new(), |(name, _)| name).is_empty());
    }
}
