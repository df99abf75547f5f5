//! The running call: its progress (`[data-testid=call-progress]`, a progressbar with the
//! server's message), its task's status when the server runs it as one
//! (`[data-testid=task-status]`), and **Stop**. All of it shows only while a call runs.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use mcp_elicit::driver::progress::Progress;
use mcp_elicit_web::client::{CallWatch, TaskNews};

use crate::state::AppState;
use mcp_elicit_web::i18n::{use_messages, Messages};

/// The words of the running call (one place, for a catalog).
pub mod texts {
    /// The reason a stopped call sends the server (protocol text: English; the person's
    /// alert and the call's retired cards say `demo.stopped`).
    pub const STOPPED: &str = "The call was stopped.";
}

/// A watch for a call that writes its progress and task into `state`, at most once an
/// animation frame (the latest of any number of reports).
pub fn watch_for(state: AppState) -> CallWatch {
    let slot: Rc<std::cell::RefCell<Option<CallWatch>>> = Rc::default();
    let scheduled = Rc::new(Cell::new(false));
    let on_news: Rc<dyn Fn()> = {
        let slot = slot.clone();
        Rc::new(move || {
            if scheduled.replace(true) {
                return;
            }
            let (slot, scheduled) = (slot.clone(), scheduled.clone());
            request_animation_frame(move || {
                scheduled.set(false);
                let Some(watch) = slot.borrow().clone() else {
                    return;
                };
                if let Some(update) = watch.take() {
                    state.progress.set(Some(update));
                }
                if let Some(task) = watch.take_task() {
                    state.task.set(Some(task));
                }
            });
        })
    };
    let watch = CallWatch::new(Some(on_news));
    *slot.borrow_mut() = Some(watch.clone());
    watch
}

/// A task's status in the page's language (the protocol's word when it is none of these).
fn status_word(m: &Messages, status: &str) -> String {
    let key = match status {
        "working" => "task.status.working",
        "input_required" => "task.status.input_required",
        "completed" => "task.status.completed",
        "failed" => "task.status.failed",
        "cancelled" => "task.status.cancelled",
        other => return other.to_owned(),
    };
    m.t(key, &[])
}

#[component]
pub fn RunningCall(state: AppState) -> impl IntoView {
    let m = use_messages();
    let (m_text, m_task) = (m.clone(), m.clone());
    let now = move || {
        state
            .progress
            .get()
            .map(|p: Progress| p.progress.to_string())
    };
    let max = move || {
        state
            .progress
            .get()
            .and_then(|p| p.total.map(|t| t.to_string()))
    };
    let text = move || match state.progress.get() {
        None => m_text.t("progress.working", &[]),
        Some(Progress {
            message: Some(m), ..
        }) => m,
        Some(Progress {
            progress,
            total: Some(total),
            ..
        }) => m_text.t(
            "progress.of",
            &[
                ("progress", &m_text.number(progress)),
                ("total", &m_text.number(total)),
            ],
        ),
        Some(p) => p.progress.to_string(),
    };
    let task = move || {
        state.task.get().map(|t: TaskNews| {
            let status = status_word(&m_task, t.status);
            let line = match t.message {
                Some(said) => m_task.t("task.line", &[("status", &status), ("message", &said)]),
                None => m_task.t("task.line_bare", &[("status", &status)]),
            };
            view! { <p data-testid="task-status" role="status">{line}</p> }
        })
    };
    let stop = move |_| {
        if let Some(stop) = state.stop.get_value() {
            stop();
        }
    };
    let (label, stop_word) = (m.t("progress.label", &[]), m.t("button.stop", &[]));
    view! {
        <Show when=move || state.calling.get()>
            <div class="running">
                {task.clone()}
                <div data-testid="call-progress" role="progressbar" aria-label=label.clone()
                    aria-valuenow=now aria-valuemax=max>{text.clone()}</div>
                <button type="button" on:click=stop>{stop_word.clone()}</button>
            </div>
        </Show>
    }
}
