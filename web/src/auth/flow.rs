//! One sign-in, run in sign-in's own wasm (the `signin/` crate, `mcp_elicit_signin`), which
//! McpClient's page fetches the first time a server asks the person to sign in: the flow
//! (the core's [`Flow`]), its requests, the randomness, the card, the popup and the
//! callback, and what the store keeps. McpClient's own wasm links none of it; it sends
//! [`super::SignIn`]'s facts across and gets the new grant back ([`sign_in`]).
//!
//! What crosses (`input`, a plain object):
//! - `facts`: JSON text: `server_url`, `config` (the host's `auth` options, checked),
//!   `challenge`, `grant` (the grant in use, as the store keeps it), `returned` (a callback
//!   query a full-page redirect came back with) and `pending` (that sign-in's randomness),
//!   `lang` and `texts` (the card's words, already in the person's language);
//! - `fetch` (the host's, or undefined), `store` ([`Store::to_js`]), `container`.
//!
//! The answer is the new grant's record as the store keeps it (JSON text), or a rejection
//! with the words of what failed. Neither carries a token anywhere but in the record, which
//! goes back only to the connection that asked.

use futures::future::{select, Either};
use futures::{FutureExt, StreamExt};
use gloo_net::http::Request;
use js_sys::Reflect;
use mcp_elicit::auth::{
    pkce, AuthConfig, AuthMethod, AuthProtocol, AuthRequest, AuthResponse, CallbackOutcome,
    CallbackParams, Challenge, ClientId, ClientSecret, Entropy, Flow, Grant, Known, Step,
    MAX_METADATA_BYTES,
};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::RequestCredentials;

use super::card::{Card, Click};
use super::store::{self, text, texts};
use super::{glue, Store};
use crate::i18n::Messages;
use crate::transport::{self, sleep, ByteStream, Fetcher, TransportError};

/// How often an open popup is checked for having been closed by the person.
const POPUP_CHECK_MS: u32 = 400;

/// The keys of the card's and the flow's words, sent across already in the person's
/// language (sign-in's wasm then needs none of its catalogs but English's, which the
/// overrides are checked against).
pub(super) const TEXT_KEYS: [&str; 10] = [
    "sign_in.label",
    "sign_in.asks",
    "sign_in.again",
    "sign_in.button",
    "sign_in.at_label",
    "button.cancel",
    "sign_in.insecure",
    "sign_in.cancelled",
    "sign_in.not_listening",
    "sign_in.window_closed",
];

/// The facts [`sign_in`] reads, as [`super::SignIn`] writes them.
pub(super) struct Facts<'a> {
    pub server_url: &'a str,
    pub config: &'a AuthConfig,
    pub challenge: &'a Challenge,
    pub grant: Option<&'a Grant>,
    pub returned: Option<String>,
    pub pending: Option<Entropy>,
    pub messages: &'a Messages,
}

impl Facts<'_> {
    pub(super) fn to_json(&self) -> String {
        let config = self.config;
        let challenge = self.challenge;
        let texts = TEXT_KEYS
            .iter()
            .map(|key| Value::from(vec![*key, &self.messages.t(key, &[])]))
            .collect();
        object(vec![
            ("server_url", self.server_url.into()),
            (
                "config",
                object(vec![
                    ("redirect_url", config.redirect_url.as_str().into()),
                    (
                        "client_id",
                        opt(config.client_id.as_ref().map(|c| c.as_str())),
                    ),
                    (
                        "client_secret",
                        opt(config.client_secret.as_ref().map(|c| c.secret())),
                    ),
                    (
                        "client_metadata_url",
                        opt(config.client_metadata_url.as_deref()),
                    ),
                    ("scope", opt(config.scope.as_deref())),
                    (
                        "modern",
                        (config.protocol == AuthProtocol::Modern2026_07_28).into(),
                    ),
                    ("client_name", config.client_name.as_str().into()),
                ]),
            ),
            (
                "challenge",
                object(vec![
                    (
                        "resource_metadata",
                        opt(challenge.resource_metadata.as_deref()),
                    ),
                    (
                        "scopes",
                        challenge.scopes.clone().map_or(Value::Null, Value::from),
                    ),
                    ("error", opt(challenge.error.as_deref())),
                    (
                        "error_description",
                        opt(challenge.error_description.as_deref()),
                    ),
                ]),
            ),
            (
                "grant",
                self.grant
                    .map_or(Value::Null, |g| store::grant_record(g, None)),
            ),
            ("returned", opt(self.returned.as_deref())),
            (
                "pending",
                self.pending
                    .as_ref()
                    .map_or(Value::Null, store::entropy_record),
            ),
            ("lang", self.messages.lang().into()),
            ("texts", Value::Array(texts)),
        ])
        .to_string()
    }
}

