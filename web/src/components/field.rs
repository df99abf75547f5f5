//! One schema property as one labelled control in one field frame, per the DOM contract:
//! text / email / url / date / datetime-local inputs, number inputs, checkboxes, a `<select>`
//! for single-select enums and a `<fieldset>` of checkboxes for multi-select enums.
//!
//! The frame ([`field_view`]) renders the label with its required mark, the description
//! and the control once, with the ARIA marks the field starts with; what changes later
//! (`aria-invalid`, `aria-describedby`, the message, the pattern note) is written by
//! [`FieldState::show`]. Nothing here is reactive and no control has a listener of its
//! own: the form's handlers ([`on_input`], [`on_change`], [`on_focusout`]) find the field
//! from the event's target, so a form costs the same few listeners at any size.

use super::form_state::{raw_text, Entry, FormState, Target};
use leptos::prelude::*;
use mcp_elicit::schema::{EnumOption, FieldKind, NumberBounds, StringFormat};
use mcp_elicit::validate::RawInput;
use wasm_bindgen::JsCast;

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

/// A number rendered for an HTML attribute (`min`/`max`), without a useless `.0`.
fn attr_number(n: Option<f64>) -> Option<String> {
    n.filter(|v| v.is_finite()).map(|v| v.to_string())
}

/// The `*` after a required field's label; hidden from screen readers, which hear
/// `aria-required` instead.
fn required_mark(required: bool) -> impl IntoView {
    required.then(|| {
        view! { <span class="mce-required" aria-hidden="true">" *"</span> }
    })
}

/// What every control of a field starts with: its ARIA marks and whether it is disabled.
struct Marks {
    id: String,
    name: String,
    required: bool,
    described: Option<String>,
    disabled: bool,
}

impl Marks {
    /// The marks as the attributes of a single control (`<input>` or `<select>`), spread
    /// onto it with `{..}`.
    fn attrs(self) -> impl leptos::attr::Attribute {
        let Marks {
            id,
            name,
            required,
            described,
            disabled,
        } = self;
        view! {
            <{..}
                id=id
                name=name
                required=required
                aria-required=required.then_some("true")
                aria-describedby=described
                disabled=disabled
            />
        }
    }
}

/// The frame's label (a `<legend>` for a multi-select) with the required mark.
fn label(e: &Entry) -> impl IntoView {
    view! {
        <label for=e.id.clone()>{e.field.label.clone()}{required_mark(e.field.required)}</label>
    }
}

