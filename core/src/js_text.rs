//! The JSON text of what the JS API answers ([`FormSpec`], `{ok: false, errors}`), written
//! by hand: the same text `serde_json::to_string` writes of the types' `Serialize` (the
//! tests compare), without serde's serializer machinery in the wasm (it was some 11 KB of
//! the core's wasm, 4.7 KB gzip). The text is read once by the engine's `JSON.parse`.

use crate::schema::{Field, FieldKind, FormSpec, NumberBounds, StringFormat};
use crate::validate::{ErrorCode, FieldError};
use serde_json::{Number, Value};

/// `serde_json::to_string(spec)`.
pub(crate) fn form_spec(spec: &FormSpec) -> String {
    let mut w = Writer::default();
    w.out.push('{');
    w.opt_str("title", spec.title.as_deref());
    w.opt_str("description", spec.description.as_deref());
    w.key("fields");
    w.out.push('[');
    for (i, field) in spec.fields.iter().enumerate() {
        if i > 0 {
            w.out.push(',');
        }
        w.field(field);
    }
    w.out.push_str("]}");
    w.out
}

/// `serde_json::to_string` of `{ok: false, errors}` (js.rs's `Refused`).
pub(crate) fn refused(errors: &[FieldError]) -> String {
    let mut w = Writer::default();
    w.out.push_str("{\"ok\":false,\"errors\":[");
    for (i, e) in errors.iter().enumerate() {
        if i > 0 {
            w.out.push(',');
        }
        w.out.push('{');
        w.str_member("field", &e.field);
        w.str_member("code", code_name(e.code));
        w.str_member("message", &e.message);
        w.out.push('}');
    }
    w.out.push_str("]}");
    w.out
}

/// The code's name as serde writes it (`rename_all = "camelCase"`).
fn code_name(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Required => "required",
        ErrorCode::Type => "type",
        ErrorCode::MinLength => "minLength",
        ErrorCode::MaxLength => "maxLength",
        ErrorCode::Pattern => "pattern",
        ErrorCode::Format => "format",
        ErrorCode::Minimum => "minimum",
        ErrorCode::Maximum => "maximum",
        ErrorCode::Enum => "enum",
        ErrorCode::MinItems => "minItems",
        ErrorCode::MaxItems => "maxItems",
        ErrorCode::UnknownField => "unknownField",
    }
}

/// Text being written: each member is preceded by a comma but the first of its object.
#[derive(Default)]
struct Writer {
    out: String,
}

impl Writer {
    /// `"key":`, after a comma unless the object has just opened.
    fn key(&mut self, key: &str) {
        if !self.out.ends_with('{') {
            self.out.push(',');
        }
        self.string(key);
        self.out.push(':');
    }

    fn str_member(&mut self, key: &str, value: &str) {
        self.key(key);
        self.string(value);
    }

    fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.str_member(key, v);
        }
    }

    fn opt_u64(&mut self, key: &str, value: Option<u64>) {
        if let Some(v) = value {
            self.key(key);
            self.number(&Number::from(v));
        }
    }

    fn opt_f64(&mut self, key: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.key(key);
            // As serde_json: a float that is not finite is written as null.
            match Number::from_f64(v) {
                Some(n) => self.number(&n),
                None => self.out.push_str("null"),
            }
        }
    }

    fn number(&mut self, n: &Number) {
        // serde_json's Display of a Number is what its serializer writes (itoa, zmij).
        self.out.push_str(&n.to_string());
    }

    /// A JSON string, escaped as serde_json escapes it.
    fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\0'..='\u{1f}' => {
                    let b = c as usize;
                    self.out.push_str("\\u00");
                    for digit in [b >> 4, b & 0xF] {
                        self.out
                            .push(char::from(HEX.get(digit).copied().unwrap_or(b'0')));
                    }
                }
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Number(n) => self.number(n),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.value(item);
                }
                self.out.push(']');
            }
            Value::Object(map) => {
                self.out.push('{');
                for (k, item) in map {
                    self.key(k);
                    self.value(item);
                }
                self.out.push('}');
            }
        }
    }

    fn field(&mut self, f: &Field) {
        self.out.push('{');
        self.str_member("name", &f.name);
        self.str_member("label", &f.label);
        self.opt_str("description", f.description.as_deref());
        self.key("required");
        self.out.push_str(if f.required { "true" } else { "false" });
        if let Some(d) = &f.default {
            self.key("default");
            self.value(d);
        }
        match &f.kind {
            FieldKind::String {
                min_length,
                max_length,
                format,
                pattern,
            } => {
                self.str_member("kind", "string");
                self.opt_u64("minLength", *min_length);
                self.opt_u64("maxLength", *max_length);
                self.opt_str("format", format.map(format_name));
                self.opt_str("pattern", pattern.as_ref().map(|p| p.as_str()));
            }
            FieldKind::Number(b) => {
                self.str_member("kind", "number");
                self.bounds(b);
            }
            FieldKind::Integer(b) => {
                self.str_member("kind", "integer");
                self.bounds(b);
            }
            FieldKind::Boolean => self.str_member("kind", "boolean"),
            FieldKind::Select { options } => {
                self.str_member("kind", "select");
                self.options(options);
            }
            FieldKind::MultiSelect {
                options,
                min_items,
                max_items,
            } => {
                self.str_member("kind", "multiSelect");
                self.options(options);
                self.opt_u64("minItems", *min_items);
                self.opt_u64("maxItems", *max_items);
            }
        }
        self.out.push('}');
    }

    fn bounds(&mut self, b: &NumberBounds) {
        self.opt_f64("minimum", b.minimum);
        self.opt_f64("maximum", b.maximum);
        self.opt_f64("exclusiveMinimum", b.exclusive_minimum);
        self.opt_f64("exclusiveMaximum", b.exclusive_maximum);
    }

    fn options(&mut self, options: &[crate::schema::EnumOption]) {
        self.key("options");
        self.out.push('[');
        for (i, o) in options.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push('{');
            self.str_member("value", &o.value);
            self.str_member("title", &o.title);
            self.out.push('}');
        }
        self.out.push(']');
    }
}

fn format_name(f: StringFormat) -> &'static str {
    match f {
        StringFormat::Email => "email",
        StringFormat::Uri => "uri",
        StringFormat::Date => "date",
        StringFormat::DateTime => "date-time",
    }
}

