//! `wordErrors`: the JS API's field errors, and a refused schema's error, in a language.
//! The core's `validateContent` answers `{ok: false, errors: [{field, code, message}]}`
//! with English messages (its wasm carries no catalogs); the library's
//! `validateContent(schema, content, {locale})` hands that answer here, where each error
//! gets its `data` (the bound, length, count or choices its code is about, read from the
//! schema) and a `message` worded from code and data in the chosen language. A
//! `SchemaError` thrown by `compileSchema` or `validateContent` given options comes here
//! too, and its `message` is worded from the refusal. The objects are changed in place, as
//! JS objects: no JSON text and no float formatting are linked for it.

use super::{field_error_for, from_options};
use crate::boundary::json_arg;
use js_sys::{Array, Object, Reflect};
use mcp_elicit::schema::{compile, Arg, Field, FieldKind, SchemaError};
use mcp_elicit::validate::{number_text, ErrorCode};
use serde_json::Value;
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

fn set(obj: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

/// What a refusal's words quote, by name: server text as it came, counts as numbers, the
/// JSON type found and what the field holds by their codes.
fn refusal_data(refusal: &SchemaError) -> Object {
    let data = Object::new();
    for (name, arg) in &refusal.args {
        let value = match arg {
            Arg::Text(s) => JsValue::from_str(s),
            Arg::Count(n) => JsValue::from_f64(*n as f64),
            Arg::Found(k) => JsValue::from_str(k.code()),
            Arg::Holds(h) => JsValue::from_str(h.code()),
        };
        set(&data, name, &value);
    }
    data
}

/// What an error's code is about, from the field: `{limit}` for lengths and counts,
/// `{minimum}`/`{exclusiveMinimum}` (and the maxima) for bounds, `{choices}` (the values)
/// for `enum`, `{pattern}`; `{}` when the code needs none.
fn error_data(field: &Field, code: ErrorCode) -> Object {
    let data = Object::new();
    let num = |key: &str, v: Option<f64>| {
        if let Some(v) = v {
            set(&data, key, &JsValue::from_f64(v));
        }
    };
    match (&field.kind, code) {
        (FieldKind::String { min_length, .. }, ErrorCode::MinLength) => {
            num("limit", min_length.map(|n| n as f64))
        }
        (FieldKind::String { max_length, .. }, ErrorCode::MaxLength) => {
            num("limit", max_length.map(|n| n as f64))
        }
        (
            FieldKind::String {
                pattern: Some(p), ..
            },
            ErrorCode::Pattern,
        ) => set(&data, "pattern", &JsValue::from_str(&p.to_string())),
        (FieldKind::Number(b) | FieldKind::Integer(b), ErrorCode::Minimum) => {
            num("minimum", b.minimum);
            num("exclusiveMinimum", b.exclusive_minimum);
        }
        (FieldKind::Number(b) | FieldKind::Integer(b), ErrorCode::Maximum) => {
            num("maximum", b.maximum);
            num("exclusiveMaximum", b.exclusive_maximum);
        }
        (FieldKind::Select { options }, ErrorCode::Enum)
        | (FieldKind::MultiSelect { options, .. }, ErrorCode::Enum) => {
            let choices = Array::new();
            for o in options {
                choices.push(&JsValue::from_str(&o.value));
            }
            set(&data, "choices", &choices);
        }
        (FieldKind::MultiSelect { min_items, .. }, ErrorCode::MinItems) => {
            num("limit", min_items.map(|n| n as f64))
        }
        (FieldKind::MultiSelect { max_items, .. }, ErrorCode::MaxItems) => {
            num("limit", max_items.map(|n| n as f64))
        }
        _ => {}
    }
    data
}

/// The answer of `validateContent(requestedSchema, content)` with each error worded in
/// `options.locale` (with `options.messages` over the catalog) and given its `data`; or
/// the `SchemaError` that `compileSchema(requestedSchema)` or `validateContent` threw, its
/// `message` worded in that language from the refusal's code and data (when the schema,
/// compiled again here, is refused with the same code). Anything else is given back as
/// it came.
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = wordErrors))]
pub fn word_errors(
    requested_schema: JsValue,
    content: JsValue,
    answer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    word(&requested_schema, &content, &answer, &options)
        .map_err(|e| js_sys::Error::new(&format!("mcp-elicit: {e}")))?;
    Ok(answer)
}

