//! The running call: its progress (`[data-testid=call-progress]`, a progressbar with the
//! server's message), its task's status when the server runs it as one
//! (`[data-testid=task-status]`), and **Stop**. All of it shows only while a call runs.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use mcp_elicit::driver::progress::Progress;
use mcp_elicit_web::client::{CallWatch, TaskNews};

use crate::state::AppState;

/// The words of the running call (one place, for a catalog).
pub mod texts {
    /// The bar before the server reports anything.
    pub const WORKING: &str = "Working…";
    /// The reason a stopped call's cards are retired with, and the end of its alert.
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

#[component]
pub fn RunningCall(state: AppState) -> impl IntoView {
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
        None => texts::WORKING.to_owned(),
        Some(Progress {
            message: Some(m), ..
        }) => m,
        Some(Progress {
            progress,
            total: Some(total),
            ..
        }) => format!("{progress} of {total}"),
        Some(p) => p.progress.to_string(),
    };
    let task = move || {
        state.task.get().map(|t: TaskNews| {
            let line = match t.message {
                Some(m) => format!("Task {}: {m}", t.status),
                None => format!("Task {}", t.status),
            };
            view! { <p data-testid="task-status" role="status">{line}</p> }
        })
    };
    let stop = move |_| {
        if let Some(stop) = state.stop.get_value() {
            stop();
        }
    };
    view! {
        <Show when=move || state.calling.get()>
            <div class="running">
                {task}
                <div data-testid="call-progress" role="progressbar" aria-label="Progress of the call"
                    aria-valuenow=now aria-valuemax=max>{text}</div>
                <button type="button" on:click=stop>"Stop"</button>
            </div>
        </Show>
    }
}
