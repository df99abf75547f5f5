//! The live state of a schema form: what each control holds and each field's message.
//!
//! Control values are kept as the core's [`RawInput`], so validation is exactly the core's
//! `check_field` / `coerce_form` (one code path with the JS API); nothing is re-implemented here.
//!
//! A form of any size holds ONE reactive node: the whole form's state is one
//! [`StoredValue`], and a field is a `Copy` handle into it ([`FieldState`]). Nothing on a
//! field is reactive: the form's event handlers (one set per form, see `schema_form.rs`)
//! change a field's state and then write its frame's changing part (ARIA marks, message,
//! pattern note) through [`FieldState::show`]. A server-sized form therefore costs its DOM
//! and no signal, effect, closure or listener per field.

use crate::i18n::{use_messages, Messages};
use leptos::prelude::*;
use mcp_elicit::schema::{Field, FieldKind, FormSpec, StringFormat};
use mcp_elicit::validate::{self, FieldError, RawInput};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};
use wasm_bindgen::JsCast;

/// One field and what its control holds now.
pub struct Entry {
    pub field: Field,
    /// The element id of the control (or of the fieldset for a multi-select).
    pub id: String,
    /// What the control shows. Date-times are kept as the `datetime-local` text.
    pub raw: RawInput,
    /// The browser could not read the control (e.g. letters in a number input, which the
    /// browser reports as an empty value): an error of its own, since "empty" would mislead.
    pub bad_input: bool,
    /// The message shown under the control, if the value is invalid.
    pub error: Option<String>,
    /// A multi-select's ticked options, as option indexes: a tick costs O(log n) plus the
    /// answer's own length, and the set is ordered, so the answer keeps the schema's
    /// option order whatever order the boxes are ticked in.
    pub ticked: BTreeSet<usize>,
    /// What the field's frame shows now of what changes: written by [`FieldState::show`].
    pub shown: Shown,
    /// The words of its messages, in the card's language.
    pub messages: Messages,
}

/// The changing part of a field's frame.
#[derive(Clone, Default, PartialEq)]
pub struct Shown {
    /// `aria-invalid="true"` on the control(s).
    pub invalid: bool,
    /// The control's `aria-describedby`.
    pub described: Option<String>,
    /// The message under the control.
    pub error: Option<String>,
    /// The sentence beside a text field whose `pattern` is not checked.
    pub note: Option<String>,
}

impl Entry {
    pub fn desc_id(&self) -> String {
        format!("{}-desc", self.id)
    }
    pub fn err_id(&self) -> String {
        format!("{}-err", self.id)
    }
    pub fn pattern_id(&self) -> String {
        format!("{}-pattern", self.id)
    }
    /// The id of a multi-select's `j`th checkbox: [`Entry::option_id_prefix`] and `j`.
    pub fn option_id(&self, j: usize) -> String {
        format!("{}{j}", self.option_id_prefix())
    }
    pub fn option_id_prefix(&self) -> String {
        format!("{}-o", self.id)
    }

    /// The id of the element that takes focus for this field: the control, or a
    /// multi-select's first checkbox (a fieldset is not focusable).
    pub fn focus_id(&self) -> String {
        match self.field.kind {
            FieldKind::MultiSelect { .. } => self.option_id(0),
            _ => self.id.clone(),
        }
    }

    /// For a text field whose `pattern` this client does not check, or cannot check for
    /// the text typed now: the sentence saying so.
    pub fn pattern_note(&self) -> Option<String> {
        let FieldKind::String {
            pattern: Some(p), ..
        } = &self.field.kind
        else {
            return None;
        };
        p.note(&raw_text(&self.raw))
    }

    /// `aria-describedby` given the pattern note shown (if any): the description, the
    /// note, then the error message when there is one.
    pub fn described_by(&self, note: bool) -> Option<String> {
        let mut ids = Vec::new();
        if self.field.description.is_some() {
            ids.push(self.desc_id());
        }
        if note {
            ids.push(self.pattern_id());
        }
        if self.error.is_some() {
            ids.push(self.err_id());
        }
        if ids.is_empty() {
            None
        } else {
            Some(ids.join(" "))
        }
    }

