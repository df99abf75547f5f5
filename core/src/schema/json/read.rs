//! A direct reader of JSON text into a [`Json`] tree, for the text the JS API receives
//! (what the engine's `JSON.stringify` writes: no whitespace, few escapes).
//!
//! serde_json's own reader drives a visitor through generic traits, which at the release
//! profile's `opt-level = "z"` stays a chain of calls per byte and per token: it was a third
//! of a one-shot `validateContent` from JS. This one reads bytes in plain loops.
//!
//! It answers as serde_json's `Value` reader does: the same tree, and for text that
//! `JSON.stringify` can write but serde_json refuses, the same words ([`why_not`]). Numbers
//! other than plain integers of up to 18 digits are read by serde_json's own number reader
//! (`Number::from_str`), so `3.0` stays a float and a decimal gets serde_json's rounding.
//! What the reader declines (returns `None`): a lone surrogate escape, a control
//! character, nesting as deep as serde_json's limit, and anything malformed.
use super::{Json, Object};
use serde_json::Number;
use std::borrow::Cow;

/// The deepest nesting read: serde_json's (its 128th open array or object is an error).
const MAX_DEPTH: usize = 127;

/// The tree of `text`, or `None` when it is not JSON ([`why_not`] says why).
pub(super) fn read(text: &str) -> Option<Json<'_>> {
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = r.value(0)?;
    r.skip_whitespace();
    (r.at == r.bytes.len()).then_some(value)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

// `inline(always)` on the per-byte steps: at `opt-level = "z"` rustc calls even these.
impl<'a> Reader<'a> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Moves past the bytes of a string that need no care, to the next `"`, `\\` or
    /// control character (or the end).
    #[inline(always)]
    fn skip_plain(&mut self) {
        let mut at = self.at;
        while let Some(&b) = self.bytes.get(at) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            at += 1;
        }
        self.at = at;
    }

    /// Consumes `b` (after whitespace) or declines.
    fn eat(&mut self, b: u8) -> Option<()> {
        self.skip_whitespace();
        (self.peek()? == b).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Json<'a>> {
        self.skip_whitespace();
        match self.peek()? {
            b'"' => self.string().map(Json::String),
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'n' => self.literal("null", Json::Null),
            b'-' | b'0'..=b'9' => self.number().map(Json::Number),
            _ => None,
        }
    }

    fn literal(&mut self, word: &str, value: Json<'a>) -> Option<Json<'a>> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word.as_bytes()).then(|| {
            self.at = end;
            value
        })
    }

    fn object(&mut self, depth: usize) -> Option<Json<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1; // `{`
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(Json::Object(Object::from_members(members)));
        }
        loop {
            self.skip_whitespace();
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.eat(b':')?;
            members.push((key, self.value(depth)?));
            self.skip_whitespace();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(Json::Object(Object::from_members(members)));
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Json<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1; // `[`
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Json::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(Json::Array(items));
                }
                _ => return None,
            }
        }
    }

    /// A string token (at its `"`), borrowed from the text when it holds no escape.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.at += 1; // `"`
        let start = self.at;
        self.skip_plain();
        match self.peek()? {
            b'"' => {
                let s = self.text.get(start..self.at)?;
                self.at += 1;
                return Some(Cow::Borrowed(s));
            }
            b'\\' => {}
            _ => return None,
        }
        let mut out = String::from(self.text.get(start..self.at)?);
        loop {
            let run = self.at;
            self.skip_plain();
            out.push_str(self.text.get(run..self.at)?);
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => {}
                _ => return None,
            }
            self.at += 1; // `\`
            let escaped = self.peek()?;
            self.at += 1;
            out.push(match escaped {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => self.unicode_escape()?,
                _ => return None,
            });
        }
    }

    /// The character of `\uXXXX` (after the `u`), a surrogate pair read as one; a lone
    /// surrogate is declined.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.at..self.at + 2)? != b"\\u" {
                    return None;
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return None;
                }
                char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            0xDC00..=0xDFFF => None,
            _ => char::from_u32(first),
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.at..self.at + 4)?;
        let mut n = 0;
        for &d in digits {
            n = n * 16 + char::from(d).to_digit(16)?;
        }
        self.at += 4;
        Some(n)
    }

    /// A number token: a plain integer that surely fits is read here, any other token by
    /// serde_json's number reader (so `3.0` stays a float and `1e400` is declined as out of
    /// range).
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.peek() {
            self.at += 1;
        }
        let token = self.text.get(start..self.at)?;
        let (negative, digits) = match token.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, token),
        };
        // Up to 18 digits fit an i64 either way; no leading zero, and not `-0` (a float
        // for serde_json).
        let plain = !digits.is_empty()
            && digits.len() <= 18
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && !(negative && digits == "0");
        if !plain {
            // serde_json's number reader alone: the value its `Value` reader makes of it.
            return token.parse().ok();
        }
        let n = digits
            .bytes()
            .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
        Some(if negative {
            Number::from(-n)
        } else {
            Number::from(n.unsigned_abs())
        })
    }
}

