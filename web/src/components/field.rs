//! One schema property as one labelled control, per the DOM contract:
//! text / email / url / date / datetime-local inputs, number inputs, checkboxes, a `<select>`
//! for single-select enums and a `<fieldset>` of checkboxes for multi-select enums.

use super::form_state::{raw_text, FieldState};
use leptos::prelude::*;
use mcp_elicit::schema::{EnumOption, FieldKind, NumberBounds, StringFormat};
use mcp_elicit::validate::RawInput;
use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;
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

fn description(state: &FieldState) -> impl IntoView {
    let id = state.desc_id();
    state
        .field
        .description
        .clone()
        .map(|d| view! { <p class="mce-description" id=id>{d}</p> })
}

fn error_message(state: &FieldState) -> impl IntoView {
    let id = state.err_id();
    let error = state.error;
    move || {
        error
            .get()
            .map(|m| view! { <p class="mce-error" id=id.clone()>{m}</p> })
    }
}

/// Whether the event's target input says its text could not be read as its type.
fn bad_input(ev: &leptos::ev::Event) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|el| el.validity().bad_input())
        .unwrap_or(false)
}

/// Renders one field. `disabled` greys every control out while an answer is being sent.
pub fn field_view(state: FieldState, disabled: Signal<bool>) -> AnyView {
    match state.field.kind.clone() {
        FieldKind::String {
            format,
            min_length,
            max_length,
            ..
        } => text_like(
            state,
            disabled,
            input_type(format),
            min_length.map(|n| n.to_string()),
            max_length.map(|n| n.to_string()),
            None,
        ),
        FieldKind::Number(b) => number(state, disabled, b, "any"),
        FieldKind::Integer(b) => number(state, disabled, b, "1"),
        FieldKind::Boolean => checkbox(state, disabled),
        FieldKind::Select { options } => select(state, disabled, options),
        FieldKind::MultiSelect { options, .. } => multi_select(state, disabled, options),
    }
}

fn number(
    state: FieldState,
    disabled: Signal<bool>,
    b: NumberBounds,
    step: &'static str,
) -> AnyView {
    text_like(
        state,
        disabled,
        "number",
        None,
        None,
        Some((attr_number(b.minimum), attr_number(b.maximum), step)),
    )
}

