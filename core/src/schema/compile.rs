//! The compiler itself: walks a raw `requestedSchema` once, in property order, and either
//! builds a [`FormSpec`] or stops at the first part it cannot honour.
//!
//! Refusing is deliberate: a form that silently drops a nested object or a union would collect
//! an answer the server cannot use, so the user would fill it in for nothing.

use super::form::{EnumOption, Field, FieldKind, FormSpec, NumberBounds, StringFormat};
use super::pattern::{Pattern, MAX_CHECKED_PATTERNS_PER_FORM, MAX_FORM_PROGRAM_LEN};
use super::SchemaError;
use crate::validate::{value_fits_kind, KindMismatch};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The most properties one schema may have: 1,000. A person fills a form field by field; far
/// fewer make an unusable form already, and each property becomes controls on the page, so a
/// server sending 10^5 of them would freeze it. More are refused at `/properties`.
pub const MAX_PROPERTIES: usize = 1000;

/// The most choices one select or multi-select may offer: 50,000. Long lists are real (files,
/// accounts, time zones) and the page renders 20,000 checkboxes in well under a second; each
/// choice is a control, so a list bounded only by the 16 MiB message could freeze the page.
/// More are refused at the list (`enum`, `oneOf` or `anyOf`).
pub const MAX_ENUM_OPTIONS: usize = 50_000;

/// Compiles a raw `requestedSchema` into a [`FormSpec`], or refuses it with a precise error.
///
/// See the [module docs](super) for what is accepted, ignored and refused.
pub fn compile(schema: &Value) -> Result<FormSpec, SchemaError> {
    let root = schema
        .as_object()
        .ok_or_else(|| err("", "The requested schema must be a JSON object."))?;
    match root.get("type") {
        None => {}
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            return Err(err(
                "/type",
                format!(
                    "The requested schema must have type \"object\", not {}.",
                    show(other)
                ),
            ))
        }
    }
    let title = opt_string(root, "title", "")?;
    let description = opt_string(root, "description", "")?;
    let empty = Map::new();
    let properties = match root.get("properties") {
        None => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => {
            return Err(err(
                "/properties",
                "\"properties\" must be an object mapping field names to their schemas.",
            ))
        }
    };
    if properties.len() > MAX_PROPERTIES {
        return Err(err(
            "/properties",
            format!(
                "The schema has {} properties; a form can have at most {MAX_PROPERTIES}.",
                properties.len()
            ),
        ));
    }
    let required = required_names(root, properties)?;

    let mut fields = Vec::with_capacity(properties.len());
    let mut budget = PatternBudget::default();
    for (name, prop) in properties {
        let path = format!("/properties/{}", escape_pointer(name));
        let mut field = compile_field(name, prop, required.contains(name.as_str()), &path)?;
        // At once, field by field: a compiled program over the form's budget is dropped
        // before the next field compiles, so memory stays within the bound too.
        budget.apply(&mut field);
        fields.push(field);
    }
    Ok(FormSpec {
        title,
        description,
        fields,
    })
}

/// Keeps the form's checked patterns within [`MAX_CHECKED_PATTERNS_PER_FORM`] and
/// [`MAX_FORM_PROGRAM_LEN`]: the patterns of later fields are kept unchecked (in words),
/// so a server cannot make one form's checks cost what it likes.
#[derive(Default)]
struct PatternBudget {
    checked: usize,
    program: usize,
}

impl PatternBudget {
    fn apply(&mut self, field: &mut Field) {
        let FieldKind::String { pattern, .. } = &mut field.kind else {
            return;
        };
        let Some(p) = pattern.take() else {
            return;
        };
        if p.not_checked().is_some() {
            *pattern = Some(p);
            return;
        }
        let len = p.program_len();
        *pattern = Some(if self.checked >= MAX_CHECKED_PATTERNS_PER_FORM {
            p.unchecked(format!(
                "this form checks the patterns of its first {MAX_CHECKED_PATTERNS_PER_FORM} fields that have one"
            ))
        } else if self.program.saturating_add(len) > MAX_FORM_PROGRAM_LEN {
            p.unchecked(format!(
                "the form's patterns together would need more than {MAX_FORM_PROGRAM_LEN} steps of program"
            ))
        } else {
            self.checked += 1;
            self.program += len;
            p
        });
    }
}

