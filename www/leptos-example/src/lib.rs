//! # A Leptos app that shows MCP elicitations with mcp-elicit-web
//!
//! The smallest app of its own that embeds the components: its own markup around
//! [`ElicitationView`], the card showing who asks, the person answering, and the typed
//! [`ElicitResult`] coming back through `on_answer`, where a real app would send it to the
//! server that asked (as a JSON-RPC response in 2025-11-25, as an `inputResponses` entry in
//! 2026-07-28). `tests/embed_app.rs` mounts it in headless Chromium and answers the form.
//!
//! An app's `main` mounts it like any Leptos component:
//!
//! ```no_run
//! use mcp_elicit::wire::ElicitRequestParams;
//! use mcp_elicit_leptos_example::App;
//!
//! // `params`: the elicitation/create params the server sent, as on the wire.
//! fn show(params: ElicitRequestParams) {
//!     leptos::mount::mount_to_body(move || leptos::view! { <App params=params /> });
//! }
//! ```
//!
//! The cards' look comes from `www/style.css` (classes `mce-*`; the npm package ships the
//! same file as `mcp-elicit/style.css`); without it they are plain, working HTML.

use leptos::prelude::*;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
use mcp_elicit_web::components::{ElicitationView, SendStatus, ServerIdentity};

/// The name the example's server goes by in the card (`serverInfo.title` or `.name` in a
/// real app).
pub const EXAMPLE_SERVER_NAME: &str = "Example bookings";
/// The host of the example's server endpoint, shown after its name.
pub const EXAMPLE_SERVER_HOST: &str = "mcp.example.com";

/// The app: a heading of its own, one elicitation card, and the answer it got back.
#[component]
pub fn App(
    /// The elicitation/create params the server sent.
    params: ElicitRequestParams,
    /// Also told each answer (the app's own tests listen here).
    #[prop(optional)]
    on_answer: Option<Callback<ElicitResult>>,
) -> impl IntoView {
    let answer = RwSignal::new(None::<ElicitResult>);
    // The app owns the network, so it reports how sending went; the card disables its
    // buttons while `Sending` and, on `Failed(reason)`, keeps what was typed for a resend.
    let status = RwSignal::new(SendStatus::Idle);
    let server = ServerIdentity {
        name: Some(EXAMPLE_SERVER_NAME.to_owned()),
        host: EXAMPLE_SERVER_HOST.to_owned(),
    };
    let answered = Callback::new(move |result: ElicitResult| {
        // Here a real app sends `result` to the server and sets `Sending`, then `Sent` or
        // `Failed`. The example has no server: the answer is kept and counted as sent.
        answer.set(Some(result.clone()));
        status.set(SendStatus::Sent);
        if let Some(on_answer) = on_answer {
            on_answer.run(result);
        }
    });
    // The answer as the wire JSON it would be sent as, shown as text.
    let shown = move || {
        answer
            .get()
            .and_then(|result| serde_json::to_string(&result).ok())
    };
    view! {
        <main class="example-app">
            <h1>"Book a table"</h1>
            <ElicitationView
                key="booking-1"
                params=params
                on_answer=answered
                status=status
                server=server
            />
            <p>"Sent back: " <code data-testid="example-answer">{shown}</code></p>
        </main>
    }
}
