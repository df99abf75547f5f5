//! Long calls: the progress token every call sends (both eras), `notifications/progress`
//! made harmless and coalesced, and stopping a call (legacy `notifications/cancelled`, the
//! modern call simply finished while the caller aborts its request).

use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
use mcp_elicit::driver::modern::{ModernCall, ModernConfig, ModernStep};
use mcp_elicit::driver::progress::{Progress, ProgressBook, MAX_PROGRESS_MESSAGE_CHARS};
use mcp_elicit::wire::{Call, ElicitResult, RequestId};
use serde_json::{json, Map, Value};

const INIT_RESULT: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{},"protocolVersion":"2025-11-25","serverInfo":{"name":"Seeds","version":""}}}"#;

fn body(req: &mcp_elicit::driver::HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap()).unwrap()
}

fn ready_session() -> LegacySession {
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("s-1"));
    let LegacyEvent::Initialized { .. } = s.on_message(INIT_RESULT) else {
        panic!("no handshake")
    };
    s
}

fn tool() -> Call {
    Call::Tool {
        name: "slow_count".into(),
        arguments: Map::new(),
    }
}

fn note(token: &str, rest: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}"{rest}}}}}"#
    )
}

#[test]
fn a_legacy_call_carries_its_progress_token_in_meta() {
    let mut s = ready_session();
    let (_, req) = s
        .call_tracked(&tool(), Some("mcp-elicit-progress-1"))
        .unwrap();
    assert_eq!(
        body(&req)["params"],
        json!({"name":"slow_count","arguments":{},"_meta":{"progressToken":"mcp-elicit-progress-1"}})
    );
    // Without a token the params are as they always were.
    let (_, req) = s.call(&tool()).unwrap();
    assert_eq!(
        body(&req)["params"],
        json!({"name":"slow_count","arguments":{}})
    );
}

#[test]
fn every_modern_round_carries_the_token_beside_the_envelope() {
    let mut call = ModernCall::new(ModernConfig::default(), tool(), 1)
        .with_progress_token(Some("mcp-elicit-progress-7".into()));
    let meta = body(&call.request().unwrap())["params"]["_meta"].clone();
    assert_eq!(meta["progressToken"], "mcp-elicit-progress-7");
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    let plain = ModernCall::new(ModernConfig::default(), tool(), 1).request();
    assert!(body(&plain.unwrap())["params"]["_meta"]
        .get("progressToken")
        .is_none());
}

#[test]
fn progress_for_our_token_becomes_an_update() {
    let mut book = ProgressBook::new();
    let token = book.start();
    let other = book.start();
    assert_ne!(token, other);
    let text = note(
        &token,
        r#","progress":2,"total":10,"message":"Counted 2 of 10""#,
    );
    assert_eq!(book.on_message(&text), Some(token.clone()));
    assert_eq!(
        book.take(&token),
        Some(Progress {
            progress: 2.0,
            total: Some(10.0),
            message: Some("Counted 2 of 10".into())
        })
    );
    assert_eq!(book.take(&other), None);
    assert_eq!(
        serde_json::to_value(Progress {
            progress: 2.0,
            total: None,
            message: None
        })
        .unwrap(),
        json!({"progress": 2.0})
    );
}