/// Why serde_json's `Value` reader refuses `text`, in its words (as its error's `Display`
/// writes them), for text [`read`] declines. The engine's `JSON.stringify` writes JSON,
/// and of it serde_json refuses only a string with a lone surrogate (written as a `\\u`
/// escape) and nesting past its limit (a host's getter may answer more deeply the second
/// time than the check saw); this finds the first of those as serde_json meets it. Other
/// text, which `JSON.stringify` does not write, gets words of our own.
pub(crate) fn why_not(text: &str) -> String {
    let b = text.as_bytes();
    let at = |code: &str, i: usize| {
        // serde_json's position: the line, and the byte's column within it.
        let before = b.get(..i).unwrap_or(b);
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before
            .iter()
            .take(line_start)
            .filter(|&&c| c == b'\n')
            .count();
        format!("{code} at line {line} column {}", i - line_start)
    };
    const LONE: &str = "lone leading surrogate in hex escape";
    const END: &str = "unexpected end of hex escape";
    // The reader as a cursor: its `hex4` reads an escape's digits as `read` does.
    let mut r = Reader {
        text,
        bytes: b,
        at: 0,
    };
    let (mut depth, mut in_string) = (0usize, false);
    while let Some(c) = r.peek() {
        r.at += 1;
        match (in_string, c) {
            (_, b'"') => in_string = !in_string,
            (false, b'[' | b'{') => {
                depth += 1;
                if depth > MAX_DEPTH {
                    // Refused before the bracket is read: its column is one past it.
                    return at("recursion limit exceeded", r.at);
                }
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            (true, b'\\') => {
                let escaped = r.peek();
                r.at += 1;
                if escaped != Some(b'u') {
                    continue;
                }
                let Some(first) = r.hex4() else { break };
                match first {
                    0xDC00..=0xDFFF => return at(LONE, r.at),
                    0xD800..=0xDBFF => {
                        // A trailing surrogate must follow as `\\u` and four digits.
                        for want in [b'\\', b'u'] {
                            let Some(next) = r.peek() else { break };
                            r.at += 1;
                            if next != want {
                                return at(END, r.at);
                            }
                        }
                        let Some(second) = r.hex4() else { break };
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return at(LONE, r.at);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    "it is not JSON text".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json reads, through the same visitor.
    fn serde(text: &str) -> Option<Json<'_>> {
        serde_json::from_str(text).ok()
    }

    #[test]
    fn reads_as_serde_json_does_or_declines() {
        let cases = [
            r#"{"type":"object","properties":{"a":{"type":"string","minLength":1}}}"#,
            r#" { "a" : [ 1 , -2 , 3.0 , 1e3 , -0 , 0 , true , false , null ] } "#,
            r#"["\"\\\/\b\f\n\r\t","\u00e9\ud83d\ude00x","caf\u00e9 ok","plain é"]"#,
            r#"[18446744073709551615,18446744073709551616,-9223372036854775808,123456789012345678]"#,
            r#"{"k":1,"k":2,"j":3}"#,
            "[]",
            "{}",
            "\"\"",
            "[1e400]",
            "[01]",
            "[1-2]",
            "[\"\\ud800\"]",
            "[\"\\udc00x\"]",
            "[\"\\ud800\\u0041\"]",
            "[\"a\u{1}\"]",
            "[\"\\x\"]",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\"}",
            "[1] 2",
            "tru",
            "nul",
            "[",
            "",
            "\"abc",
            "[\"\\u12\"]",
        ];
        for text in cases {
            // Declined: `why_not` words it (compared in the test below for the text
            // JSON.stringify writes); malformed text has no words to compare.
            if let Some(ours) = read(text) {
                assert_eq!(Some(ours), serde(text), "{text}");
            }
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(read(&deep), None);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(read(&ok), serde(&ok));
    }

    /// serde_json's answer to `text`, as [`Json::parse`] gives it: the tree, or its words.
    fn serde_answer(text: &str) -> Result<Json<'_>, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    fn ours(text: &str) -> Result<Json<'_>, String> {
        read(text).ok_or_else(|| why_not(text))
    }

    #[test]
    fn what_serde_json_refuses_of_json_text_is_refused_in_its_words() {
        let mut cases: Vec<String> = [
            r#"{"type":"object","title":"\ud800"}"#,
            r#"["\udc00"]"#,
            r#"["a\udfffb"]"#,
            r#"["\ud800\u0041"]"#,
            r#"["\ud800\ud800"]"#,
            r#"["\ud800\n"]"#,
            r#"["\ud800x"]"#,
            r#"{"\ud83d\ude00":1,"\udbff":2}"#,
            "[\n  \"ok\",\n  {\"k\": \"\\ud800\"}\n]",
            r#"["[{\"","\\ud800","\\\ud800"]"#,
        ]
        .map(str::to_owned)
        .to_vec();
        for n in [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 5] {
            cases.push(format!("{}{}", "[".repeat(n), "]".repeat(n)));
            cases.push(format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n)));
            cases.push(format!("[\"\\udc00\",{}{}]", "[".repeat(n), "]".repeat(n)));
            cases.push(format!("[{}{},\"\\udc00\"]", "[".repeat(n), "]".repeat(n)));
        }
        let mut refused = 0;
        for text in &cases {
            let want = serde_answer(text);
            refused += usize::from(want.is_err());
            assert_eq!(ours(text), want, "{text}");
        }
        assert!(refused > 12, "{refused} of the cases refused");
    }

    #[test]
    fn reads_what_it_must_not_decline() {
        // The shapes JSON.stringify writes for schemas and answers: read here, not declined.
        for text in [
            r#"{"type":"object","properties":{"n":{"type":"number","minimum":0.5,"maximum":-3}}}"#,
            r#"{"a":"caf\u00e9 \"q\" \\ \n","b":[true,false,null,12.5,-7,0]}"#,
            "[\"\\ud83d\\ude00\"]",
        ] {
            assert!(read(text).is_some(), "{text}");
            assert_eq!(read(text), serde(text), "{text}");
        }
        assert!(read("{\"a\":\"x\"}")
            .and_then(|j| j.as_object().and_then(|o| o.get("a")).cloned())
            .is_some_and(|a| matches!(a, Json::String(Cow::Borrowed("x")))));
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use proptest::prelude::*;
        use serde_json::Value;

        fn text_piece() -> impl Strategy<Value = String> {
            // Escapes, surrogates, quotes, controls and non-ASCII, as text a value may hold.
            proptest::collection::vec(
                prop_oneof![
                    Just("a".to_owned()),
                    Just("\"".to_owned()),
                    Just("\\".to_owned()),
                    Just("\u{1}".to_owned()),
                    Just("é".to_owned()),
                    Just("😀".to_owned()),
                    Just("\n".to_owned()),
                    // Markers the surrogate test writes as lone surrogate escapes.
                    Just("\u{E001}".to_owned()),
                    Just("\u{E002}".to_owned()),
                    Just("\u{E003}".to_owned()),
                    Just("\u{E004}".to_owned()),
                    "[a-z]{0,4}",
                ],
                0..5,
            )
            .prop_map(|parts| parts.concat())
        }

        fn number() -> impl Strategy<Value = Value> {
            prop_oneof![
                any::<i64>().prop_map(Value::from),
                any::<u64>().prop_map(Value::from),
                any::<f64>()
                    .prop_filter("finite", |f| f.is_finite())
                    .prop_map(Value::from),
                (-1000i64..1000).prop_map(Value::from),
            ]
        }

        fn value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                number(),
                text_piece().prop_map(Value::String),
            ];
            leaf.prop_recursive(4, 40, 6, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    proptest::collection::vec((text_piece(), inner), 0..6)
                        .prop_map(|m| Value::Object(m.into_iter().collect())),
                ]
            })
        }

        /// JSON-ish text, mostly malformed: every answer of the reader must be serde_json's.
        fn jsonish() -> impl Strategy<Value = String> {
            proptest::collection::vec(
                prop_oneof![
                    Just("{"),
                    Just("}"),
                    Just("["),
                    Just("]"),
                    Just(","),
                    Just(":"),
                    Just("\""),
                    Just("\\u"),
                    Just("d83d"),
                    Just("\\ude00"),
                    Just("\\"),
                    Just("1"),
                    Just("0"),
                    Just("-"),
                    Just("."),
                    Just("e"),
                    Just("+"),
                    Just("true"),
                    Just("nul"),
                    Just(" "),
                    Just("a"),
                    Just("é"),
                ],
                0..24,
            )
            .prop_map(|parts| parts.concat())
        }

        proptest! {
            #[test]
            fn values_read_alike(v in value(), pretty in any::<bool>()) {
                let text = if pretty {
                    serde_json::to_string_pretty(&v)
                } else {
                    serde_json::to_string(&v)
                }
                .unwrap_or_default();
                let ours = read(&text);
                prop_assert!(ours.is_some(), "declined {}", text);
                prop_assert_eq!(ours, serde(&text));
            }

            /// JSON with lone surrogates written as `JSON.stringify` writes them (`\\udXXX`),
            /// in keys and values: refused in serde_json's words, or read alike.
            #[test]
            fn lone_surrogates_are_refused_as_serde_json_refuses_them(v in value()) {
                let text = serde_json::to_string(&v)
                    .unwrap_or_default()
                    .replace('\u{E001}', "\\ud800")
                    .replace('\u{E002}', "\\udfff")
                    .replace('\u{E003}', "\\udbff\\u0041")
                    .replace('\u{E004}', "\\ud83d\\ude00");
                prop_assert_eq!(ours(&text), serde_answer(&text), "{}", text);
            }

            #[test]
            fn any_text_reads_alike_or_is_declined(text in jsonish()) {
                if let Some(ours) = read(&text) {
                    prop_assert_eq!(Some(ours), serde(&text), "{}", text);
                }
            }
        }
    }
}
