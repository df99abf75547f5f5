//! Checks one typed JSON value against one field: the single rule book behind
//! `validate_content`, `check_field`, `coerce_form` and the compiler's default check.

use super::error::{ErrorCode, FieldError};
use super::formats;
use crate::schema::{EnumOption, Field, FieldKind, NumberBounds, StringFormat};
use serde_json::Value;
use std::cell::RefCell;

/// Why a value is not even of a field's kind (used to refuse defaults).
pub(crate) enum KindMismatch {
    /// Words for what the field holds, e.g. "text".
    Type(&'static str),
    /// A string that is not one of the choices.
    NotAnOption(String),
}

/// Whether `v` is a value of `kind` at all: right JSON type, integral for integers, one of the
/// options for choices. Constraints (lengths, formats, ranges, counts) are not looked at.
pub(crate) fn value_fits_kind(kind: &FieldKind, v: &Value) -> Result<(), KindMismatch> {
    match kind {
        FieldKind::String { .. } => v
            .is_string()
            .then_some(())
            .ok_or(KindMismatch::Type("text")),
        FieldKind::Number(_) => number_of(v)
            .map(|_| ())
            .ok_or(KindMismatch::Type("a number")),
        FieldKind::Integer(_) => match number_of(v) {
            Some(n) if n.fract() == 0.0 => Ok(()),
            _ => Err(KindMismatch::Type("a whole number")),
        },
        FieldKind::Boolean => v
            .is_boolean()
            .then_some(())
            .ok_or(KindMismatch::Type("true or false")),
        FieldKind::Select { options } => {
            let s = v.as_str().ok_or(KindMismatch::Type("one of its choices"))?;
            if is_option(options, s) {
                Ok(())
            } else {
                Err(KindMismatch::NotAnOption(s.to_owned()))
            }
        }
        FieldKind::MultiSelect { options, .. } => {
            let list = v
                .as_array()
                .ok_or(KindMismatch::Type("a list of its choices"))?;
            for item in list {
                let s = item
                    .as_str()
                    .ok_or(KindMismatch::Type("a list of its choices"))?;
                if !is_option(options, s) {
                    return Err(KindMismatch::NotAnOption(s.to_owned()));
                }
            }
            Ok(())
        }
    }
}

/// Validates a present value against every rule of the field. The first broken rule is
/// reported, so each field yields at most one error.
pub(crate) fn validate_value(field: &Field, v: &Value) -> Result<(), FieldError> {
    let fail = |code, msg: String| Err(FieldError::new(&field.name, code, msg));
    match &field.kind {
        FieldKind::String {
            min_length,
            max_length,
            format,
            pattern,
        } => {
            let Some(s) = v.as_str() else {
                return fail(ErrorCode::Type, "Must be text.".into());
            };
            // JSON Schema counts code points, which is what `chars()` yields.
            let len = s.chars().count() as u64;
            if let Some(min) = *min_length {
                if len < min {
                    return fail(
                        ErrorCode::MinLength,
                        format!("Must be at least {}.", chars(min)),
                    );
                }
            }
            if let Some(max) = *max_length {
                if len > max {
                    return fail(
                        ErrorCode::MaxLength,
                        format!("Must be at most {}.", chars(max)),
                    );
                }
            }
            if let Some(f) = format {
                if let Err(msg) = check_format(*f, s) {
                    return fail(ErrorCode::Format, msg.into());
                }
            }
            if let Some(p) = pattern {
                // The compiler already proved the pattern compiles; if it somehow does not,
                // say so instead of accepting what cannot be checked.
                let matched = pattern_matches(p, s);
                match matched {
                    Ok(true) => {}
                    Ok(false) => {
                        return fail(ErrorCode::Pattern, format!("Must match the pattern {p}."))
                    }
                    Err(_) => {
                        return fail(
                            ErrorCode::Pattern,
                            format!("Cannot be checked: the pattern {p} is not understood."),
                        )
                    }
                }
            }
            Ok(())
        }
        FieldKind::Number(b) => {
            let Some(n) = number_of(v) else {
                return fail(ErrorCode::Type, "Must be a number.".into());
            };
            check_bounds(field, b, n)
        }
        FieldKind::Integer(b) => {
            let n = match number_of(v) {
                Some(n) if n.fract() == 0.0 => n,
                _ => return fail(ErrorCode::Type, "Must be a whole number.".into()),
            };
            check_bounds(field, b, n)
        }
        FieldKind::Boolean => {
            if v.is_boolean() {
                Ok(())
            } else {
                fail(ErrorCode::Type, "Must be true or false.".into())
            }
        }
        FieldKind::Select { options } => {
            let Some(s) = v.as_str() else {
                return fail(ErrorCode::Type, "Must be one of the choices.".into());
            };
            if is_option(options, s) {
                Ok(())
            } else {
                fail(
                    ErrorCode::Enum,
                    format!("Must be one of: {}.", titles(options)),
                )
            }
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
        } => {
            let Some(list) = v.as_array() else {
                return fail(ErrorCode::Type, "Must be a list of choices.".into());
            };
            let mut seen: Vec<&str> = Vec::with_capacity(list.len());
            for item in list {
                let Some(s) = item.as_str() else {
                    return fail(ErrorCode::Type, "Every choice must be text.".into());
                };
                if !is_option(options, s) {
                    return fail(
                        ErrorCode::Enum,
                        format!("\"{s}\" is not a choice; choose from: {}.", titles(options)),
                    );
                }
                if seen.contains(&s) {
                    // No code of its own in the contract; a repeated choice is not a valid
                    // selection, which is what `enum` means here.
                    return fail(
                        ErrorCode::Enum,
                        format!("\"{s}\" is chosen more than once."),
                    );
                }
                seen.push(s);
            }
            let count = list.len() as u64;
            if let Some(min) = *min_items {
                if count < min {
                    return fail(
                        ErrorCode::MinItems,
                        format!("Choose at least {}.", options_word(min)),
                    );
                }
            }
            if let Some(max) = *max_items {
                if count > max {
                    return fail(
                        ErrorCode::MaxItems,
                        format!("Choose at most {}.", options_word(max)),
                    );
                }
            }
            Ok(())
        }
    }
}

thread_local! {
    /// Recently used patterns, compiled. A form validates the same few patterns on every
    /// keystroke; compiling each time would dominate validation. Small and bounded, since the
    /// patterns come from servers.
    static PATTERNS: RefCell<Vec<(String, regex_lite::Regex)>> = const { RefCell::new(Vec::new()) };
}

const PATTERN_CACHE_SIZE: usize = 32;

/// Whether `s` contains a match of `pattern` (JSON Schema patterns are not anchored).
fn pattern_matches(pattern: &str, s: &str) -> Result<bool, regex_lite::Error> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, re)) = cache.iter().find(|(p, _)| p == pattern) {
            return Ok(re.is_match(s));
        }
        let re = regex_lite::Regex::new(pattern)?;
        let matched = re.is_match(s);
        if cache.len() >= PATTERN_CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((pattern.to_owned(), re));
        Ok(matched)
    })
}