#[test]
fn hostile_numbers_are_ignored_or_dropped() {
    let mut book = ProgressBook::new();
    let token = book.start();
    // Not numbers, not finite (JSON has no NaN: a text saying it is not JSON), negative.
    for rest in [
        r#","progress":"NaN""#,
        r#","progress":NaN"#,
        r#","progress":1e999"#,
        r#","progress":-1"#,
        r#","progress":null"#,
        "",
    ] {
        assert_eq!(book.on_message(&note(&token, rest)), None, "{rest}");
    }
    assert_eq!(book.take(&token), None);

    // Total below progress, zero, or not a number: dropped, the update stays.
    for rest in [
        r#","progress":5,"total":3"#,
        r#","progress":5,"total":0"#,
        r#","progress":5,"total":"ten""#,
    ] {
        assert!(book.on_message(&note(&token, rest)).is_some(), "{rest}");
        assert_eq!(book.take(&token).and_then(|p| p.total), None, "{rest}");
    }

    // Decreasing: ignored; equal: kept (a new message).
    assert_eq!(book.on_message(&note(&token, r#","progress":4"#)), None);
    assert!(book
        .on_message(&note(&token, r#","progress":5,"message":"still 5""#))
        .is_some());
    assert_eq!(
        book.take(&token).map(|p| (p.progress, p.message)),
        Some((5.0, Some("still 5".into())))
    );
}

#[test]
fn tokens_we_never_sent_or_whose_call_ended_are_ignored() {
    let mut book = ProgressBook::new();
    let token = book.start();
    assert_eq!(
        book.on_message(&note("someone-else", r#","progress":1"#)),
        None
    );
    // The same number as a JSON number is not our (string) token.
    let numeric = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    assert_eq!(book.on_message(numeric), None);
    // Other messages and other notifications.
    assert_eq!(
        book.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#),
        None
    );
    assert_eq!(
        book.on_message(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"progressToken":"x","data":"notifications/progress"}}"#),
        None
    );
    assert_eq!(book.on_message("notifications/progress, not JSON"), None);
    book.finish(&token);
    assert!(book.is_empty());
    assert_eq!(book.on_message(&note(&token, r#","progress":1"#)), None);
    assert_eq!(book.take(&token), None);
}

#[test]
fn messages_are_text_cut_to_a_line() {
    let mut book = ProgressBook::new();
    let token = book.start();
    let long = "x".repeat(100_000);
    let text = note(
        &token,
        &format!(r#","progress":1,"message":"  a\u0007b\n{long}""#),
    );
    assert!(book.on_message(&text).is_some());
    let message = book.take(&token).and_then(|p| p.message).unwrap();
    assert!(message.starts_with("abx"));
    assert!(message.ends_with('…'));
    assert_eq!(message.chars().count(), MAX_PROGRESS_MESSAGE_CHARS + 1);
    // A message of only blanks is none; one that is not a string too.
    for rest in [
        r#","progress":2,"message":"  ""#,
        r#","progress":3,"message":{"a":1}"#,
    ] {
        assert!(book.on_message(&note(&token, rest)).is_some());
        assert_eq!(book.take(&token).and_then(|p| p.message), None);
    }
}

#[test]
fn a_million_notifications_coalesce_into_one_update() {
    let mut book = ProgressBook::new();
    let token = book.start();
    let mut news = 0u32;
    for i in 0..1_000_000u32 {
        if book
            .on_message(&note(
                &token,
                &format!(r#","progress":{i},"total":1000000"#),
            ))
            .is_some()
        {
            news += 1;
        }
    }
    assert_eq!(news, 1_000_000);
    // One update is kept, the latest; taking it leaves none.
    assert_eq!(
        book.take(&token),
        Some(Progress {
            progress: 999_999.0,
            total: Some(1_000_000.0),
            message: None
        })
    );
    assert_eq!(book.take(&token), None);
    assert_eq!(book.len(), 1);
}

#[test]
fn stopping_a_legacy_call_sends_cancelled_and_forgets_it() {
    let mut s = ready_session();
    let (id, _) = s.call_tracked(&tool(), Some("t")).unwrap();
    let cancel = s.cancel(&id, "The person stopped the call.").unwrap();
    assert_eq!(
        body(&cancel),
        json!({"jsonrpc":"2.0","method":"notifications/cancelled",
               "params":{"requestId": 1, "reason": "The person stopped the call."}})
    );
    assert_eq!(cancel.header("Mcp-Session-Id"), Some("s-1"));
    // A late answer, or error, is nobody's now.
    let late = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    assert!(matches!(s.on_message(late), LegacyEvent::Ignored));
    let late = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}"#;
    assert!(matches!(s.on_message(late), LegacyEvent::Ignored));
    // Only a request still in flight is cancelled: not twice, not an unknown one.
    assert!(s.cancel(&id, "again").is_none());
    assert!(s.cancel(&RequestId::Number(99), "never sent").is_none());
    // A finished request is not cancelled either.
    let (done, _) = s.call(&tool()).unwrap();
    let answer = format!(r#"{{"jsonrpc":"2.0","id":{done},"result":{{"content":[]}}}}"#);
    assert!(matches!(
        s.on_message(&answer),
        LegacyEvent::Response { .. }
    ));
    assert!(s.cancel(&done, "too late").is_none());
}

#[test]
fn initialize_is_never_cancelled_and_reasons_are_cut() {
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    assert!(s.cancel(&RequestId::Number(0), "no").is_none());
    let mut s = ready_session();
    let (id, _) = s.call(&tool()).unwrap();
    let cancel = s.cancel(&id, &"why ".repeat(10_000)).unwrap();
    let reason = body(&cancel)["params"]["reason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(reason.chars().count() <= 201);
}

#[test]
fn a_stopped_modern_call_sends_nothing_more_and_ignores_late_messages() {
    let mut call = ModernCall::new(ModernConfig::default(), tool(), 1);
    call.request().unwrap();
    assert!(!call.is_finished());
    call.cancel();
    assert!(call.is_finished());
    assert_eq!(call.in_flight(), None);
    let late = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}"#;
    assert!(matches!(call.on_message(late), ModernStep::Ignored));
    assert!(call.request().is_err());
    assert!(call.answer("k", ElicitResult::cancel()).is_err());
}

#[test]
fn a_token_the_caller_made_is_followed_like_one_of_ours() {
    let mut book = ProgressBook::new();
    book.follow("page-wide-42".into());
    assert!(book
        .on_message(&note("page-wide-42", r#","progress":1"#))
        .is_some());
    assert_eq!(book.take("page-wide-42").map(|p| p.progress), Some(1.0));
    // Another book's token is not this book's.
    assert_eq!(
        book.on_message(&note("page-wide-43", r#","progress":1"#)),
        None
    );
}

#[test]
fn a_card_waits_until_it_is_answered_or_withdrawn() {
    use mcp_elicit::driver::legacy::{Arrival, Elicitations};
    use mcp_elicit::wire::ElicitRequestParams;
    let params: ElicitRequestParams = serde_json::from_str(
        r#"{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}"#,
    )
    .unwrap();
    let mut book = Elicitations::new(8);
    let (run, _) = book.start_run(&tool());
    let Arrival::Show { route } = book.arrive(1, RequestId::Number(3), params.clone(), Some(run))
    else {
        panic!("no card")
    };
    assert!(book.is_waiting(1, &RequestId::Number(3)));
    assert!(!book.is_waiting(2, &RequestId::Number(3)));
    book.delivered(&route);
    assert!(!book.is_waiting(1, &RequestId::Number(3)));
    let Arrival::Show { .. } = book.arrive(1, RequestId::Number(4), params, Some(run)) else {
        panic!("no card")
    };
    assert!(book.withdraw(1, &RequestId::Number(4)).is_some());
    assert!(!book.is_waiting(1, &RequestId::Number(4)));
}
