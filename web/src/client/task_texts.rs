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
