//! Pushes generated inputs through every part of the core a server feeds: the SSE decoder,
//! the schema compiler and validator, the wire parsers, both protocol state machines, and
//! the sign-in flow.
//! Each target counts its cases and its panics (every panic is a bug: a panic in wasm kills
//! the page); broken invariants are asserted, so they count as panics too.
//!
//! Usage: `fuzz [--seed N] [--cases N] [--target sse|schema|wire|legacy|modern|auth|all] [--case I]`.
//! Case `I` of a target is generated from `(seed, target, I)` alone, so `--case I` replays
//! exactly the failing input (printed with the default panic report and a backtrace).

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

use mcp_elicit::driver::http::{failure_from_http, messages_from_body, MessageStream};
use mcp_elicit::driver::legacy::{LegacyConfig, LegacyEvent, LegacySession};
use mcp_elicit::driver::modern::{
    simple_answer, simple_request, ModernCall, ModernConfig, ModernStep,
};
use mcp_elicit::driver::DriverError;
use mcp_elicit::schema::{compile, FieldKind, FormSpec};
use mcp_elicit::sse::{resume_token, SseDecoder, MAX_EVENT_ID_LEN};
use mcp_elicit::validate::{
    check_field, coerce_form, default_input, defaults, input_for_value, validate_content, RawInput,
};
use mcp_elicit::wire::{
    from_raw, parse_message, Call, CallToolResult, ClientCapabilities, DiscoverResult,
    ElicitRequestParams, ElicitResult, ElicitationComplete, GetPromptResult, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    ModernResult, ReadResourceResult, RequestId, Root, UrlElicitationRequiredData,
};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

/// xorshift64*: small, fast, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so nearby seeds give unrelated streams (and never 0).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// 0..n (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn byte(&mut self) -> u8 {
        self.next() as u8
    }
}

// ---------------------------------------------------------------- text and JSON generators

const WORDS: &[&str] = &[
    "",
    "a",
    "x",
    "0",
    "1",
    "-1",
    "message",
    "data",
    "id",
    "event",
    "retry",
    "type",
    "object",
    "string",
    "enum",
    "\u{e9}",
    "\u{1F600}",
    "\u{FFFD}",
    "\0",
    " ",
    "\t",
    "\r",
    "\n",
    "~",
    "/",
    "__proto__",
    "constructor",
    "submit",
    "length",
    "2.0",
    "null",
    "true",
    "<b>",
    "javascript:",
];

fn text(rng: &mut Rng, max: usize) -> String {
    let mut s = String::new();
    let n = rng.below(max + 1);
    while s.len() < n {
        match rng.below(4) {
            0 => {
                let word: &str = rng.pick::<&str>(WORDS);
                s.push_str(word)
            }
            1 => s.push(char::from(b'a' + rng.below(26) as u8)),
            2 => s.push(char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')),
            _ => s.push(char::from(0x20 + rng.below(95) as u8)),
        }
    }
    s
}

fn number(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(rng.below(20)),
        3 => json!(u64::MAX),
        4 => json!(i64::MIN),
        5 => json!(1.5),
        6 => json!(1e300),
        _ => json!((rng.next() as i64) as f64 / 7.0),
    }
}

/// Any JSON value, nested at most `depth` levels.
fn any_json(rng: &mut Rng, depth: usize) -> Value {
    let top = if depth == 0 { 4 } else { 6 };
    match rng.below(top) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(2)),
        2 => number(rng),
        3 => Value::String(text(rng, 12)),
        4 => Value::Array(
            (0..rng.below(5))
                .map(|_| any_json(rng, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(5))
                .map(|_| (text(rng, 6), any_json(rng, depth - 1)))
                .collect(),
        ),
    }
}

/// A value that is usually of the expected shape, sometimes anything.
fn mostly_value(rng: &mut Rng, good: Value) -> Value {
    if rng.chance(8) {
        any_json(rng, 2)
    } else {
        good
    }
}

/// `mostly!(rng, good)`: `good` may use `rng` too (it is evaluated first).
macro_rules! mostly {
    ($rng:expr, $good:expr) => {{
        let good = $good;
        mostly_value($rng, good)
    }};
}

