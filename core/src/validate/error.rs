//! Validation errors: one per failing field, with a stable machine code and a human message.

use serde::Serialize;
use std::fmt;

/// The stable codes of the DOM contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorCode {
    Required,
    Type,
    MinLength,
    MaxLength,
    Pattern,
    Format,
    Minimum,
    Maximum,
    Enum,
    MinItems,
    MaxItems,
    UnknownField,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub field: String,
    pub code: ErrorCode,
    pub message: String,
}

impl FieldError {
    pub fn new(field: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        FieldError {
            field: field.to_owned(),
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}
