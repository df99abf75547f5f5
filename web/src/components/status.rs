//! How sending an answer went, as reported by the component's parent (which owns the network).

/// The parent's report on the answer it was given through `on_answer`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SendStatus {
    /// Nothing sent yet (or the parent does not report).
    #[default]
    Idle,
    /// The answer is on its way: buttons are disabled so it is not sent twice.
    Sending,
    /// Sending failed, in words: shown as an alert, the typed answer is kept, and the
    /// buttons work again so the user can resend.
    Failed(String),
    /// The server has the answer.
    Sent,
    /// The request can no longer be answered (its call ended), in words: shown as an
    /// alert, and the buttons stay disabled.
    Gone(String),
}
