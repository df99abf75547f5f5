//! The card list a connection feeds (`PendingList`): every card says who is asking, cards
//! keep arrival order through many arrivals and answers, and a server flooding the page
//! gets at most `MAX_PENDING_CARDS` cards, the rest refused (answered `cancel`) with a
//! worded notice.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use leptos::prelude::*;
use mcp_elicit::wire::{ElicitAction, ElicitResult};
use mcp_elicit_web::client::{ClientEvent, EventSink, ServerIdentity};
use mcp_elicit_web::components::{ElicitationView, SendStatus};
use mcp_elicit_web::pending::{PendingList, PendingRequests, MAX_PENDING_CARDS};
use serde_json::json;
use std::sync::{Arc, Mutex};
use wasm_bindgen_test::*;

/// What the list asked to send, by routing id.
#[derive(Clone, Default)]
struct Sent(Arc<Mutex<Vec<(String, ElicitResult)>>>);

impl Sent {
    fn all(&self) -> Vec<(String, ElicitResult)> {
        self.0.lock().expect("lock").clone()
    }
}

fn mount_list(sent: &Sent) -> (web_sys::HtmlElement, Handle, PendingRequests) {
    let requests = PendingRequests::new();
    let inner = sent.0.clone();
    let on_answer = Callback::new(
        move |(id, result, _status): (String, ElicitResult, RwSignal<SendStatus>)| {
            inner.lock().expect("lock").push((id, result))
        },
    );
    let (root, handle) =
        mount(move || view! { <PendingList requests=requests on_answer=on_answer /> }.into_any());
    (root, handle, requests)
}

fn form_request(sink: &EventSink, id: &str, message: &str) {
    sink(ClientEvent::Elicit {
        id: id.to_owned(),
        key: id.to_owned(),
        params: params(json!({
            "message": message,
            "requestedSchema": {"type": "object", "properties": {"x": {"type": "string"}}}
        })),
    });
}

fn cards(root: &web_sys::Element) -> Vec<String> {
    q_all(root, "[data-elicitation]")
        .into_iter()
        .map(|c| c.get_attribute("data-elicitation").unwrap_or_default())
        .collect()
}

fn text(el: &web_sys::Element) -> String {
    el.text_content().unwrap_or_default()
}

const HOSTILE_NAME: &str = "<b>Weather</b> \u{202e}moc.live\u{202c} & Co";

