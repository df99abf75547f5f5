//! The conformance suite's client `auth/` scenarios (0.1.16 and 0.2.0-alpha.12), each as a
//! whole flow against a fake server shaped like the suite's: what it requests, in which
//! order, with which parameters, and what it refuses. docs/auth.md has the table.
#![cfg(not(target_arch = "wasm32"))]

use mcp_elicit::auth::{
    AuthProtocol, ClientId, ClientSecret, Grant, Known, Registration, Step, TokenAuthMethod,
};

use crate::auth_util::{
    config, form_of, param, sign_in, sign_in_with, Iss, World, AS, CODE, REDIRECT, SERVER,
};

const LEGACY: AuthProtocol = AuthProtocol::Legacy2025_11_25;
const MODERN: AuthProtocol = AuthProtocol::Modern2026_07_28;
const PRM_PATH: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
const PRM_ROOT: &str = "https://mcp.example/.well-known/oauth-protected-resource";

fn header(prm: &str, extra: &str) -> String {
    format!(r#"Bearer resource_metadata="{prm}"{extra}"#)
}

fn done(step: Step) -> Grant {
    match step {
        Step::Done(grant) => grant,
        other => panic!("expected Done, got {other:?}"),
    }
}

fn failed(step: Step) -> mcp_elicit::auth::AuthError {
    match step {
        Step::Failed(e) => e,
        other => panic!("expected Failed, got {other:?}"),
    }
}

/// `metadata-default`, `metadata-var1..3`: where the PRM and the AS metadata are, whether
/// the challenge names the PRM, and the URLs a correct client requests, in order.
#[test]
fn metadata_discovery_variants() {
    struct Case {
        name: &'static str,
        prm_at: &'static str,
        in_header: bool,
        prm_resource: &'static str,
        issuer: &'static str,
        as_metadata_at: &'static str,
        expected: &'static [&'static str],
    }
    let cases = [
        Case {
            name: "metadata-default",
            prm_at: PRM_PATH,
            in_header: true,
            prm_resource: SERVER,
            issuer: AS,
            as_metadata_at: "https://as.example/.well-known/oauth-authorization-server",
            expected: &[
                PRM_PATH,
                "https://as.example/.well-known/oauth-authorization-server",
                "https://as.example/register",
                "https://as.example/token",
            ],
        },
        Case {
            name: "metadata-var1",
            prm_at: PRM_PATH,
            in_header: false,
            prm_resource: SERVER,
            issuer: AS,
            as_metadata_at: "https://as.example/.well-known/openid-configuration",
            expected: &[
                PRM_PATH,
                "https://as.example/.well-known/oauth-authorization-server",
                "https://as.example/.well-known/openid-configuration",
                "https://as.example/register",
                "https://as.example/token",
            ],
        },
        Case {
            name: "metadata-var2",
            prm_at: PRM_ROOT,
            in_header: false,
            prm_resource: "https://mcp.example",
            issuer: "https://as.example/tenant1",
            as_metadata_at: "https://as.example/.well-known/oauth-authorization-server/tenant1",
            expected: &[
                PRM_PATH,
                PRM_ROOT,
                "https://as.example/.well-known/oauth-authorization-server/tenant1",
                "https://as.example/tenant1/register",
                "https://as.example/tenant1/token",
            ],
        },
        Case {
            name: "metadata-var3",
            prm_at: "https://mcp.example/custom/metadata/location.json",
            in_header: true,
            prm_resource: SERVER,
            issuer: "https://as.example/tenant1",
            as_metadata_at: "https://as.example/tenant1/.well-known/openid-configuration",
            expected: &[
                "https://mcp.example/custom/metadata/location.json",
                "https://as.example/.well-known/oauth-authorization-server/tenant1",
                "https://as.example/.well-known/openid-configuration/tenant1",
                "https://as.example/tenant1/.well-known/openid-configuration",
                "https://as.example/tenant1/register",
                "https://as.example/tenant1/token",
            ],
        },
    ];
    for case in cases {
        let mut world = World::new();
        world.prm_at = Some(case.prm_at.into());
        world.prm_resource = case.prm_resource.into();
        world.authorization_servers = vec![case.issuer.into()];
        world.issuer = case.issuer.into();
        world.endpoint_base = case.issuer.into();
        world.as_metadata_at = Some(case.as_metadata_at.into());
        let h = header(case.prm_at, "");
        let challenge = if case.in_header {
            Some(h.as_str())
        } else {
            Some("Bearer")
        };
        let grant = done(sign_in(&mut world, LEGACY, challenge, Known::default()));
        assert_eq!(world.urls(), case.expected, "{}", case.name);
        // The resource exactly as the PRM published it, in both requests (no "/" added).
        assert_eq!(
            world.auth_param("resource").as_deref(),
            Some(case.prm_resource),
            "{}",
            case.name
        );
        let token = form_of(world.token_requests()[0]);
        assert_eq!(
            param(&token, "resource").as_deref(),
            Some(case.prm_resource),
            "{}",
            case.name
        );
        assert_eq!(grant.resource, case.prm_resource);
        assert_eq!(grant.issuer, case.issuer);
        // PKCE S256: the challenge in the URL, the verifier in the token request.
        assert_eq!(
            world.auth_param("code_challenge_method").as_deref(),
            Some("S256")
        );
        assert_eq!(
            world.auth_param("code_challenge"),
            Some(crate::auth_util::entropy().challenge_s256)
        );
        assert_eq!(
            param(&token, "code_verifier").as_deref(),
            Some(crate::auth_util::entropy().verifier.secret())
        );
        assert_eq!(param(&token, "code").as_deref(), Some(CODE));
        assert_eq!(param(&token, "redirect_uri").as_deref(), Some(REDIRECT));
        assert_eq!(
            param(&token, "grant_type").as_deref(),
            Some("authorization_code")
        );
    }
}

