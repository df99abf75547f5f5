//! MCP authorization (the 2025-11-25 specification and the 2026-07-28 draft), as a
//! machine free of IO: facts in, requests out. No clock, no randomness, no network:
//! the IO sends what the machine asks for, draws the random bytes and hashes the PKCE
//! verifier, shows the sign-in card, opens the popup, and owns token expiry.
//!
//! # Order of calls
//!
//! ```text
//! challenge::parse(www_authenticate)?          a 401/403's header, when it had one
//! Flow::start(config, server_url, challenge, known, entropy)
//! loop flow.poll():
//!   Step::Fetch(req)   ─ send req ─▶ flow.handle_response(AuthResponse{..})
//!                                 or flow.handle_unreachable(detail)  (network, CORS)
//!   Step::SignIn(card) ─ show card; on the person's click open card.authorization_url;
//!                        the callback page hands back code/state/iss:
//!                        flow.handle_callback(params) ─▶ Accepted       poll again
//!                                                    ─▶ Refused        card shows why; Sign in again
//!                                                    ─▶ Ignored(why)   not for this flow; nothing changed
//!   Step::Done(grant)  ─ store grant (and grant.registration for grant.issuer); send the
//!                        MCP request again with `Authorization: Bearer <access token>`
//!   Step::Failed(err)  ─ show err.to_string()
//! ```
//!
//! What the machine does between the steps, in order:
//!
//! 1. **Refresh first** when `known.grant` has a refresh token and there is no challenge
//!    (the IO found the token expired): one token request to the grant's own token
//!    endpoint. Refused: go on with discovery, as below, to a new sign-in.
//! 2. **Protected resource metadata** (RFC 9728): the challenge's `resource_metadata`,
//!    then the well-known URI with the server's path, then at the root; the first that
//!    answers 200 counts. Its `resource` must name this server (same origin, the server's
//!    path or a parent of it), or the flow fails ([`AuthError::ResourceMismatch`]) before
//!    anything is sent to an authorization server. The first of `authorization_servers`
//!    is the issuer.
//! 3. **Authorization server metadata** (RFC 8414, OpenID Connect Discovery): the
//!    well-known URIs of the issuer in the spec's order ([`urls`]). Its `issuer` must be
//!    exactly the issuer they were built from ([`AuthError::IssuerMismatch`]); it must
//!    offer PKCE S256.
//! 4. No resource metadata at all: the 2025-03-26 fallbacks. The issuer is the server's
//!    origin; its metadata is looked for there, and without it the endpoints are
//!    `/authorize`, `/token` and `/register` at that origin.
//! 5. With a refresh token for this issuer and resource (and a challenge that is not a
//!    step-up), refresh; refused: a new sign-in.
//! 6. **Who the client is**, at this issuer: a client id from the host (pre-registered),
//!    else a registration kept for this very issuer (never one from another), else a
//!    client ID metadata document (`client_metadata_url`) when the server says
//!    `client_id_metadata_document_supported`, else dynamic registration (RFC 7591, with
//!    `application_type` at 2026-07-28). A new registration comes back in the grant, for
//!    the IO to keep under its issuer.
//! 7. **Sign-in**: an authorization URL with PKCE S256, `state`, `resource` and the
//!    scopes. The callback must carry the flow's `state` (else it is ignored), and an
//!    `iss` equal to the issuer when present, or when the server advertised
//!    `authorization_response_iss_parameter_supported` (RFC 9207), compared as text.
//! 8. **Token request** with the code, the verifier, `redirect_uri` and `resource`,
//!    authenticated as the registration says (`none`, `client_secret_post`,
//!    `client_secret_basic`).
//!
//! # Scopes
//!
//! The challenge's `scope`; else the resource metadata's `scopes_supported`; else the
//! host's `scope`; else none (no `scope` parameter). A step-up (a 403 with
//! `insufficient_scope`) asks for the challenged scopes, and at 2026-07-28 for the union
//! with the scopes the earlier grant asked for. `offline_access` is asked for only when
//! the authorization server lists it in its `scopes_supported`, and removed otherwise.
//!
//! # Limits
//!
//! Every list the flow walks is fixed by the specification (at most 3 places for each
//! metadata document), so one flow makes at most 9 requests besides the sign-in. The
//! IO enforces [`MAX_AUTHORIZATIONS_PER_REQUEST`] across the flows one MCP request
//! starts. Sizes: [`challenge::MAX_CHALLENGE_BYTES`], [`MAX_METADATA_BYTES`],
//! [`MAX_SCOPES`], [`urls::MAX_URL_BYTES`], [`error::MAX_SERVER_TEXT_CHARS`].
//!
//! # Example
//!
//! ```
//! use mcp_elicit::auth::{
//!     challenge, pkce, AuthConfig, AuthProtocol, AuthResponse, CallbackOutcome,
//!     CallbackParams, Entropy, Flow, Known, Step,
//! };
//!
//! let config = AuthConfig::new("https://app.example/cb", AuthProtocol::Legacy2025_11_25);
//! let challenge = challenge::parse(
//!     r#"Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp""#,
//! ).unwrap();
//! // The IO draws 16 + 32 random bytes and hashes the verifier with SHA-256:
//! let verifier = pkce::verifier_from_bytes(&[7; 32]);
//! let entropy = Entropy {
//!     state: pkce::state_from_bytes(&[9; 16]),
//!     challenge_s256: pkce::challenge_from_digest(&[1; 32]), // SHA-256(verifier) in real use
//!     verifier,
//! };
//! let mut flow = Flow::start(config, "https://mcp.example/mcp", Some(challenge), Known::default(), entropy);
//!
//! let json = |body: &str| AuthResponse::json(200, body);
//! let Step::Fetch(req) = flow.poll() else { panic!() };
//! assert_eq!(req.url, "https://mcp.example/.well-known/oauth-protected-resource/mcp");
//! flow.handle_response(json(r#"{"resource":"https://mcp.example/mcp",
//!     "authorization_servers":["https://as.example"]}"#));
//! let Step::Fetch(req) = flow.poll() else { panic!() };
//! assert_eq!(req.url, "https://as.example/.well-known/oauth-authorization-server");
//! flow.handle_response(json(r#"{"issuer":"https://as.example",
//!     "authorization_endpoint":"https://as.example/authorize",
//!     "token_endpoint":"https://as.example/token",
//!     "registration_endpoint":"https://as.example/register",
//!     "code_challenge_methods_supported":["S256"]}"#));
//! let Step::Fetch(req) = flow.poll() else { panic!() }; // dynamic client registration
//! assert_eq!(req.url, "https://as.example/register");
//! flow.handle_response(AuthResponse::json(201, r#"{"client_id":"c1"}"#));
//! let Step::SignIn(card) = flow.poll() else { panic!() };
//! assert_eq!((card.server_host.as_str(), card.issuer_host.as_str()), ("mcp.example", "as.example"));
//! // ... the person clicks Sign in; the popup comes back to the callback page:
//! let state = pkce::state_from_bytes(&[9; 16]).secret().to_string();
//! let back = CallbackParams { code: Some("abc".into()), state: Some(state), ..Default::default() };
//! assert_eq!(flow.handle_callback(back.clone()), CallbackOutcome::Accepted);
//! assert!(matches!(flow.handle_callback(back), CallbackOutcome::Ignored(_))); // a replay
//! let Step::Fetch(req) = flow.poll() else { panic!() };
//! assert_eq!(req.url, "https://as.example/token");
//! flow.handle_response(json(r#"{"access_token":"t","token_type":"Bearer","expires_in":60}"#));
//! let Step::Done(grant) = flow.poll() else { panic!() };
//! assert_eq!(grant.access_token.secret(), "t");
//! assert_eq!(grant.registration.unwrap().client_id.as_str(), "c1"); // keep for as.example
//! ```

