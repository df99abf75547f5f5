//! The JSON documents of the flow, read field by field so that a wrong type is named in
//! words (`"token_endpoint" is a number, not text`), and nothing larger than
//! [`MAX_METADATA_BYTES`] is parsed.

use serde_json::{Map, Value};

use super::urls::HttpUrl;

/// Largest body the flow reads (metadata, a registration, a token response). Real ones
/// are 1 to 10 KiB; 256 KiB leaves room for long scope lists. The IO should stop reading
/// a body beyond it (`AuthResponse::body` longer than this is refused unread).
pub const MAX_METADATA_BYTES: usize = 256 * 1024;

/// A JSON object from a body, or why not.
pub(crate) fn object(
    body: &[u8],
    content_type: Option<&str>,
) -> Result<Map<String, Value>, String> {
    if body.len() > MAX_METADATA_BYTES {
        return Err(format!(
            "its {} bytes are more than the {MAX_METADATA_BYTES} this client reads",
            body.len()
        ));
    }
    // Read as text: `from_str` is the reader the rest of the client links already, where
    // `from_slice` would link a second copy of it (about 4.5 KB of McpClient's wasm). A body
    // that is not UTF-8 is not JSON either.
    let parsed = std::str::from_utf8(body)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(text).ok());
    match parsed {
        Some(Value::Object(map)) => Ok(map),
        Some(other) => Err(format!("it is JSON {}, not an object", kind(&other))),
        None => Err(match content_type {
            Some(ct) if !ct.to_ascii_lowercase().contains("json") => {
                format!(
                    "it is not JSON (Content-Type: {})",
                    ct.chars().take(60).collect::<String>()
                )
            }
            _ => "it is not JSON".to_string(),
        }),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a true/false value",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// An optional text field.
pub(crate) fn text(map: &Map<String, Value>, name: &str) -> Result<Option<String>, String> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("\"{name}\" is {}, not text", kind(other))),
    }
}

/// A required text field.
pub(crate) fn required_text(map: &Map<String, Value>, name: &str) -> Result<String, String> {
    text(map, name)?.ok_or_else(|| format!("it has no \"{name}\""))
}

fn flag(map: &Map<String, Value>, name: &str) -> Result<bool, String> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("\"{name}\" is {}, not true or false", kind(other))),
    }
}

/// An optional list of text.
pub(crate) fn text_list(
    map: &Map<String, Value>,
    name: &str,
) -> Result<Option<Vec<String>>, String> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(format!("\"{name}\" lists {}, not text", kind(other))),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(other) => Err(format!("\"{name}\" is {}, not a list", kind(other))),
    }
}

/// An endpoint URL field: absolute http(s), no fragment.
fn endpoint(map: &Map<String, Value>, name: &str) -> Result<Option<String>, String> {
    let Some(url) = text(map, name)? else {
        return Ok(None);
    };
    match HttpUrl::parse(&url) {
        Ok(parsed) if !parsed.fragment => Ok(Some(url)),
        Ok(_) => Err(format!("\"{name}\" has a fragment")),
        Err(why) => Err(format!("\"{name}\" cannot be used: {why}")),
    }
}

/// Protected resource metadata (RFC 9728 §2), the fields the flow uses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ResourceMetadata {
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

pub(crate) fn resource_metadata(
    body: &[u8],
    content_type: Option<&str>,
) -> Result<ResourceMetadata, String> {
    let map = object(body, content_type)?;
    Ok(ResourceMetadata {
        resource: required_text(&map, "resource")?,
        authorization_servers: text_list(&map, "authorization_servers")?.unwrap_or_default(),
        scopes_supported: text_list(&map, "scopes_supported")?,
    })
}

/// Authorization server metadata (RFC 8414 §2), the fields the flow uses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    /// `None`: not advertised (RFC 8414 says: then no PKCE; MCP says: refuse).
    pub code_challenge_methods_supported: Option<Vec<String>>,
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    pub iss_parameter_supported: bool,
    pub client_id_metadata_document_supported: bool,
}

pub(crate) fn server_metadata(
    body: &[u8],
    content_type: Option<&str>,
) -> Result<ServerMetadata, String> {
    let map = object(body, content_type)?;
    Ok(ServerMetadata {
        issuer: required_text(&map, "issuer")?,
        authorization_endpoint: endpoint(&map, "authorization_endpoint")?
            .ok_or_else(|| "it has no \"authorization_endpoint\"".to_string())?,
        token_endpoint: endpoint(&map, "token_endpoint")?
            .ok_or_else(|| "it has no \"token_endpoint\"".to_string())?,
        registration_endpoint: endpoint(&map, "registration_endpoint")?,
        scopes_supported: text_list(&map, "scopes_supported")?,
        code_challenge_methods_supported: text_list(&map, "code_challenge_methods_supported")?,
        token_endpoint_auth_methods_supported: text_list(
            &map,
            "token_endpoint_auth_methods_supported",
        )?,
        iss_parameter_supported: flag(&map, "authorization_response_iss_parameter_supported")?,
        client_id_metadata_document_supported: flag(&map, "client_id_metadata_document_supported")?,
    })
}

/// A dynamic client registration answer (RFC 7591 §3.2.1).
pub(crate) struct Registered {
    pub client_id: String,
    pub client_secret: Option<String>,
    /// As sent; RFC 7591 §2's default when absent is client_secret_basic.
    pub method: Option<String>,
}

pub(crate) fn registered(body: &[u8], content_type: Option<&str>) -> Result<Registered, String> {
    let map = object(body, content_type)?;
    Ok(Registered {
        client_id: required_text(&map, "client_id")?,
        client_secret: text(&map, "client_secret")?,
        method: text(&map, "token_endpoint_auth_method")?,
    })
}

/// A successful token answer (RFC 6749 §5.1).
pub(crate) struct Issued {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
}

pub(crate) fn issued(body: &[u8], content_type: Option<&str>) -> Result<Issued, String> {
    let map = object(body, content_type)?;
    let access_token = required_text(&map, "access_token")?;
    if access_token.is_empty() {
        return Err("its access_token is empty".to_string());
    }
    let token_type = required_text(&map, "token_type")?;
    if !token_type.eq_ignore_ascii_case("bearer") {
        return Err(format!(
            "it issued a \"{}\" token; this client sends Bearer tokens only",
            token_type.chars().take(40).collect::<String>()
        ));
    }
    let expires_in = match map.get("expires_in") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n) => Some(n),
            None => return Err("\"expires_in\" is not a whole number of seconds".to_string()),
        },
        Some(other) => return Err(format!("\"expires_in\" is {}, not a number", kind(other))),
    };
    Ok(Issued {
        access_token,
        refresh_token: text(&map, "refresh_token")?,
        expires_in,
        scope: text(&map, "scope")?,
    })
}

/// OAuth's `error` and `error_description` from an error body, when it has them.
pub(crate) fn oauth_error(body: &[u8]) -> (Option<String>, Option<String>) {
    match object(body, None) {
        Ok(map) => (
            text(&map, "error").ok().flatten(),
            text(&map, "error_description").ok().flatten(),
        ),
        Err(_) => (None, None),
    }
}
