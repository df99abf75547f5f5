//! Where sign-in keeps what outlives one flow: the grant (access and refresh token) for
//! each server, and the client's registration at each authorization server. A host picks
//! the place (`auth.storage`): the tab's `sessionStorage` (the default: gone when the
//! tab closes, and never sent anywhere), memory (gone with the page), or its own object
//! with `get`/`set`/`remove` (a vault, an extension's storage).
//!
//! The records are this module's JSON; a record that does not read back (another
//! version's, or edited) is as good as none. Nothing here is logged or put in an error.

use mcp_elicit::auth::{
    AccessToken, ClientId, ClientSecret, CsrfState, Entropy, Grant, PkceVerifier, RefreshToken,
    Registration, TokenAuthMethod,
};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};

use super::glue;

/// Prefix of every key, so a host's store can tell ours apart.
const PREFIX: &str = "mcp-elicit/auth/v1/";

/// Where records live.
pub enum Store {
    Session,
    /// A JS `Map`, so the same memory crosses to sign-in's own wasm ([`Store::to_js`]).
    Memory(js_sys::Map),
    /// A host object with `get(key)`, `set(key, value)` and `remove(key)`; each may
    /// return a Promise.
    Host(JsValue),
}

impl Store {
    /// The store as it crosses to sign-in's own wasm: its kind (`session`, `memory` or
    /// `host`) and its value (none, the memory's `Map`, the host's object);
    /// [`Store::from_js`] reads it back.
    pub fn to_js(&self) -> (&'static str, JsValue) {
        match self {
            Store::Session => ("session", JsValue::UNDEFINED),
            Store::Memory(map) => ("memory", map.into()),
            Store::Host(host) => ("host", host.clone()),
        }
    }

    /// [`Store::to_js`] read back (a kind it does not know: the tab's session).
    pub fn from_js(kind: &str, value: JsValue) -> Store {
        match kind {
            "memory" if value.is_instance_of::<js_sys::Map>() => {
                Store::Memory(value.unchecked_into())
            }
            "host" => Store::Host(value),
            _ => Store::Session,
        }
    }

    async fn op(&self, op: &str, key: &str, value: Option<&str>) -> Option<String> {
        match self {
            Store::Memory(map) => {
                let key = JsValue::from_str(key);
                match (op, value) {
                    ("get", _) => map.get(&key).as_string(),
                    ("set", Some(value)) => {
                        map.set(&key, &JsValue::from_str(value));
                        None
                    }
                    _ => {
                        map.delete(&key);
                        None
                    }
                }
            }
            Store::Session => glue::session_op(op, key, value),
            Store::Host(host) => glue::host_op(host, op, key, value).await,
        }
    }

    /// The JSON record kept at `key`, if there is one and it reads.
    async fn get(&self, key: &str) -> Option<Value> {
        let text = self.op("get", key, None).await?;
        serde_json::from_str(&text).ok()
    }

    async fn set(&self, key: &str, value: &Value) {
        self.op("set", key, Some(&value.to_string())).await;
    }

    /// The grant kept for the server at `resource`.
    pub async fn grant(&self, resource: &str) -> Option<Grant> {
        grant_of(&self.get(&grant_key(resource)).await?)
    }

    /// Keeps `grant` for the server at `resource` (replacing the one before).
    pub async fn keep_grant(&self, resource: &str, grant: &Grant, expires_at: Option<f64>) {
        self.set(&grant_key(resource), &grant_record(grant, expires_at))
            .await;
    }

    /// When the kept grant for `resource` expires (`Date.now()` milliseconds), if known.
    pub async fn expiry(&self, resource: &str) -> Option<f64> {
        let record = self.get(&grant_key(resource)).await?;
        grant_of(&record)?;
        record.get("expires_at")?.as_f64()
    }

    /// Every registration kept, each for its own issuer (the flow uses only the one of
    /// the issuer it signs in at).
    pub async fn registrations(&self) -> Vec<Registration> {
        self.kept_registrations()
            .await
            .iter()
            .filter_map(registration_of)
            .collect()
    }

    /// Keeps `registration` under its issuer (one per issuer, the newest of at most
    /// [`MAX_REGISTRATIONS`]).
    pub async fn keep_registration(&self, registration: &Registration) {
        let mut kept = self.kept_registrations().await;
        kept.retain(|pair| pair.get(0).and_then(Value::as_str) != Some(&registration.issuer));
        kept.push(registration_record(registration));
        let extra = kept.len().saturating_sub(MAX_REGISTRATIONS);
        kept.drain(..extra);
        self.set(&clients_key(), &Value::Array(kept)).await;
    }

