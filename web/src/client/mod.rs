//! MCP client sessions for both eras and era auto-detection.
//!
//! [`Connection::connect`] picks the era ([`ProtocolChoice`]), and then every call goes
//! through the same few methods whichever era is in use: [`Connection::list_tools`],
//! [`Connection::call_tool`], [`Connection::get_prompt`] and [`Connection::read_resource`]
//! (each runs to the final result, pushing [`ClientEvent`]s for the elicitations on the way) and [`Connection::answer`] (the user's answer to one of them).
//! The protocol itself, what to send and what every message means, is the core's
//! (`mcp_elicit::driver`: the modern call machine, the legacy session machine, the era
//! negotiation); this module and its submodules do the IO around those machines.

mod config;
mod endpoint;
mod events;
mod exchange;
pub mod host_texts;
mod legacy;
mod modern;
pub(crate) mod notice_texts;
mod resume;
mod route;
pub(crate) mod task_texts;
mod watch;

use std::rc::Rc;

use mcp_elicit::driver::era::{EraStep, Negotiation};
use mcp_elicit::driver::modern::ModernConfig;
use mcp_elicit::driver::{DriverError, HttpRequest};
use mcp_elicit::wire::meta::{server_info, MODERN_PROTOCOL_VERSION};
pub use mcp_elicit::wire::Call;
use mcp_elicit::wire::{
    codes, from_raw, CallToolResult, DiscoverResult, ElicitResult, GetPromptResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt,
    ReadResourceResult, Resource, ResourceTemplate, Tool,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use config::{ClientConfig, ProtocolChoice, SamplingHandler, DEFAULT_MAX_ROUNDS};
pub use endpoint::{Endpoint, HttpOptions};
pub use events::{
    call_failed_reason, withdrawn_reason, ClientError, ClientEvent, EventSink, ServerIdentity,
    MAX_PENDING_CARDS,
};
pub use exchange::Messages;
pub use legacy::LegacySession;
pub use modern::ModernSession;
pub use route::URL_REQUIRED_KEY_PREFIX;
pub use watch::{CallWatch, TaskNews};

/// Pages of a `*/list` request we follow before we stop (a server that loops its cursor).
const MAX_LIST_PAGES: usize = 50;

/// A live connection in one era.
#[derive(Clone)]
pub enum Connection {
    Modern(Rc<ModernSession>),
    Legacy(LegacySession),
}

impl Connection {
    /// Connects in the configured era. Which era that is, the core's
    /// [`Negotiation`] decides (probe, handshake, or both, and what each answer means);
    /// this runs the steps it asks for and reports what happened. Network and CORS
    /// failures are reported, never taken as an era verdict.
    pub async fn connect(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        // Every card names who is asking (the spec's MUST): the endpoint's host from the
        // start, with the server's name once it has given one.
        sink(ClientEvent::Server(ServerIdentity::new(None, &config.url)));
        let url = config.url.clone();
        let connection = Self::connect_era(config, sink.clone()).await?;
        if let Connection::Legacy(s) = &connection {
            sink(ClientEvent::Server(ServerIdentity::new(
                s.server_info().as_ref(),
                &url,
            )));
        }
        Ok(connection)
    }

    async fn connect_era(config: ClientConfig, sink: EventSink) -> Result<Self, ClientError> {
        // The probe introduces the client as a call does, declaring no sampling.
        let probe = ModernConfig::default();
        let mut era = Negotiation::new(config.protocol, probe.client_info, probe.capabilities);
        let mut step = era.start();
        loop {
            step = match step {
                EraStep::Probe {
                    request,
                    timeout_ms,
                } => probe_era(&config.endpoint(), &mut era, &request, timeout_ms).await?,
                EraStep::Handshake => {
                    match LegacySession::connect(config.clone(), sink.clone()).await {
                        Ok(session) => return Ok(Connection::Legacy(session)),
                        Err(ClientError::Driver(err)) => era.on_handshake_failure(err),
                        Err(err) => return Err(err),
                    }
                }
                EraStep::Modern { discover, .. } => return Ok(modern(config, sink, &discover)),
                EraStep::Refused(facts) => return Err(ClientError::NotModern(facts)),
                EraStep::Failed(err) => return Err(err.into()),
            };
        }
    }

    /// The protocol version in use, for the connection status.
    pub fn protocol_version(&self) -> &'static str {
        match self {
            Connection::Modern(_) => MODERN_PROTOCOL_VERSION,
            Connection::Legacy(s) => s.protocol_version(),
        }
    }

    /// All tools, following `nextCursor`.
    /// In 2026-07-28, tools whose `x-mcp-header` annotations are invalid are dropped (the
    /// spec's MUST, as the SDK does), with a notice naming each and why.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let tools = self
            .list_all("tools/list", "tool list", |page: ListToolsResult| {
                (page.tools, page.next_cursor)
            })
            .await?;
        match self {
            Connection::Modern(s) => Ok(s.keep_valid_tools(tools)),
            Connection::Legacy(s) => {
                s.record_tools(&tools);
                Ok(tools)
            }
        }
    }

    /// All prompts; none when the server has no prompts (it answers "method not found").
    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        let listed = self.list_all("prompts/list", "prompt list", |page: ListPromptsResult| {
            (page.prompts, page.next_cursor)
        });
        or_none_offered(listed.await)
    }

    /// All resources; none when the server has no resources.
    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        let listed = self.list_all(
            "resources/list",
            "resource list",
            |page: ListResourcesResult| (page.resources, page.next_cursor),
        );
        or_none_offered(listed.await)
    }

    /// All resource templates; none when the server has no resources.
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        let listed = self.list_all(
            "resources/templates/list",
            "resource template list",
            |page: ListResourceTemplatesResult| (page.resource_templates, page.next_cursor),
        );
        or_none_offered(listed.await)
    }

    /// Every page of a `*/list` request (see [`list_pages`]).
    async fn list_all<P, T>(
        &self,
        method: &str,
        what: &str,
        items: impl Fn(P) -> (Vec<T>, Option<String>),
    ) -> Result<Vec<T>, ClientError>
    where
        P: serde::de::DeserializeOwned,
    {
        let fetch = |params| async move {
            match self {
                Connection::Modern(s) => s.simple(method, params).await,
                Connection::Legacy(s) => s.request(method, params).await,
            }
        };
        list_pages(fetch, what, items).await
    }

    /// Calls `name` with `arguments` and runs it to its final result. `input_schema` (from
    /// `tools/list`) tells which arguments the modern era mirrors into `Mcp-Param-*` headers.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        input_schema: Option<&Value>,
    ) -> Result<CallToolResult, ClientError> {
        let call = Call::Tool {
            name: name.to_owned(),
            arguments,
        };
        let raw = self.run(call, input_schema.cloned()).await?;
        Ok(from_raw(&raw, "tool result")?)
    }

    /// `prompts/get`, run to its final result like a tool call (it may ask for input).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<GetPromptResult, ClientError> {
        let call = Call::Prompt {
            name: name.to_owned(),
            arguments,
        };
        let raw = self.run(call, None).await?;
        Ok(from_raw(&raw, "prompt")?)
    }

    /// `resources/read`, run to its final result like a tool call (it may ask for input).
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        let call = Call::Resource {
            uri: uri.to_owned(),
        };
        let raw = self.run(call, None).await?;
        Ok(from_raw(&raw, "resource")?)
    }

    /// Runs `call` (modern rounds through the core's call machine, or one legacy request
    /// whose server requests arrive on its stream) to its final result, as the server's raw
    /// JSON (the host API hands that to JS as the server sent it; the typed methods above
    /// parse it). `input_schema` is a [`Call::Tool`]'s schema from `tools/list`: the modern
    /// era mirrors the arguments it marks into `Mcp-Param-*` headers.
    pub async fn run(
        &self,
        call: Call,
        input_schema: Option<Value>,
    ) -> Result<Box<RawValue>, ClientError> {
        // Every call carries a progress token, followed or not.
        self.run_watched(call, input_schema, &CallWatch::default())
            .await
    }

    /// [`run`](Self::run), followed by `watch` (its progress, its cards, what
    /// [`stop`](Self::stop) undoes).
    pub async fn run_watched(
        &self,
        call: Call,
        input_schema: Option<Value>,
        watch: &CallWatch,
    ) -> Result<Box<RawValue>, ClientError> {
        match self {
            Connection::Modern(s) => s.call_watched(call, input_schema, Some(watch)).await,
            Connection::Legacy(s) => {
                // Whether a tool is called as a task is in its tools/list entry: listed
                // once, when the server runs tool calls as tasks at all.
                if s.needs_tool_list(&call) {
                    let _ = self.list_tools().await;
                }
                s.call_watched(&call, Some(watch)).await
            }
        }
    }

    /// Stops the call `watch` follows, whose future the caller drops (which aborts its
    /// fetch, answered yet or not): legacy, `notifications/cancelled` with its request id and `reason`
    /// (protocol text, English); modern, the closed stream is the signal. Its cards are
    /// retired with `shown` (the person's words).
    pub async fn stop(&self, watch: &CallWatch, reason: &str, shown: &str) {
        match self {
            Connection::Modern(s) => s.stop(watch, shown),
            Connection::Legacy(s) => s.stop(watch, reason, shown).await,
        }
    }

    /// The call the card `id` came in, when making that call again is how its answer can
    /// still be delivered (legacy, after [`ClientError::RequestLost`]); `None` otherwise.
    pub fn call_of(&self, id: &str) -> Option<Call> {
        match self {
            Connection::Modern(_) => None,
            Connection::Legacy(s) => s.call_of(id),
        }
    }

    /// Delivers the user's answer to the elicitation routed as `id` (see
    /// [`ClientEvent::Elicit`]). On failure the elicitation stays pending: show the error
    /// and let the user resend.
    pub async fn answer(&self, id: &str, result: ElicitResult) -> Result<(), ClientError> {
        match self {
            Connection::Modern(s) => s.answer(id, result).await,
            Connection::Legacy(s) => s.answer(id, result).await,
        }
    }

    /// Disconnects: a legacy session is DELETEd; a pending modern round is dropped.
    pub async fn close(&self) {
        match self {
            Connection::Modern(s) => s.abandon(),
            Connection::Legacy(s) => s.close().await,
        }
    }
}

