//! The server's endpoint as every request reaches it: its URL, how requests leave the page
//! (the browser's `fetch` or the host's), the host's own headers, and the credential the
//! person's sign-in gave. Both eras and the era probe send through [`Endpoint::send`], so
//! what a host configures holds for every request of the connection: POST, the GET
//! stream, DELETE and the probe.

use std::rc::Rc;

use mcp_elicit::driver::HttpRequest;
use web_sys::AbortSignal;

use super::events::ClientError;
use crate::auth::SignIn;
use crate::transport::{self, Fetcher, RawResponse};

/// What the host gave for the HTTP side of a connection (`headers`, `fetch`, `auth` in
/// `McpClient.connect`'s options). Cheap to clone: every session of the connection shares
/// the one sign-in.
#[derive(Clone, Default)]
pub struct HttpOptions {
    pub fetcher: Fetcher,
    /// Sent on every request to the endpoint, after the protocol's own headers; never to
    /// any other origin (the authorization server gets none of them).
    pub headers: Vec<(String, String)>,
    /// Signs the person in when the server asks (401, or 403 `insufficient_scope`).
    pub sign_in: Option<Rc<SignIn>>,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header values may be credentials: names only.
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("HttpOptions")
            .field("headers", &names)
            .field("sign_in", &self.sign_in.is_some())
            .finish()
    }
}

/// The endpoint of one connection.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub url: String,
    pub http: HttpOptions,
}

impl Endpoint {
    pub fn new(url: impl Into<String>, http: HttpOptions) -> Self {
        Endpoint {
            url: url.into(),
            http,
        }
    }

    /// Whether the person is signing in for this endpoint now: time bounds on the server
    /// wait meanwhile.
    pub fn signing_in(&self) -> bool {
        self.http.sign_in.as_ref().is_some_and(|s| s.in_progress())
    }

    /// Sends `request`. When the server asks for authorization and the host let the
    /// person sign in, the sign-in runs (a refresh without the person when it can, else a
    /// card) and the same request is sent again with the new credential, at most
    /// [`crate::auth::MAX_AUTHORIZATIONS_PER_REQUEST`] times; a 401 or 403 is never
    /// handed on while a sign-in could still answer it. The request reached no tool before
    /// its 401, so sending it again runs nothing twice.
    pub async fn send(
        &self,
        request: &HttpRequest,
        signal: Option<&AbortSignal>,
    ) -> Result<RawResponse, ClientError> {
        let mut authorizations = 0;
        loop {
            let response = self.send_once(request, signal).await?;
            let Some(sign_in) = &self.http.sign_in else {
                return Ok(response);
            };
            match sign_in.challenge_of(response.status, response.www_authenticate.as_deref()) {
                Some(challenge) if authorizations < crate::auth::MAX_AUTHORIZATIONS_PER_REQUEST => {
                    authorizations += 1;
                    sign_in.authorize(challenge).await?;
                }
                _ => return Ok(response),
            }
        }
    }

    /// Sends `request` once, with the host's headers and the credential held now: for the
    /// era probe, which signs in outside its own time bound (the person's time is theirs).
    pub async fn send_once(
        &self,
        request: &HttpRequest,
        signal: Option<&AbortSignal>,
    ) -> Result<RawResponse, ClientError> {
        let mut extra = self.http.headers.clone();
        if let Some(credential) = self.http.sign_in.as_ref().and_then(|s| s.authorization()) {
            extra.push(("Authorization".into(), credential));
        }
        Ok(transport::send_request(&self.http.fetcher, &self.url, request, &extra, signal).await?)
    }
}
