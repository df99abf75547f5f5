//! The catalogs against English and against the code: the test the issue asks for fails
//! when a catalog lacks a key or has one English has not, when a placeholder differs from
//! English's, or when English has a key no code uses.

use super::*;
use std::path::Path;

/// The base key of a `.one` form.
fn base(key: &str) -> &str {
    key.strip_suffix(".one").unwrap_or(key)
}

#[test]
fn english_compiled_in_reads_as_its_file() {
    // Comments and the spaces around `=` left out of the wasm change nothing parse reads.
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/i18n/catalogs/en.txt"),
    )
    .unwrap_or_default();
    // The cards' English and a connection's, compiled apart, are the file's lines.
    let mut compiled = parse(ENGLISH);
    compiled.extend(parse(CONNECTION_ENGLISH));
    let mut read = parse(&file);
    compiled.sort_unstable();
    read.sort_unstable();
    assert_eq!(compiled, read);
    for text in [ENGLISH, CONNECTION_ENGLISH] {
        assert!(text.len() < file.len() && !text.lines().any(|l| l.starts_with('#')));
    }
    assert!(ENGLISH.contains("list.separator=\", \"\n"), "{ENGLISH}");
    // Each part holds its own keys only.
    let connection = |key: &str| CONNECTION_PREFIXES.iter().any(|p| key.starts_with(p));
    assert!(parse(ENGLISH).iter().all(|(k, _)| !connection(k)));
    assert!(parse(CONNECTION_ENGLISH).iter().all(|(k, _)| connection(k)));
    assert!(parse(CONNECTION_ENGLISH).len() > 80);
}

