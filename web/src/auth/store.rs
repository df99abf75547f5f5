//! Where sign-in keeps what outlives one flow: the grant (access and refresh token) for
//! each server, and the client's registration at each authorization server. A host picks
//! the place (`auth.storage`): the tab's `sessionStorage` (the default: gone when the
//! tab closes, and never sent anywhere), memory (gone with the page), or its own object
//! with `get`/`set`/`remove` (a vault, an extension's storage).
//!
//! The records are this module's JSON; a record that does not read back (another
//! version's, or edited) is as good as none. Nothing here is logged or put in an error.

use std::cell::RefCell;
use std::collections::HashMap;

use mcp_elicit::auth::{
    AccessToken, ClientId, ClientSecret, CsrfState, Entropy, Grant, PkceVerifier, RefreshToken,
    Registration, TokenAuthMethod,
};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

use super::glue;

/// Prefix of every key, so a host's store can tell ours apart.
const PREFIX: &str = "mcp-elicit/auth/v1/";

/// Where records live.
pub enum Store {
    Session,
    Memory(RefCell<HashMap<String, String>>),
    /// A host object with `get(key)`, `set(key, value)` and `remove(key)`; each may
    /// return a Promise.
    Host(JsValue),
}

impl Store {
    async fn op(&self, op: &str, key: &str, value: Option<&str>) -> Option<String> {
        match self {
            Store::Memory(map) => {
                let mut map = map.borrow_mut();
                match (op, value) {
                    ("get", _) => map.get(key).cloned(),
                    ("set", Some(value)) => map.insert(key.to_owned(), value.to_owned()),
                    _ => map.remove(key),
                }
            }
            Store::Session => glue::session_op(op, key, value),
            Store::Host(host) => glue::host_op(host, op, key, value).await,
        }
    }

    async fn get<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Option<T> {
        let text = self.op("get", key, None).await?;
        serde_json::from_str(&text).ok()
    }

    async fn set<T: Serialize>(&self, key: &str, value: &T) {
        if let Ok(text) = serde_json::to_string(value) {
            self.op("set", key, Some(&text)).await;
        }
    }

    /// The grant kept for the server at `resource`.
    pub async fn grant(&self, resource: &str) -> Option<Grant> {
        self.get::<KeptGrant>(&grant_key(resource))
            .await
            .map(KeptGrant::into_grant)
    }

    /// Keeps `grant` for the server at `resource` (replacing the one before).
    pub async fn keep_grant(&self, resource: &str, grant: &Grant, expires_at: Option<f64>) {
        self.set(&grant_key(resource), &KeptGrant::of(grant, expires_at))
            .await;
    }

    /// When the kept grant for `resource` expires (`Date.now()` milliseconds), if known.
    pub async fn expiry(&self, resource: &str) -> Option<f64> {
        self.get::<KeptGrant>(&grant_key(resource))
            .await
            .and_then(|g| g.expires_at)
    }

    /// Every registration kept, each for its own issuer (the flow uses only the one of
    /// the issuer it signs in at).
    pub async fn registrations(&self) -> Vec<Registration> {
        let kept: Vec<(String, KeptRegistration)> =
            self.get(&clients_key()).await.unwrap_or_default();
        kept.into_iter()
            .filter_map(|(issuer, kept)| kept.into_registration(&issuer))
            .collect()
    }

    /// Keeps `registration` under its issuer (one per issuer, the newest of at most
    /// [`MAX_REGISTRATIONS`]).
    pub async fn keep_registration(&self, registration: &Registration) {
        let mut kept: Vec<(String, KeptRegistration)> =
            self.get(&clients_key()).await.unwrap_or_default();
        kept.retain(|(issuer, _)| issuer != &registration.issuer);
        kept.push((
            registration.issuer.clone(),
            KeptRegistration::of(registration),
        ));
        let extra = kept.len().saturating_sub(MAX_REGISTRATIONS);
        kept.drain(..extra);
        self.set(&clients_key(), &kept).await;
    }
}

