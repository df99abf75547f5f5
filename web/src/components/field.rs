//! One schema property as one labelled control in one field frame, per the DOM contract:
//! text / email / url / date / datetime-local inputs, number inputs, checkboxes, a `<select>`
//! for single-select enums and a `<fieldset>` of checkboxes for multi-select enums.
//!
//! The frames are described here ([`FormDom`]) and built by `build_form` in
//! web/src/glue.js, the whole form's fixed part in one call: the label with its required
//! mark, the description and the control, with the ARIA marks the field starts with. What
//! changes later (`aria-invalid`, `aria-describedby`, the message, the pattern note) is
//! written by [`FieldState::show`](super::form_state::FieldState::show). Nothing here is
//! reactive and no control has a listener of its own: the form's handlers ([`on_input`],
//! [`on_change`], [`on_focusout`]) find the field from the event's target, so a form costs
//! the same few listeners at any size.

use super::form_state::{raw_text, Entry, FormState, Target};
use leptos::prelude::*;
use mcp_elicit::schema::{EnumOption, FieldKind, StringFormat};
use mcp_elicit::validate::{number_text, RawInput};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// The crate's one JS module (web/src/glue.js says why one).
#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn build_form(form: &web_sys::Element, text: &str) -> Result<(), JsValue>;
    /// Starts watching presses on the window (once per page).
    pub fn watch_presses();
    /// Whether a pointer is down; then `control` gets `focusout` again once it is released.
    fn put_off(control: &web_sys::EventTarget) -> bool;
}

/// The `<input type>` for a string format.
fn input_type(format: Option<StringFormat>) -> &'static str {
    match format {
        Some(StringFormat::Email) => "email",
        Some(StringFormat::Uri) => "url",
        Some(StringFormat::Date) => "date",
        Some(StringFormat::DateTime) => "datetime-local",
        None => "text",
    }
}

/// A number rendered for an HTML attribute (`min`/`max`), without a useless `.0`: as `{}`
/// writes it, through the core's `number_text`, so the wasm links no float formatting.
fn attr_number(n: Option<f64>) -> Option<String> {
    n.filter(|v| v.is_finite()).map(number_text)
}

/// The fixed part of a form (title, description, one frame per field) as
/// `build_form` in web/src/glue.js builds it, in one call, from this description's JSON.
#[derive(Serialize)]
pub struct FormDom<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    fields: Vec<FieldDom<'a>>,
}

impl<'a> FormDom<'a> {
    /// `entries`' frames as they start, with every control disabled when `disabled` (later
    /// changes are the form's, see `schema_form.rs`).
    pub fn new(
        title: Option<&'a str>,
        description: Option<&'a str>,
        entries: &'a [Entry],
        disabled: bool,
    ) -> Self {
        FormDom {
            title,
            description,
            fields: entries.iter().map(|e| FieldDom::new(e, disabled)).collect(),
        }
    }

    /// Builds it as the first children of `form`, the form's (still empty) element. A
    /// failure (none is expected: the names are ours, the strings text) is said in the form,
    /// in the words of `m`.
    pub fn build(&self, form: &web_sys::Element, m: &crate::i18n::Messages) {
        let built = serde_json::to_string(self)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                build_form(form, &text).map_err(|e| {
                    js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                        .ok()
                        .and_then(|m| m.as_string())
                        .unwrap_or_else(|| m.t("form.page_refused", &[]))
                })
            });
        if let Err(why) = built {
            if let Some(p) = form
                .owner_document()
                .and_then(|d| d.create_element("p").ok())
            {
                p.set_class_name("mce-status mce-failed");
                let _ = p.set_attribute("role", "alert");
                p.set_text_content(Some(&m.t("form.not_shown", &[("reason", &why)])));
                let _ = form.append_child(&p);
            }
        }
    }
}

/// One field's frame, per the DOM contract: label (a `<legend>` for a multi-select) with
/// the required mark, the description, the control with the ARIA marks the field starts
/// with (`Entry::shown`, no message yet), and a pattern note. What changes later is written
/// by [`FieldState::show`](super::form_state::FieldState::show).
#[derive(Serialize)]
struct FieldDom<'a> {
    /// `text` (an `<input>` holding text or a number), `checkbox`, `select` or `multi`.
    control: &'static str,
    /// The frame's `data-kind`; for `text`, the input's `type` too.
    kind: &'static str,
    id: &'a str,
    name: &'a str,
    label: &'a str,
    required: bool,
    disabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    desc_id: Option<String>,
    /// `aria-describedby`.
    #[serde(skip_serializing_if = "Option::is_none")]
    described: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minlength: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    maxlength: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<&'static str>,
    /// The text an input starts with (left out when empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    /// The sentence on a pattern this client does not check.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern_id: Option<String>,
    checked: bool,
    /// A select's empty first choice, and whether it starts chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    placeholder: Option<String>,
    placeholder_selected: bool,
    /// (value, title, selected or ticked) per option of a select or multi-select.
    options: Vec<(&'a str, &'a str, bool)>,
    /// A multi-select box's id is this and its index ([`Entry::option_id`]).
    #[serde(skip_serializing_if = "String::is_empty")]
    option_id_prefix: String,
}