    /// What the frame should show for the state now (the pattern is checked once here).
    pub fn showing(&self) -> Shown {
        let note = self.pattern_note();
        Shown {
            invalid: self.error.is_some(),
            described: self.described_by(note.is_some()),
            error: self.error.clone(),
            note,
        }
    }

    /// Checks this field now and keeps (or clears) its message.
    fn validate(&mut self) -> Result<Option<Value>, FieldError> {
        let m = &self.messages;
        let result = if self.bad_input {
            Err(FieldError::new(
                &self.field.name,
                validate::ErrorCode::Type,
                m.t("error.unreadable_number", &[]),
            ))
        } else {
            validate::check_field(&self.field, &for_core(&self.field, &self.raw))
        };
        self.error = result.as_ref().err().map(|e| {
            if self.bad_input {
                e.message.clone()
            } else {
                self.words(e)
            }
        });
        result
    }

    /// A core error about this field, worded from its code and the field's data in the
    /// card's language (the core's own English message is not shown).
    fn words(&self, e: &FieldError) -> String {
        let raw = raw_text(&self.raw);
        self.messages.field_error(&self.field, e, Some(&raw))
    }
}

/// Every field of one form, and the element id prefix its ids start with.
pub struct Form {
    prefix: String,
    entries: Vec<Entry>,
}

/// A handle on one field of a form: `Copy`, so handlers take it without cloning anything.
#[derive(Clone, Copy)]
pub struct FieldState {
    form: StoredValue<Form, LocalStorage>,
    index: usize,
}

/// What a form's event target is: a field's control, or one box of a multi-select.
pub struct Target {
    pub field: FieldState,
    pub option: Option<usize>,
}

/// The handle on a whole form's state.
#[derive(Clone, Copy)]
pub struct FormState {
    form: StoredValue<Form, LocalStorage>,
}

