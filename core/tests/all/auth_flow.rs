//! The sign-in flow's own rules beyond the suite: refresh, the callback (state, replays,
//! refusals), PKCE's RFC 7636 vector, the challenge grammar.
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::auth::{
    challenge, pkce, AccessToken, AuthConfig, AuthProtocol, AuthResponse, CallbackOutcome,
    CallbackParams, ClientId, Flow, Grant, IgnoredCallback, Known, RefreshToken, Step,
};

use crate::auth_util::{config, entropy, form_of, param, run, sign_in, World, AS, CODE, SERVER};

const PRM_PATH: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

fn header() -> String {
    format!(r#"Bearer resource_metadata="{PRM_PATH}""#)
}

/// RFC 7636 Appendix B.
#[test]
fn pkce_matches_rfc_7636_appendix_b() {
    let bytes: [u8; 32] = [
        116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37,
        77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ];
    let verifier = pkce::verifier_from_bytes(&bytes);
    assert_eq!(
        verifier.secret(),
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    );
    // SHA-256 of that verifier, as the appendix gives it.
    let digest: [u8; 32] = [
        19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8, 118, 168, 120, 173,
        109, 241, 68, 86, 110, 225, 137, 74, 203, 112, 249, 195,
    ];
    assert_eq!(
        pkce::challenge_from_digest(&digest),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
    assert_eq!(pkce::state_from_bytes(&[0; 16]).secret().len(), 22);
}

#[test]
fn challenge_reads_the_bearer_parameters() {
    let c = challenge::parse(
        r#"DPoP algs="ES256", Bearer realm="mcp", scope="a b  a", error="insufficient_scope", resource_metadata="https://x.example/m", error_description="needs \"b\"""#,
    )
    .unwrap();
    assert_eq!(c.scopes, Some(vec!["a".to_string(), "b".to_string()]));
    assert_eq!(c.resource_metadata.as_deref(), Some("https://x.example/m"));
    assert!(c.is_insufficient_scope());
    assert_eq!(c.error_description.as_deref(), Some(r#"needs "b""#));
    // Token values, Basic's token68 before it, case of the scheme and names.
    let c =
        challenge::parse("Basic YWxhZGRpbjpvcGVuc2VzYW1l==, bearer Error=invalid_token").unwrap();
    assert_eq!(c.error.as_deref(), Some("invalid_token"));
    assert_eq!(
        challenge::parse("Bearer").unwrap(),
        challenge::Challenge::default()
    );
    // The DPoP scheme's parameters are not Bearer's.
    let c = challenge::parse(r#"DPoP scope="x", Bearer"#).unwrap();
    assert_eq!(c.scopes, None);
    for bad in ["Basic realm=\"x\"", "", r#"Bearer scope="open"#] {
        let e = challenge::parse(bad).unwrap_err();
        assert_eq!(e.code(), "challenge_unreadable", "{bad}");
        assert!(
            e.to_string().starts_with("The server's sign-in challenge"),
            "{e}"
        );
    }
}

fn known_with_refresh(issuer: &str, token_endpoint: &str) -> Known {
    Known {
        registrations: vec![mcp_elicit::auth::Registration {
            issuer: issuer.into(),
            client_id: ClientId::new("test-client-id"),
            client_secret: None,
            auth_method: mcp_elicit::auth::TokenAuthMethod::None,
            redirect_uri: crate::auth_util::REDIRECT.into(),
        }],
        grant: Some(Grant {
            access_token: AccessToken::new("old-at-SECRET"),
            refresh_token: Some(RefreshToken::new("old-rt-SECRET")),
            expires_in: Some(60),
            scopes_requested: vec!["mcp:basic".into()],
            scopes_granted: None,
            issuer: issuer.into(),
            resource: SERVER.into(),
            token_endpoint: token_endpoint.into(),
            client_id: ClientId::new("test-client-id"),
            registration: None,
        }),
    }
}

/// An expired token (no challenge): the refresh token first, at the grant's endpoint,
/// without the person and without discovery.
#[test]
fn expired_token_refreshes_first() {
    let mut world = World::new();
    let known = known_with_refresh(AS, "https://as.example/token");
    let grant = match sign_in(&mut world, AuthProtocol::Legacy2025_11_25, None, known) {
        Step::Done(g) => g,
        other => panic!("{other:?}"),
    };
    assert_eq!(world.urls(), ["https://as.example/token"]);
    let form = form_of(&world.requests[0]);
    assert_eq!(param(&form, "grant_type").as_deref(), Some("refresh_token"));
    assert_eq!(
        param(&form, "refresh_token").as_deref(),
        Some("old-rt-SECRET")
    );
    assert_eq!(param(&form, "resource").as_deref(), Some(SERVER));
    assert_eq!(param(&form, "client_id").as_deref(), Some("test-client-id"));
    assert!(world.authorizations.is_empty());
    // No new refresh token issued: the old one is kept.
    assert_eq!(grant.refresh_token.unwrap().secret(), "old-rt-SECRET");
    assert_ne!(grant.access_token.secret(), "old-at-SECRET");
}

/// A refused refresh goes on to discovery and a sign-in.
#[test]
fn refused_refresh_falls_back_to_sign_in() {
    let mut world = World::new();
    world.token_answer = Some(AuthResponse::json(400, r#"{"error":"invalid_grant"}"#));
    let known = known_with_refresh(AS, "https://as.example/token");
    let challenge = None;
    let mut flow = Flow::start(
        config(AuthProtocol::Legacy2025_11_25),
        SERVER,
        challenge,
        known,
        entropy(),
    );
    // Refresh, refused:
    let Step::Fetch(req) = flow.poll() else {
        panic!()
    };
    let resp = world.answer(&req).unwrap();
    flow.handle_response(resp);
    world.token_answer = None;
    let Step::Done(_) = run(&mut flow, &mut world) else {
        panic!()
    };
    assert_eq!(
        world.urls(),
        [
            "https://as.example/token",
            PRM_PATH,
            "https://as.example/.well-known/oauth-authorization-server",
            "https://as.example/token",
        ]
    );
    assert_eq!(world.authorizations.len(), 1);
}

/// A 401 with a refresh token: discovery first (the AS may have changed), then refresh at
/// the endpoint the metadata names.
#[test]
fn rejected_token_discovers_then_refreshes() {
    let mut world = World::new();
    let known = known_with_refresh(AS, "https://stale.example/token");
    let Step::Done(_) = sign_in(
        &mut world,
        AuthProtocol::Legacy2025_11_25,
        Some(&header()),
        known,
    ) else {
        panic!()
    };
    assert_eq!(
        world.urls(),
        [
            PRM_PATH,
            "https://as.example/.well-known/oauth-authorization-server",
            "https://as.example/token"
        ]
    );
    assert!(world.authorizations.is_empty());
}

/// A step-up never refreshes (a refresh cannot add scopes).
#[test]
fn step_up_does_not_refresh() {
    let mut world = World::new();
    let known = known_with_refresh(AS, "https://as.example/token");
    let h = format!(
        r#"Bearer error="insufficient_scope", scope="mcp:write", resource_metadata="{PRM_PATH}""#
    );
    let Step::Done(_) = sign_in(&mut world, AuthProtocol::Legacy2025_11_25, Some(&h), known) else {
        panic!()
    };
    assert_eq!(world.authorizations.len(), 1);
    assert_eq!(
        param(&form_of(world.token_requests()[0]), "grant_type").as_deref(),
        Some("authorization_code")
    );
}

fn flow_at_sign_in(world: &mut World) -> Flow {
    let mut flow = Flow::start(
        config(AuthProtocol::Modern2026_07_28),
        SERVER,
        Some(challenge::parse(&header()).unwrap()),
        Known::default(),
        entropy(),
    );
    while let Step::Fetch(req) = flow.poll() {
        let resp = world.answer(&req).unwrap();
        flow.handle_response(resp);
    }
    assert!(matches!(flow.poll(), Step::SignIn(_)));
    flow
}

#[test]
fn callbacks_with_another_state_are_ignored() {
    let mut world = World::new();
    let mut flow = flow_at_sign_in(&mut world);
    let Step::SignIn(card) = flow.poll() else {
        panic!()
    };
    assert_eq!(card.server_host, "mcp.example");
    assert_eq!(card.issuer_host, "as.example");
    let mut back = world.authorize(&card.authorization_url);
    let good_state = back.state.clone();
    for state in [None, Some("forged".to_string())] {
        back.state = state;
        assert_eq!(
            flow.handle_callback(back.clone()),
            CallbackOutcome::Ignored(IgnoredCallback::StateMismatch)
        );
        assert_eq!(flow.poll(), Step::SignIn(card.clone()));
    }
    back.state = good_state;
    assert_eq!(flow.handle_callback(back), CallbackOutcome::Accepted);
}

/// A callback replayed after its code was taken changes nothing: one token request.
#[test]
fn a_replayed_callback_is_ignored() {
    let mut world = World::new();
    let mut flow = flow_at_sign_in(&mut world);
    let Step::SignIn(card) = flow.poll() else {
        panic!()
    };
    let back = world.authorize(&card.authorization_url);
    assert_eq!(
        flow.handle_callback(back.clone()),
        CallbackOutcome::Accepted
    );
    for _ in 0..2 {
        assert_eq!(
            flow.handle_callback(back.clone()),
            CallbackOutcome::Ignored(IgnoredCallback::NotWaiting)
        );
    }
    let Step::Done(_) = run(&mut flow, &mut world) else {
        panic!()
    };
    assert_eq!(
        flow.handle_callback(back),
        CallbackOutcome::Ignored(IgnoredCallback::NotWaiting)
    );
    assert_eq!(world.token_requests().len(), 1);
}

/// The person declines: the card says so and offers sign-in again; a later approval goes on.
#[test]
fn a_refused_sign_in_can_be_tried_again() {
    let mut world = World::new();
    let mut flow = flow_at_sign_in(&mut world);
    let Step::SignIn(card) = flow.poll() else {
        panic!()
    };
    let mut back = world.authorize(&card.authorization_url);
    let approved = back.clone();
    back.code = None;
    back.error = Some("access_denied".into());
    back.error_description = Some("The user said no".into());
    assert_eq!(flow.handle_callback(back), CallbackOutcome::Refused);
    let Step::SignIn(again) = flow.poll() else {
        panic!()
    };
    let refused = again.refused.clone().unwrap();
    assert_eq!(refused.code(), "sign_in_refused");
    assert_eq!(
        refused.to_string(),
        "The sign-in at as.example did not complete (access_denied: The user said no)."
    );
    assert_eq!(again.authorization_url, card.authorization_url);
    assert_eq!(flow.handle_callback(approved), CallbackOutcome::Accepted);
    let Step::Done(grant) = run(&mut flow, &mut world) else {
        panic!()
    };
    assert_eq!(grant.issuer, AS);
    let _ = CODE;
}

#[test]
fn poll_is_idempotent() {
    let flow = Flow::start(
        config(AuthProtocol::Legacy2025_11_25),
        SERVER,
        None,
        Known::default(),
        entropy(),
    );
    assert_eq!(flow.poll(), flow.poll());
}

#[test]
fn the_authorization_url_keeps_the_endpoints_own_query() {
    let mut world = World::new();
    world.endpoint_base = AS.into();
    let mut flow = flow_at_sign_in(&mut world);
    let Step::SignIn(card) = flow.poll() else {
        panic!()
    };
    assert!(card.authorization_url.starts_with("https://as.example/authorize?response_type=code&client_id=test-client-id&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state="));
    let _ = flow.handle_callback(CallbackParams::default());
}

/// An extension's callback page is a redirect URI like a web page's (the example
/// extension's `chrome-extension://<id>/oauth-callback.html`); a `javascript:`, `data:` or
/// relative one is refused before anything is sent.
#[test]
fn the_redirect_url_is_a_web_page_or_an_extension_page() {
    let start = |redirect: &str| {
        Flow::start(
            AuthConfig::new(redirect, AuthProtocol::Modern2026_07_28),
            SERVER,
            Some(challenge::parse(&header()).unwrap()),
            Known::default(),
            entropy(),
        )
        .poll()
    };
    for good in [
        "https://app.example/cb",
        "http://127.0.0.1:8000/oauth-callback.html",
        "chrome-extension://aeegiafafipebfgjabdlaggpbindkkdm/oauth-callback.html",
        "moz-extension://0b5e2c2e-6f1a-4c55-9b1e-3f2a1d9c8e77/oauth-callback.html",
    ] {
        assert!(matches!(start(good), Step::Fetch(_)), "{good}");
    }
    for bad in [
        "javascript:alert(1)",
        "data:text/html,hi",
        "/oauth-callback.html",
        "chrome-extension:///oauth-callback.html",
        "chrome-extension://user@id/oauth-callback.html",
    ] {
        let Step::Failed(err) = start(bad) else {
            panic!("{bad} was taken");
        };
        assert!(err.to_string().contains("redirect URL"), "{bad}: {err}");
    }
}
