//! Form mode against property names a hostile server would pick: every member of the
//! `<form>` element. Every field and every button still renders, and answering works.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use mcp_elicit::wire::ElicitAction;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// Every property name a `<form>` element answers to, read off a real one: the own names of
/// each object on its prototype chain (HTMLFormElement, HTMLElement, Element, Node,
/// EventTarget, Object), so the list is whatever this browser has, not a list we wrote.
fn form_member_names() -> Vec<String> {
    let walk = js_sys::Function::new_no_args(
        "const names = new Set();
         for (let o = document.createElement('form'); o !== null; o = Object.getPrototypeOf(o)) {
           for (const n of Object.getOwnPropertyNames(o)) names.add(n);
         }
         return Array.from(names);",
    );
    let list = walk
        .call0(&wasm_bindgen::JsValue::NULL)
        .expect("walk the prototype chain");
    let names: Vec<String> = js_sys::Array::from(&list)
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    for expected in [
        "insertBefore",
        "appendChild",
        "contains",
        "submit",
        "action",
        "elements",
        "length",
        "querySelector",
        "addEventListener",
        "__proto__",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in the walked names"
        );
    }
    names
}

/// The names of every control in `root`, as the DOM contract's `name` attribute says.
fn control_names(root: &web_sys::Element) -> BTreeMap<String, web_sys::HtmlInputElement> {
    q_all(root, "input")
        .into_iter()
        .filter_map(|el| el.dyn_into::<web_sys::HtmlInputElement>().ok())
        .filter_map(|el| el.get_attribute("name").map(|n| (n, el)))
        .collect()
}

/// A schema with one optional string property per name.
fn schema_of(names: &[String]) -> Value {
    let props: Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"type": "string"})))
        .collect();
    json!({
        "message": "Hostile names",
        "requestedSchema": {"type": "object", "properties": props}
    })
}

#[wasm_bindgen_test]
async fn every_form_member_name_renders_its_field_and_every_button() {
    let names = form_member_names();
    // Tail fields after the hostile ones: a field that stops rendering stops these too.
    let mut all = names.clone();
    all.push("zz_after".to_owned());
    let answers = Answers::default();
    let (root, _h) = mount_form(schema_of(&all), &answers);
    tick().await;

    let controls = control_names(&root);
    let missing: Vec<&String> = all.iter().filter(|n| !controls.contains_key(*n)).collect();
    assert!(
        missing.is_empty(),
        "fields that did not render: {missing:?}"
    );
    assert_eq!(
        button_names(&root),
        vec!["Submit", "Decline", "Cancel"],
        "all three buttons"
    );
    // Every control is labelled with its name (no title given).
    for (name, el) in &controls {
        assert_eq!(label_of(&root, &el.id()), *name, "label of {name}");
    }

    // Fill every field, then Submit: the content names each one with what was typed.
    let mut expected = Map::new();
    for (i, name) in all.iter().enumerate() {
        let value = format!("v{i}");
        if let Some(el) = controls.get(name) {
            type_into(el, &value);
        }
        expected.insert(name.clone(), Value::String(value));
    }
    button(&root, "Submit").click();
    tick().await;
    let answer = answers.only();
    assert_eq!(answer.action, ElicitAction::Accept);
    assert_eq!(
        wire(&answer),
        json!({"action": "accept", "content": Value::Object(expected)})
    );
}

#[wasm_bindgen_test]
async fn form_member_names_keep_enter_escape_and_decline_working() {
    let names = form_member_names();
    // Enter in a field submits.
    let answers = Answers::default();
    let (root, _h) = mount_form(schema_of(&names), &answers);
    tick().await;
    let controls = control_names(&root);
    let submit = controls.get("submit").expect("the field named submit");
    type_into(submit, "hello");
    key(submit, "Enter");
    tick().await;
    let answer = answers.only();
    assert_eq!(answer.action, ElicitAction::Accept);
    assert_eq!(
        wire(&answer)["content"],
        json!({"submit": "hello"}),
        "only the typed field is sent"
    );

    // Escape cancels.
    let answers = Answers::default();
    let (root, _h2) = mount_form(schema_of(&names), &answers);
    tick().await;
    let controls = control_names(&root);
    key(controls.get("elements").expect("elements"), "Escape");
    tick().await;
    assert_eq!(answers.only().action, ElicitAction::Cancel);

    // Decline declines.
    let answers = Answers::default();
    let (root, _h3) = mount_form(schema_of(&names), &answers);
    tick().await;
    button(&root, "Decline").click();
    tick().await;
    assert_eq!(answers.only().action, ElicitAction::Decline);
}

#[wasm_bindgen_test]
async fn submit_with_a_form_member_name_invalid_focuses_it() {
    // A required field named like a form member: Submit must find and focus it without
    // reading the form's members by that name.
    let answers = Answers::default();
    let p = json!({
        "message": "Hostile names",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "querySelector": {"type": "string"},
                "contains": {"type": "string", "minLength": 3},
                "elements": {"type": "string"}
            },
            "required": ["contains"]
        }
    });
    let (root, _h) = mount_form(p, &answers);
    tick().await;
    button(&root, "Submit").click();
    tick().await;
    assert!(answers.all().is_empty(), "nothing is sent while invalid");
    let contains = control(&root, "contains");
    assert_eq!(
        contains.get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    let active = doc().active_element().expect("something has focus");
    assert_eq!(active, contains, "the invalid field has focus");
}
