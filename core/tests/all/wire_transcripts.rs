//! Real exchanges with the demo server (`mcp==2.3.0`), recorded by
//! `tests/capture/capture.py` into `tests/fixtures/transcripts/`:
//! every recorded message parses into the wire types and round-trips
//! (`requestState` byte-identical), and the modern, legacy and era state
//! machines, run over the recorded exchanges, produce exactly the recorded
//! requests and reach the recorded outcomes.
// Native only: it reads the fixtures from disk; `wire_wasm.rs` runs the same machines in Chromium.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::path::PathBuf;

use mcp_elicit::driver::era::{decide_from_http_failure, decide_from_message, EraDecision};
use mcp_elicit::driver::http::messages_from_body;
use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
use mcp_elicit::driver::modern::{ModernCall, ModernConfig, ModernStep};
use mcp_elicit::driver::{DriverError, HttpMethod, HttpRequest};
use mcp_elicit::wire::call::{Call, PROMPTS_GET, RESOURCES_READ, TOOLS_CALL};
use mcp_elicit::wire::{
    from_raw, parse_message, CallToolResult, ClientCapabilities, DiscoverResult,
    ElicitRequestParams, ElicitResult, Incoming, InitializeResult, ListToolsResult, ModernResult,
    RequestId, UrlElicitationRequiredData,
};
use serde_json::{Map, Value};

struct Exchange {
    method: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    status: u16,
    content_type: Option<String>,
    session_id: Option<String>,
    response: String,
    other_actor: bool,
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/transcripts")
}

fn load(name: &str) -> Vec<Exchange> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.json"))).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Exchange {
            method: e["request"]["method"].as_str().unwrap().to_string(),
            headers: e["request"]["headers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| {
                    (
                        h[0].as_str().unwrap().to_string(),
                        h[1].as_str().unwrap().to_string(),
                    )
                })
                .collect(),
            body: e["request"]["body"].as_str().map(str::to_string),
            status: e["response"]["status"].as_u64().unwrap() as u16,
            content_type: e["response"]["headers"]["content-type"]
                .as_str()
                .map(str::to_string),
            session_id: e["response"]["headers"]["mcp-session-id"]
                .as_str()
                .map(str::to_string),
            response: e["response"]["body"].as_str().unwrap().to_string(),
            other_actor: e["actor"].as_str() == Some("other"),
        })
        .collect()
}

fn all_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(
        names.len() >= 10,
        "transcripts missing: run tests/capture/capture.py"
    );
    names
}

