//! The words the person reads, per language: message catalogs, the choice of one, and the
//! wording of the core's field errors from their code and the field's data.
//!
//! A catalog is a text file (`catalogs/<tag>.txt`), one message a line:
//! `key = template`, where the template names its data in braces (`{count}`); `#` starts a
//! comment line. A key ending in `.one` is the form used when the message's count is 1
//! (optional: a language without the distinction leaves it out). English (`en`) is the
//! reference: every other catalog has exactly its keys and, per key, the same
//! placeholders (the test `catalogs_match_english` fails otherwise), and a key missing at
//! run time falls back to English's text.
//!
//! Server text (the message, titles, descriptions, choice titles) is never translated: it
//! goes into placeholders as it came.
//!
//! [`Messages`] is the chosen catalog plus a host's overrides (`messages`, checked against
//! English's keys and placeholders). Components read it from Leptos context
//! ([`use_messages`]); without one they follow the browser's languages.

use mcp_elicit::schema::{
    Arg, Field, FieldKind, NumberBounds, SchemaError, StringFormat, MAX_PATTERN_TEXT_LEN,
};
use mcp_elicit::url_policy::UrlRefusal;
use mcp_elicit::validate::{ErrorCode, FieldError, MAX_LISTED_CHOICES};
use std::sync::{Arc, OnceLock};

/// The languages there are catalogs for (BCP 47 tags), English first: the fallback and the
/// reference. English is compiled in; the others are files of the package
/// (`i18n/<tag>.js`, made from `catalogs/<tag>.txt` by `scripts/i18n-modules`), loaded when
/// a locale needs one ([`Messages::loaded`]), so a page in English downloads none of them.
const LOCALES: [&str; 7] = ["en", "zh-CN", "ja", "de", "fr", "es", "ar"];

/// The English catalog's file, comments and all (read only at compile time).
const ENGLISH_FILE: &str = include_str!("catalogs/en.txt");

/// The key prefixes of what only a connection says (its errors, notices and task texts,
/// the host's notices): their English is compiled apart ([`CONNECTION_ENGLISH`]) and
/// linked only into a wasm that makes connections, so the library's `elicit` and element
/// do not carry it.
const CONNECTION_PREFIXES: [&str; 10] = [
    "client.",
    "task.",
    "session.",
    "notice.",
    "driver.",
    "wire.",
    "transport.",
    "host.",
    "header.",
    "probe.",
];

/// The bytes of [`ENGLISH_FILE`] compiled in: its `key = template` lines without the
/// comments (for translators, not for the wasm) and the spaces around `=`, but those of a
/// connection.
const ENGLISH_BYTES: [u8; compact(ENGLISH_FILE.as_bytes(), &mut [], false)] = compacted(false);

/// The English catalog's text, as [`parse`] reads it: the cards' words.
const ENGLISH: &str = text_of(&ENGLISH_BYTES);

/// The lines of [`ENGLISH_FILE`] a connection says (see [`CONNECTION_PREFIXES`]).
const CONNECTION_BYTES: [u8; compact(ENGLISH_FILE.as_bytes(), &mut [], true)] = compacted(true);

/// English's words of a connection, as [`parse`] reads them ([`speak_for_connections`]).
const CONNECTION_ENGLISH: &str = text_of(&CONNECTION_BYTES);

/// [`compact`] of [`ENGLISH_FILE`] (a connection's lines or the others) into an array of
/// its length. Compile time only.
const fn compacted<const N: usize>(connection: bool) -> [u8; N] {
    let mut out = [0u8; N];
    compact(ENGLISH_FILE.as_bytes(), &mut out, connection);
    out
}

/// The text of compacted bytes (UTF-8, as the file is). Compile time only.
const fn text_of(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => "",
    }
}

/// Whether the key starting at `text[start..]` has one of [`CONNECTION_PREFIXES`].
const fn is_connection_key(text: &[u8], start: usize) -> bool {
    let mut p = 0;
    while p < CONNECTION_PREFIXES.len() {
        let prefix = CONNECTION_PREFIXES[p].as_bytes();
        let mut i = 0;
        while i < prefix.len() && start + i < text.len() && text[start + i] == prefix[i] {
            i += 1;
        }
        if i == prefix.len() {
            return true;
        }
        p += 1;
    }
    false
}