/// Mutates a text at byte level: the kind of damage a broken server or proxy does.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 if at < bytes.len() => bytes[at] = rng.byte(),
            1 => bytes.insert(at, *rng.pick(b"{}[]\",:\\0-e.")),
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            3 => bytes.truncate(at),
            _ => {
                let copy: Vec<u8> = bytes
                    .get(at..)
                    .unwrap_or(&[])
                    .iter()
                    .take(8)
                    .copied()
                    .collect();
                bytes.splice(at..at, copy);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------- (a) SSE

fn gen_sse(rng: &mut Rng) -> (Vec<u8>, Vec<usize>, Option<usize>) {
    let mut out = Vec::new();
    if rng.chance(8) {
        out.extend_from_slice(b"\xEF\xBB\xBF");
    }
    for _ in 0..rng.below(24) {
        if rng.chance(16) {
            for _ in 0..rng.below(16) {
                out.push(rng.byte());
            }
        } else {
            let field = *rng.pick(&["data", "data", "event", "id", "id", "retry", "", "x", ":"]);
            out.extend_from_slice(field.as_bytes());
            if rng.chance(4) {
                // no colon: the whole line is the field name
            } else {
                out.push(b':');
                if rng.chance(2) {
                    out.push(b' ');
                }
                let value = match rng.below(10) {
                    0 => "7".repeat(rng.below(2 * MAX_EVENT_ID_LEN + 2)),
                    1 => format!("{}", rng.next()),
                    2 => "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".to_string(),
                    _ => text(rng, 16),
                };
                out.extend_from_slice(value.as_bytes());
            }
        }
        out.extend_from_slice(rng.pick::<&[u8]>(&[b"\n", b"\r", b"\r\n", b"\n\n", b"\r\n\r\n"]));
    }
    let mut cuts: Vec<usize> = (0..rng.below(8))
        .map(|_| rng.below(out.len() + 1))
        .collect();
    cuts.sort_unstable();
    let limit = (!rng.chance(3)).then(|| 1 + rng.below(256));
    (out, cuts, limit)
}

fn run_sse(input: &(Vec<u8>, Vec<usize>, Option<usize>)) {
    let (stream, cuts, limit) = input;
    let decoder = || limit.map_or_else(SseDecoder::new, SseDecoder::with_limit);
    let mut chunks: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    for &c in cuts {
        chunks.push(&stream[start..c]);
        start = c;
    }
    chunks.push(&stream[start..]);

    let decode = |chunks: &[&[u8]]| {
        let mut d = decoder();
        let mut events = Vec::new();
        for c in chunks {
            match d.feed(c) {
                Ok(e) => events.extend(e),
                Err(e) => return (events, Some(e), d.last_event_id().map(str::to_owned)),
            }
            if let Some(id) = d.last_event_id() {
                assert!(
                    resume_token(id) == Some(id),
                    "kept id {id:?} is not a token"
                );
            }
        }
        let end = d.finish().err();
        (events, end, d.last_event_id().map(str::to_owned))
    };
    let whole = decode(&[stream]);
    if !whole.0.is_empty() {
        deep();
    }
    let split = decode(&chunks);
    for e in whole.0.iter().chain(&split.0) {
        if let Some(id) = e.id.as_deref() {
            assert!(id.len() <= MAX_EVENT_ID_LEN && resume_token(id).is_some());
        }
    }
    if whole.1.is_none() && split.1.is_none() {
        assert_eq!(whole.0, split.0, "a split changed the events");
        assert_eq!(whole.2, split.2, "a split changed the last id");
    }

    let mut m = MessageStream::new();
    for c in &chunks {
        if m.feed(c).is_err() {
            break;
        }
    }
    let _ = m.finish();
    let _ = m.last_event_id();
    let _ = messages_from_body(Some("text/event-stream"), stream);
    let _ = failure_from_http(500, Some("text/event-stream; charset=utf-8"), stream);
}

// ---------------------------------------------------------------- (b) schema + validation

const PATTERNS: &[&str] = &[
    "^a",
    "[0-9]+",
    "^[A-Z]{3}$",
    "(x",
    "a{2,1}",
    "\\",
    "(?:a|b)*c",
    "^$",
    ".*",
    "[",
    "\\d{1000}",
    "(?:[a-z]{1000}){1000}",
    "(?i)caf\u{e9}",
    "a++",
    "(?<n>x)",
    "\\pL",
    "\\u{1F600}",
    "[^\\n]",
];

fn gen_field(rng: &mut Rng) -> Value {
    let mut f = Map::new();
    let ty = *rng.pick(&[
        "string", "number", "integer", "boolean", "array", "object", "null", "x",
    ]);
    if !rng.chance(12) {
        f.insert("type".into(), mostly!(rng, json!(ty)));
    }
    let choices = |rng: &mut Rng| -> Vec<Value> {
        (0..rng.below(6))
            .map(|_| mostly!(rng, json!(*rng.pick(&["a", "b", "", "\u{e9}", "a", "c d"]))))
            .collect()
    };
    for _ in 0..rng.below(6) {
        match rng.below(18) {
            0 => {
                f.insert("enum".into(), Value::Array(choices(rng)));
            }
            1 => {
                let list: Vec<Value> = choices(rng)
                    .into_iter()
                    .map(|c| mostly!(rng, json!({"const": c, "title": text(rng, 4)})))
                    .collect();
                f.insert("oneOf".into(), Value::Array(list));
            }
            2 => {
                let items = if rng.chance(2) {
                    json!({"type": "string", "enum": choices(rng)})
                } else {
                    let list: Vec<Value> = choices(rng)
                        .into_iter()
                        .map(|c| json!({"const": c}))
                        .collect();
                    json!({"anyOf": list})
                };
                f.insert("items".into(), mostly!(rng, items));
            }
            3 => {
                f.insert("enumNames".into(), Value::Array(choices(rng)));
            }
            4 => {
                f.insert("minLength".into(), mostly!(rng, number(rng)));
            }
            5 => {
                f.insert("maxLength".into(), mostly!(rng, number(rng)));
            }
            6 => {
                let p = if rng.chance(3) {
                    text(rng, 8)
                } else {
                    (*rng.pick(PATTERNS)).to_string()
                };
                f.insert("pattern".into(), mostly!(rng, json!(p)));
            }
            7 => {
                let fm = *rng.pick(&["email", "uri", "date", "date-time", "uuid", ""]);
                f.insert("format".into(), mostly!(rng, json!(fm)));
            }
            8 => {
                f.insert("minimum".into(), mostly!(rng, number(rng)));
            }
            9 => {
                f.insert("maximum".into(), mostly!(rng, number(rng)));
            }
            10 => {
                f.insert("exclusiveMinimum".into(), mostly!(rng, number(rng)));
            }
            11 => {
                f.insert("exclusiveMaximum".into(), mostly!(rng, number(rng)));
            }
            12 => {
                f.insert("minItems".into(), mostly!(rng, number(rng)));
            }
            13 => {
                f.insert("maxItems".into(), mostly!(rng, number(rng)));
            }
            14 => {
                f.insert("default".into(), any_json(rng, 1));
            }
            15 => {
                f.insert("title".into(), mostly!(rng, json!(text(rng, 8))));
            }
            16 => {
                f.insert("$ref".into(), json!("#/x"));
            }
            _ => {
                f.insert("description".into(), mostly!(rng, json!(text(rng, 8))));
            }
        }
    }
    mostly!(rng, Value::Object(f))
}

/// A field schema the compiler should accept (most of the time): one of the spec's shapes
/// with constraints that may still contradict each other or their default.
fn valid_field(rng: &mut Rng) -> Value {
    let choices: Vec<String> = (0..1 + rng.below(5))
        .map(|i| format!("{}{i}", text(rng, 2)))
        .collect();
    let mut f = match rng.below(9) {
        0 => json!({"type": "string", "minLength": rng.below(4), "maxLength": 2 + rng.below(20)}),
        1 => json!({"type": "string", "format": *rng.pick(&["email", "uri", "date", "date-time"])}),
        2 => json!({"type": "string", "pattern": *rng.pick(PATTERNS)}),
        3 => {
            json!({"type": *rng.pick(&["number", "integer"]), "minimum": number(rng), "maximum": number(rng)})
        }
        4 => json!({"type": "boolean"}),
        5 => json!({"type": "string", "enum": choices}),
        6 => {
            json!({"type": "string", "oneOf": choices.iter().map(|c| json!({"const": c, "title": c})).collect::<Vec<_>>()})
        }
        7 => {
            json!({"type": "array", "items": {"type": "string", "enum": choices}, "minItems": rng.below(3), "maxItems": 1 + rng.below(5)})
        }
        _ => {
            json!({"type": "array", "items": {"anyOf": choices.iter().map(|c| json!({"const": c})).collect::<Vec<_>>()}})
        }
    };
    if rng.chance(3) {
        let d = match rng.below(3) {
            0 => json!(rng.pick(&choices)),
            1 => json!([rng.pick(&choices)]),
            _ => any_json(rng, 1),
        };
        if let Some(o) = f.as_object_mut() {
            o.insert("default".into(), d);
        }
    }
    f
}

fn gen_schema(rng: &mut Rng) -> Value {
    if rng.chance(10) {
        return any_json(rng, 3);
    }
    let names: Vec<String> = (0..rng.below(7)).map(|_| text(rng, 4)).collect();
    let properties: Map<String, Value> = names
        .iter()
        .map(|n| {
            (
                n.clone(),
                if rng.chance(8) {
                    gen_field(rng)
                } else {
                    valid_field(rng)
                },
            )
        })
        .collect();
    let mut root = Map::new();
    if !rng.chance(6) {
        root.insert("type".into(), mostly!(rng, json!("object")));
    }
    root.insert(
        "properties".into(),
        mostly!(rng, Value::Object(properties.clone())),
    );
    if rng.chance(2) {
        let mut req: Vec<Value> = properties
            .keys()
            .filter(|_| rng.chance(2))
            .map(|n| json!(n))
            .collect();
        if rng.chance(8) {
            req.push(json!(text(rng, 3)));
        }
        root.insert("required".into(), mostly!(rng, Value::Array(req)));
    }
    Value::Object(root)
}

fn gen_raw(rng: &mut Rng) -> RawInput {
    match rng.below(4) {
        0 => RawInput::Text(if rng.chance(3) {
            (*rng.pick(&[
                "",
                "a",
                "1",
                "1.5",
                "-0",
                "1e400",
                "NaN",
                "inf",
                "true",
                "on",
                "2025-12-26",
                "2025-12-26T19:30",
                "2025-12-26T19:30:00Z",
                "a@b.c",
                "https://x.y/z",
                "9007199254740993",
            ]))
            .to_string()
        } else {
            text(rng, 12)
        }),
        1 => RawInput::LocalDateTime {
            text: (*rng.pick(&[
                "2025-12-26T19:30",
                "2025-02-30T00:00",
                "x",
                "2025-12-26T19:30:61",
                "",
            ]))
            .to_string(),
            utc_offset_minutes: *rng.pick(&[0, 60, -480, i32::MAX, i32::MIN, 1439, -1440]),
        },
        2 => RawInput::Bool(rng.chance(2)),
        _ => RawInput::List(
            (0..rng.below(5))
                .map(|_| (*rng.pick(&["a", "b", "", "c d", "z"])).to_string())
                .collect(),
        ),
    }
}

fn gen_content(rng: &mut Rng, spec: Option<&FormSpec>) -> Value {
    if rng.chance(10) {
        return any_json(rng, 2);
    }
    let mut c = Map::new();
    if let Some(spec) = spec {
        for f in &spec.fields {
            if rng.chance(4) {
                continue;
            }
            let v = match (&f.kind, rng.below(3)) {
                (_, 0) => any_json(rng, 1),
                (FieldKind::MultiSelect { options, .. }, _) => Value::Array(
                    options
                        .iter()
                        .filter(|_| rng.chance(2))
                        .map(|o| json!(o.value))
                        .collect(),
                ),
                (FieldKind::Select { options }, _) => json!(rng.pick(options).value),
                (FieldKind::Boolean, _) => json!(rng.chance(2)),
                (FieldKind::Number(_) | FieldKind::Integer(_), _) => number(rng),
                (FieldKind::String { .. }, _) => json!(text(rng, 12)),
            };
            c.insert(f.name.clone(), v);
        }
    }
    if rng.chance(4) {
        c.insert(text(rng, 4), any_json(rng, 1));
    }
    Value::Object(c)
}

fn gen_schema_case(rng: &mut Rng) -> (Value, u64) {
    (gen_schema(rng), rng.next())
}

fn run_schema(input: &(Value, u64)) {
    let (schema, sub_seed) = input;
    let mut rng = Rng::new(*sub_seed);
    let spec = compile(schema).ok();
    let content = gen_content(&mut rng, spec.as_ref());
    let Some(spec) = spec else {
        return;
    };
    if !spec.fields.is_empty() {
        deep();
    }
    let _ = serde_json::to_string(&spec).expect("a FormSpec always serialises");
    let _ = validate_content(&spec, &content);
    let _ = defaults(&spec);
    let mut raw = Vec::new();
    for f in &spec.fields {
        let input = match rng.below(3) {
            0 => default_input(f, *rng.pick(&[0, 60, -480])),
            1 => content.get(&f.name).and_then(|v| input_for_value(f, v, 0)),
            _ => Some(gen_raw(&mut rng)),
        };
        if let Some(input) = input {
            let one = check_field(f, &input);
            raw.push((f.name.clone(), input));
            if let Ok(Some(v)) = one {
                // What the UI accepted, validateContent accepts.
                let alone = json!({ f.name.clone(): v });
                if let Err(e) = validate_content(&spec, &alone) {
                    assert!(
                        e.iter().all(|e| e.field != f.name),
                        "check_field accepted {v} for {:?} but validate_content says {e:?}",
                        f.name
                    );
                }
            }
        }
    }
    if rng.chance(4) {
        raw.push((text(&mut rng, 3), gen_raw(&mut rng)));
    }
    if let Ok(content) = coerce_form(&spec, &raw) {
        // One rule book: what coerce_form builds, validate_content accepts unchanged.
        let value = Value::Object(content.clone());
        assert_eq!(
            validate_content(&spec, &value),
            Ok(content),
            "coerce_form's content fails validate_content"
        );
    }
}

// ---------------------------------------------------------------- (c) wire parsers

fn gen_id(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => json!(null),
        1 => json!("s"),
        2 => json!(1.5),
        3 => json!(u64::MAX),
        4 => json!(true),
        _ => json!(rng.below(4)),
    }
}

