//! The modern driver: request shape, rounds, replay, back-off, refusals, bounds.

use mcp_elicit::driver::modern::{ModernCall, ModernConfig, ModernStep};
use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::Call;
use mcp_elicit::wire::{CallToolResult, ElicitRequestParams, ElicitResult, Root};
use serde_json::{json, Map, Value};

fn delete_folder() -> ModernCall {
    let mut args = Map::new();
    args.insert("path".into(), json!("/tmp/project"));
    ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "delete_folder".into(),
            arguments: args,
        },
        1,
    )
}

fn body(req: &mcp_elicit::driver::HttpRequest) -> Value {
    serde_json::from_str(req.body.as_deref().unwrap()).unwrap()
}

const STATE: &str = r#""v1.6yL4OumySvt28c9_Hu5t\/FvpOuR3EY3gxuZCUD==""#;

fn input_required(id: i64, requests: &str, state: Option<&str>) -> String {
    let state = state
        .map(|s| format!(r#","requestState":{s}"#))
        .unwrap_or_default();
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"inputRequests":{requests}{state},"resultType":"input_required","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"Seeds","version":""}}}}}}}}"#
    )
}

const CONFIRM: &str = r#"{"__main__:confirm_delete":{"method":"elicitation/create","params":{"message":"/tmp/project has 2 file(s). Delete anyway?","mode":"form","requestedSchema":{"properties":{"ok":{"title":"Ok","type":"boolean"}},"required":["ok"],"type":"object"}}}}"#;

#[test]
fn first_request_carries_envelope_and_headers() {
    let mut call = delete_folder();
    let req = call.request().unwrap();
    assert_eq!(req.header("mcp-protocol-version"), Some("2026-07-28"));
    assert_eq!(req.header("mcp-method"), Some("tools/call"));
    assert_eq!(req.header("mcp-name"), Some("delete_folder"));
    assert_eq!(
        req.header("accept"),
        Some("application/json, text/event-stream")
    );
    let b = body(&req);
    assert_eq!(b["id"], 1);
    assert_eq!(b["method"], "tools/call");
    assert_eq!(b["params"]["arguments"]["path"], "/tmp/project");
    let meta = &b["params"]["_meta"];
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientCapabilities"],
        json!({"elicitation":{"form":{},"url":{}},"roots":{}})
    );
    assert_eq!(
        meta["io.modelcontextprotocol/clientInfo"]["name"],
        "mcp-elicit"
    );
    assert!(b["params"].get("requestState").is_none());
    assert!(b["params"].get("inputResponses").is_none());
}

#[test]
fn elicitation_round_then_replay_with_state_byte_exact() {
    let mut call = delete_folder();
    call.request().unwrap();
    let step = call.on_message(&input_required(1, CONFIRM, Some(STATE)));
    let ModernStep::InputNeeded {
        elicitations,
        sampling,
        round,
        ..
    } = step
    else {
        panic!("{step:?}")
    };
    assert_eq!(round, 1);
    assert!(sampling.is_empty());
    assert_eq!(elicitations.len(), 1);
    assert_eq!(elicitations[0].key, "__main__:confirm_delete");
    assert!(matches!(
        elicitations[0].params,
        ElicitRequestParams::Form(_)
    ));
    // Not all answered yet: no replay.
    assert!(call.request().is_err());
    let mut content = Map::new();
    content.insert("ok".into(), json!(true));
    assert!(call
        .answer(
            "__main__:confirm_delete",
            ElicitResult::accept(Some(content))
        )
        .unwrap());
    let replay = call.request().unwrap();
    let text = replay.body.clone().unwrap();
    assert!(
        text.contains(&format!(r#""requestState":{STATE}"#)),
        "{text}"
    );
    let b = body(&replay);
    assert_eq!(b["id"], 2);
    assert_eq!(b["params"]["name"], "delete_folder");
    assert_eq!(b["params"]["arguments"]["path"], "/tmp/project");
    assert_eq!(
        b["params"]["inputResponses"],
        json!({"__main__:confirm_delete":{"action":"accept","content":{"ok":true}}})
    );
    let done = call.on_message(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"deleted /tmp/project","type":"text"}],"isError":false,"resultType":"complete","structuredContent":{"result":"deleted /tmp/project"},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"Seeds","version":""}}}}"#);
    let ModernStep::Complete(c) = done else {
        panic!("{done:?}")
    };
    assert_eq!(c.rounds, 1);
    assert_eq!(c.server_info.unwrap().name, "Seeds");
    let r: CallToolResult = mcp_elicit::wire::from_raw(&c.result, "result").unwrap();
    assert_eq!(r.content[0].text(), Some("deleted /tmp/project"));
}

