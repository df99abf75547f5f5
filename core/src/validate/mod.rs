//! Coercion of raw form input into typed content, and validation of content against a [`FormSpec`].
//!
//! One code path serves the JS API (`validateContent`) and the UI (per-field and on submit):
//! every entry point ends in the same per-field rule book, so a value the UI accepts is a value
//! `validateContent` accepts, and the reverse.
//!
//! Rules worth knowing:
//! - An empty text, number, date or select control of an optional field is left out of the
//!   content (the server then applies its own default); of a required field it is `required`.
//! - A checkbox always answers `true` or `false`; a multi-select always answers a list, maybe
//!   empty (only `minItems` demands a choice), so unticking every box is expressible.
//! - Lengths count Unicode code points, as JSON Schema does, not bytes or UTF-16 units.
//! - `integer` values must be integral (`3.0` counts, `3.5` does not).
//! - A repeated multi-select choice is reported with code `enum` (the contract has no
//!   `uniqueItems` code): the list is not a valid selection.
//! - `datetime-local` controls give no offset; [`RawInput::LocalDateTime`] (or
//!   [`local_to_rfc3339`]) adds the browser's, and [`rfc3339_to_local`] goes back for pre-fill.

mod error;
pub(crate) mod formats;
mod value;

pub use error::{ErrorCode, FieldError};
pub use formats::{local_to_rfc3339, number_text, rfc3339_to_local};
pub use value::MAX_LISTED_CHOICES;
pub(crate) use value::{value_fits_kind, KindMismatch};

use crate::schema::json::{whole_number, Json};
use crate::schema::{Field, FieldKind, FormSpec, StringFormat};
use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, BTreeSet};
use value::validate_value;

/// What a form control holds before coercion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawInput {
    /// A text, email, url, date, number input, or a select's value.
    Text(String),
    /// A `datetime-local` input's value (`YYYY-MM-DDTHH:MM[:SS]`) and the browser's UTC offset
    /// for that moment in minutes, east positive (`-new Date(text).getTimezoneOffset()`).
    LocalDateTime {
        text: String,
        utc_offset_minutes: i32,
    },
    /// A checkbox.
    Bool(bool),
    /// The checked values of a multi-select.
    List(Vec<String>),
}

/// Coerces and validates one field's raw input. `Ok(None)` means "leave it out of the content"
/// (an optional field left empty).
pub fn check_field(field: &Field, raw: &RawInput) -> Result<Option<Value>, FieldError> {
    let Some(v) = coerce(field, raw)? else {
        return empty(field);
    };
    validate_value(field, &Json::from_value(&v))?;
    Ok(Some(v))
}

