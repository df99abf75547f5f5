//! The options of a long call (`callTool`, `getPrompt`, `readResource`):
//! `{ signal?, onProgress?, timeoutMs?, resetOnProgress? }`, and the run that honours them.
//!
//! - `onProgress({ progress, total?, message? })` gets the server's progress, made harmless
//!   by the core ([`mcp_elicit::driver::progress`]) and coalesced: at most once per
//!   animation frame, the latest update.
//! - `onTaskStatus({ taskId, status, message? })` gets the status of a call the server runs
//!   as a task (2025-11-25 tasks: `working`, `input_required`, `completed`, `failed`,
//!   `cancelled`), at most once per animation frame, when it changed.
//! - `signal` (an `AbortSignal`) stops the call: its stream is closed (legacy: after
//!   `notifications/cancelled` with its request id), its cards are retired in words, and the
//!   Promise rejects with "… the call was stopped".
//! - `timeoutMs` stops it the same way when it runs that long. The time a card of the call
//!   waits for the person is not counted, and `resetOnProgress: true` starts the count
//!   again at each progress report.

use std::cell::Cell;
use std::rc::Rc;

use futures::future::{select, Either};
use futures::FutureExt;
use mcp_elicit::driver::progress::Progress;
use mcp_elicit_web::client::{host_texts, Call, CallWatch, ClientError, Connection, TaskNews};
use mcp_elicit_web::i18n::Messages;
use mcp_elicit_web::transport::sleep;
use serde_json::value::RawValue;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The longest `timeoutMs` taken (a day); a larger one is this.
pub const MAX_TIMEOUT_MS: u32 = 86_400_000;

/// How often the timeout's count advances, at most: it is counted in these steps so the
/// time a card waits for the person can be left out.
const TIMEOUT_STEP_MS: u32 = 100;

/// What stopped a call, in the words its Promise rejects with.
pub const STOPPED: &str = "the call was stopped";

/// A call's options, read from the JS object.
#[derive(Default)]
pub struct CallOptions {
    signal: Option<web_sys::AbortSignal>,
    on_progress: Option<js_sys::Function>,
    on_task_status: Option<js_sys::Function>,
    timeout_ms: Option<u32>,
    reset_on_progress: bool,
}

/// Reads `options` (`undefined` or `null`: none; wasm-bindgen does not check that it is an
/// object, so this does). A field of the wrong type is an error in
/// words, naming the method (`what`).
pub fn parse_options(options: Option<js_sys::Object>, what: &str) -> Result<CallOptions, String> {
    let Some(options) = options.map(JsValue::from) else {
        return Ok(CallOptions::default());
    };
    let options = &options;
    if !options.is_object() {
        return Err(format!("{what}'s options must be an object"));
    }
    let field = |name: &str| js_sys::Reflect::get(options, &JsValue::from_str(name)).ok();
    let given = |v: &Option<JsValue>| v.as_ref().is_some_and(|v| !v.is_undefined());
    let mut parsed = CallOptions::default();
    let signal = field("signal");
    if given(&signal) {
        parsed.signal = Some(
            signal
                .and_then(|s| s.dyn_into::<web_sys::AbortSignal>().ok())
                .ok_or_else(|| format!("{what}'s option signal must be an AbortSignal"))?,
        );
    }
    let on_progress = field("onProgress");
    if given(&on_progress) {
        parsed.on_progress = Some(
            on_progress
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(|| format!("{what}'s option onProgress must be a function"))?,
        );
    }
    let on_task_status = field("onTaskStatus");
    if given(&on_task_status) {
        parsed.on_task_status = Some(
            on_task_status
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or_else(|| format!("{what}'s option onTaskStatus must be a function"))?,
        );
    }
    let timeout = field("timeoutMs");
    if given(&timeout) {
        let ms = timeout
            .and_then(|t| t.as_f64())
            .filter(|t| t.is_finite() && *t > 0.0)
            .ok_or_else(|| {
                format!("{what}'s option timeoutMs must be a positive number of milliseconds")
            })?;
        // Clamped to the documented maximum, so the cast cannot wrap.
        parsed.timeout_ms = Some(ms.min(f64::from(MAX_TIMEOUT_MS)).ceil() as u32);
    }
    let reset = field("resetOnProgress");
    if given(&reset) {
        parsed.reset_on_progress = reset
            .and_then(|r| r.as_bool())
            .ok_or_else(|| format!("{what}'s option resetOnProgress must be true or false"))?;
    }
    Ok(parsed)
}

/// Why a call ended without its result.
pub enum Ended {
    Failed(ClientError),
    Stopped,
    TimedOut(u32),
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Failed(e) => write!(f, "{e}"),
            Ended::Stopped => f.write_str(STOPPED),
            Ended::TimedOut(ms) => write!(f, "{STOPPED}: it ran longer than {ms} ms"),
        }
    }
}

/// The update as the JS object `onProgress` gets.
fn progress_to_js(update: &Progress) -> JsValue {
    let object = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(name), &value);
    };
    set("progress", JsValue::from_f64(update.progress));
    if let Some(total) = update.total {
        set("total", JsValue::from_f64(total));
    }
    if let Some(message) = &update.message {
        set("message", JsValue::from_str(message));
    }
    object.into()
}

/// A task's news as the JS object `onTaskStatus` gets.
fn task_to_js(news: &TaskNews) -> JsValue {
    let object = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(name), &value);
    };
    set("taskId", JsValue::from_str(&news.task_id));
    set("status", JsValue::from_str(news.status));
    if let Some(message) = &news.message {
        set("message", JsValue::from_str(message));
    }
    object.into()
}

