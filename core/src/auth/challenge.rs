//! `WWW-Authenticate` (RFC 9110 §11.6.1), read for its `Bearer` challenge (RFC 6750 §3):
//! `resource_metadata` (RFC 9728 §5.1), `scope`, `error`, `error_description`.
//!
//! One pass over the header, no backtracking, and nothing read past
//! [`MAX_CHALLENGE_BYTES`]: a header over it is refused in words before it is read.

use super::error::AuthError;
use super::MAX_SCOPES;

/// Longest `WWW-Authenticate` value read. Real challenges are a few hundred bytes (a
/// metadata URL, a few scopes); 16 KiB is far above that and far below what a hostile
/// server could send (a 1 MiB header is refused at once).
pub const MAX_CHALLENGE_BYTES: usize = 16 * 1024;

/// The `Bearer` challenge of a 401 or 403.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// Where the protected resource metadata is (absolute URL, as sent).
    pub resource_metadata: Option<String>,
    /// The scopes the server says the request needs, in its order, without repeats.
    pub scopes: Option<Vec<String>>,
    /// `invalid_token`, `insufficient_scope`, ….
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl Challenge {
    /// A 403 step-up challenge: the token is good but lacks a scope.
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Reads the `Bearer` challenge out of a `WWW-Authenticate` value (which may list other
/// schemes too: only `Bearer` is read; the first of its repeated parameters counts).
pub fn parse(header: &str) -> Result<Challenge, AuthError> {
    if header.len() > MAX_CHALLENGE_BYTES {
        return Err(AuthError::ChallengeTooLong {
            bytes: header.len(),
            limit: MAX_CHALLENGE_BYTES,
        });
    }
    let mut reader = Reader {
        bytes: header.as_bytes(),
        at: 0,
    };
    let mut in_bearer = false;
    let mut found = false;
    let mut out = Challenge::default();
    let mut scope: Option<String> = None;
    loop {
        reader.skip(|b| b == b' ' || b == b'\t' || b == b',');
        if reader.done() {
            break;
        }
        let token = reader.token();
        if token.is_empty() {
            // Not a token (a token68's `/` or `+`, stray text): skip to the next comma,
            // as the rest of this item cannot be a Bearer parameter.
            reader.at += 1;
            reader.skip(|b| b != b',');
            continue;
        }
        reader.skip(|b| b == b' ' || b == b'\t');
        if reader.peek() == Some(b'=') && !reader.token68_end() {
            reader.at += 1;
            reader.skip(|b| b == b' ' || b == b'\t');
            let value = if reader.peek() == Some(b'"') {
                reader.quoted()?
            } else {
                reader.token().to_string()
            };
            if in_bearer {
                let slot = match token.to_ascii_lowercase().as_str() {
                    "resource_metadata" => &mut out.resource_metadata,
                    "scope" => &mut scope,
                    "error" => &mut out.error,
                    "error_description" => &mut out.error_description,
                    _ => continue,
                };
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
        } else {
            // A new challenge; what follows its scheme is either parameters or a
            // token68 (skipped: Bearer has none).
            in_bearer = token.eq_ignore_ascii_case("bearer");
            found |= in_bearer;
            if reader.token68_end() {
                reader.skip(|b| b != b',');
            }
        }
    }
    if !found {
        return Err(unreadable("no Bearer challenge"));
    }
    if let Some(scope) = scope {
        out.scopes = Some(split_scopes(&scope, "The server's challenge")?);
    }
    Ok(out)
}

/// A space-separated scope list, without empty entries or repeats, at most
/// [`MAX_SCOPES`] of them. `whose` names the list in the refusal.
pub(crate) fn split_scopes(list: &str, whose: &str) -> Result<Vec<String>, AuthError> {
    let mut scopes: Vec<String> = Vec::new();
    for scope in list.split(' ').filter(|s| !s.is_empty()) {
        if scopes.iter().any(|s| s == scope) {
            continue;
        }
        if scopes.len() == MAX_SCOPES {
            return Err(AuthError::TooManyScopes {
                whose: whose.to_string(),
                count: list.split(' ').filter(|s| !s.is_empty()).count(),
                limit: MAX_SCOPES,
            });
        }
        scopes.push(scope.to_string());
    }
    Ok(scopes)
}

fn unreadable(detail: &str) -> AuthError {
    AuthError::ChallengeUnreadable {
        detail: detail.to_string(),
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }
    fn skip(&mut self, keep_going: impl Fn(u8) -> bool) {
        while self.peek().is_some_and(&keep_going) {
            self.at += 1;
        }
    }
    /// RFC 9110 `token` characters.
    fn token(&mut self) -> &'a str {
        let start = self.at;
        self.skip(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        // Only ASCII was taken, so the slice is on character boundaries.
        std::str::from_utf8(self.bytes.get(start..self.at).unwrap_or_default()).unwrap_or("")
    }
    /// Whether the `=` here ends a token68 (`=` padding then a comma or the end) rather
    /// than opening a parameter's value.
    fn token68_end(&self) -> bool {
        let mut at = self.at;
        while self.bytes.get(at) == Some(&b'=') {
            at += 1;
        }
        at > self.at && matches!(self.bytes.get(at), None | Some(b','))
    }
    fn quoted(&mut self) -> Result<String, AuthError> {
        self.at += 1; // the opening quote
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(unreadable("a quoted value that is never closed")),
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(b) => out.push(b),
                        None => return Err(unreadable("a quoted value that is never closed")),
                    }
                    self.at += 1;
                }
                Some(b) => {
                    out.push(b);
                    self.at += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| unreadable("a quoted value that is not UTF-8"))
    }
}