/// The text is serde_json's of the `Serialize` derives, byte for byte.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::schema::{EnumOption, Pattern};
    use proptest::prelude::*;
    use serde::Serialize;

    /// What js.rs serialized before: the `{ok: false, errors}` answer.
    #[derive(Serialize)]
    struct Refused<'a> {
        ok: bool,
        errors: &'a [FieldError],
    }

    fn text() -> impl Strategy<Value = String> {
        // Every character serde_json escapes, and non-ASCII.
        proptest::collection::vec(
            prop_oneof![
                Just("a".to_owned()),
                Just("\"".to_owned()),
                Just("\\".to_owned()),
                Just("/".to_owned()),
                Just("{".to_owned()),
                Just("é".to_owned()),
                Just("😀".to_owned()),
                Just("\u{7f}".to_owned()),
                Just("\u{2028}".to_owned()),
                (0u32..0x20).prop_map(|c| char::from_u32(c).map(String::from).unwrap_or_default()),
                "[a-zA-Z0-9 ]{0,6}",
            ],
            0..6,
        )
        .prop_map(|parts| parts.concat())
    }

    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            (-1000i32..1000).prop_map(f64::from),
            Just(0.1),
            Just(-0.0),
            Just(1e21),
            Just(1e-7),
            Just(f64::MAX),
            Just(f64::MIN_POSITIVE),
            Just(f64::NAN),
            Just(f64::INFINITY),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            float().prop_map(Value::from),
            text().prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::vec((text(), inner), 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn bounds() -> impl Strategy<Value = NumberBounds> {
        (
            proptest::option::of(float()),
            proptest::option::of(float()),
            proptest::option::of(float()),
            proptest::option::of(float()),
        )
            .prop_map(|(a, b, c, d)| NumberBounds {
                minimum: a,
                maximum: b,
                exclusive_minimum: c,
                exclusive_maximum: d,
            })
    }

    fn options() -> impl Strategy<Value = Vec<EnumOption>> {
        proptest::collection::vec(
            (text(), text()).prop_map(|(value, title)| EnumOption { value, title }),
            0..4,
        )
    }

    fn kind() -> impl Strategy<Value = FieldKind> {
        let count = || proptest::option::of(any::<u64>());
        let format = proptest::option::of(prop_oneof![
            Just(StringFormat::Email),
            Just(StringFormat::Uri),
            Just(StringFormat::Date),
            Just(StringFormat::DateTime),
        ]);
        let pattern = proptest::option::of(
            prop_oneof![
                text(),
                Just("^[a-z]+\\d{2}$".to_owned()),
                Just("(".to_owned())
            ]
            .prop_map(|p| Pattern::compile(&p)),
        );
        prop_oneof![
            (count(), count(), format, pattern).prop_map(|(a, b, format, pattern)| {
                FieldKind::String {
                    min_length: a,
                    max_length: b,
                    format,
                    pattern,
                }
            }),
            bounds().prop_map(FieldKind::Number),
            bounds().prop_map(FieldKind::Integer),
            Just(FieldKind::Boolean),
            options().prop_map(|options| FieldKind::Select { options }),
            (options(), count(), count()).prop_map(|(options, min_items, max_items)| {
                FieldKind::MultiSelect {
                    options,
                    min_items,
                    max_items,
                }
            }),
        ]
    }

    fn field() -> impl Strategy<Value = Field> {
        (
            text(),
            text(),
            proptest::option::of(text()),
            any::<bool>(),
            proptest::option::of(value()),
            kind(),
        )
            .prop_map(
                |(name, label, description, required, default, kind)| Field {
                    name,
                    label,
                    description,
                    required,
                    default,
                    kind,
                },
            )
    }

    fn code() -> impl Strategy<Value = ErrorCode> {
        prop_oneof![
            Just(ErrorCode::Required),
            Just(ErrorCode::Type),
            Just(ErrorCode::MinLength),
            Just(ErrorCode::MaxLength),
            Just(ErrorCode::Pattern),
            Just(ErrorCode::Format),
            Just(ErrorCode::Minimum),
            Just(ErrorCode::Maximum),
            Just(ErrorCode::Enum),
            Just(ErrorCode::MinItems),
            Just(ErrorCode::MaxItems),
            Just(ErrorCode::UnknownField),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn form_specs_are_written_as_serde_json_writes_them(
            title in proptest::option::of(text()),
            description in proptest::option::of(text()),
            fields in proptest::collection::vec(field(), 0..5),
        ) {
            let spec = FormSpec { title, description, fields };
            prop_assert_eq!(form_spec(&spec), serde_json::to_string(&spec).unwrap_or_default());
        }

        #[test]
        fn refusals_are_written_as_serde_json_writes_them(
            errors in proptest::collection::vec(
                (text(), code(), text()).prop_map(|(f, c, m)| FieldError::new(&f, c, m)),
                0..5,
            ),
        ) {
            let want = serde_json::to_string(&Refused { ok: false, errors: &errors });
            prop_assert_eq!(refused(&errors), want.unwrap_or_default());
        }
    }

    /// Every code and format by name, and a spec the compiler made.
    #[test]
    fn every_name_and_a_compiled_spec() {
        for code in [
            ErrorCode::Required,
            ErrorCode::UnknownField,
            ErrorCode::MinItems,
        ] {
            let errors = [FieldError::new("a", code, "m")];
            let want = serde_json::to_string(&Refused {
                ok: false,
                errors: &errors,
            });
            assert_eq!(refused(&errors), want.unwrap_or_default());
        }
        let schema = serde_json::json!({
            "type": "object",
            "title": "T",
            "properties": {
                "s": {"type": "string", "format": "date-time", "pattern": "^a", "default": "a"},
                "n": {"type": "number", "minimum": 0.5, "exclusiveMaximum": 1e300},
                "i": {"type": "integer", "default": -3},
                "b": {"type": "boolean", "default": true},
                "e": {"type": "string", "enum": ["x", "y"], "enumNames": ["X", "Y"]},
                "m": {"type": "array", "items": {"type": "string", "enum": ["p"]}, "default": ["p"], "maxItems": 1}
            },
            "required": ["s"]
        });
        let spec = crate::schema::compile(&schema).ok();
        assert!(spec.is_some());
        if let Some(spec) = spec {
            assert_eq!(
                form_spec(&spec),
                serde_json::to_string(&spec).unwrap_or_default()
            );
        }
    }
}