fn gen_result(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => {
            json!({"tools": [{"name": text(rng, 4), "inputSchema": gen_schema(rng)}], "nextCursor": mostly!(rng, json!("c"))})
        }
        1 => {
            json!({"content": [{"type": mostly!(rng, json!("text")), "text": text(rng, 8)}], "isError": mostly!(rng, json!(false)), "structuredContent": any_json(rng, 2)})
        }
        2 => {
            json!({"protocolVersion": mostly!(rng, json!("2025-11-25")), "capabilities": any_json(rng, 2), "serverInfo": mostly!(rng, json!({"name": text(rng, 4), "version": "1"}))})
        }
        3 => {
            json!({"resultType": mostly!(rng, json!("input_required")), "inputRequests": mostly!(rng, gen_input_requests(rng)), "requestState": any_json(rng, 1)})
        }
        4 => json!({"resultType": mostly!(rng, json!("complete")), "contents": any_json(rng, 1)}),
        5 => {
            json!({"prompts": [{"name": text(rng, 4), "arguments": [{"name": text(rng, 3), "required": mostly!(rng, json!(true))}]}]})
        }
        6 => {
            json!({"resourceTemplates": [{"uriTemplate": mostly!(rng, json!(format!("file:///{{{}}}/{{+b}}{{?c,d}}", text(rng, 3)))), "name": "t"}]})
        }
        7 => json!({"resources": [{"uri": text(rng, 8), "name": text(rng, 3)}]}),
        8 => json!({"messages": [{"role": "user", "content": any_json(rng, 1)}]}),
        9 => {
            json!({"supportedVersions": mostly!(rng, json!(["2026-07-28"])), "capabilities": any_json(rng, 1), "serverInfo": any_json(rng, 1)})
        }
        10 => {
            json!({"elicitations": [{"mode": "url", "message": text(rng, 5), "url": mostly!(rng, json!("https://x.y")), "elicitationId": text(rng, 3)}]})
        }
        _ => any_json(rng, 3),
    }
}

