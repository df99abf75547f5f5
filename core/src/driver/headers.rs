//! Header values the modern era mirrors from the body: `Mcp-Name` and
//! `Mcp-Param-<token>` for tool arguments whose input-schema property carries
//! `x-mcp-header`. Encoded exactly as the SDK does (`mcp/shared/inbound.py`),
//! because the server compares them with the body and answers -32020 on any
//! difference ([recovered from](super::modern#header-mismatch) once per round).
//! Tools whose annotations are invalid are dropped from a modern
//! `tools/list` ([`keep_valid_tools`]), as the 2026-07-28 spec requires.

mod annotations;
mod pyrepr;

use base64::Engine;
use serde_json::{Map, Value};

use super::http::names;
use crate::wire::Tool;

pub use annotations::{
    header_fault, header_map, invalid_x_mcp_header, x_mcp_header_map, HeaderFault, X_MCP_HEADER_KEY,
};

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// Passes plain printable ASCII through; anything else (non-ASCII, control
/// characters, edge spaces, or text that looks like the sentinel) is sent as
/// `=?base64?...?=` so the exact bytes survive HTTP.
pub fn encode_header_value(value: &str) -> String {
    let printable = value.bytes().all(|b| (0x20..=0x7E).contains(&b));
    let trimmed = value.trim() == value;
    // The SDK's `^=\?base64\?(.*)\?=$`: the two ends may not overlap, so
    // `=?base64?=` is not sentinel-like and passes verbatim.
    let looks_like_sentinel = value
        .strip_prefix(SENTINEL_START)
        .is_some_and(|rest| rest.ends_with(SENTINEL_END));
    if printable && trimmed && !looks_like_sentinel {
        value.to_string()
    } else {
        let b64 = base64::engine::general_purpose::STANDARD.encode(value.as_bytes());
        format!("{SENTINEL_START}{b64}{SENTINEL_END}")
    }
}

fn render(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(if *b { "true" } else { "false" }.into()),
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_f64() => Some(python_float(&n.to_string())),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Rewrites a JSON float the way Python's `str(float)` prints it, because the
/// server compares the header with its own rendering of the argument: fixed
/// notation with at least one decimal for exponents -4..16 (`42.0`, `0.0001`),
/// otherwise `1.5e+20` / `1e-05`. The digits are serde_json's shortest
/// round-trip digits, which are the same digits Python's repr picks.
pub fn python_float(json: &str) -> String {
    // Only serde_json's ASCII number text is rewritten; anything else passes
    // through untouched (and the byte slicing below stays on char boundaries).
    if !json
        .bytes()
        .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return json.to_string();
    }
    let (sign, rest) = match json.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", json),
    };
    // An exponent beyond i64 is no text serde_json writes: passed through
    // rather than guessed at.
    let (mantissa, exp) = match rest.split_once(['e', 'E']) {
        Some((m, e)) => match e.parse::<i64>() {
            Ok(e) => (m, e),
            Err(_) => return json.to_string(),
        },
        None => (rest, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int_part}{frac_part}");
    // Saturating throughout: a crafted exponent near i64::MIN/MAX must not
    // overflow (a panic in wasm kills the page); such values land in the
    // exponent branch below either way.
    let trimmed_start = all.trim_start_matches('0');
    let leading_zeros = i64::try_from(all.len() - trimmed_start.len()).unwrap_or(i64::MAX);
    let point = i64::try_from(int_part.len())
        .unwrap_or(i64::MAX)
        .saturating_add(exp)
        .saturating_sub(leading_zeros);
    let digits = trimmed_start.trim_end_matches('0');
    if digits.is_empty() {
        return format!("{sign}0.0");
    }
    let len = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let e10 = point.saturating_sub(1);
    if (-4..16).contains(&e10) {
        if point <= 0 {
            let zeros = "0".repeat(usize::try_from(point.saturating_neg()).unwrap_or(0));
            format!("{sign}0.{zeros}{digits}")
        } else if point >= len {
            let zeros = "0".repeat(usize::try_from(point.saturating_sub(len)).unwrap_or(0));
            format!("{sign}{digits}{zeros}.0")
        } else {
            let (a, b) = digits.split_at(usize::try_from(point).unwrap_or(0));
            format!("{sign}{a}.{b}")
        }
    } else {
        let (first, more) = digits.split_at(1);
        let frac = if more.is_empty() {
            String::new()
        } else {
            format!(".{more}")
        };
        let esign = if e10 < 0 { '-' } else { '+' };
        format!("{sign}{first}{frac}e{esign}{:02}", e10.unsigned_abs())
    }
}

/// The `Mcp-Param-*` headers a `tools/call` with these arguments must carry,
/// as the SDK's `mcp_param_headers(x_mcp_header_map(schema), arguments)`:
/// for each annotated property path, in the SDK's order, the argument found
/// there when it is a string, number or boolean (absent, `null`, arrays and
/// objects send nothing). None at all when [`invalid_x_mcp_header`] rejects
/// the schema: the SDK drops such a tool from its listing and so keeps no
/// header map for it.
pub fn param_headers(
    input_schema: &Value,
    arguments: &Map<String, Value>,
) -> Vec<(String, String)> {
    let Ok(map) = header_map(input_schema) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (path, token) in map {
        let mut node: Option<&Value> = None;
        let mut current = Some(arguments);
        for key in &path {
            node = current.and_then(|m| m.get(key));
            current = node.and_then(Value::as_object);
        }
        if let Some(rendered) = node.and_then(render) {
            out.push((
                format!("{}{token}", names::PARAM_PREFIX),
                encode_header_value(&rendered),
            ));
        }
    }
    out
}

/// Splits one modern `tools/list` page into the tools to offer and the ones
/// the 2026-07-28 spec says a client MUST drop because their `x-mcp-header`
/// annotations are invalid, the latter as `(tool name, fault)` (the fault's
/// `Display` is the SDK's reason, see [`invalid_x_mcp_header`]) so the UI can
/// say which tools are missing and why. Order is kept in both lists.
/// Legacy-era listings are not filtered, as in the SDK.
pub fn keep_valid_tools(tools: Vec<Tool>) -> (Vec<Tool>, Vec<(String, HeaderFault)>) {
    let mut kept = Vec::with_capacity(tools.len());
    let mut dropped = Vec::new();
    for tool in tools {
        match header_fault(&tool.input_schema) {
            None => kept.push(tool),
            Some(reason) => dropped.push((tool.name, reason)),
        }
    }
    (kept, dropped)
}