/// Loads the catalog of `locale` (a language tag; absent: the browser's languages) and
/// resolves to the tag of the catalog now used for it: `en` when none fits or it could not
/// be loaded. `elicit`, `McpClient.connect` and `<mcp-elicitation lang>` load theirs
/// themselves; `validateContent` in a browser words its errors in a loaded language.
#[cfg_attr(feature = "js-api", wasm_bindgen(js_name = loadLocale))]
pub async fn load_locale(locale: JsValue) -> Result<String, JsValue> {
    let m = if locale.is_undefined() || locale.is_null() {
        super::Messages::from_browser()
    } else if let Some(tag) = locale.as_string() {
        super::Messages::new(&tag)
    } else {
        return Err(js_sys::Error::new(
            "loadLocale: the locale must be a language tag such as \"de\"",
        )
        .into());
    };
    Ok(m.loaded().await.lang().to_owned())
}

fn word(
    schema: &JsValue,
    content: &JsValue,
    answer: &JsValue,
    options: &JsValue,
) -> Result<(), String> {
    let options = if options.is_undefined() || options.is_null() {
        Value::Null
    } else {
        json_arg(options, "options")?
    };
    let mut m = from_options(options.get("locale"), options.get("messages"), "options")?;
    if m.lang() != m.wanted() {
        // Synchronous: the catalog if already loaded, or readable at once (Node).
        super::load_now(m.wanted());
        m = from_options(options.get("locale"), options.get("messages"), "options")?;
    }
    // The schema compiled again, natively: a refused one's code and data are its error's
    // words (only on that path, and compiling is linear); one that is not JSON was
    // refused in the core's words, kept.
    let Ok(schema) = json_arg(schema, "requestedSchema") else {
        return Ok(());
    };
    let spec = match compile(&schema) {
        Ok(spec) => spec,
        // Only the refusal thrown: a schema the core refused before compiling (not JSON to
        // its stricter reading, e.g. an `undefined` member) keeps the core's words.
        Err(refusal) => {
            let thrown = Reflect::get(answer, &JsValue::from_str("code"))
                .ok()
                .and_then(|c| c.as_string());
            if thrown.as_deref() == Some(refusal.refusal.code()) {
                set(answer, "message", &JsValue::from_str(&m.refusal(&refusal)));
                set(answer, "data", &refusal_data(&refusal));
            }
            return Ok(());
        }
    };
    let errors = Reflect::get(answer, &JsValue::from_str("errors")).unwrap_or(JsValue::UNDEFINED);
    if !Array::is_array(&errors) {
        return Ok(());
    }
    let is_object = content.is_object();
    for e in Array::from(&errors).iter() {
        let Some(obj) = e.dyn_ref::<Object>() else {
            continue;
        };
        let text = |key: &str| {
            Reflect::get(obj, &JsValue::from_str(key))
                .ok()
                .and_then(|v| v.as_string())
        };
        let name = text("field").unwrap_or_default();
        let Some(code) = text("code").as_deref().and_then(code_of) else {
            continue;
        };
        let value = is_object
            .then(|| Reflect::get(content, &JsValue::from_str(&name)).ok())
            .flatten()
            .and_then(|v| v.as_string().or_else(|| v.as_f64().map(number_text)));
        let (message, data) = match spec.fields.iter().find(|f| f.name == name) {
            Some(field) => (
                field_error_for(&m, field, code, value.as_deref()),
                error_data(field, code),
            ),
            None if code == ErrorCode::UnknownField => (
                m.t("error.unknown_field", &[("name", &name)]),
                Object::new(),
            ),
            // Not about one field (e.g. content that is no object): the core's words stay.
            None => continue,
        };
        set(obj, "message", &JsValue::from_str(&message));
        set(obj, "data", &data);
    }
    Ok(())
}
