//! The URL-mode consent card: which site the server wants the user to visit, and the choice
//! to go there (in a new tab, without giving that page a handle on this one), decline or cancel.

use super::schema_form::status_line;
use super::status::SendStatus;
use crate::i18n::use_messages;
use leptos::prelude::*;
use mcp_elicit::url_policy;
use mcp_elicit::wire::ElicitResult;
use mcp_elicit::wire::UrlParams;

/// What the card is doing, mirrored into `[data-elicitation][data-state]` by the parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardState {
    Pending,
    Waiting,
    Complete,
    Dismissed,
    Answered,
}

impl CardState {
    pub fn as_str(self) -> &'static str {
        match self {
            CardState::Pending => "pending",
            CardState::Waiting => "waiting",
            CardState::Complete => "complete",
            CardState::Dismissed => "dismissed",
            CardState::Answered => "answered",
        }
    }
}

/// Opens `href` in a new browsing context with no `window.opener` and no referrer.
/// Only ever called from the Open button's click handler, so the browser sees a user gesture.
fn open_new_tab(href: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or_else(|| "there is no browser window".to_owned())?;
    window
        .open_with_url_and_target_and_features(href, "_blank", "noopener,noreferrer")
        .map(|_| ())
        .map_err(|_| "the browser refused to open a new tab".to_owned())
}

