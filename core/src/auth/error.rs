//! Why a sign-in could not go on, as data with a stable [`AuthError::code`]; `Display` is
//! the sentence to show, naming who refused what. No variant holds a token, a code, a
//! verifier, a secret or a `state`: server text that could echo one (an
//! `error_description`) is scrubbed of them before it is kept, and cut to
//! [`MAX_SERVER_TEXT_CHARS`].

use std::fmt;

/// Most characters of server text (an `error_description`, a detail) an error keeps.
pub const MAX_SERVER_TEXT_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// The `WWW-Authenticate` value is longer than the client reads.
    ChallengeTooLong { bytes: usize, limit: usize },
    /// The `WWW-Authenticate` value has no `Bearer` challenge, or one that cannot be read.
    ChallengeUnreadable { detail: String },
    /// A scope list (a challenge's, or metadata's `scopes_supported`) is longer than the
    /// client asks for; `whose` names it.
    TooManyScopes {
        whose: String,
        count: usize,
        limit: usize,
    },
    /// A URL the flow needs (the server's, the redirect URL, one from metadata) cannot be
    /// used: `what` names it.
    BadUrl { what: String, detail: String },
    /// A metadata document (protected resource, authorization server) cannot be used:
    /// `what` names it, with the host that sent it.
    MetadataUnreadable { what: String, detail: String },
    /// The protected resource metadata names another resource than this server.
    ResourceMismatch { server: String, resource: String },
    /// The protected resource metadata lists no authorization server.
    NoAuthorizationServer { server_host: String },
    /// No metadata was found for the authorization server the resource names.
    AuthServerMetadataNotFound { issuer: String, tried: usize },
    /// The authorization server's metadata names another issuer than the one it was
    /// fetched for (RFC 8414 §3.3).
    IssuerMismatch { expected: String, found: String },
    /// The authorization server does not offer PKCE with S256.
    PkceUnsupported { as_host: String },
    /// No way to say who this client is to the authorization server: no client id from the
    /// host, no client ID metadata document support, no registration endpoint.
    NoClientIdentity { as_host: String },
    /// The authorization server registered the client for an authentication method this
    /// client does not have.
    UnsupportedAuthMethod { as_host: String, method: String },
    /// Dynamic client registration refused (an HTTP error, with OAuth's `error`).
    RegistrationRefused {
        as_host: String,
        status: u16,
        error: Option<String>,
        description: Option<String>,
    },
    /// The registration answer cannot be read.
    RegistrationUnreadable { as_host: String, detail: String },
    /// The token endpoint refused the code or the refresh token.
    TokenRefused {
        as_host: String,
        status: u16,
        error: Option<String>,
        description: Option<String>,
    },
    /// The token endpoint's answer cannot be used (not JSON, no `access_token`, a token
    /// type other than Bearer, …).
    TokenUnreadable { as_host: String, detail: String },
    /// RFC 9207: the authorization response's `iss` is not the issuer the flow recorded
    /// (`found: None`: it is missing while the server advertised sending it).
    IssMismatch {
        expected: String,
        found: Option<String>,
    },
    /// The person (or the authorization server) declined the sign-in. Kept on
    /// [`super::SignIn::refused`]; the sign-in can be tried again.
    SignInRefused {
        as_host: String,
        error: String,
        description: Option<String>,
    },
    /// A request could not be sent or answered (network failure, or an answer without
    /// CORS headers, which a page cannot tell apart).
    Unreachable { endpoint: String, detail: String },
    /// The IO called the machine out of order (a bug in the IO).
    Usage(String),
}

impl AuthError {
    /// A stable name for the kind of failure, for hosts and tests.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::ChallengeTooLong { .. } => "challenge_too_long",
            AuthError::ChallengeUnreadable { .. } => "challenge_unreadable",
            AuthError::TooManyScopes { .. } => "too_many_scopes",
            AuthError::BadUrl { .. } => "bad_url",
            AuthError::MetadataUnreadable { .. } => "metadata_unreadable",
            AuthError::ResourceMismatch { .. } => "resource_mismatch",
            AuthError::NoAuthorizationServer { .. } => "no_authorization_server",
            AuthError::AuthServerMetadataNotFound { .. } => "auth_server_metadata_not_found",
            AuthError::IssuerMismatch { .. } => "issuer_mismatch",
            AuthError::PkceUnsupported { .. } => "pkce_unsupported",
            AuthError::NoClientIdentity { .. } => "no_client_identity",
            AuthError::UnsupportedAuthMethod { .. } => "unsupported_auth_method",
            AuthError::RegistrationRefused { .. } => "registration_refused",
            AuthError::RegistrationUnreadable { .. } => "registration_unreadable",
            AuthError::TokenRefused { .. } => "token_refused",
            AuthError::TokenUnreadable { .. } => "token_unreadable",
            AuthError::IssMismatch { .. } => "iss_mismatch",
            AuthError::SignInRefused { .. } => "sign_in_refused",
            AuthError::Unreachable { .. } => "unreachable",
            AuthError::Usage(_) => "usage",
        }
    }
}

