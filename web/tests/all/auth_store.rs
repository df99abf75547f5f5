//! What sign-in keeps between flows (`mcp_elicit_web::auth::Store`), in headless Chromium:
//! every field of a grant and of a registration reads back as it was kept, in memory and
//! in the tab's `sessionStorage`; registrations are one per issuer and at most
//! `MAX_REGISTRATIONS`; a record that does not read (damaged, another shape) is as good as
//! none; the randomness of a sign-in that left the page is read back once.

#![cfg(target_arch = "wasm32")]

use mcp_elicit::auth::{
    AccessToken, ClientId, ClientSecret, CsrfState, Entropy, Grant, PkceVerifier, RefreshToken,
    Registration, TokenAuthMethod,
};
use mcp_elicit_web::auth::{keep_pending, take_pending, Store, MAX_REGISTRATIONS};
use wasm_bindgen_test::*;

fn grant(resource: &str, refresh: bool, granted: Option<Vec<String>>) -> Grant {
    Grant {
        access_token: AccessToken::new(format!("at-{resource}")),
        refresh_token: refresh.then(|| RefreshToken::new("rt \"quoted\" ü")),
        expires_in: None,
        scopes_requested: vec!["read".into(), "write".into()],
        scopes_granted: granted,
        issuer: "https://as.example".into(),
        resource: resource.into(),
        token_endpoint: "https://as.example/token".into(),
        client_id: ClientId::new("client-1"),
        registration: None,
    }
}

fn registration(issuer: &str, secret: bool, method: TokenAuthMethod) -> Registration {
    Registration {
        issuer: issuer.into(),
        client_id: ClientId::new(format!("id of {issuer}")),
        client_secret: secret.then(|| ClientSecret::new("s3cret")),
        auth_method: method,
        redirect_uri: "https://app.example/oauth-callback.html".into(),
    }
}

fn memory() -> Store {
    Store::Memory(js_sys::Map::new())
}

fn session_clear() {
    if let Some(s) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let _ = s.clear();
    }
}

async fn grants_read_back(store: &Store) {
    let full = grant("https://mcp.example/a", true, Some(vec!["read".into()]));
    store
        .keep_grant("https://mcp.example/a", &full, Some(1.5e12))
        .await;
    let bare = grant("https://mcp.example/b", false, None);
    store.keep_grant("https://mcp.example/b", &bare, None).await;

    assert_eq!(store.grant("https://mcp.example/a").await, Some(full));
    assert_eq!(store.expiry("https://mcp.example/a").await, Some(1.5e12));
    assert_eq!(store.grant("https://mcp.example/b").await, Some(bare));
    assert_eq!(store.expiry("https://mcp.example/b").await, None);
    assert_eq!(store.grant("https://mcp.example/c").await, None);

    // A newer grant replaces the one before.
    let newer = grant("https://mcp.example/a", false, Some(vec![]));
    store
        .keep_grant("https://mcp.example/a", &newer, None)
        .await;
    assert_eq!(store.grant("https://mcp.example/a").await, Some(newer));
}

async fn registrations_read_back(store: &Store) {
    assert!(store.registrations().await.is_empty());
    let a = registration(
        "https://as-a.example",
        true,
        TokenAuthMethod::ClientSecretBasic,
    );
    let b = registration("https://as-b.example", false, TokenAuthMethod::None);
    store.keep_registration(&a).await;
    store.keep_registration(&b).await;
    assert_eq!(store.registrations().await, vec![a.clone(), b.clone()]);

    // One per issuer: the newer one for an issuer replaces the older and goes last.
    let a2 = registration(
        "https://as-a.example",
        true,
        TokenAuthMethod::ClientSecretPost,
    );
    store.keep_registration(&a2).await;
    assert_eq!(store.registrations().await, vec![b, a2]);

    // At most MAX_REGISTRATIONS: the oldest are forgotten.
    for k in 0..MAX_REGISTRATIONS + 3 {
        let r = registration(
            &format!("https://as{k}.example"),
            false,
            TokenAuthMethod::None,
        );
        store.keep_registration(&r).await;
    }
    let kept = store.registrations().await;
    assert_eq!(kept.len(), MAX_REGISTRATIONS);
    assert_eq!(kept[0].issuer, "https://as3.example");
    assert_eq!(
        kept[MAX_REGISTRATIONS - 1].issuer,
        format!("https://as{}.example", MAX_REGISTRATIONS + 2)
    );
}

#[wasm_bindgen_test]
async fn a_grant_reads_back_every_field_in_memory_and_in_the_session() {
    grants_read_back(&memory()).await;
    session_clear();
    grants_read_back(&Store::Session).await;
    session_clear();
}

#[wasm_bindgen_test]
async fn registrations_read_back_one_per_issuer_and_bounded() {
    registrations_read_back(&memory()).await;
    session_clear();
    registrations_read_back(&Store::Session).await;
    session_clear();
}

#[wasm_bindgen_test]
async fn a_record_that_does_not_read_is_none() {
    session_clear();
    let Some(session) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else {
        panic!("no sessionStorage");
    };
    let store = Store::Session;
    let resource = "https://mcp.example/damaged";
    store
        .keep_grant(resource, &grant(resource, true, None), None)
        .await;
    let key = (0..session.length().unwrap_or(0))
        .filter_map(|k| session.key(k).ok().flatten())
        .find(|k| k.ends_with(resource))
        .unwrap_or_default();
    assert!(key.starts_with("mcp-elicit/auth/v1/"), "key {key:?}");
    for damaged in [
        "not json",
        "[1, 2]",
        "{\"access_token\": 5}",
        "{\"access_token\": \"x\"}",
        "{}",
    ] {
        let _ = session.set_item(&key, damaged);
        assert_eq!(store.grant(resource).await, None, "{damaged}");
    }
    // A registration with an unknown token auth method is left out, the others kept.
    let good = registration("https://as-good.example", false, TokenAuthMethod::None);
    store.keep_registration(&good).await;
    let clients = "mcp-elicit/auth/v1/clients";
    let Ok(Some(text)) = session.get_item(clients) else {
        panic!("no {clients}");
    };
    let odd = text.replace("\"none\"", "\"private_key_jwt\"");
    let _ = session.set_item(clients, &odd);
    assert!(store.registrations().await.is_empty());
    let _ = session.set_item(clients, "{\"not\": \"a list\"}");
    assert!(store.registrations().await.is_empty());
    session_clear();
}

#[wasm_bindgen_test]
async fn the_randomness_of_a_sign_in_that_left_reads_back_once() {
    session_clear();
    let entropy = Entropy {
        state: CsrfState::new("state-1"),
        verifier: PkceVerifier::new("verifier-1"),
        challenge_s256: "challenge-1".into(),
    };
    keep_pending("https://mcp.example/p", &entropy).await;
    assert_eq!(take_pending("https://mcp.example/q").await, None);
    assert_eq!(take_pending("https://mcp.example/p").await, Some(entropy));
    assert_eq!(take_pending("https://mcp.example/p").await, None);
    session_clear();
}