pub mod challenge;
mod error;
mod flow;
mod form;
mod metadata;
pub mod pkce;
mod secret;
pub mod urls;

pub use challenge::Challenge;
pub use error::{AuthError, MAX_SERVER_TEXT_CHARS};
pub use flow::Flow;
pub use metadata::MAX_METADATA_BYTES;
pub use secret::{
    AccessToken, AuthorizationCode, ClientId, ClientSecret, CsrfState, PkceVerifier, RefreshToken,
};

/// Most sign-ins (flows that reach [`Step::SignIn`]) one MCP request may start: the
/// first, a step-up, and one more. The MCP spec asks clients to bound retries so a server
/// that keeps answering 403 `insufficient_scope` cannot loop the person through sign-in
/// forever; the conformance suite's `scope-retry-limit` counts at most 3. The IO counts
/// them per request (the machine sees one flow) and, at the limit, shows the last error.
pub const MAX_AUTHORIZATIONS_PER_REQUEST: u32 = 3;

/// Most scopes one sign-in asks for (from a challenge or `scopes_supported`). Each goes
/// into the authorization URL and onto the consent screen; real servers ask for a few.
/// A longer list is refused in words ([`AuthError::TooManyScopes`]).
pub const MAX_SCOPES: usize = 100;

/// The protocol revision whose authorization rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthProtocol {
    /// 2025-11-25 (and the 2025-03-26 fallbacks).
    Legacy2025_11_25,
    /// 2026-07-28: `application_type` in registration, the step-up scope union.
    Modern2026_07_28,
}

