//! A read-only JSON tree for the compiler and the validator, parsed from text or borrowed
//! from a [`serde_json::Value`].
//!
//! Why not `serde_json::Value` itself: its objects are `IndexMap`s (the workspace keeps
//! property order), so every object costs a hash table and every key a String and a SipHash,
//! which was most of the time of a one-shot `validateContent` from JS. Here an object is a
//! vector of members in order, keys and strings borrow the text when it holds no escapes,
//! and a member is found by a linear scan: the compiler asks each object for a fixed handful
//! of keys, so the work stays linear in the schema's size whatever its keys are.
//!
//! Both ways in mean the same as `serde_json::Value`: numbers are read as serde_json reads
//! them (so `3` is a whole number and `3.0` is not), and a repeated key keeps its first place
//! and its last value, as a `preserve_order` map does. Text is read by [`read`], which
//! answers as serde_json's reader does without being it.

use crate::schema::names::{first_places, first_repeat};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::fmt;

mod bytes;
mod read;

// Only the JS API (wasm32) sends the words to its snippet.
#[cfg(target_arch = "wasm32")]
pub(crate) use bytes::WORDS;

/// A JSON value whose strings may borrow from the text or `Value` it was read from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Object<'a>),
}

/// An object's members in their order, each key once (from JS, as the language keeps them:
/// [`Object::from_distinct_members`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Object<'a>(Vec<(Cow<'a, str>, Json<'a>)>);

impl<'a> Object<'a> {
    /// The value of `key`.
    // The length and first byte first: at `opt-level = "z"` a `==` on strings is a call (and
    // another to memcmp), and the compiler asks each member object for some 15 keys, most of
    // them absent, several as long as one present ("enum", "type", "$ref").
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        let want = key.as_bytes();
        for (k, v) in &self.0 {
            let k = k.as_bytes();
            if k.len() == want.len() && k.first() == want.first() && k == want {
                return Some(v);
            }
        }
        None
    }

    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The members in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The keys in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_ref())
    }

    /// Members whose keys are distinct by where they come from, kept as they are: an
    /// object the JS API's snippet wrote from `Object.keys`, which never lists a key twice
    /// (not even for a Proxy: the language refuses an `ownKeys` answer with a repeat). So
    /// the encoding's reader skips [`Object::from_members`]' look for repeats, some 4% of a
    /// small one-shot `validateContent` and 6% of a 20-field one in Node. Only a changed
    /// snippet could write a key twice; the object would then hold both members, and `get`
    /// find the first: wrong answers for that host's own values, nothing unsafe.
    pub(super) fn from_distinct_members(members: Vec<(Cow<'a, str>, Json<'a>)>) -> Self {
        Object(members)
    }

    /// Members as read, a repeated key folded into its first place with its last value. The
    /// repeats are found as a choice list's are ([`names`]: pair by pair up to
    /// [`names::SMALL`] keys, sorted beyond, so a server-sized object stays n log n).
    ///
    /// [`names`]: crate::schema::names
    /// [`names::SMALL`]: crate::schema::names::SMALL
    fn from_members(mut members: Vec<(Cow<'a, str>, Json<'a>)>) -> Self {
        let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
        if first_repeat(&keys).is_none() {
            drop(keys);
            return Object(members);
        }
        // Rare (JSON.stringify never writes a key twice): rebuild in first-place order.
        let firsts = first_places(&keys);
        drop(keys);
        // Where in `out` the member first seen at each place went.
        let mut place: Vec<usize> = vec![0; members.len()];
        let mut out: Vec<(Cow<'a, str>, Json<'a>)> = Vec::with_capacity(members.len());
        for ((k, v), (i, first)) in members.drain(..).zip(firsts.into_iter().enumerate()) {
            if first == i {
                if let Some(p) = place.get_mut(i) {
                    *p = out.len();
                }
                out.push((k, v));
            } else if let Some(slot) = place.get(first).and_then(|&p| out.get_mut(p)) {
                slot.1 = v;
            }
        }
        Object(out)
    }
}

