//! Why a schema was refused, and where.

use std::fmt;

/// A refusal: the JSON pointer (RFC 6901) of the offending part and a sentence saying what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// e.g. `/properties/address`; empty string for the root.
    pub path: String,
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{} (at {})", self.message, self.path)
        }
    }
}

impl std::error::Error for SchemaError {}