#[wasm_bindgen_test]
async fn a_card_names_the_server_and_host_as_text() {
    for p in [
        json!({"message": "Your city?", "requestedSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}),
        json!({"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e1"}),
    ] {
        let answers = Answers::default();
        let cb = answers.callback();
        let server = ServerIdentity {
            name: Some(HOSTILE_NAME.to_owned()),
            host: "mcp.example.com:8443".to_owned(),
        };
        let (root, _h) = mount(move || {
            view! { <ElicitationView key="q1" params=params(p) on_answer=cb server=server /> }
                .into_any()
        });
        tick().await;
        let card = q(&root, "[data-elicitation]");
        let who = q(&card, "[data-testid=requesting-server]");
        let said = text(&who);
        assert!(
            said.contains(HOSTILE_NAME),
            "the whole name, as text: {said:?}"
        );
        assert!(said.contains("mcp.example.com:8443"), "the host: {said:?}");
        assert!(q_opt(&who, "b").is_none(), "server text is never markup");
        // The name is isolated, so its direction overrides cannot reorder the host.
        assert_eq!(text(&q(&who, "bdi")), HOSTILE_NAME);
    }
}

#[wasm_bindgen_test]
async fn without_a_name_the_card_names_the_host() {
    let answers = Answers::default();
    let cb = answers.callback();
    let server = ServerIdentity {
        name: None,
        host: "127.0.0.1:8001".to_owned(),
    };
    let p = json!({"message": "Hi", "requestedSchema": {"type": "object", "properties": {}}});
    let (root, _h) = mount(move || {
        view! { <ElicitationView key="q1" params=params(p) on_answer=cb server=server /> }
            .into_any()
    });
    tick().await;
    let said = text(&q(&root, "[data-testid=requesting-server]"));
    assert!(said.contains("127.0.0.1:8001"), "{said:?}");
}

#[wasm_bindgen_test]
async fn each_connection_s_cards_name_its_own_server() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let first = requests.sink();
    let second = requests.sink();
    first(ClientEvent::Server(ServerIdentity::new(
        None,
        "http://first.test:1/mcp",
    )));
    second(ClientEvent::Server(ServerIdentity {
        name: Some("Second server".into()),
        host: "second.test".into(),
    }));
    form_request(&first, "a", "From the first");
    form_request(&second, "b", "From the second");
    tick().await;
    let all = q_all(&root, "[data-elicitation]");
    assert_eq!(all.len(), 2);
    let first_card = text(&q(&all[0], "[data-testid=requesting-server]"));
    let second_card = text(&q(&all[1], "[data-testid=requesting-server]"));
    assert!(first_card.contains("first.test:1"), "{first_card:?}");
    assert!(second_card.contains("Second server"), "{second_card:?}");
    assert!(second_card.contains("second.test"), "{second_card:?}");

    // The name arriving later (the handshake ends) shows on cards already there.
    first(ClientEvent::Server(ServerIdentity {
        name: Some("First, named".into()),
        host: "first.test:1".into(),
    }));
    tick().await;
    let all = q_all(&root, "[data-elicitation]");
    assert!(text(&q(&all[0], "[data-testid=requesting-server]")).contains("First, named"));
}

#[wasm_bindgen_test]
async fn many_arrivals_and_answers_keep_arrival_order() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    // A long session: thousands of requests come and are answered; a few stay.
    for i in 0..2_000 {
        let id = format!("r{i}");
        form_request(&sink, &id, "Question");
        if i % 500 != 7 {
            sink(ClientEvent::Answered { id });
        }
    }
    // A request arriving again under a pending id replaces its card (and moves to the end).
    form_request(&sink, "r507", "Asked again");
    tick().await;
    assert_eq!(cards(&root), vec!["r7", "r1007", "r1507", "r507"]);
    assert!(text(&root).contains("Asked again"));
    assert!(q_opt(&root, "[data-testid=cards-refused]").is_none());
    assert!(sent.all().is_empty(), "nothing was refused");
}

#[wasm_bindgen_test]
async fn a_flood_gets_at_most_the_cap_and_a_worded_refusal() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    let extra = 5;
    for i in 0..MAX_PENDING_CARDS + extra {
        form_request(&sink, &format!("r{i}"), "Flood");
    }
    tick().await;
    tick().await;
    let shown = cards(&root);
    assert_eq!(shown.len(), MAX_PENDING_CARDS, "no more than the cap");
    assert_eq!(
        shown.first().map(String::as_str),
        Some("r0"),
        "the first ones stay"
    );
    let notice = q(&root, "[data-testid=cards-refused]");
    assert_eq!(
        text(&notice),
        format!(
            "The server sent more than {MAX_PENDING_CARDS} requests at once; later ones were refused."
        )
    );
    assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
    // The refused ones are answered `cancel`, so the server is not left waiting.
    let refused = sent.all();
    let ids: Vec<String> = refused.iter().map(|(id, _)| id.clone()).collect();
    let expected: Vec<String> = (MAX_PENDING_CARDS..MAX_PENDING_CARDS + extra)
        .map(|i| format!("r{i}"))
        .collect();
    assert_eq!(ids, expected);
    assert!(refused
        .iter()
        .all(|(_, r)| r.action == ElicitAction::Cancel));

    // Once one is answered there is room again.
    sink(ClientEvent::Answered { id: "r0".into() });
    form_request(&sink, "late", "Room again");
    tick().await;
    let shown = cards(&root);
    assert_eq!(shown.len(), MAX_PENDING_CARDS);
    assert_eq!(shown.last().map(String::as_str), Some("late"));
    assert_eq!(sent.all().len(), extra, "nothing more refused");
}

