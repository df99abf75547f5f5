//! The 2026-07-28 client: every request is one self-contained POST carrying the `_meta`
//! envelope; a call answered with `InputRequiredResult` shows all its elicitations at once,
//! and when all are answered the same request is replayed with `inputResponses` and the
//! server's `requestState` echoed byte-exact, round after round, up to a bound.
//!
//! Answers reach the running call through a channel: the UI calls [`ModernSession::answer`]
//! per card; the last answer of a round hands all of them to the call loop, which sends the
//! replay and reports back whether that POST worked. A failed replay keeps the round pending
//! (and the answers already given), so the user can resend.

use std::cell::{Cell, RefCell};

use futures::channel::{mpsc, oneshot};
use futures::StreamExt;
use indexmap::IndexMap;
use mcp_elicit::wire::meta::MODERN_PROTOCOL_VERSION;
use mcp_elicit::wire::{
    from_raw, ClientCapabilities, ElicitResult, Implementation, InputRequest, InputResponse,
    InputResponses, ListRootsResult, ModernResult, RequestId, RequestMeta,
};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::config::ClientConfig;
use super::events::{ClientError, ClientEvent, EventSink};
use super::rpc;
use crate::transport::sleep;

/// Names the `Mcp-Name` header mirrors, per method (`NAME_BEARING_METHODS` in the SDK).
fn name_param(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// The SDK client's back-off for results that carry only `requestState`.
const STATE_ONLY_FIRST_DELAY_MS: u32 = 50;
const STATE_ONLY_MAX_DELAY_MS: u32 = 250;

/// A modern-era connection: no handshake, no session; just the endpoint and our identity.
pub struct ModernSession {
    config: ClientConfig,
    sink: EventSink,
    next_id: Cell<i64>,
    round: RefCell<Option<PendingRound>>,
}

/// The elicitations of the current round that still wait for the user.
struct PendingRound {
    expected: Vec<String>,
    answers: IndexMap<String, ElicitResult>,
    submit: mpsc::UnboundedSender<Submit>,
}

/// All answers of a round, and where to report whether the replay POST worked.
struct Submit {
    answers: IndexMap<String, ElicitResult>,
    done: oneshot::Sender<Result<(), ClientError>>,
}

/// The `params` of a replayed request: the original params, plus the round's answers and the
/// server's `requestState` written out exactly as received.
#[derive(Serialize)]
struct Params<'a> {
    #[serde(flatten)]
    base: &'a Map<String, Value>,
    #[serde(rename = "inputResponses", skip_serializing_if = "Option::is_none")]
    input_responses: Option<&'a InputResponses>,
    #[serde(rename = "requestState", skip_serializing_if = "Option::is_none")]
    request_state: Option<&'a RawValue>,
    #[serde(rename = "_meta")]
    meta: &'a RequestMeta,
}

impl ModernSession {
    pub fn new(config: ClientConfig, sink: EventSink) -> Self {
        ModernSession {
            config,
            sink,
            next_id: Cell::new(1),
            round: RefCell::new(None),
        }
    }

    fn meta(&self) -> RequestMeta {
        RequestMeta {
            protocol_version: MODERN_PROTOCOL_VERSION.into(),
            client_info: Implementation::this_client(),
            client_capabilities: ClientCapabilities::for_host(false),
        }
    }

    fn fresh_id(&self) -> RequestId {
        let id = self.next_id.get();
        self.next_id.set(id.saturating_add(1));
        RequestId::Number(id)
    }

    /// One POST of `method` with `base` params (and, on replays, answers and state).
    async fn post(
        &self,
        method: &str,
        base: &Map<String, Value>,
        input_responses: Option<&InputResponses>,
        request_state: Option<&RawValue>,
        extra: &[(String, String)],
    ) -> Result<Box<RawValue>, ClientError> {
        let id = self.fresh_id();
        let meta = self.meta();
        let params = Params {
            base,
            input_responses,
            request_state,
            meta: &meta,
        };
        let body = mcp_elicit::wire::jsonrpc::request_body(&id, method, Some(&params))
            .map_err(|e| ClientError::Protocol(e.message))?;
        let mut headers = vec![
            (
                "MCP-Protocol-Version".to_owned(),
                MODERN_PROTOCOL_VERSION.to_owned(),
            ),
            ("Mcp-Method".to_owned(), method.to_owned()),
        ];
        if let Some(key) = name_param(method) {
            if let Some(name) = base.get(key).and_then(Value::as_str) {
                headers.push(("Mcp-Name".to_owned(), name.to_owned()));
            }
        }
        headers.extend(extra.iter().cloned());
        // A modern request has no back-channel: anything but our response is ignored.
        let reply = rpc::call(&self.config.url, &headers, body, &id, |_| {}).await?;
        Ok(reply.result)
    }

    /// `server/discover`: the probe Auto mode uses to tell a modern server from a legacy one.
    pub async fn discover(&self) -> Result<Box<RawValue>, ClientError> {
        self.post("server/discover", &Map::new(), None, None, &[])
            .await
    }

    /// A request that cannot ask for input (`tools/list`): one POST, one result.
    pub async fn simple(
        &self,
        method: &str,
        params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        match ModernResult::classify(self.post(method, &params, None, None, &[]).await?)
            .map_err(|e| ClientError::Protocol(e.message))?
        {
            ModernResult::Complete(raw) => Ok(raw),
            ModernResult::InputRequired(_) => Err(ClientError::Protocol(format!(
                "the server asked for input on {method}, which cannot carry input requests"
            ))),
        }
    }

