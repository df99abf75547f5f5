//! `elicitation/create` params, `ElicitResult` and `notifications/elicitation/complete`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
    /// What `serde_json::from_value` answers (the same params, or the same error), with the
    /// form's `requestedSchema` moved rather than copied: the derive buffers the whole value
    /// to try each variant in turn and then builds the schema anew, a copy of what may be a
    /// large tree per request. Form params need `mode` absent, `null` or naming `form`, so
    /// params whose `mode` is the string `"url"` are left to the derive whole (they are
    /// small), and the schema of any others is moved; whatever the form reading refuses
    /// (`mode` as `{"url": null}`, which serde also reads as the `url` variant, among it)
    /// goes to the derive, so the outcome is always the derive's.
    pub fn from_value(value: Value) -> Result<Self, serde_json::Error> {
        let url_mode = value.get("mode").and_then(Value::as_str) == Some("url");
        let Value::Object(mut members) = value else {
            return serde_json::from_value(value);
        };
        if url_mode {
            return serde_json::from_value(Value::Object(members));
        }
        let Some(schema) = members.get_mut("requestedSchema").map(Value::take) else {
            return serde_json::from_value(Value::Object(members));
        };
        let mut rest = Value::Object(members);
        match FormParams::deserialize(&rest) {
            Ok(mut form) => {
                form.requested_schema = schema;
                Ok(ElicitRequestParams::Form(form))
            }
            // The derive's own words for what is wrong (only on this path does it copy).
            Err(_) => {
                if let Value::Object(members) = &mut rest {
                    members.insert("requestedSchema".into(), schema);
                }
                serde_json::from_value(rest)
            }
        }
    }

    pub fn message(&self) -> &str {
        match self {
            ElicitRequestParams::Url(u) => &u.message,
            ElicitRequestParams::Form(f) => &f.message,
        }
    }
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