fn gen_elicit_params(rng: &mut Rng) -> Value {
    if rng.chance(3) {
        json!({"mode": "url", "message": text(rng, 8), "url": mostly!(rng, json!(*rng.pick(&["https://x.y/a", "javascript:alert(1)", "data:text/html,x", "http://[::1]:80/"]))), "elicitationId": mostly!(rng, json!(text(rng, 4)))})
    } else {
        json!({"mode": mostly!(rng, json!("form")), "message": mostly!(rng, json!(text(rng, 8))), "requestedSchema": gen_schema(rng)})
    }
}

fn gen_input_requests(rng: &mut Rng) -> Value {
    let mut m = Map::new();
    for _ in 0..rng.below(4) {
        let method = *rng.pick(&[
            "elicitation/create",
            "elicitation/create",
            "sampling/createMessage",
            "roots/list",
            "x/y",
        ]);
        let params = match method {
            "elicitation/create" => gen_elicit_params(rng),
            _ => any_json(rng, 1),
        };
        m.insert(
            text(rng, 3),
            mostly!(rng, json!({"method": method, "params": params})),
        );
    }
    Value::Object(m)
}

/// A server message: a response, an error, a request or a notification, mostly well formed.
fn gen_message(rng: &mut Rng, ids: &[Value]) -> String {
    let id = if !ids.is_empty() && rng.chance(2) {
        rng.pick(ids).clone()
    } else {
        gen_id(rng)
    };
    let mut msg = Map::new();
    if !rng.chance(20) {
        msg.insert("jsonrpc".into(), mostly!(rng, json!("2.0")));
    }
    match rng.below(6) {
        0 | 1 => {
            msg.insert("id".into(), id);
            msg.insert("result".into(), gen_result(rng));
        }
        2 => {
            msg.insert("id".into(), id);
            let code = *rng.pick(&[
                -32042,
                -32020,
                -32021,
                -32022,
                -32601,
                -32602,
                -32603,
                -32700,
                0,
                i64::MIN,
            ]);
            let data = match code {
                -32042 => json!({"elicitations": [gen_elicit_params(rng)]}),
                -32022 => json!({"supported": ["2025-11-25"], "requested": "x"}),
                _ => any_json(rng, 1),
            };
            msg.insert(
                "error".into(),
                mostly!(
                    rng,
                    json!({"code": code, "message": text(rng, 8), "data": data})
                ),
            );
        }
        3 => {
            msg.insert("id".into(), id);
            let method = *rng.pick(&[
                "elicitation/create",
                "sampling/createMessage",
                "roots/list",
                "ping",
                "x",
            ]);
            msg.insert("method".into(), json!(method));
            let params = if method == "elicitation/create" {
                gen_elicit_params(rng)
            } else {
                any_json(rng, 1)
            };
            msg.insert("params".into(), params);
        }
        4 => {
            let method = *rng.pick(&[
                "notifications/elicitation/complete",
                "notifications/progress",
                "notifications/message",
                "x",
            ]);
            msg.insert("method".into(), json!(method));
            msg.insert(
                "params".into(),
                mostly!(rng, json!({"elicitationId": text(rng, 3)})),
            );
        }
        _ => {
            let junk = any_json(rng, 2).to_string();
            return mutate(rng, &junk);
        }
    }
    let text = Value::Object(msg).to_string();
    if rng.chance(6) {
        mutate(rng, &text)
    } else {
        text
    }
}