/// Runs `call` on `connection` with `options` (see the module docs). A stopped call's
/// cards say so in the language of `messages` (the connection's).
pub async fn run(
    connection: &Connection,
    call: Call,
    schema: Option<Value>,
    options: CallOptions,
    messages: &Messages,
) -> Result<Box<RawValue>, Ended> {
    if options.signal.as_ref().is_some_and(|s| s.aborted()) {
        return Err(Ended::Stopped);
    }
    // Progress: each report marks `progressed` (for resetOnProgress) and, unless a frame is
    // already asked for, asks for one that hands the latest update to onProgress.
    let progressed = Rc::new(Cell::new(false));
    let done = Rc::new(Cell::new(false));
    let watch_slot: Rc<std::cell::RefCell<Option<CallWatch>>> = Rc::default();
    let on_news: Rc<dyn Fn()> = {
        let progressed = progressed.clone();
        let done = done.clone();
        let slot = watch_slot.clone();
        let on_progress = options.on_progress.clone();
        let on_task_status = options.on_task_status.clone();
        let scheduled = Rc::new(Cell::new(false));
        Rc::new(move || {
            progressed.set(true);
            if on_progress.is_none() && on_task_status.is_none() {
                return;
            }
            if scheduled.replace(true) {
                return;
            }
            let (done, slot, scheduled) = (done.clone(), slot.clone(), scheduled.clone());
            let (on_progress, on_task_status) = (on_progress.clone(), on_task_status.clone());
            let frame = Closure::once_into_js(move || {
                scheduled.set(false);
                if done.get() {
                    return;
                }
                // The host's callbacks: what they throw is their own affair.
                let update = slot.borrow().as_ref().and_then(CallWatch::take);
                if let (Some(update), Some(f)) = (update, &on_progress) {
                    let _ = f.call1(&JsValue::NULL, &progress_to_js(&update));
                }
                let task = slot.borrow().as_ref().and_then(CallWatch::take_task);
                if let (Some(task), Some(f)) = (task, &on_task_status) {
                    let _ = f.call1(&JsValue::NULL, &task_to_js(&task));
                }
            });
            if let Some(window) = web_sys::window() {
                let _ = window.request_animation_frame(frame.unchecked_ref());
            }
        })
    };
    let watch = CallWatch::new(Some(on_news));
    *watch_slot.borrow_mut() = Some(watch.clone());

    // Stop: the signal's abort event ends `stopped`.
    let (stop_tx, stop_rx) = futures::channel::oneshot::channel::<()>();
    let stop_tx = Rc::new(Cell::new(Some(stop_tx)));
    let listener = options.signal.as_ref().map(|signal| {
        let stop_tx = stop_tx.clone();
        let closure = Closure::<dyn FnMut()>::new(move || {
            if let Some(tx) = stop_tx.take() {
                let _ = tx.send(());
            }
        });
        let _ = signal.add_event_listener_with_callback("abort", closure.as_ref().unchecked_ref());
        (signal.clone(), closure)
    });
    let stopped = async move {
        match stop_rx.await {
            Ok(()) => Ended::Stopped,
            // No signal (its sender dropped at the end): never.
            Err(_) => futures::future::pending().await,
        }
    };
    let timeout = deadline(connection, &watch, &options, progressed);
    let ender = select(stopped.boxed_local(), timeout.boxed_local());
    let running = connection.run_watched(call, schema, &watch);
    let outcome = match select(running.boxed_local(), ender).await {
        Either::Left((result, _)) => result.map_err(Ended::Failed),
        Either::Right((why, running)) => {
            let why = why.factor_first().0;
            // The server is told in English (protocol text; legacy: notifications/cancelled,
            // sent without waiting), the call's cards in the connection's language; and
            // dropping the call's future aborts its fetch, answered yet or not (modern:
            // that is the signal).
            let (reason, timed_out) = match &why {
                Ended::TimedOut(ms) => (
                    format!("The call was stopped: it ran longer than {ms} ms."),
                    Some(*ms),
                ),
                _ => ("The call was stopped.".to_owned(), None),
            };
            let shown = host_texts::call_stopped(messages, timed_out);
            connection.stop(&watch, &reason, &shown).await;
            drop(running);
            Err(why)
        }
    };
    done.set(true);
    *watch_slot.borrow_mut() = None;
    if let Some((signal, closure)) = listener {
        let _ =
            signal.remove_event_listener_with_callback("abort", closure.as_ref().unchecked_ref());
    }
    outcome
}

/// Ends with [`Ended::TimedOut`] once the call ran `timeoutMs`, counted in steps that
/// leave out the time a card of the call waits for the person (and start again at each
/// progress report with `resetOnProgress`); never without `timeoutMs`.
async fn deadline(
    connection: &Connection,
    watch: &CallWatch,
    options: &CallOptions,
    progressed: Rc<Cell<bool>>,
) -> Ended {
    let Some(limit) = options.timeout_ms else {
        return futures::future::pending().await;
    };
    let step = limit.min(TIMEOUT_STEP_MS);
    let mut ran: u32 = 0;
    loop {
        sleep(step).await;
        if progressed.replace(false) && options.reset_on_progress {
            ran = 0;
            continue;
        }
        if watch.waiting_for_person(connection) {
            continue;
        }
        ran = ran.saturating_add(step);
        if ran >= limit {
            return Ended::TimedOut(limit);
        }
    }
}