impl<'a> FieldDom<'a> {
    fn new(e: &'a Entry, disabled: bool) -> Self {
        let mut dom = FieldDom {
            control: "text",
            kind: "text",
            id: &e.id,
            name: &e.field.name,
            label: &e.field.label,
            required: e.field.required,
            disabled,
            description: e.field.description.as_deref(),
            desc_id: e.field.description.as_ref().map(|_| e.desc_id()),
            described: e.shown.described.as_deref(),
            minlength: None,
            maxlength: None,
            min: None,
            max: None,
            step: None,
            value: Some(raw_text(&e.raw)).filter(|t| !t.is_empty()),
            note: None,
            pattern_id: None,
            checked: false,
            placeholder: None,
            placeholder_selected: false,
            options: Vec::new(),
            option_id_prefix: String::new(),
        };
        match &e.field.kind {
            FieldKind::String {
                format,
                min_length,
                max_length,
                ..
            } => {
                dom.kind = input_type(*format);
                dom.minlength = min_length.map(|n| n.to_string());
                dom.maxlength = max_length.map(|n| n.to_string());
                dom.note = e.shown.note.as_deref();
                dom.pattern_id = dom.note.map(|_| e.pattern_id());
            }
            FieldKind::Number(b) | FieldKind::Integer(b) => {
                dom.kind = "number";
                dom.min = attr_number(b.minimum);
                dom.max = attr_number(b.maximum);
                dom.step = Some(if matches!(e.field.kind, FieldKind::Integer(_)) {
                    "1"
                } else {
                    "any"
                });
            }
            FieldKind::Boolean => {
                dom.control = "checkbox";
                dom.kind = "checkbox";
                dom.value = None;
                dom.checked = matches!(e.raw, RawInput::Bool(true));
            }
            FieldKind::Select { options } => {
                dom.control = "select";
                dom.kind = "select";
                dom.value = None;
                select_options(&mut dom, e, options);
            }
            FieldKind::MultiSelect { options, .. } => {
                dom.control = "multi";
                dom.kind = "multiselect";
                dom.value = None;
                dom.option_id_prefix = e.option_id_prefix();
                dom.options = options
                    .iter()
                    .enumerate()
                    .map(|(j, o)| (o.value.as_str(), o.title.as_str(), e.ticked.contains(&j)))
                    .collect();
            }
        }
        dom
    }
}

/// A select's choices: the one shown first as a plain `selected` attribute (after that
/// the `<select>` itself holds what is chosen, and the field's state follows it).
fn select_options<'a>(dom: &mut FieldDom<'a>, e: &'a Entry, options: &'a [EnumOption]) {
    // An optional select can always be cleared; a required one without a default starts
    // on an empty choice so the user must pick deliberately.
    // (Unless "" is itself a choice: then that option stands for it, and the core sends "".)
    let has_empty_choice = options.iter().any(|o| o.value.is_empty());
    dom.placeholder = if has_empty_choice {
        None
    } else if !e.field.required {
        Some(e.messages.t("form.none", &[]))
    } else if e.field.default.is_none() {
        Some(e.messages.t("form.choose", &[]))
    } else {
        None
    };
    let chosen = match &e.raw {
        RawInput::Text(t) => t.as_str(),
        _ => "",
    };
    dom.placeholder_selected = chosen.is_empty();
    dom.options = options
        .iter()
        .map(|o| (o.value.as_str(), o.title.as_str(), o.value == chosen))
        .collect();
}

/// How a field's control behaves: which events change it and how its value is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Control {
    /// An `<input>` holding text (numbers too).
    Text,
    Checkbox,
    Select,
    /// A `<fieldset>` of checkboxes.
    Multi,
}

fn control_of(e: &Entry) -> Control {
    match e.field.kind {
        FieldKind::String { .. } | FieldKind::Number(_) | FieldKind::Integer(_) => Control::Text,
        FieldKind::Boolean => Control::Checkbox,
        FieldKind::Select { .. } => Control::Select,
        FieldKind::MultiSelect { .. } => Control::Multi,
    }
}

