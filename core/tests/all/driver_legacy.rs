//! The legacy session machine over the recorded SDK exchanges (docs/protocol.md): handshake,
//! session headers, routing, answers, -32042, expiry, close.

use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession, SessionState};
use mcp_elicit::driver::{DriverError, HttpMethod};
use mcp_elicit::wire::{Call, ElicitRequestParams, ElicitResult, RequestId};
use serde_json::{json, Map, Value};

const INIT_RESULT: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"prompts":{"listChanged":false},"resources":{"listChanged":false,"subscribe":false},"tools":{"listChanged":false}},"protocolVersion":"2025-11-25","serverInfo":{"name":"Seeds","version":""}}}"#;

fn body(req: &mcp_elicit::driver::HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap()).unwrap()
}

fn ready_session() -> LegacySession {
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    assert!(s
        .on_http_status(Some(&RequestId::Number(0)), 200, Some("2371abc"))
        .is_none());
    let LegacyEvent::Initialized { .. } = s.on_message(INIT_RESULT) else {
        panic!()
    };
    s
}

#[test]
fn handshake_declares_elicitation_and_then_sends_session_headers() {
    let mut s = LegacySession::new(LegacyConfig::default());
    let init = s.initialize_request().unwrap();
    assert_eq!(init.header("mcp-session-id"), None);
    let b = body(&init);
    assert_eq!(b["id"], 0);
    assert_eq!(b["method"], "initialize");
    assert_eq!(b["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        b["params"]["capabilities"]["elicitation"],
        json!({"form":{},"url":{}})
    );
    assert_eq!(b["params"]["clientInfo"]["name"], "mcp-elicit");
    assert_eq!(s.state(), SessionState::Initializing);
    assert!(s.request("tools/list", None).is_err());

    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("2371abc"));
    let LegacyEvent::Initialized {
        result,
        notification,
    } = s.on_message(INIT_RESULT)
    else {
        panic!()
    };
    assert_eq!(result.server_info.name, "Seeds");
    assert_eq!(
        body(&notification),
        json!({"jsonrpc":"2.0","method":"notifications/initialized"})
    );
    assert_eq!(notification.header("Mcp-Session-Id"), Some("2371abc"));
    assert_eq!(
        notification.header("MCP-Protocol-Version"),
        Some("2025-11-25")
    );
    assert_eq!(s.state(), SessionState::Ready);

    let (id, req) = s.request("tools/list", None).unwrap();
    assert_eq!(id, RequestId::Number(1));
    assert_eq!(req.header("mcp-session-id"), Some("2371abc"));
    assert_eq!(req.header("mcp-protocol-version"), Some("2025-11-25"));
}

#[test]
fn book_table_flow_routes_the_server_request_then_our_result() {
    let mut s = ready_session();
    let args = json!({"name":"book_table","arguments":{"date":"2025-12-25","party_size":2}});
    let (id, _) = s.call(&Call::parse("tools/call", &args).unwrap()).unwrap();
    assert_eq!(id, RequestId::Number(1));
    // The server's own id space: id 1 here too, but it is a request, not our answer.
    let ev = s.on_message(r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"No tables for 2 on 2025-12-25. Would you like to try another date?","requestedSchema":{"properties":{"accept_alternative":{"description":"Try another date?","title":"Accept Alternative","type":"boolean"},"date":{"default":"2025-12-26","description":"Alternative date (YYYY-MM-DD)","title":"Date","type":"string"}},"required":["accept_alternative"],"title":"AlternativeDate","type":"object"}}}"#);
    let LegacyEvent::Elicit { id: eid, params } = ev else {
        panic!("{ev:?}")
    };
    assert!(matches!(params, ElicitRequestParams::Form(_)));
    let mut content = Map::new();
    content.insert("accept_alternative".into(), json!(true));
    content.insert("date".into(), json!("2025-12-27"));
    let answer = s
        .answer_elicitation(&eid, &ElicitResult::accept(Some(content)))
        .unwrap();
    assert_eq!(
        answer.body.as_deref(),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"accept_alternative":true,"date":"2025-12-27"}}}"#
        )
    );
    assert_eq!(answer.header("mcp-session-id"), Some("2371abc"));
    let ev = s.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"Booked a table for 2 on 2025-12-27.","type":"text"}],"isError":false}}"#);
    let LegacyEvent::Response { id, method, result } = ev else {
        panic!("{ev:?}")
    };
    assert_eq!(id, RequestId::Number(1));
    assert_eq!(method, "tools/call");
    assert!(result.get().contains("Booked a table for 2 on 2025-12-27."));
    // A second copy of the same answer is not ours any more.
    assert!(matches!(
        s.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
        LegacyEvent::Ignored
    ));
}

