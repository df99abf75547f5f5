//! Shared helpers of the browser tests: mount a real component into the page, fire real
//! DOM events, collect what the component answered, wait for the page, and fake a server
//! behind `window.fetch` ([`fake_fetch`]).

#![allow(dead_code)]

use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::tachys::view::any_view::AnyViewState;
use mcp_elicit::wire::{ElicitRequestParams, ElicitResult};
use mcp_elicit_web::components::ElicitationView;
use std::sync::{Arc, Mutex};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub type Handle = leptos::mount::UnmountHandle<AnyViewState>;

pub fn doc() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// A fresh element in the page to mount into.
pub fn host() -> web_sys::HtmlElement {
    let doc = doc();
    let el = doc
        .create_element("div")
        .expect("create div")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("div is an HtmlElement");
    doc.body().expect("body").append_child(&el).expect("append");
    el
}

pub fn mount(f: impl FnOnce() -> AnyView + 'static) -> (web_sys::HtmlElement, Handle) {
    let el = host();
    let handle = mount_to(el.clone(), f);
    (el, handle)
}

/// Mounts one form-mode card (an `ElicitationView`) for the params `p`; its answers go to
/// `answers`.
pub fn mount_form(p: serde_json::Value, answers: &Answers) -> (web_sys::HtmlElement, Handle) {
    let cb = answers.callback();
    mount(move || view! { <ElicitationView key="q1" params=params(p) on_answer=cb /> }.into_any())
}

/// Lets the reactive system and the browser run (effects, focus): one macrotask turn.
pub async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("window")
            .set_timeout_with_callback(&resolve)
            .expect("setTimeout");
    });
    let _ = JsFuture::from(promise).await;
}

/// Waits `ms` milliseconds (a `setTimeout`).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .expect("window")
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .expect("setTimeout");
    });
    let _ = JsFuture::from(promise).await;
}

/// Waits until `cond` holds, polling every 20 ms for about 5 s; then fails naming `what`.
pub async fn until(what: &str, cond: impl Fn() -> bool) {
    for _ in 0..250 {
        if cond() {
            return;
        }
        sleep(20).await;
    }
    panic!("timed out waiting for {what}");
}

/// Runs `body` as the body of a JS function in the page and gives back what it returns.
pub fn run_js(body: &str) -> JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&JsValue::NULL)
        .unwrap_or_else(|e| panic!("the script throws {e:?}: {body}"))
}

#[wasm_bindgen(inline_js = r#"
const fakes = [];
let installed = false;
const json = (value, init = {}) => new Response(JSON.stringify(value), {
  status: init.status || 200,
  headers: Object.assign({ "content-type": "application/json" }, init.headers || {}),
});
const reply = {
  json,
  result: (id, result, init) => json({ jsonrpc: "2.0", id, result }, init),
  error: (id, code, message, init) => json({ jsonrpc: "2.0", id, error: { code, message } }, init),
};
export function fakeFetch(prefix, handler) {
  const known = fakes.find((f) => f.prefix === prefix);
  if (known) known.handler = handler;
  else fakes.push({ prefix, handler });
  if (installed) return;
  installed = true;
  const real = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const fake = fakes.find((f) => req.url.startsWith(f.prefix));
    return fake ? fake.handler(req, reply) : real(input, init);
  };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = fakeFetch)]
    fn fake_fetch_js(prefix: &str, handler: &js_sys::Function);
}

/// Fakes a server behind `window.fetch` for the URLs that start with `prefix`: each such
/// request goes to `handler(req, reply)` (`req` a `Request`; its answer a `Response` or a
/// promise of one), every other URL to the page's own `fetch`, as the modules of one
/// page share it. `reply` builds JSON answers: `reply.json(value, init)`,
/// `reply.result(id, result, init)` and `reply.error(id, code, message, init)` (`init`
/// optional: `{ status, headers }`, status 200 by default). A second call with the same
/// prefix replaces its handler, so a test installs a fresh fake without stacking wrappers.
pub fn fake_fetch(prefix: &str, handler: &js_sys::Function) {
    fake_fetch_js(prefix, handler);
}

/// [`fake_fetch`] with a handler written as JS: `body` is the body of a function that
/// returns the handler (it may set up the fake's state first).
pub fn fake_fetch_script(prefix: &str, body: &str) {
    let handler = run_js(body)
        .dyn_into::<js_sys::Function>()
        .unwrap_or_else(|_| panic!("the fake for {prefix} returns no function"));
    fake_fetch(prefix, &handler);
}

/// Collects every answer a component gives.
#[derive(Clone, Default)]
pub struct Answers(pub Arc<Mutex<Vec<ElicitResult>>>);