fn oauth_error(
    f: &mut fmt::Formatter<'_>,
    error: &Option<String>,
    description: &Option<String>,
) -> fmt::Result {
    match (error, description) {
        (Some(e), Some(d)) => write!(f, " ({e}: {d})"),
        (Some(e), None) => write!(f, " ({e})"),
        (None, Some(d)) => write!(f, " ({d})"),
        (None, None) => Ok(()),
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthError::ChallengeTooLong { bytes, limit } => write!(
                f,
                "The server's sign-in challenge (WWW-Authenticate) is {bytes} bytes long; \
                 this client reads at most {limit}."
            ),
            AuthError::ChallengeUnreadable { detail } => write!(
                f,
                "The server's sign-in challenge (WWW-Authenticate) cannot be read: {detail}."
            ),
            AuthError::TooManyScopes {
                whose,
                count,
                limit,
            } => write!(
                f,
                "{whose} asks for {count} scopes; this client asks for at most {limit} in one sign-in."
            ),
            AuthError::BadUrl { what, detail } => write!(f, "{what} cannot be used: {detail}."),
            AuthError::MetadataUnreadable { what, detail } => {
                write!(f, "{what} cannot be used: {detail}.")
            }
            AuthError::ResourceMismatch { server, resource } => write!(
                f,
                "Sign-in stopped: this server's tokens would be issued for {resource}, but \
                 this server is {server}. Its metadata names another resource, so nothing \
                 is authorized."
            ),
            AuthError::NoAuthorizationServer { server_host } => write!(
                f,
                "{server_host} asks for sign-in but its metadata names no authorization server."
            ),
            AuthError::AuthServerMetadataNotFound { issuer, tried } => write!(
                f,
                "The authorization server {issuer} publishes no metadata at any of the \
                 {tried} places the specification lists."
            ),
            AuthError::IssuerMismatch { expected, found } => write!(
                f,
                "Sign-in stopped: this server's tokens would come from {expected}, but that \
                 server's metadata says it is {found}."
            ),
            AuthError::PkceUnsupported { as_host } => write!(
                f,
                "{as_host} does not offer PKCE with S256, which a sign-in from this client needs."
            ),
            AuthError::NoClientIdentity { as_host } => write!(
                f,
                "{as_host} takes no client registration and this page has no client id for it; \
                 a host can pass clientId (or clientMetadataUrl)."
            ),
            AuthError::UnsupportedAuthMethod { as_host, method } => write!(
                f,
                "{as_host} registered this client for token endpoint authentication \
                 \"{method}\", which this client does not have."
            ),
            AuthError::RegistrationRefused {
                as_host,
                status,
                error,
                description,
            } => {
                write!(
                    f,
                    "{as_host} refused to register this client (HTTP {status})"
                )?;
                oauth_error(f, error, description)?;
                f.write_str(".")
            }
            AuthError::RegistrationUnreadable { as_host, detail } => write!(
                f,
                "{as_host} answered the client registration with something this client cannot use: {detail}."
            ),
            AuthError::TokenRefused {
                as_host,
                status,
                error,
                description,
            } => {
                write!(f, "{as_host} refused to issue a token (HTTP {status})")?;
                oauth_error(f, error, description)?;
                f.write_str(".")
            }
            AuthError::TokenUnreadable { as_host, detail } => write!(
                f,
                "{as_host} answered the token request with something this client cannot use: {detail}."
            ),
            AuthError::IssMismatch {
                expected,
                found: Some(found),
            } => write!(
                f,
                "Sign-in stopped: this server's tokens would come from {expected}, but the \
                 sign-in answer says it came from {found}."
            ),
            AuthError::IssMismatch {
                expected,
                found: None,
            } => write!(
                f,
                "Sign-in stopped: this server's tokens would come from {expected}, which says \
                 it names itself in every sign-in answer, but this answer names no one."
            ),
            AuthError::SignInRefused {
                as_host,
                error,
                description,
            } => {
                write!(f, "The sign-in at {as_host} did not complete")?;
                oauth_error(f, &Some(error.clone()), description)?;
                f.write_str(".")
            }
            AuthError::Unreachable { endpoint, detail } => write!(
                f,
                "Could not reach {endpoint} ({detail}). If that server sends no CORS headers, \
                 a page cannot read it: a host can pass `fetch` to route the request through \
                 its own backend."
            ),
            AuthError::Usage(what) => write!(f, "The sign-in was driven out of order: {what}."),
        }
    }
}

impl std::error::Error for AuthError {}

/// Server text as an error keeps it: without any of `secrets` (replaced by `[redacted]`),
/// without control characters, and at most [`MAX_SERVER_TEXT_CHARS`] characters.
pub(crate) fn server_text<S: AsRef<str>>(text: &str, secrets: &[S]) -> String {
    let mut text = text.to_string();
    for secret in secrets.iter().map(AsRef::as_ref).filter(|s| !s.is_empty()) {
        if text.contains(secret) {
            text = text.replace(secret, "[redacted]");
        }
    }
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == MAX_SERVER_TEXT_CHARS {
            out.push('…');
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}
