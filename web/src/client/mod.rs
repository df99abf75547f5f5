//! MCP client sessions for both eras and era auto-detection.
//!
//! [`Connection::connect`] picks the era ([`ProtocolChoice`]), and then every call goes
//! through the same few methods whichever era is in use: [`Connection::list_tools`],
//! [`Connection::call_tool`], [`Connection::get_prompt`] and [`Connection::read_resource`]
//! (each runs to the final result, pushing [`ClientEvent`]s for the elicitations on the way) and [`Connection::answer`] (the user's answer to one of them).
//! The protocol itself, what to send and what every message means, is the core's
//! (`mcp_elicit::driver`: the modern call machine, the legacy session machine, the era
//! table); this module and its submodules do the IO around those machines.

mod config;
mod events;
mod exchange;
mod legacy;
mod modern;
mod resume;

use std::rc::Rc;

use futures::future::Either;

use mcp_elicit::driver::era::{self, EraDecision};
use mcp_elicit::driver::modern::ModernConfig;
use mcp_elicit::driver::DriverError;
use mcp_elicit::wire::meta::{server_info, MODERN_PROTOCOL_VERSION};
use mcp_elicit::wire::{
    codes, from_raw, CallToolResult, DiscoverResult, ElicitResult, GetPromptResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, Prompt,
    ReadResourceResult, RequestId, Resource, ResourceTemplate, Tool,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use config::{ClientConfig, ProtocolChoice, SamplingHandler, DEFAULT_MAX_ROUNDS};
pub use events::{ClientError, ClientEvent, EventSink, ServerIdentity, MAX_PENDING_CARDS};
pub use exchange::Messages;
pub use legacy::{LegacySession, URL_REQUIRED_KEY_PREFIX};
pub use modern::{ModernSession, Original};

/// Pages of a `*/list` request we follow before we stop (a server that loops its cursor).
const MAX_LIST_PAGES: usize = 50;

/// A live connection in one era.
#[derive(Clone)]
pub enum Connection {
    Modern(Rc<ModernSession>),
    Legacy(LegacySession),
}

impl Connection {
    /// Connects in the configured era. `Auto` probes `server/discover` and lets the core's
    /// era table decide (the SDK's denylist: anything but positive modern evidence falls
    /// back to the legacy handshake, except a -32022 naming only modern versions we don't
    /// speak). Network and CORS failures are reported, never taken as an era verdict.
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
        match config.protocol {
            ProtocolChoice::Legacy => Ok(Connection::Legacy(
                LegacySession::connect(config, sink).await?,
            )),
            ProtocolChoice::Modern => match negotiate(&config.url).await? {
                EraDecision::Modern { discover, .. } => Ok(modern(config, sink, &discover)),
                EraDecision::Incompatible(err) => Err(err.into()),
                EraDecision::Legacy { reason } => Err(ClientError::Refused(format!(
                    "The server does not offer protocol version {MODERN_PROTOCOL_VERSION}: {reason}."
                ))),
                EraDecision::Reprobe { version } => Err(ClientError::Refused(format!(
                    "The server does not offer protocol version {MODERN_PROTOCOL_VERSION}; \
                     it offers {version}."
                ))),
            },
            ProtocolChoice::Auto => match negotiate(&config.url).await? {
                EraDecision::Modern { discover, .. } => Ok(modern(config, sink, &discover)),
                EraDecision::Incompatible(err) => Err(err.into()),
                // `negotiate` made the one reprobe there is: no modern evidence.
                EraDecision::Legacy { .. } | EraDecision::Reprobe { .. } => {
                    match LegacySession::connect(config.clone(), sink.clone()).await {
                        Ok(session) => Ok(Connection::Legacy(session)),
                        // The handshake was refused with -32022 naming the modern version:
                        // the probe's verdict was wrong (e.g. a transient failure). Probe
                        // once more, as the SDK does, and keep the refusal otherwise.
                        Err(ClientError::Driver(err))
                            if era::after_handshake_failure(&err).is_some() =>
                        {
                            match probe(&config.url, MODERN_PROTOCOL_VERSION, era::decide_reprobed)
                                .await?
                            {
                                EraDecision::Modern { discover, .. } => Ok(modern(config, sink, &discover)),
                                _ => Err(ClientError::Driver(err)),
                            }
                        }
                        Err(err) => Err(err),
                    }
                }
            },
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
            Connection::Legacy(_) => Ok(tools),
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
        let raw = self
            .run(Original::CallTool {
                name: name.to_owned(),
                arguments,
                input_schema: input_schema.cloned(),
            })
            .await?;
        Ok(from_raw(&raw, "tool result")?)
    }

    /// `prompts/get`, run to its final result like a tool call (it may ask for input).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<GetPromptResult, ClientError> {
        let raw = self
            .run(Original::GetPrompt {
                name: name.to_owned(),
                arguments,
            })
            .await?;
        Ok(from_raw(&raw, "prompt")?)
    }

    /// `resources/read`, run to its final result like a tool call (it may ask for input).
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        let raw = self
            .run(Original::ReadResource {
                uri: uri.to_owned(),
            })
            .await?;
        Ok(from_raw(&raw, "resource")?)
    }

    /// Runs one of the requests that may ask for input (modern rounds through the core's
    /// call machine, or one legacy request whose server requests arrive on its stream) to
    /// its final result, as the server's raw JSON (the host API hands that to JS as the
    /// server sent it; the typed methods above parse it).
    pub async fn run(&self, original: Original) -> Result<Box<RawValue>, ClientError> {
        match self {
            Connection::Modern(s) => s.call(original).await,
            Connection::Legacy(s) => s.request(original.method(), original.params()).await,
        }
    }

    /// The method and params of the call the card `id` came in, when a re-run of that
    /// call is how its answer can still be delivered (legacy, after
    /// [`ClientError::RequestLost`]); `None` otherwise.
    pub fn call_of(&self, id: &str) -> Option<(String, Option<Value>)> {
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

/// How long `server/discover` may take (the SDK's `DISCOVER_TIMEOUT_SECONDS`): a server
/// that holds the probe open is taken for one that does not speak the modern era, rather
/// than leaving the connect hanging.
const DISCOVER_TIMEOUT_MS: u32 = 10_000;

/// The core's verdict on one probe's whole answer: [`era::decide`] for the first,
/// [`era::decide_reprobed`] for the reprobe.
type Decide = fn(&str, &RequestId, u16, Option<&str>, &[u8]) -> EraDecision;

/// Probes `server/discover` at the modern version and, when the answer asks for it (a
/// -32022 whose `supported` names a modern version we speak, even the one probed), once
/// more at that version, as SEP-2575 says; the verdict on the last answer.
async fn negotiate(url: &str) -> Result<EraDecision, ClientError> {
    match probe(url, MODERN_PROTOCOL_VERSION, era::decide).await? {
        EraDecision::Reprobe { version } => probe(url, &version, era::decide_reprobed).await,
        decision => Ok(decision),
    }
}

/// Probes `server/discover` at `version` and returns `decide`'s era decision on the whole
/// HTTP answer (it is small). Only a failed exchange is an error; no answer in time is
/// the legacy verdict (and the probe is aborted).
async fn probe(url: &str, version: &str, decide: Decide) -> Result<EraDecision, ClientError> {
    let controller = web_sys::AbortController::new().ok();
    let signal = controller.as_ref().map(|c| c.signal());
    let exchange = discover(url, version, decide, signal.as_ref());
    let timeout = crate::transport::sleep(DISCOVER_TIMEOUT_MS);
    futures::pin_mut!(exchange, timeout);
    match futures::future::select(exchange, timeout).await {
        Either::Left((outcome, _)) => outcome,
        Either::Right(((), _)) => {
            if let Some(controller) = controller {
                controller.abort();
            }
            Ok(EraDecision::Legacy {
                reason: format!(
                    "the server did not answer server/discover within {} seconds",
                    DISCOVER_TIMEOUT_MS / 1000
                ),
            })
        }
    }
}

/// One `server/discover` exchange at `version`, read to the end.
async fn discover(
    url: &str,
    version: &str,
    decide: Decide,
    signal: Option<&web_sys::AbortSignal>,
) -> Result<EraDecision, ClientError> {
    let config = ModernConfig::default();
    let id = RequestId::Number(0);
    let request = era::discover_request(&id, version, &config.client_info, &config.capabilities)?;
    let mut response = exchange::send(url, &request, signal).await?;
    let body = response.read_all().await?;
    Ok(decide(
        version,
        &id,
        response.status,
        response.content_type.as_deref(),
        &body,
    ))
}