impl Answers {
    pub fn callback(&self) -> Callback<ElicitResult> {
        let inner = self.0.clone();
        Callback::new(move |r| inner.lock().expect("lock").push(r))
    }
    pub fn all(&self) -> Vec<ElicitResult> {
        self.0.lock().expect("lock").clone()
    }
    pub fn only(&self) -> ElicitResult {
        let all = self.all();
        assert_eq!(all.len(), 1, "expected exactly one answer, got {all:?}");
        all[0].clone()
    }
}

/// The answer as wire JSON, for exact comparisons of typed content.
pub fn wire(r: &ElicitResult) -> serde_json::Value {
    serde_json::to_value(r).expect("serialise")
}

pub fn params(v: serde_json::Value) -> ElicitRequestParams {
    serde_json::from_value(v).expect("valid params")
}

pub fn q(root: &web_sys::Element, sel: &str) -> web_sys::Element {
    root.query_selector(sel)
        .expect("selector")
        .unwrap_or_else(|| panic!("no element matches {sel}"))
}

pub fn q_opt(root: &web_sys::Element, sel: &str) -> Option<web_sys::Element> {
    root.query_selector(sel).expect("selector")
}

pub fn q_all(root: &web_sys::Element, sel: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(sel).expect("selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}

/// The control named `name` (the property name).
pub fn control(root: &web_sys::Element, name: &str) -> web_sys::Element {
    q(root, &format!("[name=\"{name}\"]"))
}

pub fn input(root: &web_sys::Element, name: &str) -> web_sys::HtmlInputElement {
    input_at(root, &format!("[name=\"{name}\"]"))
}

/// The `<input>` that `sel` matches.
pub fn input_at(root: &web_sys::Element, sel: &str) -> web_sys::HtmlInputElement {
    q(root, sel)
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap_or_else(|_| panic!("{sel} is not an input"))
}

/// The visible text of the `<label for>` of the element with `id`, without the required mark.
pub fn label_of(root: &web_sys::Element, id: &str) -> String {
    q(root, &format!("label[for=\"{id}\"]"))
        .text_content()
        .unwrap_or_default()
        .trim()
        .trim_end_matches('*')
        .trim()
        .to_owned()
}

/// Texts of the elements `aria-describedby` points at.
pub fn described_by(el: &web_sys::Element) -> Vec<String> {
    let ids = el.get_attribute("aria-describedby").unwrap_or_default();
    ids.split_whitespace()
        .map(|id| {
            doc()
                .get_element_by_id(id)
                .unwrap_or_else(|| panic!("aria-describedby names a missing id {id}"))
                .text_content()
                .unwrap_or_default()
        })
        .collect()
}

/// The button whose text is `name`.
pub fn button(root: &web_sys::Element, name: &str) -> web_sys::HtmlElement {
    button_opt(root, name).unwrap_or_else(|| panic!("no button named {name}"))
}

pub fn button_opt(root: &web_sys::Element, name: &str) -> Option<web_sys::HtmlElement> {
    q_all(root, "button")
        .into_iter()
        .find(|b| b.text_content().unwrap_or_default().trim() == name)
        .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
}

pub fn button_names(root: &web_sys::Element) -> Vec<String> {
    q_all(root, "button")
        .into_iter()
        .map(|b| b.text_content().unwrap_or_default().trim().to_owned())
        .collect()
}

fn js_fn(args: &str, body: &str) -> js_sys::Function {
    js_sys::Function::new_with_args(args, body)
}

/// Fires a bubbling event of type `kind` at `el`, as the browser does.
pub fn fire(el: &web_sys::Element, kind: &str) {
    js_fn(
        "el,kind",
        "el.dispatchEvent(new Event(kind, {bubbles: true, cancelable: true}))",
    )
    .call2(&JsValue::NULL, el, &JsValue::from_str(kind))
    .expect("dispatch");
}

/// Fires a `keydown` of `key` at `el`.
pub fn key(el: &web_sys::Element, key: &str) {
    js_fn(
        "el,key",
        "el.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}))",
    )
    .call2(&JsValue::NULL, el, &JsValue::from_str(key))
    .expect("dispatch");
}

/// Types `value` into an input: sets it, then fires `input` and `change` as a user would.
pub fn type_into(el: &web_sys::HtmlInputElement, value: &str) {
    el.set_value(value);
    fire(el, "input");
    fire(el, "change");
}

/// Clicks a checkbox (which toggles it and fires `input`/`change`, as a real click does).
pub fn click(el: &web_sys::Element) {
    el.clone()
        .dyn_into::<web_sys::HtmlElement>()
        .expect("an HtmlElement")
        .click();
}

/// Chooses `value` in the select named `name`.
pub fn choose(root: &web_sys::Element, name: &str, value: &str) {
    let sel = control(root, name)
        .dyn_into::<web_sys::HtmlSelectElement>()
        .expect("a select");
    sel.set_value(value);
    fire(&sel, "input");
    fire(&sel, "change");
}