/// An object of `fields` (one builder, not one `json!` expansion per record: smaller wasm).
fn object(fields: Vec<(&str, Value)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    )
}

fn opt(text: Option<&str>) -> Value {
    text.map_or(Value::Null, Value::from)
}

fn config_of(v: &Value) -> Option<AuthConfig> {
    let protocol = if v.get("modern")?.as_bool()? {
        AuthProtocol::Modern2026_07_28
    } else {
        AuthProtocol::Legacy2025_11_25
    };
    let mut config = AuthConfig::new(text(v, "redirect_url")?, protocol);
    config.client_id = text(v, "client_id").map(ClientId::new);
    config.client_secret = text(v, "client_secret").map(ClientSecret::new);
    config.client_metadata_url = text(v, "client_metadata_url");
    config.scope = text(v, "scope");
    if let Some(name) = text(v, "client_name") {
        config.client_name = name;
    }
    Some(config)
}

fn challenge_of(v: &Value) -> Challenge {
    Challenge {
        resource_metadata: text(v, "resource_metadata"),
        scopes: v.get("scopes").and_then(texts),
        error: text(v, "error"),
        error_description: text(v, "error_description"),
    }
}

fn messages_of(facts: &Value) -> Messages {
    let pairs = facts
        .get("texts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|pair| {
            let pair = pair.as_array()?;
            Some((
                pair.first()?.as_str()?.to_owned(),
                pair.get(1)?.as_str()?.to_owned(),
            ))
        })
        .filter(|(key, _)| TEXT_KEYS.contains(&key.as_str()));
    let base = Messages::new(facts.get("lang").and_then(Value::as_str).unwrap_or("en"));
    // Its texts came worded: the card speaks their language without the catalog.
    base.given(pairs)
}

/// Runs one sign-in from `input` (see the module's note): resolves to the new grant's
/// record, rejects with words.
pub async fn sign_in(input: JsValue) -> Result<JsValue, JsValue> {
    let get = |name: &str| Reflect::get(&input, &JsValue::from_str(name)).unwrap_or_default();
    let unreadable = || JsValue::from_str("the sign-in's facts did not cross to its module");
    let facts: Value = get("facts")
        .as_string()
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or_else(unreadable)?;
    let server_url = text(&facts, "server_url").ok_or_else(unreadable)?;
    let config = facts
        .get("config")
        .and_then(config_of)
        .ok_or_else(unreadable)?;
    // Not an `instanceof` check: a container in another frame is an element all the same.
    let container: web_sys::HtmlElement = get("container").unchecked_into();
    let run = Run {
        server_url,
        config,
        fetcher: Fetcher::new(get("fetch").dyn_into().ok()),
        store: Store::from_js(
            &get("storeKind").as_string().unwrap_or_default(),
            get("store"),
        ),
        container,
        messages: messages_of(&facts),
    };
    let challenge = facts.get("challenge").map(challenge_of).unwrap_or_default();
    let grant = facts.get("grant").and_then(store::grant_of);
    let returned = text(&facts, "returned");
    let pending = facts.get("pending").and_then(store::entropy_of);
    let signal: Option<web_sys::AbortSignal> = get("signal").dyn_into().ok();
    let outcome = {
        let running = run.run(challenge, grant, returned, pending).boxed_local();
        select(running, aborted(signal).boxed_local()).await
    };
    match outcome {
        Either::Left((Ok(record), _)) => Ok(JsValue::from_str(&record.to_string())),
        Either::Left((Err(why), _)) => Err(JsValue::from_str(&why)),
        // The call that needed this sign-in ended (Stop, a timeout, close()): the card goes
        // with the flow, and nobody reads this answer.
        Either::Right(((), _)) => Err(JsValue::from_str("stopped")),
    }
}

/// Resolves when `signal` aborts (never without one).
async fn aborted(signal: Option<web_sys::AbortSignal>) {
    let Some(signal) = signal else {
        return futures::future::pending().await;
    };
    if signal.aborted() {
        return;
    }
    let (tx, rx) = futures::channel::oneshot::channel::<()>();
    let on_abort = wasm_bindgen::closure::Closure::once(move || {
        let _ = tx.send(());
    });
    let _ = signal.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    let _ = rx.await;
    drop(on_abort);
}

/// What one sign-in works with.
struct Run {
    server_url: String,
    config: AuthConfig,
    fetcher: Fetcher,
    store: Store,
    container: web_sys::HtmlElement,
    messages: Messages,
}

