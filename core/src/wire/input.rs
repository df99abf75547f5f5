//! The modern era's multi-round-trip payloads: `InputRequiredResult`, its
//! typed `inputRequests`, and the `inputResponses` the client sends back.
//!
//! `requestState` is an opaque server token that must come back byte-exact,
//! so it is held as a [`RawValue`] and written out untouched. Because serde
//! cannot carry a `RawValue` through `flatten` or untagged enums, these types
//! are plain structs parsed straight from text.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::elicit::{ElicitRequestParams, ElicitResult};

/// `resultType` of a final result.
pub const RESULT_TYPE_COMPLETE: &str = "complete";
/// `resultType` of an [`InputRequiredResult`].
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";

/// A result that says the server needs more input before it can finish.
/// [`ModernResult::classify`] accepts it only with a non-empty
/// `inputRequests` or a `requestState` (a `null` counts as absent).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<IndexMap<String, InputRequest>>,
    /// Opaque; echoed byte-exact on the replay, never inspected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<Box<RawValue>>,
    pub result_type: String,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// One entry of `inputRequests`: a server-to-client request embedded in a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TaggedRequest", into = "TaggedRequest")]
pub enum InputRequest {
    /// `elicitation/create`: shown to the user.
    Elicit(ElicitRequestParams),
    /// `sampling/createMessage`: kept raw; answered only by a host handler.
    Sampling(Value),
    /// `roots/list`: answered from the host's configured roots.
    Roots(Option<Value>),
    /// A method this client does not know, kept as sent.
    Unknown {
        method: String,
        params: Option<Value>,
    },
}

/// Method names of the embedded requests.
pub mod methods {
    pub const ELICITATION_CREATE: &str = "elicitation/create";
    pub const SAMPLING_CREATE_MESSAGE: &str = "sampling/createMessage";
    pub const ROOTS_LIST: &str = "roots/list";
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct TaggedRequest {
    method: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
}

impl TryFrom<TaggedRequest> for InputRequest {
    type Error = String;

    fn try_from(t: TaggedRequest) -> Result<Self, String> {
        Ok(match t.method.as_str() {
            methods::ELICITATION_CREATE => {
                let params = t.params.ok_or_else(|| {
                    "an elicitation/create input request has no params".to_string()
                })?;
                InputRequest::Elicit(ElicitRequestParams::from_value(params).map_err(|e| {
                    format!("an elicitation/create input request has malformed params: {e}")
                })?)
            }
            methods::SAMPLING_CREATE_MESSAGE => {
                InputRequest::Sampling(t.params.unwrap_or(Value::Null))
            }
            methods::ROOTS_LIST => InputRequest::Roots(t.params),
            _ => InputRequest::Unknown {
                method: t.method,
                params: t.params,
            },
        })
    }
}

impl From<InputRequest> for TaggedRequest {
    fn from(r: InputRequest) -> Self {
        match r {
            InputRequest::Elicit(p) => TaggedRequest {
                method: methods::ELICITATION_CREATE.into(),
                params: serde_json::to_value(p).ok(),
            },
            InputRequest::Sampling(p) => TaggedRequest {
                method: methods::SAMPLING_CREATE_MESSAGE.into(),
                params: (!p.is_null()).then_some(p),
            },
            InputRequest::Roots(p) => TaggedRequest {
                method: methods::ROOTS_LIST.into(),
                params: p,
            },
            InputRequest::Unknown { method, params } => TaggedRequest { method, params },
        }
    }
}

impl InputRequest {
    /// The JSON-RPC method this entry stands for.
    pub fn method(&self) -> &str {
        match self {
            InputRequest::Elicit(_) => methods::ELICITATION_CREATE,
            InputRequest::Sampling(_) => methods::SAMPLING_CREATE_MESSAGE,
            InputRequest::Roots(_) => methods::ROOTS_LIST,
            InputRequest::Unknown { method, .. } => method,
        }
    }
}

/// One filesystem or URI root the host exposes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Result of `roots/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListRootsResult {
    pub roots: Vec<Root>,
}

/// One entry of `inputResponses`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InputResponse {
    Elicit(ElicitResult),
    Roots(ListRootsResult),
    /// A `CreateMessageResult` from the host's sampling handler, passed through.
    Sampling(Value),
}

/// `inputResponses`, keyed like the `inputRequests` they answer.
pub type InputResponses = IndexMap<String, InputResponse>;

/// The first look at a modern result: final, or asking for input.
#[derive(Debug, Clone)]
pub enum ModernResult {
    /// `resultType` `complete` or absent (older servers): the raw result.
    Complete(Box<RawValue>),
    InputRequired(InputRequiredResult),
    /// `resultType` `task`: a `CreateTaskResult` of the Tasks extension
    /// ([`crate::driver::task_ext`]), raw.
    Task(Box<RawValue>),
}

#[derive(Deserialize)]
struct ResultTypeProbe {
    #[serde(rename = "resultType")]
    result_type: Option<String>,
}

impl ModernResult {
    /// Classifies a raw `result` by its `resultType`.
    pub fn classify(raw: Box<RawValue>) -> Result<ModernResult, super::WireError> {
        let probe: ResultTypeProbe = super::from_raw(&raw, "result")?;
        match probe.result_type.as_deref() {
            Some(RESULT_TYPE_INPUT_REQUIRED) => {
                let r: InputRequiredResult = super::from_raw(&raw, "input-required result")?;
                // As the SDK's validator: an empty `inputRequests` asks for
                // nothing, so without a `requestState` the replay would be the
                // original request again, and the server would loop.
                let asks = r.input_requests.as_ref().is_some_and(|m| !m.is_empty());
                if !asks && r.request_state.is_none() {
                    return Err(super::WireError::of(
                        super::WireKind::Malformed,
                        "the server said input is required but sent neither inputRequests (none, or an empty map) nor requestState",
                    ));
                }
                Ok(ModernResult::InputRequired(r))
            }
            None | Some(RESULT_TYPE_COMPLETE) => Ok(ModernResult::Complete(raw)),
            Some(crate::driver::task_ext::RESULT_TYPE_TASK) => Ok(ModernResult::Task(raw)),
            Some(other) => Err(super::WireError::of(
                super::WireKind::Unexpected,
                format!(
                    "the server answered with result type {}, which this client does not know",
                    super::jsonrpc::quote(other)
                ),
            )),
        }
    }
}
