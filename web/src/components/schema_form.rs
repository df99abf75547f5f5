//! A compiled schema as a form: used for form-mode elicitations and, with its own
//! submit label and no Decline / Cancel, for the demo's tool input.
//!
//! The controls live in a `<div role="form">`, not a `<form>` element: a `<form>` exposes
//! each of its controls as a property named by the control's `name`, and those names are
//! the server's property names. A property called `insertBefore`, `appendChild`, `remove`,
//! `addEventListener` or `contains` would replace the method of that name on the element,
//! so the renderer (and any code) calling it on the form fails: later fields and the
//! buttons never appear. A `<div>` has no such named properties. Enter-to-submit, which a
//! `<form>` would give, is the keydown handler's; Submit is a plain button.

use super::field::{self, FormDom};
use super::form_state::FormState;
use super::ids;
use super::status::SendStatus;
use crate::i18n::use_messages;
use leptos::html;
use leptos::prelude::*;
use mcp_elicit::schema::FormSpec;
use serde_json::{Map, Value};
use wasm_bindgen::JsCast;

/// The focused element itself when it sits in (open) shadow roots: the document only
/// names their outermost host (e.g. an `<mcp-elicitation>` whose field is being typed in).
fn deepest_active(mut el: web_sys::Element) -> web_sys::Element {
    // Bounded by the nesting of shadow roots in the page; a cycle is impossible.
    while let Some(inner) = el.shadow_root().and_then(|r| r.active_element()) {
        el = inner;
    }
    el
}

/// Whether `el` is where a person types or works in a view of its own: a text control, a
/// `contenteditable` element (the usual chat composer), or an `<iframe>` (an app's view,
/// whose inside the page cannot see).
fn is_typing_place(el: &web_sys::Element) -> bool {
    let tag = el.tag_name().to_ascii_lowercase();
    matches!(tag.as_str(), "input" | "select" | "textarea" | "iframe")
        || el
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(web_sys::HtmlElement::is_content_editable)
}

/// The place the card of `root` was put in by whoever shows it: the element its
/// `[data-elicitation]` container sits in (an `elicit()` element, a card list); a form
/// outside any card is its own place.
fn place_of(root: &web_sys::Element) -> web_sys::Element {
    root.closest("[data-elicitation]")
        .ok()
        .flatten()
        .and_then(|card| card.parent_element())
        .unwrap_or_else(|| root.clone())
}

/// Whether a form just shown may take focus: only when nothing has it (`activeElement`
/// is the body, or none), or when focus is already inside the place its card was put in,
/// and not in a field of another card there being typed in. Anything else (a composer,
/// an `<iframe>`, a closed shadow root, a button of the page) is the person's: a card
/// taking focus from it would receive their typing, and Enter would answer for them.
fn may_take_focus(root: &web_sys::Element) -> bool {
    let Some(doc) = root.owner_document() else {
        return false;
    };
    let Some(active) = doc.active_element() else {
        return true;
    };
    let nobody = doc.body().is_some_and(|b| *b == active)
        || doc.document_element().is_some_and(|d| d == active);
    if nobody {
        return true;
    }
    let deep = deepest_active(active);
    if root.contains(Some(&deep)) {
        return true;
    }
    place_of(root).contains(Some(&deep)) && !is_typing_place(&deep)
}