/// Most authorization servers whose registrations are kept: a page talks to a few
/// servers; past this the oldest registration is forgotten (and made again if needed).
pub const MAX_REGISTRATIONS: usize = 32;

/// The randomness of a sign-in whose page left for the authorization page (a blocked
/// popup), kept in the tab's `sessionStorage` whatever the store (only this tab comes
/// back), until the page is back: the new flow must send the same `state` and verifier.
pub async fn keep_pending(resource: &str, entropy: &Entropy) {
    let kept = KeptEntropy {
        state: entropy.state.secret().to_owned(),
        verifier: entropy.verifier.secret().to_owned(),
        challenge: entropy.challenge_s256.clone(),
    };
    Store::Session.set(&pending_key(resource), &kept).await;
}

/// The randomness [`keep_pending`] kept for `resource`, taken (read once).
pub async fn take_pending(resource: &str) -> Option<Entropy> {
    let key = pending_key(resource);
    let kept: KeptEntropy = Store::Session.get(&key).await?;
    Store::Session.op("remove", &key, None).await;
    Some(Entropy {
        state: CsrfState::new(kept.state),
        verifier: PkceVerifier::new(kept.verifier),
        challenge_s256: kept.challenge,
    })
}

#[derive(Serialize, Deserialize)]
struct KeptEntropy {
    state: String,
    verifier: String,
    challenge: String,
}

fn pending_key(resource: &str) -> String {
    format!("{PREFIX}pending {resource}")
}

fn grant_key(resource: &str) -> String {
    format!("{PREFIX}grant {resource}")
}

fn clients_key() -> String {
    format!("{PREFIX}clients")
}

#[derive(Serialize, Deserialize)]
struct KeptGrant {
    access_token: String,
    refresh_token: Option<String>,
    expires_at: Option<f64>,
    scopes_requested: Vec<String>,
    scopes_granted: Option<Vec<String>>,
    issuer: String,
    resource: String,
    token_endpoint: String,
    client_id: String,
}

impl KeptGrant {
    fn of(grant: &Grant, expires_at: Option<f64>) -> Self {
        KeptGrant {
            access_token: grant.access_token.secret().to_owned(),
            refresh_token: grant.refresh_token.as_ref().map(|t| t.secret().to_owned()),
            expires_at,
            scopes_requested: grant.scopes_requested.clone(),
            scopes_granted: grant.scopes_granted.clone(),
            issuer: grant.issuer.clone(),
            resource: grant.resource.clone(),
            token_endpoint: grant.token_endpoint.clone(),
            client_id: grant.client_id.as_str().to_owned(),
        }
    }

    fn into_grant(self) -> Grant {
        Grant {
            access_token: AccessToken::new(self.access_token),
            refresh_token: self.refresh_token.map(RefreshToken::new),
            expires_in: None,
            scopes_requested: self.scopes_requested,
            scopes_granted: self.scopes_granted,
            issuer: self.issuer,
            resource: self.resource,
            token_endpoint: self.token_endpoint,
            client_id: ClientId::new(self.client_id),
            registration: None,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct KeptRegistration {
    client_id: String,
    client_secret: Option<String>,
    auth_method: String,
    redirect_uri: String,
}

impl KeptRegistration {
    fn of(registration: &Registration) -> Self {
        KeptRegistration {
            client_id: registration.client_id.as_str().to_owned(),
            client_secret: registration
                .client_secret
                .as_ref()
                .map(|s| s.secret().to_owned()),
            auth_method: registration.auth_method.name().to_owned(),
            redirect_uri: registration.redirect_uri.clone(),
        }
    }

    fn into_registration(self, issuer: &str) -> Option<Registration> {
        Some(Registration {
            issuer: issuer.to_owned(),
            client_id: ClientId::new(self.client_id),
            client_secret: self.client_secret.map(ClientSecret::new),
            auth_method: TokenAuthMethod::from_name(&self.auth_method)?,
            redirect_uri: self.redirect_uri,
        })
    }
}
