//! The machine: [`Flow`]. Its manual (the order of calls, what happens between steps) is
//! the module doc of [`super`]; this file keeps each state's data in its variant and
//! moves between them.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::json;

use super::challenge::{split_scopes, Challenge};
use super::error::{server_text, AuthError};
use super::metadata::{self, ServerMetadata};
use super::urls::{self, host_of, shown, HttpUrl};
use super::{
    form, AccessToken, AuthConfig, AuthMethod, AuthProtocol, AuthRequest, AuthResponse,
    AuthorizationCode, CallbackOutcome, CallbackParams, ClientId, ClientSecret, Entropy, Grant,
    IgnoredCallback, Known, RefreshToken, Registration, SignIn, Step, TokenAuthMethod, MAX_SCOPES,
};

/// One sign-in for one server: discovery, client identity, the person's part, the token.
/// Created by [`Flow::start`], driven by [`Flow::poll`] and the `handle_*` inputs.
#[derive(Debug)]
pub struct Flow {
    config: AuthConfig,
    server_url: String,
    challenge: Option<Challenge>,
    known: Known,
    entropy: Entropy,
    /// A refresh was tried (and refused): not again in this flow.
    refresh_tried: bool,
    state: State,
}

#[derive(Debug)]
enum State {
    /// A refresh-token grant in flight. `then`: what discovery found, when it ran first.
    Refreshing(Refreshing),
    /// Trying the places protected resource metadata may be.
    FindingResource(Finding),
    /// Trying the places authorization server metadata may be.
    FindingServer(FindingServer),
    /// Dynamic client registration in flight.
    Registering(Context),
    /// Waiting for the person's sign-in (the callback).
    SigningIn(Ready),
    /// The code's token request in flight.
    Exchanging(Ready, AuthorizationCode),
    Done(Box<Grant>),
    Failed(AuthError),
}

#[derive(Debug)]
struct Refreshing {
    grant: Box<Grant>,
    refresh_token: RefreshToken,
    client: Client,
    token_endpoint: String,
    then: Option<Context>,
}

/// A list of URLs tried in order; the first 2xx counts.
#[derive(Debug)]
struct Finding {
    urls: Vec<String>,
    next: usize,
    /// Whether any answered with an HTTP status (else all were unreachable).
    answered: bool,
    /// The first unreachable URL and why.
    unreachable: Option<(String, String)>,
}

impl Finding {
    fn new(urls: Vec<String>) -> Self {
        Finding {
            urls,
            next: 0,
            answered: false,
            unreachable: None,
        }
    }
    fn current(&self) -> Option<&String> {
        self.urls.get(self.next)
    }
}

#[derive(Debug)]
struct FindingServer {
    finding: Finding,
    resource: String,
    resource_scopes: Option<Vec<String>>,
    issuer: String,
    /// No resource metadata: the 2025-03-26 fallbacks apply (default endpoints).
    legacy: bool,
}

/// What discovery found.
#[derive(Debug, Clone)]
struct Context {
    resource: String,
    resource_scopes: Option<Vec<String>>,
    meta: ServerMetadata,
}

#[derive(Debug, Clone)]
struct Client {
    id: ClientId,
    secret: Option<ClientSecret>,
    method: TokenAuthMethod,
    registration: Option<Registration>,
}

#[derive(Debug)]
struct Ready {
    context: Context,
    client: Client,
    scopes: Vec<String>,
    authorization_url: String,
    refused: Option<AuthError>,
}

impl Flow {
    /// A flow for the MCP server at `server_url`, after it answered with `challenge` (the
    /// parsed `WWW-Authenticate` of its 401 or 403; `None` when it sent none, or when the
    /// IO starts the flow because the stored token expired). `known` is what storage has
    /// for this server; `entropy` is fresh for this flow.
    pub fn start(
        config: AuthConfig,
        server_url: &str,
        challenge: Option<Challenge>,
        known: Known,
        entropy: Entropy,
    ) -> Flow {
        let mut flow = Flow {
            config,
            server_url: server_url.to_string(),
            challenge,
            known,
            entropy,
            refresh_tried: false,
            state: State::Failed(AuthError::Usage("not started".into())),
        };
        flow.state = flow.first_state();
        flow
    }

