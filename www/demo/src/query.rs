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
    /// Problems with the parameters (said in the alert, in the page's language).
    pub problems: Vec<Problem>,
}

/// A problem with a parameter: a key of the demo's catalogs and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Problem {
    fn new(key: &'static str, args: &[(&'static str, String)]) -> Self {
        Problem {
            key,
            args: args.to_vec(),
        }
    }

    /// The problem in words, in the language of `m`.
    pub fn words(&self, m: &mcp_elicit_web::i18n::Messages) -> String {
        use crate::words::DemoWords;
        let args: Vec<(&str, &str)> = self.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        m.d(self.key, &args)
    }
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
            None => out.problems.push(Problem::new(
                "demo.query.protocol",
                &[("value", format!("{p:?}"))],
            )),
        }
    }
    if let Some(tool) = get("tool").filter(|t| !t.trim().is_empty()) {
        let args = match get("args") {
            None => Ok(Map::new()),
            Some(text) if text.trim().is_empty() => Ok(Map::new()),
            Some(text) => match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(map)) => Ok(map),
                Ok(_) => Err(Problem::new(
                    "demo.query.args_object",
                    &[("example", r#"{"path":"/tmp"}"#.to_owned())],
                )),
                Err(err) => Err(Problem::new(
                    "demo.query.args_json",
                    &[("reason", err.to_string())],
                )),
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
