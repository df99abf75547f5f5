//! The words a person reads about what a legacy session did on its own (a server's
//! overflowing or unusable messages, a refused sampling request, a kept answer that could
//! not be sent), from the catalogs (`notice.*`, `session.*` in web/src/i18n/catalogs) in
//! the connection's language (`ClientConfig::messages`).

use crate::i18n::Messages;

/// -32042 naming more links than are shown: how many it named, shown and left out.
pub fn urls_left_out(m: &Messages, named: usize, shown: usize, left: usize) -> String {
    let n = |v: usize| m.number(v as f64);
    m.t(
        "notice.urls_left_out",
        &[
            ("named", &n(named)),
            ("shown", &n(shown)),
            ("left", &n(left)),
        ],
    )
}

/// A message of the server this client could not use (`why`, in words).
pub fn unusable_message(m: &Messages, why: &str) -> String {
    m.t("notice.unusable_message", &[("reason", why)])
}

/// A question under the id (`id`, quoted) of one still waiting.
pub fn duplicate_id(m: &Messages, id: &str) -> String {
    m.t("notice.duplicate_id", &[("id", id)])
}

/// A sampling request refused because `max` are being answered already.
pub fn sampling_busy(m: &Messages, max: usize) -> String {
    m.t("notice.sampling_busy", &[("max", &m.number(max as f64))])
}

/// Automatic answers dropped because the server sends requests faster than it takes them.
pub fn flood(m: &Messages) -> String {
    m.t("notice.flood", &[])
}

/// A kept answer that was not sent (`why`, in words): Submit keeps it again.
pub fn answer_not_sent(m: &Messages, why: &str) -> String {
    m.t("session.answer_not_sent", &[("reason", why)])
}

/// A kept answer whose resending to the re-run call failed (`why`, in words).
pub fn resend_failed(m: &Messages, why: &str) -> String {
    m.t("session.resend_failed", &[("reason", why)])
}

/// A kept answer dropped to make room for newer ones.
pub fn answer_dropped(m: &Messages) -> String {
    m.t("session.answer_dropped", &[])
}

/// 2026-07-28 tools left out for invalid `x-mcp-header` annotations (`tools`: each named,
/// with its fault, see [`super::host_texts::tools_with_faults`]).
pub fn tools_left_out(m: &Messages, tools: &str) -> String {
    m.t("notice.tools_left_out", &[("tools", tools)])
}
