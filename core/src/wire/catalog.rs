//! What a server offers besides tools: prompts (`prompts/list`), resources
//! (`resources/list`) and resource templates (`resources/templates/list`), and what a
//! client needs to call them from a form: a prompt's arguments as a flat schema (the same
//! form renderer as elicitations), a template's variables and its RFC 6570 expansion
//! (`iri-string`, so a non-ASCII value stays readable in the URI, as an IRI).

use iri_string::spec::IriSpec;
use iri_string::template::simple_context::SimpleContext;
use iri_string::template::UriTemplateStr;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

use super::jsonrpc::quote;

/// One prompt from `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub arguments: Vec<PromptArgument>,
}

/// One argument of a prompt (always a string on the wire).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

impl Prompt {
    /// The arguments as a flat object schema of strings, in order, so the elicitation
    /// form renderer can ask for them.
    pub fn arguments_schema(&self) -> Value {
        let mut properties = Map::new();
        for arg in &self.arguments {
            let mut field = Map::new();
            field.insert("type".into(), json!("string"));
            if let Some(title) = &arg.title {
                field.insert("title".into(), json!(title));
            }
            if let Some(description) = &arg.description {
                field.insert("description".into(), json!(description));
            }
            properties.insert(arg.name.clone(), Value::Object(field));
        }
        let required: Vec<&str> = self
            .arguments
            .iter()
            .filter(|a| a.required == Some(true))
            .map(|a| a.name.as_str())
            .collect();
        json!({ "type": "object", "properties": properties, "required": required })
    }
}

/// Result of `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPromptsResult {
    pub prompts: Vec<Prompt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One resource from `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// Result of `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourcesResult {
    pub resources: Vec<Resource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// One template from `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    pub uri_template: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

/// Result of `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourceTemplatesResult {
    pub resource_templates: Vec<ResourceTemplate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

impl ResourceTemplate {
    fn template(&self) -> Result<&UriTemplateStr, String> {
        // iri-string 0.7 slices two bytes after each `%` without checking for a character
        // boundary, so `%` before a non-ASCII character panics there (found by
        // scripts/fuzz). RFC 6570 allows `%` only as `%` HEXDIG HEXDIG, so refusing
        // anything else first is the same verdict, without the panic.
        if let Some(at) = bad_percent(&self.uri_template) {
            return Err(format!(
                "the server's URI template {} is not valid RFC 6570 (a percent sign at byte {at} is not followed by two hex digits)",
                quote(&self.uri_template)
            ));
        }
        UriTemplateStr::new(&self.uri_template).map_err(|e| {
            format!(
                "the server's URI template {} is not valid RFC 6570 ({e})",
                quote(&self.uri_template)
            )
        })
    }

    /// The template's variables, each once, in order of first use.
    pub fn variables(&self) -> Result<Vec<String>, String> {
        let mut seen = BTreeSet::new();
        let mut names: Vec<String> = Vec::new();
        for var in self.template()?.variables() {
            if seen.insert(var.as_str()) {
                names.push(var.as_str().to_owned());
            }
        }
        Ok(names)
    }

    /// The variables as a flat object schema of required strings, for the form renderer.
    pub fn variables_schema(&self) -> Result<Value, String> {
        let names = self.variables()?;
        let properties: Map<String, Value> = names
            .iter()
            .map(|n| (n.clone(), json!({ "type": "string" })))
            .collect();
        Ok(json!({ "type": "object", "properties": properties, "required": names }))
    }

    /// The URI for `values` (strings; other JSON values by their JSON text), expanded by
    /// RFC 6570 rules: reserved characters are percent-encoded, non-ASCII kept (IRI).
    pub fn expand(&self, values: &Map<String, Value>) -> Result<String, String> {
        let template = self.template()?;
        let mut context = SimpleContext::new();
        for (name, value) in values {
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            context.insert(name.as_str(), text);
        }
        template
            .expand::<IriSpec, _>(&context)
            .map(|expanded| expanded.to_string())
            .map_err(|e| {
                format!(
                    "the URI template {} cannot be expanded ({e})",
                    quote(&self.uri_template)
                )
            })
    }
}

/// The byte offset of the first `%` not followed by two ASCII hex digits, if any.
fn bad_percent(template: &str) -> Option<usize> {
    let bytes = template.as_bytes();
    bytes.iter().enumerate().find_map(|(i, &b)| {
        let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
        (b == b'%' && !(hex(i + 1) && hex(i + 2))).then_some(i)
    })
}
