//! A fake MCP server's metadata and a fake authorization server, shaped like the
//! conformance suite's (`auth/*` client scenarios), answering the `Fetch` steps of a
//! [`Flow`]; and a driver that runs a flow to its end, playing the person (the
//! authorization endpoint approves at once and redirects with `code`, `state`, `iss`).
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::auth::{
    pkce, AuthConfig, AuthMethod, AuthProtocol, AuthRequest, AuthResponse, CallbackOutcome,
    CallbackParams, Entropy, Flow, Known, Step,
};
use serde_json::{json, Value};

pub const SERVER: &str = "https://mcp.example/mcp";
pub const AS: &str = "https://as.example";
pub const REDIRECT: &str = "https://app.example/cb";
pub const CODE: &str = "code-SECRET-1234";
/// 32 bytes of 7, base64url: the verifier every test flow uses.
pub const VERIFIER_BYTES: [u8; 32] = [7; 32];
pub const STATE_BYTES: [u8; 16] = [9; 16];

/// What `iss` the authorization endpoint puts in its redirect.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Iss {
    Correct,
    Omit,
    Wrong,
    /// The issuer with a `/` appended.
    Normalized,
}

/// The world the flow talks to. Every field is one knob the suite's scenarios turn.
#[derive(Clone, Debug)]
pub struct World {
    /// Where the PRM is served (absolute URL); `None`: nowhere.
    pub prm_at: Option<String>,
    pub prm_resource: String,
    pub prm_scopes: Option<Vec<String>>,
    pub authorization_servers: Vec<String>,
    /// The issuer (as the PRM names it) and where its metadata is served.
    pub issuer: String,
    pub as_metadata_at: Option<String>,
    /// The `issuer` the metadata claims (defaults to `issuer`).
    pub metadata_issuer: Option<String>,
    /// Prefix of the AS's endpoints (`https://as.example/tenant1`).
    pub endpoint_base: String,
    pub registration: bool,
    pub as_scopes: Option<Vec<String>>,
    pub iss_supported: Option<bool>,
    pub iss: Iss,
    pub cimd_supported: bool,
    pub auth_methods: Vec<String>,
    /// What the registration endpoint answers (client_id, client_secret, method).
    pub registers_as: (String, Option<String>, Option<String>),
    /// Replaces the token endpoint's answer.
    pub token_answer: Option<AuthResponse>,
    /// Replaces the registration endpoint's answer.
    pub registration_answer: Option<AuthResponse>,
    /// Issue a refresh token with each access token.
    pub refresh_tokens: bool,
    /// URLs that fail as a network failure would (no CORS headers).
    pub unreachable: Vec<String>,
    // What was seen:
    pub requests: Vec<AuthRequest>,
    pub authorizations: Vec<Vec<(String, String)>>,
}

impl World {
    /// The suite's default: PRM at the path-based well-known URI naming `AS`, AS metadata
    /// at its OAuth well-known URI, DCR open, iss advertised and sent.
    pub fn new() -> World {
        World {
            prm_at: Some("https://mcp.example/.well-known/oauth-protected-resource/mcp".into()),
            prm_resource: SERVER.into(),
            prm_scopes: None,
            authorization_servers: vec![AS.into()],
            issuer: AS.into(),
            as_metadata_at: Some(format!("{AS}/.well-known/oauth-authorization-server")),
            metadata_issuer: None,
            endpoint_base: AS.into(),
            registration: true,
            as_scopes: None,
            iss_supported: Some(true),
            iss: Iss::Correct,
            cimd_supported: false,
            auth_methods: vec!["none".into()],
            registers_as: ("test-client-id".into(), None, None),
            token_answer: None,
            registration_answer: None,
            refresh_tokens: false,
            unreachable: Vec::new(),
            requests: Vec::new(),
            authorizations: Vec::new(),
        }
    }

    pub fn urls(&self) -> Vec<String> {
        self.requests.iter().map(|r| r.url.clone()).collect()
    }

    pub fn token_requests(&self) -> Vec<&AuthRequest> {
        self.requests
            .iter()
            .filter(|r| r.url == format!("{}/token", self.endpoint_base))
            .collect()
    }

    fn metadata(&self) -> Value {
        let base = &self.endpoint_base;
        let mut m = json!({
            "issuer": self.metadata_issuer.clone().unwrap_or_else(|| self.issuer.clone()),
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": self.auth_methods,
        });
        let map = m.as_object_mut().unwrap();
        if self.registration {
            map.insert(
                "registration_endpoint".into(),
                json!(format!("{base}/register")),
            );
        }
        if let Some(s) = &self.as_scopes {
            map.insert("scopes_supported".into(), json!(s));
        }
        if let Some(b) = self.iss_supported {
            map.insert(
                "authorization_response_iss_parameter_supported".into(),
                json!(b),
            );
        }
        if self.cimd_supported {
            map.insert("client_id_metadata_document_supported".into(), json!(true));
        }
        m
    }

