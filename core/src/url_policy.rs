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
//!
//! The URL is parsed by the WHATWG URL Standard: natively by the `url` crate, and in wasm by
//! the JS engine's own `URL` (the parser of the browser that will open the link; it saves
//! the package the `url` and `idna` crates and their Unicode tables). The punycode labels
//! of the parsed host are shown in Unicode by `punycode_decode` on both.

use crate::words::worded;
use std::net::{Ipv4Addr, Ipv6Addr};

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

/// Why a URL may not be opened: a stable code and the one datum its words quote (the
/// scheme, or the host). The English words are [`UrlRefused::english`]; the web crate's
/// catalogs word the same code (`url_refusal.<code>`) in the person's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRefusal {
    pub refused: UrlRefused,
    /// The scheme (`{scheme}`) or host (`{host}`) the words quote; empty when they quote none.
    pub detail: String,
}

worded! {
    /// Every reason a URL is refused, as a stable code; its words are `url_refusal.<code>`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum UrlRefused, key "url_refusal." {
        Empty => ("empty", "The server sent an empty URL."),
        Relative => (
            "relative",
            "The server sent a relative URL, which does not say which site it leads to.",
        ),
        Unreadable => ("unreadable", "The server sent a URL that cannot be read."),
        Javascript => (
            "javascript",
            "This is a javascript: URL: it would run the server's code instead of opening a page.",
        ),
        Data => (
            "data",
            "This is a data: URL: its content comes with the link itself, not from any site you \
             could check.",
        ),
        Blob => (
            "blob",
            "This is a blob: URL: it points at content held inside a browser page, not at a site.",
        ),
        File => (
            "file",
            "This is a file: URL: it points at a file on this computer, not at a site.",
        ),
        Scheme => ("scheme", "Only https: links can be opened; this one uses {scheme}:."),
        Credentials => (
            "credentials",
            "The URL contains a user name or password before the host, a common way to disguise \
             which site a link really leads to.",
        ),
        NoHost => ("no_host", "The URL does not name a host."),
        PlainHttp => (
            "plain_http",
            "This link uses plain http: to {host}, so the page could be read or changed on the \
             way; only https: links (or http: to this computer) can be opened.",
        ),
    }
}

/// The English template of a catalog key `url_refusal.<code>`.
pub fn english_words(key: &str) -> Option<&'static str> {
    let code = key.strip_prefix("url_refusal.")?;
    UrlRefused::WORDS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, t)| *t)
}

impl UrlRefusal {
    fn new(refused: UrlRefused) -> Self {
        UrlRefusal {
            refused,
            detail: String::new(),
        }
    }

    fn quoting(refused: UrlRefused, detail: &str) -> Self {
        UrlRefusal {
            refused,
            detail: detail.to_owned(),
        }
    }

    /// `template` with its placeholder (any name) filled with the detail.
    pub fn words(&self, template: &str) -> String {
        crate::words::fill(template, &|_| Some(self.detail.clone()))
    }

    /// Why, in English.
    pub fn reason(&self) -> String {
        self.words(self.refused.english())
    }
}

impl std::fmt::Display for UrlRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason())
    }
}

impl std::error::Error for UrlRefusal {}

/// Checks a URL against the policy (see the module docs).
pub fn check(url: &str) -> Result<SafeUrl, UrlRefusal> {
    let trimmed = url.trim();
    if trimmed.is_empty() {
        return Err(UrlRefusal::new(UrlRefused::Empty));
    }
    let parsed = match parse(trimmed) {
        Ok(u) => u,
        Err(Unparsed::Relative) => return Err(UrlRefusal::new(UrlRefused::Relative)),
        Err(Unparsed::Unreadable) => return Err(UrlRefusal::new(UrlRefused::Unreadable)),
    };

    let scheme = parsed.scheme.as_str();
    match scheme {
        "https" | "http" => {}
        "javascript" => return Err(UrlRefusal::new(UrlRefused::Javascript)),
        "data" => return Err(UrlRefusal::new(UrlRefused::Data)),
        "blob" => return Err(UrlRefusal::new(UrlRefused::Blob)),
        "file" => return Err(UrlRefusal::new(UrlRefused::File)),
        other => return Err(UrlRefusal::quoting(UrlRefused::Scheme, other)),
    }

    if parsed.has_credentials {
        return Err(UrlRefusal::new(UrlRefused::Credentials));
    }

    let host = match parsed.host {
        Some(h) => h,
        None => return Err(UrlRefusal::new(UrlRefused::NoHost)),
    };
    let (host_ascii, loopback) = match &host {
        ParsedHost::Domain(d) => {
            let d = d.to_ascii_lowercase();
            let lb = d == "localhost" || d == "localhost.";
            (d, lb)
        }
        ParsedHost::Ipv4(ip) => (ip.to_string(), ip.is_loopback()),
        ParsedHost::Ipv6(ip) => (format!("[{ip}]"), ip.is_loopback()),
    };

    if scheme == "http" && !loopback {
        return Err(UrlRefusal::quoting(UrlRefused::PlainHttp, &host_ascii));
    }

    let host_display = match host {
        // A label whose punycode does not decode cannot be shown in Unicode faithfully;
        // then the ASCII form is the only honest one.
        ParsedHost::Domain(_) => {
            domain_to_unicode(&host_ascii).unwrap_or_else(|| host_ascii.clone())
        }
        _ => host_ascii.clone(),
    };

    Ok(SafeUrl {
        href: parsed.href,
        host_display,
        host_ascii,
        port: parsed.port,
    })
}

