//! The compiler itself: walks a raw `requestedSchema` once, in property order, and either
//! builds a [`FormSpec`] or stops at the first part it cannot honour.
//!
//! Refusing is deliberate: a form that silently drops a nested object or a union would collect
//! an answer the server cannot use, so the user would fill it in for nothing.
//!
//! This file reads the root and dispatches each property by its `type`; one file per job
//! below it: [`strings`] (text fields and the form's pattern budget), [`choices`] (every enum
//! shape, single and multi), [`numbers`] (bounds), [`defaults`] (a default's kind), and
//! [`members`] (reading optional members, and the refusal in words).

mod choices;
mod defaults;
mod members;
mod numbers;
mod strings;

use super::form::{Field, FieldKind, FormSpec};
use super::SchemaError;
use crate::schema::json::{Json, Object};
use crate::schema::names::Names;
use choices::multi_select_kind;
pub use choices::MAX_ENUM_OPTIONS;
use defaults::check_default;
use members::{err, opt_string, show, Pointer};
use numbers::bounds;
use serde_json::Value;
use strings::{string_kind, PatternBudget};

/// The most properties one schema may have: 1,000. A person fills a form field by field; far
/// fewer make an unusable form already, and each property becomes controls on the page, so a
/// server sending 10^5 of them would freeze it. More are refused at `/properties`.
pub const MAX_PROPERTIES: usize = 1000;

/// Compiles a raw `requestedSchema` into a [`FormSpec`], or refuses it with a precise error.
///
/// See the [module docs](super) for what is accepted, ignored and refused.
pub fn compile(schema: &Value) -> Result<FormSpec, SchemaError> {
    compile_json(&Json::from_value(schema))
}

/// [`compile`] over a schema read by [`Json::parse`] (the JS API's way in).
pub(crate) fn compile_json(schema: &Json<'_>) -> Result<FormSpec, SchemaError> {
    let root = schema
        .as_object()
        .ok_or_else(|| err("", "The requested schema must be a JSON object."))?;
    match root.get("type") {
        None => {}
        Some(Json::String(t)) if t == "object" => {}
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
    let title = opt_string(root, "title", &Pointer::Root)?;
    let description = opt_string(root, "description", &Pointer::Root)?;
    let empty = Object::default();
    let properties = match root.get("properties") {
        None => &empty,
        Some(Json::Object(p)) => p,
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
    for (name, prop) in properties.iter() {
        let path = Pointer::Property(name);
        let mut field = compile_field(name, prop, required.contains(name), &path)?;
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

/// Reads `required`, refusing names that are not properties: such a form could never be
/// answered, so it is better to say so than to show it. A name may be listed more than once.
fn required_names<'a>(
    root: &'a Object<'_>,
    properties: &Object<'_>,
) -> Result<Names<'a>, SchemaError> {
    let Some(req) = root.get("required") else {
        return Ok(Names::new(std::iter::empty()));
    };
    let list = req.as_array().ok_or_else(|| {
        err(
            "/required",
            "\"required\" must be a list of property names.",
        )
    })?;
    // Ordered, as every lookup over server-sized lists here (module docs); `required` may
    // be far longer than the properties it names.
    let known = Names::new(properties.keys());
    for (i, item) in list.iter().enumerate() {
        let Some(name) = item.as_str() else {
            return Err(err(
                format!("/required/{i}"),
                "Each entry of \"required\" must be a property name.",
            ));
        };
        if !known.contains(name) {
            return Err(err(
                format!("/required/{i}"),
                format!("\"{name}\" is listed as required but there is no such property."),
            ));
        }
    }
    // Every entry is a name by now.
    Ok(Names::new(list.iter().filter_map(Json::as_str)))
}

fn compile_field(
    name: &str,
    prop: &Json<'_>,
    required: bool,
    path: &Pointer<'_>,
) -> Result<Field, SchemaError> {
    let obj = prop
        .as_object()
        .ok_or_else(|| err(path, format!("The schema of \"{name}\" must be an object.")))?;
    if obj.contains_key("$ref") {
        return Err(err(
            format!("{path}/$ref"),
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
        Some(Json::String(t)) => t.as_ref(),
        Some(Json::Array(_)) => {
            return Err(err(
                format!("{path}/type"),
                format!("\"{name}\" allows several types; a field must have exactly one type."),
            ))
        }
        Some(other) => {
            return Err(err(
                format!("{path}/type"),
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
                format!("{path}/type"),
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
            Some(d.to_value())
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