/// Every page of a `*/list` request, each fetched by `fetch` with its params (the cursor),
/// following `nextCursor`: a bounded number of pages, against a server that loops its
/// cursor.
async fn list_pages<P, T, F, Fut>(
    fetch: F,
    what: &str,
    items: impl Fn(P) -> (Vec<T>, Option<String>),
) -> Result<Vec<T>, ClientError>
where
    P: serde::de::DeserializeOwned,
    F: Fn(Map<String, Value>) -> Fut,
    Fut: std::future::Future<Output = Result<Box<RawValue>, ClientError>>,
{
    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_LIST_PAGES {
        let mut params = Map::new();
        if let Some(c) = cursor.take() {
            params.insert("cursor".into(), Value::String(c));
        }
        let raw = fetch(params).await?;
        let (page, next) = items(from_raw(&raw, what)?);
        all.extend(page);
        match next {
            Some(next) if !next.is_empty() => cursor = Some(next),
            _ => break,
        }
    }
    Ok(all)
}

/// A list the server does not offer at all ("method not found") is an empty list: a
/// server without prompts simply has none to show.
fn or_none_offered<T>(listed: Result<Vec<T>, ClientError>) -> Result<Vec<T>, ClientError> {
    match listed {
        Err(ClientError::Driver(DriverError::Rpc(e))) if e.code == codes::METHOD_NOT_FOUND => {
            Ok(Vec::new())
        }
        other => other,
    }
}

