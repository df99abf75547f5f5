//! A reader of the compact encoding that the JS API's snippet writes for a host's value
//! (`encodeJson` in `core/src/js_strict_json.js`, which documents the layout): the value
//! crosses into wasm without being written as JSON text and read back.
//!
//! The snippet writes only values whose JSON text is not in doubt, so the tree is the one
//! [`Json::parse`] would make of `JSON.stringify`'s text. A number that is neither an int32
//! nor a whole one below 2^53 comes as that text itself and is read by [`Json::parse`]: so
//! a schema and its content read a number alike whichever way each crossed, even where
//! serde_json's reading of a decimal (without its `float_roundtrip` feature, 9 KB of wasm)
//! is one unit in the last place off the host's `f64`.
//!
//! Anything malformed (which the snippet does not write) makes the reader decline, and the
//! caller then takes the text way. Nothing here trusts a count or a length: each is checked
//! against the bytes left, and nesting is bounded. An object's keys are taken as distinct,
//! as JS keeps them ([`Object::from_distinct_members`]).

use super::{whole_number, Json, Object};
use std::borrow::Cow;

/// The snippet gives up deeper than 100 levels; this bounds the reader's own recursion.
const MAX_DEPTH: usize = 101;

/// The tags, as `encodeJson` names them.
const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const STRING: u8 = 5;
const ARRAY: u8 = 6;
const OBJECT: u8 = 7;
const NUMBER_TEXT: u8 = 8;

/// The strings the snippet writes by their place in this list instead of in full: as the
/// length of a string (a value or a key), `WORD + i` stands for `WORDS[i]` and no bytes
/// follow. These are the keywords and type names every `requestedSchema` repeats; writing
/// them out in JS is a loop over their characters, about half of the strings' time on a
/// typical schema in Node. The snippet gets this list once per module (`setWords`, from
/// `crate::js`), so it lives here alone.
pub(crate) const WORDS: [&str; 35] = [
    "type",
    "title",
    "description",
    "properties",
    "required",
    "default",
    "enum",
    "enumNames",
    "oneOf",
    "anyOf",
    "const",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "items",
    "minItems",
    "maxItems",
    "$schema",
    "$ref",
    "additionalProperties",
    "object",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "email",
    "uri",
    "date",
    "date-time",
];

/// 2^31: a length from here on is a word's place (see [`WORDS`]). The snippet writes no
/// string of this many bytes or more in full (it gives up on one that might be).
const WORD: usize = 1 << 31;

/// The tree of `bytes`, or `None` when they are not one whole value in the encoding.
pub(super) fn read(bytes: &[u8]) -> Option<Json<'_>> {
    let mut r = Reader(bytes);
    let value = r.value(0)?;
    r.0.is_empty().then_some(value)
}

struct Reader<'a>(&'a [u8]);