/// What the host configured for sign-in, the same for every flow with a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// Where the authorization server sends the person back (the callback page).
    pub redirect_url: String,
    /// A pre-registered client id; used at whatever authorization server the resource
    /// names (the host configured it for this server).
    pub client_id: Option<ClientId>,
    /// The pre-registered client's secret (a confidential client).
    pub client_secret: Option<ClientSecret>,
    /// An HTTPS URL of this client's metadata document, used as its client id where the
    /// authorization server supports client ID metadata documents.
    pub client_metadata_url: Option<String>,
    /// Scopes the host asks for when neither the challenge nor the resource says.
    pub scope: Option<String>,
    pub protocol: AuthProtocol,
    /// `client_name` in dynamic registration.
    pub client_name: String,
}

impl AuthConfig {
    pub fn new(redirect_url: impl Into<String>, protocol: AuthProtocol) -> Self {
        AuthConfig {
            redirect_url: redirect_url.into(),
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            scope: None,
            protocol,
            client_name: "mcp-elicit".to_string(),
        }
    }
}

/// How the client authenticates at the token endpoint (RFC 7591 §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAuthMethod {
    /// A public client: `client_id` in the body.
    None,
    /// `client_id` and `client_secret` in the body.
    ClientSecretPost,
    /// HTTP Basic with the form-encoded id and secret.
    ClientSecretBasic,
}

impl TokenAuthMethod {
    pub fn name(self) -> &'static str {
        match self {
            TokenAuthMethod::None => "none",
            TokenAuthMethod::ClientSecretPost => "client_secret_post",
            TokenAuthMethod::ClientSecretBasic => "client_secret_basic",
        }
    }
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "none" => Some(TokenAuthMethod::None),
            "client_secret_post" => Some(TokenAuthMethod::ClientSecretPost),
            "client_secret_basic" => Some(TokenAuthMethod::ClientSecretBasic),
            _ => None,
        }
    }
}

/// A client registration at one authorization server, kept by the IO under `issuer` and
/// used only there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub issuer: String,
    pub client_id: ClientId,
    pub client_secret: Option<ClientSecret>,
    pub auth_method: TokenAuthMethod,
    /// The redirect URL it was registered with; another one registers again.
    pub redirect_uri: String,
}

