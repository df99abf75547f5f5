//! One pending elicitation: the `[data-elicitation]` container, who is asking (and, on a
//! form, one quiet line to give it only to a server you trust), the server's message as
//! text, and the form or URL card its params call for.

use super::ids;
use super::schema_form::{status_line, SchemaForm};
use super::status::SendStatus;
use super::url_card::{CardState, UrlCard};
use crate::client::ServerIdentity;
use crate::i18n::{use_messages, Messages};
use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
use std::collections::HashSet;

/// Who is asking, per the DOM contract (`[data-testid=requesting-server]`): the server's
/// name and the endpoint's host, as text. The name is isolated (`<bdi>`) so right-to-left
/// or override characters in it cannot reorder the host shown after it; a long one is cut
/// short on screen (CSS) but whole in the text and its tooltip.
fn requesting_server(server: MaybeProp<ServerIdentity>, m: Messages) -> impl IntoView {
    use leptos::either::Either;
    move || {
        server.get().map(|s| {
            let host = s.host.clone();
            // The sentence's own words around the name and the host, in the language's order.
            let view = match s.name {
                Some(n) => {
                    let (order, texts) = m.cut("card.asked_by", &["server", "host"], &[]);
                    let mut texts = texts.into_iter();
                    let mut next = || texts.next().unwrap_or_default();
                    let (label, between, after) = (next(), next(), next());
                    let tooltip = n.clone();
                    let name = view! { <bdi class="mce-server-name" title=tooltip>{n}</bdi> };
                    let host = view! { <span class="mce-server-host">{host}</span> };
                    if order.first().is_some_and(|o| o == "host") {
                        Either::Left(view! {
                            <span class="mce-requester-label">{label}</span>
                            {host} {between} {name} {after}
                        })
                    } else {
                        Either::Right(Either::Left(view! {
                            <span class="mce-requester-label">{label}</span>
                            {name} {between} {host} {after}
                        }))
                    }
                }
                None => {
                    let (_, texts) = m.cut("card.asked_by_host", &["host"], &[]);
                    let mut texts = texts.into_iter();
                    let (label, after) = (
                        texts.next().unwrap_or_default(),
                        texts.next().unwrap_or_default(),
                    );
                    Either::Right(Either::Right(view! {
                        <span class="mce-requester-label">{label}</span>
                        <span class="mce-server-host">{host}</span>
                        {after}
                    }))
                }
            };
            view! {
                <p class="mce-requester" part="requester" data-testid="requesting-server">
                    {view}
                </p>
            }
        })
    }
}

