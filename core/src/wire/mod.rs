//! Wire types for both protocol eras (2025-11-25 legacy, 2026-07-28 modern).
//!
//! Unknown fields are tolerated everywhere (serde's default), because servers
//! add fields faster than clients learn them. Payloads whose meaning depends
//! on context (`params`, `result`) stay raw until the driver that knows the
//! context parses them; `requestState` is never re-serialised.
//!
//! - [`call`]: [`Call`], the `tools/call`, `prompts/get` and `resources/read` that may ask for input.
//! - [`jsonrpc`]: envelopes, ids, error codes, [`parse_message`] (classifier), body builders.
//! - [`elicit`](ElicitRequestParams): `elicitation/create` params, [`ElicitResult`], completion, -32042 data.
//! - [`meta`]: versions, `_meta` keys, [`ClientCapabilities`], [`Implementation`].
//! - [`input`]: [`InputRequiredResult`], [`InputRequest`], [`InputResponse`], [`ModernResult`].
//! - [`results`]: `tools/list`, `tools/call`, `prompts/get`, `resources/read`, `initialize`, `server/discover`.

pub mod call;
pub mod catalog;
mod elicit;
pub mod input;
pub mod jsonrpc;
pub mod meta;
pub mod results;

pub use call::{Call, CallParams};
pub use catalog::{
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, Prompt, PromptArgument,
    Resource, ResourceTemplate,
};
pub use elicit::{
    ElicitAction, ElicitRequestParams, ElicitResult, ElicitationComplete, FormMode, FormParams,
    UrlElicitationRequiredData, UrlMode, UrlParams,
};
pub use input::{
    InputRequest, InputRequiredResult, InputResponse, InputResponses, ListRootsResult,
    ModernResult, Root,
};
pub use jsonrpc::{
    codes, from_raw, parse_message, to_json, ErrorObject, Incoming, RequestId, WireError, WireKind,
};
pub use meta::{ClientCapabilities, Implementation, RequestMeta};
pub use results::{
    CallToolResult, ContentItem, DiscoverResult, GetPromptResult, InitializeResult,
    ListToolsResult, ReadResourceResult, Tool,
};
