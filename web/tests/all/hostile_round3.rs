//! Issue 36, items 3, 5, 6 and 7, in headless Chromium: a new card leaves focus where the
//! person is (a composer, an `<iframe>`, a closed shadow root) and Enter there answers
//! nothing; a completion reaches only the card it was given for; two `McpClient`s on one
//! shadow root each keep their own cards; a question the server withdraws (legacy
//! `notifications/cancelled`, a modern round that no longer carries its key) stays as an
//! inert copy that says so, and nothing is sent for it.

#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use mcp_elicit_host::McpClient;
use mcp_elicit_web::element::define_elements;
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/all/support.js")]
extern "C" {
    #[wasm_bindgen(js_name = focusElsewhere)]
    fn focus_elsewhere(kind: &str) -> web_sys::Element;
    #[wasm_bindgen(js_name = clearElsewhere)]
    fn clear_elsewhere();
    #[wasm_bindgen(js_name = pressEnterWhereFocused)]
    fn press_enter_where_focused();
    fn watch(name: &str, promise: &js_sys::Promise);
    fn settled(name: &str) -> JsValue;
    #[wasm_bindgen(js_name = withdrawingLegacyServer)]
    fn withdrawing_legacy_server() -> js_sys::Function;
    #[wasm_bindgen(js_name = legacyAnswers)]
    fn legacy_answers() -> String;
    #[wasm_bindgen(js_name = withdrawingModernServer)]
    fn withdrawing_modern_server() -> js_sys::Function;
    #[wasm_bindgen(js_name = askingServer)]
    fn asking_server() -> js_sys::Function;
    #[wasm_bindgen(js_name = clientOptions)]
    fn client_options(container: &JsValue, protocol: &str) -> JsValue;
    #[wasm_bindgen(js_name = openShadowRoot)]
    fn open_shadow_root() -> web_sys::ShadowRoot;
    fn make_card(params: JsValue, attrs: JsValue) -> web_sys::HtmlElement;
    fn shadow_container(el: &web_sys::HtmlElement) -> web_sys::Element;
    fn complete(el: &web_sys::HtmlElement);
}

fn js(v: serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).expect("JSON")
}

fn message_of(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}

async fn connect(url: &str, container: &JsValue, protocol: &str) -> McpClient {
    match McpClient::connect(url.into(), client_options(container, protocol)).await {
        Ok(client) => client,
        Err(e) => panic!("connect: {}", message_of(&e)),
    }
}

/// Ends what a test left focused or added, also when it fails.
struct Elsewhere;

impl Drop for Elsewhere {
    fn drop(&mut self) {
        clear_elsewhere();
    }
}

fn state_of(card: &web_sys::Element) -> String {
    card.get_attribute("data-state").unwrap_or_default()
}

