//! `elicitation/create` params, `ElicitResult` and `notifications/elicitation/complete`.

use crate::schema::{FormSpec, SchemaError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Params of `elicitation/create` (legacy) or of an `inputRequests` entry's `params` (modern).
/// A missing `mode` means form mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElicitRequestParams {
    Url(UrlParams),
    Form(FormParams),
}

/// Form-mode params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    pub message: String,
    /// Kept raw: the schema compiler decides what it accepts, with precise errors.
    pub requested_schema: Value,
    /// The schema compiled, once for these params and every copy of them ([`FormParams::spec`]).
    #[serde(skip)]
    compiled: CompiledSchema,
}

impl FormParams {
    /// `requested_schema` compiled ([`crate::schema::compile`]), once for these params and
    /// every clone of them: a host's `onElicitation` check and the card it falls back to
    /// share one compile. Compiled from `requested_schema` as it is at the first call.
    pub fn spec(&self) -> &Result<FormSpec, SchemaError> {
        self.compiled
            .0
            .get_or_init(|| crate::schema::compile(&self.requested_schema))
    }
}

/// [`FormParams::spec`]'s memo: not part of the params (never serialised, equal to any other).
#[derive(Clone, Default)]
struct CompiledSchema(Arc<OnceLock<Result<FormSpec, SchemaError>>>);

impl PartialEq for CompiledSchema {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CompiledSchema")
    }
}

/// URL-mode params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UrlParams {
    pub mode: UrlMode,
    pub message: String,
    pub url: String,
    /// The legacy era's id, matched by `notifications/elicitation/complete`.
    /// The modern era (2026-07-28) sends no id (it has no completion
    /// notification): then this is empty, and is left out when serialised.
    /// Kept a `String` rather than an `Option` so existing callers keep working;
    /// [`UrlParams::completion_id`] gives the optional view.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub elicitation_id: String,
}

impl UrlParams {
    /// The id a completion notification will name, if the server gave one.
    pub fn completion_id(&self) -> Option<&str> {
        (!self.elicitation_id.is_empty()).then_some(self.elicitation_id.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormMode {
    Form,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlMode {
    Url,
}

impl ElicitRequestParams {
    /// What `serde_json::from_value` answers through the derive (the same params, or an
    /// error with the same words), read here by hand. The derive buffers the whole value to
    /// try each variant in turn, builds the form's schema anew (a copy of what may be a
    /// large tree per request), and links serde's type-error machinery, which takes
    /// `f64`'s `Display` and `str`'s `Debug` into every wasm that reads params (some 20 KB
    /// gzip of the npm package). The derive stays on the type; the native tests
    /// `elicit_params_from_a_value_are_the_derives` and `from_value_is_the_derive`
    /// (`core/tests/all/wire_types.rs`) hold the two to the same answers.
    ///
    /// The derive's rules, as this reads them: untagged, so `Url` is tried first, then
    /// `Form`. A struct is read from an object (unknown members ignored, a missing member
    /// with a default takes it) or from an array of its fields in order (the defaulted
    /// trailing ones may be left out, no extra ones). A unit variant (`"url"`, `"form"`) is
    /// its name as a string or an object of that one key whose value is `null`; an
    /// `Option` is `None` when `null`. The one error when neither variant reads is the
    /// derive's. One difference, on purpose: with serde_json's `raw_value` feature the
    /// derive reads an object keyed by serde's private raw-value token as raw JSON text;
    /// here it is the object it is, like any other (pinned by
    /// `elicit_params_keep_an_object_keyed_by_serdes_raw_value_token`).
    pub fn from_value(value: Value) -> Result<Self, serde_json::Error> {
        let read = match value {
            Value::Object(members) => Self::from_members(members),
            Value::Array(items) => Self::from_items(items),
            _ => None,
        };
        read.ok_or_else(|| {
            serde::de::Error::custom(
                "data did not match any variant of untagged enum ElicitRequestParams",
            )
        })
    }

    fn from_members(mut members: Map<String, Value>) -> Option<Self> {
        let url = (|| {
            Some(UrlParams {
                mode: unit_variant(members.get("mode")?, "url").then_some(UrlMode::Url)?,
                message: string(members.get("message")?)?,
                url: string(members.get("url")?)?,
                elicitation_id: match members.get("elicitationId") {
                    None => String::new(),
                    Some(id) => string(id)?,
                },
            })
        })();
        if let Some(url) = url {
            return Some(ElicitRequestParams::Url(url));
        }
        let mode = form_mode(members.get("mode"))?;
        let message = string(members.get("message")?)?;
        let requested_schema = members.get_mut("requestedSchema")?.take();
        Some(ElicitRequestParams::Form(FormParams {
            mode,
            message,
            requested_schema,
            compiled: CompiledSchema::default(),
        }))
    }

    fn from_items(mut items: Vec<Value>) -> Option<Self> {
        let url = match items.as_slice() {
            [mode, message, url, rest @ ..] if rest.len() <= 1 => (|| {
                Some(UrlParams {
                    mode: unit_variant(mode, "url").then_some(UrlMode::Url)?,
                    message: string(message)?,
                    url: string(url)?,
                    elicitation_id: match rest.first() {
                        None => String::new(),
                        Some(id) => string(id)?,
                    },
                })
            })(),
            _ => None,
        };
        if let Some(url) = url {
            return Some(ElicitRequestParams::Url(url));
        }
        match items.as_mut_slice() {
            [mode, message, schema] => Some(ElicitRequestParams::Form(FormParams {
                mode: form_mode(Some(mode))?,
                message: string(message)?,
                requested_schema: schema.take(),
                compiled: CompiledSchema::default(),
            })),
            _ => None,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            ElicitRequestParams::Url(u) => &u.message,
            ElicitRequestParams::Form(f) => &f.message,
        }
    }
}

/// A unit variant named `name` as serde reads one from a value: the string, or an object
/// of that one key whose value is `null`.
fn unit_variant(value: &Value, name: &str) -> bool {
    match value {
        Value::String(s) => s == name,
        Value::Object(o) => o.len() == 1 && o.get(name).is_some_and(Value::is_null),
        _ => false,
    }
}

/// A form's `mode` as `Option<FormMode>` with a default reads it: absent or `null` is
/// `None`, the unit variant `form` is `Some`, anything else refuses (the outer `None`).
fn form_mode(value: Option<&Value>) -> Option<Option<FormMode>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(v) => unit_variant(v, "form").then_some(Some(FormMode::Form)),
    }
}

fn string(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

/// What the client sends back: `accept` (with content in form mode), `decline` or `cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    pub action: ElicitAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
}

impl ElicitResult {
    pub fn accept(content: Option<Map<String, Value>>) -> Self {
        ElicitResult {
            action: ElicitAction::Accept,
            content,
        }
    }
    pub fn decline() -> Self {
        ElicitResult {
            action: ElicitAction::Decline,
            content: None,
        }
    }
    pub fn cancel() -> Self {
        ElicitResult {
            action: ElicitAction::Cancel,
            content: None,
        }
    }
}

/// Params of `notifications/elicitation/complete`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationComplete {
    pub elicitation_id: String,
}

/// `data` of the -32042 (URL_ELICITATION_REQUIRED) error: the URL-mode
/// elicitations the user must complete before the request is retried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UrlElicitationRequiredData {
    pub elicitations: Vec<UrlParams>,
}
