//! The compiler itself. (Owned by the schema work; placeholder signature.)

use super::{FormSpec, SchemaError};
use serde_json::Value;

/// Compiles a raw `requestedSchema` into a [`FormSpec`], or refuses it with a precise error.
pub fn compile(schema: &Value) -> Result<FormSpec, SchemaError> {
    let _ = schema;
    Err(SchemaError {
        path: String::new(),
        message: "schema compiler not built yet".into(),
    })
}