    fn first_state(&self) -> State {
        let server = match self.server() {
            Ok(server) => server,
            Err(e) => return State::Failed(e),
        };
        if let Err(why) = urls::check_redirect_url(&self.config.redirect_url) {
            return State::Failed(AuthError::BadUrl {
                what: "The sign-in redirect URL".into(),
                detail: why,
            });
        }
        if self.challenge.is_none() {
            if let Some(refreshing) = self.refreshing(None, &server) {
                return State::Refreshing(refreshing);
            }
        }
        self.finding_resource(&server)
    }

    fn server(&self) -> Result<HttpUrl, AuthError> {
        HttpUrl::parse(&self.server_url).map_err(|why| AuthError::BadUrl {
            what: "This server's address".into(),
            detail: why,
        })
    }

    fn finding_resource(&self, server: &HttpUrl) -> State {
        let mut urls = Vec::new();
        if let Some(url) = self
            .challenge
            .as_ref()
            .and_then(|c| c.resource_metadata.as_ref())
        {
            match HttpUrl::parse(url) {
                Ok(parsed) if !parsed.fragment => urls.push(url.clone()),
                Ok(_) | Err(_) => {
                    return State::Failed(AuthError::BadUrl {
                        what: "The resource metadata URL in the server's challenge".into(),
                        detail: HttpUrl::parse(url)
                            .err()
                            .unwrap_or_else(|| "it has a fragment".into()),
                    })
                }
            }
        }
        for url in urls::prm_well_known(server) {
            if !urls.contains(&url) {
                urls.push(url);
            }
        }
        State::FindingResource(Finding::new(urls))
    }

    /// What the IO does next. Asking twice without an input in between gives the same
    /// step (a request is not "sent" by asking for it).
    pub fn poll(&self) -> Step {
        match &self.state {
            State::Refreshing(r) => Step::Fetch(self.refresh_request(r)),
            State::FindingResource(f) => match f.current() {
                Some(url) => Step::Fetch(get(url)),
                None => Step::Failed(AuthError::Usage("discovery has no URL left".into())),
            },
            State::FindingServer(f) => match f.finding.current() {
                Some(url) => Step::Fetch(get(url)),
                None => Step::Failed(AuthError::Usage("discovery has no URL left".into())),
            },
            State::Registering(context) => Step::Fetch(self.registration_request(context)),
            State::SigningIn(ready) => Step::SignIn(SignIn {
                authorization_url: ready.authorization_url.clone(),
                server_host: host_of(&self.server_url),
                issuer_host: host_of(&ready.context.meta.authorization_endpoint),
                refused: ready.refused.clone(),
                registration: ready.client.registration.clone(),
            }),
            State::Exchanging(ready, code) => Step::Fetch(self.code_request(ready, code)),
            State::Done(grant) => Step::Done((**grant).clone()),
            State::Failed(e) => Step::Failed(e.clone()),
        }
    }

    /// The answer to the last [`Step::Fetch`].
    pub fn handle_response(&mut self, response: AuthResponse) {
        let state = std::mem::replace(
            &mut self.state,
            State::Failed(AuthError::Usage("a response while one was handled".into())),
        );
        self.state = match state {
            State::Refreshing(r) => self.refreshed(r, Ok(response)),
            State::FindingResource(f) => self.resource_answered(f, Ok(response)),
            State::FindingServer(f) => self.server_answered(f, Ok(response)),
            State::Registering(context) => self.registered(context, Ok(response)),
            State::Exchanging(ready, code) => self.exchanged(ready, code, Ok(response)),
            other => other,
        };
    }

    /// The last [`Step::Fetch`] got no answer: the network failed, or the answer had no
    /// CORS headers (a page cannot tell the two apart). `detail` is the IO's words for it.
    pub fn handle_unreachable(&mut self, detail: String) {
        let state = std::mem::replace(
            &mut self.state,
            State::Failed(AuthError::Usage("a failure while one was handled".into())),
        );
        let detail = server_text(&detail, &self.secrets());
        self.state = match state {
            State::Refreshing(r) => self.refreshed(r, Err(detail)),
            State::FindingResource(f) => self.resource_answered(f, Err(detail)),
            State::FindingServer(f) => self.server_answered(f, Err(detail)),
            State::Registering(context) => self.registered(context, Err(detail)),
            State::Exchanging(ready, code) => self.exchanged(ready, code, Err(detail)),
            other => other,
        };
    }