    /// The kept `[issuer, registration]` pairs, as they were written.
    async fn kept_registrations(&self) -> Vec<Value> {
        match self.get(&clients_key()).await {
            Some(Value::Array(pairs)) => pairs,
            _ => Vec::new(),
        }
    }
}

/// Most authorization servers whose registrations are kept: a page talks to a few
/// servers; past this the oldest registration is forgotten (and made again if needed).
pub const MAX_REGISTRATIONS: usize = 32;

/// The randomness of a sign-in whose page left for the authorization page (a blocked
/// popup), kept in the tab's `sessionStorage` whatever the store (only this tab comes
/// back), until the page is back: the new flow must send the same `state` and verifier.
pub async fn keep_pending(resource: &str, entropy: &Entropy) {
    Store::Session
        .set(&pending_key(resource), &entropy_record(entropy))
        .await;
}

/// The randomness [`keep_pending`] kept for `resource`, taken (read once).
pub async fn take_pending(resource: &str) -> Option<Entropy> {
    let key = pending_key(resource);
    let kept = Store::Session.get(&key).await?;
    Store::Session.op("remove", &key, None).await;
    entropy_of(&kept)
}

/// A flow's randomness as a record (kept across a redirect, or crossing to sign-in's wasm).
pub(super) fn entropy_record(entropy: &Entropy) -> Value {
    json!({
        "state": entropy.state.secret(),
        "verifier": entropy.verifier.secret(),
        "challenge": entropy.challenge_s256,
    })
}

pub(super) fn entropy_of(record: &Value) -> Option<Entropy> {
    Some(Entropy {
        state: CsrfState::new(text(record, "state")?),
        verifier: PkceVerifier::new(text(record, "verifier")?),
        challenge_s256: text(record, "challenge")?,
    })
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

// The records are read field by field from a `Value` rather than by derived
// `Deserialize`: serde's derived readers for these records were about 15 KB of McpClient's
// wasm (raw), and `Value`'s reader is linked anyway. A field of the wrong type makes the
// whole record none.

/// The text at `name`.
pub(super) fn text(record: &Value, name: &str) -> Option<String> {
    record.get(name)?.as_str().map(str::to_owned)
}

/// The text at `name`: `Some(None)` when absent or null, `None` when of another type.
fn opt_text(record: &Value, name: &str) -> Option<Option<String>> {
    match record.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(value) => value.as_str().map(|s| Some(s.to_owned())),
    }
}

/// A list of texts.
pub(super) fn texts(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

pub(super) fn grant_record(grant: &Grant, expires_at: Option<f64>) -> Value {
    json!({
        "access_token": grant.access_token.secret(),
        "refresh_token": grant.refresh_token.as_ref().map(|t| t.secret()),
        "expires_at": expires_at,
        "scopes_requested": grant.scopes_requested,
        "scopes_granted": grant.scopes_granted,
        "issuer": grant.issuer,
        "resource": grant.resource,
        "token_endpoint": grant.token_endpoint,
        "client_id": grant.client_id.as_str(),
    })
}

pub(super) fn grant_of(record: &Value) -> Option<Grant> {
    if !matches!(
        record.get("expires_at"),
        None | Some(Value::Null | Value::Number(_))
    ) {
        return None;
    }
    let scopes_granted = match record.get("scopes_granted") {
        None | Some(Value::Null) => None,
        Some(list) => Some(texts(list)?),
    };
    Some(Grant {
        access_token: AccessToken::new(text(record, "access_token")?),
        refresh_token: opt_text(record, "refresh_token")?.map(RefreshToken::new),
        expires_in: None,
        scopes_requested: texts(record.get("scopes_requested")?)?,
        scopes_granted,
        issuer: text(record, "issuer")?,
        resource: text(record, "resource")?,
        token_endpoint: text(record, "token_endpoint")?,
        client_id: ClientId::new(text(record, "client_id")?),
        registration: None,
    })
}

/// `[issuer, {client_id, client_secret, auth_method, redirect_uri}]`.
fn registration_record(registration: &Registration) -> Value {
    json!([
        registration.issuer,
        {
            "client_id": registration.client_id.as_str(),
            "client_secret": registration.client_secret.as_ref().map(|s| s.secret()),
            "auth_method": registration.auth_method.name(),
            "redirect_uri": registration.redirect_uri,
        }
    ])
}

fn registration_of(pair: &Value) -> Option<Registration> {
    let [issuer, record] = pair.as_array()?.as_slice() else {
        return None;
    };
    Some(Registration {
        issuer: issuer.as_str()?.to_owned(),
        client_id: ClientId::new(text(record, "client_id")?),
        client_secret: opt_text(record, "client_secret")?.map(ClientSecret::new),
        auth_method: TokenAuthMethod::from_name(record.get("auth_method")?.as_str()?)?,
        redirect_uri: text(record, "redirect_uri")?,
    })
}
