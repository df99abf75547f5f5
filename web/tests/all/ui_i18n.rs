//! The card in a language (issue 35): `lang` and `dir` on the card, the catalog's buttons
//! and words, field errors worded from the core's code and the field's data with numbers
//! as the locale writes them, a host's override, and server text left as it came.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use leptos::prelude::*;
use mcp_elicit_web::components::ElicitationView;
use mcp_elicit_web::i18n::Messages;
use serde_json::json;
use wasm_bindgen_test::*;

fn mount_in(
    messages: Messages,
    p: serde_json::Value,
    answers: &Answers,
) -> (web_sys::HtmlElement, Handle) {
    let cb = answers.callback();
    mount(move || {
        provide_context(messages);
        view! { <ElicitationView key="q1" params=params(p) on_answer=cb /> }.into_any()
    })
}

/// The messages of `tag` with its catalog taken as a page loads it (the catalogs beyond
/// English are files of the package, not in the wasm; the test runner serves none).
fn loaded(tag: &str) -> Messages {
    let text = match tag {
        "ar" => include_str!("../../src/i18n/catalogs/ar.txt"),
        _ => include_str!("../../src/i18n/catalogs/de.txt"),
    };
    let id = if tag == "ar" { "ar" } else { "de" };
    assert_eq!(mcp_elicit_web::i18n::register(id, text), Ok(()));
    Messages::new(tag)
}

fn ask() -> serde_json::Value {
    json!({"message": "Wie viele?", "requestedSchema": {"type": "object", "properties": {
        "n": {"type": "integer", "title": "Anzahl", "minimum": 1500},
        "name": {"type": "string", "title": "Name"}
    }, "required": ["name"]}})
}

#[wasm_bindgen_test]
async fn an_arabic_card_is_right_to_left_and_says_its_errors_in_arabic() {
    let answers = Answers::default();
    let (root, _h) = mount_in(loaded("ar"), ask(), &answers);
    tick().await;
    let card = q(&root, "[data-elicitation]");
    assert_eq!(card.get_attribute("lang").as_deref(), Some("ar"));
    assert_eq!(card.get_attribute("dir").as_deref(), Some("rtl"));
    assert_eq!(button_names(&root), ["إرسال", "رفض", "إلغاء"]);
    // Server text is not translated.
    assert!(text(&card).contains("Wie viele?"));
    click(&button(&root, "إرسال"));
    tick().await;
    assert!(text(&root).contains("هذا الحقل مطلوب."), "{}", text(&root));
    assert!(
        answers.all().is_empty(),
        "nothing is sent while a field is invalid"
    );
}

#[wasm_bindgen_test]
async fn a_bound_is_written_as_the_locale_writes_numbers() {
    let answers = Answers::default();
    let (root, _h) = mount_in(loaded("de-AT"), ask(), &answers);
    tick().await;
    assert_eq!(
        q(&root, "[data-elicitation]")
            .get_attribute("lang")
            .as_deref(),
        Some("de")
    );
    type_into(&input(&root, "n"), "3");
    type_into(&input(&root, "name"), "x");
    click(&button(&root, "Senden"));
    tick().await;
    assert!(
        text(&root).contains("Muss mindestens 1.500 sein."),
        "{}",
        text(&root)
    );
}

#[wasm_bindgen_test]
async fn a_host_override_replaces_one_text() {
    let answers = Answers::default();
    let Ok(m) = Messages::new("en")
        .with_overrides([("button.decline".to_owned(), "No, thanks".to_owned())])
    else {
        panic!("the override is taken");
    };
    let (root, _h) = mount_in(m, ask(), &answers);
    tick().await;
    assert_eq!(button_names(&root), ["Submit", "No, thanks", "Cancel"]);
}

fn text(el: &web_sys::Element) -> String {
    el.text_content().unwrap_or_default()
}