#[test]
fn url_mode_and_completion_on_the_get_stream() {
    let mut s = ready_session();
    let get = s.get_stream_request(None).unwrap();
    assert_eq!(get.method, HttpMethod::Get);
    assert_eq!(get.header("accept"), Some("text/event-stream"));
    assert_eq!(get.header("mcp-session-id"), Some("2371abc"));
    let ev = s.on_message(r#"{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"url","message":"A 20 EUR deposit confirms your booking.","url":"https://pay.example.com/deposit/b1","elicitationId":"deposit-b1"}}"#);
    let LegacyEvent::Elicit {
        id,
        params: ElicitRequestParams::Url(u),
    } = ev
    else {
        panic!("{ev:?}")
    };
    assert_eq!(u.elicitation_id, "deposit-b1");
    let answer = s
        .answer_elicitation(&id, &ElicitResult::accept(None))
        .unwrap();
    assert_eq!(
        answer.body.as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":2,"result":{"action":"accept"}}"#)
    );
    let ev = s.on_message(r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"deposit-b1"}}"#);
    let LegacyEvent::ElicitationComplete { elicitation_id } = ev else {
        panic!("{ev:?}")
    };
    assert_eq!(elicitation_id, "deposit-b1");
    assert!(matches!(s.on_message(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#), LegacyEvent::Ignored));
}

#[test]
fn ping_roots_and_unknown_requests_are_answered_automatically() {
    let mut s = ready_session();
    let LegacyEvent::Reply { request, note, .. } =
        s.on_message(r#"{"jsonrpc":"2.0","id":"p1","method":"ping"}"#)
    else {
        panic!()
    };
    assert_eq!(
        request.body.as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":"p1","result":{}}"#)
    );
    assert!(note.is_none());
    let LegacyEvent::Reply { request, .. } =
        s.on_message(r#"{"jsonrpc":"2.0","id":5,"method":"roots/list"}"#)
    else {
        panic!()
    };
    assert_eq!(
        request.body.as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":5,"result":{"roots":[]}}"#)
    );
    let LegacyEvent::Reply { request, note, .. } =
        s.on_message(r#"{"jsonrpc":"2.0","id":6,"method":"sampling/createMessage","params":{}}"#)
    else {
        panic!()
    };
    assert_eq!(body(&request)["error"]["code"], -32601);
    assert!(note.unwrap().contains("sampling/createMessage"));
    let LegacyEvent::Reply { request, .. } = s.on_message(
        r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"url"}}"#,
    ) else {
        panic!()
    };
    assert_eq!(body(&request)["error"]["code"], -32602);
}

#[test]
fn sampling_goes_to_the_host_only_when_declared_and_is_answered_or_refused() {
    let config = LegacyConfig {
        capabilities: mcp_elicit::wire::ClientCapabilities::for_host(true),
        ..LegacyConfig::default()
    };
    let mut s = LegacySession::new(config);
    let init = s.initialize_request().unwrap();
    assert_eq!(body(&init)["params"]["capabilities"]["sampling"], json!({}));
    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("sid"));
    let LegacyEvent::Initialized { .. } = s.on_message(INIT_RESULT) else {
        panic!()
    };
    let request = r#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"6x7?"}}],"maxTokens":200}}"#;
    let LegacyEvent::Sampling { id, params } = s.on_message(request) else {
        panic!()
    };
    assert_eq!(id, RequestId::Number(3));
    assert_eq!(params["maxTokens"], 200);
    let result = json!({"role":"assistant","content":{"type":"text","text":"42"},"model":"m"});
    let answer = s.answer_sampling(&id, &result).unwrap();
    assert_eq!(answer.header("Mcp-Session-Id"), Some("sid"));
    assert_eq!(
        body(&answer),
        json!({"jsonrpc":"2.0","id":3,"result":result})
    );
    let refusal = s.refuse_sampling(&id, "The user refused.").unwrap();
    assert_eq!(
        body(&refusal),
        json!({"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"The user refused."}})
    );
    // A sampling request without params is refused by the session itself.
    let LegacyEvent::Reply { request, .. } =
        s.on_message(r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage"}"#)
    else {
        panic!()
    };
    assert_eq!(body(&request)["error"]["code"], -32602);
}

#[test]
fn url_elicitation_required_error_is_surfaced_with_its_elicitations() {
    let mut s = ready_session();
    let (id, _) = s
        .call(
            &Call::parse(
                "tools/call",
                &json!({"name":"open_vault","arguments":{"vault":"v"}}),
            )
            .unwrap(),
        )
        .unwrap();
    let msg = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32042,"message":"This request requires more information.","data":{{"elicitations":[{{"mode":"url","message":"Unlock","url":"https://vault.example/v","elicitationId":"vault-v"}}]}}}}}}"#
    );
    let LegacyEvent::Failed { id: fid, error } = s.on_message(&msg) else {
        panic!()
    };
    assert_eq!(fid, Some(id));
    let DriverError::UrlElicitationRequired { elicitations, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(elicitations[0].elicitation_id, "vault-v");
    assert!(error.to_string().contains("1 web page completed"));
}

#[test]
fn a_404_with_a_session_expires_it_and_reinitialising_starts_fresh() {
    let mut s = ready_session();
    let (id, _) = s.request("tools/list", None).unwrap();
    let ev = s.on_http_failure(Some(&id), 404, Some("application/json"), br#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}"#);
    assert!(matches!(ev, Some(LegacyEvent::SessionExpired)), "{ev:?}");
    assert_eq!(s.state(), SessionState::New);
    assert_eq!(s.session_id(), None);
    assert!(DriverError::SessionExpired
        .to_string()
        .contains("no longer knows this session"));
    let init = s.initialize_request().unwrap();
    assert_eq!(init.header("mcp-session-id"), None);
    assert_eq!(body(&init)["method"], "initialize");
}

#[test]
fn other_http_failures_fail_the_request() {
    let mut s = ready_session();
    let (id, _) = s.request("tools/list", None).unwrap();
    let ev = s.on_http_failure(
        Some(&id),
        400,
        Some("application/json"),
        br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad params"}}"#,
    );
    let Some(LegacyEvent::Failed { error, .. }) = ev else {
        panic!()
    };
    assert!(error.to_string().contains("bad params"));
    let (id, _) = s.request("tools/list", None).unwrap();
    let Some(LegacyEvent::Failed { error, .. }) = s.on_http_status(Some(&id), 500, None) else {
        panic!()
    };
    assert_eq!(
        error,
        DriverError::Http {
            status: 500,
            body: String::new()
        }
    );
}

#[test]
fn an_unspeakable_version_fails_the_handshake() {
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    let ev = s.on_message(&INIT_RESULT.replace("2025-11-25", "2099-01-01"));
    let LegacyEvent::Failed { error, .. } = ev else {
        panic!()
    };
    assert!(error.to_string().contains("2099-01-01"));
    assert_eq!(s.state(), SessionState::New);
}

#[test]
fn close_sends_delete_with_the_session() {
    let mut s = ready_session();
    let del = s.close_request().unwrap();
    assert_eq!(del.method, HttpMethod::Delete);
    assert_eq!(del.header("mcp-session-id"), Some("2371abc"));
    assert_eq!(s.state(), SessionState::Closed);
    assert!(s.request("tools/list", None).is_err());
    assert!(s.close_request().is_none());
}

#[test]
fn initialize_id_names_the_latest_handshake_so_its_status_can_be_matched() {
    let mut s = LegacySession::new(LegacyConfig::default());
    assert_eq!(s.initialize_id(), None);
    let init = s.initialize_request().unwrap();
    let id = s.initialize_id().cloned().unwrap();
    assert_eq!(body(&init)["id"], json!(0));
    assert_eq!(id, RequestId::Number(0));
    assert!(s.on_http_status(Some(&id), 200, Some("s-1")).is_none());
    assert_eq!(s.session_id(), Some("s-1"));
    // A second handshake (after expiry) gets a fresh id.
    s.initialize_request().unwrap();
    assert_eq!(s.initialize_id(), Some(&RequestId::Number(1)));
}

/// `Last-Event-ID` only carries an id the browser can send and the server gets back
/// byte for byte (see `sse::resume_token`); an unusable one is left out, so the GET
/// opens a stream from scratch instead of making `fetch` throw.
#[test]
fn the_get_stream_omits_an_unusable_last_event_id() {
    let s = ready_session();
    let get = s.get_stream_request(Some("42_0")).unwrap();
    assert_eq!(get.header("last-event-id"), Some("42_0"));
    for bad in ["", "caf\u{e9}", "\u{1F600}", "a\r\nb", " 1", "1\t", "\u{7}"] {
        let get = s.get_stream_request(Some(bad)).unwrap();
        assert_eq!(get.header("last-event-id"), None, "{bad:?}");
        assert_eq!(get.header("mcp-session-id"), Some("2371abc"));
    }
}

#[test]
fn a_404_on_a_request_of_a_session_already_given_up_leaves_the_new_state_alone() {
    let mut s = ready_session();
    let (first, _) = s.call(&call("a")).unwrap();
    let (second, _) = s.call(&call("b")).unwrap();
    let not_found = br#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}"#;
    let ev = s.on_http_failure(Some(&first), 404, Some("application/json"), not_found);
    assert!(matches!(ev, Some(LegacyEvent::SessionExpired)), "{ev:?}");
    // The caller renews the session; the second request's 404 arrives meanwhile.
    let init = s.initialize_request().unwrap();
    assert_eq!(body(&init)["method"], "initialize");
    let ev = s.on_http_failure(Some(&second), 404, Some("application/json"), not_found);
    assert!(matches!(ev, Some(LegacyEvent::SessionExpired)), "{ev:?}");
    assert_eq!(s.state(), SessionState::Initializing, "the renewal goes on");
    let init_id = s.initialize_id().cloned();
    assert!(s
        .on_http_status(init_id.as_ref(), 200, Some("session-2"))
        .is_none());
    assert_eq!(s.session_id(), Some("session-2"));
    // And a stale 404 after the new session is up does not forget it.
    let ev = s.on_http_status(Some(&second), 404, None);
    assert!(matches!(ev, Some(LegacyEvent::SessionExpired)), "{ev:?}");
    assert_eq!(s.session_id(), Some("session-2"));
}

// --- The elicitation book: cards bound to their session and their call --------------

use mcp_elicit::driver::legacy::{route_of, AnswerPlan, Arrival, Elicitations, MAX_KEPT_ANSWERS};

/// The card cap the tests' books hold.
const CARDS: usize = 40;

fn question(text: &str) -> ElicitRequestParams {
    serde_json::from_value(json!({
        "message": text,
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    }))
    .unwrap()
}

fn call(name: &str) -> Call {
    Call::Tool {
        name: name.into(),
        arguments: Map::new(),
    }
}

fn accept() -> ElicitResult {
    let mut content = Map::new();
    content.insert("ok".into(), json!(true));
    ElicitResult::accept(Some(content))
}

fn shown(arrival: Arrival) -> String {
    match arrival {
        Arrival::Show { route } => route,
        other => panic!("expected a new card, got {other:?}"),
    }
}

/// Finding: after a restart and a renewal by another request, answering a card of the old
/// session POSTed its old id on the new one, where the new server's request 0 took it.
#[test]
fn a_card_of_an_earlier_session_is_never_answered_on_the_current_one() {
    let mut book = Elicitations::new(CARDS);
    let (a, _) = book.start_run(&call("delete_folder"));
    let (b, _) = book.start_run(&call("book_table"));
    let first = shown(book.arrive(1, RequestId::Number(0), question("A?"), Some(a)));
    let second = shown(book.arrive(1, RequestId::Number(1), question("B?"), Some(b)));
    book.finish_run(a);
    book.finish_run(b);
    // Restart; another call renews the session (epoch 2) and is asked under id 0 again.
    let (c, _) = book.start_run(&call("other"));
    let third = shown(book.arrive(2, RequestId::Number(0), question("C?"), Some(c)));
    assert_ne!(third, first, "same id, other session: another card");
    assert_eq!(
        book.plan_answer(&first, 2, &accept()),
        AnswerPlan::Lost { evicted: None },
        "nothing is sent across sessions"
    );
    assert_eq!(
        book.plan_answer(&third, 2, &accept()),
        AnswerPlan::Send {
            id: RequestId::Number(0)
        }
    );
    // On its own session a card is answered as usual.
    assert_eq!(
        book.plan_answer(&second, 1, &accept()),
        AnswerPlan::Send {
            id: RequestId::Number(1)
        }
    );
}

/// Finding: a kept answer was replayed into any later identical question, from any call,
/// forever.
#[test]
fn a_kept_answer_is_replayed_only_into_the_rerun_of_its_call_and_only_once() {
    let mut book = Elicitations::new(CARDS);
    let (run, _) = book.start_run(&call("delete_folder"));
    let card = shown(book.arrive(1, RequestId::Number(0), question("Sure?"), Some(run)));
    book.finish_run(run);
    assert_eq!(
        book.lost(&card, &accept()),
        AnswerPlan::Lost { evicted: None }
    );
    // The GET stream asking the very same question gets a card of its own.
    shown(book.arrive(2, RequestId::Number(1), question("Sure?"), None));
    // The re-run of the same call: replayed, once.
    let (rerun, expired) = book.start_run(&call("delete_folder"));
    assert!(expired.is_empty());
    assert_eq!(
        book.arrive(2, RequestId::Number(2), question("Sure?"), Some(rerun)),
        Arrival::Replay {
            route: card.clone(),
            answer: accept()
        }
    );
    shown(book.arrive(2, RequestId::Number(3), question("Sure?"), Some(rerun)));
    // The card is now bound to the new request: Submit (after a failed resend) goes there.
    assert_eq!(
        book.plan_answer(&card, 2, &accept()),
        AnswerPlan::Send {
            id: RequestId::Number(2)
        }
    );
    assert_eq!(book.finish_run(rerun), Vec::<String>::new());
    book.delivered(&card);
    assert_eq!(book.plan_answer(&card, 2, &accept()), AnswerPlan::Unknown);
}

#[test]
fn another_call_asking_the_same_question_gets_its_own_card_and_the_kept_answer_expires() {
    let mut book = Elicitations::new(CARDS);
    let (run, _) = book.start_run(&call("delete_folder"));
    let card = shown(book.arrive(1, RequestId::Number(0), question("Sure?"), Some(run)));
    let _ = book.lost(&card, &accept());
    // The next call made is another one (same method, other params): not the re-run.
    let (other, expired) = book.start_run(&call("other_tool"));
    assert_eq!(expired, vec![card.clone()], "its card is told");
    let stranger = shown(book.arrive(2, RequestId::Number(0), question("Sure?"), Some(other)));
    assert_ne!(stranger, card);
    // A later run of the card's own call replays nothing now...
    let (late, _) = book.start_run(&call("delete_folder"));
    shown(book.arrive(2, RequestId::Number(1), question("Sure?"), Some(late)));
    // ...until Submit keeps the answer again.
    assert_eq!(
        book.plan_answer(&card, 2, &accept()),
        AnswerPlan::Lost { evicted: None }
    );
    let (again, _) = book.start_run(&call("delete_folder"));
    assert!(matches!(
        book.arrive(2, RequestId::Number(2), question("Sure?"), Some(again)),
        Arrival::Replay { route, .. } if route == card
    ));
}

#[test]
fn a_kept_answer_expires_when_its_rerun_ends_without_asking_and_submit_keeps_it_again() {
    let mut book = Elicitations::new(CARDS);
    let (run, _) = book.start_run(&call("t"));
    let card = shown(book.arrive(1, RequestId::Number(0), question("Q?"), Some(run)));
    let _ = book.lost(&card, &accept());
    // A run of the same call already under way when the answer was kept is not its re-run.
    let (rerun, _) = book.start_run(&call("t"));
    assert_eq!(book.finish_run(run), Vec::<String>::new());
    assert_eq!(book.finish_run(rerun), vec![card.clone()], "expired");
    let (later, _) = book.start_run(&call("t"));
    shown(book.arrive(2, RequestId::Number(0), question("Q?"), Some(later)));
    // Submit on the expired card keeps the answer again, for the next re-run.
    assert_eq!(
        book.plan_answer(&card, 2, &accept()),
        AnswerPlan::Lost { evicted: None }
    );
    let (again, _) = book.start_run(&call("t"));
    assert!(matches!(
        book.arrive(2, RequestId::Number(1), question("Q?"), Some(again)),
        Arrival::Replay { route, .. } if route == card
    ));
}

#[test]
fn kept_answers_are_capped_and_the_oldest_goes_first() {
    let mut book = Elicitations::new(CARDS);
    let mut cards = Vec::new();
    for n in 0..=MAX_KEPT_ANSWERS {
        let (run, _) = book.start_run(&call(&format!("t{n}")));
        let id = RequestId::Number(i64::try_from(n).unwrap());
        cards.push(shown(book.arrive(1, id, question("Q?"), Some(run))));
    }
    for card in &cards[..MAX_KEPT_ANSWERS] {
        assert_eq!(
            book.lost(card, &accept()),
            AnswerPlan::Lost { evicted: None }
        );
    }
    assert_eq!(
        book.lost(&cards[MAX_KEPT_ANSWERS], &accept()),
        AnswerPlan::Lost {
            evicted: Some(cards[0].clone())
        }
    );
    let (rerun, _) = book.start_run(&call("t0"));
    shown(book.arrive(2, RequestId::Number(0), question("Q?"), Some(rerun)));
}

#[test]
fn a_card_from_the_get_stream_of_a_lost_session_is_gone() {
    let mut book = Elicitations::new(CARDS);
    let card = shown(book.arrive(1, RequestId::Number(0), question("Q?"), None));
    assert_eq!(book.plan_answer(&card, 2, &accept()), AnswerPlan::Gone);
    assert_eq!(book.plan_answer(&card, 2, &accept()), AnswerPlan::Unknown);
}

#[test]
fn a_duplicate_server_id_is_ignored_and_cards_are_capped() {
    let mut book = Elicitations::new(CARDS);
    let card = shown(book.arrive(1, RequestId::Number(7), question("Q?"), None));
    assert_eq!(
        book.arrive(1, RequestId::Number(7), question("Other?"), None),
        Arrival::Duplicate
    );
    assert_eq!(
        book.plan_answer(&card, 1, &accept()),
        AnswerPlan::Send {
            id: RequestId::Number(7)
        },
        "the first card still owns the id"
    );
    // `7` and `"7"` are two ids.
    shown(book.arrive(1, RequestId::String("7".into()), question("Q?"), None));
    for n in 2..CARDS {
        let id = RequestId::Number(1_000 + i64::try_from(n).unwrap());
        shown(book.arrive(1, id, question("Q?"), None));
    }
    assert_eq!(book.len(), CARDS);
    assert!(matches!(
        book.arrive(1, RequestId::Number(-1), question("Q?"), None),
        Arrival::Refuse { why } if why.contains("40")
    ));
    book.delivered(&card);
    shown(book.arrive(1, RequestId::Number(-1), question("Q?"), None));
    assert_eq!(route_of(1, &RequestId::String("7".into())), r#"1/"7""#);
}

#[test]
fn a_refused_elicitation_is_a_json_rpc_error_with_the_same_id() {
    let s = ready_session();
    let req = s
        .refuse_elicitation(&RequestId::Number(3), "too many")
        .unwrap();
    assert_eq!(
        body(&req),
        json!({"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"too many"}})
    );
    assert_eq!(req.header("mcp-session-id"), Some("2371abc"));
}

/// Responses to requests never sent, or sent and already answered, are ignored and leave
/// the requests in flight alone.
#[test]
fn responses_to_unknown_ids_are_ignored_without_disturbing_pending_requests() {
    let mut s = ready_session();
    let (id, _) = s.call(&call("t")).unwrap();
    for stray in [
        r#"{"jsonrpc":"2.0","id":99,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":"1","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":99,"error":{"code":-1,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":0,"result":{}}"#,
    ] {
        assert!(
            matches!(s.on_message(stray), LegacyEvent::Ignored),
            "{stray}"
        );
    }
    let ev = s.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert!(matches!(ev, LegacyEvent::Response { id: got, .. } if got == id));
    // Answered once: a second answer is a stray.
    assert!(matches!(
        s.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#),
        LegacyEvent::Ignored
    ));
}

// --- Pacing: reconnects and automatic replies ----------------------------------------

use mcp_elicit::driver::legacy::{
    reconnect_delay_ms, AutomaticReplies, Offered, Reconnect, DEFAULT_RECONNECT_DELAY_MS,
    MAX_AUTOMATIC_REPLIES_IN_FLIGHT, MAX_AUTOMATIC_REPLIES_QUEUED, MAX_IDLE_RECONNECTS,
    MAX_RECONNECT_DELAY_MS, MIN_RECONNECT_DELAY_MS,
};

/// Finding: `retry: 0` had the client reconnect at once, again and again.
#[test]
fn reconnect_delays_are_floored_capped_and_back_off_when_streams_bring_nothing() {
    assert_eq!(reconnect_delay_ms(Some(0)), MIN_RECONNECT_DELAY_MS);
    assert_eq!(reconnect_delay_ms(None), DEFAULT_RECONNECT_DELAY_MS);
    assert_eq!(reconnect_delay_ms(Some(u64::MAX)), MAX_RECONNECT_DELAY_MS);
    assert_eq!(reconnect_delay_ms(Some(250)), 250);
    let mut pace = Reconnect::default();
    let delays: Vec<u32> = (0..MAX_IDLE_RECONNECTS + 8)
        .map(|_| pace.next_delay_ms(false, Some(0)))
        .collect();
    assert!(delays.iter().all(|d| *d >= MIN_RECONNECT_DELAY_MS));
    let fast = delays
        .iter()
        .filter(|d| **d < DEFAULT_RECONNECT_DELAY_MS)
        .count();
    assert_eq!(fast, usize::try_from(MAX_IDLE_RECONNECTS).unwrap());
    assert_eq!(delays.last(), Some(&MAX_RECONNECT_DELAY_MS));
    // A stream that brings an event restores the server's pace.
    assert_eq!(pace.next_delay_ms(true, Some(200)), 200);
}

/// Finding: every ping on the stream became a fetch of its own, all at once.
#[test]
fn automatic_replies_are_bounded_in_flight_and_pings_are_never_queued() {
    let mut s = ready_session();
    let mut replies = AutomaticReplies::default();
    let (mut sent, mut dropped, mut said) = (0, 0, 0);
    for n in 0..1_000_000i64 {
        let LegacyEvent::Reply { request, ping, .. } =
            s.on_message(&format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#))
        else {
            panic!()
        };
        assert!(ping);
        match replies.offer(request, ping) {
            Offered::Send(_) => sent += 1,
            Offered::Queued => panic!("a ping is never queued"),
            Offered::Dropped { first } => {
                dropped += 1;
                said += usize::from(first);
            }
        }
    }
    assert_eq!(sent, MAX_AUTOMATIC_REPLIES_IN_FLIGHT);
    assert_eq!(replies.in_flight(), MAX_AUTOMATIC_REPLIES_IN_FLIGHT);
    assert_eq!(said, 1, "the drop is said once");
    assert_eq!(sent + dropped, 1_000_000);
    // Other replies (roots, refusals) wait in a bounded queue.
    let mut queued = 0;
    for n in 0..MAX_AUTOMATIC_REPLIES_QUEUED + 10 {
        let LegacyEvent::Reply { request, ping, .. } = s.on_message(&format!(
            r#"{{"jsonrpc":"2.0","id":"r{n}","method":"roots/list"}}"#
        )) else {
            panic!()
        };
        assert!(!ping);
        if matches!(replies.offer(request, ping), Offered::Queued) {
            queued += 1;
        }
    }
    assert_eq!(queued, MAX_AUTOMATIC_REPLIES_QUEUED);
    // Each POST that ends hands out the next; once all are out, the slots free up.
    let mut handed = 0;
    while replies.sent().is_some() {
        handed += 1;
    }
    assert_eq!(handed, MAX_AUTOMATIC_REPLIES_QUEUED);
    assert_eq!(replies.queued(), 0);
    assert_eq!(replies.in_flight(), MAX_AUTOMATIC_REPLIES_IN_FLIGHT - 1);
}

#[test]
fn no_answer_is_built_while_a_new_session_is_being_set_up_or_after_a_404() {
    let mut s = ready_session();
    let answer = ElicitResult::cancel();
    let old = RequestId::Number(0);
    assert!(s.answer_elicitation(&old, &answer).is_ok());
    // A new session begins: from the initialize POST on, until its handshake ends, no
    // answer of the old session may be written (it would carry the new session's id).
    let init = s.initialize_request().unwrap();
    let init_id = body(&init)["id"].clone();
    assert!(s.answer_elicitation(&old, &answer).is_err());
    assert!(s.answer_sampling(&old, &json!({})).is_err());
    assert!(s.refuse_sampling(&old, "no").is_err());
    assert!(s.refuse_elicitation(&old, "no").is_err());
    let init_id = RequestId::Number(init_id.as_i64().unwrap());
    s.on_http_status(Some(&init_id), 200, Some("new-session"));
    assert!(s.answer_elicitation(&old, &answer).is_err());
    let result = INIT_RESULT.replace(r#""id":0"#, &format!(r#""id":{}"#, body(&init)["id"]));
    let LegacyEvent::Initialized { .. } = s.on_message(&result) else {
        panic!()
    };
    assert!(s.answer_elicitation(&old, &answer).is_ok());
    // The server forgot the session (404): nothing is written for it any more.
    let (id, _) = s.call(&call("t")).unwrap();
    assert!(matches!(
        s.on_http_status(Some(&id), 404, None),
        Some(LegacyEvent::SessionExpired)
    ));
    assert!(s.answer_elicitation(&old, &answer).is_err());
}

/// Once the handshake is over, its id names no request in flight: a late or repeated
/// status for it neither replaces the session's id nor sends a ready session back to New.
#[test]
fn a_status_for_an_ended_handshake_leaves_the_session_alone() {
    let mut s = ready_session();
    assert_eq!(s.initialize_id(), None);
    let init = RequestId::Number(0);
    assert!(s.on_http_status(Some(&init), 200, Some("other")).is_none());
    assert_eq!(s.session_id(), Some("2371abc"));
    let ev = s.on_http_status(Some(&init), 500, None);
    assert!(matches!(ev, Some(LegacyEvent::Failed { .. })), "{ev:?}");
    assert_eq!(s.state(), SessionState::Ready);
    assert_eq!(s.protocol_version(), Some("2025-11-25"));
    let (_, req) = s.request("tools/list", None).unwrap();
    assert_eq!(req.header("mcp-session-id"), Some("2371abc"));
}

/// A handshake that fails after the server assigned a session (here: a version this
/// client cannot speak) leaves no session to use, but `close_request` still ends it,
/// as the SDK's client does when its `initialize` fails.
#[test]
fn a_failed_handshake_sends_nothing_on_its_session_but_closes_it() {
    let mut s = LegacySession::new(LegacyConfig::default());
    s.initialize_request().unwrap();
    s.on_http_status(Some(&RequestId::Number(0)), 200, Some("s-9"));
    let ev = s.on_message(&INIT_RESULT.replace("2025-11-25", "2099-01-01"));
    assert!(matches!(ev, LegacyEvent::Failed { .. }), "{ev:?}");
    assert_eq!(s.state(), SessionState::New);
    assert_eq!((s.protocol_version(), s.server().is_none()), (None, true));
    assert!(s.request("tools/list", None).is_err());
    let del = s.close_request().unwrap();
    assert_eq!(del.method, HttpMethod::Delete);
    assert_eq!(del.header("mcp-session-id"), Some("s-9"));
}

/// The server forgot the session: what its handshake agreed goes with it, so nothing
/// of the old session shows while a new one is set up.
#[test]
fn an_expired_session_keeps_nothing_of_its_handshake() {
    let mut s = ready_session();
    let (id, _) = s.request("tools/list", None).unwrap();
    let ev = s.on_http_status(Some(&id), 404, None);
    assert!(matches!(ev, Some(LegacyEvent::SessionExpired)), "{ev:?}");
    assert_eq!(s.session_id(), None);
    assert_eq!(s.protocol_version(), None);
    assert!(s.server().is_none());
}

/// A call's request, byte for byte: its own params (`name`, `arguments`, or `uri`) in that
/// order, the arguments in the order given.
#[test]
fn a_call_s_body_is_written_in_one_order_byte_for_byte() {
    let mut s = ready_session();
    let mut arguments = Map::new();
    arguments.insert("b".into(), json!(1));
    arguments.insert("a".into(), json!("x"));
    let (_, tool) = s
        .call(&Call::Tool {
            name: "t".into(),
            arguments,
        })
        .unwrap();
    assert_eq!(
        tool.body.as_deref(),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"b":1,"a":"x"}}}"#
        )
    );
    let (_, prompt) = s
        .call(&Call::Prompt {
            name: "p".into(),
            arguments: Map::new(),
        })
        .unwrap();
    assert_eq!(
        prompt.body.as_deref(),
        Some(
            r#"{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"p","arguments":{}}}"#
        )
    );
    let (_, read) = s.call(&Call::Resource { uri: "u".into() }).unwrap();
    assert_eq!(
        read.body.as_deref(),
        Some(r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"u"}}"#)
    );
}

/// A malformed `elicitation/create` is refused (-32602) in the words serde's derive gives
/// for its params, whatever is wrong with them, and a well-formed one is shown as the
/// derive reads it.
#[test]
fn elicitation_params_are_read_as_the_derive_reads_them() {
    use mcp_elicit::wire::ElicitRequestParams;
    let mut s = ready_session();
    for (id, params) in [
        r#"{"mode":"url"}"#,
        r#"{"message":"m"}"#,
        r#"{"mode":"form","message":7,"requestedSchema":{}}"#,
        r#"{"mode":"other","message":"m","requestedSchema":{}}"#,
        r#"{"mode":{"url":null},"message":"m","url":"https://example.com/"}"#,
        r#"[1,2]"#,
        r#"{"requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}},"message":"m","x":[1]}"#,
        r#"{"mode":"url","message":"m","url":"https://example.com/","elicitationId":"e"}"#,
    ]
    .into_iter()
    .enumerate()
    {
        let message = format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"elicitation/create","params":{params}}}"#,
            id + 10
        );
        let derive = serde_json::from_str::<ElicitRequestParams>(params);
        match (s.on_message(&message), derive) {
            (LegacyEvent::Elicit { params: got, .. }, Ok(expected)) => assert_eq!(
                serde_json::to_string(&got).unwrap(),
                serde_json::to_string(&expected).unwrap(),
                "{params}"
            ),
            (LegacyEvent::Reply { request, .. }, Err(e)) => {
                assert_eq!(body(&request)["error"]["code"], -32602, "{params}");
                assert_eq!(
                    body(&request)["error"]["message"],
                    format!("The server's elicitation request is malformed: {e}"),
                    "{params}"
                );
            }
            (event, derive) => panic!("{params}: {event:?} where the derive read {derive:?}"),
        }
    }
}