/// What [`check`] needs of a parsed URL, from either parser.
struct Parsed {
    /// The scheme, lower case, without its `:`.
    scheme: String,
    /// A user name or a password is present.
    has_credentials: bool,
    host: Option<ParsedHost>,
    /// The URL serialised by the URL Standard.
    href: String,
    /// An explicit, non-default port.
    port: Option<u16>,
}

enum ParsedHost {
    /// In ASCII: punycode for an internationalised name.
    Domain(String),
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
}

/// Why a URL did not parse.
enum Unparsed {
    /// It has no scheme: it means something only against a base URL.
    Relative,
    Unreadable,
}

#[cfg(not(target_arch = "wasm32"))]
fn parse(input: &str) -> Result<Parsed, Unparsed> {
    use url::{Host, Url};
    let url = match Url::parse(input) {
        Ok(u) => u,
        Err(url::ParseError::RelativeUrlWithoutBase) => return Err(Unparsed::Relative),
        Err(_) => return Err(Unparsed::Unreadable),
    };
    let host = url.host().map(|h| match h {
        Host::Domain(d) => ParsedHost::Domain(d.to_owned()),
        Host::Ipv4(ip) => ParsedHost::Ipv4(ip),
        Host::Ipv6(ip) => ParsedHost::Ipv6(ip),
    });
    Ok(Parsed {
        scheme: url.scheme().to_owned(),
        has_credentials: !url.username().is_empty() || url.password().is_some(),
        host,
        port: url.port(),
        href: url.to_string(),
    })
}

#[cfg(target_arch = "wasm32")]
mod js_url {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// The JS engine's WHATWG `URL` (browsers and Node alike).
        #[wasm_bindgen(js_name = URL)]
        pub type JsUrl;
        /// Throws (caught) a `TypeError` for what does not parse.
        #[wasm_bindgen(constructor, catch, js_class = "URL")]
        pub fn new(url: &str) -> Result<JsUrl, JsValue>;
        #[wasm_bindgen(constructor, catch, js_class = "URL")]
        pub fn new_with_base(url: &str, base: &str) -> Result<JsUrl, JsValue>;
        #[wasm_bindgen(method, getter)]
        pub fn href(this: &JsUrl) -> String;
        #[wasm_bindgen(method, getter)]
        pub fn protocol(this: &JsUrl) -> String;
        #[wasm_bindgen(method, getter)]
        pub fn username(this: &JsUrl) -> String;
        #[wasm_bindgen(method, getter)]
        pub fn password(this: &JsUrl) -> String;
        #[wasm_bindgen(method, getter)]
        pub fn hostname(this: &JsUrl) -> String;
        #[wasm_bindgen(method, getter)]
        pub fn port(this: &JsUrl) -> String;
    }
}

#[cfg(target_arch = "wasm32")]
fn parse(input: &str) -> Result<Parsed, Unparsed> {
    let url = match js_url::JsUrl::new(input) {
        Ok(u) => u,
        // What parses against a base but not alone has no scheme of its own (the `url`
        // crate's `RelativeUrlWithoutBase`). The base is not special (not http/https), so
        // `https:` or `https:/` (a special scheme with no host) is not completed by the
        // base's host and stays unreadable, as natively.
        Err(_) if js_url::JsUrl::new_with_base(input, "x:/").is_ok() => {
            return Err(Unparsed::Relative)
        }
        Err(_) => return Err(Unparsed::Unreadable),
    };
    let protocol = url.protocol();
    let scheme = protocol.strip_suffix(':').unwrap_or(&protocol).to_owned();
    let hostname = url.hostname();
    // The URL Standard serialises an IPv6 host in brackets and an IPv4 host as four
    // decimal numbers (no domain may end in a number), so the form says which it is.
    let host = if hostname.is_empty() {
        None
    } else if let Some(v6) = hostname.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(ParsedHost::Ipv6(
            v6.parse().map_err(|_| Unparsed::Unreadable)?,
        ))
    } else if let Ok(v4) = hostname.parse::<Ipv4Addr>() {
        Some(ParsedHost::Ipv4(v4))
    } else if hostname.chars().any(is_forbidden_domain_char) {
        // The URL Standard refuses such a host; Chromium keeps it, percent-encoded
        // (`exa mple.com` as `exa%20mple.com`), and it names no site.
        return Err(Unparsed::Unreadable);
    } else {
        Some(ParsedHost::Domain(hostname))
    };
    let port = url.port();
    Ok(Parsed {
        scheme,
        has_credentials: !url.username().is_empty() || !url.password().is_empty(),
        host,
        port: if port.is_empty() {
            None
        } else {
            Some(port.parse().map_err(|_| Unparsed::Unreadable)?)
        },
        href: url.href(),
    })
}

