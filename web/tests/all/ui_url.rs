//! URL mode and the embedding API in a real browser.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use leptos::prelude::*;
use mcp_elicit::wire::ElicitResult;
use mcp_elicit_web::components::{ElicitationView, SendStatus};
use serde_json::json;
use std::collections::HashSet;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

fn url_params(url: &str, id: &str) -> serde_json::Value {
    json!({"mode": "url", "message": "Pay the <b>deposit</b>", "url": url, "elicitationId": id})
}

fn mount_url(
    url: &str,
    id: &str,
    answers: &Answers,
    completed: RwSignal<HashSet<String>>,
) -> (web_sys::HtmlElement, Handle) {
    let cb = answers.callback();
    let p = params(url_params(url, id));
    mount(move || {
        view! { <ElicitationView key="u1" params=p on_answer=cb completed=completed /> }.into_any()
    })
}

#[wasm_bindgen_test]
async fn https_card_shows_url_and_host() {
    let answers = Answers::default();
    let completed = RwSignal::new(HashSet::new());
    let (root, _h) = mount_url(
        "https://pay.example.com/deposit?x=1",
        "e1",
        &answers,
        completed,
    );
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-mode").as_deref(), Some("url"));
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("pending"));
    assert_eq!(
        q(&root, ".mce-message").text_content().as_deref(),
        Some("Pay the <b>deposit</b>")
    );
    assert!(q_opt(&root, "b").is_none(), "message is text");
    assert_eq!(
        q(&root, "[data-testid=url-full]").text_content().as_deref(),
        Some("https://pay.example.com/deposit?x=1")
    );
    assert_eq!(
        q(&root, "[data-testid=url-host]").text_content().as_deref(),
        Some("pay.example.com")
    );
    assert!(
        q_opt(&root, ".mce-host-ascii").is_none(),
        "no punycode line for an ASCII host"
    );
    assert_eq!(
        button_names(&root),
        vec!["Open in new tab", "Decline", "Cancel"]
    );
}

#[wasm_bindgen_test]
async fn internationalised_host_shows_punycode() {
    let answers = Answers::default();
    let (root, _h) = mount_url(
        "https://\u{0430}pple.com/",
        "e2",
        &answers,
        RwSignal::new(HashSet::new()),
    );
    assert_eq!(
        q(&root, "[data-testid=url-host]").text_content().as_deref(),
        Some("\u{0430}pple.com")
    );
    let ascii = q(&root, ".mce-host-ascii")
        .text_content()
        .unwrap_or_default();
    assert!(ascii.contains("xn--pple-43d.com"), "{ascii}");
}

#[wasm_bindgen_test]
async fn javascript_and_data_urls_are_refused() {
    for (url, word) in [
        ("javascript:alert(document.cookie)", "javascript:"),
        ("data:text/html,<script>alert(1)</script>", "data:"),
        ("file:///etc/passwd", "file:"),
        ("http://example.com/pay", "http:"),
        ("/relative/path", "relative"),
    ] {
        let answers = Answers::default();
        let (root, _h) = mount_url(url, "e3", &answers, RwSignal::new(HashSet::new()));
        assert!(
            button_opt(&root, "Open in new tab").is_none(),
            "{url}: no Open button"
        );
        assert_eq!(button_names(&root), vec!["Decline", "Cancel"], "{url}");
        let alert = q(&root, "[role=alert]").text_content().unwrap_or_default();
        assert!(
            alert.contains(word),
            "{url}: explanation names the problem: {alert}"
        );
        assert!(q_opt(&root, "script").is_none());
        assert!(
            q_opt(&root, "a").is_none(),
            "{url}: no link to click either"
        );
        button(&root, "Decline").click();
        assert_eq!(wire(&answers.only()), json!({"action": "decline"}));
    }
}

#[wasm_bindgen_test]
async fn open_accepts_and_waits_for_its_own_completion_only() {
    let answers = Answers::default();
    let completed = RwSignal::new(HashSet::new());
    let (root, _h) = mount_url("https://pay.example.com/", "mine", &answers, completed);
    // The test page has no user gesture, so the browser may block the tab; the answer and
    // state are what this test checks (the real new tab is checked by the e2e test).
    button(&root, "Open in new tab").click();
    assert_eq!(wire(&answers.only()), json!({"action": "accept"}));
    tick().await;
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("waiting"));

    completed.update(|s| {
        s.insert("someone-else".to_owned());
    });
    tick().await;
    assert_eq!(
        c.get_attribute("data-state").as_deref(),
        Some("waiting"),
        "another id does not end it"
    );

    completed.update(|s| {
        s.insert("mine".to_owned());
    });
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
    assert_eq!(answers.all().len(), 1, "completion sends nothing");
}

#[wasm_bindgen_test]
async fn waiting_card_can_be_dismissed_and_escape_cancels() {
    let answers = Answers::default();
    let (root, _h) = mount_url(
        "http://127.0.0.1:9/x",
        "d",
        &answers,
        RwSignal::new(HashSet::new()),
    );
    button(&root, "Open in new tab").click();
    tick().await;
    button(&root, "Dismiss").click();
    tick().await;
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("dismissed"));

    let answers = Answers::default();
    let (root, _h2) = mount_url(
        "https://example.com/",
        "e",
        &answers,
        RwSignal::new(HashSet::new()),
    );
    key(&button(&root, "Decline"), "Escape");
    assert_eq!(wire(&answers.only()), json!({"action": "cancel"}));
}

