//! Form mode in a real browser: every field kind and enum shape renders as the DOM contract
//! says, defaults are pre-filled, invalid answers are blocked with their message, and each
//! way of answering yields the right, correctly typed `ElicitResult`.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use leptos::prelude::*;
use mcp_elicit::wire::ElicitAction;
use mcp_elicit_web::components::{ElicitationView, SendStatus};
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn every_kind() -> serde_json::Value {
    json!({
        "message": "Tell us about you",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Your name", "description": "As on your card", "minLength": 2},
                "email": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "day": {"type": "string", "format": "date"},
                "when": {"type": "string", "format": "date-time"},
                "ratio": {"type": "number", "minimum": 0, "maximum": 1},
                "guests": {"type": "integer", "minimum": 1, "maximum": 12},
                "agree": {"type": "boolean", "title": "I agree"},
                "color": {"type": "string", "enum": ["red", "green"]},
                "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
                "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Option A", "Option B"]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y", "z"]}},
                "langs": {"type": "array", "title": "Languages", "items": {"anyOf": [{"const": "en", "title": "English"}, {"const": "fr", "title": "French"}]}}
            },
            "required": ["name", "guests", "size"]
        }
    })
}

#[wasm_bindgen_test]
async fn every_field_kind_renders_per_contract() {
    let answers = Answers::default();
    let (root, _h) = mount_form(every_kind(), &answers);
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-elicitation").as_deref(), Some("q1"));
    assert_eq!(c.get_attribute("data-mode").as_deref(), Some("form"));
    assert!(c
        .text_content()
        .unwrap_or_default()
        .contains("Tell us about you"));
    // The message names the region.
    let lab = c.get_attribute("aria-labelledby").expect("aria-labelledby");
    assert_eq!(
        doc()
            .get_element_by_id(&lab)
            .and_then(|e| e.text_content())
            .as_deref(),
        Some("Tell us about you")
    );

    for (name, ty) in [
        ("name", "text"),
        ("email", "email"),
        ("site", "url"),
        ("day", "date"),
        ("when", "datetime-local"),
        ("ratio", "number"),
        ("guests", "number"),
        ("agree", "checkbox"),
    ] {
        let el = control(&root, name);
        assert_eq!(el.tag_name(), "INPUT", "{name}");
        assert_eq!(el.get_attribute("type").as_deref(), Some(ty), "{name}");
    }
    // Label: the title, else the property name.
    let name = control(&root, "name");
    assert_eq!(label_of(&root, &name.id()), "Your name");
    assert_eq!(label_of(&root, &control(&root, "email").id()), "email");
    assert_eq!(label_of(&root, &control(&root, "agree").id()), "I agree");
    // Description through aria-describedby.
    assert_eq!(described_by(&name), vec!["As on your card".to_owned()]);
    // Required marks.
    for req in ["name", "guests", "size"] {
        let el = control(&root, req);
        assert!(el.has_attribute("required"), "{req} required");
        assert_eq!(
            el.get_attribute("aria-required").as_deref(),
            Some("true"),
            "{req}"
        );
    }
    assert!(!control(&root, "email").has_attribute("required"));
    assert!(control(&root, "email")
        .get_attribute("aria-required")
        .is_none());

    // Single-select enums, all three wire shapes: titles shown, values carried.
    for (name, pairs) in [
        ("color", vec![("red", "red"), ("green", "green")]),
        ("size", vec![("s", "Small"), ("l", "Large")]),
        ("legacy", vec![("a", "Option A"), ("b", "Option B")]),
    ] {
        let sel = control(&root, name);
        assert_eq!(sel.tag_name(), "SELECT", "{name}");
        let opts: Vec<(String, String)> = q_all(&sel, "option")
            .into_iter()
            .filter(|o| o.get_attribute("value").as_deref() != Some(""))
            .map(|o| {
                (
                    o.get_attribute("value").unwrap_or_default(),
                    o.text_content().unwrap_or_default(),
                )
            })
            .collect();
        let want: Vec<(String, String)> = pairs
            .iter()
            .map(|(v, t)| (v.to_string(), t.to_string()))
            .collect();
        assert_eq!(opts, want, "{name}");
    }

    // Multi-select enums: a fieldset whose legend is the label, checkboxes labelled by title.
    for (name, legend, titles) in [
        ("tags", "tags", vec!["x", "y", "z"]),
        ("langs", "Languages", vec!["English", "French"]),
    ] {
        let boxes = q_all(&root, &format!("input[type=checkbox][name=\"{name}\"]"));
        assert_eq!(boxes.len(), titles.len(), "{name}");
        let fs = boxes[0]
            .closest("fieldset")
            .expect("closest")
            .expect("in a fieldset");
        let leg = q(&fs, "legend").text_content().unwrap_or_default();
        assert_eq!(leg.trim().trim_end_matches('*').trim(), legend);
        let labels: Vec<String> = boxes.iter().map(|b| label_of(&root, &b.id())).collect();
        assert_eq!(labels, titles);
    }
    assert_eq!(button_names(&root), vec!["Submit", "Decline", "Cancel"]);
    assert!(answers.all().is_empty());
}