/// One elicitation, form or URL mode, answered through `on_answer`.
#[component]
pub fn ElicitationView(
    /// The request's key: the modern `inputRequests` key or the legacy JSON-RPC id.
    #[prop(into)]
    key: String,
    /// The params as on the wire.
    params: ElicitRequestParams,
    /// Receives the answer (again, if the user resends after a failure).
    on_answer: Callback<ElicitResult>,
    /// How sending the answer went (see the module docs).
    #[prop(optional, into)]
    status: Option<Signal<SendStatus>>,
    /// The `elicitationId`s the server has completed (`notifications/elicitation/complete`).
    #[prop(optional, into)]
    completed: Option<Signal<HashSet<String>>>,
    /// Focus the first field on mount.
    #[prop(default = true)]
    autofocus: bool,
    /// Who is asking: shown in the card when given (the app and the host API always do).
    #[prop(optional, into)]
    server: MaybeProp<ServerIdentity>,
    /// The call that asked has returned: an opened URL card stops waiting and says so.
    #[prop(optional, into)]
    call_ended: Option<Signal<bool>>,
) -> impl IntoView {
    let status = status.unwrap_or_else(|| Signal::stored(SendStatus::Idle));
    let m = use_messages();
    let (lang, dir) = (m.lang(), m.dir());
    // Set once the user has answered; undone by a failed send so they can answer again.
    let answered = RwSignal::new(false);
    let answer = Callback::new(move |r: ElicitResult| {
        answered.set(true);
        on_answer.run(r);
    });
    let message = params.message().to_owned();
    // The message names the section for screen readers (a labelled region per request).
    let msg_id = format!("{}-msg", ids::prefix());
    let label_id = msg_id.clone();
    let form_label = msg_id.clone();

    match params {
        ElicitRequestParams::Url(url) => {
            let card = RwSignal::new(CardState::Pending);
            // Once opened, the card's own state wins: the answer may still be on its way
            // (a modern replay takes as long as the call), but the user is now waiting for
            // the site, which the status line under the buttons says apart.
            let data_state = move || match (status.get(), card.get()) {
                (_, CardState::Complete) => CardState::Complete.as_str(),
                // Withdrawn while waiting: nothing is waited for any more.
                (SendStatus::Gone(_), _) => "closed",
                (_, CardState::Waiting) => CardState::Waiting.as_str(),
                (SendStatus::Sending, _) => "sending",
                (SendStatus::Failed(_), CardState::Pending) => "failed",
                (_, c) => c.as_str(),
            };
            view! {
                <section class="mce-elicitation" part="card" data-elicitation=key data-mode="url" data-state=data_state aria-labelledby=label_id lang=lang dir=dir>
                    {requesting_server(server, m.clone())}
                    <p class="mce-message" part="message" id=msg_id>{message}</p>
                    <UrlCard params=url on_answer=answer state=card status=status completed=completed.unwrap_or_else(|| Signal::stored(HashSet::new())) call_ended=call_ended.unwrap_or_else(|| Signal::stored(false)) />
                </section>
            }
            .into_any()
        }
        ElicitRequestParams::Form(form) => {
            let data_state = move || match status.get() {
                SendStatus::Sending => "sending",
                SendStatus::Failed(_) => "failed",
                SendStatus::Sent => "answered",
                SendStatus::Gone(_) => "closed",
                SendStatus::Idle if answered.get() => "answered",
                SendStatus::Idle => "pending",
            };
            // Once answered (and not failed), the form is read-only: the answer is given.
            let locked = Signal::derive(move || {
                matches!(status.get(), SendStatus::Gone(_))
                    || (answered.get() && !matches!(status.get(), SendStatus::Failed(_)))
            });
            // Compiled once per request: a host's `onElicitation` check may have done it.
            let body = match form.spec() {
                Ok(spec) => view! {
                    <SchemaForm
                        // A form with no fields is a bare confirmation: there is nothing to submit.
                        submit_label=m.t(if spec.fields.is_empty() { "button.confirm" } else { "button.submit" }, &[])
                        spec=spec.clone()
                        on_submit=Callback::new(move |content| answer.run(ElicitResult::accept(Some(content))))
                        on_decline=Callback::new(move |_| answer.run(ElicitResult::decline()))
                        on_cancel=Callback::new(move |_| answer.run(ElicitResult::cancel()))
                        status=status
                        disabled=locked
                        autofocus=autofocus
                        labelled_by=form_label.clone()
                    />
                }
                .into_any(),
                Err(e) => {
                    let reason = m.refusal(e);
                    let refusal = if e.path.is_empty() {
                        m.t("card.schema_refused", &[("reason", &reason)])
                    } else {
                        m.t("card.schema_refused_at", &[("reason", &reason), ("path", &e.path)])
                    };
                    let (decline, cancel) = (m.t("button.decline", &[]), m.t("button.cancel", &[]));
                    let resend = m.t("card.resend_buttons", &[]);
                    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
                        if ev.key() == "Escape" && !locked.get_untracked() {
                            ev.prevent_default();
                            answer.run(ElicitResult::cancel());
                        }
                    };
                    view! {
                        <div class="mce-schema-refused" on:keydown=on_keydown>
                            <p class="mce-refusal" role="alert">
                                {refusal}
                            </p>
                            {move || (!matches!(status.get(), SendStatus::Gone(_))).then(|| view! {
                                <div class="mce-actions" part="actions">
                                    <button type="button" part="button" prop:disabled=move || locked.get()
                                        on:click=move |_| answer.run(ElicitResult::decline())>{decline.clone()}</button>
                                    <button type="button" part="button" prop:disabled=move || locked.get()
                                        on:click=move |_| answer.run(ElicitResult::cancel())>{cancel.clone()}</button>
                                </div>
                            })}
                            {move || matches!(status.get(), SendStatus::Gone(_))
                                .then(|| status_line(status, resend.clone()))}
                        </div>
                    }
                    .into_any()
                }
            };
            view! {
                <section class="mce-elicitation" part="card" data-elicitation=key data-mode="form" data-state=data_state aria-labelledby=label_id lang=lang dir=dir>
                    {requesting_server(server, m.clone())}
                    <p class="mce-trust" part="trust">{m.t("card.trust", &[])}</p>
                    <p class="mce-message" part="message" id=msg_id>{message}</p>
                    {body}
                </section>
            }
            .into_any()
        }
    }
}