// `inline(always)` on the small steps: at `opt-level = "z"` rustc calls even these.
impl<'a> Reader<'a> {
    #[inline(always)]
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    #[inline(always)]
    fn u32(&mut self) -> Option<usize> {
        usize::try_from(u32::from_le_bytes(self.take()?)).ok()
    }

    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let len = self.u32()?;
        if let Some(word) = len.checked_sub(WORD) {
            return WORDS.get(word).map(|w| Cow::Borrowed(*w));
        }
        if len > self.0.len() {
            return None;
        }
        let (text, rest) = self.0.split_at(len);
        self.0 = rest;
        std::str::from_utf8(text).ok().map(Cow::Borrowed)
    }

    /// Room for `count` items, at most one per byte left (each takes one at least).
    #[inline(always)]
    fn capacity(&self, count: usize) -> usize {
        count.min(self.0.len())
    }

    fn value(&mut self, depth: usize) -> Option<Json<'a>> {
        let [tag] = self.take()?;
        Some(match tag {
            NULL => Json::Null,
            FALSE => Json::Bool(false),
            TRUE => Json::Bool(true),
            // serde_json's `From` for signed numbers makes zero and up a `u64`, as its reader
            // does with digits.
            INT => Json::Number(i32::from_le_bytes(self.take()?).into()),
            FLOAT => Json::Number(whole_number(f64::from_le_bytes(self.take()?))?),
            STRING => Json::String(self.string()?),
            NUMBER_TEXT => match Json::parse(&self.string()?) {
                Ok(Json::Number(n)) => Json::Number(n),
                _ => return None,
            },
            ARRAY | OBJECT if depth >= MAX_DEPTH => return None,
            ARRAY => {
                let count = self.u32()?;
                let mut items = Vec::with_capacity(self.capacity(count));
                for _ in 0..count {
                    items.push(self.value(depth + 1)?);
                }
                Json::Array(items)
            }
            OBJECT => {
                let count = self.u32()?;
                let mut members = Vec::with_capacity(self.capacity(count));
                for _ in 0..count {
                    let key = self.string()?;
                    members.push((key, self.value(depth + 1)?));
                }
                Json::Object(Object::from_distinct_members(members))
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(out: &mut Vec<u8>, s: &str) {
        out.extend((s.len() as u32).to_le_bytes());
        out.extend(s.as_bytes());
    }

    /// `s` as the snippet writes it: by its place when it is a word, else in full.
    fn text(out: &mut Vec<u8>, s: &str) {
        match WORDS.iter().position(|w| *w == s) {
            Some(i) => out.extend(((WORD + i) as u32).to_le_bytes()),
            None => string(out, s),
        }
    }

    #[test]
    fn words_read_as_themselves() {
        let mut b = vec![OBJECT, 2, 0, 0, 0];
        text(&mut b, "type");
        b.push(STRING);
        text(&mut b, "date-time");
        text(&mut b, "typo");
        b.push(STRING);
        text(&mut b, "string");
        assert_eq!(
            read(&b),
            Json::parse(r#"{"type":"date-time","typo":"string"}"#).ok()
        );
        // A place past the list, as a value and as a key.
        let past = ((WORD + WORDS.len()) as u32).to_le_bytes();
        assert_eq!(read(&[&[STRING][..], &past].concat()), None);
        assert_eq!(
            read(&[&[OBJECT, 1, 0, 0, 0][..], &past, &[NULL]].concat()),
            None
        );
        // The list is sent joined by spaces, and a word is looked up by its text.
        for (i, w) in WORDS.iter().enumerate() {
            assert!(!w.is_empty() && !w.contains(' '), "{w:?}");
            assert!(!WORDS[..i].contains(w), "{w} twice");
        }
    }

    #[test]
    fn reads_what_the_snippet_writes() {
        // {"a":[null,false,true,-7,2.5,3000000000,"é"],"b":{}}
        let mut b = vec![7, 2, 0, 0, 0];
        string(&mut b, "a");
        b.extend([6, 7, 0, 0, 0, 0, 1, 2, 3]);
        b.extend((-7i32).to_le_bytes());
        b.push(8);
        string(&mut b, "2.5");
        b.push(4);
        b.extend(3e9f64.to_le_bytes());
        b.push(5);
        string(&mut b, "é");
        string(&mut b, "b");
        b.extend([7, 0, 0, 0, 0]);
        let text = r#"{"a":[null,false,true,-7,2.5,3000000000,"é"],"b":{}}"#;
        assert_eq!(read(&b), Json::parse(text).ok());
        assert_eq!(
            read(&b).map(|j| j.to_value().to_string()).as_deref(),
            Some(text)
        );
    }

    #[test]
    fn declines_what_is_malformed() {
        let huge_count = [6, 0xff, 0xff, 0xff, 0xff, 0];
        let long_string = [5, 9, 0, 0, 0, b'a'];
        let not_utf8 = [5, 1, 0, 0, 0, 0xff];
        let trailing = [0, 0];
        let nan = [&[4][..], &f64::NAN.to_le_bytes()].concat();
        let unknown = [9];
        let whole_too_big = [&[4][..], &1e300f64.to_le_bytes()].concat();
        let half = [&[4][..], &0.5f64.to_le_bytes()].concat();
        let text_not_a_number = [8, 1, 0, 0, 0, b'x'];
        let text_not_a_number_only = [8, 3, 0, 0, 0, b'[', b'1', b']'];
        for bytes in [
            &huge_count[..],
            &long_string,
            &not_utf8,
            &trailing,
            &nan,
            &unknown,
            &whole_too_big,
            &half,
            &text_not_a_number,
            &text_not_a_number_only,
            &[],
            &[3, 1],
        ] {
            assert_eq!(read(bytes), None, "{bytes:?}");
        }
        let mut deep = [6, 1, 0, 0, 0].repeat(MAX_DEPTH + 1);
        deep.push(0);
        assert_eq!(read(&deep), None);
        let mut ok = [6, 1, 0, 0, 0].repeat(MAX_DEPTH);
        ok.push(0);
        assert!(read(&ok).is_some());
    }

    #[test]
    fn numbers_read_as_serde_json_reads_their_text() {
        for (x, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (-1.0, "-1"),
            (4294967296.0, "4294967296"),
            (-9007199254740991.0, "-9007199254740991"),
        ] {
            let want: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
            assert_eq!(
                whole_number(x).map(serde_json::Value::Number),
                Some(want),
                "{text}"
            );
        }
        // Any other number comes as its text, and is read as the text way reads it.
        for text in [
            "1e+21",
            "0.5",
            "-1e-7",
            "942.3766457461393",
            "1152921504606847000",
        ] {
            let mut b = vec![8];
            string(&mut b, text);
            assert_eq!(read(&b), Json::parse(text).ok(), "{text}");
        }
    }

    // Native only: proptest does not build for wasm32 (core/Cargo.toml).
    #[cfg(not(target_arch = "wasm32"))]
    mod props {
        use super::*;
        use serde_json::Value;

        /// The encoding of `v` as the snippet writes it (`encodeJson`), for the property tests.
        fn encode(out: &mut Vec<u8>, v: &Value) {
            match v {
                Value::Null => out.push(NULL),
                Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
                Value::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
                    Some(i) => {
                        out.push(INT);
                        out.extend(i.to_le_bytes());
                    }
                    None if n.as_i64().is_some() => {
                        out.push(FLOAT);
                        out.extend(n.as_f64().unwrap_or_default().to_le_bytes());
                    }
                    None => {
                        out.push(NUMBER_TEXT);
                        string(out, &n.to_string());
                    }
                },
                Value::String(s) => {
                    out.push(STRING);
                    text(out, s);
                }
                Value::Array(items) => {
                    out.push(ARRAY);
                    out.extend((items.len() as u32).to_le_bytes());
                    items.iter().for_each(|item| encode(out, item));
                }
                Value::Object(map) => {
                    out.push(OBJECT);
                    out.extend((map.len() as u32).to_le_bytes());
                    for (k, v) in map {
                        text(out, k);
                        encode(out, v);
                    }
                }
            }
        }

        fn json_value() -> impl proptest::strategy::Strategy<Value = Value> {
            use proptest::prelude::*;
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                any::<i32>().prop_map(Value::from),
                (-(1i64 << 53) + 1..(1i64 << 53)).prop_map(Value::from),
                // Whole numbers come from the two leaves above, as JSON text writes them.
                any::<f64>()
                    .prop_filter("finite, not whole", |x| x.is_finite() && x.fract() != 0.0)
                    .prop_map(Value::from),
                ".{0,12}".prop_map(Value::String),
                proptest::sample::select(&WORDS[..]).prop_map(Value::from),
            ];
            leaf.prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    proptest::collection::btree_map(
                        prop_oneof![
                            ".{0,6}",
                            proptest::sample::select(&WORDS[..]).prop_map(String::from)
                        ],
                        inner,
                        0..6
                    )
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
                ]
            })
        }

        proptest::proptest! {
            /// Whatever the bytes, the reader answers: it never panics.
            #[test]
            fn any_bytes_are_read_or_declined(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
                let _ = read(&bytes);
            }

            /// A value written as the snippet writes it reads back as its JSON text reads:
            /// its whole numbers (as an int32, or as an `f64` below 2^53) as whole numbers,
            /// its other numbers from their text.
            #[test]
            fn an_encoded_value_reads_back(v in json_value()) {
                let mut bytes = Vec::new();
                encode(&mut bytes, &v);
                let text: Option<Value> = serde_json::from_str(&v.to_string()).ok();
                proptest::prop_assert_eq!(read(&bytes).map(|j| j.to_value()), text);
            }

            /// A valid encoding with one byte changed, or cut short, is read or declined.
            #[test]
            fn a_spoiled_encoding_is_read_or_declined(
                v in json_value(),
                at in proptest::prelude::any::<proptest::sample::Index>(),
                byte in proptest::prelude::any::<u8>(),
                cut in proptest::prelude::any::<bool>(),
            ) {
                let mut bytes = Vec::new();
                encode(&mut bytes, &v);
                let i = at.index(bytes.len());
                if cut {
                    bytes.truncate(i);
                    proptest::prop_assert_eq!(read(&bytes), None);
                } else if let Some(b) = bytes.get_mut(i) {
                    *b = byte;
                    let _ = read(&bytes);
                }
            }
        }
    }
}