#[test]
fn several_requests_roots_answered_and_all_keys_replayed() {
    let config = ModernConfig {
        roots: vec![Root {
            uri: "file:///work".into(),
            name: Some("work".into()),
        }],
        ..Default::default()
    };
    let mut call = ModernCall::new(
        config,
        Call::Resource {
            uri: "res://x".into(),
        },
        10,
    );
    let req = call.request().unwrap();
    assert_eq!(req.header("mcp-name"), Some("res://x"));
    assert_eq!(body(&req)["params"]["uri"], "res://x");
    let requests = r#"{"a":{"method":"elicitation/create","params":{"message":"A","requestedSchema":{"type":"object","properties":{}}}},"r":{"method":"roots/list"},"b":{"method":"elicitation/create","params":{"mode":"url","message":"B","url":"https://x.example/","elicitationId":"e"}}}"#;
    let ModernStep::InputNeeded { elicitations, .. } =
        call.on_message(&input_required(10, requests, None))
    else {
        panic!()
    };
    let keys: Vec<&str> = elicitations.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["a", "b"]);
    assert!(!call.answer("b", ElicitResult::accept(None)).unwrap());
    assert!(call.answer("zzz", ElicitResult::cancel()).is_err());
    assert!(call.answer("a", ElicitResult::decline()).unwrap());
    let b = body(&call.request().unwrap());
    assert_eq!(
        b["params"]["inputResponses"],
        json!({"r":{"roots":[{"uri":"file:///work","name":"work"}]},"b":{"action":"accept"},"a":{"action":"decline"}})
    );
}

#[test]
fn roots_only_round_is_ready_to_replay_with_empty_roots() {
    let mut call = delete_folder();
    call.request().unwrap();
    let step = call.on_message(&input_required(
        1,
        r#"{"r":{"method":"roots/list"}}"#,
        Some(STATE),
    ));
    assert!(matches!(step, ModernStep::ReadyToReplay), "{step:?}");
    let b = body(&call.request().unwrap());
    assert_eq!(b["params"]["inputResponses"], json!({"r":{"roots":[]}}));
}

