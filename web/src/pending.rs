//! The requests a connection is waiting on the user for, as signals fed by the client's
//! [`ClientEvent`]s, and the list that shows them. Shared by the demo app and the host
//! API (`McpClient`, crate `mcp-elicit-host`) so both show, keep and retire cards the same way.
//!
//! A server decides how many requests it sends, so the list is built for many: a card
//! arrives, is replaced or retired in O(log n), and at most [`MAX_PENDING_CARDS`] cards
//! holding at most [`MAX_PENDING_CARD_BYTES`] are shown per connection (see there for what
//! happens beyond).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};

pub use crate::client::MAX_PENDING_CARDS;
use crate::client::{Call, ClientError, ClientEvent, Connection, EventSink, ServerIdentity};
use crate::components::{ElicitationView, SendStatus};

/// The most bytes the requests of the shown cards of one list (one connection's at a time) may hold together, measured
/// as their params' JSON size. Each card's text is held a few times over (the protocol
/// machine's copy, the card's, the DOM's), and a message may be as long as a line of the
/// stream (16 MiB): a few dozen such cards would exhaust the wasm heap (4 GiB) while staying
/// under [`MAX_PENDING_CARDS`]. 32 MiB is far beyond any question a person reads (a long
/// form with a thousand options is well under 1 MiB). Beyond it a new request gets no card:
/// it is answered `cancel`, and the list says that requests too large to show were refused.
/// Cards that wait for nobody (answered URL cards, retired cards) make room first.
pub const MAX_PENDING_CARD_BYTES: usize = 32 * 1024 * 1024;

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
    /// Reference-counted, not an arena signal: events arrive outside any reactive owner, so
    /// an arena signal made for each card would never be freed (about a kilobyte per card
    /// answered in a long session). It lives as long as the card and its row.
    pub status: ArcRwSignal<SendStatus>,
    /// Who is asking: the identity of the connection the request came on.
    pub server: ArcRwSignal<Option<ServerIdentity>>,
    /// Why the request can no longer be answered ([`ClientEvent::Retired`]). Kept apart
    /// from `status`, which whoever delivers answers sets: an answer's failure reported
    /// after the call ended must not make the card look answerable again. Reference-counted,
    /// as `status` is.
    pub retired: ArcRwSignal<Option<String>>,
    /// The call that asked has returned ([`ClientEvent::CallEnded`]): an opened URL card
    /// says so instead of waiting for the server. Reference-counted, as `status` is.
    pub call_ended: ArcRwSignal<bool>,
}

impl Pending {
    fn is_url(&self) -> bool {
        matches!(*self.params, ElicitRequestParams::Url(_))
    }

    fn elicitation_id(&self) -> Option<&str> {
        match &*self.params {
            ElicitRequestParams::Url(url) => Some(&url.elicitation_id),
            ElicitRequestParams::Form(_) => None,
        }
    }

    /// What the card counts toward [`MAX_PENDING_CARD_BYTES`]: its params' JSON size and its
    /// ids, counted without writing the JSON out.
    fn size(&self) -> usize {
        let mut count = ByteCount(0);
        // Writing into a counter cannot fail; a params value serde refuses counts as huge.
        let params = match serde_json::to_writer(&mut count, &*self.params) {
            Ok(()) => count.0,
            Err(_) => usize::MAX,
        };
        params
            .saturating_add(self.id.len())
            .saturating_add(self.key.len())
    }
}

/// A writer that only counts the bytes written into it.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why the list had no room for a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// [`MAX_PENDING_CARDS`] cards wait for the person.
    Count,
    /// The cards waiting for the person hold [`MAX_PENDING_CARD_BYTES`].
    Bytes,
}

