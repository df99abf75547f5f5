//! Schema compiler: raw `requestedSchema` JSON to a typed [`FormSpec`].
//!
//! The spec allows a flat object of primitive fields (`PrimitiveSchemaDefinition`). The
//! compiler accepts exactly that, ignores keys that cannot change what a valid answer is, and
//! refuses everything else with the JSON pointer (RFC 6901) of the offending part and a
//! sentence saying what is wrong, so a server author can fix the schema and a user is never
//! shown a form whose answer the server would reject.
//!
//! | Schema part | Treatment |
//! |---|---|
//! | root `type: "object"`, `properties`, `required`, `title`, `description` | accepted (a missing root `type` or `properties` is tolerated: no fields) |
//! | property order | kept as the schema gives it (serde_json `preserve_order`) |
//! | `title` / `description` of a field | accepted: label (else the name) and help text |
//! | `type: "string"` with `minLength`, `maxLength`, `pattern` | accepted |
//! | `pattern`: ECMA-262 with the `u` flag (lookaround, back-references, named groups, `\p{…}`); Python's `(?P<n>…)`, `(?P=n)`, `\A`, `\Z` read as Python means them | checked, in bounded time ([`pattern`]) |
//! | `pattern` this client cannot check: another dialect, not a regular expression, longer than [`MAX_PATTERN_LEN`] bytes, over [`MAX_PROGRAM_LEN`], [`MAX_COMPILE_STEPS`], [`MAX_PATTERN_DEPTH`] or [`MAX_PATTERN_GROUPS`], or past the form's budget ([`MAX_CHECKED_PATTERNS_PER_FORM`], [`MAX_FORM_PROGRAM_LEN`], [`MAX_FORM_COMPILE_STEPS`]) | **accepted, not checked**: the field says so ([`Pattern::note`]) and the server decides |
//! | `pattern` that is not a string | refused at `/properties/<name>/pattern` |
//! | `format`: `email`, `uri`, `date`, `date-time` | accepted and validated |
//! | any other `format` (`uuid`, `time`, ...) | **ignored**: formats are annotations in JSON Schema, a plain text box still works (the Python SDK never emits them) |
//! | `type: "number"` / `"integer"` with `minimum`, `maximum` | accepted |
//! | `exclusiveMinimum`, `exclusiveMaximum` | accepted (pydantic `gt`/`lt` emit them and the server enforces them) |
//! | `type: "boolean"` | accepted |
//! | single select: `enum`; `oneOf` of `{const, title}`; legacy `enum` + `enumNames` | accepted (a `oneOf` entry without `title` shows its `const`) |
//! | multi select: `type: "array"`, `items: {type: "string", enum}` or `items: {anyOf: [{const, title}]}`, `minItems`, `maxItems` | accepted |
//! | `default` of the field's kind | accepted and pre-filled (SEP-1034); one that breaks a length/format/pattern/range/count rule is kept and flagged by validation |
//! | any other key (`examples`, `$schema`, `additionalProperties`, `readOnly`, ...) | **ignored** |
//! | root that is not an object, or `type` other than `"object"` | refused at `""` / `/type` |
//! | `properties` not an object | refused at `/properties` |
//! | `required` not a list of strings, or naming a missing property | refused at `/required` / `/required/<i>` |
//! | a property schema that is not an object | refused at `/properties/<name>` |
//! | nested object (`type: "object"`) | refused at `/properties/<name>` |
//! | `$ref` | refused at `/properties/<name>/$ref` |
//! | missing `type` (also how multi-type `anyOf` unions arrive) | refused at `/properties/<name>` |
//! | union `type: [..]`, or an unknown type (`null`, ...) | refused at `/properties/<name>/type` |
//! | array without enum items | refused at `/properties/<name>/items` |
//! | empty `enum` / `oneOf` / `anyOf`, non-string or repeated choice | refused at that list / that entry |
//! | `enumNames` not matching `enum` one to one | refused at `/properties/<name>/enumNames` |
//! | both `enum` and `oneOf` | refused at `/properties/<name>` |
//! | `default` of the wrong kind (wrong type, non-integral integer, not a choice) | refused at `/properties/<name>/default` |
//! | more than [`MAX_PROPERTIES`] properties | refused at `/properties` |
//! | more than [`MAX_ENUM_OPTIONS`] choices in one field | refused at that list |
//! | more than [`MAX_FORM_CHOICES`] choices in all the fields together | refused at `/properties` |
//! | non-numeric bounds, negative or fractional lengths/counts, `min > max` lengths/counts | refused at that key |
//! | `title` / `description` / `format` that is not a string | refused at that key |
//!
//! Names in pointers are escaped as RFC 6901 says (`~` → `~0`, `/` → `~1`).
//!
//! The work is linear (or n log n) in the schema's size: lookups over server-sized lists
//! (`required`, the choices) go through ordered sets, which no choice of keys can degrade,
//! unlike a hash set on wasm32-unknown-unknown, where std seeds its hasher from memory
//! addresses (the target has no randomness), which a server can predict.

mod compile;
pub(crate) mod error;
mod form;
pub(crate) mod json;
pub(crate) mod names;
pub mod pattern;

pub use compile::{compile, MAX_ENUM_OPTIONS, MAX_FORM_CHOICES, MAX_PROPERTIES};
#[doc(hidden)]
pub use compile::{compile_counting, CompileWork};
#[cfg(target_arch = "wasm32")]
pub(crate) use compile::{compile_json, Purpose};
pub use error::{english_words, Arg, Found, Holds, Refusal, SchemaError};
pub use form::{EnumOption, Field, FieldKind, FormSpec, NumberBounds, StringFormat};
pub use pattern::{
    Pattern, PatternCheck, PatternError, MAX_CHECKED_PATTERNS_PER_FORM, MAX_COMPILE_STEPS,
    MAX_FORM_COMPILE_STEPS, MAX_FORM_PROGRAM_LEN, MAX_MATCH_STEPS, MAX_MEMO_BITS,
    MAX_PATTERN_DEPTH, MAX_PATTERN_GROUPS, MAX_PATTERN_LEN, MAX_PATTERN_RANGES,
    MAX_PATTERN_TEXT_LEN, MAX_PROGRAM_LEN, MAX_PROPERTY_ESCAPES, MAX_SHOWN_PATTERN_CHARS,
};
