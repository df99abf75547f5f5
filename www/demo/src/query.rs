//! The demo's query parameters (`server`, `protocol`, `tool`, `args`, `lang`), per the DOM
//! contract.

use mcp_elicit_web::client::ProtocolChoice;
use serde_json::{Map, Value};

/// What the page was opened with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StartParams {
    pub server: Option<String>,
    pub protocol: Option<ProtocolChoice>,
    /// Tool to select once connected, its form filled in with these arguments. Never
    /// called from here: only the person's Call tool click runs it (any site can link to
    /// the page, and a tool may act on the person's behalf).
    pub prefill: Option<Prefill>,
    /// `lang`: the page's language (a BCP 47 tag); without it, the browser's languages.
    pub lang: Option<String>,
    /// Problems with the parameters, said in words (shown in the alert).
    pub problems: Vec<String>,
}

/// The `tool` and `args` of a link: what to show filled in, not something to run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prefill {
    pub tool: String,
    pub args: Map<String, Value>,
}

/// Parses already-decoded query values (as `URLSearchParams` yields them).
pub fn parse(get: impl Fn(&str) -> Option<String>) -> StartParams {
    let mut out = StartParams {
        server: get("server").filter(|s| !s.trim().is_empty()),
        lang: get("lang").filter(|s| !s.trim().is_empty()),
        ..StartParams::default()
    };
    if let Some(p) = get("protocol") {
        match ProtocolChoice::parse(&p) {
            Some(choice) => out.protocol = Some(choice),
            None => out.problems.push(format!(
                "The protocol parameter {p:?} is not one of auto, 2026-07-28 or 2025-11-25; using auto."
            )),
        }
    }
    if let Some(tool) = get("tool").filter(|t| !t.trim().is_empty()) {
        let args = match get("args") {
            None => Ok(Map::new()),
            Some(text) if text.trim().is_empty() => Ok(Map::new()),
            Some(text) => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(map)) => Ok(map),
                Ok(_) => Err(
                    "The args parameter must be a JSON object, like {\"path\":\"/tmp\"}."
                        .to_owned(),
                ),
                Err(err) => Err(format!("The args parameter is not valid JSON: {err}.")),
            },
        };
        match args {
            Ok(args) => out.prefill = Some(Prefill { tool, args }),
            Err(problem) => out.problems.push(problem),
        }
    }
    out
}

/// Reads the current page's query string.
pub fn from_location() -> StartParams {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    match web_sys::UrlSearchParams::new_with_str(&search) {
        Ok(params) => parse(|name| params.get(name)),
        Err(_) => StartParams::default(),
    }
}
