//! `<mcp-elicitation>` in a real browser: the card in a shadow root, the `answer` event,
//! replacing and freeing the card, the page's CSS kept out, bad params said in words.

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use mcp_elicit_web::element::define_elements;
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/all/support.js")]
extern "C" {
    fn make_card(params: JsValue, attrs: JsValue) -> web_sys::HtmlElement;
    fn set_params(el: &web_sys::HtmlElement, params: JsValue);
    fn answers(el: &web_sys::HtmlElement) -> String;
    fn errors(el: &web_sys::HtmlElement) -> String;
    fn shadow_container(el: &web_sys::HtmlElement) -> web_sys::Element;
    fn shadow_problem(el: &web_sys::HtmlElement) -> web_sys::HtmlElement;
    fn complete(el: &web_sys::HtmlElement);
    fn body_answers() -> JsValue;
    fn seen_json(seen: &JsValue) -> String;
    fn style_of(el: &web_sys::Element, prop: &str) -> String;
    fn add_page_style(text: &str) -> web_sys::Element;
}

fn js(v: serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).expect("JSON")
}

fn form(message: &str) -> JsValue {
    js(json!({
        "message": message,
        "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string", "title": "Name", "default": "Ada"},
            "tags": {"type": "array", "title": "Tags",
                     "items": {"type": "string", "enum": ["a", "b"]}}
        }, "required": ["name"]}
    }))
}

fn card(params: JsValue) -> web_sys::HtmlElement {
    define_elements().expect("defineElements");
    let el = make_card(
        params,
        js(json!({"server-name": "Weather", "server-host": "mcp.example.com"})),
    );
    host().append_child(&el).expect("append");
    el
}

fn parsed(text: String) -> serde_json::Value {
    serde_json::from_str(&text).expect("JSON")
}

#[wasm_bindgen_test]
async fn the_card_renders_in_the_shadow_root_and_its_answer_is_an_event() {
    let seen = body_answers();
    let el = card(form("Who are you?"));
    tick().await;
    let root = shadow_container(&el);
    let section = q(&root, "[data-elicitation]");
    assert_eq!(section.get_attribute("data-mode").as_deref(), Some("form"));
    // Scoped to this test's container: other modules' cards share the page.
    let container = el.parent_element().expect("the element's container");
    assert!(
        container
            .query_selector("[data-elicitation]")
            .ok()
            .flatten()
            .is_none(),
        "the card is sealed in the shadow root"
    );
    let who = q(&root, "[data-testid=requesting-server]").text_content();
    assert!(who.as_deref().unwrap_or("").contains("Weather"), "{who:?}");
    let name = input(&root, "name");
    assert_eq!(name.value(), "Ada");
    assert_eq!(
        label_of(&root, &name.id()),
        "Name",
        "the label is found inside the root"
    );
    type_into(&name, "Grace");
    button(&root, "Submit").click();
    tick().await;
    assert_eq!(
        parsed(answers(&el)),
        json!([{"action": "accept", "content": {"name": "Grace", "tags": []}}])
    );
    assert_eq!(
        parsed(seen_json(&seen)),
        json!([{"composed": true, "bubbles": true}]),
        "the event leaves the shadow root and bubbles to the page"
    );
}

#[wasm_bindgen_test]
async fn new_params_replace_the_card_without_an_answer_for_the_old_one() {
    let el = card(form("First"));
    tick().await;
    set_params(&el, form("Second"));
    tick().await;
    let root = shadow_container(&el);
    let cards = q_all(&root, "[data-elicitation]");
    assert_eq!(cards.len(), 1);
    assert!(root.text_content().unwrap_or_default().contains("Second"));
    assert_eq!(
        parsed(answers(&el)),
        json!([]),
        "no answer for the replaced card"
    );
    button(&root, "Decline").click();
    tick().await;
    assert_eq!(parsed(answers(&el)), json!([{"action": "decline"}]));
}

#[wasm_bindgen_test]
async fn removing_the_element_frees_the_card_and_moving_it_keeps_what_was_typed() {
    let el = card(form("Moved"));
    tick().await;
    let root = shadow_container(&el);
    type_into(&input(&root, "name"), "typed");
    // Moved to another parent within one task: still the same card.
    let other = host();
    other.append_child(&el).expect("move");
    tick().await;
    assert_eq!(input(&root, "name").value(), "typed");
    // Removed for good: the card is unmounted.
    el.remove();
    tick().await;
    assert!(
        q_opt(&root, "[data-elicitation]").is_none(),
        "a removed element frees its card"
    );
    assert_eq!(
        parsed(answers(&el)),
        json!([]),
        "no answer event once removed"
    );
    // Put back: the card is rendered afresh from its params.
    other.append_child(&el).expect("re-append");
    tick().await;
    assert_eq!(input(&root, "name").value(), "Ada");
}

