//! Reading optional members of a schema object, and the refusal in words.

use crate::schema::SchemaError;
use serde_json::{Map, Value};

pub(super) fn opt_count(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<u64>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) => Ok(Some(n)),
            None => Err(err(
                &format!("{path}/{key}"),
                format!(
                    "\"{key}\" must be a whole number of zero or more, not {}.",
                    show(v)
                ),
            )),
        },
    }
}

pub(super) fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(err(
            &format!("{path}/{key}"),
            format!("\"{key}\" must be text, not {}.", show(other)),
        )),
    }
}

/// Escapes one JSON pointer reference token (RFC 6901: `~` then `/`).
pub(crate) fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A short, human description of a JSON value's type, for messages.
pub(super) fn show(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

pub(super) fn err(path: &str, message: impl Into<String>) -> SchemaError {
    SchemaError {
        path: path.to_owned(),
        message: message.into(),
    }
}
