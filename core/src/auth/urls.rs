//! The URLs of discovery, each list a pure function of the server URL or the issuer, in
//! the order the specifications give, and the `resource` check. Parsed with `iri-string`
//! (the core's URI parser on every target), compared as text: no URL normalisation, since
//! RFC 8414 §3.3 and RFC 9207 compare issuers as simple strings, and the conformance
//! suite checks `resource` is sent exactly as the metadata published it.

use iri_string::types::UriStr;

/// Longest URL the flow takes from a server (metadata, challenge). Browsers handle far
/// longer ones, but an endpoint or issuer is a host and a short path.
pub const MAX_URL_BYTES: usize = 2048;

/// An absolute `http`/`https` URL without user information, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpUrl {
    /// `scheme://authority`, scheme and host in lower case.
    pub origin: String,
    /// The host (and port) for people: `as.example.com:8443`.
    pub host: String,
    /// The path as written (may be empty).
    pub path: String,
    pub query: Option<String>,
    pub fragment: bool,
}

impl HttpUrl {
    pub fn parse(url: &str) -> Result<HttpUrl, String> {
        if url.len() > MAX_URL_BYTES {
            return Err(format!(
                "it is {} bytes long, over the {MAX_URL_BYTES} this client takes",
                url.len()
            ));
        }
        let uri = UriStr::new(url).map_err(|_| "it is not an absolute URL".to_string())?;
        let scheme = uri.scheme_str().to_ascii_lowercase();
        if scheme != "https" && scheme != "http" {
            return Err(format!("its scheme is {scheme}:, not https: or http:"));
        }
        let authority = uri
            .authority_components()
            .ok_or_else(|| "it names no host".to_string())?;
        if authority.userinfo().is_some() {
            return Err("it carries a user name or password".to_string());
        }
        let host_name = authority.host().to_ascii_lowercase();
        if host_name.is_empty() {
            return Err("it names no host".to_string());
        }
        let host = match authority.port() {
            Some(port) if !port.is_empty() => format!("{host_name}:{port}"),
            _ => host_name,
        };
        Ok(HttpUrl {
            origin: format!("{scheme}://{host}"),
            host,
            path: uri.path_str().to_string(),
            query: uri.query_str().map(str::to_string),
            fragment: uri.fragment().is_some(),
        })
    }

    /// The path without its trailing `/` (the root is empty).
    fn trimmed_path(&self) -> &str {
        self.path.trim_end_matches('/')
    }
}

/// Schemes of browser extensions' own pages: an extension's callback page lives there
/// (`chrome-extension://<id>/oauth-callback.html`), and the authorization server sends
/// the popup back to it as to any redirect URI.
const EXTENSION_SCHEMES: [&str; 3] = ["chrome-extension", "moz-extension", "safari-web-extension"];

/// Whether `url` can be the sign-in's redirect URI: an `http`/`https` URL, or a page of a
/// browser extension (an extension scheme with its id as the host). Anything else (a
/// `javascript:` or `data:` URL, a relative one) is refused in words.
pub(crate) fn check_redirect_url(url: &str) -> Result<(), String> {
    let Err(why) = HttpUrl::parse(url) else {
        return Ok(());
    };
    let Ok(uri) = UriStr::new(url) else {
        return Err(why);
    };
    let scheme = uri.scheme_str().to_ascii_lowercase();
    if !EXTENSION_SCHEMES.contains(&scheme.as_str()) || url.len() > MAX_URL_BYTES {
        return Err(why);
    }
    match uri.authority_components() {
        Some(a) if a.userinfo().is_none() && !a.host().is_empty() => Ok(()),
        _ => Err("it names no extension".to_string()),
    }
}

/// The host of a URL for messages, or the URL's first characters when it does not parse.
pub(crate) fn host_of(url: &str) -> String {
    match HttpUrl::parse(url) {
        Ok(u) => u.host,
        Err(_) => url.chars().take(80).collect(),
    }
}

/// A URL for messages: scheme, host and path, never the query (which may carry a key).
pub(crate) fn shown(url: &str) -> String {
    match HttpUrl::parse(url) {
        Ok(u) => format!("{}{}", u.origin, u.path),
        Err(_) => url.chars().take(80).collect(),
    }
}

/// Where protected resource metadata may be, after the challenge's `resource_metadata`
/// (RFC 9728 §3.1, the MCP authorization spec's order): the well-known URI inserted
/// before the server's path, then at the root. One entry when the server is at the root.
pub(crate) fn prm_well_known(server: &HttpUrl) -> Vec<String> {
    const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";
    let path = server.trimmed_path();
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!("{}{WELL_KNOWN}{path}", server.origin));
    }
    urls.push(format!("{}{WELL_KNOWN}", server.origin));
    urls
}

/// Where an issuer's metadata may be (RFC 8414 §3.1 with OpenID Connect Discovery, the
/// MCP authorization spec's order). With a path: OAuth with the path inserted, OpenID
/// with the path inserted, OpenID with the path appended. Without: OAuth, then OpenID.
pub(crate) fn as_well_known(issuer: &HttpUrl) -> Vec<String> {
    const OAUTH: &str = "/.well-known/oauth-authorization-server";
    const OPENID: &str = "/.well-known/openid-configuration";
    let origin = &issuer.origin;
    let path = issuer.trimmed_path();
    if path.is_empty() {
        vec![format!("{origin}{OAUTH}"), format!("{origin}{OPENID}")]
    } else {
        vec![
            format!("{origin}{OAUTH}{path}"),
            format!("{origin}{OPENID}{path}"),
            format!("{origin}{path}{OPENID}"),
        ]
    }
}

/// Whether a protected resource's `resource` names the server at `server`: the same
/// origin, and a path that is the server's or a parent of it on a `/` boundary (an MCP
/// server at `/mcp` may publish its origin as the resource, as the conformance suite's
/// root-metadata scenario does). No query or fragment.
pub(crate) fn resource_names_server(resource: &str, server: &HttpUrl) -> bool {
    let Ok(resource) = HttpUrl::parse(resource) else {
        return false;
    };
    if resource.origin != server.origin || resource.query.is_some() || resource.fragment {
        return false;
    }
    let parent = resource.trimmed_path();
    let own = server.trimmed_path();
    own == parent
        || own
            .strip_prefix(parent)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The canonical URI of the server (the MCP spec's "canonical server URI"), for the
/// `resource` parameter when no metadata published one: the URL without its fragment,
/// scheme and host in lower case, the path as given.
pub(crate) fn canonical_server_uri(server: &HttpUrl) -> String {
    let mut out = format!("{}{}", server.origin, server.path);
    if let Some(q) = &server.query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// `base` with a query appended (`?` or `&` as `base` already has one).
pub(crate) fn with_query(base: &str, query: &str) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{query}")
}