fn response_messages(e: &Exchange) -> Vec<String> {
    messages_from_body(e.content_type.as_deref(), e.response.as_bytes()).unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// Our request must carry exactly the recorded headers (names case-insensitive).
fn assert_same_request(ours: &HttpRequest, e: &Exchange, what: &str) {
    assert_eq!(ours.method.as_str(), e.method, "{what}: HTTP method");
    let norm = |h: &[(String, String)]| {
        let mut v: Vec<(String, String)> = h
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(norm(&ours.headers), norm(&e.headers), "{what}: headers");
    match (&ours.body, &e.body) {
        (Some(a), Some(b)) => assert_eq!(json(a), json(b), "{what}: body"),
        (None, None) => {}
        other => panic!("{what}: body presence differs: {other:?}"),
    }
}

#[test]
fn every_recorded_message_parses_and_round_trips() {
    let mut count = 0;
    let mut states = 0;
    for name in all_fixtures() {
        let mut methods: HashMap<RequestId, String> = HashMap::new();
        for e in load(&name) {
            let mut texts: Vec<(bool, String)> =
                e.body.iter().map(|b| (false, b.clone())).collect();
            if let Some(b) = &e.body {
                if let Ok(Incoming::Request { id, method, .. }) = parse_message(b) {
                    methods.insert(id, method);
                }
            }
            texts.extend(response_messages(&e).into_iter().map(|t| (true, t)));
            for (from_server, text) in texts {
                count += 1;
                let m = parse_message(&text).unwrap_or_else(|err| panic!("{name}: {err}: {text}"));
                let once = m.to_json().unwrap();
                let twice = parse_message(&once).unwrap().to_json().unwrap();
                assert_eq!(once, twice, "{name}");
                assert_eq!(
                    json(&once),
                    json(&text),
                    "{name}: round trip changed the message"
                );
                match m {
                    Incoming::Response { id, result } if from_server => {
                        match methods.get(&id).map(String::as_str) {
                            Some("tools/call") | None => {
                                if let Ok(ModernResult::InputRequired(ir)) =
                                    ModernResult::classify(result.clone())
                                {
                                    let raw =
                                        ir.request_state.as_ref().map(|r| r.get().to_string());
                                    let again = serde_json::to_string(&ir).unwrap();
                                    let reparsed: mcp_elicit::wire::InputRequiredResult =
                                        serde_json::from_str(&again).unwrap();
                                    assert_eq!(serde_json::to_string(&reparsed).unwrap(), again);
                                    if let Some(raw) = raw {
                                        states += 1;
                                        assert!(
                                            text.contains(&raw),
                                            "{name}: requestState not byte-exact"
                                        );
                                        assert_eq!(reparsed.request_state.unwrap().get(), raw);
                                    }
                                } else if methods.contains_key(&id) {
                                    let r: CallToolResult = from_raw(&result, "result").unwrap();
                                    assert!(r.content.iter().any(|c| c.text().is_some()), "{name}");
                                }
                            }
                            Some("tools/list") => {
                                let r: ListToolsResult = from_raw(&result, "tools").unwrap();
                                assert!(r.tools.iter().any(|t| t.name == "delete_folder"));
                            }
                            Some("initialize") => {
                                let r: InitializeResult = from_raw(&result, "init").unwrap();
                                assert_eq!(r.protocol_version, "2025-11-25");
                            }
                            Some("server/discover") => {
                                let r: DiscoverResult = from_raw(&result, "discover").unwrap();
                                assert!(r.supported_versions.contains(&"2026-07-28".to_string()));
                            }
                            Some(_) => {}
                        }
                    }
                    Incoming::Request { method, params, .. } if method == "elicitation/create" => {
                        let p: ElicitRequestParams =
                            from_raw(params.as_deref().unwrap(), "params").unwrap();
                        assert!(!p.message().is_empty());
                    }
                    Incoming::Error { error, .. } if error.code == -32042 => {
                        let d: UrlElicitationRequiredData =
                            serde_json::from_value(error.data.unwrap()).unwrap();
                        assert!(!d.elicitations.is_empty());
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(count > 50, "only {count} messages");
    assert!(states >= 8, "only {states} requestStates");
}

fn tool_schema(name: &str) -> Value {
    let e = load("modern_tools_list").into_iter().next().unwrap();
    let text = response_messages(&e).into_iter().next().unwrap();
    let Incoming::Response { result, .. } = parse_message(&text).unwrap() else {
        panic!()
    };
    let tools: ListToolsResult = from_raw(&result, "tools").unwrap();
    tools
        .tools
        .into_iter()
        .find(|t| t.name == name)
        .unwrap()
        .input_schema
}

enum Outcome {
    Text(String),
    Error(i64),
}

/// Runs ModernCall over a recorded tools/call flow; returns the outcome.
fn run_modern(name: &str) -> Outcome {
    let exchanges = load(name);
    let first = json(exchanges[0].body.as_deref().unwrap());
    let params = &first["params"];
    let tool = params["name"].as_str().unwrap().to_string();
    let caps: ClientCapabilities = serde_json::from_value(
        params["_meta"]["io.modelcontextprotocol/clientCapabilities"].clone(),
    )
    .unwrap();
    let arguments: Map<String, Value> = params["arguments"].as_object().unwrap().clone();
    let input_schema = (tool == "book_in_region").then(|| tool_schema(&tool));
    let config = ModernConfig {
        capabilities: caps,
        ..Default::default()
    };
    let mut call = ModernCall::new(
        config,
        Call::Tool {
            name: tool,
            arguments,
        },
        1,
    )
    .with_input_schema(input_schema);
    let mut last_state: Option<String> = None;
    for (i, e) in exchanges.iter().enumerate() {
        let ours = call.request().unwrap();
        assert_same_request(&ours, e, &format!("{name} #{i}"));
        if let Some(state) = &last_state {
            let needle = format!("\"requestState\":{state}");
            assert!(
                ours.body.as_deref().unwrap().contains(&needle),
                "{name}: state not echoed byte-exact"
            );
            assert!(e.body.as_deref().unwrap().contains(&needle));
        }
        let last = i + 1 == exchanges.len();
        let step = if e.status >= 400 {
            call.on_http_failure(e.status, e.content_type.as_deref(), e.response.as_bytes())
        } else {
            let mut found = None;
            for text in response_messages(e) {
                if let Ok(Incoming::Response { result, .. }) = parse_message(&text) {
                    if let Ok(ModernResult::InputRequired(ir)) = ModernResult::classify(result) {
                        last_state = ir.request_state.map(|r| r.get().to_string());
                    }
                }
                match call.on_message(&text) {
                    ModernStep::Ignored => {}
                    step => found = Some(step),
                }
            }
            found.unwrap_or_else(|| panic!("{name}: no answer in exchange {i}"))
        };
        match step {
            ModernStep::Complete(c) => {
                assert!(last, "{name}: completed early");
                let r: CallToolResult = from_raw(&c.result, "result").unwrap();
                assert_eq!(c.server_info.unwrap().name, "mcp-elicit demo");
                return Outcome::Text(r.content[0].text().unwrap().to_string());
            }
            ModernStep::Failed(err) => {
                assert!(last, "{name}: failed early: {err}");
                return Outcome::Error(err.code().unwrap());
            }
            ModernStep::InputNeeded { elicitations, .. } => {
                let next = json(exchanges[i + 1].body.as_deref().unwrap());
                let responses = next["params"]["inputResponses"].as_object().unwrap();
                for p in &elicitations {
                    let answer: ElicitResult =
                        serde_json::from_value(responses[&p.key].clone()).unwrap();
                    call.answer(&p.key, answer).unwrap();
                }
                assert_eq!(elicitations.len(), responses.len(), "{name}: keys differ");
            }
            ModernStep::ReadyToReplay | ModernStep::RetryAfter { .. } => {}
            ModernStep::Task { .. } => panic!("{name}: a task, undeclared"),
            ModernStep::RefreshToolSchema { mismatch, .. } => {
                panic!("{name}: unexpected header mismatch: {mismatch}")
            }
            ModernStep::Ignored => unreachable!(),
        }
    }
    panic!("{name}: ran out of exchanges")
}

#[test]
fn modern_driver_replays_the_recorded_flows() {
    let expect_text = [
        ("modern_delete_folder_accept", "deleted /tmp/project"),
        (
            "modern_delete_folder_decline",
            "declined: folder not deleted",
        ),
        (
            "modern_delete_folder_cancel",
            "cancelled: folder not deleted",
        ),
        (
            "modern_pay_deposit",
            "Complete the payment in your browser.",
        ),
        ("modern_book_in_region", "Booked in region eu-west."),
        (
            "modern_setup_account",
            "account ada on free plan, newsletter=false",
        ),
        (
            "modern_endless_questions",
            "stopped after 3 answers: decline",
        ),
    ];
    for (name, text) in expect_text {
        match run_modern(name) {
            Outcome::Text(t) => assert_eq!(t, text, "{name}"),
            Outcome::Error(c) => panic!("{name}: error {c}"),
        }
    }
    let Outcome::Text(t) = run_modern("modern_plan_trip") else {
        panic!()
    };
    assert!(t.starts_with("accepted destination="), "{t}");
    let Outcome::Text(t) = run_modern("modern_all_fields") else {
        panic!()
    };
    assert!(t.starts_with("accepted {\"age\": 0,"), "{t}");
    for (name, code) in [
        ("modern_book_table_no_back_channel", -32600),
        ("modern_missing_capability", -32021),
    ] {
        match run_modern(name) {
            Outcome::Error(c) => assert_eq!(c, code, "{name}"),
            Outcome::Text(t) => panic!("{name}: {t}"),
        }
    }
}

#[test]
fn missing_capability_names_the_capability() {
    let e = load("modern_missing_capability")
        .into_iter()
        .next()
        .unwrap();
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "delete_folder".into(),
            arguments: Map::new(),
        },
        1,
    );
    call.request().unwrap();
    let ModernStep::Failed(err) =
        call.on_http_failure(e.status, e.content_type.as_deref(), e.response.as_bytes())
    else {
        panic!()
    };
    let text = err.to_string();
    assert!(
        text.contains("did not declare (elicitation (form))"),
        "{text}"
    );
}

#[test]
fn header_mismatch_is_reported_as_such() {
    let e = load("modern_header_mismatch").into_iter().next().unwrap();
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "delete_folder".into(),
            arguments: Map::new(),
        },
        1,
    );
    call.request().unwrap();
    // A tools/call gets one schema refresh per round; the second -32020 is final.
    let step = call.on_http_failure(e.status, e.content_type.as_deref(), e.response.as_bytes());
    let ModernStep::RefreshToolSchema { tool, mismatch } = step else {
        panic!("{step:?}")
    };
    assert_eq!(tool, "delete_folder");
    assert!(mismatch
        .to_string()
        .contains("mcp-name header does not match"));
    call.request().unwrap();
    let ModernStep::Failed(err) =
        call.on_http_failure(e.status, e.content_type.as_deref(), e.response.as_bytes())
    else {
        panic!()
    };
    assert!(matches!(err, DriverError::HeaderMismatch { .. }), "{err:?}");
}

/// The SDK client's -32020 recovery over the recorded `book_in_region` flow: sent
/// without the tool's schema, the call lacks `Mcp-Param-Region` and the server refuses
/// it (the SDK's own words for that case); with the schema of the recorded
/// `tools/list`, the resend is exactly the recorded request, and the flow completes.
#[test]
fn header_mismatch_recovery_resends_exactly_the_recorded_request() {
    let ex = load("modern_book_in_region");
    let first = json(ex[0].body.as_deref().unwrap());
    let arguments = first["params"]["arguments"].as_object().unwrap().clone();
    // Ids from 0: the refused attempt takes 0, the resend the recorded 1.
    let mut call = ModernCall::new(
        ModernConfig::default(),
        Call::Tool {
            name: "book_in_region".into(),
            arguments,
        },
        0,
    );
    let refused = call.request().unwrap();
    assert_eq!(refused.header("Mcp-Param-Region"), None);
    let step = call.on_http_failure(
        400,
        Some("application/json"),
        br#"{"jsonrpc":"2.0","id":0,"error":{"code":-32020,"message":"Mcp-Param-Region header is missing but the request body's 'region' argument is present"}}"#,
    );
    let ModernStep::RefreshToolSchema { tool, .. } = step else {
        panic!("{step:?}")
    };
    call.set_input_schema(Some(tool_schema(&tool)));
    let resend = call.request().unwrap();
    assert_same_request(&resend, &ex[0], "resend after the refresh");
    let mut step = None;
    for text in response_messages(&ex[0]) {
        match call.on_message(&text) {
            ModernStep::Ignored => {}
            s => step = Some(s),
        }
    }
    let Some(ModernStep::InputNeeded { elicitations, .. }) = step else {
        panic!("{step:?}")
    };
    let next = json(ex[1].body.as_deref().unwrap());
    for p in &elicitations {
        let answer: ElicitResult =
            serde_json::from_value(next["params"]["inputResponses"][&p.key].clone()).unwrap();
        call.answer(&p.key, answer).unwrap();
    }
    let replay = call.request().unwrap();
    assert_same_request(&replay, &ex[1], "replay");
    let mut done = None;
    for text in response_messages(&ex[1]) {
        if let ModernStep::Complete(c) = call.on_message(&text) {
            done = Some(c);
        }
    }
    let r: CallToolResult = from_raw(&done.unwrap().result, "result").unwrap();
    assert_eq!(r.content[0].text(), Some("Booked in region eu-west."));
}

#[test]
fn era_decision_on_the_recorded_probes() {
    let ex = load("modern_discover");
    let probe = mcp_elicit::driver::era::discover_request(
        &RequestId::Number(0),
        "2026-07-28",
        &mcp_elicit::wire::Implementation::this_client(),
        &ClientCapabilities::for_host(false),
    )
    .unwrap();
    assert_same_request(&probe, &ex[0], "discover probe");
    let text = response_messages(&ex[0]).remove(0);
    let d = decide_from_message("2026-07-28", &RequestId::Number(0), &text).unwrap();
    assert!(
        matches!(d, EraDecision::Modern { ref version, .. } if version == "2026-07-28"),
        "{d:?}"
    );
    // Probing a version the server does not know: it names ours, so probe again at it.
    let d = decide_from_http_failure(
        "2030-01-01",
        ex[1].status,
        ex[1].content_type.as_deref(),
        ex[1].response.as_bytes(),
    );
    assert_eq!(
        d,
        EraDecision::Reprobe {
            version: "2026-07-28".into()
        }
    );
}

/// Runs LegacySession over a recorded session, checking every request it makes.
fn run_legacy(name: &str) -> Vec<String> {
    let mut s = LegacySession::new(LegacyConfig::default());
    let mut surfaced: HashMap<RequestId, ElicitRequestParams> = HashMap::new();
    let mut notification: Option<HttpRequest> = None;
    let mut log = Vec::new();
    for (i, e) in load(name).iter().enumerate() {
        let what = format!("{name} #{i}");
        if e.other_actor {
            continue;
        }
        let body = e.body.as_deref().map(json);
        let method = body
            .as_ref()
            .and_then(|b| b["method"].as_str())
            .map(str::to_string);
        match (e.method.as_str(), method.as_deref()) {
            ("GET", _) => {
                let ours = s.get_stream_request(None).unwrap();
                assert_same_request(&ours, e, &what);
                for text in response_messages(e) {
                    if let LegacyEvent::ElicitationComplete { elicitation_id } = s.on_message(&text)
                    {
                        log.push(format!("complete {elicitation_id}"));
                    }
                }
            }
            ("DELETE", _) => {
                let ours = s.close_request().unwrap();
                assert_eq!(ours.method, HttpMethod::Delete);
                assert_same_request(&ours, e, &what);
                log.push("closed".into());
            }
            ("POST", Some("initialize")) => {
                let ours = s.initialize_request().unwrap();
                assert_same_request(&ours, e, &what);
                let id = RequestId::Number(body.as_ref().unwrap()["id"].as_i64().unwrap());
                assert!(s
                    .on_http_status(Some(&id), e.status, e.session_id.as_deref())
                    .is_none());
                for text in response_messages(e) {
                    match s.on_message(&text) {
                        LegacyEvent::Initialized {
                            notification: n, ..
                        } => notification = Some(n),
                        other => panic!("{what}: {other:?}"),
                    }
                }
                log.push("initialized".into());
            }
            ("POST", Some("notifications/initialized")) => {
                let ours = notification.take().unwrap();
                assert_same_request(&ours, e, &what);
                assert_eq!(e.status, 202);
            }
            ("POST", None) => {
                // Our answer to an elicitation, byte for byte.
                let b = body.unwrap();
                let id: RequestId = serde_json::from_value(b["id"].clone()).unwrap();
                assert!(
                    surfaced.remove(&id).is_some(),
                    "{what}: answer to an unsurfaced elicitation"
                );
                let result: ElicitResult = serde_json::from_value(b["result"].clone()).unwrap();
                let ours = s.answer_elicitation(&id, &result).unwrap();
                assert_eq!(ours.body.as_deref(), e.body.as_deref(), "{what}");
                assert_same_request(&ours, e, &what);
                assert_eq!(e.status, 202);
            }
            ("POST", Some(m)) => {
                let params = body.as_ref().unwrap().get("params").cloned();
                // A call that may ask for input goes as the typed Call, its params
                // written by serde: they must come out as the SDK's were recorded.
                let (id, ours) = if [TOOLS_CALL, PROMPTS_GET, RESOURCES_READ].contains(&m) {
                    let call = Call::parse(m, params.as_ref().unwrap()).unwrap();
                    s.call(&call).unwrap()
                } else {
                    s.request(m, params.as_ref()).unwrap()
                };
                assert_same_request(&ours, e, &what);
                if e.status >= 400 {
                    match s.on_http_failure(
                        Some(&id),
                        e.status,
                        e.content_type.as_deref(),
                        e.response.as_bytes(),
                    ) {
                        Some(LegacyEvent::SessionExpired) => log.push("expired".into()),
                        other => panic!("{what}: {other:?}"),
                    }
                    continue;
                }
                for text in response_messages(e) {
                    match s.on_message(&text) {
                        LegacyEvent::Elicit { id, params } => {
                            surfaced.insert(id, params);
                        }
                        LegacyEvent::Response {
                            id: rid, result, ..
                        } => {
                            assert_eq!(rid, id);
                            if m == "tools/call" {
                                let r: CallToolResult = from_raw(&result, "result").unwrap();
                                log.push(r.content[0].text().unwrap().to_string());
                            } else {
                                log.push(format!("{m} ok"));
                            }
                        }
                        LegacyEvent::Failed { id: fid, error } => {
                            assert_eq!(fid, Some(id.clone()));
                            if let DriverError::UrlElicitationRequired { elicitations, .. } = &error
                            {
                                log.push(format!(
                                    "url required {}",
                                    elicitations[0].elicitation_id
                                ));
                            } else {
                                log.push(format!("failed {error}"));
                            }
                        }
                        other => panic!("{what}: {other:?}"),
                    }
                }
            }
            other => panic!("{what}: unexpected exchange {other:?}"),
        }
    }
    assert!(surfaced.is_empty(), "{name}: unanswered elicitations");
    log
}

#[test]
fn legacy_session_runs_the_recorded_session() {
    let log = run_legacy("legacy_session");
    assert_eq!(
        log,
        [
            "initialized",
            "tools/list ok",
            "Booked a table for 2 on 2025-12-27.",
            "declined: no table booked",
            "deleted /tmp/project",
            log.get(5).map(String::as_str).unwrap_or("?"),
            "Complete the payment in your browser.",
            "complete deposit-b1",
            "Deposit deposit-b1 confirmed.",
            "url required vault-v1",
            "closed",
        ]
    );
    assert!(log[5].starts_with("accepted destination="), "{}", log[5]);
}

#[test]
fn legacy_more_flows_run() {
    let log = run_legacy("legacy_more_flows");
    assert_eq!(log.len(), 6, "{log:?}");
    assert!(log[1].starts_with("accepted {\"age\": 0,"), "{}", log[1]);
    assert_eq!(
        log[2..],
        [
            "account ada on free plan, newsletter=false",
            "stopped after 3 answers: cancel",
            "cancelled: folder not deleted",
            "closed",
        ]
    );
}

/// Every schema the server asked with compiles, and every answer the
/// recording sent to it validates: the wire, the schema compiler and the
/// validator agree with the real SDK.
#[test]
fn recorded_schemas_compile_and_recorded_answers_validate() {
    let mut checked = 0;
    for name in all_fixtures() {
        let mut asked: HashMap<String, mcp_elicit::schema::FormSpec> = HashMap::new();
        for e in load(&name) {
            // Answers: legacy answer bodies (by server request id) and modern inputResponses (by key).
            if let Some(b) = e.body.as_deref().map(json) {
                let mut answers: Vec<(String, Value)> = Vec::new();
                if b.get("method").is_none() {
                    answers.push((b["id"].to_string(), b["result"].clone()));
                } else if let Some(r) = b["params"]["inputResponses"].as_object() {
                    answers.extend(r.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                for (key, answer) in answers {
                    if let (Some(spec), Some(content)) = (asked.get(&key), answer.get("content")) {
                        mcp_elicit::validate::validate_content(spec, content)
                            .unwrap_or_else(|errs| panic!("{name}: {key}: {errs:?}"));
                        checked += 1;
                    }
                }
            }
            for text in response_messages(&e) {
                let mut found: Vec<(String, ElicitRequestParams)> = Vec::new();
                match parse_message(&text).unwrap() {
                    Incoming::Request { id, method, params } if method == "elicitation/create" => {
                        let p = from_raw(params.as_deref().unwrap(), "params").unwrap();
                        found.push((serde_json::to_string(&id).unwrap(), p));
                    }
                    Incoming::Response { result, .. } => {
                        if let Ok(ModernResult::InputRequired(ir)) = ModernResult::classify(result)
                        {
                            for (k, r) in ir.input_requests.unwrap_or_default() {
                                if let mcp_elicit::wire::InputRequest::Elicit(p) = r {
                                    found.push((k, p));
                                }
                            }
                        }
                    }
                    _ => {}
                }
                for (key, p) in found {
                    if let ElicitRequestParams::Form(f) = p {
                        let spec = mcp_elicit::schema::compile(&f.requested_schema)
                            .unwrap_or_else(|e| panic!("{name}: {key}: {e:?}"));
                        asked.insert(key, spec);
                    }
                }
            }
        }
    }
    assert!(checked >= 15, "only {checked} answers checked");
}

#[test]
fn legacy_session_expiry_reinitialises() {
    let log = run_legacy("legacy_session_expired");
    assert_eq!(
        log,
        ["initialized", "expired", "initialized", "tools/list ok"]
    );
}