#[test]
fn basic_cimd_uses_the_metadata_url_as_client_id() {
    let mut world = World::new();
    world.cimd_supported = true;
    let mut cfg = config(LEGACY);
    cfg.client_metadata_url = Some("https://conformance-test.local/client-metadata.json".into());
    let grant = done(sign_in_with(
        &mut world,
        cfg,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert!(!world.urls().iter().any(|u| u.ends_with("/register")));
    assert_eq!(
        world.auth_param("client_id").as_deref(),
        Some("https://conformance-test.local/client-metadata.json")
    );
    assert!(grant.registration.is_none());
    // Without server support, the same config registers.
    let mut world = World::new();
    let mut cfg = config(LEGACY);
    cfg.client_metadata_url = Some("https://conformance-test.local/client-metadata.json".into());
    done(sign_in_with(
        &mut world,
        cfg,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert!(world.urls().iter().any(|u| u.ends_with("/register")));
}

#[test]
fn scope_selection_follows_challenge_then_resource_then_nothing() {
    // scope-from-www-authenticate
    let mut world = World::new();
    world.prm_scopes = Some(vec!["other".into()]);
    done(sign_in(
        &mut world,
        LEGACY,
        Some(&header(PRM_PATH, r#", scope="mcp:basic""#)),
        Known::default(),
    ));
    assert_eq!(world.auth_param("scope").as_deref(), Some("mcp:basic"));
    // scope-from-scopes-supported
    let mut world = World::new();
    world.prm_scopes = Some(vec![
        "mcp:basic".into(),
        "mcp:read".into(),
        "mcp:write".into(),
    ]);
    done(sign_in(
        &mut world,
        LEGACY,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert_eq!(
        world.auth_param("scope").as_deref(),
        Some("mcp:basic mcp:read mcp:write")
    );
    // scope-omitted-when-undefined
    let mut world = World::new();
    done(sign_in(
        &mut world,
        LEGACY,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert_eq!(world.auth_param("scope"), None);
    assert!(world.auth_param("client_id").is_some());
}

/// `scope-step-up`: the first sign-in asks for the 401's scope; the 403
/// `insufficient_scope` asks for the challenged scope, with the earlier grant's at
/// 2026-07-28 (SEP-2350) and alone at 2025-11-25.
#[test]
fn step_up_asks_for_the_challenged_scope() {
    for (protocol, expected) in [(LEGACY, "mcp:write"), (MODERN, "mcp:basic mcp:write")] {
        let mut world = World::new();
        world.prm_scopes = Some(vec!["mcp:profile".into()]);
        let first = done(sign_in(
            &mut world,
            protocol,
            Some(&header(PRM_PATH, r#", scope="mcp:basic""#)),
            Known::default(),
        ));
        assert_eq!(world.auth_param("scope").as_deref(), Some("mcp:basic"));
        let known = Known {
            registrations: first.registration.clone().into_iter().collect(),
            grant: Some(first),
        };
        let step_up = format!(
            r#"Bearer scope="mcp:write", resource_metadata="{PRM_PATH}", error="insufficient_scope""#
        );
        done(sign_in(&mut world, protocol, Some(&step_up), known));
        assert_eq!(
            world.auth_param("scope").as_deref(),
            Some(expected),
            "{protocol:?}"
        );
        assert_eq!(world.authorizations.len(), 2);
        // The registration was kept for this issuer: registered once.
        assert_eq!(
            world
                .urls()
                .iter()
                .filter(|u| u.ends_with("/register"))
                .count(),
            1
        );
    }
}

/// `scope-retry-limit`: the IO stops after MAX_AUTHORIZATIONS_PER_REQUEST sign-ins for one
/// request, each a flow the machine runs whole.
#[test]
fn retry_limit_bounds_the_sign_ins_of_one_request() {
    use mcp_elicit::auth::MAX_AUTHORIZATIONS_PER_REQUEST;
    let mut world = World::new();
    let challenge = format!(
        r#"Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="{PRM_PATH}""#
    );
    let mut known = Known::default();
    let mut sign_ins = 0;
    // The IO's loop: each 403 starts a flow until the limit.
    while sign_ins < MAX_AUTHORIZATIONS_PER_REQUEST {
        let grant = done(sign_in(&mut world, MODERN, Some(&challenge), known.clone()));
        sign_ins += 1;
        known.registrations.extend(grant.registration.clone());
        known.grant = Some(grant);
    }
    assert_eq!(world.authorizations.len(), 3);
}

#[test]
fn token_endpoint_auth_follows_the_registration() {
    for method in ["client_secret_basic", "client_secret_post", "none"] {
        let mut world = World::new();
        world.auth_methods = vec![method.into()];
        let secret = (method != "none").then(|| "test-secret-1".to_string());
        world.registers_as = ("test-client-7".into(), secret, Some(method.into()));
        let grant = done(sign_in(
            &mut world,
            LEGACY,
            Some(&header(PRM_PATH, "")),
            Known::default(),
        ));
        let token = world.token_requests()[0].clone();
        let form = form_of(&token);
        match method {
            "client_secret_basic" => {
                // base64("test-client-7:test-secret-1")
                assert_eq!(
                    token.header("authorization"),
                    Some("Basic dGVzdC1jbGllbnQtNzp0ZXN0LXNlY3JldC0x")
                );
                assert_eq!(param(&form, "client_secret"), None);
            }
            "client_secret_post" => {
                assert_eq!(token.header("authorization"), None);
                assert_eq!(param(&form, "client_id").as_deref(), Some("test-client-7"));
                assert_eq!(
                    param(&form, "client_secret").as_deref(),
                    Some("test-secret-1")
                );
            }
            _ => {
                assert_eq!(token.header("authorization"), None);
                assert_eq!(param(&form, "client_id").as_deref(), Some("test-client-7"));
                assert_eq!(param(&form, "client_secret"), None);
            }
        }
        let registration = grant.registration.unwrap();
        assert_eq!(registration.auth_method.name(), method);
        assert_eq!(registration.issuer, AS);
    }
}

#[test]
fn pre_registration_uses_the_hosts_credentials_with_basic() {
    let mut world = World::new();
    world.registration = false;
    world.auth_methods = vec!["client_secret_basic".into()];
    let mut cfg = config(LEGACY);
    cfg.client_id = Some(ClientId::new("pre-registered-client"));
    cfg.client_secret = Some(ClientSecret::new("pre-registered-secret"));
    let grant = done(sign_in_with(
        &mut world,
        cfg,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    let token = world.token_requests()[0].clone();
    // base64("pre-registered-client:pre-registered-secret")
    assert_eq!(
        token.header("authorization"),
        Some("Basic cHJlLXJlZ2lzdGVyZWQtY2xpZW50OnByZS1yZWdpc3RlcmVkLXNlY3JldA==")
    );
    assert!(grant.registration.is_none());
    assert_eq!(grant.client_id.as_str(), "pre-registered-client");
}

/// `2025-03-26-oauth-metadata-backcompat`: no PRM anywhere; the AS metadata is at the
/// server's origin, its endpoints under /oauth.
#[test]
fn backcompat_metadata_at_the_servers_origin() {
    let mut world = World::new();
    world.prm_at = None;
    world.issuer = "https://mcp.example".into();
    world.as_metadata_at =
        Some("https://mcp.example/.well-known/oauth-authorization-server".into());
    world.endpoint_base = "https://mcp.example/oauth".into();
    world.iss_supported = None;
    world.iss = Iss::Omit;
    let grant = done(sign_in(
        &mut world,
        LEGACY,
        Some("Bearer"),
        Known::default(),
    ));
    assert_eq!(
        world.urls(),
        [
            PRM_PATH,
            PRM_ROOT,
            "https://mcp.example/.well-known/oauth-authorization-server",
            "https://mcp.example/oauth/register",
            "https://mcp.example/oauth/token",
        ]
    );
    assert_eq!(grant.resource, SERVER);
}

/// 0.1.16's `2025-03-26-oauth-metadata-backcompat`: the metadata at the server's origin
/// names `<origin>/oauth` as its issuer. Without resource metadata there was no issuer to
/// build its URL from, so an issuer on the server's own origin is taken; one on another
/// origin is not.
#[test]
fn backcompat_metadata_may_name_an_issuer_on_the_servers_origin() {
    let world_with = |metadata_issuer: &str| {
        let mut world = World::new();
        world.prm_at = None;
        world.issuer = "https://mcp.example".into();
        world.metadata_issuer = Some(metadata_issuer.into());
        world.as_metadata_at =
            Some("https://mcp.example/.well-known/oauth-authorization-server".into());
        world.endpoint_base = "https://mcp.example/oauth".into();
        world.iss_supported = None;
        world.iss = Iss::Omit;
        world
    };
    let mut world = world_with("https://mcp.example/oauth");
    let grant = done(sign_in(
        &mut world,
        LEGACY,
        Some("Bearer"),
        Known::default(),
    ));
    assert_eq!(grant.resource, SERVER);
    assert_eq!(world.authorizations.len(), 1);
    let mut world = world_with("https://as.evil.example/oauth");
    let e = failed(sign_in(
        &mut world,
        LEGACY,
        Some("Bearer"),
        Known::default(),
    ));
    assert_eq!(e.code(), "issuer_mismatch", "{e}");
    assert!(world.authorizations.is_empty());
}

/// `2025-03-26-oauth-endpoint-fallback`: no metadata at all: /authorize, /token,
/// /register at the server's origin.
#[test]
fn backcompat_default_endpoints() {
    let mut world = World::new();
    world.prm_at = None;
    world.as_metadata_at = None;
    world.issuer = "https://mcp.example".into();
    world.endpoint_base = "https://mcp.example".into();
    world.iss = Iss::Omit;
    done(sign_in(&mut world, LEGACY, None, Known::default()));
    assert_eq!(
        world.urls(),
        [
            PRM_PATH,
            PRM_ROOT,
            "https://mcp.example/.well-known/oauth-authorization-server",
            "https://mcp.example/.well-known/openid-configuration",
            "https://mcp.example/register",
            "https://mcp.example/token",
        ]
    );
    assert_eq!(world.authorizations.len(), 1);
}

#[test]
fn resource_mismatch_stops_before_the_authorization_server() {
    let mut world = World::new();
    world.prm_resource = "https://evil.example.com/mcp".into();
    let e = failed(sign_in(
        &mut world,
        MODERN,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert_eq!(e.code(), "resource_mismatch");
    assert_eq!(world.urls(), [PRM_PATH]);
    let text = e.to_string();
    assert!(
        text.contains("this server's tokens would be issued for https://evil.example.com/mcp"),
        "{text}"
    );
    assert!(text.contains("https://mcp.example/mcp"), "{text}");
}

#[test]
fn offline_access_only_where_the_authorization_server_lists_it() {
    // offline-access-scope
    let mut world = World::new();
    world.prm_scopes = Some(vec!["mcp:basic".into()]);
    world.as_scopes = Some(vec!["mcp:basic".into(), "offline_access".into()]);
    done(sign_in(
        &mut world,
        MODERN,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert_eq!(
        world.auth_param("scope").as_deref(),
        Some("mcp:basic offline_access")
    );
    let registration: serde_json::Value =
        serde_json::from_str(world.requests[2].body.as_deref().unwrap()).unwrap();
    assert_eq!(
        registration["grant_types"],
        serde_json::json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(registration["application_type"], "web");
    // offline-access-not-supported (even when the challenge asks for it)
    let mut world = World::new();
    world.prm_scopes = Some(vec!["mcp:basic".into(), "mcp:read".into()]);
    world.as_scopes = Some(vec!["mcp:basic".into(), "mcp:read".into()]);
    done(sign_in(
        &mut world,
        MODERN,
        Some(&header(PRM_PATH, r#", scope="mcp:basic offline_access""#)),
        Known::default(),
    ));
    assert_eq!(world.auth_param("scope").as_deref(), Some("mcp:basic"));
}

#[test]
fn registration_names_application_type_at_2026_07_28_only() {
    for (protocol, expected) in [(LEGACY, serde_json::Value::Null), (MODERN, "web".into())] {
        let mut world = World::new();
        done(sign_in(
            &mut world,
            protocol,
            Some(&header(PRM_PATH, "")),
            Known::default(),
        ));
        let register = world
            .requests
            .iter()
            .find(|r| r.url.ends_with("/register"))
            .unwrap();
        assert_eq!(register.header("content-type"), Some("application/json"));
        let body: serde_json::Value =
            serde_json::from_str(register.body.as_deref().unwrap()).unwrap();
        assert_eq!(body["application_type"], expected);
        assert_eq!(body["redirect_uris"], serde_json::json!([REDIRECT]));
    }
}

/// `authorization-server-migration`: the PRM now names another AS. The client registers
/// there, and neither the old client id nor the old refresh token goes to it.
#[test]
fn authorization_server_migration_registers_again() {
    let mut world = World::new();
    world.registers_as = (
        "as1-client-id-LEAKED-IF-SEEN-AT-AS2".into(),
        Some("as1-secret".into()),
        None,
    );
    world.refresh_tokens = true;
    let first = done(sign_in(
        &mut world,
        MODERN,
        Some(&header(PRM_PATH, r#", scope="mcp:basic""#)),
        Known::default(),
    ));
    let known = Known {
        registrations: first.registration.clone().into_iter().collect(),
        grant: Some(first),
    };
    let mut world2 = World::new();
    world2.authorization_servers = vec!["https://as2.example".into()];
    world2.issuer = "https://as2.example".into();
    world2.endpoint_base = "https://as2.example".into();
    world2.as_metadata_at =
        Some("https://as2.example/.well-known/oauth-authorization-server".into());
    world2.registers_as = ("as2-client-id".into(), None, None);
    let grant = done(sign_in(
        &mut world2,
        MODERN,
        Some(&header(PRM_PATH, r#", scope="mcp:basic""#)),
        known,
    ));
    assert!(world2
        .urls()
        .contains(&"https://as2.example/register".to_string()));
    for req in &world2.requests {
        let text = format!("{} {:?} {:?}", req.url, req.headers, req.body);
        assert!(!text.contains("as1-client-id"), "{text}");
        assert!(
            !text.contains("rt-SECRET"),
            "the old refresh token went to {}",
            req.url
        );
        assert!(!req.url.starts_with("https://as.example"), "{}", req.url);
    }
    assert_eq!(
        world2.auth_param("client_id").as_deref(),
        Some("as2-client-id")
    );
    assert_eq!(grant.issuer, "https://as2.example");
    assert_eq!(grant.registration.unwrap().issuer, "https://as2.example");
}

/// RFC 9207: `iss-supported`, `iss-not-advertised` go on; `iss-supported-missing`,
/// `iss-wrong-issuer`, `iss-unexpected`, `iss-normalized` stop before the token request.
#[test]
fn iss_in_the_authorization_response() {
    let cases = [
        ("iss-supported", Some(true), Iss::Correct, None),
        ("iss-not-advertised", None, Iss::Omit, None),
        (
            "iss-supported-missing",
            Some(true),
            Iss::Omit,
            Some("names no one"),
        ),
        (
            "iss-wrong-issuer",
            Some(true),
            Iss::Wrong,
            Some("came from https://evil.example.com"),
        ),
        (
            "iss-unexpected",
            None,
            Iss::Wrong,
            Some("came from https://evil.example.com"),
        ),
        (
            "iss-normalized",
            Some(true),
            Iss::Normalized,
            Some("came from https://as.example/"),
        ),
    ];
    for (name, supported, iss, refusal) in cases {
        let mut world = World::new();
        world.iss_supported = supported;
        world.iss = iss;
        let step = sign_in(
            &mut world,
            MODERN,
            Some(&header(PRM_PATH, "")),
            Known::default(),
        );
        match refusal {
            None => {
                done(step);
                assert_eq!(world.token_requests().len(), 1, "{name}");
            }
            Some(words) => {
                let e = failed(step);
                assert_eq!(e.code(), "iss_mismatch", "{name}");
                assert!(e.to_string().contains(words), "{name}: {e}");
                assert!(
                    e.to_string()
                        .contains("this server's tokens would come from https://as.example"),
                    "{name}: {e}"
                );
                assert_eq!(world.authorizations.len(), 1, "{name}");
                assert!(
                    world.token_requests().is_empty(),
                    "{name}: the code went to the token endpoint"
                );
            }
        }
    }
}

#[test]
fn metadata_issuer_mismatch_uses_no_endpoint() {
    let mut world = World::new();
    world.metadata_issuer = Some("https://attacker.example.com".into());
    world.endpoint_base = "https://as.example/mismatched-as".into();
    let e = failed(sign_in(
        &mut world,
        MODERN,
        Some(&header(PRM_PATH, "")),
        Known::default(),
    ));
    assert_eq!(e.code(), "issuer_mismatch");
    assert_eq!(
        e.to_string(),
        "Sign-in stopped: this server's tokens would come from https://as.example, but that \
         server's metadata says it is https://attacker.example.com."
    );
    assert_eq!(
        world.urls(),
        [
            PRM_PATH,
            "https://as.example/.well-known/oauth-authorization-server"
        ]
    );
}

/// A registration kept for one issuer is used there, and only there.
#[test]
fn a_kept_registration_is_used_at_its_own_issuer() {
    let registration = Registration {
        issuer: AS.into(),
        client_id: ClientId::new("kept-client"),
        client_secret: None,
        auth_method: TokenAuthMethod::None,
        redirect_uri: REDIRECT.into(),
    };
    let mut world = World::new();
    let known = Known {
        registrations: vec![registration.clone()],
        grant: None,
    };
    let grant = done(sign_in(
        &mut world,
        LEGACY,
        Some(&header(PRM_PATH, "")),
        known,
    ));
    assert!(!world.urls().iter().any(|u| u.ends_with("/register")));
    assert_eq!(
        world.auth_param("client_id").as_deref(),
        Some("kept-client")
    );
    assert!(grant.registration.is_none());
    // Kept for another issuer: not used.
    let mut other = registration;
    other.issuer = "https://as.other".into();
    let mut world = World::new();
    let known = Known {
        registrations: vec![other],
        grant: None,
    };
    done(sign_in(
        &mut world,
        LEGACY,
        Some(&header(PRM_PATH, "")),
        known,
    ));
    assert!(world.urls().iter().any(|u| u.ends_with("/register")));
    assert_eq!(
        world.auth_param("client_id").as_deref(),
        Some("test-client-id")
    );
}