/// Reads `required`, refusing names that are not properties: such a form could never be
/// answered, so it is better to say so than to show it. A name may be listed more than once.
fn required_names<'a>(
    root: &'a Map<String, Value>,
    properties: &Map<String, Value>,
) -> Result<BTreeSet<&'a str>, SchemaError> {
    let Some(req) = root.get("required") else {
        return Ok(BTreeSet::new());
    };
    let list = req.as_array().ok_or_else(|| {
        err(
            "/required",
            "\"required\" must be a list of property names.",
        )
    })?;
    let mut names = BTreeSet::new();
    for (i, item) in list.iter().enumerate() {
        let Some(name) = item.as_str() else {
            return Err(err(
                &format!("/required/{i}"),
                "Each entry of \"required\" must be a property name.",
            ));
        };
        if !properties.contains_key(name) {
            return Err(err(
                &format!("/required/{i}"),
                format!("\"{name}\" is listed as required but there is no such property."),
            ));
        }
        names.insert(name);
    }
    Ok(names)
}

fn compile_field(
    name: &str,
    prop: &Value,
    required: bool,
    path: &str,
) -> Result<Field, SchemaError> {
    let obj = prop
        .as_object()
        .ok_or_else(|| err(path, format!("The schema of \"{name}\" must be an object.")))?;
    if obj.contains_key("$ref") {
        return Err(err(
            &format!("{path}/$ref"),
            format!("\"{name}\" uses a $ref; only inline, flat field schemas are supported."),
        ));
    }
    let ty = match obj.get("type") {
        None => {
            return Err(err(
                path,
                format!(
                    "\"{name}\" has no \"type\"; each field must be a string, number, integer, boolean or array of choices."
                ),
            ))
        }
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(_)) => {
            return Err(err(
                &format!("{path}/type"),
                format!("\"{name}\" allows several types; a field must have exactly one type."),
            ))
        }
        Some(other) => {
            return Err(err(
                &format!("{path}/type"),
                format!("The type of \"{name}\" must be a string, not {}.", show(other)),
            ))
        }
    };
    let kind = match ty {
        "string" => string_kind(name, obj, path)?,
        "number" => FieldKind::Number(bounds(obj, path)?),
        "integer" => FieldKind::Integer(bounds(obj, path)?),
        "boolean" => FieldKind::Boolean,
        "array" => multi_select_kind(name, obj, path)?,
        "object" => {
            return Err(err(
                path,
                format!("\"{name}\" is a nested object; only flat fields are supported."),
            ))
        }
        other => {
            return Err(err(
                &format!("{path}/type"),
                format!(
                    "\"{name}\" has type \"{other}\"; supported types are string, number, integer, boolean and array."
                ),
            ))
        }
    };
    let label = opt_string(obj, "title", path)?.unwrap_or_else(|| name.to_owned());
    let description = opt_string(obj, "description", path)?;
    let default = match obj.get("default") {
        None => None,
        Some(d) => {
            check_default(name, &kind, d, path)?;
            Some(d.clone())
        }
    };
    Ok(Field {
        name: name.to_owned(),
        label,
        description,
        required,
        default,
        kind,
    })
}

/// A default must be a value of the field's kind (right JSON type, integral for integers, one
/// of the options for choices). A default of the right kind that breaks a length, format,
/// pattern or range constraint is kept: the user sees it pre-filled and validation flags it.
fn check_default(name: &str, kind: &FieldKind, d: &Value, path: &str) -> Result<(), SchemaError> {
    let path = format!("{path}/default");
    match value_fits_kind(kind, d) {
        Ok(()) => Ok(()),
        Err(KindMismatch::Type(expected)) => Err(err(
            &path,
            format!(
                "The default of \"{name}\" is {}, but the field holds {expected}.",
                show(d)
            ),
        )),
        Err(KindMismatch::NotAnOption(v)) => Err(err(
            &path,
            format!("The default of \"{name}\" includes \"{v}\", which is not one of its choices."),
        )),
    }
}