/// Writes `text`'s `key = template` lines (not blank or `#` lines, nor one without `=`)
/// into `out` as `key=template\n` (an empty `out` just counts): what [`parse`] reads of
/// them is unchanged. Only a connection's lines when `connection`, else only the others.
/// Returns the result's length. Compile time only.
const fn compact(text: &[u8], out: &mut [u8], connection: bool) -> usize {
    const fn put(out: &mut [u8], len: usize, c: u8) -> usize {
        if len < out.len() {
            out[len] = c;
        }
        len + 1
    }
    const fn space(c: u8) -> bool {
        c == b' ' || c == b'\t' || c == b'\r'
    }
    let mut len = 0;
    let mut i = 0;
    while i < text.len() {
        let mut end = i;
        while end < text.len() && text[end] != b'\n' {
            end += 1;
        }
        let mut start = i;
        while start < end && space(text[start]) {
            start += 1;
        }
        let mut eq = start;
        while eq < end && text[eq] != b'=' {
            eq += 1;
        }
        if start < end
            && text[start] != b'#'
            && eq < end
            && is_connection_key(text, start) == connection
        {
            let mut key_end = eq;
            while key_end > start && space(text[key_end - 1]) {
                key_end -= 1;
            }
            let mut value = eq + 1;
            while value < end && space(text[value]) {
                value += 1;
            }
            let mut value_end = end;
            while value_end > value && space(text[value_end - 1]) {
                value_end -= 1;
            }
            let mut j = start;
            while j < key_end {
                len = put(out, len, text[j]);
                j += 1;
            }
            len = put(out, len, b'=');
            j = value;
            while j < value_end {
                len = put(out, len, text[j]);
                j += 1;
            }
            len = put(out, len, b'\n');
        }
        i = end + 1;
    }
    len
}

/// The most bytes a loaded catalog may have (the largest, ja, is some 31 KB): a bigger text is
/// refused, so what a page keeps of catalogs stays bounded.
pub const MAX_CATALOG_BYTES: usize = 64 * 1024;

/// A catalog parsed: `(key, template)` pairs in the file's order.
type Catalog = &'static [(&'static str, &'static str)];

/// The tags of the catalogs there are (English's compiled in, the others loaded on demand).
pub fn locales() -> impl Iterator<Item = &'static str> {
    LOCALES.into_iter()
}

fn english() -> Catalog {
    static EN: OnceLock<Vec<(&str, &str)>> = OnceLock::new();
    EN.get_or_init(|| parse(ENGLISH))
}

/// English's words of a connection, once [`speak_for_connections`] has been called (always
/// natively).
static CONNECTION: OnceLock<Vec<(&str, &str)>> = OnceLock::new();

/// Makes English's words of a connection ([`CONNECTION_PREFIXES`]) available to every
/// [`Messages`]: called by whatever makes a connection or words its errors
/// ([`crate::client::ClientConfig::new`], `ClientError::words`, `TransportError::words`,
/// the host's options), so only a wasm that links those carries them.
pub fn speak_for_connections() {
    CONNECTION.get_or_init(|| parse(CONNECTION_ENGLISH));
}

fn connection_english() -> Option<Catalog> {
    #[cfg(not(target_arch = "wasm32"))]
    speak_for_connections();
    CONNECTION.get().map(Vec::as_slice)
}

