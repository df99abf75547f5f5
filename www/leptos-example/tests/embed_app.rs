//! The example app in a real browser: its own Leptos view mounts mcp-elicit-web's card,
//! a person answers the form, and the app gets the typed `ElicitResult` back through
//! `on_answer` and shows it in its own markup.

// Browser-only: these mount the app into a real DOM.
#![cfg(target_arch = "wasm32")]

// The same helpers the web crate's UI tests use (mount, type, click, query).
#[path = "../../../web/tests/all/ui_support/mod.rs"]
mod ui_support;

use leptos::prelude::*;
use mcp_elicit::wire::ElicitAction;
use mcp_elicit_leptos_example::{App, EXAMPLE_SERVER_HOST, EXAMPLE_SERVER_NAME};
use serde_json::json;
use ui_support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn booking() -> serde_json::Value {
    json!({
        "message": "Which table?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Your name", "minLength": 2},
                "guests": {"type": "integer", "minimum": 1, "maximum": 12},
                "terrace": {"type": "boolean", "title": "On the terrace", "default": false}
            },
            "required": ["name", "guests"]
        }
    })
}

fn mount_app(answers: &Answers) -> (web_sys::HtmlElement, Handle) {
    let cb = answers.callback();
    mount(move || view! { <App params=params(booking()) on_answer=cb /> }.into_any())
}

fn shown_answer(root: &web_sys::Element) -> String {
    q(root, "[data-testid=example-answer]")
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_app_mounts_the_card_and_gets_the_typed_answer() {
    let answers = Answers::default();
    let (root, _h) = mount_app(&answers);
    tick().await;

    // The app's own markup around the component's DOM (the DOM contract).
    assert!(q_opt(&root, "main.example-app h1").is_some());
    let card = q(&root, "[data-elicitation]");
    assert_eq!(
        card.get_attribute("data-elicitation").as_deref(),
        Some("booking-1")
    );
    assert_eq!(card.get_attribute("data-mode").as_deref(), Some("form"));
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("pending"));
    let who = q(&root, "[data-testid=requesting-server]")
        .text_content()
        .unwrap_or_default();
    assert!(who.contains(EXAMPLE_SERVER_NAME), "{who}");
    assert!(who.contains(EXAMPLE_SERVER_HOST), "{who}");
    assert_eq!(shown_answer(&root), "");

    // An invalid answer is held back by the card: nothing reaches the app.
    click(&button(&root, "Submit"));
    tick().await;
    assert!(answers.all().is_empty(), "{:?}", answers.all());
    assert_eq!(
        control(&root, "name")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );

    type_into(&input(&root, "name"), "Ada");
    type_into(&input(&root, "guests"), "4");
    click(&input(&root, "terrace"));
    click(&button(&root, "Submit"));
    tick().await;

    let want =
        json!({"action": "accept", "content": {"name": "Ada", "guests": 4, "terrace": true}});
    assert_eq!(wire(&answers.only()), want);
    // The app shows what it would send, and reports it sent: the card is answered.
    let shown: serde_json::Value =
        serde_json::from_str(&shown_answer(&root)).expect("the app shows the answer as JSON");
    assert_eq!(shown, want);
    assert_eq!(
        q(&root, "[data-elicitation]")
            .get_attribute("data-state")
            .as_deref(),
        Some("answered")
    );
}

#[wasm_bindgen_test]
async fn decline_reaches_the_app_without_content() {
    let answers = Answers::default();
    let (root, _h) = mount_app(&answers);
    tick().await;
    click(&button(&root, "Decline"));
    tick().await;
    let got = answers.only();
    assert_eq!(got.action, ElicitAction::Decline);
    assert_eq!(got.content, None);
    let shown: serde_json::Value =
        serde_json::from_str(&shown_answer(&root)).expect("the app shows the answer as JSON");
    assert_eq!(shown, json!({"action": "decline"}));
}
