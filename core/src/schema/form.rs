//! The typed form description that the compiler produces and every renderer consumes.

use serde::{Serialize, Serializer};
use serde_json::Value;
use std::fmt;

/// The longest `pattern` accepted, in bytes: 2 KiB. Real patterns are short (pydantic's
/// `pattern=` rarely passes 100 bytes; a full IPv6 address pattern is 661); parsing costs
/// memory in proportion to the length, so a longer one is refused at its pointer.
pub const MAX_PATTERN_LEN: usize = 2048;

/// The largest compiled `pattern` accepted, in bytes of regex program (regex-lite's
/// `size_limit`; its default is 10 MiB): 64 KiB. Checking a text costs up to the program's
/// size times the text's length, so this with [`MAX_PATTERN_TEXT_LEN`] keeps one check under
/// about a tenth of a second (measured natively, worst pattern at this size against 10,000
/// characters). 64 KiB is what the IPv6 pattern above needs; a bigger program, which a short
/// pattern can still ask for with nested counted repetitions, is refused at its pointer.
/// Nesting stays at regex-lite's limit of 50 groups: its parser keeps its stack on the heap,
/// in proportion to the pattern's length, which [`MAX_PATTERN_LEN`] bounds.
pub const REGEX_SIZE_LIMIT: usize = 64 * 1024;

/// The longest text checked against a `pattern`, in characters (code points): 10,000. A
/// patterned field holds codes and identifiers, not essays; a longer text gets a `pattern`
/// error saying so instead of a check whose cost the server chose.
pub const MAX_PATTERN_TEXT_LEN: usize = 10_000;

/// A field's `pattern`, compiled once when the schema is compiled and kept with the field, so
/// every check of every copy of the field reuses it (copies share the compiled program).
/// Compared, shown and serialised as its source text.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    regex: regex_lite::Regex,
}

/// Why a `pattern` is not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// Longer than [`MAX_PATTERN_LEN`] bytes.
    TooLong { len: usize },
    /// Not a regular expression regex-lite understands, or compiled to more than
    /// [`REGEX_SIZE_LIMIT`] bytes (the message says which).
    Invalid(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::TooLong { len } => write!(
                f,
                "it is {len} bytes long, and patterns of at most {MAX_PATTERN_LEN} bytes are accepted"
            ),
            PatternError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PatternError {}

impl Pattern {
    /// Compiles `source` within [`MAX_PATTERN_LEN`] and [`REGEX_SIZE_LIMIT`].
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        if source.len() > MAX_PATTERN_LEN {
            return Err(PatternError::TooLong { len: source.len() });
        }
        let regex = regex_lite::RegexBuilder::new(source)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| {
                let text = e.to_string();
                // regex-lite words this one as "compiled regex exceeded size limit".
                if text.contains("size limit") {
                    PatternError::Invalid(format!(
                        "it is too large once compiled (more than {REGEX_SIZE_LIMIT} bytes)"
                    ))
                } else {
                    PatternError::Invalid(text)
                }
            })?;
        Ok(Pattern {
            source: source.to_owned(),
            regex,
        })
    }

    /// The pattern as the schema wrote it.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `text` contains a match (JSON Schema patterns are not anchored). Callers
    /// bound `text` ([`MAX_PATTERN_TEXT_LEN`]); the validator does.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.source, f)
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

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
        /// Compiled, within [`MAX_PATTERN_LEN`] and [`REGEX_SIZE_LIMIT`].
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
