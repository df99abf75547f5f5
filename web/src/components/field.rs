//! One schema property as one labelled control, per the DOM contract:
//! text / email / url / date / datetime-local inputs, number inputs, checkboxes, a `<select>`
//! for single-select enums and a `<fieldset>` of checkboxes for multi-select enums.

use super::form_state::FieldState;
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

fn raw_text(raw: &RawInput) -> String {
    match raw {
        RawInput::Text(t) => t.clone(),
        RawInput::LocalDateTime { text, .. } => text.clone(),
        RawInput::Bool(_) | RawInput::List(_) => String::new(),
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
        <div class="mce-field" data-kind=kind>
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
        </div>
    }
    .into_any()
}

fn checkbox(state: FieldState, disabled: Signal<bool>) -> AnyView {
    let s_change = state.clone();
    let s_desc = state.clone();
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    view! {
        <div class="mce-field mce-checkbox" data-kind="checkbox">
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
    let opts = options
        .into_iter()
        .map(|o| {
            let value = o.value.clone();
            view! {
                <option
                    value=o.value
                    prop:selected=move || matches!(&raw.get(), RawInput::Text(t) if *t == value)
                >
                    {o.title}
                </option>
            }
        })
        .collect_view();
    view! {
        <div class="mce-field" data-kind="select">
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
                    <option value="" prop:selected=move || matches!(&raw.get(), RawInput::Text(t) if t.is_empty())>{p}</option>
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
    let raw = state.raw;
    let error = state.error;
    let required = state.field.required;
    let all_values: Vec<String> = options.iter().map(|o| o.value.clone()).collect();
    let boxes = options
        .into_iter()
        .enumerate()
        .map(|(j, o)| {
            let box_id = state.option_id(j);
            let value = o.value.clone();
            let value_checked = o.value.clone();
            let all = all_values.clone();
            let s = state.clone();
            let s_desc = state.clone();
            // Each box carries the field's invalid mark and messages too: a screen reader
            // lands on a box, not on the fieldset, and tests find `[name=x][aria-invalid]`.
            view! {
                <div class="mce-option">
                    <input
                        type="checkbox"
                        id=box_id.clone()
                        name=state.field.name.clone()
                        value=o.value.clone()
                        aria-invalid=move || error.get().map(|_| "true")
                        aria-describedby=move || s_desc.described_by()
                        prop:checked=move || matches!(&raw.get(), RawInput::List(l) if l.contains(&value_checked))
                        prop:disabled=move || disabled.get()
                        on:change=move |ev| {
                            let checked = event_target_checked(&ev);
                            let current = match s.raw.get_untracked() {
                                RawInput::List(l) => l,
                                _ => Vec::new(),
                            };
                            // Keep the schema's option order, whatever order boxes are ticked in.
                            let next: Vec<String> = all
                                .iter()
                                .filter(|v| if **v == value { checked } else { current.contains(v) })
                                .cloned()
                                .collect();
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
            data-kind="multiselect"
            id=state.id.clone()
            data-name=state.field.name.clone()
            aria-required=required.then_some("true")
            aria-invalid=move || error.get().map(|_| "true")
            aria-describedby=move || s_desc.described_by()
        >
            <legend>{state.field.label.clone()}{required_mark(required)}</legend>
            {description(&state)}
            {boxes}
            {error_message(&state)}
        </fieldset>
    }
    .into_any()
}
