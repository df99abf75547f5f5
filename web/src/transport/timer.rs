//! A `setTimeout` future, for the modern era's back-off and the GET stream's reconnect delay,
//! and a bound on how long any future may take ([`within`]).

use std::future::Future;

use futures::future::{select, Either};
use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Resolves after `ms` milliseconds (at once outside a window, e.g. in a worker without one).
pub async fn sleep(ms: u32) {
    let delay = i32::try_from(ms).unwrap_or(i32::MAX);
    let promise = Promise::new(&mut |resolve, _reject| {
        let scheduled = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, delay)
                .ok()
        });
        if scheduled.is_none() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// `work`'s output, or `None` when it has not finished after `ms` milliseconds (it is then
/// dropped: whatever it owned, e.g. a response body, is released). To stop a `fetch` on the
/// wire too, give it an `AbortSignal` and abort on `None` (the client's
/// `exchange::bounded` does both, for the POSTs of either era).
pub async fn within<F: Future>(ms: u32, work: F) -> Option<F::Output> {
    let timer = sleep(ms);
    futures::pin_mut!(work, timer);
    match select(work, timer).await {
        Either::Left((output, _)) => Some(output),
        Either::Right(((), _)) => None,
    }
}
