//! Text fields: lengths, format and pattern, and the form's budget of checked patterns.

use super::choices::{enum_options, titled_options};
use super::members::{err, opt_count, Pointer};
use crate::schema::error::Refusal;
use crate::schema::form::{FieldKind, StringFormat};
use crate::schema::json::{Json, Object};
use crate::schema::pattern::{
    Pattern, MAX_CHECKED_PATTERNS_PER_FORM, MAX_FORM_COMPILE_STEPS, MAX_FORM_PROGRAM_LEN,
};
use crate::schema::SchemaError;

/// Keeps the form's checked patterns within [`MAX_CHECKED_PATTERNS_PER_FORM`] and
/// [`MAX_FORM_PROGRAM_LEN`], and the work of reading and compiling them within
/// [`MAX_FORM_COMPILE_STEPS`]: each pattern compiles within what the form has left, and once
/// the budget is spent the patterns of later fields are not read at all. They are kept
/// unchecked (in words), so a server cannot make one form's patterns cost what it likes.
#[derive(Default)]
pub(super) struct PatternBudget {
    checked: usize,
    program: usize,
    /// Steps taken so far, by every pattern read, checked or not.
    pub(super) steps: usize,
}

impl PatternBudget {
    /// The pattern `source` of the next field that has one.
    fn pattern(&mut self, source: &str) -> Pattern {
        let program_left = MAX_FORM_PROGRAM_LEN.saturating_sub(self.program);
        let steps_left = MAX_FORM_COMPILE_STEPS.saturating_sub(self.steps);
        if self.checked >= MAX_CHECKED_PATTERNS_PER_FORM {
            return Pattern::not_read(
                source,
                format!(
                    "this form checks the patterns of its first {MAX_CHECKED_PATTERNS_PER_FORM} fields that have one"
                ),
            );
        }
        if program_left == 0 {
            return Pattern::not_read(source, Self::program_spent());
        }
        if steps_left == 0 {
            return Pattern::not_read(source, Self::steps_spent());
        }
        let attempt = Pattern::compile_within(source, program_left, steps_left);
        self.steps = self.steps.saturating_add(attempt.steps);
        let p = attempt.pattern;
        if p.not_checked().is_none() {
            self.checked += 1;
            self.program += p.program_len();
            p
        } else if attempt.form_spent {
            // Over what the form had left, not over the pattern's own bound.
            let why = if self.steps >= MAX_FORM_COMPILE_STEPS {
                Self::steps_spent()
            } else {
                Self::program_spent()
            };
            Pattern::not_read(source, why)
        } else {
            p
        }
    }

    fn program_spent() -> String {
        format!(
            "the form's patterns together would need more than {MAX_FORM_PROGRAM_LEN} steps of program"
        )
    }

    fn steps_spent() -> String {
        format!(
            "the form's patterns together would take more than {MAX_FORM_COMPILE_STEPS} steps to compile"
        )
    }
}

pub(super) fn string_kind(
    name: &str,
    obj: &Object<'_>,
    path: &Pointer<'_>,
    budget: &mut PatternBudget,
) -> Result<FieldKind, SchemaError> {
    let has_enum = obj.contains_key("enum");
    let has_one_of = obj.contains_key("oneOf");
    if has_enum && has_one_of {
        return Err(err(path, Refusal::EnumAndOneOf).name(name));
    }
    if has_one_of {
        let options = titled_options(name, obj.get("oneOf"), &path.key("oneOf"))?;
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
            return Err(err(format!("{path}/maxLength"), Refusal::LengthBounds)
                .name(name)
                .count("max", hi)
                .count("min", lo));
        }
    }
    let format = match obj.get("format") {
        None => None,
        Some(Json::String(f)) => match f.as_ref() {
            "email" => Some(StringFormat::Email),
            "uri" => Some(StringFormat::Uri),
            "date" => Some(StringFormat::Date),
            "date-time" => Some(StringFormat::DateTime),
            // Unknown formats are annotations in JSON Schema: a plain text box is still useful.
            _ => None,
        },
        Some(other) => {
            return Err(err(format!("{path}/format"), Refusal::FormatNotString)
                .name(name)
                .found(other))
        }
    };
    let pattern = match obj.get("pattern") {
        None => None,
        // Never refused for what it says: one this client cannot check is kept unchecked.
        Some(Json::String(p)) => Some(budget.pattern(p)),
        Some(other) => {
            return Err(err(format!("{path}/pattern"), Refusal::PatternNotString)
                .name(name)
                .found(other))
        }
    };
    Ok(FieldKind::String {
        min_length,
        max_length,
        format,
        pattern,
    })
}
