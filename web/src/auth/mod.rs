//! Signing the person in when a server asks (the MCP authorization spec): the IO around
//! the core's sans-IO machine ([`mcp_elicit::auth::Flow`]). The machine decides every
//! request and every check; [`flow`] sends its requests (with the connection's `fetch`,
//! no cookies, no redirects), draws the randomness and hashes the PKCE verifier
//! (WebCrypto), shows the sign-in card, opens the popup on the person's click, waits for
//! the callback page, and keeps tokens and registrations where the host said.
//!
//! [`flow`] runs in sign-in's own wasm (`signin/`), fetched only when a server first asks
//! for sign-in: most servers never do, and their pages should not download it. [`SignIn`],
//! in McpClient's wasm, holds the token in use, meets the 401s, and hands each sign-in to
//! that wasm through the host's runner (a JS function that loads it once).
//!
//! One [`SignIn`] serves one connection (one server). Requests that meet a 401 at the
//! same time sign in once: the others wait their turn and find the new token.
//!
//! Tokens never leave this module but in the `Authorization` header of a request to the
//! server they were issued for ([`SignIn::authorization`], used only by
//! [`crate::client::Endpoint`]), in the store, and in the facts handed to sign-in's own
//! wasm on this page (an object without a prototype, in one call). No error text or log
//! carries one.

mod card;
pub mod flow;
mod glue;
mod store;

use std::cell::{Cell, RefCell};

use js_sys::{Function, Object, Promise, Reflect};
use mcp_elicit::auth::{challenge, AuthConfig, Challenge, Entropy, Grant};
use wasm_bindgen::{JsCast, JsValue};

pub use mcp_elicit::auth::MAX_AUTHORIZATIONS_PER_REQUEST;
pub use store::{keep_pending, take_pending, Store, MAX_REGISTRATIONS};

use crate::client::ClientError;
use crate::transport::Fetcher;

/// The sign-in of one connection.
pub struct SignIn {
    /// The MCP endpoint: the resource the tokens are for.
    server_url: String,
    config: RefCell<AuthConfig>,
    fetcher: Fetcher,
    store: Store,
    /// Where the card shows (the client's container).
    container: web_sys::HtmlElement,
    /// `(input) => Promise<grant record>`: runs [`flow::sign_in`] in sign-in's own wasm.
    runner: Function,
    /// Where that wasm is, when the host said (else beside its JS).
    wasm_url: Option<String>,
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

    /// Where sign-in's own wasm is (`auth.signInWasm`), when not beside its JS.
    pub fn with_wasm_url(mut self, url: Option<String>) -> Self {
        self.wasm_url = url;
        self
    }

    pub fn new(
        server_url: String,
        config: AuthConfig,
        fetcher: Fetcher,
        store: Store,
        container: web_sys::HtmlElement,
        runner: Function,
    ) -> Self {
        SignIn {
            server_url,
            config: RefCell::new(config),
            fetcher,
            store,
            container,
            runner,
            wasm_url: None,
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
        let config = self.config.borrow().clone();
        let returned = self.returned.borrow_mut().take();
        let pending = self.pending.borrow_mut().take();
        let facts = flow::Facts {
            server_url: &self.server_url,
            config: &config,
            challenge: &challenge,
            grant: grant.as_ref(),
            returned: returned.clone(),
            pending: pending.clone(),
            messages: &self.messages,
        };
        // When this future is dropped (Stop, a timeout, close()), the sign-in in the other
        // wasm ends too, and its card goes.
        let mut stop = Stop(web_sys::AbortController::new().ok());
        let signal = stop
            .0
            .as_ref()
            .map_or(JsValue::UNDEFINED, |c| c.signal().into());
        let (store_kind, store) = self.store.to_js();
        let fetch = self
            .fetcher
            .host_fetch()
            .map_or(JsValue::UNDEFINED, JsValue::from);
        let wasm = self
            .wasm_url
            .as_deref()
            .map_or(JsValue::UNDEFINED, JsValue::from_str);
        // No prototype: nothing a page script put on Object.prototype sees what crosses.
        let input: Object = Object::create(JsValue::NULL.unchecked_ref());
        for (name, value) in [
            ("facts", JsValue::from_str(&facts.to_json())),
            ("fetch", fetch),
            ("storeKind", JsValue::from_str(store_kind)),
            ("store", store),
            ("container", self.container.clone().into()),
            ("signal", signal),
            ("wasm", wasm),
        ] {
            let _ = Reflect::set(&input, &JsValue::from_str(name), &value);
        }
        let unavailable = || ClientError::SignIn(self.messages.t("sign_in.unavailable", &[]));
        let answer = match self.runner.call1(&JsValue::NULL, &input) {
            Ok(started) => wasm_bindgen_futures::JsFuture::from(Promise::resolve(&started)).await,
            Err(why) => Err(why),
        };
        stop.0 = None; // finished: nothing to stop
        let record = match answer {
            Ok(record) => record,
            // The flow's words.
            Err(why) if why.is_string() => {
                return Err(ClientError::SignIn(why.as_string().unwrap_or_default()))
            }
            // Anything else: its wasm did not load (or failed): a callback a full-page
            // redirect brought back waits for the next try.
            Err(_) => {
                *self.returned.borrow_mut() = returned;
                *self.pending.borrow_mut() = pending;
                return Err(unavailable());
            }
        };
        let grant = record
            .as_string()
            .and_then(|text| serde_json::from_str(&text).ok())
            .and_then(|record| store::grant_of(&record))
            .ok_or_else(unavailable)?;
        *self.held.borrow_mut() = Some(grant);
        self.generation.set(self.generation.get().wrapping_add(1));
        Ok(())
    }
}

/// Aborts its controller when dropped before the sign-in ended.
struct Stop(Option<web_sys::AbortController>);

impl Drop for Stop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}
