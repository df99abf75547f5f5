//! Schema compiler: raw `requestedSchema` JSON to a typed [`FormSpec`].

mod compile;
mod error;
mod form;

pub use compile::compile;
pub use error::SchemaError;
pub use form::{EnumOption, Field, FieldKind, FormSpec, NumberBounds, StringFormat};