/// A "forbidden domain code point" of the URL Standard, or anything but ASCII (a parsed
/// domain is in its ASCII form).
#[cfg(target_arch = "wasm32")]
fn is_forbidden_domain_char(c: char) -> bool {
    !c.is_ascii()
        || c.is_ascii_control()
        || matches!(
            c,
            ' ' | '#' | '%' | '/' | ':' | '<' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '|'
        )
}

/// The host in Unicode: each `xn--` label of an ASCII host (as the URL parser left it,
/// lower case and already checked by UTS 46) decoded, or `None` when one does not decode.
fn domain_to_unicode(ascii: &str) -> Option<String> {
    let mut out = String::with_capacity(ascii.len());
    for (i, label) in ascii.split('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        match label.strip_prefix("xn--") {
            Some(encoded) => out.push_str(&punycode_decode(encoded)?),
            None => out.push_str(label),
        }
    }
    Some(out)
}

/// The most code points one decoded label may have: 63, the longest DNS label (RFC 1035;
/// each code point takes at least one ASCII byte of the label). A longer result is refused,
/// which bounds the decoder's quadratic insertions whatever the host's length.
const MAX_DECODED_LABEL_CHARS: usize = 63;

/// RFC 3492 punycode decoding of one label (without its `xn--`); `None` for what does not
/// decode (a non-ASCII or invalid digit, an overflow, a surrogate or out-of-range code point,
/// an over-long result, or one of ASCII only, empty included).
pub(crate) fn punycode_decode(input: &str) -> Option<String> {
    const BASE: u32 = 36;
    const T_MIN: u32 = 1;
    const T_MAX: u32 = 26;
    const SKEW: u32 = 38;
    const DAMP: u32 = 700;
    fn adapt(delta: u32, points: u32, first: bool) -> u32 {
        let mut delta = if first { delta / DAMP } else { delta / 2 };
        delta += delta / points;
        let mut k = 0;
        while delta > ((BASE - T_MIN) * T_MAX) / 2 {
            delta /= BASE - T_MIN;
            k += BASE;
        }
        k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
    }
    if !input.is_ascii() {
        return None;
    }
    let (basic, extended) = match input.rfind('-') {
        Some(at) => (&input[..at], &input[at + 1..]),
        None => ("", input),
    };
    let mut output: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = extended.bytes().peekable();
    while digits.peek().is_some() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let digit = match digits.next()? {
                b @ b'a'..=b'z' => u32::from(b - b'a'),
                b @ b'A'..=b'Z' => u32::from(b - b'A'),
                b @ b'0'..=b'9' => u32::from(b - b'0') + 26,
                _ => return None,
            };
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                T_MIN
            } else if k >= bias + T_MAX {
                T_MAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let points = u32::try_from(output.len() + 1).ok()?;
        bias = adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        if output.len() >= MAX_DECODED_LABEL_CHARS {
            return None;
        }
        output.insert(usize::try_from(i).ok()?, char::from_u32(n)?);
        i += 1;
    }
    // A label of ASCII only must not be written in punycode (UTS 46 refuses it).
    if output.iter().all(char::is_ascii) {
        return None;
    }
    Some(output.into_iter().collect())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// The decoder answers as `idna` (which the native build shows hosts with before this
    /// decoder existed, and which the browser build no longer carries) on valid labels.
    #[test]
    fn punycode_decodes_as_idna_does() {
        for host in [
            "xn--bcher-kva.example",
            "xn--pple-43d.com",
            "xn--mgbh0fb.xn--kgbechtv",
            "xn--fsqu00a.xn--0zwm56d",
            "xn--hxajbheg2az3al.xn--jxalpdlp",
            "xn--r8jz45g.xn--zckzah",
            "xn--9n2bp8q.xn--9t4b11yi5a",
            "xn--ls8h.la",
            "example.com",
        ] {
            let (want, result) = idna::domain_to_unicode(host);
            assert!(result.is_ok(), "{host}");
            assert_eq!(
                domain_to_unicode(host).as_deref(),
                Some(want.as_str()),
                "{host}"
            );
        }
    }

    #[test]
    fn punycode_refuses_what_does_not_decode() {
        for label in ["", "-", "zz", "a-é", "99999999999", "a-", &"a".repeat(70)] {
            assert_eq!(punycode_decode(label), None, "{label:?}");
        }
        // RFC 3492 7.1 (L): 3<nen>B<gumi><kinpachi><sensei>
        assert_eq!(
            punycode_decode("3B-ww4c5e180e575a65lsy2b").as_deref(),
            Some("3年B組金八先生")
        );
    }
}
