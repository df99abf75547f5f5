//! A direct reader of JSON text into a [`Json`] tree, for the text the JS API receives
//! (what the engine's `JSON.stringify` writes: no whitespace, few escapes).
//!
//! serde_json's own reader drives a visitor through generic traits, which at the release
//! profile's `opt-level = "z"` stays a chain of calls per byte and per token: it was a third
//! of a one-shot `validateContent` from JS. This one reads bytes in plain loops.
//!
//! It never decides anything serde_json would decide otherwise: it reads only what it is sure
//! of and declines the rest (returns `None`): a lone surrogate escape, a control character,
//! a number that is not a plain integer of up to 18 digits (such tokens are handed to
//! serde_json itself, which declines with the whole text if they are not numbers),
//! nesting deeper than [`MAX_DEPTH`], and anything malformed. The caller then reads the whole
//! text with serde_json, so an answer, and every error and its words, are serde_json's.

use super::{Json, Object};
use serde_json::Number;
use std::borrow::Cow;

/// Deeper than this, the reader declines and serde_json decides (its own limit is 128).
const MAX_DEPTH: usize = 100;

/// The tree of `text`, or `None` when serde_json is to read it.
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
    /// serde_json itself (so `3.0` stays a float and `1e400` is declined as out of range).
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
            // Through the reader serde_json already has for the whole text (no second one).
            return match serde_json::from_str(token).ok()? {
                Json::Number(n) => Some(n),
                _ => None,
            };
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
            // Declined: serde_json decides, nothing to compare.
            if let Some(ours) = read(text) {
                assert_eq!(Some(ours), serde(text), "{text}");
            }
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(read(&deep), None);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(read(&ok), serde(&ok));
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

            #[test]
            fn any_text_reads_alike_or_is_declined(text in jsonish()) {
                if let Some(ours) = read(&text) {
                    prop_assert_eq!(Some(ours), serde(&text), "{}", text);
                }
            }
        }
    }
}
