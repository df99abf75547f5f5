//! Header values the modern era mirrors from the body: `Mcp-Name` and
//! `Mcp-Param-<token>` for tool arguments whose input-schema property carries
//! `x-mcp-header`. Encoded exactly as the SDK does (`mcp/shared/inbound.py`),
//! because the server compares them with the body and answers -32020 on any
//! difference.

use base64::Engine;
use serde_json::{Map, Value};

use super::http::names;

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

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `(path, token)` for each `x-mcp-header` annotation reachable from the root
/// through `properties` only, or why the schema's annotations are invalid
/// (then, like the SDK, no headers are sent for the tool).
pub fn x_mcp_header_map(input_schema: &Value) -> Result<Vec<(Vec<String>, String)>, String> {
    let mut out: Vec<(Vec<String>, String)> = Vec::new();
    let mut stack: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), input_schema)];
    while let Some((path, node)) = stack.pop() {
        let Some(obj) = node.as_object() else {
            continue;
        };
        if let Some(header) = obj.get("x-mcp-header") {
            let where_ = path.join(".");
            if path.is_empty() {
                return Err("x-mcp-header found on the schema root".into());
            }
            let Some(token) = header.as_str() else {
                return Err(format!(
                    "property {where_:?}: x-mcp-header must be a string"
                ));
            };
            if !is_token(token) {
                return Err(format!(
                    "property {where_:?}: x-mcp-header {token:?} is not an RFC 9110 token"
                ));
            }
            match obj.get("type").and_then(Value::as_str) {
                Some("string" | "integer" | "boolean") => {}
                _ => {
                    return Err(format!(
                        "property {where_:?}: x-mcp-header is only permitted on integer/string/boolean properties"
                    ))
                }
            }
            if out.iter().any(|(_, t)| t.eq_ignore_ascii_case(token)) {
                return Err(format!("x-mcp-header {token:?} is used twice"));
            }
            out.push((path.clone(), token.to_string()));
        }
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            for (name, sub) in props.iter().rev() {
                let mut p = path.clone();
                p.push(name.clone());
                stack.push((p, sub));
            }
        }
    }
    Ok(out)
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

/// The `Mcp-Param-*` headers a `tools/call` with these arguments must carry.
pub fn param_headers(
    input_schema: &Value,
    arguments: &Map<String, Value>,
) -> Vec<(String, String)> {
    let Ok(map) = x_mcp_header_map(input_schema) else {
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
