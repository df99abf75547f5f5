//! Whether a pointer (a mouse button, a finger, a pen) is down in the page, and work put
//! off until it comes up. A message shown when a field loses focus appears between the
//! press that took the focus and its release: it moves what is below it, so the control
//! being clicked slides from under the pointer and the click is lost (a checkbox stays as
//! it was, Submit does nothing). A form shows such a message once the click is over.

use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The most pieces of work kept for after a press; more run at once. A press moves the
/// focus once, so a handful at most are ever kept; the bound is against a page that
/// moves the focus through many fields by script while a button is held.
const MAX_LATER: usize = 256;

type Later = Box<dyn FnOnce()>;

thread_local! {
    static DOWN: Cell<bool> = const { Cell::new(false) };
    static WATCHING: Cell<bool> = const { Cell::new(false) };
    static LATER: RefCell<Vec<Later>> = const { RefCell::new(Vec::new()) };
}

/// Listens for presses and releases on the window, once per page (capture, so a page's
/// own handler that stops an event does not hide it; events from shadow roots reach it).
fn watch() {
    if WATCHING.with(|w| w.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let down = Closure::<dyn FnMut()>::new(|| DOWN.with(|d| d.set(true)));
    let up = Closure::<dyn FnMut()>::new(|| {
        DOWN.with(|d| d.set(false));
        // After the click: the browser dispatches release and click in one task.
        if let Some(window) = web_sys::window() {
            let run = Closure::once_into_js(run_later);
            let _ = window.set_timeout_with_callback(run.unchecked_ref());
        }
    });
    for name in ["pointerdown", "mousedown"] {
        let _ = window.add_event_listener_with_callback_and_bool(
            name,
            down.as_ref().unchecked_ref(),
            true,
        );
    }
    for name in ["pointerup", "pointercancel", "mouseup", "dragend"] {
        let _ = window.add_event_listener_with_callback_and_bool(
            name,
            up.as_ref().unchecked_ref(),
            true,
        );
    }
    // The page keeps them for its life: two closures, made once.
    down.forget();
    up.forget();
}

/// Runs what was put off, unless a new press began meanwhile.
fn run_later() {
    if DOWN.with(Cell::get) {
        return;
    }
    let jobs = LATER.with(|l| std::mem::take(&mut *l.borrow_mut()));
    for job in jobs {
        job();
    }
}

/// Starts watching presses (a form calls it when it is made, before any press it must
/// know of).
pub fn start() {
    watch();
}

/// Runs `job` now, or once the pointer that is down comes up and its click is over.
pub fn after_release(job: impl FnOnce() + 'static) {
    if !DOWN.with(Cell::get) {
        job();
        return;
    }
    let job: Later = Box::new(job);
    let left = LATER.with(|l| {
        let mut l = l.borrow_mut();
        if l.len() < MAX_LATER {
            l.push(job);
            None
        } else {
            Some(job)
        }
    });
    if let Some(job) = left {
        job();
    }
}
