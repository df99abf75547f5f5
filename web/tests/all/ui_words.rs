//! Words that fit what a person sees (issue "What a person sees"): a form with no fields is
//! a bare confirmation and its primary button says **Confirm**; a required checkbox shows
//! no star (a checkbox always answers); a form card says, in one quiet line beside who is
//! asking, to give this only to a server you trust.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use leptos::prelude::*;
use mcp_elicit_web::client::ServerIdentity;
use mcp_elicit_web::components::ElicitationView;
use serde_json::json;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn a_form_without_fields_is_confirmed_not_submitted() {
    // No properties, an empty properties object, or no schema members at all: no fields.
    for schema in [
        json!({"type": "object", "properties": {}}),
        json!({"type": "object"}),
        json!({}),
    ] {
        let answers = Answers::default();
        let (root, _h) = mount_form(
            json!({"message": "Delete everything in this folder?", "requestedSchema": schema.clone()}),
            &answers,
        );
        tick().await;
        assert_eq!(
            button_names(&root),
            vec!["Confirm", "Decline", "Cancel"],
            "{schema}"
        );
        button(&root, "Confirm").click();
        assert_eq!(
            wire(&answers.only()),
            json!({"action": "accept", "content": {}}),
            "{schema}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_form_with_fields_keeps_submit() {
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "Sure?", "requestedSchema": {"type": "object",
            "properties": {"ok": {"type": "boolean", "title": "Yes"}}}}),
        &answers,
    );
    tick().await;
    assert_eq!(button_names(&root), vec!["Submit", "Decline", "Cancel"]);
}

#[wasm_bindgen_test]
async fn a_required_checkbox_shows_no_star() {
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "Terms", "requestedSchema": {"type": "object", "properties": {
            "agree": {"type": "boolean", "title": "I agree"},
            "name": {"type": "string", "title": "Name"}
        }, "required": ["agree", "name"]}}),
        &answers,
    );
    tick().await;
    let agree = control(&root, "agree");
    let agree_label = q(&root, &format!("label[for=\"{}\"]", agree.id()));
    assert!(
        q_opt(&agree_label, ".mce-required").is_none(),
        "a checkbox always answers, so it has no star: {:?}",
        agree_label.outer_html()
    );
    // A required field a person can leave empty keeps its star.
    let name = control(&root, "name");
    let name_label = q(&root, &format!("label[for=\"{}\"]", name.id()));
    assert!(q_opt(&name_label, ".mce-required").is_some());
}

#[wasm_bindgen_test]
async fn a_form_card_says_to_answer_only_a_server_you_trust() {
    let answers = Answers::default();
    let cb = answers.callback();
    let server = ServerIdentity {
        name: Some("Files".to_owned()),
        host: "files.example".to_owned(),
    };
    let p = json!({"message": "Your name?", "requestedSchema": {"type": "object",
        "properties": {"name": {"type": "string"}}}});
    let (root, _h) = mount(move || {
        view! { <ElicitationView key="q1" params=params(p) on_answer=cb server=server /> }
            .into_any()
    });
    tick().await;
    let asker = q(&root, "[data-testid=requesting-server]");
    let trust = q(&root, ".mce-trust");
    assert!(
        text(&trust).contains("server you trust"),
        "{:?}",
        text(&trust)
    );
    // One line beside who is asking: the element right after it, in the same card.
    assert_eq!(
        asker.next_element_sibling().as_ref(),
        Some(&trust),
        "the trust line follows who is asking"
    );
    assert!(!text(&asker).contains("trust"), "{:?}", text(&asker));
}

fn text(el: &web_sys::Element) -> String {
    el.text_content().unwrap_or_default()
}