    /// What the callback page read. A callback whose `state` is not this flow's, or one
    /// that comes when the flow is not waiting (a replay after the code was taken), is
    /// ignored and changes nothing.
    pub fn handle_callback(&mut self, params: CallbackParams) -> CallbackOutcome {
        if params.state.as_deref() != Some(self.entropy.state.secret()) {
            return CallbackOutcome::Ignored(IgnoredCallback::StateMismatch);
        }
        let State::SigningIn(ready) = &mut self.state else {
            return CallbackOutcome::Ignored(IgnoredCallback::NotWaiting);
        };
        let meta = &ready.context.meta;
        // RFC 9207 §2.4: compare a present `iss` always, and require it when advertised;
        // as text, with no normalisation.
        let iss_error = match &params.iss {
            Some(iss) if *iss != meta.issuer => Some(AuthError::IssMismatch {
                expected: meta.issuer.clone(),
                found: Some(server_text::<&str>(iss, &[])),
            }),
            None if meta.iss_parameter_supported => Some(AuthError::IssMismatch {
                expected: meta.issuer.clone(),
                found: None,
            }),
            _ => None,
        };
        if let Some(e) = iss_error {
            self.state = State::Failed(e);
            return CallbackOutcome::Accepted;
        }
        let as_host = host_of(&meta.authorization_endpoint);
        let code = match (params.error, params.code) {
            (Some(error), _) => {
                let secrets = self.secrets();
                let State::SigningIn(ready) = &mut self.state else {
                    return CallbackOutcome::Ignored(IgnoredCallback::NotWaiting);
                };
                ready.refused = Some(AuthError::SignInRefused {
                    as_host,
                    error: server_text(&error, &secrets),
                    description: params.error_description.map(|d| server_text(&d, &secrets)),
                });
                return CallbackOutcome::Refused;
            }
            (None, Some(code)) if !code.is_empty() => code,
            (None, _) => {
                ready.refused = Some(AuthError::SignInRefused {
                    as_host,
                    error: "invalid_request".into(),
                    description: Some("the answer carried no authorization code".into()),
                });
                return CallbackOutcome::Refused;
            }
        };
        let state = std::mem::replace(
            &mut self.state,
            State::Failed(AuthError::Usage("a callback while one was handled".into())),
        );
        self.state = match state {
            State::SigningIn(ready) => State::Exchanging(ready, AuthorizationCode::new(code)),
            other => other,
        };
        CallbackOutcome::Accepted
    }

    /// Everything an error text must not contain.
    fn secrets(&self) -> Vec<String> {
        let mut out = vec![
            self.entropy.verifier.secret().to_string(),
            self.entropy.state.secret().to_string(),
        ];
        if let State::Exchanging(_, code) = &self.state {
            out.push(code.secret().to_string());
        }
        if let Some(secret) = &self.config.client_secret {
            out.push(secret.secret().to_string());
        }
        if let Some(grant) = &self.known.grant {
            out.push(grant.access_token.secret().to_string());
            if let Some(r) = &grant.refresh_token {
                out.push(r.secret().to_string());
            }
        }
        for registration in &self.known.registrations {
            if let Some(secret) = &registration.client_secret {
                out.push(secret.secret().to_string());
            }
        }
        out
    }

    fn scrub(&self, text: &str, also: &[&str]) -> String {
        let owned = self.secrets();
        let mut all: Vec<&str> = owned.iter().map(String::as_str).collect();
        all.extend_from_slice(also);
        server_text(text, &all)
    }

    // ---- discovery ----