thread_local! {
    /// The catalogs loaded so far: each tag once, kept for the page's life (at most six of
    /// at most [`MAX_CATALOG_BYTES`]).
    static LOADED: std::cell::RefCell<Vec<(&'static str, Catalog)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The catalog of `tag`, when it is English or has been loaded.
fn catalog_of(tag: &str) -> Option<Catalog> {
    if tag == "en" {
        return Some(english());
    }
    LOADED.with(|l| l.borrow().iter().find(|(t, _)| *t == tag).map(|(_, c)| *c))
}

/// English's template of `key`: the catalog's, or the core's for a schema's refusals
/// (`schema.…`) and a link's (`url_refusal.…`), whose English is written once, next to
/// the refusals, in the core (and is linked only where those are worded or overridden).
fn english_template(key: &str) -> Option<&'static str> {
    find(english(), key)
        .or_else(|| connection_english().and_then(|c| find(c, key)))
        .or_else(|| mcp_elicit::schema::english_words(key))
        .or_else(|| mcp_elicit::url_policy::english_words(key))
}

/// Takes the text of `tag`'s catalog (one of [`locales`] other than `en`): later
/// [`Messages`] for that language use it. A catalog already taken stays (the first text
/// counts). A key it lacks falls back to English's text.
pub fn register(tag: &str, text: &str) -> Result<(), String> {
    let Some(tag) = LOCALES.into_iter().skip(1).find(|t| *t == tag) else {
        return Err(format!("there is no catalog \"{tag}\" to load"));
    };
    if text.len() > MAX_CATALOG_BYTES {
        return Err(format!(
            "the catalog \"{tag}\" is over {MAX_CATALOG_BYTES} bytes"
        ));
    }
    if catalog_of(tag).is_some() {
        return Ok(());
    }
    // Kept for the page's life, once per tag: bounded above.
    let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
    let pairs: Catalog = Box::leak(parse(text).into_boxed_slice());
    LOADED.with(|l| l.borrow_mut().push((tag, pairs)));
    Ok(())
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    /// A Promise of the text of `tag`'s catalog (a dynamic `import()` of `i18n/<tag>.js`),
    /// of `undefined` when it could not be loaded. Never rejects.
    fn load_catalog(tag: &str) -> js_sys::Promise;
    /// The text of `tag`'s catalog read at once from the package's files, under Node;
    /// `undefined` elsewhere.
    fn catalog_now(tag: &str) -> wasm_bindgen::JsValue;
}

/// Loads `tag`'s catalog unless it is English or loaded. A failed load leaves it unloaded
/// (the messages stay English's; the glue says why on the console).
#[cfg(target_arch = "wasm32")]
async fn load(tag: &'static str) {
    if catalog_of(tag).is_some() {
        return;
    }
    if let Ok(Some(text)) = wasm_bindgen_futures::JsFuture::from(load_catalog(tag))
        .await
        .map(|t| t.as_string())
    {
        let _ = register(tag, &text);
    }
}

#[cfg(not(target_arch = "wasm32"))]
async fn load(_tag: &'static str) {}

/// Loads the catalog of `locale` (absent: of the browser's languages), unless it is English
/// or loaded: the [`Messages`] made after it are in that language.
pub async fn load_for(locale: Option<&str>) {
    let wanted = match locale {
        Some(tag) => negotiate([tag]),
        None => Messages::from_browser().wanted(),
    };
    load(wanted).await;
}

/// Loads `tag`'s catalog at once where the package's files can be read synchronously
/// (Node), for the synchronous `validateContent`; elsewhere it waits for [`Messages::loaded`].
#[cfg(target_arch = "wasm32")]
pub fn load_now(tag: &'static str) {
    if catalog_of(tag).is_none() {
        if let Some(text) = catalog_now(tag).as_string() {
            let _ = register(tag, &text);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn load_now(_tag: &'static str) {}

/// `key = template` lines to pairs, in the file's order (a repeated key: its first line
/// counts). Looked up by a linear search: a catalog is some hundred lines, and std's sort
/// would cost the wasm more than the searches cost time.
pub fn parse(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim(), unquote(v.trim())))
        .collect()
}

/// A template written in double quotes is taken between them, spaces included.
fn unquote(v: &str) -> &str {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
}

/// A piece of a template: text, or the name of a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Slot(String),
}

/// A template's parts as written: text, and placeholder names. A `{` with no `}` after it
/// is text, and so is everything after it. The one reader of placeholders:
/// [`pieces`], [`placeholders`] and [`fill`] all go through it.
enum Part<'a> {
    Text(&'a str),
    Slot(&'a str),
}

fn parts(template: &str) -> impl Iterator<Item = Part<'_>> {
    let mut rest = template;
    let mut slot = None;
    std::iter::from_fn(move || {
        if let Some(name) = slot.take() {
            return Some(Part::Slot(name));
        }
        if rest.is_empty() {
            return None;
        }
        let found = rest.find('{').and_then(|open| {
            let after = rest.get(open + 1..)?;
            Some((open, after, after.find('}')?))
        });
        let Some((open, after, close)) = found else {
            return Some(Part::Text(std::mem::take(&mut rest)));
        };
        let text = rest.get(..open).unwrap_or("");
        let name = after.get(..close).unwrap_or("");
        rest = after.get(close + 1..).unwrap_or("");
        if text.is_empty() {
            Some(Part::Slot(name))
        } else {
            slot = Some(name);
            Some(Part::Text(text))
        }
    })
}

/// A template cut at its placeholders, for a view that puts elements in them.
fn pieces(template: &str) -> Vec<Piece> {
    parts(template)
        .map(|part| match part {
            Part::Text(text) => Piece::Text(text.to_owned()),
            Part::Slot(name) => Piece::Slot(name.to_owned()),
        })
        .collect()
}

fn find<'a>(pairs: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// The placeholder names of a template, once each, in order of first use.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for part in parts(template) {
        if let Part::Slot(name) = part {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Whether two templates name the same placeholders (in any order).
pub fn same_placeholders(a: &str, b: &str) -> bool {
    let (a, b) = (placeholders(a), placeholders(b));
    a.len() == b.len() && a.iter().all(|n| b.contains(n))
}

/// Fills a template's placeholders from `args`; a placeholder without an argument is kept
/// as written (never a panic on a host's text).
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    for part in parts(template) {
        match part {
            Part::Text(text) => out.push_str(text),
            Part::Slot(name) => match args.iter().find(|(n, _)| *n == name) {
                Some((_, value)) => out.push_str(value),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
        }
    }
    out
}

/// The catalog for the first of `tags` (the person's languages, best first) that this build
/// carries: the tag itself (any case), else its language (`de-AT` → `de`; `zh`, `zh-Hans`
/// and `zh-SG` → `zh-CN`, while traditional Chinese is not taken for it); `en` when none is.
pub fn negotiate<'a>(tags: impl IntoIterator<Item = &'a str>) -> &'static str {
    for tag in tags {
        let tag = tag.trim().to_ascii_lowercase().replace('_', "-");
        if let Some(found) = locales().find(|l| l.eq_ignore_ascii_case(&tag)) {
            return found;
        }
        let mut parts = tag.split('-');
        let lang = parts.next().unwrap_or("");
        if lang == "zh" {
            let traditional = parts.any(|p| matches!(p, "hant" | "tw" | "hk" | "mo"));
            if !traditional {
                return "zh-CN";
            }
            continue;
        }
        if let Some(found) = locales().find(|l| l.split('-').next() == Some(lang)) {
            return found;
        }
    }
    "en"
}

/// `rtl` for the languages written right to left, else `ltr`.
pub fn direction(locale: &str) -> &'static str {
    if locale == "ar" {
        "rtl"
    } else {
        "ltr"
    }
}

/// The chosen catalog and a host's overrides. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Messages(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    /// The language asked for ([`negotiate`]d).
    wanted: &'static str,
    /// The language of `catalog`: `wanted` once its catalog is loaded, else `en`.
    lang: &'static str,
    catalog: Catalog,
    /// Key → template, checked against English's (a short list: searched in order).
    overrides: Vec<(String, String)>,
}

