//! The live state of a schema form: one control value and one error per field.
//!
//! Control values are kept as the core's [`RawInput`], so validation is exactly the core's
//! `check_field` / `coerce_form` (one code path with the JS API); nothing is re-implemented here.

use leptos::prelude::*;
use mcp_elicit::schema::{Field, FieldKind, FormSpec, StringFormat};
use mcp_elicit::validate::{self, FieldError, RawInput};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// One field and its reactive control state. Cheap to clone: every control's handlers
/// hold a copy, and a multi-select has one control per option, so the field (with all its
/// options) is shared, never copied per control.
#[derive(Clone)]
pub struct FieldState {
    pub field: Arc<Field>,
    /// The element id of the control (or of the fieldset for a multi-select).
    pub id: String,
    /// What the control shows. Date-times are kept as the `datetime-local` text.
    pub raw: RwSignal<RawInput>,
    /// The browser could not read the control (e.g. letters in a number input, which the
    /// browser reports as an empty value): an error of its own, since "empty" would mislead.
    pub bad_input: RwSignal<bool>,
    /// The message shown under the control, if the value is invalid.
    pub error: RwSignal<Option<String>>,
}

impl FieldState {
    pub fn desc_id(&self) -> String {
        format!("{}-desc", self.id)
    }
    pub fn err_id(&self) -> String {
        format!("{}-err", self.id)
    }
    pub fn pattern_id(&self) -> String {
        format!("{}-pattern", self.id)
    }
    /// For a text field whose `pattern` this client does not check, or cannot check for
    /// the text typed now: the sentence saying so (reactive: it follows the text).
    pub fn pattern_note(&self) -> Option<String> {
        let FieldKind::String {
            pattern: Some(p), ..
        } = &self.field.kind
        else {
            return None;
        };
        p.note(&raw_text(&self.raw.get()))
    }
    /// The id of a multi-select's `j`th checkbox.
    pub fn option_id(&self, j: usize) -> String {
        format!("{}-o{j}", self.id)
    }

    /// The id of the element that takes focus for this field: the control, or a
    /// multi-select's first checkbox (a fieldset is not focusable).
    pub fn focus_id(&self) -> String {
        match self.field.kind {
            FieldKind::MultiSelect { .. } => self.option_id(0),
            _ => self.id.clone(),
        }
    }

    /// `aria-describedby`: the description, the note on an unchecked pattern, then the error
    /// message when there is one.
    pub fn described_by(&self) -> Option<String> {
        let mut ids = Vec::new();
        if self.field.description.is_some() {
            ids.push(self.desc_id());
        }
        if self.pattern_note().is_some() {
            ids.push(self.pattern_id());
        }
        if self.error.get().is_some() {
            ids.push(self.err_id());
        }
        if ids.is_empty() {
            None
        } else {
            Some(ids.join(" "))
        }
    }

    /// Validates this field now (on change / blur) and shows or clears its message.
    pub fn validate(&self) -> Result<Option<Value>, FieldError> {
        let result = if self.bad_input.get_untracked() {
            Err(FieldError::new(
                &self.field.name,
                validate::ErrorCode::Type,
                "Enter a number.",
            ))
        } else {
            validate::check_field(
                &self.field,
                &for_core(&self.field, &self.raw.get_untracked()),
            )
        };
        self.error
            .set(result.as_ref().err().map(|e| e.message.clone()));
        result
    }
}

/// The browser's offset from UTC in minutes, east positive, at the given local date-time
/// (or now): what `RawInput::LocalDateTime` needs.
fn utc_offset_minutes(local: Option<&str>) -> i32 {
    let date = match local {
        Some(text) => js_sys::Date::new(&wasm_bindgen::JsValue::from_str(text)),
        None => js_sys::Date::new_0(),
    };
    let offset = date.get_timezone_offset();
    if offset.is_finite() {
        // Offsets are whole minutes within ±18 h, so the cast cannot overflow.
        -(offset as i32)
    } else {
        0
    }
}

/// The control value as the core wants it: `datetime-local` text gains the browser's offset.
pub fn for_core(field: &Field, raw: &RawInput) -> RawInput {
    match (&field.kind, raw) {
        (
            FieldKind::String {
                format: Some(StringFormat::DateTime),
                ..
            },
            RawInput::Text(text),
        ) if !text.trim().is_empty() => RawInput::LocalDateTime {
            text: text.clone(),
            utc_offset_minutes: utc_offset_minutes(Some(text)),
        },
        _ => raw.clone(),
    }
}

/// What an untouched control holds for a field without a default.
fn empty_input(field: &Field) -> RawInput {
    match field.kind {
        FieldKind::Boolean => RawInput::Bool(false),
        FieldKind::MultiSelect { .. } => RawInput::List(Vec::new()),
        _ => RawInput::Text(String::new()),
    }
}

/// Builds the state of every field: restored values first, else schema defaults, else empty.
pub fn build(
    spec: &FormSpec,
    prefix: &str,
    initial: Option<&Map<String, Value>>,
) -> Vec<FieldState> {
    let offset = utc_offset_minutes(None);
    spec.fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let start = initial
                .and_then(|m| m.get(&field.name))
                .and_then(|v| validate::input_for_value(field, v, offset))
                .or_else(|| validate::default_input(field, offset))
                .unwrap_or_else(|| empty_input(field));
            FieldState {
                field: Arc::new(field.clone()),
                id: format!("{prefix}-f{i}"),
                raw: RwSignal::new(start),
                bad_input: RwSignal::new(false),
                error: RwSignal::new(None),
            }
        })
        .collect()
}

/// Validates every field (showing each message) and, when all pass, returns the typed
/// content exactly as it will be sent (from the core's `coerce_form`).
pub fn submit(spec: &FormSpec, fields: &[FieldState]) -> Option<Map<String, Value>> {
    let mut all_ok = true;
    for f in fields {
        if f.validate().is_err() {
            all_ok = false;
        }
    }
    if !all_ok {
        return None;
    }
    let raw: Vec<(String, RawInput)> = fields
        .iter()
        .map(|f| {
            (
                f.field.name.clone(),
                for_core(&f.field, &f.raw.get_untracked()),
            )
        })
        .collect();
    match validate::coerce_form(spec, &raw) {
        Ok(content) => Some(content),
        Err(errors) => {
            // By name, so a server-sized form with many errors stays linear.
            let by_name: HashMap<&str, &FieldState> =
                fields.iter().map(|f| (f.field.name.as_str(), f)).collect();
            for e in errors {
                if let Some(f) = by_name.get(e.field.as_str()) {
                    f.error.set(Some(e.message));
                }
            }
            None
        }
    }
}

/// The text a raw input holds (empty for a checkbox or a list).
pub fn raw_text(raw: &RawInput) -> String {
    match raw {
        RawInput::Text(t) => t.clone(),
        RawInput::LocalDateTime { text, .. } => text.clone(),
        RawInput::Bool(_) | RawInput::List(_) => String::new(),
    }
}