#[wasm_bindgen_test]
async fn defaults_are_prefilled_and_first_field_focused() {
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({
            "message": "Book",
            "requestedSchema": {"type": "object", "properties": {
                "party": {"type": "string", "default": "Ada"},
                "guests": {"type": "integer", "default": 2},
                "outdoor": {"type": "boolean", "default": true},
                "size": {"type": "string", "enum": ["s", "m", "l"], "default": "m"},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "default": ["y"]},
                "day": {"type": "string", "format": "date", "default": "2025-12-27"}
            }}
        }),
        &answers,
    );
    tick().await;
    assert_eq!(input(&root, "party").value(), "Ada");
    assert_eq!(input(&root, "guests").value(), "2");
    assert!(input(&root, "outdoor").checked());
    let size = control(&root, "size")
        .dyn_into::<web_sys::HtmlSelectElement>()
        .expect("select");
    assert_eq!(size.value(), "m");
    let tags = q_all(&root, "input[name=tags]");
    let checked: Vec<bool> = tags
        .iter()
        .map(|t| {
            t.clone()
                .dyn_into::<web_sys::HtmlInputElement>()
                .expect("input")
                .checked()
        })
        .collect();
    assert_eq!(checked, vec![false, true]);
    assert_eq!(input(&root, "day").value(), "2025-12-27");

    let active = doc().active_element().expect("something focused");
    assert_eq!(active.get_attribute("name").as_deref(), Some("party"));

    // Submitting untouched defaults sends them, typed.
    button(&root, "Submit").click();
    assert_eq!(
        wire(&answers.only()),
        json!({"action": "accept", "content": {
            "party": "Ada", "guests": 2, "outdoor": true, "size": "m", "tags": ["y"], "day": "2025-12-27"
        }})
    );
}

