//! The sign-in card (`[data-testid=sign-in]`): which server asks the person to sign in,
//! where they will sign in, and the button that opens that page. It lives in the client's
//! container, beside the elicitation cards, for as long as one sign-in waits for the
//! person; it never takes focus (the person may be typing elsewhere).
//!
//! The popup opens inside the button's click handler, the only place a browser lets a
//! page open one: later, in a task, it would be blocked.

use futures::channel::mpsc;
use leptos::mount::{mount_to, UnmountHandle};
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use wasm_bindgen::JsCast;

use super::glue;
use crate::i18n::Messages;

/// What the person did on the card.
pub enum Click {
    /// **Sign in**: the popup opened (the window, to watch for its closing).
    Opened(web_sys::Window),
    /// **Sign in**, but the browser blocked the popup.
    Blocked,
    /// **Cancel**: the person does not want to sign in now.
    Cancel,
}

/// A shown card. Dropping it removes it.
pub struct Card {
    server_host: RwSignal<String>,
    issuer_host: RwSignal<String>,
    url: RwSignal<String>,
    note: RwSignal<Option<String>>,
    waiting: RwSignal<bool>,
    clicks: mpsc::UnboundedReceiver<Click>,
    place: Option<web_sys::Element>,
    _view: Option<UnmountHandle<AnyViewState>>,
    _owner: Owner,
}

impl Card {
    /// Shows a card at the end of `container`, in the language of `m`.
    pub fn show(container: &web_sys::HtmlElement, m: Messages) -> Card {
        let owner = Owner::new();
        let (tx, clicks) = mpsc::unbounded();
        let (server_host, issuer_host, url, note, waiting) = owner.with(|| {
            (
                RwSignal::new(String::new()),
                RwSignal::new(String::new()),
                RwSignal::new(String::new()),
                RwSignal::new(None::<String>),
                RwSignal::new(false),
            )
        });
        let place = container
            .owner_document()
            .and_then(|doc| doc.create_element("div").ok())
            .filter(|place| container.append_child(place).is_ok());
        let view = place
            .clone()
            .and_then(|place| place.dyn_into::<web_sys::HtmlElement>().ok())
            .map(|place| {
                owner.with(|| {
                    let sign_in = tx.clone();
                    let cancel = tx;
                    mount_to(place, move || {
                        let open = move |_| {
                            let click = match glue::open_popup(&url.get_untracked()) {
                                Some(popup) => Click::Opened(popup),
                                None => Click::Blocked,
                            };
                            let _ = sign_in.unbounded_send(click);
                        };
                        let cancel = {
                            let cancel = cancel.clone();
                            move |_| {
                                let _ = cancel.unbounded_send(Click::Cancel);
                            }
                        };
                        let (lang, dir) = (m.lang(), m.dir());
                        let label = {
                            let m = m.clone();
                            move || m.t("sign_in.label", &[("host", &server_host.get())])
                        };
                        let (_, texts) = m.cut("sign_in.asks", &["host"], &[]);
                        let mut texts = texts.into_iter();
                        let (before, after) =
                            (texts.next().unwrap_or_default(), texts.next().unwrap_or_default());
                        let button = {
                            let m = m.clone();
                            move || {
                                let key = if waiting.get() { "sign_in.again" } else { "sign_in.button" };
                                m.t(key, &[("host", &issuer_host.get())])
                            }
                        };
                        view! {
                            <section class="mce-elicitation mce-sign-in" data-testid="sign-in"
                                lang=lang dir=dir aria-label=label>
                                <p class="mce-message">
                                    {before} <strong>{move || server_host.get()}</strong> {after}
                                </p>
                                <div class="mce-host-box">
                                    <span class="mce-host-label">{m.t("sign_in.at_label", &[])}</span>
                                    <strong class="mce-host" data-testid="sign-in-issuer">{move || issuer_host.get()}</strong>
                                </div>
                                <p class="mce-sign-in-note" role="status" data-testid="sign-in-note">
                                    {move || note.get().unwrap_or_default()}
                                </p>
                                <div class="mce-actions">
                                    <button type="button" class="mce-primary" on:click=open>
                                        {button}
                                    </button>
                                    <button type="button" on:click=cancel>{m.t("button.cancel", &[])}</button>
                                </div>
                            </section>
                        }
                        .into_any()
                    })
                })
            });
        Card {
            server_host,
            issuer_host,
            url,
            note,
            waiting,
            clicks,
            place,
            _view: view,
            _owner: owner,
        }
    }

    /// Shows what this sign-in is: the server's host, the authorization server's host, and
    /// the page the button opens.
    pub fn set(&self, server_host: &str, issuer_host: &str, url: &str) {
        self.server_host.set(server_host.to_owned());
        self.issuer_host.set(issuer_host.to_owned());
        self.url.set(url.to_owned());
    }

    /// A sentence on the card (why the last attempt did not finish), or none.
    pub fn say(&self, note: Option<String>) {
        self.note.set(note);
    }

    /// Whether a popup is open (the button then offers to open it again).
    pub fn set_waiting(&self, waiting: bool) {
        self.waiting.set(waiting);
    }

    /// The person's next click.
    pub async fn click(&mut self) -> Option<Click> {
        futures::StreamExt::next(&mut self.clicks).await
    }

    /// The person's click, if one came already.
    pub fn clicked(&mut self) -> Option<Click> {
        self.clicks.try_recv().ok()
    }
}

impl Drop for Card {
    fn drop(&mut self) {
        // The view first (it unmounts into `place`), then its signals with the owner.
        self._view.take();
        if let Some(place) = self.place.take() {
            place.remove();
        }
    }
}