const ASK_7: &str = r#"{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{"note":{"type":"string"}}}}}"#;

/// `notifications/cancelled` naming a pending `elicitation/create` withdraws it: the
/// session says so with the server's reason (cut to a line), and the book drops the card,
/// so no answer is planned for it; a cancellation for another session's id, or for no
/// card, withdraws nothing.
#[test]
fn a_cancelled_notification_withdraws_the_pending_elicitation() {
    use mcp_elicit::driver::legacy::{
        AnswerPlan, Arrival, Elicitations, MAX_WITHDRAWN_REASON_CHARS,
    };
    let mut s = ready_session();
    let LegacyEvent::Elicit { id, params } = s.on_message(ASK_7) else {
        panic!()
    };
    let mut book = Elicitations::new(8);
    let Arrival::Show { route } = book.arrive(1, id.clone(), params, None) else {
        panic!()
    };
    let long = "why ".repeat(1000);
    let ev = s.on_message(
        &json!({"jsonrpc":"2.0","method":"notifications/cancelled",
                "params":{"requestId":7,"reason":long}})
        .to_string(),
    );
    let LegacyEvent::Withdrawn {
        id: withdrawn,
        reason,
    } = ev
    else {
        panic!("{ev:?}")
    };
    assert_eq!(withdrawn, RequestId::Number(7));
    let reason = reason.expect("the reason is kept");
    assert!(reason.ends_with('…'), "{reason}");
    assert!(reason.chars().count() <= MAX_WITHDRAWN_REASON_CHARS + 1);
    // Another session's request 7, and a request nobody shows, are not this card.
    assert_eq!(book.withdraw(2, &withdrawn), None);
    assert_eq!(book.withdraw(1, &RequestId::String("7".into())), None);
    assert_eq!(book.withdraw(1, &withdrawn), Some(route.clone()));
    assert_eq!(
        book.plan_answer(&route, 1, &ElicitResult::cancel()),
        AnswerPlan::Unknown,
        "nothing is sent for a withdrawn request"
    );
    assert_eq!(book.withdraw(1, &withdrawn), None, "once");
    // Without a reason, and malformed ones, are read as such.
    let ev = s.on_message(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#,
    );
    assert!(
        matches!(ev, LegacyEvent::Withdrawn { reason: None, .. }),
        "{ev:?}"
    );
    let ev = s.on_message(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"no id"}}"#,
    );
    assert!(matches!(ev, LegacyEvent::Ignored), "{ev:?}");
}