#[wasm_bindgen_test]
async fn answered_url_cards_make_room_for_new_requests() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    for i in 0..MAX_PENDING_CARDS {
        let id = format!("u{i}");
        sink(ClientEvent::Elicit {
            id: id.clone(),
            key: id.clone(),
            params: params(json!({
                "mode": "url", "message": "Visit", "url": "https://example.com/",
                "elicitationId": id
            })),
        });
    }
    // Two URL cards were answered: they only show their waiting state now.
    sink(ClientEvent::Answered { id: "u3".into() });
    sink(ClientEvent::Answered { id: "u1".into() });
    form_request(&sink, "f1", "New question");
    form_request(&sink, "f2", "Another");
    form_request(&sink, "f3", "One too many");
    tick().await;
    tick().await;
    let shown = cards(&root);
    assert_eq!(shown.len(), MAX_PENDING_CARDS);
    assert!(!shown.contains(&"u1".to_owned()) && !shown.contains(&"u3".to_owned()));
    assert!(shown.contains(&"u2".to_owned()), "unanswered cards stay");
    assert_eq!(&shown[MAX_PENDING_CARDS - 2..], ["f1", "f2"]);
    let ids: Vec<String> = sent.all().into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, vec!["f3".to_owned()]);
    assert!(q_opt(&root, "[data-testid=cards-refused]").is_some());
}

#[wasm_bindgen_test]
async fn a_session_s_refusal_shows_the_same_notice_and_clear_resets_it() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    sink(ClientEvent::CardsRefused);
    tick().await;
    assert!(q_opt(&root, "[data-testid=cards-refused]").is_some());
    requests.clear();
    tick().await;
    assert!(q_opt(&root, "[data-testid=cards-refused]").is_none());
}

#[wasm_bindgen_test]
async fn a_retired_card_says_why_in_words_and_cannot_be_answered() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    form_request(&sink, "r1", "Your note?");
    sink(ClientEvent::Retired {
        id: "r1".into(),
        reason: "the call failed: HTTP 500".into(),
    });
    tick().await;
    let card = q(&root, "[data-elicitation=r1]");
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("closed"));
    let said = text(&q(&card, "[data-testid=card-closed]"));
    assert_eq!(
        said,
        "This request can no longer be answered: the call failed: HTTP 500"
    );
    // An inert copy: no Submit, no button at all (the contract's withdrawn question).
    assert_eq!(button_names(&card), Vec::<String>::new());
    let field = input(&card, "x");
    assert!(field.disabled(), "what was typed stays, inert");
    // A later report of the answer's own failure does not make it answerable again.
    sink(ClientEvent::AnswerFailed {
        id: "r1".into(),
        reason: "no route".into(),
    });
    tick().await;
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("closed"));
    assert!(sent.all().is_empty(), "nothing was sent for it");
}

