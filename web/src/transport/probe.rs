//! Telling "server unreachable" from "blocked by CORS" after `fetch` rejected.
//!
//! Both look the same to a page: an opaque `TypeError: Failed to fetch`. A `no-cors`
//! request needs no permission from the server and yields an opaque response whenever
//! *something* answered, so: opaque answer => the server is up and CORS is the problem;
//! rejection again => nothing is listening (or the network is down).

use gloo_net::http::Request;
use web_sys::RequestMode;

use super::error::TransportError;

/// The origin (`scheme://host:port`) of `url`, if it parses.
pub fn origin_of(url: &str) -> Option<String> {
    web_sys::Url::new(url).ok().map(|u| u.origin())
}

/// The origin of the page we run in.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_else(|| "this page".into())
}

/// Classifies a rejected `fetch` to `url` by probing it once with `no-cors`.
pub async fn classify_fetch_failure(url: &str) -> TransportError {
    let origin = page_origin();
    let reachable = Request::get(url)
        .mode(RequestMode::NoCors)
        .send()
        .await
        .is_ok();
    if !reachable {
        return TransportError::Unreachable {
            url: url.to_owned(),
        };
    }
    if origin_of(url).as_deref() == Some(origin.as_str()) {
        // Same origin: CORS cannot be the cause, so the connection itself broke.
        TransportError::Dropped {
            url: url.to_owned(),
            detail: "the server closed the connection without answering".into(),
        }
    } else {
        TransportError::BlockedByCors {
            url: url.to_owned(),
            origin,
        }
    }
}
