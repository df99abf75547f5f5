//! The requests a connection is waiting on the user for, as signals fed by the client's
//! [`ClientEvent`]s, and the list that shows them. Shared by the demo app and the host
//! API ([`crate::host`]) so both show, keep and retire cards the same way.

use std::collections::HashSet;
use std::rc::Rc;

use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};

use crate::client::{ClientEvent, EventSink};
use crate::components::{ElicitationView, SendStatus};

/// One elicitation waiting for (or being answered by) the user.
#[derive(Clone)]
pub struct Pending {
    /// Arrival number: a modern key may come again in a later round, and must then get a
    /// fresh card rather than the old card's state.
    pub seq: u64,
    /// What the answer is routed by (unique among pending cards).
    pub id: String,
    /// The wire key, shown as `data-elicitation`.
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

/// The pending cards, the completed URL elicitations and the latest notice; `Copy`.
#[derive(Clone, Copy)]
pub struct PendingRequests {
    pub items: RwSignal<Vec<Pending>>,
    /// `elicitationId`s the server reported complete (ends URL cards' waiting state).
    pub completed: RwSignal<HashSet<String>>,
    /// Informational lines from the client (e.g. a re-initialised session).
    pub notice: RwSignal<Option<String>>,
    arrivals: StoredValue<u64>,
}

impl PendingRequests {
    pub fn new() -> Self {
        PendingRequests {
            items: RwSignal::new(Vec::new()),
            completed: RwSignal::new(HashSet::new()),
            notice: RwSignal::new(None),
            arrivals: StoredValue::new(0),
        }
    }

    /// The sink a connection pushes its events into.
    pub fn sink(self) -> EventSink {
        Rc::new(move |event| self.apply(event))
    }

    /// Drops every card (the connection they belonged to is gone).
    pub fn clear(self) {
        self.items.set(Vec::new());
    }

    fn apply(self, event: ClientEvent) {
        match event {
            ClientEvent::Elicit { id, key, params } => {
                let seq = self.arrivals.get_value().wrapping_add(1);
                self.arrivals.set_value(seq);
                self.items.update(|list| {
                    list.retain(|p| p.id != id);
                    list.push(Pending {
                        seq,
                        id,
                        key,
                        params,
                        status: RwSignal::new(SendStatus::Idle),
                    });
                })
            }
            // A URL card stays after its answer: it shows the waiting state until complete.
            ClientEvent::Answered { id } => self
                .items
                .update(|list| list.retain(|p| p.id != id || p.is_url())),
            ClientEvent::Completed { elicitation_id } => self.completed.update(|done| {
                done.insert(elicitation_id);
            }),
            ClientEvent::Notice(text) => self.notice.set(Some(text)),
        }
    }
}

impl Default for PendingRequests {
    fn default() -> Self {
        Self::new()
    }
}

/// What to do with a card's answer: deliver it (routed by the card's `id`) and report into
/// the card's status.
pub type AnswerFn = Callback<(String, ElicitResult, RwSignal<SendStatus>)>;

/// Every pending card, in arrival order.
#[component]
pub fn PendingList(requests: PendingRequests, on_answer: AnswerFn) -> impl IntoView {
    view! {
        <section class="pending" aria-label="Pending requests">
            <For
                each=move || requests.items.get()
                key=|p: &Pending| (p.seq, p.id.clone())
                children=move |p: Pending| {
                    let id = p.id.clone();
                    let status = p.status;
                    let answer = Callback::new(move |result| {
                        on_answer.run((id.clone(), result, status))
                    });
                    view! {
                        <ElicitationView
                            key=p.key.clone()
                            params=p.params.clone()
                            on_answer=answer
                            status=Signal::from(status)
                            completed=Signal::from(requests.completed)
                        />
                    }
                }
            />
        </section>
    }
}