/// Coerces and validates a whole form. Every failing field yields one error, in field order;
/// a raw entry naming no field yields `unknownField`.
pub fn coerce_form(
    spec: &FormSpec,
    raw: &[(String, RawInput)],
) -> Result<Map<String, Value>, Vec<FieldError>> {
    let mut content = Map::new();
    let mut errors = Vec::new();
    // The first entry of a name is the one that counts.
    let mut inputs: BTreeMap<&str, &RawInput> = BTreeMap::new();
    for (name, input) in raw {
        inputs.entry(name.as_str()).or_insert(input);
    }
    for field in &spec.fields {
        let result = match inputs.get(field.name.as_str()) {
            Some(input) => check_field(field, input),
            None => empty(field),
        };
        match result {
            Ok(Some(v)) => {
                content.insert(field.name.clone(), v);
            }
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    let known = field_names(spec);
    for (name, _) in raw {
        if !known.contains(name.as_str()) {
            errors.push(unknown(name));
        }
    }
    if errors.is_empty() {
        Ok(content)
    } else {
        Err(errors)
    }
}

/// Validates a content object (as it would be sent) against the spec: one error per failing
/// field, in field order, then one `unknownField` per extra key. On success the content is
/// returned unchanged, since it already is what would be sent.
pub fn validate_content(
    spec: &FormSpec,
    content: &Value,
) -> Result<Map<String, Value>, Vec<FieldError>> {
    check_content(spec, &Json::from_value(content))?;
    // An object, or check_content would have said so.
    Ok(content.as_object().cloned().unwrap_or_default())
}

/// [`validate_content`] without the copy of the content: the JS API already holds the text it
/// was read from, which is the answer as it goes back.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn check_content(spec: &FormSpec, content: &Json<'_>) -> Result<(), Vec<FieldError>> {
    let Some(obj) = content.as_object() else {
        return Err(vec![FieldError::new(
            "",
            ErrorCode::Type,
            "The answer must be an object mapping field names to values.",
        )]);
    };
    // One pass over the content. A key that names the field after the last one found is
    // taken as is (content written in the form's order needs no index); from the first key
    // that does not, each is found among the fields by halves: the content is the host's and
    // may have any number of keys. Until then every field before the next was found by a key
    // of its own name, and a content object holds each key once, so the field taken is also
    // the first of its name, as the index would answer.
    let mut index: Option<FieldIndex> = None;
    let mut next = 0;
    let mut values: Vec<Option<&Json<'_>>> = vec![None; spec.fields.len()];
    let mut strangers = Vec::new();
    for (name, v) in obj.iter() {
        let at = match &index {
            None if spec.fields.get(next).is_some_and(|f| f.name == name) => {
                next += 1;
                Some(next - 1)
            }
            _ => index
                .get_or_insert_with(|| FieldIndex::new(spec))
                .find(spec, name),
        };
        match at.and_then(|i| values.get_mut(i)) {
            Some(slot) => *slot = Some(v),
            None => strangers.push(name),
        }
    }
    let mut errors = Vec::new();
    for (field, value) in spec.fields.iter().zip(values) {
        match value {
            None if field.required => errors.push(required(field)),
            None => {}
            Some(v) => {
                if let Err(e) = validate_value(field, v) {
                    errors.push(e);
                }
            }
        }
    }
    errors.extend(strangers.into_iter().map(unknown));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The content a form starts with: every field's default (SEP-1034).
pub fn defaults(spec: &FormSpec) -> Map<String, Value> {
    spec.fields
        .iter()
        .filter_map(|f| f.default.clone().map(|d| (f.name.clone(), d)))
        .collect()
}

/// What a field's control should start with: its default as raw input, or `None` for an empty
/// control. `utc_offset_minutes` (as in [`RawInput::LocalDateTime`]) is used only to show a
/// `date-time` default in a `datetime-local` control.
pub fn default_input(field: &Field, utc_offset_minutes: i32) -> Option<RawInput> {
    field
        .default
        .as_ref()
        .and_then(|d| input_for_value(field, d, utc_offset_minutes))
}

/// The raw control value that shows `v` (a default, or a typed answer being restored), or
/// `None` when `v` is not of the field's kind. Date-times come back as
/// [`RawInput::Text`] in `datetime-local` form; an unconvertible one is given as is.
pub fn input_for_value(field: &Field, v: &Value, utc_offset_minutes: i32) -> Option<RawInput> {
    match (&field.kind, v) {
        (
            FieldKind::String {
                format: Some(StringFormat::DateTime),
                ..
            },
            Value::String(s),
        ) => Some(RawInput::Text(
            rfc3339_to_local(s, utc_offset_minutes).unwrap_or_else(|| s.clone()),
        )),
        (FieldKind::String { .. } | FieldKind::Select { .. }, Value::String(s)) => {
            Some(RawInput::Text(s.clone()))
        }
        (FieldKind::Number(_) | FieldKind::Integer(_), Value::Number(n)) => {
            Some(RawInput::Text(n.to_string()))
        }
        (FieldKind::Boolean, Value::Bool(b)) => Some(RawInput::Bool(*b)),
        (FieldKind::MultiSelect { .. }, Value::Array(items)) => Some(RawInput::List(
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect(),
        )),
        _ => None,
    }
}

/// Raw input to a typed value, before any rule is checked. `Ok(None)`: the control is empty.
fn coerce(field: &Field, raw: &RawInput) -> Result<Option<Value>, FieldError> {
    let wrong = || {
        Err(FieldError::new(
            &field.name,
            ErrorCode::Type,
            "This control gave a value of the wrong kind for this field.",
        ))
    };
    match (&field.kind, raw) {
        (FieldKind::Boolean, RawInput::Bool(b)) => Ok(Some(Value::Bool(*b))),
        (FieldKind::Boolean, RawInput::Text(t)) => match t.as_str() {
            "" => Ok(None),
            "true" | "on" => Ok(Some(Value::Bool(true))),
            "false" => Ok(Some(Value::Bool(false))),
            _ => Err(FieldError::new(
                &field.name,
                ErrorCode::Type,
                "Must be true or false.",
            )),
        },
        (FieldKind::MultiSelect { .. }, RawInput::List(items)) => Ok(Some(Value::Array(
            items.iter().cloned().map(Value::String).collect(),
        ))),
        // A select whose choices include "" can send it; a select's empty value means
        // "nothing chosen" only when "" is not a choice.
        (FieldKind::Select { options }, RawInput::Text(t))
            if t.is_empty() && options.iter().any(|o| o.value.is_empty()) =>
        {
            Ok(Some(Value::String(String::new())))
        }
        (_, RawInput::Text(t)) | (_, RawInput::LocalDateTime { text: t, .. }) if t.is_empty() => {
            Ok(None)
        }
        (
            FieldKind::String {
                format: Some(StringFormat::DateTime),
                ..
            },
            RawInput::LocalDateTime {
                text,
                utc_offset_minutes,
            },
        ) => match local_to_rfc3339(text, *utc_offset_minutes) {
            Some(s) => Ok(Some(Value::String(s))),
            None => Err(FieldError::new(
                &field.name,
                ErrorCode::Format,
                "Must be a date and time, like 2025-12-26T19:30.",
            )),
        },
        (FieldKind::String { .. }, RawInput::Text(t) | RawInput::LocalDateTime { text: t, .. })
        | (FieldKind::Select { .. }, RawInput::Text(t)) => Ok(Some(Value::String(t.clone()))),
        (FieldKind::Number(_), RawInput::Text(t)) => match parse_number(t) {
            Some(n) => Ok(Some(Value::Number(n))),
            None => Err(FieldError::new(
                &field.name,
                ErrorCode::Type,
                "Must be a number.",
            )),
        },
        (FieldKind::Integer(_), RawInput::Text(t)) => match parse_number(t) {
            Some(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => Ok(Some(Value::Number(n))),
            _ => Err(FieldError::new(
                &field.name,
                ErrorCode::Type,
                "Must be a whole number.",
            )),
        },
        _ => wrong(),
    }
}

/// A number control's text to a JSON number: integral values become JSON integers (`3`, not
/// `3.0`) while they are exact; anything not a finite number is `None`.
fn parse_number(t: &str) -> Option<Number> {
    let t = t.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Some(Number::from(i));
    }
    // Rust's float parser also takes "inf" and "NaN"; JSON has neither.
    let f: f64 = parse_f64(t).filter(|f: &f64| f.is_finite())?;
    whole_number(f).or_else(|| Number::from_f64(f))
}

/// `t` as Rust's `str::parse::<f64>` reads it.
#[cfg(not(target_arch = "wasm32"))]
fn parse_f64(t: &str) -> Option<f64> {
    t.parse().ok()
}

/// `t` as Rust's `str::parse::<f64>` reads it, in wasm with the engine's number reader: the
/// text must be Rust's decimal form (a sign, digits with at most one point and at least one
/// digit, an exponent with digits), and then `parseFloat` reads the whole of it. Rust's own
/// reader (its tables of powers of five, some 7 KB gzip of wasm) is then not linked. The
/// value is the same where the engine rounds correctly (to the nearest double, ties to
/// even), as V8, SpiderMonkey and JavaScriptCore do; ECMA-262 would let an engine round a
/// text of more than 20 significant digits from its first 20 (the browser test
/// `number_text_reads_as_rusts_float_reader` has such a text). Not taken: `inf`,
/// `infinity` and `NaN`, which Rust reads but JSON has not (refused anyway).
#[cfg(target_arch = "wasm32")]
fn parse_f64(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let digits = |from: usize| {
        b.get(from..)
            .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count())
    };
    let mut at = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int = digits(at);
    at += int;
    let mut frac = 0;
    if b.get(at) == Some(&b'.') {
        frac = digits(at + 1);
        at += 1 + frac;
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(b.get(at), Some(b'e' | b'E')) {
        at += 1 + usize::from(matches!(b.get(at + 1), Some(b'+' | b'-')));
        let exp = digits(at);
        if exp == 0 {
            return None;
        }
        at += exp;
    }
    (at == b.len()).then(|| js_sys::parse_float(t))
}

/// The fields' positions sorted by name, to find a field by name in log n comparisons.
struct FieldIndex(Vec<usize>);

impl FieldIndex {
    fn new(spec: &FormSpec) -> Self {
        let mut order: Vec<usize> = (0..spec.fields.len()).collect();
        // By name, then position: the order of a stable sort by name.
        crate::sort::sort_by(&mut order, |a, b| {
            (field_name(spec, *a), *a) < (field_name(spec, *b), *b)
        });
        FieldIndex(order)
    }

    /// The position of the field called `name` (the first, were a name given twice).
    fn find(&self, spec: &FormSpec, name: &str) -> Option<usize> {
        let at = self.0.partition_point(|i| field_name(spec, *i) < name);
        self.0
            .get(at)
            .copied()
            .filter(|i| field_name(spec, *i) == name)
    }
}

fn field_name(spec: &FormSpec, i: usize) -> &str {
    spec.fields.get(i).map_or("", |f| f.name.as_str())
}

/// The spec's field names as an ordered set: lookups a host or server cannot degrade.
fn field_names(spec: &FormSpec) -> BTreeSet<&str> {
    spec.fields.iter().map(|f| f.name.as_str()).collect()
}

fn empty(field: &Field) -> Result<Option<Value>, FieldError> {
    if field.required {
        Err(required(field))
    } else {
        Ok(None)
    }
}

fn required(field: &Field) -> FieldError {
    FieldError::new(&field.name, ErrorCode::Required, "This field is required.")
}

fn unknown(name: &str) -> FieldError {
    FieldError::new(
        name,
        ErrorCode::UnknownField,
        format!("This form has no field named \"{name}\"."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::compile;
    use serde_json::json;

    fn codes(spec: &FormSpec, content: Value) -> Vec<(String, ErrorCode)> {
        match check_content(spec, &Json::from_value(&content)) {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| (e.field, e.code)).collect(),
        }
    }

    #[test]
    fn keys_in_any_order_find_their_fields() {
        let props: serde_json::Map<String, Value> = (0..40)
            .map(|i| (format!("f{i}"), json!({"type": "integer", "maximum": i})))
            .collect();
        let Ok(spec) = compile(&json!({"type": "object", "properties": props})) else {
            panic!("the schema compiles");
        };
        // Each field's own index is its maximum, so a value found by the wrong field fails.
        let in_order: serde_json::Map<String, Value> =
            (0..40).map(|i| (format!("f{i}"), json!(i))).collect();
        assert_eq!(codes(&spec, Value::Object(in_order.clone())), vec![]);
        let mut shuffled: Vec<(String, Value)> = in_order.into_iter().collect();
        shuffled.swap(3, 30);
        shuffled.insert(10, ("nope".into(), json!(1)));
        shuffled.reverse();
        let shuffled: serde_json::Map<String, Value> = shuffled.into_iter().collect();
        assert_eq!(
            codes(&spec, Value::Object(shuffled)),
            vec![("nope".into(), ErrorCode::UnknownField)]
        );
        let too_big: serde_json::Map<String, Value> =
            (0..40).map(|i| (format!("f{i}"), json!(i + 1))).collect();
        assert_eq!(codes(&spec, Value::Object(too_big)).len(), 40);
    }

    /// A hand-made spec may name two fields alike: the first of the name takes the value,
    /// whatever the order of the content's keys.
    #[test]
    fn a_name_given_twice_is_the_first_field_of_it() {
        let Ok(mut spec) = compile(&json!({"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "string"}}}))
        else {
            panic!("the schema compiles");
        };
        let Ok(number) = compile(&json!({"type": "object", "properties": {
            "a": {"type": "number"}}, "required": ["a"]}))
        else {
            panic!("the schema compiles");
        };
        spec.fields.extend(number.fields);
        // The second "a" is required and never given a value.
        let want = vec![("a".to_owned(), ErrorCode::Required)];
        assert_eq!(codes(&spec, json!({"a": "x", "b": "y"})), want);
        assert_eq!(codes(&spec, json!({"b": "y", "a": "x"})), want);
    }
}