impl FormState {
    /// Builds the state of every field: restored values first, else schema defaults, else
    /// empty.
    pub fn build(spec: &FormSpec, prefix: &str, initial: Option<&Map<String, Value>>) -> Self {
        let offset = utc_offset_minutes(None);
        let messages = use_messages();
        let entries = spec
            .fields
            .iter()
            .enumerate()
            .map(|(i, field)| {
                let raw = initial
                    .and_then(|m| m.get(&field.name))
                    .and_then(|v| validate::input_for_value(field, v, offset))
                    .or_else(|| validate::default_input(field, offset))
                    .unwrap_or_else(|| empty_input(field));
                let ticked = match (&field.kind, &raw) {
                    (FieldKind::MultiSelect { options, .. }, RawInput::List(start)) => options
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| start.contains(&o.value))
                        .map(|(j, _)| j)
                        .collect(),
                    _ => BTreeSet::new(),
                };
                let mut entry = Entry {
                    field: field.clone(),
                    id: format!("{prefix}-f{i}"),
                    raw,
                    bad_input: false,
                    error: None,
                    ticked,
                    shown: Shown::default(),
                    messages: messages.clone(),
                };
                entry.shown = entry.showing();
                entry
            })
            .collect();
        FormState {
            form: StoredValue::new_local(Form {
                prefix: prefix.to_owned(),
                entries,
            }),
        }
    }

    /// The handle on field `index` (in schema order).
    pub fn field(self, index: usize) -> FieldState {
        FieldState {
            form: self.form,
            index,
        }
    }

    /// Reads every field's state at once (e.g. to render them).
    pub fn with_entries<R>(self, f: impl FnOnce(&[Entry]) -> R) -> Option<R> {
        self.form.try_with_value(|form| f(&form.entries))
    }

    /// The field (and box) an element id belongs to. Our ids are `<prefix>-f<i>` and
    /// `<prefix>-f<i>-o<j>`; anything else (a button, a label) is no field's control.
    pub fn target(self, id: &str) -> Option<Target> {
        self.form
            .try_with_value(|form| {
                let rest = id.strip_prefix(form.prefix.as_str())?.strip_prefix("-f")?;
                let (index, option) = match rest.split_once("-o") {
                    Some((i, j)) => (i.parse().ok()?, Some(j.parse().ok()?)),
                    None => (rest.parse().ok()?, None),
                };
                (index < form.entries.len()).then_some(Target {
                    field: self.field(index),
                    option,
                })
            })
            .flatten()
    }

    /// Validates every field (showing each message in `root`, the form's element) and,
    /// when all pass, returns the typed content exactly as it will be sent (from the core's
    /// `coerce_form`).
    pub fn submit(
        self,
        spec: &FormSpec,
        root: Option<&web_sys::Element>,
    ) -> Option<Map<String, Value>> {
        let (all_ok, raw) = self.form.try_update_value(|form| {
            let mut all_ok = true;
            for e in &mut form.entries {
                if e.validate().is_err() {
                    all_ok = false;
                }
            }
            let raw: Vec<(String, RawInput)> = if all_ok {
                form.entries
                    .iter()
                    .map(|e| (e.field.name.clone(), for_core(&e.field, &e.raw)))
                    .collect()
            } else {
                Vec::new()
            };
            (all_ok, raw)
        })?;
        let content = if all_ok {
            match validate::coerce_form(spec, &raw) {
                Ok(content) => Some(content),
                Err(errors) => {
                    self.form.try_update_value(|form| {
                        // By name, so a server-sized form with many errors stays linear.
                        let by_name: HashMap<String, usize> = form
                            .entries
                            .iter()
                            .enumerate()
                            .map(|(i, e)| (e.field.name.clone(), i))
                            .collect();
                        for e in errors {
                            if let Some(entry) =
                                by_name.get(&e.field).and_then(|&i| form.entries.get_mut(i))
                            {
                                entry.error = Some(entry.words(&e));
                            }
                        }
                    });
                    None
                }
            }
        } else {
            None
        };
        if let Some(root) = root {
            self.show_all(root);
        }
        content
    }

    /// Writes every field's changing part into `root` (the form's element), walking its
    /// frames once in field order.
    pub fn show_all(self, root: &web_sys::Element) {
        for (index, frame) in frames(root).enumerate() {
            self.field(index).show(&frame);
        }
    }

    /// The id to focus for the first field that shows a message.
    pub fn first_invalid(self) -> Option<String> {
        self.form
            .try_with_value(|form| {
                form.entries
                    .iter()
                    .find(|e| e.error.is_some())
                    .map(Entry::focus_id)
            })
            .flatten()
    }
}

/// The frames (`[part=field]`) of a form element, in field order: they are its children,
/// between the title and the buttons.
pub fn frames(root: &web_sys::Element) -> impl Iterator<Item = web_sys::Element> {
    std::iter::successors(
        root.first_element_child(),
        web_sys::Element::next_element_sibling,
    )
    .filter(|el| el.get_attribute("part").as_deref() == Some("field"))
}

impl FieldState {
    /// Reads this field's state.
    pub fn with<R>(self, f: impl FnOnce(&Entry) -> R) -> Option<R> {
        self.form
            .try_with_value(|form| form.entries.get(self.index).map(f))
            .flatten()
    }

    /// Changes this field's state.
    pub fn update(self, f: impl FnOnce(&mut Entry)) {
        self.form.try_update_value(|form| {
            if let Some(e) = form.entries.get_mut(self.index) {
                f(e);
            }
        });
    }

    /// Validates this field now (on change / blur) and keeps or clears its message; the
    /// caller shows it ([`FieldState::show`]).
    pub fn validate(self) {
        self.update(|e| {
            let _ = e.validate();
        });
    }