#[wasm_bindgen_test]
async fn the_pages_css_does_not_reach_the_card() {
    let style = add_page_style(
        "input, button, label, p, section { display: none !important; color: red !important; \
         font-size: 40px !important; }",
    );
    let el = card(form("Styled"));
    tick().await;
    let root = shadow_container(&el);
    let name: web_sys::Element = input(&root, "name").unchecked_into();
    let submit: web_sys::Element = button(&root, "Submit").unchecked_into();
    for el in [&name, &submit] {
        assert_ne!(style_of(el, "display"), "none");
        assert_ne!(style_of(el, "color"), "rgb(255, 0, 0)");
        assert_ne!(style_of(el, "font-size"), "40px");
    }
    style.remove();
}

#[wasm_bindgen_test]
async fn the_theme_attribute_overrides_the_colour_scheme() {
    let el = card(form("Dark"));
    el.set_attribute("theme", "dark").expect("attr");
    tick().await;
    let section = q(&shadow_container(&el), "[data-elicitation]");
    // --mce-surface of the dark block (www/style.css).
    assert_eq!(style_of(&section, "background-color"), "rgb(23, 27, 34)");
    el.set_attribute("theme", "light").expect("attr");
    tick().await;
    assert_eq!(style_of(&section, "background-color"), "rgb(255, 255, 255)");
}

#[wasm_bindgen_test]
async fn bad_params_are_said_in_words_inside_the_element() {
    let el = card(js(json!({"message": 3})));
    tick().await;
    let problem = shadow_problem(&el);
    assert!(!problem.hidden(), "the problem is shown");
    let text = problem.text_content().unwrap_or_default();
    assert!(text.starts_with("elicit:"), "{text}");
    assert_eq!(parsed(errors(&el)).as_array().map(|a| a.len()), Some(1));
    // Good params afterwards replace the problem with a card.
    set_params(&el, form("Fixed"));
    tick().await;
    assert!(problem.hidden());
    assert!(q_opt(&shadow_container(&el), "[data-elicitation]").is_some());
}

#[wasm_bindgen_test]
async fn a_url_card_waits_until_complete_is_called() {
    let el = card(js(json!({
        "mode": "url", "message": "Pay", "url": "https://pay.example.com/d/1",
        "elicitationId": "el-1"
    })));
    tick().await;
    let root = shadow_container(&el);
    assert_eq!(
        q(&root, "[data-testid=url-host]").text_content().as_deref(),
        Some("pay.example.com")
    );
    button(&root, "Open in new tab").click();
    tick().await;
    let section = q(&root, "[data-elicitation]");
    assert_eq!(
        section.get_attribute("data-state").as_deref(),
        Some("waiting")
    );
    assert_eq!(parsed(answers(&el)), json!([{"action": "accept"}]));
    complete(&el);
    tick().await;
    assert_eq!(
        section.get_attribute("data-state").as_deref(),
        Some("complete")
    );
}

#[wasm_bindgen_test]
fn defining_twice_is_harmless() {
    define_elements().expect("first");
    define_elements().expect("second");
}

#[wasm_bindgen_test]
async fn the_page_styles_the_card_through_its_parts_and_properties() {
    let style = add_page_style(
        "mcp-elicitation { --mce-radius: 13px; } \
         mcp-elicitation::part(card) { outline: 3px solid rgb(1, 2, 3); }",
    );
    let el = card(form("Parts"));
    tick().await;
    let section = q(&shadow_container(&el), "[data-elicitation]");
    assert_eq!(style_of(&section, "outline-color"), "rgb(1, 2, 3)");
    assert_eq!(style_of(&section, "border-top-left-radius"), "13px");
    style.remove();
}

#[wasm_bindgen_test]
async fn a_new_card_does_not_take_focus_from_a_field_being_typed_in_another() {
    let first = card(form("First"));
    tick().await;
    let typing = input(&shadow_container(&first), "name");
    typing.focus().expect("focus");
    let _second = card(form("Second"));
    tick().await;
    let active = first
        .shadow_root()
        .and_then(|r| r.active_element())
        .map(|e| e.get_attribute("name"));
    assert_eq!(
        active,
        Some(Some("name".to_owned())),
        "focus stays in the first card"
    );
}

#[wasm_bindgen_test]
async fn an_answered_element_put_back_does_not_ask_again() {
    let el = card(form("Once"));
    tick().await;
    button(&shadow_container(&el), "Decline").click();
    tick().await;
    assert_eq!(parsed(answers(&el)), json!([{"action": "decline"}]));
    let parent = el.parent_node().expect("parent");
    el.remove();
    tick().await;
    parent.append_child(&el).expect("put back");
    tick().await;
    assert!(
        q_opt(&shadow_container(&el), "[data-elicitation]").is_none(),
        "no second card for an answered question"
    );
    // New params are a new question.
    set_params(&el, form("Twice"));
    tick().await;
    assert!(q_opt(&shadow_container(&el), "[data-elicitation]").is_some());
}