fn check_format(f: StringFormat, s: &str) -> Result<(), &'static str> {
    let ok = match f {
        StringFormat::Email => formats::is_email(s),
        StringFormat::Uri => formats::is_uri(s),
        StringFormat::Date => formats::is_full_date(s),
        StringFormat::DateTime => formats::is_date_time(s),
    };
    if ok {
        return Ok(());
    }
    Err(match f {
        StringFormat::Email => "Must be an e-mail address, like name@example.com.",
        StringFormat::Uri => "Must be a full URI with a scheme, like https://example.com/page.",
        StringFormat::Date => "Must be a real date written YYYY-MM-DD, like 2025-12-26.",
        StringFormat::DateTime => {
            "Must be a date and time with a time zone, like 2025-12-26T19:30:00Z."
        }
    })
}

fn check_bounds(field: &Field, b: &NumberBounds, n: f64) -> Result<(), FieldError> {
    let fail = |code, msg: String| Err(FieldError::new(&field.name, code, msg));
    if let Some(min) = b.minimum {
        if n < min {
            return fail(ErrorCode::Minimum, format!("Must be at least {min}."));
        }
    }
    if let Some(min) = b.exclusive_minimum {
        if n <= min {
            return fail(ErrorCode::Minimum, format!("Must be greater than {min}."));
        }
    }
    if let Some(max) = b.maximum {
        if n > max {
            return fail(ErrorCode::Maximum, format!("Must be at most {max}."));
        }
    }
    if let Some(max) = b.exclusive_maximum {
        if n >= max {
            return fail(ErrorCode::Maximum, format!("Must be less than {max}."));
        }
    }
    Ok(())
}

/// A JSON number as a finite f64 (serde_json never holds NaN or infinities).
fn number_of(v: &Value) -> Option<f64> {
    v.as_number()
        .and_then(|n| n.as_f64())
        .filter(|f| f.is_finite())
}

fn is_option(options: &[EnumOption], s: &str) -> bool {
    options.iter().any(|o| o.value == s)
}

fn titles(options: &[EnumOption]) -> String {
    options
        .iter()
        .map(|o| o.title.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn chars(n: u64) -> String {
    if n == 1 {
        "1 character".into()
    } else {
        format!("{n} characters")
    }
}

fn options_word(n: u64) -> String {
    if n == 1 {
        "1 option".into()
    } else {
        format!("{n} options")
    }
}