impl Run {
    async fn run(
        &self,
        challenge: Challenge,
        held: Option<Grant>,
        mut returned: Option<String>,
        pending: Option<Entropy>,
    ) -> Result<Value, String> {
        let grant = match held {
            Some(grant) => Some(grant),
            None => self.store.grant(&self.server_url).await,
        };
        let known = Known {
            registrations: self.store.registrations().await,
            grant,
        };
        let entropy = match pending {
            Some(entropy) => entropy,
            None => entropy(&self.messages).await?,
        };
        let kept = entropy.clone();
        let mut flow = Flow::start(
            self.config.clone(),
            &self.server_url,
            Some(challenge),
            known,
            entropy,
        );
        let mut person: Option<Person> = None;
        loop {
            match flow.poll() {
                Step::Fetch(request) => match self.fetch(&request).await {
                    Ok(response) => flow.handle_response(response),
                    Err(detail) => flow.handle_unreachable(detail),
                },
                Step::SignIn(step) => {
                    if let Some(registration) = &step.registration {
                        self.store.keep_registration(registration).await;
                    }
                    let person = match &mut person {
                        Some(person) => person,
                        None => person.insert(Person::new(&self.container, self.messages.clone())),
                    };
                    person.card.set(
                        &step.server_host,
                        &step.issuer_host,
                        &step.authorization_url,
                    );
                    if let Some(refused) = &step.refused {
                        person.card.say(Some(refused.to_string()));
                    }
                    let query = match returned.take() {
                        Some(query) => query,
                        None => {
                            person
                                .wait(&step.authorization_url, &self.server_url, &kept)
                                .await?
                        }
                    };
                    match flow.handle_callback(callback_params(&query)) {
                        // The callback page closed the popup.
                        CallbackOutcome::Accepted | CallbackOutcome::Refused => person.popup = None,
                        // Not for this sign-in (another client's, a forged one, a replay):
                        // the popup may still come back with the right one.
                        CallbackOutcome::Ignored(_) => {}
                    }
                }
                Step::Done(grant) => return Ok(self.keep(grant).await),
                Step::Failed(err) => return Err(err.to_string()),
            }
        }
    }

    /// Keeps a new grant in the store, with its registration; its record goes back.
    async fn keep(&self, grant: Grant) -> Value {
        if let Some(registration) = &grant.registration {
            self.store.keep_registration(registration).await;
        }
        let expires_at = grant
            .expires_in
            .map(|s| js_sys::Date::now() + (s as f64) * 1000.0);
        self.store
            .keep_grant(&self.server_url, &grant, expires_at)
            .await;
        store::grant_record(&grant, expires_at)
    }

    /// Sends one of the flow's requests: no cookies, none of the host's MCP headers, no
    /// redirect followed; the body read up to one byte past the machine's bound.
    async fn fetch(&self, request: &AuthRequest) -> Result<AuthResponse, String> {
        let url = request.url.as_str();
        let builder = match request.method {
            AuthMethod::Get => Request::get(url),
            AuthMethod::Post => Request::post(url),
        };
        let builder = transport::with_headers(builder, &request.headers)
            .map_err(|e| e.to_string())?
            .credentials(RequestCredentials::Omit);
        let response = self
            .fetcher
            .fetch_with_body(url, builder, request.body.as_deref())
            .await
            .map_err(|err| unreachable_words(url, err))?;
        let headers = response.headers();
        let mut body = Vec::new();
        if let Some(stream) = response.body() {
            let mut stream = ByteStream::new(&stream, url).map_err(|e| e.to_string())?;
            while let Some(chunk) = stream.next_chunk().await.map_err(|e| e.to_string())? {
                body.extend_from_slice(&chunk);
                if body.len() > MAX_METADATA_BYTES {
                    body.truncate(MAX_METADATA_BYTES + 1);
                    break;
                }
            }
        }
        Ok(AuthResponse {
            status: response.status(),
            content_type: headers.get("content-type"),
            www_authenticate: headers.get("www-authenticate"),
            body,
        })
    }
}

/// Why an authorization request got no answer, in words: for CORS, which endpoint, and
/// that a host can pass its own `fetch`.
fn unreachable_words(url: &str, err: TransportError) -> String {
    match err {
        TransportError::BlockedByCors { origin, .. } => format!(
            "the authorization endpoint {url} does not let this page ({origin}) read its \
             answers (it sends no CORS headers); a host can pass its own `fetch` to \
             McpClient.connect to reach it through its backend"
        ),
        other => other.to_string(),
    }
}