/// Whether the event's target input says its text could not be read as its type.
fn bad_input(ev: &leptos::ev::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|el| el.validity().bad_input())
        .unwrap_or(false)
}

/// The field an event of `form` happened on, how its control behaves, and its frame.
fn locate(form: FormState, ev: &leptos::ev::Event) -> Option<(Target, Control, web_sys::Element)> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let target = form.target(&el.id())?;
    let control = target.field.with(control_of)?;
    let frame = el.closest("[part=field]").ok()??;
    Some((target, control, frame))
}

/// `input` on a text control: keep the text and, once a message shows, clear it as soon
/// as the value is fixed (the pattern note follows the text too).
pub fn on_input(form: FormState, ev: &leptos::ev::Event) {
    let Some((Target { field, .. }, Control::Text, frame)) = locate(form, ev) else {
        return;
    };
    let bad = bad_input(ev);
    let text = event_target_value(ev);
    field.update(|e| {
        e.bad_input = bad;
        e.raw = RawInput::Text(text);
    });
    if field.with(|e| e.error.is_some()).unwrap_or(false) {
        field.validate();
    }
    field.show(&frame);
}

/// `change`: a choice or a tick is kept, and every control is checked.
pub fn on_change(form: FormState, ev: &leptos::ev::Event) {
    let Some((Target { field, option }, control, frame)) = locate(form, ev) else {
        return;
    };
    match (control, option) {
        (Control::Text, _) => {}
        (Control::Checkbox, _) => {
            let now = event_target_checked(ev);
            field.update(|e| e.raw = RawInput::Bool(now));
        }
        (Control::Select, _) => {
            let value = event_target_value(ev);
            field.update(|e| e.raw = RawInput::Text(value));
        }
        (Control::Multi, Some(j)) => {
            let now = event_target_checked(ev);
            field.update(|e| tick(e, j, now));
        }
        (Control::Multi, None) => return,
    }
    field.validate();
    // A text control's `change` comes as it loses focus: as `focusout` (see there).
    if control == Control::Text && pressed(ev) {
        return;
    }
    field.show(&frame);
}

/// Whether a pointer is down, so the message of the event's control must wait for the
/// release. A message shown between the press that took the focus and its release moves
/// what is below it: the control being clicked slides from under the pointer and the
/// click is lost (a checkbox stays as it was, Submit does nothing). `put_off` in
/// web/src/glue.js keeps the control; once the press is released and its click is over (a
/// task after the release: the browser dispatches release and click in one), the control
/// gets `focusout` again, and [`on_focusout`] shows the message then. Presses are watched
/// on the window (capture, so a page's handler that stops one does not hide it) from the
/// first form on (`watch_presses`).
fn pressed(ev: &leptos::ev::Event) -> bool {
    ev.target().is_some_and(|control| put_off(&control))
}

/// Ticks (or unticks) box `j` of multi-select `e`, keeping the answer in option order.
fn tick(e: &mut Entry, j: usize, now: bool) {
    if now {
        e.ticked.insert(j);
    } else {
        e.ticked.remove(&j);
    }
    let FieldKind::MultiSelect { options, .. } = &e.field.kind else {
        return;
    };
    let next: Vec<String> = e
        .ticked
        .iter()
        .filter_map(|i| options.get(*i).map(|o| o.value.clone()))
        .collect();
    e.raw = RawInput::List(next);
}

/// Leaving a text control or a select checks it. When a press elsewhere took the focus,
/// the message shows once that press is released: shown between press and release, it
/// would move the control being clicked from under the pointer ([`pressed`]).
pub fn on_focusout(form: FormState, ev: &leptos::ev::Event) {
    let Some((Target { field, .. }, Control::Text | Control::Select, frame)) = locate(form, ev)
    else {
        return;
    };
    field.validate();
    if pressed(ev) {
        return;
    }
    field.show(&frame);
}

/// Disables (or enables) every control of the form element `root`: a multi-select's
/// `<fieldset>` disables its boxes.
pub fn set_disabled(root: &web_sys::Element, disabled: bool) {
    for frame in super::form_state::frames(root) {
        let control = if frame.tag_name() == "FIELDSET" {
            Some(frame)
        } else {
            std::iter::successors(
                frame.first_element_child(),
                web_sys::Element::next_element_sibling,
            )
            .find(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT"))
        };
        if let Some(control) = control {
            let _ = js_sys::Reflect::set(
                &control,
                &wasm_bindgen::JsValue::from_str("disabled"),
                &wasm_bindgen::JsValue::from_bool(disabled),
            );
        }
    }
}