/// `<input>` of a text-like type; `number` carries `min`, `max` and `step`.
fn text_like(
    state: FieldState,
    disabled: Signal<bool>,
    kind: &'static str,
    minlength: Option<String>,
    maxlength: Option<String>,
    number: Option<(Option<String>, Option<String>, &'static str)>,
) -> AnyView {
    let (min, max, step) = match number {
        Some((min, max, step)) => (min, max, Some(step)),
        None => (None, None, None),
    };
    let s_input = state.clone();
    let s_change = state.clone();
    let s_blur = state.clone();
    let s_desc = state.clone();
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    view! {
        <div class="mce-field" part="field" data-kind=kind>
            <label for=state.id.clone()>{state.field.label.clone()}{required_mark(required)}</label>
            {description(&state)}
            <input
                type=kind
                id=state.id.clone()
                name=state.field.name.clone()
                required=required
                aria-required=required.then_some("true")
                aria-invalid=move || error.get().map(|_| "true")
                aria-describedby=move || s_desc.described_by()
                minlength=minlength
                maxlength=maxlength
                min=min
                max=max
                step=step
                prop:value=move || raw_text(&raw.get())
                prop:disabled=move || disabled.get()
                on:input=move |ev| {
                    s_input.bad_input.set(bad_input(&ev));
                    s_input.raw.set(RawInput::Text(event_target_value(&ev)));
                    // Once a message shows, clear it as soon as the value is fixed.
                    if s_input.error.get_untracked().is_some() {
                        let _ = s_input.validate();
                    }
                }
                on:change=move |_| {
                    let _ = s_change.validate();
                }
                on:blur=move |_| {
                    let _ = s_blur.validate();
                }
            />
            {error_message(&state)}
            {pattern_note(&state)}
        </div>
    }
    .into_any()
}

/// Beside a text field whose `pattern` this client does not check (another dialect, over a
/// limit) or cannot check for the text typed (over the step budget): a sentence saying that
/// the server decides, so an answer is never held back by a rule the form cannot read.
fn pattern_note(state: &FieldState) -> impl IntoView {
    let FieldKind::String {
        pattern: Some(_), ..
    } = &state.field.kind
    else {
        return None;
    };
    let state = state.clone();
    let id = state.pattern_id();
    Some(move || {
        state.pattern_note().map(|m| {
            view! { <p class="mce-pattern-note" id=id.clone() data-testid="pattern-note">{m}</p> }
        })
    })
}

fn checkbox(state: FieldState, disabled: Signal<bool>) -> AnyView {
    let s_change = state.clone();
    let s_desc = state.clone();
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    view! {
        <div class="mce-field mce-checkbox" part="field" data-kind="checkbox">
            <input
                type="checkbox"
                id=state.id.clone()
                name=state.field.name.clone()
                required=required
                aria-required=required.then_some("true")
                aria-invalid=move || error.get().map(|_| "true")
                aria-describedby=move || s_desc.described_by()
                prop:checked=move || matches!(raw.get(), RawInput::Bool(true))
                prop:disabled=move || disabled.get()
                on:change=move |ev| {
                    s_change.raw.set(RawInput::Bool(event_target_checked(&ev)));
                    let _ = s_change.validate();
                }
            />
            <label for=state.id.clone()>{state.field.label.clone()}{required_mark(required)}</label>
            {description(&state)}
            {error_message(&state)}
        </div>
    }
    .into_any()
}

fn select(state: FieldState, disabled: Signal<bool>, options: Vec<EnumOption>) -> AnyView {
    let s_change = state.clone();
    let s_blur = state.clone();
    let s_desc = state.clone();
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    // An optional select can always be cleared; a required one without a default starts
    // on an empty choice so the user must pick deliberately.
    // (Unless "" is itself a choice: then that option stands for it, and the core sends "".)
    let has_empty_choice = options.iter().any(|o| o.value.is_empty());
    let placeholder = if has_empty_choice {
        None
    } else if !required {
        Some("(none)")
    } else if state.field.default.is_none() {
        Some("Choose…")
    } else {
        None
    };
    // The choice shown first, as a plain `selected` attribute: after that the `<select>`
    // itself holds what is chosen, and `raw` follows it. (A reactive `selected` on every
    // option would subscribe each of a server-sized list to one signal, and every change
    // would re-run them all.)
    let chosen = match raw.get_untracked() {
        RawInput::Text(t) => t,
        _ => String::new(),
    };
    let opts = options
        .into_iter()
        .map(|o| {
            let selected = o.value == chosen;
            view! {
                <option value=o.value selected=selected>
                    {o.title}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="mce-field" part="field" data-kind="select">
            <label for=state.id.clone()>{state.field.label.clone()}{required_mark(required)}</label>
            {description(&state)}
            <select
                id=state.id.clone()
                name=state.field.name.clone()
                required=required
                aria-required=required.then_some("true")
                aria-invalid=move || error.get().map(|_| "true")
                aria-describedby=move || s_desc.described_by()
                prop:disabled=move || disabled.get()
                on:change=move |ev| {
                    s_change.raw.set(RawInput::Text(event_target_value(&ev)));
                    let _ = s_change.validate();
                }
                on:blur=move |_| {
                    let _ = s_blur.validate();
                }
            >
                {placeholder.map(|p| view! {
                    <option value="" selected=chosen.is_empty()>{p}</option>
                })}
                {opts}
            </select>
            {error_message(&state)}
        </div>
    }
    .into_any()
}

fn multi_select(state: FieldState, disabled: Signal<bool>, options: Vec<EnumOption>) -> AnyView {
    let s_desc = state.clone();
    let s_marks = state.clone();
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    // A server may send any number of options, so nothing here costs the whole list per box:
    // - the values are shared by every box, and the ticked boxes are a set of option
    //   indexes, so a tick costs O(log n) plus the answer's own length; the set is ordered,
    //   so the answer keeps the schema's option order whatever order boxes are ticked in;
    // - a box has no reactive attribute of its own: one subscription per box to the same
    //   signal makes every change re-run them all. The `<fieldset>` disables them all at
    //   once, the box holds its own ticked state, and one effect below copies the field's
    //   invalid mark and messages onto every box.
    let values: Arc<[String]> = options.iter().map(|o| o.value.clone()).collect();
    let start: HashSet<String> = match raw.get_untracked() {
        RawInput::List(l) => l.into_iter().collect(),
        _ => HashSet::new(),
    };
    let ticked: BTreeSet<usize> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| start.contains(v.as_str()))
        .map(|(j, _)| j)
        .collect();
    let initially: Vec<bool> = (0..values.len()).map(|j| ticked.contains(&j)).collect();
    let ticked = StoredValue::new(ticked);
    let first_described = state.field.description.is_some().then(|| state.desc_id());
    let fieldset = NodeRef::<leptos::html::Fieldset>::new();
    // Each box carries the field's invalid mark and messages too: a screen reader lands on
    // a box, not on the fieldset, and tests find `[name=x][aria-invalid]`.
    Effect::new(move |_| {
        let invalid = error.with(Option::is_some);
        let described = s_marks.described_by();
        let Some(fieldset) = fieldset.get() else {
            return;
        };
        let mut option = fieldset.first_element_child();
        while let Some(el) = option {
            if el.class_name() == "mce-option" {
                if let Some(input) = el.first_element_child() {
                    mark(&input, "aria-invalid", invalid.then_some("true"));
                    mark(&input, "aria-describedby", described.as_deref());
                }
            }
            option = el.next_element_sibling();
        }
    });
    let boxes = options
        .into_iter()
        .zip(initially)
        .enumerate()
        .map(|(j, (o, checked))| {
            let box_id = state.option_id(j);
            let values = values.clone();
            let s = state.clone();
            view! {
                <div class="mce-option">
                    <input
                        type="checkbox"
                        id=box_id.clone()
                        name=state.field.name.clone()
                        value=o.value
                        aria-describedby=first_described.clone()
                        checked=checked
                        on:change=move |ev| {
                            let now = event_target_checked(&ev);
                            ticked.update_value(|t| {
                                if now {
                                    t.insert(j);
                                } else {
                                    t.remove(&j);
                                }
                            });
                            let next: Vec<String> = ticked.with_value(|t| {
                                t.iter().filter_map(|i| values.get(*i).cloned()).collect()
                            });
                            s.raw.set(RawInput::List(next));
                            let _ = s.validate();
                        }
                    />
                    <label for=box_id>{o.title}</label>
                </div>
            }
        })
        .collect_view();
    view! {
        <fieldset
            class="mce-field mce-multi"
            part="field"
            data-kind="multiselect"
            id=state.id.clone()
            data-name=state.field.name.clone()
            node_ref=fieldset
            aria-required=required.then_some("true")
            aria-invalid=move || error.get().map(|_| "true")
            aria-describedby=move || s_desc.described_by()
            prop:disabled=move || disabled.get()
        >
            <legend>{state.field.label.clone()}{required_mark(required)}</legend>
            {description(&state)}
            {boxes}
            {error_message(&state)}
        </fieldset>
    }
    .into_any()
}

/// Sets attribute `name` of `el` to `value`, or removes it when `None`.
fn mark(el: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}