#[wasm_bindgen_test]
async fn invalid_answer_is_blocked_with_its_message() {
    let answers = Answers::default();
    let (root, _h) = mount_form(every_kind(), &answers);
    // Required name missing, guests out of range, bad email.
    type_into(&input(&root, "guests"), "40");
    type_into(&input(&root, "email"), "not-an-email");
    button(&root, "Submit").click();
    tick().await;
    assert!(answers.all().is_empty(), "nothing is sent while invalid");
    for name in ["name", "guests", "email", "size"] {
        let el = control(&root, name);
        assert_eq!(
            el.get_attribute("aria-invalid").as_deref(),
            Some("true"),
            "{name}"
        );
        let texts = described_by(&el);
        assert!(
            texts.iter().any(|t| !t.trim().is_empty()),
            "{name} has a message linked by aria-describedby: {texts:?}"
        );
    }
    // The description stays linked alongside the message.
    assert!(described_by(&control(&root, "name")).contains(&"As on your card".to_owned()));
    // Focus moved to the first invalid field.
    let active = doc().active_element().expect("focused");
    assert_eq!(active.get_attribute("name").as_deref(), Some("name"));

    // Enter also refuses to send while invalid.
    key(&input(&root, "guests"), "Enter");
    assert!(answers.all().is_empty());

    // Fix everything: messages go, the answer is sent.
    type_into(&input(&root, "name"), "Ada");
    type_into(&input(&root, "guests"), "4");
    type_into(&input(&root, "email"), "ada@example.com");
    choose(&root, "size", "l");
    tick().await;
    for name in ["name", "guests", "email", "size"] {
        assert!(
            control(&root, name).get_attribute("aria-invalid").is_none(),
            "{name} valid now"
        );
    }
    button(&root, "Submit").click();
    let r = answers.only();
    assert_eq!(r.action, ElicitAction::Accept);
}

#[wasm_bindgen_test]
async fn a_field_is_checked_on_change() {
    let answers = Answers::default();
    let (root, _h) = mount_form(every_kind(), &answers);
    let name = input(&root, "name");
    type_into(&name, "A");
    tick().await;
    assert_eq!(
        name.get_attribute("aria-invalid").as_deref(),
        Some("true"),
        "minLength 2"
    );
    type_into(&name, "Ab");
    tick().await;
    assert!(name.get_attribute("aria-invalid").is_none());
}

#[wasm_bindgen_test]
async fn submit_sends_exactly_the_typed_content() {
    let answers = Answers::default();
    let (root, _h) = mount_form(every_kind(), &answers);
    type_into(&input(&root, "name"), "Ada");
    type_into(&input(&root, "ratio"), "0.5");
    type_into(&input(&root, "guests"), "3");
    click(&input(&root, "agree"));
    choose(&root, "size", "s");
    choose(&root, "legacy", "b");
    // Tick z then x: the answer keeps the schema's order.
    let tags = q_all(&root, "input[name=tags]");
    click(&tags[2]);
    click(&tags[0]);
    button(&root, "Submit").click();
    // The whole answer, compared as one value: optional fields left empty (email, site,
    // day, when, color) are left out, an untouched optional multi-select (langs) answers an
    // empty list (see the core's rules), and nothing else is added.
    let got = wire(&answers.only());
    assert_eq!(
        got,
        json!({
            "action": "accept",
            "content": {
                "name": "Ada",
                "ratio": 0.5,
                "guests": 3,
                "agree": true,
                "size": "s",
                "legacy": "b",
                "tags": ["x", "z"],
                "langs": []
            }
        })
    );
    // `json!` equality tells 3 from 3.0; say it in words too.
    assert!(
        got["content"]["guests"].is_i64(),
        "integer as a JSON integer"
    );
}

#[wasm_bindgen_test]
async fn decline_and_cancel_buttons() {
    for (name, action) in [("Decline", "decline"), ("Cancel", "cancel")] {
        let answers = Answers::default();
        let (root, _h) = mount_form(every_kind(), &answers);
        button(&root, name).click();
        assert_eq!(wire(&answers.only()), json!({"action": action}));
    }
}

#[wasm_bindgen_test]
async fn enter_submits_and_escape_cancels() {
    let schema = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
        "n": {"type": "integer"}, "ok": {"type": "boolean"}}, "required": ["n"]}});

    let answers = Answers::default();
    let (root, _h) = mount_form(schema.clone(), &answers);
    type_into(&input(&root, "n"), "7");
    // Enter from a checkbox submits too (browsers would not on their own).
    key(&input(&root, "ok"), "Enter");
    assert_eq!(
        wire(&answers.only()),
        json!({"action": "accept", "content": {"n": 7, "ok": false}})
    );

    let answers = Answers::default();
    let (root, _h2) = mount_form(schema, &answers);
    key(&input(&root, "n"), "Escape");
    assert_eq!(wire(&answers.only()), json!({"action": "cancel"}));
}

