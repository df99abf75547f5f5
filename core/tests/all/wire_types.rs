//! Wire types: classification of incoming messages, the modern result shapes,
//! `requestState` kept byte-exact, and unknown fields tolerated.

use mcp_elicit::wire::input::InputRequest;
use mcp_elicit::wire::{
    codes, from_raw, parse_message, CallToolResult, ClientCapabilities, ElicitRequestParams,
    Incoming, ModernResult, RequestId, UrlElicitationRequiredData,
};

#[test]
fn classifies_the_four_shapes_and_both_id_kinds() {
    match parse_message(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).unwrap() {
        Incoming::Response { id, .. } => assert_eq!(id, RequestId::Number(1)),
        other => panic!("{other:?}"),
    }
    match parse_message(r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#).unwrap() {
        Incoming::Request { id, method, params } => {
            assert_eq!(id, RequestId::String("a".into()));
            assert_eq!(method, "ping");
            assert!(params.is_none());
        }
        other => panic!("{other:?}"),
    }
    match parse_message(r#"{"jsonrpc":"2.0","method":"notifications/x","params":{"a":1}}"#).unwrap()
    {
        Incoming::Notification { method, params } => {
            assert_eq!(method, "notifications/x");
            assert_eq!(params.unwrap().get(), r#"{"a":1}"#);
        }
        other => panic!("{other:?}"),
    }
    match parse_message(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}"#)
        .unwrap()
    {
        Incoming::Error { id, error } => {
            assert_eq!(id, None);
            assert_eq!(error.code, codes::INVALID_REQUEST);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn refuses_what_is_not_json_rpc_in_words() {
    let cases = [
        ("[]", "batch"),
        ("{", "not JSON-RPC"),
        (r#"{"id":1,"result":{}}"#, "jsonrpc"),
        (r#"{"jsonrpc":"1.0","id":1,"result":{}}"#, "\"1.0\""),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
            "not an integer",
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"result":{}}"#,
            "integer or a string",
        ),
        (r#"{"jsonrpc":"2.0","result":{}}"#, "without an id"),
        (r#"{"jsonrpc":"2.0","id":1}"#, "neither"),
        (r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#, "null id"),
    ];
    for (text, needle) in cases {
        let err = parse_message(text).unwrap_err();
        assert!(err.message.contains(needle), "{text}: {err}");
    }
}

#[test]
fn unknown_fields_are_tolerated() {
    let m = parse_message(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi","annotations":{}},{"type":"image","data":"x","mimeType":"image/png"}],"isError":false,"newField":1},"extra":true}"#).unwrap();
    let Incoming::Response { result, .. } = m else {
        panic!()
    };
    let r: CallToolResult = from_raw(&result, "tools/call result").unwrap();
    assert_eq!(r.content.len(), 2);
    assert_eq!(r.content[0].text(), Some("hi"));
    assert_eq!(r.content[1].text(), None);
}

#[test]
fn input_required_keeps_request_state_byte_exact_and_types_requests() {
    // A state with escapes and odd spacing: only a raw copy survives this.
    let result = r#"{"inputRequests":{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}},"b":{"method":"roots/list"},"c":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}},"d":{"method":"x/y"}},"requestState":"v1.\u0041\/b+==" ,"resultType":"input_required"}"#;
    let raw = serde_json::value::RawValue::from_string(result.to_string()).unwrap();
    let ModernResult::InputRequired(r) = ModernResult::classify(raw).unwrap() else {
        panic!()
    };
    assert_eq!(
        r.request_state.as_ref().unwrap().get(),
        r#""v1.\u0041\/b+==""#
    );
    let reqs = r.input_requests.as_ref().unwrap();
    let keys: Vec<&str> = reqs.keys().map(String::as_str).collect();
    assert_eq!(keys, ["a", "b", "c", "d"]);
    assert!(matches!(
        reqs["a"],
        InputRequest::Elicit(ElicitRequestParams::Form(_))
    ));
    assert!(matches!(reqs["b"], InputRequest::Roots(None)));
    assert!(matches!(reqs["c"], InputRequest::Sampling(_)));
    assert_eq!(reqs["d"].method(), "x/y");
    let again = serde_json::to_string(&r).unwrap();
    assert!(again.contains(r#""requestState":"v1.\u0041\/b+==""#));
}

#[test]
fn result_type_absent_means_complete_and_unknown_is_refused() {
    let raw = serde_json::value::RawValue::from_string(r#"{"content":[]}"#.into()).unwrap();
    assert!(matches!(
        ModernResult::classify(raw).unwrap(),
        ModernResult::Complete(_)
    ));
    // "task" is the Tasks extension's (the driver takes it only where it declared it).
    let raw = serde_json::value::RawValue::from_string(r#"{"resultType":"task"}"#.into()).unwrap();
    assert!(matches!(
        ModernResult::classify(raw).unwrap(),
        ModernResult::Task(_)
    ));
    let raw = serde_json::value::RawValue::from_string(r#"{"resultType":"job"}"#.into()).unwrap();
    assert!(ModernResult::classify(raw)
        .unwrap_err()
        .message
        .contains("\"job\""));
    let raw = serde_json::value::RawValue::from_string(r#"{"resultType":"input_required"}"#.into())
        .unwrap();
    assert!(ModernResult::classify(raw)
        .unwrap_err()
        .message
        .contains("neither"));
}

/// Like the SDK's `InputRequiredResult` validator (`not input_requests and
/// request_state is None`): an empty `inputRequests` map asks for nothing, so
/// without a `requestState` there is nothing to replay. A `null` counts as absent.
#[test]
fn input_required_with_nothing_to_answer_or_echo_is_refused() {
    for result in [
        r#"{"resultType":"input_required","inputRequests":{}}"#,
        r#"{"resultType":"input_required","inputRequests":{},"requestState":null}"#,
        r#"{"resultType":"input_required","inputRequests":null,"requestState":null}"#,
    ] {
        let raw = serde_json::value::RawValue::from_string(result.into()).unwrap();
        let err = ModernResult::classify(raw).unwrap_err();
        assert!(err.message.contains("neither"), "{result}: {err}");
    }
    // Either one alone is enough.
    for result in [
        r#"{"resultType":"input_required","inputRequests":{},"requestState":"s"}"#,
        r#"{"resultType":"input_required","requestState":""}"#,
        r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}"#,
    ] {
        let raw = serde_json::value::RawValue::from_string(result.into()).unwrap();
        assert!(
            matches!(
                ModernResult::classify(raw),
                Ok(ModernResult::InputRequired(_))
            ),
            "{result}"
        );
    }
}

#[test]
fn a_malformed_embedded_elicitation_is_reported() {
    let raw = serde_json::value::RawValue::from_string(
        r#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"url"}}}}"#.into(),
    )
    .unwrap();
    let err = ModernResult::classify(raw).unwrap_err();
    assert!(err.message.contains("elicitation/create"), "{err}");
}

#[test]
fn url_elicitation_required_data() {
    let m = parse_message(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32042,"message":"URL elicitation required","data":{"elicitations":[{"mode":"url","message":"Pay","url":"https://pay.example.com/x","elicitationId":"e1"}]}}}"#).unwrap();
    let Incoming::Error { error, .. } = m else {
        panic!()
    };
    assert_eq!(error.code, codes::URL_ELICITATION_REQUIRED);
    let data: UrlElicitationRequiredData = serde_json::from_value(error.data.unwrap()).unwrap();
    assert_eq!(data.elicitations[0].elicitation_id, "e1");
}

#[test]
fn capabilities_are_declared_like_the_sdk() {
    let caps = serde_json::to_string(&ClientCapabilities::for_host(false)).unwrap();
    assert_eq!(caps, r#"{"elicitation":{"form":{},"url":{}},"roots":{}}"#);
    let caps = serde_json::to_string(&ClientCapabilities::for_host(true)).unwrap();
    assert_eq!(
        caps,
        r#"{"elicitation":{"form":{},"url":{}},"roots":{},"sampling":{}}"#
    );
}

#[test]
fn incoming_round_trips_byte_exact_raw_parts() {
    let text = r#"{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":{"b":1,  "a":"\u00e9"}}"#;
    let m = parse_message(text).unwrap();
    let out = m.to_json().unwrap();
    assert_eq!(
        out,
        r#"{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":{"b":1,  "a":"\u00e9"}}"#
    );
    let text = r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}"#;
    assert_eq!(parse_message(text).unwrap().to_json().unwrap(), text);
}

/// proptest is a native-only dev-dependency.
/// A call's params as serde writes them (the same bytes in both eras: the transcripts check
/// them against the SDK's), read back to the same call.
#[test]
fn a_call_writes_its_own_params_and_reads_them_back() {
    use mcp_elicit::wire::Call;
    let mut arguments = serde_json::Map::new();
    arguments.insert("b".into(), serde_json::json!(2));
    arguments.insert("a".into(), serde_json::json!([1]));
    for (call, method, target, params) in [
        (
            Call::Tool {
                name: "t".into(),
                arguments: arguments.clone(),
            },
            "tools/call",
            "t",
            r#"{"name":"t","arguments":{"b":2,"a":[1]}}"#,
        ),
        (
            Call::Prompt {
                name: "p".into(),
                arguments: serde_json::Map::new(),
            },
            "prompts/get",
            "p",
            r#"{"name":"p","arguments":{}}"#,
        ),
        (
            Call::Resource {
                uri: "res://x?y=1".into(),
            },
            "resources/read",
            "res://x?y=1",
            r#"{"uri":"res://x?y=1"}"#,
        ),
    ] {
        assert_eq!(call.method(), method);
        assert!(Call::is_call_method(method), "{method}");
        assert_eq!(call.target(), target);
        let written = serde_json::to_string(&call.params()).unwrap();
        assert_eq!(written, params);
        let read = Call::parse(method, &serde_json::from_str(&written).unwrap()).unwrap();
        assert_eq!(read, call, "{method}");
    }
}

#[test]
fn a_call_is_read_leniently_but_never_guessed() {
    use mcp_elicit::wire::Call;
    use serde_json::json;
    // Absent arguments are none; fields the call does not carry (`_meta`) are ignored.
    assert_eq!(
        Call::parse("prompts/get", &json!({"name": "p", "_meta": {"k": 1}})).unwrap(),
        Call::Prompt {
            name: "p".into(),
            arguments: serde_json::Map::new()
        }
    );
    for (method, params, said) in [
        ("tools/call", json!({"arguments": {}}), "name"),
        ("tools/call", json!({"name": 7}), "tools/call"),
        (
            "tools/call",
            json!({"name": "t", "arguments": [1]}),
            "tools/call",
        ),
        ("prompts/get", json!("p"), "prompts/get"),
        ("resources/read", json!({"name": "r"}), "uri"),
        ("tools/list", json!({}), "tools/list"),
    ] {
        assert_eq!(
            Call::is_call_method(method),
            method != "tools/list",
            "{method}"
        );
        let err = Call::parse(method, &params).unwrap_err();
        assert!(
            err.message.contains(said),
            "{method} {params}: {}",
            err.message
        );
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod never_panic {
    use mcp_elicit::driver::legacy::{LegacyConfig, LegacySession};
    use mcp_elicit::driver::modern::{ModernCall, ModernConfig};
    use mcp_elicit::wire::parse_message;
    use mcp_elicit::wire::Call;
    use proptest::prelude::*;

    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            any::<bool>().prop_map(|b| b.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            "[a-z/_]{0,8}".prop_map(|s| format!("{s:?}")),
            Just("\"2.0\"".to_string()),
            Just("\"input_required\"".to_string()),
            Just("\"elicitation/create\"".to_string()),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            let key = prop_oneof![
                Just("jsonrpc"),
                Just("id"),
                Just("method"),
                Just("params"),
                Just("result"),
                Just("error"),
                Just("code"),
                Just("message"),
                Just("data"),
                Just("resultType"),
                Just("inputRequests"),
                Just("requestState"),
                Just("mode"),
                Just("url"),
                Just("requestedSchema"),
                Just("elicitationId"),
                Just("k"),
            ];
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                proptest::collection::vec((key, inner), 0..6).prop_map(|v| {
                    let body: Vec<String> =
                        v.into_iter().map(|(k, x)| format!("{k:?}:{x}")).collect();
                    format!("{{{}}}", body.join(","))
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn random_messages_never_panic_the_classifier_or_the_machines(text in json_text()) {
            let _ = parse_message(&text).map(|m| m.to_json());
            let mut call = ModernCall::new(ModernConfig::default(), Call::Resource { uri: "u".into() }, 1);
            let _ = call.request();
            let _ = call.on_message(&text);
            let _ = call.on_message(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{text}}}"#));
            let mut s = LegacySession::new(LegacyConfig::default());
            let _ = s.initialize_request();
            let _ = s.on_message(&text);
            let _ = s.on_message(&format!(r#"{{"jsonrpc":"2.0","id":0,"result":{text}}}"#));
            let _ = s.on_message(&format!(r#"{{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{text}}}"#));
        }

        #[test]
        fn random_bytes_never_panic_the_classifier(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse_message(&String::from_utf8_lossy(&bytes));
        }
    }
}

/// `case` read by `ElicitRequestParams::from_value` and by the derive
/// (`serde_json::from_value`): each the params as written (so the order of every member
/// counts too), or the error's words.
type Reading = Result<String, String>;
fn both_readings(case: &serde_json::Value) -> (Reading, Reading) {
    let written = |p: ElicitRequestParams| serde_json::to_string(&p).unwrap_or_default();
    let ours = ElicitRequestParams::from_value(case.clone())
        .map(written)
        .map_err(|e| e.to_string());
    let derive = serde_json::from_value::<ElicitRequestParams>(case.clone())
        .map(written)
        .map_err(|e| e.to_string());
    (ours, derive)
}

/// `ElicitRequestParams::from_value` answers exactly what the derive answers (the same
/// params, or an error in the same words), whatever the members' order, types or presence.
#[test]
fn elicit_params_from_a_value_are_the_derives() {
    use serde_json::json;
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 9007199254740993u64}, "s": {"type": "string", "default": "x"}}, "required": ["n"]});
    let cases = [
        json!({"message": "m", "requestedSchema": schema}),
        json!({"requestedSchema": schema, "message": "m", "extra": [1, {"a": null}]}),
        json!({"mode": "form", "message": "m", "requestedSchema": schema}),
        json!({"mode": null, "message": "m", "requestedSchema": schema}),
        json!({"mode": "form", "message": "m"}),
        json!({"message": "m"}),
        json!({"requestedSchema": schema}),
        json!({"message": 7, "requestedSchema": schema}),
        json!({"message": "m", "requestedSchema": null}),
        json!({"message": "m", "requestedSchema": "not a schema"}),
        json!({"mode": "url", "message": "m", "url": "https://example.com/", "elicitationId": "e"}),
        json!({"mode": "url", "message": "m", "url": "https://example.com/"}),
        json!({"mode": "url", "message": "m", "requestedSchema": schema}),
        json!({"mode": "url", "url": "https://example.com/"}),
        json!({"mode": "URL", "message": "m", "url": "https://example.com/"}),
        json!({"mode": "other", "message": "m", "requestedSchema": schema}),
        json!({"mode": 1, "message": "m", "requestedSchema": schema}),
        // serde also reads an enum written as a one-member object.
        json!({"mode": {"url": null}, "message": "m", "url": "https://example.com/", "requestedSchema": schema}),
        json!({"mode": {"form": null}, "message": "m", "requestedSchema": schema}),
        json!({"mode": {"url": null, "x": null}, "message": "m", "url": "u"}),
        json!({"mode": {"url": 1}, "message": "m", "url": "u"}),
        json!({"mode": "url", "message": "m", "url": "u", "elicitationId": null}),
        json!({"mode": "url", "message": "m", "url": "u", "elicitationId": null, "requestedSchema": {}}),
        json!({}),
        json!([]),
        json!(["m", schema]),
        // serde also reads a struct from an array of its fields in order.
        json!(["url", "m", "https://example.com/"]),
        json!(["url", "m", "https://example.com/", "e"]),
        json!(["url", "m", "https://example.com/", "e", "extra"]),
        json!([null, "m", schema]),
        json!(["form", "m", schema]),
        json!([{"form": null}, "m", schema, 1]),
        json!(["url", "m", schema]),
        json!("m"),
        json!(null),
        json!(3),
    ];
    for case in cases {
        let (ours, derive) = both_readings(&case);
        assert_eq!(ours, derive, "{case}");
    }
}

/// The one difference from the derive: serde_json's private raw-value token. With the
/// `raw_value` feature the derive reads an object keyed by it as raw JSON text; the hand
/// reader keeps it as the object it is (params from a JS host now reach `from_value` with
/// it, as the core's JSON reader gives every member name its plain meaning). Server params
/// come from serde_json's own text reader, which has taken the token already.
#[test]
fn elicit_params_keep_an_object_keyed_by_serdes_raw_value_token() {
    use serde_json::json;
    for schema in [
        json!({"$serde_json::private::RawValue": "{\"type\":\"object\"}"}),
        json!({"$serde_json::private::RawValue": 5}),
    ] {
        let params = json!({"message": "m", "requestedSchema": schema.clone()});
        match ElicitRequestParams::from_value(params) {
            Ok(ElicitRequestParams::Form(form)) => assert_eq!(form.requested_schema, schema),
            other => panic!("{schema}: {other:?}"),
        }
    }
}

/// The same on random params: objects and arrays whose members are drawn from what each
/// variant reads and from what it refuses, so both variants, both readings of a struct and
/// every refusal are met. Native only (proptest).
#[cfg(not(target_arch = "wasm32"))]
mod elicit_params_props {
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    /// A `mode`: the variants' names in both spellings, and what neither reads.
    fn mode() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!(null)),
            Just(json!("url")),
            Just(json!("form")),
            Just(json!({"url": null})),
            Just(json!({"form": null})),
            Just(json!({"url": 1})),
            Just(json!({"form": null, "url": null})),
            Just(json!("URL")),
            Just(json!(1)),
        ]
    }

    /// A `message`, `url` or `elicitationId`: mostly text.
    fn text() -> impl Strategy<Value = Value> {
        prop_oneof![3 => Just(json!("m")), 1 => Just(json!(null)), 1 => Just(json!(7))]
    }

    /// A `requestedSchema`: anything is read (the compiler judges it later).
    fn schema() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!({"type": "object", "properties": {"n": {"type": "integer"}}})),
            Just(json!(null)),
            Just(json!([1.5, true])),
        ]
    }

    fn params() -> impl Strategy<Value = Value> {
        // Each member present or not, in a random order.
        let object = (
            proptest::option::of(mode()),
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(schema()),
            proptest::option::of(text()),
            any::<u32>(),
        )
            .prop_map(|(mode, message, url, id, schema, other, order)| {
                let mut members: Vec<(&str, Value)> = [
                    ("mode", mode),
                    ("message", message),
                    ("url", url),
                    ("elicitationId", id),
                    ("requestedSchema", schema),
                    ("other", other),
                ]
                .into_iter()
                .filter_map(|(k, v)| Some((k, v?)))
                .collect();
                let len = members.len().max(1);
                members.rotate_left(order as usize % len);
                Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<String, Value>>(),
                )
            });
        // The fields in order, as either variant reads an array, cut to any length.
        let array = (
            mode(),
            text(),
            prop_oneof![text(), schema()],
            text(),
            text(),
            0..6usize,
        )
            .prop_map(|(a, b, c, d, e, len)| {
                let mut items = vec![a, b, c, d, e];
                items.truncate(len);
                Value::Array(items)
            });
        prop_oneof![3 => object, 2 => array, 1 => mode()]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn from_value_is_the_derive(case in params()) {
            let (ours, derive) = super::both_readings(&case);
            prop_assert_eq!(ours, derive, "{}", case);
        }
    }
}

/// A `WireError` carries its kind as data (a UI words it in the person's language around
/// the English), whatever the words.
#[test]
fn a_wire_error_names_its_kind() {
    use mcp_elicit::driver::http::messages_from_body;
    use mcp_elicit::driver::DriverError;
    use mcp_elicit::wire::{Call, WireError, WireKind};
    use serde_json::value::RawValue;
    fn kind<T>(r: Result<T, WireError>) -> Option<WireKind> {
        r.err().map(|e| e.kind)
    }
    let raw = |s: &str| RawValue::from_string(s.into()).unwrap();
    let unreadable = Some(WireKind::Unreadable);
    assert_eq!(kind(parse_message("<html>")), unreadable);
    assert_eq!(kind(parse_message("[1]")), unreadable);
    assert_eq!(kind(parse_message(r#"{"jsonrpc":"1.0"}"#)), unreadable);
    assert_eq!(
        kind(parse_message(r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#)),
        unreadable
    );
    assert_eq!(
        kind(from_raw::<CallToolResult>(
            &raw(r#"{"content":3}"#),
            "tool result"
        )),
        Some(WireKind::Malformed)
    );
    assert_eq!(
        kind(ModernResult::classify(raw(r#"{"resultType":"later"}"#))),
        Some(WireKind::Unexpected)
    );
    assert_eq!(
        kind(ModernResult::classify(raw(
            r#"{"resultType":"input_required"}"#
        ))),
        Some(WireKind::Malformed)
    );
    assert_eq!(
        kind(Call::parse("ping", &serde_json::json!({}))),
        Some(WireKind::Internal)
    );
    match messages_from_body(Some("text/html"), b"<h1>hi</h1>") {
        Err(DriverError::Wire(e)) => assert_eq!(e.kind, WireKind::Unreadable),
        other => panic!("{other:?}"),
    }
    // The English is what it always was.
    let e = ModernResult::classify(raw(r#"{"resultType":"later"}"#)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the server answered with result type \"later\", which this client does not know"
    );
}
