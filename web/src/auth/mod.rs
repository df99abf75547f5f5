//! Signing the person in when a server asks (the MCP authorization spec): the IO around
//! the core's sans-IO machine ([`mcp_elicit::auth::Flow`]). The machine decides every
//! request and every check; this module sends its requests (with the connection's
//! `fetch`, no cookies, no redirects), draws the randomness and hashes the PKCE verifier
//! (WebCrypto), shows the sign-in card, opens the popup on the person's click, waits for
//! the callback page, and keeps tokens and registrations where the host said.
//!
//! One [`SignIn`] serves one connection (one server). Requests that meet a 401 at the
//! same time sign in once: the others wait their turn and find the new token.
//!
//! Tokens never leave this module but in the `Authorization` header of a request to the
//! server they were issued for ([`SignIn::authorization`], used only by
//! [`crate::client::Endpoint`]), and in the store. No error text or log carries one.

mod card;
mod glue;
mod store;

use std::cell::{Cell, RefCell};

use futures::future::{select, Either};
use futures::{FutureExt, StreamExt};
use gloo_net::http::Request;
use mcp_elicit::auth::{
    challenge, pkce, AuthConfig, AuthMethod, AuthRequest, AuthResponse, CallbackOutcome,
    CallbackParams, Challenge, Entropy, Flow, Grant, Known, Step, MAX_METADATA_BYTES,
};
use web_sys::RequestCredentials;

pub use mcp_elicit::auth::MAX_AUTHORIZATIONS_PER_REQUEST;
pub use store::{keep_pending, take_pending, Store, MAX_REGISTRATIONS};

use crate::client::ClientError;
use crate::transport::{self, sleep, ByteStream, Fetcher, TransportError};
use card::{Card, Click};

/// How often an open popup is checked for having been closed by the person.
const POPUP_CHECK_MS: u32 = 400;

/// The sign-in of one connection.
pub struct SignIn {
    /// The MCP endpoint: the resource the tokens are for.
    server_url: String,
    config: RefCell<AuthConfig>,
    fetcher: Fetcher,
    store: Store,
    /// Where the card shows (the client's container).
    container: web_sys::HtmlElement,
    /// The grant in use.
    held: RefCell<Option<Grant>>,
    /// Whether a sign-in runs now.
    busy: Cell<bool>,
    /// One sign-in at a time.
    turn: futures::lock::Mutex<()>,
    /// Moves with every new grant, so a request that waited its turn knows one came.
    generation: Cell<u64>,
    /// A callback a full-page redirect brought back to this page, for the first sign-in,
    /// and the randomness of the sign-in that left ([`store::keep_pending`]).
    returned: RefCell<Option<String>>,
    pending: RefCell<Option<Entropy>>,
    /// The words of the sign-in card.
    messages: crate::i18n::Messages,
}

impl SignIn {
    /// The sign-in card in the language (and with the overrides) of `messages`.
    pub fn with_messages(mut self, messages: crate::i18n::Messages) -> Self {
        self.messages = messages;
        self
    }

    pub fn new(
        server_url: String,
        config: AuthConfig,
        fetcher: Fetcher,
        store: Store,
        container: web_sys::HtmlElement,
    ) -> Self {
        SignIn {
            server_url,
            config: RefCell::new(config),
            fetcher,
            store,
            container,
            held: RefCell::new(None),
            busy: Cell::new(false),
            turn: futures::lock::Mutex::new(()),
            generation: Cell::new(0),
            messages: crate::i18n::Messages::from_browser(),
            returned: RefCell::new(None),
            pending: RefCell::new(None),
        }
    }

    /// Reads what the store kept for this server (a grant from earlier in the tab), and a
    /// callback the page came back with after a full-page redirect.
    pub async fn load(&self) {
        if let Some(grant) = self.store.grant(&self.server_url).await {
            *self.held.borrow_mut() = Some(grant);
        }
        // Only a page that left for this server's sign-in takes the callback it came
        // back with (another client on the page may have left for its own).
        if let Some(entropy) = store::take_pending(&self.server_url).await {
            if let Some(query) = glue::take_return() {
                *self.returned.borrow_mut() = Some(query);
                *self.pending.borrow_mut() = Some(entropy);
            }
        }
    }

