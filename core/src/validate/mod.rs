//! Coercion of raw form input into typed content, and validation of content against a [`FormSpec`].
//!
//! One code path serves the JS API (`validateContent`) and the UI (per-field and on submit).

mod error;

pub use error::{ErrorCode, FieldError};

use crate::schema::{Field, FormSpec};
use serde_json::{Map, Value};

/// What a form control holds before coercion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawInput {
    /// A text, email, url, date, datetime-local or number input, or a select's value.
    Text(String),
    /// A checkbox.
    Bool(bool),
    /// The checked values of a multi-select.
    List(Vec<String>),
}

/// Coerces and validates one field's raw input. `Ok(None)` means "leave it out of the content"
/// (an optional field left empty).
pub fn check_field(field: &Field, raw: &RawInput) -> Result<Option<Value>, FieldError> {
    let _ = (field, raw);
    Err(FieldError::new(
        &field.name,
        ErrorCode::Type,
        "validation not built yet",
    ))
}

/// Coerces and validates a whole form. Every failing field yields one error.
pub fn coerce_form(
    spec: &FormSpec,
    raw: &[(String, RawInput)],
) -> Result<Map<String, Value>, Vec<FieldError>> {
    let _ = (spec, raw);
    Err(vec![])
}

/// Validates a content object (as it would be sent) against the spec: one error per failing field.
pub fn validate_content(
    spec: &FormSpec,
    content: &Value,
) -> Result<Map<String, Value>, Vec<FieldError>> {
    let _ = (spec, content);
    Err(vec![])
}

/// The content a form starts with: every field's default (SEP-1034).
pub fn defaults(spec: &FormSpec) -> Map<String, Value> {
    spec.fields
        .iter()
        .filter_map(|f| f.default.clone().map(|d| (f.name.clone(), d)))
        .collect()
}
