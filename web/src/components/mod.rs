//! Leptos (CSR) components, for this crate's own pages and for any other Leptos app: one
//! elicitation (form or URL mode) and a bare schema form. Everything they
//! draw follows the DOM contract the browser tests drive (README, "Embedding"), and every
//! server string is rendered as a text node (never `inner_html`).
//!
//! # Using them from a Leptos app
//!
//! Depend on this crate, on the core (`mcp-elicit`, for the wire types) and on the same
//! Leptos (0.8, feature `csr`): the components are built on its reactive runtime, so an app
//! on another Leptos version cannot pass its signals and callbacks to them. The styles are
//! `www/style.css` (classes `mce-*`; the npm package ships the same file as
//! `mcp-elicit/style.css`); without them the cards are plain, working HTML.
//!
//! The components show and validate; they never touch the network. The app receives the
//! server's `elicitation/create` params, mounts a card for them, gets the person's answer
//! as a typed [`ElicitResult`](mcp_elicit::wire::ElicitResult) through `on_answer` (already
//! validated against the schema, typed as the schema says; `serde_json::to_value` of it is
//! the wire `ElicitResult`), sends it, and reports how sending went through `status`.
//!
//! ```no_run
//! use leptos::prelude::*;
//! use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
//! use mcp_elicit_web::components::{ElicitationView, SendStatus, ServerIdentity};
//!
//! #[component]
//! fn Ask(params: ElicitRequestParams) -> impl IntoView {
//!     let status = RwSignal::new(SendStatus::Idle);
//!     let on_answer = Callback::new(move |result: ElicitResult| {
//!         // Send `result` to the server that asked, then say how it went:
//!         // Sent, or Failed("in words") to keep what was typed for a resend.
//!         let _wire = serde_json::to_value(&result);
//!         status.set(SendStatus::Sending);
//!     });
//!     let server = ServerIdentity {
//!         name: Some("Weather".to_owned()),   // serverInfo.title, else .name
//!         host: "mcp.example.com".to_owned(), // the endpoint's host
//!     };
//!     view! {
//!         <ElicitationView key="req-1" params=params on_answer=on_answer
//!             status=status server=server />
//!     }
//! }
//!
//! let params: ElicitRequestParams = serde_json::from_str(
//!     r#"{"message": "Your name?", "requestedSchema": {"type": "object",
//!         "properties": {"name": {"type": "string"}}, "required": ["name"]}}"#,
//! )
//! .expect("valid params");
//! leptos::mount::mount_to_body(move || view! { <Ask params=params /> });
//! ```
//!
//! `www/leptos-example/` is such an app, with a browser test that mounts it and answers
//! its form.
//!
//! ## [`ElicitationView`]: one elicitation
//!
//! | Prop | Type | |
//! |---|---|---|
//! | `key` | `String` (`into`) | The request's key (modern `inputRequests` key, legacy JSON-RPC id): `[data-elicitation]` |
//! | `params` | `ElicitRequestParams` | As on the wire; form or URL mode follows from them |
//! | `on_answer` | `Callback<ElicitResult>` | Submit (only once every field is valid), Decline, Cancel (also Escape), Open (URL mode: `accept`, after the tab is opened); called again when the person resends after a `Failed` |
//! | `status` | `Signal<SendStatus>`, optional | How sending the answer went (below); without it an answer is final once given |
//! | `completed` | `Signal<HashSet<String>>`, optional | `elicitationId`s of `notifications/elicitation/complete`: ends a URL card's wait |
//! | `autofocus` | `bool`, default `true` | Focus the first field on mount |
//! | `server` | `ServerIdentity` or a signal of one, optional | Who asks, shown as `[data-testid=requesting-server]`; the spec wants the person to see it, so pass it |
//! | `call_ended` | `Signal<bool>`, optional | The call that asked has returned: an opened URL card says so instead of waiting for the server (its `data-state` stays `waiting`: a completion may still come) |
//!
//! A form with no fields (a bare confirmation) names its primary button **Confirm**; forms
//! with fields keep **Submit**. A form card says under who is asking, in one quiet line
//! (`.mce-trust`, part `trust`), to give this only to a server you trust.
//!
//! A schema the core refuses is said in words in the card (with the JSON pointer of what is
//! wrong), with Decline and Cancel still there, so the server always gets an answer.
//!
//! ## Several at once
//!
//! A connection's many cards are [`PendingList`](crate::pending::PendingList)'s: it shows
//! an [`ElicitationView`] per request of a [`PendingRequests`](crate::pending::PendingRequests)
//! that the client's events feed ([`crate::client::Connection`]), each answered on its own
//! and routed by its id, in arrival order; a key asked again (a later modern round) gets a
//! fresh card. The demo app and `McpClient` show their cards with it.
//!
//! ## [`SchemaForm`]: a bare form
//!
//! For a form of the app's own, e.g. a tool's input: `spec` (a
//! [`FormSpec`](mcp_elicit::schema::FormSpec) from [`mcp_elicit::schema::compile`]),
//! `on_submit: Callback<Map<String, Value>>` (the typed content, only when every field is
//! valid), optional `submit_label` (default "Submit"), `on_decline` / `on_cancel`
//! (`Callback<()>`: each adds its button; Escape cancels), `status`, `disabled`
//! (`Signal<bool>`), `initial` (values to start with instead of the schema's defaults) and
//! `autofocus` (default `true`).
//!
//! [`UrlCard`] is the part of an [`ElicitationView`] that URL mode shows; its `state` is
//! owned by that view, so an app embeds URL mode through [`ElicitationView`].
//!
//! ## `SendStatus` and "nothing the user typed is lost"
//! The parent owns the network. After `on_answer` it sets the view's status to
//! `Sending`, then `Sent`, or `Failed(reason)`. On `Failed` the view shows the reason
//! (`role="alert"`), keeps every value the user typed (the component stays mounted, its
//! state lives in it), and re-enables the buttons, so pressing Submit (or Open) again calls
//! `on_answer` again with the same answer. `Gone(reason)` says the request can no longer be
//! answered (its call ended): shown as an alert, the buttons stay disabled. Without a
//! `status` the view treats the answer as final once given.
//!
//! ## `data-state` on `[data-elicitation]`
//! `pending` (waiting for the user), `sending`, `failed`, `answered` (form answered or
//! declined/cancelled), `waiting` (URL opened, waiting for its completion notification),
//! `complete` (that notification arrived), `dismissed` (the user closed a waiting card),
//! `closed` (the status is `Gone`).
//! An opened URL card shows `waiting` / `complete` even while its accept is still being
//! sent (the status line says that part).

mod elicitation;
mod field;
mod form_state;
mod ids;
mod reveal;
mod schema_form;
mod status;
mod url_card;

pub use elicitation::ElicitationView;
pub use reveal::reveal;
pub use schema_form::SchemaForm;
pub use status::SendStatus;
pub use url_card::UrlCard;

pub use crate::client::ServerIdentity;
