//! Checks one typed JSON value against one field: the single rule book behind
//! `validate_content`, `check_field`, `coerce_form` and the compiler's default check.

use super::error::{ErrorCode, FieldError};
use super::formats;
use crate::schema::error::Holds;
use crate::schema::json::Json;
use crate::schema::names::{first_repeat, Names};
use crate::schema::{
    EnumOption, Field, FieldKind, NumberBounds, PatternCheck, StringFormat, MAX_PATTERN_TEXT_LEN,
};

/// How many choices an `enum` error message lists before "and N more": 10. The message is
/// shown under the field; a list of 50,000 titles would bury the form.
pub const MAX_LISTED_CHOICES: usize = 10;

/// Why a value is not even of a field's kind (used to refuse defaults).
pub(crate) enum KindMismatch {
    /// What the field holds.
    Type(Holds),
    /// A string that is not one of the choices.
    NotAnOption(String),
}

/// Whether `v` is a value of `kind` at all: right JSON type, integral for integers, one of the
/// options for choices. Constraints (lengths, formats, ranges, counts) are not looked at.
pub(crate) fn value_fits_kind(kind: &FieldKind, v: &Json<'_>) -> Result<(), KindMismatch> {
    match kind {
        FieldKind::String { .. } => v
            .is_string()
            .then_some(())
            .ok_or(KindMismatch::Type(Holds::Text)),
        FieldKind::Number(_) => number_of(v)
            .map(|_| ())
            .ok_or(KindMismatch::Type(Holds::Number)),
        FieldKind::Integer(_) => match number_of(v) {
            Some(n) if n.fract() == 0.0 => Ok(()),
            _ => Err(KindMismatch::Type(Holds::WholeNumber)),
        },
        FieldKind::Boolean => v
            .is_boolean()
            .then_some(())
            .ok_or(KindMismatch::Type(Holds::Boolean)),
        FieldKind::Select { options } => {
            let s = v.as_str().ok_or(KindMismatch::Type(Holds::Choice))?;
            if is_option(options, s) {
                Ok(())
            } else {
                Err(KindMismatch::NotAnOption(s.to_owned()))
            }
        }
        FieldKind::MultiSelect { options, .. } => {
            let list = v.as_array().ok_or(KindMismatch::Type(Holds::Choices))?;
            let picks = list
                .iter()
                .map(Json::as_str)
                .collect::<Option<Vec<&str>>>()
                .ok_or(KindMismatch::Type(Holds::Choices))?;
            match first_stranger(options, &picks) {
                Some(s) => Err(KindMismatch::NotAnOption(s.to_owned())),
                None => Ok(()),
            }
        }
    }
}

/// Validates a present value against every rule of the field. The first broken rule is
/// reported, so each field yields at most one error.
pub(crate) fn validate_value(field: &Field, v: &Json<'_>) -> Result<(), FieldError> {
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
            // JSON Schema counts code points: the bytes that do not continue one. By hand:
            // `chars().count()` is std's word-at-a-time counter, most of a kilobyte of wasm.
            let len = s.bytes().filter(|&b| (b as i8) >= -0x40).count() as u64;
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
                // The check costs the text's length times the pattern's size: beyond the cap
                // the text is refused in words rather than checked at a cost the server chose.
                if len > MAX_PATTERN_TEXT_LEN as u64 {
                    return fail(
                        ErrorCode::Pattern,
                        format!(
                            "Too long to check against the pattern {p}: at most {} here.",
                            chars(MAX_PATTERN_TEXT_LEN as u64)
                        ),
                    );
                }
                // A pattern or a text this client cannot check is left to the server.
                if p.check(s) == PatternCheck::DoesNotMatch {
                    return fail(ErrorCode::Pattern, format!("Must match the pattern {p}."));
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
            let Some(picks) = list.iter().map(Json::as_str).collect::<Option<Vec<&str>>>() else {
                return fail(ErrorCode::Type, "Every choice must be text.".into());
            };
            if let Some(s) = first_stranger(options, &picks) {
                return fail(
                    ErrorCode::Enum,
                    format!("\"{s}\" is not a choice; choose from: {}.", titles(options)),
                );
            }
            if let Some(s) = first_repeat(&picks).and_then(|i| picks.get(i)) {
                // No code of its own in the contract; a repeated choice is not a valid
                // selection, which is what `enum` means here.
                return fail(
                    ErrorCode::Enum,
                    format!("\"{s}\" is chosen more than once."),
                );
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
            return fail(
                ErrorCode::Minimum,
                format!("Must be at least {}.", formats::number_text(min)),
            );
        }
    }
    if let Some(min) = b.exclusive_minimum {
        if n <= min {
            return fail(
                ErrorCode::Minimum,
                format!("Must be greater than {}.", formats::number_text(min)),
            );
        }
    }
    if let Some(max) = b.maximum {
        if n > max {
            return fail(
                ErrorCode::Maximum,
                format!("Must be at most {}.", formats::number_text(max)),
            );
        }
    }
    if let Some(max) = b.exclusive_maximum {
        if n >= max {
            return fail(
                ErrorCode::Maximum,
                format!("Must be less than {}.", formats::number_text(max)),
            );
        }
    }
    Ok(())
}

/// A JSON number as a finite f64 (serde_json never holds NaN or infinities).
fn number_of(v: &Json<'_>) -> Option<f64> {
    v.as_number()
        .and_then(|n| n.as_f64())
        .filter(|f| f.is_finite())
}

fn is_option(options: &[EnumOption], s: &str) -> bool {
    options.iter().any(|o| o.value == s)
}

/// The first pick (in the list's order) that is not one of the options: one pass over each
/// list and an ordered set, so 50,000 picks of 50,000 choices stay n log n.
fn first_stranger<'a>(options: &[EnumOption], picks: &[&'a str]) -> Option<&'a str> {
    match picks {
        [] => None,
        [one] => (!is_option(options, one)).then_some(*one),
        _ => {
            let values = Names::new(options.iter().map(|o| o.value.as_str()));
            picks.iter().find(|p| !values.contains(p)).copied()
        }
    }
}

/// The choices' titles for a message: the first [`MAX_LISTED_CHOICES`], then how many more.
fn titles(options: &[EnumOption]) -> String {
    // By hand: `join` is a kilobyte of wasm of its own.
    let mut out = String::new();
    for (i, o) in options.iter().take(MAX_LISTED_CHOICES).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&o.title);
    }
    if let Some(more) = options
        .len()
        .checked_sub(MAX_LISTED_CHOICES)
        .filter(|n| *n > 0)
    {
        out.push_str(&format!(" and {more} more"));
    }
    out
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
