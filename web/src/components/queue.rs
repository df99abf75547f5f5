//! Several pending elicitations shown together, each answered on its own, with a signal to
//! the caller once every one has an answer (a modern round is replayed only then).

use super::elicitation::ElicitationView;
use super::status::SendStatus;
use crate::client::ServerIdentity;
use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
use std::collections::{HashMap, HashSet};

/// One entry of the queue.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingElicitation {
    /// The `inputRequests` key (modern) or JSON-RPC id (legacy): `[data-elicitation]`.
    pub key: String,
    /// Which round this request belongs to, so a key reused in a later round gets a fresh
    /// view; legacy clients may leave it 0 (ids do not repeat within a session).
    pub round: u64,
    pub params: ElicitRequestParams,
    /// How sending this entry's answer went.
    pub status: Signal<SendStatus>,
}

/// The list. Answers are remembered per `(round, key)`; `on_all_answered` fires each time
/// the last unanswered entry of the current list is answered, with the answers in list order.
#[component]
pub fn ElicitationQueue(
    #[prop(into)] items: Signal<Vec<PendingElicitation>>,
    on_answer: Callback<(String, ElicitResult)>,
    #[prop(optional)] on_all_answered: Option<Callback<Vec<(String, ElicitResult)>>>,
    #[prop(optional, into)] completed: Option<Signal<HashSet<String>>>,
    /// Who is asking, shown in every card.
    #[prop(optional, into)]
    server: MaybeProp<ServerIdentity>,
) -> impl IntoView {
    let completed = completed.unwrap_or_else(|| Signal::stored(HashSet::new()));
    // By (round, key): a server-sized round costs O(1) per answer to record and O(n) to
    // collect, never a scan of every answer per item.
    let answers = StoredValue::new(HashMap::<(u64, String), ElicitResult>::new());

    let record = move |round: u64, key: String, result: ElicitResult| {
        answers.update_value(|map| {
            map.insert((round, key.clone()), result.clone());
        });
        on_answer.run((key, result));
        if let Some(all) = on_all_answered {
            let current = items.get_untracked();
            let collected: Option<Vec<(String, ElicitResult)>> = answers.with_value(|map| {
                current
                    .iter()
                    .map(|item| {
                        map.get(&(item.round, item.key.clone()))
                            .map(|r| (item.key.clone(), r.clone()))
                    })
                    .collect()
            });
            if let Some(collected) = collected.filter(|c| !c.is_empty()) {
                all.run(collected);
            }
        }
    };

    view! {
        <div class="mce-queue" data-testid="elicitation-queue">
            <For
                each=move || items.get()
                key=|item| (item.round, item.key.clone())
                children=move |item: PendingElicitation| {
                    let first = items
                        .with_untracked(|list| list.first().map(|f| f.round == item.round && f.key == item.key))
                        .unwrap_or(false);
                    let round = item.round;
                    let key = item.key.clone();
                    view! {
                        <ElicitationView
                            key=item.key.clone()
                            params=item.params.clone()
                            on_answer=Callback::new(move |r| record(round, key.clone(), r))
                            status=item.status
                            completed=completed
                            autofocus=first
                            server=server
                        />
                    }
                }
            />
        </div>
    }
}
