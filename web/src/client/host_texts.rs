//! The words a person reads about what a host's code did (`McpClient`'s `onElicitation`
//! handler, a call its signal or `timeoutMs` stopped), and the facts the core gives in
//! words of its own (a tool's invalid `x-mcp-header`, what a server answered the
//! 2026-07-28 probe), from the catalogs (`host.*`, `header.*`, `probe.*` in
//! web/src/i18n/catalogs) in the connection's language. What the host's code or the
//! server said goes in as it came.

use crate::i18n::{field_error_for, Messages};
use mcp_elicit::driver::era::ProbeAnswer;
use mcp_elicit::driver::headers::HeaderFault;
use mcp_elicit::schema::FormSpec;
use mcp_elicit::validate::{ErrorCode, FieldError};
use serde_json::Value;

/// The shape a handler's result must have, as the `host.handler_result` notice quotes it.
const RESULT_SHAPE: &str = r#"{ action: "accept" | "decline" | "cancel", content? }"#;

/// A request shown at once: `max` were waiting for the handler already.
pub fn handler_busy(m: &Messages, max: usize) -> String {
    m.t("host.handler_busy", &[("max", &m.number(max as f64))])
}

/// The handler gave no answer within `seconds`.
pub fn handler_timed_out(m: &Messages, seconds: u32) -> String {
    m.t(
        "host.handler_timed_out",
        &[("seconds", &m.number(f64::from(seconds)))],
    )
}

/// The handler threw or rejected (`why`: what it threw, in its own words).
pub fn handler_failed(m: &Messages, why: &str) -> String {
    m.t("host.handler_failed", &[("reason", why)])
}

/// The handler returned something that is not an ElicitResult (`why`: what is wrong with
/// it): the reason [`handler_failed`] quotes.
pub fn handler_result(m: &Messages, why: &str) -> String {
    m.t(
        "host.handler_result",
        &[("shape", RESULT_SHAPE), ("reason", why)],
    )
}

/// The handler's answer could not be delivered (`why`, in words).
pub fn answer_not_delivered(m: &Messages, why: &str) -> String {
    m.t("host.answer_not_delivered", &[("reason", why)])
}

/// The handler accepted a URL-mode request: only the person may open the page.
pub fn url_accepted(m: &Messages) -> String {
    m.t("host.url_accepted", &[])
}

/// The handler's answer was not sent: the request's schema cannot be read (`why`).
pub fn form_unreadable(m: &Messages, why: &str) -> String {
    m.t("host.form_unreadable", &[("reason", why)])
}

/// The handler's `content` does not fit the form: the first `max` of `errors`, each worded
/// from its code and its field's data (`content`'s value for it, when it has one).
pub fn misfit(
    m: &Messages,
    spec: &FormSpec,
    content: &Value,
    errors: &[FieldError],
    max: usize,
) -> String {
    let separator = m.t("items.separator", &[]);
    let mut words = String::new();
    for e in errors.iter().take(max) {
        let value = content.get(&e.field).and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        let error = match spec.fields.iter().find(|f| f.name == e.field) {
            Some(field) => field_error_for(m, field, e.code, value.as_deref()),
            None if e.code == ErrorCode::UnknownField => {
                m.t("error.unknown_field", &[("name", &e.field)])
            }
            // Not about one field (content that is no object): the core's words.
            None => e.message.clone(),
        };
        if !words.is_empty() {
            words.push_str(&separator);
        }
        if e.field.is_empty() {
            words.push_str(&error);
        } else {
            words.push_str(&m.t(
                "host.misfit_field",
                &[("field", &e.field), ("error", &error)],
            ));
        }
    }
    m.t("host.misfit", &[("errors", &words)])
}

/// A call its signal stopped (`timed_out_ms`: its `timeoutMs`, when that stopped it): the
/// reason its cards show (and a legacy server's `notifications/cancelled` carries).
pub fn call_stopped(m: &Messages, timed_out_ms: Option<u32>) -> String {
    match timed_out_ms {
        Some(ms) => m.t("host.call_timed_out", &[("ms", &m.number(f64::from(ms)))]),
        None => m.t("host.call_stopped", &[]),
    }
}

/// Tools left out for invalid `x-mcp-header` annotations, each named with its fault: the
/// `{tools}` of `notice.tools_left_out`.
pub fn tools_with_faults(m: &Messages, dropped: &[(String, HeaderFault)]) -> String {
    let separator = m.t("items.separator", &[]);
    let mut out = String::new();
    for (name, fault) in dropped {
        if !out.is_empty() {
            out.push_str(&separator);
        }
        let reason = header_fault(m, fault);
        out.push_str(&m.t("header.tool", &[("name", name), ("reason", &reason)]));
    }
    out
}

/// Why a tool's `x-mcp-header` annotations are invalid, from the core's facts (names and
/// tokens quoted as the core quotes them).
pub fn header_fault(m: &Messages, fault: &HeaderFault) -> String {
    match fault {
        HeaderFault::Unreachable => m.t("header.unreachable", &[]),
        HeaderFault::NotString { property, got } => m.t(
            "header.not_string",
            &[("property", property), ("type", got)],
        ),
        HeaderFault::NotToken { property, token } => m.t(
            "header.not_token",
            &[("property", property), ("token", token)],
        ),
        HeaderFault::WrongType { property, got } => m.t(
            "header.wrong_type",
            &[("property", property), ("type", got)],
        ),
        HeaderFault::TypeNotString { property, got } => m.t(
            "header.type_not_string",
            &[("property", property), ("type", got)],
        ),
        HeaderFault::Duplicate {
            token,
            property,
            first,
        } => m.t(
            "header.duplicate",
            &[("token", token), ("property", property), ("first", first)],
        ),
    }
}

/// What the server answered the 2026-07-28 probe, from the core's facts; what the server
/// said (its error's message) and what the core could not read go in as they came.
pub fn probe_answer(m: &Messages, answer: &ProbeAnswer) -> String {
    use mcp_elicit::driver::era::DISCOVER;
    let method = ("method", DISCOVER);
    match answer {
        ProbeAnswer::TimedOut { seconds } => m.t(
            "probe.timed_out",
            &[method, ("seconds", &m.number(f64::from(*seconds)))],
        ),
        ProbeAnswer::Nothing => m.t("probe.nothing", &[method]),
        ProbeAnswer::Unreadable(what) => what.clone(),
        ProbeAnswer::Error {
            version,
            message,
            code,
        } => m.t(
            "probe.error",
            &[
                method,
                ("version", version),
                ("message", message),
                ("code", &code.to_string()),
            ],
        ),
        ProbeAnswer::Only(versions) => {
            let list = versions.join(&m.t("list.separator", &[]));
            m.t("probe.only", &[("versions", &list)])
        }
        ProbeAnswer::Status(status) => {
            m.t("probe.status", &[method, ("status", &status.to_string())])
        }
    }
}