#[wasm_bindgen_test]
async fn server_text_is_text_never_html() {
    let answers = Answers::default();
    let evil = "<img src=x onerror=\"window.__pwned=1\"><b>bold</b>";
    let (root, _h) = mount_form(
        json!({"message": evil, "requestedSchema": {"type": "object", "properties": {
            "a": {"type": "string", "title": evil, "description": evil},
            "b": {"type": "string", "enum": ["<img src=x>"]}
        }}}),
        &answers,
    );
    tick().await;
    assert!(q_opt(&root, "img").is_none(), "no img element");
    assert!(q_opt(&root, "b").is_none(), "no b element");
    let text = q(&root, ".mce-message").text_content().unwrap_or_default();
    assert_eq!(text, evil);
    assert_eq!(label_of(&root, &control(&root, "a").id()), evil);
    let flag =
        js_sys::Reflect::get(&web_sys::window().expect("window"), &"__pwned".into()).expect("get");
    assert!(flag.is_undefined());
}

#[wasm_bindgen_test]
async fn refused_schema_offers_only_decline_and_cancel() {
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "address": {"type": "object", "properties": {"street": {"type": "string"}}}
        }}}),
        &answers,
    );
    let alert = q(&root, "[role=alert]");
    let text = alert.text_content().unwrap_or_default();
    assert!(
        text.contains("/properties/address"),
        "the error names the part: {text}"
    );
    assert!(text.len() > 40, "the error says what is wrong: {text}");
    assert_eq!(button_names(&root), vec!["Decline", "Cancel"]);
    assert!(q_opt(&root, "input").is_none());
    button(&root, "Decline").click();
    assert_eq!(wire(&answers.only()), json!({"action": "decline"}));
}

#[wasm_bindgen_test]
async fn failed_send_keeps_the_answer_and_allows_resend() {
    let answers = Answers::default();
    let status = RwSignal::new(SendStatus::Idle);
    let cb = answers.callback();
    let (root, _h) = mount(move || {
        view! {
            <ElicitationView
                key="7"
                params=params(json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
                    "who": {"type": "string"}}, "required": ["who"]}}))
                on_answer=cb
                status=status
            />
        }
        .into_any()
    });
    type_into(&input(&root, "who"), "Grace");
    button(&root, "Submit").click();
    assert_eq!(answers.all().len(), 1);
    status.set(SendStatus::Sending);
    tick().await;
    let c = q(&root, "[data-elicitation]");
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("sending"));
    assert!(input(&root, "who").disabled());
    status.set(SendStatus::Failed("the server did not answer".into()));
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("failed"));
    let alert = q(&root, "[role=alert]").text_content().unwrap_or_default();
    assert!(alert.contains("the server did not answer"), "{alert}");
    assert_eq!(input(&root, "who").value(), "Grace", "typed value kept");
    assert!(!input(&root, "who").disabled());
    button(&root, "Submit").click();
    let all = answers.all();
    assert_eq!(all.len(), 2, "resent");
    assert_eq!(
        wire(&all[1]),
        json!({"action": "accept", "content": {"who": "Grace"}})
    );
    status.set(SendStatus::Sent);
    tick().await;
    assert_eq!(c.get_attribute("data-state").as_deref(), Some("answered"));
    assert!(q_opt(&root, "[role=alert]").is_none());
}

#[wasm_bindgen_test]
async fn a_new_request_does_not_steal_focus_from_one_being_filled_in() {
    let schema = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
        "a": {"type": "string"}}}});
    let answers = Answers::default();
    let (first, _h1) = mount_form(schema.clone(), &answers);
    tick().await;
    let a = input(&first, "a");
    assert_eq!(
        doc().active_element().as_ref(),
        Some(a.as_ref()),
        "first form focused"
    );
    let (_second, _h2) = mount_form(schema, &answers);
    tick().await;
    assert_eq!(
        doc().active_element().as_ref(),
        Some(a.as_ref()),
        "focus stays where the user is"
    );
}