    /// Runs `method` (e.g. `tools/call`) to its final result through as many input rounds as
    /// the server needs, up to `config.max_rounds`.
    /// `extra` are headers every POST of the call carries (`Mcp-Param-*`).
    pub async fn call(
        &self,
        method: &str,
        params: Map<String, Value>,
        extra: &[(String, String)],
    ) -> Result<Box<RawValue>, ClientError> {
        let mut current = self.post(method, &params, None, None, extra).await?;
        let mut rounds: u32 = 0;
        let mut delay = STATE_ONLY_FIRST_DELAY_MS;
        loop {
            let input = match ModernResult::classify(current)
                .map_err(|e| ClientError::Protocol(e.message))?
            {
                ModernResult::Complete(raw) => return Ok(raw),
                ModernResult::InputRequired(input) => input,
            };
            rounds += 1;
            if rounds > self.config.max_rounds {
                return Err(ClientError::TooManyRounds {
                    max_rounds: self.config.max_rounds,
                });
            }
            let state = input.request_state.as_deref();
            let requests = input.input_requests.clone().unwrap_or_default();
            if requests.is_empty() {
                sleep(delay).await;
                delay = (delay * 2).min(STATE_ONLY_MAX_DELAY_MS);
                current = self.post(method, &params, None, state, extra).await?;
                continue;
            }
            delay = STATE_ONLY_FIRST_DELAY_MS;
            current = self.round(method, &params, requests, state, extra).await?;
        }
    }

    /// One round with input requests: answer roots ourselves, refuse sampling, show the
    /// elicitations, wait for the user, replay. Returns the replay's result.
    async fn round(
        &self,
        method: &str,
        params: &Map<String, Value>,
        requests: IndexMap<String, InputRequest>,
        state: Option<&RawValue>,
        extra: &[(String, String)],
    ) -> Result<Box<RawValue>, ClientError> {
        let mut responses = InputResponses::new();
        let mut elicitations = Vec::new();
        for (key, request) in requests {
            match request {
                InputRequest::Elicit(params) => elicitations.push((key, params)),
                InputRequest::Roots(_) => {
                    responses.insert(
                        key,
                        InputResponse::Roots(ListRootsResult {
                            roots: self.config.roots.clone(),
                        }),
                    );
                }
                InputRequest::Sampling(_) => {
                    return Err(ClientError::Refused(
                        "The server asked this client to run a language model \
                         (sampling/createMessage). This client has no sampling handler, \
                         so the call cannot go on."
                            .into(),
                    ))
                }
                InputRequest::Unknown { method: asked, .. } => {
                    return Err(ClientError::Refused(format!(
                        "The server asked for {asked:?}, which this client does not support, \
                         so the call cannot go on."
                    )))
                }
            }
        }
        if elicitations.is_empty() {
            return self
                .post(method, params, Some(&responses), state, extra)
                .await;
        }
        let (submit, mut submitted) = mpsc::unbounded();
        *self.round.borrow_mut() = Some(PendingRound {
            expected: elicitations.iter().map(|(k, _)| k.clone()).collect(),
            answers: IndexMap::new(),
            submit,
        });
        let keys: Vec<String> = elicitations.iter().map(|(k, _)| k.clone()).collect();
        for (key, params) in elicitations {
            (self.sink)(ClientEvent::Elicit { key, params });
        }
        loop {
            let Some(Submit { answers, done }) = submitted.next().await else {
                return Err(ClientError::NotConnected);
            };
            let mut all = responses.clone();
            for (key, answer) in answers {
                all.insert(key, InputResponse::Elicit(answer));
            }
            match self.post(method, params, Some(&all), state, extra).await {
                Ok(result) => {
                    *self.round.borrow_mut() = None;
                    let _ = done.send(Ok(()));
                    for key in &keys {
                        (self.sink)(ClientEvent::Answered { key: key.clone() });
                    }
                    return Ok(result);
                }
                Err(ClientError::Transport(err)) => {
                    // Keep the round: the user's answers stay, and resending retries the replay.
                    let _ = done.send(Err(ClientError::Transport(err)));
                }
                Err(other) => {
                    *self.round.borrow_mut() = None;
                    let _ = done.send(Err(other.clone()));
                    return Err(other);
                }
            }
        }
    }

    /// Records the user's answer to `key`. The last answer of a round sends the replay and
    /// resolves once it was delivered (or failed: then the round stays pending).
    pub async fn answer(&self, key: &str, result: ElicitResult) -> Result<(), ClientError> {
        let done = {
            let mut round = self.round.borrow_mut();
            let Some(round) = round.as_mut() else {
                return Err(ClientError::UnknownElicitation(key.to_owned()));
            };
            if !round.expected.iter().any(|k| k == key) {
                return Err(ClientError::UnknownElicitation(key.to_owned()));
            }
            round.answers.insert(key.to_owned(), result);
            if round.answers.len() < round.expected.len() {
                return Ok(());
            }
            let (done, outcome) = oneshot::channel();
            let answers = round.answers.clone();
            if round
                .submit
                .unbounded_send(Submit { answers, done })
                .is_err()
            {
                return Err(ClientError::NotConnected);
            }
            outcome
        };
        done.await.unwrap_or(Err(ClientError::NotConnected))
    }

    /// Ends a pending round (the call's future then fails with "not connected").
    pub fn abandon(&self) {
        *self.round.borrow_mut() = None;
    }
}

/// True when `raw` (a `server/discover` result) names the modern version.
pub fn discover_is_modern(raw: &RawValue) -> bool {
    from_raw::<mcp_elicit::wire::DiscoverResult>(raw, "discover result")
        .map(|d| {
            d.supported_versions
                .iter()
                .any(|v| v == MODERN_PROTOCOL_VERSION)
        })
        .unwrap_or(false)
}