fn run_wire(text: &String) {
    if let Ok(m) = parse_message(text) {
        deep();
        let again = m.to_json().expect("a parsed message serialises");
        assert!(
            parse_message(&again).is_ok(),
            "to_json gave an unparsable {again}"
        );
        if let mcp_elicit::wire::Incoming::Error { error, .. } = &m {
            let e = DriverError::from_rpc(error.clone());
            let _ = (e.to_string(), e.is_resendable(), e.code());
        }
    }
    let _ = simple_answer(&RequestId::Number(1), text);
    let _ = messages_from_body(Some("application/json"), text.as_bytes());
    let _ = failure_from_http(400, Some("application/json"), text.as_bytes());
    let Ok(raw) = RawValue::from_string(text.clone()) else {
        return;
    };
    let _ = from_raw::<ListToolsResult>(&raw, "t");
    let _ = from_raw::<CallToolResult>(&raw, "t");
    let _ = from_raw::<InitializeResult>(&raw, "t");
    let _ = from_raw::<DiscoverResult>(&raw, "t");
    let _ = from_raw::<GetPromptResult>(&raw, "t");
    let _ = from_raw::<ReadResourceResult>(&raw, "t");
    let _ = from_raw::<ListResourcesResult>(&raw, "t");
    let _ = from_raw::<ElicitRequestParams>(&raw, "t");
    let _ = from_raw::<ElicitationComplete>(&raw, "t");
    let _ = from_raw::<UrlElicitationRequiredData>(&raw, "t");
    if let Ok(list) = from_raw::<ListPromptsResult>(&raw, "t") {
        for p in &list.prompts {
            let _ = compile(&p.arguments_schema());
        }
    }
    if let Ok(list) = from_raw::<ListResourceTemplatesResult>(&raw, "t") {
        for t in &list.resource_templates {
            let _ = t.variables_schema().map(|s| compile(&s));
            let _ = t.expand(&Map::from_iter([("a".to_string(), json!("x/y"))]));
        }
    }
    let _ = ModernResult::classify(raw);
}

fn gen_wire(rng: &mut Rng) -> String {
    if rng.chance(3) {
        gen_result(rng).to_string()
    } else {
        gen_message(rng, &[])
    }
}

// ---------------------------------------------------------------- (d) state machines

fn status(rng: &mut Rng) -> u16 {
    *rng.pick(&[
        200, 200, 202, 400, 401, 404, 404, 405, 408, 429, 500, 503, 0, 999,
    ])
}

fn gen_legacy(rng: &mut Rng) -> (bool, Vec<u64>) {
    (
        rng.chance(2),
        (0..rng.below(40)).map(|_| rng.next()).collect(),
    )
}