    fn resource_answered(&self, mut f: Finding, answer: Result<AuthResponse, String>) -> State {
        let url = f.current().cloned().unwrap_or_default();
        let response = match answer {
            Err(detail) => {
                f.unreachable.get_or_insert((url, detail));
                return self.next_resource(f);
            }
            Ok(r) if !(200..300).contains(&r.status) => {
                f.answered = true;
                return self.next_resource(f);
            }
            Ok(r) => r,
        };
        let what = || format!("The resource metadata at {}", shown(&url));
        let prm =
            match metadata::resource_metadata(&response.body, response.content_type.as_deref()) {
                Ok(prm) => prm,
                Err(detail) => {
                    return State::Failed(AuthError::MetadataUnreadable {
                        what: what(),
                        detail: self.scrub(&detail, &[]),
                    })
                }
            };
        let server = match self.server() {
            Ok(s) => s,
            Err(e) => return State::Failed(e),
        };
        if !urls::resource_names_server(&prm.resource, &server) {
            return State::Failed(AuthError::ResourceMismatch {
                server: shown(&self.server_url),
                resource: server_text::<&str>(&prm.resource, &[]),
            });
        }
        let Some(issuer) = prm.authorization_servers.first().cloned() else {
            return State::Failed(AuthError::NoAuthorizationServer {
                server_host: server.host,
            });
        };
        let issuer_url = match HttpUrl::parse(&issuer) {
            Ok(u) if u.query.is_none() && !u.fragment => u,
            Ok(_) => {
                return State::Failed(AuthError::BadUrl {
                    what: format!(
                        "The authorization server {} that {} names",
                        shown(&issuer),
                        server.host
                    ),
                    detail: "an issuer has no query or fragment".into(),
                })
            }
            Err(why) => {
                return State::Failed(AuthError::BadUrl {
                    what: format!("The authorization server that {} names", server.host),
                    detail: why,
                })
            }
        };
        if let Some(scopes) = &prm.scopes_supported {
            if scopes.len() > MAX_SCOPES {
                return State::Failed(AuthError::TooManyScopes {
                    whose: format!("The resource metadata of {}", server.host),
                    count: scopes.len(),
                    limit: MAX_SCOPES,
                });
            }
        }
        State::FindingServer(FindingServer {
            finding: Finding::new(urls::as_well_known(&issuer_url)),
            resource: prm.resource,
            resource_scopes: prm.scopes_supported,
            issuer,
            legacy: false,
        })
    }

    fn next_resource(&self, mut f: Finding) -> State {
        f.next += 1;
        if f.current().is_some() {
            return State::FindingResource(f);
        }
        if !f.answered {
            if let Some((url, detail)) = f.unreachable {
                return State::Failed(AuthError::Unreachable {
                    endpoint: shown(&url),
                    detail,
                });
            }
        }
        // No resource metadata anywhere: the 2025-03-26 rules. The server's origin is the
        // authorization server, and the token is for the server's own URL.
        let server = match self.server() {
            Ok(s) => s,
            Err(e) => return State::Failed(e),
        };
        let issuer = HttpUrl {
            path: String::new(),
            query: None,
            fragment: false,
            ..server.clone()
        };
        State::FindingServer(FindingServer {
            finding: Finding::new(urls::as_well_known(&issuer)),
            resource: urls::canonical_server_uri(&server),
            resource_scopes: None,
            issuer: server.origin.clone(),
            legacy: true,
        })
    }

    fn server_answered(&self, mut f: FindingServer, answer: Result<AuthResponse, String>) -> State {
        let url = f.finding.current().cloned().unwrap_or_default();
        let response = match answer {
            Err(detail) => {
                f.finding.unreachable.get_or_insert((url, detail));
                return self.next_server(f);
            }
            Ok(r) if !(200..300).contains(&r.status) => {
                f.finding.answered = true;
                return self.next_server(f);
            }
            Ok(r) => r,
        };
        let meta = match metadata::server_metadata(&response.body, response.content_type.as_deref())
        {
            Ok(meta) => meta,
            Err(detail) => {
                return State::Failed(AuthError::MetadataUnreadable {
                    what: format!("The authorization server metadata at {}", shown(&url)),
                    detail: self.scrub(&detail, &[]),
                })
            }
        };
        // RFC 8414 §3.3: the issuer it names is the one its well-known URL was built from,
        // byte for byte, or its endpoints are not used. Under the 2025-03-26 fallback
        // there was no issuer to build from (the server's origin stood in for one): the
        // metadata found at the server's origin may name an issuer with a path, as that
        // revision's servers do (`<origin>/oauth`), but it must be on the server's origin.
        let on_server_origin =
            || HttpUrl::parse(&meta.issuer).is_ok_and(|issuer| issuer.origin == f.issuer);
        if meta.issuer != f.issuer && !(f.legacy && on_server_origin()) {
            return State::Failed(AuthError::IssuerMismatch {
                expected: f.issuer,
                found: server_text::<&str>(&meta.issuer, &[]),
            });
        }
        let s256 = meta
            .code_challenge_methods_supported
            .as_ref()
            .is_some_and(|m| m.iter().any(|m| m == "S256"));
        if !s256 {
            return State::Failed(AuthError::PkceUnsupported {
                as_host: host_of(&f.issuer),
            });
        }
        self.discovered(Context {
            resource: f.resource,
            resource_scopes: f.resource_scopes,
            meta,
        })
    }