#[test]
fn state_only_results_back_off_50_doubling_to_250_and_reset() {
    let mut call = delete_folder();
    let mut delays = Vec::new();
    for id in 1..=5 {
        call.request().unwrap();
        let msg = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"requestState":"s{id}","resultType":"input_required"}}}}"#
        );
        match call.on_message(&msg) {
            ModernStep::RetryAfter { delay_ms } => delays.push(delay_ms),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(delays, [50, 100, 200, 250, 250]);
    let retry = body(&call.request().unwrap());
    assert_eq!(retry["params"]["requestState"], "s5");
    assert!(retry["params"].get("inputResponses").is_none());
    // A round with requests resets the back-off.
    assert!(matches!(
        call.on_message(&input_required(6, r#"{"r":{"method":"roots/list"}}"#, None)),
        ModernStep::ReadyToReplay
    ));
    call.request().unwrap();
    let msg =
        r#"{"jsonrpc":"2.0","id":7,"result":{"requestState":"s","resultType":"input_required"}}"#;
    assert!(matches!(
        call.on_message(msg),
        ModernStep::RetryAfter { delay_ms: 50 }
    ));
}

#[test]
fn the_round_bound_stops_an_endless_server() {
    let config = ModernConfig {
        max_rounds: 3,
        ..Default::default()
    };
    let mut call = ModernCall::new(
        config,
        Call::Prompt {
            name: "p".into(),
            arguments: Map::new(),
        },
        1,
    );
    let mut last = None;
    for id in 1..=4 {
        call.request().unwrap();
        let step = call.on_message(&input_required(
            id,
            r#"{"r":{"method":"roots/list"}}"#,
            Some(STATE),
        ));
        last = Some(step);
        if id < 4 {
            assert!(matches!(last, Some(ModernStep::ReadyToReplay)));
        }
    }
    let Some(ModernStep::Failed(e)) = last else {
        panic!("{last:?}")
    };
    assert_eq!(e, DriverError::RoundsExceeded { max_rounds: 3 });
    assert!(e.to_string().contains("after 3 rounds"));
    assert!(call.request().is_err());
}

#[test]
fn sampling_is_refused_without_a_handler_and_surfaced_with_one() {
    let sampling =
        r#"{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}}"#;
    let mut call = delete_folder();
    call.request().unwrap();
    let ModernStep::Failed(e) = call.on_message(&input_required(1, sampling, None)) else {
        panic!()
    };
    assert!(matches!(e, DriverError::SamplingRefused { .. }));
    assert!(e.to_string().contains("sampling"));

    let config = ModernConfig {
        capabilities: mcp_elicit::wire::ClientCapabilities::for_host(true),
        ..Default::default()
    };
    let mut call = ModernCall::new(config, Call::Resource { uri: "u".into() }, 1);
    call.request().unwrap();
    let ModernStep::InputNeeded { sampling: s, .. } =
        call.on_message(&input_required(1, sampling, None))
    else {
        panic!()
    };
    assert_eq!(s[0].key, "s");
    assert!(call.answer("s", ElicitResult::cancel()).is_err());
    assert!(call
        .answer_sampling(
            "s",
            json!({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"})
        )
        .unwrap());
    let b = body(&call.request().unwrap());
    assert_eq!(b["params"]["inputResponses"]["s"]["model"], "m");
}

#[test]
fn unknown_input_method_fails_in_words() {
    let mut call = delete_folder();
    call.request().unwrap();
    let ModernStep::Failed(e) =
        call.on_message(&input_required(1, r#"{"k":{"method":"tasks/get"}}"#, None))
    else {
        panic!()
    };
    assert!(e.to_string().contains("tasks/get"));
}

#[test]
fn errors_map_to_their_meaning() {
    let cases = [
        (
            r#"{"code":-32021,"message":"needs roots","data":{"requiredCapabilities":{"roots":{}}}}"#,
            "capability",
        ),
        (
            r#"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"x"}}"#,
            "supports: 2026-07-28",
        ),
        (
            r#"{"code":-32020,"message":"mcp-method header does not match"}"#,
            "headers",
        ),
        (
            r#"{"code":-32600,"message":"Cannot send 'elicitation/create'"}"#,
            "Cannot send",
        ),
    ];
    for (err, needle) in cases {
        let mut call = delete_folder();
        call.request().unwrap();
        let step = call.on_http_failure(
            400,
            Some("application/json"),
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{err}}}"#).as_bytes(),
        );
        // A tools/call's first -32020 asks for a schema refresh, carrying the error.
        let (ModernStep::Failed(e) | ModernStep::RefreshToolSchema { mismatch: e, .. }) = step
        else {
            panic!("{step:?}")
        };
        assert!(e.to_string().contains(needle), "{e}");
    }
    let mut call = delete_folder();
    call.request().unwrap();
    let ModernStep::Failed(e) =
        call.on_http_failure(502, Some("text/html"), b"<h1>Bad gateway</h1>")
    else {
        panic!()
    };
    assert!(matches!(e, DriverError::Http { status: 502, .. }));
}

#[test]
fn notifications_and_other_ids_are_ignored_and_a_silent_body_fails() {
    let mut call = delete_folder();
    call.request().unwrap();
    assert!(matches!(
        call.on_message(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#),
        ModernStep::Ignored
    ));
    assert!(matches!(
        call.on_message(r#"{"jsonrpc":"2.0","id":99,"result":{}}"#),
        ModernStep::Ignored
    ));
    assert!(matches!(
        call.on_body_end(),
        Some(ModernStep::Failed(DriverError::NoResponse))
    ));
    // The round can be sent again after that.
    let again = body(&call.request().unwrap());
    assert_eq!(again["id"], 2);
}

#[test]
fn resend_after_network_failure_keeps_answers() {
    let mut call = delete_folder();
    call.request().unwrap();
    call.on_message(&input_required(1, CONFIRM, Some(STATE)));
    call.answer("__main__:confirm_delete", ElicitResult::decline())
        .unwrap();
    let first = body(&call.request().unwrap());
    call.on_network_failure();
    let second = body(&call.request().unwrap());
    assert_eq!(first["params"], second["params"]);
    assert_ne!(first["id"], second["id"]);
}

#[test]
fn x_mcp_header_arguments_are_mirrored() {
    let schema = json!({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"note":{"type":"string"}}});
    let mut args = Map::new();
    args.insert("region".into(), json!("eu-west \u{e9}"));
    args.insert("n".into(), json!(3));
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "book_in_region".into(),
            arguments: args,
        },
        1,
    )
    .with_input_schema(Some(schema));
    let req = call.request().unwrap();
    assert_eq!(
        req.header("Mcp-Param-Region"),
        Some("=?base64?ZXUtd2VzdCDDqQ==?=")
    );
    assert_eq!(req.header("Mcp-Param-N"), Some("3"));
}

#[test]
fn simple_requests_carry_the_envelope_and_match_the_recorded_tools_list() {
    use mcp_elicit::driver::modern::simple_request;
    let req = simple_request(
        &ModernConfig::default(),
        &mcp_elicit::wire::RequestId::Number(1),
        "tools/list",
        None,
    )
    .unwrap();
    assert_eq!(req.header("mcp-method"), Some("tools/list"));
    assert_eq!(req.header("mcp-name"), None);
    assert_eq!(
        body(&req),
        json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{
            "io.modelcontextprotocol/protocolVersion":"2026-07-28",
            "io.modelcontextprotocol/clientInfo":{"name":"mcp-elicit","version":"0.1.0"},
            "io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"roots":{}}}}})
    );
    let mut params = Map::new();
    params.insert("uri".into(), json!("file:///caf\u{e9}"));
    let req = simple_request(
        &ModernConfig::default(),
        &mcp_elicit::wire::RequestId::Number(2),
        "resources/read",
        Some(&params),
    )
    .unwrap();
    assert_eq!(
        req.header("mcp-name"),
        Some("=?base64?ZmlsZTovLy9jYWbDqQ==?=")
    );
}

#[test]
fn simple_answer_picks_our_response_or_error_and_skips_the_rest() {
    use mcp_elicit::driver::modern::simple_answer;
    use mcp_elicit::wire::RequestId;
    let id = RequestId::Number(3);
    let ok = simple_answer(&id, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#);
    assert_eq!(ok.unwrap().unwrap().get(), r#"{"tools":[]}"#);
    assert!(simple_answer(&id, r#"{"jsonrpc":"2.0","id":4,"result":{}}"#).is_none());
    assert!(simple_answer(
        &id,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#
    )
    .is_none());
    let err = simple_answer(
        &id,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"Mcp-Name does not match"}}"#,
    )
    .unwrap()
    .unwrap_err();
    assert!(matches!(err, DriverError::HeaderMismatch { .. }));
    assert!(simple_answer(&id, "not json").unwrap().is_err());
}

#[test]
fn failure_from_http_prefers_the_json_rpc_error_to_the_status() {
    use mcp_elicit::driver::http::failure_from_http;
    let rpc = failure_from_http(
        400,
        Some("application/json"),
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2025-11-25"]}}}"#,
    );
    assert_eq!(rpc.code(), Some(-32022));
    let bare = failure_from_http(500, Some("text/plain"), b"boom");
    assert_eq!(
        bare,
        DriverError::Http {
            status: 500,
            body: "boom".into()
        }
    );
}

#[test]
fn an_input_round_asking_nothing_and_keeping_no_state_fails_the_call() {
    let mut call = delete_folder();
    call.request().unwrap();
    let step = call.on_message(&input_required(1, "{}", None));
    let ModernStep::Failed(DriverError::BadResult(e)) = step else {
        panic!("{step:?}")
    };
    assert!(e.message.contains("neither"), "{e}");
    assert_eq!(e.kind, mcp_elicit::wire::WireKind::Malformed);
}

/// A call in its first replay: one answered round with a request state.
fn in_replay() -> (ModernCall, Value) {
    let mut call = delete_folder();
    call.request().unwrap();
    call.on_message(&input_required(1, CONFIRM, Some(STATE)));
    call.answer("__main__:confirm_delete", ElicitResult::decline())
        .unwrap();
    let replay = body(&call.request().unwrap());
    (call, replay)
}

/// After a failure that is no verdict of the server (`is_resendable`), the same round
/// can be sent again: same answers, same requestState, a fresh id.
#[test]
fn a_replay_failing_by_accident_stays_resendable_with_its_answers() {
    type Fail = fn(&mut ModernCall) -> ModernStep;
    let accidents: [(&str, Fail); 5] = [
        ("503 page", |c| {
            c.on_http_failure(503, Some("text/html"), b"<h1>down</h1>")
        }),
        ("429 empty", |c| c.on_http_failure(429, None, b"")),
        ("cut JSON body", |c| {
            c.on_message(r#"{"jsonrpc":"2.0","id":2,"res"#)
        }),
        ("not JSON-RPC", |c| c.on_message("<html>proxy</html>")),
        ("no answer", |c| c.on_body_end().unwrap()),
    ];
    for (what, fail) in accidents {
        let (mut call, replay) = in_replay();
        let step = fail(&mut call);
        let ModernStep::Failed(e) = step else {
            panic!("{what}: {step:?}")
        };
        assert!(e.is_resendable(), "{what}: {e:?}");
        assert!(!call.is_finished(), "{what}");
        assert_eq!(call.in_flight(), None, "{what}");
        // A late copy of the answer to the failed attempt is not taken for the resend's.
        assert!(matches!(
            call.on_message(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[]}}"#),
            ModernStep::Ignored
        ));
        let again = body(&call.request().unwrap());
        assert_eq!(again["params"], replay["params"], "{what}");
        assert_eq!(again["id"], 3, "{what}");
        let done = call.on_message(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#);
        assert!(matches!(done, ModernStep::Complete(_)), "{what}: {done:?}");
        assert!(call.is_finished());
    }
}

#[test]
fn a_replay_the_server_refuses_is_final() {
    type Fail = fn(&mut ModernCall) -> ModernStep;
    let verdicts: [(&str, Fail); 4] = [
        ("-32602 in a 400", |c| {
            c.on_http_failure(
                400,
                Some("application/json"),
                br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad state"}}"#,
            )
        }),
        ("-32603 in a 500", |c| {
            c.on_http_failure(
                500,
                Some("application/json"),
                br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}"#,
            )
        }),
        ("403 page", |c| {
            c.on_http_failure(403, Some("text/plain"), b"forbidden")
        }),
        ("unknown result type", |c| {
            c.on_message(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"task"}}"#)
        }),
    ];
    for (what, fail) in verdicts {
        let (mut call, _) = in_replay();
        let step = fail(&mut call);
        let ModernStep::Failed(e) = step else {
            panic!("{what}: {step:?}")
        };
        assert!(!e.is_resendable(), "{what}: {e:?}");
        assert!(call.is_finished(), "{what}");
        assert!(call.request().is_err(), "{what}");
    }
}

const MISMATCH: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-Region header is missing"}}"#;

fn book_in_region(schema: Option<Value>) -> ModernCall {
    let mut args = Map::new();
    args.insert("region".into(), json!("eu-west"));
    args.insert("party".into(), json!(2));
    ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "book_in_region".into(),
            arguments: args,
        },
        1,
    )
    .with_input_schema(schema)
}

fn region_schema() -> Value {
    json!({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"party":{"type":"integer"}}})
}

fn without_id(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("id");
    v
}

/// The SDK's recovery (`Client.call_tool`): on -32020 the tool listing is fetched again
/// and the same request resent once with the headers the fresh schema asks for.
#[test]
fn a_header_mismatch_asks_for_the_tool_schema_and_resends_the_same_round_once() {
    let mut call = book_in_region(None);
    let first = call.request().unwrap();
    assert_eq!(first.header("Mcp-Param-Region"), None);
    let step = call.on_http_failure(400, Some("application/json"), MISMATCH);
    let ModernStep::RefreshToolSchema { tool, mismatch } = step else {
        panic!("{step:?}")
    };
    assert_eq!(tool, "book_in_region");
    assert!(matches!(mismatch, DriverError::HeaderMismatch { .. }));
    assert!(!call.is_finished());
    assert_eq!(call.in_flight(), None);
    call.set_input_schema(Some(region_schema()));
    let again = call.request().unwrap();
    assert_eq!(again.header("Mcp-Param-Region"), Some("eu-west"));
    assert_eq!(again.header("Mcp-Name"), Some("book_in_region"));
    assert_eq!(without_id(body(&again)), without_id(body(&first)));
    assert_eq!(body(&again)["id"], 2);
    // A second mismatch in the same round is final.
    let step = call.on_http_failure(400, Some("application/json"), MISMATCH);
    let ModernStep::Failed(e) = step else {
        panic!("{step:?}")
    };
    assert!(matches!(e, DriverError::HeaderMismatch { .. }));
    assert!(call.is_finished());
    assert!(call.request().is_err());
}

#[test]
fn a_header_mismatch_as_a_json_rpc_message_and_then_success() {
    let mut call = book_in_region(None);
    call.request().unwrap();
    let step = call.on_message(
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Mcp-Param-Region missing"}}"#,
    );
    assert!(
        matches!(&step, ModernStep::RefreshToolSchema { tool, .. } if tool == "book_in_region"),
        "{step:?}"
    );
    call.set_input_schema(Some(region_schema()));
    call.request().unwrap();
    let done = call.on_message(r#"{"jsonrpc":"2.0","id":2,"result":{"content":[]}}"#);
    assert!(matches!(done, ModernStep::Complete(_)), "{done:?}");
}

/// A `book_in_region` call sent without its schema, whose first -32020 asked for a refresh.
fn refreshed_once() -> ModernCall {
    let mut call = book_in_region(None);
    call.request().unwrap();
    assert!(matches!(
        call.on_http_failure(400, Some("application/json"), MISMATCH),
        ModernStep::RefreshToolSchema { .. }
    ));
    call
}

/// The allowance is per round: a network failure between the refresh and the second
/// mismatch does not renew it; a new input round does.
#[test]
fn the_mismatch_allowance_is_one_per_round() {
    let mut call = refreshed_once();
    call.set_input_schema(Some(region_schema()));
    call.request().unwrap();
    call.on_network_failure();
    call.request().unwrap();
    assert!(matches!(
        call.on_http_failure(400, Some("application/json"), MISMATCH),
        ModernStep::Failed(DriverError::HeaderMismatch { .. })
    ));

    // Round 0 uses its allowance, round 1 (the replay) has its own.
    let mut call = refreshed_once();
    call.set_input_schema(Some(region_schema()));
    call.request().unwrap();
    let step = call.on_message(&input_required(2, CONFIRM, Some(STATE)));
    assert!(matches!(step, ModernStep::InputNeeded { .. }), "{step:?}");
    call.answer("__main__:confirm_delete", ElicitResult::decline())
        .unwrap();
    let replay = call.request().unwrap();
    let step = call.on_http_failure(400, Some("application/json"), MISMATCH);
    assert!(
        matches!(step, ModernStep::RefreshToolSchema { .. }),
        "{step:?}"
    );
    // The resend is the same replay: answers and requestState kept.
    call.set_input_schema(None);
    let resend = call.request().unwrap();
    assert_eq!(resend.header("Mcp-Param-Region"), None);
    assert_eq!(body(&resend)["params"], body(&replay)["params"]);
    assert!(resend
        .body
        .as_deref()
        .unwrap()
        .contains(&format!(r#""requestState":{STATE}"#)));
    assert!(matches!(
        call.on_http_failure(400, Some("application/json"), MISMATCH),
        ModernStep::Failed(DriverError::HeaderMismatch { .. })
    ));

    // A state-only round is a new round too.
    let mut call = refreshed_once();
    call.request().unwrap();
    assert!(matches!(
        call.on_message(
            r#"{"jsonrpc":"2.0","id":2,"result":{"requestState":"s","resultType":"input_required"}}"#
        ),
        ModernStep::RetryAfter { .. }
    ));
    call.request().unwrap();
    assert!(matches!(
        call.on_http_failure(400, Some("application/json"), MISMATCH),
        ModernStep::RefreshToolSchema { .. }
    ));
}

/// Only `tools/call` has a schema to refresh: elsewhere -32020 ends the call, as in the SDK.
#[test]
fn a_header_mismatch_on_a_prompt_or_resource_is_final() {
    for original in [
        Call::Prompt {
            name: "p".into(),
            arguments: Map::new(),
        },
        Call::Resource {
            uri: "res://x".into(),
        },
    ] {
        let mut call = ModernCall::new(ModernConfig::default(), original, 1);
        call.request().unwrap();
        let step = call.on_http_failure(400, Some("application/json"), MISMATCH);
        assert!(
            matches!(step, ModernStep::Failed(DriverError::HeaderMismatch { .. })),
            "{step:?}"
        );
        assert!(call.is_finished());
        // Setting a schema on a call that has none to set is a no-op.
        call.set_input_schema(Some(region_schema()));
        assert!(call.request().is_err());
    }
}

/// Nothing in flight, nothing to fail: a late or stray failure can neither revive a
/// finished call (resending a side-effecting tools/call) nor send a half-answered round.
#[test]
fn failures_with_no_request_in_flight_are_ignored() {
    // Finished.
    let mut call = delete_folder();
    call.request().unwrap();
    let done = call.on_message(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert!(matches!(done, ModernStep::Complete(_)), "{done:?}");
    assert!(matches!(call.on_message("not json"), ModernStep::Ignored));
    assert!(matches!(
        call.on_http_failure(503, None, b""),
        ModernStep::Ignored
    ));
    assert!(call.is_finished());
    assert!(call.request().is_err());
    // Waiting for answers.
    let mut call = delete_folder();
    call.request().unwrap();
    call.on_message(&input_required(1, CONFIRM, Some(STATE)));
    assert!(matches!(call.on_message("garbage"), ModernStep::Ignored));
    assert!(matches!(
        call.on_http_failure(503, None, b""),
        ModernStep::Ignored
    ));
    assert!(
        call.request().is_err(),
        "the round still waits for its answer"
    );
}

/// A request text of `n` elicitations `q0`..`q{n-1}` (`sampling`: sampling requests instead).
fn many_requests(n: usize, sampling: bool) -> String {
    let one = if sampling {
        r#"{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#
    } else {
        r#"{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}"#
    };
    let entries: Vec<String> = (0..n).map(|i| format!(r#""q{i}":{one}"#)).collect();
    format!("{{{}}}", entries.join(","))
}

fn with_sampling() -> ModernCall {
    let config = ModernConfig {
        capabilities: mcp_elicit::wire::ClientCapabilities::for_host(true),
        ..Default::default()
    };
    ModernCall::new(config, Call::Resource { uri: "u".into() }, 1)
}

/// A round is shown whole or not at all: up to the cap every request is surfaced; one
/// more (or 10^5: a card each, or a host LLM call each) fails the call in words before
/// anything is shown or sampled, and the call is over (the server decided, a resend
/// would get the same round).
#[test]
fn a_round_asking_more_than_the_cap_fails_in_words_before_anything_is_shown() {
    use mcp_elicit::driver::modern::MAX_INPUT_REQUESTS_PER_ROUND as CAP;
    for sampling in [false, true] {
        let mut call = with_sampling();
        call.request().unwrap();
        let step = call.on_message(&input_required(1, &many_requests(CAP, sampling), None));
        let ModernStep::InputNeeded {
            elicitations,
            sampling: s,
            ..
        } = step
        else {
            panic!("{step:?}")
        };
        assert_eq!(elicitations.len() + s.len(), CAP);

        for n in [CAP + 1, 100_000] {
            let mut call = with_sampling();
            call.request().unwrap();
            let step = call.on_message(&input_required(1, &many_requests(n, sampling), None));
            let ModernStep::Failed(e) = step else {
                panic!("{n} (sampling: {sampling}): {step:?}")
            };
            assert!(!e.is_resendable(), "{e:?}");
            let words = e.to_string();
            assert!(words.contains(&n.to_string()), "{words}");
            assert!(words.contains(&format!("at most {CAP}")), "{words}");
            assert!(call.is_finished());
            assert!(call.waiting_for().is_empty());
        }
    }
}

/// `requestState` is echoed byte-exact on every replay, up to the cap (an opaque state of
/// the cap's size is sent back whole); a larger one fails the call in words naming both
/// sizes instead of being carried, and resent, round after round.
#[test]
fn a_request_state_is_kept_byte_exact_up_to_the_cap_and_refused_beyond_it() {
    use mcp_elicit::driver::modern::MAX_REQUEST_STATE_BYTES as CAP;
    // A JSON string of exactly CAP bytes, quotes included, with escapes kept as sent.
    let filler = "x".repeat(CAP - 2 - 6);
    let state = format!(r#""\u00e9{filler}""#);
    assert_eq!(state.len(), CAP);
    let mut call = delete_folder();
    call.request().unwrap();
    let step = call.on_message(&input_required(1, CONFIRM, Some(&state)));
    assert!(matches!(step, ModernStep::InputNeeded { .. }), "{step:?}");
    call.answer("__main__:confirm_delete", ElicitResult::decline())
        .unwrap();
    let replay = call.request().unwrap().body.unwrap();
    assert!(replay.contains(&format!(r#""requestState":{state}"#)));
    // A resend after an accident carries it again, unchanged.
    call.on_http_failure(503, None, b"");
    let resend = call.request().unwrap().body.unwrap();
    assert!(resend.contains(&format!(r#""requestState":{state}"#)));

    let over = format!(r#""{}""#, "y".repeat(CAP - 1));
    let mut call = delete_folder();
    call.request().unwrap();
    let step = call.on_message(&input_required(1, CONFIRM, Some(&over)));
    let ModernStep::Failed(e) = step else {
        panic!("{step:?}")
    };
    assert!(!e.is_resendable(), "{e:?}");
    let words = e.to_string();
    assert!(words.contains("requestState"), "{words}");
    assert!(words.contains(&(CAP + 1).to_string()), "{words}");
    assert!(words.contains(&CAP.to_string()), "{words}");
    assert!(call.is_finished());
    // A state-only round is held to the same cap.
    let mut call = delete_folder();
    call.request().unwrap();
    let msg = format!(
        r#"{{"jsonrpc":"2.0","id":1,"result":{{"requestState":{over},"resultType":"input_required"}}}}"#
    );
    assert!(matches!(call.on_message(&msg), ModernStep::Failed(_)));
    assert!(call.is_finished());
}

/// The automatic steps (a state-only retry, a roots-only round, a sampling-only round)
/// are rounds like any other: a 503 or no answer on the way leaves the call resendable
/// with the same state and the answers the machine (or the host) gave, never finished.
#[test]
fn an_accident_in_an_automatic_step_keeps_the_round_for_a_resend() {
    let sampled = json!({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"});
    let state_only =
        r#"{"jsonrpc":"2.0","id":2,"result":{"requestState":"wait","resultType":"input_required"}}"#
            .to_string();
    let roots_only = input_required(2, r#"{"r":{"method":"roots/list"}}"#, Some(STATE));
    let sampling_only = input_required(2, &many_requests(2, true), Some(STATE));
    for (what, round) in [
        ("state only", state_only),
        ("roots only", roots_only),
        ("sampling only", sampling_only),
    ] {
        // After a person's answer, so what is kept is the server's memory of it.
        let mut call = with_sampling();
        call.request().unwrap();
        call.on_message(&input_required(1, CONFIRM, Some(STATE)));
        call.answer("__main__:confirm_delete", ElicitResult::decline())
            .unwrap();
        call.request().unwrap();
        match call.on_message(&round) {
            ModernStep::RetryAfter { .. } | ModernStep::ReadyToReplay => {}
            ModernStep::InputNeeded { sampling, .. } => {
                for s in sampling {
                    call.answer_sampling(&s.key, sampled.clone()).unwrap();
                }
            }
            other => panic!("{what}: {other:?}"),
        }
        let automatic = body(&call.request().unwrap());
        let fails: [fn(&mut ModernCall) -> ModernStep; 2] = [
            |c| c.on_http_failure(503, Some("text/plain"), b"busy"),
            |c| c.on_body_end().unwrap(),
        ];
        for fail in fails {
            let ModernStep::Failed(e) = fail(&mut call) else {
                panic!("{what}")
            };
            assert!(e.is_resendable(), "{what}: {e:?}");
            assert!(!call.is_finished(), "{what}");
            let again = body(&call.request().unwrap());
            assert_eq!(again["params"], automatic["params"], "{what}");
        }
        assert_eq!(call.rounds(), 2, "{what}: a resend is no new round");
    }
}

/// A round that fails for good part-way through reading its requests (here a sampling
/// request with no handler, after an elicitation) leaves nothing waiting: the finished
/// call asks for no answer and takes none.
#[test]
fn a_call_that_failed_for_good_waits_for_nothing() {
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Resource { uri: "u".into() },
        1,
    );
    call.request().unwrap();
    let requests = r#"{"a":{"method":"elicitation/create","params":{"message":"A","requestedSchema":{"type":"object","properties":{}}}},"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}"#;
    let ModernStep::Failed(e) = call.on_message(&input_required(1, requests, None)) else {
        panic!()
    };
    assert!(matches!(e, DriverError::SamplingRefused { .. }), "{e:?}");
    assert!(call.is_finished());
    assert_eq!(call.in_flight(), None);
    assert!(call.waiting_for().is_empty(), "{:?}", call.waiting_for());
    assert!(call.answer("a", ElicitResult::cancel()).is_err());
}

/// The id in flight is the id of the request last built, from `request()` until its
/// answer, a failure or a refresh ends the attempt; between attempts there is none.
#[test]
fn the_id_in_flight_is_the_last_request_until_its_attempt_ends() {
    let mut call = delete_folder();
    assert_eq!(call.in_flight(), None);
    call.request().unwrap();
    assert_eq!(
        call.in_flight(),
        Some(&mcp_elicit::wire::RequestId::Number(1))
    );
    call.on_network_failure();
    assert_eq!(call.in_flight(), None);
    call.request().unwrap();
    assert_eq!(
        call.in_flight(),
        Some(&mcp_elicit::wire::RequestId::Number(2))
    );
    let mismatch =
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32020,"message":"Header mismatch"}}"#;
    let step = call.on_message(mismatch);
    assert!(
        matches!(step, ModernStep::RefreshToolSchema { .. }),
        "{step:?}"
    );
    assert_eq!(call.in_flight(), None);
    call.request().unwrap();
    let ModernStep::InputNeeded { .. } = call.on_message(&input_required(3, CONFIRM, None)) else {
        panic!()
    };
    assert_eq!(call.in_flight(), None);
    assert_eq!(call.waiting_for(), ["__main__:confirm_delete"]);
}

/// A round's body, byte for byte: the call's own params (`name`, `arguments`, or `uri`),
/// then `inputResponses`, the `requestState` as the server sent it, and `_meta`, in that
/// order; the arguments in the order given.
#[test]
fn a_round_s_body_is_written_in_one_order_byte_for_byte() {
    let config = ModernConfig::default();
    let meta = serde_json::to_string(&config.request_meta()).unwrap();
    let mut arguments = Map::new();
    arguments.insert("b".into(), json!(1));
    arguments.insert("a".into(), json!("x"));
    let tool = Call::Tool {
        name: "t".into(),
        arguments,
    };
    let mut call = ModernCall::new(config.clone(), tool, 1);
    let first = call.request().unwrap();
    assert_eq!(
        first.body.unwrap(),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"b":1,"a":"x"}},"_meta":{meta}}}}}"#
        )
    );
    let asked = r#"{"q":{"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}}"#;
    let step = call.on_message(&input_required(1, asked, Some(r#"{ "sealed" : 1 }"#)));
    assert!(matches!(step, ModernStep::InputNeeded { .. }), "{step:?}");
    assert!(call.answer("q", ElicitResult::decline()).unwrap());
    let replay = call.request().unwrap();
    assert_eq!(
        replay.body.unwrap(),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t","arguments":{{"b":1,"a":"x"}},"inputResponses":{{"q":{{"action":"decline"}}}},"requestState":{{ "sealed" : 1 }},"_meta":{meta}}}}}"#
        )
    );
    let mut read = ModernCall::new(config, Call::Resource { uri: "u".into() }, 5);
    assert_eq!(
        read.request().unwrap().body.unwrap(),
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{{"uri":"u","_meta":{meta}}}}}"#
        )
    );
}

fn url_request(key: &str) -> String {
    format!(
        r#""{key}":{{"method":"elicitation/create","params":{{"mode":"url","message":"Sign in","url":"https://example.com/{key}","elicitationId":"{key}"}}}}"#
    )
}

fn withdrawn_of(step: &ModernStep) -> Vec<String> {
    match step {
        ModernStep::InputNeeded { withdrawn, .. } => withdrawn.clone(),
        other => panic!("{other:?}"),
    }
}

/// The modern era's way to withdraw a question: the round after the retry no longer carries
/// its key. The step names those keys (and only those), across a state-only retry too.
#[test]
fn a_key_the_next_round_no_longer_carries_is_withdrawn() {
    let mut call = delete_folder();
    call.request().unwrap();
    let first = call.on_message(&input_required(
        1,
        &format!("{{{},{}}}", url_request("login"), url_request("pay")),
        None,
    ));
    assert!(withdrawn_of(&first).is_empty(), "nothing was asked before");
    call.answer("login", ElicitResult::accept(None)).unwrap();
    assert!(call.answer("pay", ElicitResult::accept(None)).unwrap());
    call.request().unwrap();
    // A state-only retry in between withdraws nothing yet.
    let wait = call
        .on_message(&input_required(2, "{}", Some(STATE)).replace(r#""inputRequests":{},"#, ""));
    assert!(matches!(wait, ModernStep::RetryAfter { .. }), "{wait:?}");
    call.request().unwrap();
    // The server still wants "pay" (its flow is not done), no longer "login".
    let next = call.on_message(&input_required(
        3,
        &format!(
            "{{{},{}}}",
            url_request("pay"),
            &CONFIRM[1..CONFIRM.len() - 1]
        ),
        None,
    ));
    assert_eq!(withdrawn_of(&next), vec!["login".to_owned()]);
    call.answer("pay", ElicitResult::accept(None)).unwrap();
    assert!(call
        .answer("__main__:confirm_delete", ElicitResult::decline())
        .unwrap());
    call.request().unwrap();
    let last = call.on_message(&input_required(
        4,
        &format!("{{{}}}", url_request("other")),
        None,
    ));
    let mut gone = withdrawn_of(&last);
    gone.sort();
    assert_eq!(
        gone,
        vec!["__main__:confirm_delete".to_owned(), "pay".to_owned()]
    );
}
