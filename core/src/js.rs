//! The thin wasm-bindgen JS API over the core: `compileSchema` and `validateContent`, as the
//! DOM contract names them, usable from a page and from Node.js.
//!
//! Everything a caller passes is untrusted: values that are not JSON (functions, symbols,
//! `BigInt`s, cycles, throwing getters) become errors in words, never panics or traps,
//! since either kills the page. [`json_from_js`] is that crossing, shared with the web
//! crate's host APIs.
//!
//! Results go back as serde_json text and one `JSON.parse`, so callers get plain objects
//! and arrays (not `Map`s) and can `JSON.stringify` them.

use crate::schema::{compile, FormSpec, SchemaError};
use crate::validate::{validate_content, ErrorCode, FieldError};
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One choice of a select or multi-select: the value sent and the title shown. */
export interface EnumOption { value: string; title: string }

interface FieldBase {
  /** The property name: the key in the content and the control's `name`. */
  name: string;
  /** The property's `title`, else its name. */
  label: string;
  description?: string;
  required: boolean;
  /** The schema default, already checked to be of the field's kind. */
  default?: JsonValue;
}

export type StringField = FieldBase & {
  kind: "string";
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  pattern?: string;
};
export type NumberField = FieldBase & {
  kind: "number" | "integer";
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};
export type BooleanField = FieldBase & { kind: "boolean" };
export type SelectField = FieldBase & { kind: "select"; options: EnumOption[] };
export type MultiSelectField = FieldBase & {
  kind: "multiSelect";
  options: EnumOption[];
  minItems?: number;
  maxItems?: number;
};
export type Field = StringField | NumberField | BooleanField | SelectField | MultiSelectField;

/** A compiled `requestedSchema`: its fields in the schema's property order. */
export interface FormSpec { title?: string; description?: string; fields: Field[] }

/** The stable validation codes of the DOM contract. */
export type ErrorCode =
  | "required" | "type" | "minLength" | "maxLength" | "pattern" | "format"
  | "minimum" | "maximum" | "enum" | "minItems" | "maxItems" | "unknownField";

/** One failing field (`field` is "" when the content itself is not an object). */
export interface FieldError { field: string; code: ErrorCode; message: string }

export type ValidationResult =
  | { ok: true; content: { [key: string]: JsonValue } }
  | { ok: false; errors: FieldError[] };

/** What `compileSchema` and `validateContent` throw for a schema they refuse. */
export interface SchemaError extends Error {
  /** JSON pointer of the offending part of the schema, "" for the root. */
  path: string;
}
"#;

/// Compiles a `requestedSchema` into the form description, or throws an `Error` with a `path`.
#[wasm_bindgen(js_name = compileSchema, unchecked_return_type = "FormSpec")]
pub fn compile_schema(
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] requested_schema: JsValue,
) -> Result<JsValue, JsValue> {
    let spec = compile_js(&requested_schema)?;
    to_js(&spec)
}

/// Validates content as it would be sent against a `requestedSchema`. Returns
/// `{ok: true, content}` or `{ok: false, errors}`; throws only for a refused schema.
#[wasm_bindgen(js_name = validateContent, unchecked_return_type = "ValidationResult")]
pub fn validate_content_js(
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] requested_schema: JsValue,
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] content: JsValue,
) -> Result<JsValue, JsValue> {
    let spec = compile_js(&requested_schema)?;
    let outcome = match json_from_js(&content, UndefinedMembers::Refuse) {
        Ok(content) => match validate_content(&spec, &content) {
            Ok(content) => Outcome::accepted(content),
            Err(errors) => Outcome::refused(errors),
        },
        Err(why) => Outcome::refused(vec![FieldError::new(
            "",
            ErrorCode::Type,
            format!("The answer is not JSON: {why}."),
        )]),
    };
    to_js(&outcome)
}

/// The `{ok, ...}` shape of `validateContent`'s result: `content` when ok, `errors` when not.
#[derive(Serialize)]
struct Outcome {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<Vec<FieldError>>,
}