    fn next_server(&self, mut f: FindingServer) -> State {
        f.finding.next += 1;
        if f.finding.current().is_some() {
            return State::FindingServer(f);
        }
        if !f.finding.answered {
            if let Some((url, detail)) = f.finding.unreachable {
                return State::Failed(AuthError::Unreachable {
                    endpoint: shown(&url),
                    detail,
                });
            }
        }
        if !f.legacy {
            return State::Failed(AuthError::AuthServerMetadataNotFound {
                tried: f.finding.urls.len(),
                issuer: f.issuer,
            });
        }
        // 2025-03-26 "Fallbacks for Servers without Metadata Discovery".
        let origin = f.issuer.clone();
        self.discovered(Context {
            resource: f.resource,
            resource_scopes: None,
            meta: ServerMetadata {
                authorization_endpoint: format!("{origin}/authorize"),
                token_endpoint: format!("{origin}/token"),
                registration_endpoint: Some(format!("{origin}/register")),
                issuer: origin,
                scopes_supported: None,
                code_challenge_methods_supported: Some(vec!["S256".into()]),
                token_endpoint_auth_methods_supported: None,
                iss_parameter_supported: false,
                client_id_metadata_document_supported: false,
            },
        })
    }

    /// Discovery is over: refresh when that can work, else find who the client is.
    fn discovered(&self, context: Context) -> State {
        let step_up = self
            .challenge
            .as_ref()
            .is_some_and(Challenge::is_insufficient_scope);
        if !step_up {
            if let Ok(server) = self.server() {
                if let Some(r) = self.refreshing(Some(&context), &server) {
                    return State::Refreshing(r);
                }
            }
        }
        self.identify(context)
    }

    // ---- refresh ----

    /// A refresh of the known grant, when it has a refresh token, is for this server, and
    /// (after discovery) comes from the same issuer for the same resource.
    fn refreshing(&self, context: Option<&Context>, server: &HttpUrl) -> Option<Refreshing> {
        if self.refresh_tried {
            return None;
        }
        let grant = self.known.grant.as_ref()?;
        let refresh_token = grant.refresh_token.clone()?;
        let token_endpoint = match context {
            Some(c) => {
                if c.meta.issuer != grant.issuer || c.resource != grant.resource {
                    return None;
                }
                c.meta.token_endpoint.clone()
            }
            None => {
                if !urls::resource_names_server(&grant.resource, server) {
                    return None;
                }
                grant.token_endpoint.clone()
            }
        };
        HttpUrl::parse(&token_endpoint).ok()?;
        let client = self.client_of_grant(grant, context.map(|c| &c.meta))?;
        Some(Refreshing {
            grant: Box::new(grant.clone()),
            refresh_token,
            client,
            token_endpoint,
            then: context.cloned(),
        })
    }

    /// The client a grant was issued to, with its credentials, when this page still has
    /// them.
    fn client_of_grant(&self, grant: &Grant, meta: Option<&ServerMetadata>) -> Option<Client> {
        if self.config.client_id.as_ref() == Some(&grant.client_id) {
            return Some(self.preregistered(meta));
        }
        if let Some(r) = self
            .known
            .registrations
            .iter()
            .find(|r| r.issuer == grant.issuer && r.client_id == grant.client_id)
        {
            return Some(client_from(r));
        }
        if self.config.client_metadata_url.as_deref() == Some(grant.client_id.as_str()) {
            return Some(Client {
                id: grant.client_id.clone(),
                secret: None,
                method: TokenAuthMethod::None,
                registration: None,
            });
        }
        None
    }

