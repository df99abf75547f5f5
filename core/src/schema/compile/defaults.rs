//! A field's `default` (SEP-1034): it must be a value of the field's kind.

use super::members::{err, Pointer};
use crate::schema::error::Refusal;
use crate::schema::form::FieldKind;
use crate::schema::json::Json;
use crate::schema::SchemaError;
use crate::validate::{value_fits_kind, KindMismatch};

/// A default must be a value of the field's kind (right JSON type, integral for integers, one
/// of the options for choices). A default of the right kind that breaks a length, format,
/// pattern or range constraint is kept: the user sees it pre-filled and validation flags it.
pub(super) fn check_default(
    name: &str,
    kind: &FieldKind,
    d: &Json<'_>,
    path: &Pointer<'_>,
) -> Result<(), SchemaError> {
    let path = path.key("default");
    match value_fits_kind(kind, d) {
        Ok(()) => Ok(()),
        Err(KindMismatch::Type(holds)) => Err(err(path, Refusal::DefaultType)
            .name(name)
            .found(d)
            .holds(holds)),
        Err(KindMismatch::NotAnOption(v)) => Err(err(path, Refusal::DefaultNotChoice)
            .name(name)
            .text("value", &v)),
    }
}
