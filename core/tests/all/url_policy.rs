//! The URL-mode policy: what may be opened, what is refused and why, and how hosts are shown.
//! Run natively (the `url` crate parses) and in headless Chromium (the browser's `URL`
//! parses): the same cases, the same answers.

use mcp_elicit::url_policy::{check, SafeUrl};

fn ok(url: &str) -> SafeUrl {
    match check(url) {
        Ok(s) => s,
        Err(r) => panic!("{url} should be allowed, was refused: {}", r.reason()),
    }
}

fn refused(url: &str) -> String {
    match check(url) {
        Ok(s) => panic!("{url} should be refused, was allowed as {s:?}"),
        Err(r) => r.reason(),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn https_is_allowed_and_normalised() {
    let s = ok("https://Example.COM/pay?x=1#frag");
    assert_eq!(s.href, "https://example.com/pay?x=1#frag");
    assert_eq!(s.host_display, "example.com");
    assert_eq!(s.host_ascii, "example.com");
    assert_eq!(s.port, None);
    assert!(!s.is_internationalised());
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn https_with_explicit_port_keeps_it() {
    let s = ok("https://example.com:8443/x");
    assert_eq!(s.port, Some(8443));
    // The default port is dropped by normalisation.
    assert_eq!(ok("https://example.com:443/x").port, None);
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn http_to_loopback_is_allowed() {
    for url in [
        "http://localhost:8000/confirm",
        "http://127.0.0.1:5000/",
        "http://127.9.8.7/",
        "http://[::1]:9000/x",
        "http://LOCALHOST/",
    ] {
        let s = ok(url);
        assert!(s.href.starts_with("http://"), "{url} -> {}", s.href);
    }
    assert_eq!(ok("http://[::1]:9000/x").host_ascii, "[::1]");
    assert_eq!(ok("http://127.0.0.1:5000/").port, Some(5000));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn http_to_other_hosts_is_refused() {
    let reason = refused("http://example.com/pay");
    assert!(reason.contains("http:"), "{reason}");
    assert!(reason.contains("example.com"), "{reason}");
    refused("http://10.0.0.1/");
    refused("http://128.0.0.1/");
    refused("http://localhost.evil.example/");
    refused("http://[::2]/");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn dangerous_schemes_are_refused_with_the_reason() {
    assert!(refused("javascript:alert(1)").contains("javascript:"));
    assert!(refused("JavaScript:alert(document.cookie)").contains("javascript:"));
    assert!(refused("  javascript:alert(1)").contains("javascript:"));
    assert!(refused("data:text/html,<script>alert(1)</script>").contains("data:"));
    assert!(refused("file:///etc/passwd").contains("file:"));
    assert!(refused("blob:https://example.com/uuid").contains("blob:"));
    assert!(refused("ftp://example.com/").contains("ftp:"));
    assert!(refused("vbscript:msgbox").contains("vbscript:"));
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn relative_and_malformed_are_refused() {
    assert!(refused("/pay").contains("relative"));
    assert!(refused("pay.html").contains("relative"));
    assert!(refused("").contains("empty"));
    assert!(refused("   ").contains("empty"));
    assert!(refused("https://").contains("cannot be read"));
    // A special scheme with no host is unreadable, not relative, in the browser too.
    for bare in ["https:", "https:/", "http:"] {
        assert!(
            refused(bare).contains("cannot be read"),
            "{bare}: {}",
            refused(bare)
        );
    }
    assert!(refused("//evil.example/x").contains("relative"));
    assert!(refused("https://exa mple.com/").contains("cannot be read"));
    // Hosts the URL Standard refuses and a browser's parser might keep, percent-encoded.
    for host in [
        "exa%20mple.com",
        "a<b.example",
        "a^b.example",
        "a|b.example",
        "a%25b.example",
    ] {
        let reason = refused(&format!("https://{host}/"));
        assert!(reason.contains("cannot be read"), "{host}: {reason}");
    }
    refused("https://[::1/");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn credentials_in_the_url_are_refused() {
    let reason = refused("https://bank.example@evil.example/login");
    assert!(reason.contains("user name or password"), "{reason}");
    refused("https://user:pw@example.com/");
    refused("https://:pw@example.com/");
    refused("http://admin@localhost/");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn internationalised_host_shows_both_forms() {
    // Cyrillic "а" in place of Latin "a": a classic look-alike.
    let s = ok("https://\u{0430}pple.com/login");
    assert_eq!(s.host_display, "\u{0430}pple.com");
    assert!(s.host_ascii.starts_with("xn--"), "{}", s.host_ascii);
    assert!(s.is_internationalised());
    assert!(s.href.contains(&s.host_ascii), "{}", s.href);

    // Given in punycode, it is still shown in Unicode too.
    let p = ok("https://xn--bcher-kva.example/");
    assert_eq!(p.host_display, "b\u{fc}cher.example");
    assert_eq!(p.host_ascii, "xn--bcher-kva.example");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
fn arbitrary_strings_never_panic() {
    for s in [
        "\u{0}",
        "https://\u{202e}moc.elgoog",
        "https://xn--/",
        "https://xn--zz/",
        "http://0x7f.1/",
        "https://%00/",
        "\u{feff}https://example.com",
        "https:example.com",
    ] {
        let _ = check(s);
    }
}

/// Each refusal by its code, and its English as the policy said it before refusals had
/// codes (each text below is the old policy's literal, the host and scheme filled in).
#[test]
fn each_refusal_has_its_code_and_the_old_english_words() {
    use mcp_elicit::url_policy::{check, UrlRefused};
    let cases = [
        ("  ", "empty", "The server sent an empty URL."),
        ("/pay", "relative", "The server sent a relative URL, which does not say which site it leads to."),
        ("https://exa mple.com/", "unreadable", "The server sent a URL that cannot be read."),
        ("javascript:alert(1)", "javascript", "This is a javascript: URL: it would run the server's code instead of opening a page."),
        ("data:text/html,x", "data", "This is a data: URL: its content comes with the link itself, not from any site you could check."),
        ("blob:https://example.com/u", "blob", "This is a blob: URL: it points at content held inside a browser page, not at a site."),
        ("file:///etc/passwd", "file", "This is a file: URL: it points at a file on this computer, not at a site."),
        ("ftp://example.com/", "scheme", "Only https: links can be opened; this one uses ftp:."),
        ("https://bank.com@evil.example/", "credentials", "The URL contains a user name or password before the host, a common way to disguise which site a link really leads to."),
        ("http://example.com/pay", "plain_http", "This link uses plain http: to example.com, so the page could be read or changed on the way; only https: links (or http: to this computer) can be opened."),
    ];
    for (url, code, old) in cases {
        let Err(r) = check(url) else {
            panic!("{url} was allowed");
        };
        assert_eq!(r.refused.code(), code, "{url}");
        assert_eq!(r.reason(), old, "{url}");
        assert_eq!(r.to_string(), old, "{url}");
    }
    // `no_host` needs a URL the parser reads without a host, which https never is.
    let untested: Vec<&str> = UrlRefused::ALL
        .iter()
        .map(|r| r.code())
        .filter(|c| !cases.iter().any(|(_, code, _)| code == c))
        .collect();
    assert_eq!(untested, ["no_host"]);
}
