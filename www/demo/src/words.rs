//! The demo page's own words, per language (`catalogs/<tag>.txt`): kept out of the
//! library's catalogs, so the library's wasm does not carry them. Same form and rules as
//! the library's (web/src/i18n; its tests hold these to English's keys and placeholders).

use std::sync::OnceLock;

use mcp_elicit_web::i18n::{fill, parse, Messages};

/// The demo's catalogs, by the library's tags. English first (the fallback).
const CATALOGS: &[(&str, &str)] = &[
    ("en", include_str!("catalogs/en.txt")),
    ("zh-CN", include_str!("catalogs/zh-CN.txt")),
    ("ja", include_str!("catalogs/ja.txt")),
    ("de", include_str!("catalogs/de.txt")),
    ("fr", include_str!("catalogs/fr.txt")),
    ("es", include_str!("catalogs/es.txt")),
    ("ar", include_str!("catalogs/ar.txt")),
];

/// Each catalog's `(key, template)` pairs, parsed at the first lookup, not at every one.
fn parsed() -> &'static [Parsed] {
    static PARSED: OnceLock<Vec<Parsed>> = OnceLock::new();
    PARSED.get_or_init(|| {
        CATALOGS
            .iter()
            .map(|(tag, text)| (*tag, parse(text)))
            .collect()
    })
}

type Parsed = (&'static str, Vec<(&'static str, &'static str)>);

/// The demo's words in the page's language (its [`Messages`]' catalog).
pub trait DemoWords {
    /// The demo's text for `key`, its placeholders filled from `args`; English's when the
    /// language lacks it; the key itself when English does too.
    fn d(&self, key: &str, args: &[(&str, &str)]) -> String;
}

impl DemoWords for Messages {
    fn d(&self, key: &str, args: &[(&str, &str)]) -> String {
        let lookup = |tag: &str| {
            parsed()
                .iter()
                .find(|(t, _)| *t == tag)
                .and_then(|(_, pairs)| pairs.iter().find(|(k, _)| *k == key))
                .map(|(_, v)| *v)
        };
        match lookup(self.lang()).or_else(|| lookup("en")) {
            Some(template) => fill(template, args),
            None => key.to_owned(),
        }
    }
}