/// The randomness of one flow: `state` and the PKCE verifier, and the verifier's S256
/// challenge (SHA-256 by WebCrypto).
async fn entropy(m: &Messages) -> Result<Entropy, String> {
    let insecure = || m.t("sign_in.insecure", &[]);
    let state = glue::random::<{ pkce::MIN_STATE_BYTES }>().ok_or_else(insecure)?;
    let bytes = glue::random::<32>().ok_or_else(insecure)?;
    let verifier = pkce::verifier_from_bytes(&bytes);
    let digest = glue::sha256(verifier.secret().as_bytes())
        .await
        .ok_or_else(insecure)?;
    Ok(Entropy {
        state: pkce::state_from_bytes(&state),
        challenge_s256: pkce::challenge_from_digest(&digest),
        verifier,
    })
}

/// `code`, `state`, `iss`, `error` and `error_description` of a callback's query.
fn callback_params(query: &str) -> CallbackParams {
    let params = web_sys::UrlSearchParams::new_with_str(query).ok();
    let get = |name: &str| params.as_ref().and_then(|p| p.get(name));
    CallbackParams {
        code: get("code"),
        state: get("state"),
        iss: get("iss"),
        error: get("error"),
        error_description: get("error_description"),
    }
}

/// The person's side of one sign-in: the card, the popup, the callbacks.
struct Person {
    card: Card,
    popup: Option<web_sys::Window>,
    /// The words of its notes (the card's own language).
    messages: Messages,
    queries: futures::channel::mpsc::UnboundedReceiver<String>,
    /// The last callback query handed on (each comes twice: opener and channel).
    last: Option<String>,
    _listening: glue::Listening,
}

impl Person {
    fn new(container: &web_sys::HtmlElement, messages: Messages) -> Self {
        let (tx, queries) = futures::channel::mpsc::unbounded();
        let listening = glue::Listening::new(move |query: String| {
            let _ = tx.unbounded_send(query);
        });
        Person {
            card: Card::show(container, messages.clone()),
            popup: None,
            messages,
            queries,
            last: None,
            _listening: listening,
        }
    }

    /// The next callback query: after the person's **Sign in** (and again after they
    /// closed the popup without finishing), for as long as they take.
    async fn wait(
        &mut self,
        url: &str,
        resource: &str,
        entropy: &Entropy,
    ) -> Result<String, String> {
        loop {
            if self.popup.is_none() {
                self.card.set_waiting(false);
                match self.card.click().await {
                    None | Some(Click::Cancel) => {
                        return Err(self.messages.t("sign_in.cancelled", &[]))
                    }
                    Some(Click::Blocked) => {
                        // No popup: the whole page goes to the authorization page and
                        // comes back to the callback page, which brings it back here,
                        // where the next flow goes on with the same `state` and verifier.
                        store::keep_pending(resource, entropy).await;
                        glue::redirect(url);
                        futures::future::pending::<()>().await;
                    }
                    Some(Click::Opened(popup)) => {
                        self.card.say(None);
                        self.card.set_waiting(true);
                        self.popup = Some(popup);
                        // What came before this attempt is not its answer: the callback
                        // page posts each answer twice (to its opener and on the channel).
                        while self.queries.try_recv().is_ok() {}
                    }
                }
            }
            let closed = {
                let popup = self.popup.clone();
                async move {
                    while !popup.as_ref().is_none_or(glue::popup_closed) {
                        sleep(POPUP_CHECK_MS).await;
                    }
                }
            };
            match select(self.queries.next(), closed.boxed_local()).await {
                Either::Left((Some(query), _)) => {
                    if self.last.as_deref() == Some(query.as_str()) {
                        continue; // the same answer's second copy
                    }
                    self.last = Some(query.clone());
                    return Ok(query);
                }
                Either::Left((None, _)) => {
                    return Err(self.messages.t("sign_in.not_listening", &[]))
                }
                Either::Right(((), _)) => {
                    // The callback page posts, then closes: give its message a moment.
                    sleep(POPUP_CHECK_MS).await;
                    self.popup = None;
                    if let Ok(query) = self.queries.try_recv() {
                        if self.last.as_deref() != Some(query.as_str()) {
                            self.last = Some(query.clone());
                            return Ok(query);
                        }
                    }
                    if let Some(Click::Opened(popup)) = self.card.clicked() {
                        self.popup = Some(popup);
                        continue;
                    }
                    self.card
                        .say(Some(self.messages.t("sign_in.window_closed", &[])));
                }
            }
        }
    }
}