fn run_legacy(input: &(bool, Vec<u64>)) {
    let (sampling, ops) = input;
    let config = LegacyConfig {
        capabilities: ClientCapabilities::for_host(*sampling),
        roots: vec![Root {
            uri: "file:///r".into(),
            name: None,
        }],
        ..LegacyConfig::default()
    };
    let mut s = LegacySession::new(config);
    let mut ours: Vec<Value> = Vec::new();
    let mut asked: Vec<RequestId> = Vec::new();
    let to_value = |id: &RequestId| serde_json::to_value(id).unwrap_or(Value::Null);
    // Half the cases start from a finished handshake, so the later steps meet a ready
    // session (the others start cold, as before).
    if ops.first().is_some_and(|op| op % 2 == 0) && s.initialize_request().is_ok() {
        let id = s.initialize_id().cloned();
        let _ = s.on_http_status(id.as_ref(), 200, Some("session-1"));
        let init = json!({"jsonrpc": "2.0", "id": id.as_ref().map(to_value), "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "f", "version": "1"}}});
        let _ = s.on_message(&init.to_string());
    }
    for &op in ops {
        let mut rng = Rng::new(op);
        match rng.below(14) {
            0 => {
                if s.initialize_request().is_ok() {
                    if let Some(id) = s.initialize_id() {
                        ours.push(to_value(id));
                    }
                }
            }
            1 => {
                let id = s.initialize_id().cloned();
                let sid = (!rng.chance(4)).then(|| text(&mut rng, 6));
                let _ = s.on_http_status(id.as_ref(), status(&mut rng), sid.as_deref());
            }
            2 if !ours.is_empty() => {
                let id: Option<RequestId> = serde_json::from_value(rng.pick(&ours).clone()).ok();
                let _ = s.on_http_status(id.as_ref(), status(&mut rng), Some("s"));
            }
            3..=5 => {
                let text = if rng.chance(3) {
                    // A well-formed elicitation request, as the SDK sends it.
                    let params = if rng.chance(2) {
                        gen_elicit_params(&mut rng)
                    } else {
                        json!({"message": "m", "requestedSchema": {"type": "object", "properties": {"a": valid_field(&mut rng)}}})
                    };
                    json!({"jsonrpc": "2.0", "id": rng.below(1000), "method": "elicitation/create", "params": params}).to_string()
                } else if rng.chance(4) {
                    let init = json!({"jsonrpc": "2.0", "id": s.initialize_id().map(to_value), "result": {"protocolVersion": mostly!(&mut rng, json!("2025-11-25")), "capabilities": {}, "serverInfo": {"name": "f", "version": "1"}}});
                    init.to_string()
                } else {
                    gen_message(&mut rng, &ours)
                };
                match s.on_message(&text) {
                    LegacyEvent::Elicit { id, params } => {
                        deep();
                        if let ElicitRequestParams::Form(f) = &params {
                            let _ = compile(&f.requested_schema);
                        }
                        asked.push(id);
                    }
                    LegacyEvent::Sampling { id, .. } => asked.push(id),
                    _ => {}
                }
            }
            6 => {
                let method =
                    *rng.pick(&["tools/call", "tools/list", "prompts/get", "resources/read"]);
                let params = any_json(&mut rng, 2);
                // A call the fuzzer's params happen to spell goes as the typed call.
                let sent = match Call::parse(method, &params) {
                    Ok(call) => s.call(&call),
                    Err(_) => s.request(method, Some(&params)),
                };
                if let Ok((id, _)) = sent {
                    ours.push(to_value(&id));
                }
            }
            7 if !asked.is_empty() => {
                let id = rng.pick(&asked).clone();
                let result = match rng.below(3) {
                    0 => ElicitResult::accept(Some(Map::from_iter([(
                        "a".to_string(),
                        any_json(&mut rng, 1),
                    )]))),
                    1 => ElicitResult::decline(),
                    _ => ElicitResult::cancel(),
                };
                let _ = s.answer_elicitation(&id, &result);
            }
            8 if !asked.is_empty() => {
                let id = rng.pick(&asked).clone();
                let _ = s.answer_sampling(&id, &any_json(&mut rng, 2));
                let _ = s.refuse_sampling(&id, &text(&mut rng, 8));
                let _ = s.refuse_elicitation(&id, &text(&mut rng, 8));
            }
            9 => {
                let last = text(&mut rng, 8);
                let _ = s.get_stream_request(rng.chance(2).then_some(last.as_str()));
            }
            10 if rng.chance(4) => {
                let _ = s.close_request();
            }
            11 => {
                let id: Option<RequestId> = if ours.is_empty() {
                    None
                } else {
                    serde_json::from_value(rng.pick(&ours).clone()).ok()
                };
                let body = gen_message(&mut rng, &ours);
                let ct = *rng.pick(&[
                    Some("application/json"),
                    Some("text/event-stream"),
                    Some("text/html"),
                    None,
                ]);
                let body = if ct == Some("text/event-stream") {
                    format!("data: {body}\n\n")
                } else {
                    body
                };
                let _ = s.on_http_failure(id.as_ref(), status(&mut rng), ct, body.as_bytes());
            }
            _ => {
                let _ = (s.state(), s.session_id(), s.protocol_version(), s.server());
            }
        }
    }
}

/// A well-formed modern answer to the request in flight: a round of input requests (valid
/// elicitations, roots, sampling), a state-only retry, or the final result.
fn modern_answer(rng: &mut Rng, id: Value) -> String {
    let result = match rng.below(4) {
        0 => json!({"resultType": "complete", "content": []}),
        1 => json!({"resultType": "input_required", "requestState": text(rng, 6)}),
        _ => {
            let mut reqs = Map::new();
            for i in 0..1 + rng.below(3) {
                let r = match rng.below(5) {
                    0 => json!({"method": "roots/list"}),
                    1 => json!({"method": "sampling/createMessage", "params": {"messages": []}}),
                    2 => json!({"method": "elicitation/create", "params": gen_elicit_params(rng)}),
                    _ => {
                        json!({"method": "elicitation/create", "params": {"message": "m", "requestedSchema": {"type": "object", "properties": {"a": valid_field(rng)}}}})
                    }
                };
                reqs.insert(format!("k{i}"), r);
            }
            let mut r = json!({"resultType": "input_required", "inputRequests": reqs});
            if rng.chance(2) {
                r["requestState"] = json!(text(rng, 6));
            }
            r
        }
    };
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

fn gen_modern(rng: &mut Rng) -> (u64, Vec<u64>) {
    (rng.next(), (0..rng.below(40)).map(|_| rng.next()).collect())
}

fn run_modern(input: &(u64, Vec<u64>)) {
    let (setup, ops) = input;
    let mut rng = Rng::new(*setup);
    let config = ModernConfig {
        capabilities: ClientCapabilities::for_host(rng.chance(2)),
        roots: vec![Root {
            uri: "file:///r".into(),
            name: Some("r".into()),
        }],
        max_rounds: 1 + rng.below(12) as u32,
        ..ModernConfig::default()
    };
    let (call, input_schema) = match rng.below(3) {
        0 => (
            Call::Tool {
                name: text(&mut rng, 4),
                arguments: Map::from_iter([(text(&mut rng, 3), any_json(&mut rng, 1))]),
            },
            rng.chance(2).then(|| gen_schema(&mut rng)),
        ),
        1 => (
            Call::Prompt {
                name: text(&mut rng, 4),
                arguments: Map::new(),
            },
            None,
        ),
        _ => (
            Call::Resource {
                uri: text(&mut rng, 8),
            },
            None,
        ),
    };
    let first_id = rng.below(1 << 20) as i64;
    let mut call = ModernCall::new(config.clone(), call, first_id).with_input_schema(input_schema);
    let mut keys: Vec<String> = Vec::new();
    for &op in ops {
        let mut rng = Rng::new(op);
        let in_flight = call
            .in_flight()
            .map(|id| serde_json::to_value(id).unwrap_or(Value::Null));
        match rng.below(10) {
            0 | 1 => {
                let _ = call.request();
            }
            2..=4 => {
                let ids: Vec<Value> = in_flight.into_iter().collect();
                let text = match ids.first() {
                    Some(id) if rng.chance(2) => modern_answer(&mut rng, id.clone()),
                    _ => gen_message(&mut rng, &ids),
                };
                if let ModernStep::InputNeeded {
                    elicitations,
                    sampling,
                    ..
                } = call.on_message(&text)
                {
                    deep();
                    for e in &elicitations {
                        if let ElicitRequestParams::Form(f) = &e.params {
                            let _ = compile(&f.requested_schema);
                        }
                    }
                    keys = elicitations
                        .iter()
                        .map(|e| e.key.clone())
                        .chain(sampling.iter().map(|s| s.key.clone()))
                        .collect();
                }
            }
            5 => {
                let body = gen_message(&mut rng, &[]);
                let ct = *rng.pick(&[Some("application/json"), Some("text/event-stream"), None]);
                let _ = call.on_http_failure(status(&mut rng), ct, body.as_bytes());
            }
            6 => {
                let _ = call.on_body_end();
                if rng.chance(2) {
                    call.on_network_failure();
                }
            }
            7 => {
                // Answer every waiting key at once (as a person finishing the round would),
                // or one, possibly a stranger.
                let all = !keys.is_empty() && rng.chance(2);
                let picked: Vec<String> = if all {
                    keys.clone()
                } else if keys.is_empty() || rng.chance(8) {
                    vec![text(&mut rng, 3)]
                } else {
                    vec![rng.pick(&keys).clone()]
                };
                for key in picked {
                    let _ = call.answer(
                        &key,
                        ElicitResult::accept(Some(Map::from_iter([(
                            "a".to_string(),
                            any_json(&mut rng, 1),
                        )]))),
                    );
                    let _ = call.answer_sampling(&key, json!({"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"}));
                }
            }
            8 => call.set_input_schema(rng.chance(2).then(|| gen_schema(&mut rng))),
            _ => {
                let _ = (
                    call.is_finished(),
                    call.rounds(),
                    call.waiting_for(),
                    call.next_id(),
                );
                let id = RequestId::Number(rng.below(4) as i64);
                let _ = simple_request(
                    &config,
                    &id,
                    "tools/call",
                    Some(&Map::from_iter([(
                        "name".to_string(),
                        json!(text(&mut rng, 5)),
                    )])),
                );
                let _ = simple_answer(&id, &gen_message(&mut rng, &[json!(0)]));
            }
        }
    }
}

// ---------------------------------------------------------------- the runner

// ---------------------------------------------------------------- (f) sign-in

const AUTH_SERVER: &str = "https://mcp.example/mcp";
/// Kept tokens, distinctive enough that no generated text holds them by chance.
const AUTH_OLD_TOKEN: &str = "AT-kept-7d1e0c55";
const AUTH_REFRESH_TOKEN: &str = "RT-kept-9f3c2b41";

/// A good answer for each discovery and token URL, for the fuzzer to damage.
fn auth_answer_for(url: &str) -> Value {
    if url.contains("oauth-protected-resource") {
        json!({ "resource": AUTH_SERVER, "authorization_servers": ["https://as.example"],
                "scopes_supported": ["mcp", "offline_access"] })
    } else if url.contains("well-known") {
        json!({ "issuer": "https://as.example",
                "authorization_endpoint": "https://as.example/authorize",
                "token_endpoint": "https://as.example/token",
                "registration_endpoint": "https://as.example/register",
                "code_challenge_methods_supported": ["S256"],
                "scopes_supported": ["mcp", "offline_access"],
                "authorization_response_iss_parameter_supported": true })
    } else if url.ends_with("/register") {
        json!({ "client_id": "c1", "token_endpoint_auth_method": "none" })
    } else {
        json!({ "access_token": "t", "token_type": "Bearer", "expires_in": 60,
                "refresh_token": "r", "scope": "mcp" })
    }
}

fn gen_challenge(rng: &mut Rng) -> String {
    let good = r#"Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="mcp", error="invalid_token""#;
    match rng.below(4) {
        0 => text(rng, 200),
        1 => format!("Bearer {}", text(rng, 60)),
        _ => mutate(rng, good),
    }
}

/// (challenge, the seeds of each answer the flow gets, protocol, with a refresh token)
fn gen_auth(rng: &mut Rng) -> (String, Vec<u64>, bool, bool) {
    let steps = (0..rng.below(24)).map(|_| rng.next()).collect();
    (gen_challenge(rng), steps, rng.chance(2), rng.chance(3))
}

fn run_auth(input: &(String, Vec<u64>, bool, bool)) {
    use mcp_elicit::auth::{
        challenge, pkce, AccessToken, AuthConfig, AuthProtocol, AuthResponse, CallbackParams,
        ClientId, Entropy, Flow, Grant, Known, RefreshToken, Step,
    };
    let (header, steps, modern, refresh) = input;
    let protocol = if *modern {
        AuthProtocol::Modern2026_07_28
    } else {
        AuthProtocol::Legacy2025_11_25
    };
    let known = Known {
        registrations: Vec::new(),
        grant: refresh.then(|| Grant {
            access_token: AccessToken::new(AUTH_OLD_TOKEN),
            refresh_token: Some(RefreshToken::new(AUTH_REFRESH_TOKEN)),
            expires_in: None,
            scopes_requested: vec!["mcp".into()],
            scopes_granted: None,
            issuer: "https://as.example".into(),
            resource: AUTH_SERVER.into(),
            token_endpoint: "https://as.example/token".into(),
            client_id: ClientId::new("c0"),
            registration: None,
        }),
    };
    let entropy = Entropy {
        state: pkce::state_from_bytes(&[9; 16]),
        verifier: pkce::verifier_from_bytes(&[7; 32]),
        challenge_s256: pkce::challenge_from_digest(&[1; 32]),
    };
    let parsed = challenge::parse(header).ok();
    let mut flow = Flow::start(
        AuthConfig::new("https://app.example/cb", protocol),
        AUTH_SERVER,
        parsed,
        known,
        entropy,
    );
    for &seed in steps {
        let mut rng = Rng::new(seed);
        match flow.poll() {
            Step::Fetch(request) => {
                assert!(
                    !request.url.contains(AUTH_REFRESH_TOKEN)
                        && !request.url.contains(AUTH_OLD_TOKEN)
                );
                if rng.chance(8) {
                    flow.handle_unreachable(text(&mut rng, 20));
                    continue;
                }
                let good = auth_answer_for(&request.url).to_string();
                let body = if rng.chance(3) {
                    mutate(&mut rng, &good)
                } else if rng.chance(6) {
                    any_json(&mut rng, 3).to_string()
                } else {
                    good
                };
                let status = *rng.pick(&[200, 200, 200, 201, 400, 401, 404, 500, 302]);
                let content_type = rng.chance(6).then(|| text(&mut rng, 20));
                flow.handle_response(AuthResponse {
                    status,
                    content_type: content_type.or(Some("application/json".into())),
                    www_authenticate: rng.chance(4).then(|| gen_challenge(&mut rng)),
                    body: body.into_bytes(),
                });
            }
            Step::SignIn(card) => {
                assert!(card.authorization_url.contains("code_challenge="));
                let state = if rng.chance(4) {
                    Some(text(&mut rng, 30))
                } else {
                    Some(pkce::state_from_bytes(&[9; 16]).secret().to_string())
                };
                let _ = flow.handle_callback(CallbackParams {
                    code: rng
                        .chance(5)
                        .then(|| text(&mut rng, 20))
                        .or(Some("code".into())),
                    state,
                    iss: rng.chance(2).then(|| {
                        if rng.chance(3) {
                            text(&mut rng, 30)
                        } else {
                            "https://as.example".into()
                        }
                    }),
                    error: rng.chance(6).then(|| text(&mut rng, 10)),
                    error_description: rng.chance(6).then(|| text(&mut rng, 40)),
                });
            }
            Step::Done(grant) => {
                assert_eq!(grant.resource.is_empty(), false);
                deep();
                return;
            }
            Step::Failed(err) => {
                let words = err.to_string();
                assert!(!words.is_empty());
                assert!(
                    !words.contains(AUTH_REFRESH_TOKEN) && !words.contains(AUTH_OLD_TOKEN),
                    "an error carries a token: {words}"
                );
                return;
            }
        }
    }
}

struct Target {
    name: &'static str,
    /// What counts as reaching deep, for the report.
    deep: &'static str,
    run: fn(&mut Rng, bool),
}

/// Generates one case and runs it; with `show`, prints the input first (for `--case`).
fn case<I: std::fmt::Debug>(rng: &mut Rng, show: bool, gen: fn(&mut Rng) -> I, run: fn(&I)) {
    let input = gen(rng);
    if show {
        let text = format!("{input:?}");
        let cut: String = text.chars().take(20_000).collect();
        eprintln!("input: {cut}");
    }
    run(&input);
}

const TARGETS: &[Target] = &[
    Target {
        name: "sse",
        deep: "decoded events",
        run: |r, s| case(r, s, gen_sse, run_sse),
    },
    Target {
        name: "schema",
        deep: "compiled with fields",
        run: |r, s| case(r, s, gen_schema_case, run_schema),
    },
    Target {
        name: "wire",
        deep: "parsed as JSON-RPC",
        run: |r, s| case(r, s, gen_wire, run_wire),
    },
    Target {
        name: "legacy",
        deep: "elicitation cards (total)",
        run: |r, s| case(r, s, gen_legacy, run_legacy),
    },
    Target {
        name: "modern",
        deep: "input rounds (total)",
        run: |r, s| case(r, s, gen_modern, run_modern),
    },
    Target {
        name: "auth",
        deep: "sign-ins that reached a token",
        run: |r, s| case(r, s, gen_auth, run_auth),
    },
];

fn case_seed(seed: u64, target: usize, case: u64) -> u64 {
    Rng::new(seed ^ (target as u64).wrapping_mul(0x1000_0000_01B3)).0
        ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

thread_local! {
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    /// Cases that reached the deep end of their target (a schema that compiled and an
    /// answer built from it, a stream with events, a parsed message, a card or a round):
    /// how much of the fuzzing is more than input rejection.
    static DEEP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn deep() {
    DEEP.with(|d| d.set(d.get() + 1));
}

fn main() -> ExitCode {
    let mut seed: u64 = 0x5EED;
    let mut cases: u64 = 1_000_000;
    let mut only: Option<String> = None;
    let mut one: Option<u64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        let parsed = value.as_deref().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), parsed) {
            ("--seed", Some(v)) => seed = v,
            ("--cases", Some(v)) => cases = v,
            ("--case", Some(v)) => one = Some(v),
            ("--target", _) if value.is_some() => only = value.filter(|t| t != "all"),
            _ => {
                eprintln!("usage: fuzz [--seed N] [--cases N] [--target sse|schema|wire|legacy|modern|all] [--case I]");
                return ExitCode::from(2);
            }
        }
    }
    let chosen: Vec<(usize, &Target)> = TARGETS
        .iter()
        .enumerate()
        .filter(|(_, t)| only.as_deref().is_none_or(|o| o == t.name))
        .collect();
    if chosen.is_empty() {
        eprintln!("no such target");
        return ExitCode::from(2);
    }

    if let Some(i) = one {
        // Replay one case with the default panic report (set RUST_BACKTRACE=1 for the stack).
        for (ti, t) in &chosen {
            eprintln!("{} case {i} (seed {seed}):", t.name);
            let mut rng = Rng::new(case_seed(seed, *ti, i));
            (t.run)(&mut rng, true);
            eprintln!("{}: no panic", t.name);
        }
        return ExitCode::SUCCESS;
    }

    panic::set_hook(Box::new(|info| {
        let at = info.location().map(|l| l.to_string()).unwrap_or_default();
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{msg} at {at}"));
    }));
    println!("fuzz: seed {seed}, {cases} cases per target");
    let mut total_panics = 0u64;
    for (ti, t) in chosen {
        let start = Instant::now();
        let mut panics = 0u64;
        DEEP.with(|d| d.set(0));
        for i in 0..cases {
            let mut rng = Rng::new(case_seed(seed, ti, i));
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| (t.run)(&mut rng, false)));
            if outcome.is_err() {
                panics += 1;
                if panics <= 5 {
                    let why = LAST_PANIC.with(|p| p.borrow().clone());
                    let why: String = why.chars().take(2000).collect();
                    println!(
                        "  PANIC {} case {i}: {why}\n    reproduce: scripts/fuzz --seed {seed} --target {} --case {i}",
                        t.name, t.name
                    );
                }
            }
        }
        println!(
            "{:<7} {cases} cases, {panics} panics, {:.1} s ({} reached deep: {})",
            t.name,
            start.elapsed().as_secs_f64(),
            DEEP.with(|d| d.get()),
            t.deep
        );
        total_panics += panics;
    }
    if total_panics > 0 {
        println!("FAILED: {total_panics} panics (seed {seed})");
        ExitCode::FAILURE
    } else {
        println!("ok: 0 panics (seed {seed})");
        ExitCode::SUCCESS
    }
}