/// Item 3: the person types in a composer (or works in an `<iframe>`, or in a closed
/// shadow root) when `elicit()` shows a one-field card. Focus stays theirs, and the Enter
/// they press answers nothing.
#[wasm_bindgen_test]
async fn a_new_card_leaves_focus_where_the_person_is_and_their_enter_answers_nothing() {
    let one_field = json!({"message": "Your name?", "requestedSchema": {"type": "object",
        "properties": {"name": {"type": "string"}}}});
    for kind in ["composer", "iframe", "closed-shadow"] {
        let _guard = Elsewhere;
        let busy = focus_elsewhere(kind);
        assert_eq!(
            doc().active_element().as_ref(),
            Some(&busy),
            "{kind}: focused"
        );
        let slot = host();
        let answer = mcp_elicit_web::embed::elicit(slot.clone().into(), js(one_field.clone()));
        watch(kind, &answer);
        tick().await;
        tick().await;
        assert!(
            q_opt(&slot, "[data-elicitation]").is_some(),
            "{kind}: the card shows"
        );
        assert_eq!(
            doc().active_element().as_ref(),
            Some(&busy),
            "{kind}: focus stays where the person is"
        );
        press_enter_where_focused();
        tick().await;
        assert_eq!(
            settled(kind).as_bool(),
            Some(false),
            "{kind}: Enter answered the card: {:?}",
            settled(kind)
        );
        mcp_elicit_web::embed::release(&slot);
        slot.remove();
    }
    // With nothing focused the card still takes focus, and Enter in it answers.
    clear_elsewhere();
    let slot = host();
    let answer = mcp_elicit_web::embed::elicit(slot.clone().into(), js(one_field));
    watch("free", &answer);
    tick().await;
    let name = input(&slot, "name");
    assert_eq!(doc().active_element().as_ref(), Some(name.as_ref()));
    press_enter_where_focused();
    tick().await;
    assert_eq!(
        settled("free").as_string().as_deref(),
        Some(r#"{"action":"accept","content":{}}"#)
    );
    slot.remove();
}

/// Item 5: two `<mcp-elicitation>` URL cards (two servers) that use the same
/// `elicitationId`: one element's `complete()` ends its own card only; the same for
/// `completeElicitation(id, element)`.
#[wasm_bindgen_test]
async fn a_completion_reaches_only_the_card_it_was_given_for() {
    define_elements().expect("defineElements");
    let url = |host: &str| {
        js(
            json!({"mode": "url", "message": "Sign in", "url": format!("https://{host}/login"),
                  "elicitationId": "same-id"}),
        )
    };
    let attrs = js(json!({}));
    let first = make_card(url("one.example.com"), attrs.clone());
    let second = make_card(url("two.example.com"), attrs);
    let place = host();
    place.append_child(&first).expect("append");
    place.append_child(&second).expect("append");
    tick().await;
    for el in [&first, &second] {
        button(&shadow_container(el), "Open in new tab").click();
    }
    tick().await;
    tick().await;
    let card = |el: &web_sys::HtmlElement| q(&shadow_container(el), "[data-elicitation]");
    assert_eq!(state_of(&card(&first)), "waiting");
    assert_eq!(state_of(&card(&second)), "waiting");
    complete(&first);
    tick().await;
    assert_eq!(state_of(&card(&first)), "complete");
    assert_eq!(
        state_of(&card(&second)),
        "waiting",
        "the other server's card is not this completion's"
    );

    // `elicit()` cards: completeElicitation(id, element) ends the one in `element` only.
    let (a, b) = (host(), host());
    let mut answers = Vec::new();
    for slot in [&a, &b] {
        answers.push(mcp_elicit_web::embed::elicit(
            slot.clone().into(),
            url("three.example.com"),
        ));
        button(slot, "Open in new tab").click();
    }
    for answer in answers {
        wasm_bindgen_futures::JsFuture::from(answer)
            .await
            .expect("accept");
    }
    tick().await;
    mcp_elicit_web::embed::complete_elicitation_js("same-id".into(), b.clone().into())
        .expect("an element is taken");
    tick().await;
    assert_eq!(state_of(&q(&a, "[data-elicitation]")), "waiting");
    assert_eq!(state_of(&q(&b, "[data-elicitation]")), "complete");
    let refused =
        mcp_elicit_web::embed::complete_elicitation_js("same-id".into(), JsValue::from(7));
    assert!(
        refused.is_err_and(|e| message_of(&e).contains("element")),
        "not an element: said in words"
    );
    assert_eq!(state_of(&q(&a, "[data-elicitation]")), "waiting");
    place.remove();
    a.remove();
    b.remove();
}

/// Item 6: a second `McpClient` on the shadow root of the first gets its own place; the
/// first client's card (and what was typed in it) stays, and its call gets its answer.
#[wasm_bindgen_test]
async fn two_clients_on_one_shadow_root_keep_their_own_cards() {
    fake_fetch("http://asking.test/", &asking_server());
    let root = open_shadow_root();
    let first = connect("http://asking.test/mcp", &root.clone().into(), "2026-07-28").await;
    watch(
        "first-call",
        &first.call_tool("form".into(), JsValue::UNDEFINED, None),
    );
    let card_in =
        |root: &web_sys::ShadowRoot| root.query_selector("[data-elicitation]").ok().flatten();
    until("the first client's card", || card_in(&root).is_some()).await;
    let card = card_in(&root).expect("a card");
    type_into(&input(&card, "name"), "Ada Lovelace");

    let second = connect("http://asking.test/mcp", &root.clone().into(), "2026-07-28").await;
    tick().await;
    let still = card_in(&root).expect("the first client's card survives the second connect");
    assert_eq!(
        input(&still, "name").value(),
        "Ada Lovelace",
        "what was typed is kept"
    );
    let places = root
        .query_selector_all("[data-mce-client]")
        .map(|l| l.length())
        .unwrap_or(0);
    assert_eq!(places, 2, "each client has its own place");
    button(&still, "Submit").click();
    until("the first call's result", || {
        settled("first-call").is_string()
    })
    .await;
    let result = settled("first-call").as_string().unwrap_or_default();
    assert!(result.contains("Ada Lovelace"), "{result}");

    drop(second);
    let places = root
        .query_selector_all("[data-mce-client]")
        .map(|l| l.length())
        .unwrap_or(0);
    assert_eq!(places, 1, "a freed client's place goes with it");
    let _ = first.close();
}

/// Item 7, legacy: `notifications/cancelled` for a pending `elicitation/create` retires its
/// card in words; what was typed stays, inert, with no button; nothing is sent for it.
#[wasm_bindgen_test]
async fn a_question_the_legacy_server_withdraws_stays_inert_and_nothing_is_sent() {
    fake_fetch("http://withdraw.test/", &withdrawing_legacy_server());
    let container = host();
    let client = connect(
        "http://withdraw.test/mcp",
        &container.clone().into(),
        "2025-11-25",
    )
    .await;
    let _call = client.call_tool("ask".into(), JsValue::UNDEFINED, None);
    until("the card", || {
        q_opt(&container, "[data-elicitation]").is_some()
    })
    .await;
    let card = q(&container, "[data-elicitation]");
    assert_eq!(card.get_attribute("data-elicitation").as_deref(), Some("5"));
    let note = input(&card, "note");
    type_into(&note, "half a thought");

    run_js("window.__legacy.withdraw('the chat was closed')");
    until("the card is retired", || state_of(&card) == "closed").await;
    let said = card.text_content().unwrap_or_default();
    assert!(said.contains("no longer needs this answer"), "{said}");
    assert!(
        said.contains("the chat was closed"),
        "the server's reason: {said}"
    );
    assert_eq!(
        button_names(&card),
        Vec::<String>::new(),
        "no Submit, no button"
    );
    assert_eq!(
        note.value(),
        "half a thought",
        "what was typed stays visible"
    );
    assert!(note.disabled(), "and inert");
    key(&note, "Enter");
    tick().await;
    tick().await;
    assert_eq!(legacy_answers(), "[]", "nothing is sent for it");
    let _ = client.close();
    container.remove();
}

/// Item 7, modern: the round after the retry no longer carries the key of the URL card
/// the person opened; that card stops waiting and says the server no longer needs it.
#[wasm_bindgen_test]
async fn a_card_whose_key_the_next_round_no_longer_carries_is_retired() {
    fake_fetch("http://withdraw-modern.test/", &withdrawing_modern_server());
    let container = host();
    let client = connect(
        "http://withdraw-modern.test/mcp",
        &container.clone().into(),
        "2026-07-28",
    )
    .await;
    watch(
        "pay",
        &client.call_tool("pay".into(), JsValue::UNDEFINED, None),
    );
    until("the sign-in card", || {
        q_opt(&container, "[data-elicitation=login]").is_some()
    })
    .await;
    let login = q(&container, "[data-elicitation=login]");
    button(&login, "Open in new tab").click();
    until("the next round's card", || {
        q_opt(&container, "[data-elicitation=confirm]").is_some()
    })
    .await;
    until("the sign-in card is retired", || {
        state_of(&login) == "closed"
    })
    .await;
    let said = login.text_content().unwrap_or_default();
    assert!(said.contains("no longer needs this answer"), "{said}");
    assert!(!said.contains("Waiting for the server"), "{said}");
    assert_eq!(button_names(&login), Vec::<String>::new());
    let confirm = q(&container, "[data-elicitation=confirm]");
    button(&confirm, "Submit").click();
    until("the call's result", || settled("pay").is_string()).await;
    let _ = client.close();
    container.remove();
}