    /// The protocol revision whose authorization rules apply, once the era is known.
    pub fn set_protocol(&self, protocol: mcp_elicit::auth::AuthProtocol) {
        self.config.borrow_mut().protocol = protocol;
    }

    /// Whether a sign-in runs now (time bounds on the server wait meanwhile).
    pub fn in_progress(&self) -> bool {
        self.busy.get()
    }

    /// The `Authorization` header's value for a request to this server, when a sign-in
    /// gave a token.
    pub fn authorization(&self) -> Option<String> {
        self.held
            .borrow()
            .as_ref()
            .map(|grant| format!("Bearer {}", grant.access_token.secret()))
    }

    /// What a response asks of sign-in: a 401 (with its challenge, or none readable), or a
    /// 403 whose challenge is `insufficient_scope` (a step-up). Anything else: nothing.
    pub fn challenge_of(&self, status: u16, www_authenticate: Option<&str>) -> Option<Challenge> {
        let parsed = www_authenticate.map(challenge::parse);
        match status {
            401 => Some(parsed.and_then(Result::ok).unwrap_or_default()),
            403 => parsed
                .and_then(Result::ok)
                .filter(Challenge::is_insufficient_scope),
            _ => None,
        }
    }

    /// Signs in for `challenge`: refreshes without the person when the flow can, else
    /// shows the card and waits for the person, for as long as they take. Ok once a new
    /// token is held; an error in words when the flow failed or the person cancelled.
    pub async fn authorize(&self, challenge: Challenge) -> Result<(), ClientError> {
        let seen = self.generation.get();
        let _turn = self.turn.lock().await;
        if self.generation.get() != seen {
            // Another request signed in while this one waited: try its token first.
            return Ok(());
        }
        self.busy.set(true);
        let outcome = self.run(challenge).await;
        self.busy.set(false);
        outcome
    }

    async fn run(&self, challenge: Challenge) -> Result<(), ClientError> {
        let held = self.held.borrow().clone();
        let grant = match held {
            Some(grant) => Some(grant),
            None => self.store.grant(&self.server_url).await,
        };
        let known = Known {
            registrations: self.store.registrations().await,
            grant,
        };
        let pending = self.pending.borrow_mut().take();
        let entropy = match pending {
            Some(entropy) => entropy,
            None => entropy(&self.messages).await?,
        };
        let kept = entropy.clone();
        let config = self.config.borrow().clone();
        let mut flow = Flow::start(config, &self.server_url, Some(challenge), known, entropy);
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
                    let returned = self.returned.borrow_mut().take();
                    let query = match returned {
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
                Step::Done(grant) => {
                    self.keep(grant).await;
                    return Ok(());
                }
                Step::Failed(err) => return Err(ClientError::SignIn(err.to_string())),
            }
        }
    }

    /// Keeps a new grant: in use from now, and in the store with its registration.
    async fn keep(&self, grant: Grant) {
        if let Some(registration) = &grant.registration {
            self.store.keep_registration(registration).await;
        }
        let expires_at = grant
            .expires_in
            .map(|s| js_sys::Date::now() + (s as f64) * 1000.0);
        self.store
            .keep_grant(&self.server_url, &grant, expires_at)
            .await;
        *self.held.borrow_mut() = Some(grant);
        self.generation.set(self.generation.get().wrapping_add(1));
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
async fn entropy(m: &crate::i18n::Messages) -> Result<Entropy, ClientError> {
    let insecure = || ClientError::SignIn(m.t("sign_in.insecure", &[]));
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
    messages: crate::i18n::Messages,
    queries: futures::channel::mpsc::UnboundedReceiver<String>,
    /// The last callback query handed on (each comes twice: opener and channel).
    last: Option<String>,
    _listening: glue::Listening,
}

impl Person {
    fn new(container: &web_sys::HtmlElement, messages: crate::i18n::Messages) -> Self {
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
    ) -> Result<String, ClientError> {
        loop {
            if self.popup.is_none() {
                self.card.set_waiting(false);
                match self.card.click().await {
                    None | Some(Click::Cancel) => {
                        return Err(ClientError::SignIn(
                            self.messages.t("sign_in.cancelled", &[]),
                        ))
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
                    return Err(ClientError::SignIn(
                        self.messages.t("sign_in.not_listening", &[]),
                    ))
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
