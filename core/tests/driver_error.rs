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
    assert!(text.contains("needs 3 web page(s)"), "{text}");
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
        .contains("needs 1 web page(s) completed before this call can proceed: "));
}