impl PartialEq for Messages {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.wanted == b.wanted && a.lang == b.lang && a.overrides == b.overrides
    }
}

impl Eq for Messages {}

impl Default for Messages {
    /// English, without overrides.
    fn default() -> Self {
        Messages::new("en")
    }
}

impl Messages {
    /// The catalog [`negotiate`] picks for `tag` (English when none fits), when it is
    /// loaded; English until then (see [`Messages::loaded`]).
    pub fn new(tag: &str) -> Self {
        Messages::with_catalog(negotiate([tag]), Vec::new())
    }

    fn with_catalog(wanted: &'static str, overrides: Vec<(String, String)>) -> Self {
        let (lang, catalog) = match catalog_of(wanted) {
            Some(c) => (wanted, c),
            None => ("en", english()),
        };
        Messages(Arc::new(Inner {
            wanted,
            lang,
            catalog,
            overrides,
        }))
    }

    /// These messages once the catalog of their language is loaded (fetched once per page;
    /// at once when it is English or loaded). A catalog that cannot be loaded leaves them
    /// English's, the overrides kept.
    pub async fn loaded(self) -> Self {
        if self.0.lang == self.0.wanted {
            return self;
        }
        load(self.0.wanted).await;
        Messages::with_catalog(self.0.wanted, self.0.overrides.clone())
    }

