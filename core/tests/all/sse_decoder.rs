//! The SSE decoder: field rules, line ends, limits, and that any split of a
//! stream into chunks decodes exactly like the whole stream.
// Native only: proptest is a native-only dev-dependency (it pulls getrandom, which does not
// build for wasm32-unknown-unknown).
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::sse::{SseDecoder, SseError, SseEvent};

fn decode_all(chunks: &[&[u8]]) -> Result<Vec<SseEvent>, SseError> {
    let mut d = SseDecoder::new();
    let mut out = Vec::new();
    for c in chunks {
        out.extend(d.feed(c)?);
    }
    Ok(out)
}

#[test]
fn event_data_id_retry_and_comments() {
    let stream = b": keep-alive\nevent: message\nid: 7\nretry: 3000\ndata: a\ndata:b\n\n";
    let events = decode_all(&[stream]).unwrap();
    assert_eq!(
        events,
        vec![SseEvent {
            event: "message".into(),
            data: "a\nb".into(),
            id: Some("7".into()),
            retry: Some(3000),
        }]
    );
}

#[test]
fn event_type_defaults_to_message_and_id_persists() {
    let events = decode_all(&[b"id: x\ndata: 1\n\ndata: 2\n\n"]).unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].event, "message");
    assert_eq!(events[1].id.as_deref(), Some("x"));
    assert_eq!(events[1].retry, None);
}

/// WHATWG: an `id` field with an empty value resets the last event id; the
/// next reconnection then sends no `Last-Event-ID` at all.
#[test]
fn an_empty_id_resets_the_last_event_id() {
    let mut d = SseDecoder::new();
    let events = d.feed(b"id: 5\ndata: a\n\nid\ndata: b\n\n").unwrap();
    assert_eq!(events[0].id.as_deref(), Some("5"));
    assert_eq!(events[1].id, None);
    assert_eq!(d.last_event_id(), None);
    d.feed(b"id: 6\n\nid:\n\n").unwrap();
    assert_eq!(d.last_event_id(), None);
    // A NUL makes the field ignored (the id stays), as before.
    d.feed(b"id: 7\n\nid: 8\0\n\n").unwrap();
    assert_eq!(d.last_event_id(), Some("7"));
}

#[test]
fn resume_tokens_are_ids_the_browser_sends_and_the_server_gets_back_unchanged() {
    use mcp_elicit::driver::http::is_header_value;
    use mcp_elicit::sse::resume_token;
    for good in [
        "1",
        "42_0",
        "a b",
        "a\tb",
        "~!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}",
        "0123456789abcdef-ABCDEF",
    ] {
        assert_eq!(resume_token(good), Some(good), "{good:?}");
        assert!(is_header_value(good), "{good:?}");
    }
    for bad in [
        "",   // no id (WHATWG: nothing to send)
        " 1", // fetch would strip the edge space: a different id
        "1 ",
        "\t1",
        "caf\u{e9}", // sent as one Latin-1 byte, not the server's two UTF-8 bytes
        "\u{1F600}", // fetch throws (not a ByteString)
        "\u{FFFD}",  // what undecodable bytes became
        "a\rb",
        "a\nb",
        "a\0b",
        "\u{7}", // control characters: refused by strict HTTP servers
        "a\u{7F}",
    ] {
        assert_eq!(resume_token(bad), None, "{bad:?}");
    }
}

#[test]
fn a_message_stream_offers_only_usable_ids_for_resuming() {
    use mcp_elicit::driver::http::MessageStream;
    let mut m = MessageStream::new();
    m.feed(b"id: 3\ndata: {}\n\n").unwrap();
    assert_eq!(m.last_event_id(), Some("3"));
    m.feed("id: caf\u{e9}\ndata: {}\n\n".as_bytes()).unwrap();
    assert_eq!(m.last_event_id(), None);
    m.feed(b"id: 4\ndata: {}\n\nid\ndata: {}\n\n").unwrap();
    assert_eq!(m.last_event_id(), None);
}

