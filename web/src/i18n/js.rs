//! `wordErrors`: the JS API's field errors in a language. The core's `validateContent`
//! answers `{ok: false, errors: [{field, code, message}]}` with English messages (its wasm
//! carries no catalogs); the library's `validateContent(schema, content, {locale})` hands
//! that answer here, where each error gets its `data` (the bound, length, count or choices
//! its code is about, read from the schema) and a `message` worded from code and data in
//! the chosen language.

use super::{field_error_for, from_options};
use crate::boundary::{json_arg, value_to_js};
use mcp_elicit::schema::{compile, Field, FieldKind};
use mcp_elicit::validate::{number_text, ErrorCode};
use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// The code of its camelCase name, as the JS API writes it.
fn code_of(name: &str) -> Option<ErrorCode> {
    Some(match name {
        "required" => ErrorCode::Required,
        "type" => ErrorCode::Type,
        "minLength" => ErrorCode::MinLength,
        "maxLength" => ErrorCode::MaxLength,
        "pattern" => ErrorCode::Pattern,
        "format" => ErrorCode::Format,
        "minimum" => ErrorCode::Minimum,
        "maximum" => ErrorCode::Maximum,
        "enum" => ErrorCode::Enum,
        "minItems" => ErrorCode::MinItems,
        "maxItems" => ErrorCode::MaxItems,
        "unknownField" => ErrorCode::UnknownField,
        _ => return None,
    })
}

/// What an error's code is about, from the field: `{limit}` for lengths and counts,
/// `{minimum}`/`{exclusiveMinimum}` (and the maxima) for bounds, `{choices}` (the values)
/// for `enum`, `{pattern}`; `{}` when the code needs none.
pub fn error_data(field: &Field, code: ErrorCode) -> Value {
    let mut data = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            data.insert(k.to_owned(), v);
        }
    };
    match (&field.kind, code) {
        (FieldKind::String { min_length, .. }, ErrorCode::MinLength) => {
            put("limit", min_length.map(Value::from))
        }
        (FieldKind::String { max_length, .. }, ErrorCode::MaxLength) => {
            put("limit", max_length.map(Value::from))
        }
        (FieldKind::String { pattern, .. }, ErrorCode::Pattern) => put(
            "pattern",
            pattern.as_ref().map(|p| Value::from(p.to_string())),
        ),
        (FieldKind::Number(b) | FieldKind::Integer(b), ErrorCode::Minimum) => {
            put("minimum", b.minimum.map(Value::from));
            put("exclusiveMinimum", b.exclusive_minimum.map(Value::from));
        }
        (FieldKind::Number(b) | FieldKind::Integer(b), ErrorCode::Maximum) => {
            put("maximum", b.maximum.map(Value::from));
            put("exclusiveMaximum", b.exclusive_maximum.map(Value::from));
        }
        (FieldKind::Select { options }, ErrorCode::Enum)
        | (FieldKind::MultiSelect { options, .. }, ErrorCode::Enum) => put(
            "choices",
            Some(
                options
                    .iter()
                    .map(|o| Value::from(o.value.clone()))
                    .collect(),
            ),
        ),
        (FieldKind::MultiSelect { min_items, .. }, ErrorCode::MinItems) => {
            put("limit", min_items.map(Value::from))
        }
        (FieldKind::MultiSelect { max_items, .. }, ErrorCode::MaxItems) => {
            put("limit", max_items.map(Value::from))
        }
        _ => {}
    }
    Value::Object(data)
}

/// The answer of `validateContent(requestedSchema, content)` with each error worded in
/// `options.locale` (with `options.messages` over the catalog) and given its `data`.
#[wasm_bindgen(js_name = wordErrors)]
pub fn word_errors(
    requested_schema: JsValue,
    content: JsValue,
    answer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    word(&requested_schema, &content, &answer, &options)
        .map_err(|e| js_sys::Error::new(&format!("validateContent: {e}")).into())
}

fn word(
    schema: &JsValue,
    content: &JsValue,
    answer: &JsValue,
    options: &JsValue,
) -> Result<JsValue, String> {
    let options = if options.is_undefined() || options.is_null() {
        Value::Null
    } else {
        json_arg(options, "options")?
    };
    let m = from_options(options.get("locale"), options.get("messages"), "options")?;
    let mut answer = json_arg(answer, "the answer")?;
    // The schema compiled as validateContent did: it refused nothing, or no errors came.
    let spec = compile(&json_arg(schema, "requestedSchema")?).ok();
    let (Some(spec), Some(errors)) = (spec, answer.get_mut("errors").and_then(Value::as_array_mut))
    else {
        return answer_js(&answer);
    };
    let content = json_arg(content, "content").unwrap_or(Value::Null);
    for e in errors.iter_mut() {
        let Some(obj) = e.as_object_mut() else {
            continue;
        };
        let name = obj
            .get("field")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let Some(code) = obj.get("code").and_then(Value::as_str).and_then(code_of) else {
            continue;
        };
        let value = content.get(&name).and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => n.as_f64().map(number_text),
            _ => None,
        });
        let (message, data) = match spec.fields.iter().find(|f| f.name == name) {
            Some(field) => (
                field_error_for(&m, field, code, value.as_deref()),
                error_data(field, code),
            ),
            None if code == ErrorCode::UnknownField => {
                (m.t("error.unknown_field", &[("name", &name)]), json!({}))
            }
            // Not about one field (e.g. content that is no object): the core's words stay.
            None => continue,
        };
        obj.insert("message".into(), Value::from(message));
        obj.insert("data".into(), data);
    }
    answer_js(&answer)
}

fn answer_js(answer: &Value) -> Result<JsValue, String> {
    value_to_js(answer, "the answer")
}