/// The cards of one round (a form and a URL question) are answered each on its own, every
/// answer routed by its card's id; a key that the next round asks again gets a fresh card,
/// with nothing of the answered one's state.
#[wasm_bindgen_test]
async fn a_round_s_cards_are_answered_each_on_its_own_and_a_key_asked_again_is_fresh() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    let ask = |id: &str, key: &str, p: serde_json::Value| {
        sink(ClientEvent::Elicit {
            id: id.to_owned(),
            key: key.to_owned(),
            params: params(p),
        })
    };
    ask(
        "7/name",
        "name",
        json!({"message": "Name?", "requestedSchema": {"type": "object",
            "properties": {"n": {"type": "string"}}, "required": ["n"]}}),
    );
    ask(
        "7/pay",
        "pay",
        json!({"mode": "url", "message": "Pay", "url": "https://example.com/",
            "elicitationId": "p1"}),
    );
    tick().await;
    assert_eq!(cards(&root), vec!["name", "pay"]);
    let views = q_all(&root, "[data-elicitation]");
    assert_eq!(views[1].get_attribute("data-mode").as_deref(), Some("url"));

    type_into(&input(&views[0], "n"), "Ada");
    button(&views[0], "Submit").click();
    assert_eq!(sent.all().len(), 1, "one of two answered");
    button(&views[1], "Decline").click();
    let got = sent.all();
    let ids: Vec<&str> = got.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, vec!["7/name", "7/pay"]);
    assert_eq!(wire(&got[1].1), json!({"action": "decline"}));
    assert_eq!(
        wire(&got[0].1),
        json!({"action": "accept", "content": {"n": "Ada"}})
    );

    // The session took both; its next round asks `name` again, under the same id.
    sink(ClientEvent::Answered {
        id: "7/name".into(),
    });
    sink(ClientEvent::Answered { id: "7/pay".into() });
    ask(
        "7/name",
        "name",
        json!({"message": "Again?", "requestedSchema": {"type": "object",
            "properties": {"n": {"type": "string"}}}}),
    );
    tick().await;
    assert_eq!(cards(&root), vec!["pay", "name"], "the URL card stays");
    let again = q(&root, "[data-elicitation=name]");
    assert_eq!(
        again.get_attribute("data-state").as_deref(),
        Some("pending")
    );
    assert!(text(&again).contains("Again?"));
    assert_eq!(
        input(&again, "n").value(),
        "",
        "nothing of the first answer"
    );
    assert_eq!(sent.all().len(), 2, "nothing sent for the new card yet");
}

/// After Open, a URL card waits for the server's completion; many servers send none once
/// their call has its answer. When the call that asked has returned, the card says so
/// instead of "Waiting for the server…", whether the call returned before or after the
/// click. Its `data-state` stays `waiting` (the DOM contract's), and a completion that
/// comes later still marks it complete.
#[wasm_bindgen_test]
async fn an_opened_url_card_says_when_its_call_has_returned() {
    let sent = Sent::default();
    let (root, _h, requests) = mount_list(&sent);
    let sink = requests.sink();
    for id in ["after", "before"] {
        sink(ClientEvent::Elicit {
            id: id.to_owned(),
            key: id.to_owned(),
            params: params(json!({"mode": "url", "message": "Sign in there",
                "url": format!("https://auth.example/{id}"), "elicitationId": id})),
        });
    }
    tick().await;
    let all = q_all(&root, "[data-elicitation]");
    assert_eq!(all.len(), 2);
    let state = |card: &web_sys::Element| card.get_attribute("data-state").unwrap_or_default();
    let said = |card: &web_sys::Element| card.text_content().unwrap_or_default();

    // The call returns after the click.
    button(&all[0], "Open in new tab").click();
    tick().await;
    assert_eq!(state(&all[0]), "waiting");
    assert!(
        said(&all[0]).contains("Waiting for the server"),
        "{}",
        said(&all[0])
    );
    sink(ClientEvent::CallEnded { id: "after".into() });
    tick().await;
    assert_eq!(state(&all[0]), "waiting", "a completion may still come");
    assert!(said(&all[0]).contains("has finished"), "{}", said(&all[0]));
    assert!(!said(&all[0]).contains("Waiting for"), "{}", said(&all[0]));
    sink(ClientEvent::Completed {
        elicitation_id: "after".into(),
    });
    tick().await;
    assert_eq!(state(&all[0]), "complete");

    // The call returned before the click: after Open, the card says so at once.
    sink(ClientEvent::CallEnded {
        id: "before".into(),
    });
    tick().await;
    assert_eq!(state(&all[1]), "pending", "nothing to say before Open");
    assert!(!said(&all[1]).contains("has finished"), "{}", said(&all[1]));
    button(&all[1], "Open in new tab").click();
    tick().await;
    assert!(said(&all[1]).contains("has finished"), "{}", said(&all[1]));
    assert!(!said(&all[1]).contains("Waiting for"), "{}", said(&all[1]));
}