    fn refresh_request(&self, r: &Refreshing) -> AuthRequest {
        let pairs = vec![
            ("grant_type", "refresh_token"),
            ("refresh_token", r.refresh_token.secret()),
            ("resource", r.grant.resource.as_str()),
        ];
        token_request(&r.token_endpoint, pairs, &r.client)
    }

    fn refreshed(&mut self, r: Refreshing, answer: Result<AuthResponse, String>) -> State {
        self.refresh_tried = true;
        let issued = match answer {
            Ok(resp) if (200..300).contains(&resp.status) => {
                metadata::issued(&resp.body, resp.content_type.as_deref()).ok()
            }
            _ => None,
        };
        let Some(issued) = issued else {
            // Refused, unreadable or unreachable: a refresh only saves the person a
            // sign-in, so go on to one.
            return match r.then {
                Some(context) => self.identify(context),
                None => match self.server() {
                    Ok(server) => self.finding_resource(&server),
                    Err(e) => State::Failed(e),
                },
            };
        };
        let grant = *r.grant;
        State::Done(Box::new(Grant {
            access_token: AccessToken::new(issued.access_token),
            refresh_token: issued
                .refresh_token
                .map(RefreshToken::new)
                .or(Some(r.refresh_token)),
            expires_in: issued.expires_in,
            scopes_granted: issued.scope.as_deref().map(split_granted),
            token_endpoint: r.token_endpoint,
            registration: None,
            ..grant
        }))
    }

    // ---- who the client is ----

    fn preregistered(&self, meta: Option<&ServerMetadata>) -> Client {
        let secret = self.config.client_secret.clone();
        let method = match (
            &secret,
            meta.and_then(|m| m.token_endpoint_auth_methods_supported.as_ref()),
        ) {
            (None, _) => TokenAuthMethod::None,
            (Some(_), Some(methods))
                if !methods.iter().any(|m| m == "client_secret_basic")
                    && methods.iter().any(|m| m == "client_secret_post") =>
            {
                TokenAuthMethod::ClientSecretPost
            }
            (Some(_), _) => TokenAuthMethod::ClientSecretBasic,
        };
        Client {
            id: self
                .config
                .client_id
                .clone()
                .unwrap_or_else(|| ClientId::new("")),
            secret,
            method,
            registration: None,
        }
    }

    fn identify(&self, context: Context) -> State {
        let meta = &context.meta;
        if self.config.client_id.is_some() {
            let client = self.preregistered(Some(meta));
            return self.sign_in(context, client);
        }
        if let Some(r) = self
            .known
            .registrations
            .iter()
            .find(|r| r.issuer == meta.issuer && r.redirect_uri == self.config.redirect_url)
        {
            let client = client_from(r);
            return self.sign_in(context, client);
        }
        if let (true, Some(url)) = (
            meta.client_id_metadata_document_supported,
            self.config.client_metadata_url.as_ref(),
        ) {
            let client = Client {
                id: ClientId::new(url.clone()),
                secret: None,
                method: TokenAuthMethod::None,
                registration: None,
            };
            return self.sign_in(context, client);
        }
        if meta.registration_endpoint.is_some() {
            return State::Registering(context);
        }
        State::Failed(AuthError::NoClientIdentity {
            as_host: host_of(&meta.issuer),
        })
    }