fn description(e: &Entry) -> impl IntoView {
    let id = e.desc_id();
    e.field
        .description
        .clone()
        .map(|d| view! { <p class="mce-description" id=id>{d}</p> })
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

/// Renders field `e`'s frame. `disabled`: whether the form starts disabled (later changes
/// are the form's, see `schema_form.rs`).
pub fn field_view(e: &Entry, disabled: bool) -> AnyView {
    // What changes starts as the state says (`Entry::shown`, no message yet).
    let note = e.shown.note.clone();
    let marks = Marks {
        id: e.id.clone(),
        name: e.field.name.clone(),
        required: e.field.required,
        described: e.shown.described.clone(),
        disabled,
    };
    match &e.field.kind {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => {
            let kind = input_type(*format);
            let input = text_input(
                e,
                marks,
                kind,
                min_length.map(|n| n.to_string()),
                max_length.map(|n| n.to_string()),
                None,
            );
            let pattern_id = e.pattern_id();
            let note = note.map(|m| {
                view! { <p class="mce-pattern-note" id=pattern_id data-testid="pattern-note">{m}</p> }
            });
            stacked(e, kind, (input, note))
        }
        FieldKind::Number(b) => stacked(e, "number", number(e, marks, b, "any")),
        FieldKind::Integer(b) => stacked(e, "number", number(e, marks, b, "1")),
        FieldKind::Boolean => view! {
            <div class="mce-field mce-checkbox" part="field" data-kind="checkbox">
                {checkbox(e, marks)}
                {label(e)}
                {description(e)}
            </div>
        }
        .into_any(),
        FieldKind::Select { options } => stacked(e, "select", select(e, marks, options)),
        FieldKind::MultiSelect { options, .. } => multi_select(e, marks, options),
    }
}

/// The frame of a control under its label and description.
fn stacked(e: &Entry, kind: &'static str, control: impl IntoView + 'static) -> AnyView {
    view! {
        <div class="mce-field" part="field" data-kind=kind>
            {label(e)}
            {description(e)}
            {control}
        </div>
    }
    .into_any()
}

fn number(e: &Entry, marks: Marks, b: &NumberBounds, step: &'static str) -> impl IntoView {
    text_input(
        e,
        marks,
        "number",
        None,
        None,
        Some((attr_number(b.minimum), attr_number(b.maximum), step)),
    )
}

/// `<input>` of a text-like type; `number` carries `min`, `max` and `step`.
fn text_input(
    e: &Entry,
    marks: Marks,
    kind: &'static str,
    minlength: Option<String>,
    maxlength: Option<String>,
    number: Option<(Option<String>, Option<String>, &'static str)>,
) -> impl IntoView {
    let (min, max, step) = match number {
        Some((min, max, step)) => (min, max, Some(step)),
        None => (None, None, None),
    };
    let value = Some(raw_text(&e.raw)).filter(|t| !t.is_empty());
    let marks = marks.attrs();
    view! {
        <input
            {..marks}
            type=kind
            minlength=minlength
            maxlength=maxlength
            min=min
            max=max
            step=step
            value=value
        />
    }
}

fn checkbox(e: &Entry, marks: Marks) -> impl IntoView {
    let checked = matches!(e.raw, RawInput::Bool(true));
    let marks = marks.attrs();
    view! { <input {..marks} type="checkbox" checked=checked /> }
}

fn select(e: &Entry, marks: Marks, options: &[EnumOption]) -> impl IntoView {
    let required = marks.required;
    // An optional select can always be cleared; a required one without a default starts
    // on an empty choice so the user must pick deliberately.
    // (Unless "" is itself a choice: then that option stands for it, and the core sends "".)
    let has_empty_choice = options.iter().any(|o| o.value.is_empty());
    let placeholder = if has_empty_choice {
        None
    } else if !required {
        Some("(none)")
    } else if e.field.default.is_none() {
        Some("Choose…")
    } else {
        None
    };
    // The choice shown first, as a plain `selected` attribute: after that the `<select>`
    // itself holds what is chosen, and the field's state follows it.
    let chosen = match &e.raw {
        RawInput::Text(t) => t.clone(),
        _ => String::new(),
    };
    let opts = options
        .iter()
        .map(|o| {
            let selected = o.value == chosen;
            view! {
                <option value=o.value.clone() selected=selected>
                    {o.title.clone()}
                </option>
            }
        })
        .collect_view();
    let marks = marks.attrs();
    view! {
        <select {..marks}>
            {placeholder.map(|p| view! {
                <option value="" selected=chosen.is_empty()>{p}</option>
            })}
            {opts}
        </select>
    }
}

fn multi_select(e: &Entry, marks: Marks, options: &[EnumOption]) -> AnyView {
    // A server may send any number of options, so nothing here costs the whole list per
    // box: a box has no attribute that changes on its own and no listener (the form's
    // handlers serve every box), and the `<fieldset>` disables them all at once.
    // Each box carries the field's ARIA marks too: a screen reader lands on a box, not on
    // the fieldset, and tests find `[name=x][aria-invalid]`.
    let boxes = options
        .iter()
        .enumerate()
        .map(|(j, o)| {
            let box_id = e.option_id(j);
            view! {
                <div class="mce-option">
                    <input
                        type="checkbox"
                        id=box_id.clone()
                        name=marks.name.clone()
                        value=o.value.clone()
                        aria-describedby=marks.described.clone()
                        checked=e.ticked.contains(&j)
                    />
                    <label for=box_id>{o.title.clone()}</label>
                </div>
            }
        })
        .collect_view();
    // A fieldset takes the marks as a group: `data-name`, no `name` or `required`.
    view! {
        <fieldset
            class="mce-field mce-multi"
            part="field"
            data-kind="multiselect"
            id=marks.id
            data-name=marks.name
            aria-required=marks.required.then_some("true")
            aria-describedby=marks.described
            disabled=marks.disabled
        >
            <legend>{e.field.label.clone()}{required_mark(marks.required)}</legend>
            {description(e)}
            {boxes}
        </fieldset>
    }
    .into_any()
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
    field.show(&frame);
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

/// Leaving a text control or a select checks it.
pub fn on_focusout(form: FormState, ev: &leptos::ev::Event) {
    let Some((Target { field, .. }, Control::Text | Control::Select, frame)) = locate(form, ev)
    else {
        return;
    };
    field.validate();
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