fn string_kind(name: &str, obj: &Map<String, Value>, path: &str) -> Result<FieldKind, SchemaError> {
    let has_enum = obj.contains_key("enum");
    let has_one_of = obj.contains_key("oneOf");
    if has_enum && has_one_of {
        return Err(err(
            path,
            format!("\"{name}\" has both \"enum\" and \"oneOf\"; use one of them."),
        ));
    }
    if has_one_of {
        let options = titled_options(name, obj.get("oneOf"), &format!("{path}/oneOf"))?;
        return Ok(FieldKind::Select { options });
    }
    if has_enum {
        let options = enum_options(name, obj, path)?;
        return Ok(FieldKind::Select { options });
    }
    let min_length = opt_count(obj, "minLength", path)?;
    let max_length = opt_count(obj, "maxLength", path)?;
    if let (Some(lo), Some(hi)) = (min_length, max_length) {
        if lo > hi {
            return Err(err(
                &format!("{path}/maxLength"),
                format!(
                    "\"{name}\" has maxLength {hi} below its minLength {lo}, so no answer fits."
                ),
            ));
        }
    }
    let format = match obj.get("format") {
        None => None,
        Some(Value::String(f)) => match f.as_str() {
            "email" => Some(StringFormat::Email),
            "uri" => Some(StringFormat::Uri),
            "date" => Some(StringFormat::Date),
            "date-time" => Some(StringFormat::DateTime),
            // Unknown formats are annotations in JSON Schema: a plain text box is still useful.
            _ => None,
        },
        Some(other) => {
            return Err(err(
                &format!("{path}/format"),
                format!(
                    "The format of \"{name}\" must be a string, not {}.",
                    show(other)
                ),
            ))
        }
    };
    let pattern = match obj.get("pattern") {
        None => None,
        // Never refused for what it says: one this client cannot check is kept unchecked.
        Some(Value::String(p)) => Some(Pattern::compile(p)),
        Some(other) => {
            return Err(err(
                &format!("{path}/pattern"),
                format!(
                    "The pattern of \"{name}\" must be a string, not {}.",
                    show(other)
                ),
            ))
        }
    };
    Ok(FieldKind::String {
        min_length,
        max_length,
        format,
        pattern,
    })
}

/// Untitled `enum`, or the legacy `enum` + `enumNames`.
fn enum_options(
    name: &str,
    obj: &Map<String, Value>,
    path: &str,
) -> Result<Vec<EnumOption>, SchemaError> {
    let values = string_list(name, obj.get("enum"), &format!("{path}/enum"))?;
    let titles = match obj.get("enumNames") {
        None => None,
        Some(names) => {
            let npath = format!("{path}/enumNames");
            let list = names.as_array().ok_or_else(|| {
                err(
                    &npath,
                    format!("\"enumNames\" of \"{name}\" must be a list of strings."),
                )
            })?;
            if list.len() != values.len() {
                return Err(err(
                    &npath,
                    format!(
                        "\"{name}\" has {} enumNames for {} enum values; they must match one to one.",
                        list.len(),
                        values.len()
                    ),
                ));
            }
            let mut titles = Vec::with_capacity(list.len());
            for (i, t) in list.iter().enumerate() {
                let t = t.as_str().ok_or_else(|| {
                    err(
                        &format!("{npath}/{i}"),
                        format!("Each of the enumNames of \"{name}\" must be a string."),
                    )
                })?;
                titles.push(t.to_owned());
            }
            Some(titles)
        }
    };
    Ok(match titles {
        Some(titles) => values
            .into_iter()
            .zip(titles)
            .map(|(value, title)| EnumOption { value, title })
            .collect(),
        None => values
            .into_iter()
            .map(|value| EnumOption {
                title: value.clone(),
                value,
            })
            .collect(),
    })
}

/// A non-empty list of distinct strings (an `enum`).
fn string_list(name: &str, v: Option<&Value>, path: &str) -> Result<Vec<String>, SchemaError> {
    let list = v.and_then(Value::as_array).ok_or_else(|| {
        err(
            path,
            format!("The enum of \"{name}\" must be a list of strings."),
        )
    })?;
    if list.is_empty() {
        return Err(err(
            path,
            format!("The enum of \"{name}\" is empty, so there is nothing to choose."),
        ));
    }
    check_choice_count(name, list.len(), path)?;
    let mut out: Vec<String> = Vec::with_capacity(list.len());
    let mut seen = BTreeSet::new();
    for (i, item) in list.iter().enumerate() {
        let Some(s) = item.as_str() else {
            return Err(err(
                &format!("{path}/{i}"),
                format!(
                    "Each choice of \"{name}\" must be a string, not {}.",
                    show(item)
                ),
            ));
        };
        if !seen.insert(s) {
            return Err(err(
                &format!("{path}/{i}"),
                format!("The choice \"{s}\" of \"{name}\" appears more than once."),
            ));
        }
        out.push(s.to_owned());
    }
    Ok(out)
}

