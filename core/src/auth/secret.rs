//! One type per OAuth value, so a token cannot be passed where a client id is wanted, and
//! the ones that are credentials print as `[redacted]` in `Debug` (nothing derived from
//! them reaches a log by accident). Their text is read with `secret()` (credentials) or
//! `as_str()` (identifiers), on purpose and at the one place that sends them.

use std::fmt;

macro_rules! credential {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            pub fn new(value: impl Into<String>) -> Self {
                $name(value.into())
            }
            /// The credential's text, for the one request that sends it.
            pub fn secret(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), "([redacted])"))
            }
        }
    };
}

credential!(
    /// The bearer token sent to the MCP server in `Authorization: Bearer …`.
    AccessToken
);
credential!(
    /// Gets a new access token from the token endpoint without the person.
    RefreshToken
);
credential!(
    /// A confidential client's secret (pre-registered, or given by registration).
    ClientSecret
);
credential!(
    /// PKCE's `code_verifier` (RFC 7636): 43 characters of base64url, made by the IO from
    /// 32 random bytes with [`super::pkce::verifier_from_bytes`].
    PkceVerifier
);
credential!(
    /// The authorization code the callback carries; spent by one token request.
    AuthorizationCode
);

/// The OAuth `state`: ties a callback to the authorization request this flow made. Not a
/// credential once the flow is over, but a live one lets a forged callback in, so it is
/// redacted too.
#[derive(Clone, PartialEq, Eq)]
pub struct CsrfState(String);

impl CsrfState {
    pub fn new(value: impl Into<String>) -> Self {
        CsrfState(value.into())
    }
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for CsrfState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CsrfState([redacted])")
    }
}

/// A client identifier at one authorization server. Not a secret (it is in every
/// authorization URL), so `Debug` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientId(String);

impl ClientId {
    pub fn new(value: impl Into<String>) -> Self {
        ClientId(value.into())
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
