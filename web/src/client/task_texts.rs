//! The words a person reads about tasks (2025-11-25 elicitation as a task), from the
//! catalogs (`task.*` in web/src/i18n/catalogs) in the connection's language
//! (`ClientConfig::messages`).

use crate::i18n::Messages;

/// A card whose task the server cancelled (`tasks/cancel`): the reason after
/// `status.gone`.
pub fn card_task_cancelled(m: &Messages) -> String {
    m.t("task.card_cancelled", &[])
}

/// A card whose task's time (the server's `ttl`) ran out before the person answered.
pub fn card_task_expired(m: &Messages) -> String {
    m.t("task.card_expired", &[])
}

/// A notice when the server's `elicitation/create` as a task could not be taken.
pub fn task_refused(m: &Messages, why: &str) -> String {
    m.t("task.refused", &[("reason", why)])
}

/// A call running as a task that Stop ended.
pub fn task_stopped(m: &Messages) -> String {
    m.t("task.stopped", &[])
}

/// A call whose task the server cancelled, with the server's message when it gave one.
pub fn task_cancelled(m: &Messages, message: Option<&str>) -> String {
    match message {
        Some(text) => m.t("task.cancelled_with", &[("message", text)]),
        None => m.t("task.cancelled", &[]),
    }
}

/// An answer about a task that is not JSON this client can read.
pub fn task_unreadable(m: &Messages, why: &str) -> String {
    m.t("task.unreadable", &[("reason", why)])
}

/// An answer about a task that the core refused (`why`, its English: no `taskId`, another
/// task's id, an unknown status, a completed task without its result).
pub fn task_answer(m: &Messages, why: &str) -> String {
    m.t("wire.task_answer", &[("detail", why)])
}
