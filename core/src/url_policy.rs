//! Whether a URL-mode URL may be opened, and how to show its host.
//!
//! A URL-mode elicitation asks the user to leave the client and visit a page the
//! server chose. That page is where the user types passwords or card numbers, so
//! the client must (a) never open something that runs code in its own origin or
//! reads local files, and (b) show the user, unambiguously, *which site* they are
//! about to trust. Hence the policy:
//!
//! | URL                                         | verdict |
//! |---------------------------------------------|---------|
//! | `https://host/...`                          | allowed |
//! | `http://` to `localhost`, `127.0.0.0/8`, `::1` | allowed (local development servers) |
//! | `http://` to any other host                 | refused: the page could be read or altered in transit |
//! | `javascript:`, `data:`, `blob:`, `file:`, any other scheme | refused, with the reason |
//! | relative or malformed                       | refused |
//! | user name or password in the URL (`https://bank.com@evil.example/`) | refused: a classic way to disguise the real host |
//!
//! The host is returned twice: as a person reads it (Unicode) and in ASCII
//! (punycode `xn--…` for an internationalised name). When the two differ the UI
//! shows both, so a look-alike such as `аpple.com` (Cyrillic `а`) stands out as
//! `xn--pple-43d.com`.

use url::{Host, Url};

/// A URL that may be opened: `https:`, or `http:` to a loopback host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeUrl {
    /// The URL as the server sent it, after parsing and normalising (this is what is opened).
    pub href: String,
    /// The host as a person reads it (Unicode for an internationalised host).
    pub host_display: String,
    /// The host in ASCII (punycode `xn--` form where internationalised).
    pub host_ascii: String,
    /// An explicit, non-default port, shown next to the host.
    pub port: Option<u16>,
}

impl SafeUrl {
    /// True when the Unicode and ASCII forms of the host differ, i.e. the user should
    /// see the punycode form too.
    pub fn is_internationalised(&self) -> bool {
        self.host_display != self.host_ascii
    }
}

/// Why a URL may not be opened, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRefusal {
    pub reason: String,
}

impl UrlRefusal {
    fn new(reason: impl Into<String>) -> Self {
        UrlRefusal {
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for UrlRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for UrlRefusal {}

/// Checks a URL against the policy (see the module docs).
pub fn check(url: &str) -> Result<SafeUrl, UrlRefusal> {
    let trimmed = url.trim();
    if trimmed.is_empty() {
        return Err(UrlRefusal::new("The server sent an empty URL."));
    }
    let parsed = match Url::parse(trimmed) {
        Ok(u) => u,
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            return Err(UrlRefusal::new(
                "The server sent a relative URL, which does not say which site it leads to.",
            ))
        }
        Err(e) => {
            return Err(UrlRefusal::new(format!(
                "The server sent a URL that cannot be read ({e})."
            )))
        }
    };

    let scheme = parsed.scheme();
    match scheme {
        "https" | "http" => {}
        "javascript" => {
            return Err(UrlRefusal::new(
                "This is a javascript: URL: it would run the server's code instead of opening a page.",
            ))
        }
        "data" => {
            return Err(UrlRefusal::new(
                "This is a data: URL: its content comes with the link itself, not from any site you could check.",
            ))
        }
        "blob" => {
            return Err(UrlRefusal::new(
                "This is a blob: URL: it points at content held inside a browser page, not at a site.",
            ))
        }
        "file" => {
            return Err(UrlRefusal::new(
                "This is a file: URL: it points at a file on this computer, not at a site.",
            ))
        }
        other => {
            return Err(UrlRefusal::new(format!(
                "Only https: links can be opened; this one uses {other}:."
            )))
        }
    }

    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(UrlRefusal::new(
            "The URL contains a user name or password before the host, a common way to disguise which site a link really leads to.",
        ));
    }

    let host = match parsed.host() {
        Some(h) => h,
        None => return Err(UrlRefusal::new("The URL does not name a host.")),
    };
    let (host_ascii, loopback) = match &host {
        Host::Domain(d) => {
            let d = d.to_ascii_lowercase();
            let lb = d == "localhost" || d == "localhost.";
            (d, lb)
        }
        Host::Ipv4(ip) => (ip.to_string(), ip.is_loopback()),
        Host::Ipv6(ip) => (format!("[{ip}]"), ip.is_loopback()),
    };

    if scheme == "http" && !loopback {
        return Err(UrlRefusal::new(format!(
            "This link uses plain http: to {host_ascii}, so the page could be read or changed on the way; only https: links (or http: to this computer) can be opened."
        )));
    }

    let host_display = match host {
        Host::Domain(_) => {
            let (unicode, result) = idna::domain_to_unicode(&host_ascii);
            // An invalid punycode label cannot be shown in Unicode faithfully; then the
            // ASCII form is the only honest one.
            if result.is_ok() {
                unicode
            } else {
                host_ascii.clone()
            }
        }
        _ => host_ascii.clone(),
    };

    Ok(SafeUrl {
        href: parsed.to_string(),
        host_display,
        host_ascii,
        port: parsed.port(),
    })
}