#[wasm_bindgen_test]
async fn an_empty_string_choice_is_its_own_option() {
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "suffix": {"type": "string", "oneOf": [{"const": "", "title": "No suffix"}, {"const": "Jr", "title": "Junior"}]}
        }}}),
        &answers,
    );
    let sel = control(&root, "suffix");
    let titles: Vec<String> = q_all(&sel, "option")
        .iter()
        .map(|o| o.text_content().unwrap_or_default())
        .collect();
    assert_eq!(
        titles,
        vec!["No suffix", "Junior"],
        "no placeholder that would collide with \"\""
    );
    button(&root, "Submit").click();
    assert_eq!(
        wire(&answers.only()),
        json!({"action": "accept", "content": {"suffix": ""}})
    );
}

/// The element that has focus now.
fn focused() -> web_sys::Element {
    doc().active_element().expect("something focused")
}

/// Blurs whatever has focus when dropped (even when the test fails), so a later test's
/// autofocus does not see a control focused "elsewhere" and hold back.
struct BlurOnDrop;

impl Drop for BlurOnDrop {
    fn drop(&mut self) {
        if let Some(el) = doc()
            .active_element()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.blur();
        }
    }
}

#[wasm_bindgen_test]
async fn submit_focuses_the_first_invalid_field_even_from_the_submit_button() {
    // The first field is valid, so autofocus does not sit on the invalid one; nothing was
    // invalid before Submit, so no `aria-invalid` is in the DOM yet when Submit runs.
    let _blur = BlurOnDrop;
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "Focus", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string"},
            "guests": {"type": "integer", "minimum": 1},
            "email": {"type": "string", "format": "email"}
        }, "required": ["name", "guests", "email"]}}),
        &answers,
    );
    tick().await;
    type_into(&input(&root, "name"), "Ada");
    tick().await;
    let submit = button(&root, "Submit");
    submit.focus().expect("focus Submit");
    assert_eq!(focused().tag_name().to_ascii_lowercase(), "button");
    submit.click();
    tick().await;
    assert!(answers.all().is_empty());
    assert_eq!(
        focused().get_attribute("name").as_deref(),
        Some("guests"),
        "focus is on the first invalid field, not the first field nor the button"
    );
}

#[wasm_bindgen_test]
async fn an_invalid_multi_select_marks_every_box_and_takes_focus_on_its_first() {
    let _blur = BlurOnDrop;
    let answers = Answers::default();
    let (root, _h) = mount_form(
        json!({"message": "Tags", "requestedSchema": {"type": "object", "properties": {
            "note": {"type": "string"},
            "tags": {"type": "array", "title": "Tags", "description": "Pick one or more",
                     "minItems": 1, "items": {"type": "string", "enum": ["x", "y", "z"]}},
            "later": {"type": "string"}
        }, "required": ["tags", "later"]}}),
        &answers,
    );
    tick().await;
    let submit = button(&root, "Submit");
    submit.focus().expect("focus Submit");
    submit.click();
    tick().await;
    assert!(answers.all().is_empty());
    let boxes = q_all(&root, "[name=tags][aria-invalid=true]");
    assert_eq!(boxes.len(), 3, "every box is marked invalid");
    for b in &boxes {
        let texts = described_by(b);
        assert!(
            texts.contains(&"Pick one or more".to_owned()),
            "the description is linked from each box: {texts:?}"
        );
        assert!(
            texts.len() == 2 && !texts[1].trim().is_empty(),
            "the error message is linked from each box: {texts:?}"
        );
    }
    let fieldset = q(&root, "fieldset[data-name=tags]");
    assert_eq!(
        fieldset.get_attribute("aria-invalid").as_deref(),
        Some("true"),
        "the fieldset keeps its own mark"
    );
    assert_eq!(
        focused().get_attribute("id"),
        boxes[0].get_attribute("id"),
        "focus is on the first box of the first invalid field"
    );

    // Fixing it clears the boxes' marks too.
    click(&boxes[1]);
    tick().await;
    assert!(q_all(&root, "[name=tags][aria-invalid=true]").is_empty());
    for b in q_all(&root, "[name=tags]") {
        assert_eq!(described_by(&b), vec!["Pick one or more".to_owned()]);
    }
}

