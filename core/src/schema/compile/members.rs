//! Reading optional members of a schema object, and the refusal in words.

use crate::schema::error::Refusal;
use crate::schema::json::{Json, Object};
use crate::schema::SchemaError;
use std::fmt::{self, Write};

pub(super) fn opt_count(
    obj: &Object<'_>,
    key: &str,
    path: &Pointer<'_>,
) -> Result<Option<u64>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) => Ok(Some(n)),
            None => Err(err(format!("{path}/{key}"), Refusal::NotCount)
                .key(key)
                .found(v)),
        },
    }
}

pub(super) fn opt_string(
    obj: &Object<'_>,
    key: &str,
    path: &Pointer<'_>,
) -> Result<Option<String>, SchemaError> {
    opt_string_kept(obj, key, path, true)
}

/// [`opt_string`], checked the same way whether or not it is kept; copied only when `keep`
/// (else `None`).
pub(super) fn opt_string_kept(
    obj: &Object<'_>,
    key: &str,
    path: &Pointer<'_>,
    keep: bool,
) -> Result<Option<String>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Json::String(s)) => Ok(keep.then(|| s.as_ref().to_owned())),
        Some(other) => Err(err(format!("{path}/{key}"), Refusal::NotText)
            .key(key)
            .found(other)),
    }
}

/// Where in the schema a part is, as a JSON pointer (RFC 6901) written only when a refusal
/// needs it: the compiler walks every property and choice, and building each one's pointer
/// up front was an allocation per part for errors that mostly never happen.
#[derive(Clone, Copy)]
pub(super) enum Pointer<'a> {
    /// `""`.
    Root,
    /// `/properties/<name>`, the name escaped.
    Property(&'a str),
    /// A fixed key below a part (keys the compiler names need no escaping).
    Key(&'a Pointer<'a>, &'a str),
    /// An entry of a list.
    Index(&'a Pointer<'a>, usize),
}

impl<'a> Pointer<'a> {
    pub(super) fn key(&'a self, key: &'a str) -> Pointer<'a> {
        Pointer::Key(self, key)
    }
    pub(super) fn index(&'a self, i: usize) -> Pointer<'a> {
        Pointer::Index(self, i)
    }
}

impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pointer::Root => Ok(()),
            Pointer::Property(name) => {
                f.write_str("/properties/")?;
                // RFC 6901: `~` then `/`.
                for c in name.chars() {
                    match c {
                        '~' => f.write_str("~0")?,
                        '/' => f.write_str("~1")?,
                        c => f.write_char(c)?,
                    }
                }
                Ok(())
            }
            Pointer::Key(up, key) => write!(f, "{up}/{key}"),
            Pointer::Index(up, i) => write!(f, "{up}/{i}"),
        }
    }
}

/// The refusal `refusal` at `path`; its data follow ([`SchemaError::name`] and the rest).
pub(super) fn err(path: impl fmt::Display, refusal: Refusal) -> SchemaError {
    SchemaError::new(path.to_string(), refusal)
}
