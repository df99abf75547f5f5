//! The requests a connection is waiting on the user for, as signals fed by the client's
//! [`ClientEvent`]s, and the list that shows them. Shared by the demo app and the host
//! API ([`crate::host`]) so both show, keep and retire cards the same way.
//!
//! A server decides how many requests it sends, so the list is built for many: a card
//! arrives, is replaced or retired in O(log n), and at most [`MAX_PENDING_CARDS`] are shown
//! per connection (see there for what happens beyond).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};

pub use crate::client::MAX_PENDING_CARDS;
use crate::client::{ClientEvent, EventSink, ServerIdentity};
use crate::components::{ElicitationView, SendStatus};

/// One elicitation waiting for (or being answered by) the user. Cheap to clone: the keyed
/// list copies every entry on each change.
#[derive(Clone)]
pub struct Pending {
    /// Arrival number: a modern key may come again in a later round, and must then get a
    /// fresh card rather than the old card's state.
    pub seq: u64,
    /// What the answer is routed by (unique among pending cards).
    pub id: String,
    /// The wire key, shown as `data-elicitation`.
    pub key: String,
    pub params: Arc<ElicitRequestParams>,
    /// How delivering the user's answer went; a failure keeps the card and its input.
    pub status: RwSignal<SendStatus>,
    /// Who is asking: the identity of the connection the request came on.
    pub server: ArcRwSignal<Option<ServerIdentity>>,
}

impl Pending {
    fn is_url(&self) -> bool {
        matches!(*self.params, ElicitRequestParams::Url(_))
    }
}

/// The cards in arrival order, with the indexes that make arrival and answer O(log n).
#[derive(Clone, Default)]
pub struct Cards {
    by_seq: BTreeMap<u64, Pending>,
    /// Routing id to arrival number.
    seq_of: HashMap<String, u64>,
    /// URL cards already answered: they only show their waiting state, so they are the
    /// first to go when the list is full.
    answered_urls: BTreeSet<u64>,
}

impl Cards {
    /// How many cards are shown.
    pub fn len(&self) -> usize {
        self.by_seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_seq.is_empty()
    }

    /// The cards, in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = &Pending> {
        self.by_seq.values()
    }

    /// The card routed as `id`.
    pub fn get(&self, id: &str) -> Option<&Pending> {
        self.by_seq.get(self.seq_of.get(id)?)
    }

    fn remove(&mut self, id: &str) -> Option<Pending> {
        let seq = self.seq_of.remove(id)?;
        self.answered_urls.remove(&seq);
        self.by_seq.remove(&seq)
    }

    /// Adds `card`, replacing one with the same id. `false` (and nothing changes) when the
    /// list is full of cards still waiting for the person.
    fn add(&mut self, card: Pending) -> bool {
        self.remove(&card.id);
        if self.by_seq.len() >= MAX_PENDING_CARDS {
            let Some(oldest) = self.answered_urls.pop_first() else {
                return false;
            };
            if let Some(gone) = self.by_seq.remove(&oldest) {
                self.seq_of.remove(&gone.id);
            }
        }
        self.seq_of.insert(card.id.clone(), card.seq);
        self.by_seq.insert(card.seq, card);
        true
    }

    /// The answer to `id` was delivered: a form card goes; a URL card stays, showing its
    /// waiting state until complete, but may make room for new cards.
    fn answered(&mut self, id: &str) {
        let Some(&seq) = self.seq_of.get(id) else {
            return;
        };
        match self.by_seq.get(&seq) {
            Some(card) if card.is_url() => {
                self.answered_urls.insert(seq);
            }
            _ => {
                self.remove(id);
            }
        }
    }
}

/// The pending cards, the completed URL elicitations and the latest notice; `Copy`.
#[derive(Clone, Copy)]
pub struct PendingRequests {
    pub items: RwSignal<Cards>,
    /// `elicitationId`s the server reported complete (ends URL cards' waiting state).
    pub completed: RwSignal<HashSet<String>>,
    /// Informational lines from the client (e.g. a re-initialised session).
    pub notice: RwSignal<Option<String>>,
    /// Requests were refused because [`MAX_PENDING_CARDS`] cards were showing.
    pub overflowed: RwSignal<bool>,
    /// Routing ids of requests refused by the list itself, for [`PendingList`] to answer
    /// `cancel` (it holds the answer path).
    refused: RwSignal<Vec<String>>,
    arrivals: StoredValue<u64>,
}