#[test]
fn catalogs_match_english() {
    let en = parse(ENGLISH);
    assert!(
        en.len() > 50,
        "the English catalog reads as {} keys",
        en.len()
    );
    let problems = mismatches(&catalog_texts());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The library's catalogs, English first, read from their files (the others are not
/// compiled in: they are loaded on demand).
/// English's text is its file and the core's English for a schema's and a link's refusals.
fn catalog_texts_owned() -> Vec<(&'static str, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/i18n/catalogs");
    locales()
        .map(|tag| {
            let mut text =
                std::fs::read_to_string(dir.join(format!("{tag}.txt"))).unwrap_or_default();
            if tag == "en" {
                text.push_str(&core_english());
            }
            (tag, text)
        })
        .collect()
}

/// The core's English for a schema's and a link's refusals (`schema.…`, `url_refusal.…`),
/// as catalog lines.
fn core_english() -> String {
    use mcp_elicit::schema::{Found, Holds, Refusal};
    use mcp_elicit::url_policy::UrlRefused;
    let refusals = Refusal::ALL.iter().map(|r| (r.key(), r.english()));
    let found = Found::ALL.iter().map(|k| (k.key(), k.english()));
    let holds = Holds::ALL.iter().map(|h| (h.key(), h.english()));
    let links = UrlRefused::ALL.iter().map(|r| (r.key(), r.english()));
    let mut out = String::from("\n");
    for (key, template) in refusals.chain(found).chain(holds).chain(links) {
        out.push_str(&format!("{key} = {template}\n"));
    }
    out
}

#[test]
#[ignore = "prints the core's English block for translators"]
fn print_core_english() {
    print!("{}", core_english());
}

fn catalog_texts() -> Vec<(&'static str, &'static str)> {
    catalog_texts_owned()
        .into_iter()
        .map(|(t, s)| (t, &*Box::leak(s.into_boxed_str())))
        .collect()
}

/// The messages of `tag` with its catalog loaded (as a page loads it: the file's text).
fn loaded(tag: &str) -> Messages {
    let want = negotiate([tag]);
    let text = catalog_texts_owned()
        .into_iter()
        .find(|(t, _)| *t == want)
        .map(|(_, s)| s)
        .unwrap_or_default();
    if want != "en" {
        assert_eq!(register(want, &text), Ok(()));
    }
    Messages::new(tag)
}

#[test]
fn a_catalog_not_loaded_leaves_english_until_it_is() {
    // The catalogs beyond English are not compiled in: English (lang and all) until one is
    // loaded, then its own words; the host's overrides are kept across.
    let m = Messages::new("ja")
        .with_overrides([("button.submit".to_owned(), "Go".to_owned())])
        .unwrap_or_default();
    assert_eq!((m.lang(), m.wanted(), m.dir()), ("en", "ja", "ltr"));
    assert_eq!(m.t("button.decline", &[]), "Decline");
    let ja = loaded("ja");
    assert_eq!(ja.lang(), "ja");
    assert_ne!(ja.t("button.decline", &[]), "Decline");
    let again = futures::executor::block_on(m.loaded());
    assert_eq!(again.lang(), "ja");
    assert_eq!(again.t("button.submit", &[]), "Go");
    assert_eq!(again.t("button.decline", &[]), ja.t("button.decline", &[]));
    // Texts given worded (sign-in's wasm): the language's lang and dir without its catalog.
    let given = Messages::new("ar").given([("button.submit".to_owned(), "إرسال".to_owned())]);
    assert_eq!((given.lang(), given.dir()), ("ar", "rtl"));
    assert_eq!(given.t("button.submit", &[]), "إرسال");
    // Only the known languages, each at most MAX_CATALOG_BYTES.
    assert!(register("xx", "a = b").is_err());
    assert!(register("en", "button.submit = x").is_err());
    assert!(register("fr", &"#".repeat(MAX_CATALOG_BYTES + 1)).is_err());
}

/// The demo page's own catalogs (www/demo/src/catalogs, kept out of the library's wasm),
/// held to the same rules: each has English's keys, with English's placeholders.
fn demo_catalogs() -> Vec<(&'static str, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/demo/src/catalogs");
    locales()
        .map(|tag| {
            let text = std::fs::read_to_string(dir.join(format!("{tag}.txt")));
            (tag, text.unwrap_or_default())
        })
        .collect()
}

#[test]
fn demo_catalogs_match_english() {
    let demo = demo_catalogs();
    let as_str: Vec<(&str, &str)> = demo.iter().map(|(t, s)| (*t, s.as_str())).collect();
    let en = parse(as_str[0].1);
    assert!(
        en.len() > 20,
        "the demo's English reads as {} keys",
        en.len()
    );
    let problems = mismatches(&as_str);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What differs from English (the first catalog) in the others: keys lacked or extra,
/// placeholders.
fn mismatches(catalogs: &[(&str, &str)]) -> Vec<String> {
    let en = parse(catalogs.first().map_or("", |c| c.1));
    let mut problems = Vec::new();
    for (tag, text) in catalogs {
        let cat = parse(text);
        for (key, english) in &en {
            // A `.one` form is the language's own business; every other key is required.
            if key.ends_with(".one") {
                continue;
            }
            match find(&cat, key) {
                None => problems.push(format!("{tag} lacks {key}")),
                Some(t) if !same_placeholders(t, english) => problems.push(format!(
                    "{tag}: {key} has placeholders {:?}, English {:?}",
                    placeholders(t),
                    placeholders(english)
                )),
                Some(_) => {}
            }
        }
        for (key, t) in &cat {
            match find(&en, base(key)) {
                None => problems.push(format!("{tag} has {key}, which English has not")),
                Some(english) if !same_placeholders(t, english) => problems.push(format!(
                    "{tag}: {key} has placeholders {:?}",
                    placeholders(t)
                )),
                Some(_) => {}
            }
        }
    }
    problems
}

fn sources(dir: &Path, out: &mut String) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("i18n/tests.rs") {
            out.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
}

#[test]
fn every_english_key_is_used_by_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    sources(&root.join("src"), &mut code);
    sources(&root.join("../www/demo/src"), &mut code);
    assert!(code.contains("fn field_error"), "the sources were read");
    let demo = demo_catalogs();
    let demo_en = demo.first().map_or("", |c| c.1.as_str());
    let unused: Vec<&str> = parse(ENGLISH)
        .into_iter()
        .chain(parse(CONNECTION_ENGLISH))
        .chain(parse(demo_en))
        .map(|(k, _)| base(k))
        .filter(|k| !code.contains(&format!("\"{k}\"")))
        .collect();
    assert!(unused.is_empty(), "keys no code uses: {unused:?}");
}

#[test]
fn the_person_s_languages_choose_the_catalog() {
    assert_eq!(negotiate(["fr-CA", "en"]), "fr");
    assert_eq!(negotiate(["zh-cn"]), "zh-CN");
    assert_eq!(negotiate(["zh-Hans-SG"]), "zh-CN");
    assert_eq!(negotiate(["zh-TW", "ja-JP"]), "ja");
    assert_eq!(negotiate(["sv", "de-AT"]), "de");
    assert_eq!(negotiate(["sv", "pt"]), "en");
    assert_eq!(negotiate([]), "en");
    assert_eq!(direction(negotiate(["ar-EG"])), "rtl");
    assert_eq!(loaded("ar").dir(), "rtl");
    assert_eq!(loaded("ar").lang(), "ar");
    assert_eq!(loaded("es-419").dir(), "ltr");
}

#[test]
fn templates_fill_and_cut_at_placeholders() {
    let m = Messages::default();
    assert_eq!(
        m.t(
            "card.asked_by",
            &[("server", "Weather"), ("host", "a.example")]
        ),
        "Asked by Weather at a.example"
    );
    assert_eq!(
        m.count("error.min_length", 1, &[]),
        "Must be at least 1 character."
    );
    assert_eq!(
        m.count("error.min_length", 3, &[]),
        "Must be at least 3 characters."
    );
    assert_eq!(
        m.pieces("card.asked_by"),
        vec![
            Piece::Text("Asked by ".into()),
            Piece::Slot("server".into()),
            Piece::Text(" at ".into()),
            Piece::Slot("host".into()),
        ]
    );
    // A placeholder without data, or a brace never closed, is kept as written.
    assert_eq!(fill("a {x} b {", &[]), "a {x} b {");
    assert_eq!(fill("a {x} {y} {z", &[("x", "1")]), "a 1 {y} {z");
    assert_eq!(fill("{x}{x}", &[("x", "1")]), "11");
    assert_eq!(
        super::pieces("{a}b{c"),
        vec![Piece::Slot("a".into()), Piece::Text("b{c".into())]
    );
    assert_eq!(placeholders("{a} {b} {a} {"), vec!["a", "b"]);
}

#[test]
fn a_host_overrides_a_message_with_the_same_placeholders() {
    let m = loaded("de");
    let Ok(o) = m.with_overrides([("button.submit".to_owned(), "Senden!".to_owned())]) else {
        panic!("a known key with no placeholders is taken");
    };
    assert_eq!(o.t("button.submit", &[]), "Senden!");
    assert_eq!(o.lang(), "de");
    let wrong = m.with_overrides([("card.asked_by".to_owned(), "By {who}".to_owned())]);
    assert!(
        matches!(&wrong, Err(e) if e.contains("{server}, {host}")),
        "{wrong:?}"
    );
    let unknown = m.with_overrides([("nope".to_owned(), "x".to_owned())]);
    assert!(
        matches!(&unknown, Err(e) if e.contains("not a message key")),
        "{unknown:?}"
    );
}

#[test]
fn the_connection_s_own_words_are_in_its_language() {
    use crate::client::task_texts;
    use crate::client::ClientError;
    let de = loaded("de");
    assert_eq!(
        task_texts::task_stopped(&de),
        "Der Aufruf wurde angehalten; seine Aufgabe wurde abgebrochen."
    );
    assert_eq!(
        task_texts::task_cancelled(&de, Some("zu spät")),
        "Der Server hat die Aufgabe des Aufrufs abgebrochen: zu spät"
    );
    assert_eq!(
        ClientError::SignIn("invalid_grant".into()).words(&de),
        "Die Anmeldung hat nicht geklappt: invalid_grant"
    );
    assert_eq!(
        ClientError::NotConnected.words(&de),
        "Nicht mit einem Server verbunden."
    );
    // English's words are the ones the errors always had.
    let en = Messages::default();
    for e in [
        ClientError::TooManyRounds { max_rounds: 8 },
        ClientError::SignIn("x".into()),
        ClientError::UnknownElicitation("r".into()),
        ClientError::NotConnected,
        ClientError::Sampling("no".into()),
        ClientError::RequestLost,
    ] {
        assert_eq!(e.words(&en), e.to_string());
    }
    use crate::transport::TransportError;
    let url = || "https://mcp.example/mcp".to_owned();
    for t in [
        TransportError::Unreachable { url: url() },
        TransportError::BlockedByCors {
            url: url(),
            origin: "https://app.example".into(),
        },
        TransportError::Dropped {
            url: url(),
            detail: "reset".into(),
        },
        TransportError::Malformed {
            detail: "not JSON".into(),
        },
        TransportError::Aborted,
        TransportError::TimedOut {
            url: url(),
            after_ms: 30_000,
        },
        TransportError::Redirected { url: url() },
        TransportError::HostFetch {
            url: url(),
            detail: "boom".into(),
        },
        TransportError::Unsendable {
            detail: "bad header".into(),
        },
    ] {
        assert_eq!(t.words(&en), t.to_string());
        assert_ne!(t.words(&de), t.to_string());
        assert_eq!(ClientError::Transport(t.clone()).words(&de), t.words(&de));
    }
    assert_eq!(
        task_texts::card_task_cancelled(&en),
        "the server cancelled this question's task, so it no longer needs this answer."
    );
}

#[test]
fn a_legacy_session_s_notices_are_in_its_language() {
    use crate::client::notice_texts as n;
    let en = Messages::default();
    // English's words are the ones the notices always had.
    assert_eq!(
        n::urls_left_out(&en, 70, 64, 6),
        "The server named 70 links to open before the call can go on; only the first 64 \
         are shown (6 left out)."
    );
    assert_eq!(
        n::unusable_message(&en, "not JSON."),
        "The server sent a message this client could not use: not JSON."
    );
    assert_eq!(
        n::duplicate_id(&en, "\"7\""),
        "The server asked again under the id \"7\" while its earlier request with that id \
         is still waiting; the second request was ignored."
    );
    assert_eq!(
        n::sampling_busy(&en, 4),
        "A sampling request of the server was refused: This client is already answering 4 \
         sampling requests, the most it runs at once; ask again when one is answered."
    );
    assert_eq!(
        n::flood(&en),
        "The server is sending requests faster than it takes the answers; some automatic \
         answers (e.g. to pings) were not sent."
    );
    assert_eq!(
        n::answer_not_sent(&en, "Lost."),
        "Lost. Submit keeps it for the next time the call is made."
    );
    assert_eq!(
        n::resend_failed(&en, "Nope."),
        "The call was made again, but resending your answer failed: Nope. Submit sends it again."
    );
    assert_eq!(
        n::tools_left_out(&en, "a (bad)"),
        "Left out tools whose x-mcp-header annotations are invalid: a (bad)."
    );
    assert_eq!(
        n::answer_dropped(&en),
        "Too many answers were waiting for their calls to be made again; this one was \
         dropped. Submit keeps it again."
    );
    // In Chinese and Arabic: their own words, the data kept.
    for tag in ["zh-CN", "ar"] {
        let m = loaded(tag);
        let all = [
            (
                n::urls_left_out(&m, 70, 64, 6),
                n::urls_left_out(&en, 70, 64, 6),
            ),
            (
                n::unusable_message(&m, "X1"),
                n::unusable_message(&en, "X1"),
            ),
            (n::duplicate_id(&m, "\"7\""), n::duplicate_id(&en, "\"7\"")),
            (n::sampling_busy(&m, 4), n::sampling_busy(&en, 4)),
            (n::flood(&m), n::flood(&en)),
            (n::answer_not_sent(&m, "X2"), n::answer_not_sent(&en, "X2")),
            (n::resend_failed(&m, "X3"), n::resend_failed(&en, "X3")),
            (n::answer_dropped(&m), n::answer_dropped(&en)),
            (n::tools_left_out(&m, "X4"), n::tools_left_out(&en, "X4")),
        ];
        for (theirs, english) in all {
            assert_ne!(theirs, english, "{tag}: still English");
        }
        assert!(n::urls_left_out(&m, 70, 64, 6).contains("64"));
        assert!(n::duplicate_id(&m, "\"7\"").contains("\"7\""));
        assert!(n::resend_failed(&m, "X3").contains("X3"));
    }
}

#[test]
fn the_protocol_s_errors_are_in_the_connection_s_language() {
    use crate::client::ClientError;
    use mcp_elicit::driver::era::NotModern;
    use mcp_elicit::driver::DriverError;
    use mcp_elicit::sse::SseError;
    use mcp_elicit::wire::{codes, ErrorObject};
    let en = Messages::default();
    let url = |id: &str| {
        serde_json::from_value(serde_json::json!({
            "mode": "url", "elicitationId": id, "url": "https://a.example/", "message": "m"
        }))
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let required = |pages: Vec<_>, unusable, message: &str| DriverError::UrlElicitationRequired {
        message: message.into(),
        elicitations: pages,
        unusable,
    };
    let errors = [
        DriverError::Rpc(ErrorObject {
            code: -32000,
            message: "boom".into(),
            data: None,
        }),
        DriverError::MissingCapability {
            message: "need it".into(),
            required: serde_json::json!({"elicitation": {"form": {}}, "roots": {}}),
        },
        DriverError::MissingCapability {
            message: "need it".into(),
            required: serde_json::Value::Null,
        },
        DriverError::UnsupportedVersion {
            message: "old".into(),
            supported: vec!["2025-06-18".into(), "2025-11-25".into()],
        },
        DriverError::UnsupportedVersion {
            message: "old".into(),
            supported: vec![],
        },
        DriverError::HeaderMismatch {
            message: "Mcp-Method".into(),
        },
        required(vec![], 0, "MCP error -32042: Open it"),
        required(vec![], 2, ""),
        required(vec![url("a")], 0, "Go!"),
        required(vec![url("a"), url("b")], 0, "Go"),
        required(vec![url("a")], 3, "Go"),
        required(vec![url("a"), url("b")], 1, "Go"),
        DriverError::SamplingRefused { key: "7".into() },
        DriverError::UnsupportedInput {
            key: "7".into(),
            method: "roots/list".into(),
        },
        DriverError::Http {
            status: 401,
            body: String::new(),
        },
        DriverError::Http {
            status: 403,
            body: "no".into(),
        },
        DriverError::Http {
            status: 500,
            body: String::new(),
        },
        DriverError::Http {
            status: 502,
            body: "Bad Gateway".into(),
        },
        DriverError::SessionExpired,
        DriverError::NoResponse,
        DriverError::Usage("out of order".into()),
    ];
    // What the core could not read or use: every kind of wire error, as the core makes
    // them, and both of the event stream's errors.
    let errors = errors.into_iter().chain(wire_errors());
    let not_modern = |handshake: Option<&str>| NotModern {
        answer: mcp_elicit::driver::era::ProbeAnswer::Status(400),
        handshake: handshake.map(Into::into),
    };
    // English's words are the ones the errors always had: the core's Display, and the
    // modern-only refusal's old text.
    let mut all: Vec<(ClientError, String)> = errors
        .into_iter()
        .map(|e| {
            let english = e.to_string();
            (ClientError::Driver(e), english)
        })
        .collect();
    all.push((
        ClientError::NotModern(not_modern(Some("2025-11-25"))),
        "This server speaks MCP 2025-11-25, not 2026-07-28, and this connection allows \
         2026-07-28 only. Connect with Auto (protocol \"auto\"), which falls back to \
         2025-11-25. (To the 2026-07-28 request, the server answered server/discover with \
         HTTP status 400.)"
            .into(),
    ));
    all.push((
        ClientError::NotModern(not_modern(None)),
        "This server did not answer as an MCP 2026-07-28 server does, and this connection \
         allows 2026-07-28 only. Connect with Auto (protocol \"auto\") to try the older \
         handshake as well. (the server answered server/discover with HTTP status 400.)"
            .into(),
    ));
    for (e, english) in &all {
        assert_eq!(&e.words(&en), english);
        assert_eq!(&e.to_string(), english);
    }
    for tag in ["zh-CN", "ar"] {
        let m = loaded(tag);
        for (e, english) in &all {
            assert_ne!(&e.words(&m), english, "{tag}: still English");
        }
    }
    let zh = loaded("zh-CN");
    let page = ClientError::Driver(required(vec![url("a")], 3, "Go")).words(&zh);
    assert!(
        page.contains('1') && page.contains('3') && page.contains("Go."),
        "{page}"
    );
    assert_eq!(codes::URL_ELICITATION_REQUIRED, -32042);
    // The stream's errors are words of their own; the core's English detail is quoted
    // inside the person's language.
    let cut = ClientError::Driver(DriverError::Sse(SseError::Truncated)).words(&zh);
    assert_eq!(cut, "服务器的事件流在一个事件的中途结束了。");
    let html = wire_errors().next().map(ClientError::Driver);
    let html = html.map(|e| e.words(&zh)).unwrap_or_default();
    assert_eq!(
        html,
        "服务器发送了此客户端无法读取的内容：the server sent a message that is not \
         JSON-RPC: expected value at line 1 column 1。"
    );
}

#[test]
fn a_task_answer_the_core_refuses_is_in_the_connection_s_language() {
    use crate::client::task_texts::task_answer;
    use mcp_elicit::driver::modern::ModernConfig;
    use mcp_elicit::driver::task_ext::ExtTask;
    use mcp_elicit::driver::tool_tasks::ToolTask;
    use serde_json::json;
    let task = |status: &str| json!({"taskId": "t-1", "status": status});
    let refused = |r: Result<ToolTask, String>| r.err().unwrap_or_default();
    let mut working = ToolTask::from_task(&task("working")).unwrap_or_else(|e| panic!("{e}"));
    let mut ext = ExtTask::new(&task("working"), &ModernConfig::default());
    let ext = ext.as_mut().unwrap_or_else(|e| panic!("{e}"));
    // The core's refusals, each as it makes it.
    let whys = [
        refused(ToolTask::from_task(&json!({"status": "working"}))),
        refused(ToolTask::from_task(&json!({"taskId": "t-1"}))),
        working
            .on_task(&json!({"status": "working"}))
            .err()
            .unwrap_or_default(),
        working.on_task(&task("paused")).err().unwrap_or_default(),
        working
            .on_task(&json!({"taskId": "t-2", "status": "working"}))
            .err()
            .unwrap_or_default(),
        ext.on_task(&task("completed")).err().unwrap_or_default(),
    ];
    let en = Messages::default();
    for tag in ["de", "ja"] {
        let m = loaded(tag);
        for why in &whys {
            assert!(why.starts_with("The server"), "{why:?}");
            // English's words are the refusal's old text; another language says what
            // happened and quotes it.
            assert_eq!(&task_answer(&en, why), why);
            let said = task_answer(&m, why);
            assert!(
                said.ends_with(why.as_str()) && said.len() > why.len() + 10,
                "{said}"
            );
        }
    }
    assert_eq!(
        task_answer(&loaded("fr"), "The server's task has no status."),
        "La réponse du serveur au sujet de la tâche de l’appel est inutilisable : The \
         server's task has no status."
    );
}

/// One error of each kind the core says it could not read or use, the first three as its
/// own code makes them (a `WireKind` each), then the event stream's two errors.
fn wire_errors() -> impl Iterator<Item = mcp_elicit::driver::DriverError> {
    use mcp_elicit::driver::DriverError;
    use mcp_elicit::sse::SseError;
    use mcp_elicit::wire::{from_raw, parse_message, CallToolResult, ModernResult};
    use mcp_elicit::wire::{WireError, WireKind};
    let raw = |s: &str| serde_json::value::RawValue::from_string(s.into()).ok();
    let made = |r: Option<WireError>| r.unwrap_or_else(|| panic!("no error"));
    let unreadable = made(parse_message("<html>").err());
    let malformed = made(
        raw(r#"{"content":3}"#).and_then(|r| from_raw::<CallToolResult>(&r, "tool result").err()),
    );
    let unexpected =
        made(raw(r#"{"resultType":"later"}"#).and_then(|r| ModernResult::classify(r).err()));
    assert_eq!(
        [&unreadable, &malformed, &unexpected].map(|e| e.kind),
        [
            WireKind::Unreadable,
            WireKind::Malformed,
            WireKind::Unexpected
        ]
    );
    let mut of_kinds = vec![unreadable, malformed, unexpected.clone()];
    for kind in [WireKind::TooLarge, WireKind::TaskFailed, WireKind::Internal] {
        of_kinds.push(WireError::of(kind, format!("{kind:?}")));
    }
    of_kinds.into_iter().map(DriverError::Wire).chain([
        DriverError::BadResult(unexpected),
        DriverError::Sse(SseError::TooLong { limit: 16_777_216 }),
        DriverError::Sse(SseError::Truncated),
    ])
}

#[test]
fn english_words_are_the_errors_old_texts() {
    // The client's and the transport's Display are English's catalog words: pinned here
    // to the texts they always had.
    use crate::client::ClientError;
    use crate::transport::TransportError;
    let url = "https://mcp.example/mcp".to_owned();
    let cases: Vec<(String, &str)> = vec![
        (
            TransportError::Unreachable { url: url.clone() }.to_string(),
            "Cannot reach the server at https://mcp.example/mcp: nothing answered. Is it \
             running, and is the address right?",
        ),
        (
            TransportError::TimedOut {
                url: url.clone(),
                after_ms: 30_000,
            }
            .to_string(),
            "The server at https://mcp.example/mcp did not answer within 30 seconds, so the \
             request was given up.",
        ),
        (
            TransportError::Malformed {
                detail: "not JSON".into(),
            }
            .to_string(),
            "The server sent something this client cannot understand: not JSON.",
        ),
        (
            ClientError::TooManyRounds { max_rounds: 8 }.to_string(),
            "The server kept asking for more input: stopped after 8 rounds, the most this \
             client allows for one call.",
        ),
        (
            ClientError::Transport(TransportError::Aborted).to_string(),
            "The request was cancelled.",
        ),
        (
            ClientError::Refused("Not followed.".into()).to_string(),
            "Not followed.",
        ),
        (
            ClientError::Driver(mcp_elicit::driver::DriverError::NoResponse).to_string(),
            "The server closed the response without answering the request.",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
    // What the core could not read or use: English's words are the core's sentences.
    let en = Messages::default();
    let said: Vec<String> = wire_errors()
        .map(|e| ClientError::Driver(e).words(&en))
        .collect();
    let old = [
        "the server sent a message that is not JSON-RPC: expected value at line 1 column 1.",
        "the server's tool result is malformed: invalid type: integer `3`, expected a \
         sequence at line 1 column 12.",
        "the server answered with result type \"later\", which this client does not know.",
        "TooLarge.",
        "TaskFailed.",
        "Internal.",
        "the server answered with result type \"later\", which this client does not know.",
        "the server's event stream sent a line or event longer than 16777216 bytes; stopped \
         reading it.",
        "the server's event stream ended in the middle of an event.",
    ];
    assert_eq!(said, old);
    let why = "The server's task has no status.";
    assert_eq!(crate::client::task_texts::task_answer(&en, why), why);
}

/// The refusal of a one-field schema whose field is `field`.
fn refusal_of(field: serde_json::Value) -> mcp_elicit::schema::SchemaError {
    let schema = serde_json::json!({"type": "object", "properties": {"Größe": field}});
    match mcp_elicit::schema::compile(&schema) {
        Err(e) => e,
        Ok(_) => panic!("{schema} was accepted"),
    }
}

#[test]
fn a_schema_s_refusal_is_worded_in_the_person_s_language() {
    use mcp_elicit::schema::MAX_ENUM_OPTIONS;
    let many: Vec<String> = (0..=MAX_ENUM_OPTIONS).map(|i| format!("c{i}")).collect();
    let too_many = refusal_of(serde_json::json!({"type": "string", "enum": many}));
    let default = refusal_of(serde_json::json!({"type": "integer", "default": 1.5}));
    // The field's name is server text: as it came. Counts are written as the locale does;
    // the JSON type found and what the field holds are words of the language.
    // (Natively a number is written plainly; in a browser, by `Intl`: 50.001 in German.)
    let de = loaded("de");
    assert_eq!(
        de.refusal(&too_many),
        format!(
            "„Größe“ bietet {} Auswahlmöglichkeiten; ein Feld kann höchstens {} anbieten.",
            de.number(50_001.0),
            de.number(50_000.0)
        )
    );
    assert_eq!(
        loaded("zh-CN").refusal(&default),
        "“Größe”的默认值是数字，但该字段的取值应为整数。"
    );
    assert_eq!(
        loaded("ar").refusal(&default),
        "القيمة الافتراضية لـ«Größe» عدد، لكن ما يقبله الحقل هو عدد صحيح."
    );
    // English is the core's own words (in a browser, numbers written for the locale).
    let en = Messages::new("en");
    assert_eq!(en.refusal(&default), default.message());
    assert_eq!(en.refusal(&too_many), too_many.message());
}

#[test]
fn a_host_overrides_a_refusal_s_words_with_the_same_placeholders() {
    let nested = refusal_of(serde_json::json!({"type": "object"}));
    let m = loaded("fr");
    let Ok(o) = m.with_overrides([(
        "schema.nested".to_owned(),
        "{name} : pas d’objets imbriqués.".to_owned(),
    )]) else {
        panic!("a refusal's key is a message key");
    };
    assert_eq!(o.refusal(&nested), "Größe : pas d’objets imbriqués.");
    let wrong = m.with_overrides([("schema.nested".to_owned(), "{field}".to_owned())]);
    assert!(
        matches!(&wrong, Err(e) if e.contains("placeholders {name}")),
        "{wrong:?}"
    );
}

#[test]
fn a_link_s_refusal_is_worded_in_the_person_s_language() {
    use mcp_elicit::url_policy::check;
    let refused = |url: &str| match check(url) {
        Err(r) => r,
        Ok(_) => panic!("{url} was allowed"),
    };
    let ftp = refused("ftp://example.com/");
    let http = refused("http://example.com/");
    // The scheme and host are quoted as they are.
    assert_eq!(
        loaded("de").url_refusal(&ftp),
        "Nur https:-Links können geöffnet werden; dieser verwendet ftp:."
    );
    assert_eq!(
        loaded("ja").url_refusal(&http),
        "このリンクは暗号化されていない http: で example.com に接続するため、途中でページが読み取られたり改ざんされたりするおそれがあります。開けるのは https: のリンク（またはこのコンピューターへの http:）だけです。"
    );
    // English is the core's own words.
    let en = Messages::new("en");
    for r in [ftp, http, refused("javascript:alert(1)")] {
        assert_eq!(en.url_refusal(&r), r.reason());
    }
}

#[test]
fn a_withdrawn_card_and_a_failed_call_s_card_say_so_in_its_language() {
    use crate::client::{call_failed_reason, withdrawn_reason, ClientError};
    let err = ClientError::NotConnected;
    // English: the texts the cards said before they had keys.
    let en = Messages::new("en");
    assert_eq!(
        withdrawn_reason(&en, None),
        "the server no longer needs this answer."
    );
    assert_eq!(
        withdrawn_reason(&en, Some("done")),
        "the server no longer needs this answer (it said: done)."
    );
    assert_eq!(
        call_failed_reason(&en, &err),
        format!("the call failed: {err}")
    );
    // The server's reason goes in as it came.
    let de = loaded("de");
    assert_eq!(
        withdrawn_reason(&de, Some("done")),
        "der Server braucht diese Antwort nicht mehr (er sagte: done)."
    );
    assert_eq!(
        call_failed_reason(&de, &err),
        format!("der Aufruf ist fehlgeschlagen: {}", err.words(&de))
    );
    assert_ne!(err.words(&de), err.to_string());
}

#[test]
fn the_host_s_notices_are_in_its_language() {
    use crate::client::host_texts as h;
    use mcp_elicit::validate::validate_content;
    let en = Messages::default();
    let spec = mcp_elicit::schema::compile(&serde_json::json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "e": {"type": "string", "format": "email"}
        },
        "required": ["e"]
    }))
    .unwrap_or_else(|e| panic!("{e:?}"));
    let content = serde_json::json!({"n": 0, "x": true});
    let errors = validate_content(&spec, &content).err().unwrap_or_default();
    // English's words are the ones the notices always had (the misfit's field errors now
    // worded as the card words them).
    let cases = [
        (
            h::handler_busy(&en, 16),
            "More than 16 requests were waiting for the host's onElicitation handler; this \
             one is shown for you to answer.",
        ),
        (
            h::handler_timed_out(&en, 10),
            "The host's onElicitation handler did not answer within 10 seconds; the request \
             is shown for you to answer.",
        ),
        (
            h::handler_failed(&en, "boom"),
            "The host's onElicitation handler failed (boom); the request is shown for you to \
             answer.",
        ),
        (
            h::handler_result(&en, "bad"),
            "it must return undefined or { action: \"accept\" | \"decline\" | \"cancel\", \
             content? }: bad",
        ),
        (
            h::answer_not_delivered(&en, "lost"),
            "The host's answer could not be delivered (lost); the request is shown for you \
             to answer.",
        ),
        (
            h::url_accepted(&en),
            "The host accepted a request to open a web page; only you can open it: use the \
             card's Open button.",
        ),
        (
            h::form_unreadable(&en, "bad schema"),
            "The host's answer was not sent: the server's form cannot be read (bad schema).",
        ),
        (
            h::misfit(&en, &spec, &content, &errors, 3),
            "The host's answer was not sent, it does not fit the form (n: Must be at least \
             1.; e: This field is required.; x: This form has no field named \"x\".); the \
             request is shown for you to answer.",
        ),
        (h::call_stopped(&en, None), "The call was stopped."),
        (
            h::call_stopped(&en, Some(1500)),
            "The call was stopped: it ran longer than 1500 ms.",
        ),
    ];
    for (got, want) in &cases {
        assert_eq!(got, want);
    }
    let de = loaded("de");
    assert_eq!(
        h::handler_timed_out(&de, 10),
        "Der onElicitation-Handler der Anwendung hat nicht innerhalb von 10 Sekunden \
         geantwortet; die Anfrage wird Ihnen zur Beantwortung gezeigt."
    );
    assert_eq!(
        h::misfit(&de, &spec, &content, &errors, 1),
        "Die Antwort der Anwendung wurde nicht gesendet, sie passt nicht zum Formular (n: \
         Muss mindestens 1 sein.); die Anfrage wird Ihnen zur Beantwortung gezeigt."
    );
    assert_eq!(h::call_stopped(&de, None), "Der Aufruf wurde angehalten.");
    let zh = loaded("zh-CN");
    let theirs = [
        h::handler_busy(&zh, 16),
        h::handler_timed_out(&zh, 10),
        h::handler_failed(&zh, "boom"),
        h::handler_result(&zh, "bad"),
        h::answer_not_delivered(&zh, "lost"),
        h::url_accepted(&zh),
        h::form_unreadable(&zh, "bad schema"),
        h::misfit(&zh, &spec, &content, &errors, 3),
        h::call_stopped(&zh, None),
        h::call_stopped(&zh, Some(1500)),
    ];
    for (got, (english, _)) in theirs.iter().zip(&cases) {
        assert_ne!(got, english, "zh-CN: still English");
    }
    assert!(h::handler_failed(&zh, "boom").contains("boom"));
}

#[test]
fn a_tool_s_header_faults_and_a_probe_s_answer_are_in_the_language() {
    use crate::client::host_texts as h;
    use mcp_elicit::driver::era::ProbeAnswer;
    use mcp_elicit::driver::headers::{keep_valid_tools, HeaderFault};
    let en = Messages::default();
    let property = || "'a.b'".to_owned();
    let faults = [
        HeaderFault::Unreachable,
        HeaderFault::NotString {
            property: property(),
            got: "int".into(),
        },
        HeaderFault::NotToken {
            property: property(),
            token: "'a b'".into(),
        },
        HeaderFault::WrongType {
            property: property(),
            got: "'number'".into(),
        },
        HeaderFault::TypeNotString {
            property: property(),
            got: "NoneType".into(),
        },
        HeaderFault::Duplicate {
            token: "'R'".into(),
            property: property(),
            first: "'r'".into(),
        },
    ];
    let answers = [
        ProbeAnswer::TimedOut { seconds: 10 },
        ProbeAnswer::Nothing,
        ProbeAnswer::Error {
            version: "2026-07-28".into(),
            message: "Bad Request".into(),
            code: -32000,
        },
        ProbeAnswer::Only(vec!["2025-06-18".into(), "2025-11-25".into()]),
        ProbeAnswer::Status(404),
    ];
    // English's words are the core's (the SDK's reasons, the probe's old phrases).
    let de = loaded("de");
    let ja = loaded("ja");
    for f in &faults {
        assert_eq!(h::header_fault(&en, f), f.to_string());
        assert_ne!(h::header_fault(&de, f), f.to_string());
        assert_ne!(h::header_fault(&ja, f), f.to_string());
    }
    for a in &answers {
        assert_eq!(h::probe_answer(&en, a), a.to_string());
        assert_ne!(h::probe_answer(&de, a), a.to_string());
        assert_ne!(h::probe_answer(&ja, a), a.to_string());
    }
    // What the core could not read stays its own words.
    let unreadable = ProbeAnswer::Unreadable("not JSON".into());
    assert_eq!(h::probe_answer(&de, &unreadable), "not JSON");
    // The notice names each tool with its fault, as it always did in English.
    let tool = |name: &str, schema: serde_json::Value| mcp_elicit::wire::Tool {
        name: name.into(),
        title: None,
        description: None,
        input_schema: schema,
        execution: None,
    };
    let (_, dropped) = keep_valid_tools(vec![
        tool(
            "a",
            serde_json::json!({"properties": {"n": {"type": "number", "x-mcp-header": "N"}}}),
        ),
        tool("b", serde_json::json!({"x-mcp-header": "R"})),
    ]);
    assert_eq!(
        h::tools_with_faults(&en, &dropped),
        "a (property 'n': x-mcp-header is only permitted on integer/string/boolean properties \
         (got 'number')); b (x-mcp-header found at a schema position not reachable via a pure \
         `properties` chain)"
    );
    assert_eq!(
        h::tools_with_faults(&de, &dropped),
        "a (Eigenschaft 'n': x-mcp-header ist nur an integer/string/boolean-Eigenschaften \
         erlaubt (hier 'number')); b (x-mcp-header an einer Schema-Position, die nicht über \
         eine reine `properties`-Kette erreichbar ist)"
    );
    // Inside the modern-only refusal: the probe's answer in the language too.
    let refusal = crate::client::ClientError::NotModern(mcp_elicit::driver::era::NotModern {
        answer: ProbeAnswer::Status(400),
        handshake: None,
    });
    let words = refusal.words(&de);
    assert!(
        words.contains("der Server hat server/discover mit dem HTTP-Status 400 beantwortet"),
        "{words}"
    );
}
