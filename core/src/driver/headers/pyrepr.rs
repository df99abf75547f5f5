//! Python's `repr(str)` and `type(v).__name__`, for the `x-mcp-header` reasons.
//!
//! The SDK words its reasons with `{value!r}`; writing them the same way lets
//! the tests compare our reasons with the SDK's byte for byte, and the
//! escapes keep a hostile property name (a bidi override, a line separator)
//! from rearranging the text the UI shows.

use serde_json::Value;

/// `repr(s)` as CPython 3.11 writes it: single quotes unless the text holds a
/// `'` and no `"`; `\\`, the quote, `\t`, `\n`, `\r` escaped; other ASCII
/// controls and DEL as `\xNN`; non-ASCII kept unless Python deems it
/// unprintable (see [`python_unprintable`]), then `\xNN`, `\uNNNN` or
/// `\UNNNNNNNN`.
pub(super) fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c if c.is_ascii() => out.push(c),
            c if python_unprintable(c) => {
                let n = u32::from(c);
                if n <= 0xff {
                    out.push_str(&format!("\\x{n:02x}"));
                } else if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Whether CPython 3.11 (Unicode 14.0) escapes this non-ASCII character in a
/// `repr`: categories Cc, Cf, Zs, Zl, Zp, Co and Cn. Exact for every
/// assigned character and for all of planes 2 to 16; in planes 0 and 1 only
/// the noncharacters of Cn (unassigned code points) are known here, so any
/// other unassigned code point there is shown as itself where the SDK would
/// escape it. That touches the wording of a reason only, never the verdict.
fn python_unprintable(c: char) -> bool {
    matches!(
        u32::from(c),
        // Cc (C1 controls) and Zs U+00A0
        0x80..=0xA0
        // Cf
        | 0xAD
        | 0x600..=0x605
        | 0x61C
        | 0x6DD
        | 0x70F
        | 0x890..=0x891
        | 0x8E2
        | 0x180E
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x2064
        | 0x2066..=0x206F
        | 0xFEFF
        | 0xFFF9..=0xFFFB
        | 0x110BD
        | 0x110CD
        | 0x13430..=0x13438
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        // Zs, Zl, Zp
        | 0x1680
        | 0x2000..=0x200A
        | 0x2028..=0x2029
        | 0x202F
        | 0x205F
        | 0x3000
        // Co (plane 0; planes 15 and 16 are in the last range)
        | 0xE000..=0xF8FF
        // Cn noncharacters of planes 0 and 1
        | 0xFDD0..=0xFDEF
        | 0xFFFE..=0xFFFF
        | 0x1FFFE..=0x1FFFF
        // Everything unprintable in planes 2 to 16
        | 0x2A6E0..=0x2A6FF
        | 0x2B739..=0x2B73F
        | 0x2B81E..=0x2B81F
        | 0x2CEA2..=0x2CEAF
        | 0x2EBE1..=0x2F7FF
        | 0x2FA1E..=0x2FFFF
        | 0x3134B..=0xE00FF
        | 0xE01F0..=0x10FFFF
    )
}

/// `type(v).__name__` for the value Python's `json` module would have made of
/// `v`. A JSON integer beyond 64 bits is an `int` to Python but reaches us as
/// a float, so it is named `float` here.
pub(super) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}