impl PendingRequests {
    pub fn new() -> Self {
        PendingRequests {
            items: RwSignal::new(Cards::default()),
            completed: RwSignal::new(HashSet::new()),
            notice: RwSignal::new(None),
            overflowed: RwSignal::new(false),
            refused: RwSignal::new(Vec::new()),
            arrivals: StoredValue::new(0),
        }
    }

    /// The sink a connection pushes its events into. Each connection gets its own sink, so
    /// its cards name its server even when an earlier connection is still winding down.
    pub fn sink(self) -> EventSink {
        let server = ArcRwSignal::new(None);
        Rc::new(move |event| self.apply(event, server.clone()))
    }

    /// Drops every card (the connection they belonged to is gone).
    pub fn clear(self) {
        self.items.set(Cards::default());
        self.overflowed.set(false);
    }

    /// The status signal of the card routed as `id`, if it is shown.
    fn status_of(self, id: &str) -> Option<RwSignal<SendStatus>> {
        self.items.with_untracked(|cards| {
            let seq = cards.seq_of.get(id)?;
            cards.by_seq.get(seq).map(|card| card.status)
        })
    }

    fn apply(self, event: ClientEvent, server: ArcRwSignal<Option<ServerIdentity>>) {
        match event {
            ClientEvent::Elicit { id, key, params } => {
                let seq = self.arrivals.get_value().wrapping_add(1);
                self.arrivals.set_value(seq);
                let card = Pending {
                    seq,
                    id: id.clone(),
                    key,
                    params: Arc::new(params),
                    status: RwSignal::new(SendStatus::Idle),
                    server,
                };
                let mut added = true;
                self.items.update(|cards| added = cards.add(card));
                if !added {
                    self.overflowed.set(true);
                    self.refused.update(|ids| ids.push(id));
                }
            }
            ClientEvent::Answered { id } => {
                // A URL card stays, showing it was sent (its answer may have been resent
                // after a restart, when the person's own send was reported lost).
                if let Some(status) = self.status_of(&id) {
                    status.set(SendStatus::Sent);
                }
                self.items.update(|cards| cards.answered(&id))
            }
            ClientEvent::AnswerFailed { id, reason } => {
                if let Some(status) = self.status_of(&id) {
                    status.set(SendStatus::Failed(reason));
                }
            }
            ClientEvent::Completed { elicitation_id } => self.completed.update(|done| {
                done.insert(elicitation_id);
            }),
            ClientEvent::Notice(text) => self.notice.set(Some(text)),
            ClientEvent::Server(identity) => server.set(Some(identity)),
            ClientEvent::CardsRefused => self.overflowed.set(true),
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

/// Every pending card, in arrival order, and a notice when requests were refused.
#[component]
pub fn PendingList(requests: PendingRequests, on_answer: AnswerFn) -> impl IntoView {
    // Requests the list had no room for are answered `cancel`, so the server is not left
    // waiting on a card nobody can see.
    Effect::new(move |_| {
        let refused = requests.refused.get();
        if refused.is_empty() {
            return;
        }
        requests.refused.set(Vec::new());
        for id in refused {
            on_answer.run((id, ElicitResult::cancel(), RwSignal::new(SendStatus::Idle)));
        }
    });
    view! {
        <section class="pending" aria-label="Pending requests">
            {move || requests.overflowed.get().then(|| view! {
                <p class="mce-cards-refused" role="alert" data-testid="cards-refused">
                    {format!(
                        "The server sent more than {MAX_PENDING_CARDS} requests at once; later ones were refused."
                    )}
                </p>
            })}
            <For
                each=move || requests.items.with(|cards| cards.iter().cloned().collect::<Vec<_>>())
                key=|p: &Pending| (p.seq, p.id.clone())
                children=move |p: Pending| {
                    let id = p.id.clone();
                    let status = p.status;
                    let answer = Callback::new(move |result| {
                        on_answer.run((id.clone(), result, status))
                    });
                    let server = p.server.clone();
                    view! {
                        <ElicitationView
                            key=p.key.clone()
                            params=(*p.params).clone()
                            on_answer=answer
                            status=Signal::from(status)
                            completed=Signal::from(requests.completed)
                            server=Signal::derive(move || server.get())
                        />
                    }
                }
            />
        </section>
    }
}
