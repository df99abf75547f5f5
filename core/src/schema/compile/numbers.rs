//! Number and integer fields: the four bounds.

use super::members::{err, Pointer};
use crate::schema::error::Refusal;
use crate::schema::form::NumberBounds;
use crate::schema::json::{Json, Object};
use crate::schema::SchemaError;

pub(super) fn bounds(obj: &Object<'_>, path: &Pointer<'_>) -> Result<NumberBounds, SchemaError> {
    let b = NumberBounds {
        minimum: opt_number(obj, "minimum", path)?,
        maximum: opt_number(obj, "maximum", path)?,
        exclusive_minimum: opt_number(obj, "exclusiveMinimum", path)?,
        exclusive_maximum: opt_number(obj, "exclusiveMaximum", path)?,
    };
    Ok(b)
}

fn opt_number(obj: &Object<'_>, key: &str, path: &Pointer<'_>) -> Result<Option<f64>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Json::Number(n)) => match n.as_f64() {
            Some(f) if f.is_finite() => Ok(Some(f)),
            _ => Err(err(format!("{path}/{key}"), Refusal::NotFinite).key(key)),
        },
        Some(other) => Err(err(format!("{path}/{key}"), Refusal::NotNumber)
            .key(key)
            .found(other)),
    }
}
