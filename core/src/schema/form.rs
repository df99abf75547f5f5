//! The typed form description that the compiler produces and every renderer consumes.

use super::pattern::Pattern;
use serde::Serialize;
use serde_json::Value;

/// A compiled `requestedSchema`: the fields in the schema's own property order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormSpec {
    /// The schema's `title`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The schema's `description`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub fields: Vec<Field>,
}

/// One property of the schema, ready to render as one control.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    /// The property name: the key in the content object and the control's `name`.
    pub name: String,
    /// What the user reads: the property's `title`, else its name.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub required: bool,
    /// The schema default, already checked to be valid for this field's kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(flatten)]
    pub kind: FieldKind,
}

/// A field's kind with its constraints.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum FieldKind {
    #[serde(rename_all = "camelCase")]
    String {
        #[serde(skip_serializing_if = "Option::is_none")]
        min_length: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        max_length: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        format: Option<StringFormat>,
        /// Compiled; one this client cannot check is kept and says why
        /// ([`Pattern::not_checked`]).
        #[serde(skip_serializing_if = "Option::is_none")]
        pattern: Option<Pattern>,
    },
    /// `type: number`.
    Number(NumberBounds),
    /// `type: integer`: the value must also be integral.
    Integer(NumberBounds),
    Boolean,
    /// Single-select enum, whatever its wire shape (`enum`, `oneOf`, `enumNames`).
    Select {
        options: Vec<EnumOption>,
    },
    /// Multi-select enum (`type: array` with enum items).
    #[serde(rename_all = "camelCase")]
    MultiSelect {
        options: Vec<EnumOption>,
        #[serde(skip_serializing_if = "Option::is_none")]
        min_items: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        max_items: Option<u64>,
    },
}

/// Bounds of a number or integer field: `minimum`/`maximum` are inclusive; the exclusive ones
/// are kept too because pydantic renders `gt`/`lt` as `exclusiveMinimum`/`exclusiveMaximum`,
/// and the SDK passes them through, so the server will enforce them.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NumberBounds {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<f64>,
}

/// One choice of an enum: the value sent and the title shown (the value when untitled).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnumOption {
    pub value: String,
    pub title: String,
}

/// The string formats the spec allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum StringFormat {
    #[serde(rename = "email")]
    Email,
    #[serde(rename = "uri")]
    Uri,
    #[serde(rename = "date")]
    Date,
    #[serde(rename = "date-time")]
    DateTime,
}