    /// These messages speaking their language without its catalog loaded, `texts` already
    /// worded in it: for sign-in's wasm, given the card's texts (from these catalogs, so
    /// not checked as a host's overrides are). `lang` and `dir` are the language's; a key
    /// not given falls back to English's.
    pub fn given(&self, texts: impl IntoIterator<Item = (String, String)>) -> Self {
        Messages(Arc::new(Inner {
            wanted: self.0.wanted,
            lang: self.0.wanted,
            catalog: self.0.catalog,
            overrides: texts.into_iter().collect(),
        }))
    }

    /// The language asked for, loaded or not.
    pub fn wanted(&self) -> &'static str {
        self.0.wanted
    }

    /// For the first of the person's languages this build carries.
    pub fn negotiated<'a>(tags: impl IntoIterator<Item = &'a str>) -> Self {
        Messages::new(negotiate(tags))
    }

    /// The browser's choice (`navigator.languages`), English outside a browser.
    pub fn from_browser() -> Self {
        Messages::negotiated(browser_languages().iter().map(String::as_str))
    }

    /// These messages with a host's overrides: each key must be one of English's and its
    /// template must name the same placeholders as English's, or the error says which not.
    pub fn with_overrides(
        &self,
        overrides: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, String> {
        let mut map = self.0.overrides.clone();
        for (key, template) in overrides {
            let Some(english) = english_template(&key) else {
                // A connection's key in a wasm that has made no connection (its English is
                // not here to check against): taken as given; it shows once one is made.
                if is_connection_key(key.as_bytes(), 0) && CONNECTION.get().is_none() {
                    map.retain(|(k, _)| *k != key);
                    map.push((key, template));
                    continue;
                }
                return Err(format!("messages: \"{key}\" is not a message key"));
            };
            if !same_placeholders(english, &template) {
                let mut want = String::new();
                for name in placeholders(english) {
                    want.push_str(if want.is_empty() { "{" } else { ", {" });
                    want.push_str(name);
                    want.push('}');
                }
                if want.is_empty() {
                    want.push_str("none");
                }
                return Err(format!(
                    "messages.{key}: the text must use the placeholders {want}, as English's does"
                ));
            }
            map.retain(|(k, _)| *k != key);
            map.push((key, template));
        }
        Ok(Messages(Arc::new(Inner {
            wanted: self.0.wanted,
            lang: self.0.lang,
            catalog: self.0.catalog,
            overrides: map,
        })))
    }

    /// The catalog's tag (`en`, `zh-CN`, `ar`, …): the card's `lang`.
    pub fn lang(&self) -> &'static str {
        self.0.lang
    }

    /// `rtl` or `ltr`: the card's `dir`.
    pub fn dir(&self) -> &'static str {
        direction(self.lang())
    }

    /// The text of `key`: the host's, else the catalog's, else English's catalog's.
    fn lookup(&self, key: &str) -> Option<&str> {
        if let Some((_, t)) = self.0.overrides.iter().find(|(k, _)| k == key) {
            return Some(t);
        }
        find(self.0.catalog, key)
            .or_else(|| find(english(), key))
            .or_else(|| connection_english().and_then(|c| find(c, key)))
    }

    fn template<'a>(&'a self, key: &'a str) -> &'a str {
        // A key no catalog has is shown as itself: visible in a test, never a panic.
        self.lookup(key).unwrap_or(key)
    }

    /// The message `key` with its placeholders filled.
    pub fn t(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(self.template(key), args)
    }

    /// Why a schema was refused, in this language: the words of its code, quoting its data
    /// (server text as it came, counts formatted for the locale, the JSON type found and
    /// what the field holds in words).
    pub fn refusal(&self, e: &SchemaError) -> String {
        let or =
            |key: String, english: &'static str| self.lookup(&key).unwrap_or(english).to_owned();
        let template = or(e.refusal.key(), e.refusal.english());
        e.words(&template, &|arg| match arg {
            Arg::Text(s) => s.clone(),
            // Written for the locale while an f64 holds it exactly; a larger count (only a
            // server's own number) as its digits.
            Arg::Count(n) if *n <= 1 << 53 => self.number(*n as f64),
            Arg::Count(n) => n.to_string(),
            Arg::Found(k) => or(k.key(), k.english()),
            Arg::Holds(h) => or(h.key(), h.english()),
        })
    }

    /// Why a link is not opened, in this language (the scheme or host it quotes as it is).
    pub fn url_refusal(&self, r: &UrlRefusal) -> String {
        r.words(self.lookup(&r.refused.key()).unwrap_or(r.refused.english()))
    }

    /// The message `key` cut at its placeholders (see [`Piece`]).
    pub fn pieces(&self, key: &str) -> Vec<Piece> {
        pieces(self.template(key))
    }

    /// The message `key` cut at its placeholders, for a view that puts an element in each:
    /// the slots' names in the text's order, and the texts around them (one more than the
    /// slots). Other placeholders than `slots` are filled from `args`.
    pub fn cut(
        &self,
        key: &str,
        slots: &[&str],
        args: &[(&str, &str)],
    ) -> (Vec<String>, Vec<String>) {
        let mut order = Vec::new();
        let mut texts = vec![String::new()];
        for piece in pieces(self.template(key)) {
            match piece {
                Piece::Slot(name) if slots.contains(&name.as_str()) => {
                    order.push(name);
                    texts.push(String::new());
                }
                Piece::Slot(name) => {
                    let filled = args
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map_or_else(|| format!("{{{name}}}"), |(_, v)| (*v).to_owned());
                    if let Some(last) = texts.last_mut() {
                        last.push_str(&filled);
                    }
                }
                Piece::Text(t) => {
                    if let Some(last) = texts.last_mut() {
                        last.push_str(&t);
                    }
                }
            }
        }
        (order, texts)
    }

    /// The message `key` for a count: its `.one` form when `count` is 1 and the language has
    /// one; `{count}` is the count formatted for the locale.
    pub fn count(&self, key: &str, count: u64, args: &[(&str, &str)]) -> String {
        let n = self.number(count as f64);
        let mut all: Vec<(&str, &str)> = vec![("count", n.as_str())];
        all.extend_from_slice(args);
        if count == 1 {
            let one = format!("{key}.one");
            // The language's own `.one` form (English's connection words are apart).
            let english = self.0.lang == "en";
            let has_one = self.0.overrides.iter().any(|(k, _)| *k == one)
                || find(self.0.catalog, &one).is_some()
                || (english && connection_english().and_then(|c| find(c, &one)).is_some());
            if has_one {
                return fill(self.template(&one), &all);
            }
        }
        fill(self.template(key), &all)
    }

    /// A number as the locale writes it (`Intl.NumberFormat` in a browser or Node).
    pub fn number(&self, n: f64) -> String {
        format_number(self.lang(), n)
    }

    /// The words for a core field error, from its code and the field's data (bounds,
    /// lengths, counts, choices). `value` is what the control held, when known: it tells an
    /// exclusive bound from an inclusive one and a text too long for the pattern check.
    pub fn field_error(&self, field: &Field, error: &FieldError, value: Option<&str>) -> String {
        field_error_for(self, field, error.code, value)
    }
}