/// The card. `state` is owned by the parent so it can show it on the container.
#[component]
pub fn UrlCard(
    params: UrlParams,
    on_answer: Callback<ElicitResult>,
    state: RwSignal<CardState>,
    #[prop(optional, into)] status: Option<Signal<SendStatus>>,
    #[prop(optional, into)] completed: Option<Signal<std::collections::HashSet<String>>>,
    #[prop(optional, into)] call_ended: Option<Signal<bool>>,
) -> impl IntoView {
    let status = status.unwrap_or_else(|| Signal::stored(SendStatus::Idle));
    let id = params.elicitation_id.clone();
    if let Some(completed) = completed {
        Effect::new(move |_| {
            // Tracks the state too: a completion that arrived before the click still ends
            // the wait as soon as the card starts waiting.
            let done = completed.with(|c| c.contains(&id));
            if done && state.get() == CardState::Waiting {
                state.set(CardState::Complete);
            }
        });
    }
    let call_ended = call_ended.unwrap_or_else(|| Signal::stored(false));
    let busy =
        Signal::derive(move || matches!(status.get(), SendStatus::Sending | SendStatus::Gone(_)));
    let gone = Signal::derive(move || matches!(status.get(), SendStatus::Gone(_)));
    let open_error = RwSignal::new(None::<String>);
    let m = use_messages();
    let (decline, cancel) = (m.t("button.decline", &[]), m.t("button.cancel", &[]));

    let decline_cancel = move || {
        let (decline, cancel) = (decline.clone(), cancel.clone());
        view! {
            <button type="button" part="button" prop:disabled=move || busy.get()
                on:click=move |_| { state.set(CardState::Answered); on_answer.run(ElicitResult::decline()) }>
                {decline}
            </button>
            <button type="button" part="button" prop:disabled=move || busy.get()
                on:click=move |_| { state.set(CardState::Answered); on_answer.run(ElicitResult::cancel()) }>
                {cancel}
            </button>
        }
    };

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape"
            && state.get_untracked() == CardState::Pending
            && !busy.get_untracked()
        {
            ev.prevent_default();
            state.set(CardState::Answered);
            on_answer.run(ElicitResult::cancel());
        }
    };

    let body = match url_policy::check(&params.url) {
        Err(refusal) => view! {
            <div class="mce-url-refused" role="alert">
                <p class="mce-refusal-title">{m.t("url.refused", &[])}</p>
                <p class="mce-refusal-reason">{m.url_refusal(&refusal)}</p>
            </div>
            <p class="mce-url-full">
                <span class="mce-url-label">{m.t("url.link", &[])} " "</span>
                <code class="mce-url">{params.url.clone()}</code>
            </p>
            {move || (!gone.get()).then(|| view! {
                <div class="mce-actions" part="actions">{decline_cancel()}</div>
            })}
        }
        .into_any(),
        Ok(safe) => {
            let href = safe.href.clone();
            let (m_state, m_error) = (m.clone(), m.clone());
            let host_line = match safe.port {
                Some(p) => format!("{}:{p}", safe.host_display),
                None => safe.host_display.clone(),
            };
            let punycode = safe.is_internationalised().then(|| {
                let (_, texts) = m.cut("url.in_ascii", &["host"], &[]);
                let mut texts = texts.into_iter();
                let (before, after) = (
                    texts.next().unwrap_or_default(),
                    texts.next().unwrap_or_default(),
                );
                view! {
                    <p class="mce-host-ascii">
                        {before} <code>{safe.host_ascii.clone()}</code> {after}
                    </p>
                }
            });
            view! {
                <div class="mce-host-box">
                    <span class="mce-host-label">{m.t("url.visit", &[])}</span>
                    <strong class="mce-host" part="host" data-testid="url-host">{host_line}</strong>
                    {punycode}
                </div>
                <p class="mce-url-full">
                    <span class="mce-url-label">{m.t("url.full_address", &[])} " "</span>
                    <code class="mce-url" part="url" data-testid="url-full">{safe.href.clone()}</code>
                </p>
                {move || { let m = &m_state; match state.get() {
                    // Withdrawn: the status line says so; nothing is offered or waited for.
                    CardState::Pending | CardState::Waiting if gone.get() => ().into_any(),
                    CardState::Pending => view! {
                        <div class="mce-actions" part="actions">
                            <button type="button" class="mce-primary" part="button primary" prop:disabled=move || busy.get()
                                on:click={
                                    let href = href.clone();
                                    move |_| match open_new_tab(&href) {
                                        Ok(()) => {
                                            open_error.set(None);
                                            state.set(CardState::Waiting);
                                            on_answer.run(ElicitResult::accept(None));
                                        }
                                        Err(e) => open_error.set(Some(e)),
                                    }
                                }>
                                {m.t("button.open_new_tab", &[])}
                            </button>
                            {decline_cancel()}
                        </div>
                    }.into_any(),
                    // The call that asked has returned: nothing waits for the site any more
                    // (many servers never confirm then). The state stays `waiting`, as the
                    // DOM contract says, since a completion may still come.
                    CardState::Waiting if call_ended.get() => view! {
                        <p class="mce-waiting mce-call-ended" role="status" data-call-ended="">
                            {m.t("url.call_ended", &[])}
                        </p>
                        <div class="mce-actions" part="actions">
                            <button type="button" part="button" on:click=move |_| state.set(CardState::Dismissed)>{m.t("button.dismiss", &[])}</button>
                        </div>
                    }.into_any(),
                    CardState::Waiting => view! {
                        <p class="mce-waiting" role="status">
                            {m.t("url.waiting", &[])}
                        </p>
                        <div class="mce-actions" part="actions">
                            <button type="button" part="button" on:click=move |_| state.set(CardState::Dismissed)>{m.t("button.dismiss", &[])}</button>
                        </div>
                    }.into_any(),
                    CardState::Complete => view! {
                        <p class="mce-complete" role="status">{m.t("url.complete", &[])}</p>
                    }.into_any(),
                    CardState::Dismissed => view! {
                        <p class="mce-dismissed" role="status">{m.t("url.dismissed", &[])}</p>
                    }.into_any(),
                    CardState::Answered => view! {
                        <p class="mce-answered" role="status">{m.t("url.answered", &[])}</p>
                    }.into_any(),
                }}}
                {move || open_error.get().map(|e| view! {
                    <p class="mce-status mce-failed" role="alert">{m_error.t("url.open_failed", &[("reason", e.trim_end_matches('.'))])}</p>
                })}
            }
            .into_any()
        }
    };

    // After a failed send the parent reports `Failed`: go back to pending so Open (or
    // Decline / Cancel) can be pressed again.
    Effect::new(move |_| {
        if matches!(status.get(), SendStatus::Failed(_)) {
            state.set(CardState::Pending);
        }
    });

    view! {
        <div class="mce-url-card" on:keydown=on_keydown tabindex="-1">
            {body}
            {status_line(status, m.t("card.resend_buttons", &[]))}
        </div>
    }
}
