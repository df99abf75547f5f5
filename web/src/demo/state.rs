//! The demo app's state: signals the view reads, and the client events that update them.

use std::collections::HashSet;
use std::rc::Rc;

use leptos::prelude::*;
use mcp_elicit::wire::{CallToolResult, ElicitRequestParams, Tool};
use serde_json::{Map, Value};

use crate::client::{ClientEvent, Connection, EventSink, ProtocolChoice};
use crate::components::SendStatus;

/// The connection line (`[data-testid=connection-status]`).
#[derive(Debug, Clone, PartialEq)]
pub enum ConnStatus {
    Idle,
    Connecting,
    Connected(&'static str),
    Failed(String),
}

impl ConnStatus {
    pub fn text(&self) -> String {
        match self {
            ConnStatus::Idle => "not connected".into(),
            ConnStatus::Connecting => "connecting…".into(),
            ConnStatus::Connected(version) => format!("connected · {version}"),
            ConnStatus::Failed(why) => format!("not connected: {why}"),
        }
    }
}

/// One elicitation waiting for (or being answered by) the user.
#[derive(Clone)]
pub struct Pending {
    /// Arrival number: a modern key may come again in a later round, and must then get a
    /// fresh card rather than the old card's state.
    pub seq: u64,
    pub key: String,
    pub params: ElicitRequestParams,
    /// How delivering the user's answer went; a failure keeps the card and its input.
    pub status: RwSignal<SendStatus>,
}

impl Pending {
    fn is_url(&self) -> bool {
        matches!(self.params, ElicitRequestParams::Url(_))
    }
}

/// All of the app's signals; `Copy`, so closures capture it freely.
#[derive(Clone, Copy)]
pub struct AppState {
    pub server_url: RwSignal<String>,
    pub protocol: RwSignal<ProtocolChoice>,
    pub status: RwSignal<ConnStatus>,
    pub tools: RwSignal<Vec<Tool>>,
    pub pending: RwSignal<Vec<Pending>>,
    /// `elicitationId`s the server reported complete (ends URL cards' waiting state).
    pub completed: RwSignal<HashSet<String>>,
    pub result: RwSignal<Option<CallToolResult>>,
    /// The error of the latest connect or call, in words (`role="alert"`).
    pub alert: RwSignal<Option<String>>,
    /// Informational lines (e.g. a re-initialised session).
    pub notice: RwSignal<Option<String>>,
    /// The latest call, so a -32042 (URL elicitation required) can be retried.
    pub last_call: RwSignal<Option<(String, Map<String, Value>)>>,
    pub calling: RwSignal<bool>,
    /// Counter for [`Pending::seq`].
    pub arrivals: StoredValue<u64>,
    pub connection: StoredValue<Option<Connection>, LocalStorage>,
}

impl AppState {
    pub fn new() -> Self {
        AppState {
            server_url: RwSignal::new(String::new()),
            protocol: RwSignal::new(ProtocolChoice::Auto),
            status: RwSignal::new(ConnStatus::Idle),
            tools: RwSignal::new(Vec::new()),
            pending: RwSignal::new(Vec::new()),
            completed: RwSignal::new(HashSet::new()),
            result: RwSignal::new(None),
            alert: RwSignal::new(None),
            notice: RwSignal::new(None),
            last_call: RwSignal::new(None),
            calling: RwSignal::new(false),
            arrivals: StoredValue::new(0),
            connection: StoredValue::new_local(None),
        }
    }

    /// The sink the client pushes its events into.
    pub fn sink(self) -> EventSink {
        Rc::new(move |event| self.apply(event))
    }

    fn apply(self, event: ClientEvent) {
        match event {
            ClientEvent::Elicit { key, params } => {
                let seq = self.arrivals.get_value().wrapping_add(1);
                self.arrivals.set_value(seq);
                self.pending.update(|list| {
                    list.retain(|p| p.key != key);
                    list.push(Pending {
                        seq,
                        key,
                        params,
                        status: RwSignal::new(SendStatus::Idle),
                    });
                })
            }
            // A URL card stays after its answer: it shows the waiting state until complete.
            ClientEvent::Answered { key } => self
                .pending
                .update(|list| list.retain(|p| p.key != key || p.is_url())),
            ClientEvent::Completed { elicitation_id } => self.completed.update(|done| {
                done.insert(elicitation_id);
            }),
            ClientEvent::Notice(text) => self.notice.set(Some(text)),
        }
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}
