//! Routing ids: what a card's answer is routed by (the `id` of [`ClientEvent::Elicit`],
//! given back to [`Connection::answer`]). Every shape is made here, so none can pass for
//! another:
//!
//! | card | routing id | unique in the page because |
//! |------|------------|----------------------------|
//! | an elicitation of a modern round | `<call>/<key>` ([`call_card`]) | the call's number ([`next_call`]): two calls of one tool ask under the same key |
//! | a legacy server request | `<session>/<id as JSON>` (the core's [`route_of`]) | the session's number ([`next_session`]): a restarted server numbers its requests from 0 again |
//! | a URL elicitation of a legacy -32042 error | `url-required:id:<elicitationId>`, or `url-required:unnamed:<n>` without one ([`url_required_card`]) | [`URL_REQUIRED_KEY_PREFIX`], which no number starts with |
//!
//! Call and session numbers count from 1 across every connection of the page, so a card
//! of a closed connection never routes to a request of the next one.
//!
//! [`ClientEvent::Elicit`]: super::ClientEvent::Elicit
//! [`Connection::answer`]: super::Connection::answer
//! [`route_of`]: mcp_elicit::driver::legacy::route_of

use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of the keys and routing ids of URL elicitations that came in a -32042 error
/// (they have no JSON-RPC id to answer: the person just opens them, then retries the call).
pub const URL_REQUIRED_KEY_PREFIX: &str = "url-required:";

/// Numbers every modern call of the page.
static CALL_NUMBERS: AtomicU64 = AtomicU64::new(0);

/// Numbers every legacy session of the page (a handshake begun).
static SESSION_NUMBERS: AtomicU64 = AtomicU64::new(0);

/// The number of a modern call about to start.
pub(super) fn next_call() -> u64 {
    CALL_NUMBERS.fetch_add(1, Ordering::Relaxed).wrapping_add(1)
}

/// The number of a legacy session about to begin its handshake.
pub(super) fn next_session() -> u64 {
    SESSION_NUMBERS
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_add(1)
}

/// The routing id of the card for `key` in modern call `number`.
pub(super) fn call_card(number: u64, key: &str) -> String {
    format!("{number}/{key}")
}

/// The call number and key of a modern card's routing id (keys may hold `/`; numbers do
/// not).
pub(super) fn parse_call_card(id: &str) -> Option<(u64, &str)> {
    let (number, key) = id.split_once('/')?;
    Some((number.parse().ok()?, key))
}

/// The routing id of the card for a -32042's URL elicitation `elicitation_id`: a retried
/// call's error names the same elicitation again, and its card replaces the earlier one.
/// One without an id (empty) gets its own card, numbered by `unnamed`.
pub(super) fn url_required_card(elicitation_id: &str, unnamed: impl FnOnce() -> u64) -> String {
    if elicitation_id.is_empty() {
        format!("{URL_REQUIRED_KEY_PREFIX}unnamed:{}", unnamed())
    } else {
        format!("{URL_REQUIRED_KEY_PREFIX}id:{elicitation_id}")
    }
}

/// Whether `id` routes a -32042's URL card (nothing to send: the server learns of it when
/// the URL flow completes).
pub(super) fn is_url_required(id: &str) -> bool {
    id.starts_with(URL_REQUIRED_KEY_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_card_parses_back_even_with_slashes_in_its_key() {
        let id = call_card(7, "a/b");
        assert_eq!(parse_call_card(&id), Some((7, "a/b")));
        assert_eq!(parse_call_card("x/y"), None);
        assert_eq!(parse_call_card("7"), None);
    }

    #[test]
    fn url_cards_never_look_like_numbered_ones() {
        let named = url_required_card("e1", || 0);
        let unnamed = url_required_card("", || 3);
        assert_eq!(named, "url-required:id:e1");
        assert_eq!(unnamed, "url-required:unnamed:3");
        assert!(is_url_required(&named) && is_url_required(&unnamed));
        assert!(!is_url_required(&call_card(1, "url-required:id:e1")));
        assert_eq!(parse_call_card(&named), None);
    }
}
