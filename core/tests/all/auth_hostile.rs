//! Hostile input to the sign-in flow, each answered in words, in bounded work: a 1 MiB
//! challenge, metadata with wrong types or 10,000 scopes, oversized bodies, a chain of
//! metadata URLs, a token response that is not JSON; and no error text or `Debug` ever
//! holding a token, a code, a verifier or a secret.
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::auth::{
    challenge, AuthError, AuthProtocol, AuthResponse, ClientSecret, Known, Step,
    MAX_METADATA_BYTES, MAX_SCOPES,
};
use serde_json::json;

use crate::auth_util::{config, entropy, sign_in, sign_in_with, World, CODE, SERVER};

const PRM_PATH: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
const LEGACY: AuthProtocol = AuthProtocol::Legacy2025_11_25;

fn header() -> String {
    format!(r#"Bearer resource_metadata="{PRM_PATH}""#)
}

fn failed(step: Step) -> AuthError {
    match step {
        Step::Failed(e) => e,
        other => panic!("expected Failed, got {other:?}"),
    }
}

#[test]
fn a_one_mib_challenge_is_refused_unread() {
    let huge = format!(r#"Bearer scope="{}""#, "a ".repeat(512 * 1024));
    let e = challenge::parse(&huge).unwrap_err();
    assert_eq!(e.code(), "challenge_too_long");
    assert_eq!(
        e.to_string(),
        format!(
            "The server's sign-in challenge (WWW-Authenticate) is {} bytes long; this client reads at most 16384.",
            huge.len()
        )
    );
    // Just under the limit, thousands of scopes: refused by count, in words.
    let many = format!(
        r#"Bearer scope="{}""#,
        (0..2000)
            .map(|i| format!("s{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(many.len() < challenge::MAX_CHALLENGE_BYTES);
    let e = challenge::parse(&many).unwrap_err();
    assert_eq!(e.code(), "too_many_scopes");
    assert_eq!(
        e.to_string(),
        format!("The server's challenge asks for 2000 scopes; this client asks for at most {MAX_SCOPES} in one sign-in.")
    );
}

#[test]
fn ten_thousand_scopes_in_metadata_are_refused_in_words() {
    let mut world = World::new();
    world.prm_scopes = Some((0..10_000).map(|i| format!("scope:{i}")).collect());
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert_eq!(e.code(), "too_many_scopes");
    assert_eq!(
        e.to_string(),
        format!("The resource metadata of mcp.example asks for 10000 scopes; this client asks for at most {MAX_SCOPES} in one sign-in.")
    );
    assert_eq!(
        world.requests.len(),
        1,
        "nothing was sent to an authorization server"
    );
    // 10,000 scopes in the AS's scopes_supported are only looked through (offline_access).
    let mut world = World::new();
    world.as_scopes = Some((0..10_000).map(|i| format!("scope:{i}")).collect());
    let Step::Done(_) = sign_in(&mut world, LEGACY, Some(&header()), Known::default()) else {
        panic!()
    };
    assert_eq!(world.auth_param("scope"), None);
}

/// Metadata whose fields have the wrong types: each named in words.
#[test]
fn metadata_with_wrong_types() {
    let prm_cases = [
        (
            json!({"resource": 7, "authorization_servers": ["https://as.example"]}),
            "\"resource\" is a number, not text",
        ),
        (
            json!({"resource": SERVER, "authorization_servers": "https://as.example"}),
            "\"authorization_servers\" is text, not a list",
        ),
        (
            json!({"resource": SERVER, "authorization_servers": [{"url": 1}]}),
            "\"authorization_servers\" lists an object, not text",
        ),
        (
            json!({"resource": SERVER, "authorization_servers": ["https://as.example"], "scopes_supported": "a b"}),
            "\"scopes_supported\" is text, not a list",
        ),
        (
            json!(["not", "an", "object"]),
            "it is JSON a list, not an object",
        ),
        (
            json!({"authorization_servers": ["https://as.example"]}),
            "it has no \"resource\"",
        ),
    ];
    for (doc, words) in prm_cases {
        let mut world = World::new();
        world.prm_at = None;
        let mut flow = mcp_elicit::auth::Flow::start(
            config(LEGACY),
            SERVER,
            Some(challenge::parse(&header()).unwrap()),
            Known::default(),
            entropy(),
        );
        flow.handle_response(AuthResponse::json(200, &doc.to_string()));
        let e = failed(flow.poll());
        assert_eq!(e.code(), "metadata_unreadable");
        assert_eq!(
            e.to_string(),
            format!("The resource metadata at {PRM_PATH} cannot be used: {words}.")
        );
    }
    let as_cases = [
        (
            "token_endpoint",
            json!(42),
            "\"token_endpoint\" is a number, not text",
        ),
        (
            "token_endpoint",
            json!("ftp://as.example/token"),
            "\"token_endpoint\" cannot be used: its scheme is ftp:, not https: or http:",
        ),
        (
            "authorization_endpoint",
            json!("/authorize"),
            "\"authorization_endpoint\" cannot be used: it is not an absolute URL",
        ),
        (
            "authorization_response_iss_parameter_supported",
            json!("yes"),
            "\"authorization_response_iss_parameter_supported\" is text, not true or false",
        ),
        (
            "code_challenge_methods_supported",
            json!([1]),
            "\"code_challenge_methods_supported\" lists a number, not text",
        ),
        ("issuer", json!(null), "it has no \"issuer\""),
    ];
    for (field, value, words) in as_cases {
        let mut meta = json!({
            "issuer": "https://as.example",
            "authorization_endpoint": "https://as.example/authorize",
            "token_endpoint": "https://as.example/token",
            "code_challenge_methods_supported": ["S256"],
        });
        meta[field] = value;
        let mut world = World::new();
        let mut flow = mcp_elicit::auth::Flow::start(
            config(LEGACY),
            SERVER,
            Some(challenge::parse(&header()).unwrap()),
            Known::default(),
            entropy(),
        );
        let Step::Fetch(req) = flow.poll() else {
            panic!()
        };
        flow.handle_response(world.answer(&req).unwrap());
        flow.handle_response(AuthResponse::json(200, &meta.to_string()));
        let e = failed(flow.poll());
        assert_eq!(e.code(), "metadata_unreadable", "{field}");
        assert_eq!(
            e.to_string(),
            format!("The authorization server metadata at https://as.example/.well-known/oauth-authorization-server cannot be used: {words}.")
        );
    }
}

#[test]
fn metadata_over_the_size_limit_is_refused_unread() {
    let mut flow = mcp_elicit::auth::Flow::start(
        config(LEGACY),
        SERVER,
        Some(challenge::parse(&header()).unwrap()),
        Known::default(),
        entropy(),
    );
    let mut body = vec![b' '; MAX_METADATA_BYTES + 1];
    body[0] = b'{';
    flow.handle_response(AuthResponse {
        status: 200,
        content_type: Some("application/json".into()),
        www_authenticate: None,
        body,
    });
    let e = failed(flow.poll());
    assert_eq!(
        e.to_string(),
        format!("The resource metadata at {PRM_PATH} cannot be used: its {} bytes are more than the {MAX_METADATA_BYTES} this client reads.", MAX_METADATA_BYTES + 1)
    );
}

#[test]
fn a_token_response_that_is_not_json() {
    let mut world = World::new();
    world.token_answer = Some(AuthResponse {
        status: 200,
        content_type: Some("text/html; charset=utf-8".into()),
        www_authenticate: None,
        body: b"<html><body>Welcome!</body></html>".to_vec(),
    });
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert_eq!(e.code(), "token_unreadable");
    assert_eq!(
        e.to_string(),
        "as.example answered the token request with something this client cannot use: it is not JSON (Content-Type: text/html; charset=utf-8)."
    );
    // JSON, but not a Bearer token, or without one.
    for (body, words) in [
        (
            r#"{"access_token":"x","token_type":"DPoP"}"#,
            "it issued a \"DPoP\" token; this client sends Bearer tokens only",
        ),
        (r#"{"token_type":"Bearer"}"#, "it has no \"access_token\""),
        (
            r#"{"access_token":"x","token_type":"Bearer","expires_in":"soon"}"#,
            "\"expires_in\" is text, not a number",
        ),
    ] {
        let mut world = World::new();
        world.token_answer = Some(AuthResponse::json(200, body));
        let e = failed(sign_in(
            &mut world,
            LEGACY,
            Some(&header()),
            Known::default(),
        ));
        assert_eq!(
            e.to_string(),
            format!("as.example answered the token request with something this client cannot use: {words}.")
        );
    }
}

#[test]
fn refusals_name_who_refused_what() {
    let mut world = World::new();
    world.registration_answer = Some(AuthResponse::json(
        400,
        r#"{"error":"invalid_redirect_uri","error_description":"redirect not allowed"}"#,
    ));
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert_eq!(e.code(), "registration_refused");
    assert_eq!(
        e.to_string(),
        "as.example refused to register this client (HTTP 400) (invalid_redirect_uri: redirect not allowed)."
    );
    let mut world = World::new();
    world.token_answer = Some(AuthResponse::json(400, r#"{"error":"invalid_grant"}"#));
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert_eq!(
        e.to_string(),
        "as.example refused to issue a token (HTTP 400) (invalid_grant)."
    );
}

/// An authorization server that sends no CORS headers: the endpoint is named, and the way
/// out (a host's `fetch`) is said.
#[test]
fn an_unreachable_endpoint_is_named() {
    let mut world = World::new();
    world.unreachable = vec!["https://as.example/token".into()];
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert_eq!(e.code(), "unreachable");
    assert_eq!(
        e.to_string(),
        "Could not reach https://as.example/token (TypeError: Failed to fetch). If that server \
         sends no CORS headers, a page cannot read it: a host can pass `fetch` to route the \
         request through its own backend."
    );
    // Discovery treats an unreachable place as absent, and goes on to the next.
    let mut world = World::new();
    world.as_metadata_at = Some("https://as.example/.well-known/openid-configuration".into());
    world.unreachable = vec!["https://as.example/.well-known/oauth-authorization-server".into()];
    let Step::Done(_) = sign_in(&mut world, LEGACY, Some(&header()), Known::default()) else {
        panic!()
    };
    // All of them unreachable: the first is named.
    let mut world = World::new();
    world.unreachable = world.urls();
    world.unreachable = vec![
        PRM_PATH.into(),
        "https://mcp.example/.well-known/oauth-protected-resource".into(),
    ];
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&header()),
        Known::default(),
    ));
    assert!(
        e.to_string()
            .starts_with(&format!("Could not reach {PRM_PATH} ")),
        "{e}"
    );
}

/// Metadata that points on and on: the flow follows only the specification's fixed list,
/// so however the documents link, it makes a bounded number of requests.
#[test]
fn a_chain_of_metadata_urls_is_not_followed() {
    let mut world = World::new();
    // The PRM names a metadata URL of its own and an AS whose metadata is nowhere.
    world.authorization_servers = vec![
        "https://as1.example/a/b/c".into(),
        "https://as2.example".into(),
        "https://as3.example".into(),
    ];
    world.as_metadata_at = None;
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some(&format!(
            r#"Bearer resource_metadata="{PRM_PATH}", resource_metadata="https://evil.example/next""#
        )),
        Known::default(),
    ));
    assert_eq!(e.code(), "auth_server_metadata_not_found");
    assert_eq!(
        e.to_string(),
        "The authorization server https://as1.example/a/b/c publishes no metadata at any of the 3 places the specification lists."
    );
    assert_eq!(
        world.urls(),
        [
            PRM_PATH,
            "https://as1.example/.well-known/oauth-authorization-server/a/b/c",
            "https://as1.example/.well-known/openid-configuration/a/b/c",
            "https://as1.example/a/b/c/.well-known/openid-configuration",
        ]
    );
    // Nothing anywhere: 2 PRM places, 2 AS places at the origin, then the default
    // endpoints (the 2025-03-26 fallbacks).
    let mut world = World::new();
    world.prm_at = None;
    world.as_metadata_at = None;
    world.registration = false;
    let e = failed(sign_in(&mut world, LEGACY, None, Known::default()));
    assert_eq!(e.code(), "registration_refused");
    assert_eq!(world.requests.len(), 5);
}

#[test]
fn bad_urls_from_the_host_or_server_are_refused_in_words() {
    let cases = [
        (
            "javascript:alert(1)",
            "https://app.example/cb",
            "This server's address cannot be used: its scheme is javascript:, not https: or http:.",
        ),
        (
            "https://user:pw@mcp.example/mcp",
            "https://app.example/cb",
            "This server's address cannot be used: it carries a user name or password.",
        ),
        (
            SERVER,
            "cb.html",
            "The sign-in redirect URL cannot be used: it is not an absolute URL.",
        ),
    ];
    for (server, redirect, words) in cases {
        let cfg = mcp_elicit::auth::AuthConfig::new(redirect, LEGACY);
        let flow = mcp_elicit::auth::Flow::start(cfg, server, None, Known::default(), entropy());
        assert_eq!(failed(flow.poll()).to_string(), words);
    }
}

/// No error text, `Debug` of an error or a step, ever holds a token, the code, the
/// verifier or a client secret, even when a hostile authorization server echoes them.
#[test]
fn no_secret_in_any_error_or_debug() {
    let verifier = entropy().verifier.secret().to_string();
    let echo = format!(
        "you sent {CODE} and {verifier} and pre-secret-XYZ and old-rt-SECRET and old-at-SECRET"
    );
    let secrets = [
        CODE,
        verifier.as_str(),
        "pre-secret-XYZ",
        "old-rt-SECRET",
        "at-SECRET",
    ];
    let mut outcomes: Vec<String> = Vec::new();
    type Scenario<'a> = Box<dyn Fn(&mut World) + 'a>;
    let scenarios: Vec<Scenario> = vec![
        Box::new(|w| {
            w.token_answer = Some(AuthResponse::json(
                400,
                &json!({"error": echo, "error_description": echo}).to_string(),
            ))
        }),
        Box::new(|w| w.token_answer = Some(AuthResponse::json(200, &format!("<p>{echo}</p>")))),
        Box::new(|w| {
            w.registration_answer = Some(AuthResponse::json(
                400,
                &json!({"error": echo, "error_description": echo}).to_string(),
            ))
        }),
        Box::new(|w| {
            w.token_answer = Some(AuthResponse::json(
                200,
                &json!({"access_token": "at-SECRET", "token_type": echo}).to_string(),
            ))
        }),
        Box::new(|w| w.unreachable = vec!["https://as.example/token".into()]),
        Box::new(|_| {}),
    ];
    for (n, scenario) in scenarios.iter().enumerate() {
        let mut world = World::new();
        scenario(&mut world);
        let mut cfg = config(LEGACY);
        if n % 2 == 0 {
            cfg.client_id = Some(mcp_elicit::auth::ClientId::new("pre"));
            cfg.client_secret = Some(ClientSecret::new("pre-secret-XYZ"));
        }
        // The page knows a refresh token (for another issuer, so it is not used here).
        let known = Known {
            registrations: Vec::new(),
            grant: Some(mcp_elicit::auth::Grant {
                access_token: mcp_elicit::auth::AccessToken::new("old-at-SECRET"),
                refresh_token: Some(mcp_elicit::auth::RefreshToken::new("old-rt-SECRET")),
                expires_in: None,
                scopes_requested: Vec::new(),
                scopes_granted: None,
                issuer: "https://other.example".into(),
                resource: SERVER.into(),
                token_endpoint: "https://other.example/token".into(),
                client_id: mcp_elicit::auth::ClientId::new("x"),
                registration: None,
            }),
        };
        let step = sign_in_with(&mut world, cfg.clone(), Some(&header()), known);
        if let Step::Failed(e) = &step {
            outcomes.push(e.to_string());
        }
        outcomes.push(format!("{step:?}"));
        outcomes.push(format!("{cfg:?}"));
    }
    // And the flow itself, mid-exchange.
    let mut world = World::new();
    let mut flow = mcp_elicit::auth::Flow::start(
        config(LEGACY),
        SERVER,
        Some(challenge::parse(&header()).unwrap()),
        Known::default(),
        entropy(),
    );
    while let Step::Fetch(req) = flow.poll() {
        flow.handle_response(world.answer(&req).unwrap());
    }
    let Step::SignIn(card) = flow.poll() else {
        panic!()
    };
    let _ = flow.handle_callback(world.authorize(&card.authorization_url));
    outcomes.push(format!("{flow:?}"));
    for text in &outcomes {
        for secret in secrets {
            assert!(!text.contains(secret), "{secret} leaked in: {text}");
        }
    }
    assert!(outcomes.iter().any(|t| t.contains("[redacted]")));
}
