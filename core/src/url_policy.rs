//! Whether a URL-mode URL may be opened, and how to show its host. (Owned by the UI work; placeholder.)

/// A URL that may be opened: `https:`, or `http:` to a loopback host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeUrl {
    /// The URL as the server sent it (after parsing and normalising).
    pub href: String,
    /// The host as a person reads it (Unicode for an internationalised host).
    pub host_display: String,
    /// The host in ASCII (punycode `xn--` form where internationalised).
    pub host_ascii: String,
}

/// Why a URL may not be opened, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRefusal {
    pub reason: String,
}

/// Checks a URL against the policy.
pub fn check(url: &str) -> Result<SafeUrl, UrlRefusal> {
    let _ = url;
    Err(UrlRefusal {
        reason: "URL policy not built yet".into(),
    })
}