    fn registration_request(&self, context: &Context) -> AuthRequest {
        let mut body = json!({
            "client_name": self.config.client_name,
            "redirect_uris": [self.config.redirect_url],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        });
        if self.config.protocol == AuthProtocol::Modern2026_07_28 {
            if let Some(map) = body.as_object_mut() {
                // SEP-837: a page in a browser is a web application.
                map.insert("application_type".into(), "web".into());
            }
        }
        AuthRequest {
            method: AuthMethod::Post,
            url: context
                .meta
                .registration_endpoint
                .clone()
                .unwrap_or_default(),
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Accept".into(), "application/json".into()),
            ],
            body: Some(body.to_string()),
        }
    }

    fn registered(&self, context: Context, answer: Result<AuthResponse, String>) -> State {
        let endpoint = context
            .meta
            .registration_endpoint
            .clone()
            .unwrap_or_default();
        let as_host = host_of(&endpoint);
        let response = match answer {
            Err(detail) => {
                return State::Failed(AuthError::Unreachable {
                    endpoint: shown(&endpoint),
                    detail,
                })
            }
            Ok(r) => r,
        };
        if !(200..300).contains(&response.status) {
            let (error, description) = metadata::oauth_error(&response.body);
            return State::Failed(AuthError::RegistrationRefused {
                as_host,
                status: response.status,
                error: error.map(|e| self.scrub(&e, &[])),
                description: description.map(|d| self.scrub(&d, &[])),
            });
        }
        let registered =
            match metadata::registered(&response.body, response.content_type.as_deref()) {
                Ok(r) => r,
                Err(detail) => {
                    return State::Failed(AuthError::RegistrationUnreadable {
                        as_host,
                        detail: self.scrub(&detail, &[]),
                    })
                }
            };
        let secret_text = registered.client_secret.clone().unwrap_or_default();
        let method = match registered.method.as_deref() {
            None if registered.client_secret.is_some() => TokenAuthMethod::ClientSecretBasic,
            None => TokenAuthMethod::None,
            Some(name) => match TokenAuthMethod::from_name(name) {
                Some(m) => m,
                None => {
                    return State::Failed(AuthError::UnsupportedAuthMethod {
                        as_host,
                        method: self.scrub(name, &[&secret_text]),
                    })
                }
            },
        };
        if method != TokenAuthMethod::None && registered.client_secret.is_none() {
            return State::Failed(AuthError::RegistrationUnreadable {
                as_host,
                detail: format!(
                    "it registered this client for \"{}\" but sent no client_secret",
                    method.name()
                ),
            });
        }
        let registration = Registration {
            issuer: context.meta.issuer.clone(),
            client_id: ClientId::new(registered.client_id),
            client_secret: registered.client_secret.map(ClientSecret::new),
            auth_method: method,
            redirect_uri: self.config.redirect_url.clone(),
        };
        let mut client = client_from(&registration);
        client.registration = Some(registration);
        self.sign_in(context, client)
    }

    // ---- the person's part ----

    fn scopes(&self, context: &Context) -> Result<Vec<String>, AuthError> {
        let challenged = self
            .challenge
            .as_ref()
            .and_then(|c| c.scopes.clone())
            .filter(|s| !s.is_empty());
        let step_up = self
            .challenge
            .as_ref()
            .is_some_and(Challenge::is_insufficient_scope);
        let mut scopes = match (challenged, &context.resource_scopes, &self.config.scope) {
            (Some(challenged), _, _) => challenged,
            (None, Some(supported), _) if !supported.is_empty() => supported.clone(),
            (None, _, Some(host)) => split_scopes(host, "The host's scope setting")?,
            _ => Vec::new(),
        };
        if step_up && self.config.protocol == AuthProtocol::Modern2026_07_28 {
            // SEP-2350: re-authorization asks for what was asked before, and more.
            if let Some(grant) = &self.known.grant {
                let mut union = grant.scopes_requested.clone();
                for s in scopes {
                    if !union.contains(&s) {
                        union.push(s);
                    }
                }
                scopes = union;
            }
        }
        // SEP-2207: offline_access only where the authorization server lists it.
        let offered = context
            .meta
            .scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|s| s == "offline_access"));
        scopes.retain(|s| s != "offline_access");
        if offered {
            scopes.push("offline_access".into());
        }
        if scopes.len() > MAX_SCOPES {
            return Err(AuthError::TooManyScopes {
                whose: format!("The sign-in for {}", host_of(&self.server_url)),
                count: scopes.len(),
                limit: MAX_SCOPES,
            });
        }
        Ok(scopes)
    }

    fn sign_in(&self, context: Context, client: Client) -> State {
        let scopes = match self.scopes(&context) {
            Ok(s) => s,
            Err(e) => return State::Failed(e),
        };
        let scope = scopes.join(" ");
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", client.id.as_str()),
            ("redirect_uri", self.config.redirect_url.as_str()),
            ("state", self.entropy.state.secret()),
            ("code_challenge", self.entropy.challenge_s256.as_str()),
            ("code_challenge_method", "S256"),
            ("resource", context.resource.as_str()),
        ];
        if !scope.is_empty() {
            pairs.push(("scope", scope.as_str()));
        }
        let authorization_url =
            urls::with_query(&context.meta.authorization_endpoint, &form::pairs(&pairs));
        State::SigningIn(Ready {
            context,
            client,
            scopes,
            authorization_url,
            refused: None,
        })
    }

    // ---- the token ----

    fn code_request(&self, ready: &Ready, code: &AuthorizationCode) -> AuthRequest {
        let pairs = vec![
            ("grant_type", "authorization_code"),
            ("code", code.secret()),
            ("redirect_uri", self.config.redirect_url.as_str()),
            ("code_verifier", self.entropy.verifier.secret()),
            ("resource", ready.context.resource.as_str()),
        ];
        token_request(&ready.context.meta.token_endpoint, pairs, &ready.client)
    }

    fn exchanged(
        &self,
        ready: Ready,
        code: AuthorizationCode,
        answer: Result<AuthResponse, String>,
    ) -> State {
        let endpoint = &ready.context.meta.token_endpoint;
        let as_host = host_of(endpoint);
        let response = match answer {
            Err(detail) => {
                return State::Failed(AuthError::Unreachable {
                    endpoint: shown(endpoint),
                    detail,
                })
            }
            Ok(r) => r,
        };
        let also = [code.secret()];
        if !(200..300).contains(&response.status) {
            let (error, description) = metadata::oauth_error(&response.body);
            return State::Failed(AuthError::TokenRefused {
                as_host,
                status: response.status,
                error: error.map(|e| self.scrub(&e, &also)),
                description: description.map(|d| self.scrub(&d, &also)),
            });
        }
        let issued = match metadata::issued(&response.body, response.content_type.as_deref()) {
            Ok(i) => i,
            Err(detail) => {
                return State::Failed(AuthError::TokenUnreadable {
                    as_host,
                    detail: self.scrub(&detail, &also),
                })
            }
        };
        State::Done(Box::new(Grant {
            access_token: AccessToken::new(issued.access_token),
            refresh_token: issued.refresh_token.map(RefreshToken::new),
            expires_in: issued.expires_in,
            scopes_granted: issued.scope.as_deref().map(split_granted),
            scopes_requested: ready.scopes,
            issuer: ready.context.meta.issuer.clone(),
            resource: ready.context.resource.clone(),
            token_endpoint: endpoint.clone(),
            client_id: ready.client.id.clone(),
            registration: ready.client.registration,
        }))
    }
}

