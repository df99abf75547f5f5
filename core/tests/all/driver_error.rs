//! `DriverError`: reading the server's error data, and which failures may be resent.

use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::ErrorObject;
use serde_json::{json, Value};

fn url_required(data: Value) -> DriverError {
    DriverError::from_rpc(ErrorObject {
        code: -32042,
        message: "This request requires more information".into(),
        data: Some(data),
    })
}

#[test]
fn url_elicitation_required_keeps_the_valid_entries_and_counts_the_rest() {
    let error = url_required(json!({"elicitations":[
        {"mode":"url","message":"Pay","url":"https://pay.example/x","elicitationId":"e1"},
        {"mode":"url","message":"No url"},
        "not an object",
        {"mode":"form","message":"Form","url":"https://x.example/"},
        // SDK defaults: mode "url"; elicitationId absent or null (2026-07-28 dropped it).
        {"message":"Sign","url":"https://sign.example/"},
        {"mode":"url","message":"Null id","url":"https://n.example/","elicitationId":null},
        {"mode":"url","message":"Bad id","url":"https://b.example/","elicitationId":7}
    ]}));
    let DriverError::UrlElicitationRequired {
        elicitations,
        unusable,
        ..
    } = &error
    else {
        panic!("{error:?}")
    };
    let urls: Vec<&str> = elicitations.iter().map(|e| e.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://pay.example/x",
            "https://sign.example/",
            "https://n.example/"
        ]
    );
    assert_eq!(elicitations[0].completion_id(), Some("e1"));
    assert_eq!(elicitations[1].completion_id(), None);
    assert_eq!(elicitations[2].completion_id(), None);
    assert_eq!(*unusable, 4);
    let text = error.to_string();
    assert!(text.contains("needs 3 web pages completed"), "{text}");
    assert!(text.contains("4 more could not be read"), "{text}");
}

#[test]
fn url_elicitation_required_says_when_no_page_is_usable() {
    let error = url_required(json!({"elicitations":[{"mode":"url"}, 3]}));
    assert!(matches!(
        &error,
        DriverError::UrlElicitationRequired { elicitations, unusable: 2, .. } if elicitations.is_empty()
    ));
    let text = error.to_string();
    assert!(
        text.contains("none of the 2 it named could be read"),
        "{text}"
    );
    assert!(!text.contains("0 web page"), "{text}");

    for data in [
        json!({}),
        json!({"elicitations":[]}),
        json!({"elicitations":{}}),
    ] {
        let text = url_required(data.clone()).to_string();
        assert!(text.contains("but named none"), "{data}: {text}");
    }
    let all_good = url_required(
        json!({"elicitations":[{"mode":"url","message":"m","url":"https://a.example/","elicitationId":"a"}]}),
    );
    assert!(all_good
        .to_string()
        .contains("needs 1 web page completed before this call can proceed: "));
}

/// The TypeScript SDK's servers send -32042 with their `McpError` text, which starts with
/// "MCP error -32042: " and ends with a period: a person reads neither the prefix, nor a
/// "(s)", nor a doubled period.
#[test]
fn url_elicitation_required_reads_for_a_person() {
    let page = json!({"mode":"url","message":"m","url":"https://a.example/","elicitationId":"a"});
    let sdk = |message: &str, pages: Value| {
        DriverError::from_rpc(ErrorObject {
            code: -32042,
            message: message.into(),
            data: Some(json!({ "elicitations": pages })),
        })
        .to_string()
    };
    assert_eq!(
        sdk(
            "MCP error -32042: This request requires browser-based authorization.",
            json!([page.clone()])
        ),
        "The server needs 1 web page completed before this call can proceed: \
         This request requires browser-based authorization."
    );
    assert_eq!(
        sdk("Open these", json!([page.clone(), page.clone()])),
        "The server needs 2 web pages completed before this call can proceed: Open these."
    );
    let none = sdk("MCP error -32042: Sign in first!", json!([]));
    assert!(
        !none.contains("(s)") && !none.contains("MCP error"),
        "{none}"
    );
    assert!(none.ends_with("Sign in first!"), "{none}");
}

fn http(status: u16) -> DriverError {
    DriverError::Http {
        status,
        body: String::new(),
    }
}

fn rpc(code: i64) -> DriverError {
    DriverError::from_rpc(ErrorObject {
        code,
        message: "m".into(),
        data: None,
    })
}

#[test]
fn resendable_failures_are_accidents_not_verdicts() {
    use mcp_elicit::sse::SseError;
    use mcp_elicit::wire::WireError;
    // Transport accidents: the same request may simply go again.
    for e in [
        DriverError::NoResponse,
        DriverError::Sse(SseError::Truncated),
        DriverError::Wire(WireError::new("the server's message is not JSON")),
        http(408),
        http(425),
        http(429),
        http(500),
        http(502),
        http(503),
        http(504),
        http(507),
        http(522),
    ] {
        assert!(e.is_resendable(), "{e:?}");
    }
    // The server's verdict on the request, or the client's own refusal.
    for e in [
        rpc(-32602),
        rpc(-32603),
        rpc(-32601),
        rpc(-32600),
        rpc(-32700),
        rpc(-32020),
        rpc(-32021),
        rpc(-32022),
        rpc(-32042),
        rpc(0),
        http(400),
        http(401),
        http(403),
        http(404),
        http(405),
        http(406),
        http(409),
        http(413),
        http(415),
        http(501),
        http(505),
        http(200),
        http(302),
        DriverError::SessionExpired,
        DriverError::Sse(SseError::TooLong { limit: 1 }),
        DriverError::BadResult(WireError::new("the server's result is malformed")),
        DriverError::RoundsExceeded { max_rounds: 1 },
        DriverError::SamplingRefused { key: "k".into() },
        DriverError::UnsupportedInput {
            key: "k".into(),
            method: "x".into(),
        },
        DriverError::Usage("u".into()),
    ] {
        assert!(!e.is_resendable(), "{e:?}");
    }
}

#[test]
fn an_http_failure_is_resendable_only_without_a_json_rpc_error_body() {
    use mcp_elicit::driver::http::failure_from_http;
    let with_error = failure_from_http(
        500,
        Some("application/json"),
        br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#,
    );
    assert!(!with_error.is_resendable(), "{with_error:?}");
    let bare = failure_from_http(503, Some("text/html"), b"<h1>Service Unavailable</h1>");
    assert!(bare.is_resendable(), "{bare:?}");
    let sse_error = failure_from_http(
        429,
        Some("text/event-stream"),
        b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"bad\"}}\n\n",
    );
    assert_eq!(sse_error.code(), Some(-32602));
    assert!(!sse_error.is_resendable());
}