#[test]
fn header_values_are_what_fetch_sends_unchanged() {
    use mcp_elicit::driver::http::is_header_value;
    for good in [
        "",
        "application/json",
        "a b",
        "caf\u{e9}",
        "\u{FF}",
        "=?base64?YQ==?=",
        "a\tb",
        "\u{1}",
    ] {
        assert!(is_header_value(good), "{good:?}");
    }
    for bad in [
        "\u{100}", // not a ByteString: fetch throws TypeError
        "\u{1F600}",
        "a\rb", // not a header value: fetch throws TypeError
        "a\nb",
        "a\0b",
        " a", // fetch strips it: the value sent is not this one
        "a ",
        "\ta",
        "a\t",
        "\r",
        " ",
    ] {
        assert!(!is_header_value(bad), "{bad:?}");
    }
}

#[test]
fn an_event_without_data_is_not_dispatched() {
    // The SDK's priming event: an id and empty data line carry no message.
    let events = decode_all(&[b"id: 1\n\nevent: x\n\n"]).unwrap();
    assert!(events.is_empty());
    let events = decode_all(&[b"data\n\n"]).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].data, "");
}

#[test]
fn cr_lf_and_crlf_line_ends_are_equivalent() {
    let lf = decode_all(&[b"data: a\ndata: b\n\n"]).unwrap();
    let cr = decode_all(&[b"data: a\rdata: b\r\r"]).unwrap();
    let crlf = decode_all(&[b"data: a\r\ndata: b\r\n\r\n"]).unwrap();
    assert_eq!(lf, cr);
    assert_eq!(lf, crlf);
    assert_eq!(lf[0].data, "a\nb");
}

#[test]
fn crlf_split_between_cr_and_lf_is_one_line_end() {
    let events = decode_all(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].data, "a\nb");
}

#[test]
fn multibyte_character_split_across_chunks() {
    let text = "data: caf\u{e9} \u{1F600}\n\n".as_bytes();
    for i in 0..text.len() {
        let (a, b) = text.split_at(i);
        let events = decode_all(&[a, b]).unwrap();
        assert_eq!(events[0].data, "caf\u{e9} \u{1F600}", "split at {i}");
    }
}

#[test]
fn leading_bom_is_skipped() {
    let events = decode_all(&[b"\xEF\xBB", b"\xBFdata: x\n\n"]).unwrap();
    assert_eq!(events[0].data, "x");
}

#[test]
fn invalid_retry_is_ignored() {
    let events = decode_all(&[b"retry: 1s\ndata: x\n\n"]).unwrap();
    assert_eq!(events[0].retry, None);
}

#[test]
fn a_line_without_end_is_refused_past_the_limit() {
    let mut d = SseDecoder::with_limit(64);
    assert!(d.feed(&[b'a'; 40]).unwrap().is_empty());
    let err = d.feed(&[b'a'; 40]).unwrap_err();
    assert_eq!(err, SseError::TooLong { limit: 64 });
    assert!(err.to_string().contains("longer than 64 bytes"));
    // Once failed, it stays failed rather than resyncing mid-line.
    assert!(d.feed(b"\n\n").is_err());
}

#[test]
fn an_event_whose_data_lines_add_up_past_the_limit_is_refused() {
    let mut d = SseDecoder::with_limit(16);
    let err = d.feed(b"data: 0123456789\ndata: 0123456789\n").unwrap_err();
    assert_eq!(err, SseError::TooLong { limit: 16 });
}

#[test]
fn finish_reports_a_cut_stream() {
    let mut d = SseDecoder::new();
    d.feed(b"data: x\n").unwrap();
    assert_eq!(d.finish(), Err(SseError::Truncated));
    let mut d = SseDecoder::new();
    d.feed(b"data: x\n\n").unwrap();
    assert_eq!(d.finish(), Ok(()));
}