/// The cards in arrival order, with the indexes that make arrival and answer O(log n).
#[derive(Clone, Default)]
pub struct Cards {
    by_seq: BTreeMap<u64, Pending>,
    /// Routing id to arrival number.
    seq_of: HashMap<String, u64>,
    /// Cards that wait for nobody: URL cards already answered (they only show their
    /// waiting state) and retired cards (they only say why they cannot be answered). They
    /// are the first to go when the list is full.
    spent: BTreeSet<u64>,
    /// The sizes ([`Pending::size`]) of the cards shown, by arrival number, and their sum.
    sizes: HashMap<u64, usize>,
    bytes: usize,
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
        self.forget(seq)
    }

    /// Drops the card that arrived as `seq` and what the indexes hold of it, but `seq_of`.
    fn forget(&mut self, seq: u64) -> Option<Pending> {
        self.spent.remove(&seq);
        let size = self.sizes.remove(&seq).unwrap_or(0);
        self.bytes = self.bytes.saturating_sub(size);
        self.by_seq.remove(&seq)
    }

    /// Whether a shown URL card waits on `elicitation_id` (O(n), n at most
    /// [`MAX_PENDING_CARDS`]).
    fn shows_url(&self, elicitation_id: &str) -> bool {
        self.iter()
            .any(|card| card.elicitation_id() == Some(elicitation_id))
    }

    /// Adds `card`, replacing one with the same id, making room by dropping spent cards,
    /// oldest first. `Err` (and nothing else changes) when the list is full of cards still
    /// waiting for the person.
    fn add(&mut self, card: Pending) -> Result<(), Refusal> {
        self.remove(&card.id);
        let size = card.size();
        let full = |cards: &Self| {
            if cards.by_seq.len() >= MAX_PENDING_CARDS {
                Some(Refusal::Count)
            } else if cards.bytes.saturating_add(size) > MAX_PENDING_CARD_BYTES {
                Some(Refusal::Bytes)
            } else {
                None
            }
        };
        while let Some(why) = full(self) {
            let Some(oldest) = self.spent.first().copied() else {
                return Err(why);
            };
            if let Some(gone) = self.forget(oldest) {
                self.seq_of.remove(&gone.id);
            }
        }
        self.seq_of.insert(card.id.clone(), card.seq);
        self.sizes.insert(card.seq, size);
        self.bytes = self.bytes.saturating_add(size);
        self.by_seq.insert(card.seq, card);
        Ok(())
    }

    /// The card routed as `id` can no longer be answered: it stays, but makes room first.
    fn retire(&mut self, id: &str) {
        if let Some(&seq) = self.seq_of.get(id) {
            self.spent.insert(seq);
        }
    }

    /// The answer to `id` was delivered: a form card goes; a URL card stays, showing its
    /// waiting state until complete, but may make room for new cards.
    fn answered(&mut self, id: &str) {
        let Some(&seq) = self.seq_of.get(id) else {
            return;
        };
        match self.by_seq.get(&seq) {
            Some(card) if card.is_url() => {
                self.spent.insert(seq);
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
    /// `elicitationId`s the server reported complete (ends URL cards' waiting state). Only
    /// those of URL cards shown are kept, so a server cannot fill it with completions of
    /// elicitations it never asked; it holds at most about 2 × [`MAX_PENDING_CARDS`] ids.
    pub completed: RwSignal<HashSet<String>>,
    /// Informational lines from the client (e.g. a re-initialised session).
    pub notice: RwSignal<Option<String>>,
    /// Requests were refused because [`MAX_PENDING_CARDS`] cards were showing.
    pub overflowed: RwSignal<bool>,
    /// Requests were refused because the cards showing held [`MAX_PENDING_CARD_BYTES`].
    pub too_large: RwSignal<bool>,
    /// Routing ids of requests refused by the list itself, for [`PendingList`] to answer
    /// `cancel` (it holds the answer path).
    refused: RwSignal<Vec<String>>,
    arrivals: StoredValue<u64>,
    /// The arrival number of the latest request that got a card (0: none yet): what
    /// [`PendingList`] announces and, when asked to, brings into view.
    pub arrived: RwSignal<u64>,
}

impl PendingRequests {
    pub fn new() -> Self {
        PendingRequests {
            items: RwSignal::new(Cards::default()),
            completed: RwSignal::new(HashSet::new()),
            notice: RwSignal::new(None),
            overflowed: RwSignal::new(false),
            too_large: RwSignal::new(false),
            refused: RwSignal::new(Vec::new()),
            arrivals: StoredValue::new(0),
            arrived: RwSignal::new(0),
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
        self.completed.set(HashSet::new());
        self.overflowed.set(false);
        self.too_large.set(false);
    }

    /// The status signal of the card routed as `id`, if it is shown.
    fn status_of(self, id: &str) -> Option<ArcRwSignal<SendStatus>> {
        self.items
            .try_with_untracked(|cards| {
                let seq = cards.seq_of.get(id)?;
                cards.by_seq.get(seq).map(|card| card.status.clone())
            })
            .flatten()
    }

    /// Shows `event`. The signals may be disposed already (the host freed its `McpClient`
    /// while the connection's tasks still report): every read is a `try_`, and an event for
    /// a freed list changes nothing.
    fn apply(self, event: ClientEvent, server: ArcRwSignal<Option<ServerIdentity>>) {
        match event {
            ClientEvent::Elicit { id, key, params } => {
                let Some(seq) = self.arrivals.try_get_value().map(|n| n.wrapping_add(1)) else {
                    return;
                };
                self.arrivals.set_value(seq);
                let card = Pending {
                    seq,
                    id: id.clone(),
                    key,
                    params: Arc::new(params),
                    status: ArcRwSignal::new(SendStatus::Idle),
                    server,
                    retired: ArcRwSignal::new(None),
                    call_ended: ArcRwSignal::new(false),
                };
                let mut added = Ok(());
                self.items.update(|cards| added = cards.add(card));
                match added {
                    Ok(()) => self.arrived.set(seq),
                    Err(why) => {
                        match why {
                            Refusal::Count => self.overflowed.set(true),
                            Refusal::Bytes => self.too_large.set(true),
                        }
                        self.refused.update(|ids| ids.push(id));
                    }
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
            ClientEvent::Completed { elicitation_id } => {
                let shown = self
                    .items
                    .try_with_untracked(|cards| cards.shows_url(&elicitation_id))
                    .unwrap_or(false);
                if !shown
                    || self
                        .completed
                        .try_with_untracked(|c| c.contains(&elicitation_id))
                        .unwrap_or(true)
                {
                    return;
                }
                self.completed.update(|done| {
                    if done.len() >= MAX_PENDING_CARDS {
                        // Keep only the ids of cards still shown: at most the cap.
                        self.items.try_with_untracked(|cards| {
                            let waiting: HashSet<&str> =
                                cards.iter().filter_map(Pending::elicitation_id).collect();
                            done.retain(|id| waiting.contains(id.as_str()));
                        });
                    }
                    done.insert(elicitation_id);
                })
            }
            ClientEvent::CallEnded { id } => {
                let ended = self
                    .items
                    .try_with_untracked(|cards| cards.get(&id).map(|card| card.call_ended.clone()))
                    .flatten();
                if let Some(ended) = ended {
                    ended.set(true);
                }
            }
            ClientEvent::Notice(text) => self.notice.set(Some(text)),
            ClientEvent::Server(identity) => server.set(Some(identity)),
            ClientEvent::CardsRefused => self.overflowed.set(true),
            ClientEvent::Retired { id, reason } => {
                let retired = self
                    .items
                    .try_with_untracked(|cards| cards.get(&id).map(|card| card.retired.clone()))
                    .flatten();
                if let Some(retired) = retired {
                    retired.set(Some(reason));
                }
                self.items.update(|cards| cards.retire(&id))
            }
        }
    }
}

impl Default for PendingRequests {
    fn default() -> Self {
        Self::new()
    }
}

/// What to do with a card's answer: deliver it (routed by the card's `id`) and report into
/// the card's status. [`deliver`] is the one way to do that; an [`AnswerFn`] finds the
/// connection and calls it.
pub type AnswerFn = Callback<(String, ElicitResult, RwSignal<SendStatus>)>;

/// Delivers the answer to the card routed as `id` on `connection` (`None`: not connected)
/// and reports into the card's `status`: `Sending`, then `Sent`, or `Failed` in words (the
/// card keeps what was typed, and Submit sends it again).
///
/// A legacy server that restarted lost the request the answer was for
/// ([`ClientError::RequestLost`]): the session keeps the answer, and sends it at once when
/// the card's own call ([`Connection::call_of`]) is made again and asks the same question.
/// `rerun` may make that call now: given the [`Call`], it starts it and returns `true`; the
/// card then stays `Sending` until the session reports how the resend went
/// ([`ClientEvent::Answered`] or [`ClientEvent::AnswerFailed`]). When `rerun` returns
/// `false` (a host that leaves calls to its own code), or the card has no call, the card
/// says its answer is kept.
pub fn deliver(
    connection: Option<Connection>,
    id: String,
    result: ElicitResult,
    status: RwSignal<SendStatus>,
    rerun: impl FnOnce(Call) -> bool + 'static,
) {
    // The card's words (`deliver` runs in its click, where its context is).
    let m = crate::i18n::use_messages();
    let Some(connection) = connection else {
        status.set(SendStatus::Failed(ClientError::NotConnected.words(&m)));
        return;
    };
    status.set(SendStatus::Sending);
    leptos::task::spawn_local(async move {
        match connection.answer(&id, result).await {
            Ok(()) => status.set(SendStatus::Sent),
            Err(ClientError::RequestLost) => {
                let rerun_now = connection.call_of(&id).is_some_and(rerun);
                if !rerun_now {
                    // What a card says when its answer is kept for a call that is
                    // not made again at once.
                    status.set(SendStatus::Failed(m.t("pending.kept_for_rerun", &[])));
                }
            }
            Err(err) => status.set(SendStatus::Failed(err.words(&m))),
        }
    });
}

/// What the list's live region says when a request arrives: who asks. (Polite: it waits
/// for the screen reader to finish, and takes no focus.)
fn announcement(m: &crate::i18n::Messages, server: Option<ServerIdentity>) -> String {
    match server {
        Some(ServerIdentity {
            name: Some(name),
            host,
        }) => m.t(
            "pending.new_request",
            &[("server", name.as_str()), ("host", host.as_str())],
        ),
        Some(ServerIdentity { name: None, host }) => {
            m.t("pending.new_request_host", &[("host", host.as_str())])
        }
        None => m.t("pending.new_request_unknown", &[]),
    }
}

/// Every pending card, in arrival order, and a notice when requests were refused.
///
/// A polite live region (`[data-testid=request-announcer]`, `role="status"`) says who asks
/// when a request arrives, without moving the focus. With `reveal` true when a request
/// arrives (the person has just acted: pressed Call tool, Submit, Open), its card is
/// brought into view ([`reveal`](crate::components::reveal)).
#[component]
pub fn PendingList(
    requests: PendingRequests,
    on_answer: AnswerFn,
    #[prop(optional, into)] reveal: Option<Signal<bool>>,
) -> impl IntoView {
    let list_ref = NodeRef::<leptos::html::Section>::new();
    let reveal = reveal.unwrap_or_else(|| Signal::stored(false));
    Effect::new(move |seen: Option<u64>| {
        let now = requests.arrived.get();
        if seen.is_some_and(|seen| seen != now) && reveal.get_untracked() {
            if let Some(list) = list_ref.get_untracked() {
                // Once the new card is laid out; cards go in arrival order, so it is last.
                request_animation_frame(move || {
                    if let Some(card) = list
                        .last_element_child()
                        .filter(|el| el.has_attribute("data-elicitation"))
                    {
                        crate::components::reveal(&card);
                    }
                });
            }
        }
        now
    });
    let m = crate::i18n::use_messages();
    let said = m.clone();
    let announced = move || {
        let seq = requests.arrived.get();
        let server = requests
            .items
            .with(|cards| cards.by_seq.get(&seq).map(|card| card.server.clone()))?;
        Some(announcement(&said, server.get()))
    };
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
    let too_many = m.count("pending.too_many", MAX_PENDING_CARDS as u64, &[]);
    let too_large = m.count(
        "pending.too_large",
        (MAX_PENDING_CARD_BYTES / (1024 * 1024)) as u64,
        &[],
    );
    view! {
        <section class="pending" aria-label=m.t("pending.label", &[]) node_ref=list_ref>
            <p class="mce-announcer" role="status" aria-live="polite" data-testid="request-announcer">
                {announced}
            </p>
            {move || requests.overflowed.get().then(|| view! {
                <p class="mce-cards-refused" role="alert" data-testid="cards-refused">
                    {too_many.clone()}
                </p>
            })}
            {move || requests.too_large.get().then(|| view! {
                <p class="mce-cards-refused" role="alert" data-testid="cards-too-large">
                    {too_large.clone()}
                </p>
            })}
            <For
                each=move || requests.items.with(|cards| cards.iter().cloned().collect::<Vec<_>>())
                key=|p: &Pending| (p.seq, p.id.clone())
                children=move |p: Pending| {
                    let id = p.id.clone();
                    // Arena handles owned by this row (freed with it) for whoever delivers
                    // the answer; a report after the row is gone is then a no-op.
                    let status = RwSignal::from(p.status.clone());
                    let retired = RwSignal::from(p.retired.clone());
                    let answer = Callback::new(move |result| {
                        // A retired card has nobody to answer (a key press may still try).
                        if retired.get_untracked().is_none() {
                            on_answer.run((id.clone(), result, status))
                        }
                    });
                    let shown = Signal::derive(move || match retired.get() {
                        Some(reason) => SendStatus::Gone(reason),
                        None => status.get(),
                    });
                    let server = p.server.clone();
                    let call_ended = p.call_ended.clone();
                    view! {
                        <ElicitationView
                            key=p.key.clone()
                            params=(*p.params).clone()
                            on_answer=answer
                            status=shown
                            completed=Signal::from(requests.completed)
                            server=Signal::derive(move || server.get())
                            call_ended=Signal::derive(move || call_ended.get())
                        />
                    }
                }
            />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_elicit::wire::ElicitRequestParams;
    use serde_json::json;

    fn params(v: serde_json::Value) -> ElicitRequestParams {
        serde_json::from_value(v).unwrap_or_else(|e| panic!("params: {e}"))
    }

    fn form(sink: &EventSink, id: &str, message: &str) {
        sink(ClientEvent::Elicit {
            id: id.to_owned(),
            key: id.to_owned(),
            params: params(json!({
                "message": message,
                "requestedSchema": {"type": "object", "properties": {"x": {"type": "string"}}}
            })),
        });
    }

    fn url(sink: &EventSink, id: &str, elicitation_id: &str) {
        sink(ClientEvent::Elicit {
            id: id.to_owned(),
            key: id.to_owned(),
            params: params(json!({
                "mode": "url", "message": "Visit", "url": "https://example.com/",
                "elicitationId": elicitation_id
            })),
        });
    }

    fn ids(requests: PendingRequests) -> Vec<String> {
        requests
            .items
            .with_untracked(|cards| cards.iter().map(|c| c.id.clone()).collect())
    }

    #[test]
    fn only_completions_of_shown_url_cards_are_kept_and_clear_forgets_them() {
        let requests = PendingRequests::new();
        let sink = requests.sink();
        url(&sink, "u1", "e1");
        // An endless stream of completions for elicitations nobody was shown.
        for i in 0..10_000 {
            sink(ClientEvent::Completed {
                elicitation_id: format!("never-shown-{i}"),
            });
        }
        assert_eq!(requests.completed.with_untracked(HashSet::len), 0);
        sink(ClientEvent::Completed {
            elicitation_id: "e1".into(),
        });
        assert!(requests.completed.with_untracked(|c| c.contains("e1")));
        requests.clear();
        assert_eq!(requests.completed.with_untracked(HashSet::len), 0);
    }

    #[test]
    fn requests_beyond_the_byte_budget_are_refused() {
        let requests = PendingRequests::new();
        let sink = requests.sink();
        let big = "m".repeat(1024 * 1024);
        let sent = 40;
        for i in 0..sent {
            form(&sink, &format!("r{i}"), &big);
        }
        let shown = ids(requests).len();
        assert!(shown < sent, "all {shown} big cards were kept");
        let refused = requests.refused.get_untracked();
        assert_eq!(refused.len(), sent - shown, "every refused one is answered");
        assert_eq!(refused.first(), Some(&format!("r{shown}")));
        // Once a card goes, its bytes are free again.
        sink(ClientEvent::Answered { id: "r0".into() });
        form(&sink, "again", &big);
        assert_eq!(ids(requests).last().map(String::as_str), Some("again"));
    }

    #[test]
    fn retired_cards_stay_worded_but_make_room() {
        let requests = PendingRequests::new();
        let sink = requests.sink();
        for i in 0..MAX_PENDING_CARDS {
            form(&sink, &format!("old{i}"), "Asked by a call that failed");
        }
        for i in 0..MAX_PENDING_CARDS {
            sink(ClientEvent::Retired {
                id: format!("old{i}"),
                reason: "The call failed: HTTP 500.".into(),
            });
        }
        let first = requests
            .items
            .with_untracked(|cards| cards.get("old0").map(|c| c.retired.get_untracked()));
        assert!(
            matches!(first, Some(Some(ref why)) if why.contains("HTTP 500")),
            "{first:?}"
        );
        for i in 0..MAX_PENDING_CARDS {
            form(&sink, &format!("new{i}"), "A later call asks");
        }
        assert!(
            requests.refused.get_untracked().is_empty(),
            "nothing refused"
        );
        assert!(!requests.overflowed.get_untracked());
        let shown = ids(requests);
        assert_eq!(shown.len(), MAX_PENDING_CARDS);
        assert!(shown.iter().all(|id| id.starts_with("new")));
    }
}