fn client_from(r: &Registration) -> Client {
    Client {
        id: r.client_id.clone(),
        secret: r.client_secret.clone(),
        method: r.auth_method,
        registration: None,
    }
}

fn split_granted(scope: &str) -> Vec<String> {
    scope
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn get(url: &str) -> AuthRequest {
    AuthRequest {
        method: AuthMethod::Get,
        url: url.to_string(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
    }
}

/// A token endpoint request, the client authenticated as registered.
fn token_request<'a>(
    endpoint: &str,
    mut pairs: Vec<(&'a str, &'a str)>,
    client: &'a Client,
) -> AuthRequest {
    let mut headers = vec![
        (
            "Content-Type".to_string(),
            "application/x-www-form-urlencoded".to_string(),
        ),
        ("Accept".to_string(), "application/json".to_string()),
    ];
    let secret = client
        .secret
        .as_ref()
        .map(ClientSecret::secret)
        .unwrap_or("");
    match client.method {
        TokenAuthMethod::None => pairs.push(("client_id", client.id.as_str())),
        TokenAuthMethod::ClientSecretPost => {
            pairs.push(("client_id", client.id.as_str()));
            pairs.push(("client_secret", secret));
        }
        TokenAuthMethod::ClientSecretBasic => {
            // RFC 6749 §2.3.1: each part form-encoded, then joined and base64'd.
            let credentials = format!(
                "{}:{}",
                form::encode(client.id.as_str()),
                form::encode(secret)
            );
            headers.push((
                "Authorization".to_string(),
                format!("Basic {}", STANDARD.encode(credentials)),
            ));
        }
    }
    AuthRequest {
        method: AuthMethod::Post,
        url: endpoint.to_string(),
        headers,
        body: Some(form::pairs(&pairs)),
    }
}