impl Outcome {
    fn accepted(content: Map<String, Value>) -> Self {
        Outcome {
            ok: true,
            content: Some(content),
            errors: None,
        }
    }
    fn refused(errors: Vec<FieldError>) -> Self {
        Outcome {
            ok: false,
            content: None,
            errors: Some(errors),
        }
    }
}

fn compile_js(schema: &JsValue) -> Result<FormSpec, JsValue> {
    let value = json_from_js(schema, UndefinedMembers::Refuse).map_err(|why| {
        schema_error(&SchemaError {
            path: String::new(),
            message: format!("The requested schema is not JSON: {why}."),
        })
    })?;
    compile(&value).map_err(|e| schema_error(&e))
}

/// What [`json_from_js`] does with an object member whose value is `undefined`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndefinedMembers {
    /// Refuse it, naming the member: `validateContent` must check what the host holds,
    /// and `{name: undefined}` is not an answer of `name`.
    Refuse,
    /// Leave it out, as `JSON.stringify` (and so every JS MCP client) does: call
    /// arguments, params and results a host builds as `{a, b: maybeUndefined}` mean "no
    /// `b`". An `undefined` array element is still refused (it would become `null`).
    Omit,
}

/// A JS host's value as JSON, or why not in words (for a message such as
/// `"callTool's arguments: {why}"`). The one way a value from JS enters Rust, here and in
/// the web crate: `JSON.stringify` with a strict replacer (in `js_strict_json.js`), then
/// serde_json.
///
/// Why not serde-wasm-bindgen's `from_value`: it walks the object from wasm with no cycle
/// check or depth limit (a cyclic object overflows the wasm stack and leaves the module
/// trapping on every later call), and a throwing getter or Proxy trap throws through the
/// Rust frames walking it. Here the walk happens inside the engine, every exception is
/// caught there, and cycles, more than 100 levels, and what JSON cannot hold (functions,
/// symbols, `BigInt`s, `undefined` but as `undefined` says; `JSON.stringify` would drop
/// or throw on them) are refused naming the member. It is also faster: one call into the
/// engine and a native-speed parse, where walking the object from wasm costs a boundary
/// crossing per key and value (measured with `scripts/bench`: several times slower on a
/// typical schema).
pub fn json_from_js(value: &JsValue, undefined: UndefinedMembers) -> Result<Value, String> {
    let text = strict_json(value, undefined == UndefinedMembers::Omit)
        .map_err(|thrown| {
            // Always the snippet's own TypeError, whose message is a plain string.
            thrown
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "it cannot be written as JSON".into())
        })?
        .as_string()
        .ok_or_else(|| "it is not a JSON value".to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("it could not be read as JSON ({e})"))
}

// A static module, not `new Function`: a strict Content-Security-Policy (browser
// extensions: `script-src 'self' 'wasm-unsafe-eval'`) forbids eval, and compileSchema
// would throw EvalError there. wasm-bindgen copies it into the package's `snippets/`.
#[wasm_bindgen(module = "/src/js_strict_json.js")]
extern "C" {
    /// The value as JSON text; throws (caught here) a `TypeError` in words, nothing else.
    #[wasm_bindgen(catch, js_name = strictJson)]
    fn strict_json(value: &JsValue, omit_undefined_members: bool) -> Result<JsValue, JsValue>;
}

/// The reverse of [`json_from_js`]: serde_json text, then one `JSON.parse` (plain objects and
/// arrays, as on the wire).
fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    let text =
        serde_json::to_string(v).map_err(|e| JsValue::from(js_sys::Error::new(&e.to_string())))?;
    js_sys::JSON::parse(&text)
}

/// A JS `Error` whose message says what is wrong and whose `path` says where.
fn schema_error(e: &SchemaError) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("SchemaError");
    // Setting a property on a fresh Error cannot fail; if it somehow did, the message still
    // says what is wrong, so the error is thrown anyway.
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("path"),
        &JsValue::from_str(&e.path),
    );
    err.into()
}