/// A form of `n` fields cycling through every kind of control, each with a description
/// (a described multi-select once marked every box after mount, per field).
fn wide_form(n: usize) -> serde_json::Value {
    let mut properties = serde_json::Map::new();
    for i in 0..n {
        let about = format!("About field {i}");
        let schema = match i % 6 {
            0 => json!({"type": "string", "minLength": 1, "description": about, "pattern": "^a+$"}),
            1 => json!({"type": "string", "format": "email", "description": about}),
            2 => json!({"type": "integer", "minimum": 0, "description": about}),
            3 => json!({"type": "boolean", "description": about}),
            4 => json!({"type": "string", "enum": ["a", "b"], "description": about}),
            _ => {
                json!({"type": "array", "items": {"type": "string", "enum": ["x", "y", "z"]}, "description": about})
            }
        };
        properties.insert(format!("f{i}"), schema);
    }
    json!({"message": "Wide", "requestedSchema": {"type": "object", "properties": properties}})
}

/// The work a form of `n` fields costs beyond its DOM: the event listeners added while it
/// is built, and the DOM changes made after it is in the page (effects that reach every
/// field) until it settles. Counted by wrapping `addEventListener` and by a
/// `MutationObserver`, both restored / disconnected afterwards.
async fn work_of(n: usize) -> (u32, u32) {
    let install = js_sys::Function::new_no_args(
        "const c = { listeners: 0, mutations: 0, orig: EventTarget.prototype.addEventListener };
         EventTarget.prototype.addEventListener = function (...a) { c.listeners++; return c.orig.apply(this, a); };
         window.__mceWork = c;",
    );
    let observe = js_sys::Function::new_with_args(
        "el",
        "const c = window.__mceWork;
         EventTarget.prototype.addEventListener = c.orig;
         c.observer = new MutationObserver((rs) => { c.mutations += rs.length; });
         c.observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });",
    );
    let read = js_sys::Function::new_no_args(
        "const c = window.__mceWork; c.observer.takeRecords().forEach(() => c.mutations++);
         c.observer.disconnect(); delete window.__mceWork; return [c.listeners, c.mutations];",
    );
    let answers = Answers::default();
    install.call0(&JsValue::NULL).expect("install the counter");
    let (root, _h) = mount_form(wide_form(n), &answers);
    observe
        .call1(&JsValue::NULL, &root)
        .expect("observe the form");
    tick().await;
    tick().await;
    let counts: js_sys::Array = read
        .call0(&JsValue::NULL)
        .expect("read the counts")
        .dyn_into()
        .expect("an array");
    let get = |i: u32| counts.get(i).as_f64().expect("a count") as u32;
    assert_eq!(
        q_all(&root, "[part=field]").len(),
        n,
        "every field is rendered"
    );
    (get(0), get(1))
}

#[wasm_bindgen_test]
async fn a_forms_listeners_and_effects_do_not_grow_with_its_fields() {
    let (listeners_12, changes_12) = work_of(12).await;
    let (listeners_120, changes_120) = work_of(120).await;
    assert_eq!(
        listeners_120, listeners_12,
        "listeners are the form's, not one set per control"
    );
    assert_eq!(
        (changes_12, changes_120),
        (0, 0),
        "the form is built once: nothing is written into it after it is in the page"
    );
}