#[test]
fn real_sdk_stream() {
    let body = concat!(
        "event: message\r\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":{}}\r\n",
        "\r\n",
        ": ping - 2025-01-01\r\n\r\n",
        "event: message\r\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n",
        "\r\n"
    );
    let events = decode_all(&[body.as_bytes()]).unwrap();
    assert_eq!(events.len(), 2);
    assert!(events[1].data.contains("\"result\""));
}

/// Property tests (proptest is a native-only dev-dependency).
#[cfg(not(target_arch = "wasm32"))]
mod split_properties {
    use super::decode_all;
    use mcp_elicit::sse::SseDecoder;
    use proptest::prelude::*;

    proptest! {
        /// A resume token is always a header value `fetch` sends unchanged.
        #[test]
        fn resume_tokens_are_header_values(id in "\\PC{0,8}|[ -~\t\u{80}-\u{FF}]{0,8}") {
            if let Some(token) = mcp_elicit::sse::resume_token(&id) {
                prop_assert!(mcp_elicit::driver::http::is_header_value(token));
                prop_assert_eq!(token, id.as_str());
            }
        }
    }

    fn line_strategy() -> impl Strategy<Value = String> {
        prop_oneof![
            "data: [a-z\u{e9}\u{1F600} :]{0,12}".prop_map(|s| s),
            "event: [a-z]{1,6}".prop_map(|s| s),
            "id: [0-9a-z]{0,4}".prop_map(|s| s),
            "retry: [0-9]{1,4}".prop_map(|s| s),
            ": [a-z ]{0,8}".prop_map(|s| s),
            Just(String::new()),
        ]
    }

    fn stream_strategy() -> impl Strategy<Value = Vec<u8>> {
        (
            proptest::collection::vec(line_strategy(), 0..24),
            proptest::collection::vec(0usize..3, 24),
        )
            .prop_map(|(lines, ends)| {
                let mut out = Vec::new();
                for (i, line) in lines.iter().enumerate() {
                    out.extend_from_slice(line.as_bytes());
                    let end: &[u8] = match ends.get(i).copied().unwrap_or(0) {
                        0 => b"\n",
                        1 => b"\r",
                        _ => b"\r\n",
                    };
                    out.extend_from_slice(end);
                }
                out
            })
    }

    proptest! {
        #[test]
        fn any_split_decodes_the_same(stream in stream_strategy(), cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8)) {
            let whole = decode_all(&[&stream]).unwrap();
            let mut points: Vec<usize> = cuts.iter().map(|c| c.index(stream.len() + 1)).collect();
            points.sort_unstable();
            let mut chunks: Vec<&[u8]> = Vec::new();
            let mut start = 0;
            for p in points {
                chunks.push(&stream[start..p]);
                start = p;
            }
            chunks.push(&stream[start..]);
            prop_assert_eq!(decode_all(&chunks).unwrap(), whole);
        }

        #[test]
        fn byte_at_a_time_decodes_the_same(stream in stream_strategy()) {
            let whole = decode_all(&[&stream]).unwrap();
            let singles: Vec<&[u8]> = stream.chunks(1).collect();
            prop_assert_eq!(decode_all(&singles).unwrap(), whole);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256), cut in any::<prop::sample::Index>()) {
            let mut d = SseDecoder::with_limit(128);
            let (a, b) = bytes.split_at(cut.index(bytes.len() + 1));
            let _ = d.feed(a);
            let _ = d.feed(b);
            let _ = d.finish();
        }
    }
}

/// Bytes of id text the events hold, each shared buffer counted once: what the
/// returned events cost in ids, whatever the stream repeated.
fn id_bytes_held(events: &[SseEvent]) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    events
        .iter()
        .filter_map(|e| e.id.as_deref())
        .filter(|id| seen.insert(id.as_ptr() as usize))
        .map(str::len)
        .sum()
}