    /// The answer to one request; `None` is a network failure.
    pub fn answer(&mut self, req: &AuthRequest) -> Option<AuthResponse> {
        self.requests.push(req.clone());
        if self.unreachable.contains(&req.url) {
            return None;
        }
        let base = self.endpoint_base.clone();
        let not_found = AuthResponse {
            status: 404,
            content_type: Some("text/plain".into()),
            www_authenticate: None,
            body: b"Not Found".to_vec(),
        };
        if req.method == AuthMethod::Get {
            if self.prm_at.as_deref() == Some(req.url.as_str()) {
                let mut prm = json!({
                    "resource": self.prm_resource,
                    "authorization_servers": self.authorization_servers,
                });
                if let Some(s) = &self.prm_scopes {
                    prm["scopes_supported"] = json!(s);
                }
                return Some(AuthResponse::json(200, &prm.to_string()));
            }
            if self.as_metadata_at.as_deref() == Some(req.url.as_str()) {
                return Some(AuthResponse::json(200, &self.metadata().to_string()));
            }
            return Some(not_found);
        }
        if req.url == format!("{base}/register") && self.registration {
            if let Some(a) = &self.registration_answer {
                return Some(a.clone());
            }
            let (id, secret, method) = &self.registers_as;
            let mut body = json!({ "client_id": id, "redirect_uris": [REDIRECT] });
            if let Some(s) = secret {
                body["client_secret"] = json!(s);
            }
            if let Some(m) = method {
                body["token_endpoint_auth_method"] = json!(m);
            }
            return Some(AuthResponse::json(201, &body.to_string()));
        }
        if req.url == format!("{base}/token") {
            if let Some(a) = &self.token_answer {
                return Some(a.clone());
            }
            let form = form_of(req);
            let scope = form
                .iter()
                .find(|(k, _)| k == "scope")
                .map(|(_, v)| v.clone())
                .or_else(|| {
                    self.authorizations
                        .last()
                        .and_then(|a| a.iter().find(|(k, _)| k == "scope"))
                        .map(|(_, v)| v.clone())
                });
            let mut body = json!({
                "access_token": format!("at-SECRET-{}", self.requests.len()),
                "token_type": "Bearer",
                "expires_in": 3600,
            });
            if let Some(s) = scope {
                body["scope"] = json!(s);
            }
            if self.refresh_tokens {
                body["refresh_token"] = json!(format!("rt-SECRET-{}", self.requests.len()));
            }
            return Some(AuthResponse::json(200, &body.to_string()));
        }
        Some(not_found)
    }

    /// The authorization endpoint: records the query, approves, redirects back.
    pub fn authorize(&mut self, authorization_url: &str) -> CallbackParams {
        let url = url::Url::parse(authorization_url).unwrap();
        let query: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        let state = query
            .iter()
            .find(|(k, _)| k == "state")
            .map(|(_, v)| v.clone());
        self.authorizations.push(query);
        let issuer = self
            .metadata_issuer
            .clone()
            .unwrap_or_else(|| self.issuer.clone());
        CallbackParams {
            code: Some(CODE.into()),
            state,
            iss: match self.iss {
                Iss::Correct => Some(issuer),
                Iss::Omit => None,
                Iss::Wrong => Some("https://evil.example.com".into()),
                Iss::Normalized => Some(format!("{issuer}/")),
            },
            error: None,
            error_description: None,
        }
    }

    /// A parameter of the last authorization request.
    pub fn auth_param(&self, name: &str) -> Option<String> {
        self.authorizations
            .last()?
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }
}

/// A form body's pairs.
pub fn form_of(req: &AuthRequest) -> Vec<(String, String)> {
    url::form_urlencoded::parse(req.body.as_deref().unwrap_or("").as_bytes())
        .into_owned()
        .collect()
}

pub fn param(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

pub fn entropy() -> Entropy {
    let verifier = pkce::verifier_from_bytes(&VERIFIER_BYTES);
    Entropy {
        state: pkce::state_from_bytes(&STATE_BYTES),
        challenge_s256: pkce::challenge_from_digest(&[1; 32]),
        verifier,
    }
}

pub fn config(protocol: AuthProtocol) -> AuthConfig {
    AuthConfig::new(REDIRECT, protocol)
}

/// Most steps a test drives a flow through before calling it a loop.
const MAX_TEST_STEPS: usize = 40;

/// Runs a flow against `world` to `Done` or `Failed`, the person approving each sign-in.
pub fn run(flow: &mut Flow, world: &mut World) -> Step {
    for _ in 0..MAX_TEST_STEPS {
        match flow.poll() {
            Step::Fetch(req) => match world.answer(&req) {
                Some(resp) => flow.handle_response(resp),
                None => flow.handle_unreachable("TypeError: Failed to fetch".into()),
            },
            Step::SignIn(card) => {
                let back = world.authorize(&card.authorization_url);
                assert_eq!(flow.handle_callback(back), CallbackOutcome::Accepted);
            }
            done => return done,
        }
    }
    panic!("the flow did not end within {MAX_TEST_STEPS} steps");
}

/// Starts a flow at `SERVER` after a 401 whose challenge is `www_authenticate`, and runs it.
pub fn sign_in(
    world: &mut World,
    protocol: AuthProtocol,
    www_authenticate: Option<&str>,
    known: Known,
) -> Step {
    sign_in_with(world, config(protocol), www_authenticate, known)
}

pub fn sign_in_with(
    world: &mut World,
    config: AuthConfig,
    www_authenticate: Option<&str>,
    known: Known,
) -> Step {
    let challenge = www_authenticate.map(|h| mcp_elicit::auth::challenge::parse(h).unwrap());
    let mut flow = Flow::start(config, SERVER, challenge, known, entropy());
    run(&mut flow, world)
}
