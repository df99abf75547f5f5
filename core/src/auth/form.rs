//! `application/x-www-form-urlencoded` serialisation (the WHATWG URL standard's
//! urlencoded serializer), for the token request's body, the authorization URL's query
//! and the parts of HTTP Basic client authentication (RFC 6749 §2.3.1).
//!
//! Written here because the core has no `url` crate in wasm (its `form_urlencoded` comes
//! with it natively only), and the serializer is one table lookup per byte.

/// One value, encoded: ASCII letters, digits and `*-._` as they are, space as `+`, every
/// other byte (UTF-8) as `%XX`.
pub fn encode(value: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(value.len());
    for &b in value.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0x0f)]));
            }
        }
    }
    out
}

/// `name=value&name=value`, in the order given.
pub fn pairs(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&encode(name));
        out.push('=');
        out.push_str(&encode(value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_the_url_standard() {
        assert_eq!(encode("a b&c=d/é~"), "a+b%26c%3Dd%2F%C3%A9%7E");
        assert_eq!(pairs(&[("x", "1"), ("y z", "")]), "x=1&y+z=");
    }
}