/// What the host's storage has for this server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    /// Registrations, one per issuer.
    pub registrations: Vec<Registration>,
    /// The last grant for this server (its refresh token, scopes, issuer).
    pub grant: Option<Grant>,
}

/// Randomness and PKCE, made by the IO for one flow (see [`pkce`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entropy {
    /// base64url of at least [`pkce::MIN_STATE_BYTES`] random bytes.
    pub state: CsrfState,
    /// From 32 random bytes: [`pkce::verifier_from_bytes`].
    pub verifier: PkceVerifier,
    /// [`pkce::challenge_from_digest`] of SHA-256(verifier).
    pub challenge_s256: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMethod {
    Get,
    Post,
}

/// One HTTP request for the IO to send (with `fetch`, `credentials: "omit"`, following
/// no redirect to another origin). Headers in the order to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthRequest {
    pub method: AuthMethod,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// A form (token requests) or JSON (registration), as `Content-Type` says.
    pub body: Option<String>,
}

impl AuthRequest {
    /// A header's value, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What came back, as facts. The IO reads at most [`MAX_METADATA_BYTES`] + 1 bytes of
/// the body (a longer body is refused in words, unread).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub www_authenticate: Option<String>,
    pub body: Vec<u8>,
}

impl AuthResponse {
    /// A JSON answer (for tests and examples).
    pub fn json(status: u16, body: &str) -> Self {
        AuthResponse {
            status,
            content_type: Some("application/json".to_string()),
            www_authenticate: None,
            body: body.as_bytes().to_vec(),
        }
    }
}

/// The sign-in card: which server asks, and where the person will sign in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignIn {
    /// Open in a popup, only on the person's click.
    pub authorization_url: String,
    /// The MCP server's host.
    pub server_host: String,
    /// The authorization server's host.
    pub issuer_host: String,
    /// Why the last attempt did not complete (the person declined, …), to show on the
    /// card next to **Sign in**.
    pub refused: Option<AuthError>,
    /// A registration this flow made, to keep under its issuer now: the person may leave
    /// the page for the authorization page (a blocked popup) and come back to a new flow,
    /// which must exchange the code as the client it was issued to.
    pub registration: Option<Registration>,
}

/// The parameters the callback page read from its URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

/// What [`Flow::handle_callback`] made of a callback.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum CallbackOutcome {
    /// Taken: poll for the token request (or the failure, when `iss` was wrong).
    Accepted,
    /// The authorization server sent the person back with an error; the flow still waits
    /// for a sign-in, and the card shows why ([`SignIn::refused`]).
    Refused,
    /// Not for this flow, or not now; the flow is unchanged.
    Ignored(IgnoredCallback),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoredCallback {
    /// Its `state` is not this flow's (another flow's, or forged).
    StateMismatch,
    /// The flow is not waiting for a sign-in (its code was taken already: a replay).
    NotWaiting,
}

/// A token, and what it is for. The IO keeps it per (issuer, resource) and passes it
/// back as [`Known::grant`] next time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub access_token: AccessToken,
    pub refresh_token: Option<RefreshToken>,
    /// Seconds, as the token endpoint said (the IO owns the clock).
    pub expires_in: Option<u64>,
    /// The scopes asked for.
    pub scopes_requested: Vec<String>,
    /// The scopes the token endpoint said it granted, when it said.
    pub scopes_granted: Option<Vec<String>>,
    pub issuer: String,
    /// The `resource` the token is for (as sent).
    pub resource: String,
    pub token_endpoint: String,
    pub client_id: ClientId,
    /// A registration made by this flow, to keep under `issuer`.
    pub registration: Option<Registration>,
}

/// What the IO does next.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Step {
    Fetch(AuthRequest),
    SignIn(SignIn),
    Done(Grant),
    Failed(AuthError),
}