/// Focuses the first control inside `root` when it may ([`may_take_focus`]).
fn focus_first(root: &web_sys::Element) {
    if !may_take_focus(root) {
        return;
    }
    if let Ok(Some(el)) = root.query_selector("input, select, textarea") {
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Focuses the first field whose check failed, so keyboard and screen-reader users land
/// on it. Looked up inside the form, so it works where `document` cannot see it (a host's
/// shadow root).
fn focus_first_invalid(root: &web_sys::Element, form: FormState) {
    let Some(id) = form.first_invalid() else {
        return;
    };
    // Our ids are `mce-<n>-f<i>[-o<j>]`: nothing to escape in the selector.
    let el = root
        .query_selector(&format!("[id=\"{id}\"]"))
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// The status line under the buttons: sending / failed (an alert) / sent.
pub fn status_line(status: Signal<SendStatus>, resend_hint: impl Into<String>) -> impl IntoView {
    let resend_hint: String = resend_hint.into();
    let m = use_messages();
    move || match status.get() {
        SendStatus::Idle => None,
        SendStatus::Sending => Some(
            view! { <p class="mce-status" role="status">{m.t("status.sending", &[])}</p> }
                .into_any(),
        ),
        SendStatus::Failed(reason) => Some(
            view! {
                <p class="mce-status mce-failed" role="alert">
                    // A reason that ends its own sentence gets no second full stop.
                    {m.t("status.failed", &[("reason", reason.trim_end_matches('.'))])} " "
                    {resend_hint.clone()}
                </p>
            }
            .into_any(),
        ),
        SendStatus::Sent => Some(
            view! { <p class="mce-status" role="status">{m.t("status.sent", &[])}</p> }.into_any(),
        ),
        SendStatus::Gone(reason) => Some(
            view! {
                <p class="mce-status mce-failed" role="alert" data-testid="card-closed">
                    {m.t("status.gone", &[("reason", &reason)])}
                </p>
            }
            .into_any(),
        ),
    }
}

/// A form for `spec`. Submit validates every field through the core and calls `on_submit`
/// with the typed content only when all are valid. Enter submits; Escape calls `on_cancel`.
#[component]
pub fn SchemaForm(
    /// The compiled schema (`mcp_elicit::schema::compile`).
    spec: FormSpec,
    /// Called with the content exactly as it should be sent.
    on_submit: Callback<Map<String, Value>>,
    /// The submit button's text (default the catalog's `button.submit`), e.g. "Call tool".
    #[prop(optional, into)]
    submit_label: Option<String>,
    /// Adds a Decline button.
    #[prop(optional)]
    on_decline: Option<Callback<()>>,
    /// Adds a Cancel button; Escape cancels too.
    #[prop(optional)]
    on_cancel: Option<Callback<()>>,
    /// How sending went; `Sending` and `Sent` disable the form, `Failed` shows an alert.
    #[prop(optional, into)]
    status: Option<Signal<SendStatus>>,
    /// Disables every control and button (e.g. once answered).
    #[prop(optional, into)]
    disabled: Option<Signal<bool>>,
    /// Values to start with instead of the schema defaults (e.g. a previous attempt's).
    #[prop(optional)]
    initial: Option<Map<String, Value>>,
    /// Focus the first field once mounted.
    #[prop(default = true)]
    autofocus: bool,
    /// The id of the element that names this form (its `role="form"` landmark): a card's
    /// message, so each card's form has a name of its own.
    #[prop(optional, into)]
    labelled_by: Option<String>,
    /// The form's name when no element names it (`aria-label`), e.g. a tool's name: forms
    /// side by side need names of their own.
    #[prop(optional, into)]
    form_name: Option<String>,
) -> impl IntoView {
    let prefix = ids::prefix();
    let form = FormState::build(&spec, &prefix, initial.as_ref());
    let status = status.unwrap_or_else(|| Signal::stored(SendStatus::Idle));
    let outer_disabled = disabled.unwrap_or_else(|| Signal::stored(false));
    let busy = Signal::derive(move || {
        outer_disabled.get()
            || matches!(
                status.get(),
                SendStatus::Sending | SendStatus::Sent | SendStatus::Gone(_)
            )
    });
    // A request that can no longer be answered offers no button: what was typed stays, inert.
    let gone = Signal::derive(move || matches!(status.get(), SendStatus::Gone(_)));
    let form_ref = NodeRef::<html::Div>::new();
    // A message shown on leaving a field waits for a press to be released (see there).
    field::watch_presses();

    if autofocus {
        Effect::new(move |_| {
            if let Some(form) = form_ref.get() {
                focus_first(&form);
            }
        });
    }

    // The controls start as `busy` says; one effect for the whole form follows it after.
    let busy_at_start = busy.get_untracked();
    Effect::new(move |was: Option<bool>| {
        let now = busy.get();
        if was.unwrap_or(busy_at_start) != now {
            if let Some(root) = form_ref.get_untracked() {
                field::set_disabled(&root, now);
            }
        }
        now
    });

    let title = spec.title.clone();
    let desc = spec.description.clone();
    let spec_submit = StoredValue::new(spec);
    let do_submit = move || {
        if busy.get_untracked() {
            return;
        }
        let root: Option<web_sys::Element> = form_ref.get_untracked().map(Into::into);
        let content = spec_submit
            .try_with_value(|s| form.submit(s, root.as_ref()))
            .flatten();
        match content {
            Some(c) => on_submit.run(c),
            None => {
                if let Some(root) = root {
                    focus_first_invalid(&root, form);
                }
            }
        }
    };

    // Enter answers only when pressed in this form (its own control has focus), never for
    // a key event that reaches the form any other way.
    let from_inside = move |ev: &leptos::ev::KeyboardEvent| {
        let target = ev.composed_path().get(0).dyn_into::<web_sys::Node>().ok();
        form_ref
            .get_untracked()
            .zip(target)
            .is_some_and(|(root, target)| root.contains(Some(&target)))
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        if ev.is_composing() || ev.default_prevented() {
            return;
        }
        let key = ev.key();
        if key == "Escape" {
            if let Some(cancel) = on_cancel {
                ev.prevent_default();
                if !busy.get_untracked() {
                    cancel.run(());
                }
            }
        } else if key == "Enter"
            && !ev.shift_key()
            && !ev.ctrl_key()
            && !ev.alt_key()
            && !ev.meta_key()
            && from_inside(&ev)
        {
            // Enter on a button activates that button; everywhere else in the form it submits
            // (browsers do not submit from checkboxes or selects on their own).
            let on_button = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .map(|el| {
                    let tag = el.tag_name();
                    tag.eq_ignore_ascii_case("button") || tag.eq_ignore_ascii_case("textarea")
                })
                .unwrap_or(false);
            if !on_button {
                ev.prevent_default();
                do_submit();
            }
        }
    };

    let m = use_messages();
    let label = submit_label.unwrap_or_else(|| m.t("button.submit", &[]));
    // The title, the description and the fields, built into the form's element as it is
    // made (a directive runs before the element's children are added), so they come first.
    let m_build = m.clone();
    let build_fixed_part = move |root: web_sys::Element| {
        form.with_entries(|entries| {
            FormDom::new(title.as_deref(), desc.as_deref(), entries, busy_at_start)
                .build(&root, &m_build)
        });
    };
    let resend_hint = if on_decline.is_some() || on_cancel.is_some() {
        m.t("card.resend_form", &[("button", &label)])
    } else {
        m.t("card.resend_input", &[])
    };
    let (decline, cancel) = (m.t("button.decline", &[]), m.t("button.cancel", &[]));

    view! {
        <div class="mce-form" part="form" role="form" aria-labelledby=labelled_by aria-label=form_name node_ref=form_ref on:keydown=on_keydown
            on:input=move |ev| field::on_input(form, &ev)
            on:change=move |ev| field::on_change(form, &ev)
            on:focusout=move |ev| field::on_focusout(form, &ev)
            use:build_fixed_part>
            {move || (!gone.get()).then(|| view! {
                <div class="mce-actions" part="actions">
                    <button type="button" class="mce-primary" part="button primary" prop:disabled=move || busy.get()
                        on:click=move |_| do_submit()>
                        {label.clone()}
                    </button>
                    {on_decline.map(|cb| view! {
                        <button type="button" part="button" prop:disabled=move || busy.get() on:click=move |_| cb.run(())>
                            {decline.clone()}
                        </button>
                    })}
                    {on_cancel.map(|cb| view! {
                        <button type="button" part="button" prop:disabled=move || busy.get() on:click=move |_| cb.run(())>
                            {cancel.clone()}
                        </button>
                    })}
                </div>
            })}
            {status_line(status, resend_hint)}
        </div>
    }
}
