//! Leptos (CSR) components: form mode, URL mode, one elicitation, the queue, and a reusable
//! schema form. Everything follows `../shared/dom-contract.md`; every server string is
//! rendered as a text node (never `inner_html`).
//!
//! # Component API (for the client / demo code)
//!
//! ```ignore
//! use mcp_elicit_web::components::*;
//!
//! // One pending elicitation (form or URL mode, chosen from the params).
//! view! {
//!     <ElicitationView
//!         key=key                          // String: inputRequests key / JSON-RPC id, becomes [data-elicitation]
//!         params=params                    // ElicitRequestParams, as on the wire
//!         on_answer=Callback::new(|r: ElicitResult| ...)  // called on Submit / Decline / Cancel / Open
//!         status=status                    // optional Signal<SendStatus>: how sending the answer went
//!         completed=completed              // optional Signal<HashSet<String>>: elicitationIds completed
//!         autofocus=true                   // optional, default true: focus the first field on mount
//!         server=identity                  // optional ServerIdentity (or a signal of one): who is asking,
//!                                          // shown as [data-testid=requesting-server]
//!     />
//! }
//!
//! // Several at once (a modern round, or legacy requests as they arrive), each answered on its own.
//! view! {
//!     <ElicitationQueue
//!         items=items                      // Signal<Vec<PendingElicitation { key, round, params, status }>>
//!         on_answer=Callback::new(|(key, result): (String, ElicitResult)| ...)
//!         on_all_answered=Callback::new(|answers: Vec<(String, ElicitResult)>| ...) // optional
//!         completed=completed              // optional Signal<HashSet<String>>
//!     />
//! }
//!
//! // A bare schema form, e.g. for tool input: no Decline / Cancel unless given.
//! view! {
//!     <SchemaForm
//!         spec=form_spec                   // FormSpec from mcp_elicit::schema::compile
//!         on_submit=Callback::new(|content: serde_json::Map<String, Value>| ...)
//!         submit_label="Call tool"         // optional, default "Submit"
//!         on_decline=..  on_cancel=..      // optional Callback<()>: adds the buttons (Escape = cancel)
//!         status=status                    // optional Signal<SendStatus>
//!         initial=content                  // optional Map: values to restore (else schema defaults)
//!     />
//! }
//! ```
//!
//! ## `SendStatus` and "nothing the user typed is lost"
//! The parent owns the network. After `on_answer` it sets the view's status to
//! `Sending`, then `Sent`, or `Failed(reason)`. On `Failed` the view shows the reason
//! (`role="alert"`), keeps every value the user typed (the component stays mounted, its
//! state lives in it), and re-enables the buttons, so pressing Submit (or Open) again calls
//! `on_answer` again with the same answer. Without a `status` the view treats the answer
//! as final once given.
//!
//! ## `data-state` on `[data-elicitation]`
//! `pending` (waiting for the user), `sending`, `failed`, `answered` (form answered or
//! declined/cancelled), `waiting` (URL opened, waiting for its completion notification),
//! `complete` (that notification arrived), `dismissed` (the user closed a waiting card).
//! An opened URL card shows `waiting` / `complete` even while its accept is still being
//! sent (the status line says that part).
//!
//! ## Keys across rounds
//! `PendingElicitation::round` distinguishes requests that reuse a key in a later round
//! (modern `inputRequests` keys may repeat); the queue renders a fresh view for a new
//! `(round, key)` and keeps the state of views whose `(round, key)` stays in the list.

mod elicitation;
mod field;
mod form_state;
mod ids;
mod queue;
mod schema_form;
mod status;
mod url_card;

pub use elicitation::ElicitationView;
pub use queue::{ElicitationQueue, PendingElicitation};
pub use schema_form::SchemaForm;
pub use status::SendStatus;
pub use url_card::UrlCard;

pub use crate::client::ServerIdentity;