fn modern(config: ClientConfig, sink: EventSink, discover: &DiscoverResult) -> Connection {
    let info = server_info(discover.meta.as_ref());
    sink(ClientEvent::Server(ServerIdentity::new(
        info.as_ref(),
        &config.url,
    )));
    Connection::Modern(Rc::new(ModernSession::new(config, sink)))
}

/// Probes the era, signing in first when the server asks for it: a 401 or 403 is no
/// verdict on the era (the core's [`Negotiation`] only sees one when nobody could sign in).
/// The probe's time bound covers each probe, never the person's sign-in between two.
async fn probe_era(
    endpoint: &Endpoint,
    era: &mut Negotiation,
    request: &HttpRequest,
    timeout_ms: u32,
) -> Result<EraStep, ClientError> {
    let mut authorizations = 0;
    loop {
        let Some((status, content_type, www_authenticate, body)) =
            discover(endpoint, request, timeout_ms).await?
        else {
            return Ok(era.on_probe_timeout());
        };
        if let Some(sign_in) = &endpoint.http.sign_in {
            if let Some(challenge) = sign_in.challenge_of(status, www_authenticate.as_deref()) {
                if authorizations < crate::auth::MAX_AUTHORIZATIONS_PER_REQUEST {
                    authorizations += 1;
                    sign_in.authorize(challenge).await?;
                    continue;
                }
            }
        }
        return Ok(era.on_probe_answer(status, content_type.as_deref(), &body));
    }
}

/// What one probe answered: status, `Content-Type`, `WWW-Authenticate` and body.
type ProbeAnswer = (u16, Option<String>, Option<String>, Vec<u8>);

/// One `server/discover` probe, read to the end (it is small), or `None` when it took
/// longer than `timeout_ms` (it is then aborted). Only a failed exchange is an error.
async fn discover(
    endpoint: &Endpoint,
    request: &HttpRequest,
    timeout_ms: u32,
) -> Result<Option<ProbeAnswer>, ClientError> {
    let controller = web_sys::AbortController::new().ok();
    let signal = controller.as_ref().map(|c| c.signal());
    let exchange = async {
        let mut response = endpoint.send_once(request, signal.as_ref()).await?;
        let body = response.read_all().await?;
        Ok::<_, ClientError>((
            response.status,
            response.content_type.take(),
            response.www_authenticate.take(),
            body,
        ))
    };
    match crate::transport::within(timeout_ms, exchange).await {
        Some(answer) => answer.map(Some),
        None => {
            if let Some(controller) = controller {
                controller.abort();
            }
            Ok(None)
        }
    }
}
