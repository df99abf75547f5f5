//! What a host follows of one call it makes: the progress the server reports, whether a
//! card of the call waits for the person, and what Stop has to undo. The drivers fill it
//! in as the call runs; [`Connection::stop`](super::Connection::stop) reads it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mcp_elicit::driver::legacy::RunId;
use mcp_elicit::driver::progress::{Progress, ProgressBook};
use mcp_elicit::driver::tool_tasks::ToolTask;
use mcp_elicit::wire::RequestId;

/// One call's watch. Cheap to clone; clones share it.
#[derive(Clone, Default)]
pub struct CallWatch {
    inner: Rc<Inner>,
}

#[derive(Default)]
struct Inner {
    book: RefCell<ProgressBook>,
    token: RefCell<Option<String>>,
    /// Called when the server reported progress not yet taken.
    on_news: Option<Rc<dyn Fn()>>,
    /// A legacy call's request in flight.
    legacy_request: RefCell<Option<RequestId>>,
    /// A legacy call's run in the session's card book.
    legacy_run: Cell<Option<RunId>>,
    /// A legacy call's cards: (handshake epoch, the server's request id).
    legacy_cards: RefCell<Vec<(u64, RequestId)>>,
    /// A modern call's page-wide number.
    modern_call: Cell<Option<u64>>,
    /// A modern call's round waits for the person.
    asking: Cell<bool>,
    /// Set by Stop: the call's driver must send and show nothing more.
    stopped: Cell<bool>,
    /// A legacy call running as a task on the server: the task as last seen (Stop sends
    /// `tasks/cancel` for it), and whether that is news not yet taken.
    task: RefCell<Option<ToolTask>>,
    task_news: Cell<bool>,
}

/// A call's task as a host sees it: its id, status (the spec's word) and message.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskNews {
    pub task_id: String,
    pub status: &'static str,
    pub message: Option<String>,
}

impl CallWatch {
    /// A watch whose `on_news` is called (synchronously, from the driver) each time the
    /// server reports progress; [`take`](Self::take) then gives the latest update.
    pub fn new(on_news: Option<Rc<dyn Fn()>>) -> Self {
        CallWatch {
            inner: Rc::new(Inner {
                on_news,
                ..Inner::default()
            }),
        }
    }

    /// The call's progress token, made on first use from a page-wide number, so calls on
    /// one session never share one.
    pub(crate) fn token(&self) -> String {
        let mut token = self.inner.token.borrow_mut();
        if let Some(token) = token.as_ref() {
            return token.clone();
        }
        let made = format!("mcp-elicit-progress-{}", super::route::next_call());
        self.inner.book.borrow_mut().follow(made.clone());
        *token = Some(made.clone());
        made
    }

    /// Reads one message of the call's streams for progress of this call (and the status
    /// of its task, `notifications/tasks/status`).
    #[inline(never)]
    pub(crate) fn feed(&self, text: &str) {
        let task_news = self
            .inner
            .task
            .borrow_mut()
            .as_mut()
            .and_then(|task| task.on_message(text))
            .is_some();
        if task_news {
            self.inner.task_news.set(true);
        }
        let news = self.inner.book.borrow_mut().on_message(text).is_some() || task_news;
        if news {
            if let Some(on_news) = self.inner.on_news.clone() {
                on_news();
            }
        }
    }

    /// The latest progress since the last take (any number of reports coalesce into it).
    pub fn take(&self) -> Option<Progress> {
        let token = self.inner.token.borrow().clone()?;
        self.inner.book.borrow_mut().take(&token)
    }

    /// The call's task as the driver last saw it (news for the host).
    pub(crate) fn set_task(&self, task: &ToolTask) {
        let changed = self.inner.task.borrow().as_ref() != Some(task);
        *self.inner.task.borrow_mut() = Some(task.clone());
        if changed {
            self.inner.task_news.set(true);
            if let Some(on_news) = self.inner.on_news.clone() {
                on_news();
            }
        }
    }

    /// The call's task as last seen (a status notification may have moved it on).
    pub(crate) fn task(&self) -> Option<ToolTask> {
        self.inner.task.borrow().clone()
    }

    /// The call's task since the last take, if it changed.
    pub fn take_task(&self) -> Option<TaskNews> {
        if !self.inner.task_news.replace(false) {
            return None;
        }
        self.inner.task.borrow().as_ref().map(|t| TaskNews {
            task_id: t.task_id().to_owned(),
            status: t.status().as_str(),
            message: t.message().map(str::to_owned),
        })
    }

    /// Whether a card of this call waits for the person now (a host's timeout is paused).
    pub fn waiting_for_person(&self, connection: &super::Connection) -> bool {
        if self.inner.asking.get() {
            return true;
        }
        match connection {
            super::Connection::Legacy(s) => self
                .inner
                .legacy_cards
                .borrow()
                .iter()
                .any(|(epoch, id)| s.is_waiting(*epoch, id)),
            super::Connection::Modern(_) => false,
        }
    }

    /// Whether Stop was pressed.
    pub fn is_stopped(&self) -> bool {
        self.inner.stopped.get()
    }

    pub(crate) fn set_stopped(&self) {
        self.inner.stopped.set(true);
    }

    pub(crate) fn set_legacy_request(&self, id: Option<RequestId>) {
        *self.inner.legacy_request.borrow_mut() = id;
    }

    pub(crate) fn take_legacy_request(&self) -> Option<RequestId> {
        self.inner.legacy_request.borrow_mut().take()
    }

    pub(crate) fn set_legacy_run(&self, run: Option<RunId>) {
        self.inner.legacy_run.set(run);
    }

    pub(crate) fn take_legacy_run(&self) -> Option<RunId> {
        self.inner.legacy_run.take()
    }

    pub(crate) fn add_legacy_card(&self, epoch: u64, id: RequestId) {
        self.inner.legacy_cards.borrow_mut().push((epoch, id));
    }

    pub(crate) fn take_legacy_cards(&self) -> Vec<(u64, RequestId)> {
        std::mem::take(&mut *self.inner.legacy_cards.borrow_mut())
    }

    pub(crate) fn set_modern_call(&self, number: u64) {
        self.inner.modern_call.set(Some(number));
    }

    pub(crate) fn modern_call(&self) -> Option<u64> {
        self.inner.modern_call.get()
    }

    pub(crate) fn set_asking(&self, asking: bool) {
        self.inner.asking.set(asking);
    }
}