/// A non-empty list of `{const, title}` (a titled `oneOf` or `anyOf`). A missing title falls
/// back to the value, so a sloppy server still gets a usable form.
fn titled_options(
    name: &str,
    v: Option<&Value>,
    path: &str,
) -> Result<Vec<EnumOption>, SchemaError> {
    let list = v.and_then(Value::as_array).ok_or_else(|| {
        err(
            path,
            format!("The choices of \"{name}\" must be a list of {{const, title}} objects."),
        )
    })?;
    if list.is_empty() {
        return Err(err(
            path,
            format!("The choices of \"{name}\" are empty, so there is nothing to choose."),
        ));
    }
    check_choice_count(name, list.len(), path)?;
    let mut out: Vec<EnumOption> = Vec::with_capacity(list.len());
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (i, item) in list.iter().enumerate() {
        let ipath = format!("{path}/{i}");
        let o = item.as_object().ok_or_else(|| {
            err(
                &ipath,
                format!("Each choice of \"{name}\" must be a {{const, title}} object."),
            )
        })?;
        let value = match o.get("const") {
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(err(
                    &format!("{ipath}/const"),
                    format!(
                        "Each choice of \"{name}\" must have a string const, not {}.",
                        show(other)
                    ),
                ))
            }
            None => {
                return Err(err(
                    &ipath,
                    format!("A choice of \"{name}\" has no \"const\" value."),
                ))
            }
        };
        let title = opt_string(o, "title", &ipath)?.unwrap_or_else(|| value.clone());
        if !seen.insert(value) {
            return Err(err(
                &ipath,
                format!("The choice \"{value}\" of \"{name}\" appears more than once."),
            ));
        }
        out.push(EnumOption {
            value: value.clone(),
            title,
        });
    }
    Ok(out)
}

/// Refuses a list of more than [`MAX_ENUM_OPTIONS`] choices, before any is looked at.
fn check_choice_count(name: &str, len: usize, path: &str) -> Result<(), SchemaError> {
    if len > MAX_ENUM_OPTIONS {
        return Err(err(
            path,
            format!(
                "\"{name}\" offers {len} choices; a field can offer at most {MAX_ENUM_OPTIONS}."
            ),
        ));
    }
    Ok(())
}

fn multi_select_kind(
    name: &str,
    obj: &Map<String, Value>,
    path: &str,
) -> Result<FieldKind, SchemaError> {
    let ipath = format!("{path}/items");
    let no_choices = || {
        err(
            &ipath,
            format!("\"{name}\" is an array without a fixed list of string choices; only multi-select arrays (items with enum or anyOf) are supported."),
        )
    };
    let items = obj
        .get("items")
        .and_then(Value::as_object)
        .ok_or_else(no_choices)?;
    let options = if items.contains_key("anyOf") {
        titled_options(name, items.get("anyOf"), &format!("{ipath}/anyOf"))?
    } else if items.contains_key("enum") {
        match items.get("type") {
            Some(Value::String(t)) if t == "string" => {}
            None => {}
            Some(_) => {
                return Err(err(
                    &format!("{ipath}/type"),
                    format!("The choices of \"{name}\" must be strings."),
                ))
            }
        }
        string_list(name, items.get("enum"), &format!("{ipath}/enum"))?
            .into_iter()
            .map(|value| EnumOption {
                title: value.clone(),
                value,
            })
            .collect()
    } else {
        return Err(no_choices());
    };
    let min_items = opt_count(obj, "minItems", path)?;
    let max_items = opt_count(obj, "maxItems", path)?;
    if let (Some(lo), Some(hi)) = (min_items, max_items) {
        if lo > hi {
            return Err(err(
                &format!("{path}/maxItems"),
                format!("\"{name}\" has maxItems {hi} below its minItems {lo}, so no answer fits."),
            ));
        }
    }
    Ok(FieldKind::MultiSelect {
        options,
        min_items,
        max_items,
    })
}

fn bounds(obj: &Map<String, Value>, path: &str) -> Result<NumberBounds, SchemaError> {
    let b = NumberBounds {
        minimum: opt_number(obj, "minimum", path)?,
        maximum: opt_number(obj, "maximum", path)?,
        exclusive_minimum: opt_number(obj, "exclusiveMinimum", path)?,
        exclusive_maximum: opt_number(obj, "exclusiveMaximum", path)?,
    };
    Ok(b)
}

fn opt_number(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<f64>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() => Ok(Some(f)),
            _ => Err(err(
                &format!("{path}/{key}"),
                format!("\"{key}\" must be a finite number."),
            )),
        },
        Some(other) => Err(err(
            &format!("{path}/{key}"),
            format!("\"{key}\" must be a number, not {}.", show(other)),
        )),
    }
}

fn opt_count(obj: &Map<String, Value>, key: &str, path: &str) -> Result<Option<u64>, SchemaError> {
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

fn opt_string(
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
fn show(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn err(path: &str, message: impl Into<String>) -> SchemaError {
    SchemaError {
        path: path.to_owned(),
        message: message.into(),
    }
}