/// Issue 9 finding 1: every event used to own a copy of the last id, so a long id
/// followed by many small events multiplied the id by the event count.
#[test]
fn events_share_the_last_id_instead_of_each_copying_it() {
    let id = "x".repeat(1000);
    let mut stream = format!("id: {id}\n").into_bytes();
    for _ in 0..20_000 {
        stream.extend_from_slice(b"data\n\n");
    }
    let mut d = SseDecoder::new();
    let events = d.feed(&stream).unwrap();
    assert_eq!(events.len(), 20_000);
    assert!(events.iter().all(|e| e.id.as_deref() == Some(id.as_str())));
    assert_eq!(id_bytes_held(&events), 1000);
}

/// Issue 9 finding 1: a 4 MiB `id:` line and 20,000 empty events before the result.
/// An id that long can never be sent back as `Last-Event-ID`, so it is not kept at all,
/// and the result still arrives. Fed in small chunks, as a network body arrives.
#[test]
fn a_4_mib_id_before_20000_events_is_not_kept_and_the_result_arrives() {
    use mcp_elicit::driver::http::MessageStream;
    use mcp_elicit::sse::MAX_EVENT_ID_LEN;
    let mut stream = format!("id: {}\n", "7".repeat(4 << 20)).into_bytes();
    for _ in 0..20_000 {
        stream.extend_from_slice(b"data\n\n");
    }
    stream.extend_from_slice(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n");

    let mut d = SseDecoder::new();
    let mut count = 0;
    for chunk in stream.chunks(600) {
        let events = d.feed(chunk).unwrap();
        assert!(id_bytes_held(&events) <= MAX_EVENT_ID_LEN);
        count += events.len();
    }
    assert_eq!(count, 20_001);
    assert_eq!(d.last_event_id(), None);

    let mut m = MessageStream::new();
    let mut messages = Vec::new();
    for chunk in stream.chunks(64 * 1024) {
        messages.extend(m.feed(chunk).unwrap());
    }
    messages.extend(m.finish().unwrap());
    assert_eq!(messages.len(), 1);
    assert!(messages[0].contains("\"result\""));
    assert_eq!(m.last_event_id(), None);
}

/// The longest id kept is [`mcp_elicit::sse::MAX_EVENT_ID_LEN`] bytes; one byte more
/// is "no usable id" (a reconnection then sends no `Last-Event-ID`), like any other id
/// that is not a resume token.
#[test]
fn ids_up_to_the_cap_are_kept_and_longer_ones_reset_the_id() {
    use mcp_elicit::sse::{resume_token, MAX_EVENT_ID_LEN};
    let longest = "a".repeat(MAX_EVENT_ID_LEN);
    let too_long = "a".repeat(MAX_EVENT_ID_LEN + 1);
    assert_eq!(resume_token(&longest), Some(longest.as_str()));
    assert_eq!(resume_token(&too_long), None);
    let mut d = SseDecoder::new();
    let events = d
        .feed(format!("id: {longest}\ndata: a\n\nid: {too_long}\ndata: b\n\n").as_bytes())
        .unwrap();
    assert_eq!(events[0].id.as_deref(), Some(longest.as_str()));
    assert_eq!(events[1].id, None);
    assert_eq!(d.last_event_id(), None);
    // An id `fetch` would refuse or alter is not kept either.
    d.feed("id: 1\n\nid: caf\u{e9}\n\n".as_bytes()).unwrap();
    assert_eq!(d.last_event_id(), None);
}

/// A whole body of tiny events costs memory in proportion to its messages, not to
/// every event the decoder saw: events without a message are dropped as they come.
#[test]
fn a_body_of_empty_events_yields_no_messages() {
    use mcp_elicit::driver::http::messages_from_body;
    let body = b"data\n\n".repeat(100_000);
    let out = messages_from_body(Some("text/event-stream"), &body).unwrap();
    assert!(out.is_empty());
}