#[wasm_bindgen_test]
async fn embed_resolves_with_a_plain_wire_object() {
    let el = host();
    let p = js_sys::JSON::parse(
        r#"{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"integer","default":3}}}}"#,
    )
    .expect("json");
    let promise = mcp_elicit_web::embed::elicit(el.clone().into(), p);
    tick().await;
    assert_eq!(
        q(&el, "[data-elicitation]")
            .get_attribute("data-mode")
            .as_deref(),
        Some("form")
    );
    button(&el, "Submit").click();
    let v = JsFuture::from(promise).await.expect("resolves");
    let text = js_sys::JSON::stringify(&v).expect("stringify");
    assert_eq!(
        String::from(text),
        r#"{"action":"accept","content":{"n":3}}"#
    );
    assert!(!js_sys::Array::is_array(&v));
}

#[wasm_bindgen_test]
async fn embed_rejects_bad_params_with_an_error_in_words() {
    let el = host();
    for bad in [
        JsValue::from_str("nope"),
        js_sys::JSON::parse(r#"{"mode":"url"}"#).expect("json"),
        JsValue::NULL,
    ] {
        let err = JsFuture::from(mcp_elicit_web::embed::elicit(el.clone().into(), bad))
            .await
            .expect_err("rejects");
        let err: js_sys::Error = err.dyn_into().expect("an Error");
        let msg = String::from(err.message());
        assert!(msg.starts_with("elicit: "), "{msg}");
        assert!(msg.contains("params"), "{msg}");
    }
}

#[wasm_bindgen_test]
async fn embed_url_card_completes_through_complete_elicitation() {
    let el = host();
    let p = js_sys::JSON::parse(
        r#"{"mode":"url","message":"Go","url":"https://example.com/x","elicitationId":"emb-1"}"#,
    )
    .expect("json");
    let promise = mcp_elicit_web::embed::elicit(el.clone().into(), p);
    button(&el, "Open in new tab").click();
    let v = JsFuture::from(promise).await.expect("resolves");
    assert_eq!(
        String::from(js_sys::JSON::stringify(&v).expect("s")),
        r#"{"action":"accept"}"#
    );
    tick().await;
    let c = q(&el, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("waiting"));
    mcp_elicit_web::embed::complete_elicitation("other".into(), None);
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("waiting"));
    mcp_elicit_web::embed::complete_elicitation("emb-1".into(), None);
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
}

#[wasm_bindgen_test]
async fn a_completion_that_arrived_before_open_ends_the_wait_at_once() {
    let answers = Answers::default();
    let completed = RwSignal::new(HashSet::from(["early".to_owned()]));
    let (root, _h) = mount_url("https://example.com/", "early", &answers, completed);
    tick().await;
    let c = q(&root, "[data-elicitation]");
    assert_eq!(
        c.get_attribute("data-state").as_deref(),
        Some("pending"),
        "nothing opened yet"
    );
    button(&root, "Open in new tab").click();
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
}

#[wasm_bindgen_test]
async fn open_shows_waiting_while_the_answer_is_still_being_sent() {
    // The parent reports `Sending` as soon as it has the answer (a modern replay may take a
    // while): the container must already say `waiting`, then `complete`, whatever the send.
    let status = RwSignal::new(SendStatus::Idle);
    let completed = RwSignal::new(HashSet::new());
    let answers = Answers::default();
    let record = answers.callback();
    let cb = Callback::new(move |r: ElicitResult| {
        record.run(r);
        status.set(SendStatus::Sending);
    });
    let p = params(url_params("https://pay.example.com/", "slow"));
    let (root, _h) = mount(move || {
        view! { <ElicitationView key="u9" params=p on_answer=cb status=status completed=completed /> }
            .into_any()
    });
    button(&root, "Open in new tab").click();
    tick().await;
    assert_eq!(wire(&answers.only()), json!({"action": "accept"}));
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("waiting"));
    let line = q(&root, ".mce-status").text_content().unwrap_or_default();
    assert!(
        line.contains("Sending"),
        "the status line still says so: {line}"
    );

    completed.update(|s| {
        s.insert("slow".to_owned());
    });
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
    status.set(SendStatus::Sent);
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
}

/// `completeElicitation` keeps only ids of mounted URL cards: a host forwarding every
/// completion a server sends (here 10,000 for no card) must not grow the page, so an id
/// completed before any card had it is not remembered (it used to be kept forever, and a
/// later card of that id opened as complete).
#[wasm_bindgen_test]
async fn embed_completions_for_no_mounted_card_are_not_kept() {
    for n in 0..10_000 {
        mcp_elicit_web::embed::complete_elicitation(format!("flood-{n}"), None);
    }
    let el = host();
    let p = js_sys::JSON::parse(
        r#"{"mode":"url","message":"Go","url":"https://example.com/y","elicitationId":"flood-7"}"#,
    )
    .expect("json");
    let promise = mcp_elicit_web::embed::elicit(el.clone().into(), p);
    button(&el, "Open in new tab").click();
    JsFuture::from(promise).await.expect("resolves");
    tick().await;
    let c = q(&el, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("waiting"));
    mcp_elicit_web::embed::complete_elicitation("flood-7".into(), None);
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("complete"));
}
