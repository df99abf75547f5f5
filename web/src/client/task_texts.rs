//! The words a person reads about tasks (2025-11-25 elicitation as a task), kept in one
//! place so a catalog can take them over.

/// A card whose task the server cancelled (`tasks/cancel`).
pub const CARD_TASK_CANCELLED: &str =
    "the server cancelled this question's task, so it no longer needs this answer.";

/// A card whose task's time (the server's `ttl`) ran out before the person answered.
pub const CARD_TASK_EXPIRED: &str =
    "the time the server gave this question ran out, so it no longer takes this answer.";

/// A notice when the server's `elicitation/create` as a task could not be taken.
pub fn task_refused(why: &str) -> String {
    format!("A question the server asked as a task was refused: {why}")
}

/// A call running as a task that Stop ended.
pub const TASK_STOPPED: &str = "The call was stopped; its task was cancelled.";

/// A call whose task the server cancelled, with the server's message when it gave one.
pub fn task_cancelled(message: Option<&str>) -> String {
    match message {
        Some(m) => format!("The server cancelled the call's task: {m}"),
        None => "The server cancelled the call's task.".to_owned(),
    }
}

/// An answer about a task that is not JSON this client can read.
pub fn task_unreadable(why: &str) -> String {
    format!("The server's answer about the call's task could not be read: {why}")
}