    /// Writes this field's changing part into its frame: `aria-invalid` and
    /// `aria-describedby` on the control (on a multi-select's fieldset and each box: a
    /// screen reader lands on a box, not on the fieldset), the message, and the note on a
    /// pattern this client does not check. Only what differs from what the frame shows is
    /// written, so a tick in a multi-select of many options costs its boxes only when the
    /// field's marks change. The frame's fixed part (label, required mark, description,
    /// the control) was rendered once by `field.rs`.
    pub fn show(self, frame: &web_sys::Element) {
        let Some((before, now, err_id, pattern_id, multi)) = self.with(|e| {
            (
                e.shown.clone(),
                e.showing(),
                e.err_id(),
                e.pattern_id(),
                matches!(e.field.kind, FieldKind::MultiSelect { .. }),
            )
        }) else {
            return;
        };
        if before == now {
            return;
        }
        if (before.invalid, &before.described) != (now.invalid, &now.described) {
            let invalid = now.invalid.then_some("true");
            let write = |control: &web_sys::Element| {
                mark(control, "aria-invalid", invalid);
                mark(control, "aria-describedby", now.described.as_deref());
            };
            if multi {
                write(frame);
                // The boxes: fieldset > div.mce-options > div.mce-option > input.
                let rows = children(frame).filter(|el| el.class_name() == "mce-options");
                for option in rows.flat_map(|rows| children(&rows)) {
                    if let Some(input) = option.first_element_child() {
                        write(&input);
                    }
                }
            } else if let Some(control) =
                children(frame).find(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT"))
            {
                write(&control);
            }
        }
        // The frame ends with the message, then the pattern note, when each is shown.
        let shown_note = before
            .note
            .as_ref()
            .and_then(|_| frame.last_element_child());
        let shown_error = match (&before.error, &shown_note) {
            (None, _) => None,
            (Some(_), Some(note)) => note.previous_element_sibling(),
            (Some(_), None) => frame.last_element_child(),
        };
        let note = paragraph(
            frame,
            shown_note,
            Paragraph::Note,
            &pattern_id,
            now.note.as_deref(),
            None,
        );
        paragraph(
            frame,
            shown_error,
            Paragraph::Error,
            &err_id,
            now.error.as_deref(),
            note.as_ref(),
        );
        self.update(|e| e.shown = now);
    }
}

/// The element children of `el`.
fn children(el: &web_sys::Element) -> impl Iterator<Item = web_sys::Element> {
    std::iter::successors(
        el.first_element_child(),
        web_sys::Element::next_element_sibling,
    )
}

/// The paragraphs a frame shows after its control.
#[derive(Clone, Copy)]
enum Paragraph {
    Error,
    Note,
}

/// Makes paragraph `shown` (`None`: not in the frame) say `text` (as text), creating it
/// before `before` (or last), or removes it when `text` is `None`. Returns the paragraph
/// shown.
fn paragraph(
    frame: &web_sys::Element,
    shown: Option<web_sys::Element>,
    kind: Paragraph,
    id: &str,
    text: Option<&str>,
    before: Option<&web_sys::Element>,
) -> Option<web_sys::Element> {
    match (shown, text) {
        (Some(p), Some(text)) => {
            if p.text_content().as_deref() != Some(text) {
                p.set_text_content(Some(text));
            }
            Some(p)
        }
        (Some(p), None) => {
            p.remove();
            None
        }
        (None, Some(text)) => {
            let p = frame.owner_document()?.create_element("p").ok()?;
            match kind {
                Paragraph::Error => p.set_class_name("mce-error"),
                Paragraph::Note => {
                    p.set_class_name("mce-pattern-note");
                    let _ = p.set_attribute("data-testid", "pattern-note");
                }
            }
            p.set_id(id);
            p.set_text_content(Some(text));
            let _ = frame.insert_before(&p, before.map(|b| b.unchecked_ref::<web_sys::Node>()));
            Some(p)
        }
        (None, None) => None,
    }
}

/// Sets attribute `name` of `el` to `value`, or removes it when `None`.
fn mark(el: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
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

/// The text a raw input holds (empty for a checkbox or a list).
pub fn raw_text(raw: &RawInput) -> String {
    match raw {
        RawInput::Text(t) => t.clone(),
        RawInput::LocalDateTime { text, .. } => text.clone(),
        RawInput::Bool(_) | RawInput::List(_) => String::new(),
    }
}