#[cfg(target_arch = "wasm32")]
fn format_number(locale: &str, n: f64) -> String {
    use wasm_bindgen::JsValue;
    let locales = js_sys::Array::of1(&JsValue::from_str(locale));
    let format = js_sys::Intl::NumberFormat::new(&locales, &js_sys::Object::new()).format();
    format
        .call1(&JsValue::NULL, &JsValue::from_f64(n))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| mcp_elicit::validate::number_text(n))
}

#[cfg(not(target_arch = "wasm32"))]
fn format_number(_locale: &str, n: f64) -> String {
    mcp_elicit::validate::number_text(n)
}

#[cfg(target_arch = "wasm32")]
fn browser_languages() -> Vec<String> {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let list: Vec<String> = nav
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if list.is_empty() {
        nav.language().into_iter().collect()
    } else {
        list
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn browser_languages() -> Vec<String> {
    Vec::new()
}

/// The messages a host's options choose: `locale` (a BCP 47 tag; absent: the browser's
/// languages) and `messages` (an object of key → text overriding the catalog's). `what`
/// names the options in an error, e.g. `elicit: options`.
pub fn from_options(
    locale: Option<&serde_json::Value>,
    messages: Option<&serde_json::Value>,
    what: &str,
) -> Result<Messages, String> {
    use serde_json::Value;
    let chosen = match locale {
        None | Some(Value::Null) => Messages::from_browser(),
        Some(Value::String(tag)) => Messages::new(tag),
        Some(_) => {
            return Err(format!(
                "{what}.locale must be a language tag such as \"de\""
            ))
        }
    };
    match messages {
        None | Some(Value::Null) => Ok(chosen),
        Some(Value::Object(map)) => {
            let mut pairs = Vec::new();
            for (k, v) in map {
                let Some(text) = v.as_str() else {
                    return Err(format!("{what}.messages.{k} must be a string"));
                };
                pairs.push((k.clone(), text.to_owned()));
            }
            chosen
                .with_overrides(pairs)
                .map_err(|e| format!("{what}.{e}"))
        }
        Some(_) => Err(format!(
            "{what}.messages must be an object of message keys and texts"
        )),
    }
}

/// The messages of the nearest provider (`provide_context`), else the browser's languages.
pub fn use_messages() -> Messages {
    leptos::prelude::use_context::<Messages>().unwrap_or_else(Messages::from_browser)
}

/// The words for an error of `code` about `field` (see [`Messages::field_error`]).
pub fn field_error_for(
    m: &Messages,
    field: &Field,
    code: ErrorCode,
    value: Option<&str>,
) -> String {
    let number = value.and_then(read_number);
    match (code, &field.kind) {
        (ErrorCode::Required, _) => m.t("error.required", &[]),
        (ErrorCode::UnknownField, _) => m.t("error.unknown_field", &[("name", &field.name)]),
        (ErrorCode::MinLength, FieldKind::String { min_length, .. }) => {
            m.count("error.min_length", min_length.unwrap_or(0), &[])
        }
        (ErrorCode::MaxLength, FieldKind::String { max_length, .. }) => {
            m.count("error.max_length", max_length.unwrap_or(0), &[])
        }
        (ErrorCode::Pattern, FieldKind::String { pattern, .. }) => {
            let shown = pattern
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            // Code points, as the core counts them (without std's word-at-a-time counter).
            let long = value.is_some_and(|v| {
                v.bytes().filter(|&b| (b as i8) >= -0x40).count() > MAX_PATTERN_TEXT_LEN
            });
            if long {
                m.count(
                    "error.pattern_too_long",
                    MAX_PATTERN_TEXT_LEN as u64,
                    &[("pattern", &shown)],
                )
            } else {
                m.t("error.pattern", &[("pattern", &shown)])
            }
        }
        (ErrorCode::Format, FieldKind::String { format, .. }) => m.t(
            match format {
                Some(StringFormat::Email) => "error.format.email",
                Some(StringFormat::Uri) => "error.format.uri",
                Some(StringFormat::Date) => "error.format.date",
                Some(StringFormat::DateTime) | None => "error.format.date_time",
            },
            &[],
        ),
        (ErrorCode::Minimum, FieldKind::Number(b) | FieldKind::Integer(b)) => {
            bound(m, b, number, true)
        }
        (ErrorCode::Maximum, FieldKind::Number(b) | FieldKind::Integer(b)) => {
            bound(m, b, number, false)
        }
        (ErrorCode::Enum, FieldKind::Select { options })
        | (ErrorCode::Enum, FieldKind::MultiSelect { options, .. }) => {
            let mut shown = String::new();
            let comma = m.t("list.separator", &[]);
            for (i, o) in options.iter().take(MAX_LISTED_CHOICES).enumerate() {
                if i > 0 {
                    shown.push_str(&comma);
                }
                shown.push_str(&o.title);
            }
            let more = options.len().saturating_sub(MAX_LISTED_CHOICES) as u64;
            if more > 0 {
                m.count("error.enum_more", more, &[("choices", &shown)])
            } else {
                m.t("error.enum", &[("choices", &shown)])
            }
        }
        (ErrorCode::MinItems, FieldKind::MultiSelect { min_items, .. }) => {
            m.count("error.min_items", min_items.unwrap_or(0), &[])
        }
        (ErrorCode::MaxItems, FieldKind::MultiSelect { max_items, .. }) => {
            m.count("error.max_items", max_items.unwrap_or(0), &[])
        }
        (_, FieldKind::Number(_)) => m.t("error.type.number", &[]),
        (_, FieldKind::Integer(_)) => m.t("error.type.integer", &[]),
        (_, FieldKind::Boolean) => m.t("error.type.boolean", &[]),
        (_, FieldKind::Select { .. }) => m.t("error.type.choice", &[]),
        (_, FieldKind::MultiSelect { .. }) => m.t("error.type.choices", &[]),
        (_, FieldKind::String { .. }) => m.t("error.type.text", &[]),
    }
}

/// A control's text as a number, if it is one: by the engine's reader in wasm (Rust's
/// float reader is some 7 KB gzip of tables the library otherwise does without).
#[cfg(target_arch = "wasm32")]
fn read_number(t: &str) -> Option<f64> {
    let t = t.trim();
    let n = js_sys::Number::from(wasm_bindgen::JsValue::from_str(t)).value_of();
    (!t.is_empty() && n.is_finite()).then_some(n)
}

#[cfg(not(target_arch = "wasm32"))]
fn read_number(t: &str) -> Option<f64> {
    t.trim().parse().ok()
}

/// A broken bound in words: the inclusive one when it is the one broken (or the only one),
/// else the exclusive one, as the core checks them (inclusive first).
fn bound(m: &Messages, b: &NumberBounds, n: Option<f64>, lower: bool) -> String {
    let (inclusive, exclusive) = if lower {
        (b.minimum, b.exclusive_minimum)
    } else {
        (b.maximum, b.exclusive_maximum)
    };
    let broke_inclusive = match (inclusive, n) {
        (Some(x), Some(n)) => {
            if lower {
                n < x
            } else {
                n > x
            }
        }
        (Some(_), None) => true,
        (None, _) => false,
    };
    let (key, x) = match (broke_inclusive, inclusive, exclusive) {
        (true, Some(x), _) | (false, Some(x), None) => (
            if lower {
                "error.minimum"
            } else {
                "error.maximum"
            },
            x,
        ),
        (_, _, Some(x)) => (
            if lower {
                "error.minimum_exclusive"
            } else {
                "error.maximum_exclusive"
            },
            x,
        ),
        (_, None, None) => (
            if lower {
                "error.minimum"
            } else {
                "error.maximum"
            },
            0.0,
        ),
    };
    m.t(key, &[("bound", &m.number(x))])
}

pub mod js;
#[cfg(test)]
mod tests;