impl<'a> Json<'a> {
    /// Reads JSON text, as `serde_json::from_str` would read it into a `Value` (the same
    /// tree, or for what `JSON.stringify` writes an error in the same words: [`read::why_not`]),
    /// but for serde_json's private raw-value token: with the `raw_value` feature its `Value`
    /// reader takes an object keyed by it as raw JSON text, where here it is an object like
    /// any other.
    // Natively only the tests read text: the JS API (wasm32) is what needs it.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn parse(text: &'a str) -> Result<Json<'a>, String> {
        read::read(text).ok_or_else(|| read::why_not(text))
    }

    /// Reads the encoding the JS API's snippet writes (see [`bytes`]), or `None` when the
    /// bytes are not one whole value in it.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn from_bytes(bytes: &'a [u8]) -> Option<Json<'a>> {
        bytes::read(bytes)
    }

    /// `value`, borrowing its strings.
    pub(crate) fn from_value(value: &'a Value) -> Json<'a> {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            // A Map holds each key once already.
            Value::Object(map) => Json::Object(Object(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                    .collect(),
            )),
        }
    }

    /// The same value as a `serde_json::Value` (what `json_from_js` answers).
    // Natively only the tests use it: `json_from_js` (wasm32) does.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.as_ref().to_owned()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// The same value as a `serde_json::Value` when it holds no object (what a
    /// [`FormSpec`] keeps of a default, which is never one), else `None`: building a
    /// `Value`'s object map takes a hash table's code (2.3 KB of the core's wasm, gzip),
    /// which the core's JS API need not carry.
    ///
    /// [`FormSpec`]: super::FormSpec
    pub(crate) fn to_value_without_objects(&self) -> Option<Value> {
        Some(match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.as_ref().to_owned()),
            Json::Array(items) => Value::Array(
                items
                    .iter()
                    .map(Json::to_value_without_objects)
                    .collect::<Option<_>>()?,
            ),
            Json::Object(_) => return None,
        })
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    pub(crate) fn as_number(&self) -> Option<&Number> {
        match self {
            Json::Number(n) => Some(n),
            _ => None,
        }
    }

    /// A whole number of zero or more, as `Value::as_u64` says.
    pub(crate) fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Json::String(_))
    }

    pub(crate) fn is_boolean(&self) -> bool {
        matches!(self, Json::Bool(_))
    }
}

/// A whole `f64` of at most 2^53 as the whole number it is (zero and up a `u64`, else an
/// `i64`, as serde_json reads digits); `None` for any other. Up to 2^53 every whole `f64`
/// is exact, and `JSON.stringify` writes it as its exact digits.
pub(crate) fn whole_number(x: f64) -> Option<Number> {
    // 2^53. A whole `f64` within it casts to `i64` exactly.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    (x.fract() == 0.0 && x.abs() <= EXACT).then(|| Number::from(x as i64))
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Json<'de>, E> {
        // As serde_json's Value: a float it cannot hold (never from JSON text) is null.
        Ok(Number::from_f64(f).map_or(Json::Null, Json::Number))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }
    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(Key(k)) = map.next_key()? {
            members.push((k, map.next_value()?));
        }
        Ok(Json::Object(Object::from_members(members)))
    }
}

/// A member name, borrowed from the text when it holds no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_and_value_read_alike() {
        let text = r#"{"b":[1,-2,3.0,"x\"y",null,true],"a":{"k":1e3},"c":18446744073709551615}"#;
        let value: Value = serde_json::from_str(text).unwrap_or_default();
        let parsed = Json::parse(text).unwrap_or(Json::Null);
        assert_eq!(parsed, Json::from_value(&value));
        assert_eq!(parsed.to_value(), value);
        assert!(
            parsed
                .as_object()
                .and_then(|o| o.get("c"))
                .and_then(Json::as_u64)
                == Some(u64::MAX)
        );
    }

    #[test]
    fn a_value_without_objects_converts_as_to_value_does() {
        for text in [r#"null"#, r#"[true,-2,3.5,"x",[],["a",["b"]]]"#, r#""s""#] {
            let parsed = Json::parse(text).unwrap_or(Json::Object(Object::default()));
            assert_eq!(
                parsed.to_value_without_objects(),
                Some(parsed.to_value()),
                "{text}"
            );
        }
        for text in [r#"{}"#, r#"[1,{"a":1}]"#, r#"[[{}]]"#] {
            let parsed = Json::parse(text).unwrap_or(Json::Null);
            assert_eq!(parsed.to_value_without_objects(), None, "{text}");
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_last_value() {
        for n in [3, crate::schema::names::SMALL + 5] {
            let mut text = String::from("{");
            for i in 0..n {
                text.push_str(&format!("\"k{i}\":{i},"));
            }
            text.push_str("\"k1\":\"last\"}");
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let parsed = Json::parse(&text).unwrap_or(Json::Null);
            assert_eq!(parsed.to_value(), value);
            let keys: Vec<&str> = parsed
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            assert_eq!(keys.len(), n);
            assert_eq!(keys.get(1), Some(&"k1"));
            assert_eq!(
                parsed.as_object().and_then(|o| o.get("k1")),
                Some(&Json::String("last".into()))
            );
        }
        assert_eq!(
            Json::parse("[]").map(|j| j.to_value()).ok(),
            Some(json!([]))
        );
    }
}
