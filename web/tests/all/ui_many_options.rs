//! A multi-select of server-sized option lists: 20,000 options mount (so no box may cost
//! the whole list: 20,000 boxes each copying every option run the page out of memory), a
//! tick works, and the answer keeps the schema's option order.

// Browser-only: these mount components into a real DOM.
#![cfg(target_arch = "wasm32")]

use crate::ui_support::*;
use serde_json::json;
use std::collections::BTreeSet;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// Options of a multi-select a server may send: more than any person reads, but nothing
/// that may stop the form from rendering or make a tick cost the whole list per box.
const MANY_OPTIONS: usize = 20_000;

#[wasm_bindgen_test]
async fn a_multi_select_of_many_options_renders_and_keeps_schema_order() {
    let values: Vec<String> = (0..MANY_OPTIONS).map(|i| format!("o{i}")).collect();
    let p = json!({
        "message": "Pick some",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "many": {"type": "array", "items": {"type": "string", "enum": values}},
                "after": {"type": "string"}
            }
        }
    });
    let answers = Answers::default();
    let (root, _h) = mount_form(p, &answers);
    tick().await;
    let boxes = q_all(&root, "input[type=checkbox][name=many]");
    assert_eq!(boxes.len(), MANY_OPTIONS, "every option has its box");
    assert!(
        q_opt(&root, "[name=after]").is_some(),
        "the next field renders"
    );

    // Tick out of schema order; untick one; the answer keeps the schema's order.
    let pick = |i: usize| boxes.get(i).expect("a box").clone();
    click(&pick(MANY_OPTIONS - 1));
    click(&pick(7));
    click(&pick(12_345));
    click(&pick(7));
    click(&pick(3));
    tick().await;
    let checked: BTreeSet<usize> = boxes
        .iter()
        .enumerate()
        .filter(|(_, b)| {
            b.dyn_ref::<web_sys::HtmlInputElement>()
                .map(|b| b.checked())
                .unwrap_or(false)
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        checked,
        BTreeSet::from([3, 12_345, MANY_OPTIONS - 1]),
        "the boxes show what was ticked"
    );
    button(&root, "Submit").click();
    tick().await;
    let answer = answers.only();
    assert_eq!(
        wire(&answer)["content"],
        json!({"many": ["o3", "o12345", format!("o{}", MANY_OPTIONS - 1)]})
    );
}

#[wasm_bindgen(module = "/tests/all/support.js")]
extern "C" {
    fn style_of(el: &web_sys::Element, prop: &str) -> String;
    fn add_page_style(text: &str) -> web_sys::Element;
}

/// How a multi-select's boxes sit in the DOM and dim decides what a long list costs in
/// Chromium: each child added to a `<fieldset>` costs time that grows with the children it
/// has (20,000 rows added to the fieldset: 1.7 s), and an opacity below 1 on each of 20,000
/// disabled boxes made disabling them a 3.7 s style recalculation. So the rows go in one
/// box of the fieldset, and a disabled multi-select dims that box, not each checkbox.
#[wasm_bindgen_test]
async fn a_multi_select_holds_its_rows_in_one_box_that_dims_as_one() {
    const OPTIONS: usize = 2_000;
    let values: Vec<String> = (0..OPTIONS).map(|i| format!("o{i}")).collect();
    let p = json!({
        "message": "Pick some",
        "requestedSchema": {"type": "object", "properties": {
            "many": {"type": "array", "title": "Many", "description": "Any of them",
                     "items": {"type": "string", "enum": values}}
        }}
    });
    let answers = Answers::default();
    let (root, _h) = mount_form(p, &answers);
    tick().await;
    let set = q(&root, "fieldset[data-name=many]");
    let rows = q(&set, ":scope > .mce-options");
    assert_eq!(
        rows.child_element_count() as usize,
        OPTIONS,
        "one row per option"
    );
    assert!(
        set.child_element_count() <= 5,
        "the fieldset holds its legend, description, rows' box, error and note, not the rows: {}",
        set.child_element_count()
    );

    // Read with the package's stylesheet on the page, asserted once it is gone again: a
    // wasm panic runs no destructors, so a failed assertion would leave it for the tests
    // after this one.
    let first = q(&rows, "input[type=checkbox]");
    let style = add_page_style(include_str!("../../../www/style.css"));
    set.set_attribute("disabled", "").expect("disable");
    let box_disabled = first.matches(":disabled").unwrap_or(false);
    let rows_opacity = style_of(&rows, "opacity");
    let box_opacity = style_of(&first, "opacity");
    style.remove();
    assert!(box_disabled, "the disabled fieldset disables its boxes");
    assert_eq!(rows_opacity, "0.6", "the disabled list dims");
    assert_eq!(
        box_opacity, "1",
        "as one box: the checkbox itself stays opaque"
    );
}
